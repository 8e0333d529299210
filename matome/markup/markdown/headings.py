"""Headings the way Hugo gives them IDs: anchorize, de-duplication, attributes, plain text.

Hugo computes a heading's ID from its plain text (its own walk over Goldmark's inline
nodes, which reads only the first child of a container), turns it into a fragment with
the configured ``autoHeadingIDType`` and numbers repeats; a ``{#id}`` attribute at the end
of the heading wins and reserves its ID. Links to headings and the table of contents
depend on these IDs, so they must be Hugo's exactly.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass

from .attributes import parse_attributes
from .chars import GO_SPACE
from .library_internals import Token


@dataclass(frozen=True)
class Heading:
    """One heading of a page: ``text`` is its table-of-contents title (inline HTML)."""

    level: int
    text: str
    id: str


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if unicodedata.category(c) != "Mn")
    )


def _anchorize_github(text: str, ascii_only: bool) -> str:
    if ascii_only:
        text = _strip_accents(text)
    out = []
    for ch in text.strip(GO_SPACE):
        if ascii_only and ch > "\x7f":
            continue
        if ch in "- ":
            out.append("-")
        elif ch == "_" or ch.isalpha() or ch.isdecimal():
            out.append(ch.lower())
    return "".join(out)


def _anchorize_blackfriday(text: str) -> str:
    out: list[str] = []
    dash = False
    for ch in text:
        if ch.isalpha() or ch.isnumeric():
            if dash and out:
                out.append("-")
            dash = False
            out.append(ch.lower())
        else:
            dash = True
    return "".join(out)


def anchorize(text: str, style: str = "github") -> str:
    """Hugo's anchorize: the fragment a heading text turns into (before de-duplication)."""
    if style == "blackfriday":
        return _anchorize_blackfriday(text)
    return _anchorize_github(text, ascii_only=style == "github-ascii")


def heading_id(text: str, style: str, seen: dict[str, int]) -> str:
    """Unique heading ID for ``text``; ``seen`` holds the IDs already used in the page.

    Like Hugo, an empty result becomes ``heading`` and a repeat gets ``-1``, ``-2``, ...
    (the first suffix not already taken). ``seen`` maps each used ID to the next suffix
    worth trying, which keeps many repeats linear.
    """
    base = anchorize(text, style) or "heading"
    if base not in seen:
        seen[base] = 1
        return base
    n = seen[base]
    while f"{base}-{n}" in seen:
        n += 1
    seen[base] = n + 1
    result = f"{base}-{n}"
    seen[result] = 1
    return result


def reserve_id(seen: dict[str, int], value: str) -> None:
    seen.setdefault(value, 1)


_ATTR_BLOCK_RE = re.compile(r"\{([^{}]*)\}[ \t]*$")


def _split_heading_attributes(content: str) -> tuple[str, list[tuple[str, str]]]:
    m = _ATTR_BLOCK_RE.search(content)
    if not m or (m.start() > 0 and content[m.start() - 1] == "\\"):
        return content, []
    attrs = parse_attributes(m.group(1))
    if attrs is None:
        return content, []
    return content[: m.start()].rstrip(" \t"), attrs


def heading_attributes_core(state) -> None:
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "heading_open" or tokens[i + 1].type != "inline":
            continue
        inline = tokens[i + 1]
        text, attrs = _split_heading_attributes(inline.content)
        if attrs:
            inline.content = _strip_closing_hashes(text) if token.markup.startswith("#") else text
            token.meta["attrs"] = attrs


def _strip_closing_hashes(text: str) -> str:
    stripped = text.rstrip("#")
    if stripped == text:
        return text
    if not stripped:
        return ""
    return stripped.rstrip(" \t") if stripped[-1] in " \t" else text


_STRIP_TAGS_RE = re.compile(r"<[^>]*>")


def plain_text(children: list[Token]) -> str:
    """Hugo's plain text of an inline node list.

    Hugo walks the children but descends into a container (emphasis, link...) only
    through its first child, so ``*a* b`` gives "a b" but ``*a "b"*`` gives "a ".
    """
    out: list[str] = []
    i = 0
    while i < len(children):
        i = _plain_text_node(children, i, out)
    return "".join(out)


def _plain_text_node(children: list[Token], i: int, out: list[str]) -> int:
    token = children[i]
    kind = token.type
    if kind in ("text", "code_inline", "text_special"):
        out.append(token.content)
    elif kind == "typographer":
        out.append(html.unescape(token.content))
    elif kind == "html_inline":
        out.append(_STRIP_TAGS_RE.sub("", token.content).strip())
    elif kind in ("softbreak", "hardbreak"):
        out.append("\n")
    elif kind == "emoji":
        out.append(token.markup)
    elif kind == "image":
        inner: list[str] = []
        if token.children:
            _plain_text_node(token.children, 0, inner)
        out.append("".join(inner))
    elif token.nesting == 1:
        end = _matching_close(children, i)
        if i + 1 < end:
            inner: list[str] = []
            _plain_text_node(children, i + 1, inner)
            first = "".join(inner)
            if children[i + 1].type == "text":
                first = _first_text_node(first)
            out.append(first)
        return end + 1
    return i + 1


# An unmatched emphasis or strikethrough delimiter stays a separate node in Goldmark,
# merged into the text before it, so a container's first text child ends after it.
_DELIMITER_RUN_RE = re.compile(r"[*_]+|(?<!~)~{1,2}(?!~)")


def _first_text_node(text: str) -> str:
    m = _DELIMITER_RUN_RE.search(text)
    return text[: m.end()] if m else text


def _matching_close(children: list[Token], i: int) -> int:
    depth = 0
    for j in range(i, len(children)):
        depth += children[j].nesting
        if depth == 0:
            return j
    return len(children) - 1
