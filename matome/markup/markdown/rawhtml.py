"""Raw HTML as Goldmark reads it, and what Hugo writes for it when raw HTML is off.

Goldmark's HTML blocks and declarations are a little stricter than markdown-it's (a lone
tag may be followed only by ASCII whitespace, a declaration needs an upper-case letter),
and with ``unsafe = false`` Hugo replaces raw HTML by an "omitted" comment - twice when a
block's closing tag is on a later line - and drops HTML comments without a trace.
"""

from __future__ import annotations

from .library_internals import HTML_SEQUENCES, StateInline


def lowercase_declaration(state: StateInline, silent: bool) -> bool:
    """``<!doctype ...>`` is text for Goldmark: its declarations need an upper-case letter."""
    pos = state.pos
    src = state.src
    if src.startswith("<!", pos) and pos + 2 < state.posMax and src[pos + 2].islower():
        if not silent:
            state.pending += "<"
        state.pos += 1
        return True
    return False


def html_block_rule(html_block):
    """HTML block type 7 (a lone tag) may only be followed by ASCII whitespace in Goldmark.

    markdown-it's pattern uses Python's Unicode ``\\s``, so "<br>　" would become a block.
    """
    other_starts = [start for start, _end, _ in HTML_SEQUENCES[:-1]]

    def rule(state, start_line: int, end_line: int, silent: bool) -> bool:
        first = state.bMarks[start_line] + state.tShift[start_line]
        line = state.src[first : state.eMarks[start_line]]
        tail = line.rstrip(" \t")
        unicode_tail = tail and tail[-1] != ">" and tail.rstrip().endswith(">")
        if unicode_tail and not any(p.search(line) for p in other_starts):
            return False
        return html_block(state, start_line, end_line, silent)

    return rule


# What Hugo writes in place of raw HTML when ``unsafe`` is off.
OMITTED = "<!-- raw HTML omitted -->"
# markdown-it's start and end patterns of the HTML block kinds that end with a closing
# sequence (script/pre/style/textarea, comment, processing instruction, declaration, CDATA).
_HTML_BLOCK_CLOSERS = [(start, end) for start, end, _ in HTML_SEQUENCES[:5]]


def is_comment(raw: str) -> bool:
    return len(raw) > 4 and raw.startswith("<!--")


def html_block_has_closure(content: str) -> bool:
    """Goldmark writes a second omission comment when an HTML block's end tag is on a later line."""
    first, _, rest = content.lstrip(" ").partition("\n")
    for start, end in _HTML_BLOCK_CLOSERS:
        if start.search(first):
            return not end.search(first) and bool(end.search(rest))
    return False
