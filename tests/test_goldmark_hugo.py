"""Differential tests of Hugo's Goldmark and highlighting settings against the real ``hugo``.

Each configuration below is rendered by Hugo once (one build per config, module-scoped)
and by matome's ``MarkdownRenderer``; every case is its own test. Code blocks are
compared by structure (``highlight_skeleton``: Chroma's wrappers, line spans, numbers and
tables; token spans differ since matome tokenises with Pygments) and, like everything
else, by ``normalize_html``. Inputs Hugo fails on must fail in matome too, at the place
Hugo names.

Highlighting never fails on the code itself: every lexer Pygments ships renders a sample,
and random code goes through random lexers, styles and options.
"""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygments.lexers import get_all_lexers
from pygments.styles import get_all_styles

from matome.markup.markdown import MarkdownError, MarkdownRenderer

try:  # tests/ as a package or as a plain directory on sys.path
    from tests.cli import matome
    from tests.hugo_oracle import (
        config_case_params,
        highlight_skeleton,
        hugo_content_per_config,
        normalize_html,
        run_hugo,
    )
except ImportError:
    from cli import matome
    from hugo_oracle import (
        config_case_params,
        highlight_skeleton,
        hugo_content_per_config,
        normalize_html,
        run_hugo,
    )

# --- highlighting: every lexer, every style, any input -----------------------------------

_SAMPLE = (
    'key: value\n  - "a" # comment\n<tag attr=1>x &amp; y</tag>\n'
    "func f(x) { return x+1; } // done\n\tindented\t\ttab\n$ echo 'hi' | grep -v x\n"
)
_ALIASES = sorted(aliases[0] for _, aliases, _, _ in get_all_lexers() if aliases)


def test_yaml_code_block_is_highlighted():
    """The docs site's own build stopped here: Pygments' YAML token types are in no style."""
    html = MarkdownRenderer({}).render("```yaml\nkey: value\nlist:\n  - a\n```\n").html
    assert html.startswith('<div class="highlight"><pre tabindex="0" style=')
    assert '<code class="language-yaml" data-lang="yaml">' in html
    assert "key" in html and "value" in html


def test_every_lexer_renders_a_sample():
    """One sample through every lexer Pygments ships, with inline styles and with classes."""
    inline, classes = MarkdownRenderer({}), MarkdownRenderer({"highlight": {"noClasses": False}})
    assert len(_ALIASES) > 500
    for alias in _ALIASES:
        for renderer in (inline, classes):
            html = renderer.render(f"```{alias}\n{_SAMPLE}```\n").html
            assert "return" in re.sub(r"<[^>]+>", "", html), alias


def test_every_style_renders_every_mode():
    for style in get_all_styles():
        for no_classes in (True, False):
            markup = {"highlight": {"style": style, "noClasses": no_classes, "lineNos": True}}
            html = MarkdownRenderer(markup).render(f"```yaml\n{_SAMPLE}```\n").html
            assert "<table" in html and "comment" in html, style


_CODE = st.lists(
    st.sampled_from(list("abcxyz019 \t\n:-#'\"<>&{}[]()/\\*=|$@%;,.!?`~^_+") + ["日本", "é"]),
    max_size=80,
).map("".join)
_OPTIONS = st.lists(
    st.sampled_from(
        ["linenos=table", "linenos=inline", "linenos=true", "linenos=false", 'hl_lines="1-2"']
        + ["linenostart=7", "anchorlinenos=true", "noclasses=false", "tabwidth=2"]
        + ["lineanchors=x", "hl_inline=true", "guesssyntax=true", "style=github"]
    ),
    max_size=4,
    unique=True,
)


def _shown(markup: str) -> str:
    """The text of a rendered block without whitespace (and without a line number column)."""
    if "<td" in markup:
        markup = markup.rsplit("<td", 1)[1]
    return re.sub(r"\s+", "", html.unescape(re.sub(r"<[^>]+>", "", markup)))


