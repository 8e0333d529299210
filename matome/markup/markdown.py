"""Markdown to HTML the way Hugo renders it with Goldmark.

matome must produce the same HTML as ``hugo`` for the same content, so this module
sets markdown-it-py up to behave like Hugo's Goldmark configuration: same extensions,
same raw-HTML policy, same typographer output (HTML entities), same heading IDs, same
link escaping and the same code block wrappers. Where markdown-it's own rules differ
from Goldmark's, a small rule below replaces them; each says why.

Everything configurable is read from Hugo's ``markup`` config dict (keys are matched
case-insensitively, as Hugo does) once, in :class:`MarkdownRenderer`. A renderer keeps
no per-document state between calls, so one instance serves a whole build and can be
used from forked worker processes.

The reference is Hugo 0.168 (Goldmark 1.8.6); tests/test_markdown_hugo.py compares the
output with the real ``hugo`` binary. What does not match, on purpose:

* Fenced code is tokenised by Pygments, not Chroma: the wrappers (``div.highlight``,
  ``pre``/``code`` attributes, line spans, line numbers, highlighted lines, tables) are
  Chroma's, but token ``<span>`` classes and colours are Pygments' and the set of known
  languages differs a little (an unknown language gets Hugo's plain ``<pre>``).
* ``:emoji:`` names come from rich's table (a matome dependency), which lacks some of
  GitHub's names; text-default symbols get U+FE0F as GitHub's list has them.
* A few Goldmark parser quirks found by fuzzing are not reproduced; the tests list them.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import MD_TRIM_CHARS, escapeHtml
from markdown_it.rules_block.html_block import HTML_SEQUENCES
from markdown_it.rules_inline.state_inline import Delimiter, StateInline
from markdown_it.token import Token
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin

__all__ = ["Heading", "MarkdownRenderer", "RenderedMarkdown", "heading_id", "trim_short_html"]


@dataclass(frozen=True)
class Heading:
    """One heading of a page: ``text`` is its table-of-contents title (inline HTML)."""

    level: int
    text: str
    id: str


@dataclass
class RenderedMarkdown:
    html: str
    headings: list[Heading] = field(default_factory=list)


# --- configuration ------------------------------------------------------------------------

_TYPOGRAPHER_KEYS = {
    "leftsinglequote": "&lsquo;",
    "rightsinglequote": "&rsquo;",
    "leftdoublequote": "&ldquo;",
    "rightdoublequote": "&rdquo;",
    "endash": "&ndash;",
    "emdash": "&mdash;",
    "ellipsis": "&hellip;",
    "leftanglequote": "&laquo;",
    "rightanglequote": "&raquo;",
    "apostrophe": "&rsquo;",
}


@dataclass(frozen=True)
class _Settings:
    """Hugo's markup config with Hugo's defaults filled in."""

    unsafe: bool = False
    hard_wraps: bool = False
    xhtml: bool = False
    typographer: dict[str, str] | None = field(default_factory=lambda: dict(_TYPOGRAPHER_KEYS))
    linkify: bool = True
    linkify_protocol: str = "https"
    strikethrough: bool = True
    table: bool = True
    task_list: bool = True
    footnote: bool = True
    footnote_backlink: str = "&#x21a9;&#xfe0e;"
    definition_list: bool = True
    auto_heading_id: bool = True
    id_type: str = "github"
    attribute_title: bool = True
    emoji: bool = False
    code_fences: bool = True
    no_classes: bool = True
    style: str = "monokai"
    line_nos: Any = False
    line_numbers_in_table: bool = True
    line_no_start: int = 1
    tab_width: int = 4
    guess_syntax: bool = False
    wrapper_class: str = "highlight"
    toc_start: int = 2
    toc_end: int = 3
    toc_ordered: bool = False


def _lower_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k).lower(): _lower_keys(v) for k, v in value.items()}
    return value


def _get(tree: dict, path: str, default: Any) -> Any:
    node: Any = tree
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return default
        node = node[key]
    return node


def _settings(markup: dict | None, enable_emoji: bool) -> _Settings:
    m = _lower_keys(markup or {})
    ext = _get(m, "goldmark.extensions", {})
    return _Settings(
        unsafe=bool(_get(m, "goldmark.renderer.unsafe", False)),
        hard_wraps=bool(_get(m, "goldmark.renderer.hardwraps", False)),
        xhtml=bool(_get(m, "goldmark.renderer.xhtml", False)),
        typographer=_typographer_settings(_get(ext, "typographer", True)),
        linkify=bool(_get(ext, "linkify", True)),
        linkify_protocol=str(_get(ext, "linkifyprotocol", "https")),
        strikethrough=bool(_get(ext, "strikethrough", True)),
        table=bool(_get(ext, "table", True)),
        task_list=bool(_get(ext, "tasklist", True)),
        footnote=_footnote_enabled(_get(ext, "footnote", True)),
        footnote_backlink=str(_get(ext, "footnote.backlinkhtml", "&#x21a9;&#xfe0e;")),
        definition_list=bool(_get(ext, "definitionlist", True)),
        auto_heading_id=bool(_get(m, "goldmark.parser.autoheadingid", True)),
        id_type=str(_get(m, "goldmark.parser.autoheadingidtype", "github")).lower(),
        attribute_title=_attribute_title(_get(m, "goldmark.parser.attribute", True)),
        emoji=bool(enable_emoji),
        code_fences=bool(_get(m, "highlight.codefences", True)),
        no_classes=bool(_get(m, "highlight.noclasses", True)),
        style=str(_get(m, "highlight.style", "monokai")),
        line_nos=_get(m, "highlight.linenos", False),
        line_numbers_in_table=bool(_get(m, "highlight.linenumbersintable", True)),
        line_no_start=int(_get(m, "highlight.linenostart", 1)),
        tab_width=int(_get(m, "highlight.tabwidth", 4)),
        guess_syntax=bool(_get(m, "highlight.guesssyntax", False)),
        wrapper_class=str(_get(m, "highlight.wrapperclass", "highlight")),
        toc_start=int(_get(m, "tableofcontents.startlevel", 2)),
        toc_end=int(_get(m, "tableofcontents.endlevel", 3)),
        toc_ordered=bool(_get(m, "tableofcontents.ordered", False)),
    )


def _typographer_settings(value: Any) -> dict[str, str] | None:
    # Hugo accepts the old boolean form as well as the table with per-glyph entities.
    if isinstance(value, bool):
        return dict(_TYPOGRAPHER_KEYS) if value else None
    if not isinstance(value, dict) or value.get("disable"):
        return None if isinstance(value, dict) else dict(_TYPOGRAPHER_KEYS)
    return {k: str(value.get(k, v)) for k, v in _TYPOGRAPHER_KEYS.items()}


def _footnote_enabled(value: Any) -> bool:
    return bool(value.get("enable", True)) if isinstance(value, dict) else bool(value)


def _attribute_title(value: Any) -> bool:
    return bool(value.get("title", True)) if isinstance(value, dict) else bool(value)


# --- character classes as Goldmark (Go's unicode package) sees them -----------------------

_ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_ASCII_SPACE = frozenset(" \t\n\v\f\r")


# Go's unicode.IsSpace, which bytes.TrimSpace uses (str.isspace also counts U+001C-U+001F).
_GO_SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_GO_SPACE_SET = frozenset(_GO_SPACE)


def _is_go_space(ch: str) -> bool:
    return ch in _GO_SPACE_SET


def _is_punct_or_symbol(ch: str) -> bool:
    if ch < "\x80":
        return ch in _ASCII_PUNCT
    return unicodedata.category(ch)[0] in "PS"


def _is_punct(ch: str) -> bool:
    """Go's unicode.IsPunct: category P only (no symbols)."""
    return unicodedata.category(ch)[0] == "P"


# --- heading IDs -----------------------------------------------------------------------------


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if unicodedata.category(c) != "Mn")
    )


def _anchorize_github(text: str, ascii_only: bool) -> str:
    if ascii_only:
        text = _strip_accents(text)
    out = []
    for ch in text.strip(_GO_SPACE):
        if ascii_only and ch > "\x7f":
            continue
        if ch in "- ":
            out.append("-")
        elif ch == "_" or ch.isalpha() or ch.isdecimal():
            out.append(ch.lower())
    return "".join(out)


def _anchorize_blackfriday(text: str) -> str:
    out: list[str] = []
    dash = False
    for ch in text:
        if ch.isalpha() or ch.isnumeric():
            if dash and out:
                out.append("-")
            dash = False
            out.append(ch.lower())
        else:
            dash = True
    return "".join(out)


def anchorize(text: str, style: str = "github") -> str:
    """Hugo's anchorize: the fragment a heading text turns into (before de-duplication)."""
    if style == "blackfriday":
        return _anchorize_blackfriday(text)
    return _anchorize_github(text, ascii_only=style == "github-ascii")


def heading_id(text: str, style: str, seen: dict[str, int]) -> str:
    """Unique heading ID for ``text``; ``seen`` holds the IDs already used in the page.

    Like Hugo, an empty result becomes ``heading`` and a repeat gets ``-1``, ``-2``, ...
    (the first suffix not already taken). ``seen`` maps each used ID to the next suffix
    worth trying, which keeps many repeats linear.
    """
    base = anchorize(text, style) or "heading"
    if base not in seen:
        seen[base] = 1
        return base
    n = seen[base]
    while f"{base}-{n}" in seen:
        n += 1
    seen[base] = n + 1
    result = f"{base}-{n}"
    seen[result] = 1
    return result


def _reserve_id(seen: dict[str, int], value: str) -> None:
    seen.setdefault(value, 1)


# --- URL escaping (Goldmark's, not markdown-it's punycode/mdurl) --------------------------

_URL_SAFE = frozenset(
    "!#$&'()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"
)
_HEX = frozenset("0123456789abcdefABCDEF")
_URL_UNSAFE = re.compile(r"[^!#$&'()*+,\-./0-9:;=?@A-Z_a-z~]")  # what _URL_SAFE lacks, "%" too
_DANGEROUS = ("javascript:", "vbscript:", "file:", "data:")
_SAFE_DATA_IMAGES = ("png;", "gif;", "jpeg;", "webp;")


def _url_escape(url: str) -> str:
    """Percent-encode like Goldmark: keep URL-safe ASCII and existing ``%XX`` escapes.

    Goldmark leaves host names alone (no punycode) and only checks that the first
    character after ``%`` is a hex digit before keeping an escape as it is.
    """
    if not _URL_UNSAFE.search(url):  # most URLs: nothing to encode
        return url
    out = []
    i, n = 0, len(url)
    while i < n:
        ch = url[i]
        if ch in _URL_SAFE:
            out.append(ch)
        elif ch == "%" and i + 2 < n and url[i + 1] in _HEX:
            out.append(url[i : i + 3])
            i += 3
            continue
        elif ch == " ":
            out.append("%20")
        else:
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass")))
        i += 1
    return "".join(out)


def _is_dangerous_url(url: str) -> bool:
    low = url[:16].lower()
    if low.startswith("data:image/") and len(url) >= 11:
        return not low[11:].startswith(_SAFE_DATA_IMAGES)
    return low.startswith(_DANGEROUS)


# --- Goldmark's typographer -------------------------------------------------------------------
# markdown-it's smartquotes pair quotes across the whole block and output characters;
# Goldmark decides each quote on the spot from its neighbours (with a count of open
# quotes kept for the whole document) and outputs HTML entities, so this is a
# reimplementation of those rules.


