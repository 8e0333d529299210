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
        _pairs(state, state.delimiters, markers)
        for meta in state.tokens_meta:
            if meta and "delimiters" in meta:
                _pairs(state, meta["delimiters"], markers)

    return post


def _pairs(state: StateInline, delimiters: list[Delimiter], markers: frozenset[int]) -> None:
    i = len(delimiters) - 1
    while i >= 0:
        opener = delimiters[i]
        if opener.marker not in markers or opener.end == -1:
            i -= 1
            continue
        closer = delimiters[opener.end]
        opening = state.tokens[opener.token]
        if not opening.meta or "tag" not in opening.meta:
            i -= 1
            continue
        tag = opening.meta["tag"]
        double = (
            i > 0
            and delimiters[i - 1].end == opener.end + 1
            and delimiters[i - 1].marker == opener.marker
            and delimiters[i - 1].token == opener.token - 1
            and delimiters[opener.end + 1].token == closer.token + 1
        )
        _set_tag(opening, tag, 1)
        _set_tag(state.tokens[closer.token], tag, -1)
        if double:
            state.tokens[delimiters[i - 1].token].content = ""
            state.tokens[delimiters[opener.end + 1].token].content = ""
            i -= 1
        i -= 1


def _set_tag(token: Token, tag: str, nesting: int) -> None:
    token.type = "gm_tag_open" if nesting == 1 else "gm_tag_close"
    token.tag, token.nesting, token.content = tag, nesting, ""
