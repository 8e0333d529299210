"""``MarkdownRenderer``: one site's Markdown rendering, Hugo's ``markdownify`` included.

It reads the ``markup`` config once, builds the parser, the render rules and the
highlighter, and keeps no per-document state between calls, so one instance serves a
whole build and can be used from forked worker processes. Page bodies and
``markdownify`` inputs try the fast path first and fall back to markdown-it; headings
get Hugo's IDs and table-of-contents titles as a page is rendered.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...config_types import key_position
from ...errors import SourceError
from .attributes import attribute_text
from .chars import GO_SPACE
from .fastpath import FastPath, LinkHook, plain_line
from .headings import Heading, heading_id, plain_text, reserve_id
from .highlight import Highlighter
from .highlight_options import OptionError
from .hooks import RenderHooks, group_hooked
from .library_internals import Token
from .parser import build_parser
from .render_rules import RenderRules
from .settings import read_settings
from .toc import toc_html, toc_title


@dataclass
class RenderedMarkdown:
    """A page body's HTML and its headings, with their IDs, for the table of contents."""

    html: str
    headings: list[Heading] = field(default_factory=list)


def trim_short_html(markup: str) -> str:
    """Hugo's markdownify: output with exactly one ``<p>`` is trimmed, and unwrapped if
    that paragraph is all there is."""
    if markup.count("<p>") != 1:
        return markup
    markup = markup.strip(GO_SPACE)
    if markup.startswith("<p>") and markup.endswith("</p>"):
        return markup[3:-4].strip(GO_SPACE)
    return markup


class MarkdownRenderer:
    """Hugo-compatible Markdown rendering for one site configuration."""

    def __init__(self, markup: dict | None, enable_emoji: bool = False, legacy: dict | None = None):
        self.settings = read_settings(markup, enable_emoji, legacy)
        self._md = build_parser(self.settings)
        self._highlighter = Highlighter(self.settings.highlight)
        RenderRules(self.settings, self._highlighter).install(self._md)
        self._fast = FastPath(self.settings)

    @classmethod
    def for_site(cls, config) -> MarkdownRenderer:
        """The renderer of a site's configuration; a ``markup.highlight`` value Hugo
        refuses is an error at its key."""
        try:
            return cls(config.markup, config.enable_emoji, legacy=config.raw)
        except OptionError as e:
            file = next((Path(f) for f in config.files if Path(f).is_file()), None)
            line, col = key_position(file, e.key.split(".")) if file else (1, 1)
            where = "markup.highlight" if e.key == "highlight" else e.key
            raise SourceError(str(file or "config"), line, col, f"{where}: {e}") from None

    def render(self, text: str, hooks: RenderHooks | None = None) -> RenderedMarkdown:
        """Render a page body: HTML plus the headings (with their IDs) for the TOC. With
        render ``hooks``, the site's templates write what they hook."""
        if hooks is None or hooks.fast_path():
            fast = self._fast.document(text, _link_hook(hooks))
            if fast is not None:  # a matome article's frame: a quote, links, the comments
                return RenderedMarkdown(fast, [])
        return self.render_parsed(text, hooks)

    def is_own_html(self, text: str) -> bool:
        """Whether ``markdownify(text)`` is ``text`` itself: a plain line, or (raw HTML
        passed through) plain text with ``<br>`` tags in it, as a comment's lines come."""
        if plain_line(text):
            return True
        return self.settings.unsafe and "<br>" in text and plain_line(text.replace("<br>", "br"))

    def render_parsed(self, text: str, hooks: RenderHooks | None = None) -> RenderedMarkdown:
        """``render`` through markdown-it, with no fast path."""
        env: dict[str, Any] = {
            "_last_line": -1 if text.endswith("\n") else text.count("\n"),
            "_source": text,  # for the place of an error
            "_hooks": hooks,
        }
        tokens = self._md.parse(text, env)
        headings = self._headings(tokens, env)
        if hooks is not None:
            tokens = group_hooked(tokens, hooks.kinds)
        return RenderedMarkdown(self._md.renderer.render(tokens, self._md.options, env), headings)

    def markdownify(self, text: str, hooks: RenderHooks | None = None) -> str:
        """Hugo's ``markdownify``: a lone paragraph comes back without its ``<p>`` wrapper.
        With render ``hooks``, the site's templates write what they hook."""
        if self.is_own_html(text):
            return text
        if hooks is None or hooks.fast_path():
            fast = self._fast.render(text, _link_hook(hooks))
            if fast is not None:
                return fast
        return trim_short_html(self.render(text, hooks).html)

    def highlight(self, code: str, lang: str, options: str = "") -> str:
        """Hugo's ``highlight`` shortcode: options written as ``linenos=table,hl_lines=2``."""
        return self._highlighter.shortcode(code, lang, options)

    def toc(self, headings: list[Heading]) -> str:
        """Hugo's ``.TableOfContents`` for these headings."""
        return toc_html(headings, self.settings)

    def _headings(self, tokens: list[Token], env: dict) -> list[Heading]:
        """Give headings (and definition terms, with ``autoDefinitionTermID``) their IDs
        in document order, as Hugo's transformer does; return the headings."""
        seen: dict[str, int] = {}
        found = []
        # Hooks write the page, not its table of contents.
        toc_env = {**env, "_hooks": None} if env.get("_hooks") else env
        term_ids = self.settings.auto_definition_term_id
        for i, token in enumerate(tokens):
            if token.type == "dt_open" and term_ids:
                text = plain_text(tokens[i + 1].children or [])
                if text:
                    token.attrs["id"] = heading_id(text, self.settings.id_type, seen)
                continue
            if token.type != "heading_open":
                continue
            children = tokens[i + 1].children or []
            attrs = token.meta.setdefault("attrs", [])
            anchor = next((attribute_text(v) for k, v in attrs if k == "id"), None)
            if anchor is not None:
                reserve_id(seen, anchor)
            elif self.settings.auto_heading_id:
                text = plain_text(children).rsplit("\n", 1)[-1]
                if text:  # Hugo gives an empty heading no ID at all
                    anchor = heading_id(text, self.settings.id_type, seen)
                    attrs.append(("id", anchor))
            if "block_attrs" in token.meta:  # after the heading's own and its ID
                names = {name for name, _ in attrs}
                attrs.extend(a for a in token.meta.pop("block_attrs") if a[0] not in names)
            title = self._md.renderer.renderInline(children, self._md.options, toc_env)
            found.append(Heading(int(token.tag[1]), toc_title(title), anchor or ""))
        return found


def _link_hook(hooks: RenderHooks | None) -> LinkHook | None:
    """What writes the links (and bare URLs) of a render on the fast path: Hugo's embedded
    link hook when it is on (``hooks.fast_path`` leaves no other), else None (matome)."""
    if hooks is None or "link" not in hooks.embedded:
        return None
    return functools.partial(hooks.call, "link")
