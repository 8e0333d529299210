"""The search index (matome/search/): Pagefind bundles made from the articles' text, only
the changed ones made again, and the theme's search box finding what the articles say now.

Real Pagefind (the binary of the ``pagefind`` package), real builds, and Debian's Chromium
driven by Playwright for what readers see.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from matome.build import build
from matome.config import Flags
from matome.errors import BuildFailed
from matome.search import bundles, tokens

try:  # tests/ as a package or as a plain directory on sys.path
    from tests.cli import matome
    from tests.theme_site import REPO, StaticServer
except ImportError:
    from cli import matome
    from theme_site import REPO, StaticServer

CONFIG = """baseURL = "https://example.org/"
title = "検索のテスト"
languageCode = "ja"
defaultContentLanguage = "ja"
[params]
  enableSearch = true
"""


def write_article(site: Path, name: str, title: str, day: int, *comments: str) -> Path:
    path = site / "content" / "posts" / name / "index.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    quotes = "".join(
        f'{{{{<matomeQuote body="{c}" userName="user{i}" createdAt="2025/01/{day:02d} 10:00:00" color="">}}}}\n\n'
        for i, c in enumerate(comments)
    )
    path.write_text(
        f"+++\ntitle = '{title}'\ndate = 2025-01-{day:02d}T09:00:00\n+++\n\n{quotes}", "utf-8"
    )
    return path


@pytest.fixture
def site(tmp_path) -> Path:
    root = tmp_path / "site"
    root.mkdir()
    (root / "hugo.toml").write_text(CONFIG, encoding="utf-8")
    write_article(
        root, "a1", "鍋の記事", 1, "週末は量子もつれ鍋を囲みたいね。", "いいね、参加する。"
    )
    write_article(root, "a2", "鳥の記事", 2, "ペンギン奉行が仕切る会議だった。")
    write_article(root, "a3", "星の記事", 3, "ロック・ピッキングは趣味です。")
    write_article(root, "a4", "海の記事", 4, "Rustで書いたクジラの話。")
    return root


def run(site: Path, out: Path):
    return build(site, Flags(destination=str(out)), jobs=1)


def published(out: Path) -> dict[str, tuple[bytes, int]]:
    """Every file of the published index: its bytes and modification time."""
    return {
        p.relative_to(out).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted((out / "pagefind").rglob("*"))
        if p.is_file()
    }


def manifest(out: Path) -> dict:
    return json.loads((out / "pagefind" / "matome-search.json").read_text())


def search(browser, out: Path, query: str) -> list[str]:
    """The links the theme's search box lists for ``query`` on the site built in ``out``."""
    with StaticServer(out) as server:
        return search_at(browser, server.url, query)


def search_at(browser, url: str, query: str, may_be_unindexed: bool = False) -> list[str] | None:
    """The same on the site served at ``url`` (a fresh browser cache each time);
    ``may_be_unindexed``: None when the index is not there yet (the box says so)."""
    context = browser.new_context()
    problems: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda m: m.type == "error" and problems.append(m.text))
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(url + "/")
        page.click("[data-search-open]")
        page.locator(".search-input").fill(query)
        try:
            # Pagefind compiles its WebAssembly in a worker first: slow on a busy machine.
            page.wait_for_function(
                "() => document.querySelector('.search-result')"
                " || /見つかりませんでした|読み込めませんでした/"
                ".test(document.querySelector('.search-status').textContent)",
                timeout=90_000,
            )
        except PlaywrightTimeout:
            raise AssertionError(f"no answer to {query!r}; the page's errors: {problems}") from None
        status = page.locator(".search-status").inner_text()
        if may_be_unindexed and "読み込めませんでした" in status:
            return None
        links = page.locator(".search-result-link").evaluate_all(
            "a => a.map(x => x.getAttribute('href'))"
        )
        excerpts = page.locator(".search-result-excerpt").all_inner_texts()
    finally:
        context.close()
    assert not problems, problems
    # The excerpt shows the words found, without the spaces the index put between characters.
    for excerpt in excerpts:
        assert query.replace("・", "") in excerpt.replace("・", ""), excerpt
    return links


