"""Render hooks (``_markup/render-link.html``, ``render-image.html``, ``render-heading.html``,
``render-codeblock.html``, ``render-codeblock-LANG.html``, ``render-blockquote.html`` with
GitHub alerts, ``render-table.html``, ``render-passthrough.html`` and
``render-passthrough-inline.html``) compared with the real ``hugo``.

The same hooks are written twice, as Go templates for Hugo and as Jinja templates for
matome, each printing every field of Hugo's context; one Hugo build and one ``matome
build`` (a real process) per configuration render the same pages, and each page's
content must be the same string: hooks replace elements exactly, so whitespace counts.
Only Go's escaping of ``+`` as ``&#43;`` (html/template escapes it, Jinja does not) is
undone in Hugo's output.
"""

from __future__ import annotations

import pytest
import tomli_w

from matome.markup.markdown.fastpath import FastPath
from matome.markup.markdown.settings import read_settings

try:  # tests/ as a package or as a plain directory on sys.path
    from tests.cli import matome
    from tests.hugo_oracle import BEGIN, END, config_case_params, run_hugo
except ImportError:
    from cli import matome
    from hugo_oracle import BEGIN, END, config_case_params, run_hugo

GO_HOOKS = {
    "_markup/render-link.html": (
        '<a href="{{ .Destination | safeURL }}"{{ with .Title }} title="{{ . }}"{{ end }}>'
        "{{ .Text }}</a>[{{ .PlainText }}|{{ .Destination }}|{{ .Page.Title }}]"
    ),
    "_markup/render-image.html": (
        '<img src="{{ .Destination | safeURL }}" alt="{{ .PlainText }}">'
        "[{{ .Text }}|{{ .Title }}|{{ .Ordinal }}|"
        "{{ if .IsBlock }}block{{ else }}inline{{ end }}|"
        "{{ range $k, $v := .Attributes }}{{ $k }}={{ $v }};{{ end }}]\n"
    ),
    "_markup/render-heading.html": (
        '<h{{ .Level }} id="{{ .Anchor }}">{{ .Text }}</h{{ .Level }}>'
        "[{{ .PlainText }}|{{ range $k, $v := .Attributes }}{{ $k }}={{ $v }};{{ end }}"
        "|{{ .Page.Title }}]\n"
    ),
    "_markup/render-codeblock.html": (
        '<pre data-type="{{ .Type }}" data-ordinal="{{ .Ordinal }}">'
        "{{ range $k, $v := .Attributes }}{{ $k }}={{ $v }};{{ end }}|"
        "{{ range $k, $v := .Options }}{{ $k }}="
        '{{ if eq $k "hl_lines" }}{{ range $v }}{{ index . 0 }}-{{ index . 1 }},{{ end }}'
        "{{ else }}{{ $v }}{{ end }};{{ end }}|{{ .Inner }}|{{ .Page.Title }}</pre>\n"
    ),
    "_markup/render-codeblock-mermaid.html": (
        '<pre class="mermaid">{{ .Inner }}</pre>{{ .Ordinal }}{{ .Type }}\n'
    ),
    "_shortcodes/md.html": "{{ .Get 0 | markdownify }}",
    "_markup/render-blockquote.html": (
        '<blockquote data-type="{{ .Type }}" data-ordinal="{{ .Ordinal }}">'
        "{{ range $k, $v := .Attributes }}{{ $k }}={{ $v }};{{ end }}"
        "[{{ .AlertType }}|{{ .AlertSign }}|{{ .AlertTitle }}]{{ .Text }}|{{ .Page.Title }}"
        "</blockquote>\n"
    ),
    "_markup/render-table.html": (
        '<table data-ordinal="{{ .Ordinal }}">'
        "{{ range $k, $v := .Attributes }}{{ $k }}={{ $v }};{{ end }}\n"
        "{{ range .THead }}H:{{ range . }}[{{ .Alignment }}|{{ .Text }}]{{ end }}\n{{ end }}"
        "{{ range .TBody }}B:{{ range . }}[{{ .Alignment }}|{{ .Text }}]{{ end }}\n{{ end }}"
        "{{ len .THead }}/{{ len .TBody }}|{{ .Page.Title }}</table>\n"
    ),
    "_markup/render-passthrough.html": (
        '<span data-type="{{ .Type }}" data-ordinal="{{ .Ordinal }}">'
        "{{ range $k, $v := .Attributes }}{{ $k }}={{ $v }};{{ end }}[{{ .Inner }}]"
        "{{ .Page.Title }}</span>\n"
    ),
    "_markup/render-passthrough-inline.html": (
        "<i>{{ .Type }}{{ .Ordinal }}[{{ .Inner }}]{{ len .Attributes }}</i>"
    ),
}