class _QuoteCount:
    __slots__ = ("double", "single")

    def __init__(self) -> None:
        self.single = 0
        self.double = 0


def _byte_len(text: str) -> int:
    """UTF-8 length, capped: Goldmark's rules compare line lengths in bytes with small numbers."""
    return len(text[:8].encode("utf-8", "surrogatepass"))


def _byte_at(text: str, index: int) -> str:
    """The byte at ``index`` as a 1-char string (continuation bytes become '\\x80')."""
    raw = text[: index + 1].encode("utf-8", "surrogatepass")
    return chr(raw[index]) if index < len(raw) and raw[index] < 0x80 else "\x80"


def _rune_at_byte(text: str, index: int) -> str:
    raw = text[:8].encode("utf-8", "surrogatepass")
    while index > 0 and (raw[index] & 0xC0) == 0x80:
        index -= 1
    return raw[index:].decode("utf-8", "ignore")[:1] or " "


def _flanking(before: str, after: str) -> tuple[bool, bool]:
    before_punct, after_punct = _is_punct_or_symbol(before), _is_punct_or_symbol(after)
    before_space, after_space = _is_go_space(before), _is_go_space(after)
    left = not after_space and (not after_punct or before_space or before_punct)
    right = not before_space and (not before_punct or after_space or after_punct)
    return left, right


def _quote_delims(line: str, before: str) -> tuple[bool, bool]:
    """Goldmark's ScanDelimiter on a run of the quote at ``line[0]``: (can_open, can_close)."""
    end = 1
    while end < len(line) and line[end] == line[0]:
        end += 1
    after = line[end] if end < len(line) else " "
    return _flanking(before, after)


def _ascii_punct_or_space(ch: str) -> bool:
    return ch in _ASCII_PUNCT or ch in _ASCII_SPACE


def _apostrophe(line: str, before: str, blen: int, can_open: bool, can_close: bool) -> bool:
    c1 = _byte_at(line, 1) if blen > 1 else ""
    decade = blen > 3 and c1.isdigit() and _byte_at(line, 2).isdigit() and _byte_at(line, 3) == "s"
    if can_open and not can_close and decade:  # '90s
        after = _rune_at_byte(line, 4) if blen > 4 else " "
        if _is_go_space(after) or _is_punct_or_symbol(after):
            return True
    if blen > 1 and (_is_punct(before) or _is_go_space(before)) and c1 in ("t", "e", "n", "l"):
        return True  # 'tis, 'em, 'n', 'll
    return (
        blen > 1 and (before.isdecimal() or before.isalpha()) and _rune_at_byte(line, 1).isalpha()
    )


def _closes(line: str, blen: int, can_open: bool, can_close: bool) -> bool:
    if can_close and not can_open:
        return True
    if not (can_close and can_open and blen > 1 and _is_punct(_rune_at_byte(line, 1))):
        return False
    return blen == 2 or _ascii_punct_or_space(_byte_at(line, 2))


def _single_quote(subs, line, before, blen, counter) -> str | None:
    can_open, can_close = _quote_delims(line, before)
    if _apostrophe(line, before, blen, can_open, can_close):
        return subs["apostrophe"]
    if can_open and not can_close:
        c1 = _byte_at(line, 1) if blen > 1 else ""
        c12 = c1 + (_byte_at(line, 2) if blen > 2 else "")
        if c1 in ("s", "m", "t", "d") and (blen < 3 or _ascii_punct_or_space(_byte_at(line, 2))):
            return subs["rightsinglequote"]  # 's 'm 't 'd
        if c12 in ("ve", "ll", "re") and (blen < 4 or _ascii_punct_or_space(_byte_at(line, 3))):
            return subs["rightsinglequote"]  # 've 'll 're
        counter.single += 1
        return subs["leftsinglequote"]
    if blen > 2 and not _rune_at_byte(line, 1).isdecimal():
        return subs["rightsinglequote"]
    if counter.single > 0 and _closes(line, blen, can_open, can_close):
        counter.single -= 1
        return subs["rightsinglequote"]
    return None


def _double_quote(subs, line, before, blen, counter) -> str | None:
    can_open, can_close = _quote_delims(line, before)
    if can_open and not can_close:
        counter.double += 1
        return subs["leftdoublequote"]
    if counter.double > 0 and _closes(line, blen, can_open, can_close):
        if blen > 1 and line[1:2] == '"' and before.isdecimal():
            return None
        counter.double -= 1
        return subs["rightdoublequote"]
    return None


def _typography(subs: dict[str, str], src: str, pos: int, before: str, counter: _QuoteCount):
    """Goldmark's typographer at ``src[pos]``: ``(entity, chars consumed)`` or ``None``."""
    c = src[pos]
    if c == "-":
        if src.startswith("---", pos):
            return subs["emdash"], 3
        if src.startswith("--", pos):
            return subs["endash"], 2
        return None
    if c == ".":
        return (subs["ellipsis"], 3) if src.startswith("...", pos) else None
    if c == "<":
        return (subs["leftanglequote"], 2) if src.startswith("<<", pos) else None
    if c == ">":
        return (subs["rightanglequote"], 2) if src.startswith(">>", pos) else None
    # Quotes: the rest of the source line, with its newline when it has one.
    line = _line_at(src, pos)
    blen = _byte_len(line)
    if c == "'":
        value = _single_quote(subs, line, before, blen, counter)
    elif c == '"':
        value = _double_quote(subs, line, before, blen, counter)
    else:
        return None
    return (value, 1) if value is not None else None


def _line_at(src: str, pos: int) -> str:
    """Rest of the line at ``pos`` with its newline; a block's last line has none in Goldmark."""
    stop = src.find("\n", pos)
    return src[pos : stop + 1] if stop >= 0 else src[pos:]


def _typographer_rule(subs: dict[str, str]):
    def typographer(state: StateInline, silent: bool) -> bool:
        if silent or state.src[state.pos] not in "-.<>'\"":
            return False
        counter = state.env.get("_quotes")
        if counter is None:  # Goldmark (1.8.6) counts open quotes across the whole document
            counter = state.env["_quotes"] = _QuoteCount()
        before = state.src[state.pos - 1] if state.pos > 0 else "\n"
        found = _typography(subs, state.src, state.pos, before, counter)
        if found is None:
            return False
        token = state.push("typographer", "", 0)
        token.content = found[0]
        state.pos += found[1]
        return True

    return typographer


# --- text rule ---------------------------------------------------------------------------------
# markdown-it's text rule swallows letters, spaces, quotes and dots, so rules that Goldmark
# triggers on those (typographer, linkify) would never run. This one also stops at quotes,
# dots and wherever Goldmark would try to linkify.

_TERMINATORS = "\n!#$%&*+\\-:<=>@\\[\\\\\\]^_`{}~'\"."
_LINK_START = r"(?:https?:|ftp:|www\.|[-!#$%&'*+./0-9=?A-Z^_`a-z{|}~]+@)"
_LINK_START_RE = re.compile(_LINK_START)


def _after_trigger(src: str, pos: int) -> bool:
    """Whether ``pos`` follows a character Goldmark tries linkify after.

    Those are a space, a line start, and an unescaped '(', '~' (a '~' that is not
    strikethrough is handed on to linkify) or '`' (unmatched backticks become a node).
    """
    if pos == 0 or src[pos - 1] in " \n":
        return True
    if src[pos - 1] not in "(~`":
        return False
    slashes = len(src[: pos - 1]) - len(src[: pos - 1].rstrip("\\"))
    return slashes % 2 == 0


def _after_inline_node(state: StateInline) -> bool:
    """Goldmark re-reads a line after each inline node, so linkify may start right there."""
    if state.pending:
        return False
    return not state.tokens or state.tokens[-1].type != "text_special"


def _text_rule(linkify: bool):
    stops = f"[{_TERMINATORS}]"
    if linkify:
        stops += rf"|(?<![^ \n(~`])(?={_LINK_START})"
    pattern = re.compile(stops)

    def text(state: StateInline, silent: bool) -> bool:
        pos = state.pos
        if linkify and _after_inline_node(state) and _LINK_START_RE.match(state.src, pos):
            return False
        m = pattern.search(state.src, pos, state.posMax)
        stop = m.start() if m else state.posMax
        if stop == pos:
            return False
        if not silent:
            state.append_pending(state.src[pos:stop])
        state.pos = stop
        return True

    return text


# --- Goldmark's linkify ----------------------------------------------------------------------
# Goldmark links bare URLs only where its inline parser looks: at the start of a line,
# after a space (not a tab) or '(', and right after another inline node - so
# "日本https://x" stays text - and its URL pattern is ASCII-only, so a URL ends at the
# first non-ASCII character. linkify-it finds URLs anywhere.

_URL_PATH = r"""(?:[/#?][-a-zA-Z0-9@:%_+.~#$!?&/=();,'">^{}\[\]`]*)?"""
_URL_RE = re.compile(
    r"(?:http|https|ftp)://[-a-zA-Z0-9@:%._+~#=]{1,256}\.[a-z]+(?::\d+)?" + _URL_PATH
)
_WWW_RE = re.compile(
    r"www\.[-a-zA-Z0-9@:%._+~#=]{1,256}\.[a-z]+"
    r"""(?:[/#?][-a-zA-Z0-9@:%_+.~#!?&/=();,'">^{}\[\]`]*)?"""
)
_EMAIL_LOCAL = frozenset(
    "!#$%&'*+-./0123456789=?ABCDEFGHIJKLMNOPQRSTUVWXYZ^_`abcdefghijklmnopqrstuvwxyz{|}~"
)
_EMAIL_DOMAIN_RE = re.compile(
    r"[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*"
)
_URL_TRAILING = "?!.,:*_~"


def _without_trailing(text: str, end: int) -> int:
    """``end`` moved back over the punctuation Goldmark leaves out of a link's end."""
    while end > 1 and text[end - 1] in _URL_TRAILING:
        end -= 1
    return end


def _trim_url_end(text: str, end: int) -> int:
    """Goldmark's end fix-ups, in Hugo 0.168's order: trailing punctuation first, then an
    unbalanced ')' (as many characters as there are unmatched ones) or a final entity.
    So ``(https://x.org/a).`` links ``https://x.org/a`` and ``https://x.org/a.)`` keeps
    its '.': nothing is trimmed after the cut."""
    end = _without_trailing(text, end)
    last = text[end - 1]
    if last == ")":
        unbalanced = text[:end].count(")") - text[:end].count("(")
        return end - unbalanced if unbalanced > 0 else end
    if last == ";":
        i = end - 2
        while i >= 0 and text[i].isascii() and text[i].isalnum():
            i -= 1
        if i != end - 2 and i >= 0 and text[i] == "&":
            return i
    return end


def _match_url(text: str) -> tuple[int, str] | None:
    """(length, kind) of a Goldmark-linkified URL at the start of ``text``."""
    if text.startswith(("http:", "https:", "ftp:")):
        m = _URL_RE.match(text)
        if m:
            return _trim_url_end(text, m.end()), "url"
    if text.startswith("www."):
        m = _WWW_RE.match(text)
        if m:
            return _trim_url_end(text, m.end()), "www"
    return None


