"""Global and page resources (``resources.get``, ``get_match``, ``match``, ``from_string``,
``concat``, ``minify``, ``fingerprint``, ``page.resources.get_match``/``match``/``by_type``/
``get``): what a template prints and which files are published, compared with the real
``hugo`` on the same site; then what matome adds: publishing from worker processes and
kept files, the build cache seeing an asset change, ``assetDir``, a QR code (``images.qr``)
shown by a kept body."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest
from cli import matome
from PIL import Image
from site_probe import build_hugo, build_matome, cases, write_tree

CSS = "body {\n  color: red;   /* c */\n}\n\na { margin: 0px 0px; }\n"
APP_JS = "var x = 1;\n// comment\nfunction f(a) {\n  return a + x;\n}\n"

SITE = {
    "hugo.toml": 'baseURL = "https://example.org/blog/"\n'
    'disableKinds = ["rss", "sitemap", "robotstxt", "404", "taxonomy", "term"]\n',
    "assets/css/main.css": CSS,
    "assets/js/app.js": APP_JS,
    "assets/js/b.js": "const y = 2;\n",
    "assets/data/site.json": '{ "a": [1, 2],\n  "b": "x" }\n',
    "content/posts/p/index.md": '+++\ntitle = "P"\n+++\nx\n',
    "content/posts/p/notes.txt": "notes\n",
    "layouts/single.html": "{{ .Title }}",
    "layouts/list.html": "{{ .Title }}",
    "templates/_default/single.html": "{{ page.title }}",
    "templates/_default/list.html": "{{ page.title }}",
}

# (case, Go, Jinja): each pair prints the same.
TABLE = [
    (
        "get",
        '{{ $c := resources.Get "css/main.css" }}{{ $c.Name }}|{{ $c.Title }}|{{ $c.MediaType }}|{{ $c.MediaType.MainType }}|{{ $c.MediaType.SubType }}|{{ $c.ResourceType }}|{{ $c.RelPermalink }}|{{ $c.Permalink }}|{{ $c.Key }}',
        '{% set c = resources.get("css/main.css") %}{{ c.name }}|{{ c.title }}|{{ c.media_type }}|{{ c.media_type.main_type }}|{{ c.media_type.sub_type }}|{{ c.resource_type }}|{{ c.rel_permalink }}|{{ c.permalink }}|{{ c.key }}',
    ),
    (
        "content",
        '{{ (resources.Get "css/main.css").Content }}',
        '{{ resources.get("css/main.css").content }}',
    ),
    (
        "minify-css",
        '{{ $m := resources.Get "css/main.css" | resources.Minify }}{{ $m.Name }}|{{ $m.RelPermalink }}|{{ $m.Content }}',
        '{% set m = resources.get("css/main.css") | minify %}{{ m.name }}|{{ m.rel_permalink }}|{{ m.content }}',
    ),
    (
        "minify-json",
        '{{ $m := resources.Get "data/site.json" | minify }}{{ $m.RelPermalink }}|{{ $m.Content }}',
        '{% set m = resources.minify(resources.get("data/site.json")) %}{{ m.rel_permalink }}|{{ m.content }}',
    ),
    (
        "fingerprint",
        '{{ $f := resources.Get "css/main.css" | minify | resources.Fingerprint }}{{ $f.Name }}|{{ $f.RelPermalink }}|{{ $f.Data.Integrity }}',
        '{% set f = resources.get("css/main.css") | minify | fingerprint %}{{ f.name }}|{{ f.rel_permalink }}|{{ f.data.integrity }}',
    ),
    (
        "fingerprint-512",
        '{{ $f := resources.Get "css/main.css" | fingerprint "sha512" }}{{ $f.RelPermalink }}|{{ $f.Data.Integrity }}',
        '{% set f = resources.get("css/main.css") | fingerprint("sha512") %}{{ f.rel_permalink }}|{{ f.data.integrity }}',
    ),
    (
        "fingerprint-384-unpublished",
        '{{ (resources.Get "css/main.css" | fingerprint "sha384").Data.Integrity }}',
        '{{ resources.fingerprint(resources.get("css/main.css"), "sha384").data.integrity }}',
    ),
    (
        "fingerprint-md5",
        '{{ $f := resources.Get "css/main.css" | fingerprint "md5" }}{{ $f.RelPermalink }}|{{ $f.Data.Integrity }}',
        '{% set f = resources.get("css/main.css") | fingerprint("md5") %}{{ f.rel_permalink }}|{{ f.data.integrity }}',
    ),
    (
        "minify-js-url",
        '{{ (resources.Get "js/app.js" | minify).RelPermalink }}',
        '{{ (resources.get("js/app.js") | minify).rel_permalink }}',
    ),
    (
        "concat",
        '{{ $b := slice (resources.Get "js/app.js") (resources.Get "js/b.js") | resources.Concat "js/bundle.js" }}{{ $b.Name }}|{{ $b.RelPermalink }}|{{ $b.Content }}',
        '{% set b = [resources.get("js/app.js"), resources.get("js/b.js")] | concat("js/bundle.js") %}{{ b.name }}|{{ b.rel_permalink }}|{{ b.content }}',
    ),
    (
        "from-string",
        '{{ $s := resources.FromString "data/x.txt" "hello" }}{{ $s.Name }}|{{ $s.RelPermalink }}|{{ $s.Content }}|{{ $s.MediaType }}',
        '{% set s = resources.from_string("data/x.txt", "hello") %}{{ s.name }}|{{ s.rel_permalink }}|{{ s.content }}|{{ s.media_type }}',
    ),
    (
        "match",
        '{{ $n := slice }}{{ range resources.Match "js/*" }}{{ $n = $n | append .Name }}{{ end }}{{ delimit (sort $n) "," }}',
        '{{ resources.match("js/*") | map(attribute="name") | sort | join(",") }}',
    ),
    (
        "get-match",
        '{{ (resources.GetMatch "**.json").Name }}|{{ with resources.Get "nope.css" }}found{{ else }}none{{ end }}|{{ with resources.GetMatch "*.nope" }}found{{ else }}none{{ end }}',
        '{{ resources.get_match("**.json").name }}|{{ "found" if resources.get("nope.css") else "none" }}|{{ "found" if resources.get_match("*.nope") else "none" }}',
    ),
    (
        "page-resources",
        '{{ $r := (site.GetPage "/posts/p").Resources }}{{ ($r.GetMatch "*.TXT").Name }}|{{ ($r.Get "notes.txt").Content }}|{{ range $r.Match "*.txt" }}{{ .Name }}={{ .Title }}={{ .ResourceType }}={{ .MediaType }}={{ .RelPermalink }}{{ end }}|{{ len ($r.ByType "text") }}|{{ len ($r.ByType "image") }}',
        '{% set r = site.get_page("/posts/p").resources %}{{ r.get_match("*.TXT").name }}|{{ r.get("notes.txt").content }}|{% for x in r.match("*.txt") %}{{ x.name }}={{ x.title }}={{ x.resource_type }}={{ x.media_type }}={{ x.rel_permalink }}{% endfor %}|{{ r.by_type("text") | length }}|{{ r.by_type("image") | length }}',
    ),
]


def go_cases(table) -> str:
    return "".join(f"@@{name}@@{go}@@end@@\n" for name, go, _ in table)


def jinja_cases(table) -> str:
    return "".join(f"@@{name}@@{jinja}@@end@@\n" for name, _, jinja in table)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    site = tmp_path_factory.mktemp("resources") / "site"
    write_tree(
        site,
        {**SITE, "layouts/home.html": go_cases(TABLE), "templates/index.html": jinja_cases(TABLE)},
    )
    hugo_out = build_hugo(site)
    matome_out, _ = build_matome(site)
    return {
        "hugo": cases((hugo_out / "index.html").read_text()),
        "matome": cases((matome_out / "index.html").read_text()),
        "hugo_files": published(hugo_out),
        "matome_files": published(matome_out),
        "matome_out": matome_out,
    }


def published(out: Path) -> set[str]:
    """The files a build wrote other than pages and matome's own theme files."""
    return {
        p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if p.is_file() and p.suffix not in (".html", ".xml") and not p.name.startswith("matome.")
    }


