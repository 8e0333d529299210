"""Code blocks as Hugo writes them with Chroma, tokenised by Pygments.

Hugo highlights fenced code (and the ``highlight`` shortcode and function) with Chroma.
Pygments tokenises differently, so token spans and colours are not Chroma's; the wrapper
markup (``div.highlight``, ``pre``/``code`` attributes, line spans, line numbers,
highlighted lines, the line number table) and the options (``highlight_options``) are
Chroma's and Hugo's. A language Chroma or Pygments does not know gets Hugo's plain ``<pre>``.
Highlighting never fails on the code itself: any lexer, any token type, any style.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from .attributes import Attributes, attribute_text, read_attributes
from .chars import ASCII_WS, go_escape
from .highlight_options import (
    FENCE_OPTIONS,
    HighlightConfig,
    decode,
    highlighted_lines,
    hl_lines_ranges,
    line_numbers,
    normalize,
    parse_option_string,
)
from .hooks import hook_attributes
from .library_internals import escapeHtml


class FenceAttributeError(ValueError):
    """A fence's ``{...}`` that Goldmark cannot read: Hugo fails there."""

    def __init__(self, column: int):
        super().__init__("failed to parse Markdown attributes; you may need to quote the values")
        self.column = column  # of the '{' in the info string, from 0


# The names of Pygments' lexers (their aliases and file extensions) that Chroma knows too,
# one a line: Hugo writes a fence of a language Chroma does not know (`slim`) as a plain
# <pre>, so matome does, even where Pygments could highlight it.
_CHROMA_LANGUAGES = Path(__file__).with_name("chroma_languages.txt")


@lru_cache(maxsize=1)
def _chroma_languages() -> frozenset[str]:
    return frozenset(_CHROMA_LANGUAGES.read_text(encoding="utf-8").split())


@lru_cache(maxsize=256)
def _lexer(lang: str):
    """The lexer of a fence's language (lower case), or None where Chroma has none. Chroma
    takes a language it has no name for as a file name: ``hcl:main.tf`` is Terraform."""
    from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
    from pygments.util import ClassNotFound

    chroma = _chroma_languages()
    if lang not in chroma:
        lang = lang.rsplit("/", 1)[-1].rpartition(".")[2]
        if lang not in chroma:
            return None
    for finder, name in ((get_lexer_by_name, lang), (get_lexer_for_filename, f"x.{lang}")):
        try:
            return finder(name, stripnl=False, ensurenl=True)
        except ClassNotFound:
            continue
    return None


@lru_cache(maxsize=16)
def _style(name: str):
    from pygments.styles import get_style_by_name
    from pygments.util import ClassNotFound

    try:
        return get_style_by_name(name.lower())  # Hugo's style names are case-insensitive
    except ClassNotFound:
        return get_style_by_name("default")


def _inline_css(style, token_type) -> str:
    # A lexer may make a finer token than any style names (YAML's Literal.Scalar.Plain):
    # it takes the style of the nearest one it refines, as Pygments' own formatter does.
    while not style.styles_token(token_type) and token_type.parent is not None:
        token_type = token_type.parent
    entry = style.style_for_token(token_type)
    parts = []
    if entry["color"]:
        parts.append(f"color:#{entry['color']}")
    if entry["bgcolor"]:
        parts.append(f"background-color:#{entry['bgcolor']}")
    if entry["bold"]:
        parts.append("font-weight:bold")
    if entry["italic"]:
        parts.append("font-style:italic")
    if entry["underline"]:
        parts.append("text-decoration:underline")
    return ";".join(parts)


