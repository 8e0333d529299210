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


# --- the page's text (.Plain) and plainify, as Hugo's StripHTML makes them ----------------

PLAIN_PROBE_HUGO = (
    "{{ range .Pages }}" + SEPARATOR + '{{ dict "title" .Title "plain" .Plain "words" .WordCount '
    '"plain_words" .PlainWords "fuzzy" .FuzzyWordCount "minutes" .ReadingTime '
    '"plainify" (.Content | plainify) | jsonify }}{{ end }}'
)
PLAIN_PROBE_MATOME = (
    "{% for p in page.pages %}" + SEPARATOR + '{{ {"title": p.title, "plain": p.plain, '
    '"words": p.word_count, "plain_words": p.plain_words, "fuzzy": p.fuzzy_word_count, '
    '"minutes": p.reading_time, "plainify": p.content | plainify | string} | jsonify }}'
    "{% endfor %}"
)
# Raw HTML kept (unsafe), so that the bodies reach the stripping as written.
PLAIN_BODIES = {
    "br_splits_words": "最初の行<br>次の行<br />三行目<br/>四行目<BR>五\n",
    "paragraphs": "one\n\ntwo  three\n\n四\n",
    "hard_breaks": "line one  \nline two\\\nthree\n",
    "lists_tables": "- a\n- b\n\n1. c\n\n| x | y |\n|---|---|\n| 1 | 2 |\n",
    "code": "```\nx  y\n\n z\n```\n\n`a  b`\n",
    "heading": "# Head\n\ntext\n",
    "entities": 'Tom &amp; Jerry\'s "q" -- x... a &lt; b &nbsp;&nbsp;c\n',
    "lt_is_text": "a <3 b\n",
    "quoted_gt": "<span title=\"1>2\">t</span>x <b data-x='<br>'>y</b>\n",
    "comment": "a<!-- c <br> -->b\n",
    "unclosed_comment": "x <!-- abc\n\nz\n",
    "script_style": "x<script>var a = '<b>';</script>y<style>p{}</style>z\n\nw\n",
    "script_case": "<div>x<SCRIPT>a</ScRiPt>y</div>\n",
    "title_textarea": "<title>a<b</title>z <textarea>t  u</textarea>\n",
    "script_unclosed": "<div>x<script>abc\n\nz\n",
    "broken_quote": '<div>a<span "x">rest of it</div>\n\nmore\n',
    "broken_eq": "<div>a <span =x>rest</div>\n\nz\n",
    "broken_lt": "<div>a <span a<b>rest</div>\n\nz\n",
    "unclosed_value": '<div>a <span title="x>rest</div>\n\nmore\n',
    "unquoted_values": "<div>a <span title=x>rest<span a=>b</div>\n",
    "br_in_unquoted": "<div>a <span title=x<br>y>rest</div>\n",
    "names": "<div>a<x:y>b</x:y><a-b>c</a-b><a->d</div>\n",
    "end_tag_forms": "<div>a</ b>c</>d<//x>e</div>\n",
    "lt_at_end": "a <\n",
    "br_split_by_tag": "<div>a<<b>br>c</div>\n",
    "br_newline_slash": "<div>a<br\n/>b</div>\n",
    "meta": '<div>a<meta content="x>y">b</div>\n',
    "hugo_mark": "a ___hugonl_ b\n",
    "spaces": "a\u3000\u3000b  c\xa0\xa0d\u2003 \te\n",
    "separators": "a\x1cb c\x1fd\n",
    "comment_cards": (
        '<article class="comment"><header><span>user</span> <time>2025/02/07</time></header>\n'
        '<div class="comment-body">一行目<br>二行目<br><br>三行目</div></article>\n'
    ),
    "empty": "",
}


def _probed(path) -> dict[str, dict]:
    import json

    text = path.read_text(encoding="utf-8")
    cases = [json.loads(c) for c in text.split(SEPARATOR)[1:]]
    return {case["title"]: case for case in cases}


def _compare_plain(tmp_path, config: str, bodies: dict[str, str]) -> dict[str, dict]:
    root = tmp_path / "site"
    _site(root, config, bodies)
    for kind, template in (("layouts", PLAIN_PROBE_HUGO), ("templates", PLAIN_PROBE_MATOME)):
        (root / kind / "_default" / "list.html").write_text(template, encoding="utf-8")
    hugo_out, matome_out = build_both(root, tmp_path)
    hugo = _probed(hugo_out / "posts" / "index.html")
    ours = _probed(matome_out / "posts" / "index.html")
    assert sorted(hugo) == sorted(bodies)
    differ = {t: (ours.get(t), hugo[t]) for t in hugo if ours.get(t) != hugo[t]}
    assert not differ, differ
    return hugo


def test_plain_text_matches_hugo(tmp_path):
    """``.Plain``, ``.PlainWords``, the counts and ``plainify``: line breaks and paragraph ends
    are newlines, so ``一<br>二`` is two words; tags are read as Go's html/template reads them."""
    hugo = _compare_plain(tmp_path, "[markup.goldmark.renderer]\nunsafe = true\n", PLAIN_BODIES)
    assert hugo["br_splits_words"]["plain_words"][:2] == ["最初の行", "次の行"]
    assert hugo["broken_quote"]["plain"] == "a"  # a broken tag: the rest is dropped


def test_plain_text_cjk_matches_hugo(tmp_path):
    config = "hasCJKLanguage = true\n[markup.goldmark.renderer]\nunsafe = true\n"
    bodies = {k: PLAIN_BODIES[k] for k in ("br_splits_words", "comment_cards", "title_textarea")}
    hugo = _compare_plain(tmp_path, config, bodies)
    assert hugo["br_splits_words"]["words"] > len(hugo["br_splits_words"]["plain_words"])


def test_plain_text_around_block_shortcodes_matches_hugo(tmp_path):
    """A shortcode alone in its paragraph: its output, then the paragraph's line break (a
    space in ``.Plain`` before the next paragraph, as the real blog's article lists have)."""
    bodies = {
        "between": "前の文。\n\n{{< block >}}\n\n後の文。\n",
        "at_the_end": "前の文。\n\n{{< block >}}\n",
        "in_a_row": "{{< block >}}\n\n\n{{< block >}}\n\n- 項目\n",
        "inline": "前の文\n{{< block >}}\n後の文。\n",
        "consecutive_lines": "前の文。\n\n{{< block >}}\n{{< block >}}\n",
    }
    root = tmp_path / "site"
    _site(root, "", bodies)
    for kind, template in (("layouts", PLAIN_PROBE_HUGO), ("templates", PLAIN_PROBE_MATOME)):
        (root / kind / "_default" / "list.html").write_text(template, encoding="utf-8")
        (root / kind / "shortcodes").mkdir()
        (root / kind / "shortcodes" / "block.html").write_text(
            "<ul><li>一つ目</li><li>二つ目</li></ul>", encoding="utf-8"
        )
    hugo_out, matome_out = build_both(root, tmp_path)
    hugo = _probed(hugo_out / "posts" / "index.html")
    ours = _probed(matome_out / "posts" / "index.html")
    assert sorted(hugo) == sorted(bodies)
    assert ours == hugo
    assert "二つ目 後の文。" in hugo["between"]["plain"]