@pytest.mark.parametrize("layout", ["one bundle and young ones", "small bundles only"])
def test_search_finds_what_articles_say_after_edits_additions_and_deletions(
    browser, site, tmp_path, monkeypatch, layout
):
    if layout == "small bundles only":  # every change makes the large bundles again
        monkeypatch.setattr(bundles, "BUNDLE_PAGES", 2)
        monkeypatch.setattr(bundles, "RECENT_PAGES", 0)
    out = tmp_path / "out"
    report = run(site, out)
    assert report.search_indexed == 4
    assert search(browser, out, "量子もつれ鍋") == ["/posts/a1/"]
    # Any substring of the text, across word boundaries and punctuation.
    assert search(browser, out, "子もつれ") == ["/posts/a1/"]
    assert search(browser, out, "ロックピッキング") == ["/posts/a3/"]
    assert search(browser, out, "クジラ") == ["/posts/a4/"]
    assert search(browser, out, "Rust") == ["/posts/a4/"]

    write_article(site, "a1", "鍋の記事", 1, "週末は宇宙うどんを囲みたいね。", "いいね、参加する。")
    report = run(site, out)
    assert report.search_indexed >= 1
    assert search(browser, out, "宇宙うどん") == ["/posts/a1/"]
    assert search(browser, out, "量子もつれ鍋") == []

    write_article(site, "a5", "火の記事", 5, "火星カレーの作り方。")
    run(site, out)
    assert search(browser, out, "火星カレー") == ["/posts/a5/"]
    assert search(browser, out, "宇宙うどん") == ["/posts/a1/"]

    shutil.rmtree(site / "content/posts/a2")
    run(site, out)
    assert search(browser, out, "ペンギン奉行") == []
    assert search(browser, out, "火星カレー") == ["/posts/a5/"]
    # Only the bundles the manifest lists are left.
    listed = {b.rstrip("/") for b in manifest(out)["bundles"]}
    assert {p.name for p in (out / "pagefind").iterdir() if p.is_dir()} == listed
    if layout == "small bundles only":  # [a1] (a2 deleted), [a3, a4], [a5]
        assert not manifest(out)["hidden"] and len(listed) == 3


def test_a_result_shows_the_articles_thumbnail(browser, site, tmp_path):
    from PIL import Image

    Image.new("RGB", (960, 640), "teal").save(site / "content/posts/a2/feature.jpg")
    out = tmp_path / "out"
    run(site, out)
    with StaticServer(out) as server:
        context = browser.new_context()
        try:
            page = context.new_page()
            page.goto(server.url + "/")
            page.click("[data-search-open]")
            page.locator(".search-input").fill("ペンギン奉行")
            page.wait_for_selector(".search-result")
            sources = page.locator(".search-result-thumb").evaluate_all(
                "images => images.map(image => image.getAttribute('src'))"
            )
        finally:
            context.close()
    assert len(sources) == 1 and sources[0].startswith("/thumbnails/"), sources
    assert (out / sources[0].lstrip("/")).is_file()


def test_a_build_that_changed_no_article_runs_no_pagefind_and_writes_no_index_file(site, tmp_path):
    out = tmp_path / "out"
    assert run(site, out).search_indexed == 4
    before = published(out)
    # A static file, a changed list title, an article's tags (not in its text), and a
    # build with nothing changed at all.
    (site / "static").mkdir()
    (site / "static/extra.css").write_text("body { color: red }\n", "utf-8")
    (site / "content/posts/_index.md").write_text("+++\ntitle = '記事'\n+++\n", "utf-8")
    path = site / "content/posts/a3/index.md"
    path.write_text(path.read_text("utf-8").replace("date =", "tags = ['趣味']\ndate ="), "utf-8")
    for _ in range(2):
        report = run(site, out)
        assert report.search_indexed == 0
        assert published(out) == before
    assert (out / "tags" / "趣味" / "index.html").is_file()
    # A published index that was deleted is made again.
    shutil.rmtree(out / "pagefind")
    assert run(site, out).search_indexed == 4
    assert (out / "pagefind" / "matome-search.json").is_file()


