"""Goldmark's typographer: dashes, ellipses, angle quotes and quotes as HTML entities.

markdown-it's smartquotes pair quotes across the whole block and output characters;
Goldmark decides each quote on the spot from its neighbours (with a count of open quotes
kept for the whole document, as Goldmark 1.8.6 does) and outputs HTML entities, so this
is a reimplementation of those rules. The markdownify fast path calls :func:`typography`
directly, so both paths share one set of rules.
"""

from __future__ import annotations

from .chars import ASCII_PUNCT, ASCII_SPACE, is_go_space, is_punct, is_punct_or_symbol
from .library_internals import StateInline


class QuoteCount:
    """Quotes opened and not yet closed, single and double, in the document so far."""

    __slots__ = ("double", "single")

    def __init__(self) -> None:
        self.single = 0
        self.double = 0


def _byte_len(text: str) -> int:
    """UTF-8 length, capped: Goldmark's rules compare line lengths in bytes with small numbers."""
    return len(text[:8].encode("utf-8", "surrogatepass"))


def _byte_at(text: str, index: int) -> str:
    """The byte at ``index`` as a 1-char string (continuation bytes become '\\x80')."""
    raw = text[: index + 1].encode("utf-8", "surrogatepass")
    return chr(raw[index]) if index < len(raw) and raw[index] < 0x80 else "\x80"


def _rune_at_byte(text: str, index: int) -> str:
    raw = text[:8].encode("utf-8", "surrogatepass")
    while index > 0 and (raw[index] & 0xC0) == 0x80:
        index -= 1
    return raw[index:].decode("utf-8", "ignore")[:1] or " "


def _flanking(before: str, after: str) -> tuple[bool, bool]:
    before_punct, after_punct = is_punct_or_symbol(before), is_punct_or_symbol(after)
    before_space, after_space = is_go_space(before), is_go_space(after)
    left = not after_space and (not after_punct or before_space or before_punct)
    right = not before_space and (not before_punct or after_space or after_punct)
    return left, right


def _quote_delims(line: str, before: str) -> tuple[bool, bool]:
    """Goldmark's ScanDelimiter on a run of the quote at ``line[0]``: (can_open, can_close)."""
    end = 1
    while end < len(line) and line[end] == line[0]:
        end += 1
    after = line[end] if end < len(line) else " "
    return _flanking(before, after)


def _ascii_punct_or_space(ch: str) -> bool:
    return ch in ASCII_PUNCT or ch in ASCII_SPACE


def _apostrophe(line: str, before: str, blen: int, can_open: bool, can_close: bool) -> bool:
    c1 = _byte_at(line, 1) if blen > 1 else ""
    decade = blen > 3 and c1.isdigit() and _byte_at(line, 2).isdigit() and _byte_at(line, 3) == "s"
    if can_open and not can_close and decade:  # '90s
        after = _rune_at_byte(line, 4) if blen > 4 else " "
        if is_go_space(after) or is_punct_or_symbol(after):
            return True
    if blen > 1 and (is_punct(before) or is_go_space(before)) and c1 in ("t", "e", "n", "l"):
        return True  # 'tis, 'em, 'n', 'll
    return (
        blen > 1 and (before.isdecimal() or before.isalpha()) and _rune_at_byte(line, 1).isalpha()
    )


def _closes(line: str, blen: int, can_open: bool, can_close: bool) -> bool:
    if can_close and not can_open:
        return True
    if not (can_close and can_open and blen > 1 and is_punct(_rune_at_byte(line, 1))):
        return False
    return blen == 2 or _ascii_punct_or_space(_byte_at(line, 2))


def _single_quote(subs, line, before, blen, counter) -> str | None:
    can_open, can_close = _quote_delims(line, before)
    if _apostrophe(line, before, blen, can_open, can_close):
        return subs["apostrophe"]
    if can_open and not can_close:
        c1 = _byte_at(line, 1) if blen > 1 else ""
        c12 = c1 + (_byte_at(line, 2) if blen > 2 else "")
        if c1 in ("s", "m", "t", "d") and (blen < 3 or _ascii_punct_or_space(_byte_at(line, 2))):
            return subs["rightsinglequote"]  # 's 'm 't 'd
        if c12 in ("ve", "ll", "re") and (blen < 4 or _ascii_punct_or_space(_byte_at(line, 3))):
            return subs["rightsinglequote"]  # 've 'll 're
        counter.single += 1
        return subs["leftsinglequote"]
    if blen > 2 and not _rune_at_byte(line, 1).isdecimal():
        return subs["rightsinglequote"]
    if counter.single > 0 and _closes(line, blen, can_open, can_close):
        counter.single -= 1
        return subs["rightsinglequote"]
    return None


def _double_quote(subs, line, before, blen, counter) -> str | None:
    can_open, can_close = _quote_delims(line, before)
    if can_open and not can_close:
        counter.double += 1
        return subs["leftdoublequote"]
    if counter.double > 0 and _closes(line, blen, can_open, can_close):
        if blen > 1 and line[1:2] == '"' and before.isdecimal():
            return None
        counter.double -= 1
        return subs["rightdoublequote"]
    return None


def typography(subs: dict[str, str], src: str, pos: int, before: str, counter: QuoteCount):
    """Goldmark's typographer at ``src[pos]``: ``(entity, chars consumed)`` or ``None``."""
    c = src[pos]
    if c == "-":
        if src.startswith("---", pos):
            return subs["emdash"], 3
        if src.startswith("--", pos):
            return subs["endash"], 2
        return None
    if c == ".":
        return (subs["ellipsis"], 3) if src.startswith("...", pos) else None
    if c == "<":
        return (subs["leftanglequote"], 2) if src.startswith("<<", pos) else None
    if c == ">":
        return (subs["rightanglequote"], 2) if src.startswith(">>", pos) else None
    # Quotes: the rest of the source line, with its newline when it has one.
    line = _line_at(src, pos)
    blen = _byte_len(line)
    if c == "'":
        value = _single_quote(subs, line, before, blen, counter)
    elif c == '"':
        value = _double_quote(subs, line, before, blen, counter)
    else:
        return None
    return (value, 1) if value is not None else None


def _line_at(src: str, pos: int) -> str:
    """Rest of the line at ``pos`` with its newline; a block's last line has none in Goldmark."""
    stop = src.find("\n", pos)
    return src[pos : stop + 1] if stop >= 0 else src[pos:]


def typographer_rule(subs: dict[str, str]):
    def typographer(state: StateInline, silent: bool) -> bool:
        if silent or state.src[state.pos] not in "-.<>'\"":
            return False
        counter = state.env.get("_quotes")
        if counter is None:  # Goldmark (1.8.6) counts open quotes across the whole document
            counter = state.env["_quotes"] = QuoteCount()
        before = state.src[state.pos - 1] if state.pos > 0 else "\n"
        found = typography(subs, state.src, state.pos, before, counter)
        if found is None:
            return False
        token = state.push("typographer", "", 0)
        token.content = found[0]
        state.pos += found[1]
        return True

    return typographer
