"""What ``{{ value }}`` prints, by the real ``hugo`` and by matome: front matter values of
every type (bools, floats, lists, maps, times, null), the page's dates, site parameters,
literals and shortcode arguments, each printed as Go's ``%v`` prints it (``true``,
``1e+06``, ``[a b]``, ``map[a:1 b:2]``, ``2024-01-02 00:00:00 +0000 UTC``)."""

from __future__ import annotations

import pytest
from site_probe import build_hugo, build_matome, cases, go_cases, jinja_cases, write_tree

FRONT_MATTER = {
    "toml": """+++
title = "Values"
date = 2024-01-02
lastmod = 2024-01-02T10:11:12+02:00
publishDate = 2024-01-02T10:11:12.25Z
yes = true
no = false
count = 3
half = 1.5
whole = 1.0
million = 1000000.0
millions = 1234567.5
below = 123456.0
tiny = 0.00001
small = 0.0001
negative = -2.5
huge = 1e21
words = ["a", "b"]
mixed = [1, 2.5, true, "x y"]
empty = []
table = {b = 2, a = 1, c = "x y"}
nested = {l = [1, {z = 1.0}], m = {k = true}}
emptytable = {}
moment = 1979-05-27T07:32:00-08:00
text = "true"
+++
{{< positional true false 1 1.5 "true" >}}
{{< named flag=true count=1 ratio=1.5 quoted="true" >}}
""",
    "yaml": """---
title: Values
date: 2024-01-02T03:04:05
none: null
whole: 1.0
big: 12345678901234567890
holes: [1, null, "x"]
table: {a: null, b: [true]}
---
""",
}

# (case, Go template, Jinja template) printed on both pages.
TABLE = [
    ("date", "{{ .Date }}", "{{ page.date }}"),
    ("lastmod", "{{ .Lastmod }}", "{{ page.lastmod }}"),
    ("publishdate", "{{ .PublishDate }}", "{{ page.publish_date }}"),
    ("missing", "{{ .Params.nothing }}", "{{ page.params.nothing }}"),
    ("site-bool", "{{ site.Params.flag }}", "{{ site.params.flag }}"),
    ("site-float", "{{ site.Params.ratio }}", "{{ site.params.ratio }}"),
    ("site-list", "{{ site.Params.list }}", "{{ site.params.list }}"),
    ("literal-float", "{{ 0.5 }}", "{{ 0.5 }}"),
    ("literal-bool", "{{ true }}", "{{ true }}"),
    ("literal-list", '{{ slice 1.0 "a" true }}', '{{ [1.0, "a", true] }}'),
    ("comparison", "{{ eq 1 1 }}", "{{ 1 == 1 }}"),
]
KEYS = sorted(
    {
        line.split(":")[0].split("=")[0].strip()
        for text in FRONT_MATTER.values()
        for line in text.splitlines()
        if ("=" in line or ": " in line) and not line.startswith("{{")
    }
    - {"title", "date", "publishDate", "lastmod"}
)
for key in KEYS:
    TABLE.append((f"param-{key}", "{{ .Params." + key + " }}", "{{ page.params." + key + " }}"))

SITE = {
    "hugo.toml": 'baseURL = "https://example.org/"\ntitle = "Values"\n'
    'disableKinds = ["rss", "sitemap", "robotstxt", "404", "taxonomy", "term", "home"]\n'
    '[params]\nflag = true\nratio = 2.0\nlist = ["x", 1.5, false]\n',
    "content/toml.md": FRONT_MATTER["toml"],
    "content/yaml.md": FRONT_MATTER["yaml"],
    "layouts/single.html": go_cases(TABLE) + "{{ .Content }}",
    "templates/_default/single.html": jinja_cases(TABLE) + "{{ page.content }}",
    "layouts/_shortcodes/positional.html": (
        "@@positional@@{{ range .Params }}[{{ . }}]{{ end }}{{ .Get 0 }}@@end@@"
    ),
    "layouts/_shortcodes/named.html": (
        "@@named@@{{ range $k, $v := .Params }}[{{ $k }}={{ $v }}]{{ end }}{{ .Get `flag` }}@@end@@"
    ),
    "templates/shortcodes/positional.html": (
        "@@positional@@{% for v in shortcode.params %}[{{ v }}]{% endfor %}"
        "{{ shortcode.get(0) }}@@end@@"
    ),
    "templates/shortcodes/named.html": (
        "@@named@@{% for k, v in shortcode.params | dictsort %}[{{ k }}={{ v }}]{% endfor %}"
        '{{ shortcode.get("flag") }}@@end@@'
    ),
}


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    site = tmp_path_factory.mktemp("printed") / "site"
    write_tree(site, SITE)
    hugo_out = build_hugo(site)
    matome_out, _ = build_matome(site)
    return {
        page: (
            cases((hugo_out / page / "index.html").read_text()),
            cases((matome_out / page / "index.html").read_text()),
        )
        for page in FRONT_MATTER
    }


@pytest.mark.parametrize("page", sorted(FRONT_MATTER))
@pytest.mark.parametrize("case", [name for name, _, _ in TABLE])
def test_printed_as_hugo_prints(printed, page, case):
    hugo, matome = printed[page]
    assert case in hugo
    assert matome.get(case) == hugo[case]


@pytest.mark.parametrize("shortcode", ["positional", "named"])
def test_shortcode_arguments_printed_as_hugo_prints(printed, shortcode):
    """Unquoted ``true`` and numbers are bools and numbers; ``"true"`` stays text."""
    hugo, matome = printed["toml"]
    assert matome.get(shortcode) == hugo[shortcode]


def test_go_formatting_is_exercised(printed):
    """The cases print Go's spellings, not Python's (the test above would pass on two
    tools that agreed on Python's)."""
    hugo, _ = printed["toml"]
    assert hugo["param-yes"] == "true"
    assert hugo["param-million"] == "1e+06"
    assert hugo["param-table"] == "map[a:1 b:2 c:x y]"
    assert hugo["date"] == "2024-01-02 00:00:00 +0000 UTC"
    assert hugo["positional"] == "[true][false][1][1.5][true]true"
