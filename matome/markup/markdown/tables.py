"""Goldmark's tables (the GFM table extension): a transformer of finished paragraphs.

Goldmark's table is a paragraph transformer, not a block rule: the delimiter row may
follow any paragraph line, the header may have fewer cells than the delimiter row
(missing cells are padded, without alignment), and every later line of the paragraph is
a row. markdown-it's GFM table rule is stricter, so this core rule builds tables out of
the paragraphs markdown-it has parsed instead.
"""

from __future__ import annotations

import re

from .chars import ASCII_WS
from .library_internals import Token

_ALIGN_RE = re.compile(r"[ \t]*(:?)-+(:?)[ \t]*")
_CELL_SPLIT_RE = re.compile(r"(?<!\\)\|")


def _table_alignments(line: str) -> list[str] | None:
    if not line or set(line) - set(" \t-|:") or set(line) == {"-"}:
        return None
    cols = line.split("|")
    if not cols[0].strip(ASCII_WS):
        cols = cols[1:]
    if cols and not cols[-1].strip(ASCII_WS):
        cols = cols[:-1]
    aligns = []
    for col in cols:
        m = _ALIGN_RE.fullmatch(col)
        if not m:
            return None
        left, right = m.group(1), m.group(2)
        aligns.append("center" if left and right else "left" if left else "right" if right else "")
    return aligns


def _table_cells(line: str) -> list[str]:
    line = line.strip(ASCII_WS)
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|"):
        line = line[:-1]
    if not line:
        return []
    return [cell.strip(ASCII_WS).replace("\\|", "|") for cell in _CELL_SPLIT_RE.split(line)]


def _table_tokens(header: list[str], rows: list[list[str]], aligns: list[str], para: Token):
    level, line_map = para.level, para.map
    out: list[Token] = []

    def push(kind: str, tag: str, nesting: int, depth: int, content: str | None = None) -> Token:
        token = Token(kind, tag, nesting, map=line_map, level=level + depth, block=True)
        if content is not None:
            token.content, token.children, token.block = content, [], True
        out.append(token)
        return token

    def row(cells: list[str], tag: str) -> None:
        push("tr_open", "tr", 1, 2)
        for i, align in enumerate(aligns):
            cell = push(f"{tag}_open", tag, 1, 3)
            if i < len(cells) and align:
                cell.attrs = {"style": f"text-align:{align}"}
            push("inline", "", 0, 4, cells[i] if i < len(cells) else "")
            push(f"{tag}_close", tag, -1, 3)
        push("tr_close", "tr", -1, 2)

    push("table_open", "table", 1, 0)
    push("thead_open", "thead", 1, 1)
    row(header, "th")
    push("thead_close", "thead", -1, 1)
    push("tbody_open", "tbody", 1, 1)
    for cells in rows:
        row(cells[: len(aligns)], "td")
    push("tbody_close", "tbody", -1, 1)
    push("table_close", "table", -1, 0)
    return out


def _paragraph_to_table(tokens: list[Token], i: int) -> list[Token] | None:
    block, inline = tokens[i], tokens[i + 1]
    lines = inline.content.split("\n")
    for n in range(1, len(lines)):
        aligns = _table_alignments(lines[n].strip(ASCII_WS))
        if aligns is None:
            continue
        header = _table_cells(lines[n - 1])
        if len(header) > len(aligns):
            return None
        rows = [_table_cells(line) for line in lines[n + 1 :]]
        table = _table_tokens(header, rows, aligns, block)
        if n == 1:
            return table
        inline.content = "\n".join(lines[: n - 1]).rstrip(ASCII_WS)
        rest = [block, inline, tokens[i + 2]]
        # A setext heading was a paragraph when Goldmark cut the table out of it.
        return [*table, *rest] if block.type == "heading_open" else [*rest, *table]
    return None


def _may_hold_table(tokens: list[Token], i: int) -> bool:
    token = tokens[i]
    if token.type != "paragraph_open" and not (
        token.type == "heading_open" and token.markup in ("-", "=")
    ):
        return False
    content = tokens[i + 1].content
    return "-" in content and ("|" in content or ":" in content)


def tables_core(state) -> None:
    tokens, out, i = state.tokens, [], 0
    while i < len(tokens):
        if _may_hold_table(tokens, i):
            replaced = _paragraph_to_table(tokens, i)
            if replaced is not None:
                out.extend(replaced)
                if replaced[-1].type == "table_close" and tokens[i].type == "heading_open":
                    i = _orphan_underline(state, tokens, i, out)
                i += 3
                continue
        out.append(tokens[i])
        i += 1
    state.tokens = out


def _orphan_underline(state, tokens: list[Token], i: int, out: list[Token]) -> int:
    """A setext heading that was all table: its underline is left on its own.

    "---" is then a thematic break; "===" is paragraph text, joined to a paragraph
    that follows directly. Returns the index to continue from (minus 3).
    """
    heading = tokens[i]
    if heading.markup == "-":
        out.append(
            Token("hr", "hr", 0, map=heading.map, level=heading.level, markup="---", block=True)
        )
        return i
    underline = state.src.split("\n")[heading.map[1] - 1].strip(ASCII_WS)
    follows = i + 3 < len(tokens) and tokens[i + 3].type == "paragraph_open"
    if follows and tokens[i + 3].map and tokens[i + 3].map[0] == heading.map[1]:
        tokens[i + 4].content = underline + "\n" + tokens[i + 4].content
        return i
    para = Token("paragraph_open", "p", 1, map=heading.map, level=heading.level, block=True)
    inline = Token("inline", "", 0, map=heading.map, level=heading.level + 1, content=underline)
    inline.children = []
    close = Token("paragraph_close", "p", -1, level=heading.level, block=True)
    out.extend([para, inline, close])
    return i
