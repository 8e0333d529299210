"""Definition lists and list tightness, decided as Goldmark decides them.

mdit-py-plugins' deflist takes a one-line term and markdown-it decides a list's
tightness with CommonMark's reference rule; Goldmark makes every line of the paragraph
before a ``: `` line a term, decides tightness for each definition on its own, and
forgets the blank line before a table it built out of a paragraph. These core rules
rewrite the parsed tokens to match.
"""

from __future__ import annotations

import re

from .chars import ASCII_WS
from .library_internals import Token

# --- definition lists: every line of the paragraph before ": " is a term ------------------
# mdit's deflist only takes a one-line term; in Goldmark a ": " line interrupts any
# paragraph and each of that paragraph's lines becomes a <dt>.

_DD_START_RE = re.compile(r":[ \t]")


def _deflist_tokens(terms: list[str], descriptions: list[str], block: Token, open_list: bool):
    level, out = block.level, []

    def push(kind: str, tag: str, nesting: int, depth: int, hidden: bool = False) -> Token:
        token = Token(kind, tag, nesting, level=level + depth, block=True, hidden=hidden)
        out.append(token)
        return token

    def inline(content: str, depth: int) -> None:
        token = push("inline", "", 0, depth)
        token.content, token.children, token.map = content, [], block.map

    if open_list:
        push("dl_open", "dl", 1, 0)
    for term in terms:
        push("dt_open", "dt", 1, 1)
        inline(term.rstrip(ASCII_WS), 2)
        push("dt_close", "dt", -1, 1)
    for description in descriptions:
        push("dd_open", "dd", 1, 1)
        push("paragraph_open", "p", 1, 2, hidden=True)
        inline(description, 3)
        push("paragraph_close", "p", -1, 2, hidden=True)
        push("dd_close", "dd", -1, 1)
    push("dl_close", "dl", -1, 0)
    return out


def _paragraph_to_deflist(tokens: list[Token], i: int, out: list[Token]) -> list[Token] | None:
    lines = tokens[i + 1].content.split("\n")
    first = next((k for k in range(1, len(lines)) if _DD_START_RE.match(lines[k])), None)
    if first is None:
        return None
    descriptions: list[list[str]] = []
    for line in lines[first:]:
        if _DD_START_RE.match(line):
            descriptions.append([line[1:].lstrip(" \t")])
        else:
            descriptions[-1].append(line)
    merge = bool(out) and out[-1].type == "dl_close" and out[-1].level == tokens[i].level
    if merge:
        out.pop()
    texts = ["\n".join(d).strip(ASCII_WS) for d in descriptions]
    return _deflist_tokens(lines[:first], texts, tokens[i], open_list=not merge)


def deflist_terms_core(state) -> None:
    tokens, out, i = state.tokens, [], 0
    while i < len(tokens):
        token = tokens[i]
        # Inside containers the ": " line would be a lazy continuation in Goldmark.
        if token.type == "paragraph_open" and token.level == 0 and "\n:" in tokens[i + 1].content:
            replaced = _paragraph_to_deflist(tokens, i, out)
            if replaced is not None:
                out.extend(replaced)
                i += 3
                continue
        out.append(token)
        i += 1
    state.tokens = out


# --- definition lists: Goldmark decides tightness per description -------------------------
# A description is tight when no blank line comes before its ":" line; then Goldmark
# writes its first paragraph without <p> (later paragraphs, after a blank line, keep it).


def deflist_tightness_core(state) -> None:
    tokens = state.tokens
    lines = None
    for i, token in enumerate(tokens):
        if token.type != "dd_open" or not token.map:
            continue
        if lines is None:
            lines = state.src.split("\n")
        first_child = tokens[i + 1].map if i + 1 < len(tokens) else None
        start = (first_child or token.map)[0]
        loose = start > 0 and not lines[start - 1].strip(ASCII_WS + ">")
        first = True
        for inner in tokens[i + 1 :]:
            if inner.type == "dd_close" and inner.level == token.level:
                break
            if inner.level != token.level + 1:
                continue
            if inner.type == "paragraph_open":
                first = first and inner is tokens[i + 1]
            if inner.type in ("paragraph_open", "paragraph_close"):
                inner.hidden = first and not loose
            elif inner.nesting != -1:
                first = False


# --- list tightness: Goldmark's rule ------------------------------------------------------
# A list is loose when an item, or a block inside an item after its first, follows a
# blank line. Goldmark builds tables out of paragraphs and the table forgets the blank
# line before it, so "item, blank line, table" stays tight there.


def _blank_before(lines: list[str], token: Token) -> bool:
    if token.type == "table_open" or not token.map or token.map[0] == 0:
        return False
    return not lines[token.map[0] - 1].strip(ASCII_WS + ">")


def _list_is_tight(tokens: list[Token], start: int, lines: list[str]) -> bool:
    level = tokens[start].level
    first_item = True
    for i in range(start + 1, len(tokens)):
        token = tokens[i]
        if token.level == level and token.nesting == -1:
            break
        if token.level == level + 1 and token.type == "list_item_open":
            if not first_item and _blank_before(lines, token):
                return False
            first_item, first_child = False, True
        elif token.level == level + 2 and token.nesting >= 0 and token.block:
            if not first_child and _blank_before(lines, token):
                return False
            first_child = False
    return True


def list_tightness_core(state) -> None:
    tokens, lines = state.tokens, None
    for i, token in enumerate(tokens):
        if token.type not in ("bullet_list_open", "ordered_list_open"):
            continue
        lines = lines or state.src.split("\n")
        tight = _list_is_tight(tokens, i, lines)
        for inner in tokens[i + 1 :]:
            if inner.level == token.level and inner.nesting == -1:
                break
            if inner.level == token.level + 2 and inner.type in (
                "paragraph_open",
                "paragraph_close",
            ):
                inner.hidden = tight
