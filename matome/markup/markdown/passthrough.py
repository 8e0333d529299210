"""Hugo's Passthrough extension: text between configured delimiters passed through raw.

Hugo reads every delimiter inline, the block ones first: from an opening delimiter to the
first closing one after it (across lines of the paragraph), delimiters included, with no
Markdown inside and no HTML escaping on output. An opening delimiter without a closing
one is text; ``\\\\`` before an opening delimiter keeps it text. A paragraph holding a
passthrough with block delimiters is then cut there: the passthrough becomes a block of
its own (written as it is, with no newline after it) between what is left of the
paragraph. Math on Hugo sites is written this way (``$$...$$``, ``\\[...\\]``, ``\\(...\\)``).
"""

from __future__ import annotations

import re

from .library_internals import StateInline, Token

Delimiters = tuple[tuple[str, str], ...]

_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def _unescaped(text: str) -> str:
    """Text as Goldmark writes a text segment: backslash escapes resolved."""
    return _ESCAPED.sub(r"\1", text)


def passthrough_rule(block: Delimiters, inline: Delimiters):
    delimiters = block + inline
    firsts = frozenset(open_[0] for open_, _ in delimiters) | {"\\"}

    def rule(state: StateInline, silent: bool) -> bool:
        src, pos = state.src, state.pos
        if src[pos] not in firsts:
            return False
        found = _opening(delimiters, src, pos)
        if found is None:
            if not src.startswith("\\\\", pos) or state.posMax - pos <= 2:
                return False
            escaped = _opening(delimiters, src, pos + 2)
            if escaped is None:
                return False
            end = pos + 2 + len(escaped[0])
            if not silent:
                state.push("text", "", 0).content = _unescaped(src[pos:end])
            state.pos = end
            return True
        opening, closing = found
        close = src.find(closing, pos + len(opening), state.posMax)
        if close < 0:
            if not silent:
                state.push("text", "", 0).content = _unescaped(opening)
            state.pos = pos + len(opening)
            return True
        end = close + len(closing)
        if end - pos == len(opening) + len(closing):
            return False  # an empty one is not a passthrough
        if not silent:
            token = state.push("passthrough_inline", "", 0)
            token.content = src[pos:end]
            token.meta = {"open": opening, "close": closing, "block": found in block}
        state.pos = end
        return True

    return rule


def _opening(delimiters: Delimiters, src: str, pos: int) -> tuple[str, str] | None:
    return next((d for d in delimiters if src.startswith(d[0], pos)), None)


def passthrough_blocks_core(state) -> None:
    """Cut paragraphs at their block passthroughs (Hugo's passthrough transformer)."""
    tokens = state.tokens
    if not any(t.type == "inline" and any(_is_block(c) for c in t.children or []) for t in tokens):
        return
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        inline = tokens[i + 1] if i + 1 < len(tokens) else None
        if (
            token.type == "paragraph_open"
            and inline is not None
            and any(_is_block(c) for c in inline.children or [])
        ):
            out.extend(_cut(token, inline))
            i += 3
            continue
        out.append(token)
        i += 1
    state.tokens = out


def _is_block(token: Token) -> bool:
    return token.type == "passthrough_inline" and token.meta["block"]


def _cut(paragraph: Token, inline: Token) -> list[Token]:
    pieces: list[list[Token] | Token] = []
    current: list[Token] = []
    for child in inline.children:
        if _is_block(child):
            if current:
                pieces.append(current)
            pieces.append(child)
            current = []
        else:
            current.append(child)
    if current:
        pieces.append(current)
    out: list[Token] = []
    for n, piece in enumerate(pieces):
        if isinstance(piece, Token):
            block = Token("passthrough_block", "", 0, block=True, level=paragraph.level)
            block.map, block.content, block.meta = paragraph.map, piece.content, dict(piece.meta)
            out.append(block)
            continue
        if paragraph.hidden:  # a tight list item's text: trimmed next to a block
            _trim(piece, at_end=n + 1 < len(pieces), at_start=n > 0)
        open_ = Token("paragraph_open", "p", 1, block=True, level=paragraph.level)
        open_.map, open_.hidden = paragraph.map, paragraph.hidden
        text = Token("inline", "", 0, level=paragraph.level + 1, children=piece)
        text.map = paragraph.map
        close = Token("paragraph_close", "p", -1, block=True, level=paragraph.level)
        close.hidden = paragraph.hidden
        out += [open_, text, close]
    # Attributes given to the paragraph belong to what comes last of it.
    last = out[-1] if out[-1].type == "passthrough_block" else out[-3]
    if paragraph.attrs or paragraph.meta:
        last.attrs, last.meta = dict(paragraph.attrs), {**last.meta, **paragraph.meta}
    return out


def _trim(children: list[Token], at_end: bool, at_start: bool) -> None:
    if at_end and children and children[-1].type == "text":
        children[-1].content = children[-1].content.rstrip(" \t")
    if at_start and children and children[0].type == "text":
        children[0].content = children[0].content.lstrip(" \t")
