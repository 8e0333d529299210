"""Hugo's highlighting options, read and combined as Hugo reads them.

Options come from four places, each over the one before: Hugo's defaults, the site's
``[markup.highlight]`` table (with the legacy ``pygments*`` keys Hugo still reads), a code
fence's ``{...}`` attributes, and the ``highlight`` shortcode's ``"linenos=table,..."``
string. Hugo decodes each with mapstructure's weak typing (``"true"`` is a bool, ``5`` an
int, a field name matches in any case) and fails on a value it cannot convert; the
messages here are Hugo's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from typing import Any

from ...content.coerce import float_string
from .attributes import attribute_text


class OptionError(ValueError):
    """An option Hugo refuses (the build fails on it); ``key``: the config key holding it."""

    def __init__(self, message: str, key: str = "highlight"):
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class HighlightConfig:
    """Hugo's ``highlight.Config``: ``[markup.highlight]`` and every option over it."""

    style: str = "monokai"
    code_fences: bool = True
    wrapper_class: str = "highlight"
    no_classes: bool = True
    line_nos: Any = None  # unset, true, false, "inline" or "table"
    line_numbers_in_table: bool = True
    anchor_line_nos: bool = False
    line_anchors: str = ""
    line_no_start: int = 1
    hl_lines: str = ""  # "2-4 7": lines counted from the first, whatever lineNoStart says
    hl_ranges: tuple[tuple[int, int], ...] | None = None  # from a fence's [2, "4-5"]
    hl_inline: bool = False
    tab_width: int = 4
    guess_syntax: bool = False


# Option names as mapstructure matches them (any case) -> field and Go type.
_FIELDS = {
    "style": ("style", str),
    "codefences": ("code_fences", bool),
    "wrapperclass": ("wrapper_class", str),
    "noclasses": ("no_classes", bool),
    "linenos": ("line_nos", object),
    "linenumbersintable": ("line_numbers_in_table", bool),
    "anchorlinenos": ("anchor_line_nos", bool),
    "lineanchors": ("line_anchors", str),
    "linenostart": ("line_no_start", int),
    "hl_lines": ("hl_lines", str),
    "hl_lines_parsed": ("hl_ranges", tuple),
    "hl_inline": ("hl_inline", bool),
    "tabwidth": ("tab_width", int),
    "guesssyntax": ("guess_syntax", bool),
}
# The attributes of a fence that are options rather than HTML attributes.
FENCE_OPTIONS = frozenset(_FIELDS) - {"codefences", "wrapperclass", "hl_lines_parsed"}
_GO_NAMES = {f.name: f.name.title().replace("_", "") for f in fields(HighlightConfig)}
_GO_NAMES.update(hl_lines="Hl_Lines", hl_ranges="HL_lines_parsed", hl_inline="Hl_inline")


def decode(config: HighlightConfig, options: dict[str, Any]) -> HighlightConfig:
    """``config`` with ``options`` applied, as mapstructure's WeakDecode applies them."""
    changes: dict[str, Any] = {}
    errors = []
    for key, value in options.items():
        found = _FIELDS.get(str(key).lower())
        if found is None:
            continue
        name, kind = found
        if kind is object and getattr(config, name) is not None:
            # mapstructure decodes into an interface that holds a value as that value's
            # type: lineNos = "table" in the site config makes a fence's true "1".
            kind = type(getattr(config, name))
        try:
            changes[name] = _weak(value, kind)
        except ValueError as e:
            errors.append(f"cannot parse '{_GO_NAMES[name]}' as {kind.__name__}: {e}")
    if errors:
        raise OptionError(f"{len(errors)} error(s) decoding: " + "; ".join(errors))
    return replace(config, **changes)


def _weak(value: Any, kind: type) -> Any:
    if kind is object or kind is tuple:
        return value
    if kind is float:
        return float(_weak(value, int)) if isinstance(value, str) else float(value)
    if kind is str:
        if isinstance(value, bool):  # mapstructure's weak decoding, unlike cast.ToString
            return "1" if value else "0"
        if isinstance(value, (str, int, float)):
            return attribute_text(value)
        raise ValueError(f"expected type 'string', got {type(value).__name__}")
    if kind is bool:
        if isinstance(value, (bool, int, float)):
            return bool(value)
        if isinstance(value, str):
            return _parse_bool(value)
        raise ValueError(f"expected type 'bool', got {type(value).__name__}")
    if isinstance(value, (bool, int)):
        return int(value)
    if isinstance(value, float):
        return int(value)
    if isinstance(value, str):
        return _parse_int(value)
    raise ValueError(f"expected type 'int', got {type(value).__name__}")


def _parse_bool(text: str) -> bool:
    if text == "":
        return False
    if text in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if text in ("0", "f", "F", "FALSE", "false", "False"):
        return False
    raise ValueError(f'strconv.ParseBool: parsing "{text}": invalid syntax')


_GO_INT = re.compile(r"[-+]?(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO]?[0-7_]+|[1-9][0-9_]*|0)")


