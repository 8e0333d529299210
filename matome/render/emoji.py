"""Hugo's ``emojify``: ``:name:`` codes in a string made emoji, outside Markdown.

Hugo scans the string's bytes for a ``:``, looks for the next ``:`` no further than its
longest code allows and with no space before it, and replaces a known code; where it goes on
scanning after a miss follows its own arithmetic, kept here because it decides which colons
pair up (``a:b:c:smile:``). The codes are those of Hugo's ``emojify`` table (not the one
Markdown uses with ``enableEmoji``), looked up whatever characters the name holds
(``:A_button_(blood_type):``), as Hugo's ``emojify`` does.
"""

from __future__ import annotations

import functools

from ..markup.markdown.emoji import emojify_emoji

# Bytes of the longest ":code:" in the table of Hugo's emojify; no longer code pairs up.
_LONGEST_CODE = 56


@functools.lru_cache(maxsize=4096)
def _emoji(code: bytes) -> bytes | None:
    """The emoji of ``:code:``, or None when it is no emoji code."""
    found = emojify_emoji(code[1:-1].decode("utf-8", "replace"))
    return None if found is None else found.encode()


def emojify(text: str) -> str:
    source = text.encode()
    start = 0
    colon = source.find(b":")
    while colon != -1:
        upper = min(colon + _LONGEST_CODE, len(source))
        end = source.find(b":", colon + 1, upper)
        space = source.find(b" ", colon, upper)
        if end == -1:
            start += 1
        elif end == colon + 1 or (space != -1 and space < end):
            start += end - colon
        else:
            emoji = _emoji(source[colon : end + 1])
            if emoji is not None:
                source = source[:colon] + emoji + source[end + 1 :]
            start += end - colon - 1
        if start >= len(source):
            break
        colon = source.find(b":", start)
    return source.decode("utf-8", "replace")
