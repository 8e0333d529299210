"""Goldmark's linkify: where it looks for bare URLs and e-mail addresses, and what it takes.

Goldmark links bare URLs only where its inline parser looks: at the start of a line,
after a space (not a tab) or '(', and right after another inline node - so "日本https://x"
stays text - and its URL pattern is ASCII-only, so a URL ends at the first non-ASCII
character. linkify-it finds URLs anywhere, so markdown-it's own linkify is replaced by
these rules. Goldmark also links nothing inside an unclosed ``[`` (a link label being
read) and does look inside raw ``<a>`` HTML, which markdown-it does not.
"""

from __future__ import annotations

import re

from .chars import ASCII_PUNCT
from .library_internals import StateInline
from .urls import url_escape

# Where a URL or an e-mail address Goldmark links may start: the text rule stops there.
LINK_START = r"(?:https?:|ftp:|www\.|[-!#$%&'*+./0-9=?A-Z^_`a-z{|}~]+@)"
LINK_START_RE = re.compile(LINK_START)


def after_trigger(src: str, pos: int) -> bool:
    """Whether ``pos`` follows a character Goldmark tries linkify after.

    Those are a space, a line start, and an unescaped '(', '~' (a '~' that is not
    strikethrough is handed on to linkify) or '`' (unmatched backticks become a node).
    """
    if pos == 0 or src[pos - 1] in " \n":
        return True
    if src[pos - 1] not in "(~`":
        return False
    slashes = len(src[: pos - 1]) - len(src[: pos - 1].rstrip("\\"))
    return slashes % 2 == 0


def after_inline_node(state: StateInline) -> bool:
    """Goldmark re-reads a line after each inline node, so linkify may start right there."""
    if state.pending:
        return False
    return not state.tokens or state.tokens[-1].type != "text_special"


_URL_PATH = r"""(?:[/#?][-a-zA-Z0-9@:%_+.~#$!?&/=();,'">^{}\[\]`]*)?"""
_URL_RE = re.compile(
    r"(?:http|https|ftp)://[-a-zA-Z0-9@:%._+~#=]{1,256}\.[a-z]+(?::\d+)?" + _URL_PATH
)
_WWW_RE = re.compile(
    r"www\.[-a-zA-Z0-9@:%._+~#=]{1,256}\.[a-z]+"
    r"""(?:[/#?][-a-zA-Z0-9@:%_+.~#!?&/=();,'">^{}\[\]`]*)?"""
)
_EMAIL_LOCAL = frozenset(
    "!#$%&'*+-./0123456789=?ABCDEFGHIJKLMNOPQRSTUVWXYZ^_`abcdefghijklmnopqrstuvwxyz{|}~"
)
_EMAIL_DOMAIN_RE = re.compile(
    r"[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*"
)
_URL_TRAILING = "?!.,:*_~"


def _without_trailing(text: str, end: int) -> int:
    """``end`` moved back over the punctuation Goldmark leaves out of a link's end."""
    while end > 1 and text[end - 1] in _URL_TRAILING:
        end -= 1
    return end


def _trim_url_end(text: str, end: int) -> int:
    """Goldmark's end fix-ups, in Hugo 0.168's order: trailing punctuation first, then an
    unbalanced ')' (as many characters as there are unmatched ones) or a final entity.
    So ``(https://x.org/a).`` links ``https://x.org/a`` and ``https://x.org/a.)`` keeps
    its '.': nothing is trimmed after the cut."""
    end = _without_trailing(text, end)
    last = text[end - 1]
    if last == ")":
        unbalanced = text[:end].count(")") - text[:end].count("(")
        return end - unbalanced if unbalanced > 0 else end
    if last == ";":
        i = end - 2
        while i >= 0 and text[i].isascii() and text[i].isalnum():
            i -= 1
        if i != end - 2 and i >= 0 and text[i] == "&":
            return i
    return end


def _match_url(text: str) -> tuple[int, str] | None:
    """(length, kind) of a Goldmark-linkified URL at the start of ``text``."""
    if text.startswith(("http:", "https:", "ftp:")):
        m = _URL_RE.match(text)
        if m:
            return _trim_url_end(text, m.end()), "url"
    if text.startswith("www."):
        m = _WWW_RE.match(text)
        if m:
            return _trim_url_end(text, m.end()), "www"
    return None


def _match_email(text: str) -> int | None:
    if not text or text[0] in ASCII_PUNCT:
        return None
    at = 0
    while at < len(text) and text[at] in _EMAIL_LOCAL:
        at += 1
    if at == 0 or at >= len(text) - 1 or text[at] != "@":
        return None
    m = _EMAIL_DOMAIN_RE.match(text, at + 1)
    if not m or "." not in text[at + 1 : m.end() - 1]:
        return None
    end = m.end() - 1 if text[m.end() - 1] == "." else m.end()
    if end < len(text) and text[end] in "-_":
        return None
    return end


def autolink_at(text: str) -> tuple[int, str] | None:
    """(length, kind) of the URL or e-mail address Goldmark links at the start of ``text``."""
    found = _match_url(text)
    if found:
        return found
    end = _match_email(text)
    return (_without_trailing(text, end), "email") if end else None


def autolink_href(label: str, kind: str, protocol: str) -> str:
    if kind == "www":
        url = f"{protocol}://{label}"
    elif kind == "email":
        url = label if label.lower().startswith("mailto:") else "mailto:" + label
    else:
        url = label
    return url_escape(url)


def label_rule(openers):
    """Track unclosed ``[`` the way Goldmark's link parser does: linkify is off inside them.

    A ``[`` that starts a link (or footnote reference) is consumed by that rule; any
    other one opens a label until the next ``]``. ``openers`` are those rules, asked
    in silent mode whether they would match here.
    """

    def rule(state: StateInline, silent: bool) -> bool:
        ch = state.src[state.pos]
        if silent or state.linkLevel > 0 or ch not in "[]":
            return False
        labels = _open_labels(state)
        if ch == "]":
            if labels:
                labels.pop()
            return False
        pos = state.pos
        for opener in openers:
            matched = opener(state, True)
            state.pos = pos
            if matched:
                return False
        labels.append(pos)
        return False

    return rule


def _open_labels(state: StateInline) -> list[int]:
    labels = getattr(state, "gm_labels", None)
    if labels is None:
        labels = state.gm_labels = []
    return labels


def raw_html_keeps_link_level(html_inline):
    """markdown-it counts a raw ``<a ...>`` as a link and links no URL until ``</a>``;
    Goldmark does not look into raw HTML, so the text of ``<a href=x>https://x</a>`` is
    linked again (a link in a link, as Hugo writes it)."""

    def rule(state: StateInline, silent: bool) -> bool:
        level = state.linkLevel
        found = html_inline(state, silent)
        state.linkLevel = level
        return found

    return rule


def linkify_rule(protocol: str):
    def linkify(state: StateInline, silent: bool) -> bool:
        # Silent runs scan link labels ([https://x](...)): a URL there is label text, and
        # matching it would swallow the "](" that closes the label.
        if silent:
            return False
        pos, src = state.pos, state.src
        if not after_trigger(src, pos) and not after_inline_node(state):
            return False
        if state.linkLevel > 0 or not LINK_START_RE.match(src, pos):
            return False
        found = autolink_at(src[pos : state.posMax])
        if found is None or _open_labels(state):
            return False
        end, kind = found
        label = src[pos : pos + end]
        token = state.push("gm_autolink", "a", 0)
        token.attrs = {"href": autolink_href(label, kind, protocol)}
        token.content = label
        state.pos += end
        return True

    return linkify
