"""Hugo's default page order, used by every list of the graph."""

from __future__ import annotations

import functools
import unicodedata
from itertools import chain

from ..content.page import Page


def sort_key(page: Page):
    """Hugo's default order: weight (unset last), newest first (to the second), link title
    as Hugo's collator orders text, then path."""
    weight = page.weight if page.weight else float("inf")
    return (
        weight,
        -int(page.date.timestamp()),
        collation_key(page.name),
        page.file.path if page.file else page.out_path,
    )


def sort_pages(pages: list[Page]) -> list[Page]:
    return sorted(pages, key=sort_key)


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
def collation_key(text: str) -> tuple:
    """A sort key for ``text`` close to the Unicode collation Hugo sorts titles with
    (golang.org/x/text/collate): letters compared without their case, accents or width
    first, spaces, punctuation and symbols before digits before letters, hiragana and
    katakana alike; then the accents (none first); then case and kana (lower case,
    hiragana first). Not the whole algorithm: scripts keep their code point order, and
    Japanese kanji are not in the reading order of a Japanese collation."""
    weights = [_char_weights(char) for char in text]
    return tuple(tuple(chain.from_iterable(w[level] for w in weights)) for level in range(3))


@functools.cache
def _char_weights(char: str) -> tuple[tuple, tuple, tuple]:
    """One character's primary weights, accents and variants: a text's key is theirs in a
    row, and a site's titles hold few distinct characters."""
    primary: list[tuple[int, int | str]] = []
    accents: list[tuple[str, ...]] = []
    variants: list[int] = []
    decomposed = unicodedata.normalize("NFKD", char)
    marks = tuple(c for c in decomposed if unicodedata.combining(c))
    for base in [c for c in decomposed if not unicodedata.combining(c)] or [char]:
        folded = base.casefold().translate(_KANA)
        kind = unicodedata.category(base)[0]
        wide = decomposed != char and not marks  # a width or compatibility form
        for f in folded:
            if kind == "L":
                primary.append((2, f))
            elif kind == "N":
                primary.append((1, f))
            else:
                primary.append((0, _PUNCTUATION_RANK.get(f, len(_PUNCTUATION) + ord(f))))
            accents.append(marks)
            variants.append(int(folded != base) + 2 * wide)
    return tuple(primary), tuple(accents), tuple(variants)
