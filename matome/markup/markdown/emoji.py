"""Goldmark's emoji extension (Hugo's ``enableEmoji``): ``:name:`` to emoji entities.

Hugo turns GitHub's short names into the emoji written as numeric entities. The names
come from the ``emoji`` package (a matome dependency): every one of GitHub's, with
Unicode's names besides.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .library_internals import StateInline

_EMOJI_NAME_RE = re.compile(r":([A-Za-z0-9_+-]+):")
# The two names GitHub gives other emoji than the Unicode names the package has for them.
_GITHUB_OWN = {"beetle": "\U0001fab2", "egg": "\U0001f95a"}


@lru_cache(maxsize=1)
def _emoji_table() -> dict[str, str]:
    """Short name -> emoji: GitHub's names first (the ``emoji`` package's aliases, which
    Goldmark's table has), then Unicode's (CLDR) names, which Hugo's ``emojify`` also
    knows. A name of several sequences takes the fully-qualified one, as GitHub writes
    it (U+FE0F after a symbol whose default presentation is text)."""
    import emoji  # imported on first use, as few sites turn emoji on

    emoji.config.load_language("alias")
    fully_qualified = emoji.STATUS["fully_qualified"]
    entries = sorted(emoji.EMOJI_DATA.items(), key=lambda e: e[1]["status"] != fully_qualified)
    table: dict[str, str] = {}
    for value, data in entries:
        for alias in data.get("alias", ()):
            table.setdefault(alias.strip(":"), value)
    for value, data in entries:
        table.setdefault(data["en"].strip(":"), value)
    table.update(_GITHUB_OWN)
    return table


def emoji_for_name(name: str) -> str | None:
    """The emoji of a short name (``thinking``), None for a name not in the table."""
    return _emoji_table().get(name)


def emoji_rule(state: StateInline, silent: bool) -> bool:
    if state.src[state.pos] != ":":
        return False
    m = _EMOJI_NAME_RE.match(state.src, state.pos, state.posMax)
    if not m:
        return False
    value = _emoji_table().get(m.group(1))
    if value is None:
        return False
    if not silent:
        token = state.push("emoji", "", 0)
        token.content = value
        token.markup = m.group(1)
    state.pos = m.end()
    return True


def emoji_entities(value: str) -> str:
    return "".join("&zwj;" if ch == "\u200d" else f"&#x{ord(ch):x};" for ch in value)
