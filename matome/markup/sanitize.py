"""Making comment bodies safe: they are strangers' words, quoted.

Two steps. Before Markdown, tags outside the allowlist are escaped so they
read as text (``<script_name>`` and ``<T>`` stay visible instead of vanishing
as unknown HTML). After Markdown, nh3 (Ammonia) cleans the HTML as a second
line of defence: only allowlisted tags and attributes, only http(s) and
relative links, ``rel="nofollow ugc noopener"`` on links.
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

# Code spans are left alone (Markdown escapes them itself); then any tag-like text.
_CODE_OR_TAG = re.compile(r"(`+)(?:.|\n)*?(?<!`)\1(?!`)|<(/?)([A-Za-z][A-Za-z0-9_:.-]*)([^<>]*)>")
_CSS_COLOR = re.compile(r"#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|(?:rgb|hsl)a?\([0-9.,%\s/]+\)")


def escape_unknown_tags(text: str) -> str:
    """Escape every tag that is not allowlisted, so the reader sees it as text."""
    return _CODE_OR_TAG.sub(_escape_match, text)


def _escape_match(m: re.Match) -> str:
    if m.group(1):
        return m.group(0)
    name = m.group(3).lower()
    if name in ALLOWED_TAGS or "://" in m.group(0) or "@" in m.group(0):
        return m.group(0)  # an allowed tag or a Markdown autolink
    return "&lt;" + m.group(0)[1:]


def clean_html(html: str) -> str:
    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        attributes={k: set(v) for k, v in ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(URL_SCHEMES),
        link_rel="nofollow ugc noopener",
    )


def css_color(value: object) -> str:
    """A colour value safe to put in a style attribute, or "" for anything else."""
    text = str(value or "").strip()
    return text if _CSS_COLOR.fullmatch(text) else ""
