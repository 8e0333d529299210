"""Every name of the template API the README documents ("Templates": ``site``, ``page``,
list pages, term and taxonomy pages, shortcodes, filters and globals), printed by a probe
template on tests/fixtures/template-api/ and compared with what the real ``hugo`` prints
for Hugo's name of the same thing (``.Page.X``, ``.Site.X``, Hugo's functions) on the same
content. The few names Hugo lacks (``xml_text``, ``thumbnail``, ``page.comment_count``)
are checked against values worked out here.

Each table row is (case, Go template, Jinja template); the test writes them into the
two tools' layouts, so a renamed or broken name fails its own case.
"""

from __future__ import annotations

import re
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from site_probe import build_hugo, build_matome, cases, go_cases, jinja_cases

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "template-api"
L = "2006-01-02T15:04:05Z07:00"

# Every page, whatever its kind.
PAGE = [
    ("kind", "{{ .Kind }}", "{{ page.kind }}"),
    ("title", "{{ .Title }}", "{{ page.title }}"),
    ("date", f'{{{{ .Date.Format "{L}" }}}}', f'{{{{ page.date | date_format("{L}") }}}}'),
    ("lastmod", f'{{{{ .Lastmod.Format "{L}" }}}}', f'{{{{ page.lastmod | date_format("{L}") }}}}'),
    (
        "publish_date",
        f'{{{{ .PublishDate.Format "{L}" }}}}',
        f'{{{{ page.publish_date | date_format("{L}") }}}}',
    ),
    (
        "expiry_date",
        f'{{{{ .ExpiryDate.Format "{L}" }}}}',
        f'{{{{ page.expiry_date | date_format("{L}") }}}}',
    ),
    (
        "dates_falsy",
        "{{ if .Date.IsZero }}unset{{ else }}set{{ end }}",
        "{{ 'set' if page.date else 'unset' }}",
    ),
    ("draft", "{{ .Draft | jsonify }}", "{{ page.draft | jsonify }}"),
    (
        "params",
        "{{ .Params.subtitle }}|{{ .Params.description }}",
        "{{ page.params.subtitle }}|{{ page.params.description }}",
    ),
    ("permalink", "{{ .Permalink }}", "{{ page.permalink }}"),
    ("rel_permalink", "{{ .RelPermalink }}", "{{ page.rel_permalink }}"),
    ("section", "{{ .Section }}", "{{ page.section }}"),
    ("content", "{{ .Content }}", "{{ page.content }}"),
    ("summary", "{{ .Summary }}", "{{ page.summary }}"),
    ("plain", "{{ .Plain }}", "{{ page.plain }}"),
    ("word_count", "{{ .WordCount }}", "{{ page.word_count }}"),
    ("reading_time", "{{ .ReadingTime }}", "{{ page.reading_time }}"),
    ("toc", "{{ .TableOfContents }}", "{{ page.toc }}"),
    (
        "resources",
        "{{ range .Resources }}{{ .Name }}={{ .RelPermalink }};{{ end }}",
        "{% for r in page.resources %}{{ r.name }}={{ r.rel_permalink }};{% endfor %}",
    ),
    ("aliases", '{{ delimit .Aliases "," }}', '{{ page.aliases | join(",") }}'),
    (
        "file",
        "{{ with .File }}{{ .Path }}|{{ .Dir }}|{{ .BaseFileName }}{{ end }}",
        "{% if page.file %}{{ page.file.path }}|{{ page.file.dir }}|{{ page.file.base_name }}{% endif %}",
    ),
    (
        "terms",
        '{{ range .GetTerms "tags" }}{{ .LinkTitle }}={{ .RelPermalink }}={{ len .Pages }};{{ end }}',
        '{% for t in page.terms("tags") %}{{ t.name }}={{ t.url }}={{ t.count }};{% endfor %}',
    ),
    (
        "param",
        '{{ .Param "description" }}|{{ .Param "author.name" }}',
        '{{ page.param("description") }}|{{ page.param("author.name") }}',
    ),
]

