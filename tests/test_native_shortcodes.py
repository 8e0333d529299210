"""The theme's comment card in Python (``native_shortcodes``) writes what its Jinja template does.

Each site of a pair renders the same bodies: one with the theme's ``matomeQuote.html`` (the
Python stands in for it), one with a byte-identical copy in the site's own ``templates/``
(Jinja renders it, as for any site template). Their HTML must be the same for any
parameters, with the comment sanitizer on and off.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matome.config import Flags, load_config
from matome.content.loader import load_content
from matome.errors import SourceError
from matome.graph.site import build_site
from matome.markup.comment_card import TEMPLATE, native_renderer
from matome.markup.expand import ContentRenderer
from matome.markup.markdown import MarkdownRenderer
from matome.render.environment import make_environment, theme_dir
from matome.render.site_functions import install_site_functions

CONFIG = 'baseURL = "https://example.org/"\ntitle = "t"\n'
ARTICLE = '+++\ntitle = "a"\ndate = 2025-01-01\n+++\n'


def _renderer(root: Path, sanitize: bool, template: bytes | None) -> tuple[ContentRenderer, object]:
    (root / "content/posts").mkdir(parents=True)
    config = CONFIG + ("" if sanitize else "[matome]\nsanitize = false\n")
    (root / "hugo.toml").write_text(config)
    (root / "content/posts/a.md").write_text(ARTICLE)
    if template is not None:
        (root / "templates/shortcodes").mkdir(parents=True)
        (root / "templates" / TEMPLATE).write_bytes(template)
    config = load_config(root, Flags())
    now = datetime.now(UTC)
    site = build_site(config, load_content(config, now), now)
    env = make_environment(root)
    markdown = MarkdownRenderer(config.markup, enable_emoji=config.enable_emoji)
    install_site_functions(env, site, markdown)
    page = next(p for p in site.pages if p.file is not None)
    return ContentRenderer(env, markdown, site), page


@pytest.fixture(scope="module", params=[True, False], ids=["sanitized", "trusted"])
def pair(request, tmp_path_factory):
    theme_template = (theme_dir() / "templates" / TEMPLATE).read_bytes()
    native, page = _renderer(tmp_path_factory.mktemp("native"), request.param, None)
    jinja, jinja_page = _renderer(tmp_path_factory.mktemp("jinja"), request.param, theme_template)
    return native, page, jinja, jinja_page


def _html(renderer: ContentRenderer, page, body: str) -> str:
    page.body = body
    return renderer.render_page(page).html


def test_the_theme_card_is_rendered_in_python_and_a_site_copy_is_not(pair):
    native, _, jinja, _ = pair
    # Fails when the theme's template changed without matome_quote and TEMPLATE_SHA256.
    assert native_renderer(native.env, "matomeQuote") is not None
    assert native_renderer(jinja.env, "matomeQuote") is None
    assert native_renderer(native.env, "matomeSummary") is None


def test_a_site_template_of_its_own_is_used(tmp_path):
    renderer, page = _renderer(tmp_path, True, b"<q>{{ shortcode.get('userName') }}</q>")
    html = _html(renderer, page, '{{< matomeQuote body="b" userName="me" >}}')
    assert html == "<q>me</q>\n"  # the line break after the paragraph it was, as in Hugo


FIXED = [
    '{{< matomeQuote body="本文 **強調** `code`<br>二行目" userName="u1" '
    'createdAt="2025/11/07 15:41:42" color="#ff5733" >}}',
    '{{<matomeQuote body="<script>alert(1)</script> & <T> <b>ok</b>" userName="<i>&amp;</i>" '
    'createdAt="2025-11-07T15:41:42" color="red">}}',
    '{{< matomeQuote body="a" createdAt="yesterday" color="url(x)" >}}',
    '{{< matomeQuote body="a" createdAt="" color="" userName="" >}}',
    "{{< matomeQuote >}}",
    '{{< matomeQuote "positional" "values" >}}',
    "{{< matomeQuote body=12 userName=true createdAt=1.5 color=false >}}",
    '{{< matomeQuote body=`raw "quoted"\n\n- list\n- items` userName=`x` >}}',
    '{{< matomeQuote body="https://example.org/a_b?c=d www.example.com" >}}',
]


@pytest.mark.parametrize("call", FIXED)
def test_known_calls_render_alike(pair, call):
    native, page, jinja, jinja_page = pair
    assert _html(native, page, call) == _html(jinja, jinja_page, call)
    assert '<article class="comment"' in _html(native, page, call)


TEXT = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "<br>",
                "**",
                "`",
                "<",
                ">",
                "&",
                "'",
                "\u3000",
                "日本語",
                "https://a.b/c",
                "- ",
                "\n",
                "\n\n",
                "<script>",
                "&amp;",
                "#fff",
                "rgb(1,2,3)",
                "2025/11/07 15:41:42",
                "2025-11-07T15:41",
                " ",
                ":",
                "_",
                "[a](b)",
                "\\",
            ]
        ),  # fmt: skip
        st.text(max_size=4),
    ),
    max_size=8,
).map("".join)
KEYS = st.sampled_from(["body", "userName", "createdAt", "color", "extra"])
TYPED = st.sampled_from(["12", "-3", "true", "false", "1.5", "word"])


def _quoted(value: str) -> str:
    return "`" + value.replace("`", "") + "`"


named_call = st.dictionaries(KEYS, st.one_of(TEXT.map(_quoted), TYPED), max_size=5).map(
    lambda params: (
        "{{< matomeQuote " + " ".join(f"{key}={value}" for key, value in params.items()) + " >}}"
    )
)
positional_call = st.lists(TEXT.map(_quoted), max_size=3).map(
    lambda values: "{{< matomeQuote " + " ".join(values) + " >}}"
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(calls=st.lists(st.one_of(named_call, named_call, positional_call), min_size=1, max_size=3))
def test_any_parameters_render_alike(pair, calls):
    native, page, jinja, jinja_page = pair
    body = "\n\n".join(calls)
    assert _html(native, page, body) == _html(jinja, jinja_page, body)


def _fast_call(n: int) -> str:
    return (
        f'{{{{<matomeQuote body="コメント{n} https://e.org/{n} <br>二行目" userName="u{n}" '
        f'createdAt="2025-01-0{n % 9 + 1}T10:00:00" color="#38d3d3">}}}}'
    )


SEPARATORS = st.sampled_from(
    ["\n\n", "\n", "", " ", "\n \n\t\n", "\n\n\n\n", " text ", "\n\ntext\n\n"]
)
WRAPPERS = st.sampled_from(
    [
        "{}",
        "> 引用\n\n{}\n\n[link](https://e.org/)",
        '{{{{< details summary="more" >}}}}\n{}\n{{{{< /details >}}}}',
        "```\n{}\n```",
        "text {} text",
        "{} {{{{< matomeQuote >}}}}{{{{< matomeQuote body=`x` >}}}}",
    ]
)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(separators=st.lists(SEPARATORS, min_size=1, max_size=5), wrapper=WRAPPERS)
def test_calls_in_a_row_render_as_they_do_one_by_one(pair, monkeypatch, separators, wrapper):
    """A page's comments are read as one run of calls (``ShortcodeRun``); the HTML is
    what the calls make parsed one by one, through the native card and through Jinja."""
    import matome.markup.expand as expand

    body = _fast_call(0) + "".join(sep + _fast_call(i + 1) for i, sep in enumerate(separators))
    body = wrapper.format(body)
    native, page, jinja, jinja_page = pair
    in_runs = _html(native, page, body), _html(jinja, jinja_page, body)
    one_by_one = functools.partial(expand.parse_shortcodes, runs=False)
    with monkeypatch.context() as m:
        m.setattr(expand, "parse_shortcodes", lambda *a, **k: one_by_one(*a[:4]))
        assert (_html(native, page, body), _html(jinja, jinja_page, body)) == in_runs
    assert in_runs[0] == in_runs[1]


def test_an_error_in_a_run_of_calls_names_its_own_call(tmp_path):
    renderer, page = _renderer(
        tmp_path,
        True,
        b"{% if shortcode.get('body') == 'bad' %}{{ error('a bad comment') }}{% endif %}ok",
    )
    body = (
        '{{<matomeQuote body="a">}}\n\n{{<matomeQuote body="b">}}\n  {{<matomeQuote body="bad">}}\n'
    )
    with pytest.raises(SourceError) as failed:
        _html(renderer, page, body)
    error = failed.value
    assert (error.line, error.col) == (page.body_line + 3, 3)  # the body's fourth line
    assert "a bad comment" in error.message


def test_get_reads_named_and_positional_arguments_alike(tmp_path):
    """Named arguments' ``get`` is their dict's own (quicker for Jinja to call): the same
    answers as for positional ones, a default when absent, nothing for an index."""
    template = (
        b"{{ shortcode.get('body') }}|{{ shortcode.get('nope', 'd') }}|{{ shortcode.get(0) }}"
        b"|{{ shortcode.get(1, 'd') }}|{{ shortcode.is_named_params }}"
    )
    renderer, page = _renderer(tmp_path, True, template)
    named = '{{< matomeQuote body="b" >}}'
    positional = '{{< matomeQuote "p0" >}}'
    assert _html(renderer, page, named) == "b|d||d|true\n"
    assert _html(renderer, page, positional) == "|d|p0|d|false\n"
