"""Hugo's ``markup`` configuration, read once into a :class:`Settings` with Hugo's defaults.

Hugo matches config keys case-insensitively and accepts older forms of some of them (the
typographer as a boolean, the footnote and attribute extensions as booleans or tables), so
the raw dict is lower-cased and each value normalised here; every other module reads the
frozen result and never looks at the config again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
class Settings:
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
    hl_lines: str = ""  # lines highlighted in every block ("2-3 5")
    anchor_line_nos: bool = False
    line_anchors: str = ""
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


def read_settings(markup: dict | None, enable_emoji: bool) -> Settings:
    m = _lower_keys(markup or {})
    ext = _get(m, "goldmark.extensions", {})
    return Settings(
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
        hl_lines=str(_get(m, "highlight.hl_lines", "")),
        anchor_line_nos=bool(_get(m, "highlight.anchorlinenos", False)),
        line_anchors=str(_get(m, "highlight.lineanchors", "")),
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