def test_a_build_with_nothing_changed_after_one_that_indexed_says_it_indexed_nothing(
    site, tmp_path
):
    out = tmp_path / "out"
    args = ("build", "-s", str(site), "-d", str(out))
    assert matome(*args).returncode == 0
    write_article(site, "a1", "鍋の記事", 1, "新しい言葉。")
    done = matome(*args)
    assert "Search index: Pagefind indexed 1 article\n" in done.stdout, done.stdout
    before = published(out)
    again = matome(*args)
    assert "Nothing changed since the last build" in again.stdout, again.stdout
    assert "Pagefind" not in again.stdout
    assert published(out) == before
    assert run(site, out).search_indexed == 0


def test_a_site_published_anew_over_its_cache_has_its_whole_index(site, tmp_path):
    # The output removed, the cache kept, and --cleanDestinationDir: every bundle is made
    # again into the new site, none lost to the cleaning.
    out = tmp_path / "out"
    run(site, out)
    shutil.rmtree(out)
    write_article(site, "a1", "鍋の記事", 1, "新しい言葉。")
    report = build(site, Flags(destination=str(out)), jobs=1, clean=True)
    assert report.search_indexed == 4
    listed = manifest(out)["bundles"]
    assert listed and all((out / "pagefind" / b / "pagefind-entry.json").is_file() for b in listed)
    assert "/posts/a1/" in fragments(out)


def test_a_title_edit_makes_only_a_young_bundle(site, tmp_path):
    out = tmp_path / "out"
    run(site, out)
    first = manifest(out)
    path = site / "content/posts/a2/index.md"
    path.write_text(path.read_text("utf-8").replace("鳥の記事", "鳥たちの記事"), "utf-8")
    report = run(site, out)
    assert report.search_indexed == 1
    second = manifest(out)
    assert second["bundles"][:-1] == first["bundles"]  # the large bundle stays as it was
    assert len(second["hidden"]) == 1
    # Changed back: the large bundle's copy is right again; no young bundle, nothing hidden.
    path.write_text(path.read_text("utf-8").replace("鳥たちの記事", "鳥の記事"), "utf-8")
    assert run(site, out).search_indexed == 0
    assert manifest(out) == first
    assert [p.name for p in (out / "pagefind").iterdir() if p.is_dir()] == [
        first["bundles"][0].rstrip("/")
    ]


def test_too_many_changes_make_again_only_the_bundles_that_hold_most_of_them(
    site, tmp_path, monkeypatch
):
    monkeypatch.setattr(bundles, "BUNDLE_PAGES", 2)
    monkeypatch.setattr(bundles, "RECENT_PAGES", 2)
    out = tmp_path / "out"
    run(site, out)
    first, second = manifest(out)["bundles"]  # [a1, a2], [a3, a4]
    for name, title, day in (("a1", "鍋", 1), ("a2", "鳥", 2), ("a3", "星", 3)):
        write_article(site, name, title, day, f"{title}の新しい話。")
    report = run(site, out)
    # Three changes: the first bundle (two of them) is made again, the third goes to a
    # young bundle and the second bundle's old copy of it is hidden.
    assert report.search_indexed == 3
    bundles_now = manifest(out)["bundles"]
    assert len(bundles_now) == 3 and bundles_now[1] == second and first not in bundles_now
    state = json.loads((site / ".matome-cache/search/state.json").read_text())
    assert [list(b["pages"]) for b in state["young"]] == [["/posts/a3/"]]
    assert manifest(out)["hidden"] == [state["bundles"][1]["fragments"]["/posts/a3/"]]


def young_bundles(site: Path) -> list[list[str]]:
    state = json.loads((site / ".matome-cache/search/state.json").read_text())
    return [sorted(b["pages"]) for b in state["young"]]