# Regular pages.
SINGLE = [
    (
        "prev",
        "{{ with .Prev }}{{ .Permalink }}{{ end }}",
        "{% if page.prev %}{{ page.prev.permalink }}{% endif %}",
    ),
    (
        "next",
        "{{ with .Next }}{{ .Permalink }}{{ end }}",
        "{% if page.next %}{{ page.next.permalink }}{% endif %}",
    ),
    (
        "related",
        "{{ range site.RegularPages.Related . }}{{ .Permalink }},{{ end }}",
        "{% for p in page.related %}{{ p.permalink }},{% endfor %}",
    ),
]

# Home, sections, the taxonomy and its terms.
LIST = [
    (
        "pages",
        "{{ range .Pages }}{{ .Permalink }},{{ end }}",
        "{% for p in page.pages %}{{ p.permalink }},{% endfor %}",
    ),
    (
        "regular_pages",
        "{{ range .RegularPages }}{{ .Permalink }},{{ end }}",
        "{% for p in page.regular_pages %}{{ p.permalink }},{% endfor %}",
    ),
    (
        "paginator",
        "{{ $p := .Paginator }}{{ range $p.Pages }}{{ .Permalink }},{{ end }}|{{ $p.PageNumber }}|{{ $p.TotalPages }}"
        "|{{ $p.HasPrev }}|{{ $p.HasNext }}|{{ with $p.Prev }}{{ .URL }}{{ end }}|{{ with $p.Next }}{{ .URL }}{{ end }}"
        "|{{ $p.First.URL }}|{{ $p.Last.URL }}|{{ $p.URL }}",
        "{% set p = page.paginator %}{% for q in p.pages %}{{ q.permalink }},{% endfor %}|{{ p.number }}|{{ p.total_pages }}"
        "|{{ p.has_prev | jsonify }}|{{ p.has_next | jsonify }}|{% if p.has_prev %}{{ p.prev.url }}{% endif %}"
        "|{% if p.has_next %}{{ p.next.url }}{% endif %}|{{ p.first.url }}|{{ p.last.url }}|{{ p.url }}",
    ),
]

TERM = [("term", "{{ .Data.Term }}", "{{ page.term }}")]

# The site, printed on the home page.
SITE = [
    ("site.title", "{{ site.Title }}", "{{ site.title }}"),
    ("site.base_url", "{{ site.BaseURL }}", "{{ site.base_url }}"),
    ("site.language_code", "{{ site.LanguageCode }}", "{{ site.language_code }}"),
    (
        "site.params",
        "{{ site.Params.description }}|{{ site.Params.author.name }}",
        "{{ site.params.description }}|{{ site.params.author.name }}",
    ),
    (
        "site.menus",
        "{{ range site.Menus.main }}{{ .Name }}={{ .URL }}={{ .Weight }}[{{ range .Children }}{{ .Name }}={{ .URL }}{{ end }}];{{ end }}",
        "{% for m in site.menus.main %}{{ m.name }}={{ m.url }}={{ m.weight }}[{% for c in m.children %}{{ c.name }}={{ c.url }}{% endfor %}];{% endfor %}",
    ),
    (
        "site.taxonomies",
        "{{ range $name, $terms := site.Taxonomies }}{{ $name }}:{{ range $terms }}{{ .Page.LinkTitle }}={{ .Page.RelPermalink }}={{ .Count }};{{ end }}{{ end }}",
        "{% for name, terms in site.taxonomies.items() %}{{ name }}:{% for t in terms %}{{ t.name }}={{ t.url }}={{ t.count }};{% endfor %}{% endfor %}",
    ),
    (
        "site.regular_pages",
        "{{ range site.RegularPages }}{{ .Permalink }},{{ end }}",
        "{% for p in site.regular_pages %}{{ p.permalink }},{% endfor %}",
    ),
    (
        "site.pages",
        "{{ range site.Pages }}{{ .Permalink }},{{ end }}",
        "{% for p in site.pages %}{{ p.permalink }},{% endfor %}",
    ),
    (
        "site.sections",
        "{{ range site.Sections }}{{ .Permalink }},{{ end }}",
        "{% for s in site.sections %}{{ s.permalink }},{% endfor %}",
    ),
    ("site.home", "{{ site.Home.Permalink }}", "{{ site.home.permalink }}"),
    (
        "break_continue",
        "{{ range $i, $p := site.RegularPages }}{{ if eq $i 0 }}{{ continue }}{{ end }}"
        "{{ if ge $i 2 }}{{ break }}{{ end }}{{ $p.Permalink }},{{ end }}",
        "{% for p in site.regular_pages %}{% if loop.first %}{% continue %}{% endif %}"
        "{% if loop.index0 >= 2 %}{% break %}{% endif %}{{ p.permalink }},{% endfor %}",
    ),
    (
        "site.build_date",
        '{{ now.Format "2006-01-02" }}',
        '{{ site.build_date | date_format("2006-01-02") }}',
    ),
    (
        "site.get_page",
        '{{ (site.GetPage "/posts/second").Title }}',
        '{{ site.get_page("/posts/second").title }}',
    ),
]

