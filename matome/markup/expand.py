"""Expanding shortcodes and rendering a page body to HTML.

As in Hugo: the output of a ``{{% %}}`` shortcode becomes part of the Markdown;
the output of a ``{{< >}}`` shortcode is kept out of Markdown behind a
placeholder and put back into the rendered HTML (a placeholder alone in a
paragraph replaces the whole ``<p>``). Rendering a page is a pure function of
its body, the templates and the site graph, so pages render in parallel.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import jinja2
from markupsafe import Markup

from ..content.page import Page
from ..content.words import cjk_word_weight, reading_time, strip_html, word_count
from ..errors import SourceError
from ..render.jinja_internals import render_in_context
from .comment_card import native_renderer
from .embedded_hooks import DestinationError
from .markdown import MarkdownError, MarkdownRenderer, RenderedMarkdown, RenderHooks
from .render_hooks import hook_templates, page_hooks, site_embedded_hooks
from .shortcodes import Shortcode, ShortcodeRun, parse_shortcodes
from .summary_divider import cut_at_divider, mark_divider

# Placeholders alone in consecutive paragraphs (blank lines between, nothing else).
_PLACEHOLDER_RUN = re.compile(
    r"(?:\A|(?<=\n\n))HAHAMATOMESC\d+HBHB(?:[ \t]*\n(?:[ \t]*\n)+HAHAMATOMESC\d+HBHB)+[ \t]*(?=\n[ \t]*\n|\n?\Z)"
)
# A placeholder with the <p> before it and the </p> after it when they are there. Calls
# on consecutive lines share one paragraph, whose <p> and </p> stay around their outputs as
# Hugo writes them (browsers close that <p> before block output, so the page looks as
# Hugo's does, and its text keeps the paragraph's line break).
# The line break after a paragraph's </p> stays, as Hugo keeps it after a block's output.
_PUT_BACK = re.compile(r"(?:<p>)?HAHAMATOMESC([\dx]+)HBHB(?:</p>)?")
_PLACEHOLDER = re.compile(r"HAHAMATOMESC(\d+)HBHB")
# Hugo's cleanup of a nested call's one-line inner content: Go's '.' stops at a line break.
_ONE_LINE_PARAGRAPH = re.compile(r"<p>([^\n]*)</p>\n")
_FENCE = re.compile(r"^ {0,3}(?:```|~~~)", re.M)
_INNER_USE = re.compile(r"\.inner\b|\binner_deindent\b")


class ShortcodeProblem(Exception):
    """Raised inside a shortcode template (a missing ``ref`` target, ``error``): reported at the call."""


@dataclass
class ShortcodeCall:
    """``shortcode`` in a shortcode template: Hugo's ``.Get``, ``.Params``, ``.Inner`` and the rest."""

    name: str
    params: Any  # dict of named or list of positional arguments
    inner: Markup | str
    page: Page
    site: Any
    parent: ShortcodeCall | None
    position: str
    ordinal: int
    is_named_params: bool

    def get(self, key: int | str, default: Any = None) -> Any:
        """An argument by position or name (Hugo's ``.Get``); ``default`` when absent."""
        if isinstance(key, int):
            if isinstance(self.params, list) and 0 <= key < len(self.params):
                return self.params[key]
            return default
        if isinstance(self.params, dict):
            return self.params.get(key, default)
        return default

    indent: str = ""  # whitespace before the call on its line (of a call with inner content)

    def __post_init__(self) -> None:
        if type(self.params) is dict:
            # The arguments' own get: a built-in method, which Jinja calls without
            # Context.call's checks (a site's comment card calls get four or five times).
            self.get = self.params.get

    @property
    def inner_deindent(self) -> Markup:
        """Hugo's ``.InnerDeindent``: inner lines without the call's own indentation."""
        if not self.indent:
            return Markup(self.inner)
        lines = str(self.inner).split("\n")
        cut = len(self.indent)
        return Markup("\n".join(ln[cut:] if ln.startswith(self.indent) else ln for ln in lines))


@dataclass
class RenderedContent:
    html: str
    summary: str
    truncated: bool
    toc: str
    headings: list = field(default_factory=list)


def attach_content(page: Page, rendered: RenderedContent) -> None:
    """Set what templates read of a rendered body on its page."""
    page.content_html = rendered.html
    page.summary_html = rendered.summary
    page.truncated = rendered.truncated
    page.toc = rendered.toc
    page.plain = strip_html(rendered.html)
    page.word_count = word_count(page.plain, page.is_cjk_language)
    page.fuzzy_word_count = (page.word_count + 99) // 100 * 100
    page.reading_time = reading_time(page.word_count, page.is_cjk_language)


