"""Hugo shortcode calls in a page body, parsed into text and ``Shortcode`` nodes.

The grammar and the closing-tag rules follow Hugo's page lexer
(``parser/pageparser``) and shortcode extractor (``hugolib/shortcode.go``),
checked against hugo 0.168. Nothing here runs templates or renders Markdown.

Deliberate differences from Hugo, where Hugo silently accepts nonsense or
rejects sense: a closing tag must name the innermost open shortcode (Hugo lets
tags cross); ``{{< x=1 >}}`` (``=`` with no parameter name) is an error; an
unquoted value running into the closing ``>}}`` (``a=1>}}``) is an error where
Hugo swallows text up to the next space; and ``a="x" b = "y"`` is two named
parameters (Hugo's lexer counts a spaced ``=`` as positional and says "mixed").
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import SourceError, line_col


@dataclass(slots=True)
class Shortcode:
    name: str
    params: list | dict  # positional list OR named dict, never both
    markdown: bool  # True for {{% %}}, False for {{< >}}
    inner: list[Node] | None  # children when there is a closing tag, else None
    line: int  # position of the opening "{{" (line_offset included)
    col: int
    offset: int  # the whole call, opening tag through closing tag, in the body
    end: int
    inner_source: str | None  # raw text between the opening and closing tag


@dataclass(slots=True)
class ShortcodeRun:
    """Calls of one shortcode without inner content, one after another with only
    whitespace between them (a matome article's comments): read in one go. It expands
    to exactly what its calls would one by one, the whitespace kept."""

    name: str
    calls: list[tuple[list | dict, int, int, int, int]]  # params, line, col, offset, end
    gaps: list[str]  # the whitespace after each call but the last
    offset: int
    end: int


Node = str | Shortcode | ShortcodeRun

_WS = re.compile(r"[ \t\n\v\f\r]*")  # Hugo's isASCIISpace; U+3000 is not a separator
_NAME = re.compile(r"\w[\w/-]*")  # "/" makes namespaces; a name starts alphanumeric
_WORD = re.compile(r"[\w-][\w.-]*")  # unquoted key or positional value (YouTube ids have "-")
_UNQUOTED = re.compile(r"[^ \t\n\v\f\r]*")  # an unquoted named value runs to whitespace
_NAMED_FAST = re.compile(r'[ \t\n\v\f\r]*([\w-][\w.-]*)="([^"\\\n]*)"')  # the common case
# The next tag ("{{<" or "{{%"; a lone "{{", Go template text, is plain text in Hugo) and,
# when it is an opening tag in the common form (only key="plain value" parameters), the
# whole of it: most tags need no scanner.
_COMMON_PARAMS = r'((?:[ \t\n\v\f\r]+[\w-][\w.-]*="[^"\\\n]*")*)'  # only key="plain value"
_NEXT_TAG = re.compile(
    r"\{\{([<%])(?:[ \t\n\v\f\r]*(\w[\w/-]*)"
    + _COMMON_PARAMS
    + r"[ \t\n\v\f\r]*(/?)[ \t\n\v\f\r]*([>%])\}\})?"
)
# A closing tag in the common form.
_FAST_CLOSE = re.compile(
    r"\{\{([<%])[ \t\n\v\f\r]*/[ \t\n\v\f\r]*(\w[\w/-]*)[ \t\n\v\f\r]*([>%])\}\}"
)
_FAST_PARAM = re.compile(r'([\w-][\w.-]*)="([^"\\\n]*)"')
# Whitespace, then an opening tag in the common form, not self-closed: the next call of a
# run. Its first parameters are in groups (a matome comment has four), any more in the last.
_RUN_GROUPS = 4
_RUN_NEXT = re.compile(
    r"([ \t\n]*)\{\{<[ \t\n\v\f\r]*(\w[\w/-]*)"
    + (r"(?:[ \t\n\v\f\r]+" + _FAST_PARAM.pattern) * _RUN_GROUPS
    + ")?" * _RUN_GROUPS
    + _COMMON_PARAMS
    + r"[ \t\n\v\f\r]*>\}\}"
)
_QUOTED_FAST = re.compile(r'"([^"\\\n]*)"')
_QUOTED_CHUNK = re.compile(r'[^"\\\n]*')
_ESCAPED_BODY = re.compile(r'(?:[^"\n\\]|\\(?![`"]))*')  # body of a \"...\" value
_INT = re.compile(r"[-+]?[0-9]+\Z")
_FLOAT = re.compile(r"[-+]?[0-9]*\.[0-9]+\Z")
_INT64 = 2**63

# Kinds of tag the scanner returns.
_OPENING, _CLOSING, _COMMENT = 0, 1, 2


@dataclass(slots=True)
class _Tag:
    kind: int
    name: str  # for a comment: the literal text Hugo outputs instead
    params: list | dict
    self_closing: bool
    end: int  # offset just after the closing "}}"


def parse_shortcodes(
    text: str,
    path: str,
    takes_inner: Callable[[str], bool | None],
    line_offset: int = 0,
    runs: bool = False,
) -> list[Node]:
    """Split ``text`` into text and shortcode nodes covering all of it.

    ``takes_inner(name)`` is True when the template uses ``.Inner`` (a closing
    tag or ``/>`` is required), False when it does not (no closing tag allowed)
    and None when there is no such shortcode. With ``runs``, calls in a row become
    one ``ShortcodeRun``. Raises ``SourceError``.
    """
    return _Parser(text, path, takes_inner, line_offset, runs).parse()


def typed_value(s: str) -> bool | int | float | str:
    """Hugo's typing of an unquoted value: booleans, int64s and plain decimals."""
    if s == "true" or s == "false":
        return s == "true"
    if _INT.match(s):
        n = int(s)
        return n if -_INT64 <= n < _INT64 else s  # Go's Atoi fails, the string stays
    if _FLOAT.match(s):
        f = float(s)
        return s if math.isinf(f) else f
    return s


def _common_params(m: re.Match) -> list | dict:
    """The parameters of a tag in the common form (group 3 of ``m``): named, or none."""
    return dict(_FAST_PARAM.findall(m.string, m.start(3), m.end(3))) if m[3] else []


def _run_params(m: re.Match) -> list | dict:
    """The parameters of a ``_RUN_NEXT`` match, from its groups: searching the tag again
    for them, through a long comment body, took as long as finding the tag."""
    found = m.groups()
    params = {}
    for i in range(2, 2 + 2 * _RUN_GROUPS, 2):
        if found[i] is None:
            break
        params[found[i]] = found[i + 1]
    if found[-1]:
        params.update(_FAST_PARAM.findall(found[-1]))
    return params or []


def _add_text(nodes: list[Node], s: str) -> None:
    if nodes and type(nodes[-1]) is str:
        nodes[-1] += s
    else:
        nodes.append(s)


def _delims(markdown: bool) -> tuple[str, str]:
    return ("{{%", "%}}") if markdown else ("{{<", ">}}")


class _Parser:
    def __init__(self, text: str, path: str, takes_inner, line_offset: int, runs: bool = False):
        self.text = text
        self.runs = runs
        self.path = path
        self.takes_inner = takes_inner
        self.line_offset = line_offset
        self.known: dict[str, bool | None] = {}
        self.line_at = (0, 1)  # (offset, line) cursor: shortcodes come in source order

    # -- positions and errors

    def fail(self, offset: int, message: str) -> SourceError:
        line, col = line_col(self.text, min(offset, len(self.text)))
        return SourceError(self.path, line + self.line_offset, col, message)

    def position(self, offset: int) -> tuple[int, int]:
        last, line = self.line_at
        if offset < last:
            last, line = 0, 1
        line += self.text.count("\n", last, offset)
        self.line_at = (offset, line)
        return line + self.line_offset, offset - self.text.rfind("\n", 0, offset)

    def lookup(self, name: str) -> bool | None:
        if name not in self.known:
            self.known[name] = self.takes_inner(name)
        return self.known[name]

    # -- structure: nesting and closing tags

    def parse(self) -> list[Node]:
        text = self.text
        root: list[Node] = []
        nodes = root
        stack: list[tuple[Shortcode, int]] = []  # open shortcode, offset of its inner text
        pos = 0
        search = _NEXT_TAG.search
        while (m := search(text, pos)) is not None:
            start = m.start()
            if start > pos:
                _add_text(nodes, text[pos:start])
            if m[2] is not None and (m[1] == "<") == (m[5] == ">"):
                end = m.end()
                params = _common_params(m)
                if self.runs and m[1] == "<" and not m[4]:
                    run = self.run(m[2], params, start, end)
                    if run is not None:
                        nodes.append(run)
                        pos = run.end
                        continue
                sc = self.open(m[2], params, m[4] == "/", start, end)
            else:
                tag = self.scan_tag(start)
                end = tag.end
                if tag.kind == _COMMENT:
                    _add_text(nodes, tag.name)
                    pos = end
                    continue
                if tag.kind == _CLOSING:
                    sc, inner_start = self.close(tag, start, stack)
                    sc.end = end
                    sc.inner_source = text[inner_start:start]
                    nodes = stack[-1][0].inner if stack else root
                    pos = end
                    continue
                sc = self.open(tag.name, tag.params, tag.self_closing, start, end)
            nodes.append(sc)
            if sc.inner is not None:
                stack.append((sc, end))
                nodes = sc.inner
            pos = end
        if pos < len(text):
            _add_text(nodes, text[pos:])
        if stack:
            sc = stack[-1][0]
            left, right = _delims(sc.markdown)
            raise self.fail(
                sc.offset, f'unclosed shortcode "{sc.name}": add {left} /{sc.name} {right}'
            )
        return root

    def open(
        self, name: str, params: list | dict, self_closing: bool, start: int, end: int
    ) -> Shortcode:
        markdown = self.text[start + 2] == "%"
        inner = self.lookup(name)
        if inner is None:
            raise self.fail(start, self.unknown(name, markdown))
        if self_closing and not inner:
            left, right = _delims(markdown)
            raise self.fail(
                start,
                f'shortcode "{name}" does not use .Inner, so it cannot be self-closed: '
                f"write {left} {name} ... {right} without the /",
            )
        line, col = self.position(start)
        children: list[Node] | None = [] if inner and not self_closing else None
        return Shortcode(name, params, markdown, children, line, col, start, end, None)

    def run(self, name: str, params: list | dict, start: int, end: int) -> ShortcodeRun | None:
        """The calls of ``name`` from ``start`` on, when more than one follow each other."""
        text = self.text
        following = _RUN_NEXT.match(text, end)
        if following is None or following[2] != name or self.lookup(name) is not False:
            return None
        line, col = self.position(start)
        calls = [(params, line, col, start, end)]
        gaps = []
        while following is not None and following[2] == name:
            gaps.append(following[1])
            start, end = following.end(1), following.end()
            line, col = self.position(start)
            calls.append((_run_params(following), line, col, start, end))
            following = _RUN_NEXT.match(text, end)
        return ShortcodeRun(name, calls, gaps, calls[0][3], end)

    def unknown(self, name: str, markdown: bool) -> str:
        left, right = _delims(markdown)
        hint = f"check the name, or write {left}/* {name} */{right} to show the call literally"
        if name.endswith("/") and self.lookup(name.rstrip("/")) is not None:
            hint = f'put a space before the "/": {left} {name.rstrip("/")} /{right}'
        return f'unknown shortcode "{name}": {hint}'

    def close(self, tag: _Tag, start: int, stack: list) -> tuple[Shortcode, int]:
        name = tag.name
        left, right = _delims(self.text[start + 2] == "%")
        if stack and stack[-1][0].name == name:
            return stack.pop()  # Hugo lets {{< /x >}} close {{% x %}}: only names must match
        inner = self.lookup(name)
        if inner is None:
            raise self.fail(start, self.unknown(name, left == "{{%"))
        if not inner:
            raise self.fail(
                start,
                f'shortcode "{name}" does not use .Inner, so it takes no closing tag: '
                f"remove {left} /{name} {right}",
            )
        if not stack:
            raise self.fail(
                start,
                f"closing tag {left} /{name} {right} has no opening {left} {name} {right} "
                "before it: remove it or add the opening tag",
            )
        top = stack[-1][0]
        where = f"line {top.line}, column {top.col}"
        top_left, top_right = _delims(top.markdown)
        if any(sc.name == name for sc, _ in stack):
            message = (
                f'closing tag {left} /{name} {right} comes before shortcode "{top.name}" '
                f"(opened at {where}) is closed: add {top_left} /{top.name} {top_right} first"
            )
        else:
            message = (
                f"closing tag {left} /{name} {right} does not match the open shortcode "
                f'"{top.name}" (opened at {where}): write {top_left} /{top.name} {top_right}'
            )
        raise self.fail(start, message)

    # -- one tag: "{{<" ... ">}}"

    def scan_tag(self, start: int) -> _Tag:
        text = self.text
        m = _FAST_CLOSE.match(text, start)
        if m is not None and (m[1] == "<") == (m[3] == ">"):
            return _Tag(_CLOSING, m[2], [], False, m.end())
        markdown = text[start + 2] == "%"
        left, right = _delims(markdown)
        if text.startswith("/*", start + 3):
            return self.scan_comment(start, left, right)
        p = _WS.match(text, start + 3).end()
        if text.startswith(right, p):
            raise self.fail(start, f"shortcode has no name: write {left} name {right}")
        if text.startswith("/", p):
            return self.scan_closing(start, p + 1, left, right)
        name, p = self.scan_name(start, p, left, right)
        return self.scan_params(start, name, p, left, right)

    def scan_comment(self, start: int, left: str, right: str) -> _Tag:
        # Hugo drops only the /* and */ and keeps everything else verbatim.
        close = self.text.find("*/" + right, start + 3)
        if close < start + 5:  # not found, or "{{</*/>}}" where the "*" is shared
            raise self.fail(start, f"unterminated shortcode comment: close {left}/* with */{right}")
        literal = left + self.text[start + 5 : close] + right
        return _Tag(_COMMENT, literal, [], False, close + 2 + len(right))

    def scan_name(
        self, start: int, p: int, left: str, right: str, after: str = ""
    ) -> tuple[str, int]:
        text = self.text
        m = _NAME.match(text, p)
        if m is None:
            if p >= len(text):
                raise self.fail(start, f"unterminated shortcode tag: add {right} after {left}")
            hint = ""
            if text.startswith("*", p):
                hint = f" (a literal call is written {left}/* name */{right}, no space before /*)"
            found = f"found {text[p]!r}{hint}"
            raise self.fail(p, f"expected a shortcode name after {after or left}, {found}")
        name, p = m.group(), m.end()
        if text.startswith(".", p):
            if not text.startswith("inline ", p + 1):
                raise self.fail(
                    p,
                    f'"." is not allowed in shortcode name "{name}" '
                    "(only inline shortcodes, name.inline, have one)",
                )
            name, p = name + ".inline", p + 7
        return name, p

    def scan_closing(self, start: int, p: int, left: str, right: str) -> _Tag:
        text = self.text
        p = _WS.match(text, p).end()
        name, p = self.scan_name(start, p, left, right, after=left + " /")
        p = _WS.match(text, p).end()
        if not text.startswith(right, p):
            if p >= len(text):
                raise self.fail(start, f"unterminated closing tag: add {right} after /{name}")
            raise self.fail(p, f"closing tag takes no parameters: write {left} /{name} {right}")
        return _Tag(_CLOSING, name, [], False, p + len(right))

    def scan_params(self, start: int, name: str, p: int, left: str, right: str) -> _Tag:
        text = self.text
        size = len(text)
        named: dict = {}
        positional: list = []
        fast = _NAMED_FAST.match
        while True:
            m = fast(text, p)
            if m is not None:
                if positional:
                    raise self.mixed(m.start(1), name)
                named[m.group(1)] = m.group(2)
                p = m.end()
                continue
            p = _WS.match(text, p).end()
            if text.startswith(right, p):
                return _Tag(_OPENING, name, named or positional, False, p + len(right))
            if p >= size:
                raise self.fail(start, f'unterminated shortcode tag "{left} {name}": add {right}')
            c = text[p]
            if c == "/":
                q = _WS.match(text, p + 1).end()
                if not text.startswith(right, q):
                    raise self.fail(
                        p, f'expected {right} after "/" in shortcode "{name}": write /{right}'
                    )
                return _Tag(_OPENING, name, named or positional, True, q + len(right))
            if c == "\\" and not text.startswith(('\\"', "\\`"), p):
                p += 1  # Hugo skips a stray backslash between parameters
                continue
            token_at = p
            value, quoted, p = self.scan_token(name, p, right)
            q = _WS.match(text, p).end()
            if text.startswith("=", q):
                if positional:
                    raise self.mixed(token_at, name)
                named[value], p = self.scan_value(name, value, q + 1, right)
            else:
                if named:
                    raise self.mixed(token_at, name)
                positional.append(value if quoted else typed_value(value))

    def mixed(self, offset: int, name: str) -> SourceError:
        return self.fail(
            offset,
            f'shortcode "{name}" mixes named and positional parameters: '
            'use only name="value" pairs or only positional values',
        )

    def scan_token(self, name: str, p: int, right: str) -> tuple[str, bool, int]:
        """A key or positional value at ``p``: (value, quoted, end)."""
        text = self.text
        c = text[p]
        if c == '"':
            value, end = self.scan_quoted(name, p)
            return value, True, end
        if c == "`":
            value, end = self.scan_raw(name, p)
            return value, True, end
        if c == "\\":
            value, end = self.scan_escaped(name, p)
            return value, True, end
        m = _WORD.match(text, p)
        if m is None:
            what = "=" if c == "=" else repr(c)
            hint = (
                'write name="value"'
                if c == "="
                else 'quote parameter values that contain it, e.g. name="value"'
            )
            raise self.fail(p, f'unexpected {what} in shortcode "{name}": {hint}')
        return m.group(), False, m.end()

    def scan_value(self, name: str, key: str, p: int, right: str) -> tuple[object, int]:
        """The value after ``key=``: quoted values stay strings, bare ones are typed."""
        text = self.text
        p = _WS.match(text, p).end()
        if p >= len(text) or text.startswith(right, p):
            raise self.fail(
                p, f'parameter "{key}" of shortcode "{name}" has no value: write {key}="..."'
            )
        c = text[p]
        if c == '"':
            return self.scan_quoted(name, p)
        if c == "`":
            return self.scan_raw(name, p)
        if text.startswith(('\\"', "\\`"), p):
            return self.scan_escaped(name, p)
        end = _UNQUOTED.match(text, p).end()
        value = text[p:end]
        if right in value:
            raise self.fail(
                p,
                f'unquoted value of "{key}" runs into {right}: put a space before {right} '
                f'or quote the value ({key}="...")',
            )
        return typed_value(value), end

    def scan_quoted(self, name: str, p: int) -> tuple[str, int]:
        """A "..." value: ``\\"`` escapes a quote; it may not span lines.

        Like Hugo, when a ``\\"`` occurs every backslash in the value is dropped,
        otherwise backslashes are kept as written (``\\\\`` is no escape).
        """
        text = self.text
        m = _QUOTED_FAST.match(text, p)
        if m is not None:
            return m.group(1), m.end()
        i, escaped = p + 1, False
        while True:
            i = _QUOTED_CHUNK.match(text, i).end()
            c = text[i] if i < len(text) else "\n"
            if c == '"':
                break
            if c == "\n":
                raise self.fail(
                    p,
                    f'unterminated quoted string in shortcode "{name}": add the closing " '
                    "(use `...` for a value that spans lines)",
                )
            nxt = text[i + 1 : i + 2]
            if nxt == "`":
                raise self.bad_escape(i)
            escaped = escaped or nxt == '"'
            i += 2 if nxt == '"' else 1
        raw = text[p + 1 : i]
        return (raw.replace("\\", "") if escaped else raw), i + 1

    def scan_escaped(self, name: str, p: int) -> tuple[str, int]:
        """A \\"...\\" value (a call quoted inside a string): ends at the next quote."""
        text = self.text
        if text.startswith("\\`", p):
            raise self.bad_escape(p)
        end = _ESCAPED_BODY.match(text, p + 2).end()
        if text.startswith('\\"', end):
            return text[p + 2 : end], end + 2
        if text.startswith('"', end):
            return text[p + 2 : end], end + 1
        if text.startswith("\\`", end):
            raise self.bad_escape(end)
        raise self.fail(p, f'unterminated quoted string in shortcode "{name}": add the closing \\"')

    def bad_escape(self, offset: int) -> SourceError:
        return self.fail(
            offset, "\\` is not a valid escape in a shortcode parameter: remove the \\"
        )

    def scan_raw(self, name: str, p: int) -> tuple[str, int]:
        end = self.text.find("`", p + 1)
        if end < 0:
            raise self.fail(p, f'unterminated raw string in shortcode "{name}": add the closing `')
        return self.text[p + 1 : end], end + 1