def test_a_build_indexes_its_own_changes_and_takes_in_only_young_bundles_no_larger(
    browser, site, tmp_path
):
    """The young bundles grow as a binary counter: a build's new bundle takes in the
    newest young bundles that hold no more articles than it, not every change since the
    large bundle was made."""
    out = tmp_path / "out"
    run(site, out)
    steps = [
        ("a1", 1, [["/posts/a1/"]]),
        ("a2", 2, [["/posts/a1/", "/posts/a2/"]]),  # takes in [a1]
        ("a3", 1, [["/posts/a1/", "/posts/a2/"], ["/posts/a3/"]]),
        # a3 again: its young bundle shows nothing now, and is dropped.
        ("a3", 1, [["/posts/a1/", "/posts/a2/"], ["/posts/a3/"]]),
        ("a5", 4, [["/posts/a1/", "/posts/a2/", "/posts/a3/", "/posts/a5/"]]),
    ]
    for n, (name, indexed, young) in enumerate(steps):
        day = int(name[1])
        write_article(site, name, f"記事{day}", day, f"改訂{n}番の合言葉です。")
        assert run(site, out).search_indexed == indexed, name
        assert young_bundles(site) == young, name
        listed = {b.rstrip("/") for b in manifest(out)["bundles"]}
        assert {p.name for p in (out / "pagefind").iterdir() if p.is_dir()} == listed
    # The large bundle's old copies of a1, a2 and a3 are hidden (the young bundles that
    # held older ones are gone): each word finds its article's newest text.
    assert len(manifest(out)["hidden"]) == 3
    assert search(browser, out, "改訂3番") == ["/posts/a3/"]
    assert search(browser, out, "改訂2番") == []
    assert search(browser, out, "改訂4番") == ["/posts/a5/"]
    assert search(browser, out, "量子もつれ鍋") == []
    assert search(browser, out, "クジラ") == ["/posts/a4/"]


def test_changes_past_the_limit_fold_the_young_bundles_into_the_large_one(
    browser, site, tmp_path, monkeypatch
):
    monkeypatch.setattr(bundles, "RECENT_PAGES", 3)
    out = tmp_path / "out"
    run(site, out)
    for n, name in enumerate(["a1", "a2", "a3"]):
        day = int(name[1])
        write_article(site, name, f"記事{day}", day, f"第{n}版の合言葉です。")
        run(site, out)
    assert young_bundles(site) == [["/posts/a1/", "/posts/a2/"], ["/posts/a3/"]]
    write_article(site, "a5", "記事5", 5, "五番目の合言葉です。")
    report = run(site, out)
    # Four changes: the large bundle is made again with all of them; no young bundle is left.
    assert report.search_indexed == 5
    assert young_bundles(site) == [] and manifest(out)["hidden"] == []
    assert len(manifest(out)["bundles"]) == 1
    assert search(browser, out, "第0版") == ["/posts/a1/"]
    assert search(browser, out, "第2版") == ["/posts/a3/"]
    assert search(browser, out, "五番目") == ["/posts/a5/"]
    assert search(browser, out, "クジラ") == ["/posts/a4/"]


def emptying_pagefind(tmp_path: Path, out: Path, times: int) -> Path:
    """A Pagefind that, the first ``times`` times it runs as a service, leaves a bundle's
    ``pagefind-entry.json`` empty once it has exited (as a busy machine has seen)."""
    from matome.search.service import pagefind_binary

    wrapper = tmp_path / "pagefind-emptying"
    count = tmp_path / "emptied"
    entries = f"{out.parent}/.{out.name}.staging-*/pagefind/*/pagefind-entry.json"
    wrapper.write_text(
        f'#!/bin/sh\n"{pagefind_binary()}" "$@"\ncode=$?\n'
        f'if [ "$1" = --service ] && [ "$(wc -c < {count} 2>/dev/null || echo 0)" -lt {times} ]; then\n'
        f'  for f in {entries}; do : > "$f"; done\n  printf x >> {count}\nfi\n'
        "exit $code\n"
    )
    wrapper.chmod(0o755)
    return wrapper


def test_a_bundle_pagefind_left_with_an_empty_file_is_made_again(site, tmp_path, monkeypatch):
    out = tmp_path / "out"
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(emptying_pagefind(tmp_path, out, 1)))
    assert run(site, out).search_indexed == 4
    assert (tmp_path / "emptied").read_text() == "x"  # it did empty a file once
    files = [p for p in (out / "pagefind").rglob("*") if p.is_file()]
    assert files and all(p.stat().st_size > 0 for p in files)
    (bundle,) = manifest(out)["bundles"]
    json.loads((out / "pagefind" / bundle / "pagefind-entry.json").read_text())


