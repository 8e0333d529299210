"""Block parsing fix-ups: Goldmark's trimming, link references and duplicate footnotes.

Small differences in how Goldmark reads blocks: it trims paragraph and heading text of
ASCII whitespace only, lets an indented line continue a paragraph that held link
reference definitions, and keeps the first definition of a repeated footnote label.
"""

from __future__ import annotations

from .chars import ASCII_WS
from .library_internals import MD_TRIM_CHARS

# --- block content trimming ----------------------------------------------------------------
# markdown-it trims paragraph and heading text with JavaScript's notion of whitespace,
# which includes U+3000 and U+00A0; Goldmark only trims ASCII spaces, so a paragraph
# may start with an ideographic space.


def ascii_trimmed(rule, kind: str):
    def wrapped(state, start_line: int, end_line: int, silent: bool) -> bool:
        first = len(state.tokens)
        ok = rule(state, start_line, end_line, silent)
        if ok and not silent:
            inline = state.tokens[first + 1]
            if kind == "heading":
                inline.content = _untrimmed_heading(state, start_line, inline.content)
            else:
                last = state.line - (1 if kind == "lheading" else 0)
                lines = state.getLines(start_line, last, state.blkIndent, False)
                inline.content = lines.strip(ASCII_WS)
        return ok

    return wrapped


def _untrimmed_heading(state, line_no: int, content: str) -> str:
    line = state.src[state.bMarks[line_no] + state.tShift[line_no] : state.eMarks[line_no]]
    body = line.lstrip("#").lstrip(ASCII_WS)
    rest = body.lstrip(MD_TRIM_CHARS)
    lead = body[: len(body) - len(rest)]
    return lead + content if lead and rest.startswith(content) else content


def reference_then_paragraph(reference, paragraph):
    """An indented line right after a link reference definition continues that paragraph.

    Goldmark (like CommonMark's reference parser) takes definitions out of a finished
    paragraph, so such a line is lazy paragraph text; markdown-it has already ended
    the definition and would start an indented code block there.
    """

    def wrapped(state, start_line: int, end_line: int, silent: bool) -> bool:
        ok = reference(state, start_line, end_line, silent)
        line = state.line
        continues = line < end_line and not state.isEmpty(line)
        if ok and not silent and continues and state.sCount[line] - state.blkIndent >= 4:
            paragraph(state, line, end_line, False)
        return ok

    return wrapped


# --- footnotes: the first definition of a label wins, as in Goldmark ----------------------


def footnote_first_definition_core(state) -> None:
    seen: set[str] = set()
    out, skip_level = [], None
    for token in state.tokens:
        if skip_level is not None:
            if token.type == "footnote_reference_close" and token.level == skip_level:
                skip_level = None
            continue
        if token.type == "footnote_reference_open":
            label = token.meta["label"]
            if label in seen:
                skip_level = token.level
                continue
            seen.add(label)
        out.append(token)
    state.tokens = out