def _match_email(text: str) -> int | None:
    if not text or text[0] in _ASCII_PUNCT:
        return None
    at = 0
    while at < len(text) and text[at] in _EMAIL_LOCAL:
        at += 1
    if at == 0 or at >= len(text) - 1 or text[at] != "@":
        return None
    m = _EMAIL_DOMAIN_RE.match(text, at + 1)
    if not m or "." not in text[at + 1 : m.end() - 1]:
        return None
    end = m.end() - 1 if text[m.end() - 1] == "." else m.end()
    if end < len(text) and text[end] in "-_":
        return None
    return end


def _autolink_at(text: str) -> tuple[int, str] | None:
    """(length, kind) of the URL or e-mail address Goldmark links at the start of ``text``."""
    found = _match_url(text)
    if found:
        return found
    end = _match_email(text)
    return (_without_trailing(text, end), "email") if end else None


def _autolink_href(label: str, kind: str, protocol: str) -> str:
    if kind == "www":
        url = f"{protocol}://{label}"
    elif kind == "email":
        url = label if label.lower().startswith("mailto:") else "mailto:" + label
    else:
        url = label
    return _url_escape(url)


def _lowercase_declaration(state: StateInline, silent: bool) -> bool:
    """``<!doctype ...>`` is text for Goldmark: its declarations need an upper-case letter."""
    pos = state.pos
    src = state.src
    if src.startswith("<!", pos) and pos + 2 < state.posMax and src[pos + 2].islower():
        if not silent:
            state.pending += "<"
        state.pos += 1
        return True
    return False


def _label_rule(openers):
    """Track unclosed ``[`` the way Goldmark's link parser does: linkify is off inside them.

    A ``[`` that starts a link (or footnote reference) is consumed by that rule; any
    other one opens a label until the next ``]``. ``openers`` are those rules, asked
    in silent mode whether they would match here.
    """

    def rule(state: StateInline, silent: bool) -> bool:
        ch = state.src[state.pos]
        if silent or state.linkLevel > 0 or ch not in "[]":
            return False
        labels = _open_labels(state)
        if ch == "]":
            if labels:
                labels.pop()
            return False
        pos = state.pos
        for opener in openers:
            matched = opener(state, True)
            state.pos = pos
            if matched:
                return False
        labels.append(pos)
        return False

    return rule


def _open_labels(state: StateInline) -> list[int]:
    labels = getattr(state, "gm_labels", None)
    if labels is None:
        labels = state.gm_labels = []
    return labels


def _raw_html_keeps_link_level(html_inline):
    """markdown-it counts a raw ``<a ...>`` as a link and links no URL until ``</a>``;
    Goldmark does not look into raw HTML, so the text of ``<a href=x>https://x</a>`` is
    linked again (a link in a link, as Hugo writes it)."""

    def rule(state: StateInline, silent: bool) -> bool:
        level = state.linkLevel
        found = html_inline(state, silent)
        state.linkLevel = level
        return found

    return rule


def _linkify_rule(protocol: str):
    def linkify(state: StateInline, silent: bool) -> bool:
        # Silent runs scan link labels ([https://x](...)): a URL there is label text, and
        # matching it would swallow the "](" that closes the label.
        if silent:
            return False
        pos, src = state.pos, state.src
        if not _after_trigger(src, pos) and not _after_inline_node(state):
            return False
        if state.linkLevel > 0 or not _LINK_START_RE.match(src, pos):
            return False
        found = _autolink_at(src[pos : state.posMax])
        if found is None or _open_labels(state):
            return False
        end, kind = found
        label = src[pos : pos + end]
        token = state.push("gm_autolink", "a", 0)
        token.attrs = {"href": _autolink_href(label, kind, protocol)}
        token.content = label
        state.pos += end
        return True

    return linkify


# --- line breaks and backslashes ----------------------------------------------------------


def _hard_break_keep(spaces: str) -> str:
    """Whitespace Goldmark (1.8.6) leaves before a hard break: all but the last three."""
    return spaces[:-3] if len(spaces) > 3 else ""


def _newline_rule(state: StateInline, silent: bool) -> bool:
    """Goldmark trims spaces and tabs before a line break; two spaces make it hard."""
    if state.src[state.pos] != "\n":
        return False
    if not silent:
        pending = state.pending
        hard = pending.endswith("  ")
        stripped = pending.rstrip(" \t")
        if stripped != pending:
            state.pending = stripped + (_hard_break_keep(pending[len(stripped) :]) if hard else "")
        state.push("hardbreak" if hard else "softbreak", "br", 0)
    pos = state.pos + 1
    while pos < state.posMax and state.src[pos] in " \t":
        pos += 1
    state.pos = pos
    return True


def _escape_rule(escape):
    """A backslash before anything but punctuation or a newline is just a backslash.

    markdown-it's rule would swallow the next character with it, hiding the spaces
    of a "\\  " hard break.
    """

    def rule(state: StateInline, silent: bool) -> bool:
        src, pos = state.src, state.pos
        if src[pos] != "\\" or pos + 1 >= state.posMax:
            return escape(state, silent)
        following = src[pos + 1]
        if following == "\n" or following in _ASCII_PUNCT:
            return escape(state, silent)
        if not silent:
            state.append_pending("\\")
        state.pos = pos + 1
        return True

    return rule


# --- strikethrough: Goldmark accepts ~one~ as well as ~~two~~ tildes ------------------------


def _strikethrough_tokenize(state: StateInline, silent: bool) -> bool:
    start = state.pos
    if silent or state.src[start] != "~":
        return False
    if start > 0 and state.src[start - 1] == "~":
        return False
    scanned = state.scanDelims(start, True)
    if scanned.length > 2:
        return False
    for _ in range(scanned.length):
        token = state.push("text", "", 0)
        token.content = "~"
        state.delimiters.append(
            Delimiter(
                marker=0x7E,
                length=scanned.length,
                token=len(state.tokens) - 1,
                end=-1,
                open=scanned.can_open,
                close=scanned.can_close,
            )
        )
    state.pos += scanned.length
    return True


def _strikethrough_pairs(state: StateInline, delimiters: list[Delimiter]) -> None:
    i = len(delimiters) - 1
    while i >= 0:
        opener = delimiters[i]
        if opener.marker != 0x7E or opener.end == -1:
            i -= 1
            continue
        closer = delimiters[opener.end]
        double = (
            i > 0
            and delimiters[i - 1].end == opener.end + 1
            and delimiters[i - 1].marker == 0x7E
            and delimiters[i - 1].token == opener.token - 1
            and delimiters[opener.end + 1].token == closer.token + 1
        )
        _set_tag(state.tokens[opener.token], "s_open", 1)
        _set_tag(state.tokens[closer.token], "s_close", -1)
        if double:
            state.tokens[delimiters[i - 1].token].content = ""
            state.tokens[delimiters[opener.end + 1].token].content = ""
            i -= 1
        i -= 1


def _set_tag(token: Token, kind: str, nesting: int) -> None:
    token.type, token.tag, token.nesting, token.content = kind, "del", nesting, ""


def _strikethrough_post(state: StateInline) -> None:
    _strikethrough_pairs(state, state.delimiters)
    for meta in state.tokens_meta:
        if meta and "delimiters" in meta:
            _strikethrough_pairs(state, meta["delimiters"])


# --- task list checkboxes -------------------------------------------------------------------

_TASK_RE = re.compile(r"\[([ \t\n\f\rxX])\][ \t\n\f\r]*")


def _task_rule(state: StateInline, silent: bool) -> bool:
    if state.pos != 0 or state.src[0] != "[" or not state.env.get("_task_ok"):
        return False
    if state.tokens or state.pending:
        return False
    m = _TASK_RE.match(state.src)
    if not m:
        return False
    if not silent:
        token = state.push("task_checkbox", "input", 0)
        token.meta = {"checked": m.group(1) in "xX"}
    state.pos = m.end()
    return True


# --- emoji ---------------------------------------------------------------------------------

_EMOJI_NAME_RE = re.compile(r":([A-Za-z0-9_+-]+):")
# Code points whose default presentation is emoji: GitHub's names map to them bare.
# Every other single symbol is text-default and GitHub (Goldmark) appends U+FE0F.
_EMOJI_PRESENTATION_BMP = frozenset(
    "⌚⌛⏩⏪⏫⏬⏰⏳◽◾☔☕♈♉♊♋♌♍♎♏♐♑♒♓♿⚓⚡⚪⚫⚽⚾⛄⛅⛎⛔⛪⛲⛳⛵⛺⛽✅✊✋✨❌❎❓❔❕❗➕➖➗➰➿⬛⬜⭐⭕"
)
_TEXT_DEFAULT_ASTRAL = (
    (0x1F170, 0x1F171),
    (0x1F17E, 0x1F17F),
    (0x1F202, 0x1F202),
    (0x1F237, 0x1F237),
    (0x1F321, 0x1F321),
    (0x1F324, 0x1F32C),
    (0x1F336, 0x1F336),
    (0x1F37D, 0x1F37D),
    (0x1F396, 0x1F397),
    (0x1F399, 0x1F39B),
    (0x1F39E, 0x1F39F),
    (0x1F3CB, 0x1F3CE),
    (0x1F3D4, 0x1F3DF),
    (0x1F3F3, 0x1F3F3),
    (0x1F3F5, 0x1F3F5),
    (0x1F3F7, 0x1F3F7),
    (0x1F43F, 0x1F43F),
    (0x1F441, 0x1F441),
    (0x1F4FD, 0x1F4FD),
    (0x1F549, 0x1F54A),
    (0x1F56F, 0x1F570),
    (0x1F573, 0x1F579),
    (0x1F587, 0x1F587),
    (0x1F58A, 0x1F58D),
    (0x1F590, 0x1F590),
    (0x1F5A5, 0x1F5A5),
    (0x1F5A8, 0x1F5A8),
    (0x1F5B1, 0x1F5B2),
    (0x1F5BC, 0x1F5BC),
    (0x1F5C2, 0x1F5C4),
    (0x1F5D1, 0x1F5D3),
    (0x1F5DC, 0x1F5DE),
    (0x1F5E1, 0x1F5E1),
    (0x1F5E3, 0x1F5E3),
    (0x1F5E8, 0x1F5E8),
    (0x1F5EF, 0x1F5EF),
    (0x1F5F3, 0x1F5F3),
    (0x1F5FA, 0x1F5FA),
    (0x1F6CB, 0x1F6CB),
    (0x1F6CD, 0x1F6CF),
    (0x1F6E0, 0x1F6E5),
    (0x1F6E9, 0x1F6E9),
    (0x1F6F0, 0x1F6F0),
    (0x1F6F3, 0x1F6F3),
)
# GitHub names its best-known flags by country code.
_FLAG_CODES = "cn de es fr gb it jp kr ru us"


def _text_default(ch: str) -> bool:
    code = ord(ch)
    if code < 0x1F000:
        return ch not in _EMOJI_PRESENTATION_BMP
    return any(lo <= code <= hi for lo, hi in _TEXT_DEFAULT_ASTRAL)


def _flag(code: str) -> str:
    return "".join(chr(0x1F1E6 + ord(c) - ord("a")) for c in code)


@lru_cache(maxsize=1)
def _emoji_table() -> dict[str, str]:
    # rich (a matome dependency) ships GitHub-style short names; see _text_default for
    # the variation selector GitHub adds.
    from rich._emoji_codes import EMOJI

    table = {}
    for name, value in EMOJI.items():
        table[name] = value + "\ufe0f" if len(value) == 1 and _text_default(value) else value
    table.update({code: _flag(code) for code in _FLAG_CODES.split()})
    table["uk"] = table["gb"]
    return table