@dataclass
class ContentRenderer:
    """Everything a page body needs to become HTML; one per build, shared by all pages."""

    env: jinja2.Environment
    markdown: MarkdownRenderer
    site: Any
    summary_length: int = 70
    _inner_use: dict[str, bool | None] = field(default_factory=dict)
    _globals: dict[jinja2.Template, dict] = field(default_factory=dict)
    _natives: dict[str, Any] = field(default_factory=dict)
    _hook_names: dict[str, str] | None = None
    _embedded_hooks: dict[str, Any] | None = None

    def takes_inner(self, name: str) -> bool | None:
        """Whether ``name``'s template uses inner content; None when there is no such shortcode."""
        if name not in self._inner_use:
            try:
                source, _, _ = self.env.loader.get_source(self.env, f"shortcodes/{name}.html")
            except jinja2.TemplateNotFound:
                self._inner_use[name] = None
            else:
                self._inner_use[name] = bool(_INNER_USE.search(source))
        return self._inner_use[name]

    def render_page(self, page: Page) -> RenderedContent:
        path = _display_path(page)
        nodes = parse_shortcodes(
            page.body, path, self.takes_inner, line_offset=page.body_line - 1, runs=True
        )
        outputs: list[str] = []
        source, divided = mark_divider(self._expand(nodes, page, None, outputs, path))
        markdown = merge_placeholder_runs(source)
        try:
            hooks = self._hooks(page)
            rendered = render_markdown(self.markdown, markdown, hooks)
        except MarkdownError as e:
            raise SourceError(path, page.body_line - 1 + e.line, e.column, e.message) from None
        except DestinationError as e:
            line, column = e.place_in(markdown)
            raise SourceError(path, page.body_line - 1 + line, column, str(e)) from None
        html = _put_back(rendered.html, outputs)
        cut = cut_at_divider(html) if divided else None
        if cut is not None:
            summary, html, truncated = cut
        elif page.params.get("summary"):
            summary, truncated = "", False
        else:
            summary, truncated = auto_summary(html, self.summary_length, page.is_cjk_language)
        if not summary and page.params.get("summary"):  # Hugo's third choice
            summary = self.markdown.markdownify(str(page.params["summary"]))
        return RenderedContent(
            html=html,
            summary=summary,
            truncated=truncated,
            toc=self.markdown.toc(rendered.headings),
            headings=rendered.headings,
        )

    def _hooks(self, page: Page) -> RenderHooks | None:
        """The page's render hooks, or None when the site has none (the fast path)."""
        if self._hook_names is None:
            self._hook_names = hook_templates(self.env)
            self._embedded_hooks = site_embedded_hooks(self.env, self.markdown.settings)
        if not self._hook_names and not self._embedded_hooks:
            return None
        variables = {"page": page, "page_inner": page, "site": page.site or self.site}
        return page_hooks(self.env, self._hook_names, variables, self._render, self._embedded_hooks)

    def _expand(self, nodes: list, page: Page, parent, outputs: list[str], path: str) -> str:
        """Text with ``{{% %}}`` outputs inline and ``{{< >}}`` outputs behind placeholders."""
        pieces = []
        ordinal = 0  # Hugo numbers calls among their siblings
        for node in nodes:
            if isinstance(node, str):
                pieces.append(node)
                continue
            if type(node) is ShortcodeRun:
                ordinal = self._run_all(node, page, parent, outputs, path, ordinal, pieces)
                continue
            out = self._run(node, page, parent, outputs, path, ordinal)
            ordinal += 1
            if node.markdown:
                pieces.append(out)
            else:
                pieces.append(f"HAHAMATOMESC{len(outputs)}HBHB")
                outputs.append(out)
        return "".join(pieces)

    def _run(
        self, node: Shortcode, page: Page, parent, outputs: list[str], path: str, ordinal: int
    ) -> str:
        native = self._native(node.name) if node.inner is None else None
        if native is None:
            call = ShortcodeCall(
                name=node.name,
                params=node.params,
                inner="",
                page=page,
                site=page.site or self.site,
                parent=parent,
                position=f"{path}:{node.line}:{node.col}",
                ordinal=ordinal,
                is_named_params=isinstance(node.params, dict),
                indent=_indent_before(page.body, node.offset) if node.inner is not None else "",
            )
            if node.inner is not None:
                inner = self._expand(node.inner, page, call, outputs, path)
                if node.markdown and parent is not None:
                    inner = self._markdown_inner(inner, node, page, outputs, path)
                # Hugo's .Inner is HTML for both forms: templates never escape it.
                call.inner = Markup(inner)
        try:
            template = self.env.get_template(f"shortcodes/{node.name}.html")  # logs its use
            if native is not None:
                return native(node.params)
            return self._render(template, shortcode=call, page=page, site=page.site or self.site)
        except ShortcodeProblem as e:
            raise SourceError(path, node.line, node.col, f"{node.name}: {e}") from None
        except SourceError:
            raise
        except jinja2.TemplateError as e:
            raise SourceError(path, node.line, node.col, f"shortcode {node.name}: {e}") from None

    def _markdown_inner(
        self, inner: str, node: Shortcode, page: Page, outputs: list[str], path: str
    ) -> str:
        """The inner content of a ``{{% %}}`` call inside another call, as Hugo gives it to
        the template: rendered as a Markdown document of its own (only the outermost call's
        output joins the page's Markdown), the outputs of the calls in it written in first;
        a one-line inner content that makes one paragraph loses its ``<p>``."""
        source = _inline_outputs(inner, outputs)
        try:
            html = self.markdown.render(source, self._hooks(page)).html
        except MarkdownError as e:
            raise SourceError(path, node.line - 1 + e.line, e.column, e.message) from None
        except DestinationError as e:
            line, column = e.place_in(source)
            raise SourceError(path, node.line - 1 + line, column, str(e)) from None
        if "\n" not in source and (one := _ONE_LINE_PARAGRAPH.fullmatch(html)):
            return one.group(1)
        return html

    def _run_all(
        self,
        run: ShortcodeRun,
        page: Page,
        parent,
        outputs: list[str],
        path: str,
        ordinal: int,
        pieces: list[str],
    ) -> int:
        """Each call of ``run`` behind its placeholder with the whitespace after it: what
        the calls expand to one by one. Returns the ordinal of the next sibling."""
        native = self._native(run.name)
        if native is not None:  # a comment card: no call object per call, its use logged once
            _, line, col, _, _ = run.calls[0]
            try:
                self.env.get_template(f"shortcodes/{run.name}.html")
            except jinja2.TemplateError as e:
                raise SourceError(path, line, col, f"shortcode {run.name}: {e}") from None
        calls = zip(run.calls, [*run.gaps, ""], strict=True)
        for i, ((params, line, col, offset, end), gap) in enumerate(calls):
            if native is not None:
                out = native(params)
            else:
                node = Shortcode(run.name, params, False, None, line, col, offset, end, None)
                out = self._run(node, page, parent, outputs, path, ordinal + i)
            pieces += (f"HAHAMATOMESC{len(outputs)}HBHB", gap)
            outputs.append(out)
        return ordinal + len(run.calls)

    def _native(self, name: str) -> Any:
        """The Python rendering of a theme shortcode whose template is the theme's own."""
        if name not in self._natives:
            self._natives[name] = native_renderer(self.env, name)
        return self._natives[name]

    def _render(self, template: jinja2.Template, **variables: Any) -> str:
        """``template.render``, less the copy of its globals (a chain of mappings, slow to
        merge) that Jinja makes for each call: a matome article makes hundreds of calls.
        The context is made here for the same reason: Jinja's lists the globals' names
        from the chain again."""
        flat = self._globals.get(template)
        if flat is None:
            flat = self._globals[template] = dict(template.globals)
        return render_in_context(template, {**flat, **variables}, flat)


