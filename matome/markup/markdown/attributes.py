"""Goldmark's attribute lists: the ``{#id .class key=value}`` of headings, blocks and fences.

Goldmark reads heading attributes, block attributes and Hugo's code fence options with one
parser, whose values are typed: a quoted string, a number (a float, as Go's JSON), ``true``,
``false``, ``null``, a bare word, a ``[...]`` list or a nested ``{...}`` list. Anything it
cannot read makes the whole list invalid. Render hooks see the typed values; HTML gets
them as Go's ``cast.ToString`` writes them (``2`` not ``2.0``).
"""

from __future__ import annotations

import re
from typing import Any

from ...content.coerce import float_string

Attributes = list[tuple[str, Any]]

_SPACES = " \t\n\v\f\r"
_NAME = re.compile(r"[A-Za-z_:][A-Za-z0-9_:.-]*")
# An id or class after '#' or '.': anything up to a space or ASCII punctuation other than
# '_', '-', ':' and '.'.
_ID_OR_CLASS = re.compile(r"""[^ \t\n\v\f\r!"#$%&'()*+,/;<=>?@\[\\\]^`{|}~]*""")
_NUMBER = re.compile(r"[-+]?[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]*)?")
_STRING_ESCAPES = {'"': '"', "/": "/", "\\": "\\", "b": "\b", "f": "\f", "n": "\n"}
_STRING_ESCAPES.update({"r": "\r", "t": "\t"})


def _skip_spaces(src: str, pos: int) -> int:
    while pos < len(src) and src[pos] in _SPACES:
        pos += 1
    return pos


def read_attributes(src: str, pos: int) -> tuple[Attributes, int] | None:
    """The attribute list starting at ``src[pos]`` (spaces, then ``{``) and the position
    after its ``}``; None when Goldmark would not read one there."""
    pos = _skip_spaces(src, pos)
    if pos >= len(src) or src[pos] != "{":
        return None
    pos += 1
    attrs: Attributes = []
    while True:
        if pos < len(src) and src[pos] == "}":
            return attrs, pos + 1
        found = _read_attribute(src, pos)
        if found is None:
            return None
        name, value, pos = found
        _add(attrs, name, value)
        pos = _skip_spaces(src, pos)
        if pos < len(src) and src[pos] == ",":
            pos = _skip_spaces(src, pos + 1)


def parse_attributes(body: str) -> Attributes | None:
    """The attributes of ``{body}``, when that is one whole attribute list."""
    found = read_attributes("{" + body + "}", 0)
    if found is None or found[1] != len(body) + 2:
        return None
    return found[0]


def _add(attrs: Attributes, name: str, value: Any) -> None:
    if name == "class":  # classes given twice are joined, as Goldmark does
        for i, (key, old) in enumerate(attrs):
            if key == "class":
                attrs[i] = (key, f"{old} {value}")
                return
    attrs.append((name, value))


def _read_attribute(src: str, pos: int) -> tuple[str, Any, int] | None:
    pos = _skip_spaces(src, pos)
    if pos < len(src) and src[pos] in "#.":
        m = _ID_OR_CLASS.match(src, pos + 1)
        return ("id" if src[pos] == "#" else "class"), m.group(), m.end()
    m = _NAME.match(src, pos)
    if not m:
        return None
    pos = _skip_spaces(src, m.end())
    if pos >= len(src) or src[pos] != "=":
        return None
    found = _read_value(src, _skip_spaces(src, pos + 1))
    if found is None or (m.group() == "class" and not isinstance(found[0], str)):
        return None
    return m.group(), found[0], found[1]


def _read_value(src: str, pos: int) -> tuple[Any, int] | None:
    if pos >= len(src):
        return None
    c = src[pos]
    if c == "{":
        return read_attributes(src, pos)
    if c == "[":
        return _read_list(src, pos + 1)
    if c == '"':
        return _read_string(src, pos + 1)
    if c in "-+" or c.isascii() and c.isdigit():
        m = _NUMBER.match(src, pos)
        if not m or not any(ch.isdigit() for ch in m.group()[:2]):
            return None
        text = m.group()
        return float(text + "0" if text[-1] in "eE+-" else text), m.end()
    m = _NAME.match(src, pos)
    if not m:
        return None
    word = m.group()
    return {"true": True, "false": False, "null": None}.get(word, word), m.end()


def _read_list(src: str, pos: int) -> tuple[list[Any], int] | None:
    values: list[Any] = []
    while True:
        comma = bool(values) and pos < len(src) and src[pos] == ","
        if comma:
            pos += 1
        if pos < len(src) and src[pos] == "]" and not comma:
            return values, pos + 1
        found = _read_value(src, _skip_spaces(src, pos))
        if found is None:
            return None
        values.append(found[0])
        pos = _skip_spaces(src, found[1])


def _read_string(src: str, pos: int) -> tuple[str, int] | None:
    out = []
    end = src.find("\n", pos)
    end = len(src) if end < 0 else end
    while pos < end:
        c = src[pos]
        if c == "\\" and pos + 1 < end:
            escaped = _STRING_ESCAPES.get(src[pos + 1])
            out.append("\\" if escaped is None else escaped)
            pos += 1 if escaped is None else 2
            continue
        if c == '"':
            return "".join(out), pos + 1
        out.append(c)
        pos += 1
    return None


def attribute_text(value: Any) -> str:
    """A typed attribute value as Go's ``cast.ToString`` writes it into HTML."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return float_string(value)
    return str(value) if isinstance(value, (str, int)) else ""