def _emoji_rule(state: StateInline, silent: bool) -> bool:
    if state.src[state.pos] != ":":
        return False
    m = _EMOJI_NAME_RE.match(state.src, state.pos, state.posMax)
    if not m:
        return False
    value = _emoji_table().get(m.group(1))
    if value is None:
        return False
    if not silent:
        token = state.push("emoji", "", 0)
        token.content = value
        token.markup = m.group(1)
    state.pos = m.end()
    return True


def emojify(text: str) -> str:
    """Hugo's ``emojify``: each ``:name:`` in the table the Markdown emoji use, as its emoji."""
    table = _emoji_table()
    return _EMOJI_NAME_RE.sub(lambda m: table.get(m.group(1), m.group(0)), text)


def _emoji_entities(value: str) -> str:
    return "".join("&zwj;" if ch == "\u200d" else f"&#x{ord(ch):x};" for ch in value)


# --- heading attributes ({#id .class key=value}) --------------------------------------------

_ATTR_BLOCK_RE = re.compile(r"\{([^{}]*)\}[ \t]*$")
_ATTR_ITEM_RE = re.compile(
    r"""[ \t]*(?:([#.])([^\s!"#$%&'()*+,/;<=>?@\[\\\]^`{|}~]*)"""
    r"""|([A-Za-z_:][A-Za-z0-9_:.-]*)[ \t]*=[ \t]*("(?:\\.|[^"\\])*"|[^\s,}]+))[ \t]*,?"""
)


def _parse_attributes(body: str) -> list[tuple[str, str]] | None:
    attrs: list[tuple[str, str]] = []
    pos = 0
    while pos < len(body):
        m = _ATTR_ITEM_RE.match(body, pos)
        if not m or m.end() == pos:
            return None if body[pos:].strip() else attrs
        if m.group(1):
            _add_attr(attrs, "id" if m.group(1) == "#" else "class", m.group(2))
        else:
            value = m.group(4)
            if value.startswith('"'):
                value = re.sub(r"\\(.)", r"\1", value[1:-1])
            _add_attr(attrs, m.group(3), value)
        pos = m.end()
    return attrs


def _add_attr(attrs: list[tuple[str, str]], name: str, value: str) -> None:
    if name == "class":
        for i, (key, old) in enumerate(attrs):
            if key == "class":
                attrs[i] = (key, f"{old} {value}")
                return
    attrs.append((name, value))


def _split_heading_attributes(content: str) -> tuple[str, list[tuple[str, str]]]:
    m = _ATTR_BLOCK_RE.search(content)
    if not m or (m.start() > 0 and content[m.start() - 1] == "\\"):
        return content, []
    attrs = _parse_attributes(m.group(1))
    if attrs is None:
        return content, []
    return content[: m.start()].rstrip(" \t"), attrs


def _heading_attributes_core(state) -> None:
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "heading_open" or tokens[i + 1].type != "inline":
            continue
        inline = tokens[i + 1]
        text, attrs = _split_heading_attributes(inline.content)
        if attrs:
            inline.content = _strip_closing_hashes(text) if token.markup.startswith("#") else text
            token.meta["attrs"] = attrs


def _strip_closing_hashes(text: str) -> str:
    stripped = text.rstrip("#")
    if stripped == text:
        return text
    if not stripped:
        return ""
    return stripped.rstrip(" \t") if stripped[-1] in " \t" else text


# --- tables: Goldmark turns finished paragraphs into tables ---------------------------------
# Goldmark's table is a paragraph transformer, not a block rule: the delimiter row may
# follow any paragraph line, the header may have fewer cells than the delimiter row
# (missing cells are padded, without alignment), and every later line of the paragraph
# is a row. markdown-it's GFM table rule is stricter, so it is replaced by this one.

_ALIGN_RE = re.compile(r"[ \t]*(:?)-+(:?)[ \t]*")
_CELL_SPLIT_RE = re.compile(r"(?<!\\)\|")


def _table_alignments(line: str) -> list[str] | None:
    if not line or set(line) - set(" \t-|:") or set(line) == {"-"}:
        return None
    cols = line.split("|")
    if not cols[0].strip(_ASCII_WS):
        cols = cols[1:]
    if cols and not cols[-1].strip(_ASCII_WS):
        cols = cols[:-1]
    aligns = []
    for col in cols:
        m = _ALIGN_RE.fullmatch(col)
        if not m:
            return None
        left, right = m.group(1), m.group(2)
        aligns.append("center" if left and right else "left" if left else "right" if right else "")
    return aligns


def _table_cells(line: str) -> list[str]:
    line = line.strip(_ASCII_WS)
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|"):
        line = line[:-1]
    if not line:
        return []
    return [cell.strip(_ASCII_WS).replace("\\|", "|") for cell in _CELL_SPLIT_RE.split(line)]


def _table_tokens(header: list[str], rows: list[list[str]], aligns: list[str], para: Token):
    level, line_map = para.level, para.map
    out: list[Token] = []

    def push(kind: str, tag: str, nesting: int, depth: int, content: str | None = None) -> Token:
        token = Token(kind, tag, nesting, map=line_map, level=level + depth, block=True)
        if content is not None:
            token.content, token.children, token.block = content, [], True
        out.append(token)
        return token

    def row(cells: list[str], tag: str) -> None:
        push("tr_open", "tr", 1, 2)
        for i, align in enumerate(aligns):
            cell = push(f"{tag}_open", tag, 1, 3)
            if i < len(cells) and align:
                cell.attrs = {"style": f"text-align:{align}"}
            push("inline", "", 0, 4, cells[i] if i < len(cells) else "")
            push(f"{tag}_close", tag, -1, 3)
        push("tr_close", "tr", -1, 2)

    push("table_open", "table", 1, 0)
    push("thead_open", "thead", 1, 1)
    row(header, "th")
    push("thead_close", "thead", -1, 1)
    push("tbody_open", "tbody", 1, 1)
    for cells in rows:
        row(cells[: len(aligns)], "td")
    push("tbody_close", "tbody", -1, 1)
    push("table_close", "table", -1, 0)
    return out


def _paragraph_to_table(tokens: list[Token], i: int) -> list[Token] | None:
    block, inline = tokens[i], tokens[i + 1]
    lines = inline.content.split("\n")
    for n in range(1, len(lines)):
        aligns = _table_alignments(lines[n].strip(_ASCII_WS))
        if aligns is None:
            continue
        header = _table_cells(lines[n - 1])
        if len(header) > len(aligns):
            return None
        rows = [_table_cells(line) for line in lines[n + 1 :]]
        table = _table_tokens(header, rows, aligns, block)
        if n == 1:
            return table
        inline.content = "\n".join(lines[: n - 1]).rstrip(_ASCII_WS)
        rest = [block, inline, tokens[i + 2]]
        # A setext heading was a paragraph when Goldmark cut the table out of it.
        return [*table, *rest] if block.type == "heading_open" else [*rest, *table]
    return None


def _may_hold_table(tokens: list[Token], i: int) -> bool:
    token = tokens[i]
    if token.type != "paragraph_open" and not (
        token.type == "heading_open" and token.markup in ("-", "=")
    ):
        return False
    content = tokens[i + 1].content
    return "-" in content and ("|" in content or ":" in content)


def _tables_core(state) -> None:
    tokens, out, i = state.tokens, [], 0
    while i < len(tokens):
        if _may_hold_table(tokens, i):
            replaced = _paragraph_to_table(tokens, i)
            if replaced is not None:
                out.extend(replaced)
                if replaced[-1].type == "table_close" and tokens[i].type == "heading_open":
                    i = _orphan_underline(state, tokens, i, out)
                i += 3
                continue
        out.append(tokens[i])
        i += 1
    state.tokens = out


def _orphan_underline(state, tokens: list[Token], i: int, out: list[Token]) -> int:
    """A setext heading that was all table: its underline is left on its own.

    "---" is then a thematic break; "===" is paragraph text, joined to a paragraph
    that follows directly. Returns the index to continue from (minus 3).
    """
    heading = tokens[i]
    if heading.markup == "-":
        out.append(
            Token("hr", "hr", 0, map=heading.map, level=heading.level, markup="---", block=True)
        )
        return i
    underline = state.src.split("\n")[heading.map[1] - 1].strip(_ASCII_WS)
    follows = i + 3 < len(tokens) and tokens[i + 3].type == "paragraph_open"
    if follows and tokens[i + 3].map and tokens[i + 3].map[0] == heading.map[1]:
        tokens[i + 4].content = underline + "\n" + tokens[i + 4].content
        return i
    para = Token("paragraph_open", "p", 1, map=heading.map, level=heading.level, block=True)
    inline = Token("inline", "", 0, map=heading.map, level=heading.level + 1, content=underline)
    inline.children = []
    close = Token("paragraph_close", "p", -1, level=heading.level, block=True)
    out.extend([para, inline, close])
    return i


# --- definition lists: every line of the paragraph before ": " is a term ------------------
# mdit's deflist only takes a one-line term; in Goldmark a ": " line interrupts any
# paragraph and each of that paragraph's lines becomes a <dt>.

_DD_START_RE = re.compile(r":[ \t]")


def _deflist_tokens(terms: list[str], descriptions: list[str], block: Token, open_list: bool):
    level, out = block.level, []

    def push(kind: str, tag: str, nesting: int, depth: int, hidden: bool = False) -> Token:
        token = Token(kind, tag, nesting, level=level + depth, block=True, hidden=hidden)
        out.append(token)
        return token

    def inline(content: str, depth: int) -> None:
        token = push("inline", "", 0, depth)
        token.content, token.children, token.map = content, [], block.map

    if open_list:
        push("dl_open", "dl", 1, 0)
    for term in terms:
        push("dt_open", "dt", 1, 1)
        inline(term.rstrip(_ASCII_WS), 2)
        push("dt_close", "dt", -1, 1)
    for description in descriptions:
        push("dd_open", "dd", 1, 1)
        push("paragraph_open", "p", 1, 2, hidden=True)
        inline(description, 3)
        push("paragraph_close", "p", -1, 2, hidden=True)
        push("dd_close", "dd", -1, 1)
    push("dl_close", "dl", -1, 0)
    return out


def _paragraph_to_deflist(tokens: list[Token], i: int, out: list[Token]) -> list[Token] | None:
    lines = tokens[i + 1].content.split("\n")
    first = next((k for k in range(1, len(lines)) if _DD_START_RE.match(lines[k])), None)
    if first is None:
        return None
    descriptions: list[list[str]] = []
    for line in lines[first:]:
        if _DD_START_RE.match(line):
            descriptions.append([line[1:].lstrip(" \t")])
        else:
            descriptions[-1].append(line)
    merge = bool(out) and out[-1].type == "dl_close" and out[-1].level == tokens[i].level
    if merge:
        out.pop()
    texts = ["\n".join(d).strip(_ASCII_WS) for d in descriptions]
    return _deflist_tokens(lines[:first], texts, tokens[i], open_list=not merge)


def _deflist_terms_core(state) -> None:
    tokens, out, i = state.tokens, [], 0
    while i < len(tokens):
        token = tokens[i]
        # Inside containers the ": " line would be a lazy continuation in Goldmark.
        if token.type == "paragraph_open" and token.level == 0 and "\n:" in tokens[i + 1].content:
            replaced = _paragraph_to_deflist(tokens, i, out)
            if replaced is not None:
                out.extend(replaced)
                i += 3
                continue
        out.append(token)
        i += 1
    state.tokens = out


