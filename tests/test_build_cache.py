"""The build cache (``.matome-cache/``): a warm build shows every change and equals a cold one.

Each test builds a generated site, changes one thing (an article, a template, a
shortcode template, the config, the title of a page another page refers to),
builds again with the cache, and checks that the change is in the output and
that the whole output is byte for byte what a build without the cache writes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

from matome.build import build
from matome.config import Flags, load_config
from matome.content.loader import KnownFiles, load_content
from matome.content.page import RENDERED_FIELDS, Page, defer_rendered, drop_content
from matome.errors import BuildFailed, SourceError
from matome.graph.site import build_site
from matome.images.thumbnails import PreparedImages
from matome.incremental import buildcache, snapshot
from matome.incremental.reads import GraphView, page_key
from matome.incremental.snapshot import Snapshot
from matome.markup.expand import RenderedContent, attach_content
from matome.pipeline import outputs as pipeline_outputs
from matome.pipeline.bodies import reuse

ARTICLES = 40  # with the tag, month and alias pages, enough outputs to use the workers


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def article(n: int, title: str | None = None, extra: str = "") -> str:
    day = n % 28 + 1
    return (
        f"+++\ntitle = '{title or f'記事 {n}'}'\ndate = 2025-03-{day:02d}T10:00:00+09:00\n"
        f"months = '2025/03'\ntags = ['tag{n % 5}', 'common']\naliases = ['/old/{n}/']\n+++\n"
        f"> 見出しの引用 {n}\n\n"
        f'{{{{< matomeQuote body="コメント {n} の本文。<br>二行目。" userName="user{n}" '
        f'createdAt="2025/03/{day:02d} 12:00:00" color="#ff5733" >}}}}\n'
        f'{{{{< matomeQuote body="返信 {n}" userName="other" createdAt="2025/03/{day:02d} 12:30:00" '
        f'color="" >}}}}\n{extra}'
    )


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    write(
        root / "hugo.toml",
        'baseURL = "https://example.org/"\ntitle = "キャッシュの試験"\nlanguageCode = "ja"\n'
        "[pagination]\n  pagerSize = 10\n[taxonomies]\n  tag = 'tags'\n  months = 'months'\n"
        "[markup.goldmark.renderer]\n  unsafe = true\n[params]\n  enableSearch = false\n"
        "  mainSections = ['posts']\n",
    )
    write(root / "content/posts/_index.md", "+++\ntitle = '記事一覧'\n+++\n")
    for n in range(ARTICLES):
        write(root / f"content/posts/a{n:02d}/index.md", article(n))
    # Article 0 prints the title of article 1 through a shortcode of the site's own.
    write(
        root / "templates/shortcodes/title-of.html",
        "<cite>{{ get_page(shortcode.get(0)).title }}</cite>",
    )
    write(
        root / "content/posts/a00/index.md",
        article(0, extra='\n参照先: {{< title-of "/posts/a01" >}}\n'),
    )
    return root


def run(site: Path, out: Path, *, cache: bool = True, jobs: int = 2, clean: bool = False):
    return build(site, Flags(destination=str(out)), jobs=jobs, read_cache=cache, clean=clean)


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def saved_cache(site: Path) -> tuple[Path, buildcache.BuildCache]:
    """The site's cache folder and the cache index the last build saved there."""
    folder = buildcache.cache_folder(site)
    return folder, buildcache.load(folder, buildcache.fingerprint(load_config(site, Flags())))


def assert_same_as_cold(site: Path, warm_out: Path, tmp_path: Path) -> None:
    """The warm build's output is byte for byte a build's without the cache."""
    cold_out = tmp_path / "cold"
    run(site, cold_out, cache=False)
    warm, cold = tree(warm_out), tree(cold_out)
    assert warm.keys() == cold.keys()
    differing = [path for path in warm if warm[path] != cold[path]]
    assert not differing, differing[:10]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    touch_later(path)


def touch_later(path: Path) -> None:
    """A new modification time even on a file system with coarse timestamps."""
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))


@pytest.fixture
def built(site: Path, tmp_path: Path) -> tuple[Path, Path]:
    out = tmp_path / "public"
    first = run(site, out)
    assert first.rendered_content == ARTICLES + 1  # and the section page
    assert (site / ".matome-cache" / "index.pickle").is_file()
    return site, out


def test_a_build_with_nothing_changed_renders_nothing_and_rewrites_nothing(built, tmp_path):
    site, out = built
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    again = run(site, out)
    assert (again.rendered_content, again.rendered_outputs) == (0, 0)
    assert again.unchanged == len(before)
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == before
    assert_same_as_cold(site, out, tmp_path)


def inputs(site: Path) -> list[Path]:
    return [p for p in site.rglob("*") if p.is_file() and ".matome-cache" not in p.parts]


def test_a_fresh_checkout_with_the_cache_restored_renders_nothing(built, tmp_path):
    """A CI checkout gives every file a new modification time; their bytes say nothing
    changed, and the one file whose bytes did change (same size) is still seen."""
    site, out = built
    for path in inputs(site):
        touch_later(path)
    report = run(site, out)
    assert report.stages.keys() == {"check"}  # not even the graph is loaded
    for path in inputs(site):
        touch_later(path)
    edit(site / "content/posts/a07/index.md", "コメント 7", "コメント 8")  # same size
    report = run(site, out)
    assert (report.graph_kept, report.edited, report.rendered_content) == (True, 1, 1)
    assert "コメント 8 の本文" in (out / "posts/a07/index.html").read_text()
    assert_same_as_cold(site, out, tmp_path)


def test_a_fresh_checkout_without_the_published_files_reuses_graph_and_bodies(built, tmp_path):
    site, out = built
    for path in inputs(site):
        touch_later(path)
    (out / "posts/a03/index.html").unlink()
    report = run(site, out)
    assert (report.graph_kept, report.edited, report.rendered_content) == (True, 0, 0)
    assert report.rendered_outputs == 1  # the missing file; the others are as published
    assert_same_as_cold(site, out, tmp_path)


def test_an_edited_article_is_rendered_again_and_only_what_shows_it(built, tmp_path):
    site, out = built
    edit(site / "content/posts/a05/index.md", "コメント 5 の本文", "書き換えた本文")
    report = run(site, out)
    assert report.graph_kept  # only a body changed: the last build's site graph
    assert report.rendered_content == 1
    assert 0 < report.rendered_outputs < 10  # its page, not the site
    assert "書き換えた本文" in (out / "posts/a05/index.html").read_text()
    assert_same_as_cold(site, out, tmp_path)


