"""``matome serve`` in a real browser: Playwright drives Debian's Chromium (never downloaded).

On a copy of the demo site: an article edited on disk shows its new text in the open
page with no manual reload; broken front matter shows its ``path:line:col`` error
over the page; fixed, the article is back; a CSS change applies without a reload.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

try:  # tests/ as a package or as a plain directory on sys.path
    from tests.browser import CHROMIUM_ARGS, require_chromium
    from tests.test_serve import Serve, free_port
except ImportError:
    from browser import CHROMIUM_ARGS, require_chromium
    from test_serve import Serve, free_port

REPO = Path(__file__).resolve().parent.parent
ARTICLE = "posts/2025_11/2025_11_07_leaving_meta_and_pytorch"
HEADING = "> PyTorch共同創設者がMetaとPyTorchを去る！AI開発の未来はどうなる？"
TIMEOUT = 20_000  # ms


@pytest.fixture(scope="module")
def browser():
    executable = require_chromium()  # fails, never skips, when Debian's Chromium is missing
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def demo(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    shutil.copy(REPO / "hugo.toml", site)
    shutil.copytree(REPO / "content", site / "content")
    shutil.copytree(REPO / "assets", site / "assets")
    # The site's own stylesheet overrides the theme's, so the test can change it.
    (site / "static/css").mkdir(parents=True)
    shutil.copy(REPO / "static/css/matome.css", site / "static/css/matome.css")
    server = Serve(site, "-p", str(free_port()))
    yield server
    server.stop()
    print("\n".join(server.lines + server.errors))  # shown when the test fails


def test_edit_error_fix_and_css_reach_the_open_page(browser, demo):
    from playwright.sync_api import expect

    page = browser.new_page()
    loads: list[str] = []  # every document the tab loaded, and what it wrote to its console
    page.on("load", lambda: loads.append(f"load {page.url}"))
    page.on("console", lambda message: loads.append(f"console {message.text}"))
    page.goto(f"http://{demo.host}:{demo.port}/{ARTICLE}/")
    body = page.locator("main")
    expect(body).to_contain_text("Chainer", timeout=TIMEOUT)
    source = demo.site / "content" / ARTICLE / "index.md"
    original = source.read_text()
    assert HEADING in original

    # Edit the text on disk: the open page shows it by itself.
    edited = original.replace(HEADING, "> ライブ編集のテキスト")
    source.write_text(edited)
    expect(body).to_contain_text("ライブ編集のテキスト", timeout=TIMEOUT)

    # Break the front matter: the error is shown over the page, with file:line:col.
    source.write_text(edited.replace("title = '", "title = ", 1))
    overlay = page.locator("#matome-build-errors")
    expect(overlay).to_be_visible(timeout=TIMEOUT)
    expect(overlay).to_contain_text(
        re.compile(rf"content/{ARTICLE}/index\.md:5:\d+: error: invalid TOML"), timeout=TIMEOUT
    )

    # Fix it: the article is back, the error gone.
    source.write_text(edited.replace("ライブ編集のテキスト", "直した後のテキスト"))
    expect(body).to_contain_text("直した後のテキスト", timeout=TIMEOUT)
    expect(overlay).to_have_count(0, timeout=TIMEOUT)

    # Change a stylesheet: the new style applies, and the page is not reloaded for it.
    page.evaluate("window.__beforeCss = 'still here'")
    loads.append("variable set")
    css = demo.site / "static/css/matome.css"
    css.write_text(css.read_text() + "\nbody { background-color: rgb(1, 2, 3) !important; }\n")
    expect(page.locator("body")).to_have_css("background-color", "rgb(1, 2, 3)", timeout=TIMEOUT)
    print("\n".join(loads))
    assert page.evaluate("window.__beforeCss") == "still here"
    page.close()
