"""Render hooks: a site's own templates writing links, images, headings, code blocks,
block quotes, tables and passthroughs.

Hugo calls a hook template instead of Goldmark's renderer for each link (autolinks
included), image, heading, fenced code block, block quote, table or passthrough when the
site has ``_markup/render-KIND.html`` (a code block: ``render-codeblock-LANG.html``
first; a passthrough: ``render-passthrough-block.html`` or
``render-passthrough-inline.html`` first); what the template writes replaces the element
as it is, and nothing is added around it. This module is the Markdown side of it, free
of templates: :class:`RenderHooks` says which kinds a page has and calls them with
Hugo's context (snake_case names: ``destination``, ``text``, ``plain_text``, ``title``,
``ordinal``, ``is_block``, ``attributes``, ``level``, ``anchor``, ``type``, ``inner``,
``options``, ``alert_type``, ``alert_title``, ``alert_sign``, ``thead``, ``tbody``); the
caller adds ``page`` and ``site`` and renders the template.

A link's tokens (``link_open``, its text, ``link_close``) are grouped into one
``hooked_link`` token, a heading's into one ``hooked_heading``, a block quote's into
one ``hooked_blockquote`` (its blocks as children) and a table's into one
``hooked_table`` before rendering, so that one render rule sees the whole element and
its content.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .headings import plain_text
from .library_internals import Token, escapeHtml

# What the comment fast path writes itself; hooks of other kinds leave it in use.
FAST_PATH_KINDS = frozenset({"link", "image", "blockquote"})
# A GitHub alert's first line: ``[!NOTE]``, ``[!TIP]+ Title``, ``[!WARNING]- Title``.
_ALERT = re.compile(r"\[!([A-Za-z]+)\]([+-]?)")


def autolink_context(destination: str, label: str) -> dict[str, Any]:
    """What a link hook is given for a bare URL (linkify's or ``<...>``'s)."""
    return {"destination": destination, "title": "", "text": escapeHtml(label), "plain_text": label}


@dataclass(frozen=True)
class RenderHooks:
    """The hook kinds a page has and the function that renders one: ``call(kind,
    context)`` returns the HTML that replaces the element."""

    kinds: frozenset[str]
    call: Callable[[str, dict[str, Any]], str]
    # Of ``kinds``, those Hugo's embedded hooks write (no template of the site's).
    embedded: frozenset[str] = frozenset()

    def fast_path(self) -> bool:
        """Whether the Markdown fast path may write the page: it writes no hooked element
        but a link of the embedded hook (``fastpath.py``); images always take the full
        path."""
        return not (self.kinds - self.embedded) & FAST_PATH_KINDS

    def codeblock_kind(self, lang: str) -> str | None:
        """The hook of a fenced code block in ``lang``: its language's, or the general one."""
        if lang and f"codeblock-{lang}" in self.kinds:
            return f"codeblock-{lang}"
        return "codeblock" if "codeblock" in self.kinds else None

    def passthrough_kind(self, type_: str) -> str | None:
        """The hook of a passthrough of ``type_`` ("block" or "inline"): its type's, or
        the general one."""
        if f"passthrough-{type_}" in self.kinds:
            return f"passthrough-{type_}"
        return "passthrough" if "passthrough" in self.kinds else None


@dataclass(frozen=True)
class TableCell:
    """A cell of a hooked table: its alignment ("left", "center", "right" or "") and
    its content as HTML."""

    alignment: str
    text: str


def group_hooked(tokens: list[Token], kinds: frozenset[str]) -> list[Token]:
    """``tokens`` with each link (in every inline token), each heading, each table and
    each block quote made one token when its kind has a hook."""
    if "heading" in kinds:  # its plain text before its links are grouped
        for i, token in enumerate(tokens):
            if token.type == "heading_open" and i + 1 < len(tokens):
                token.meta["plain_text"] = plain_text(tokens[i + 1].children or [])
    if "link" in kinds:
        for token in tokens:
            if token.type == "inline" and token.children:
                token.children = _group_links(token.children)
    if "heading" in kinds:
        tokens = _group_headings(tokens)
    if "table" in kinds:  # before block quotes, which take their tables in
        tokens = _group_tables(tokens)
    if "blockquote" in kinds:
        tokens = _group_blockquotes(tokens)
    return tokens