def test_an_edited_title_reaches_lists_terms_feeds_and_the_page_that_prints_it(built, tmp_path):
    site, out = built
    path = site / "content/posts/a01/index.md"
    path.write_text(article(1, title="新しい題名"))
    touch_later(path)
    report = run(site, out)
    assert not report.graph_kept  # front matter changed: the graph is built again
    # Article 0's body, which prints article 1's title (article 1's own body does not).
    assert report.rendered_content == 1
    assert "<cite>新しい題名</cite>" in (out / "posts/a00/index.html").read_text()
    assert "新しい題名" in (out / "tags/tag1/index.html").read_text()
    assert "新しい題名" in (out / "index.xml").read_text()
    assert_same_as_cold(site, out, tmp_path)


def shadow_theme_template(site: Path, name: str, old: str, new: str) -> str:
    """The theme's template ``name`` with ``old`` replaced, as the site's own: returns it."""
    text = (Path(__file__).resolve().parent.parent / "templates" / name).read_text()
    assert old in text
    text = text.replace(old, new, 1)
    write(site / "templates" / name, text)
    return text


def test_an_edited_template_is_used_by_every_page_that_loads_it(built, tmp_path):
    site, out = built
    probe = "<p class=cache-probe>probe</p></article>"
    text = shadow_theme_template(site, "_default/single.html", "</article>", probe)
    # A site file now shadows the theme's: any lookup may change, everything is rendered.
    report = run(site, out)
    assert report.rendered_outputs > ARTICLES
    write(site / "templates/_default/single.html", text.replace("probe</p>", "probe 2</p>"))
    touch_later(site / "templates/_default/single.html")
    report = run(site, out)
    assert report.graph_kept  # the graph does not read templates
    assert report.rendered_content == 0  # bodies do not load single.html
    assert report.rendered_outputs == ARTICLES
    assert "probe 2" in (out / "posts/a07/index.html").read_text()
    assert_same_as_cold(site, out, tmp_path)


def test_an_edited_shortcode_template_renders_the_bodies_that_call_it(built, tmp_path):
    site, out = built
    write(
        site / "templates/shortcodes/title-of.html", "<q>{{ get_page(shortcode.get(0)).title }}</q>"
    )
    touch_later(site / "templates/shortcodes/title-of.html")
    report = run(site, out)
    assert report.rendered_content == 1  # only article 0 calls title-of
    assert "<q>記事 1</q>" in (out / "posts/a00/index.html").read_text()
    assert_same_as_cold(site, out, tmp_path)


def test_a_config_change_renders_everything(built, tmp_path):
    site, out = built
    edit(site / "hugo.toml", "キャッシュの試験", "別の題名")
    report = run(site, out)
    assert report.rendered_content == ARTICLES + 1
    assert "別の題名" in (out / "index.html").read_text()
    assert_same_as_cold(site, out, tmp_path)


ATOM_FORMAT = (
    '[mediaTypes."application/atom+xml"]\n  suffixes = ["xml"]\n'
    '[outputFormats.atom]\n  mediaType = "application/atom+xml"\n  baseName = "atom"\n'
    '[outputs]\n  home = ["html", "rss", "atom"]\n'
)


def test_an_edited_title_reaches_a_feed_in_the_sites_own_format(site, tmp_path):
    with (site / "hugo.toml").open("a") as config:
        config.write(ATOM_FORMAT)
    write(
        site / "templates/index.atom.xml",
        "<feed>{% for p in site.regular_pages %}<entry>{{ p.title }}</entry>{% endfor %}</feed>\n",
    )
    out = tmp_path / "public"
    run(site, out)
    assert "<entry>記事 5</entry>" in (out / "atom.xml").read_text()
    edit(site / "content/posts/a05/index.md", "title = '記事 5'", "title = '新しい題名'")
    report = run(site, out)
    assert report.rendered_outputs < report.kept_outputs  # not everything again
    assert "<entry>新しい題名</entry>" in (out / "atom.xml").read_text()
    assert_same_as_cold(site, out, tmp_path)


def test_a_feed_template_that_begins_or_ceases_to_paginate_writes_or_removes_pagers(
    built, tmp_path
):
    """Whether a list in a format other than HTML is paginated is read from its
    template's text: an edit of the template alone changes which files there are."""
    site, out = built
    with (site / "hugo.toml").open("a") as config:
        config.write('[outputs]\n  home = ["html", "rss", "json"]\n')
    template = site / "templates/index.json"
    write(template, "[{% for p in site.regular_pages %}{{ p.title | jsonify }},{% endfor %}]\n")
    run(site, out)
    assert not (out / "page/2/index.json").exists()
    paginated = "[{% for p in paginator.pages %}{{ p.title | jsonify }},{% endfor %}]\n"
    write(template, paginated)
    touch_later(template)
    run(site, out)
    assert (out / "page/4/index.json").is_file()  # 40 articles, 10 a pager
    assert_same_as_cold(site, out, tmp_path)
    write(template, paginated.replace("paginator.pages", "site.regular_pages"))
    touch_later(template)
    report = run(site, out, clean=True)  # as Hugo, files no longer written stay without it
    assert report.cleaned == 3
    assert not (out / "page/2/index.json").exists()
    assert_same_as_cold(site, out, tmp_path / "again")  # not into the first cold build


def test_a_menu_entry_given_in_front_matter_reaches_every_page(built, tmp_path):
    site, out = built
    edit(
        site / "content/posts/a03/index.md",
        "months = '2025/03'",
        "menu = 'main'\nmonths = '2025/03'",
    )
    run(site, out)
    for page in ("index.html", "posts/a07/index.html", "tags/tag1/index.html"):
        assert 'href="/posts/a03/"' in (out / page).read_text().split("</header>")[0], page
    assert_same_as_cold(site, out, tmp_path)


def test_a_new_and_a_deleted_article(built, tmp_path):
    site, out = built
    write(site / "content/posts/new/index.md", article(99, title="新着"))
    (site / "content/posts/a10/index.md").unlink()
    (site / "content/posts/a10").rmdir()
    report = run(site, out, clean=True)  # as in Hugo, only this removes the page's old files
    assert not report.graph_kept
    assert report.rendered_content == 1
    assert report.cleaned == 2  # its page and its alias
    assert "新着" in (out / "index.xml").read_text()
    assert not (out / "posts/a10/index.html").exists()
    assert_same_as_cold(site, out, tmp_path)