def _in_order(wanted: str, text: str) -> bool:
    rest = iter(text)
    return all(ch in rest for ch in wanted)


@settings(max_examples=300, deadline=None)
@given(_CODE, st.sampled_from(_ALIASES), st.sampled_from(sorted(get_all_styles())), _OPTIONS)
def test_random_code_through_random_lexers_and_styles(code, alias, style, options):
    renderer = MarkdownRenderer({"highlight": {"style": style}})
    fence = "`" * (max(map(len, re.findall("`+", code)), default=0) + 3)
    markdown = f"{fence}{alias} {{{' '.join(options)}}}\n{code}\n{fence}\n"
    wanted = re.sub(r"\s+", "", code)
    assert _in_order(wanted, _shown(renderer.render(markdown).html))
    assert _in_order(wanted, _shown(renderer.highlight(code, alias, ",".join(options))))


# --- highlighting settings against Hugo -----------------------------------------------------

FENCES: dict[str, str] = {
    "go": "```go\na := 1\nb := 2\nc := 3\n```\n",
    "go_table": "```go {linenos=table}\na := 1\nb := 2\n```\n",
    "go_inline": "```go {lineNos=inline lineNoStart=9}\na := 1\nb := 2\n```\n",
    "go_off": "```go {linenos=false}\na := 1\n```\n",
    "go_hl_list": '```go {hl_lines=[1,"3-4"] linenos=true}\na\nb\nc\nd\ne\n```\n',
    "go_hl_string": '```go {hl_lines="2 4" lineNoStart=3}\na\nb\nc\nd\n```\n',
    "go_hl_commas": '```go {hl_lines="1,2"}\na\nb\n```\n',
    "go_anchors": "```go {anchorLineNos=true lineNos=true}\na\nb\n```\n",
    "go_anchor_prefix": '```go {anchorlinenos=true linenos=inline lineanchors="ex"}\na\n```\n',
    "go_tabwidth": "```go {tabWidth=8 .wide data-n=5}\n\ta := 1\n```\n",
    "go_two": "```go {linenos=true}\nx\n```\n\n```go {linenos=true anchorlinenos=true}\ny\n```\n",
    "go_style": "```go {style=github noClasses=false}\na := 1\n```\n",
    "unknown": "```nosuch {linenos=true .c1}\nx < y\n```\n",
    "no_lang": "```\nplain <x>\n```\n",
    "bash_shebang": "```\n#!/bin/bash\necho hi\n```\n",
    "yaml": "```yaml\nkey: value\nlist:\n  - a\n```\n",
    "hl_inline": "```go {hl_inline=true}\na := 1\n```\n",
}

# Each configuration and the fences rendered with it.
HIGHLIGHT_CONFIGS: dict[str, tuple[dict, list[str]]] = {
    "defaults": ({}, list(FENCES)),
    "site_options": (
        {
            "markup": {
                "highlight": {
                    "lineNos": True,
                    "lineNumbersInTable": False,
                    "lineNoStart": 5,
                    "hl_Lines": "2",
                    "anchorLineNos": True,
                    "lineAnchors": "ln",
                    "tabWidth": 2,
                    "style": "Dracula",
                    "wrapperClass": "code wrap",
                }
            }
        },
        ["go", "go_table", "go_off", "go_anchor_prefix", "unknown", "no_lang", "yaml"],
    ),
    "classes_table_guess": (
        {"markup": {"highlight": {"noClasses": False, "lineNos": "table", "guessSyntax": True}}},
        ["go", "go_hl_string", "no_lang", "bash_shebang", "yaml"],
    ),
    "no_code_fences": (
        {"markup": {"highlight": {"codeFences": False}}},
        ["go", "go_table", "unknown", "no_lang"],
    ),
    # The keys of Hugo's Pygments days, which Hugo 0.168 still reads.
    "legacy_pygments": (
        {"pygmentsOptions": "linenos=inline,hl_lines=2", "pygmentsUseClasses": True},
        ["go", "go_table", "yaml", "no_lang"],
    ),
    "legacy_code_fences": ({"pygmentsCodeFences": False}, ["go", "no_lang"]),
    "legacy_guess": ({"pygmentsCodefencesGuessSyntax": True}, ["no_lang", "bash_shebang"]),
    "legacy_overridden": (
        {"pygmentsUseClasses": True, "markup": {"highlight": {"noClasses": False}}},
        ["go"],
    ),
}