def test_pagefind_leaving_empty_files_each_time_is_an_error(site, tmp_path, monkeypatch):
    out = tmp_path / "out"
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(emptying_pagefind(tmp_path, out, 99)))
    with pytest.raises(BuildFailed) as failed:
        run(site, out)
    assert any("Pagefind left empty files" in str(e) for e in failed.value.errors)
    assert (tmp_path / "emptied").read_text() == "xxx"  # three attempts
    assert not out.exists()


def test_another_pagefind_makes_every_bundle_again(site, tmp_path, monkeypatch):
    from matome.search.service import pagefind_binary

    out = tmp_path / "out"
    run(site, out)
    # The same Pagefind under another version (what ``pagefind --version`` says).
    wrapper = tmp_path / "pagefind"
    wrapper.write_text(
        '#!/bin/sh\n[ "$1" = --version ] && { echo "pagefind 9.9.9"; exit 0; }\n'
        f'exec "{pagefind_binary()}" "$@"\n'
    )
    wrapper.chmod(0o755)
    write_article(site, "a1", "鍋の記事", 1, "新しい言葉。")
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(wrapper))
    assert run(site, out).search_indexed == 4
    write_article(site, "a2", "鳥の記事", 2, "もう一つの言葉。")
    assert run(site, out).search_indexed == 1  # the same version: a young bundle only


def test_a_failed_build_leaves_the_published_index_and_its_state_as_they_were(site, tmp_path):
    out = tmp_path / "out"
    run(site, out)
    before = published(out)
    state = (site / ".matome-cache/search/state.json").read_bytes()
    write_article(site, "a1", "鍋の記事", 1, "新しい言葉。")
    broken = site / "content/posts/a4/index.md"
    broken.write_text(broken.read_text("utf-8") + '{{<matomeQuote body="閉じていない', "utf-8")
    with pytest.raises(BuildFailed) as failed:
        run(site, out)
    assert any("content/posts/a4/index.md" in str(e) for e in failed.value.errors)
    assert published(out) == before
    assert (site / ".matome-cache/search/state.json").read_bytes() == state
    write_article(site, "a4", "海の記事", 4, "直した。")
    assert run(site, out).search_indexed == 2
    assert published(out) != before


def test_a_build_failing_while_its_index_is_made_leaves_the_index_and_its_state(site, tmp_path):
    # A page's template fails while the files are written, when the index of the changed
    # article is being made beside them.
    out = tmp_path / "out"
    run(site, out)
    before = published(out)
    state = (site / ".matome-cache/search/state.json").read_bytes()
    (site / "templates/_default").mkdir(parents=True)
    (site / "templates/_default/broken.html").write_text("{{ page.title | nosuchfilter }}")
    write_article(site, "a1", "鍋の記事", 1, "新しい言葉。")
    broken = site / "content/posts/a4/index.md"
    broken.write_text(broken.read_text("utf-8").replace("+++\n\n", "layout = 'broken'\n+++\n\n", 1))
    with pytest.raises(BuildFailed):
        run(site, out)
    assert published(out) == before
    assert (site / ".matome-cache/search/state.json").read_bytes() == state
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "site"]  # no staging left
    broken.write_text(broken.read_text("utf-8").replace("layout = 'broken'\n", ""), "utf-8")
    assert run(site, out).search_indexed >= 1
    assert published(out) != before


def fragments(out: Path) -> dict[str, dict]:
    """URL -> Pagefind's result record, from the bundles the manifest lists."""
    import gzip

    found = {}
    for bundle in manifest(out)["bundles"]:
        for path in (out / "pagefind" / bundle / "fragment").iterdir():
            record = json.loads(gzip.decompress(path.read_bytes()).removeprefix(b"pagefind_dcd"))
            found[record["url"]] = record
    return found


