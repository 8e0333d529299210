"""The parts of markdown-it-py and mdit-py-plugins used here that are not public API.

Reproducing Goldmark takes more than markdown-it-py's plugin interface: the package reads
markdown-it's HTML block patterns, builds inline delimiters and tokens itself, works on
the parser states' fields (``StateInline.append_pending``, ``pending``, ``linkLevel``,
``delimiters``, ``tokens_meta``; ``StateBlock.bMarks``, ``tShift``, ``sCount``...), wraps
rules found in a ruler's private list, and reads the token types and ``meta`` keys the
footnote and deflist plugins produce. Every import of such an internal is here, so that
an upgrade that moves one breaks in one place, and tests/test_library_internals.py checks
the shape of each internal the package relies on, naming the library and the internal
when one fails.

Known to work with markdown-it-py 4.3.0 and mdit-py-plugins 0.7.0;
pyproject.toml keeps markdown-it-py and mdit-py-plugins below their next breaking release.
"""

from __future__ import annotations

from typing import Any

from markdown_it.common.utils import MD_TRIM_CHARS, escapeHtml
from markdown_it.rules_block.html_block import HTML_SEQUENCES
from markdown_it.rules_inline.state_inline import Delimiter, StateInline
from markdown_it.token import Token

__all__ = [
    "HTML_SEQUENCES",
    "MD_TRIM_CHARS",
    "Delimiter",
    "StateInline",
    "Token",
    "escapeHtml",
    "ruler_rules",
]


def ruler_rules(ruler) -> list[Any]:
    """A markdown-it ruler's rules in order (each with ``name``, ``fn`` and ``alt``).

    Ruler offers no public way to read a rule back, and wrapping markdown-it's own rule
    (rather than copying it) needs its function.
    """
    return ruler.__rules__
