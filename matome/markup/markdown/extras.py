"""Hugo's Extras extension: ``~sub~``, ``^sup^``, ``++ins++``, ``==mark==``, ``~~del~~``.

Each tag is a run of one character that Goldmark reads as a delimiter, like emphasis: a
run of one or two (``==`` and ``++`` need two, ``~~`` is the deleted text tag), flanked as
CommonMark flanks ``*``; an opening and a closing run of the same character make the tag
of the opening one. With the GFM strikethrough extension also on, a single ``~`` is
struck through rather than subscript, as Goldmark's parser priorities decide.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from .chars import is_go_space, is_punct_or_symbol
from .inline import mark_pairs
from .library_internals import Delimiter, StateInline, Token


@dataclass(frozen=True)
class InlineTag:
    char: str
    minimum: int  # the shortest run that opens or closes it
    html: str


DELETE = InlineTag("~", 2, "del")
STRIKETHROUGH = InlineTag("~", 1, "del")
SUBSCRIPT = InlineTag("~", 1, "sub")
SUPERSCRIPT = InlineTag("^", 1, "sup")
INSERT = InlineTag("+", 2, "ins")
MARK = InlineTag("=", 2, "mark")


def tags_by_char(extras: frozenset[str], strikethrough: bool) -> dict[str, list[InlineTag]]:
    """The tags of each character, in Goldmark's parser order (the first that takes a run
    wins); empty when no extra is on."""
    if not extras:
        return {}
    chosen = [tag for name, tag in _EXTRAS if name in extras]
    if "~" in {t.char for t in chosen} and strikethrough:
        chosen.append(STRIKETHROUGH)
    order = [DELETE, STRIKETHROUGH, INSERT, MARK, SUPERSCRIPT, SUBSCRIPT]
    by_char: dict[str, list[InlineTag]] = {}
    for tag in order:
        if tag in chosen:
            by_char.setdefault(tag.char, []).append(tag)
    return by_char


_EXTRAS = [
    ("delete", DELETE),
    ("insert", INSERT),
    ("mark", MARK),
    ("subscript", SUBSCRIPT),
    ("superscript", SUPERSCRIPT),
]


def _flanks(src: str, start: int, end: int, superscript: bool) -> tuple[bool, bool]:
    """(can open, can close) of the run ``src[start:end]``, as Goldmark's ScanDelimiter."""
    before = src[start - 1] if start > 0 else "\n"
    after = src[end] if end < len(src) else " "
    if superscript and after in "+-'":
        after = "z"  # Hugo lets ^-1^ and ^+^ be superscript
    before_punct, after_punct = _punct(before), _punct(after)
    before_space, after_space = is_go_space(before), is_go_space(after)
    left = not after_space and (not after_punct or before_space or before_punct)
    right = not before_space and (not before_punct or after_space or after_punct)
    return left, right


def _punct(ch: str) -> bool:
    return is_punct_or_symbol(ch) if ch.isascii() else unicodedata.category(ch)[0] in "PS"


def tags_rule(tags: dict[str, list[InlineTag]]):
    """The inline rule reading the runs of these tags' characters."""

    def rule(state: StateInline, silent: bool) -> bool:
        src, start = state.src, state.pos
        char = src[start]
        candidates = tags.get(char)
        if silent or candidates is None or (start > 0 and src[start - 1] == char):
            return False
        end = start
        while end < state.posMax and src[end] == char:
            end += 1
        length = end - start
        tag = next((t for t in candidates if t.minimum <= length <= 2), None)
        if tag is None:
            return False
        can_open, can_close = _flanks(src, start, end, tag is SUPERSCRIPT)
        for _ in range(length):
            token = state.push("text", "", 0)
            token.content = char
            token.meta = {"tag": tag.html}
            state.delimiters.append(
                Delimiter(
                    marker=ord(char),
                    length=length,
                    token=len(state.tokens) - 1,
                    end=-1,
                    open=can_open,
                    close=can_close,
                )
            )
        state.pos = end
        return True

    return rule


def tags_post(chars: frozenset[str]):
    """Turn matched runs into tags (after markdown-it has paired the delimiters)."""
    markers = frozenset(ord(c) for c in chars)

    def post(state: StateInline) -> None:
        def mark(opener: Delimiter):
            if opener.marker not in markers:
                return None
            meta = state.tokens[opener.token].meta
            if not meta or "tag" not in meta:
                return None
            tag = meta["tag"]
            return lambda token, nesting: _set_tag(token, tag, nesting)

        mark_pairs(state, mark)

    return post


def _set_tag(token: Token, tag: str, nesting: int) -> None:
    token.type = "gm_tag_open" if nesting == 1 else "gm_tag_close"
    token.tag, token.nesting, token.content = tag, nesting, ""