def _group_tables(tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    table: Token | None = None
    for token in tokens:
        if token.type == "table_open":
            table = Token("hooked_table", "table", 0, map=token.map, meta=token.meta)
            table.level, table.block, table.children = token.level, True, []
        elif table is None:
            out.append(token)
        elif token.type == "table_close":
            out.append(table)
            table = None
        else:
            table.children.append(token)
    return out


def table_rows(tokens: list[Token], render_inline: Callable[[list[Token]], str]):
    """A hooked table's header rows and body rows, each a list of :class:`TableCell`,
    the text of each cell written by ``render_inline``."""
    head: list[list[TableCell]] = []
    body: list[list[TableCell]] = []
    rows, alignment = body, ""
    for token in tokens:
        kind = token.type
        if kind == "thead_open":
            rows = head
        elif kind == "tbody_open":
            rows = body
        elif kind == "tr_open":
            rows.append([])
        elif kind in ("th_open", "td_open"):
            style = token.attrGet("style") or ""
            alignment = style.split(":", 1)[1] if style.startswith("text-align:") else ""
        elif kind == "inline":
            rows[-1].append(TableCell(alignment, render_inline(token.children or [])))
    return head, body


def _group_headings(tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "heading_open" and i + 2 < len(tokens):
            hooked = Token("hooked_heading", token.tag, 0, map=token.map, meta=token.meta)
            hooked.children = tokens[i + 1].children or []
            out.append(hooked)
            i += 3  # heading_open, inline, heading_close
            continue
        out.append(token)
        i += 1
    return out


@dataclass
class Alert:
    """A GitHub alert (``> [!NOTE]``): its type in lower case, its sign (``+``, ``-`` or
    none), its title's inline tokens and the blocks after its first line."""

    kind: str
    sign: str
    title: list[Token]
    body: list[Token]


def split_alert(blocks: list[Token]) -> Alert | None:
    """The alert a block quote's ``blocks`` make, when its first paragraph starts with
    ``[!TYPE]``; its first line (after the sign) is the title."""
    if len(blocks) < 3 or blocks[0].type != "paragraph_open" or blocks[1].type != "inline":
        return None
    children = blocks[1].children or []
    if not children or children[0].type != "text":
        return None
    m = _ALERT.match(children[0].content)
    if not m:
        return None
    first = children[0].copy(content=children[0].content[m.end() :])
    end = next(
        (i for i, c in enumerate(children) if c.type in ("softbreak", "hardbreak")),
        len(children),
    )
    title = [first, *children[1 : end + 1]]
    rest = children[end + 1 :]
    # Without more lines, the first paragraph goes with its first line.
    body = [blocks[0], blocks[1].copy(children=rest), *blocks[2:]] if rest else blocks[3:]
    return Alert(m.group(1).lower(), m.group(2), title, body)


def _group_blockquotes(tokens: list[Token]) -> list[Token]:
    def hooked(opening: Token) -> Token:
        token = Token("hooked_blockquote", "blockquote", 0, map=opening.map, block=True)
        token.meta = opening.meta
        return token

    return _group_pairs(tokens, "blockquote", hooked)


def _group_links(children: list[Token]) -> list[Token]:
    return _group_pairs(
        children,
        "link",
        lambda opening: Token("hooked_link", "a", 0, attrs=opening.attrs, meta=opening.meta),
    )


def _group_pairs(tokens: list[Token], kind: str, make: Callable[[Token], Token]) -> list[Token]:
    """Each run from a ``KIND_open`` to its ``KIND_close`` (nested ones too) as one token,
    ``make(opening)``, whose children are the tokens between."""
    out: list[Token] = []
    stack: list[tuple[Token, list[Token]]] = []
    for token in tokens:
        if token.type == f"{kind}_open":
            stack.append((token, out))
            out = []
        elif token.type == f"{kind}_close" and stack:
            opening, parent = stack.pop()
            grouped = make(opening)
            grouped.children = out
            parent.append(grouped)
            out = parent
        else:
            out.append(token)
    return out


def hook_attributes(attrs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Attributes as a hook template sees them: by name, numbers that are whole as
    integers (Go prints its float 3 as "3"), nested lists as mappings."""
    return {name: _hook_value(value) for name, value in attrs}


def _hook_value(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return int(value)
    if isinstance(value, list):
        if value and all(isinstance(v, tuple) for v in value):  # a nested {...}
            return hook_attributes(value)
        return [_hook_value(v) for v in value]
    return value


def text_content(children: list[Token]) -> str:
    """The text of inline tokens and everything in them: a link's or an image's
    ``plain_text``."""
    out: list[str] = []
    for token in children:
        kind = token.type
        if kind in ("text", "code_inline", "text_special", "gm_autolink"):
            out.append(token.content)
        elif kind == "typographer":
            out.append(html.unescape(token.content))
        elif kind in ("softbreak", "hardbreak"):
            out.append("\n")
        elif kind == "emoji":
            out.append(token.markup)
        elif token.children:
            out.append(text_content(token.children))
    return "".join(out)
