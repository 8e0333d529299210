"""``ref`` and ``relref`` against the real ``hugo``: one site, built by both, whose pages refer
to each other every way Hugo resolves a reference (absolute, without or with a content
extension, a bare file name, a bundle's folder, relative to the page, a fragment, the ``lang``
and ``outputFormat`` options), as shortcodes and as template functions; then the references
Hugo refuses, each in a site of its own, and ``refLinksErrorLevel = "WARNING"``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

try:  # tests/ as a package or as a plain directory on sys.path
    from tests.hugo_oracle import hugo_binary
except ImportError:
    from hugo_oracle import hugo_binary

BEGIN, END = "@@BEGIN@@", "@@END@@"
CONFIG = 'baseURL = "https://example.org/sub/"\ntitle = "Refs"\n'
PAGES = {
    "_index.md": "",
    "about.md": "",
    "posts/_index.md": (
        '{{< ref "a" >}} {{< ref "sub" >}} {{< relref "./some-post" >}} {{< ref "bundle" >}}\n'
    ),
    "posts/some-post.markdown": "",
    "posts/sub/_index.md": "",
    "posts/sub/deep.md": '{{< relref "../a" >}} {{< relref "../../about" >}}\n',
    "posts/bundle/index.md": (
        '{{< ref "a" >}} {{< ref "./a.md" >}} {{< relref "sub/deep" >}} {{< relref "#top" >}}\n'
    ),
    "docs/a.md": '{{< relref "a" >}} {{< relref "guide" >}} {{< relref "/posts/a" >}}\n',
    "docs/guide.md": "",
    "posts/a.md": "\n".join(
        [
            '{{< ref "/posts/a" >}}',
            '{{< ref "/posts/a.md" >}}',
            '{{< ref "posts/a" >}}',
            '{{< ref "/posts/a/" >}}',
            '{{< ref "posts/some-post" >}}',
            '{{< ref "some-post.markdown" >}}',
            '{{< ref "/posts/some-post.markdown" >}}',
            '{{< ref "some-post" >}}',
            '{{< ref "bundle" >}}',
            '{{< ref "/posts/bundle" >}}',
            '{{< ref "/posts/bundle/index.md" >}}',
            '{{< ref "/posts/bundle/index" >}}',
            '{{< ref "./some-post" >}}',
            '{{< ref "../about" >}}',
            '{{< ref "sub/deep" >}}',
            '{{< ref "sub" >}}',
            '{{< ref "guide" >}}',
            '{{< ref "deep.md" >}}',
            '{{< ref "/about#team" >}}',
            '{{< ref "some-post#part-2" >}}',
            '{{< ref "#local" >}}',
            '{{< ref "/" >}}',
            '{{< ref "/posts" >}}',
            '{{< ref "/posts/" >}}',
            '{{< ref "/docs" >}}',
            '{{< ref "/ABOUT" >}}',
            '{{< relref "/posts/a" >}}',
            '{{< relref "some-post.markdown" >}}',
            '{{< relref "#local" >}}',
            '{{< relref "/" >}}',
            '{{< ref path="/about" >}}',
            '{{< ref path="/about" lang="en" >}}',
            '{{< relref path="/posts" outputFormat="rss" >}}',
            '{{< ref path="/posts" outputFormat="RSS" >}}',
            '{{< relref "/posts" "rss" >}}',
            '{{< relref path="/posts/a" outputFormat="html" >}}',
            '{{< relref path="/posts/a#x" outputFormat="html" >}}',
            '{{% ref "/about" %}}',
            '[about]({{< relref "/about" >}})',
        ]
    )
    + "\n",
}
HUGO_SINGLE = (
    BEGIN + '{{ .Content }}|{{ ref . "/about" }}|{{ relref . "some-post.markdown" }}|'
    '{{ relref . (dict "path" "/posts" "outputFormat" "rss") }}|'
    '{{ relref . (slice "/posts/" "rss") }}|{{ ref . "#frag" }}|{{ relref . "" }}' + END
)
MATOME_SINGLE = (
    BEGIN + '{{ page.content }}|{{ ref(page, "/about") }}|{{ relref(page, "some-post.markdown") }}|'
    '{{ relref(page, {"path": "/posts", "outputFormat": "rss"}) }}|'
    '{{ relref(page, ["/posts/", "rss"]) }}|{{ ref(page, "#frag") }}|{{ relref(page, "") }}' + END
)


def _write(root: Path, pages: dict[str, str], config: str = CONFIG) -> Path:
    for name, template in (("layouts", HUGO_SINGLE), ("templates", MATOME_SINGLE)):
        for kind in ("single", "list"):
            path = root / name / "_default" / f"{kind}.html"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(template, encoding="utf-8")
    (root / "hugo.toml").write_text(config, encoding="utf-8")
    for rel, body in pages.items():
        path = root / "content" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        title = rel.rsplit("/", 1)[-1].split(".")[0]
        path.write_text(f"+++\ntitle = '{title}'\n+++\n{body}", encoding="utf-8")
    return root


def _hugo(root: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [hugo_binary(), "-s", str(root), "-d", str(out), "--noBuildLock"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def _matome(root: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "matome", "build", "-s", str(root), "-d", str(out), "--quiet"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def _probe(out: Path, url: str) -> str:
    text = (out / url.strip("/") / "index.html").read_text(encoding="utf-8")
    return text[text.index(BEGIN) + len(BEGIN) : text.rindex(END)]


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("refs")
    root = _write(tmp / "site", PAGES)
    hugo, matome = _hugo(root, tmp / "hugo"), _matome(root, tmp / "matome")
    assert hugo.returncode == 0, hugo.stderr
    assert matome.returncode == 0, matome.stderr
    return tmp / "hugo", tmp / "matome"


PROBED = [
    "/posts/a/", "/posts/", "/posts/sub/deep/", "/posts/bundle/", "/docs/a/", "/about/", "/",
    "/posts/sub/",
]  # fmt: skip


@pytest.mark.parametrize("url", PROBED)
def test_references_match_hugo(both, url):
    hugo, matome = both
    expected, got = _probe(hugo, url), _probe(matome, url)
    assert got == expected


def test_the_fixture_covers_what_it_says(both):
    hugo, _ = both
    probe = _probe(hugo, "/posts/a/")
    lines = probe.split("|")[0].split("\n")
    assert lines[5] == "https://example.org/sub/posts/some-post/"  # "some-post.markdown"
    assert '<a href="/sub/about/">about</a>' in probe
    assert "/sub/posts/index.xml" in probe and "https://example.org/sub/about/#team" in probe


# name -> (page's body, the words Hugo's and matome's messages share)
REFUSED = {
    "ambiguous_name": ('{{< ref "a" >}}\n', 'page reference "a" is ambiguous'),
    "not_found": ('See {{< ref "/posts/nope" >}}.\n', 'REF_NOT_FOUND: Ref "/posts/nope"'),
    "relative_not_found": ('{{< relref "./nope" >}}\n', 'REF_NOT_FOUND: Ref "./nope"'),
    "other_language": ('{{< ref path="/about" lang="fr" >}}\n', 'no site found with lang "fr"'),
    "output_format": (
        '{{< ref path="/docs/a" outputFormat="rss" >}}\n',
        'output format "rss"',
    ),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_refused_references_fail_as_in_hugo(tmp_path, name):
    body, words = REFUSED[name]
    pages = {**{k: "" for k in PAGES}, "about.md": body}
    root = _write(tmp_path / "site", pages)
    hugo, matome = _hugo(root, tmp_path / "hugo"), _matome(root, tmp_path / "matome")
    assert hugo.returncode != 0 and words in hugo.stdout + hugo.stderr, hugo.stdout + hugo.stderr
    assert matome.returncode == 1, matome.stderr
    assert "content/about.md:4:" in matome.stderr and words in matome.stderr, matome.stderr


def test_warning_level_links_to_the_not_found_url(tmp_path):
    pages = {**{k: "" for k in PAGES}, "about.md": 'See {{< relref "/posts/nope" >}}.\n'}
    config = CONFIG + 'refLinksErrorLevel = "WARNING"\nrefLinksNotFoundURL = "/missing/"\n'
    root = _write(tmp_path / "site", pages, config)
    hugo, matome = _hugo(root, tmp_path / "hugo"), _matome(root, tmp_path / "matome")
    assert hugo.returncode == 0 and "REF_NOT_FOUND" in hugo.stdout + hugo.stderr
    assert matome.returncode == 0, matome.stderr
    assert _probe(tmp_path / "matome", "/about/") == _probe(tmp_path / "hugo", "/about/")
    assert "/missing/" in _probe(tmp_path / "hugo", "/about/")
