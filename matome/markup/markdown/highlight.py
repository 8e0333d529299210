"""Code blocks as Hugo writes them with Chroma, tokenised by Pygments.

Hugo highlights fenced code (and the ``highlight`` shortcode and function) with Chroma.
Pygments tokenises differently, so token spans and colours are not Chroma's; the wrapper
markup (``div.highlight``, ``pre``/``code`` attributes, line spans, line numbers,
highlighted lines, the line number table) and the options read from the site config and
the fence's ``{...}`` are Chroma's. A language Pygments does not know gets Hugo's plain
``<pre>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .attributes import parse_attributes
from .chars import ASCII_WS, go_escape
from .library_internals import escapeHtml
from .settings import Settings


@lru_cache(maxsize=256)
def _lexer(lang: str):
    from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
    from pygments.util import ClassNotFound

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
        return get_style_by_name(name)
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


_CHROMA_OPTIONS = frozenset(
    [
        "anchorlinenos",
        "guesssyntax",
        "hl_lines",
        "lineanchors",
        "linenos",
        "linenostart",
        "linenumbersintable",
        "noclasses",
        "style",
        "tabwidth",
    ]
)
# Commas between options, not inside brackets or quotes: hl_lines=[2,3] stays one option.
_OPTION_SPLIT = re.compile(r""",(?=(?:[^"\[\]]|"[^"]*"|\[[^\]]*\])*$)""")
_LINE_NO_CSS = (
    "white-space:pre;-webkit-user-select:none;user-select:none;"
    "margin-right:0.4em;padding:0 0.4em 0 0.4em;color:#7f7f7f"
)
_TABLE_CSS = "border-spacing:0;padding:0;margin:0;border:0;"
_TD_CSS = "vertical-align:top;padding:0;margin:0;border:0;"


@dataclass
class _CodeOptions:
    """Chroma options for one code block: site config overridden by the fence's attributes."""

    no_classes: bool
    style: str
    line_nos: str  # "", "inline" or "table"
    start: int
    highlight: frozenset[int]
    anchors: str  # id prefix for linkable line numbers, "" when off
    tab_width: int
    guess: bool


def _truthy(value: str) -> bool:
    return str(value).lower() not in ("false", "0", "")


def _hl_lines(value: str) -> frozenset[int]:
    lines: set[int] = set()
    for part in re.split(r"[\s,\[\]\"]+", str(value)):
        first, _, last = part.partition("-")
        if first.isdigit():
            lines.update(range(int(first), int(last or first) + 1))
    return frozenset(lines)


def _code_options(s: Settings, opts: dict[str, str], ordinal: int) -> _CodeOptions:
    line_nos, in_table = opts.get("linenos", s.line_nos), s.line_numbers_in_table
    if str(line_nos).lower() in ("table", "inline"):
        in_table = str(line_nos).lower() == "table"
    elif "linenumbersintable" in opts:
        in_table = _truthy(opts["linenumbersintable"])
    numbered = _truthy(line_nos) if isinstance(line_nos, str) else bool(line_nos)
    anchors = ""
    if _truthy(opts.get("anchorlinenos", s.anchor_line_nos)):
        anchors = opts.get("lineanchors", s.line_anchors) or f"hl-{ordinal}"
    return _CodeOptions(
        no_classes=_truthy(opts["noclasses"]) if "noclasses" in opts else s.no_classes,
        style=opts.get("style", s.style),
        line_nos=("table" if in_table else "inline") if numbered else "",
        start=int(opts.get("linenostart", s.line_no_start)),
        highlight=_hl_lines(opts.get("hl_lines", s.hl_lines)),
        anchors=anchors,
        tab_width=int(opts.get("tabwidth", s.tab_width)),
        guess=_truthy(opts["guesssyntax"]) if "guesssyntax" in opts else s.guess_syntax,
    )


def _fence_attributes(info: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """Chroma options and HTML attributes from a fence's ``{...}`` block."""
    start, end = info.find("{"), info.find("}")
    if start < 0 or end < start:
        return {}, []
    attrs = parse_attributes(info[start + 1 : end]) or []
    opts = {k.lower(): v for k, v in attrs if k.lower() in _CHROMA_OPTIONS}
    return opts, [(k, v) for k, v in attrs if k.lower() not in _CHROMA_OPTIONS]


class Highlighter:
    def __init__(self, settings: Settings):
        self.s = settings

    def block(self, code: str, info: str, ordinal: int, final_newline: bool = True) -> str:
        """A fenced block; Hugo's highlight shortcode passes ``final_newline=False``."""
        lang = fence_language(info)
        opts, attrs = _fence_attributes(info)
        o = _code_options(self.s, opts, ordinal)
        code = code.rstrip("\r\n")
        code = code + "\n" if code and final_newline else code
        lexer = _lexer(lang.lower()) if lang else None
        if lexer is None and o.guess:
            lexer = self._guess(code)
        if lexer is None:
            return self._pre_start(lang) + go_escape(code) + "</code></pre>"
        lines = self._token_lines(code, lexer, o)
        return self._div_start(attrs) + self._body(lines, lang, o) + "</div>"

    def shortcode(self, code: str, lang: str, options: str) -> str:
        """Hugo's ``highlight`` shortcode: options written as ``linenos=table,hl_lines=2``."""
        pairs = [p.strip() for p in _OPTION_SPLIT.split(options) if p.strip()]
        info = f"{lang} {{{' '.join(pairs)}}}" if pairs else lang
        return self.block(code.strip("\n"), info, 0, final_newline=False)

    @staticmethod
    def _guess(code: str):
        from pygments.lexers import guess_lexer

        return guess_lexer(code, stripnl=False, ensurenl=True)

    def _div_start(self, attrs: list[tuple[str, str]]) -> str:
        classes = " ".join([self.s.wrapper_class] + [v for k, v in attrs if k == "class"])
        rest = "".join(f' {k}="{escapeHtml(v)}"' for k, v in attrs if k != "class")
        return f'<div class="{classes}"{rest}>'

    def _body(self, lines: list[str], lang: str, o: _CodeOptions) -> str:
        pre = self._pre_attr(o, grid=bool(o.highlight))
        if o.line_nos != "table":
            return self._pre_start(lang, pre) + self._wrap_lines(lines, o) + "</code></pre>"
        if o.no_classes:
            outer, table, td = f"<div{pre}>", f' style="{_TABLE_CSS}"', f' style="{_TD_CSS}"'
            code_td = f' style="{_TD_CSS};width:100%"'
        else:
            outer, table, td, code_td = (
                '<div class="chroma">',
                ' class="lntable"',
                ' class="lntd"',
                ' class="lntd"',
            )
        return (
            f"{outer}\n<table{table}><tr><td{td}>\n"
            + self._pre_start("", pre)
            + self._number_column(len(lines), o)
            + f"</code></pre></td>\n<td{code_td}>\n"
            + self._pre_start(lang, pre)
            + self._wrap_lines(lines, o)
            + "</code></pre></td></tr></table>\n</div>\n"
        )

    def _pre_attr(self, o: _CodeOptions, grid: bool = False) -> str:
        if not o.no_classes:
            return ' class="chroma"'
        style = _style(o.style)
        text = _text_css(o.style).split(";")[0] or "color:#000000"
        tab = o.tab_width
        return (
            f' style="{text};background-color:{style.background_color};'
            f"-moz-tab-size:{tab};-o-tab-size:{tab};tab-size:{tab};"
            f'-webkit-text-size-adjust:none;{"display:grid;" if grid else ""}"'
        )

    @staticmethod
    def _pre_start(lang: str, attrs: str = "") -> str:
        code = f' class="language-{go_escape(lang)}" data-lang="{go_escape(lang)}"' if lang else ""
        return f'<pre tabindex="0"{attrs}><code{code}>'

    def _number(self, n: int, width: int, o: _CodeOptions) -> tuple[str, str]:
        """(id attribute, content) of line number ``n``."""
        label = str(n).rjust(width)
        if not o.anchors:
            return "", label
        anchor = f"{o.anchors}-{n}"
        link = (
            ' style="outline:none;text-decoration:none;color:inherit"'
            if o.no_classes
            else ' class="lnlinks"'
        )
        return f' id="{anchor}"', f'<a{link} href="#{anchor}">{label}</a>'

    def _number_column(self, count: int, o: _CodeOptions) -> str:
        width = len(str(o.start + count - 1))
        out = []
        for i in range(count):
            ident, label = self._number(o.start + i, width, o)
            css = f' style="{_LINE_NO_CSS}"' if o.no_classes else ' class="lnt"'
            span = f"<span{css}{ident}>{label}\n</span>"
            if i + 1 in o.highlight:
                hl = ' style="background-color:#3c3d38"' if o.no_classes else ' class="hl"'
                span = f"<span{hl}>{span}</span>"
            out.append(span)
        return "".join(out)

    def _wrap_lines(self, lines: list[str], o: _CodeOptions) -> str:
        width = len(str(o.start + len(lines) - 1))
        out = []
        for i, body in enumerate(lines):
            hl = i + 1 in o.highlight
            if o.no_classes:
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
            if o.line_nos == "inline":
                ident, label = self._number(o.start + i, width, o)
                css = f' style="{_LINE_NO_CSS}"' if o.no_classes else ' class="ln"'
                number = f"<span{css}{ident}>{label}</span>"
            out.append(f"{line}{number}{cell}{body}</span></span>")
        return "".join(out)

    def _token_lines(self, code: str, lexer, o: _CodeOptions) -> list[str]:
        lines, line = [], []
        tokens = list(lexer.get_tokens(code))
        if not code.endswith("\n") and tokens and tokens[-1][1].endswith("\n"):
            # Pygments always ends with a newline; code given without one keeps none.
            tokens[-1] = (tokens[-1][0], tokens[-1][1][:-1])
        for token_type, value in tokens:
            for piece in re.split(r"(?<=\n)", value):
                if piece:
                    line.append(self._span(token_type, piece, o))
                if piece.endswith("\n"):
                    lines.append("".join(line))
                    line = []
        if line:
            lines.append("".join(line))
        return lines

    @staticmethod
    def _span(token_type, text: str, o: _CodeOptions) -> str:
        from pygments.token import STANDARD_TYPES, Text

        if token_type is Text:
            return go_escape(text)
        if o.no_classes:
            css = _token_css(o.style, token_type)
            if not css or css == _text_css(o.style):  # Chroma omits the block's own colour
                return go_escape(text)
            return f'<span style="{css}">{go_escape(text)}</span>'
        while token_type not in STANDARD_TYPES:
            token_type = token_type.parent
        return f'<span class="{STANDARD_TYPES[token_type]}">{go_escape(text)}</span>'


@lru_cache(maxsize=1024)
def _token_css(style_name: str, token_type) -> str:
    return _inline_css(_style(style_name), token_type)


def _text_css(style_name: str) -> str:
    from pygments.token import Text

    return _token_css(style_name, Text)


def fence_language(info: str) -> str:
    """Goldmark's language: the info string up to the first space, before any ``{``."""
    lang = info.strip(ASCII_WS).split(" ", 1)[0]
    return lang.split("{", 1)[0]
