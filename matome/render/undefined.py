"""Names a template reads that do not exist: a warning with the template's path and line,
once per template and name in a build, or an error with ``matome build --strict``.

Jinja makes an ``Undefined`` only when a name is missing, so nothing here runs while
every name a template reads exists. What counts, as in Hugo:

- a variable that was never set, or an attribute an object does not have (``page.foo``,
  ``site.data``): Hugo fails on ``.Page.foo``; matome prints nothing and warns as soon
  as the value is used (printed, tested, looped over, compared);
- a key missing from a mapping (``page.params.subtitle``, ``site.params.x``): Hugo gives
  nil and says nothing, and so does matome, unless the template reads further into it
  (``page.params.a.b`` with no ``a``), which Hugo's ``index`` would refuse.

``is defined``, ``is undefined`` and ``default`` test a name without using it: never a
warning. A render that warned logs a read that never compares equal
(``incremental.reads.ALWAYS``), so the build cache renders it again in the next build,
which warns again until the template is fixed.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2
from jinja2.utils import missing

from ..errors import BuildFailed, SourceError

# A dotted or subscripted name in template source: page.params.a, site.data["x"].y
_CHAIN = re.compile(r"[A-Za-z_]\w*(?:\s*\.\s*\w+|\[[^\[\]]*\])*")
_SEGMENT = re.compile(r"\s*\.\s*(\w+)|\[\s*(?:\"([^\"]*)\"|'([^']*)'|(\d+))\s*\]")


class RenderWarning(SourceError):
    """A warning a render gives: it is given again by each render, never kept with the
    site graph."""


class UndefinedName(RenderWarning):
    """A warning (or with ``--strict`` an error) about a name a template used that does not
    exist."""


class UndefinedNames:
    """The undefined names one process's renders used: each (template, name) reported once.

    ``take`` hands the warnings found since the last call to whoever sends them on (a
    build's worker, with the row of the file it rendered)."""

    def __init__(self, source: Path, strict: bool = False) -> None:
        self.source = source
        self.strict = strict
        self.seen: set[tuple[str, str]] = set()
        self.found: list[SourceError] = []
        self.read_log: Any = None  # the build's ReadLog, once the environment is instrumented
        self._lines: dict[str, list[str]] = {}

    def take(self) -> list[SourceError]:
        found, self.found = self.found, []
        return found

    def warn(self, position: str, message: str) -> str:
        """A template's own warning (``warn``) at ``position``, ``path:line:col``; the
        render is done again in the next build, which warns again. Prints nothing."""
        if self.read_log is not None:
            self.read_log.always("warning")
        path, line, col = (position.rsplit(":", 2) + ["0", "0"])[:3]
        place = (int(line), int(col)) if line.isdigit() and col.isdigit() else (0, 0)
        self.found.append(RenderWarning(path, *place, message, "warning"))
        return ""

    def report(self, undefined: jinja2.Undefined) -> None:
        if self.read_log is not None:
            self.read_log.always("undefined")
        filename, line = _template_position()
        expr, col = self._expression(undefined, filename, line)
        path = self._display(filename)
        hint = undefined._undefined_hint
        message = f"{expr!r} is undefined" + (f" ({hint})" if hint else "")
        if self.strict:
            raise UndefinedName(path, line, col, message)
        if (path, expr) in self.seen:
            return
        self.seen.add((path, expr))
        self.found.append(UndefinedName(path, line, col, message, "warning"))

    def _display(self, filename: str) -> str:
        """A template of the site by its path in the site, the theme's by its full path."""
        if not filename:
            return "templates"
        try:
            return Path(filename).relative_to(self.source).as_posix()
        except ValueError:
            return filename

    def _expression(self, undefined: jinja2.Undefined, filename: str, line: int) -> tuple[str, int]:
        """The name as the template spells it (``page.params.a``) and its column, found in
        the template's line; else made from the object's type."""
        obj, name = undefined._undefined_obj, undefined._undefined_name
        text = self._line(filename, line)
        if obj is missing:
            found = re.search(rf"(?<![\w.]){re.escape(str(name))}(?!\w)", text)
            return str(name), (found.start() + 1 if found else 0)
        for chain in _CHAIN.finditer(text):
            end = _segment_end(chain.group(0), name)
            if end:
                return re.sub(r"\s+", "", chain.group(0)[:end]), chain.start() + 1
        owner = type(obj).__name__.lower()
        return (f"{owner}[{name!r}]" if not isinstance(name, str) else f"{owner}.{name}"), 0

    def _line(self, filename: str, line: int) -> str:
        lines = self._lines.get(filename)
        if lines is None:
            try:
                lines = Path(filename).read_text(encoding="utf-8").splitlines()
            except (OSError, ValueError):
                lines = []
            self._lines[filename] = lines
        return lines[line - 1] if 0 < line <= len(lines) else ""


def _segment_end(chain: str, name: Any) -> int:
    """Where the segment naming ``name`` ends in ``chain``, or 0 if none does."""
    for seg in _SEGMENT.finditer(chain, len(re.match(r"\w+", chain).group(0))):
        attr, double, single, index = seg.groups()
        value = next((v for v in (attr, double, single) if v is not None), None)
        if value == str(name) or (index is not None and index == str(name)):
            return seg.end()
    return 0


def _template_position() -> tuple[str, int]:
    """The template and line being rendered: the innermost frame of compiled template code."""
    frame = sys._getframe(2)
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            return template.filename or template.name or "", template.get_corresponding_lineno(
                frame.f_lineno
            )
        frame = frame.f_back
    return "", 0


def undefined_class(names: UndefinedNames) -> type[jinja2.ChainableUndefined]:
    """Jinja's chainable undefined (prints as nothing, reads through), reporting its uses."""

    class ReportedUndefined(jinja2.ChainableUndefined):
        __slots__ = ()

        def _missing_name(self) -> bool:
            """Whether this is a name that does not exist, rather than a key a mapping lacks."""
            obj = self._undefined_obj
            if isinstance(obj, Mapping):
                return False
            return not (isinstance(obj, Sequence) and isinstance(self._undefined_name, int))

        def _used(self) -> None:
            if self._missing_name():
                names.report(self)

        def __str__(self) -> str:
            self._used()
            return ""

        def __html__(self) -> str:
            self._used()
            return ""

        def __iter__(self):
            self._used()
            return iter(())

        def __len__(self) -> int:
            self._used()
            return 0

        def __bool__(self) -> bool:
            self._used()
            return False

        def __eq__(self, other: Any) -> bool:
            self._used()
            return type(self) is type(other)

        def __ne__(self, other: Any) -> bool:
            return not self.__eq__(other)

        __hash__ = jinja2.ChainableUndefined.__hash__

        def __getattr__(self, name: str) -> Any:
            if name[:2] == "__" and name[-2:] == "__":
                raise AttributeError(name)
            names.report(self)  # reading into what is not there: warned for a key too
            return self

        def __getitem__(self, name: Any) -> Any:
            names.report(self)
            return self

    return ReportedUndefined


def add_once(warnings: list[SourceError], found: list[SourceError]) -> None:
    """Add the undefined names a worker found to a build's warnings, each (template, name)
    once: every worker reports the names it met first."""
    for warning in found:
        if not any(w.path == warning.path and w.message == warning.message for w in warnings):
            warnings.append(warning)


def fail_on_undefined(warnings: list[SourceError]) -> None:
    """With ``--strict``: the undefined names among a build's warnings, as its errors."""
    found = [w for w in warnings if isinstance(w, UndefinedName)]
    if found:
        raise BuildFailed([UndefinedName(w.path, w.line, w.col, w.message) for w in found])