def test_a_newer_article_renders_no_older_article_again(built, tmp_path, monkeypatch):
    """Related lists leave out newer pages (Hugo's default). So an article newer than all
    others, in the same year (a ``date`` index: one keyword for the whole year) and the
    same tags, changes no older article's related list, and their pages are not rendered
    again: they show their tags, not how many articles each has."""
    site, out = built
    config = site / "hugo.toml"
    config.write_text(
        config.read_text() + "[related]\n  threshold = 0\n  [[related.indices]]\n"
        "    name = 'tags'\n    weight = 100\n  [[related.indices]]\n"
        "    name = 'date'\n    weight = 10\n"
    )
    run(site, out)
    rendered = []
    render = pipeline_outputs.render_output
    monkeypatch.setattr(
        pipeline_outputs,
        "render_output",
        lambda item, *rest: rendered.append(item.out_path) or render(item, *rest),
    )
    # In the tags and the month of the others: the counts of terms change, and only the
    # pages that show a count read it.
    newer = article(99, title="新着").replace("2025-03-16T", "2025-04-16T")
    write(site / "content/posts/new/index.md", newer)
    report = run(site, out, jobs=1)  # rendered here, where the list above is
    assert report.graph_kept  # the article put into it
    assert "posts/new/index.html" in rendered
    # Only the newest of them, whose link to the next newer article changes.
    assert [p for p in rendered if p.startswith("posts/a")] == ["posts/a27/index.html"]
    assert_same_as_cold(site, out, tmp_path)


def test_published_files_changed_by_hand_are_written_again(built, tmp_path):
    site, out = built
    (out / "posts/a03/index.html").write_text("changed by hand")
    (out / "tags/tag1/index.html").unlink()
    report = run(site, out)
    assert report.rendered_outputs == 2
    assert_same_as_cold(site, out, tmp_path)


def test_a_published_file_changed_by_hand_beside_an_edit_is_written_again(built, tmp_path):
    """The published files are checked by a child while the graph loads: a file changed
    by hand is found there too when an article's edit keeps the graph."""
    site, out = built
    edit(site / "content/posts/a05/index.md", "コメント 5 の本文", "書き換えた本文")
    (out / "posts/a03/index.html").write_text("changed by hand")
    report = run(site, out)
    assert report.graph_kept
    assert "changed by hand" not in (out / "posts/a03/index.html").read_text()
    assert_same_as_cold(site, out, tmp_path)


def test_a_section_cascade_edited_renders_the_bodies_of_files_that_did_not_change(built, tmp_path):
    """A body from the cache is taken without reading its file when the file did not
    change, but a section's cascade changes its pages without changing their files."""
    site, out = built
    index = site / "content/posts/_index.md"
    index.write_text("+++\ntitle = '記事一覧'\n[cascade]\n  summary = '最初の要約'\n+++\n")
    run(site, out)
    assert "最初の要約" in (out / "index.xml").read_text()
    edit(index, "最初の要約", "二番目の要約")
    report = run(site, out)
    assert report.rendered_content == ARTICLES  # every article; the section's own is the same
    assert "二番目の要約" in (out / "index.xml").read_text()
    assert_same_as_cold(site, out, tmp_path)


def test_a_page_that_falls_due_is_published_without_any_file_changing(built, tmp_path):
    site, out = built
    due = datetime.now(UTC) + timedelta(seconds=2)
    write(
        site / "content/posts/later/index.md",
        article(77, title="予約投稿").replace(
            "date = 2025-03-22T10:00:00+09:00", f"date = {due.isoformat(timespec='seconds')}"
        ),
    )
    run(site, out)
    assert "予約投稿" not in (out / "index.html").read_text()
    time.sleep(max(0.0, (due - datetime.now(UTC)).total_seconds()) + 1.1)
    report = run(site, out)
    assert not report.graph_kept  # the loader would now let the page in
    assert report.rendered_outputs > 0
    assert "予約投稿" in (out / "index.html").read_text()


def test_a_damaged_cache_is_ignored(built, tmp_path):
    site, out = built
    (site / ".matome-cache" / "index.pickle").write_bytes(b"not a cache")
    (site / ".matome-cache" / "last-build.pickle").write_bytes(b"")
    report = run(site, out)
    assert report.rendered_content == ARTICLES + 1
    assert_same_as_cold(site, out, tmp_path)


def test_one_worker_and_two_workers_write_the_same_site(site, tmp_path):
    run(site, tmp_path / "one", cache=False, jobs=1)
    run(site, tmp_path / "two", cache=False, jobs=2)
    assert tree(tmp_path / "one") == tree(tmp_path / "two")


def test_a_failed_build_leaves_the_cache_as_the_last_good_build_made_it(built, tmp_path):
    site, out = built
    referenced = site / "content/posts/a01/index.md"
    broken = site / "content/posts/a02/index.md"
    good_title, good_body = referenced.read_text(), broken.read_text()
    referenced.write_text(article(1, title="失敗した版"))
    broken.write_text(good_body + '{{< matomeQuote body="閉じていない" >}\n')
    with pytest.raises(BuildFailed):
        run(site, out)  # article 0's body was rendered with the new title, then the build failed
    referenced.write_text(good_title)
    broken.write_text(good_body)
    touch_later(referenced)
    touch_later(broken)
    run(site, out)
    assert "<cite>記事 1</cite>" in (out / "posts/a00/index.html").read_text()
    assert_same_as_cold(site, out, tmp_path)


def test_a_build_good_or_failed_leaves_the_garbage_collector_as_it_found_it(built, tmp_path):
    """A build collects garbage less often while it runs (its objects live until it
    ends); `matome serve` goes on in the same process, at the thresholds it had."""
    import gc

    site, out = built
    before = gc.get_threshold()
    try:
        gc.set_threshold(500, 7, 9)
        write(site / "content/posts/new/index.md", article(90))
        run(site, out)
        assert gc.get_threshold() == (500, 7, 9)
        write(
            site / "content/posts/new/index.md", article(90, extra='{{< matomeQuote body="x" >}\n')
        )
        with pytest.raises(BuildFailed):
            run(site, out)
        assert gc.get_threshold() == (500, 7, 9)
    finally:
        gc.set_threshold(*before)


