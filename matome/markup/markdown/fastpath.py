"""The markdownify fast path: short comments rendered without the Markdown parser.

Most markdownify inputs are short comments: plain text, line breaks, <br>, now and then a
code span or a bare URL. For those the Markdown machinery is pure overhead, so they are
rendered directly - to exactly what the full path produces (tests compare the two).
Anything that might be Markdown syntax, HTML other than <br>, an entity, an e-mail
address, or a URL that linkify would not simply take after a space, a line start, a '('
or a <br> takes the full path. A matome article's frame (paragraphs, one-line quotes,
links to plain URLs) takes the same road.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .chars import GO_SPACE
from .extras import tags_by_char
from .hooks import autolink_context
from .inline import hard_break_keep
from .library_internals import escapeHtml
from .linkify import after_trigger, autolink_at, autolink_href
from .rawhtml import OMITTED
from .settings import Settings
from .typographer import QuoteCount, typography
from .urls import safe_href, url_escape

# Checks that refuse the fast path, cheapest first: one regex of many alternatives tried
# them all at every character, several times slower. Each is a character
# class or starts with a literal, which the regex engine skips to; an alternative that
# starts otherwise (a lookbehind, a line start) is tried at every character.
_SYNTAX_CHARS = r"*`\\~|@{}\t\r\x00"  # syntax, e-mail
_FAST_SYNTAX = re.compile(f"[{_SYNTAX_CHARS}]")
_ENTITY = re.compile(r"&[#A-Za-z0-9]+;")
# '_', '[', ']' and '^' are text unless a rule takes them: an underscore between two letters
# or digits never starts or ends emphasis (snake_case), and brackets are a link or footnote
# only with "](", "][", "]:", "[^", "^[" or "![". Linkify still sees them: it starts right after
# an underscore, and links nothing inside an unclosed '['.
_MAYBE_CHARS = r"_\[\]^"
_FAST_MAYBE = re.compile(f"[{_MAYBE_CHARS}]")
_FAST_MARKS = re.compile(f"[{_SYNTAX_CHARS}{_MAYBE_CHARS}]")  # either: one search for most bodies
_FAST_BRACKETS = re.compile(r"\]\(|\]\[|\]:|\[\^|\^\[|!\[")
_INNER_UNDERSCORES = re.compile(r"(?<=[^\W_])_+(?=[^\W_])")
_SQUARE = re.compile(r"[\[\]]")
_EMOJI_NAME = re.compile(r":[A-Za-z0-9_+-]+:")
_COLON_LINE = re.compile(r"\n *:")  # a definition's ':' at a line start (after the first)
# A '<' that starts no <br>, <br/> or <br />. When there is none, every '<' starts one of
# them, and a '>' outside them makes more '>' than '<'.
_FAST_LT = re.compile(r"<(?!br(?:>|/>| />))")
# Block starts and blank-looking lines, then indented code: on the first line, then (when
# there are more) at every line start.
_LINE_START_SYNTAX = r" *(?:[=+\-#]|\d{1,9}[.)]|<br ?/?>\s*$)| +$"
_FAST_FIRST_LINE = re.compile(rf"{_LINE_START_SYNTAX}| {{4}}")
_FAST_LINES = re.compile(rf"^(?:{_LINE_START_SYNTAX})|(?:\A\n*|\n\n) {{4}}", re.M)


def _fast_refused(text: str, spans: list[Span] | None) -> bool:
    """Whether ``text`` (its linked URLs, ``spans``, masked) may hold something the fast
    path does not render."""
    if _FAST_MARKS.search(text) and (
        _FAST_SYNTAX.search(text) or _FAST_MAYBE.search(text) and not _inert_marks(text, spans)
    ):
        return True
    if "&" in text and _ENTITY.search(text):
        return True
    if ":" in text and (
        _EMOJI_NAME.search(text) or text.lstrip(" ").startswith(":") or _COLON_LINE.search(text)
    ):
        return True
    if ("<" in text or ">" in text) and (
        _FAST_LT.search(text) or text.count(">") != text.count("<")
    ):
        return True
    if _FAST_FIRST_LINE.match(text):
        return True
    return "\n" in text and _FAST_LINES.search(text) is not None


def _inert_marks(text: str, spans: list[Span] | None) -> bool:
    """Whether every '_', '[', ']' and '^' of ``text`` is plain text, and no URL is linked
    other than as ``spans`` says."""
    if "_" in text:
        runs = list(_INNER_UNDERSCORES.finditer(text))
        if text.count("_") != sum(m.end() - m.start() for m in runs):
            return False
        if any(_URL_START.match(text, m.end()) for m in runs):
            return False
    if _FAST_BRACKETS.search(text):
        return False
    return not spans or _outside_labels(text, spans)


def _outside_labels(text: str, spans: list[Span]) -> bool:
    """Whether no span starts after an unclosed '[' (counted over the whole text, which
    refuses more than the per-paragraph count of the full path would)."""
    depth, starts = 0, iter(start for start, _, _ in spans)
    start = next(starts)
    for m in _SQUARE.finditer(text):
        while start < m.start():
            if depth:
                return False
            start = next(starts, None)
            if start is None:
                return True
        depth = depth + 1 if m.group() == "[" else max(depth - 1, 0)
    return not depth


_FAST_TYPO = re.compile(r"""['"\-.]""")
_LINE_SPACES = re.compile(r"( *)\n *")
_URL_START = re.compile(r"https?:|ftp:|www\.")
_LINK_MARK = "\x00"  # a link's place in a paragraph's text (_FAST_SYNTAX refuses it in input)


def _line_break(m: re.Match) -> str:
    spaces = m.group(1)
    return hard_break_keep(spaces) + "<br>\n" if len(spaces) >= 2 else "\n"


_BR_TAG = re.compile(r"<br ?/?>")

Span = tuple[int, int, str]  # start, end, kind of a linkified URL


def _bare_urls(text: str) -> list[Span] | None:
    """The URLs linkify takes, found as the full path's rules find them, or None if that
    depends on what the inline parser made just before one.

    Linkify starts after a space, a line start, a '(' or an inline node: in fast-path text,
    a <br> tag, a link, or a typographer entity (after '-', '.' or a quote: undecided).
    Anywhere else ("日本https://x") a URL stays text."""
    found: list[Span] = []
    pos = 0
    for m in _URL_START.finditer(text):
        start = m.start()
        if start < pos:
            continue
        if after_trigger(text, start) or text.endswith(_BR_FORMS, 0, start):
            link = autolink_at(text[start:])
            if link is not None and link[1] != "email":
                pos = start + link[0]
                found.append((start, pos, link[1]))
        elif text[start - 1] in "-.'\"" or (found and found[-1][1] == start):
            return None
    return found


_BR_FORMS = ("<br>", "<br/>", "<br />")


# A code span on one line: backticks, then the first run of as many (a code span across
# lines, or unmatched backticks, are left in the text, which the fast path then refuses).
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)[^\n]+?(?<!`)\1(?!`)")


