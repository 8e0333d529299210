"""Hugo's template functions in matome's Jinja spelling (docs/content/templates.md), each printed
by the real ``hugo`` and by matome on the same content and compared: the functions
matome provides (``where``, ``group_by_date``, ``uniq``, ``union``, ``intersect``,
``delimit``, ``printf``, ``replace_re``, ``find_re``, ``math``, ``time``, ``hugo``) and
the Jinja built-ins the reference names for the others (``slice``, ``dict``, ``first``,
``after``, ``last``, ``sort``, ``in``, ``default``, ``cond``, ``split``)."""

from __future__ import annotations

import pytest
from site_probe import build_hugo, build_matome, cases, go_cases, jinja_cases, write_tree

CONTENT = {
    "hugo.toml": 'baseURL = "https://example.org/"\ntitle = "Funcs"\n'
    'disableKinds = ["rss", "sitemap", "robotstxt", "404", "taxonomy", "term"]\n',
    "content/notes/n.md": '+++\ntitle = "Note"\ndate = 2024-12-01\n+++\nx\n',
    "layouts/single.html": "{{ .Title }}",
    "layouts/list.html": "{{ .Title }}",
    "templates/_default/single.html": "{{ page.title }}",
    "templates/_default/list.html": "{{ page.title }}",
}
for i in (1, 2, 3):
    CONTENT[f"content/posts/p{i}.md"] = (
        f'+++\ntitle = "Post {i}"\ndate = 2025-0{i}-1{i}T10:00:00Z\n'
        f'tags = ["a", "b{i}"]\nweight = {4 - i}\nrank = {i}\n+++\nbody\n'
    )

R = "site.RegularPages"
r = "site.regular_pages"
TITLES_GO = "{{ range %s }}{{ .Title }},{{ end }}"
TITLES_J = "{%% for p in %s %%}{{ p.title }},{%% endfor %%}"


def titles(name: str, go: str, jinja: str) -> tuple[str, str, str]:
    return (name, TITLES_GO % go, TITLES_J % jinja)