def _parse_int(text: str) -> int:
    if text == "":
        return 0
    if not _GO_INT.fullmatch(text) or "__" in text or text.endswith("_"):
        raise ValueError(f'strconv.ParseInt: parsing "{text}": invalid syntax')
    digits = text.replace("_", "")
    sign = -1 if digits.startswith("-") else 1
    digits = digits.lstrip("+-")
    if len(digits) > 1 and digits[0] == "0" and digits[1] not in "xXbBoO":
        digits = "0o" + digits[1:]
    return sign * int(digits, 0)


def normalize(options: dict[str, Any]) -> dict[str, Any]:
    """Hugo's normalizeHighlightOptions, for a fence's or the shortcode's options: keys
    lower-cased, ``linenos=table|inline`` also sets ``lineNumbersInTable``, any other
    ``linenos`` string is true unless it is "false", and a fence's ``hl_lines`` list
    becomes ranges counted from ``linenostart``."""
    m = {str(k).lower(): v for k, v in options.items()}
    base = 1
    if "linenostart" in m:
        base = _cast_int(m["linenostart"])
    if "linenos" in m:
        v = m["linenos"]
        if v in ("table", "inline"):
            m["linenumbersintable"] = v == "table"
        if isinstance(v, str):
            m["linenos"] = v != "false"
    if isinstance(m.get("hl_lines"), list):
        ranges = hl_lines_ranges(m.pop("hl_lines"))
        m["hl_lines_parsed"] = tuple((a + base, b + base) for a, b in ranges)
    return m


def _cast_int(value: Any) -> int:
    """Go's cast.ToInt: 0 for what it cannot read."""
    try:
        return _weak(value, int)
    except ValueError:
        return 0


def hl_lines_ranges(values: list[Any]) -> list[tuple[int, int]]:
    """A fence's ``hl_lines=[2, "4-5"]`` as Hugo's zero-based ranges; others skipped."""
    ranges = []
    for value in values:
        if isinstance(value, float) and not isinstance(value, bool):
            ranges.append((int(value) - 1, int(value) - 1))
        elif isinstance(value, str):
            first, _, last = value.partition("-")
            try:
                low = int(first)
                high = int(last) if "-" in value else low
            except ValueError:
                continue
            ranges.append((low - 1, high - 1))
    return ranges


def parse_option_string(text: str) -> dict[str, Any]:
    """The ``highlight`` shortcode's and ``pygmentsOptions``' ``"linenos=table,hl_lines=2"``."""
    text = text.strip(" ")
    options: dict[str, Any] = {}
    if not text:
        return options
    for part in text.split(","):
        key, *rest = part.split("=")
        if len(rest) != 1:
            raise OptionError(f"invalid Highlight option: {key.strip(' ')}")
        options[key.strip(" ")] = rest[0]
    return normalize(options)


def line_numbers(config: HighlightConfig) -> tuple[bool, bool]:
    """(numbered, in a table), or Hugo's error for a ``lineNos`` it does not take."""
    value = config.line_nos
    if value is None:
        return False, config.line_numbers_in_table
    if isinstance(value, bool):
        return value, config.line_numbers_in_table
    if value in ("inline", "table"):
        return True, value == "table"
    kind = {str: "string", float: "float64", int: "int64"}.get(type(value), type(value).__name__)
    shown = float_string(value) if isinstance(value, float) else value
    raise OptionError(
        f'lineNos must be one of true, false, "inline", or "table"; got {shown} ({kind})'
    )


def highlighted_lines(config: HighlightConfig) -> tuple[tuple[int, int], ...]:
    """The ranges of line numbers (as shown) to highlight."""
    if config.hl_ranges is not None:
        return config.hl_ranges
    ranges = []
    for field in config.hl_lines.strip().split(" "):
        if not field.strip():
            continue
        first, *rest = field.strip().split("-")
        try:
            low = int(first) + config.line_no_start - 1
            high = int(rest[0]) + config.line_no_start - 1 if rest else low
        except ValueError:
            return ()  # Hugo drops every range when one does not read
        ranges.append((low, high))
    return tuple(ranges)


def site_config(highlight: dict, legacy: dict) -> HighlightConfig:
    """``[markup.highlight]`` (keys lower-cased) with the top-level ``pygments*`` keys that
    Hugo still applies where the table leaves Hugo's default."""
    config = decode(HighlightConfig(), highlight)
    default = HighlightConfig()
    if config.style == default.style and legacy.get("pygmentsstyle"):
        config = replace(config, style=str(legacy["pygmentsstyle"]))
    if config.no_classes == default.no_classes and "pygmentsuseclasses" in legacy:
        config = replace(config, no_classes=not _weak(legacy["pygmentsuseclasses"], bool))
    if config.code_fences == default.code_fences and "pygmentscodefences" in legacy:
        config = replace(config, code_fences=_weak(legacy["pygmentscodefences"], bool))
    guess = legacy.get("pygmentscodefencesguesssyntax")
    if config.guess_syntax == default.guess_syntax and guess is not None:
        config = replace(config, guess_syntax=_weak(guess, bool))
    if "pygmentsoptions" in legacy:
        try:
            options = parse_option_string(str(legacy["pygmentsoptions"]))
        except OptionError as e:
            raise OptionError(str(e), key="pygmentsOptions") from None
        config = decode(config, options)
    return config
