"""Hugo's template functions that themes use most, as Jinja filters and globals with
Hugo's names in snake_case: ``date_format`` (Go layouts such as ``2006/01/02`` as well as
strftime), ``plainify``, ``humanize``, ``jsonify``, ``truncate``, ``xml_text`` and
matome's ``comment_time`` and ``safe_url``. The ones that need the site graph are in
``site_functions.py``."""

from __future__ import annotations

import functools
import json
import re
from datetime import UTC, date, datetime
from typing import Any, NamedTuple

from markupsafe import Markup

from ..content.page import Page
from ..content.words import strip_html
from ..markup.go_url import replace_each

# --- Go's reference-time layouts ------------------------------------------------
_GO_TOKENS = [
    ("January", "%B"),
    ("Monday", "%A"),
    ("Z07:00", "Z07:00"),
    ("-07:00", "-07:00"),
    ("-0700", "%z"),
    ("2006", "%Y"),
    ("Jan", "%b"),
    ("Mon", "%a"),
    ("MST", "%Z"),
    (".000", ".000"),
    ("01", "%m"),
    ("02", "%d"),
    ("_2", "_2"),
    ("15", "%H"),
    ("03", "%I"),
    ("04", "%M"),
    ("05", "%S"),
    ("06", "%y"),
    ("PM", "%p"),
    ("pm", "pm"),
    ("1", "1"),
    ("2", "2"),
    ("3", "3"),
    ("4", "4"),
    ("5", "5"),
]
_GO_PATTERN = re.compile("|".join(re.escape(t) for t, _ in _GO_TOKENS))


def date_format(value: Any, layout: str = "2006-01-02") -> str:
    """Format a date with a Go layout (``2006/01/02``) or a strftime pattern (``%Y/%m/%d``)."""
    if value is None or value == "":
        return ""
    if isinstance(value, datetime):
        # Lists, feeds and the sitemap format the same few thousand dates over and over.
        return _format_datetime(value, layout)
    if isinstance(value, str):
        from ..content.dates import parse_date

        value = parse_date(value, UTC)
    if isinstance(value, date) and not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day)
    return _format_datetime(value, layout)


@functools.lru_cache(maxsize=65536)
def _format_datetime(value: datetime, layout: str) -> str:
    if "%" in layout:
        return value.strftime(layout)
    return _GO_PATTERN.sub(lambda m: _go_token(value, m.group(0)), layout)


def _go_token(d: datetime, token: str) -> str:
    if token in ("Z07:00", "-07:00"):
        offset = d.utcoffset()
        if offset is None or (token == "Z07:00" and not offset):
            return "Z" if token == "Z07:00" else "+00:00"
        z = d.strftime("%z")
        return f"{z[:3]}:{z[3:]}"
    simple = {
        "2006": f"{d.year:04d}",
        ".000": f".{d.microsecond // 1000:03d}",
        "_2": f"{d.day:2d}",
        "pm": d.strftime("%p").lower(),
        "1": str(d.month),
        "2": str(d.day),
        "3": str(d.hour % 12 or 12),
        "4": str(d.minute),
        "5": str(d.second),
    }
    if token in simple:
        return simple[token]
    fmt = dict(_GO_TOKENS)[token]
    if fmt == "%Z":
        return d.strftime("%Z") or "UTC"
    return d.strftime(fmt)


def plainify(value: Any) -> Markup:
    """Hugo's ``plainify``: the text with every HTML tag removed (``</p>`` and ``<br>`` made
    line breaks), as HTML: its entities stay entities, as in Hugo."""
    return Markup(strip_html(str(value)))


# XML 1.0 forbids the C0 controls but tab, newline and carriage return.
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
_XML_REPLACEMENTS = {code: 0xFFFD for code in range(32) if code not in (9, 10, 13)}


