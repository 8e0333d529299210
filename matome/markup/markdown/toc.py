"""Hugo's ``.TableOfContents``: its nesting of headings and its sanitised titles.

Hugo nests the headings of a page from level 1 down (a missing level gets an empty item),
keeps only the levels between ``startLevel`` and ``endLevel``, and cleans each title that
holds tags with bluemonday (links and unknown tags unwrapped, few attributes kept). The
layout, indentation included, is Hugo's byte for byte.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from .chars import go_escape
from .headings import Heading
from .settings import Settings

# --- titles: what Hugo's sanitiser keeps of a heading's inline HTML --------------------------

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


def toc_title(inner_html: str) -> str:
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
    return go_escape(text if decoded else html.unescape(text))


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


def toc_html(headings: list[Heading], s: Settings) -> str:
    """Hugo's ``.TableOfContents`` for a page's headings."""
    out = ['<nav id="TableOfContents">']
    _toc_list(out, _toc_tree(headings), 1, 0, s)
    out.append("</nav>")
    return "".join(out)


def _toc_list(out: list[str], nodes: list[_TocNode], level: int, indent: int, s: Settings):
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
