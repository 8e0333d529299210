"""Tests for matome.markup.shortcodes: Hugo's shortcode grammar, checked against hugo 0.168."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matome.errors import SourceError
from matome.markup.shortcodes import Shortcode, ShortcodeRun, parse_shortcodes

# True: the template uses .Inner; False: it does not; absent: no such shortcode.
TEMPLATES = {
    "plain": False,
    "matomeQuote": False,
    "inner": True,
    "details": True,
    "a/b": False,
}


def parse(text: str, line_offset: int = 0) -> list:
    return parse_shortcodes(text, "p.md", TEMPLATES.get, line_offset)


def only(text: str) -> Shortcode:
    """The single shortcode in ``text``."""
    calls = [n for n in parse(text) if isinstance(n, Shortcode)]
    assert len(calls) == 1
    return calls[0]


def error(text: str, line_offset: int = 0) -> SourceError:
    with pytest.raises(SourceError) as info:
        parse(text, line_offset)
    return info.value


# -- grammar forms


def test_text_without_shortcodes_is_one_node():
    assert parse("hello\nworld") == ["hello\nworld"]
    assert parse("") == []


def test_named_params_without_spaces_the_common_real_form():
    text = 'a\n{{<matomeQuote body="長い<br>[l](https://x.y/%E3)" userName="cs702">}}\nb'
    nodes = parse(text)
    assert nodes[0] == "a\n" and nodes[2] == "\nb"
    sc = nodes[1]
    assert sc.name == "matomeQuote"
    assert sc.params == {"body": "長い<br>[l](https://x.y/%E3)", "userName": "cs702"}
    assert not sc.markdown and sc.inner is None and sc.inner_source is None
    assert (sc.line, sc.col) == (2, 1)
    assert text[sc.offset : sc.end] == text[2:-2]


def test_markdown_delimiters():
    sc = only('{{% plain a="1" %}}')
    assert sc.markdown and sc.params == {"a": "1"}


def test_positional_params_are_typed_unless_quoted():
    sc = only('{{< plain 1 2.5 -3 true false foo-bar a.b 1.2.3 "7" `false` >}}')
    assert sc.params == [1, 2.5, -3, True, False, "foo-bar", "a.b", "1.2.3", "7", "false"]
    assert type(sc.params[0]) is int and type(sc.params[3]) is bool


def test_unquoted_named_values_are_typed_like_hugo():
    sc = only(
        "{{< plain a=2 b=true c=1.5 d=.5 e=1. f=-3 g=+4 h=007 i=1e5 j=x/y "
        "k=99999999999999999999 >}}"
    )
    assert sc.params == {
        "a": 2,
        "b": True,
        "c": 1.5,
        "d": 0.5,
        "e": "1.",
        "f": -3,
        "g": 4,
        "h": 7,
        "i": "1e5",
        "j": "x/y",
        "k": "99999999999999999999",  # beyond int64: Go's Atoi fails and keeps the string
    }


def test_quoted_values_stay_strings():
    assert only('{{< plain a="2" b="true" c="" >}}').params == {"a": "2", "b": "true", "c": ""}


def test_escaped_quote_drops_every_backslash_like_hugo():
    assert only(r'{{< plain a="x\"y" >}}').params == {"a": 'x"y'}
    assert only(r'{{< plain "x\"y\\z\n" >}}').params == ['x"yzn']


def test_backslashes_without_an_escaped_quote_are_kept():
    assert only(r'{{< plain a="p\\q\n" >}}').params == {"a": r"p\\q\n"}


def test_raw_string_spans_lines_without_escapes():
    assert only('{{< plain a=`line1\nli"ne\\2 >}}` >}}').params == {"a": 'line1\nli"ne\\2 >}}'}


def test_values_may_hold_delimiters_japanese_and_full_width_quotes():
    sc = only('{{< plain a="a >}} b {{< c" b="”全角”" c="{{% x %}}" >}}')
    assert sc.params == {"a": "a >}} b {{< c", "b": "”全角”", "c": "{{% x %}}"}


def test_whitespace_and_newlines_inside_the_tag():
    sc = only('{{<\tplain\n  a = "1"\r\n  b=\n"2"\n>}}')
    assert sc.params == {"a": "1", "b": "2"}


def test_params_need_no_separating_space():
    assert only('{{< plain a="x"b="y" >}}').params == {"a": "x", "b": "y"}
    assert only('{{< plain "a""b" x"y" >}}').params == ["a", "b", "x", "y"]


def test_quoted_key_and_repeated_key():
    assert only('{{< plain "x"="y" `z`="w" >}}').params == {"x": "y", "z": "w"}
    assert only('{{< plain a="1" a="2" >}}').params == {"a": "2"}


def test_unquoted_value_may_hold_the_other_delimiter():
    assert only("{{< plain a=x>y b=x%}}c >}}").params == {"a": "x>y", "b": "x%}}c"}


def test_escaped_quote_value_from_a_call_inside_a_string():
    assert only(r"{{< plain \"x y\" >}}").params == ["x y"]
    assert only(r"{{< plain a=\"x y\" >}}").params == {"a": "x y"}


def test_namespaced_name():
    assert only("{{< a/b 1 >}}").name == "a/b"


def test_no_params_is_an_empty_list():
    assert only("{{<plain>}}").params == []


@pytest.mark.parametrize(
    "close",
    ["{{< /inner >}}", "{{</inner>}}", "{{< / inner\n>}}", "{{% /inner %}}", "{{%/inner%}}"],
)
def test_closing_tag_forms(close):
    text = '{{< inner k="v" >}}body' + close + "after"
    nodes = parse(text)
    sc = nodes[0]
    assert nodes[1] == "after"
    assert sc.inner == ["body"] and sc.inner_source == "body" and sc.params == {"k": "v"}
    assert (sc.offset, sc.end) == (0, len(text) - len("after"))


def test_closing_delimiter_kind_may_differ_from_the_opening():
    sc = parse("{{% inner %}}*x*{{< /inner >}}")[0]
    assert sc.markdown and sc.inner == ["*x*"]


@pytest.mark.parametrize(
    "text", ["{{< inner />}}", "{{<inner / >}}", "{{< inner a=`x` / >}}", '{{% inner a="1"/%}}']
)
def test_self_closing_forms(text):
    sc = only(text)
    assert sc.name == "inner" and sc.inner is None and sc.end == len(text)


def test_empty_inner():
    sc = only("{{< inner >}}{{< /inner >}}")
    assert sc.inner == [] and sc.inner_source == ""


def test_nesting_positions_and_inner_source():
    text = "x{{< inner >}}a\n{{% details %}}b{{< plain 1 >}}c{{% /details %}}d{{</inner>}}y"
    outer = parse(text)[1]
    details = outer.inner[1]
    plain = details.inner[1]
    assert outer.inner[0] == "a\n" and outer.inner[2] == "d"
    assert details.inner_source == "b{{< plain 1 >}}c"
    assert outer.inner_source == "a\n{{% details %}}b{{< plain 1 >}}c{{% /details %}}d"
    assert (details.line, details.col) == (2, 1)
    assert (plain.line, plain.col, plain.params) == (2, 17, [1])
    assert text[plain.offset : plain.end] == "{{< plain 1 >}}"


def test_deep_nesting_has_no_recursion_limit():
    depth = 3000
    nodes = parse("{{< inner >}}" * depth + "x" + "{{< /inner >}}" * depth)
    for _ in range(depth):
        nodes = nodes[0].inner
    assert nodes == ["x"]


@pytest.mark.parametrize(
    "text, literal",
    [
        ('{{</* plain a="b" */>}}', '{{< plain a="b" >}}'),
        ("{{%/*nope*/%}}", "{{%nope%}}"),
        ("{{</*  unknown\n */>}}", "{{<  unknown\n >}}"),
        ("{{</**/>}}", "{{<>}}"),
        ("{{</* a >}} b */>}}", "{{< a >}} b >}}"),
    ],
)
def test_comments_are_literal_text(text, literal):
    assert parse("a" + text + "b") == ["a" + literal + "b"]


def test_comment_inside_inner_merges_with_text():
    sc = parse("{{< inner >}}a{{</* x */>}}b{{< /inner >}}")[0]
    assert sc.inner == ["a{{< x >}}b"]


@pytest.mark.parametrize(
    "text", ["{{ .Title }}", "{{", "{ {< plain >}}", "{{ x }} {{}} }} >}} %}}", "{{{", "<{{"]
)
def test_lookalikes_are_text(text):
    assert parse(text) == [text]


def test_triple_brace_starts_a_shortcode_at_the_second_brace():
    nodes = parse("{{{< plain >}}")
    assert nodes[0] == "{" and nodes[1].col == 2


def test_line_offset_shifts_lines_only():
    sc = parse("\n\n  {{< plain >}}", line_offset=10)[1]
    assert (sc.line, sc.col) == (13, 3)


def test_inline_shortcode_name_is_passed_to_takes_inner():
    seen = []
    nodes = parse_shortcodes("{{< x.inline >}}", "p.md", lambda n: seen.append(n) or False)
    assert seen == ["x.inline"] and nodes[0].name == "x.inline"


def test_takes_inner_is_asked_once_per_name():
    calls = []
    parse_shortcodes("{{< p >}}" * 5, "p.md", lambda n: calls.append(n) or False)
    assert calls == ["p"]


# -- errors: line and column of the problem, and a message saying what to do


def test_unknown_shortcode():
    e = error("ok\n  {{< nope a=1 >}}")
    assert (e.line, e.col) == (2, 3)
    assert 'unknown shortcode "nope"' in e.message


def test_unknown_name_with_slash_suggests_a_space():
    e = error("{{< inner/>}}")
    assert 'unknown shortcode "inner/"' in e.message and "{{< inner />}}" in e.message


def test_unclosed_shortcode():
    e = error('x\n{{< details summary="s" >}}\nbody')
    assert (e.line, e.col) == (2, 1)
    assert e.message == 'unclosed shortcode "details": add {{< /details >}}'


def test_unclosed_nested_shortcode_reports_the_innermost():
    e = error("{{< inner >}}\n{{% details %}}{{< /inner >}}")
    assert (e.line, e.col) == (2, 16)  # the closing tag comes too early
    e = error("{{< inner >}}\n{{% details %}}x{{% /details %}}")
    assert (e.line, e.col) == (1, 1)
    assert "{{< /inner >}}" in e.message


def test_unclosed_markdown_shortcode_suggests_the_same_delimiters():
    assert "add {{% /details %}}" in error("{{% details %}}").message


def test_closing_tag_crossing_an_open_one():
    e = error("{{< inner >}}a{{< details >}}b{{< /inner >}}c{{< /details >}}")
    assert (e.line, e.col) == (1, 31)
    assert '"details"' in e.message and "{{< /details >}} first" in e.message


def test_closing_tag_that_matches_nothing_open():
    e = error("{{< inner >}}a\n{{< /details >}}")
    assert (e.line, e.col) == (2, 1)
    assert 'open shortcode "inner"' in e.message


def test_closing_tag_with_no_open_one():
    e = error("text {{< /inner >}}")
    assert (e.line, e.col) == (1, 6)
    assert "no opening {{< inner >}}" in e.message


def test_closing_tag_for_a_shortcode_without_inner():
    e = error("{{< plain >}}x{{< /plain >}}")
    assert (e.line, e.col) == (1, 15)
    assert "does not use .Inner" in e.message and "remove {{< /plain >}}" in e.message


def test_closing_tag_for_an_unknown_shortcode():
    assert 'unknown shortcode "zz"' in error("{{< /zz >}}").message


def test_self_closing_a_shortcode_without_inner():
    e = error("a {{< plain />}}")
    assert (e.line, e.col) == (1, 3)
    assert "cannot be self-closed" in e.message


def test_closing_tag_with_params():
    e = error("{{< inner >}}a{{< /inner x >}}")
    assert (e.line, e.col) == (1, 26)
    assert "write {{< /inner >}}" in e.message


def test_closing_tag_without_a_name():
    e = error("{{< inner >}}{{< / >}}")
    assert (e.line, e.col) == (1, 20)
    assert "expected a shortcode name after {{< /" in e.message


def test_unterminated_quote():
    e = error('{{< plain a="x >}}\nmore')
    assert (e.line, e.col) == (1, 13)
    assert "unterminated quoted string" in e.message


def test_quoted_value_cannot_span_lines():
    e = error('{{< plain\n a="line1\nline2" >}}')
    assert (e.line, e.col) == (2, 4)
    assert "`...`" in e.message


def test_double_backslash_is_no_escape():
    e = error(r'{{< plain a="n\\" >}}')
    assert (e.line, e.col) == (1, 13)


def test_unterminated_raw_string():
    e = error("{{< plain `abc >}}")
    assert (e.line, e.col) == (1, 11)
    assert "unterminated raw string" in e.message


def test_equals_without_value():
    e = error("{{< plain a= >}}")
    assert (e.line, e.col) == (1, 14)
    assert 'parameter "a"' in e.message and "has no value" in e.message


def test_equals_without_name():
    e = error("{{< plain =1 >}}")
    assert (e.line, e.col) == (1, 11)


@pytest.mark.parametrize(
    "text, col", [('{{< plain a="x" 1 >}}', 17), ('{{< plain 1 a="x" >}}', 13)]
)
def test_mixing_named_and_positional(text, col):
    e = error(text)
    assert (e.line, e.col) == (1, col)
    assert "mixes named and positional" in e.message


@pytest.mark.parametrize(
    "text, col",
    [
        ("{{< plain https://x >}}", 16),
        ('{{< plain a="1"\u3000b="2" >}}', 16),  # a full-width space is no separator
        ("{{< plain -5 .5 >}}", 14),
        ('{{% plain a="1" >}}', 17),  # ">}}" cannot close "{{%"
    ],
)
def test_garbage_in_a_tag(text, col):
    e = error(text)
    assert (e.line, e.col) == (1, col)
    assert "unexpected" in e.message


def test_slash_that_does_not_self_close():
    e = error("{{< plain 2025/11/07 >}}")
    assert (e.line, e.col) == (1, 15)
    assert "/>}}" in e.message


def test_unquoted_value_running_into_the_closing_delimiter():
    e = error("{{< plain a=2>}} after")
    assert (e.line, e.col) == (1, 13)
    assert "put a space before >}}" in e.message


@pytest.mark.parametrize("text", ["{{< plain", '{{< plain a="1"\n', "{{<", "{{% /inner"])
def test_unterminated_tag(text):
    e = error("ok\n" + text)
    assert (e.line, e.col) == (2, 1)
    assert "unterminated" in e.message


def test_shortcode_without_a_name():
    e = error("x {{< >}}")
    assert (e.line, e.col) == (1, 3)
    assert "has no name" in e.message


@pytest.mark.parametrize("text", ['{{< "x" >}}', "{{< -x >}}"])
def test_name_must_start_alphanumeric(text):
    e = error(text)
    assert (e.line, e.col) == (1, 5)


def test_period_in_name():
    e = error("{{< plain.x >}}")
    assert (e.line, e.col) == (1, 10)


def test_backtick_escape():
    e = error('{{< plain a="x\\`y" >}}')
    assert (e.line, e.col) == (1, 15)


@pytest.mark.parametrize("text", ["{{</* x", "{{</* x */%}}", "{{</*/>}}"])
def test_unterminated_comment(text):
    e = error("a\n" + text)
    assert (e.line, e.col) == (2, 1)
    assert "unterminated shortcode comment" in e.message


def test_comment_with_space_before_the_star_hints_at_the_right_form():
    e = error("{{< /* x */ >}}")
    assert (e.line, e.col) == (1, 6)
    assert "{{</* name */>}}" in e.message


def test_errors_include_line_offset_and_path():
    e = error("\n\n{{< nope >}}", line_offset=4)
    assert (e.path, e.line, e.col) == ("p.md", 7, 1)


# -- properties

FRAGMENTS = [
    "{{<", "{{%", ">}}", "%}}", "{{", "}}", "/", "/*", "*/", '"', "`", "\\", "=", " ", "\n",
    "\t", "plain", "inner", "details", "nope", "a/b", "x", "1", "-2", ".5", "true", "a=",
    '"v"', "日本", "”", "\u3000", "<", ">", "%", ".", "-", ".inline ",
]  # fmt: skip

fragment_text = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=3)), max_size=30
).map("".join)


def source_of(nodes: list, text: str) -> str:
    return "".join(n if isinstance(n, str) else text[n.offset : n.end] for n in nodes)


def check_covering(nodes: list, text: str, outer: str) -> None:
    """Text and calls, read back from the source, rebuild ``outer`` exactly."""
    assert source_of(nodes, text) == outer
    for a, b in zip(nodes, nodes[1:], strict=False):
        assert not (isinstance(a, str) and isinstance(b, str)), "adjacent texts not merged"
    for n in nodes:
        if isinstance(n, Shortcode) and n.inner is not None:
            check_covering(n.inner, text, n.inner_source)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fragment_text)
def test_any_text_raises_only_source_errors_pointing_inside_it(text):
    try:
        nodes = parse(text)
    except SourceError as e:
        lines = text.split("\n")
        assert 1 <= e.line <= len(lines)
        assert 1 <= e.col <= len(lines[e.line - 1]) + 1
        return
    if "/*" not in text:  # comments are the only nodes that differ from their source
        check_covering(nodes, text, text)


@settings(max_examples=200, deadline=None)
@given(st.text().filter(lambda t: "{{" not in t))
def test_text_without_braces_is_returned_as_is(text):
    assert parse(text) == ([text] if text else [])


# Well-formed calls built from typed values, and what parsing must give back.
names = st.sampled_from(["plain", "inner", "details", "a/b"])
keys = st.from_regex(r"[A-Za-z_][\w.-]{0,8}", fullmatch=True).filter(lambda k: "\n" not in k)
space = st.sampled_from([" ", "  ", "\n", "\t", " \n "])


def quoted(s: str) -> str | None:
    if not re.search(r'["\\\n]', s):
        return f'"{s}"'
    if "`" not in s:
        return f"`{s}`"
    if "\\" not in s and "\n" not in s:
        return '"' + s.replace('"', '\\"') + '"'
    return None


strings = st.text(st.characters(codec="utf-8", exclude_characters="\r"), max_size=20).filter(
    lambda s: quoted(s) is not None
)
bare = st.one_of(
    st.integers(-(2**63), 2**63 - 1).map(lambda n: (str(n), n)),
    st.booleans().map(lambda b: (str(b).lower(), b)),
    st.from_regex(r"-?[0-9]{1,4}\.[0-9]{1,4}", fullmatch=True).map(lambda s: (s, float(s))),
    st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True)
    .filter(lambda s: s not in ("true", "false"))
    .map(lambda s: (s, s)),
)
values = st.one_of(strings.map(lambda s: (quoted(s), s)), bare)  # (source, parsed)


@st.composite
def calls(draw):
    name = draw(names)
    markdown = draw(st.booleans())
    left, right = ("{{%", "%}}") if markdown else ("{{<", ">}}")
    if draw(st.booleans()):
        pairs = draw(st.dictionaries(keys, values, max_size=4))
        args = "".join(f"{draw(space)}{k}={src}" for k, (src, _) in pairs.items())
        params = {k: v for k, (_, v) in pairs.items()} or []  # no arguments: a list
    else:
        items = draw(st.lists(values, max_size=4))
        args = "".join(f"{draw(space)}{src}" for src, _ in items)
        params = [v for _, v in items]
    pad = draw(st.sampled_from(["", " ", "\n"]))
    text = f"{left}{pad}{name}{args}{draw(space)}{right}"
    if TEMPLATES[name]:
        text += f"inner{left} /{name} {right}"
    return text, name, params, markdown


@settings(max_examples=300, deadline=None)
@given(calls(), st.text(max_size=5).filter(lambda t: "{" not in t))
def test_well_formed_calls_round_trip(call, before):
    text, name, params, markdown = call
    nodes = parse(before + text)
    sc = nodes[-1]
    assert (sc.name, sc.params, sc.markdown) == (name, params, markdown)
    assert sc.offset == len(before) and sc.end == len(before + text)
    if TEMPLATES[name]:
        assert sc.inner == ["inner"]


# A run of calls in the common form, with any number of parameters, keys repeated too.
_RUN_KEYS = st.sampled_from(["body", "userName", "createdAt", "color", "a", "b-c", "d.e"])
_RUN_VALUES = st.sampled_from(["", "x", "コメント<br>二行目", "a b", "{{<plain>}}", "'q'", "é"])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(st.tuples(_RUN_KEYS, _RUN_VALUES), max_size=7), min_size=2, max_size=6),
    st.lists(st.sampled_from(["", "\n", "\n\n", " ", "\t"]), min_size=6, max_size=6),
)
def test_a_run_of_calls_has_the_parameters_of_each_call(calls_params, gaps):
    text = "".join(
        gap + "{{<plain" + "".join(f' {k}="{v}"' for k, v in pairs) + ">}}"
        for gap, pairs in zip(gaps, calls_params, strict=False)
    )
    one_by_one = [n.params for n in parse(text) if isinstance(n, Shortcode)]
    nodes = parse_shortcodes(text, "p.md", TEMPLATES.get, 0, runs=True)
    runs = [n for n in nodes if isinstance(n, ShortcodeRun)]
    assert len(runs) == 1
    assert [params for params, *_ in runs[0].calls] == one_by_one
    assert one_by_one == [dict(pairs) or [] for pairs in calls_params]