def test_a_damaged_body_in_the_cache_is_rendered_again_when_a_file_reads_it(built, tmp_path):
    site, out = built
    theme_feed = Path(__file__).resolve().parent.parent / "templates/_default/rss.xml"
    feed = theme_feed.read_text().replace("item.summary_html", "item.plain", 1)
    assert "item.plain" in feed
    write(site / "templates/_default/rss.xml", feed)  # the feed prints every body
    run(site, out)
    bodies = list((site / ".matome-cache" / "content").iterdir())
    assert len(bodies) == ARTICLES + 1
    for body in bodies:
        body.write_bytes(b"damaged")
    write(site / "templates/_default/rss.xml", feed.replace("<description>", "<description> ", 1))
    touch_later(site / "templates/_default/rss.xml")
    report = run(site, out)
    assert report.rendered_content == 0  # the bodies do not load the feed template
    assert report.rendered_outputs == len(list(out.rglob("index.xml")))  # the feeds alone
    assert "コメント 6 の本文" in (out / "index.xml").read_text()
    assert_same_as_cold(site, out, tmp_path)


def test_rendered_fields_are_exactly_what_attaching_a_body_sets():
    page = Page(kind="page", title="", params={}, rel_permalink="", out_path="")
    before = dict(page.__dict__)
    attach_content(page, RenderedContent("<p>one two</p><p>three</p>", "<p>one</p>", True, "<nav>"))
    set_now = {k for k, v in page.__dict__.items() if k not in before or before[k] != v}
    assert set_now == set(RENDERED_FIELDS)


def test_a_deferred_body_is_loaded_once_and_only_when_a_rendered_field_is_read():
    page = Page(kind="page", title="題名", params={}, rel_permalink="/a/", out_path="a/index.html")
    calls = []

    def load() -> dict:
        calls.append(1)
        fields = {name: getattr(Page, name) for name in RENDERED_FIELDS}
        return {**fields, "content_html": "<p>本文</p>", "word_count": 1}

    defer_rendered(page, load)
    assert (page.title, page.rel_permalink, calls) == ("題名", "/a/", [])
    assert str(page.content) == "<p>本文</p>"
    assert (page.word_count, page.summary_html, page.toc) == (1, "", "")
    assert calls == [1]


def test_the_cache_serves_any_destination_and_any_spelling_of_it(built, tmp_path):
    site, out = built
    other = tmp_path / "elsewhere"
    report = run(site, other)
    assert report.rendered_content == 0
    assert tree(other) == tree(out)
    edit(site / "content/posts/a05/index.md", "コメント 5 の本文", "書き換えた本文")
    report = run(site, tmp_path / "elsewhere" / ".." / "elsewhere")
    assert report.rendered_content == 1
    assert 0 < report.rendered_outputs < 10  # the same folder, written as another path
    assert_same_as_cold(site, other, tmp_path)


def test_reads_that_no_file_makes_any_more_leave_the_cache(built, tmp_path):
    site, out = built
    for n in range(10, ARTICLES):
        (site / f"content/posts/a{n:02d}/index.md").unlink()
    run(site, out, clean=True)
    _, cache = saved_cache(site)
    used = set().union(*(record.reads for record in cache.outputs.values()))
    assert used == set(range(len(cache.pairs))) and len(cache.values) == len(cache.pairs)
    edit(site / "content/posts/a05/index.md", "コメント 5 の本文", "書き換えた本文")
    report = run(site, out)
    assert 0 < report.rendered_outputs < 10
    assert_same_as_cold(site, out, tmp_path)


def test_a_cached_body_is_read_from_its_file_only_for_its_html_and_text(built):
    """A feed lists every article's summary: a body taken from the cache gives its other
    fields from the cache index, and its file is read only for the HTML or the text."""
    site, _ = built
    config = load_config(site, Flags())
    folder = buildcache.cache_folder(site)
    cache = buildcache.load(folder, buildcache.fingerprint(config))
    now = datetime.now(UTC)
    page = build_site(config, load_content(config, now), now).regular_pages[0]
    entry = cache.content[page_key(page)]
    assert entry.listed["summary_html"] and entry.listed["word_count"] > 0
    assert "content_html" not in entry.listed and "plain" not in entry.listed
    run = SimpleNamespace(content=None, cache_folder=folder)  # the renderer is not needed
    reuse(page, entry, buildcache.BuildCache(cache.fingerprint, {}), run)
    assert page.summary_html == entry.listed["summary_html"]
    assert "content_html" not in page.__dict__  # the file is not read yet
    assert "見出しの引用" in page.content_html


def test_a_page_html_left_in_the_cache_is_loaded_each_time_it_is_dropped_and_read():
    page = Page(kind="page", title="題名", params={}, rel_permalink="/a/", out_path="a/index.html")
    page.plain = "本文"
    calls = []
    defer_rendered(
        page, lambda: calls.append(1) or {"content_html": "<p>本文</p>"}, ("content_html",)
    )
    assert (page.plain, calls) == ("本文", [])
    assert page.content_html == "<p>本文</p>" and calls == [1]
    drop_content(page)
    assert "content_html" not in page.__dict__ and page.plain == "本文"
    assert page.content_html == "<p>本文</p>" and calls == [1, 1]


def test_a_page_text_left_in_the_cache_is_dropped_with_its_html_and_loaded_back():
    """A body rendered in a worker leaves its HTML and its text to the cache file: the
    parent never holds the text, and a worker frees both after the page's own file."""
    page = Page(kind="page", title="題名", params={}, rel_permalink="/a/", out_path="a/index.html")
    page.word_count = 2
    calls = []
    fields = {"content_html": "<p>本文</p>", "plain": "本文", "word_count": 2}
    defer_rendered(page, lambda: calls.append(1) or fields, ("content_html", "plain"))
    assert "plain" not in page.__dict__ and page.word_count == 2 and calls == []
    assert page.plain == "本文" and page.content_html == "<p>本文</p>" and calls == [1]
    drop_content(page)
    assert "plain" not in page.__dict__ and "content_html" not in page.__dict__
    assert page.word_count == 2
    assert page.plain == "本文" and calls == [1, 1]


def test_loading_a_page_html_keeps_the_fields_the_page_still_has():
    """A worker that loads an article's HTML must not swap the text its parent holds (and
    shares with it) for a copy of its own."""
    page = Page(kind="page", title="題名", params={}, rel_permalink="/a/", out_path="a/index.html")
    page.plain = text = "本文" * 3000
    defer_rendered(page, lambda: {"content_html": "<p>本文</p>", "plain": "本文" * 3000}, ())
    page.__dict__.pop("content_html", None)
    assert page.content_html == "<p>本文</p>"
    assert page.plain is text