def _code_spans(text: str) -> list[Span]:
    return [(m.start(), m.end(), "code") for m in _CODE_SPAN.finditer(text)]


def _code_content(source: str) -> str:
    """A code span's text as CommonMark takes it: one space off each side when both have
    one and the text is not all spaces."""
    ticks = len(source) - len(source.lstrip("`"))
    content = source[ticks:-ticks]
    if content.startswith(" ") and content.endswith(" ") and content.strip(" "):
        return content[1:-1]
    return content


def _masked(text: str, spans: list[Span], fill: str = "a") -> str:
    """``text`` with each span's characters replaced by ``fill``: letters for URLs, which no
    check refuses, and for code spans "(", which no underscore beside it takes for a letter."""
    out, pos = [], 0
    for start, end, _ in spans:
        out += [text[pos:start], fill * (end - start)]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _escaped(text: str) -> str:
    # An '&' here starts no entity (_fast_refused refuses those); '<' and '>' are in <br> only.
    return text.replace("&", "&amp;").replace('"', "&quot;")


def _quoted(text: str, start: int, stop: int, spans: list[Span] | None) -> str:
    """``text[start:stop]`` with '&' and quotes escaped and each span in it as ``_LINK_MARK``."""
    if not spans:
        return _escaped(text[start:stop])
    out, pos = [], start
    for s, e, _ in spans:
        if start <= s < stop:
            out += [_escaped(text[pos:s]), _LINK_MARK]
            pos = e
    out.append(_escaped(text[pos:stop]))
    return "".join(out)


