"""Output formats and media types, as Hugo has them: its built-in ones, changed and added
to by the site's ``[outputFormats]`` and ``[mediaTypes]``, and where each format of a
page is written.

A page is rendered once per format its ``outputs`` name (``[outputs]`` per kind, or its
front matter): ``html`` at the page's URL, every other format beside it, as
``<path>/<page folder>/<baseName>.<first suffix of its media type>``
(``posts/index.xml``, ``posts/x/index.json``, ``amp/posts/x/index.html``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from .config import SiteConfig
from .content.urls import escape_url_path
from .errors import SourceError

# Hugo's built-in media types with their suffixes, the first of which names the files.
BUILTIN_MEDIA_TYPES: dict[str, tuple[str, ...]] = {
    "application/json": ("json",),
    "application/manifest+json": ("webmanifest",),
    "application/octet-stream": (),
    "application/pdf": ("pdf",),
    "application/rss+xml": ("xml", "rss"),
    "application/source-map": ("map",),
    "application/toml": ("toml",),
    "application/wasm": ("wasm",),
    "application/xml": ("xml",),
    "application/yaml": ("yaml", "yml"),
    "font/otf": ("otf",),
    "font/ttf": ("ttf",),
    "font/woff": ("woff",),
    "font/woff2": ("woff2",),
    "image/avif": ("avif",),
    "image/bmp": ("bmp",),
    "image/gif": ("gif",),
    "image/heic": ("heic",),
    "image/heif": ("heif",),
    "image/jpeg": ("jpg", "jpeg", "jpe", "jif", "jfif"),
    "image/png": ("png",),
    "image/svg+xml": ("svg",),
    "image/tiff": ("tif", "tiff"),
    "image/webp": ("webp",),
    "text/asciidoc": ("adoc", "asciidoc", "ad"),
    "text/calendar": ("ics",),
    "text/css": ("css",),
    "text/csv": ("csv",),
    "text/html": ("html", "htm"),
    "text/javascript": ("js", "jsm", "mjs"),
    "text/jsx": ("jsx",),
    "text/markdown": ("md", "mdown", "markdown"),
    "text/org": ("org",),
    "text/pandoc": ("pandoc", "pdc"),
    "text/plain": ("txt",),
    "text/rst": ("rst",),
    "text/tsx": ("tsx",),
    "text/typescript": ("ts",),
    "text/x-gotmpl": ("gotmpl",),
    "text/x-sass": ("sass",),
    "text/x-scss": ("scss",),
    "video/3gpp": ("3gpp", "3gp"),
    "video/mp4": ("mp4",),
    "video/mpeg": ("mpg", "mpeg"),
    "video/ogg": ("ogv",),
    "video/webm": ("webm",),
    "video/x-msvideo": ("avi",),
}

# Hugo's names in [outputFormats] tables (lower-cased, as the config reader leaves them)
# and this module's field names.
_KEYS = {
    "basename": "base_name",
    "path": "path",
    "rel": "rel",
    "protocol": "protocol",
    "isplaintext": "is_plain_text",
    "ishtml": "is_html",
    "nougly": "no_ugly",
    "notalternative": "not_alternative",
    "permalinkable": "permalinkable",
    "weight": "weight",
}
_FLAGS = frozenset({"is_plain_text", "is_html", "no_ugly", "not_alternative", "permalinkable"})

# Formats Hugo knows whose files matome writes by itself, from its own templates: in
# ``outputs`` they are left out with a warning.
OWN_FILES = frozenset({"404", "alias", "gotmpl", "robots", "sitemap", "sitemapindex"})


@dataclass(frozen=True)
class MediaType:
    """Hugo's ``MediaType``: ``type`` ("application/rss+xml") and its file suffixes."""

    type: str
    suffixes: tuple[str, ...] = ()

    @property
    def main_type(self) -> str:
        return self.type.split("/", 1)[0]

    @property
    def sub_type(self) -> str:
        return self.type.split("/", 1)[-1].split("+", 1)[0]

    @property
    def suffix(self) -> str:
        """The suffix of the files written in this media type: its first."""
        return self.suffixes[0] if self.suffixes else ""

    def __str__(self) -> str:
        return self.type


