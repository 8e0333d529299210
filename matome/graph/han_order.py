"""The orders Hugo gives Chinese characters: by pinyin for Simplified Chinese, by stroke
count for Traditional, the Japanese collation's for Japanese (the common kanji by reading,
after every other Chinese character), the Unicode collation's own for other languages.

Hugo compares titles and terms with golang.org/x/text/collate for the site's language
(the key of ``[languages]``, or ``defaultContentLanguage``: not ``languageCode``). Every
collation places the Chinese characters after the letters of every other script, in an
order no Unicode property gives: the Unicode collation's (the unified ideographs, then
the extensions, each by code point), or a Chinese or Japanese one. ``han_root.txt``,
``han_pinyin.txt``, ``han_stroke.txt`` and ``han_ja.txt`` list the characters in Hugo's order, written
from the real hugo's output by ``tests/han_order_hugo.py`` (run it again to write them
for another Hugo). A character has one place whatever its readings (行 is always xíng,
重 always zhòng), and a text compares character by character: the collations have no
words of their own.
"""

from __future__ import annotations

import bisect
import functools
from dataclasses import dataclass
from pathlib import Path

_TABLES = Path(__file__).parent

# The regions whose Chinese x/text sorts by stroke count: it takes the script of
# ``zh-<region>`` from CLDR's likely subtags, Traditional for these
# (tests/test_han_order_hugo.py asks hugo about every region code).
_STROKE_REGIONS = frozenset(
    {"au", "bn", "eu", "gb", "gf", "hk", "id", "mo", "my", "pa", "pf", "ph", "pz"}
    | {"qu", "sr", "th", "tw", "uk", "us", "vd", "vn", "419", "150", "035", "021", "005"}
)


@functools.cache
def han_order(lang: str) -> str:
    """``"pinyin"``, ``"stroke"``, ``"ja"`` or ``"root"``: the order Hugo's collator for
    the language code ``lang`` gives Chinese characters. Korean has an order of its own in
    Hugo, which matome does not: it gets the root order."""
    parts = lang.lower().replace("_", "-").split("-")
    if parts[0] in ("ja", "jpn"):
        return "ja"
    if parts[0] not in ("zh", "cmn"):
        return "root"
    for part in parts[1:]:
        if part == "x":  # private use follows
            break
        if len(part) == 4 and part.isalpha():  # a script: Hant is Traditional
            return "stroke" if part == "hant" else "pinyin"
        if (len(part) == 2 and part.isalpha()) or (len(part) == 3 and part.isdigit()):
            return "stroke" if part in _STROKE_REGIONS else "pinyin"
        if len(part) == 3 and part.isalpha():  # zh-yue, zh-min-nan: another language
            return "root"
    return "pinyin"


@dataclass(frozen=True)
class HanTable:
    """One order's characters as runs of consecutive code points, by first code point."""

    starts: tuple[int, ...]
    ends: tuple[int, ...]
    ranks: tuple[int, ...]  # the rank of each run's first character

    def rank(self, char: str) -> int | None:
        """``char``'s place in the order; None for a character the table does not hold."""
        cp = ord(char)
        i = bisect.bisect_right(self.starts, cp) - 1
        if i < 0 or cp > self.ends[i]:
            return None
        return self.ranks[i] + cp - self.starts[i]


@functools.cache
def han_table(order: str) -> HanTable:
    """The table of ``order`` (``"root"``, ``"pinyin"``, ``"stroke"`` or ``"ja"``)."""
    runs = []
    rank = 0
    text = (_TABLES / f"han_{order}.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        i = 0
        while i < len(line):
            if i + 2 < len(line) and line[i + 1] == "-":  # a run: first-last
                first, last, i = ord(line[i]), ord(line[i + 2]), i + 3
            else:
                first = last = ord(line[i])
                i += 1
            runs.append((first, last, rank))
            rank += last - first + 1
    runs.sort()
    starts, ends, ranks = zip(*runs, strict=True)
    return HanTable(starts, ends, ranks)