def test_a_page_text_read_by_a_file_is_not_kept_by_the_read_log(built):
    """Every card reads its article's plain text (for the reading time): the value of that
    read is stored by its digest, and the text itself is not kept for the whole stage."""
    site, _ = built
    config = load_config(site, Flags())
    now = datetime.now(UTC)
    graph = build_site(config, load_content(config, now), now)
    view = GraphView(graph)
    page = graph.regular_pages[0]
    page.plain = "本文" * 3000
    pair = (page_key(page), "plain")
    assert view.value(pair) == page.plain
    assert pair not in view.memo
    assert view.value((page_key(page), "title")) == page.title
    assert (page_key(page), "title") in view.memo
    term = next(p for p in graph.pages if p.file is None)
    assert page_key(term) is page_key(term)  # one key per list page, not one per read


def test_every_list_that_shows_a_cached_card_records_what_the_card_read(built):
    site, out = built
    _, cache = saved_cache(site)
    title = cache.pairs.index(("posts/a01/index.md", "title"))
    # Article 1's card is rendered once per worker batch and level, shown by many files.
    showing = [
        p.relative_to(out).as_posix()
        for p in out.rglob("*.html")
        if 'class="card-title"><a href="/posts/a01/">' in p.read_text()
    ]
    assert len(showing) >= 4  # its tags, its month, the section, the home page
    assert all(title in cache.outputs[path].reads for path in showing)


# --- the kept site graph (``snapshot.py``): builds after article bodies alone changed ---
def test_body_edits_in_a_row_write_only_their_changes_to_the_cache(built, tmp_path):
    site, out = built
    cache = site / ".matome-cache"
    index = (cache / "index.pickle").read_bytes()
    for n, (article_no, old, new) in enumerate(
        [(5, "コメント 5 の本文", "一回目"), (6, "返信 6", "二回目"), (5, "一回目", "三回目")]
    ):
        edit(site / f"content/posts/a{article_no:02d}/index.md", old, new)
        report = run(site, out)
        assert report.graph_kept, n
        assert report.rendered_content == 1, n
    assert (cache / "index.pickle").read_bytes() == index  # the changes are beside it
    assert (cache / "index-changes.pickle").stat().st_size < len(index) // 8
    assert len(list((cache / "content").iterdir())) == ARTICLES + 1  # replaced bodies removed
    assert "三回目" in (out / "posts/a05/index.html").read_text()
    assert "二回目" in (out / "posts/a06/index.html").read_text()
    assert_same_as_cold(site, out, tmp_path)
    assert not (cache / "index-changes.pickle").exists()  # a whole index written: no changes


def test_articles_added_and_removed_in_a_row_write_only_their_changes_to_the_cache(built, tmp_path):
    """An article added (put into the kept graph) or removed (the graph built anew) keeps
    the reads' numbers, and the index is saved as what changed, as after body edits; the
    next build reads it back."""
    site, out = built
    # Notes in a section, tag and month of their own: an article added changes few files.
    for n in range(200):
        text = article(n).replace("2025-03-", "2024-01-").replace("2025/03", "2024/01")
        text = text.replace(f"tags = ['tag{n % 5}', 'common']", "tags = ['memo']")
        write(site / f"content/notes/n{n:03d}/index.md", text.replace("/old/", "/old-note/"))
    run(site, out)
    cache = site / ".matome-cache"
    index = (cache / "index.pickle").read_bytes()
    write(site / "content/posts/new/index.md", article(999, title="新着"))
    assert run(site, out).graph_kept
    shutil.rmtree(site / "content/posts/a10")
    run(site, out, clean=True)
    write(site / "content/posts/a10/index.md", article(10, title="戻った記事"))
    run(site, out)
    assert (cache / "index.pickle").read_bytes() == index  # the changes are beside it
    assert (cache / "index-changes.pickle").stat().st_size < len(index) // 4
    edit(site / "content/posts/new/index.md", "コメント 999 の本文", "編集後")
    report = run(site, out)
    assert report.graph_kept and report.rendered_content == 1
    assert len(list((cache / "content").iterdir())) == ARTICLES + 202  # and the section
    assert "戻った記事" in (out / "posts/a10/index.html").read_text()
    assert "編集後" in (out / "posts/new/index.html").read_text()
    assert_same_as_cold(site, out, tmp_path)


def test_a_tag_renamed_on_one_article_reaches_both_terms(built, tmp_path):
    """The terms that list other pages than before, or the renamed article, are read
    again; the others' reads are taken as they were."""
    site, out = built
    edit(
        site / "content/posts/a05/index.md",
        "tags = ['tag0', 'common']",
        "tags = ['改名', 'common']",
    )
    report = run(site, out)
    assert not report.graph_kept
    assert "記事 5" in (out / "tags/改名/index.html").read_text()
    assert "記事 5<" not in (out / "tags/tag0/index.html").read_text()
    assert_same_as_cold(site, out, tmp_path)


def test_a_body_edit_reaches_the_summaries_and_comment_counts_that_lists_show(built, tmp_path):
    site, out = built
    before = (out / "tags/tag0/index.html").read_text()
    quote = (
        '{{< matomeQuote body="三つ目" userName="u" createdAt="2025/03/01 12:00:00" color="" >}}\n'
    )
    edit(site / "content/posts/a05/index.md", "> 見出しの引用 5\n", f"新しい見出し\n\n{quote}")
    report = run(site, out)
    assert report.graph_kept
    assert "新しい見出し" in (out / "index.xml").read_text()  # the feed shows summaries
    assert (out / "tags/tag0/index.html").read_text() != before  # its card counts 3 comments
    assert_same_as_cold(site, out, tmp_path)


def test_a_body_that_reads_another_body_is_rendered_from_its_file_on_a_kept_graph(built, tmp_path):
    site, out = built
    write(
        site / "templates/shortcodes/summary-of.html",
        "<aside>{{ get_page(shortcode.get(0)).summary }}</aside>",
    )
    write(
        site / "content/posts/a20/index.md", article(20, extra='{{< summary-of "/posts/a21" >}}\n')
    )
    run(site, out)  # a template added: the whole cache is new
    edit(site / "content/posts/a21/index.md", "> 見出しの引用 21", "要約が変わった")
    report = run(site, out)
    assert report.graph_kept
    # Article 21, and article 20, which reads its summary: its body is read from its file.
    assert report.rendered_content == 2
    assert "コメント 20 の本文" in (out / "posts/a20/index.html").read_text()
    assert_same_as_cold(site, out, tmp_path)