JINJA_HOOKS = {
    "_markup/render-link.html": (
        '<a href="{{ destination }}"{% if title %} title="{{ title }}"{% endif %}>'
        "{{ text }}</a>[{{ plain_text }}|{{ destination }}|{{ page.title }}]"
    ),
    "_markup/render-image.html": (
        '<img src="{{ destination }}" alt="{{ plain_text }}">'
        "[{{ text }}|{{ title }}|{{ ordinal }}|"
        "{{ 'block' if is_block else 'inline' }}|"
        "{% for k, v in attributes|dictsort %}{{ k }}={{ v }};{% endfor %}]\n"
    ),
    "_markup/render-heading.html": (
        '<h{{ level }} id="{{ anchor }}">{{ text }}</h{{ level }}>'
        "[{{ plain_text }}|{% for k, v in attributes|dictsort %}{{ k }}={{ v }};{% endfor %}"
        "|{{ page.title }}]\n"
    ),
    "_markup/render-codeblock.html": (
        '<pre data-type="{{ type }}" data-ordinal="{{ ordinal }}">'
        "{% for k, v in attributes|dictsort(true) %}{{ k }}={{ v }};{% endfor %}|"
        "{% for k, v in options|dictsort(true) %}{{ k }}="
        '{% if k == "hl_lines" %}{% for r in v %}{{ r[0] }}-{{ r[1] }},{% endfor %}'
        "{% else %}{{ v }}{% endif %};{% endfor %}|{{ inner }}|{{ page.title }}</pre>\n"
    ),
    "_markup/render-codeblock-mermaid.html": (
        '<pre class="mermaid">{{ inner }}</pre>{{ ordinal }}{{ type }}\n'
    ),
    "shortcodes/md.html": "{{ shortcode.get(0) | markdownify }}",
    "_markup/render-blockquote.html": (
        '<blockquote data-type="{{ type }}" data-ordinal="{{ ordinal }}">'
        "{% for k, v in attributes|dictsort(true) %}{{ k }}={{ v }};{% endfor %}"
        "[{{ alert_type }}|{{ alert_sign }}|{{ alert_title }}]{{ text }}|{{ page.title }}"
        "</blockquote>\n"
    ),
    "_markup/render-table.html": (
        '<table data-ordinal="{{ ordinal }}">'
        "{% for k, v in attributes|dictsort(true) %}{{ k }}={{ v }};{% endfor %}\n"
        "{% for row in thead %}H:{% for c in row %}[{{ c.alignment }}|{{ c.text }}]"
        "{% endfor %}\n{% endfor %}"
        "{% for row in tbody %}B:{% for c in row %}[{{ c.alignment }}|{{ c.text }}]"
        "{% endfor %}\n{% endfor %}"
        "{{ thead|length }}/{{ tbody|length }}|{{ page.title }}</table>\n"
    ),
    "_markup/render-passthrough.html": (
        '<span data-type="{{ type }}" data-ordinal="{{ ordinal }}">'
        "{% for k, v in attributes|dictsort(true) %}{{ k }}={{ v }};{% endfor %}[{{ inner }}]"
        "{{ page.title }}</span>\n"
    ),
    "_markup/render-passthrough-inline.html": (
        "<i>{{ type }}{{ ordinal }}[{{ inner }}]{{ attributes|length }}</i>"
    ),
}