# An inline link to a plain URL: no title, no angle brackets, nothing to unescape.
_INLINE_LINK = re.compile(r"\[([^\[\]\n<>&`'\"\\]+)\]\(([^\s()<>\"'\\&`\x00-\x1f]+)\)")
# What a paragraph with links may not hold: quotes, emphasis marks, and '--' or '..'
# (the typographer's), so that every piece around a link renders on its own.
_LINK_REFUSED = re.compile(r"['\"_*~]|--|\.\.|!\[")
_BLANK_LINE = re.compile(r"\n[ \t]*(?=\n)")


def _blocks(text: str) -> list[str]:
    """The blocks of ``text`` between blank lines (lines of spaces and tabs or nothing)."""
    return [
        b.strip("\n")
        for b in _BLANK_LINE.sub("\n", "\n" + text + "\n").split("\n\n")
        if b.strip("\n")
    ]


# What any rule of Markdown, the typographer, linkify or emoji starts from: ASCII
# punctuation, control characters, and whitespace other than the space (Unicode spaces,
# zero-width and BOM characters included, to be safe). A line without any of them and
# without outer spaces is a paragraph of plain text: three comment bodies in five.
_NOT_PLAIN = re.compile(
    r"[\x00-\x1f!-/:-@\[-`{-~\x7f-\xa0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]"
)


def plain_line(text: str) -> bool:
    """Whether ``text`` is one paragraph of plain text, which Markdown gives back as it is."""
    return text[:1] not in ("", " ") and text[-1] != " " and _NOT_PLAIN.search(text) is None


# Writes one link from its hook context (``hooks.autolink_context``).
LinkHook = Callable[[dict[str, Any]], str]


