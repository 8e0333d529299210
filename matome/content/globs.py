"""Hugo's file globs, as resource metadata (``src``) and ``GetMatch`` use them."""

from __future__ import annotations

import functools
import re


@functools.lru_cache(maxsize=1024)  # a site has few patterns, matched against every page
def glob_regex(pattern: str) -> re.Pattern:
    """Hugo's resource globs: ``*`` stays inside a folder, ``**`` crosses them, ``{a,b}``."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "{":
            end = pattern.find("}", i)
            if end < 0:
                out.append(re.escape(c))
            else:
                options = pattern[i + 1 : end].split(",")
                out.append("(?:" + "|".join(glob_regex(o).pattern[:-2] for o in options) + ")")
                i = end + 1
                continue
        elif c == "[":
            end = pattern.find("]", i)
            if end < 0:
                out.append(re.escape(c))
            else:
                out.append(pattern[i : end + 1])
                i = end + 1
                continue
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z", re.IGNORECASE)
