"""Hugo's word counts, with ``hasCJKLanguage``: a page holding Chinese, Japanese or Korean
script counts each of those characters as a word (its text has few spaces), and reads at
500 of them a minute instead of 212 words.

Hugo asks whether the file, front matter included, has a character of the Han, Hiragana,
Katakana or Hangul scripts (Go's ``\\p{Han}`` and the rest). Python's ``re`` knows no
scripts and the standard library has no script table, so their ranges are written out
here from the Unicode Character Database (Scripts.txt of Unicode 17, the version of the Go
that built Hugo 0.168); ``tests/test_words_hugo.py`` checks the edges of each against the
real ``hugo``.
"""

from __future__ import annotations

import re

_HAN = (
    "\u2e80-\u2e99\u2e9b-\u2ef3\u2f00-\u2fd5\u3005\u3007\u3021-\u3029\u3038-\u303b"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufa6d\ufa70-\ufad9"
    "\U00016fe2\U00016fe3\U00016ff0-\U00016ff6\U00020000-\U0002a6df\U0002a700-\U0002b81d"
    "\U0002b820-\U0002cead\U0002ceb0-\U0002ebe0\U0002ebf0-\U0002ee5d\U0002f800-\U0002fa1d"
    "\U00030000-\U0003134a\U00031350-\U00033479"
)
_HIRAGANA = (
    "\u3041-\u3096\u309d-\u309f\U0001b001-\U0001b11f\U0001b132\U0001b150-\U0001b152\U0001f200"
)
_KATAKANA = (
    "\u30a1-\u30fa\u30fd-\u30ff\u31f0-\u31ff\u32d0-\u32fe\u3300-\u3357\uff66-\uff6f\uff71-\uff9d"
    "\U0001aff0-\U0001aff3\U0001aff5-\U0001affb\U0001affd\U0001affe\U0001b000"
    "\U0001b120-\U0001b122\U0001b155\U0001b164-\U0001b167"
)
_HANGUL = (
    "\u1100-\u11ff\u302e\u302f\u3131-\u318e\u3200-\u321e\u3260-\u327e\ua960-\ua97c"
    "\uac00-\ud7a3\ud7b0-\ud7c6\ud7cb-\ud7fb\uffa0-\uffbe\uffc2-\uffc7\uffca-\uffcf"
    "\uffd2-\uffd7\uffda-\uffdc"
)
_CJK = re.compile(f"[{_HAN}{_HIRAGANA}{_KATAKANA}{_HANGUL}]")


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a Han, Hiragana, Katakana or Hangul character."""
    return _CJK.search(text) is not None


def cjk_word_weight(word: str) -> int:
    """What one space-separated word of a CJK page counts for: each of its characters when
    it has any beyond ASCII."""
    return 1 if word.isascii() else len(word)


def word_count(plain: str, cjk: bool) -> int:
    words = plain_words(plain)
    return sum(map(cjk_word_weight, words)) if cjk else len(words)


def plain_words(plain: str) -> list[str]:
    """Hugo's ``.PlainWords``: the text cut at Go's spaces, which are Python's but for the
    four ASCII separators U+001C to U+001F."""
    if _PYTHON_ONLY_SPACE.search(plain) is None:
        return plain.split()
    return _GO_WORD.findall(plain)


def reading_time(words: int, cjk: bool) -> int:
    """Minutes, rounded up: 212 words a minute, or 500 characters in a CJK page."""
    return (words + 499) // 500 if cjk else (words + 211) // 212


# --- the page's text: Hugo's StripHTML ------------------------------------------------------
#
# Hugo makes ``.Plain`` (and so every count above, and ``plainify``) by turning each newline
# into a space and each ``</p>``, ``<br>`` and ``<br />`` (written exactly so) into a newline,
# then removing tags with Go's html/template ``stripTags``, then keeping only the first space
# of each run of spaces. ``stripTags`` reads HTML as a browser's tokenizer would: a ``<`` that
# starts no tag name is text (``a <3 b``), a ``>`` inside a quoted attribute value does not end
# its tag, comments go, the content of ``<script>`` and ``<style>`` goes, and a tag that is
# broken (a quote or ``<`` in an attribute name, a value or tag never closed) drops everything
# after it. Entities are kept as written.
#
# Every page's text is made so in a few substitutions: its tags are read by one regular
# expression (the usual tag first, Go's whole grammar of a tag after) and each is replaced by
# a mark, so that no text joins across a removed tag; the line breaks are left in and made
# newlines once the text is short; the runs of spaces are cut one leading character at a
# time, as a search for a literal character is fast. What that cannot read as Go does (a
# broken tag, script, style, title or textarea, a '<' in an unquoted attribute value) goes
# the slow way, tag by tag.

_GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_WS = "[ \t\n\f\r]"  # html/template's own whitespace, between attributes
_TAG_NAME = r"[A-Za-z][A-Za-z0-9]*+(?:[:-][A-Za-z0-9]++)*+"
# A tag's attributes, each a name and maybe a value, quoted (to the same quote) or not (to a
# space or '>'), then its end. Possessive: a name or a value is read once, as stripTags reads
# it, never shortened to make a broken tag fit.
_NAME = r"[^ \t\n\f\r\"'<=>]++"
_QUOTED = r"\"[^\"]*+\"|'[^']*+'"
_TAG_REST = rf"(?:{_WS}*+{_NAME}(?:{_WS}*+={_WS}*+(?:{_QUOTED}|[^ \t\n\f\r>\"'][^ \t\n\f\r>]*+|))?+)*+{_WS}*+>"
# The same without a '<' in an unquoted value, where a line break could hide.
_TAG_REST_NO_LT = rf"(?:{_WS}*+{_NAME}(?:{_WS}*+={_WS}*+(?:{_QUOTED}|[^ \t\n\f\r>\"'<][^ \t\n\f\r><]*+|))?+)*+{_WS}*+>"
_RAW_TEXT_NAME = r"(script|style|textarea|title)(?![A-Za-z0-9]|[:-][A-Za-z0-9])"
# A comment, or a whole tag as stripTags reads one.
_TAG_OR_COMMENT = re.compile(rf"<!--.*?-->|</?{_TAG_NAME}{_TAG_REST}", re.S)
# The same less the line breaks and the opening tags of the raw text elements (script, style,
# textarea, title, whose content is not read as HTML), which it leaves in the text.
_ORDINARY_TAG_OR_COMMENT = re.compile(
    rf"</(?!p>)[A-Za-z][A-Za-z0-9]*+>"
    rf"|<(?!br>|(?i:{_RAW_TEXT_NAME}))[A-Za-z][A-Za-z0-9]*+(?: [a-z-]++(?:=\"[^\"]*+\")?+)*+/?+>"
    rf"|<!--.*?-->|</(?!p>){_TAG_NAME}{_TAG_REST_NO_LT}"
    rf"|<(?!br>|br />|(?i:{_RAW_TEXT_NAME})){_TAG_NAME}{_TAG_REST_NO_LT}",
    re.S,
)
_REMOVED = "\x01"  # where a tag was, until the line breaks are read
_RAW_TEXT = re.compile(rf"<{_RAW_TEXT_NAME}", re.I)
# What starts a tag or a comment for stripTags, and of those, what the substitution leaves
# but the line breaks: a broken tag, or a raw text element.
_TAG_START = re.compile(r"<(?:!--|/?[A-Za-z])")
_LEFT_OVER = re.compile(r"<(?:!--|(?!/p>|br>|br />)/?[A-Za-z])")
_LINE_BREAK = re.compile(r"</p>|<br>|<br />")
# Hugo's own mark for a line break: the same words in the page are a line break too.
_HUGO_NEWLINE = "___hugonl_"
_GO_WORD = re.compile(f"[^{_GO_SPACE}]+")
_PYTHON_ONLY_SPACE = re.compile("[\x1c-\x1f]")
# Runs of spaces, cut to their first character: by one substitution per usual character a
# run starts with, then, if an unusual space is left, by one that looks behind each space.
_USUAL_SPACES = " \n\t\u3000"
_USUAL_RUNS = [(re.compile(f"{c}[{_GO_SPACE}]+"), c) for c in _USUAL_SPACES]
_UNUSUAL_SPACES = (
    "\v\f\r\x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f"
)
_SPACE_AFTER_SPACE = re.compile(f"(?<=[{_GO_SPACE}])[{_GO_SPACE}]+")


def strip_html(html: str) -> str:
    """Hugo's ``StripHTML``: the text of ``html`` for ``.Plain``, word counts and ``plainify``."""
    if "<" not in html and ">" not in html:
        return html  # as written: Hugo keeps even runs of spaces then
    text = _strip_tags_quickly(html)
    if text is None:  # stripTags's way, in Hugo's order (a "<br\n/>" stays a tag)
        text = _strip_tags_slowly(_LINE_BREAK.sub(_HUGO_NEWLINE, html).replace("\n", " "))
    if _HUGO_NEWLINE in text and ("\n" in html or _LINE_BREAK.search(html)):
        text = text.replace(_HUGO_NEWLINE, "\n")
    for run, first in _USUAL_RUNS:
        text = run.sub(first, text)
    if any(space in text for space in _UNUSUAL_SPACES):  # a search per character is quicker
        return _SPACE_AFTER_SPACE.sub("", text)
    return text