# Chroma guesses a language only from these few signs (``guessSyntax``), else it takes
# plain text: (Chroma's name, Pygments' lexer, [(pattern, score)], first match only).
_GUESSES = [
    ("bash", "bash", [(r"(?m)^#!.*/bin/(?:env |)(?:bash|zsh|sh|ksh)", 1.0)], True),
    ("c", "c", [(r"(?m)^\s*#include <", 0.1), (r"(?m)^\s*#ifn?def ", 0.1)], True),
    ("c++", "cpp", [(r"#include <[a-z_]+>", 0.2), (r"using namespace ", 0.4)], True),
    ("erb", "erb", [(r"<%=[\s\S]*%>|%>[\s\S]*<%=", 0.4), (r"<%", 0.1)], True),
    ("go", "go", [(r"fmt\.[\s\S]*package |package [\s\S]*fmt\.", 0.5), (r"package ", 0.1)], True),
    ("php", "php", [(r"<\?php", 0.5)], True),
]
_LINE_NO_CSS = (
    "white-space:pre;-webkit-user-select:none;user-select:none;"
    "margin-right:0.4em;padding:0 0.4em 0 0.4em;color:#7f7f7f"
)
_TABLE_CSS = "border-spacing:0;padding:0;margin:0;border:0;"
_TD_CSS = "vertical-align:top;padding:0;margin:0;border:0;"


@dataclass(frozen=True)
class _Block:
    """One code block's settings, worked out from its options."""

    no_classes: bool
    style: str
    line_nos: str  # "", "inline" or "table"
    start: int
    ranges: tuple[tuple[int, int], ...]  # line numbers (as shown) to highlight
    linked: bool  # anchorLineNos: each line number links to itself
    anchor_prefix: str  # of the line numbers' ids
    tab_width: int
    inline: bool  # hl_inline: a <code> without the block around it

    def highlighted(self, index: int) -> bool:
        number = self.start + index
        return any(low <= number <= high for low, high in self.ranges)


def fence_attributes(info: str) -> tuple[dict, Attributes]:
    """A fence's highlighting options and its HTML attributes, from its ``{...}``."""
    start = info.find("{")
    if start < 0 or info.find("}", start) < 0:
        return {}, []
    found = read_attributes(info[: info.find("}", start) + 1], start)
    if found is None:
        raise FenceAttributeError(start)
    options, attrs = {}, []
    for name, value in found[0]:
        if name.lower().startswith("on"):
            continue  # Hugo drops event handler attributes
        if name.lower() in FENCE_OPTIONS:
            options[name] = value
        else:
            attrs.append((name.lower(), value))
    return options, attrs


def codeblock_context(code: str, info: str, ordinal: int) -> dict[str, Any]:
    """What a code block render hook gets, as Hugo gives it: ``type`` (the language as
    written), ``inner`` (the code without its last newline), ``attributes``, ``options``
    (the highlighting ones, named as written, ``hl_lines`` as zero-based ``[first,
    last]`` ranges; only for a language the highlighter knows) and ``ordinal``."""
    options, attrs = fence_attributes(info)
    lang = fence_language(info)
    known = bool(lang) and _lexer(lang.lower()) is not None
    hook_options = {}
    for name, value in hook_attributes(list(options.items())).items() if known else ():
        if name.lower() == "hl_lines" and isinstance(value, list):
            value = [list(r) for r in hl_lines_ranges(options[name])]
        hook_options[name] = value
    return {
        "type": lang,
        "inner": code.rstrip("\r\n"),
        "attributes": hook_attributes(attrs),
        "options": hook_options,
        "ordinal": ordinal,
    }