# The inputs the URL functions are compared on.
URLS = [
    "",
    "/",
    "a/b/",
    "/a/b",
    "/blog/x",
    "https://example.org/blog/x",
    "https://other.org/y",
    "//cdn.org/z",
    "#frag",
    "?q=1",
    "a b",
    "日本",
    "../up",
    "mailto:a@b.org",
]
URLS_GO = " ".join(f'"{u}"' for u in URLS)
URLS_J = ", ".join(f'"{u}"' for u in URLS)
URLIZE = [
    "Hello World/Ä b",
    "C# and HTTP/3",
    "日本語 タグ",
    "a&b<c>",
    "x.y_z",
    "Tag?",
    "100%",
    "  trim  ",
    "A/B/",
]
URLIZE_GO = " ".join(f'"{u}"' for u in URLIZE)
URLIZE_J = ", ".join(f'"{u}"' for u in URLIZE)

# Filters and globals, printed on the home page.
FUNCTIONS = [
    ("markdownify", '{{ "**b** _i_" | markdownify }}', '{{ "**b** _i_" | markdownify }}'),
    ("markdownify-global", '{{ markdownify "a\\n\\nb" }}', '{{ markdownify("a\\n\\nb") }}'),
    (
        "plainify",
        '{{ "<b>x</b> <i>y</i>" | plainify }}|{{ "<p>a\\nb</p><p>c</p>x<br>y<br />z\\n<h2>H</h2>" | plainify }}',
        '{{ "<b>x</b> <i>y</i>" | plainify }}|{{ plainify("<p>a\\nb</p><p>c</p>x<br>y<br />z\\n<h2>H</h2>") }}',
    ),
    (
        "urlize",
        f"{{{{ range slice {URLIZE_GO} }}}}{{{{ urlize . }}}}|{{{{ end }}}}",
        f"{{% for u in [{URLIZE_J}] %}}{{{{ u | urlize }}}}|{{% endfor %}}",
    ),
    ("emojify", '{{ "I :heart: it :smile:" | emojify }}', '{{ "I :heart: it :smile:" | emojify }}'),
    (
        "humanize",
        '{{ humanize "my-first_post" }}|{{ humanize 3 }}|{{ humanize 12 }}',
        '{{ humanize("my-first_post") }}|{{ 3 | humanize }}|{{ humanize(12) }}',
    ),
    (
        "abs_url",
        f"{{{{ range slice {URLS_GO} }}}}{{{{ absURL . }}}}|{{{{ end }}}}",
        f"{{% for u in [{URLS_J}] %}}{{{{ u | abs_url }}}}|{{% endfor %}}",
    ),
    (
        "rel_url",
        f"{{{{ range slice {URLS_GO} }}}}{{{{ relURL . }}}}|{{{{ end }}}}",
        f"{{% for u in [{URLS_J}] %}}{{{{ rel_url(u) }}}}|{{% endfor %}}",
    ),
    (
        "safe_html",
        '{{ "<b>x</b>" | safeHTML }}|{{ "<b>x</b>" }}',
        '{{ "<b>x</b>" | safe_html }}|{{ "<b>x</b>" }}',
    ),
    (
        "jsonify",
        '{{ dict "b" "<x>&" "a" (slice 1 2.5) "c" "日本" "d" nil "e" true | jsonify }}',
        '{{ {"b": "<x>&", "a": [1, 2.5], "c": "日本", "d": none, "e": true} | jsonify }}',
    ),
    (
        "jsonify-indent",
        '{{ jsonify (dict "indent" "  ") (dict "a" 1 "b" (slice 1)) }}',
        '{{ {"a": 1, "b": [1]} | jsonify(indent=2) }}',
    ),
    (
        "date_format",
        '{{ dateFormat "Jan 2, 2006" "2025-03-04T05:06:07Z" }}|{{ (time "2025-03-04T05:06:07Z").Format "2006/01/02 15:04" }}',
        '{{ "2025-03-04T05:06:07Z" | date_format("Jan 2, 2006") }}|{{ date_format(time("2025-03-04T05:06:07Z"), "2006/01/02 15:04") }}',
    ),
    (
        "ref",
        '{{ ref . "/posts/second" }}|{{ ref . "/about" }}',
        '{{ ref(page, "/posts/second") }}|{{ ref(page, "/about") }}',
    ),
    ("relref", '{{ relref . "/posts/second" }}', '{{ relref(page, "/posts/second") }}'),
    ("partial", '{{ partial "hello.html" . }}', '{{ partial("hello.html", page) }}'),
    (
        "partial_cached",
        '{{ partialCached "hello.html" . }}',
        '{{ partial_cached("hello.html", page) }}',
    ),
    ("get_page", '{{ (site.GetPage "/about").Title }}', '{{ get_page("/about").title }}'),
]

