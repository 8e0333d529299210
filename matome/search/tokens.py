"""Japanese and Chinese text as Pagefind words: one word per character.

Pagefind splits text into words at spaces. For Japanese it can run a dictionary
segmenter (its ``extended`` build, language ``ja``), but that segmenter's dictionary
takes most of a second to load in every indexing process, its words and the
browser's (``Intl.Segmenter``) often differ, so a word it split otherwise is not
found, and it costs more per character than everything else Pagefind does.
Instead every CJK character is made a word of its own here, and the search box
(``static/js/matome.js``) turns a query into the same characters searched as an
exact phrase: any substring of the text is found, and nothing else.

The character classes are mirrored in ``static/js/matome.js`` (``CJK_LETTER``);
change both together (and ``VERSION``, which makes the next build index again).
"""

from __future__ import annotations

import re

VERSION = "1"

# Letters: kana (with the iteration marks and the long vowel mark), ideographs, the
# ideographic iteration and closing marks, half-width katakana.
LETTER = (
    "\u3005-\u3007\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9d\U00020000-\U0003134f"
)
# CJK punctuation and symbols: kept with the letter before them, so that a query
# (whose punctuation Pagefind drops) finds "ロック・ピッキング" as "ロックピッキング".
MARK = (
    "\u3001-\u3004\u3008-\u3020\u3030\u303d\u309b\u309c\u30a0\u30fb"
    "\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
)
_RUN = re.compile(f"[{LETTER}{MARK}]+")
_HAS_MARK = re.compile(f"[{MARK}]")
_TOKEN = re.compile(f"[{MARK}]*[{LETTER}][{MARK}]*|[{MARK}]+")


def split_cjk(text: str) -> str:
    """``text`` with a space around every CJK character (and its trailing marks)."""
    return _RUN.sub(_spaced, text)


def _spaced(m: re.Match) -> str:
    run = m.group()
    if _HAS_MARK.search(run) is None:  # most runs: letters only
        return f" {' '.join(run)} "
    return f" {' '.join(_TOKEN.findall(run))} "
