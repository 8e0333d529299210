"""Goldmark's emoji extension (Hugo's ``enableEmoji``): ``:name:`` to emoji entities.

Hugo turns GitHub's short names into the emoji written as numeric entities; its
``emojify`` template function has a table of its own, larger (GitHub's names, Unicode's,
and names from other emoji sets). The emoji come from the ``emoji`` package (a matome
dependency); ``emoji_names.tsv`` says which of the package's names each of Hugo's two
tables knows (``tests/test_emoji_names_hugo.py`` asks the real Hugo about every one of
them), and the emoji ``emojify`` writes where it is not the package's.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from .library_internals import StateInline

_EMOJI_NAME_RE = re.compile(r":([A-Za-z0-9_+-]+):")
# The two names GitHub gives other emoji than the Unicode names the package has for them.
_GITHUB_OWN = {"beetle": "\U0001fab2", "egg": "\U0001f95a"}
# A line per name: the name, "me" when Hugo's Markdown and its emojify know it, "e" when
# only emojify does, then the emoji emojify writes (code points in hex) when the package
# writes another (Hugo's emojify often has no U+FE0F, or a gendered sequence).
_HUGO_NAMES = Path(__file__).with_name("emoji_names.tsv")


@lru_cache(maxsize=1)
def _package_table() -> dict[str, str]:
    """Short name -> emoji: GitHub's names first (the ``emoji`` package's aliases, which
    Goldmark's table has), then Unicode's (CLDR) names. A name of several sequences takes
    the fully-qualified one, as GitHub writes it (U+FE0F after a symbol whose default
    presentation is text)."""
    import emoji  # imported on first use, as few sites turn emoji on

    emoji.config.load_language("alias")
    fully_qualified = emoji.STATUS["fully_qualified"]
    entries = sorted(emoji.EMOJI_DATA.items(), key=lambda e: e[1]["status"] != fully_qualified)
    table: dict[str, str] = {}
    for value, data in entries:
        for alias in data.get("alias", ()):
            table.setdefault(alias.strip(":"), value)
    for value, data in entries:
        table.setdefault(data["en"].strip(":"), value)
    table.update(_GITHUB_OWN)
    return table


@lru_cache(maxsize=1)
def _hugo_names() -> list[tuple[str, str, list[str]]]:
    """The rows of the names file: each name, the tables that know it ("m": Markdown's),
    and the emoji written out where the package's is not Hugo's."""
    rows = []
    for line in _HUGO_NAMES.read_text(encoding="utf-8").splitlines():
        name, tables, *written = line.split("\t")
        rows.append((name, tables, written))
    return rows


@lru_cache(maxsize=1)
def _hugo_tables() -> tuple[dict[str, str], dict[str, str]]:
    """The names Hugo's Markdown knows and those its ``emojify`` knows, with their emoji."""
    package = _package_table()
    markdown: dict[str, str] = {}
    emojify: dict[str, str] = {}
    for name, tables, written in _hugo_names():
        if written:
            emojify[name] = "".join(chr(int(c, 16)) for c in written[0].split())
        if name not in package:  # a release of the package that renamed it
            continue
        emojify.setdefault(name, package[name])
        if "m" in tables:
            markdown[name] = package[name]
    return markdown, emojify


@lru_cache(maxsize=1)
def _markdown_names() -> frozenset[str]:
    """The names Hugo's Markdown knows, from the table file alone: a name not among them
    (most ``:word:`` a text holds, such as the ``:30:`` of a time) needs no emoji table,
    whose making imports the package and reads its data."""
    return frozenset(name for name, tables, _ in _hugo_names() if "m" in tables)


def emoji_for_name(name: str) -> str | None:
    """The emoji of a short name in Markdown (``thinking``), None for a name Hugo's
    Markdown does not know."""
    if name not in _markdown_names():
        return None
    return _hugo_tables()[0].get(name)


def emojify_emoji(name: str) -> str | None:
    """The emoji Hugo's ``emojify`` writes for a short name, None for a name it does not know."""
    return _hugo_tables()[1].get(name)


def emoji_rule(state: StateInline, silent: bool) -> bool:
    if state.src[state.pos] != ":":
        return False
    m = _EMOJI_NAME_RE.match(state.src, state.pos, state.posMax)
    if not m:
        return False
    value = emoji_for_name(m.group(1))
    if value is None:
        return False
    if not silent:
        token = state.push("emoji", "", 0)
        token.content = value
        token.markup = m.group(1)
    state.pos = m.end()
    return True


def emoji_entities(value: str) -> str:
    return "".join("&zwj;" if ch == "\u200d" else f"&#x{ord(ch):x};" for ch in value)