# --- definition lists: Goldmark decides tightness per description -------------------------


def _deflist_tightness_core(state) -> None:
    tokens = state.tokens
    lines = None
    for i, token in enumerate(tokens):
        if token.type != "dd_open" or not token.map:
            continue
        if lines is None:
            lines = state.src.split("\n")
        first_child = tokens[i + 1].map if i + 1 < len(tokens) else None
        start = (first_child or token.map)[0]
        loose = start > 0 and not lines[start - 1].strip(_ASCII_WS + ">")
        for inner in tokens[i + 1 :]:
            if inner.type == "dd_close" and inner.level == token.level:
                break
            if (
                inner.type in ("paragraph_open", "paragraph_close")
                and inner.level == token.level + 1
            ):
                inner.hidden = not loose


# --- list tightness: Goldmark's rule ------------------------------------------------------
# A list is loose when an item, or a block inside an item after its first, follows a
# blank line. Goldmark builds tables out of paragraphs and the table forgets the blank
# line before it, so "item, blank line, table" stays tight there.


def _blank_before(lines: list[str], token: Token) -> bool:
    if token.type == "table_open" or not token.map or token.map[0] == 0:
        return False
    return not lines[token.map[0] - 1].strip(_ASCII_WS + ">")


def _list_is_tight(tokens: list[Token], start: int, lines: list[str]) -> bool:
    level = tokens[start].level
    first_item = True
    for i in range(start + 1, len(tokens)):
        token = tokens[i]
        if token.level == level and token.nesting == -1:
            break
        if token.level == level + 1 and token.type == "list_item_open":
            if not first_item and _blank_before(lines, token):
                return False
            first_item, first_child = False, True
        elif token.level == level + 2 and token.nesting >= 0 and token.block:
            if not first_child and _blank_before(lines, token):
                return False
            first_child = False
    return True


def _list_tightness_core(state) -> None:
    tokens, lines = state.tokens, None
    for i, token in enumerate(tokens):
        if token.type not in ("bullet_list_open", "ordered_list_open"):
            continue
        lines = lines or state.src.split("\n")
        tight = _list_is_tight(tokens, i, lines)
        for inner in tokens[i + 1 :]:
            if inner.level == token.level and inner.nesting == -1:
                break
            if inner.level == token.level + 2 and inner.type in (
                "paragraph_open",
                "paragraph_close",
            ):
                inner.hidden = tight


# --- block content trimming ----------------------------------------------------------------
# markdown-it trims paragraph and heading text with JavaScript's notion of whitespace,
# which includes U+3000 and U+00A0; Goldmark only trims ASCII spaces, so a paragraph
# may start with an ideographic space.

_ASCII_WS = " \t\n\v\f\r"


def _ascii_trimmed(rule, kind: str):
    def wrapped(state, start_line: int, end_line: int, silent: bool) -> bool:
        first = len(state.tokens)
        ok = rule(state, start_line, end_line, silent)
        if ok and not silent:
            inline = state.tokens[first + 1]
            if kind == "heading":
                inline.content = _untrimmed_heading(state, start_line, inline.content)
            else:
                last = state.line - (1 if kind == "lheading" else 0)
                lines = state.getLines(start_line, last, state.blkIndent, False)
                inline.content = lines.strip(_ASCII_WS)
        return ok

    return wrapped


def _untrimmed_heading(state, line_no: int, content: str) -> str:
    line = state.src[state.bMarks[line_no] + state.tShift[line_no] : state.eMarks[line_no]]
    body = line.lstrip("#").lstrip(_ASCII_WS)
    rest = body.lstrip(MD_TRIM_CHARS)
    lead = body[: len(body) - len(rest)]
    return lead + content if lead and rest.startswith(content) else content


def _reference_then_paragraph(reference, paragraph):
    """An indented line right after a link reference definition continues that paragraph.

    Goldmark (like CommonMark's reference parser) takes definitions out of a finished
    paragraph, so such a line is lazy paragraph text; markdown-it has already ended
    the definition and would start an indented code block there.
    """

    def wrapped(state, start_line: int, end_line: int, silent: bool) -> bool:
        ok = reference(state, start_line, end_line, silent)
        line = state.line
        continues = line < end_line and not state.isEmpty(line)
        if ok and not silent and continues and state.sCount[line] - state.blkIndent >= 4:
            paragraph(state, line, end_line, False)
        return ok

    return wrapped


def _html_block_rule(html_block):
    """HTML block type 7 (a lone tag) may only be followed by ASCII whitespace in Goldmark.

    markdown-it's pattern uses Python's Unicode ``\\s``, so "<br>　" would become a block.
    """
    other_starts = [start for start, _end, _ in HTML_SEQUENCES[:-1]]

    def rule(state, start_line: int, end_line: int, silent: bool) -> bool:
        first = state.bMarks[start_line] + state.tShift[start_line]
        line = state.src[first : state.eMarks[start_line]]
        tail = line.rstrip(" \t")
        unicode_tail = tail and tail[-1] != ">" and tail.rstrip().endswith(">")
        if unicode_tail and not any(p.search(line) for p in other_starts):
            return False
        return html_block(state, start_line, end_line, silent)

    return rule


def _block_rule(md: MarkdownIt, name: str):
    return next(r for r in md.block.ruler.__rules__ if r.name == name)


# --- footnotes: the first definition of a label wins, as in Goldmark ----------------------


def _footnote_first_definition_core(state) -> None:
    seen: set[str] = set()
    out, skip_level = [], None
    for token in state.tokens:
        if skip_level is not None:
            if token.type == "footnote_reference_close" and token.level == skip_level:
                skip_level = None
            continue
        if token.type == "footnote_reference_open":
            label = token.meta["label"]
            if label in seen:
                skip_level = token.level
                continue
            seen.add(label)
        out.append(token)
    state.tokens = out


# --- inline parsing with per-block context --------------------------------------------------


def _core_inline(state) -> None:
    """Parse inline content, telling the task-list rule which blocks start a list item."""
    tokens, env = state.tokens, state.env
    for i, token in enumerate(tokens):
        if token.type != "inline":
            continue
        env["_task_ok"] = (
            i >= 2
            and tokens[i - 1].type == "paragraph_open"
            and tokens[i - 2].type == "list_item_open"
        )
        state.md.inline.parse(token.content, state.md, env, token.children)
    env["_task_ok"] = False


# --- code blocks -----------------------------------------------------------------------------
# Hugo highlights fenced code with Chroma. Pygments tokenises differently, so token spans
# and colours are not Chroma's; the wrapper markup (div, pre, code, line spans) is.


def _go_escape(text: str) -> str:
    """Go's html.EscapeString, which Hugo and Chroma use for code."""
    return (
        text.replace("&", "&amp;")
        .replace("'", "&#39;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&#34;")
    )


@lru_cache(maxsize=256)
def _lexer(lang: str):
    from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
    from pygments.util import ClassNotFound

    for finder, name in ((get_lexer_by_name, lang), (get_lexer_for_filename, f"x.{lang}")):
        try:
            return finder(name, stripnl=False, ensurenl=True)
        except ClassNotFound:
            continue
    return None


@lru_cache(maxsize=16)
def _style(name: str):
    from pygments.styles import get_style_by_name
    from pygments.util import ClassNotFound

    try:
        return get_style_by_name(name)
    except ClassNotFound:
        return get_style_by_name("default")


def _inline_css(style, token_type) -> str:
    entry = style.style_for_token(token_type)
    parts = []
    if entry["color"]:
        parts.append(f"color:#{entry['color']}")
    if entry["bgcolor"]:
        parts.append(f"background-color:#{entry['bgcolor']}")
    if entry["bold"]:
        parts.append("font-weight:bold")
    if entry["italic"]:
        parts.append("font-style:italic")
    if entry["underline"]:
        parts.append("text-decoration:underline")
    return ";".join(parts)


_CHROMA_OPTIONS = frozenset(
    [
        "anchorlinenos",
        "guesssyntax",
        "hl_lines",
        "lineanchors",
        "linenos",
        "linenostart",
        "linenumbersintable",
        "noclasses",
        "style",
        "tabwidth",
    ]
)
_LINE_NO_CSS = (
    "white-space:pre;-webkit-user-select:none;user-select:none;"
    "margin-right:0.4em;padding:0 0.4em 0 0.4em;color:#7f7f7f"
)
_TABLE_CSS = "border-spacing:0;padding:0;margin:0;border:0;"
_TD_CSS = "vertical-align:top;padding:0;margin:0;border:0;"


@dataclass
class _CodeOptions:
    """Chroma options for one code block: site config overridden by the fence's attributes."""

    no_classes: bool
    style: str
    line_nos: str  # "", "inline" or "table"
    start: int
    highlight: frozenset[int]
    anchors: str  # id prefix for linkable line numbers, "" when off
    tab_width: int
    guess: bool


def _truthy(value: str) -> bool:
    return str(value).lower() not in ("false", "0", "")


def _hl_lines(value: str) -> frozenset[int]:
    lines: set[int] = set()
    for part in re.split(r"[\s,\[\]\"]+", str(value)):
        first, _, last = part.partition("-")
        if first.isdigit():
            lines.update(range(int(first), int(last or first) + 1))
    return frozenset(lines)


def _code_options(s: _Settings, opts: dict[str, str], ordinal: int) -> _CodeOptions:
    line_nos, in_table = opts.get("linenos", s.line_nos), s.line_numbers_in_table
    if str(line_nos).lower() in ("table", "inline"):
        in_table = str(line_nos).lower() == "table"
    elif "linenumbersintable" in opts:
        in_table = _truthy(opts["linenumbersintable"])
    numbered = _truthy(line_nos) if isinstance(line_nos, str) else bool(line_nos)
    anchors = ""
    if _truthy(opts.get("anchorlinenos", "false")):
        anchors = opts.get("lineanchors") or f"hl-{ordinal}"
    return _CodeOptions(
        no_classes=_truthy(opts["noclasses"]) if "noclasses" in opts else s.no_classes,
        style=opts.get("style", s.style),
        line_nos=("table" if in_table else "inline") if numbered else "",
        start=int(opts.get("linenostart", s.line_no_start)),
        highlight=_hl_lines(opts.get("hl_lines", "")),
        anchors=anchors,
        tab_width=int(opts.get("tabwidth", s.tab_width)),
        guess=_truthy(opts["guesssyntax"]) if "guesssyntax" in opts else s.guess_syntax,
    )