_COLOR = re.compile(r"(color:)#[0-9a-fA-F]{3,8}")


def _structure(markup: str) -> str:
    """Chroma's markup around the tokens, colours left out: Pygments' styles share
    Chroma's names but not all their colours."""
    return _COLOR.sub(r"\1#", highlight_skeleton(markup)).strip()


@pytest.fixture(scope="module")
def hugo_highlights(tmp_path_factory) -> dict[str, dict[str, str]]:
    return hugo_content_per_config(tmp_path_factory, HIGHLIGHT_CONFIGS, FENCES)


def _renderer(config: dict) -> MarkdownRenderer:
    return MarkdownRenderer(config.get("markup"), legacy=config)


@pytest.mark.parametrize(("config", "case"), config_case_params(HIGHLIGHT_CONFIGS))
def test_code_block_matches_hugo(hugo_highlights, config, case):
    ours = _renderer(HIGHLIGHT_CONFIGS[config][0]).render(FENCES[case]).html
    expected = hugo_highlights[config][case]
    assert _structure(ours) == _structure(expected)


# The highlight shortcode: Hugo's own, against matome's ``highlight`` function.
SHORTCODES = {
    "plain": ("go", "", "a := 1\nb := 2"),
    "table": ("go", "linenos=table,hl_lines=2", "a := 1\nb := 2"),
    "inline_anchors": ("go", "linenos=inline,anchorlinenos=true,linenostart=3", "a\nb"),
    "prefixed": ("go", "linenos=true,anchorlinenos=true,lineanchors=p", "a"),
    "hl_inline": ("go", "hl_inline=true", "a := 1"),
    "unknown": ("nosuch", "linenos=true", "x < y"),
}


@pytest.fixture(scope="module")
def hugo_shortcodes(tmp_path_factory) -> dict[str, str]:
    content = {
        name: f'{{{{< highlight {lang} "{opts}" >}}}}\n{code}\n{{{{< /highlight >}}}}\n'
        for name, (lang, opts, code) in SHORTCODES.items()
    }
    return run_hugo(tmp_path_factory.mktemp("shortcodes"), {}, content=content)["content"]


@pytest.mark.parametrize("name", list(SHORTCODES))
def test_highlight_shortcode_matches_hugo(hugo_shortcodes, name):
    lang, opts, code = SHORTCODES[name]
    ours = MarkdownRenderer({}).highlight(code, lang, opts)
    expected = hugo_shortcodes[name]
    assert _structure(ours) == _structure(expected)


# Inputs Hugo fails on: (site config, Markdown, line, column, message Hugo gives).
FAILURES = {
    "unquoted_range": ({}, "text\n\n```go {hl_lines=2-3}\na\n```\n", 3, 7, "failed to parse"),
    "blank_attributes": ({}, "```go { }\na\n```\n", 1, 7, "failed to parse Markdown"),
    "bad_int": ({}, "```go {linenostart=abc}\na\n```\n", 1, 4, "cannot parse"),
    "bad_bool": ({}, "```go {noclasses=maybe}\na\n```\n", 1, 4, "cannot parse"),
    "number_linenos": ({}, "```go {linenos=1}\na\n```\n", 1, 4, "lineNos must be one of"),
    # mapstructure decodes a fence's linenos=true into the site's string: "1".
    "linenos_into_string": (
        {"markup": {"highlight": {"lineNos": "table"}}},
        "```go {linenos=inline}\na\n```\n",
        1,
        4,
        "got 1 (string)",
    ),
}


