"""Splitting a content file into front matter and body, and writing front matter.

Hugo accepts TOML between ``+++`` lines, YAML between ``---`` lines and a JSON
object at the very start. Each format is a python-frontmatter handler: ``detect``
looks at the file's first characters, ``split`` cuts the front matter off,
``load`` parses it and ``export`` writes data back. matome does not call
python-frontmatter's ``parse``: it strips the text and so loses the file's line
numbers. The handlers here keep them: ``load`` goes through the configuration's
readers (tomllib, PyYAML, json), whose errors carry the file's ``line:col``, and
TOML is written with tomli-w.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import frontmatter
import tomli_w
import yaml
from frontmatter.default_handlers import BaseHandler

from ..config import parse_data
from ..errors import SourceError


class SplitError(ValueError):
    """Why ``split`` found no end to the front matter, at the file's line and column.

    A ValueError, as python-frontmatter expects from a split that fails.
    """

    def __init__(self, line: int, col: int, message: str):
        super().__init__(message)
        self.line = line
        self.col = col
        self.message = message


class FencedHandler(BaseHandler):
    """Front matter between two fence lines; ``FM_BOUNDARY`` matches one fence line."""

    FORMAT = ""

    def detect(self, text: str) -> bool:
        # Any text starting with the fence is front matter: "+++x" is one never closed.
        return text.startswith(self.START_DELIMITER)

    def split(self, text: str) -> tuple[str, str]:
        opening = self.FM_BOUNDARY.match(text)
        closing = self.FM_BOUNDARY.search(text, opening.end()) if opening else None
        if closing is None or not opening.group().endswith("\n"):
            raise SplitError(1, 1, f"front matter opened with {text[:3]} is never closed")
        # The line break before the closing fence is not part of the front matter.
        end = closing.start()
        if text.endswith("\n", 0, end) and end > opening.end():
            end -= 2 if text.endswith("\r\n", opening.end(), end) else 1
        return text[opening.end() : end], text[closing.end() :]

    def load(self, fm: str, path: str = "") -> dict:
        # The front matter starts on the file's second line, after the opening fence.
        return parse_data(fm, self.FORMAT, path, line_offset=1)


class TOMLHandler(FencedHandler):
    FM_BOUNDARY = re.compile(r"^\+\+\+[ \t]*(?:\r?\n|\Z)", re.M)
    START_DELIMITER = END_DELIMITER = "+++"
    FORMAT = "toml"

    def export(self, metadata: dict, **kwargs: object) -> str:
        return tomli_w.dumps(metadata).rstrip("\n")


class _YAMLDumper(yaml.SafeDumper):
    """PyYAML's safe dumper; text holding U+0085 is written double-quoted, where it is
    escaped: PyYAML's other styles write it as is and read it back as a line break."""

    def represent_str(self, data: str) -> yaml.ScalarNode:
        style = '"' if "\x85" in data else None
        return self.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_YAMLDumper.add_representer(str, _YAMLDumper.represent_str)


class YAMLHandler(FencedHandler):
    FM_BOUNDARY = re.compile(r"^---[ \t]*(?:\r?\n|\Z)", re.M)
    START_DELIMITER = END_DELIMITER = "---"
    FORMAT = "yaml"

    def export(self, metadata: dict, **kwargs: object) -> str:
        text = yaml.dump(metadata, Dumper=_YAMLDumper, allow_unicode=True, sort_keys=False)
        return text.rstrip("\n")


class JSONHandler(BaseHandler):
    """A JSON object at the start of the file; the body follows its closing brace."""

    FM_BOUNDARY = re.compile(r"\{")
    START_DELIMITER = END_DELIMITER = ""
    FORMAT = "json"

    def split(self, text: str) -> tuple[str, str]:
        # The object's end is only known by decoding it: ``load`` decodes it again.
        try:
            _, end = json.JSONDecoder().raw_decode(text)
        except json.JSONDecodeError as e:
            raise SplitError(e.lineno, e.colno, f"invalid JSON front matter: {e.msg}") from e
        except RecursionError:
            raise SplitError(1, 1, "invalid JSON front matter: nested too deeply") from None
        rest = text[end:]
        return text[:end], rest.lstrip("\r\n") if rest.strip() else ""

    def load(self, fm: str, path: str = "") -> dict:
        return json.loads(fm)

    def export(self, metadata: dict, **kwargs: object) -> str:
        return json.dumps(metadata, ensure_ascii=False, indent=2)


HANDLERS = (TOMLHandler(), YAMLHandler(), JSONHandler())
_BY_FORMAT = {handler.FORMAT: handler for handler in HANDLERS}


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
    handler = frontmatter.detect_format(text, HANDLERS)
    if handler is None:
        return FrontMatter({}, text, 1, "")
    try:
        fm, body = handler.split(text)
    except SplitError as e:
        raise SourceError(path, e.line, e.col, e.message) from None
    head = text[: len(text) - len(body)]
    data = handler.load(fm, path=path)
    return FrontMatter(data, body, head.count("\n") + 1, handler.FORMAT, head)


def front_matter_text(data: dict, fmt: str = "toml") -> str:
    """``data`` written as front matter in ``fmt``, fences included, ending with a newline."""
    handler = _BY_FORMAT[fmt]
    parts = (handler.START_DELIMITER, handler.export(data), handler.END_DELIMITER)
    return "\n".join(part for part in parts if part) + "\n"
