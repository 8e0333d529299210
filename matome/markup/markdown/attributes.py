"""Goldmark's attribute lists: the ``{#id .class key=value}`` of headings and code fences.

Goldmark's heading attributes and Hugo's code fence options both go through Goldmark's
one attribute parser, so one function serves both: ids, classes (repeats joined with a
space) and ``key=value`` pairs with quoted values unescaped; anything it cannot read
makes the whole list invalid.
"""

from __future__ import annotations

import re

_ATTR_ITEM_RE = re.compile(
    r"""[ \t]*(?:([#.])([^\s!"#$%&'()*+,/;<=>?@\[\\\]^`{|}~]*)"""
    r"""|([A-Za-z_:][A-Za-z0-9_:.-]*)[ \t]*=[ \t]*("(?:\\.|[^"\\])*"|[^\s,}]+))[ \t]*,?"""
)


def parse_attributes(body: str) -> list[tuple[str, str]] | None:
    attrs: list[tuple[str, str]] = []
    pos = 0
    while pos < len(body):
        m = _ATTR_ITEM_RE.match(body, pos)
        if not m or m.end() == pos:
            return None if body[pos:].strip() else attrs
        if m.group(1):
            _add_attr(attrs, "id" if m.group(1) == "#" else "class", m.group(2))
        else:
            value = m.group(4)
            if value.startswith('"'):
                value = re.sub(r"\\(.)", r"\1", value[1:-1])
            _add_attr(attrs, m.group(3), value)
        pos = m.end()
    return attrs


def _add_attr(attrs: list[tuple[str, str]], name: str, value: str) -> None:
    if name == "class":
        for i, (key, old) in enumerate(attrs):
            if key == "class":
                attrs[i] = (key, f"{old} {value}")
                return
    attrs.append((name, value))