@pytest.mark.parametrize("name", list(FAILURES))
def test_what_hugo_refuses_matome_refuses(tmp_path, name):
    config, markdown, line, column, message = FAILURES[name]
    with pytest.raises(AssertionError, match="hugo failed") as failed:
        run_hugo(tmp_path, config, content={name: markdown})
    assert message in str(failed.value)
    with pytest.raises(MarkdownError) as ours:
        _renderer(config).render(markdown)
    assert message in ours.value.message
    assert (ours.value.line, ours.value.column) == (line, column)


def test_an_unknown_language_ignores_options_hugo_would_refuse(tmp_path):
    markdown = "```nosuch {linenos=1}\nx\n```\n"
    expected = run_hugo(tmp_path, {}, content={"x": markdown})["content"]["x"]
    assert normalize_html(MarkdownRenderer({}).render(markdown).html) == normalize_html(expected)


def _site(root, config: str, page: str):
    (root / "content").mkdir(parents=True)
    (root / "hugo.toml").write_text("baseURL = 'https://example.org/'\n" + config)
    (root / "content" / "a.md").write_text("+++\ntitle = 'A'\n+++\n" + page)
    return root


def test_a_refused_fence_stops_the_build_at_its_place(tmp_path):
    site = _site(tmp_path / "site", "", "Intro.\n\n```go {hl_lines=2-3}\na\n```\n")
    done = matome("build", "-s", str(site), "-d", str(tmp_path / "out"))
    assert done.returncode == 1
    assert "content/a.md:6:7: error: failed to parse Markdown attributes" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_refused_site_option_stops_the_build_at_its_key(tmp_path):
    config = "[markup.highlight]\nlineNoStart = 'abc'\n"
    site = _site(tmp_path / "site", config, "```go\na := 1\n```\n")
    done = matome("build", "-s", str(site), "-d", str(tmp_path / "out"))
    assert done.returncode == 1
    assert f"{site / 'hugo.toml'}:2:9: error: markup.highlight: 1 error(s) decoding" in done.stderr


def test_a_line_numbers_value_hugo_refuses_stops_the_build_at_the_code_block(tmp_path):
    config = "[markup.highlight]\nlineNos = 'sometimes'\n"
    site = _site(tmp_path / "site", config, "Text.\n\n```go\na := 1\n```\n")
    done = matome("build", "-s", str(site), "-d", str(tmp_path / "out"))
    assert done.returncode == 1
    assert "content/a.md:6:4: error: lineNos must be one of" in done.stderr