def test_front_matter_written_differently_but_reading_the_same_keeps_the_graph(built, tmp_path):
    site, out = built
    edit(site / "content/posts/a07/index.md", "title = '記事 7'", "title   =   '記事 7'\n\n")
    assert run(site, out).graph_kept
    edit(site / "content/posts/a07/index.md", "+++\n> ", "description = '説明'\n+++\n> ")
    report = run(site, out)
    assert not report.graph_kept
    assert_same_as_cold(site, out, tmp_path)


def test_a_broken_body_on_a_kept_graph_fails_with_its_place_and_publishes_nothing(built, tmp_path):
    site, out = built
    path = site / "content/posts/a02/index.md"
    good = path.read_text()
    before = tree(out)
    path.write_text(good + '{{< matomeQuote body="閉じていない" >}\n')
    touch_later(path)
    with pytest.raises(BuildFailed) as failed:
        run(site, out)
    [error] = failed.value.errors
    assert (error.path, error.line) == ("content/posts/a02/index.md", good.count("\n") + 1)
    assert tree(out) == before
    path.write_text(good.replace("返信 2", "直した"))
    touch_later(path)
    report = run(site, out)
    assert "直した" in (out / "posts/a02/index.html").read_text()
    assert report.rendered_content == 1
    assert_same_as_cold(site, out, tmp_path)


def test_a_graph_longer_than_the_recursion_limit_is_kept_and_loaded(tmp_path):
    """Prev/next links chain every article to the next: kept page by page, not nested."""
    root = tmp_path / "long"
    write(root / "hugo.toml", 'baseURL = "https://example.org/"\ntitle = "長い"\n')
    count = 1500  # each article nests at least one level: over Python's limit of 1000
    for n in range(count):
        write(
            root / f"content/posts/p{n}.md", f"+++\ntitle = 'p{n}'\ndate = 2025-01-01\n+++\n本文\n"
        )
    config = load_config(root, Flags())
    now = datetime.now(UTC)
    site_graph = build_site(config, load_content(config, now), now)
    snapshot.save(root, "print", Snapshot("b1", site_graph, [], PreparedImages({}, {}, []), []))
    kept = snapshot.load(root, "print", "b1")
    assert kept is not None
    again = build_site(config, load_content(config, now), now)
    assert len(kept.site.pages) == len(again.pages) > count
    for page, fresh in zip(kept.site.pages, again.pages, strict=True):
        assert page.site is kept.site
        assert (page.title, page.permalink, page_key(page)) == (
            fresh.title,
            fresh.permalink,
            page_key(fresh),
        )
        assert page_key(page.next) == page_key(fresh.next) if fresh.next else page.next is None
    assert snapshot.load(root, "print", "another build") is None


def test_a_body_edit_that_adds_the_first_cjk_character_counts_words_anew(tmp_path):
    """With ``hasCJKLanguage``, whether a file holds CJK script decides how its words are
    counted (each character of a word beyond ASCII): an edit that changes it is not a mere
    body edit of the kept graph, nor is the body's last render still good."""
    root = tmp_path / "cjk"
    page = root / "content/posts/a/index.md"
    write(root / "hugo.toml", 'baseURL = "https://e.org/"\nhasCJKLanguage = true\n')
    write(root / "templates/_default/single.html", "{{ page.word_count }}")
    write(page, "+++\ntitle = 'a'\n# a note\n+++\nthree English words café\n")
    out = tmp_path / "out"

    def words() -> str:
        return (out / "posts/a/index.html").read_text()

    run(root, out)
    assert words() == "4"
    edit(page, "café", "café あいう")
    assert not run(root, out).graph_kept
    assert words() == "10"  # 3 words, then 4 and 3 characters
    edit(page, "あいう", "あい")
    assert run(root, out).graph_kept
    assert words() == "9"
    edit(page, "# a note", "isCJKLanguage = false")  # the front matter says
    run(root, out)
    assert words() == "5"
    edit(page, "isCJKLanguage = false", "# 日本語")  # the same body and lines, CJK again
    run(root, out)
    assert words() == "9"
    assert_same_as_cold(root, out, tmp_path)


def test_a_graph_built_anew_takes_the_unchanged_files_as_the_last_load_made_them(built, tmp_path):
    """An added article with a template added (no body is as the cache has it) builds the
    graph again; the other files are not read again but taken with their warnings, and a
    body that must be rendered again is read then."""
    site, out = built
    write(site / "content/posts/plain.md", "# 前書きのない記事\n\n本文。\n")
    first = run(site, out)
    warning = "content/posts/plain.md:1:1: no front matter"
    assert any(str(w).startswith(warning) for w in first.warnings)
    write(site / "content/posts/new/index.md", article(99, title="新着"))
    # Every body is rendered again (a shortcode template is added), from its file.
    write(site / "templates/shortcodes/matomeQuote.html", "<q>{{ shortcode.get('body') }}</q>")
    report = run(site, out)
    assert not report.graph_kept
    assert report.cached_content == 0 and report.rendered_content == ARTICLES + 3
    assert any(str(w).startswith(warning) for w in report.warnings)
    assert "<q>コメント 7 の本文" in (out / "posts/a07/index.html").read_text()
    assert_same_as_cold(site, out, tmp_path)


def test_the_loader_takes_a_known_page_instead_of_reading_its_file(site):
    config = load_config(site)
    now = datetime.now(UTC)
    first = KnownFiles({})
    load_content(config, now, known=first)
    path = str(site / "content/posts/a03/index.md")
    page, warnings = first.made[path]
    page.title = "既知"  # what the file does not say
    said = SourceError("content/posts/a03/index.md", 1, 1, "as the last load warned", "warning")
    known = KnownFiles({path: (page, [*warnings, said])})
    loaded = load_content(config, now, known=known)
    assert [p.title for p in loaded.pages if p.file.filename == path] == ["既知"]
    assert said in loaded.warnings
    assert known.made.keys() == first.made.keys()
    assert known.made[path][0] is page
    assert not known.pages  # each known page is taken once


def dated(n: int, when: str, title: str, tags: str = "'common'") -> str:
    """Article ``n`` dated ``when`` (2025-03-DD), with these tags."""
    text = article(n, title=title).replace(f"tags = ['tag{n % 5}', 'common']", f"tags = [{tags}]")
    return text.replace(f"2025-03-{n % 28 + 1:02d}T10:00:00", f"{when}T09:30:00", 1)


