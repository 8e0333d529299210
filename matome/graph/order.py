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
# Small kana weigh as the full-size kana, as a variant before it (ぁ before あ).
_SMALL_KANA = {small: chr(ord(small) + 1) for small in "ぁぃぅぇぉっゃゅょ"} | {"ゎ": "わ"}
# Spaces, punctuation and symbols in the order of the Unicode collation's table (all before
# digits); others of their kind follow these, by code point.
_PUNCTUATION = (
    "\t\n\r \u00a0_-\u2010\u2011\u2012\u2013\u2014\u2015\u301c\u30a0\u30fb,\u3001;:!\u00a1?"
    "\u00bf.\u2026\u3002'\u2018\u2019\u201a\u201b\u2039\u203a\"\u201c\u201d\u201e\u201f"
    "\u00ab\u00bb()[]{}\u3008\u3009\u300a\u300b\u300c\u300d\u300e\u300f\u3010\u3011\u3014"
    "\u3015\u3016\u3017\u00a7\u00b6@*/\\&#%\u2030\u2020\u2021\u2022`\u00b4^\u00a8+\u00b1\u00f7"
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
    Hugo's Chinese collations have them. With the Japanese order (``"ja"``) kana weigh as
    Hugo's Japanese collation weighs them: hiragana and katakana, and kana of either
    width, alike; a kana and the prolonged sound mark after it as its vowel then the kana.
    Not the whole algorithm: other scripts keep their code point order, and the
    iteration marks ゝ ゞ ヽ ヾ after a kana do not repeat it as the Japanese collation has
    them do."""
    weights = [_char_weights(char, han) for char in text]
    if han == "ja" and _LONG_VOWEL in text:
        _long_vowels(text, weights)
    return tuple(tuple(chain.from_iterable(w[level] for w in weights)) for level in range(3))


# Hugo's Japanese collation (CLDR's, as golang.org/x/text builds it) reads the prolonged
# sound mark after a kana as that kana's vowel, but puts the vowel first: カー sorts as
# "ア" then "カ" (before オ), キー as "イ" then "キ". The vowel weighs as a variant before
# the kana's own (アー before アア). Each vowel's kana, plain, small and voiced alike:
_LONG_VOWEL = "\u30fc"
_VOWELS = {
    "\u3042": "ぁあかがさざただなはばぱまゃやらゎわゕ",
    "\u3044": "ぃいきぎしじちぢにひびぴみりゐ",
    "\u3046": "ぅうゔくぐすずっつづぬふぶぷむゅゆる",
    "\u3048": "ぇえけげせぜてでねへべぺめれゑゖ",
    "\u304a": "ぉおこごそぞとどのほぼぽもょよろを",
}
_VOWEL_OF = {
    chr(ord(k) + shift): vowel
    for vowel, kana in _VOWELS.items()
    for k in kana
    for shift in (0, 0x60)  # hiragana and katakana
} | {"ヷ": "\u3042", "ヸ": "\u3044", "ヹ": "\u3048", "ヺ": "\u304a"}
# and the half-width katakana (ｶー), though not with the half-width mark (ｶｰ)
_VOWEL_OF |= {
    chr(cp): _VOWEL_OF[unicodedata.normalize("NFKC", chr(cp))]
    for cp in range(0xFF66, 0xFF9E)
    if unicodedata.normalize("NFKC", chr(cp)) in _VOWEL_OF
}


def _long_vowels(text: str, weights: list) -> None:
    """``weights`` of ``text`` (one entry a character) with each kana followed by the
    prolonged sound mark weighed as Hugo's Japanese collation weighs the pair."""
    for i in range(len(text) - 1):
        vowel = _VOWEL_OF.get(text[i])
        if vowel is not None and text[i + 1] == _LONG_VOWEL:
            primary, accents, _ = _char_weights(vowel, "ja")
            weights[i], weights[i + 1] = (primary, accents, (-5,)), weights[i]


# Marks the Unicode collation weighs as symbols (just before the currency signs), not as
# letters: the iteration marks and the prolonged sound mark. The Japanese collation
# orders them otherwise, and weighs the small ka and ke as variants of ka and ke.
_KANA_SYMBOLS = {"\u3005": 0.0, "\u303b": 0.25, "\u309d": 0.5, "\u30fc": 0.75}
_JA_KANA_SYMBOLS = {"\u3005": 0.0, "\u303b": 0.25, "\u30fc": 0.5, "\u309d": 0.75, "\u30fd": 0.75}
_JA_SMALL = {"\u3095": "\u304b", "\u3096": "\u3051", "\u30f5": "\u304b", "\u30f6": "\u3051"}


@functools.cache
def _char_weights(char: str, han: str) -> tuple[tuple, tuple, tuple]:
    """One character's primary weights, accents and variants: a text's key is theirs in a
    row, and a site's titles hold few distinct characters."""
    if char == _SHIME:
        return _shime_weights(han)
    japanese = han == "ja"
    if (weights := _mark_weights(char, japanese)) is not None:
        return weights
    table = han_table(han)
    chinese = han not in ("root", "ja")
    primary: list[tuple[int, int | str]] = []
    accents: list[tuple] = []
    variants: list[int] = []
    decomposed = unicodedata.normalize("NFKD", char)
    marks = tuple(c for c in decomposed if unicodedata.combining(c))
    for base in [c for c in decomposed if not unicodedata.combining(c)] or [char]:
        folded = base.casefold().translate(_KANA)
        kana = folded != base.casefold()
        kind = unicodedata.category(base)[0]
        wide = decomposed != char and not marks  # a width or compatibility form
        for f in folded:
            small = f in _SMALL_KANA
            f = _SMALL_KANA.get(f, f)
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
            variant = 8 * (base.casefold() != base) + (_as_digit(f) != f) - small
            if not japanese:  # the Japanese collation does not weigh kana kind or width
                variant += 2 * kana + 4 * wide
            variants.append(variant)
    return tuple(primary), tuple(accents), tuple(variants)


# The closing mark 〆 weighs as しめ (shime), as a variant before it.
_SHIME = "\u3006"


def _shime_weights(han: str) -> tuple[tuple, tuple, tuple]:
    (first, accents, _), (second, *_) = _char_weights("し", han), _char_weights("め", han)
    return first + second, accents + accents, (-6, -6)


def _mark_weights(char: str, japanese: bool) -> tuple[tuple, tuple, tuple] | None:
    """The weights of a kana mark the collations weigh apart, None for other characters."""
    decomposed = unicodedata.normalize("NFKD", char)
    base, marks = decomposed[0], tuple(decomposed[1:])
    symbols = _JA_KANA_SYMBOLS if japanese else _KANA_SYMBOLS
    if base in symbols:
        rank = _PUNCTUATION_RANK["\u00a4"] - 1 + symbols[base]
        wide = base != char and not marks  # ｰ: a variant in every collation
        return ((0, rank),), (marks,), (4 * wide,)
    if japanese and char in _JA_SMALL:
        return ((2, _JA_SMALL[char]),), ((),), (-1,)
    return None


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
