"""Goldmark's emoji extension (Hugo's ``enableEmoji``): ``:name:`` to emoji entities.

Hugo turns GitHub's short names into the emoji written as numeric entities. The names
come from rich's table (a matome dependency), which lacks some of GitHub's; a symbol
whose default presentation is text gets U+FE0F, as GitHub's list has it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .library_internals import StateInline, rich_emoji_codes

_EMOJI_NAME_RE = re.compile(r":([A-Za-z0-9_+-]+):")
# Code points whose default presentation is emoji: GitHub's names map to them bare.
# Every other single symbol is text-default and GitHub (Goldmark) appends U+FE0F.
_EMOJI_PRESENTATION_BMP = frozenset(
    "⌚⌛⏩⏪⏫⏬⏰⏳◽◾☔☕♈♉♊♋♌♍♎♏♐♑♒♓♿⚓⚡⚪⚫⚽⚾⛄⛅⛎⛔⛪⛲⛳⛵⛺⛽✅✊✋✨❌❎❓❔❕❗➕➖➗➰➿⬛⬜⭐⭕"
)
_TEXT_DEFAULT_ASTRAL = (
    (0x1F170, 0x1F171),
    (0x1F17E, 0x1F17F),
    (0x1F202, 0x1F202),
    (0x1F237, 0x1F237),
    (0x1F321, 0x1F321),
    (0x1F324, 0x1F32C),
    (0x1F336, 0x1F336),
    (0x1F37D, 0x1F37D),
    (0x1F396, 0x1F397),
    (0x1F399, 0x1F39B),
    (0x1F39E, 0x1F39F),
    (0x1F3CB, 0x1F3CE),
    (0x1F3D4, 0x1F3DF),
    (0x1F3F3, 0x1F3F3),
    (0x1F3F5, 0x1F3F5),
    (0x1F3F7, 0x1F3F7),
    (0x1F43F, 0x1F43F),
    (0x1F441, 0x1F441),
    (0x1F4FD, 0x1F4FD),
    (0x1F549, 0x1F54A),
    (0x1F56F, 0x1F570),
    (0x1F573, 0x1F579),
    (0x1F587, 0x1F587),
    (0x1F58A, 0x1F58D),
    (0x1F590, 0x1F590),
    (0x1F5A5, 0x1F5A5),
    (0x1F5A8, 0x1F5A8),
    (0x1F5B1, 0x1F5B2),
    (0x1F5BC, 0x1F5BC),
    (0x1F5C2, 0x1F5C4),
    (0x1F5D1, 0x1F5D3),
    (0x1F5DC, 0x1F5DE),
    (0x1F5E1, 0x1F5E1),
    (0x1F5E3, 0x1F5E3),
    (0x1F5E8, 0x1F5E8),
    (0x1F5EF, 0x1F5EF),
    (0x1F5F3, 0x1F5F3),
    (0x1F5FA, 0x1F5FA),
    (0x1F6CB, 0x1F6CB),
    (0x1F6CD, 0x1F6CF),
    (0x1F6E0, 0x1F6E5),
    (0x1F6E9, 0x1F6E9),
    (0x1F6F0, 0x1F6F0),
    (0x1F6F3, 0x1F6F3),
)
# GitHub names its best-known flags by country code.
_FLAG_CODES = "cn de es fr gb it jp kr ru us"


def _text_default(ch: str) -> bool:
    code = ord(ch)
    if code < 0x1F000:
        return ch not in _EMOJI_PRESENTATION_BMP
    return any(lo <= code <= hi for lo, hi in _TEXT_DEFAULT_ASTRAL)


def _flag(code: str) -> str:
    return "".join(chr(0x1F1E6 + ord(c) - ord("a")) for c in code)


@lru_cache(maxsize=1)
def _emoji_table() -> dict[str, str]:
    # rich (a matome dependency) ships GitHub-style short names; see _text_default for
    # the variation selector GitHub adds.
    table = {}
    for name, value in rich_emoji_codes().items():
        table[name] = value + "\ufe0f" if len(value) == 1 and _text_default(value) else value
    table.update({code: _flag(code) for code in _FLAG_CODES.split()})
    table["uk"] = table["gb"]
    return table


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