def test_added_articles_are_put_into_the_kept_graph_where_a_cold_build_places_them(built, tmp_path):
    """The newest, the oldest and one between others (on the date of another, so that its
    title places it): each is put into the graph the last build kept, takes its place in
    the lists, feeds, pagers and neighbours, and moves its terms among theirs."""
    site, out = built
    cases = [
        ("newest", "2025-04-02", "'tag3', 'common'"),
        ("oldest", "2025-02-01", "'tag1'"),
        ("between", "2025-03-05", "'tag2', 'common', 'tag4'"),
    ]
    for n, (name, when, tags) in enumerate(cases, 100):
        write(site / f"content/posts/{name}/index.md", dated(n, when, f"追加 {name}", tags))
        report = run(site, out)
        assert report.graph_kept and report.added == 1, name
        assert report.rendered_content == 1
        assert f"追加 {name}" in (out / "index.xml").read_text()
        assert_same_as_cold(site, out, tmp_path)
        shutil.rmtree(tmp_path / "cold")
    assert "追加 newest" in (out / "index.html").read_text()
    assert "追加 oldest" in (out / "page/5/index.html").read_text()


def test_an_added_article_that_changes_more_than_lists_builds_the_graph_anew(built, tmp_path):
    """A new term, a new section, a menu entry, a page listed nowhere by a cascade, a page
    file inside another page's bundle (a resource of it): the graph is built anew."""
    site, out = built
    cascade = (
        "[[cascade]]\n[cascade.build]\nlist = 'never'\n[cascade.target]\npath = '/posts/hidden'\n"
    )
    write(site / "content/posts/_index.md", f"+++\ntitle = '記事一覧'\n{cascade}+++\n")
    run(site, out)
    cases = {
        "content/posts/newtag/index.md": dated(101, "2025-03-10", "新しいタグ", "'brand-new'"),
        "content/notes/first/index.md": dated(102, "2025-03-11", "新しいセクション"),
        "content/posts/menu/index.md": dated(103, "2025-03-12", "メニュー").replace(
            "+++\n>", "menu = 'main'\n+++\n>"
        ),
        "content/posts/hidden/index.md": dated(104, "2025-03-13", "一覧にない"),
        "content/posts/a03/extra.md": dated(105, "2025-03-14", "束の中"),
    }
    for path, text in cases.items():
        write(site / path, text)
        report = run(site, out)
        assert not report.graph_kept, path
        assert_same_as_cold(site, out, tmp_path)
        shutil.rmtree(tmp_path / "cold")
    assert "新しいタグ" in (out / "tags/brand-new/index.html").read_text()
    assert "一覧にない" not in (out / "posts/index.html").read_text()
    assert (out / "posts/a03/extra.md").is_file()


def test_an_article_put_in_moves_its_section_before_another_as_a_cold_build_does(site, tmp_path):
    """Sections are ordered by their newest page's date: one whose article is now the
    newest comes first, in its parent's lists and in the sitemap's order of pages."""
    for n in range(3):
        text = dated(200 + n, f"2025-02-0{n + 1}", f"ノート {n}")
        write(site / f"content/notes/n{n}/index.md", text)
    out = tmp_path / "public"
    run(site, out)
    write(site / "content/notes/newest/index.md", dated(210, "2025-04-20", "最新ノート"))
    report = run(site, out)
    assert report.graph_kept and report.added == 1
    sitemap = (out / "sitemap.xml").read_text()
    assert sitemap.index("/notes/</loc>") < sitemap.index("/posts/</loc>")
    assert_same_as_cold(site, out, tmp_path)


def test_an_added_bundle_brings_its_files_into_the_kept_graph(built, tmp_path):
    site, out = built
    write(site / "content/posts/withfile/index.md", dated(106, "2025-03-20", "添付つき"))
    write(site / "content/posts/withfile/data/notes.txt", "添付の本文")
    report = run(site, out)
    assert report.graph_kept
    assert (out / "posts/withfile/data/notes.txt").read_text() == "添付の本文"
    assert_same_as_cold(site, out, tmp_path)


def test_a_static_file_added_stays_in_the_plan_of_the_next_builds(built, tmp_path):
    """A static file added keeps the graph but plans the files again: the next build
    (an edit) takes that plan, and ``--cleanDestinationDir`` keeps the file."""
    site, out = built
    write(site / "static/extra.txt", "追加のファイル")
    assert run(site, out).graph_kept
    edit(site / "content/posts/a05/index.md", "コメント 5 の本文", "編集後")
    report = run(site, out, clean=True)
    assert report.graph_kept and report.cleaned == 0
    assert (out / "extra.txt").read_text() == "追加のファイル"
    assert_same_as_cold(site, out, tmp_path)


def test_an_article_put_into_the_graph_takes_the_sites_url_cascade_and_related_settings(
    site, tmp_path
):
    """Ugly URLs, a permalink pattern, a section's cascade, aliases and related content
    that lists newer pages: what the graph builder does to a page is done to the one put
    in, and the site is what a cold build writes."""
    config = site / "hugo.toml"
    config.write_text(
        "uglyURLs = true\n"
        + config.read_text()
        + "[permalinks]\n  posts = '/:year/:month/:slug/'\n"
        "[related]\n  includeNewer = true\n  threshold = 0\n  [[related.indices]]\n"
        "    name = 'tags'\n    weight = 100\n"
    )
    write(
        site / "content/posts/_index.md",
        "+++\ntitle = '記事一覧'\n[cascade.params]\n  badge = '連載'\n+++\n",
    )
    write(
        site / "templates/_default/single.html",
        "{{ page.title }} {{ page.params.badge }} {{ page.rel_permalink }}"
        " {% for p in page.related[:3] %}[{{ p.title }}]{% endfor %}"
        " {{ page.next.title if page.next }}|{{ page.prev.title if page.prev }}",
    )
    out = tmp_path / "public"
    run(site, out)
    text = dated(107, "2025-03-18", "途中の記事", "'tag2', 'common'")
    text = text.replace(
        "aliases = ['/old/107/']", "aliases = ['/old/107/', 'elsewhere']\nslug = 'mid'"
    )
    write(site / "content/posts/mid/index.md", text)
    report = run(site, out)
    assert report.graph_kept and report.added == 1
    page = (out / "2025/03/mid.html").read_text()
    assert "連載" in page and "[" in page
    assert_same_as_cold(site, out, tmp_path)