@dataclass(frozen=True)
class OutputFormat:
    """One of Hugo's output formats (``[outputFormats.NAME]``)."""

    name: str
    media_type: MediaType
    base_name: str = "index"
    path: str = ""  # written under this folder: "amp" -> /amp/posts/x/
    rel: str = "alternate"
    protocol: str = ""  # replaces the scheme of its permalinks: "webcal://"
    is_plain_text: bool = False  # rendered without HTML escaping
    is_html: bool = False
    no_ugly: bool = False  # kept at <folder>/<baseName> when the page's URL is a file
    not_alternative: bool = False  # left out of page.alternative_output_formats
    permalinkable: bool = False  # a page rendered in it has its URL in it as permalink
    weight: int = 0

    @property
    def suffix(self) -> str:
        return self.media_type.suffix


def _builtin_formats(types: dict[str, MediaType]) -> dict[str, OutputFormat]:
    html = types["text/html"]
    return {
        f.name: f
        for f in (
            OutputFormat(
                "html", html, rel="canonical", is_html=True, permalinkable=True, weight=10
            ),
            OutputFormat("amp", html, path="amp", rel="amphtml", is_html=True, permalinkable=True),
            OutputFormat("rss", types["application/rss+xml"], no_ugly=True),
            OutputFormat("json", types["application/json"], is_plain_text=True),
            OutputFormat(
                "calendar", types["text/calendar"], protocol="webcal://", is_plain_text=True
            ),
            OutputFormat("csv", types["text/csv"], is_plain_text=True),
            OutputFormat("markdown", types["text/markdown"], is_plain_text=True),
            OutputFormat(
                "css",
                types["text/css"],
                base_name="styles",
                rel="stylesheet",
                is_plain_text=True,
                not_alternative=True,
            ),
            OutputFormat(
                "webappmanifest",
                types["application/manifest+json"],
                base_name="manifest",
                rel="manifest",
                is_plain_text=True,
                not_alternative=True,
            ),
        )
    }


BUILTIN_FORMATS = _builtin_formats({t: MediaType(t, s) for t, s in BUILTIN_MEDIA_TYPES.items()})
HTML = BUILTIN_FORMATS["html"]


@dataclass
class SiteFormats:
    """The site's media types and output formats by name (lower case), and what was wrong
    with its tables."""

    media_types: dict[str, MediaType]
    formats: dict[str, OutputFormat]
    errors: list[SourceError] = field(default_factory=list)


def site_formats(config: SiteConfig) -> SiteFormats:
    """Hugo's built-in formats with the site's ``[mediaTypes]`` and ``[outputFormats]``
    over them: a table for a built-in changes only the keys it sets."""
    where = config.files[0] if config.files else str(config.source)
    errors: list[SourceError] = []
    types = {t: MediaType(t, s) for t, s in BUILTIN_MEDIA_TYPES.items()}
    for name, table in _table(config.get("mediaTypes"), "mediaTypes", where, errors).items():
        name = str(name).lower()
        suffixes = types[name].suffixes if name in types else ()
        value = table.get("suffixes") if isinstance(table, dict) else None
        if isinstance(value, str):
            value = [value]
        if isinstance(value, list):
            suffixes = tuple(str(s).lstrip(".") for s in value)
        elif value is not None:
            message = f"mediaTypes.{name}.suffixes: expected a list of suffixes, got {value!r}"
            errors.append(SourceError(where, 0, 0, message))
        types[name] = MediaType(name, suffixes)
    formats = _builtin_formats(types)
    for name, table in _table(config.get("outputFormats"), "outputFormats", where, errors).items():
        name = str(name).lower()
        if not isinstance(table, dict):
            errors.append(SourceError(where, 0, 0, f"outputFormats.{name}: expected a table"))
            continue
        fmt = formats.get(name) or OutputFormat(name, types["text/html"])
        changes: dict[str, Any] = {}
        for key, value in table.items():
            key = str(key).lower()
            if key == "mediatype":
                media = media_type_named(types, str(value))
                if media is None:
                    message = (
                        f"outputFormats.{name}: media type {value!r} not found: "
                        "define it in [mediaTypes]"
                    )
                    errors.append(SourceError(where, 0, 0, message))
                    continue
                changes["media_type"] = media
            elif key in _KEYS:
                attr = _KEYS[key]
                converted = _value(attr, value)
                if converted is None:
                    message = f"outputFormats.{name}.{key}: unexpected value {value!r}"
                    errors.append(SourceError(where, 0, 0, message))
                    continue
                changes[attr] = converted
        formats[name] = replace(fmt, **changes)
    # A built-in format keeps its media type's new suffixes from [mediaTypes].
    formats = {
        n: replace(f, media_type=types.get(f.media_type.type, f.media_type))
        for n, f in formats.items()
    }
    return SiteFormats(types, formats, errors)


