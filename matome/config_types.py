"""The types of the configuration keys matome reads, checked once when the config is loaded.

Hugo decodes its config "weakly": a string where a number is wanted is parsed as Go
parses it (``"10"``, ``"0x10"``), a number where text is wanted is printed, and a value it
cannot convert fails the build. matome does the same, so that the rest of the code can
trust each value's type: a converted value is a warning, a value that cannot be
converted an error, each at the key's line and column in the file that set it.

A few tables Hugo ignores when they are not tables (``taxonomies = []`` means no
taxonomies; ``outputs = 5``, ``markup = 5``, ``sitemap = 5``): those are dropped with a
warning instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .content.coerce import parse_go_int, to_bool, to_int, to_str
from .errors import SourceError

TABLE = dict
NUMBER = float
ANY = object
# A table whose keys are names the user chooses (languages, menus), each of this shape.
EACH = "*"

_MENU_ENTRY = {
    "name": str,
    "url": str,
    "weight": int,
    "pageref": str,
    "page": str,
    "identifier": str,
    "parent": str,
    "pre": str,
    "post": str,
    "title": str,
    "params": TABLE,
}
_MENUS = {EACH: [_MENU_ENTRY]}
_LANGUAGE = {
    "title": str,
    "weight": int,
    "languagecode": str,
    "locale": str,
    "languagename": str,
    "languagedirection": str,
    "disabled": bool,
    "params": TABLE,
    "menus": _MENUS,
    "menu": _MENUS,
    "timezone": str,
    "contentdir": str,
}
_DATES = [str]
# Keys whose text names a folder.
_FOLDER_KEYS = frozenset({"contentdir", "assetdir", "publishdir", "datadir", "themesdir"})

# Key (lower case) -> the type matome needs: a Python type, a nested table of the same
# form, or a one-item list for "a list of these".
SCHEMA: dict[str, Any] = {
    "baseurl": str,
    "title": str,
    "copyright": str,
    "languagecode": str,
    "defaultcontentlanguage": str,
    "timezone": str,
    "theme": (str, [str]),
    "contentdir": str,
    "assetdir": str,
    "publishdir": str,
    "datadir": str,
    "themesdir": str,
    "summarylength": int,
    "paginate": int,
    "enablerobotstxt": bool,
    "enableemoji": bool,
    "hascjklanguage": bool,
    "builddrafts": bool,
    "buildfuture": bool,
    "buildexpired": bool,
    "enablegitinfo": bool,
    "canonifyurls": bool,
    "disablepathtolower": bool,
    "disablealiases": bool,
    "pluralizelisttitles": bool,
    "capitalizelisttitles": bool,
    "uglyurls": (bool, {EACH: bool}),
    "googleanalytics": str,
    "disablekinds": [str],
    "params": TABLE,
    "menus": _MENUS,
    "menu": _MENUS,
    "languages": {EACH: _LANGUAGE},
    "permalinks": {EACH: (str, {EACH: str})},
    "pagination": {"pagersize": int, "path": str, "disablealiases": bool},
    "related": {
        "threshold": NUMBER,
        "includenewer": bool,
        "tolower": bool,
        "indices": [
            {
                "name": str,
                "weight": int,
                "pattern": str,
                "tolower": bool,
                "cardinalitythreshold": int,
                "type": str,
                "applyfilter": bool,
            }
        ],
    },
    "imaging": {"resamplefilter": str, "anchor": str, "hint": str},
    "frontmatter": {"date": _DATES, "lastmod": _DATES, "publishdate": _DATES, "expirydate": _DATES},
    "services": {EACH: TABLE, "googleanalytics": {"id": str}},
    "matome": TABLE,
    "module": {
        "mounts": [
            {"source": str, "target": str, "files": [str], "disablewatch": bool, "sites": TABLE}
        ]
    },
}
# Tables Hugo leaves at their defaults when given something else.
IGNORED_WHEN_NOT_A_TABLE = {
    "taxonomies": {EACH: str},
    "outputs": {EACH: ([str], str)},
    "markup": TABLE,
    "sitemap": {"filename": str, "changefreq": str, "priority": NUMBER, "disable": bool},
    "minify": TABLE,
    "privacy": TABLE,
    "outputformats": TABLE,
    "mediatypes": TABLE,
}


def check_types(tree: dict, origin: Callable[[str], Path | None]) -> tuple[list, list]:
    """Convert ``tree``'s known keys in place to the types matome needs.

    ``origin(key)`` is the file that set a top-level key. Returns (errors, warnings)."""
    checker = _Checker(origin, [], [])
    for key in list(tree):
        if tree[key] is None:  # YAML's and JSON's null: the key is not set
            del tree[key]
            continue
        if not isinstance(key, str):
            continue
        if key in SCHEMA:
            tree[key] = checker.value(tree[key], SCHEMA[key], [key])
        elif key in IGNORED_WHEN_NOT_A_TABLE:
            value = tree[key]
            if isinstance(value, dict):
                tree[key] = checker.value(value, IGNORED_WHEN_NOT_A_TABLE[key], [key])
            else:
                if value not in ([], None):  # taxonomies = [] is Hugo's way to say none
                    checker.warn(
                        [key], f"expected a table, got {_shown(value)}: ignored, as Hugo does"
                    )
                tree[key] = {}
    return checker.errors, checker.warnings


class _Checker:
    def __init__(self, origin, errors: list, warnings: list):
        self.origin = origin
        self.errors = errors
        self.warnings = warnings

    def value(self, value: Any, want: Any, path: list) -> Any:
        if want is ANY:
            return value
        if value is None:  # null: an empty table or list, or no value
            return (
                {}
                if isinstance(want, dict) or want is TABLE
                else []
                if isinstance(want, list)
                else None
            )
        if isinstance(want, tuple):  # the first alternative the value already fits
            for option in want:
                if _fits(value, option):
                    return self.value(value, option, path)
            return self.value(value, want[0], path)
        if isinstance(want, list):
            if isinstance(value, str) and want[0] is str:
                return [value]  # one string where a list of strings is wanted
            if not isinstance(value, list):
                self.error(path, f"expected a list, got {_shown(value)}")
                return []
            return [self.value(v, want[0], [*path, str(i)]) for i, v in enumerate(value)]
        if isinstance(want, dict):
            if not isinstance(value, dict):
                self.error(path, f"expected a table, got {_shown(value)}")
                return {}
            for key in list(value):
                name = str(key).lower()
                inner = want.get(name, want.get(EACH, ANY))
                value[key] = self.value(value[key], inner, [*path, str(key)])
            return value
        if want is TABLE:
            if not isinstance(value, dict):
                self.error(path, f"expected a table, got {_shown(value)}")
                return {}
            return value
        return self.scalar(value, want, path)

    def scalar(self, value: Any, want: type, path: list) -> Any:
        if want is str:
            if isinstance(value, str):
                if "\x00" in value and str(path[-1]).lower() in _FOLDER_KEYS:
                    # No file system takes it: the folder could not be read or written.
                    self.error(path, "a folder name cannot hold a NUL character")
                    return ""
                return value
            if isinstance(value, (dict, list)):
                self.error(path, f"expected text, got {_shown(value)}")
                return ""
            text = "1" if value is True else "0" if value is False else to_str(value)[0]
            self.warn(path, f"expected text, got {_shown(value)}: read as {text!r}")
            return text
        if want is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value == "":
                return False
            flag, fits = to_bool(value)
            if isinstance(value, (int, float)) or fits:
                self.warn(path, f"expected true or false, got {_shown(value)}: read as {flag}")
                return flag
            self.error(path, f"expected true or false, got {_shown(value)}")
            return False
        if want is int or want is NUMBER:
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            if want is NUMBER and isinstance(value, float):
                return value
            number, _ = to_int(value)
            readable = isinstance(value, (bool, float)) or (
                isinstance(value, str) and (value == "" or parse_go_int(value) is not None)
            )
            if readable:
                self.warn(path, f"expected a number, got {_shown(value)}: read as {number}")
                return number
            self.error(path, f"expected a number, got {_shown(value)}")
            return 0
        return value

    def error(self, path: list, message: str) -> None:
        self.errors.append(self._at(path, message, "error"))

    def warn(self, path: list, message: str) -> None:
        self.warnings.append(self._at(path, message, "warning"))

    def _at(self, path: list, message: str, severity: str) -> SourceError:
        file = self.origin(path[0])
        dotted = ".".join(path)
        if file is None:
            return SourceError("config", 1, 1, f"{dotted}: {message}", severity)
        line, col = key_position(file, [p for p in path if not p.isdigit()])
        return SourceError(str(file), line, col, f"{dotted}: {message}", severity)


def _fits(value: Any, want: Any) -> bool:
    if want is ANY:
        return True
    if isinstance(want, list):
        return isinstance(value, list)
    if isinstance(want, dict) or want is TABLE:
        return isinstance(value, dict)
    if want is bool:
        return isinstance(value, bool)
    if want is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if want is NUMBER:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, want)


def _shown(value: Any) -> str:
    kind = {dict: "a table", list: "a list", bool: "a boolean", str: "text"}.get(type(value))
    if kind is None:
        kind = "a number" if isinstance(value, (int, float)) else type(value).__name__
    text = repr(value)
    return f"{kind} ({text[:40]}{'...' if len(text) > 40 else ''})"


def key_position(file: Path, path: list[str]) -> tuple[int, int]:
    """Line and column of a key in a TOML, YAML or JSON config file: the last part of a
    dotted key where it is written (``[pagination]`` then ``pagerSize =``), else the line of
    a table header naming it, else 1:1 (a key such as ``params`` that is the file's name)."""
    try:
        lines = file.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return 1, 1
    for name in reversed(path):
        escaped = re.escape(name)
        key = re.compile(rf'^\s*["\']?({escaped})["\']?\s*[=:]', re.I)
        header = re.compile(rf"^\s*\[\[?\s*(?:[^\]]*\.)?[\"']?({escaped})[\"']?\s*\]", re.I)
        dotted = re.compile(rf"^\s*(?:[\w\"'-]+\.)+[\"']?({escaped})[\"']?\s*=", re.I)
        for pattern in (key, header, dotted):
            for n, line in enumerate(lines, 1):
                m = pattern.match(line)
                if m:
                    return n, m.start(1) + 1
    return 1, 1
