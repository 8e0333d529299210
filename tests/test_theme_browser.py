"""The default theme in a real browser: Playwright drives Debian's Chromium.

Two sites: the demo (this repository) and 200 articles generated from the demo's three
(tests/theme_site.py). Screenshots at 390 px and 1280 px go to test-artifacts/.
Chromium is required (never skipped, never downloaded): see tests/theme_site.py.
"""

from __future__ import annotations

import pytest

try:  # tests/ as a package or as a plain directory on sys.path
    from tests.theme_site import (
        ARTIFACTS,
        REPO,
        UNIQUE_ARTICLE,
        UNIQUE_QUERY,
        StaticServer,
        demo_public,
        generated,
        generated_article_path,
        matome_build,
    )
except ImportError:
    from theme_site import (
        ARTIFACTS,
        REPO,
        UNIQUE_ARTICLE,
        UNIQUE_QUERY,
        StaticServer,
        demo_public,
        generated,
        generated_article_path,
        matome_build,
    )

__all__ = ["demo_public", "generated"]  # fixtures, imported for pytest

ARTICLE = "/posts/2025_11/2025_11_07_leaving_meta_and_pytorch/"
DEMO_PAGES = [
    "/",
    ARTICLE,
    "/posts/2025_03/2025_03_22_pytorch_internals_ezyangs_blog/",
    "/posts/notes/pytorch-wikipedia/",
    "/posts/",
    "/tags/",
    "/tags/pytorch/",
    "/months/",
    "/months/2025/11/",
    "/404.html",
]


@pytest.fixture(scope="module")
def demo(demo_public):
    with StaticServer(demo_public) as server:
        yield server


@pytest.fixture(scope="module")
def big(generated):
    site, public = generated
    with StaticServer(public) as server:
        server.site = site
        yield server


class Tab:
    """A page that records console errors, failed requests and uncaught exceptions."""

    def __init__(self, browser, width=1280, scheme="light"):
        self.context = browser.new_context(
            viewport={"width": width, "height": 900}, color_scheme=scheme
        )
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on(
            "console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}")
        )
        self.page.on("pageerror", lambda e: self.problems.append(f"exception: {e}"))
        self.page.on("requestfailed", lambda r: self.problems.append(f"request failed: {r.url}"))

    def open(self, url: str):
        response = self.page.goto(url)
        self.page.wait_for_load_state("networkidle")
        return response

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.context.close()


def _load_all(browser, server, paths):
    problems = []
    with Tab(browser) as tab:
        for path in paths:
            response = tab.open(server.url + path)
            if path != "/404.html":
                assert response.status == 200, path
            # Lazy images below the fold count too: scroll them into view.
            tab.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
            tab.page.wait_for_load_state("networkidle")
            broken = tab.page.evaluate(
                "[...document.images].filter(i => i.complete && i.naturalWidth === 0).map(i => i.src)"
            )
            problems += [f"{path}: {p}" for p in tab.problems] + [
                f"{path}: broken image {b}" for b in broken
            ]
            tab.problems.clear()
    return problems


def test_demo_pages_load_without_console_errors(browser, demo):
    problems = _load_all(browser, demo, DEMO_PAGES)
    assert not problems, "\n".join(problems)


def test_generated_site_pages_load_without_console_errors(browser, big):
    paths = [
        "/",
        "/page/2/",
        "/posts/",
        "/posts/page/3/",
        "/tags/",
        "/tags/page/2/",
        "/tags/pytorch/",
        "/months/",
        generated_article_path(big.site, 0),
        generated_article_path(big.site, UNIQUE_ARTICLE),
    ]
    problems = _load_all(browser, big, paths)
    assert not problems, "\n".join(problems)


def test_more_comments_toggle_opens(browser, demo):
    with Tab(browser) as tab:
        tab.open(demo.url + ARTICLE)
        details = tab.page.locator("details").first
        hidden_comment = details.locator("article.comment").first
        assert "もっとコメントを表示" in details.locator("summary").inner_text()
        assert not hidden_comment.is_visible()
        details.locator("summary").click()
        assert details.evaluate("d => d.open")
        assert hidden_comment.is_visible()
        assert not tab.problems