class Highlighter:
    def __init__(self, config: HighlightConfig):
        self.config = config

    def fence(self, code: str, info: str, ordinal: int) -> str:
        """A fenced code block, the ``ordinal``-th of its page (from 0)."""
        options, attrs = fence_attributes(info)
        config = decode(self.config, normalize(options))
        if not config.line_anchors:
            config = replace(config, line_anchors=f"hl-{ordinal}")
        code = code.rstrip("\r\n")
        return self._highlight(code + "\n" if code else code, fence_language(info), attrs, config)

    def shortcode(self, code: str, lang: str, options: str) -> str:
        """Hugo's ``highlight`` shortcode and function: options as ``linenos=table,hl_lines=2``."""
        config = decode(self.config, parse_option_string(options))
        return self._highlight(code.strip("\n"), lang, [], config)

    def _highlight(self, code: str, lang: str, attrs: Attributes, config: HighlightConfig) -> str:
        lexer = _lexer(lang.lower()) if lang else None
        if lexer is None and config.guess_syntax:
            lang, lexer = _guess(code)
        if lexer is None:
            if config.hl_inline:
                return f"<code{_inline_attrs(lang)}>{go_escape(code)}</code>"
            return _pre_start(lang) + go_escape(code) + "</code></pre>"
        block = _block(config)
        lines = _token_lines(code, lexer, block)
        if block.inline:
            return f"<code{_inline_attrs(lang)}>" + "".join(lines) + "</code>"
        return _div_start(attrs, config.wrapper_class) + _body(lines, lang, block) + "</div>"


def _block(config: HighlightConfig) -> _Block:
    numbered, in_table = line_numbers(config)
    return _Block(
        no_classes=config.no_classes,
        style=config.style,
        line_nos=("table" if in_table else "inline") if numbered else "",
        start=config.line_no_start,
        ranges=highlighted_lines(config),
        linked=config.anchor_line_nos,
        anchor_prefix=f"{config.line_anchors}-" if config.line_anchors else "",
        tab_width=config.tab_width,
        inline=config.hl_inline,
    )


def _guess(code: str):
    """Chroma's guess (``guessSyntax``): its name for the language, and a lexer."""
    best, score = None, 0.0
    for name, alias, patterns, first in _GUESSES:
        found = [s for p, s in patterns if re.search(p, code)]
        value = (found[0] if found else 0.0) if first else sum(found)
        if value > score:
            best, score = (name, alias), value
    if best is None:
        return "fallback", _lexer("text")
    return best[0], _lexer(best[1])


def _inline_attrs(lang: str) -> str:
    return f' class="code-inline language-{go_escape(lang)}"'


def _div_start(attrs: Attributes, wrapper_class: str) -> str:
    classes = " ".join([wrapper_class] + [attribute_text(v) for k, v in attrs if k == "class"])
    rest = "".join(f' {k}="{escapeHtml(attribute_text(v))}"' for k, v in attrs if k != "class")
    return f'<div class="{classes}"{rest}>'


def _body(lines: list[str], lang: str, b: _Block) -> str:
    pre = _pre_attr(b, grid=bool(b.ranges))
    if b.line_nos != "table":
        return _pre_start(lang, pre) + _wrap_lines(lines, b) + "</code></pre>"
    if b.no_classes:
        outer, table, td = f"<div{pre}>", f' style="{_TABLE_CSS}"', f' style="{_TD_CSS}"'
        code_td = f' style="{_TD_CSS};width:100%"'
    else:
        outer, table, td = '<div class="chroma">', ' class="lntable"', ' class="lntd"'
        code_td = td
    return (
        f"{outer}\n<table{table}><tr><td{td}>\n"
        + _pre_start("", pre)
        + _number_column(len(lines), b)
        + f"</code></pre></td>\n<td{code_td}>\n"
        + _pre_start(lang, pre)
        + _wrap_lines(lines, b)
        + "</code></pre></td></tr></table>\n</div>\n"
    )


def _pre_attr(b: _Block, grid: bool = False) -> str:
    if not b.no_classes:
        return ' class="chroma"'
    style = _style(b.style)
    text = _text_css(b.style).split(";")[0] or "color:#000000"
    tab = b.tab_width
    # Chroma leaves its own default of 8 (and 0) unwritten.
    tabs = f"-moz-tab-size:{tab};-o-tab-size:{tab};tab-size:{tab};" if tab not in (0, 8) else ""
    return (
        f' style="{text};background-color:{style.background_color};{tabs}'
        f'-webkit-text-size-adjust:none;{"display:grid;" if grid else ""}"'
    )


def _pre_start(lang: str, attrs: str = "") -> str:
    code = f' class="language-{go_escape(lang)}" data-lang="{go_escape(lang)}"' if lang else ""
    return f'<pre tabindex="0"{attrs}><code{code}>'