def _fence_attributes(info: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """Chroma options and HTML attributes from a fence's ``{...}`` block."""
    start, end = info.find("{"), info.find("}")
    if start < 0 or end < start:
        return {}, []
    attrs = _parse_attributes(info[start + 1 : end]) or []
    opts = {k.lower(): v for k, v in attrs if k.lower() in _CHROMA_OPTIONS}
    return opts, [(k, v) for k, v in attrs if k.lower() not in _CHROMA_OPTIONS]


class _Highlighter:
    def __init__(self, settings: _Settings):
        self.s = settings

    def block(self, code: str, info: str, ordinal: int, final_newline: bool = True) -> str:
        """A fenced block; Hugo's highlight shortcode passes ``final_newline=False``."""
        lang = _fence_language(info)
        opts, attrs = _fence_attributes(info)
        o = _code_options(self.s, opts, ordinal)
        code = code.rstrip("\r\n")
        code = code + "\n" if code and final_newline else code
        lexer = _lexer(lang.lower()) if lang else None
        if lexer is None and o.guess:
            lexer = self._guess(code)
        if lexer is None:
            return self._pre_start(lang) + _go_escape(code) + "</code></pre>"
        lines = self._token_lines(code, lexer, o)
        return self._div_start(attrs) + self._body(lines, lang, o) + "</div>"

    @staticmethod
    def _guess(code: str):
        from pygments.lexers import guess_lexer

        return guess_lexer(code, stripnl=False, ensurenl=True)

    def _div_start(self, attrs: list[tuple[str, str]]) -> str:
        classes = " ".join([self.s.wrapper_class] + [v for k, v in attrs if k == "class"])
        rest = "".join(f' {k}="{escapeHtml(v)}"' for k, v in attrs if k != "class")
        return f'<div class="{classes}"{rest}>'

    def _body(self, lines: list[str], lang: str, o: _CodeOptions) -> str:
        pre = self._pre_attr(o, grid=bool(o.highlight))
        if o.line_nos != "table":
            return self._pre_start(lang, pre) + self._wrap_lines(lines, o) + "</code></pre>"
        if o.no_classes:
            outer, table, td = f"<div{pre}>", f' style="{_TABLE_CSS}"', f' style="{_TD_CSS}"'
            code_td = f' style="{_TD_CSS};width:100%"'
        else:
            outer, table, td, code_td = (
                '<div class="chroma">',
                ' class="lntable"',
                ' class="lntd"',
                ' class="lntd"',
            )
        return (
            f"{outer}\n<table{table}><tr><td{td}>\n"
            + self._pre_start("", pre)
            + self._number_column(len(lines), o)
            + f"</code></pre></td>\n<td{code_td}>\n"
            + self._pre_start(lang, pre)
            + self._wrap_lines(lines, o)
            + "</code></pre></td></tr></table>\n</div>\n"
        )

    def _pre_attr(self, o: _CodeOptions, grid: bool = False) -> str:
        if not o.no_classes:
            return ' class="chroma"'
        style = _style(o.style)
        text = _text_css(o.style).split(";")[0] or "color:#000000"
        tab = o.tab_width
        return (
            f' style="{text};background-color:{style.background_color};'
            f"-moz-tab-size:{tab};-o-tab-size:{tab};tab-size:{tab};"
            f'-webkit-text-size-adjust:none;{"display:grid;" if grid else ""}"'
        )

    @staticmethod
    def _pre_start(lang: str, attrs: str = "") -> str:
        code = (
            f' class="language-{_go_escape(lang)}" data-lang="{_go_escape(lang)}"' if lang else ""
        )
        return f'<pre tabindex="0"{attrs}><code{code}>'

    def _number(self, n: int, width: int, o: _CodeOptions) -> tuple[str, str]:
        """(id attribute, content) of line number ``n``."""
        label = str(n).rjust(width)
        if not o.anchors:
            return "", label
        anchor = f"{o.anchors}-{n}"
        link = (
            ' style="outline:none;text-decoration:none;color:inherit"'
            if o.no_classes
            else ' class="lnlinks"'
        )
        return f' id="{anchor}"', f'<a{link} href="#{anchor}">{label}</a>'

    def _number_column(self, count: int, o: _CodeOptions) -> str:
        width = len(str(o.start + count - 1))
        out = []
        for i in range(count):
            ident, label = self._number(o.start + i, width, o)
            css = f' style="{_LINE_NO_CSS}"' if o.no_classes else ' class="lnt"'
            span = f"<span{css}{ident}>{label}\n</span>"
            if i + 1 in o.highlight:
                hl = ' style="background-color:#3c3d38"' if o.no_classes else ' class="hl"'
                span = f"<span{hl}>{span}</span>"
            out.append(span)
        return "".join(out)

    def _wrap_lines(self, lines: list[str], o: _CodeOptions) -> str:
        width = len(str(o.start + len(lines) - 1))
        out = []
        for i, body in enumerate(lines):
            hl = i + 1 in o.highlight
            if o.no_classes:
                line = (
                    '<span style="display:flex; background-color:#3c3d38">'
                    if hl
                    else '<span style="display:flex;">'
                )
                cell = "<span>"
            else:
                line = '<span class="line hl">' if hl else '<span class="line">'
                cell = '<span class="cl">'
            number = ""
            if o.line_nos == "inline":
                ident, label = self._number(o.start + i, width, o)
                css = f' style="{_LINE_NO_CSS}"' if o.no_classes else ' class="ln"'
                number = f"<span{css}{ident}>{label}</span>"
            out.append(f"{line}{number}{cell}{body}</span></span>")
        return "".join(out)

    def _token_lines(self, code: str, lexer, o: _CodeOptions) -> list[str]:
        lines, line = [], []
        tokens = list(lexer.get_tokens(code))
        if not code.endswith("\n") and tokens and tokens[-1][1].endswith("\n"):
            # Pygments always ends with a newline; code given without one keeps none.
            tokens[-1] = (tokens[-1][0], tokens[-1][1][:-1])
        for token_type, value in tokens:
            for piece in re.split(r"(?<=\n)", value):
                if piece:
                    line.append(self._span(token_type, piece, o))
                if piece.endswith("\n"):
                    lines.append("".join(line))
                    line = []
        if line:
            lines.append("".join(line))
        return lines

    @staticmethod
    def _span(token_type, text: str, o: _CodeOptions) -> str:
        from pygments.token import STANDARD_TYPES, Text

        if token_type is Text:
            return _go_escape(text)
        if o.no_classes:
            css = _token_css(o.style, token_type)
            if not css or css == _text_css(o.style):  # Chroma omits the block's own colour
                return _go_escape(text)
            return f'<span style="{css}">{_go_escape(text)}</span>'
        while token_type not in STANDARD_TYPES:
            token_type = token_type.parent
        return f'<span class="{STANDARD_TYPES[token_type]}">{_go_escape(text)}</span>'


@lru_cache(maxsize=1024)
def _token_css(style_name: str, token_type) -> str:
    return _inline_css(_style(style_name), token_type)


def _text_css(style_name: str) -> str:
    from pygments.token import Text

    return _token_css(style_name, Text)


def _fence_language(info: str) -> str:
    """Goldmark's language: the info string up to the first space, before any ``{``."""
    lang = info.strip(_ASCII_WS).split(" ", 1)[0]
    return lang.split("{", 1)[0]


# --- raw HTML --------------------------------------------------------------------------------

_OMITTED = "<!-- raw HTML omitted -->"
# markdown-it's start and end patterns of the HTML block kinds that end with a closing
# sequence (script/pre/style/textarea, comment, processing instruction, declaration, CDATA).
_HTML_BLOCK_CLOSERS = [(start, end) for start, end, _ in HTML_SEQUENCES[:5]]


def _is_comment(raw: str) -> bool:
    return len(raw) > 4 and raw.startswith("<!--")


def _html_block_has_closure(content: str) -> bool:
    """Goldmark writes a second omission comment when an HTML block's end tag is on a later line."""
    first, _, rest = content.lstrip(" ").partition("\n")
    for start, end in _HTML_BLOCK_CLOSERS:
        if start.search(first):
            return not end.search(first) and bool(end.search(rest))
    return False


# --- table of contents titles ---------------------------------------------------------------

_TOC_ALLOWED = frozenset(
    [
        "abbr",
        "b",
        "bdi",
        "bdo",
        "br",
        "cite",
        "code",
        "data",
        "del",
        "dfn",
        "em",
        "i",
        "ins",
        "kbd",
        "mark",
        "q",
        "rp",
        "rt",
        "ruby",
        "s",
        "samp",
        "small",
        "span",
        "strong",
        "sub",
        "sup",
        "time",
        "u",
        "var",
        "wbr",
        "img",
    ]
)
_TOC_ATTRS = frozenset(["dir", "id", "lang", "title", "class"])
_TAG_RE = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)([^>]*)>|<!--.*?-->", re.S)
_ATTR_RE = re.compile(r"""([^\s=/>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?""")


def _toc_title(inner_html: str) -> str:
    """Hugo sanitises TOC titles that contain tags: links and unknown tags are unwrapped."""
    if "<" not in inner_html:
        return inner_html
    out, pos, skip = [], 0, None
    for m in _TAG_RE.finditer(inner_html):
        if skip is None:
            out.append(_bluemonday_text(inner_html[pos : m.start()]))
        pos = m.end()
        closing, name = m.group(1), (m.group(2) or "").lower()
        if skip is not None:
            skip = None if closing and name == skip else skip
        elif name in ("script", "style") and not closing:
            skip = name
        elif name in _TOC_ALLOWED:
            out.append(f"</{name}>" if closing else f"<{name}{_toc_attrs(m.group(3))}>")
    if skip is None:
        out.append(_bluemonday_text(inner_html[pos:]))
    return re.sub(r"\s+", " ", "".join(out).strip())


def _toc_attrs(raw: str) -> str:
    kept = []
    for name, value in _ATTR_RE.findall(raw):
        if name.lower() in _TOC_ATTRS:
            value = html.unescape(value[1:-1] if value[:1] in "\"'" else value)
            kept.append(f' {name.lower()}="{_bluemonday_text(value, True)}"')
    return "".join(kept)


def _bluemonday_text(text: str, decoded: bool = False) -> str:
    return _go_escape(text if decoded else html.unescape(text))


# --- plain text of a heading, as Hugo computes it for the ID ---------------------------------

_STRIP_TAGS_RE = re.compile(r"<[^>]*>")


def _plain_text(children: list[Token]) -> str:
    """Hugo's plain text of an inline node list.

    Hugo walks the children but descends into a container (emphasis, link...) only
    through its first child, so ``*a* b`` gives "a b" but ``*a "b"*`` gives "a ".
    """
    out: list[str] = []
    i = 0
    while i < len(children):
        i = _plain_text_node(children, i, out)
    return "".join(out)


def _plain_text_node(children: list[Token], i: int, out: list[str]) -> int:
    token = children[i]
    kind = token.type
    if kind in ("text", "code_inline", "text_special"):
        out.append(token.content)
    elif kind == "typographer":
        out.append(html.unescape(token.content))
    elif kind == "html_inline":
        out.append(_STRIP_TAGS_RE.sub("", token.content).strip())
    elif kind in ("softbreak", "hardbreak"):
        out.append("\n")
    elif kind == "emoji":
        out.append(token.markup)
    elif kind == "image":
        inner: list[str] = []
        if token.children:
            _plain_text_node(token.children, 0, inner)
        out.append("".join(inner))
    elif token.nesting == 1:
        end = _matching_close(children, i)
        if i + 1 < end:
            inner: list[str] = []
            _plain_text_node(children, i + 1, inner)
            first = "".join(inner)
            if children[i + 1].type == "text":
                first = _first_text_node(first)
            out.append(first)
        return end + 1
    return i + 1


# An unmatched emphasis or strikethrough delimiter stays a separate node in Goldmark,
# merged into the text before it, so a container's first text child ends after it.
_DELIMITER_RUN_RE = re.compile(r"[*_]+|(?<!~)~{1,2}(?!~)")


def _first_text_node(text: str) -> str:
    m = _DELIMITER_RUN_RE.search(text)
    return text[: m.end()] if m else text


def _matching_close(children: list[Token], i: int) -> int:
    depth = 0
    for j in range(i, len(children)):
        depth += children[j].nesting
        if depth == 0:
            return j
    return len(children) - 1


# --- HTML rendering rules -------------------------------------------------------------------


def _attr_value(value: str) -> str:
    return escapeHtml(value)


