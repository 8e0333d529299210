"""Word counts, reading times and summaries against the real ``hugo``, with and without
``hasCJKLanguage``.

Hugo reads 212 words a minute; with ``hasCJKLanguage``, a page whose file holds a Han,
Hiragana, Katakana or Hangul character (or whose front matter says ``isCJKLanguage``)
counts each character of a non-ASCII word as a word, reads 500 a minute, and cuts its
automatic summary by that count. Each test builds one site with both tools and compares
what a list template prints of every page.
"""

from __future__ import annotations

from matome.content import words

try:  # tests/ as a package or as a plain directory on sys.path
    from tests.theme_site import build_both
except ImportError:
    from theme_site import build_both

SEPARATOR = "@@page:"
HUGO_LIST = (
    SEPARATOR + "{{ range .Pages }}{{ .Title }} {{ .WordCount }} {{ .FuzzyWordCount }} "
    "{{ .ReadingTime }} {{ .Truncated }} [{{ .Summary }}]" + SEPARATOR + "{{ end }}"
)
MATOME_LIST = (
    SEPARATOR + "{% for p in page.pages %}{{ p.title }} {{ p.word_count }} "
    "{{ p.fuzzy_word_count }} {{ p.reading_time }} {{ p.truncated | lower }} "
    "[{{ p.summary }}]" + SEPARATOR + "{% endfor %}"
)


def _site(root, config: str, pages: dict[str, str | tuple[str, str]]) -> None:
    """``pages``: title -> the body, or (more front matter, the body)."""
    for kind, template in (("layouts", HUGO_LIST), ("templates", MATOME_LIST)):
        (root / kind / "_default").mkdir(parents=True)
        (root / kind / "_default" / "list.html").write_text(template, encoding="utf-8")
        (root / kind / "_default" / "single.html").write_text("x", encoding="utf-8")
    (root / "content" / "posts").mkdir(parents=True)
    (root / "hugo.toml").write_text(
        'baseURL = "https://e.org/"\ntitle = "T"\n' + config, encoding="utf-8"
    )
    for n, (title, text) in enumerate(pages.items()):
        date = f"2020-01-01T00:{n // 60:02d}:{n % 60:02d}"
        extra, body = text if isinstance(text, tuple) else ("", text)
        (root / "content" / "posts" / f"p{n:04d}.md").write_text(
            f"+++\ntitle = '{title}'\ndate = '{date}'\n{extra}+++\n{body}", encoding="utf-8"
        )


def _listed(path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    cases = [c.strip() for c in text.split(SEPARATOR) if c.strip()]
    return {case.split(" ", 1)[0]: case for case in cases}


def _compare(tmp_path, config: str, pages: dict) -> dict[str, str]:
    root = tmp_path / "site"
    _site(root, config, pages)
    hugo_out, matome_out = build_both(root, tmp_path)
    hugo = _listed(hugo_out / "posts" / "index.html")
    ours = _listed(matome_out / "posts" / "index.html")
    assert sorted(hugo) == sorted(pages)
    differ = {t: (ours.get(t), hugo[t]) for t in hugo if ours.get(t) != hugo[t]}
    assert not differ, differ
    return hugo


def _edges() -> list[int]:
    """Each end of every range of the four scripts, and the code point beyond it."""
    points = set()
    for chars in (words._HAN, words._HIRAGANA, words._KATAKANA, words._HANGUL):
        i = 0
        while i < len(chars):
            low = high = ord(chars[i])
            if i + 2 < len(chars) and chars[i + 1] == "-":
                high, i = ord(chars[i + 2]), i + 3
            else:
                i += 1
            points.update((low - 1, low, high, high + 1))
    # Common-script characters of Japanese text (no page with only these is CJK), and
    # one of each script.
    points.update(map(ord, "ー、。・「」〜ｰﾞﾟ゛゜\u3000あア漢한"))
    return sorted(p for p in points if not 0xD800 <= p <= 0xDFFF and p > 0x7F)


def test_cjk_scripts_match_hugo(tmp_path):
    """One page per code point, its only non-ASCII character in a two-character word: a
    CJK page counts it as 2 words, another as 1."""
    points = _edges()
    pages = {f"u{p:05x}": f"a{chr(p)}\n" for p in points}
    hugo = _compare(tmp_path, "hasCJKLanguage = true\n", pages)
    counted = {title: line.split()[1] for title, line in hugo.items()}
    # The sample has both kinds, as the ranges say.
    assert {counted[f"u{p:05x}"] for p in points} >= {"1", "2"}
    assert counted["u030fc"] == "1" and counted["u03042"] == "2"  # ー is Common, あ Hiragana


PROSE = (
    "これは日本語の段落です。単語の間に空白がありません。\n\n"
    "二つ目の段落には English words と **強調** と [リンク](https://e.org/) があります。\n\n"
    "三つ目。\n\n"
    + "長い段落" * 40
    + "\n\n"
    + "最後の段落 with a few ASCII words at its end here.\n"
)


def test_cjk_summaries_and_counts_match_hugo(tmp_path):
    pages = {
        "prose": PROSE,
        "ascii_only": "plain English words only, no CJK script at all.\n\nSecond para.\n",
        "forced_off": ("isCJKLanguage = false\n", PROSE),
        "forced_on": ("isCJKLanguage = true\n", "english " * 30 + "\n\nmore words ü\n"),
        "cjk_in_front_matter": ("# 日本語のコメント\n", "English words below, ü\n"),
        "kana_then_tags": "<span>かな</span> と <b>太字</b> の <i>x</i> 語\n\n次\n",
        "exact_500": "あ" * 499 + "\n",
        "exact_501": "あ" * 500 + " a\n",
        "short": "短い。\n",
    }
    for length in (0, 3, 20, 70):
        _compare(
            tmp_path / f"len{length}",
            f"hasCJKLanguage = true\nsummaryLength = {length}\n",
            pages,
        )


def test_reading_time_matches_hugo(tmp_path):
    """212 words a minute without ``hasCJKLanguage``, whatever the script."""
    counts = (1, 211, 212, 213, 423, 424, 425, 426, 637, 638)
    pages = {f"w{n}": " ".join(["word"] * n) + "\n" for n in counts}
    pages["japanese"] = PROSE
    hugo = _compare(tmp_path, "", pages)
    assert hugo["w213"].split()[3] == "2" and hugo["w212"].split()[3] == "1"