CASES = {
    "link_plain": "See [the thread](https://news.example/item?id=1) for more\n\n"
    "> [Original](https://news.example/item)\n",
    "link_query": "See [the thread](https://news.example/item?id=1&x=2) for more.\n",
    "link_titled": 'A [link *em* `code`](/u "The title") and [](/empty).\n',
    "link_reference": "A [ref][r] and [Ref **b**][r].\n\n[r]: /r?x=1 'R title'\n",
    "link_auto": "<https://auto.example/x> and www.bare.example and x@y.example.\n",
    "link_raw_html": "[a <b>bold</b> one](/h) and [x](<>)\n",
    "link_image": "[![in](/n.png)](/l) and [text ![i](/i.png) more](/m)\n",
    "images": '![alt *e* `c`](/i.png "IT") then ![b](/b.png)\n\n![alone](/a.png)\n',
    "headings": "# Head *em* `c` & x {.cls #myid data-n=2}\n\nSetext\n===\n\n## Again\n\n"
    "## Again\n\n#\n\n## Link [in *x*](/h) ![i](/hi.png)\n",
    "heading_in_list": "- text\n  ## In list\n- ## Item\n\n> ## Quoted\n",
    "codeblocks": '```go {.cls #cid lineNos=inline hl_lines=[1,"2-3"] linenostart=5 foo=bar}\n'
    'a := "<b>"\nb\n```\n\n```\nno lang\n```\n\n    indented\n\n```mermaid {x=1}\n'
    "graph TD\n  A-->B\n```\n\n```nosuchlang {a=b}\nx\n```\n\n- ```py\n  in list\n  ```\n\n"
    '~~~ go title="T"\ntilde\n\n~~~\n',
    "quotes": "> plain *quote*\n> two\n\n> outer\n> > inner\n\n- > in list\n\n"
    "> ## Heading\n> text\n\n> [! NOTE]\n> not an alert\n\n> [!note_1]\n> nor this\n",
    "alerts": "> [!NOTE]\n> Useful information.\n\n> [!warning] Custom *title* & [l](/u)\n"
    "> Body\n\n> [!TIP]+ Foldable\n> Body2\n\n> [!CAUTION]-\n> Body3\n\n> [!NOTE]\n\n"
    "> [!NOTE] on the same line\n\n> [!unknownType]\n> x\n\n> [!IMPORTANT]\n> para1\n>\n"
    "> para2\n\n>  [!NOTE]   spaced  \n> y\n\n> [!NOTE]\n> > inner\n",
    "shortcode_markdownify": 'Body [b](/b) and {{< md "S [s](/s) and ![i](/i.png)" >}} end.\n',
    "mixed": "# Title\n\nText [a](/a) ![i](/i.png)\n\n## Next\n\n- [b](/b)\n",
}

