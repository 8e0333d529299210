"""Chinese characters in the order the real ``hugo`` sorts them: the source of matome's
tables (matome/graph/han_root.txt, han_pinyin.txt, han_stroke.txt, han_ja.txt) and of
the tests that compare them.

    python tests/han_order_hugo.py    # writes the tables again with the hugo on PATH

Hugo sorts titles and terms with golang.org/x/text/collate for the site's language. Its
Chinese orders are pinyin (``zh``, ``zh-cn``, ``zh-hans``, ``zh-sg``) and stroke count
(``zh-tw``, ``zh-hant``, ``zh-hk``, ``zh-mo``); Japanese (``ja``, ``jpn``) puts the
kanji of JIS X 0208 (level 1 by reading, level 2 by radical) after every other Chinese
character; most other languages keep the Unicode collation's (root) order: the unified
ideographs, then the extensions, each by code point.
Each table is read off one throwaway site of such a language whose home page prints
every character of the Han blocks through Hugo's ``sort`` (which compares with the same
collator as the page and term orders: tests/test_han_order_hugo.py checks those too).

A table holds the characters that sort after every other script's letters (Latin, Hangul,
kana, Bopomofo, Yi), in Hugo's order. Characters with a compatibility decomposition (the
CJK compatibility ideographs, the Kangxi radicals) are left out: matome compares them as
the character they decompose to, as Hugo does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# table name -> a language that sorts so
TABLES = {"root": "en", "pinyin": "zh-cn", "stroke": "zh-tw", "ja": "ja"}

# Every block of Chinese characters, whole (code points unassigned in one Unicode version
# are assigned in a later one): the ideograph marks and Hangzhou numerals of CJK Symbols,
# the radicals supplement, Extension A, the unified ideographs, the twelve unified
# ideographs of the compatibility block, Extensions B to I.
HAN_BLOCKS = [
    (0x2E80, 0x2EFF),
    (0x3005, 0x3007),
    (0x3021, 0x3029),
    (0x3038, 0x303B),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xFA0E, 0xFA29),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2EE5F),
    (0x30000, 0x323AF),
]
# The last letters of the scripts Hugo's Chinese orders put just before Chinese (all in
# Unicode 6.2, the version of Hugo's collation tables).
MARKERS = ["z", "\ud7a3", "\u30fa", "\u31b7", "\ua48c"]

HEADER = """\
# Chinese characters in the order Hugo 0.168 sorts them for {langs}
# (golang.org/x/text/collate, CLDR's {name} collation), first to last. Written by
# `python tests/han_order_hugo.py` from the real hugo's output; tests/test_han_order_hugo.py
# checks it against hugo. A run of consecutive code points is written first-last.
"""
LANGS = {
    "root": "en, fr, de and most other languages",
    "pinyin": "zh, zh-cn, zh-hans, zh-sg",
    "stroke": "zh-tw, zh-hant, zh-hk, zh-mo",
    "ja": "ja",
}


def han_characters() -> list[str]:
    return [
        chr(cp)
        for first, last in HAN_BLOCKS
        for cp in range(first, last + 1)
        if unicodedata.normalize("NFKD", chr(cp)) == chr(cp)
    ]


def hugo_sort(texts: list[str], lang: str, workdir: Path) -> list[str]:
    """``texts`` as Hugo's ``sort`` orders them on a site of language ``lang``."""
    from hugo_oracle import hugo_binary

    site = Path(workdir) / f"sort-{lang}"
    (site / "data").mkdir(parents=True, exist_ok=True)
    (site / "layouts").mkdir(exist_ok=True)
    (site / "hugo.toml").write_text(
        f'baseURL = "https://e.org/"\ndefaultContentLanguage = "{lang}"\n'
        'disableKinds = ["rss", "sitemap", "robotstxt", "404", "taxonomy", "term", "section",'
        ' "page"]\n'
        f'[languages."{lang}"]\nweight = 1\n',
        encoding="utf-8",
    )
    (site / "data" / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
    (site / "layouts" / "home.html").write_text(
        "{{ range sort site.Data.texts }}{{ . }}\x1e{{ end }}", encoding="utf-8"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO_")}
    env["HUGO_CACHEDIR"] = str(site / "cache")
    cmd = [hugo_binary(), "-s", str(site), "-d", str(site / "public"), "--noBuildLock"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    if done.returncode != 0:
        raise AssertionError(f"hugo failed:\n{done.stdout}\n{done.stderr}")
    out = (site / "public" / "index.html").read_text(encoding="utf-8").split("\x1e")[:-1]
    assert sorted(out) == sorted(texts), "hugo's sort lost or changed texts"
    return out


def hugo_table(lang: str, workdir: Path) -> list[str]:
    """The Chinese characters that ``lang``'s collation orders after the other scripts'
    letters, in Hugo's order."""
    order = hugo_sort([*MARKERS, *han_characters()], lang, workdir)
    start = max(order.index(m) for m in MARKERS) + 1
    return order[start:]


def encode(chars: list[str]) -> str:
    """The table's lines: the characters in order, a run of three or more consecutive code
    points as ``first-last``, a hundred entries a line."""
    entries = []
    i = 0
    while i < len(chars):
        j = i
        while j + 1 < len(chars) and ord(chars[j + 1]) == ord(chars[j]) + 1:
            j += 1
        if j - i >= 2:
            entries.append(f"{chars[i]}-{chars[j]}")
            i = j + 1
        else:
            entries.append(chars[i])
            i += 1
    return "".join("".join(entries[k : k + 100]) + "\n" for k in range(0, len(entries), 100))


def main() -> None:
    with tempfile.TemporaryDirectory() as workdir:
        for name, lang in TABLES.items():
            table = hugo_table(lang, Path(workdir))
            path = REPO / "matome" / "graph" / f"han_{name}.txt"
            text = HEADER.format(langs=LANGS[name], name=name) + encode(table)
            path.write_text(text, encoding="utf-8")
            print(f"{path.relative_to(REPO)}: {len(table)} characters", file=sys.stderr)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
