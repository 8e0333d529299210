"""Hugo's word counts, with ``hasCJKLanguage``: a page holding Chinese, Japanese or Korean
script counts each of those characters as a word (its text has few spaces), and reads at
500 of them a minute instead of 212 words.

Hugo asks whether the file, front matter included, has a character of the Han, Hiragana,
Katakana or Hangul scripts (Go's ``\\p{Han}`` and the rest). Python's ``re`` knows no
scripts and the standard library has no script table, so their ranges are written out
here from the Unicode Character Database (Scripts.txt of Unicode 17, the version of the Go
that built Hugo 0.168); ``tests/test_words_hugo.py`` checks the edges of each against the
real ``hugo``.
"""

from __future__ import annotations

import re

_HAN = (
    "\u2e80-\u2e99\u2e9b-\u2ef3\u2f00-\u2fd5\u3005\u3007\u3021-\u3029\u3038-\u303b"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufa6d\ufa70-\ufad9"
    "\U00016fe2\U00016fe3\U00016ff0-\U00016ff6\U00020000-\U0002a6df\U0002a700-\U0002b81d"
    "\U0002b820-\U0002cead\U0002ceb0-\U0002ebe0\U0002ebf0-\U0002ee5d\U0002f800-\U0002fa1d"
    "\U00030000-\U0003134a\U00031350-\U00033479"
)
_HIRAGANA = (
    "\u3041-\u3096\u309d-\u309f\U0001b001-\U0001b11f\U0001b132\U0001b150-\U0001b152\U0001f200"
)
_KATAKANA = (
    "\u30a1-\u30fa\u30fd-\u30ff\u31f0-\u31ff\u32d0-\u32fe\u3300-\u3357\uff66-\uff6f\uff71-\uff9d"
    "\U0001aff0-\U0001aff3\U0001aff5-\U0001affb\U0001affd\U0001affe\U0001b000"
    "\U0001b120-\U0001b122\U0001b155\U0001b164-\U0001b167"
)
_HANGUL = (
    "\u1100-\u11ff\u302e\u302f\u3131-\u318e\u3200-\u321e\u3260-\u327e\ua960-\ua97c"
    "\uac00-\ud7a3\ud7b0-\ud7c6\ud7cb-\ud7fb\uffa0-\uffbe\uffc2-\uffc7\uffca-\uffcf"
    "\uffd2-\uffd7\uffda-\uffdc"
)
_CJK = re.compile(f"[{_HAN}{_HIRAGANA}{_KATAKANA}{_HANGUL}]")


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a Han, Hiragana, Katakana or Hangul character."""
    return _CJK.search(text) is not None


def cjk_word_weight(word: str) -> int:
    """What one space-separated word of a CJK page counts for: each of its characters when
    it has any beyond ASCII."""
    return 1 if word.isascii() else len(word)


def word_count(plain: str, cjk: bool) -> int:
    words = plain.split()
    return sum(map(cjk_word_weight, words)) if cjk else len(words)


def reading_time(words: int, cjk: bool) -> int:
    """Minutes, rounded up: 212 words a minute, or 500 characters in a CJK page."""
    return (words + 499) // 500 if cjk else (words + 211) // 212
