"""``strip_html`` (Hugo's ``StripHTML``, behind ``.Plain``, the word counts and ``plainify``)
reads most pages with one substitution and falls back to reading tag by tag. The two ways
must agree on every input: a U+0001 in the text (matome's own mark for a removed tag) sends
a text the slow way, so the same text with and without one in front is read both ways.
``tests/test_words_hugo.py`` compares the result with the real ``hugo``."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from matome.content.words import strip_html

# Pieces that make the tokenizer's every state: tags, comments, quotes, raw text elements,
# line breaks in Hugo's three spellings and others, spaces Go and Python disagree on.
PIECES = [
    "<",
    ">",
    "/",
    "=",
    '"',
    "'",
    "!--",
    "-->",
    "<!--",
    "p",
    "br",
    "b",
    "x-y",
    ":",
    "a",
    "<p>",
    "</p>",
    "<br>",
    "<br />",
    "<br/>",
    "<br\n/>",
    '<div class="x">',
    "</div>",
    "<i x>",
    "<a href=x>",
    "script",
    "<script>",
    "</script>",
    "<title>",
    "</TITLE>",
    "textarea",
    " ",
    "\n",
    "\t",
    "\u3000",
    "\xa0",
    "\u2003",
    "\x1c",
    "あ",
    "&lt;",
    "B",
    "___hugonl_",
]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=16))
def test_quick_and_slow_reading_agree(pieces):
    html = "".join(pieces)
    assert strip_html("\x01" + html) == "\x01" + strip_html(html)


def test_line_breaks_are_newlines():
    assert strip_html("一<br>二<br />三</p>四") == "一\n二\n三\n四"
    assert strip_html("a<br/>b<BR>c") == "abc"  # only Hugo's three spellings