# (case, Go template, Jinja template): each pair must print the same text.
TABLE = [
    titles("where-eq", f'where {R} "Section" "posts"', f'where({r}, "section", "posts")'),
    titles("where-filter", f'where {R} "Section" "posts"', f'{r} | where("section", "posts")'),
    titles("where-ge", f'where {R} "Params.rank" ">=" 2', f'where({r}, "params.rank", ">=", 2)'),
    titles(
        "where-hugo-key", f'where {R} ".Params.rank" "gt" 1', f'where({r}, ".Params.rank", "gt", 1)'
    ),
    titles(
        "where-intersect",
        f'where {R} "Params.tags" "intersect" (slice "b1" "b3")',
        f'where({r}, "params.tags", "intersect", ["b1", "b3"])',
    ),
    titles(
        "where-in",
        f'where {R} "Section" "in" (slice "notes" "x")',
        f'where({r}, "section", "in", ["notes", "x"])',
    ),
    titles(
        "where-not-in",
        f'where {R} "Section" "not in" (slice "notes")',
        f'where({r}, "section", "not in", ["notes"])',
    ),
    titles(
        "where-like",
        f'where {R} "Title" "like" "^Post [12]"',
        f'where({r}, "title", "like", "^Post [12]")',
    ),
    titles(
        "where-not-nil",
        f'where {R} "Params.rank" "!=" nil',
        f'where({r}, "params.rank", "!=", none)',
    ),
    titles(
        "where-ne-missing", f'where {R} "Params.rank" "ne" 2', f'where({r}, "params.rank", "ne", 2)'
    ),
    titles(
        "where-lt",
        f'where {R} "Date" "lt" (time "2025-02-01")',
        f'where({r}, "date", "lt", time("2025-02-01"))',
    ),
    (
        "group-by-date",
        f'{{{{ range {R}.GroupByDate "2006" }}}}{{{{ .Key }}}}=[{{{{ range .Pages }}}}{{{{ .Title }}}},{{{{ end }}}}]{{{{ end }}}}',
        f'{{% for g in {r} | group_by_date("2006") %}}{{{{ g.key }}}}=[{{% for p in g.pages %}}{{{{ p.title }}}},{{% endfor %}}]{{% endfor %}}',
    ),
    (
        "group-by-date-asc",
        f'{{{{ range {R}.GroupByDate "2006-01" "asc" }}}}{{{{ .Key }}}}=[{{{{ range .Pages }}}}{{{{ .Title }}}},{{{{ end }}}}]{{{{ end }}}}',
        f'{{% for key, pages in group_by_date({r}, "2006-01", "asc") %}}{{{{ key }}}}=[{{% for p in pages %}}{{{{ p.title }}}},{{% endfor %}}]{{% endfor %}}',
    ),
    (
        "group-by-publish-date",
        f'{{{{ range {R}.GroupByPublishDate "Jan 2006" }}}}{{{{ .Key }}}};{{{{ end }}}}',
        f'{{% for g in {r} | group_by_date("Jan 2006", field="publish_date") %}}{{{{ g.key }}}};{{% endfor %}}',
    ),
    (
        "union",
        "{{ union (slice 3 1 2) (slice 2 5 1 4) }}",
        "[{{ union([3, 1, 2], [2, 5, 1, 4]) | delimit(' ') }}]",
    ),
    (
        "intersect",
        '{{ delimit (intersect (slice 3 1 2 5) (slice 5 2 9)) " " }}',
        "{{ [3, 1, 2, 5] | intersect([5, 2, 9]) | delimit(' ') }}",
    ),
    (
        "uniq",
        '{{ delimit (uniq (slice 1 3 1 "a" "A" "a" 3)) "," }}',
        '{{ uniq([1, 3, 1, "a", "A", "a", 3]) | delimit(",") }}',
    ),
    (
        "uniq-pages",
        f"{{{{ len (uniq (union {R} {R})) }}}}",
        f"{{{{ uniq(union({r}, {r})) | length }}}}",
    ),
    (
        "delimit-last",
        '{{ delimit (slice "a" "b" "c") ", " " and " }}',
        '{{ ["a", "b", "c"] | delimit(", ", " and ") }}',
    ),
    (
        "delimit-map",
        '{{ delimit (dict "b" 2 "a" 1) "-" }}',
        '{{ {"b": 2, "a": 1} | delimit("-") }}',
    ),
    (
        "delimit-values",
        '{{ delimit (slice 1 2.5 true) "|" }}',
        "{{ [1, 2.5, true] | delimit('|') }}",
    ),
    (
        "printf",
        '{{ printf "%s|%d|%v|%q|%5.2f|%x|%t|%05d|%-4s|%T|%v|%v|%3d|%+d|%%|%e|%X|%o|%b|%c|%U|%g" "s" 42 (slice 1 2) "q\\"" 3.14159 255 true 42 "ab" 1 (dict "a" 1) 2.5 7 5 1234.5678 255 8 5 65 9731 0.000012 }}',
        '{{ printf("%s|%d|%v|%q|%5.2f|%x|%t|%05d|%-4s|%T|%v|%v|%3d|%+d|%%|%e|%X|%o|%b|%c|%U|%g", "s", 42, [1, 2], "q\\"", 3.14159, 255, true, 42, "ab", 1, {"a": 1}, 2.5, 7, 5, 1234.5678, 255, 8, 5, 65, 9731, 0.000012) }}',
    ),
    ("printf-missing", '{{ printf "%d %s" 1 }}', '{{ printf("%d %s", 1) }}'),
    (
        "printf-types",
        '{{ printf "%T %T %T %T" 1.5 "x" 3 true }}',
        '{{ printf("%T %T %T %T", 1.5, "x", 3, true) }}',
    ),
    (
        "replace-re",
        '{{ replaceRE "(a+)b" "[$1]" "aab ab xb" }}',
        '{{ "aab ab xb" | replace_re("(a+)b", "[$1]") }}',
    ),
    (
        "replace-re-limit",
        '{{ replaceRE "a" "X" "aaaa" 2 }}',
        '{{ "aaaa" | replace_re("a", "X", 2) }}',
    ),
    (
        "replace-re-named",
        '{{ replaceRE "(?P<n>\\\\w)o" "${n}0" "foo boo" }}',
        '{{ "foo boo" | replace_re("(?P<n>\\\\w)o", "${n}0") }}',
    ),
    (
        "replace-re-dollar",
        '{{ replaceRE "(x)" "$$$1x-${1}y" "axb" }}',
        '{{ "axb" | replace_re("(x)", "$$$1x-${1}y") }}',
    ),
    (
        "replace-re-pipe",
        '{{ "Hello World" | replaceRE "o" "0" }}',
        '{{ "Hello World" | replace_re("o", "0") }}',
    ),
    (
        "find-re",
        '{{ delimit (findRE "a.c" "abc axc ayc") "," }}',
        '{{ "abc axc ayc" | find_re("a.c") | delimit(",") }}',
    ),
    (
        "find-re-limit",
        '{{ delimit (findRE "a.c" "abc axc ayc" 1) "," }}',
        '{{ "abc axc ayc" | find_re("a.c", 1) | delimit(",") }}',
    ),
    ("find-re-none", '{{ len (findRE "z" "abc") }}', '{{ "abc" | find_re("z") | length }}'),
    (
        "find-re-class",
        '{{ delimit (findRE "[[:digit:]]+" "a12b345") "," }}',
        '{{ "a12b345" | find_re("[[:digit:]]+") | delimit(",") }}',
    ),
    ("split", '{{ delimit (split "a,b,,c" ",") "|" }}', '{{ "a,b,,c".split(",") | delimit("|") }}'),
    ("split-empty", '{{ len (split "" ",") }}', '{{ "".split(",") | length }}'),
    ("slice", '{{ delimit (slice 1 "a" 2) "," }}', '{{ [1, "a", 2] | delimit(",") }}'),
    (
        "dict",
        '{{ $d := dict "a" 1 "b" (dict "c" 2) }}{{ $d.a }}-{{ $d.b.c }}',
        '{% set d = {"a": 1, "b": {"c": 2}} %}{{ d.a }}-{{ d.b.c }}',
    ),
    ("dict-call", '{{ $d := dict "x" "y" }}{{ $d.x }}', '{% set d = dict(x="y") %}{{ d.x }}'),
    titles("first", f"first 2 {R}", f"{r}[:2]"),
    titles("after", f"after 2 {R}", f"{r}[2:]"),
    titles("last", f"last 2 {R}", f"{r}[-2:]"),
    ("first-one", f"{{{{ (index {R} 0).Title }}}}", f"{{{{ ({r} | first).title }}}}"),
    titles(
        "sort-title-desc",
        f'sort {R} "Title" "desc"',
        f'{r} | sort(attribute="title", reverse=true)',
    ),
    titles("sort-date", f'sort {R} "Date"', f'{r} | sort(attribute="date")'),
    titles(
        "sort-param",
        f'sort (where {R} "Params.rank" "!=" nil) "Params.rank" "desc"',
        f'where({r}, "params.rank", "!=", none) | sort(attribute="params.rank", reverse=true)',
    ),
    (
        "sort-strings",
        '{{ delimit (sort (slice "b" "B" "a" "C")) "," }}',
        '{{ ["b", "B", "a", "C"] | sort | delimit(",") }}',
    ),
    (
        "in",
        '{{ in (slice "a" "b") "b" }} {{ in "abc" "bc" }} {{ in (slice 1 2) 3 }}',
        '{{ "b" in ["a", "b"] }} {{ "bc" in "abc" }} {{ 3 in [1, 2] }}',
    ),
    (
        "default",
        '[{{ default "x" 0 }}][{{ default "x" "" }}][{{ default "x" (slice) }}][{{ default "x" "y" }}][{{ default "x" nil }}][{{ default "x" .Params.missing }}]',
        '[{{ 0 | default("x", true) }}][{{ "" | default("x", true) }}][{{ [] | default("x", true) }}][{{ "y" | default("x", true) }}][{{ none | default("x", true) }}][{{ page.params.missing | default("x", true) }}]',
    ),
    (
        "cond",
        '{{ cond true "yes" "no" }}|{{ cond (eq 1 2) "yes" "no" }}',
        '{{ "yes" if true else "no" }}|{{ "yes" if 1 == 2 else "no" }}',
    ),
    (
        "math",
        '{{ math.Round 2.5 }} {{ math.Round -2.5 }} {{ div 7 2 }} {{ div -7 2 }} {{ div 7.0 2 }} {{ mod 7 3 }} {{ mod -7 3 }} {{ math.Max 1 5 3 }} {{ math.Min 1 5 3 }} {{ math.Floor 2.7 }} {{ math.Ceil 2.1 }} {{ math.Sqrt 16 }} {{ math.Sqrt 2 }} {{ math.Pow 2 10 }} {{ add 1 2 }} {{ add 1.5 2 }} {{ sub 5 7 }} {{ mul 3 4 }} {{ math.Abs -3 }} {{ math.Log 1 }} {{ add "a" "b" }} {{ math.Sum 1 2 3 }} {{ math.Product 2 3 4 }}',
        '{{ math.round(2.5) }} {{ math.round(-2.5) }} {{ math.div(7, 2) }} {{ math.div(-7, 2) }} {{ math.div(7.0, 2) }} {{ math.mod(7, 3) }} {{ math.mod(-7, 3) }} {{ math.max(1, 5, 3) }} {{ math.min(1, 5, 3) }} {{ math.floor(2.7) }} {{ math.ceil(2.1) }} {{ math.sqrt(16) }} {{ math.sqrt(2) }} {{ math.pow(2, 10) }} {{ math.add(1, 2) }} {{ math.add(1.5, 2) }} {{ math.sub(5, 7) }} {{ math.mul(3, 4) }} {{ math.abs(-3) }} {{ math.log(1) }} {{ math.add("a", "b") }} {{ math.sum(1, 2, 3) }} {{ math.product(2, 3, 4) }}',
    ),
    (
        "math-operators",
        "{{ add 1 2 }} {{ sub 5 7 }} {{ mul 3 4 }} {{ div 8 2 }} {{ mod 7 3 }}",
        "{{ 1 + 2 }} {{ 5 - 7 }} {{ 3 * 4 }} {{ 8 // 2 }} {{ 7 % 3 }}",
    ),
    (
        "time",
        '{{ (time "2025-03-04T05:06:07+09:00").Format "2006-01-02 15:04 -07:00" }}|{{ time.Format "Jan 2, 2006" "2025-03-04" }}|{{ (time.AsTime "2025-03-04").Year }}|{{ (time "2025-03-04").Unix }}',
        '{{ time("2025-03-04T05:06:07+09:00") | date_format("2006-01-02 15:04 -07:00") }}|{{ time.format("Jan 2, 2006", "2025-03-04") }}|{{ time.as_time("2025-03-04").year }}|{{ time("2025-03-04").timestamp() | int }}',
    ),
    ("now", "{{ now.Year }}", "{{ now().year }}"),
    (
        "hugo",
        "{{ hugo.Environment }} {{ hugo.IsProduction }} {{ hugo.IsDevelopment }} {{ hugo.Version }}",
        "{{ hugo.environment }} {{ hugo.is_production }} {{ hugo.is_development }} {{ hugo.version }}",
    ),
]


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> tuple[dict, dict]:
    site = tmp_path_factory.mktemp("funcs") / "site"
    write_tree(
        site,
        {
            **CONTENT,
            "layouts/home.html": go_cases(TABLE),
            "templates/index.html": jinja_cases(TABLE),
        },
    )
    hugo = cases((build_hugo(site) / "index.html").read_text())
    out, _ = build_matome(site)
    matome = cases((out / "index.html").read_text())
    return hugo, matome