CONFIGS = {
    "defaults": ({}, list(CASES)),
    "block_images": (
        {
            "markup": {
                "goldmark": {
                    "parser": {
                        "wrapStandAloneImageWithinParagraph": False,
                        "attribute": {"block": True},
                    }
                }
            }
        },
        ["images", "link_image", "block_images", "block_image_places", "quote_attributes"],
    ),
}
PASSTHROUGH = {
    "enable": True,
    "delimiters": {"block": [["$$", "$$"], ["\\[", "\\]"]], "inline": [["\\(", "\\)"], ["$", "$"]]},
}
CONFIGS["passthrough"] = (
    {
        "markup": {
            "goldmark": {
                "extensions": {"passthrough": PASSTHROUGH},
                "parser": {"attribute": {"block": True}},
            }
        }
    },
    ["passthrough", "passthrough_places", "passthrough_escapes", "tables", "table_attributes"],
)
CASES["tables"] = (
    "Intro\n\n| a | *b* | c |\n|:--|:-:|--:|\n| 1 | `2` | [l](/u) |\n| 4 |\n| x \\| y | 5 | 6 | 7 |\n"
    "\n| only |\n|---|\n\n> | q | r |\n> |---|---|\n> | 1 | 2 |\n\n"
    "- item\n\n  | in | list |\n  | -- | --: |\n  | ![i](/i.png) | <b>raw</b> |\n\n"
    "Table | cut\n--|--\npara | graph\n\n"
    "Text first\nh1 | h2\n:-: | -\nv1 | v2\n\n"
    "| short |\n|:-|-:|:-:|\n| r1 | r2 | r3 | r4 |\n|\n"
)
CASES["table_attributes"] = (
    "| a | b |\n|---|---|\n| 1 | 2 |\n{.wide #t1 data-n=3}\n\n| c |\n|:-:|\n{class=x}\n"
)
CASES["passthrough"] = (
    "Text $a+b$ and \\(c<d\\) and\n\n$$\nx = 1 & y\n$$\n\npara \\[ y \\] after\n{.pcls}\n\n"
    "$$z$$\n{.zz data-n=2}\n\nEnd $e$.\n"
)
CASES["passthrough_places"] = (
    "- a $x$\n- $$y$$\n- c\n\n# Heading $h$ and $$hb$$\n\n| $t$ | $$tb$$ |\n|---|---|\n| 1 | 2 |\n\n"
    "> $$q$$\n> and $r$\n\n*em $m$* [link $l$](/u)\n"
)
CASES["passthrough_escapes"] = (
    "\\$not\\$ and \\\\$esc$ and $$ $$ and $\n\nOpen $ only and \\( none\n"
)
CASES["block_images"] = '![alone](/a.png)\n{.wide width=3}\n\n![b](/b.png "T")\n\n## After\n'
CASES["block_image_places"] = "> ![q](/q.png)\n\n- ![l](/l.png)\n\n[![c](/c.png)](/x)\n\nEnd\n"
CASES["quote_attributes"] = "> [!NOTE]\n> Body\n{.c data-x=2}\n\n> plain\n{#q}\n"


def _matome_site(
    root,
    config: dict,
    cases: list[str],
    layout: str = "{{ page.content }}",
    hooks: dict[str, str] = JINJA_HOOKS,
) -> dict[str, str]:
    base = {"baseURL": "https://example.org/", "disableKinds": ["taxonomy", "term"]}
    (root / "hugo.toml").parent.mkdir(parents=True)
    (root / "hugo.toml").write_text(tomli_w.dumps({**base, **config}))
    for name, text in hooks.items():
        (root / "templates" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "templates" / name).write_text(text)
    single = root / "templates" / "_default" / "single.html"
    single.parent.mkdir()
    single.write_text(BEGIN + layout + END)
    (root / "content" / "cases").mkdir(parents=True)
    for name in cases:
        front = tomli_w.dumps({"title": name, "md": CASES[name]})
        page = f"+++\n{front}+++\n{CASES[name]}"
        (root / "content" / "cases" / f"{name}.md").write_text(page)
    done = matome("build", "-s", str(root), "-d", str(root / "public"))
    assert done.returncode == 0, done.stderr
    out = {}
    for name in cases:
        page = (root / "public" / "cases" / name / "index.html").read_text()
        out[name] = page[page.index(BEGIN) + len(BEGIN) : page.rindex(END)]
    return out


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, tuple[dict[str, str], dict[str, str]]]:
    out = {}
    for name, (config, cases) in CONFIGS.items():
        hugo = run_hugo(
            tmp_path_factory.mktemp(f"hugo-{name}"),
            config,
            content={c: CASES[c] for c in cases},
            layouts=GO_HOOKS,
        )["content"]
        ours = _matome_site(tmp_path_factory.mktemp(f"matome-{name}") / "site", config, cases)
        out[name] = (hugo, ours)
    return out


@pytest.mark.parametrize(("config", "case"), config_case_params(CONFIGS))
def test_render_hook_matches_hugo(rendered, config, case):
    hugo, ours = rendered[config]
    assert ours[case] == hugo[case].replace("&#43;", "+")