def _safe_href(url: str, unsafe: bool) -> str:
    return escapeHtml(url) if unsafe or not _is_dangerous_url(url) else ""


def _image_alt(children: list[Token] | None) -> str:
    """Goldmark's alt text: text escaped, typographer entities kept, soft breaks as newlines."""
    out = []
    for token in children or []:
        if token.type == "typographer":
            out.append(token.content)
        elif token.type in ("text", "code_inline", "text_special"):
            out.append(escapeHtml(token.content))
        elif token.type in ("softbreak", "hardbreak"):
            out.append("\n")
        elif token.type == "image":
            out.append(_image_alt(token.children))
        elif token.type == "gm_autolink":
            out.append(escapeHtml(token.content))
    return "".join(out)


class _Rules:
    """Render rules for markdown-it token types, producing Goldmark's HTML."""

    def __init__(self, settings: _Settings, highlighter: _Highlighter):
        self.s = settings
        self.highlighter = highlighter

    # Block tokens that follow a hidden (tight) paragraph start on a new line, as
    # markdown-it's default renderer does for the tokens it renders itself.
    _BLOCK_STARTS = frozenset(
        [
            "table_open",
            "fence",
            "code_block",
            "html_block",
            "hr",
            "heading_open",
            "footnote_block_open",
        ]
    )

    def install(self, md: MarkdownIt) -> None:
        for name in dir(self):
            if name.startswith("r_"):
                method = getattr(self, name)
                if name[2:] in self._BLOCK_STARTS:
                    method = self._after_tight_paragraph(method)
                md.add_render_rule(name[2:], lambda r, t, i, o, e, m=method: m(r, t, i, e))

    @staticmethod
    def _after_tight_paragraph(method):
        def rule(r, tokens, idx, env):
            out = method(r, tokens, idx, env)
            return "\n" + out if idx and tokens[idx - 1].hidden else out

        return rule

    # raw HTML
    def r_html_block(self, r, tokens, idx, env):
        content = tokens[idx].content
        if self.s.unsafe:
            return content.replace("\x00", "\ufffd")
        if _is_comment(content):
            return ""  # Hugo drops comments silently instead of marking them omitted
        twice = _html_block_has_closure(content)
        return (_OMITTED + "\n") * (2 if twice else 1)

    def r_html_inline(self, r, tokens, idx, env):
        content = tokens[idx].content
        if self.s.unsafe:
            return content
        return "" if _is_comment(content) else _OMITTED

    # text
    def r_typographer(self, r, tokens, idx, env):
        return tokens[idx].content

    def r_softbreak(self, r, tokens, idx, env):
        return self._br() if self.s.hard_wraps else "\n"

    def r_hardbreak(self, r, tokens, idx, env):
        return self._br()

    def _br(self) -> str:
        return "<br />\n" if self.s.xhtml else "<br>\n"

    def r_code_inline(self, r, tokens, idx, env):
        return f"<code>{escapeHtml(tokens[idx].content)}</code>"

    def r_emoji(self, r, tokens, idx, env):
        return _emoji_entities(tokens[idx].content)

    def r_task_checkbox(self, r, tokens, idx, env):
        checked = 'checked="" ' if tokens[idx].meta["checked"] else ""
        end = " /> " if self.s.xhtml else "> "
        return f'<input {checked}disabled="" type="checkbox"{end}'

    def r_s_open(self, r, tokens, idx, env):
        return "<del>"

    def r_s_close(self, r, tokens, idx, env):
        return "</del>"

    # links and images
    def r_link_open(self, r, tokens, idx, env):
        token = tokens[idx]
        out = f'<a href="{_safe_href(token.attrGet("href") or "", self.s.unsafe)}"'
        title = token.attrGet("title")
        if title is not None:
            out += f' title="{_attr_value(title)}"'
        return out + ">"

    def r_gm_autolink(self, r, tokens, idx, env):
        token = tokens[idx]
        href = _safe_href(token.attrGet("href") or "", self.s.unsafe)
        return f'<a href="{href}">{escapeHtml(token.content)}</a>'

    def r_image(self, r, tokens, idx, env):
        token = tokens[idx]
        src = _safe_href(token.attrGet("src") or "", self.s.unsafe)
        out = f'<img src="{src}" alt="{_image_alt(token.children)}"'
        title = token.attrGet("title")
        if title is not None:
            out += f' title="{_attr_value(title)}"'
        return out + (" />" if self.s.xhtml else ">")

    # blocks
    def r_heading_open(self, r, tokens, idx, env):
        token = tokens[idx]
        attrs = token.meta.get("attrs", [])
        rendered = "".join(
            f' {name}="{_attr_value(value)}"'
            for name, value in attrs
            if not name.lower().startswith("on")
        )
        return f"<{token.tag}{rendered}>"

    def r_hr(self, r, tokens, idx, env):
        return "<hr />\n" if self.s.xhtml else "<hr>\n"

    def r_code_block(self, r, tokens, idx, env):
        return f"<pre><code>{escapeHtml(tokens[idx].content)}</code></pre>\n"

    def r_fence(self, r, tokens, idx, env):
        token = tokens[idx]
        if not self.s.code_fences:
            lang = _fence_language(token.info)
            css = f' class="language-{escapeHtml(lang)}"' if lang else ""
            return f"<pre><code{css}>{escapeHtml(token.content)}</code></pre>\n"
        ordinal = env["_fences"] = env.get("_fences", -1) + 1
        info = token.info
        if (
            len(info) == 1
            and info.isascii()
            and token.map
            and token.map[0] == env.get("_last_line")
        ):
            info = ""  # Goldmark drops a one-byte info string that ends the source
        return self.highlighter.block(token.content, info, ordinal)

    # tables, laid out like Hugo's embedded table template
    def r_table_open(self, r, tokens, idx, env):
        return "<table>\n"

    def r_table_close(self, r, tokens, idx, env):
        return "</table>\n"

    def r_thead_open(self, r, tokens, idx, env):
        return "\t<thead>\n"

    def r_thead_close(self, r, tokens, idx, env):
        has_body = idx + 1 < len(tokens) and tokens[idx + 1].type == "tbody_open"
        return "\t</thead>\n" + ("" if has_body else "\t<tbody>\n\t</tbody>\n")

    def r_tbody_open(self, r, tokens, idx, env):
        return "\t<tbody>\n"

    def r_tbody_close(self, r, tokens, idx, env):
        return "\t</tbody>\n"

    def r_tr_open(self, r, tokens, idx, env):
        return "\t\t\t<tr>\n"

    def r_tr_close(self, r, tokens, idx, env):
        return "\t\t\t</tr>\n"

    def r_th_open(self, r, tokens, idx, env):
        return "\t\t\t\t\t<th" + self._align(tokens[idx]) + ">"

    def r_td_open(self, r, tokens, idx, env):
        return "\t\t\t\t\t<td" + self._align(tokens[idx]) + ">"

    def r_th_close(self, r, tokens, idx, env):
        return "</th>\n"

    def r_td_close(self, r, tokens, idx, env):
        return "</td>\n"

    @staticmethod
    def _align(token: Token) -> str:
        style = token.attrGet("style") or ""
        if not style.startswith("text-align:"):
            return ""
        return f' style="text-align: {style.split(":", 1)[1]}"'

    # footnotes, in Goldmark's markup
    def r_footnote_ref(self, r, tokens, idx, env):
        meta = tokens[idx].meta
        n, sub = meta["id"] + 1, meta.get("subId", 0)
        ref = f"fnref{sub if sub > 0 else ''}:{n}"
        return (
            f'<sup id="{ref}"><a href="#fn:{n}" class="footnote-ref" role="doc-noteref">'
            f"{n}</a></sup>"
        )

    def r_footnote_block_open(self, r, tokens, idx, env):
        hr = "<hr />" if self.s.xhtml else "<hr>"
        return f'<div class="footnotes" role="doc-endnotes">\n{hr}\n<ol>\n'

    def r_footnote_block_close(self, r, tokens, idx, env):
        return "</ol>\n</div>\n"

    def r_footnote_open(self, r, tokens, idx, env):
        return f'<li id="fn:{tokens[idx].meta["id"] + 1}">\n'

    def r_footnote_close(self, r, tokens, idx, env):
        return "</li>\n"

    def r_footnote_anchor(self, r, tokens, idx, env):
        meta = tokens[idx].meta
        n, sub = meta["id"] + 1, meta.get("subId", 0)
        ref = f"fnref{sub if sub > 0 else ''}:{n}"
        return (
            f'&#160;<a href="#{ref}" class="footnote-backref" role="doc-backlink">'
            f"{self.s.footnote_backlink}</a>"
        )


# --- building the parser --------------------------------------------------------------------


def _build_parser(s: _Settings) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True, "xhtmlOut": s.xhtml, "breaks": s.hard_wraps})
    # Goldmark neither punycodes hosts nor refuses "dangerous" links (it empties their href).
    md.normalizeLink = _url_escape
    md.normalizeLinkText = lambda url: url
    md.validateLink = lambda url: True
    if s.footnote:
        footnote_plugin(md, inline=False)
    if s.definition_list:
        deflist_plugin(md)
    _install_block_rules(md)
    _install_inline_rules(md, s)
    _install_core_rules(md, s)
    return md


def _replace_rule(ruler, name: str, wrap) -> None:
    rule = next(r for r in ruler.__rules__ if r.name == name)
    ruler.at(name, wrap(rule.fn), {"alt": list(rule.alt)})


def _install_block_rules(md: MarkdownIt) -> None:
    for kind in ("paragraph", "heading", "lheading"):
        _replace_rule(md.block.ruler, kind, lambda fn, kind=kind: _ascii_trimmed(fn, kind))
    _replace_rule(md.block.ruler, "html_block", _html_block_rule)
    paragraph = _block_rule(md, "paragraph").fn
    _replace_rule(md.block.ruler, "reference", lambda fn: _reference_then_paragraph(fn, paragraph))


def _install_inline_rules(md: MarkdownIt, s: _Settings) -> None:
    ruler = md.inline.ruler
    ruler.at("text", _text_rule(s.linkify))
    ruler.at("newline", _newline_rule)
    _replace_rule(ruler, "escape", _escape_rule)
    if s.task_list:
        ruler.before("link", "task_checkbox", _task_rule)
    if s.linkify:
        ruler.after("text", "gm_linkify", _linkify_rule(s.linkify_protocol))
        openers = [r.fn for r in ruler.__rules__ if r.name in ("link", "footnote_ref")]
        ruler.before("link", "link_labels", _label_rule(openers))
    ruler.before("html_inline", "gm_declaration_case", _lowercase_declaration)
    _replace_rule(ruler, "html_inline", _raw_html_keeps_link_level)
    if s.strikethrough:
        ruler.before("emphasis", "gm_strikethrough", _strikethrough_tokenize)
        md.inline.ruler2.before("emphasis", "gm_strikethrough", _strikethrough_post)
    if s.emoji:
        ruler.push("emoji", _emoji_rule)
    if s.typographer:
        ruler.push("typographer", _typographer_rule(s.typographer))


