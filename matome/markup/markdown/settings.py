"""Hugo's ``markup`` configuration, read once into a :class:`Settings` with Hugo's defaults.

Hugo matches config keys case-insensitively and accepts older forms of some of them (the
typographer as a boolean, the footnote and attribute extensions as booleans or tables), so
the raw dict is lower-cased and each value normalised here; every other module reads the
frozen result and never looks at the config again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .highlight_options import HighlightConfig, OptionError, site_config

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
    attribute_block: bool = False  # {.class} on a line after a block
    auto_definition_term_id: bool = False
    wrap_standalone_images: bool = True
    # Extras: the ones switched on, of "delete", "insert", "mark", "subscript", "superscript".
    extras: frozenset[str] = frozenset()
    # Passthrough: (opening, closing) delimiters, each kept as written.
    passthrough_block: tuple[tuple[str, str], ...] = ()
    passthrough_inline: tuple[tuple[str, str], ...] = ()
    cjk_line_breaks: str = ""  # "", "simple" or "css3draft"
    cjk_escaped_space: bool = False
    # When Hugo's own link and image render hooks apply: "never", "fallback" (when the
    # site has none of its own) or "always".
    embedded_link_hook: str = "never"
    embedded_image_hook: str = "never"
    emoji: bool = False
    highlight: HighlightConfig = field(default_factory=HighlightConfig)
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


def read_settings(markup: dict | None, enable_emoji: bool, legacy: dict | None = None) -> Settings:
    """``legacy``: the site config's top-level keys, for the ``pygments*`` ones."""
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
        id_type=_id_type(_get(m, "goldmark.parser", {})),
        attribute_title=_attribute(_get(m, "goldmark.parser.attribute", True), "title", True),
        attribute_block=_attribute(_get(m, "goldmark.parser.attribute", True), "block", False),
        auto_definition_term_id=bool(_get(m, "goldmark.parser.autodefinitiontermid", False))
        and bool(_get(ext, "definitionlist", True)),
        wrap_standalone_images=bool(
            _get(m, "goldmark.parser.wrapstandaloneimagewithinparagraph", True)
        ),
        extras=frozenset(
            name
            for name in ("delete", "insert", "mark", "subscript", "superscript")
            if _get(ext, f"extras.{name}.enable", False)
        ),
        passthrough_block=_delimiters(ext, "block"),
        passthrough_inline=_delimiters(ext, "inline"),
        cjk_line_breaks=_cjk_line_breaks(_get(ext, "cjk", {})),
        cjk_escaped_space=bool(_get(ext, "cjk.enable", False))
        and bool(_get(ext, "cjk.escapedspace", False)),
        embedded_link_hook=_embedded_hook(m, "link", legacy or {}),
        embedded_image_hook=_embedded_hook(m, "image", legacy or {}),
        emoji=bool(enable_emoji),
        highlight=site_config(_get(m, "highlight", {}), _lower_keys(legacy or {})),
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


def _attribute(value: Any, key: str, default: bool) -> bool:
    """``parser.attribute.title`` or ``.block``; the old boolean form is ``title``."""
    if isinstance(value, dict):
        return bool(value.get(key, default))
    return bool(value) if key == "title" else default


def _id_type(parser: Any) -> str:
    """``autoIDType``, or its name before Hugo 0.144, which still wins when set."""
    parser = parser if isinstance(parser, dict) else {}
    return str(parser.get("autoheadingidtype") or parser.get("autoidtype") or "github").lower()


def _delimiters(ext: dict, kind: str) -> tuple[tuple[str, str], ...]:
    if not _get(ext, "passthrough.enable", False):
        return ()
    pairs = _get(ext, f"passthrough.delimiters.{kind}", []) or []
    return tuple(
        (str(p[0]), str(p[1])) for p in pairs if isinstance(p, (list, tuple)) and len(p) == 2
    )


def _cjk_line_breaks(cjk: Any) -> str:
    if not isinstance(cjk, dict) or not cjk.get("enable") or not cjk.get("eastasianlinebreaks"):
        return ""
    return "css3draft" if cjk.get("eastasianlinebreaksstyle") == "css3draft" else "simple"


_USE_EMBEDDED = ("always", "auto", "fallback", "never")


def _embedded_hook(m: dict, kind: str, site: dict) -> str:
    """When Hugo uses its embedded link or image hook: ``useEmbedded``, where "auto"
    means "fallback" on a site whose configuration has a ``[languages]`` table (even of
    one language, even of disabled ones), served from one host, whose pages share
    resources (``duplicateResourceFiles`` off). Hugo 0.168 fails on another value and on
    the removed ``enableDefault``; so does matome."""
    hook = _get(m, f"goldmark.renderhooks.{kind}", {})
    hook = hook if isinstance(hook, dict) else {}
    key = f"markup.goldmark.renderHooks.{kind}"
    if "enabledefault" in hook:
        raise OptionError(
            f"removed in Hugo 0.148.0: use {key}.useEmbedded instead, "
            '"never" where it was false, "fallback" where it was true',
            key=f"{key}.enableDefault",
        )
    mode = hook.get("useembedded", "auto")
    if mode not in _USE_EMBEDDED:
        raise OptionError(
            f"must be one of always, auto, fallback, or never, not {mode!r}",
            key=f"{key}.useEmbedded",
        )
    if mode == "auto":
        languages = site.get("languages")
        multihost = isinstance(languages, dict) and any(
            isinstance(v, dict) and "baseurl" in v for v in languages.values()
        )
        declared = isinstance(languages, dict) and bool(languages)
        shared = not _get(m, "goldmark.duplicateresourcefiles", False)
        mode = "fallback" if declared and not multihost and shared else "never"
    return mode