def test_markdownify_goes_through_the_hooks_of_the_page(tmp_path):
    cases = ["link_plain", "link_query", "images", "alerts", "codeblocks", "tables"]
    hugo = run_hugo(
        tmp_path / "hugo", {}, markdownify={c: CASES[c] for c in cases}, layouts=GO_HOOKS
    )["markdownify"]
    layout = "{{ page.params.md | markdownify }}"
    ours = _matome_site(tmp_path / "matome", {}, cases, layout)
    for case in cases:
        assert ours[case] == hugo[case].replace("&#43;", "+"), case


def test_markdownify_writes_passthroughs_through_the_hooks(tmp_path):
    config, cases = CONFIGS["passthrough"][0], ["passthrough", "passthrough_places"]
    hugo = run_hugo(
        tmp_path / "hugo", config, markdownify={c: CASES[c] for c in cases}, layouts=GO_HOOKS
    )["markdownify"]
    ours = _matome_site(tmp_path / "matome", config, cases, "{{ page.params.md | markdownify }}")
    for case in cases:
        assert ours[case] == hugo[case].replace("&#43;", "+"), case


def test_render_string_goes_through_the_hooks_of_the_page_it_is_given(tmp_path):
    cases = ["link_plain", "alerts", "headings"]
    render = '{{ .RenderString (dict "display" "block") .Params.md }}'
    layouts = {**GO_HOOKS, "single.html": BEGIN + render + END}
    # The oracle's pages hold their case in front matter for markdownify: the same text.
    hugo = run_hugo(
        tmp_path / "hugo", {}, markdownify={c: CASES[c] for c in cases}, layouts=layouts
    )
    layout = "{{ page.params.md | render_string(page) }}"
    ours = _matome_site(tmp_path / "matome", {}, cases, layout)
    for case in cases:
        assert ours[case] == hugo["markdownify"][case].replace("&#43;", "+"), case


def test_a_link_that_takes_the_fast_path_without_hooks_goes_through_the_hook():
    # The case above is one the comment fast path renders when the site has no hooks.
    assert FastPath(read_settings(None, False)).document(CASES["link_plain"]) is not None


def test_a_passthrough_of_a_type_without_a_hook_is_written_raw_and_not_numbered(tmp_path):
    config, cases = CONFIGS["passthrough"][0], ["passthrough", "passthrough_places"]
    go = {"_markup/render-passthrough-block.html": "<b>{{ .Ordinal }}:{{ .Inner }}</b>"}
    jinja = {"_markup/render-passthrough-block.html": "<b>{{ ordinal }}:{{ inner }}</b>"}
    hugo = run_hugo(tmp_path / "hugo", config, content={c: CASES[c] for c in cases}, layouts=go)[
        "content"
    ]
    ours = _matome_site(tmp_path / "matome", config, cases, hooks=jinja)
    for case in cases:
        assert ours[case] == hugo[case].replace("&#43;", "+"), case
    assert "<b>0:" in ours["passthrough"] and "$a+b$" in ours["passthrough"]


@pytest.mark.parametrize(
    "case",
    ["tables", "table_attributes", "passthrough", "passthrough_places", "passthrough_escapes"],
)
def test_tables_and_passthroughs_never_take_the_fast_path(case):
    # So a site whose only hooks are these keeps the fast path for its other pages.
    fast = FastPath(read_settings(CONFIGS["passthrough"][0]["markup"], False))
    assert fast.document("Plain words and [a link](https://x.example/).\n") is not None
    assert fast.document(CASES[case]) is None
    assert fast.render(CASES[case]) is None


def test_a_hook_template_hugo_could_not_parse_stops_the_build_at_its_place(tmp_path):
    site = tmp_path / "site"
    (site / "templates" / "_markup").mkdir(parents=True)
    (site / "content").mkdir()
    (site / "hugo.toml").write_text("baseURL = 'https://example.org/'\n")
    (site / "templates" / "_markup" / "render-link.html").write_text("<a>\n{% if %}</a>")
    (site / "content" / "a.md").write_text("+++\ntitle = 'A'\n+++\n[x](/y)\n")
    done = matome("build", "-s", str(site), "-d", str(tmp_path / "out"))
    assert done.returncode == 1
    assert "templates/_markup/render-link.html:2:" in done.stderr
    assert "Traceback" not in done.stderr
