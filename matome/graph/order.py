"""Hugo's default page order, used by every list of the graph."""

from __future__ import annotations

import functools
import unicodedata
from itertools import chain

from ..content.page import Page
from .han_order import han_order, han_table


def sort_key(page: Page, han: str = "root"):
    """Hugo's default order: weight (unset last), newest first (to the second), link title
    as Hugo's collator orders text (Chinese characters in the ``han`` order of
    ``han_order``), then path."""
    weight = page.weight if page.weight else float("inf")
    return (
        weight,
        -int(page.date.timestamp()),
        collation_key(page.name, han),
        page.file.path if page.file else page.out_path,
    )


def sort_pages(pages: list[Page], lang: str) -> list[Page]:
    """``pages`` in Hugo's default order, their titles compared as Hugo's collator for the
    language ``lang`` (the code of the site's language) compares them."""
    han = han_order(lang)
    return sorted(pages, key=lambda page: sort_key(page, han))


# Katakana to the hiragana of the same sound: the Unicode collation tells them apart only
# after everything else (as it does upper and lower case).
_KANA = {cp: cp - 0x60 for cp in range(0x30A1, 0x30F7)}
# Spaces, punctuation and symbols in the order of the Unicode collation's table (all before
# digits); others of their kind follow these, by code point.
_PUNCTUATION = (
    "\t\n\r \u00a0_-\u2010\u2011\u2012\u2013\u2014\u2015,;:!\u00a1?\u00bf.\u2026"
    "'\u2018\u2019\u201a\u201b\u2039\u203a\"\u201c\u201d\u201e\u201f\u00ab\u00bb"
    "()[]{}\u00a7\u00b6@*/\\&#%\u2030\u2020\u2021\u2022`\u00b4^\u00a8+\u00b1\u00f7"
    "\u00d7<=>\u00ac|\u00a6~\u00a4\u00a2$\u00a3\u00a5\u20ac"
)
_PUNCTUATION_RANK = {c: i for i, c in enumerate(_PUNCTUATION)}


@functools.cache
def collation_key(text: str, han: str = "root") -> tuple:
    """A sort key for ``text`` close to the Unicode collation Hugo sorts titles with
    (golang.org/x/text/collate): letters compared without their case, accents or width
    first, spaces, punctuation and symbols before digits before letters, hiragana and
    katakana alike; then the accents (none first); then case and kana (lower case,
    hiragana first). Chinese characters come after every other letter, in the order
    ``han`` of ``han_order`` (a language's); with a Chinese order (``"pinyin"`` or
    ``"stroke"``) a pinyin vowel's tone marks come before the bare vowel (ā á ǎ à a), as
    Hugo's Chinese collations have them. Not the whole algorithm: other scripts keep
    their code point order, and Japanese kanji are not in the reading order of a
    Japanese collation."""
    weights = [_char_weights(char, han) for char in text]
    return tuple(tuple(chain.from_iterable(w[level] for w in weights)) for level in range(3))


@functools.cache
def _char_weights(char: str, han: str) -> tuple[tuple, tuple, tuple]:
    """One character's primary weights, accents and variants: a text's key is theirs in a
    row, and a site's titles hold few distinct characters."""
    table = han_table(han)
    chinese = han != "root"
    primary: list[tuple[int, int | str]] = []
    accents: list[tuple] = []
    variants: list[int] = []
    decomposed = unicodedata.normalize("NFKD", char)
    marks = tuple(c for c in decomposed if unicodedata.combining(c))
    for base in [c for c in decomposed if not unicodedata.combining(c)] or [char]:
        folded = base.casefold().translate(_KANA)
        kind = unicodedata.category(base)[0]
        wide = decomposed != char and not marks  # a width or compatibility form
        for f in folded:
            rank = table.rank(f)
            if rank is not None:
                primary.append((3, rank))
            elif kind == "L":
                primary.append((2, f))
            elif kind == "N":
                primary.append((1, _as_digit(f)))
            else:
                primary.append((0, _PUNCTUATION_RANK.get(f, len(_PUNCTUATION) + ord(f))))
            accents.append(_chinese_accents(f, marks) if chinese else marks)
            variants.append(int(folded != base or _as_digit(f) != f) + 2 * wide)
    return tuple(primary), tuple(accents), tuple(variants)


def _as_digit(char: str) -> str:
    """A digit of any script (١ ३), or the ideographic zero and Hangzhou numerals (〇 〡),
    as the ASCII digit whose weight the Unicode collation gives it."""
    value = unicodedata.numeric(char, None)
    return str(int(value)) if value is not None and value in range(10) else char


# Hugo's Chinese collations put a pinyin syllable's tone marks (ā á ǎ à) before its bare
# vowel, and ü's (ǖ ǘ ǚ ǜ) between u and ü. Accents weigh as the Unicode collation's
# secondary weights do: each letter a common weight, each accent one more.
_TONES = {"\u0304": 1, "\u0301": 2, "\u030c": 3, "\u0300": 4}
_COMMON = 5
_DIAERESIS = "\u0308"


def _chinese_accents(letter: str, marks: tuple[str, ...]) -> tuple[float, ...]:
    tone = _TONES.get(marks[-1]) if marks and letter in "aeioumn" else None
    if tone is not None and len(marks) == 1:
        return (tone,)
    if tone is not None and letter == "u" and marks[:-1] == (_DIAERESIS,):
        return (_COMMON, ord(_DIAERESIS) - 1 + tone / _COMMON)
    return (_COMMON, *map(ord, marks))
