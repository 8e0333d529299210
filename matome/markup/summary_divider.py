"""The manual summary: the page's first ``<!--more-->``, as Hugo 0.168 cuts at it.

Hugo finds the divider in the page's source (anywhere: in a paragraph, a list, a code block),
takes it and the spaces after it out, and renders in its place a paragraph of its own, so a
divider inside a paragraph or a list splits it in two. In the HTML it then widens that
paragraph's tags into the cut: the summary is the HTML before it, the content the HTML
without it. When the divider does not stand alone in its paragraph (text before it, as in
a code block), the summary also takes the HTML after it up to the next ``</p>``.
"""

from __future__ import annotations

import re

DIVIDER = "<!--more-->"
# What the divider is rendered as: a word Markdown leaves alone, found again in the HTML.
MARK = "MATOMEMORE42"

_SPACES = re.compile(r"[\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*")
_P_START_AT_END = re.compile(r"<p[^>]*?>$")
# Hugo steps back over these (the first alternative found anywhere before, as Go's search does).
_P_OR_DIV = re.compile(r"<p[^>]?>|<div[^>]?>$")


def mark_divider(source: str) -> tuple[str, bool]:
    """``source`` with its first divider and the spaces after it made a paragraph of MARK."""
    at = source.find(DIVIDER)
    if at == -1:
        return source, False
    end = _SPACES.match(source, at + len(DIVIDER)).end()
    return f"{source[:at]}\n\n{MARK}\n\n{source[end:]}", True


def cut_at_divider(html: str) -> tuple[str, str, bool] | None:
    """(summary, content, truncated) of rendered HTML holding MARK; None when it lost it."""
    low = html.find(MARK)
    if low == -1:
        return None
    high = low + len(MARK)
    start, keep_end = low, False
    i = low - 1
    while i >= 0:
        if html[i] == ">":
            if (p := _P_START_AT_END.search(html, 0, i + 1)) is not None:
                start = p.start()
                break
            if (other := _P_OR_DIV.search(html, 0, i + 1)) is not None:
                i -= len(other.group(0))
                continue
        if not _SPACES.fullmatch(html[i]):
            keep_end = True  # text before the divider: its paragraph's end stays in the summary
            break
        i -= 1
    end = high
    while end < len(html):
        end += 1
        if html[end - 1] == ">" and html.endswith("</p>", 0, end):
            break
    summary = html[:start]
    if keep_end:
        summary += html[high:end]
    else:
        high = end
    if html[high : high + 1] == "\n":
        high += 1
    summary = summary.strip()
    content = (html[:start] + html[high:]).strip()
    return summary, content, summary != content