def test_two_articles_added_beside_an_edit_are_put_in_and_a_broken_one_fails_with_its_place(
    built, tmp_path
):
    site, out = built
    write(site / "content/posts/one/index.md", dated(108, "2025-03-21", "一本目", "'tag1'"))
    write(site / "content/posts/two/index.md", dated(109, "2025-03-02", "二本目", "'common'"))
    edit(site / "content/posts/a05/index.md", "コメント 5 の本文", "編集後")
    report = run(site, out)
    assert report.graph_kept and report.added == 2 and report.edited == 1
    assert_same_as_cold(site, out, tmp_path)
    before = tree(out)
    write(site / "content/posts/broken/index.md", "+++\ntitle = '壊れた'\ndate = 'きのう'\n+++\n")
    with pytest.raises(BuildFailed) as failed:
        run(site, out)
    assert str(failed.value.errors[0]).startswith("content/posts/broken/index.md:3:")
    assert tree(out) == before


def test_an_article_added_with_git_info_builds_the_graph_anew_with_its_commit(site, tmp_path):
    """With ``enableGitInfo`` a page's dates come from its last commit, which only the
    whole load reads: a new article is not put into the kept graph."""
    config = site / "hugo.toml"
    config.write_text("enableGitInfo = true\n" + config.read_text())
    git = ["git", "-C", str(site), "-c", "user.name=x", "-c", "user.email=x@example.org"]

    def commit(when: str) -> None:
        env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
        subprocess.run([*git, "add", "."], check=True)
        subprocess.run([*git, "commit", "-q", "-m", when], check=True, env=env)

    subprocess.run([*git, "init", "-q"], check=True)
    commit("2025-06-01T00:00:00Z")
    out = tmp_path / "public"
    run(site, out)
    write(site / "content/posts/new/index.md", dated(110, "2025-03-22", "新規", "'tag1'"))
    commit("2025-07-01T00:00:00Z")
    report = run(site, out)
    assert not report.graph_kept
    assert "2025-07-01" in (out / "sitemap.xml").read_text()
    assert_same_as_cold(site, out, tmp_path)


# --- partial renders kept for the next builds (a list's article cards) ---
def card_of(cache: buildcache.BuildCache, key: str, level: int) -> buildcache.PartialRecord:
    """The kept card of the page ``key`` at this heading level."""
    (record,) = [
        record
        for (name, variants, _, _), record in cache.partials.items()
        if name == "article-card.html" and variants == (("@page", key), level)
    ]
    return record


def newest(n: int) -> str:
    return dated(n, "2025-04-02", f"追加 {n}", "'tag3', 'common'")


def test_a_card_kept_by_the_last_build_is_used_again_until_what_it_read_changes(built, tmp_path):
    site, out = built
    folder, cache = saved_cache(site)
    record = card_of(cache, "posts/a03/index.md", 2)
    path = folder / buildcache.PARTIALS_DIR / f"{record.blob}.html"
    data = path.read_bytes()
    card = data[record.at : record.at + record.size]
    title = ">記事 3</a>".encode()
    assert title in card
    # The kept HTML changed behind the cache's back (the same length): it shows, so the
    # lists written again took the card as kept instead of rendering it.
    tampered = card.replace(title, ">記事 X</a>".encode())
    path.write_bytes(data[: record.at] + tampered + data[record.at + record.size :])
    write(site / "content/posts/new/index.md", newest(100))
    report = run(site, out)
    assert report.graph_kept and report.rendered_outputs >= pipeline_outputs.KEEP_PARTIALS
    assert any("記事 X" in (out / p).read_text() for p in report.written if p.endswith(".html"))
    # A read of the card changed: it is rendered again wherever it shows.
    edit(site / "content/posts/a03/index.md", "title = '記事 3'", "title = '記事 三'")
    run(site, out)
    assert not any("記事 X" in p.read_text() for p in out.rglob("*.html"))
    assert_same_as_cold(site, out, tmp_path)


def test_a_card_template_edited_renders_every_kept_card_again(built, tmp_path):
    site, out = built
    card = '<li class="card" data-probe="1">'
    shadow_theme_template(site, "partials/article-card.html", '<li class="card">', card)
    run(site, out)  # a template that shadows the theme's: the cache is not used
    edit(site / "templates/partials/article-card.html", 'data-probe="1"', 'data-probe="2"')
    report = run(site, out)
    assert report.graph_kept and report.rendered_outputs > pipeline_outputs.KEEP_PARTIALS
    assert 'data-probe="2"' in (out / "index.html").read_text()
    assert not any('data-probe="1"' in p.read_text() for p in out.rglob("*.html"))
    assert_same_as_cold(site, out, tmp_path)


def test_kept_cards_follow_the_reads_numbered_anew(built, tmp_path):
    site, out = built
    for n in range(10, ARTICLES):
        (site / f"content/posts/a{n:02d}/index.md").unlink()
    run(site, out, clean=True)  # most reads made by no file: the rest numbered anew
    _, cache = saved_cache(site)
    assert card_of(cache, "posts/a03/index.md", 2)
    used = set().union(*(record.reads for record in cache.outputs.values()))
    assert all(used.issuperset(record.reads) for record in cache.partials.values())
    assert not any(key[1][:1] == (("@page", "posts/a20/index.md"),) for key in cache.partials)
    write(site / "content/posts/new/index.md", newest(100))
    report = run(site, out)
    assert report.rendered_outputs >= pipeline_outputs.KEEP_PARTIALS
    assert_same_as_cold(site, out, tmp_path)


def test_kept_cards_in_many_files_are_gathered_into_one(built, tmp_path, monkeypatch):
    site, out = built
    monkeypatch.setattr(buildcache, "PARTIAL_FILES", 1)
    for n in (100, 101, 102):  # each writes its new card to a file of its own
        write(site / f"content/posts/new{n}/index.md", newest(n))
        run(site, out)
    _, cache = saved_cache(site)
    assert len({record.blob for record in cache.partials.values()}) == 2  # gathered, and new
    assert_same_as_cold(site, out, tmp_path)


def test_a_file_of_kept_cards_cut_short_is_not_used(built, tmp_path):
    site, out = built
    folder, _ = saved_cache(site)
    (path,) = (folder / buildcache.PARTIALS_DIR).glob("*.html")
    path.write_bytes(path.read_bytes()[:100])
    write(site / "content/posts/new/index.md", newest(100))
    report = run(site, out)
    assert report.rendered_outputs >= pipeline_outputs.KEEP_PARTIALS
    assert_same_as_cold(site, out, tmp_path)