@pytest.mark.parametrize("case", [name for name, _, _ in TABLE])
def test_matome_prints_what_hugo_prints(built, case):
    assert built["matome"].get(case, "<not printed>") == built["hugo"][case]


def test_only_the_resources_whose_url_was_read_are_published(built):
    assert built["matome_files"] == built["hugo_files"]
    # The SHA-384 copy's integrity was read, not its URL: neither tool writes it.
    assert not any(re.search(r"main\.[0-9a-f]{96}\.css", f) for f in built["matome_files"])


def test_a_fingerprint_is_the_digest_of_the_published_bytes(built):
    out = built["matome_out"]
    _, url, integrity = built["matome"]["fingerprint"].split("|")
    data = (out / url.removeprefix("/blog/")).read_bytes()
    assert integrity == "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()
    assert hashlib.sha256(data).hexdigest() in url
    assert data == b"body{color:red}a{margin:0}"


def test_minified_javascript_is_smaller_and_still_the_same_program(built):
    """minify-html's JavaScript minifier keeps comments and names, Go's (tdewolff/minify)
    removes the one and shortens the other: the same URL as Hugo's, other bytes."""
    out = built["matome_out"]
    url = built["matome"]["minify-js-url"]
    data = (out / url.removeprefix("/blog/")).read_text()
    assert len(data) < len(APP_JS)
    assert "function f(a){return a+x}" in data.replace("\n", "")


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


BASE = """\
{% set css = resources.get("css/main.css") | minify | fingerprint %}
<link rel="stylesheet" href="{{ css.rel_permalink }}" integrity="{{ css.data.integrity }}">
"""