def _number(n: int, width: int, b: _Block) -> tuple[str, str]:
    """(id attribute, content) of line number ``n``."""
    label = str(n).rjust(width)
    if not b.linked:
        return "", label
    anchor = f"{b.anchor_prefix}{n}"
    link = (
        ' style="outline:none;text-decoration:none;color:inherit"'
        if b.no_classes
        else ' class="lnlinks"'
    )
    return f' id="{anchor}"', f'<a{link} href="#{anchor}">{label}</a>'


def _number_column(count: int, b: _Block) -> str:
    width = len(str(b.start + count - 1))
    out = []
    for i in range(count):
        ident, label = _number(b.start + i, width, b)
        css = f' style="{_LINE_NO_CSS}"' if b.no_classes else ' class="lnt"'
        span = f"<span{css}{ident}>{label}\n</span>"
        if b.highlighted(i):
            hl = ' style="background-color:#3c3d38"' if b.no_classes else ' class="hl"'
            span = f"<span{hl}>{span}</span>"
        out.append(span)
    return "".join(out)


def _wrap_lines(lines: list[str], b: _Block) -> str:
    width = len(str(b.start + len(lines) - 1))
    out = []
    for i, body in enumerate(lines):
        hl = b.highlighted(i)
        if b.no_classes:
            line = (
                '<span style="display:flex; background-color:#3c3d38">'
                if hl
                else '<span style="display:flex;">'
            )
            cell = "<span>"
        else:
            line = '<span class="line hl">' if hl else '<span class="line">'
            cell = '<span class="cl">'
        number = ""
        if b.line_nos == "inline":
            ident, label = _number(b.start + i, width, b)
            css = f' style="{_LINE_NO_CSS}"' if b.no_classes else ' class="ln"'
            number = f"<span{css}{ident}>{label}</span>"
        out.append(f"{line}{number}{cell}{body}</span></span>")
    return "".join(out)


def _token_lines(code: str, lexer, b: _Block) -> list[str]:
    lines, line = [], []
    tokens = list(lexer.get_tokens(code))
    if not code.endswith("\n") and tokens and tokens[-1][1].endswith("\n"):
        # Pygments always ends with a newline; code given without one keeps none.
        tokens[-1] = (tokens[-1][0], tokens[-1][1][:-1])
    for token_type, value in tokens:
        for piece in re.split(r"(?<=\n)", value):
            if piece:
                line.append(_span(token_type, piece, b))
            if piece.endswith("\n"):
                lines.append("".join(line))
                line = []
    if line:
        lines.append("".join(line))
    return lines


def _span(token_type, text: str, b: _Block) -> str:
    from pygments.token import STANDARD_TYPES, Text

    if token_type is Text:
        return go_escape(text)
    if b.no_classes:
        css = _token_css(b.style, token_type)
        if not css or css == _text_css(b.style):  # Chroma omits the block's own colour
            return go_escape(text)
        return f'<span style="{css}">{go_escape(text)}</span>'
    while token_type not in STANDARD_TYPES:
        token_type = token_type.parent
    return f'<span class="{STANDARD_TYPES[token_type]}">{go_escape(text)}</span>'


@lru_cache(maxsize=1024)
def _token_css(style_name: str, token_type) -> str:
    style = _style(style_name)
    # A lexer may emit its own token types (YAML's Token.Literal.Scalar.Plain), which no
    # style lists: as Pygments' formatters do, the nearest listed parent type styles it.
    while not style.styles_token(token_type):
        token_type = token_type.parent
    return _inline_css(style, token_type)


def _text_css(style_name: str) -> str:
    from pygments.token import Text

    return _token_css(style_name, Text)


def fence_language(info: str) -> str:
    """Goldmark's language: the info string up to the first space, before any ``{``."""
    lang = info.strip(ASCII_WS).split(" ", 1)[0]
    return lang.split("{", 1)[0]