@pytest.mark.parametrize("site", ["demo", "big"])
def test_japanese_search_finds_an_article_by_a_comment(browser, request, site):
    server = request.getfixturevalue(site)
    if site == "demo":
        # Words from one comment of one article, in a folded "more comments" block.
        query, expected = "バス係数", ARTICLE
    else:
        query, expected = UNIQUE_QUERY, generated_article_path(server.site, UNIQUE_ARTICLE)
    with Tab(browser) as tab:
        tab.open(server.url + "/")
        tab.page.click("[data-search-open]")
        search = tab.page.locator("#search-dialog input")
        search.wait_for()
        search.fill(query)
        result = tab.page.locator(".search-result-link").first
        result.wait_for(timeout=15000)
        links = tab.page.locator(".search-result-link").evaluate_all(
            "a => a.map(x => x.getAttribute('href'))"
        )
        assert links == [expected], links
        assert query in tab.page.locator(".search-result-excerpt").first.inner_text()
        tab.page.keyboard.press("Escape")
        assert not tab.page.locator("#search-dialog").evaluate("d => d.open")
        assert not tab.problems, tab.problems


def _background(page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def test_dark_mode_follows_the_system_and_the_toggle_is_remembered(browser, demo):
    with Tab(browser, scheme="light") as tab:
        tab.open(demo.url + ARTICLE)
        light = _background(tab.page)
        toggle = tab.page.locator(".theme-toggle")
        assert toggle.get_attribute("aria-pressed") == "false"
        toggle.click()
        assert tab.page.evaluate("document.documentElement.dataset.theme") == "dark"
        assert toggle.get_attribute("aria-pressed") == "true"
        dark = _background(tab.page)
        assert dark != light
        tab.open(demo.url + "/tags/")  # the choice is remembered across pages
        assert _background(tab.page) == dark
        tab.page.locator(".theme-toggle").click()
        assert _background(tab.page) == light
        assert not tab.problems
    with Tab(browser, scheme="dark") as tab:  # no choice made: the system decides
        tab.open(demo.url + "/")
        assert _background(tab.page) == dark
        assert tab.page.locator(".theme-toggle").get_attribute("aria-pressed") == "true"


def test_tags_page_filters_and_sorts(browser, big):
    with Tab(browser) as tab:
        tab.open(big.url + "/tags/")
        items = tab.page.locator("#term-list > li")
        total = items.count()
        assert total > 200  # every tag on the first page
        assert items.first.locator("a").inner_text() == "PyTorch"  # most used first
        tab.page.fill("#term-filter", "連番1")
        visible = tab.page.locator("#term-list > li:not([hidden])")
        assert 1 < visible.count() < total
        assert all("連番1" in text for text in visible.locator("a").all_inner_texts())
        tab.page.fill("#term-filter", "")
        tab.page.click("[data-sort=name]")
        names = tab.page.locator("#term-list > li a").all_inner_texts()
        assert names[0] != "PyTorch" and len(names) == total
        assert not tab.problems


@pytest.mark.parametrize("width", [360, 390, 1280])
def test_no_page_scrolls_sideways(browser, demo, width):
    with Tab(browser, width=width) as tab:
        for path in DEMO_PAGES:
            tab.open(demo.url + path)
            overflow = tab.page.evaluate("document.documentElement.scrollWidth - innerWidth")
            assert overflow <= 0, f"{path} is {overflow}px too wide at {width}px"


@pytest.mark.parametrize("width", [390, 1280])
def test_screenshots(browser, demo, big, width):
    ARTIFACTS.mkdir(exist_ok=True)
    shots = {
        "demo-home": demo.url + "/",
        "demo-article": demo.url + ARTICLE,
        "demo-tags": demo.url + "/tags/",
        "generated-home": big.url + "/",
        "generated-posts": big.url + "/posts/",
    }
    for scheme in ("light", "dark"):
        with Tab(browser, width=width, scheme=scheme) as tab:
            for name, url in shots.items():
                tab.open(url)
                path = ARTIFACTS / f"{name}-{width}-{scheme}.png"
                tab.page.screenshot(path=str(path))
                assert path.stat().st_size > 10_000
            assert not tab.problems, tab.problems


def test_minified_build_works_in_the_browser(browser, tmp_path):
    out = tmp_path / "public"
    matome_build(REPO, out, "--minify")
    html = (out / ARTICLE.strip("/") / "index.html").read_text(encoding="utf-8")
    assert html.count("\n") < 20, "the page was not minified"
    with StaticServer(out) as server, Tab(browser) as tab:
        tab.open(server.url + ARTICLE)
        assert tab.page.locator("article.comment").count() == 84
        tab.page.locator("details summary").first.click()
        tab.page.locator(".theme-toggle").click()
        assert tab.page.evaluate("document.documentElement.dataset.theme") == "dark"
        assert not tab.problems, tab.problems