# Inside a shortcode (markers of their own, so they survive inside the page's content).
SHORTCODE = [
    (
        "get",
        "{{ if .IsNamedParams }}{{ .Get `name` }}{{ else }}{{ .Get 0 }}{{ end }}",
        "{{ shortcode.get('name') if shortcode.is_named_params else shortcode.get(0) }}",
    ),
    ("params", "{{ .Params | jsonify }}", "{{ shortcode.params | jsonify }}"),
    ("inner", "{{ .Inner }}", "{{ shortcode.inner }}"),
    (
        "parent",
        "{{ with .Parent }}{{ .Name }}{{ end }}",
        "{{ shortcode.parent.name if shortcode.parent }}",
    ),
    (
        "position",
        "{{ .Position.LineNumber }}:{{ .Position.ColumnNumber }}",
        "{{ shortcode.position.rsplit(':', 2)[1:] | join(':') }}",
    ),
    (
        "position_file",
        '{{ replaceRE "^.*/content/" "content/" .Position.Filename }}',
        "{{ shortcode.position.rsplit(':', 2)[0] }}",
    ),
    ("ordinal", "{{ .Ordinal }}", "{{ shortcode.ordinal }}"),
    ("is_named_params", "{{ .IsNamedParams }}", "{{ shortcode.is_named_params | jsonify }}"),
    ("page", "{{ .Page.Title }}", "{{ page.title }}"),
    ("site", "{{ .Site.Title }}", "{{ site.title }}"),
]


def shortcode_cases(table: list[tuple[str, str, str]], go: bool) -> str:
    key = "{{ .Ordinal }}" if go else "{{ shortcode.ordinal }}"
    return "".join(f"##{key}-{name}##{row[0 if go else 1]}##end##" for name, *row in table)


