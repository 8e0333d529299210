"""Hugo's collection functions that Jinja has no built-in for: ``where`` (with Hugo's
operators), ``group_by_date``, ``uniq``, ``union``, ``intersect`` and ``delimit``.

Each is a filter and a global with the collection first, as in Hugo
(``where(site.regular_pages, "section", "posts")`` or
``site.regular_pages | where("section", "posts")``). Attributes are read through the
environment's ``getattr``, as the template's own ``page.x`` is, so the build cache
sees what a list depended on.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

import jinja2

from .functions import date_format
from .go_values import go_value

# Hugo's where operators, by every spelling Hugo takes, to the name used below.
_OPERATORS = {
    "=": "eq",
    "==": "eq",
    "eq": "eq",
    "!=": "ne",
    "<>": "ne",
    "ne": "ne",
    ">=": "ge",
    "ge": "ge",
    ">": "gt",
    "gt": "gt",
    "<=": "le",
    "le": "le",
    "<": "lt",
    "lt": "lt",
    "in": "in",
    "not in": "not in",
    "intersect": "intersect",
    "like": "like",
}
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def snake_name(name: str) -> str:
    """``RelPermalink`` -> ``rel_permalink``, ``URL`` -> ``url``: Hugo's method names as
    matome's attributes; snake_case names stay as they are."""
    return _CAMEL.sub("_", name).lower()


def path_value(env: jinja2.Environment, item: Any, path: str) -> Any:
    """``item``'s value at a dotted path (``params.series``, Hugo's ``.Params.series``);
    None where there is none. Keys of a mapping are matched in any case, as Hugo's params."""
    value = item
    for part in path.strip().lstrip(".").split("."):
        if value is None:
            return None
        if isinstance(value, dict):
            found = value.get(part, _NONE)
            if found is _NONE:
                lower = part.lower()
                found = next((v for k, v in value.items() if str(k).lower() == lower), None)
            value = found
            continue
        found = env.getattr(value, part)
        if isinstance(found, jinja2.Undefined):
            found = env.getattr(value, snake_name(part))
        value = None if isinstance(found, jinja2.Undefined) else found
    return value


_NONE = object()


@jinja2.pass_environment
def where(env: jinja2.Environment, items: Any, key: str, *args: Any) -> list:
    """Hugo's ``where COLLECTION KEY [OPERATOR] MATCH``: the items whose value at ``key``
    compares so with ``match``. Operators: ``=`` ``==`` ``eq``, ``!=`` ``<>`` ``ne``,
    ``>=`` ``ge``, ``>`` ``gt``, ``<=`` ``le``, ``<`` ``lt``, ``in``, ``not in``,
    ``intersect``, ``like`` (a regular expression)."""
    if len(args) == 1:
        operator, match = "eq", args[0]
    elif len(args) == 2:
        operator, match = str(args[0]).strip().lower(), args[1]
    else:
        raise TypeError("where takes a collection, a key, an optional operator and a value")
    op = _OPERATORS.get(operator)
    if op is None:
        raise ValueError(f"where: unknown operator {operator!r}")
    pattern = re.compile(str(match)) if op == "like" else None
    return [
        item for item in _items(items) if _compare(path_value(env, item, key), op, match, pattern)
    ]


def _compare(value: Any, op: str, match: Any, pattern: re.Pattern | None) -> bool:
    if op == "eq":
        return _equal(value, match)
    if op == "ne":
        return not _equal(value, match)
    if op == "in":
        return _contains(match, value)
    if op == "not in":
        return not _contains(match, value)
    if op == "intersect":
        values = value if isinstance(value, (list, tuple)) else [value]
        matches = match if isinstance(match, (list, tuple)) else [match]
        return any(_equal(v, m) for v in values for m in matches)
    if op == "like":
        return isinstance(value, str) and pattern.search(value) is not None
    if value is None or match is None:
        return False
    try:
        if op == "ge":
            return value >= match
        if op == "gt":
            return value > match
        if op == "le":
            return value <= match
        return value < match
    except TypeError:  # a number against text, as Hugo: no match
        return False


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) != isinstance(b, bool):
        return False  # Go's true is not 1
    return a == b


def _contains(collection: Any, value: Any) -> bool:
    if isinstance(collection, str):
        return isinstance(value, str) and value in collection
    return any(_equal(value, c) for c in _items(collection))


def _items(value: Any) -> list:
    if value is None or isinstance(value, jinja2.Undefined):
        return []
    if isinstance(value, dict):
        return list(value.values())
    return list(value)


class PageGroup(NamedTuple):
    """One group of ``group_by_date``: Hugo's ``.Key`` and ``.Pages``."""

    key: str
    pages: list


@jinja2.pass_environment
def group_by_date(
    env: jinja2.Environment,
    pages: Any,
    layout: str = "2006-01",
    order: str = "desc",
    field: str = "date",
) -> list[PageGroup]:
    """Hugo's ``.GroupByDate LAYOUT [ORDER]`` (``field="publish_date"`` for
    ``.GroupByPublishDate``): pages sorted by the date, newest first unless ``order`` is
    ``"asc"``, in runs of the same date formatted with ``layout``."""
    newest_first = str(order).lower() != "asc"
    dated = [(path_value(env, p, field), p) for p in _items(pages)]
    dated = [(d, p) for d, p in dated if d is not None]
    dated.sort(key=lambda pair: pair[0], reverse=newest_first)
    groups: list[PageGroup] = []
    for value, page in dated:
        key = date_format(value, layout)
        if groups and groups[-1].key == key:
            groups[-1].pages.append(page)
        else:
            groups.append(PageGroup(key, [page]))
    return groups


def _identity(value: Any) -> Any:
    """What makes two items the same for uniq, union and intersect: equal values, or the
    same object for what cannot be hashed."""
    try:
        hash(value)
    except TypeError:
        return ("@id", id(value))
    return (type(value) is bool, value)


def uniq(items: Any) -> list:
    """Hugo's ``uniq``: each item once, in the order first seen; text compared with case."""
    seen: set = set()
    out = []
    for item in _items(items):
        key = _identity(item)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def union(first: Any, second: Any) -> list:
    """Hugo's ``union``: the items of ``first``, then those of ``second`` not in it."""
    return uniq([*_items(first), *_items(second)])


def intersect(first: Any, second: Any) -> list:
    """Hugo's ``intersect``: the items of ``first`` also in ``second``, in ``first``'s order."""
    others = {_identity(item) for item in _items(second)}
    return [item for item in uniq(first) if _identity(item) in others]


def delimit(items: Any, separator: str = "", last: str | None = None) -> str:
    """Hugo's ``delimit COLLECTION SEPARATOR [LAST]``: the items as text joined with
    ``separator`` (``last`` before the final one); a mapping's values in its keys' order."""
    if isinstance(items, dict):
        items = [items[k] for k in sorted(items, key=str)]
    texts = [go_value(item) for item in _items(items)]
    if last is None or len(texts) < 2:
        return str(separator).join(texts)
    return str(separator).join(texts[:-1]) + str(last) + texts[-1]
