"""The default theme's HTML: valid (Nu HTML checker), accessible (axe-core), no broken links.

Required tools (never skipped): Java and ``node_modules/vnu-jar``, ``node_modules/axe-core``,
Debian's Chromium. ``.ci/run`` installs them; see tests/theme_site.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

try:  # tests/ as a package or as a plain directory on sys.path
    from tests.theme_site import (
        AXE_JS,
        VNU_JAR,
        StaticServer,
        demo_public,
        generated,
        java,
        require,
    )
except ImportError:
    from theme_site import (
        AXE_JS,
        VNU_JAR,
        StaticServer,
        demo_public,
        generated,
        java,
        require,
    )

__all__ = ["demo_public", "generated"]  # fixtures, imported for pytest

DEMO_BASE = "https://example.org/"
ARTICLE = "/posts/2025_11/2025_11_07_leaving_meta_and_pytorch/"
AXE_PAGES = {"home": "/", "article": ARTICLE, "tags": "/tags/", "term": "/tags/pytorch/"}


def test_every_page_of_the_demo_passes_the_nu_html_checker(demo_public):
    command = [java(), "-jar", str(require(VNU_JAR, "the Nu HTML checker (npm vnu-jar)"))]
    pages = sorted(demo_public.rglob("*.html"))
    assert len(pages) > 40
    result = subprocess.run(
        [*command, "--errors-only", "--format", "json", "--skip-non-html", str(demo_public)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    report = json.loads(result.stderr or result.stdout or '{"messages": []}')
    errors = [
        f"{m.get('url', '').split(str(demo_public))[-1]}:{m.get('lastLine')}: {m['message']}"
        for m in report["messages"]
        if m.get("type") in ("error", "non-document-error")
    ]
    assert not errors, "\n".join(errors[:40])


class _Page(HTMLParser):
    """The URLs a page points at and the ids it has."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if a.get(key):
                self.urls.append(a[key])
        if a.get("srcset"):
            self.urls += [part.split()[0] for part in a["srcset"].split(",") if part.strip()]
        if tag == "meta" and a.get("property") == "og:image":
            self.urls.append(a["content"])
        if tag == "meta" and a.get("http-equiv", "").lower() == "refresh":
            self.urls.append(a["content"].split("url=", 1)[-1])
        if a.get("data-index"):
            self.urls.append(a["data-index"])


def _internal(url: str, page_url: str, base: str) -> str | None:
    """The site path a URL points at, or None for an external or non-http one."""
    if url.startswith(base):
        url = "/" + url[len(base) :]
    elif urlsplit(url).scheme or url.startswith("//"):
        return None
    return urljoin(page_url, url)


def _check_links(public: Path, base: str) -> list[str]:
    base_path = urlsplit(base).path
    broken: list[str] = []
    ids: dict[Path, set[str]] = {}

    def parse(path: Path) -> _Page:
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        ids[path] = page.ids
        return page

    def target_of(site_path: str) -> Path:
        rel = unquote(site_path).removeprefix(base_path.rstrip("/"))
        target = public / rel.lstrip("/")
        return target / "index.html" if rel.endswith("/") or target.is_dir() else target

    checked = 0
    for path in sorted(public.rglob("*")):
        rel = path.relative_to(public).as_posix()
        if rel.startswith("pagefind/") or not path.is_file():
            continue
        page_url = base_path.rstrip("/") + "/" + rel.removesuffix("index.html")
        urls: list[str] = []
        if path.suffix == ".html":
            urls = parse(path).urls
        elif path.suffix == ".xml":
            root = ET.parse(path).getroot()
            urls = [
                e.text
                for e in root.iter()
                if e.tag.split("}")[-1] in ("loc", "link", "guid") and e.text
            ]
            urls += [
                e.get("href") for e in root.iter() if e.tag.endswith("}link") and e.get("href")
            ]
        elif path.name == "index.json":
            urls = [item["permalink"] for item in json.loads(path.read_text(encoding="utf-8"))]
        for url in urls:
            site_path = _internal(url.strip(), page_url, base)
            if site_path is None:
                continue
            checked += 1
            location, _, fragment = site_path.partition("#")
            target = target_of(location) if location else path
            if not target.is_file():
                broken.append(f"{rel}: {url} -> missing {target.relative_to(public)}")
            elif fragment and target.suffix == ".html":
                known = ids[target] if target in ids else parse(target).ids
                if unquote(fragment) not in known:
                    broken.append(f"{rel}: {url} -> no id {fragment!r}")
    assert checked > 100, "the link check found almost nothing to check"
    return broken