def layouts(go: bool) -> dict[str, str]:
    """The probe layouts of one tool: every case that applies to each kind of page."""
    pick = go_cases if go else jinja_cases
    if go:
        when = {
            "page": "{{ if .IsPage }}%s{{ end }}",
            "list": '{{ if and (not .IsPage) (ne .Kind "404") }}%s{{ end }}',
            "term": '{{ if eq .Kind "term" }}%s{{ end }}',
            "home": "{{ if .IsHome }}%s{{ end }}",
        }
    else:
        when = {
            "page": "{%% if page.kind == 'page' %%}%s{%% endif %%}",
            "list": "{%% if page.kind in ('home', 'section', 'taxonomy', 'term') %%}%s{%% endif %%}",
            "term": "{%% if page.kind == 'term' %%}%s{%% endif %%}",
            "home": "{%% if page.kind == 'home' %%}%s{%% endif %%}",
        }
    probe = (
        pick(PAGE)
        + when["page"] % pick(SINGLE)
        + when["list"] % pick(LIST)
        + when["term"] % pick(TERM)
        + when["home"] % (pick(SITE) + pick(FUNCTIONS))
    )
    sc = shortcode_cases(SHORTCODE, go)
    if go:
        return {
            "layouts/_default/single.html": probe,
            "layouts/_default/list.html": probe,
            "layouts/partials/hello.html": "Hello {{ .Title }}",
            "layouts/shortcodes/probe.html": sc,
            "layouts/shortcodes/wrap.html": "<div>{{ .Inner }}</div>",
            "layouts/shortcodes/matomeQuote.html": '<q>{{ .Get "userName" }}</q>',
        }
    return {
        "templates/_default/single.html": probe,
        "templates/_default/list.html": probe,
        "templates/partials/hello.html": "Hello {{ page.title }}",
        "templates/shortcodes/probe.html": sc,
        "templates/shortcodes/wrap.html": "<div>{{ shortcode.inner }}</div>",
        "templates/shortcodes/matomeQuote.html": '<q>{{ shortcode.get("userName") }}</q>',
    }


def make_feature_image(path: Path) -> None:
    from PIL import Image

    Image.new("RGB", (900, 600), (200, 40, 40)).save(path)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict:
    site = tmp_path_factory.mktemp("api") / "site"
    shutil.copytree(FIXTURE, site)
    make_feature_image(site / "content/posts/first/feature.png")
    for go in (True, False):
        for rel, text in layouts(go).items():
            (site / rel).parent.mkdir(parents=True, exist_ok=True)
            (site / rel).write_text(text, encoding="utf-8")
    hugo_out = build_hugo(site)
    matome_out, done = build_matome(site)
    return {
        "hugo": read_all(hugo_out),
        "matome": read_all(matome_out),
        "matome_out": matome_out,
        "stderr": done.stderr,
    }


def read_all(out: Path) -> dict[str, dict[str, str]]:
    """{output path: {case: text}} for every page with a probe, shortcode cases included."""
    found = {}
    for path in sorted(out.rglob("index.html")):
        text = path.read_text(encoding="utf-8")
        printed = cases(text)
        for m in re.finditer(r"##(\d+)-(\w+)##(.*?)##end##", text, re.S):
            printed[f"shortcode.{m.group(1)}.{m.group(2)}"] = m.group(3)
        if printed:
            found[path.relative_to(out).as_posix()] = printed
    return found


def normalized(case: str, text: str) -> str:
    """HTML compared without the whitespace between its parts (Markdown and shortcodes are
    compared as written by tests/test_markdown_hugo.py and tests/test_shortcodes_hugo.py)."""
    if case in ("content", "summary", "toc", "markdownify", "markdownify-global"):
        text = re.sub(r"\s+", "", text)
        # Shortcode cases are checked on their own (a nested one's position: see KNOWN).
        text = re.sub(r"##\d+-position##.*?##end##", "", text)
    return text


