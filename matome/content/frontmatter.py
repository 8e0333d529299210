"""Splitting a content file into front matter and body.

Hugo accepts TOML between ``+++`` lines, YAML between ``---`` lines and a JSON
object at the very start. The split is one regex (python-frontmatter's split
drops the line numbers we need for ``path:line:col`` errors); parsing goes
through the same TOML/YAML/JSON readers as the configuration.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ..config import parse_data
from ..errors import SourceError

_FENCED = re.compile(r"\A(\+\+\+|---)[ \t]*\r?\n(.*?)(?:^|\r?\n)\1[ \t]*(?:\r?\n|\Z)", re.S | re.M)


@dataclass
class FrontMatter:
    data: dict
    body: str
    body_line: int  # 1-based line of the file where the body starts
    format: str  # "toml", "yaml", "json" or "" when the file has none
    head: str = ""  # the front matter as written, fences included

    def key_position(self, key: str) -> tuple[int, int]:
        """Line and column of a top-level key, for errors about its value."""
        # key = ..., key: ..., "key": ..., or a TOML table [key] / [[key]] / [key.sub]
        pattern = re.compile(rf'^\s*(?:\[\[?\s*)?"?({re.escape(key)})"?\s*(?:[:=]|\]|\.)', re.I)
        for n, line in enumerate(self.head.split("\n"), 1):
            m = pattern.match(line)
            if m:
                return n, m.start(1) + 1
        return 1, 1


def split_front_matter(text: str, path: str) -> FrontMatter:
    """Parse the front matter of ``text``; raise SourceError with the file's line:col."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if text.startswith(("+++", "---")):
        m = _FENCED.match(text)
        if not m:
            fence = text[:3]
            raise SourceError(path, 1, 1, f"front matter opened with {fence} is never closed")
        fmt = "toml" if m.group(1) == "+++" else "yaml"
        data = parse_data(m.group(2), fmt, path, line_offset=1)
        body = text[m.end() :]
        return FrontMatter(data, body, text.count("\n", 0, m.end()) + 1, fmt, text[: m.end()])
    if text.startswith("{"):
        try:
            data, end = json.JSONDecoder().raw_decode(text)
        except json.JSONDecodeError as e:
            raise SourceError(path, e.lineno, e.colno, f"invalid JSON front matter: {e.msg}") from e
        except RecursionError:
            raise SourceError(path, 1, 1, "invalid JSON front matter: nested too deeply") from None
        if not isinstance(data, dict):
            raise SourceError(path, 1, 1, "JSON front matter must be an object")
        body = text[end:].lstrip("\r\n") if text[end:].strip() else ""
        head = text[: len(text) - len(body)]
        return FrontMatter(data, body, head.count("\n") + 1, "json", head)
    return FrontMatter({}, text, 1, "")
