"""CLDR plural categories (zero, one, two, few, many, other) of a count, per language.

``i18n`` picks a message's plural form by the rules of the Unicode CLDR for the language
of its translation table, as Hugo does through go-i18n. A count is an integer or a decimal
written as text ("1.50" keeps its two visible fraction digits, which change the category:
English "1" is *one*, "1.0" is *other*).

The rules are written in CLDR's own notation (``i % 10 = 2..4 and i % 100 != 12..14``)
and read by a small evaluator. A language without rules here has only *other*.
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal, InvalidOperation

# Which languages share which rules. Each entry: language codes, then (category, rule)
# pairs in CLDR notation; a count that matches none is "other".
_E_MANY = "e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5"
_RULES: list[tuple[str, tuple[tuple[str, str], ...]]] = [
    (
        "bm bo dz hnj id ig ii in ja jbo jv jw kde kea km ko lkt lo ms my nqo osa sah ses sg "
        "su th to tpi vi wo yo yue zh",
        (),
    ),
    ("fr", (("one", "i = 0,1"), ("many", _E_MANY))),
    ("ff hy kab", (("one", "i = 0,1"),)),
    ("pt", (("one", "i = 0..1"), ("many", _E_MANY))),
    ("es", (("one", "n = 1"), ("many", _E_MANY))),
    ("ca it lld pt-pt vec", (("one", "i = 1 and v = 0"), ("many", _E_MANY))),
    (
        "ast de en et fi fy gl ia io ji lij nl sc scn sv sw ur yi",
        (("one", "i = 1 and v = 0"),),
    ),
    (
        "af an asa az bal bem bez bg brx ce cgg chr ckb dv ee el eo eu fo fur gsw ha haw hu "
        "jgo jmc ka kaj kcg kk kkj kl ks ksb ku ky lb lg mas mgo ml mn mr nah nb nd ne nn "
        "nnh no nr ny nyn om or os pap ps rm rof rwk saq sd sdh seh sn so sq ss ssy st syr "
        "ta te teo tig tk tn tr ts ug uz ve vo vun wae xh xog",
        (("one", "n = 1"),),
    ),
    ("am as bn doi fa gu hi kn pcm zu", (("one", "i = 0 or n = 1"),)),
    ("ak bho guw ln mg nso pa ti wa", (("one", "n = 0..1"),)),
    ("si", (("one", "n = 0,1 or i = 0 and f = 1"),)),
    ("da", (("one", "n = 1 or t != 0 and i = 0,1"),)),
    ("is", (("one", "t = 0 and i % 10 = 1 and i % 100 != 11 or t % 10 = 1 and t % 100 != 11"),)),
    ("mk", (("one", "v = 0 and i % 10 = 1 and i % 100 != 11 or f % 10 = 1 and f % 100 != 11"),)),
    (
        "fil tl",
        (
            (
                "one",
                "v = 0 and i = 1,2,3 or v = 0 and i % 10 != 4,6,9 or v != 0 and f % 10 != 4,6,9",
            ),
        ),
    ),
    (
        "ru uk",
        (
            ("one", "v = 0 and i % 10 = 1 and i % 100 != 11"),
            ("few", "v = 0 and i % 10 = 2..4 and i % 100 != 12..14"),
            (
                "many",
                "v = 0 and i % 10 = 0 or v = 0 and i % 10 = 5..9 or v = 0 and i % 100 = 11..14",
            ),
        ),
    ),
    (
        "be",
        (
            ("one", "n % 10 = 1 and n % 100 != 11"),
            ("few", "n % 10 = 2..4 and n % 100 != 12..14"),
            ("many", "n % 10 = 0 or n % 10 = 5..9 or n % 100 = 11..14"),
        ),
    ),
    (
        "pl",
        (
            ("one", "i = 1 and v = 0"),
            ("few", "v = 0 and i % 10 = 2..4 and i % 100 != 12..14"),
            (
                "many",
                "v = 0 and i != 1 and i % 10 = 0..1 or v = 0 and i % 10 = 5..9 "
                "or v = 0 and i % 100 = 12..14",
            ),
        ),
    ),
    ("cs sk", (("one", "i = 1 and v = 0"), ("few", "i = 2..4 and v = 0"), ("many", "v != 0"))),
    (
        "bs hr sh sr",
        (
            ("one", "v = 0 and i % 10 = 1 and i % 100 != 11 or f % 10 = 1 and f % 100 != 11"),
            (
                "few",
                "v = 0 and i % 10 = 2..4 and i % 100 != 12..14 "
                "or f % 10 = 2..4 and f % 100 != 12..14",
            ),
        ),
    ),
    (
        "sl",
        (
            ("one", "v = 0 and i % 100 = 1"),
            ("two", "v = 0 and i % 100 = 2"),
            ("few", "v = 0 and i % 100 = 3..4 or v != 0"),
        ),
    ),
    (
        "lt",
        (
            ("one", "n % 10 = 1 and n % 100 != 11..19"),
            ("few", "n % 10 = 2..9 and n % 100 != 11..19"),
            ("many", "f != 0"),
        ),
    ),
    (
        "lv prg",
        (
            ("zero", "n % 10 = 0 or n % 100 = 11..19 or v = 2 and f % 100 = 11..19"),
            (
                "one",
                "n % 10 = 1 and n % 100 != 11 or v = 2 and f % 10 = 1 and f % 100 != 11 "
                "or v != 2 and f % 10 = 1",
            ),
        ),
    ),
    (
        "mo ro",
        (("one", "i = 1 and v = 0"), ("few", "v != 0 or n = 0 or n != 1 and n % 100 = 1..19")),
    ),
    (
        "ar ars",
        (
            ("zero", "n = 0"),
            ("one", "n = 1"),
            ("two", "n = 2"),
            ("few", "n % 100 = 3..10"),
            ("many", "n % 100 = 11..99"),
        ),
    ),
    ("he iw", (("one", "i = 1 and v = 0 or i = 0 and v != 0"), ("two", "i = 2 and v = 0"))),
    (
        "ga",
        (("one", "n = 1"), ("two", "n = 2"), ("few", "n = 3..6"), ("many", "n = 7..10")),
    ),
    (
        "cy",
        (
            ("zero", "n = 0"),
            ("one", "n = 1"),
            ("two", "n = 2"),
            ("few", "n = 3"),
            ("many", "n = 6"),
        ),
    ),
    (
        "gd",
        (("one", "n = 1,11"), ("two", "n = 2,12"), ("few", "n = 3..10,13..19")),
    ),
    (
        "mt",
        (
            ("one", "n = 1"),
            ("two", "n = 2"),
            ("few", "n = 0 or n % 100 = 3..10"),
            ("many", "n % 100 = 11..19"),
        ),
    ),
]

_BY_LANGUAGE = {code: rules for codes, rules in _RULES for code in codes.split()}


@functools.cache
def _compiled(language: str):
    """The rules of a language code such as ``pt-br`` (its own, else its base language's)."""
    code = language.lower().replace("_", "-")
    rules = _BY_LANGUAGE.get(code)
    if rules is None:
        rules = _BY_LANGUAGE.get(code.split("-", 1)[0], ())
    return tuple((category, _parse_rule(rule)) for category, rule in rules)


def plural_category(language: str, count: int | str) -> str:
    """The CLDR plural category of ``count`` (an int, or a decimal as text) in ``language``."""
    operands = _operands(count)
    if operands is None:
        return "other"
    for category, condition in _compiled(language):
        if condition(operands):
            return category
    return "other"


def _operands(count: int | str) -> dict[str, Decimal] | None:
    """CLDR's operands: n (absolute value), i (integer digits), v and w (visible fraction
    digits, with and without trailing zeros), f and t (those digits as a number), e."""
    text = str(count).strip().lstrip("+-")
    whole, _, fraction = text.partition(".")
    try:
        n = Decimal(text)
        i = Decimal(whole or "0")
    except InvalidOperation:
        return None
    if not fraction.isdigit() and fraction:
        return None
    trimmed = fraction.rstrip("0")
    return {
        "n": n,
        "i": i,
        "v": Decimal(len(fraction)),
        "w": Decimal(len(trimmed)),
        "f": Decimal(fraction or "0"),
        "t": Decimal(trimmed or "0"),
        "e": Decimal(0),
        "c": Decimal(0),
    }


_RELATION = re.compile(r"([nivwftec])\s*(?:%\s*(\d+))?\s*(!=|=)\s*([\d.,]+)")


def _parse_rule(rule: str):
    """A CLDR condition (``or`` of ``and`` of relations) as a function of the operands."""
    alternatives = []
    for conjunction in rule.split(" or "):
        relations = []
        for relation in conjunction.split(" and "):
            m = _RELATION.fullmatch(relation.strip())
            if m is None:
                raise ValueError(f"unreadable plural rule {relation!r}")
            operand, modulo, op, ranges = m.groups()
            spans = []
            for item in ranges.split(","):
                low, _, high = item.partition("..")
                spans.append((Decimal(low), Decimal(high or low)))
            relations.append((operand, Decimal(modulo) if modulo else None, op == "=", spans))
        alternatives.append(relations)

    def matches(operands: dict[str, Decimal]) -> bool:
        return any(all(_holds(operands, *rel) for rel in rels) for rels in alternatives)

    return matches


def _holds(operands: dict, operand: str, modulo, equal: bool, spans: list) -> bool:
    value = operands[operand]
    if modulo is not None:
        value = value % modulo
    # A range holds integers only: 2.5 is not in 2..4.
    inside = value == value.to_integral_value() and any(lo <= value <= hi for lo, hi in spans)
    return inside if equal else not inside
