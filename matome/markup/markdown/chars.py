"""Character classes and HTML escaping as Goldmark sees them through Go's standard library.

Goldmark decides flanking, trimming and escaping with Go's ``unicode`` and ``html``
packages, whose notions differ from Python's: ``str.isspace`` counts U+001C-U+001F,
``str.strip`` trims more than ``bytes.TrimSpace``, and Go escapes quotes as ``&#39;`` and
``&#34;``. Everything that must match Hugo byte for byte uses these instead.
"""

from __future__ import annotations

import unicodedata

ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# ASCII whitespace, all Goldmark trims from paragraphs, headings and table cells: as a
# string for str.strip and as a set for membership tests.
ASCII_WS = " \t\n\v\f\r"
ASCII_SPACE = frozenset(ASCII_WS)

# Go's unicode.IsSpace, which bytes.TrimSpace uses (str.isspace also counts U+001C-U+001F).
GO_SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_GO_SPACE_SET = frozenset(GO_SPACE)


def is_go_space(ch: str) -> bool:
    return ch in _GO_SPACE_SET


def is_punct_or_symbol(ch: str) -> bool:
    if ch < "\x80":
        return ch in ASCII_PUNCT
    return unicodedata.category(ch)[0] in "PS"


def is_punct(ch: str) -> bool:
    """Go's unicode.IsPunct: category P only (no symbols)."""
    return unicodedata.category(ch)[0] == "P"


def go_escape(text: str) -> str:
    """Go's html.EscapeString, which Hugo and Chroma use for code."""
    return (
        text.replace("&", "&amp;")
        .replace("'", "&#39;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&#34;")
    )