def test_the_newest_articles_an_article_lists_are_not_its_text(site, tmp_path):
    """The ``list`` shortcode's newest articles are marked ``data-pagefind-ignore``: an
    article added changes the list in another article's page, not that article's text,
    which is not indexed again (the real blog has 15 such articles: every addition would
    otherwise make their large bundle again)."""
    out = tmp_path / "out"
    path = write_article(site, "a5", "一覧の記事", 5, "最新の記事はこちら。")
    path.write_text(path.read_text("utf-8") + "{{< list limit=3 >}}\n", "utf-8")
    run(site, out)
    write_article(site, "a6", "新着の記事", 6, "追加した本文。")
    report = run(site, out)
    assert "新着の記事" in (out / "posts/a5/index.html").read_text("utf-8")
    assert report.search_indexed == 1  # the new article alone
    text = {url: r["content"].replace(" ", "") for url, r in fragments(out).items()}
    assert "追加した本文" in text["/posts/a6/"]
    assert "最新の記事" in text["/posts/a5/"] and "新着" not in text["/posts/a5/"]


def test_the_thumbnails_results_show_follow_what_this_builds_templates_show(site, tmp_path):
    # The index of a build is begun while its files are written, with thumbnails if the
    # last build's templates showed them. Here the site's own templates show none until an
    # article calls a shortcode whose template does: the index is made again with them.
    from PIL import Image

    Image.new("RGB", (960, 640), "teal").save(site / "content/posts/a2/feature.jpg")
    templates = site / "templates"
    for name, source in {
        "_default/baseof.html": "<html><body>{% block main %}{% endblock %}</body></html>",
        "_default/single.html": "<h1>{{ page.title }}</h1>{{ page.content }}",
        "_default/list.html": "{% for p in page.pages %}{{ p.title }}{% endfor %}",
        "index.html": "{% for p in site.regular_pages %}{{ p.title }}{% endfor %}",
        "shortcodes/pic.html": "{% set t = thumbnail(page, 480) %}{{ t.rel_permalink if t }}",
    }.items():
        (templates / name).parent.mkdir(parents=True, exist_ok=True)
        (templates / name).write_text(source, "utf-8")
    out = tmp_path / "out"
    run(site, out)
    assert "image" not in fragments(out)["/posts/a2/"]["meta"]
    path = site / "content/posts/a1/index.md"
    path.write_text(path.read_text("utf-8") + "\n{{< pic >}}\n", "utf-8")
    report = run(site, out)
    # a2 for its thumbnail (a1, which has none, reads the same: the shortcode printed nothing)
    assert report.search_indexed == 1
    image = fragments(out)["/posts/a2/"]["meta"]["image"]
    assert image.startswith("/thumbnails/") and (out / image.lstrip("/")).is_file()
    listed = {b.rstrip("/") for b in manifest(out)["bundles"]}
    assert {p.name for p in (out / "pagefind").iterdir() if p.is_dir()} == listed


def test_pagefind_failing_is_an_error_of_the_setting_and_publishes_nothing(site, tmp_path):
    out = tmp_path / "out"
    run(site, out)
    before = published(out)
    write_article(site, "a1", "鍋の記事", 1, "新しい言葉。")
    env = {"PAGEFIND_BINARY_PATH": shutil.which("false"), "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-m", "matome", "build", "-s", str(site), "-d", str(out)],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=300,
    )
    assert result.returncode != 0
    assert re.search(
        r"params\.enableSearch:0:0: error: Pagefind stopped .*exit status 1", result.stderr
    )
    assert "Traceback" not in result.stderr
    assert published(out) == before
    assert "新しい言葉" not in (out / "posts/a1/index.html").read_text("utf-8")


def test_a_site_without_articles_has_an_empty_index_and_a_search_box_that_works(browser, tmp_path):
    site = tmp_path / "site"
    (site / "content").mkdir(parents=True)
    (site / "hugo.toml").write_text(CONFIG, encoding="utf-8")
    (site / "content/_index.md").write_text("+++\ntitle = 'ホーム'\n+++\n", "utf-8")
    out = tmp_path / "out"
    assert run(site, out).search_indexed == 0
    assert manifest(out)["bundles"] == []
    assert search(browser, out, "記事") == []


