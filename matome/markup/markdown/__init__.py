"""Markdown to HTML the way Hugo renders it with Goldmark.

matome must produce the same HTML as ``hugo`` for the same content, so this package
sets markdown-it-py up to behave like Hugo's Goldmark configuration: same extensions,
same raw-HTML policy, same typographer output (HTML entities), same heading IDs, same
link escaping and the same code block wrappers. Where markdown-it's own rules differ
from Goldmark's, a small rule replaces them; each says why. The modules follow
Goldmark's and Hugo's own split, one concern each:

* ``settings``: Hugo's ``markup`` config, read once (keys matched case-insensitively).
* ``chars``: Go's character classes and HTML escaping, which Goldmark uses.
* ``attributes``, ``headings``: attribute lists, heading IDs and heading attributes.
* ``urls``: Goldmark's link escaping and dangerous URLs.
* ``typographer``, ``linkify``, ``inline``, ``emoji``: inline rules.
* ``rawhtml``, ``tables``, ``lists``, ``blocks``: block rules and fix-ups.
* ``highlight``: code blocks in Chroma's markup; ``toc``: the table of contents.
* ``hooks``: the site's render hooks (links, images, headings, code blocks, block
  quotes) seen from Markdown.
* ``render_rules``: the HTML of each token; ``parser``: the MarkdownIt instance.
* ``fastpath``: comments and article frames rendered without the parser.
* ``renderer``: :class:`MarkdownRenderer`, what the rest of matome uses.
* ``library_internals``: every markdown-it-py and mdit-py-plugins internal used.

The reference is Hugo 0.168 (Goldmark 1.8.6); tests/test_markdown_hugo.py compares the
output with the real ``hugo`` binary. What does not match, on purpose:

* Fenced code is tokenised by Pygments, not Chroma: the wrappers (``div.highlight``,
  ``pre``/``code`` attributes, line spans, line numbers, highlighted lines, tables) are
  Chroma's, but token ``<span>`` classes and colours are Pygments' and the set of known
  languages differs a little (an unknown language gets Hugo's plain ``<pre>``).
* ``:emoji:`` names come from the ``emoji`` package (a matome dependency): all of GitHub's,
  which Goldmark knows, and Unicode's names besides, which Goldmark does not.
* A few Goldmark parser quirks found by fuzzing are not reproduced; the tests list them.
"""

from .errors import MarkdownError
from .fastpath import plain_line
from .headings import Heading, anchorize, heading_id
from .hooks import RenderHooks
from .renderer import MarkdownRenderer, RenderedMarkdown, trim_short_html

__all__ = [
    "Heading",
    "MarkdownError",
    "MarkdownRenderer",
    "RenderHooks",
    "RenderedMarkdown",
    "anchorize",
    "heading_id",
    "plain_line",
    "trim_short_html",
]
