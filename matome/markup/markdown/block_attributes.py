"""Block attributes (``markup.goldmark.parser.attribute.block``): ``{.class #id k=v}``.

Goldmark reads a line that starts with an attribute list as a block of its own, which ends
a paragraph (and a block quote's or list item's lazy lines); Hugo then gives its
attributes to the block just before it, unless a blank line is between them or that block
is fenced code, and drops the line either way (the rest of the line after ``}`` too).
Attributes a block already has (a heading's ``{#id}``, its automatic ID) win. Each kind
of element writes only the attributes Goldmark's renderer lets it have.
"""

from __future__ import annotations

from .attributes import Attributes, attribute_text, read_attributes
from .chars import ASCII_WS
from .library_internals import Token

_GLOBAL = frozenset(
    [
        "accesskey", "autocapitalize", "autofocus", "class", "contenteditable", "dir",
        "draggable", "enterkeyhint", "hidden", "id", "inert", "inputmode", "is", "itemid",
        "itemprop", "itemref", "itemscope", "itemtype", "lang", "part", "role", "slot",
        "spellcheck", "style", "tabindex", "title", "translate",
    ]
)  # fmt: skip
_IMAGE = [
    "align", "border", "crossorigin", "decoding", "height", "importance", "intrinsicsize",
    "ismap", "loading", "referrerpolicy", "sizes", "srcset", "usemap", "width",
]  # fmt: skip
# Goldmark's attribute filters by element; ``data-*`` always passes.
ALLOWED = {
    "p": _GLOBAL,
    "blockquote": _GLOBAL | {"cite"},
    "ul": _GLOBAL | {"start", "reversed", "type"},
    "ol": _GLOBAL | {"start", "reversed", "type"},
    "hr": _GLOBAL | {"align", "color", "noshade", "size", "width"},
    "dl": _GLOBAL,
    "img": _GLOBAL | set(_IMAGE),
}


def attributes_rule(state, start_line: int, end_line: int, silent: bool) -> bool:
    """A line that is an attribute list: Goldmark's attribute block parser."""
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    start = state.bMarks[start_line] + state.tShift[start_line]
    line = state.src[start : state.eMarks[start_line]]
    if not line.startswith("{"):
        return False
    found = read_attributes(line, 0)
    if found is None:
        return False
    if silent:
        return True
    token = state.push("attributes_block", "", 0)
    token.map = [start_line, start_line + 1]
    token.meta = {"attrs": found[0]}
    state.line = start_line + 1
    return True


def block_attributes_core(state) -> None:
    """Give each attribute line's attributes to the block before it, and drop the line."""
    tokens = state.tokens
    if not any(t.type == "attributes_block" for t in tokens):
        return
    lines = state.src.split("\n")
    out: list[Token] = []
    for token in tokens:
        if token.type != "attributes_block":
            out.append(token)
            continue
        # Attribute lines in a row all go to the block before the first.
        target = _previous_block(out, token.level)
        line = token.map[0]
        blank_before = line > 0 and not lines[line - 1].strip(ASCII_WS + ">")
        if target is not None and target.type != "fence" and not blank_before:
            _give(target, token.meta["attrs"])
    state.tokens = out


def _give(target: Token, attrs: Attributes) -> None:
    # As given, for render hooks; and a heading's kept apart from its own attributes, as
    # its automatic ID comes between them.
    own = target.meta.setdefault("block_attrs", [])
    names = {name for name, _ in own}
    own.extend((name, value) for name, value in attrs if name not in names)
    if target.type == "heading_open":
        return
    if target.type == "table_open":  # Hugo's table template writes every one
        for name, value in attrs:
            target.attrs.setdefault(name, attribute_text(value))
        return
    for name, value in filter_attributes(attrs, target.tag):
        target.attrs.setdefault(name, value)


def filter_attributes(attrs: Attributes, tag: str) -> list[tuple[str, str]]:
    """The attributes Goldmark writes on ``tag``: the names it allows and ``data-*``;
    a value that is not text (a number, a boolean) comes out empty."""
    allowed = ALLOWED.get(tag, _GLOBAL)
    return [
        (name, value if isinstance(value, str) else "")
        for name, value in attrs
        if name in allowed or name.startswith("data-")
    ]


def _previous_block(tokens: list[Token], level: int) -> Token | None:
    """The opening token (or the token) of the block just before, at ``level``."""
    if not tokens:
        return None
    last = tokens[-1]
    if last.level != level or last.nesting == 1:
        return None
    if last.nesting == 0:
        return last if last.block else None
    depth = 0
    for token in reversed(tokens):
        depth += token.nesting
        if depth == 0:
            return token
    return None