def xml_text(value: Any) -> str:
    """``value`` fit for an XML 1.0 document: each forbidden control character becomes
    U+FFFD. The search goes first: ``str.translate`` looks up every character, and
    feeds are long and rarely hold one."""
    text = value if isinstance(value, str) else str(value)
    return text.translate(_XML_REPLACEMENTS) if _XML_FORBIDDEN.search(text) else text


class CommentTime(NamedTuple):
    """A comment's ``createdAt`` for display: ``iso`` is set when it is a date and time."""

    iso: str
    text: str


# Dashes or slashes, then "T" or a space: the forms matome and the HN importers write.
_COMMENT_TIME = re.compile(r"(\d{4})[-/](\d\d)[-/](\d\d)[T ](\d\d:\d\d)(:\d\d)")


def comment_time(value: Any) -> CommentTime:
    """``2025/11/07 15:41:42`` or ``2025-11-07T15:41:42`` as ``2025/11/07 15:41``; else as written."""
    created = str(value or "").strip()
    m = _COMMENT_TIME.fullmatch(created)
    if m is None:
        return CommentTime("", created)
    year, month, day, minute, seconds = m.groups()
    return CommentTime(f"{year}-{month}-{day}T{minute}{seconds}", f"{year}/{month}/{day} {minute}")


# Schemes a configured link may use; Go's html/template allows these and prints #ZgotmplZ
# for any other (javascript:, data:, vbscript:, ...).
_SAFE_SCHEMES = ("http", "https", "mailto", "tel")


def safe_url(value: Any) -> str:
    """A URL from the configuration (a menu entry, an author link) fit for an ``href``:
    relative, or with a safe scheme; anything else becomes Hugo's ``#ZgotmplZ``.
    Autoescaping keeps a value inside its attribute, not a ``javascript:`` URL harmless."""
    text = str(value or "").strip().replace("\t", "").replace("\n", "").replace("\r", "")
    head = text.split("/")[0].split("?")[0].split("#")[0]
    if ":" not in head or head.split(":")[0].lower() in _SAFE_SCHEMES:
        return text
    return "#ZgotmplZ"


def humanize(value: Any) -> str:
    text = str(value)
    if text.isdigit():
        n = int(text)
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    text = re.sub(r"[-_]+", " ", text).strip()
    return text[:1].upper() + text[1:]


def truncate_text(value: Any, length: int = 70, ellipsis: str = " …") -> str:
    """Hugo's ``truncate``: cut at a word boundary, never inside an HTML tag."""
    text = str(value)
    if len(text) <= length:
        return text
    cut = text[:length]
    if " " in cut and not text[length].isspace():
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip() + ellipsis


def jsonify(value: Any, indent: int | str | None = None) -> Markup:
    """Hugo's ``jsonify`` (Go's ``json.Marshal``): keys sorted, no spaces, ``<``, ``>`` and
    ``&`` escaped so the JSON can sit in HTML; ``indent`` (a number or text) as Hugo's
    ``jsonify (dict "indent" "  ")``."""
    plain = _json_value(value)
    try:
        text = json.dumps(
            plain,
            ensure_ascii=False,
            indent=indent,
            separators=(",", ": ") if indent is not None else (",", ":"),
            sort_keys=True,
            default=str,
        )
    except TypeError:  # keys of different types: in the mapping's order
        text = json.dumps(plain, ensure_ascii=False, indent=indent, default=str)
    return Markup(replace_each(text, _JSON_HTML_ESCAPES))


_JSON_HTML_ESCAPES = (
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("&", "\\u0026"),
    ("\u2028", "\\u2028"),
    ("\u2029", "\\u2029"),
)


def _json_value(value: Any) -> Any:
    """``value`` as Go would marshal it: dates in RFC 3339, a page as its permalink, a
    whole float as a whole number."""
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, str) else k: _json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, datetime):
        return date_format(value, "2006-01-02T15:04:05Z07:00")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Page):
        return value.permalink
    if isinstance(value, Markup):
        return str(value)
    return value