@pytest.mark.parametrize("case", [name for name, _, _ in TABLE])
def test_matome_prints_what_hugo_prints(printed, case):
    hugo, matome = printed
    assert case in hugo, f"Hugo printed no {case}"
    assert matome.get(case, "<not printed>") == hugo[case]


def test_the_cases_are_not_trivially_empty(printed):
    hugo, _ = printed
    empty = [name for name, text in hugo.items() if not text.strip(",[] ")]
    assert empty == []


def test_the_generator_says_matome_and_its_version(tmp_path):
    from matome import __version__

    site = tmp_path / "site"
    write_tree(site, {**CONTENT, "templates/index.html": "{{ hugo.generator }}"})
    out, _ = build_matome(site)
    text = (out / "index.html").read_text()
    assert text == f'<meta name="generator" content="matome {__version__}">'
    dev_site = tmp_path / "dev"
    write_tree(
        dev_site,
        {**CONTENT, "templates/index.html": "{{ hugo.environment }} {{ hugo.is_development }}"},
    )
    dev, _ = build_matome(dev_site, "-e", "development")
    assert (dev / "index.html").read_text() == "development true"


def test_a_list_made_by_where_and_a_page_showing_the_time_are_rendered_again(tmp_path):
    """``where`` reads the pages' fields as the template's own ``page.x`` does, so the build
    cache renders the list again when one changes; ``now()`` is never the same."""
    from cli import matome

    site = tmp_path / "site"
    write_tree(
        site,
        {
            **CONTENT,
            "templates/index.html": '{% for p in where(site.regular_pages, "params.rank", ">=", 2) %}'
            "{{ p.title }},{% endfor %}",
            "templates/_default/list.html": "{{ now().isoformat() }}",
        },
    )
    assert matome("build", "-s", str(site)).returncode == 0
    home, notes = site / "public/index.html", site / "public/notes/index.html"
    before = notes.read_text()
    assert home.read_text() == "Post 3,Post 2,"
    write_tree(
        site,
        {"content/posts/p1.md": CONTENT["content/posts/p1.md"].replace("rank = 1", "rank = 5")},
    )
    done = matome("build", "-s", str(site))
    assert done.returncode == 0, done.stderr
    assert home.read_text() == "Post 3,Post 2,Post 1,"
    assert notes.read_text() != before  # not read from the edited page: the clock did it