def make_site(root: Path, articles: int = 80) -> Path:
    write(root / "hugo.toml", 'baseURL = "https://example.org/"\nassetDir = "src"\n')
    write(root / "src/css/main.css", CSS)
    write(root / "templates/_default/single.html", BASE + "{{ page.content }}")
    write(root / "templates/_default/list.html", "{{ page.title }}")
    write(root / "templates/index.html", "home")
    write(
        root / "templates/shortcodes/logo.html",
        '<img src="{{ resources.get("logo.png").resize("20x").rel_permalink }}">',
    )
    (root / "src").mkdir(exist_ok=True)
    Image.new("RGB", (200, 100), "navy").save(root / "src/logo.png")
    for i in range(articles):
        body = "{{< logo >}}\n" if i == 0 else "text\n"
        write(
            root / f"content/posts/p{i:02}.md",
            f'+++\ntitle = "P{i}"\ndate = 2025-01-01\n+++\n{body}',
        )
    return root


def links(html: str) -> str:
    return re.search(r'href="([^"]+)"', html).group(1)


def test_resources_used_by_the_workers_a_shortcode_and_kept_files_are_published(tmp_path):
    site = make_site(tmp_path / "site")
    out = tmp_path / "out"
    first = matome("build", "-s", str(site), "-d", str(out), "-j", "2")
    assert first.returncode == 0, first.stderr
    css = links((out / "posts/p05/index.html").read_text())
    assert re.fullmatch(r"/css/main\.min\.[0-9a-f]{64}\.css", css)
    assert (out / css.lstrip("/")).read_bytes() == b"body{color:red}a{margin:0}"
    logo = re.search(r'src="([^"]+)"', (out / "posts/p00/index.html").read_text()).group(1)
    assert re.fullmatch(r"/logo_hu_[0-9a-f]{16}\.png", logo)
    with Image.open(out / logo.lstrip("/")) as made:
        assert made.size == (20, 10)
    assert not (out / "css/main.css").exists()  # its URL was never read

    # An article edited: every other file is kept from the cache, and what the kept files
    # showed is still published, also when the destination is cleaned.
    write(site / "content/posts/p07.md", '+++\ntitle = "P7"\ndate = 2025-01-01\n+++\nedited\n')
    second = matome("build", "-s", str(site), "-d", str(out), "--cleanDestinationDir")
    assert second.returncode == 0, second.stderr
    assert "from the build cache" in second.stdout
    assert (out / css.lstrip("/")).is_file() and (out / logo.lstrip("/")).is_file()

    # The stylesheet changed: the pages are rendered again with its new name.
    write(site / "src/css/main.css", "body { color: blue; }\n")
    third = matome("build", "-s", str(site), "-d", str(out), "--cleanDestinationDir")
    assert third.returncode == 0, third.stderr
    new = links((out / "posts/p05/index.html").read_text())
    assert new != css and (out / new.lstrip("/")).read_bytes() == b"body{color:#00f}"
    assert not (out / css.lstrip("/")).exists()  # cleaned: no page shows it any more


def test_a_qr_code_shown_by_a_kept_body_stays_published_and_follows_its_text(tmp_path):
    site = make_site(tmp_path / "site")
    write(site / "content/posts/p03.md", QR_ARTICLE.format(text="https://example.org/a"))
    out = tmp_path / "out"
    first = matome("build", "-s", str(site), "-d", str(out), "-j", "2")
    assert first.returncode == 0, first.stderr
    src = qr_src((out / "posts/p03/index.html").read_text())
    with Image.open(out / src.lstrip("/")) as made:
        assert made.size == (132, 132)  # version 2 (25 modules) and the quiet zone, 4 px each

    # Another article edited: p03's body is kept from the cache and its code still published.
    write(site / "content/posts/p07.md", '+++\ntitle = "P7"\ndate = 2025-01-01\n+++\nedited\n')
    second = matome("build", "-s", str(site), "-d", str(out), "--cleanDestinationDir")
    assert second.returncode == 0, second.stderr
    assert "from the build cache" in second.stdout
    assert (out / src.lstrip("/")).is_file()

    # Its text edited: a code of its own, and the old one gone with the page that showed it.
    write(site / "content/posts/p03.md", QR_ARTICLE.format(text="https://example.org/b"))
    third = matome("build", "-s", str(site), "-d", str(out), "--cleanDestinationDir")
    assert third.returncode == 0, third.stderr
    new = qr_src((out / "posts/p03/index.html").read_text())
    assert new != src and (out / new.lstrip("/")).is_file()
    assert not (out / src.lstrip("/")).exists()


QR_ARTICLE = '+++\ntitle = "P3"\ndate = 2025-01-01\n+++\n{{{{< qr text="{text}" />}}}}\n'


def qr_src(html: str) -> str:
    return re.search(r'<img src="(/qr_[0-9a-f]+\.png)" width="132" height="132">', html).group(1)