def _install_core_rules(md: MarkdownIt, s: _Settings) -> None:
    md.core.ruler.at("inline", _core_inline)
    # Block-level fix-ups, in Goldmark's order: duplicate footnotes are dropped, definition
    # terms interrupt paragraphs while blocks are parsed, tables are cut out of finished
    # paragraphs, and list tightness is decided when the list closes.
    fixups = [
        ("footnote_first", _footnote_first_definition_core, s.footnote),
        ("deflist_terms", _deflist_terms_core, s.definition_list),
        ("tables", _tables_core, s.table),
        ("list_tightness", _list_tightness_core, True),
        ("deflist_tightness", _deflist_tightness_core, s.definition_list),
    ]
    previous = "block"
    for name, rule, enabled in fixups:
        if enabled:
            md.core.ruler.after(previous, name, rule)
            previous = name
    if s.attribute_title:
        md.core.ruler.before("inline", "heading_attributes", _heading_attributes_core)


def trim_short_html(markup: str) -> str:
    """Hugo's markdownify: output with exactly one ``<p>`` is trimmed, and unwrapped if
    that paragraph is all there is."""
    if markup.count("<p>") != 1:
        return markup
    markup = markup.strip(_GO_SPACE)
    if markup.startswith("<p>") and markup.endswith("</p>"):
        return markup[3:-4].strip(_GO_SPACE)
    return markup


# Commas between options, not inside brackets or quotes: hl_lines=[2,3] stays one option.
_OPTION_SPLIT = re.compile(r""",(?=(?:[^"\[\]]|"[^"]*"|\[[^\]]*\])*$)""")


class MarkdownRenderer:
    """Hugo-compatible Markdown rendering for one site configuration."""

    def __init__(self, markup: dict | None, enable_emoji: bool = False):
        self.settings = _settings(markup, enable_emoji)
        self._md = _build_parser(self.settings)
        self._highlighter = _Highlighter(self.settings)
        _Rules(self.settings, self._highlighter).install(self._md)
        self._fast = _FastPath(self.settings)

    def render(self, text: str) -> RenderedMarkdown:
        """Render a page body: HTML plus the headings (with their IDs) for the TOC."""
        fast = self._fast.document(text)
        if fast is not None:  # a matome article's frame: a quote, links, the comments
            return RenderedMarkdown(fast, [])
        return self.render_parsed(text)

    def is_own_html(self, text: str) -> bool:
        """Whether ``markdownify(text)`` is ``text`` itself: a plain line, or (raw HTML
        passed through) plain text with ``<br>`` tags in it, as a comment's lines come."""
        if plain_line(text):
            return True
        return self.settings.unsafe and "<br>" in text and plain_line(text.replace("<br>", "br"))

    def render_parsed(self, text: str) -> RenderedMarkdown:
        """``render`` through markdown-it, with no fast path."""
        env: dict[str, Any] = {"_last_line": -1 if text.endswith("\n") else text.count("\n")}
        tokens = self._md.parse(text, env)
        headings = self._headings(tokens, env)
        return RenderedMarkdown(self._md.renderer.render(tokens, self._md.options, env), headings)

    def markdownify(self, text: str) -> str:
        """Hugo's ``markdownify``: a lone paragraph comes back without its ``<p>`` wrapper."""
        if self.is_own_html(text):
            return text
        fast = self._fast.render(text)
        if fast is not None:
            return fast
        return trim_short_html(self.render(text).html)

    def highlight(self, code: str, lang: str, options: str = "") -> str:
        """Hugo's ``highlight`` shortcode: options written as ``linenos=table,hl_lines=2``."""
        pairs = [p.strip() for p in _OPTION_SPLIT.split(options) if p.strip()]
        info = f"{lang} {{{' '.join(pairs)}}}" if pairs else lang
        return self._highlighter.block(code.strip("\n"), info, 0, final_newline=False)

    def toc(self, headings: list[Heading]) -> str:
        """Hugo's ``.TableOfContents`` for these headings."""
        return _toc_html(headings, self.settings)

    def _headings(self, tokens: list[Token], env: dict) -> list[Heading]:
        seen: dict[str, int] = {}
        found = []
        for i, token in enumerate(tokens):
            if token.type != "heading_open":
                continue
            children = tokens[i + 1].children or []
            attrs = token.meta.setdefault("attrs", [])
            anchor = next((v for k, v in attrs if k == "id"), None)
            if anchor is not None:
                _reserve_id(seen, anchor)
            elif self.settings.auto_heading_id:
                text = _plain_text(children).rsplit("\n", 1)[-1]
                if text:  # Hugo gives an empty heading no ID at all
                    anchor = heading_id(text, self.settings.id_type, seen)
                    attrs.append(("id", anchor))
            title = self._md.renderer.renderInline(children, self._md.options, env)
            found.append(Heading(int(token.tag[1]), _toc_title(title), anchor or ""))
        return found


# --- table of contents ----------------------------------------------------------------------


@dataclass
class _TocNode:
    heading: Heading | None = None
    children: list[_TocNode] = field(default_factory=list)


def _toc_tree(headings: list[Heading]) -> list[_TocNode]:
    """Nest headings as Hugo does: each h1 opens a row, deeper levels hang off the last node."""
    rows: list[_TocNode] = []
    for heading in headings:
        if heading.level == 1 or not rows:
            rows.append(_TocNode())
        if heading.level == 1:
            rows[-1].heading = heading
            continue
        node = rows[-1]
        for _ in range(heading.level - 2):
            if not node.children:
                node.children.append(_TocNode())
            node = node.children[-1]
        node.children.append(_TocNode(heading))
    return rows


def _toc_html(headings: list[Heading], s: _Settings) -> str:
    out = ['<nav id="TableOfContents">']
    _toc_list(out, _toc_tree(headings), 1, 0, s)
    out.append("</nav>")
    return "".join(out)


def _toc_list(out: list[str], nodes: list[_TocNode], level: int, indent: int, s: _Settings):
    if level < s.toc_start:
        for node in nodes:
            _toc_list(out, node.children, level + 1, indent, s)
        return
    if s.toc_end != -1 and level > s.toc_end:
        return
    tag = "ol" if s.toc_ordered else "ul"
    if nodes:
        out.append("\n" + "  " * (indent + 1) + f"<{tag}>\n")
    for node in nodes:
        out.append("  " * (indent + 2) + "<li>")
        h = node.heading
        if h is not None and (h.id or h.text):
            out.append(f'<a href="#{h.id}">{h.text}</a>')
        _toc_list(out, node.children, level + 1, indent + 2, s)
        out.append("</li>\n")
    if nodes:
        out.append("  " * (indent + 1) + f"</{tag}>\n" + "  " * indent)


# --- markdownify fast path ------------------------------------------------------------------
# Most markdownify inputs are short comments: plain text, line breaks, <br>, now and then a
# code span or a bare URL. For those the Markdown machinery is pure overhead, so they are
# rendered directly - to exactly what the full path produces (tests compare the two).
# Anything that might be Markdown syntax, HTML other than <br>, an entity, an e-mail
# address, or a URL that linkify would not simply take after a space, a line start, a '('
# or a <br> takes the full path.

# Checks that refuse the fast path, cheapest first: one regex of many alternatives tried
# them all at every character (11 us a comment body; these take 2). Each is a character
# class or starts with a literal, which the regex engine skips to; an alternative that
# starts otherwise (a lookbehind, a line start) is tried at every character, and took a
# third of the checks' time on the real blog's bodies.
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
    return _hard_break_keep(spaces) + "<br>\n" if len(spaces) >= 2 else "\n"


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
        if _after_trigger(text, start) or text.endswith(_BR_FORMS, 0, start):
            link = _autolink_at(text[start:])
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


class _FastPath:
    def __init__(self, s: _Settings):
        self.s = s
        # _fast_refused refuses anything shaped like an emoji name, so emoji need no full path.
        self.enabled = not (s.hard_wraps or s.xhtml)
        self.br = None if s.unsafe else _OMITTED

    def render(self, text: str) -> str | None:
        """The markdownify output for ``text``, or None when the full path is needed."""
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
        counter = _QuoteCount()
        paragraphs = [self._paragraph(block, counter, links) for block in blocks]
        if len(paragraphs) == 1:
            return paragraphs[0].strip(_GO_SPACE)
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

    def _paragraph(self, block: str, counter: _QuoteCount, links: bool) -> str:
        # The same text markdown-it's inline parser gets: outer spaces trimmed.
        block = block.strip(" ")
        spans = _bare_urls(block) if links else _code_spans(block) if "`" in block else None
        anchors = (
            [self._span_html(block[start:end], kind) for start, end, kind in spans]
            if spans
            else None
        )
        block = self._text_html(block, counter, spans)
        if anchors:
            first, *rest = block.split(_LINK_MARK)
            block = first + "".join(a + text for a, text in zip(anchors, rest, strict=True))
        return block

    def _text_html(self, text: str, counter: _QuoteCount, spans: list[Span] | None) -> str:
        """Text with its typography, escapes and line breaks; each span a ``_LINK_MARK``."""
        if self.s.typographer and _FAST_TYPO.search(text):
            text = self._typography(text, counter, spans)
        else:
            text = _quoted(text, 0, len(text), spans)
        if self.br is not None and "<br" in text:
            text = _BR_TAG.sub(self.br, text)
        if " \n" in text or "\n " in text:
            text = _LINE_SPACES.sub(_line_break, text)
        return text

    def document(self, text: str) -> str | None:
        """The HTML of a page body made only of paragraphs, one-line block quotes and links
        to plain URLs (a matome article's frame around its comments), or None.

        Each block passes the checks of ``render``; a paragraph with ``[label](url)``
        links has no quote, URL, bracket or underscore besides them, so neither the
        typographer nor linkify nor emphasis can reach across a link."""
        if not self.enabled:
            return None
        out: list[str] = []
        counter = _QuoteCount()
        for block in _blocks(text):
            quote = block.startswith(">")
            if quote:
                block = block[2:] if block.startswith("> ") else block[1:]
                if "\n" in block or not block.strip(" "):
                    return None
            if "](" in block:
                html = self._link_paragraph(block, counter)
            else:
                links = self._links(block)
                html = None if links is None else self._paragraph(block, counter, links)
            if html is None:
                return None
            out.append(
                f"<blockquote>\n<p>{html}</p>\n</blockquote>\n" if quote else f"<p>{html}</p>\n"
            )
        return "".join(out) if out else None

    def _link_paragraph(self, block: str, counter: _QuoteCount) -> str | None:
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
            href = _safe_href(_url_escape(dest), self.s.unsafe)
            out.append(self._text_html(block[pos : m.start()], counter, None))
            out.append(f'<a href="{href}">{_escaped(label)}</a>')
            pos = m.end()
        out.append(self._text_html(block[pos:], counter, None))
        return "".join(out)

    def _span_html(self, source: str, kind: str) -> str:
        if kind == "code":
            return f"<code>{escapeHtml(_code_content(source))}</code>"
        href = _autolink_href(source, kind, self.s.linkify_protocol)
        return f'<a href="{_safe_href(href, self.s.unsafe)}">{escapeHtml(source)}</a>'

    def _typography(self, block: str, counter: _QuoteCount, spans: list[Span] | None) -> str:
        subs = self.s.typographer
        out, pos = [], 0
        for m in _FAST_TYPO.finditer(block):
            start = m.start()
            if start < pos or spans and any(s <= start < e for s, e, _ in spans):
                continue  # linkify took the URL's dots and dashes before the typographer
            before = block[start - 1] if start else "\n"
            found = _typography(subs, block, start, before, counter)
            if found is None:
                continue
            out.append(_quoted(block, pos, start, spans))
            out.append(found[0])
            pos = start + found[1]
        out.append(_quoted(block, pos, len(block), spans))
        return "".join(out)