def test_no_internal_link_or_image_of_the_demo_is_broken(demo_public):
    broken = _check_links(demo_public, DEMO_BASE)
    assert not broken, "\n".join(broken[:40])


def test_no_internal_link_or_image_of_the_generated_site_is_broken(generated):
    _, public = generated
    broken = _check_links(public, DEMO_BASE)
    assert not broken, "\n".join(broken[:40])


def test_the_main_menu_marks_where_each_page_is(generated):
    """The header is rendered once per main-menu position (``partial_cached``), so on
    every page of a parallel build the menu must mark that page's own entry as current
    and the entry of the section it is in as "is-within", and never another page's."""
    _, public = generated
    nav = re.compile(r'<nav class="site-nav".*?</nav>', re.S)
    entry = re.compile(r'<li><a href="([^"]+)"( aria-current="page"| class="is-within")?>')
    seen: dict[str, int] = {}
    for path in public.rglob("index.html"):
        found = nav.search(path.read_text(encoding="utf-8"))
        if found is None:  # an alias: a redirect with no header
            continue
        folder = path.parent.relative_to(public).as_posix()
        # A list's page 2, 3, ... is the list page itself, as in Hugo's IsMenuCurrent.
        url = re.sub(r"page/\d+/$", "", "/" if folder == "." else f"/{folder}/")
        for href, mark in entry.findall(found.group(0)):
            current = href == url
            within = not current and href != "/" and url.startswith(href)
            wanted = ' aria-current="page"' if current else ' class="is-within"' if within else ""
            assert mark == wanted, (url, href, mark)
            seen[wanted] = seen.get(wanted, 0) + 1
    assert seen.get(' aria-current="page"', 0) >= 3, seen
    assert seen.get(' class="is-within"', 0) > 200, seen


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 390])
def test_axe_finds_no_serious_or_critical_violation(demo_public, browser, scheme, width):
    axe = require(AXE_JS, "axe-core (npm axe-core)")
    found = []
    with StaticServer(demo_public) as server:
        context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
        page = context.new_page()
        for name, path in AXE_PAGES.items():
            page.goto(server.url + path)
            page.add_script_tag(path=str(axe))
            result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
            for v in result["violations"]:
                if v["impact"] in ("serious", "critical"):
                    targets = [n["target"] for n in v["nodes"][:5]]
                    found.append(f"{name} {path}: {v['id']} ({v['impact']}): {v['help']} {targets}")
        context.close()
    assert not found, "\n".join(found)


def test_article_page_has_share_ready_meta(demo_public):
    html = (demo_public / ARTICLE.strip("/") / "index.html").read_text(encoding="utf-8")
    for pattern in (
        rf'<link rel="canonical" href="{DEMO_BASE}{ARTICLE[1:]}">',
        r'<meta name="description" content="[^"]{20,}">',
        r'<meta property="og:type" content="article">',
        r'<meta property="og:image" content="https://example\.org/thumbnails/purple2_\w+_1200\.jpg">',
        r'<meta property="og:image:width" content="1200">',
        r'<meta name="twitter:card" content="summary_large_image">',
        r'<meta property="article:published_time" content="2025-11-07T00:00:00',
    ):
        assert re.search(pattern, html), pattern
