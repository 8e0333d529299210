"""What Hugo refuses in Markdown, with its place: the build fails there."""

from __future__ import annotations


class MarkdownError(ValueError):
    """An input Hugo fails on; ``line`` and ``column`` count from 1 in the Markdown given."""

    def __init__(self, line: int, column: int, message: str):
        super().__init__(message)
        self.line = line
        self.column = column
        self.message = message
