"""Hugo's text functions with Go's conventions, which Jinja's built-ins do not follow:
``printf`` (Go's ``%v``, ``%q``, ``%t``, ``%T`` and friends), ``replace_re`` (Go's
``$1``/``${name}`` replacements) and ``find_re``.

``replace_re`` and ``find_re`` are filters whose input comes first, so Hugo's pipe
``.Title | replaceRE "a" "b"`` reads the same in Jinja: ``page.title | replace_re("a", "b")``.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from markupsafe import Markup

from .go_values import go_float, go_value


def _go_type(value: Any) -> str:
    """Go's ``%T`` of the value Hugo would hold."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "[]interface {}"
    if isinstance(value, dict):
        return "map[string]interface {}"
    if isinstance(value, datetime):
        return "time.Time"
    if value is None:
        return "<nil>"
    return type(value).__name__


_VERB = re.compile(r"%([-+# 0]*)(\d+|\*)?(?:\.(\d+|\*))?([a-zA-Z%])")


def printf(format_: Any, *args: Any) -> str:
    """Hugo's ``printf``: Go's verbs ``%v %s %d %q %f %e %g %x %X %o %b %t %c %U %T %%``,
    with flags, width and precision."""
    queue = list(args)
    out: list[str] = []
    pos = 0
    text = str(format_)
    for verb in _VERB.finditer(text):
        out.append(text[pos : verb.start()])
        pos = verb.end()
        flags, width, precision, kind = verb.groups()
        if kind == "%":
            out.append("%")
            continue
        if width == "*":
            width = str(queue.pop(0)) if queue else ""
        if precision == "*":
            precision = str(queue.pop(0)) if queue else ""
        if not queue:
            out.append(f"%!{kind}(MISSING)")
            continue
        out.append(_format_one(queue.pop(0), flags, width or "", precision, kind))
    out.append(text[pos:])
    if queue:
        extra = ", ".join(f"{_go_type(v)}={go_value(v)}" for v in queue)
        out.append(f"%!(EXTRA {extra})")
    return "".join(out)


def _format_one(value: Any, flags: str, width: str, precision: str | None, kind: str) -> str:
    if isinstance(value, Markup):
        value = str(value)
    align = "<" if "-" in flags else ">"
    if kind in "vs":
        text = go_value(value)
        if precision is not None and kind == "s":
            text = text[: int(precision)]
        return _pad(text, align, width)
    if kind == "q":
        quoted = json.dumps(str(value), ensure_ascii=False) if isinstance(value, str) else None
        return _pad(quoted or go_value(value), align, width)
    if kind == "t":
        return _pad(
            go_value(value) if isinstance(value, bool) else f"%!t({go_value(value)})", align, width
        )
    if kind == "T":
        return _pad(_go_type(value), align, width)
    if kind == "c" and isinstance(value, int):
        return _pad(chr(value), align, width)
    if kind == "U" and isinstance(value, int):
        return _pad(f"U+{value:04X}", align, width)
    if kind in "xX" and isinstance(value, str):
        text = value.encode().hex()
        return _pad(text.upper() if kind == "X" else text, align, width)
    number_flags = "".join(f for f in "+ " if f in flags)
    zero = "0" if "0" in flags and "-" not in flags else ""
    alternate = "#" if "#" in flags else ""
    if kind in "dxXob" and isinstance(value, int) and not isinstance(value, bool):
        spec = {"d": "d", "x": "x", "X": "X", "o": "o", "b": "b"}[kind]
        return format(
            value, f"{align if not zero else ''}{number_flags}{alternate}{zero}{width}{spec}"
        )
    if kind in "feEgG" and isinstance(value, (int, float)) and not isinstance(value, bool):
        digits = f".{precision}" if precision is not None else (".6" if kind in "feE" else "")
        spec = f"{align if not zero else ''}{number_flags}{zero}{width}{digits}{kind}"
        text = format(float(value), spec)
        if kind in "gG" and precision is None:
            text = _pad(go_float(float(value)), align, width)
        return text
    return f"%!{kind}({_go_type(value)}={go_value(value)})"


def _pad(text: str, align: str, width: str) -> str:
    return format(text, f"{align}{width}") if width else text


# Go's regular expressions (RE2) written differently in Python's.
_GO_SYNTAX = [
    (re.compile(r"\\z"), r"\\Z"),
    (re.compile(r"\(\?<(?![=!])"), "(?P<"),
    (re.compile(r"\[:alpha:\]"), "a-zA-Z"),
    (re.compile(r"\[:digit:\]"), "0-9"),
    (re.compile(r"\[:alnum:\]"), "a-zA-Z0-9"),
    (re.compile(r"\[:space:\]"), r"\\s"),
    (re.compile(r"\[:upper:\]"), "A-Z"),
    (re.compile(r"\[:lower:\]"), "a-z"),
    (re.compile(r"\[:punct:\]"), r"!-/:-@\\[-`{-~"),
    (re.compile(r"\[:word:\]"), r"\\w"),
]


def go_regex(pattern: Any) -> re.Pattern:
    """A Go (RE2) regular expression as Python's ``re`` reads it."""
    text = str(pattern)
    for go, python in _GO_SYNTAX:
        text = go.sub(python, text)
    return _compiled(text)


_COMPILED: dict[str, re.Pattern] = {}


def _compiled(text: str) -> re.Pattern:
    found = _COMPILED.get(text)
    if found is None:
        found = _COMPILED[text] = re.compile(text)
    return found


_GO_TEMPLATE = re.compile(r"\$(?:(\$)|\{(\w+)\}|(\w+))")


def _expand(match: re.Match, template: str) -> str:
    """Go's ``Regexp.Expand``: ``$1``, ``${1}``, ``$name``, ``${name}``, ``$$``; a group that
    does not exist is empty (``$1x`` names the group ``1x``, as in Go)."""

    def group(m: re.Match) -> str:
        dollar, braced, bare = m.groups()
        if dollar:
            return "$"
        name = braced or bare
        try:
            value = match.group(int(name) if name.isdigit() else name)
        except IndexError:  # no such group
            return ""
        return value or ""

    return _GO_TEMPLATE.sub(group, template)


def replace_re(text: Any, pattern: Any, replacement: Any, limit: int = -1) -> str:
    """Hugo's ``replaceRE PATTERN REPLACEMENT INPUT [LIMIT]``, input first:
    ``page.title | replace_re("(a+)b", "[$1]")``."""
    if limit == 0:
        return str(text)
    regex = go_regex(pattern)
    template = str(replacement)
    return regex.sub(lambda m: _expand(m, template), str(text), count=max(limit, 0))


def find_re(text: Any, pattern: Any, limit: int = -1) -> list[str]:
    """Hugo's ``findRE PATTERN INPUT [LIMIT]``, input first: every match (the whole match,
    not its groups), at most ``limit`` of them."""
    if limit == 0:
        return []
    found = [m.group(0) for m in go_regex(pattern).finditer(str(text))]
    return found if limit < 0 else found[:limit]