class FastPath:
    def __init__(self, s: Settings):
        self.s = s
        # _fast_refused refuses anything shaped like an emoji name, so emoji need no full path.
        self.enabled = not (s.hard_wraps or s.xhtml)
        self.br = None if s.unsafe else OMITTED
        # What the extensions a site turns on make syntax: the characters of Extras, the
        # first of each passthrough delimiter, and line breaks when CJK ones change.
        marks = set(tags_by_char(s.extras, s.strikethrough))
        marks |= {o[0] for o, _ in s.passthrough_block + s.passthrough_inline}
        marks |= {"\n"} if s.cjk_line_breaks else set()
        self.extension_marks = (
            re.compile(f"[{re.escape(''.join(sorted(marks)))}]") if marks else None
        )

    def render(self, text: str, link_hook: LinkHook | None = None) -> str | None:
        """The markdownify output for ``text``, or None when the full path is needed.
        ``link_hook``: what writes the links (Hugo's embedded link hook), if not matome."""
        if not self.enabled:
            return None
        links = self._links(text)
        if links is None:
            return None
        body = text.strip("\n")
        if not body:
            return None
        if "\n\n\n" in body:
            return None  # runs of blank lines: leave them to the full path
        blocks = body.split("\n\n")
        if self.extension_marks and any(self.extension_marks.search(b) for b in blocks):
            return None
        counter = QuoteCount()
        paragraphs = [self._paragraph(block, counter, links, link_hook) for block in blocks]
        if len(paragraphs) == 1:
            return paragraphs[0].strip(GO_SPACE)
        return "".join(f"<p>{p}</p>\n" for p in paragraphs)

    def _links(self, text: str) -> bool | None:
        """Whether ``text`` has URLs for linkify; None when it is not for the fast path."""
        links = "://" in text or "www." in text
        checked, spans = text, None
        if links:
            spans = _bare_urls(text) if self.s.linkify else None
            if spans is None:
                return None
            checked = _masked(text, spans)
        if "`" in text:
            if links:  # a URL may run into a code span that starts after it
                return None
            checked = _masked(text, _code_spans(text), "(")
        return None if _fast_refused(checked, spans) else links

    def _paragraph(
        self, block: str, counter: QuoteCount, links: bool, link_hook: LinkHook | None
    ) -> str:
        # The same text markdown-it's inline parser gets: outer spaces trimmed.
        block = block.strip(" ")
        spans = _bare_urls(block) if links else _code_spans(block) if "`" in block else None
        anchors = (
            [self._span_html(block[start:end], kind, link_hook) for start, end, kind in spans]
            if spans
            else None
        )
        block = self._text_html(block, counter, spans)
        if anchors:
            first, *rest = block.split(_LINK_MARK)
            block = first + "".join(a + text for a, text in zip(anchors, rest, strict=True))
        return block

    def _text_html(self, text: str, counter: QuoteCount, spans: list[Span] | None) -> str:
        """Text with its typography, escapes and line breaks; each span a ``_LINK_MARK``."""
        if self.s.typographer and _FAST_TYPO.search(text):
            text = self.typography(text, counter, spans)
        else:
            text = _quoted(text, 0, len(text), spans)
        if self.br is not None and "<br" in text:
            text = _BR_TAG.sub(self.br, text)
        if " \n" in text or "\n " in text:
            text = _LINE_SPACES.sub(_line_break, text)
        return text

    def document(self, text: str, link_hook: LinkHook | None = None) -> str | None:
        """The HTML of a page body made only of paragraphs, one-line block quotes and links
        to plain URLs (a matome article's frame around its comments), or None.

        Each block passes the checks of ``render``; a paragraph with ``[label](url)``
        links has no quote, URL, bracket or underscore besides them, so neither the
        typographer nor linkify nor emphasis can reach across a link."""
        if not self.enabled:
            return None
        out: list[str] = []
        counter = QuoteCount()
        for block in _blocks(text):
            if self.extension_marks and self.extension_marks.search(block):
                return None
            quote = block.startswith(">")
            if quote:
                block = block[2:] if block.startswith("> ") else block[1:]
                if "\n" in block or not block.strip(" "):
                    return None
            if "](" in block:
                # Hugo's embedded hook looks a link up among the site's pages: full path.
                html = None if link_hook else self._link_paragraph(block, counter)
            else:
                links = self._links(block)
                html = None if links is None else self._paragraph(block, counter, links, link_hook)
            if html is None:
                return None
            out.append(
                f"<blockquote>\n<p>{html}</p>\n</blockquote>\n" if quote else f"<p>{html}</p>\n"
            )
        return "".join(out) if out else None

    def _link_paragraph(self, block: str, counter: QuoteCount) -> str | None:
        found = list(_INLINE_LINK.finditer(block))
        if not found or block != block.strip(" ") or _LINK_REFUSED.search(block):
            return None
        masked = _masked(block, [(m.start(), m.end(), "link") for m in found])
        if "://" in masked or "www." in masked or "[" in masked or "]" in masked:
            return None
        if _fast_refused(masked, None):
            return None
        out, pos = [], 0
        for m in found:
            label, dest = m.group(1), m.group(2)
            if label != label.strip(" ") or _fast_refused(label, None):
                return None
            href = safe_href(url_escape(dest), self.s.unsafe)
            out.append(self._text_html(block[pos : m.start()], counter, None))
            out.append(f'<a href="{href}">{_escaped(label)}</a>')
            pos = m.end()
        out.append(self._text_html(block[pos:], counter, None))
        return "".join(out)

    def _span_html(self, source: str, kind: str, link_hook: LinkHook | None) -> str:
        """A code span or an autolink (written by ``link_hook`` as the full path's is)."""
        if kind == "code":
            return f"<code>{escapeHtml(_code_content(source))}</code>"
        href = autolink_href(source, kind, self.s.linkify_protocol)
        if link_hook is not None:
            return link_hook(autolink_context(href, source))
        return f'<a href="{safe_href(href, self.s.unsafe)}">{escapeHtml(source)}</a>'

    def typography(self, block: str, counter: QuoteCount, spans: list[Span] | None) -> str:
        subs = self.s.typographer
        out, pos = [], 0
        for m in _FAST_TYPO.finditer(block):
            start = m.start()
            if start < pos or spans and any(s <= start < e for s, e, _ in spans):
                continue  # linkify took the URL's dots and dashes before the typographer
            before = block[start - 1] if start else "\n"
            found = typography(subs, block, start, before, counter)
            if found is None:
                continue
            out.append(_quoted(block, pos, start, spans))
            out.append(found[0])
            pos = start + found[1]
        out.append(_quoted(block, pos, len(block), spans))
        return "".join(out)
