"""Front matter values of the wrong type, read the way Hugo reads them.

Hugo converts a front matter field to the type it needs (spf13/cast) and, when that
fails, uses the type's zero value without a word: ``draft: truet`` is false, ``weight:
abc`` is 0, ``title: [a, b]`` is "". matome reads them the same and warns (the caller
says where). Each function returns the value and whether the input was already of the
wanted type or a form Hugo documents for it (only other forms are warned about).
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime
from decimal import Decimal

# Go's strconv.ParseBool: the only strings cast.ToBool reads.
_TRUE = frozenset({"1", "t", "T", "TRUE", "true", "True"})
_FALSE = frozenset({"0", "f", "F", "FALSE", "false", "False"})
# cast drops a decimal part before parsing: "1.5" is 1, "0x1.5" is not a number.
_DECIMALS = re.compile(r"([+-]?[0-9]+)\.[0-9]*")
_INT64 = (-(2**63), 2**63 - 1)


def to_bool(value) -> tuple[bool, bool]:
    """cast.ToBool: a boolean, a number (non-zero is true) or a ParseBool string."""
    if isinstance(value, bool):
        return value, True
    if isinstance(value, (int, float)):
        return value != 0, False
    if isinstance(value, str):
        if value in _TRUE or value in _FALSE:
            return value in _TRUE, True
        return False, False
    return False, value is None


def to_int(value) -> tuple[int, bool]:
    """cast.ToInt: a number (floats truncated), a boolean (1 or 0), or a string Go parses
    as an integer, after dropping a decimal part ("1.5" is 1, "012" is octal 10)."""
    if isinstance(value, bool):
        return int(value), False
    if isinstance(value, int):
        return (value, True) if _INT64[0] <= value <= _INT64[1] else (0, False)
    if isinstance(value, float):
        return (int(value), False) if math.isfinite(value) else (0, False)
    if isinstance(value, str):
        text = value
        m = _DECIMALS.fullmatch(text)
        if m:
            text = m.group(1)
        parsed = parse_go_int(text)
        return (parsed, False) if parsed is not None else (0, False)
    return 0, value is None


def parse_go_int(text: str) -> int | None:
    """strconv.ParseInt(text, 0, 64): 0x, 0o, 0b and leading-0 octal, underscores between digits."""
    if not text or not text.isascii() or text != text.strip():
        return None
    body = text[1:] if text[0] in "+-" else text
    if not body or body[0] in "+-":
        return None
    try:
        if len(body) > 1 and body[0] == "0" and (body[1].isdigit() or body[1] == "_"):
            number = int(body[1:].lstrip("_"), 8)
        else:
            number = int(body, 0)
    except ValueError:
        return None
    number = -number if text[0] == "-" else number
    return number if _INT64[0] <= number <= _INT64[1] else None


def to_str(value) -> tuple[str, bool]:
    """cast.ToString: text, or a number or boolean as Go prints it; other values are ""."""
    if isinstance(value, str):
        return value, True
    if isinstance(value, bool):
        return ("true" if value else "false"), False
    if isinstance(value, int):
        return str(value), False
    if isinstance(value, float):
        return float_string(value), False
    if isinstance(value, (datetime, date)):
        return str(value), False
    return "", value is None


def float_string(value: float) -> str:
    """A float as Go's ``cast.ToString`` writes it, ``strconv.FormatFloat(f, 'f', -1, 64)``:
    the shortest digits, never an exponent (3.0 is "3", 1e21 is "1000000000000000000000")."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return format(Decimal(repr(value)), "f").removesuffix(".0")


def to_str_list(value) -> tuple[list[str], bool]:
    """cast.ToStringSlice as Hugo uses it for aliases: a list of strings, one string
    (a list of its one item), or nothing."""
    if isinstance(value, str):
        return [value], True
    if isinstance(value, (list, tuple)):
        out = [to_str(v)[0] for v in value]
        return out, all(isinstance(v, str) for v in value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [to_str(value)[0]], False
    return [], value is None
