"""Making comment bodies safe: they are strangers' words, quoted.

Two steps. Before Markdown, every tag outside the allowlist, and every HTML
comment, declaration (``<!doctype html>``), CDATA section or processing
instruction (``<?php``), is marked so it reads as text: ``<script_name>`` and
``<T>`` stay visible instead of vanishing as unknown HTML. After Markdown,
nh3 (Ammonia) cleans the HTML as a second line of defence: only allowlisted
tags and attributes, only http(s) and relative links,
``rel="nofollow ugc noopener"`` on links.

The mark is a control character (U+001A, SUBSTITUTE) standing for ``<``
while Markdown runs, turned into ``&lt;`` afterwards. An entity written before
Markdown would be shown as ``&lt;`` inside an indented code block, where
Markdown keeps entities literally; the mark is plain text everywhere, so a
code block, a code span and a paragraph all show ``<``. Being a control
character, it also ends a bare URL where ``<`` would (linkify), and no link
destination can hold it.
"""

from __future__ import annotations

import re

import nh3

ALLOWED_TAGS = frozenset(
    {
        "a",
        "b",
        "blockquote",
        "br",
        "code",
        "del",
        "em",
        "i",
        "li",
        "ol",
        "p",
        "pre",
        "s",
        "strong",
        "ul",
    }
)
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "code": {"class"}, "ol": {"start"}}
URL_SCHEMES = {"http", "https"}

# Stands for "<" between escape_unknown_tags and clean_html.
LT_MARK = "\x1a"

# A tag (a name, then anything but another "<" up to ">"), or the start of a comment,
# declaration, CDATA section or processing instruction.
_TAG_LIKE = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9_:.-]*)([^<>]*)>|<[!?]")
# A CommonMark e-mail autolink, <user@host>: Markdown makes it a link.
_EMAIL_AUTOLINK = re.compile(
    r"<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>"
)
_CSS_COLOR = re.compile(r"#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|(?:rgb|hsl)a?\([0-9.,%\s/]+\)")


def escape_unknown_tags(text: str) -> str:
    """Mark every tag that is not allowlisted, so the reader sees it as text."""
    if "<" not in text:
        return text.replace(LT_MARK, "\ufffd")
    return _TAG_LIKE.sub(_escape_match, text.replace(LT_MARK, "\ufffd"))


def _escape_match(m: re.Match) -> str:
    tag, name = m.group(0), m.group(2)
    if name is None:
        return LT_MARK + tag[1:]  # <!-- ..., <!doctype ...>, <![CDATA[, <?php
    # A name with a colon is never HTML to Markdown: an autolink (<https://...>), a link
    # destination ([l](<https://a b>)) or text; links are filtered by clean_html.
    if name.lower() in ALLOWED_TAGS or ":" in name or _EMAIL_AUTOLINK.fullmatch(tag):
        return tag
    return LT_MARK + tag[1:]


# What nh3 would change or re-escape in text: text without it and with no markup but <br>
# comes back unchanged.
_NOT_TEXT = re.compile(r"[<>&\x00-\x08\x0b-\x1f\x7f\xa0]")


def plain_text(html: str) -> bool:
    """Whether ``html`` is text and <br> only, which nh3 would give back as it is (but a
    byte order mark at the start, which its parser drops)."""
    if html.startswith("\ufeff"):
        return False
    return not _NOT_TEXT.search(html) or not _NOT_TEXT.search(html.replace("<br>", ""))


# Made once: nh3.clean builds its sanitizer anew on every call, most of a call's work.
_CLEANER = nh3.Cleaner(
    tags=set(ALLOWED_TAGS),
    attributes={k: set(v) for k, v in ALLOWED_ATTRIBUTES.items()},
    url_schemes=set(URL_SCHEMES),
    link_rel="nofollow ugc noopener",
)


def clean_html(html: str) -> str:
    """Markdown's output made safe; the marks left by escape_unknown_tags become ``&lt;``."""
    if plain_text(html):
        return html  # most comments: plain text and line breaks
    return _CLEANER.clean(html.replace(LT_MARK, "&lt;"))


def css_color(value: object) -> str:
    """A colour value safe to put in a style attribute, or "" for anything else."""
    text = str(value or "").strip()
    return text if _CSS_COLOR.fullmatch(text) else ""