def _indent_before(body: str, offset: int) -> str:
    start = body.rfind("\n", 0, offset) + 1
    prefix = body[start:offset]
    return prefix if prefix.strip() == "" else ""


def _display_path(page: Page) -> str:
    return page.file.site_path if page.file else page.out_path


def merge_placeholder_runs(source: str) -> str:
    """One paragraph for a run of block shortcodes, instead of one paragraph each.

    Each of those paragraphs would be replaced by its output anyway, so the HTML is
    the same; Markdown just parses one paragraph where a matome article has eighty.
    Not inside fenced code, where blank lines between the calls are code.
    """
    if "HBHB\n" not in source or _FENCE.search(source):
        return source
    return _PLACEHOLDER_RUN.sub(_merged_token, source)


def render_markdown(
    markdown: MarkdownRenderer, source: str, hooks: RenderHooks | None = None
) -> RenderedMarkdown:
    """``markdown.render``, but a lone placeholder (what a shortcode wrapping others, as
    ``details`` wraps a thread, holds after the merge) is one paragraph without parsing."""
    lone = _LONE_PLACEHOLDER.fullmatch(source)
    if lone:
        return RenderedMarkdown(f"<p>{lone.group(1)}</p>\n")
    return markdown.render(source, hooks)


# Blank lines, one placeholder not indented as code, blank lines.
_LONE_PLACEHOLDER = re.compile(r"(?:[ \t]*\n)* {0,3}(HAHAMATOMESC[\dx]+HBHB)[ \t]*(?:\n[ \t]*)*")


