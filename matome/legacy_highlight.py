"""Hugo's first highlighting settings, still read by Hugo: ``pygmentsStyle``,
``pygmentsUseClasses``, ``pygmentsCodeFences`` and ``pygmentsCodefencesGuessSyntax`` give
``markup.highlight`` its style, noClasses, codeFences and guessSyntax where those are left
at their defaults; ``pygmentsOptions`` ("linenos=inline,hl_lines=2") sets any of its keys,
over what ``markup.highlight`` says."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import SourceError

# The legacy key, the markup.highlight key it gives, its default there, and the value.
_SETTINGS: tuple[tuple[str, str, Any, Callable[[Any], Any]], ...] = (
    ("pygmentsstyle", "style", "monokai", str),
    ("pygmentsuseclasses", "noclasses", True, lambda v: not _bool(v)),
    ("pygmentscodefences", "codefences", True, lambda v: _bool(v)),
    ("pygmentscodefencesguesssyntax", "guesssyntax", False, lambda v: _bool(v)),
)
LEGACY_KEYS = frozenset([key for key, *_ in _SETTINGS] + ["pygmentsoptions"])


Place = Callable[[str], tuple[str, int, int]]


def with_legacy_highlight(tree: dict, where: Place) -> dict:
    """``tree``'s ``markup`` table with the legacy keys of ``tree`` (lower-cased) applied;
    ``where(key)``: the file, line and column of a top-level key, for errors."""
    if not LEGACY_KEYS & tree.keys():
        return tree.get("markup") or {}
    markup = dict(tree.get("markup") or {})
    name = next((k for k in markup if str(k).lower() == "highlight"), "highlight")
    highlight = {str(k).lower(): v for k, v in (markup.get(name) or {}).items()}
    for legacy, key, default, value in _SETTINGS:
        if legacy in tree and highlight.get(key, default) == default:
            highlight[key] = value(tree[legacy])
    if "pygmentsoptions" in tree:
        highlight.update(_options(str(tree["pygmentsoptions"]), where))
    markup[name] = highlight
    return markup


def _options(text: str, where: Place) -> dict[str, Any]:
    """``key=value`` pairs between commas; keys trimmed, values as written (Hugo)."""
    options: dict[str, Any] = {}
    text = text.strip(" ")
    for item in text.split(",") if text else []:
        parts = item.split("=")
        key = parts[0].strip(" ").lower()
        if len(parts) != 2:
            path, line, col = where("pygmentsoptions")
            message = f"invalid Highlight option {key!r} in pygmentsOptions: expected key=value"
            raise SourceError(path, line, col, message)
        options[key] = parts[1]
    line_nos = options.get("linenos")
    if isinstance(line_nos, str):
        if line_nos in ("table", "inline"):
            options["linenumbersintable"] = line_nos == "table"
        options["linenos"] = line_nos != "false"
    return options


def _bool(value: Any) -> bool:
    return value.strip().lower() in ("1", "t", "true") if isinstance(value, str) else bool(value)