def media_type_named(types: dict[str, MediaType], name: str) -> MediaType | None:
    """The media type ``name`` means, as Hugo finds it: by its whole type, any case, or
    without a ``+suffix`` by main and sub type when only one type has them
    ("application/rss" is "application/rss+xml", "image/svg" "image/svg+xml")."""
    name = name.lower()
    if name in types:
        return types[name]
    main, slash, sub = name.partition("/")
    if "+" in name or not slash or "/" in sub:
        return None
    found = [t for t in types.values() if (t.main_type, t.sub_type) == (main, sub)]
    return found[0] if len(found) == 1 else None


def _table(value: Any, key: str, where: str, errors: list[SourceError]) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        errors.append(SourceError(where, 0, 0, f"{key}: expected a table"))
        return {}
    return value


def _value(attr: str, value: Any) -> Any:
    """A config value as the field wants it; None when it cannot be one."""
    if attr in _FLAGS:
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        return value if isinstance(value, bool) else None
    if attr == "weight":
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if not isinstance(value, str):
        return None
    return value.strip("/") if attr == "path" else value


# --- where a page's format is written -----------------------------------------------
class Location(NamedTuple):
    """Where one format of a page goes: the file, and its URL's path (not yet escaped,
    without the site's base path)."""

    out_path: str
    url_path: str


def format_location(page: Any, fmt: OutputFormat) -> Location:
    """Where ``fmt`` of ``page`` is written, from where its HTML is (``page.out_path``).

    Beside a page whose URL is a folder: ``<folder>/<baseName>.<suffix>``. A page whose
    front matter ``url`` names a file has every format at that file (Hugo's rule; two
    formats then want one file). Another page whose URL is a file (a permalink pattern
    ending in ``.html``): ``<name>.<suffix>``, or with ``noUgly`` ``<name>/<baseName>.<suffix>``.
    ``path`` puts it all under a folder of the site."""
    html_path = page.out_path
    # A format whose media type has no suffix names its file by its baseName alone.
    dot_suffix = f".{fmt.suffix}" if fmt.suffix else ""
    if fmt.name == "html":
        out = html_path
    elif _is_index(html_path):
        out = f"{html_path[:-10]}{fmt.base_name}{dot_suffix}"
    elif page.url_override:
        out = html_path
    else:
        stem = html_path.rsplit(".", 1)[0]
        out = f"{stem}/{fmt.base_name}{dot_suffix}" if fmt.no_ugly else f"{stem}{dot_suffix}"
    if fmt.path and fmt.name != "html":
        out = f"{fmt.path}/{out}"
    # An index page's URL is its folder's.
    return Location(out, "/" + (out[:-10] if _is_index(out) else out))


def _is_index(path: str) -> bool:
    return path == "index.html" or path.endswith("/index.html")


class PageOutputFormat(NamedTuple):
    """Hugo's ``page.OutputFormat``: one format a page is rendered in, with its URLs.
    (A named tuple: every page makes its own in every ``<head>``, and tuples are quick
    to make.)"""

    name: str
    rel: str
    media_type: MediaType
    permalink: str
    rel_permalink: str
    format: OutputFormat


# What escape_url_path changes: any character but these (most paths have none).
_ESCAPED_IN_URLS = re.compile(r"[^A-Za-z0-9/_.~$&+,:;=@-]")


class OutputFormats(list):
    """A page's formats, in ``outputs`` order; ``get(name)`` is Hugo's ``.OutputFormats.Get``."""

    def get(self, name: str) -> PageOutputFormat | None:
        want = str(name).lower()
        return next((f for f in self if f.name == want), None)

    @property
    def canonical(self) -> PageOutputFormat | None:
        return next((f for f in self if f.rel == "canonical"), None)


def page_output_format(page: Any, fmt: OutputFormat, config: SiteConfig) -> PageOutputFormat:
    """``fmt`` of ``page`` with its URLs (``html``'s are the page's own, even while
    another format is rendered with its own as the page's permalink)."""
    url = format_location(page, fmt).url_path
    if _ESCAPED_IN_URLS.search(url) is not None:
        url = escape_url_path(url)
    rel = config.rel_base_path + url
    absolute = config.base_url.rstrip("/") + url
    if fmt.protocol:
        absolute = fmt.protocol + absolute.split("://", 1)[-1]
    return PageOutputFormat(fmt.name, fmt.rel, fmt.media_type, absolute, rel, fmt)