def test_the_legacy_pygments_keys_are_read_not_reported_unused(tmp_path):
    config = "pygmentsOptions = 'linenos=inline'\npygmentsUseClasses = true\n"
    site = _site(tmp_path / "site", config, "```go\na := 1\n```\n")
    done = matome("build", "-s", str(site), "-d", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert "pygments" not in done.stderr
    page = (tmp_path / "out" / "a" / "index.html").read_text()
    assert '<span class="ln">1</span>' in page


# --- Goldmark settings real sites use ------------------------------------------------------

BLOCKS: dict[str, str] = {
    "attr_paragraph": 'A paragraph.\n{.note #p1 data-x="y<z" onclick="bad" title="T"}\n',
    "attr_solitary": "Para two.\n\n{.solitary}\n",
    "attr_list": "- item\n- item\n{.list start=3}\n",
    "attr_blockquote": '> quote\n{cite="https://x"}\n',
    "attr_table": "| a | b |\n|---|---|\n| 1 | 2 |\n{.tbl data-n=5}\n",
    "attr_after_fence": "```go\nx\n```\n{.ignored}\n",
    "attr_heading_block": "## Heading\n{.hc}\n",
    "attr_heading_both": "## Heading {.t}\n{.b}\n",
    "attr_hr": "---\n{.hr}\n",
    "attr_trailing_text": "{.a} trailing text\n",
    "attr_twice": "Para\n{.x}\n{.y}\n\nPara\n{.x}\n{#y}\n",
    "attr_inline_markup": "Para **bold**\n{.z}\n",
    "attr_not_attributes": "Para\n{not attributes}\n\n{#}\n",
    "attr_ordered_list": "1. one\n2. two\n{#ol}\n",
    "attr_setext": "Title\n===\n{.s}\n",
    "attr_nested_quote": "> inner\n> {.q}\n",
    "attr_heading_title": "## Styled {.fancy #sid data-n=2}\n",
    "extras": "H~2~O 1^st^ ++ins++ ==mark== ~~del~~ a~b ^c ==x == ++ y++\n",
    "extras_nested": "==*em* and ++ins++== ~~a~~\n",
    "extras_edges": "x^-1^ ~~~a~~~ ==a= +a+ ~~a~ ^a^^ 2^10 日本==強調==です **b ==m==** a^b^c\n"
    "~~~\n\n=== ++ ^^x^^ ~~~~ a==b==c ==a\nb== ^(a)^\n",
    "passthrough": "$$\nx^2\n$$\n\nInline \\(a_b\\) and $c*d$ and \\[ y \\] here.\n\n\\[\nz\n\\]\n",
    "passthrough_edges": "- item $$a<b$$ tail\n- x\n\ntext\n$$\ny\n$$\nmore\n\nopen \\( only and \\\\$x$ and "
    "$$ $$ and $a\nb$\n\n## Euler $e^{i\\pi}$\n\n`$code$` [a $b$](/u) *$x*$*\n\n$$z$$\n{.eq}\n",
    "passthrough_escaped": "Not \\\\(x\\\\) and `\\(code\\)`.\n",
    "cjk_breaks": "日本語の\n文章です。\nEnglish\nwords 日本\n語\n",
    "cjk_edges": "日本語\n**強調**\n\n**強調**\n日本\n\n日本！\n次\n\n한국어\n문장\n\nword\n日本\n\n"
    "「引用」\n次\n\nカタカナー\nひらがな\n\n`code`\n日本\n\n日本,\n語\n\nＡＢＣ\nＤ\n",
    "cjk_escaped_space": "日本\\ 語 と English\\ word\n",
    "cjk_emphasis": "**「強調」**です と*日本*語\n",
    "image_alone": "![a](/a.png)\n\nText ![b](/b.png)\n\n[![c](/c.png)](/x)\n",
    "image_alone_attrs": '![a](/a.png)\n{.wide width=300 loading="lazy" data-x="1"}\n',
    "image_in_list": '- ![a](/a.png)\n- ![b](/b.png "T")\n\n> ![q](/q.png)\n',
    "deflist_continuation": "Term\n: First line.\n\n  Second paragraph.\n",
    "deflist_continuation_code": "Term\n: First.\n\n      code\n\n  More.\n\nOther\n: Def\n",
    "deflist_paragraphs": "Term\n: P1\n\n  P2\n\n  P3\n\nT2\n: Q1\n  lazy\n\n  Q2\n: R1\n\n"
    "T3\n\n: S1\n\n  S2\n",
    "deflist_terms": "Apple\n: Red fruit.\n\nOrange Juice\n: Drink.\n\nApple\n: Again.\n",
    "typographer": "\"Quote\" and 'single' -- dash --- em... <<angle>>\n",
    "hard_wraps": "line one\nline two\n",
    "xhtml": "a  \nb\n\n---\n\n![i](/i.png)\n\n- [x] done\n",
}

GOLDMARK_CONFIGS: dict[str, tuple[dict, list[str]]] = {
    "block_attributes": (
        {"markup": {"goldmark": {"parser": {"attribute": {"block": True}}}}},
        [k for k in BLOCKS if k.startswith("attr_")] + ["image_alone_attrs"],
    ),
    "no_title_attributes": (
        {"markup": {"goldmark": {"parser": {"attribute": {"title": False}}}}},
        ["attr_heading_title", "attr_paragraph"],
    ),
    "extras": (
        {
            "markup": {
                "goldmark": {
                    "extensions": {
                        "strikethrough": False,
                        "extras": {
                            "delete": {"enable": True},
                            "insert": {"enable": True},
                            "mark": {"enable": True},
                            "subscript": {"enable": True},
                            "superscript": {"enable": True},
                        },
                    }
                }
            }
        },
        ["extras", "extras_nested", "extras_edges"],
    ),
    "extras_with_strikethrough": (
        {"markup": {"goldmark": {"extensions": {"extras": {"subscript": {"enable": True}}}}}},
        ["extras", "extras_edges"],
    ),
    "extras_some": (
        {
            "markup": {
                "goldmark": {
                    "extensions": {
                        "extras": {"mark": {"enable": True}, "superscript": {"enable": True}}
                    }
                }
            }
        },
        ["extras", "extras_nested", "extras_edges"],
    ),
    "passthrough": (
        {
            "markup": {
                "goldmark": {
                    "extensions": {
                        "passthrough": {
                            "enable": True,
                            "delimiters": {
                                "block": [["\\[", "\\]"], ["$$", "$$"]],
                                "inline": [["\\(", "\\)"], ["$", "$"]],
                            },
                        }
                    }
                }
            }
        },
        ["passthrough", "passthrough_escaped", "passthrough_edges"],
    ),
    "cjk": (
        {
            "markup": {
                "goldmark": {
                    "extensions": {
                        "cjk": {"enable": True, "eastAsianLineBreaks": True, "escapedSpace": True}
                    }
                }
            }
        },
        ["cjk_breaks", "cjk_escaped_space", "cjk_emphasis", "cjk_edges"],
    ),
    "cjk_css3draft": (
        {
            "markup": {
                "goldmark": {
                    "extensions": {
                        "cjk": {
                            "enable": True,
                            "eastAsianLineBreaks": True,
                            "eastAsianLineBreaksStyle": "css3draft",
                        }
                    }
                }
            }
        },
        ["cjk_breaks", "cjk_escaped_space", "cjk_edges"],
    ),
    "cjk_off_by_default": (
        {"markup": {"goldmark": {"extensions": {"cjk": {"eastAsianLineBreaks": True}}}}},
        ["cjk_breaks"],
    ),
    "images_unwrapped": (
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
        ["image_alone", "image_alone_attrs", "image_in_list"],
    ),
    "deflists": (
        {"markup": {"goldmark": {"parser": {"autoDefinitionTermID": True}}}},
        [
            "deflist_continuation",
            "deflist_continuation_code",
            "deflist_terms",
            "deflist_paragraphs",
        ],
    ),
    "defaults": (
        {},
        ["deflist_continuation", "deflist_continuation_code", "deflist_paragraphs", "typographer"],
    ),
    "typographer_settings": (
        {
            "markup": {
                "goldmark": {
                    "extensions": {
                        "typographer": {
                            "leftDoubleQuote": "&laquo;",
                            "rightDoubleQuote": "&raquo;",
                            "emDash": "&#8212;",
                            "ellipsis": "...",
                        }
                    }
                }
            }
        },
        ["typographer"],
    ),
    "renderer": (
        {"markup": {"goldmark": {"renderer": {"hardWraps": True, "xhtml": True}}}},
        ["hard_wraps", "xhtml", "cjk_breaks"],
    ),
}


@pytest.fixture(scope="module")
def hugo_blocks(tmp_path_factory) -> dict[str, dict[str, str]]:
    return hugo_content_per_config(tmp_path_factory, GOLDMARK_CONFIGS, BLOCKS)


@pytest.mark.parametrize(("config", "case"), config_case_params(GOLDMARK_CONFIGS))
def test_goldmark_setting_matches_hugo(hugo_blocks, config, case):
    ours = _renderer(GOLDMARK_CONFIGS[config][0]).render(BLOCKS[case]).html
    assert normalize_html(ours) == normalize_html(hugo_blocks[config][case])