def _merged_token(m: re.Match) -> str:
    # Joined by a letter: Markdown's inline parser reads a run of letters and digits in
    # one step, where each '_' would be a possible emphasis.
    numbers = re.findall(r"HAHAMATOMESC(\d+)HBHB", m.group(0))
    return f"HAHAMATOMESC{'x'.join(numbers)}HBHB"


def _inline_outputs(text: str, outputs: list[str]) -> str:
    """``text`` with each placeholder replaced by its output, itself with its own replaced."""
    if "HAHAMATOMESC" not in text:
        return text
    return _PLACEHOLDER.sub(lambda m: _inline_outputs(outputs[int(m.group(1))], outputs), text)


def _put_back(html: str, outputs: list[str]) -> str:
    if not outputs or "HAHAMATOMESC" not in html:  # most outputs hold no nested calls
        return html
    parts: list[str] = []  # every piece of the page, joined once (a page is long)
    _put_back_into(parts, html, outputs)
    return "".join(parts)


def _put_back_into(parts: list[str], html: str, outputs: list[str]) -> None:
    pos = 0
    for m in _PUT_BACK.finditer(html):
        parts.append(html[pos : m.start()])
        pos = m.end()
        text = m.group(0)
        # Only a placeholder that is its paragraph's whole content loses the <p> wrapper.
        whole = text.startswith("<p>") and text.endswith("</p>")
        if not whole and text.startswith("<p>"):
            parts.append("<p>")
        _outputs_into(parts, m.group(1), outputs)
        if not whole:
            parts.append(text[text.index("HBHB") + 4 :])
    parts.append(html[pos:])


def _outputs_into(parts: list[str], numbers: str, outputs: list[str]) -> None:
    for i, n in enumerate(numbers.split("x")):
        if i:  # merged paragraphs, each of which Hugo ends with its line break
            parts.append("\n")
        out = outputs[int(n)]
        if "HAHAMATOMESC" in out:  # an output may hold the placeholders of calls nested in it
            _put_back_into(parts, out, outputs)
        else:
            parts.append(out)


# Words that are most likely markup, which Hugo's summary does not count: a lone tag, an
# attribute, the '>' a cut at '</p' leaves.
_MARKUP_WORD = re.compile(r"</?[A-Za-z]+>?|[A-Za-z]+=[\"'].*|>")


def _counted_words(segment: str, cjk: bool) -> int:
    """Words as Hugo's summary counts them in raw HTML: cut at each space and before the
    last character (so a one-letter last word is not counted), markup left out; in a CJK
    page, a word's characters once its tags are removed."""
    count, start, last = 0, 0, len(segment) - 1
    for i, ch in enumerate(segment):
        if ch.isspace() or i == last:
            word = segment[start:i].strip()
            if word and not _MARKUP_WORD.fullmatch(word):
                count += cjk_word_weight(strip_html(word)) if cjk else 1
            start = i
    return count


def auto_summary(html: str, length: int, cjk: bool) -> tuple[str, bool]:
    """Hugo's automatic summary: the HTML, whatever its blocks, up to the ``</p>`` that
    ends the paragraph in which the ``summaryLength``-th word falls; all of it when there
    are fewer words, none when ``summaryLength`` is 0. Returns (summary, truncated)."""
    if length <= 0:
        return "", _has_text(html)
    count, pos = 0, 0
    while (close := html.find("</p>", pos)) != -1:
        count += _counted_words(html[pos:close], cjk)
        if count >= length:
            end = _closed_from(html, close + len("</p>"))
            return html[:end].strip(), _has_text(html, end)
        pos = close + len("</p")  # Hugo goes on from the '>'
    return html.strip(), False


def _has_text(html: str, start: int = 0) -> bool:
    """``bool(html[start:].strip())`` without the copy of a whole page's HTML."""
    return _NOT_SPACE.search(html, start) is not None


_NOT_SPACE = re.compile(r"\S")  # what ``str.strip`` keeps: the same Unicode spaces


_TAG = re.compile(r"<!--.*?-->|<(/?)([A-Za-z][A-Za-z0-9-]*)\b[^>]*?(/?)>", re.S)
VOID_ELEMENTS = frozenset(  # HTML elements without an end tag
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)


def _closed_from(html: str, cut: int) -> int:
    """``cut``, or if it falls inside elements (a paragraph in a blockquote, a list, a
    ``<div>``), the end of the outermost one: Hugo 0.168 does not split a container."""
    stack: list[str] = []
    for m in _TAG.finditer(html):
        if m.start() >= cut and not stack:
            return cut
        closing, name = m.group(1), (m.group(2) or "").lower()
        if not name or name in VOID_ELEMENTS or m.group(3):
            continue
        if not closing:
            stack.append(name)
        elif name in stack:
            del stack[len(stack) - 1 - stack[::-1].index(name) :]
            if not stack and m.end() >= cut:
                return m.end()
    return cut if not stack else len(html)