# Differences kept on purpose or left to the code that makes the value, with the reason;
# each must still differ (the test says so when one is gone).
KNOWN = {
    (
        "about/index.html",
        "file",
    ): "Hugo's .File.Dir of a file at the top of content/ is '/', matome's ''",
    ("index.html", "file"): "Hugo's .File.Dir of a file at the top of content/ is '/', matome's ''",
    (
        "page/2/index.html",
        "file",
    ): "Hugo's .File.Dir of a file at the top of content/ is '/', matome's ''",
    ("index.html", "site.menus"): "a menu entry's url '/about/' gets the baseURL's path in Hugo",
    (
        "page/2/index.html",
        "site.menus",
    ): "a menu entry's url '/about/' gets the baseURL's path in Hugo",
    (
        "index.html",
        "site.pages",
    ): "Hugo sorts site.Pages of every kind together; matome lists them by kind",
    (
        "page/2/index.html",
        "site.pages",
    ): "Hugo sorts site.Pages of every kind together; matome lists them by kind",
    ("posts/first/index.html", "shortcode.0.position"): (
        "Hugo gives a shortcode nested in another the position 1:1; matome its line and column"
    ),
    ("posts/first/index.html", "plain"): (
        "the page prints its shortcodes' positions: Hugo gives a shortcode nested in another"
        " the position 1:1; matome its line and column"
    ),
    **{
        (
            path,
            "toc",
        ): "Hugo's .TableOfContents of a page without a file is an empty <nav>, matome's ''"
        for path in (
            "tags/index.html",
            "tags/page/2/index.html",
            "tags/go/index.html",
            "tags/rust/index.html",
            "tags/web/index.html",
        )
    },
}


NAMES = [name for name, _, _ in PAGE + SINGLE + LIST + TERM + SITE + FUNCTIONS]
NAMES += [f"shortcode.{name}" for name, _, _ in SHORTCODE]


def printed_as(key: str, name: str) -> bool:
    """Whether a printed case ``key`` (``title``, ``shortcode.2.get``) is the name's."""
    if name.startswith("shortcode."):
        return key.startswith("shortcode.") and key.rsplit(".", 1)[1] == name.split(".", 1)[1]
    return key == name


@pytest.mark.parametrize("name", NAMES)
def test_matome_prints_what_hugo_prints(built, name):
    """One case per documented name, over every page Hugo printed it on."""
    hugo, matome = built["hugo"], built["matome"]
    problems = []
    seen = 0
    for path in sorted(hugo):
        for case, text in hugo[path].items():
            if not printed_as(case, name):
                continue
            seen += 1
            ours = matome.get(path, {}).get(case, "<not printed>")
            same = normalized(case, ours) == normalized(case, text)
            if (path, case) in KNOWN:
                if same:
                    problems.append(f"{path} {case}: the known difference is gone, remove it")
            elif not same:
                problems.append(f"{path} {case}\n  hugo:   {text!r}\n  matome: {ours!r}")
    assert seen, f"Hugo printed no {name}"
    assert not problems, "\n".join(problems)


def test_every_page_kind_is_probed(built):
    kinds = {printed["kind"] for printed in built["hugo"].values()}
    assert kinds == {"home", "section", "page", "taxonomy", "term"}
    assert built["hugo"].keys() == built["matome"].keys()


def test_names_hugo_lacks(built):
    """``xml_text``, ``thumbnail(...)`` and ``page.comment_count``: matome's own."""
    out = built["matome_out"]
    site = out.parent
    (site / "templates/_default/single.html").write_text(
        "{{ 'a\x01b\x0bc' | xml_text }}|{{ page.comment_count }}|"
        "{% set t = thumbnail(page, 480) %}{% if t %}{{ t.rel_permalink }}|{{ t.width }}x{{ t.height }}{% endif %}",
        encoding="utf-8",
    )
    done, _ = build_matome(site)
    first = (done / "posts/first/index.html").read_text(encoding="utf-8")
    text, count, url, size = first.split("|")
    assert text == "a\ufffdb\ufffdc"
    assert count == "2"  # its two matomeQuote calls
    assert re.fullmatch(r"/blog/thumbnails/feature_[0-9a-f]{16}_480\.webp", url)
    assert size == "480x320"  # 900x600 made 480 wide
    assert (done / url.removeprefix("/blog/")).is_file()
    second = (done / "posts/second/index.html").read_text(encoding="utf-8")
    assert second == "a\ufffdb\ufffdc|0|"  # no image, no comments


def test_the_build_date_is_today(built):
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    assert built["matome"]["index.html"]["site.build_date"] in {
        today,
        built["hugo"]["index.html"]["site.build_date"],
    }


def test_no_name_is_undefined(built):
    assert "undefined" not in built["stderr"]