def _strip_tags_quickly(html: str) -> str | None:
    """The text with tags removed, newlines made spaces and line breaks newlines; None when
    one substitution cannot tell it."""
    if _REMOVED in html:
        return None
    text = _ORDINARY_TAG_OR_COMMENT.sub(_REMOVED, html)
    if _LEFT_OVER.search(text) is not None:
        return None
    return _LINE_BREAK.sub("\n", text.replace("\n", " ")).replace(_REMOVED, "")


def _strip_tags_slowly(html: str) -> str:
    """``stripTags`` tag by tag, for what one substitution cannot do."""
    out: list[str] = []
    pos = 0
    while (start := _TAG_START.search(html, pos)) is not None:
        out.append(html[pos : start.start()])
        if html.startswith("<!--", start.start()):
            end = html.find("-->", start.start() + 4)
            if end == -1:
                return "".join(out)  # an unclosed comment runs to the end
            pos = end + 3
            continue
        tag = _TAG_OR_COMMENT.match(html, start.start())
        if tag is None:
            return "".join(out)  # a broken tag: stripTags gives up on the rest
        pos = tag.end()
        raw = _RAW_TEXT.match(tag.group(0))
        if raw is not None:
            name = raw.group(1).lower()
            end = _end_tag(html, name, pos)
            if name in ("textarea", "title"):  # their text is text; a script's is not
                text = html[pos : len(html) if end == -1 else end]
                # stripTags ends the text before its end tag at the last '<' it holds
                cut = text.rfind("<") if end != -1 else -1
                out.append(text if cut == -1 else text[:cut])
            if end == -1:
                return "".join(out)
            pos = end
    out.append(html[pos:])
    return "".join(out)


def _end_tag(html: str, name: str, pos: int) -> int:
    """Where ``</name`` (any case, whatever follows) starts after ``pos``, or -1."""
    while (i := html.find("</", pos)) != -1:
        if html[i + 2 : i + 2 + len(name)].lower() == name:
            return i
        pos = i + 2
    return -1