def test_pagefind_answers_a_record_with_a_character_utf8_cannot_hold():
    """Pagefind drops a request it cannot read, without an answer: one that waited for it
    would wait for ever."""
    from matome.search.service import PagefindService

    service = PagefindService()
    try:
        index = service.call({"type": "NewIndex", "config": {}}, "NewIndex")["index_id"]
        record = {"index_id": index, "url": "/x/", "language": "unknown", "meta": {}}
        service.send({"type": "AddRecord", "content": "壊れた\udc80文字", **record})
        assert service.receive("IndexedFile")["page_url"] == "/x/"
    finally:
        service.close()


def test_an_element_marked_ignored_is_cut_with_everything_it_holds():
    from matome.search.pages import without_ignored

    html = (
        "<p>前<br>文</p><ul data-pagefind-ignore><li><ul><li>入れ子</li></ul></li>"
        "<li><img src=a.png>画像</li></ul><p>data-pagefind-ignore と書いた本文</p>"
        '<div data-pagefind-ignore="all"><p>閉じない段落</div><p>後</p><b data-pagefind-ignore>末尾'
    )
    assert without_ignored(html) == (
        "<p>前<br>文</p><p>data-pagefind-ignore と書いた本文</p><p>後</p>"
    )


def test_each_cjk_character_is_a_word_and_punctuation_stays_with_the_one_before():
    assert tokens.split_cjk("ロック・ピッキング") == " ロ ッ ク・ ピ ッ キ ン グ "
    assert tokens.split_cjk("Rustで書いた「鍋」") == "Rust で 書 い た「 鍋」 "
    assert tokens.split_cjk("no CJK here") == "no CJK here"
    assert tokens.split_cjk("𠮷野家") == " 𠮷 野 家 "


def test_the_search_box_splits_queries_with_the_same_character_classes():
    """matome.js repeats tokens.LETTER and tokens.MARK: the index and the queries must agree."""
    script = (REPO / "static" / "js" / "matome.js").read_text(encoding="utf-8")

    def js_class(name: str) -> str:
        m = re.search(rf'var {name} = ((?:"[^"]*"\s*\+?\s*)+);', script)
        assert m, name
        literal = "".join(re.findall(r'"([^"]*)"', m.group(1)))
        return re.sub(
            r"\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})",
            lambda u: chr(int(u.group(1) or u.group(2), 16)),
            literal,
        )

    assert js_class("LETTER") == tokens.LETTER
    assert js_class("MARK") == tokens.MARK


def test_serve_indexes_the_site_then_each_edit_in_the_background(browser, site):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from test_serve import Serve, free_port

    server = Serve(site, "-p", str(free_port()))
    try:
        url = f"http://{server.host}:{server.port}"

        def found(query: str, expected: list[str]) -> None:
            for _ in range(120):  # the index is made after the site is served
                try:
                    links = search_at(browser, url, query, may_be_unindexed=True)
                except PlaywrightTimeout:  # serve reloaded the page (a rebuild) mid-search
                    links = None
                if links == expected:
                    return
                time.sleep(0.5)
            raise AssertionError(f"{query}: {links}\n" + "\n".join(server.lines + server.errors))

        found("量子もつれ鍋", ["/posts/a1/"])
        write_article(site, "a1", "鍋の記事", 1, "週末は宇宙うどんを囲みたいね。")
        found("宇宙うどん", ["/posts/a1/"])
        found("量子もつれ鍋", [])
    finally:
        server.stop()
    assert not server.errors, server.errors
    assert not (site / ".matome-cache" / "search").exists()  # the served index is its own


def test_a_second_serve_starts_from_the_first_ones_site_and_index(site):
    """The served index is serve's own (beside the pages): the next serve of the site
    finds it as it was, so it renders and indexes nothing again."""
    from test_serve import Serve, free_port

    port = str(free_port())
    first = Serve(site, "-p", port)
    try:
        first.wait_for(
            lambda: any(line.startswith("Search index:") for line in first.lines),
            60,
            "the background index",
        )
    finally:
        first.stop()
    second = Serve(site, "-p", port)
    try:
        assert second.get("/pagefind/matome-search.json")[0] == 200
        time.sleep(2)  # time enough for a background index to start and print
    finally:
        second.stop()
    output = "\n".join(second.lines)
    assert re.search(r"Rendered +│ +0$", output, re.M), output
    assert "Search index:" not in output, output
