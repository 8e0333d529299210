"""Values printed as Hugo's Go templates print them.

A Go template prints a value with ``fmt``'s ``%v``: ``true``, ``1.5``, ``1e+06``, ``[a b]``,
``map[a:1 b:2]``, ``<nil>`` inside a list, a time as ``2024-01-02 00:00:00 +0000 UTC``;
Python's ``str`` would print ``True``, ``1000000.0``, ``['a', 'b']``. ``finalize`` is
the Jinja environment's hook for every ``{{ }}``, so Jinja templates print what the Go
templates they port print.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from markupsafe import Markup

# What prints the same in both languages: most of what a template prints.
_PRINTED_AS_IS = frozenset({str, Markup, int})
# Go's ``%v`` of a float switches to an exponent from this power of ten up (``1e+06``).
_EXPONENT_FROM = 1e6


def finalize(value: Any) -> Any:
    """What ``{{ value }}`` prints: Go's ``%v`` of it; nothing for ``None`` (Hugo prints
    nothing for a missing or null value). Text and integers, the common case, are
    passed on untouched, the first test made."""
    if type(value) in _PRINTED_AS_IS:
        return value
    if value is None:
        return ""
    if isinstance(value, (bool, float, list, tuple, dict, datetime)):
        return go_value(value)
    return value


def go_value(value: Any) -> str:
    """A value as Go's ``%v`` prints it: ``true``, ``[a b]``, ``map[a:1]``, ``<nil>``."""
    if value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return go_float(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, dict):
        inner = " ".join(f"{go_value(k)}:{go_value(value[k])}" for k in sorted(value, key=str))
        return f"map[{inner}]"
    if isinstance(value, (list, tuple)):
        return "[" + " ".join(go_value(v) for v in value) + "]"
    if isinstance(value, datetime):
        return go_time(value)
    return str(value)


def go_float(value: float) -> str:
    """Go's shortest ``%v`` (and ``%g``) of a float64: ``3.5``, ``4``, ``1e+06``, ``1e-05``:
    an exponent below 1e-4, as Python's ``repr`` has it, and from 1e6 up."""
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if math.isnan(value):
        return "NaN"
    text = repr(value)
    if abs(value) >= _EXPONENT_FROM and "e" not in text:
        whole, _, fraction = text.lstrip("-").partition(".")
        digits = (whole + fraction).rstrip("0")
        mantissa = ("-" if value < 0 else "") + digits[0]
        if len(digits) > 1:
            mantissa += "." + digits[1:]
        return f"{mantissa}e+{len(whole) - 1:02d}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        sign = "-" if exponent.startswith("-") else "+"
        digits = exponent.lstrip("+-").rjust(2, "0")
        return f"{mantissa.removesuffix('.0')}e{sign}{digits}"
    return text.removesuffix(".0")


def go_time(value: datetime) -> str:
    """Go's ``time.Time.String``: ``2025-03-04 00:00:00 +0000 UTC``; a zone with no name
    (a fixed offset) is named by its offset, ``+0200 +0200``. A time without a zone is
    one in UTC, as Hugo reads it with no ``timeZone`` set."""
    offset = value.strftime("%z") or "+0000"
    zone = value.tzname() or "UTC"
    if zone.startswith("UTC") and zone != "UTC":  # Python's name of a fixed offset
        zone = offset
    text = value.strftime("%Y-%m-%d %H:%M:%S")
    if value.microsecond:
        text += f".{value.microsecond:06d}".rstrip("0")
    return f"{text} {offset} {zone}"
