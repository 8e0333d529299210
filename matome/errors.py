"""Errors a user can act on: every problem carries the file, line and column it is about."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SourceError(Exception):
    """A problem in one input file, printed as ``path:line:col: message``.

    ``line`` and ``col`` are 1-based; 0 means "the file as a whole".
    """

    path: str
    line: int
    col: int
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.message}"


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


class BuildFailed(Exception):
    """A build stopped with one or more problems; nothing was published."""

    def __init__(self, errors: list[SourceError]):
        super().__init__(f"{len(errors)} error(s)")
        self.errors = errors
