"""Goldmark's CJK extension: East Asian line breaks and escaped spaces.

With ``eastAsianLineBreaks`` a soft line break is left out between two wide characters
("simple": Han, kana, Hangul, modifier letters and CJK punctuation; "css3draft": CSS
Text 3's segment break rules), so a Japanese sentence wrapped in the source reads as one.
Goldmark decides on the text before the break and the text node after it: when what
follows is not text (emphasis, a link, code), the break is dropped whatever the
characters. With ``escapedSpace`` a backslash-escaped space is written as nothing.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from .library_internals import Token

# Unicode names that start so are in the scripts Goldmark counts as wide (Go's unicode
# tables for Hiragana, Katakana, Han and Hangul), which Python's unicodedata lacks.
_WIDE_NAMES = (
    "CJK UNIFIED IDEOGRAPH",
    "CJK COMPATIBILITY IDEOGRAPH",
    "CJK RADICAL",
    "KANGXI RADICAL",
    "HIRAGANA",
    "KATAKANA",
    "HALFWIDTH KATAKANA",
    "HANGUL",
    "HALFWIDTH HANGUL",
    "IDEOGRAPHIC",
)
# CSS Text 3's space-discarding set, as Goldmark lists it (Unicode blocks).
_SPACE_DISCARDING = (
    (0x2E80, 0x2FFF),
    (0x3000, 0x30FF),
    (0x3130, 0x319F),
    (0x31C0, 0x31FF),
    (0x3300, 0x9FFF),
    (0xA000, 0xA4CF),
    (0xF900, 0xFAFF),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE6F),
    (0xFF00, 0xFFEF),
    (0x1B000, 0x1B16F),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2EBEF),
    (0x2F800, 0x2FA1F),
    (0x30000, 0x3134F),
)


@lru_cache(maxsize=4096)
def is_wide(ch: str) -> bool:
    """Goldmark's IsEastAsianWideRune."""
    if 0x3000 <= ord(ch) <= 0x303F or unicodedata.category(ch) == "Lm":
        return True
    return unicodedata.name(ch, "").startswith(_WIDE_NAMES)


def _space_discarding(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in _SPACE_DISCARDING)


def _hangul(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith(("HANGUL", "HALFWIDTH HANGUL"))


def _keeps_break_css3(before: str, after: str) -> bool:
    if "\u200b" in (before, after):
        return False
    wide = ("F", "W", "H")
    if unicodedata.east_asian_width(before) in wide and unicodedata.east_asian_width(after) in wide:
        return _hangul(before) or _hangul(after)
    for ch in (before, after):
        if _space_discarding(ch) or unicodedata.category(ch)[0] == "P" or ch == "\u3000":
            return False
    return True


def soft_break(tokens: list[Token], idx: int, style: str) -> str:
    """What a soft line break is written as: a newline or nothing."""
    before = tokens[idx - 1] if idx > 0 else None
    value = before.content if before is not None and before.type == "text" else ""
    if not value:
        return "\n"
    after = tokens[idx + 1] if idx + 1 < len(tokens) else None
    if after is None or after.type != "text" or not after.content:
        return ""
    last, first = value[-1], after.content[0]
    if style == "css3draft":
        return "\n" if _keeps_break_css3(last, first) else ""
    return "" if is_wide(last) and is_wide(first) else "\n"
