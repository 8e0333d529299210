"""Inline rules where Goldmark differs from markdown-it: text, line breaks, backslashes,
strikethrough and task list checkboxes.

Each rule here replaces or joins markdown-it's own so that the inline tokens come out as
Goldmark's nodes would: text stops wherever a Goldmark rule may start, spaces before a
line break are trimmed as Goldmark trims them, a single ``~`` strikes through, and a task
checkbox is only read at the start of a list item's first paragraph.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .chars import ASCII_PUNCT
from .library_internals import Delimiter, StateInline, Token
from .linkify import LINK_START, LINK_START_RE, after_inline_node

# --- text rule ---------------------------------------------------------------------------------
# markdown-it's text rule swallows letters, spaces, quotes and dots, so rules that Goldmark
# triggers on those (typographer, linkify) would never run. This one also stops at quotes,
# dots and wherever Goldmark would try to linkify.

_TERMINATORS = "\n!#$%&*+\\-:<=>@\\[\\\\\\]^_`{}~'\"."


def text_rule(linkify: bool, also: str = ""):
    """``also``: more characters a rule starts at (a passthrough's ``$``)."""
    stops = f"[{_TERMINATORS}{re.escape(also)}]"
    if linkify:
        stops += rf"|(?<![^ \n(~`])(?={LINK_START})"
    pattern = re.compile(stops)

    def text(state: StateInline, silent: bool) -> bool:
        pos = state.pos
        if linkify and after_inline_node(state) and LINK_START_RE.match(state.src, pos):
            return False
        m = pattern.search(state.src, pos, state.posMax)
        stop = m.start() if m else state.posMax
        if stop == pos:
            return False
        if not silent:
            state.append_pending(state.src[pos:stop])
        state.pos = stop
        return True

    return text


# --- line breaks and backslashes ----------------------------------------------------------


def hard_break_keep(spaces: str) -> str:
    """Whitespace Goldmark (1.8.6) leaves before a hard break: all but the last three."""
    return spaces[:-3] if len(spaces) > 3 else ""


def newline_rule(state: StateInline, silent: bool) -> bool:
    """Goldmark trims spaces and tabs before a line break; two spaces make it hard."""
    if state.src[state.pos] != "\n":
        return False
    if not silent:
        pending = state.pending
        hard = pending.endswith("  ")
        stripped = pending.rstrip(" \t")
        if stripped != pending:
            state.pending = stripped + (hard_break_keep(pending[len(stripped) :]) if hard else "")
        state.push("hardbreak" if hard else "softbreak", "br", 0)
    pos = state.pos + 1
    while pos < state.posMax and state.src[pos] in " \t":
        pos += 1
    state.pos = pos
    return True


def escape_rule(escape, escaped_space: bool = False):
    """A backslash before anything but punctuation or a newline is just a backslash.

    markdown-it's rule would swallow the next character with it, hiding the spaces
    of a "\\  " hard break. With the CJK extension's ``escapedSpace``, a backslash and
    the space after it are written as nothing.
    """

    def rule(state: StateInline, silent: bool) -> bool:
        src, pos = state.src, state.pos
        if src[pos] != "\\" or pos + 1 >= state.posMax:
            return escape(state, silent)
        following = src[pos + 1]
        if following == " " and escaped_space:
            state.pos = pos + 2
            return True
        if following == "\n" or following in ASCII_PUNCT:
            return escape(state, silent)
        if not silent:
            state.append_pending("\\")
        state.pos = pos + 1
        return True

    return rule


# --- strikethrough: Goldmark accepts ~one~ as well as ~~two~~ tildes ------------------------


def strikethrough_tokenize(state: StateInline, silent: bool) -> bool:
    start = state.pos
    if silent or state.src[start] != "~":
        return False
    if start > 0 and state.src[start - 1] == "~":
        return False
    scanned = state.scanDelims(start, True)
    if scanned.length > 2:
        return False
    for _ in range(scanned.length):
        token = state.push("text", "", 0)
        token.content = "~"
        state.delimiters.append(
            Delimiter(
                marker=0x7E,
                length=scanned.length,
                token=len(state.tokens) - 1,
                end=-1,
                open=scanned.can_open,
                close=scanned.can_close,
            )
        )
    state.pos += scanned.length
    return True


def mark_pairs(
    state: StateInline, mark: Callable[[Delimiter], Callable[[Token, int], None] | None]
) -> None:
    """Turn the delimiter runs markdown-it has paired into tags: ``mark(opener)`` says how
    to mark the opening (nesting 1) and closing (-1) tokens of a pair, or None to leave it.
    A doubled run (``~~x~~``) is one pair, its inner delimiters emptied."""
    _mark_pairs(state, state.delimiters, mark)
    for meta in state.tokens_meta:
        if meta and "delimiters" in meta:
            _mark_pairs(state, meta["delimiters"], mark)


def _mark_pairs(state: StateInline, delimiters: list[Delimiter], mark) -> None:
    i = len(delimiters) - 1
    while i >= 0:
        opener = delimiters[i]
        set_tag = mark(opener) if opener.end != -1 else None
        if set_tag is None:
            i -= 1
            continue
        closer = delimiters[opener.end]
        double = (
            i > 0
            and delimiters[i - 1].end == opener.end + 1
            and delimiters[i - 1].marker == opener.marker
            and delimiters[i - 1].token == opener.token - 1
            and delimiters[opener.end + 1].token == closer.token + 1
        )
        set_tag(state.tokens[opener.token], 1)
        set_tag(state.tokens[closer.token], -1)
        if double:
            state.tokens[delimiters[i - 1].token].content = ""
            state.tokens[delimiters[opener.end + 1].token].content = ""
            i -= 1
        i -= 1


def _strike(token: Token, nesting: int) -> None:
    kind = "s_open" if nesting == 1 else "s_close"
    token.type, token.tag, token.nesting, token.content = kind, "del", nesting, ""


def strikethrough_post(state: StateInline) -> None:
    mark_pairs(state, lambda opener: _strike if opener.marker == 0x7E else None)


# --- task list checkboxes -------------------------------------------------------------------

_TASK_RE = re.compile(r"\[([ \t\n\f\rxX])\][ \t\n\f\r]*")


def task_rule(state: StateInline, silent: bool) -> bool:
    if state.pos != 0 or state.src[0] != "[" or not state.env.get("_task_ok"):
        return False
    if state.tokens or state.pending:
        return False
    m = _TASK_RE.match(state.src)
    if not m:
        return False
    if not silent:
        token = state.push("task_checkbox", "input", 0)
        token.meta = {"checked": m.group(1) in "xX"}
    state.pos = m.end()
    return True


# --- inline parsing with per-block context --------------------------------------------------


def core_inline(state) -> None:
    """Parse inline content, telling the task-list rule which blocks start a list item."""
    tokens, env = state.tokens, state.env
    for i, token in enumerate(tokens):
        if token.type != "inline":
            continue
        env["_task_ok"] = (
            i >= 2
            and tokens[i - 1].type == "paragraph_open"
            and tokens[i - 2].type == "list_item_open"
        )
        state.md.inline.parse(token.content, state.md, env, token.children)
    env["_task_ok"] = False
