"""The internals of other libraries matome relies on still have the shape it needs.

matome/markup/markdown/library_internals.py gathers every import of a markdown-it-py or
mdit-py-plugins internal, and matome/render/jinja_internals.py every use of a
Jinja internal; the Markdown package relies on a few more internal behaviours (rule
names, token types, ``meta`` keys, parser state attributes). An upgrade that changes one
of them fails here with the library, its version and the internal named, rather than as a
wrong byte somewhere in the Hugo comparisons. ``pyproject.toml`` bounds these libraries to
the versions this file was checked with.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from importlib.metadata import version

import jinja2
import jinja2.compiler
import jinja2.runtime
import jinja2.utils
import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin

from matome.render.environment import make_environment
from matome.render.jinja_internals import on_template_load, render_in_context

WHERE = "matome/markup/markdown/library_internals.py"


def require(ok: bool, library: str, internal: str, need: str) -> None:
    assert ok, f"{library} {version(library)}: {internal} changed; {WHERE} needs {need}"


def internal(library: str, module: str, name: str):
    """``module.name``, or a failure naming the library and the internal."""
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as error:
        pytest.fail(f"{library} {version(library)}: {module}.{name} is gone ({error}); {WHERE}")


def parameters(function) -> list[str]:
    return list(inspect.signature(function).parameters)


def test_the_package_imports_its_internals():
    module = importlib.import_module("matome.markup.markdown.library_internals")
    for name in module.__all__:
        assert getattr(module, name) is not None, name


# --- markdown-it-py ---------------------------------------------------------------------------


def test_escape_html_escapes_what_goldmark_escapes():
    escape = internal("markdown-it-py", "markdown_it.common.utils", "escapeHtml")
    require(
        escape('<a href="x">&\'</a>') == "&lt;a href=&quot;x&quot;&gt;&amp;'&lt;/a&gt;",
        "markdown-it-py",
        "common.utils.escapeHtml",
        "& < > \" escaped and ' left alone",
    )


def test_trim_chars_are_what_markdown_it_trims_from_blocks():
    trim = internal("markdown-it-py", "markdown_it.common.utils", "MD_TRIM_CHARS")
    require(
        isinstance(trim, str) and {" ", "\t", "\u3000", "\xa0"} <= set(trim),
        "markdown-it-py",
        "common.utils.MD_TRIM_CHARS",
        "a str of the whitespace markdown-it trims, Unicode spaces included",
    )
    # The block trimming fix-up relies on markdown-it stripping those from a paragraph.
    tokens = MarkdownIt("commonmark").parse("\u3000text")
    require(
        tokens[1].content == "text",
        "markdown-it-py",
        "paragraph trimming",
        "paragraphs trimmed of MD_TRIM_CHARS",
    )


def test_html_sequences_are_the_seven_block_kinds_in_order():
    sequences = internal("markdown-it-py", "markdown_it.rules_block.html_block", "HTML_SEQUENCES")
    shaped = isinstance(sequences, list) and len(sequences) == 7
    shaped = shaped and all(
        len(entry) == 3 and hasattr(entry[0], "search") and hasattr(entry[1], "search")
        for entry in sequences
    )
    require(shaped, "markdown-it-py", "html_block.HTML_SEQUENCES", "7 (start, end, bool) tuples")
    # rawhtml.py takes the first five as the kinds with a closing sequence and the last as
    # "a lone tag" (kind 7).
    # markdown-it takes the first sequence whose start matches, so each kind's opening must
    # find its own sequence first.
    openings = ["<script>", "<!--", "<?php", "<!DOCTYPE", "<![CDATA[", "<div>", "<custom>"]
    closings = ["</script>", "-->", "?>", ">", "]]>"]
    for kind, opening in enumerate(openings):
        found = next(
            (i for i, (start, _, _) in enumerate(sequences) if start.search(opening)), None
        )
        closes = kind >= 5 or sequences[kind][1].search(closings[kind]) is not None
        require(
            found == kind and closes,
            "markdown-it-py",
            f"html_block.HTML_SEQUENCES[{kind}]",
            f"CommonMark's HTML block kind {kind + 1} ({opening}) there",
        )


def test_delimiter_takes_the_fields_strikethrough_sets():
    delimiter = internal("markdown-it-py", "markdown_it.rules_inline.state_inline", "Delimiter")
    fields = {f.name for f in dataclasses.fields(delimiter)}
    require(
        {"marker", "length", "token", "end", "open", "close"} <= fields,
        "markdown-it-py",
        "state_inline.Delimiter",
        "a dataclass with marker, length, token, end, open and close",
    )
    made = delimiter(marker=0x7E, length=1, token=0, end=-1, open=True, close=False)
    require(made.end == -1, "markdown-it-py", "state_inline.Delimiter()", "keyword construction")


def test_inline_state_has_what_the_inline_rules_use():
    state_inline = internal(
        "markdown-it-py", "markdown_it.rules_inline.state_inline", "StateInline"
    )
    md = MarkdownIt("commonmark")
    state = state_inline("~~a~~ b", md, {}, [])
    for name in ("src", "env", "md", "tokens", "tokens_meta", "pos", "posMax", "delimiters"):
        require(hasattr(state, name), "markdown-it-py", f"StateInline.{name}", "the attribute")
    require(state.linkLevel == 0, "markdown-it-py", "StateInline.linkLevel", "an int, 0 at start")
    state.append_pending("a")
    state.append_pending("b")
    require(state.pending == "ab", "markdown-it-py", "StateInline.append_pending", "pending += it")
    state.pending = "c"
    require(state.pending == "c", "markdown-it-py", "StateInline.pending", "a settable str")
    token = state.push("em_open", "em", 1)
    require(
        len(state.tokens) == 2 and state.tokens[0].content == "c" and state.tokens[1] is token,
        "markdown-it-py",
        "StateInline.push",
        "pending text flushed into a text token before the new token",
    )
    scanned = state.scanDelims(0, True)
    require(
        (scanned.length, scanned.can_open, scanned.can_close) == (2, True, False),
        "markdown-it-py",
        "StateInline.scanDelims",
        "length, can_open and can_close of a delimiter run",
    )


def test_block_state_has_what_the_block_rules_use():
    state_block = internal("markdown-it-py", "markdown_it.rules_block", "StateBlock")
    state = state_block("a\n\n    b\n", MarkdownIt("commonmark"), {}, [])
    for name in ("bMarks", "eMarks", "tShift", "sCount", "blkIndent", "line", "tokens", "src"):
        require(hasattr(state, name), "markdown-it-py", f"StateBlock.{name}", "the attribute")
    require(
        state.isEmpty(1) and not state.isEmpty(0),
        "markdown-it-py",
        "StateBlock.isEmpty",
        "isEmpty(line)",
    )
    require(
        parameters(state.getLines) == ["begin", "end", "indent", "keepLastLF"]
        and state.getLines(2, 3, 4, False) == "b",
        "markdown-it-py",
        "StateBlock.getLines",
        "getLines(begin, end, indent, keepLastLF)",
    )


def test_token_takes_the_fields_the_block_fix_ups_set():
    token_class = internal("markdown-it-py", "markdown_it.token", "Token")
    token = token_class(
        "hr", "hr", 0, map=[0, 1], level=1, markup="---", block=True, hidden=False, content="x"
    )
    for name in ("type", "tag", "nesting", "map", "level", "markup", "block", "hidden"):
        require(hasattr(token, name), "markdown-it-py", f"Token.{name}", "the field")
    for name in ("children", "meta", "info", "attrs", "content"):
        require(hasattr(token, name), "markdown-it-py", f"Token.{name}", "the field")
    token.attrs = {"href": "x"}
    require(token.attrGet("href") == "x", "markdown-it-py", "Token.attrGet", "attrs as a dict")


def test_rulers_hold_the_rules_the_parser_wraps():
    from matome.markup.markdown.library_internals import ruler_rules

    md = MarkdownIt("commonmark")
    wanted = {
        "block": (md.block.ruler, ["paragraph", "heading", "lheading", "html_block", "reference"]),
        "inline": (
            md.inline.ruler,
            ["text", "newline", "escape", "link", "html_inline", "emphasis"],
        ),
        "inline2": (md.inline.ruler2, ["emphasis"]),
        "core": (md.core.ruler, ["block", "inline"]),
    }
    for chain, (ruler, names) in wanted.items():
        try:
            rules = {rule.name: rule for rule in ruler_rules(ruler)}
        except AttributeError as error:
            pytest.fail(f"markdown-it-py {version('markdown-it-py')}: Ruler.__rules__ ({error})")
        for name in names:
            rule = rules.get(name)
            require(
                rule is not None and callable(rule.fn) and isinstance(rule.alt, list),
                "markdown-it-py",
                f"the {chain} rule {name!r} in Ruler.__rules__",
                "a Rule with name, fn and alt",
            )
    block = {rule.name: rule.fn for rule in ruler_rules(md.block.ruler)}
    inline = {rule.name: rule.fn for rule in ruler_rules(md.inline.ruler)}
    for name in ("paragraph", "heading", "lheading", "html_block", "reference"):
        require(
            len(parameters(block[name])) == 4,
            "markdown-it-py",
            f"block rule {name!r}",
            "fn(state, startLine, endLine, silent)",
        )
    for name in ("escape", "html_inline"):
        require(
            len(parameters(inline[name])) == 2,
            "markdown-it-py",
            f"inline rule {name!r}",
            "fn(state, silent)",
        )


def test_escapes_are_text_special_tokens_while_inline_rules_run():
    md = MarkdownIt("commonmark")
    md.core.ruler.disable("text_join")
    children = md.parseInline("\\*")[0].children
    require(
        [token.type for token in children] == ["text_special"],
        "markdown-it-py",
        "the escape rule's token type",
        "'text_special' (linkify starts after other inline nodes, not after escapes)",
    )


def test_inline_parse_and_render_inline_signatures():
    md = MarkdownIt("commonmark")
    children: list = []
    md.inline.parse("*a*", md, {}, children)
    require(
        [token.type for token in children] == ["em_open", "text", "em_close"],
        "markdown-it-py",
        "ParserInline.parse(src, md, env, tokens)",
        "the tokens appended to the list passed",
    )
    html = md.renderer.renderInline(children, md.options, {})
    require(html == "<em>a</em>", "markdown-it-py", "renderInline", "(tokens, options, env)")


# --- mdit-py-plugins --------------------------------------------------------------------------


def test_footnote_tokens_carry_the_ids_and_labels_the_renderer_reads():
    from matome.markup.markdown.library_internals import ruler_rules

    require(
        "inline" in parameters(footnote_plugin),
        "mdit-py-plugins",
        "footnote_plugin(md, inline=...)",
        "the inline keyword",
    )
    md = MarkdownIt("commonmark")
    footnote_plugin(md, inline=False)
    names = [rule.name for rule in ruler_rules(md.inline.ruler)]
    require("footnote_ref" in names, "mdit-py-plugins", "the 'footnote_ref' rule", "its name")
    tokens = md.parse("a[^x] b[^x]\n\n[^x]: note\n")
    children = tokens[1].children
    refs = [token.meta for token in children if token.type == "footnote_ref"]
    require(
        [(meta["id"], meta["subId"]) for meta in refs] == [(0, 0), (0, 1)],
        "mdit-py-plugins",
        "footnote_ref meta",
        "id and subId",
    )
    by_type = {token.type: token for token in tokens}
    for kind, keys in (("footnote_open", {"id"}), ("footnote_anchor", {"id", "subId"})):
        require(
            kind in by_type and keys <= set(by_type[kind].meta),
            "mdit-py-plugins",
            f"the {kind} token's meta",
            ", ".join(sorted(keys)),
        )
    for kind in ("footnote_block_open", "footnote_block_close", "footnote_close"):
        require(kind in by_type, "mdit-py-plugins", f"the {kind} token", "that token type")


def test_footnote_definitions_are_tokens_right_after_block_parsing():
    # The first-definition fix-up runs as a core rule right after "block", before the
    # plugin gathers the definitions into the footnote block.
    md = MarkdownIt("commonmark")
    footnote_plugin(md, inline=False)
    seen: list = []
    md.core.ruler.after("block", "record", lambda state: seen.extend(state.tokens))
    md.parse("a[^x]\n\n[^x]: one\n\n[^x]: two\n")
    opens = [token for token in seen if token.type == "footnote_reference_open"]
    closes = [token for token in seen if token.type == "footnote_reference_close"]
    require(
        [token.meta.get("label") for token in opens] == ["x", "x"]
        and [token.level for token in closes] == [token.level for token in opens],
        "mdit-py-plugins",
        "footnote_reference_open/close tokens",
        "one open (meta label) and close pair at one level per definition",
    )


def test_deflist_tokens_are_the_ones_the_fix_ups_rewrite():
    md = MarkdownIt("commonmark")
    deflist_plugin(md)
    tokens = md.parse("term\n: definition\n")
    types = [token.type for token in tokens]
    require(
        types[:3] == ["dl_open", "dt_open", "inline"] and "dd_open" in types,
        "mdit-py-plugins",
        "deflist tokens",
        "dl_open, dt_open, dd_open",
    )
    dd = tokens[types.index("dd_open")]
    require(dd.map is not None, "mdit-py-plugins", "dd_open.map", "the definition's lines")


# --- Jinja ---------------------------------------------------------------------------------


def jinja_parameters(func) -> list[str]:
    return list(inspect.signature(func).parameters)


JINJA_INTERNALS = [
    # (what matome uses, a check that it is still what matome expects)
    ("Context.call", lambda: callable(jinja2.runtime.Context.call)),
    (
        "Context(environment, parent, name, blocks, globals=)",
        lambda: (
            jinja_parameters(jinja2.runtime.Context.__init__)[:6]
            == ["self", "environment", "parent", "name", "blocks", "globals"]
        ),
    ),
    ("Context.globals_keys", lambda: "globals_keys" in inspect.getsource(jinja2.runtime.Context)),
    (
        "Template._get_default_module(ctx)",
        lambda: jinja_parameters(jinja2.Template._get_default_module) == ["self", "ctx"],
    ),
    (
        "Template._from_namespace(environment, namespace, globals)",
        lambda: (
            jinja_parameters(jinja2.Template._from_namespace)
            == ["environment", "namespace", "globals"]
        ),
    ),
    (
        "Template.new_context(vars, shared, locals)",
        lambda: (
            jinja_parameters(jinja2.Template.new_context) == ["self", "vars", "shared", "locals"]
        ),
    ),
    ("Template._module", lambda: "_module" in inspect.getsource(jinja2.Template)),
    (
        "Environment._load_template(name, globals)",
        lambda: jinja_parameters(jinja2.Environment._load_template) == ["self", "name", "globals"],
    ),
    ("jinja2.utils.missing", lambda: repr(jinja2.utils.missing) == "missing"),
    (
        "CodeGenerator._output_child_to_const(node, frame, finalize)",
        lambda: (
            jinja_parameters(jinja2.compiler.CodeGenerator._output_child_to_const)
            == ["self", "node", "frame", "finalize"]
        ),
    ),
    (
        "Macro.__call__ marked pass_eval_context",
        lambda: (
            getattr(jinja2.runtime.Macro.__call__, "jinja_pass_arg", None)
            is getattr(jinja2.pass_eval_context(lambda: None), "jinja_pass_arg", False)
        ),
    ),
]


@pytest.mark.parametrize(("name", "check"), JINJA_INTERNALS, ids=[n for n, _ in JINJA_INTERNALS])
def test_jinja_internals_matome_uses_are_there(name, check):
    assert check(), (
        f"jinja2 {jinja2.__version__}: {name} is not what matome/render/jinja_internals.py expects"
    )


def test_the_quicker_classes_render_what_plain_jinja_renders(tmp_path):
    """Imports, includes, macros, blocks and globals through matome's context and template
    classes give the bytes plain Jinja gives."""
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "macros.html").write_text("{% macro card(x) %}<b>{{ x }}</b>{% endmacro %}")
    (folder / "base.html").write_text("<main>{% block main %}{% endblock %}</main>{{ g }}")
    (folder / "part.html").write_text("[{{ item }}|{{ g }}]")
    (folder / "page.html").write_text(
        "{% extends 'base.html' %}{% import 'macros.html' as m %}{% block main %}"
        "{% for item in items %}{{ m.card(item) }}{% include 'part.html' %}{% endfor %}"
        "{{ '<&>' }}{% endblock %}"
    )
    ours = make_environment(tmp_path)
    plain = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        autoescape=True,
        keep_trailing_newline=True,
        undefined=jinja2.ChainableUndefined,
    )
    for env in (ours, plain):
        env.globals["g"] = "G"
    variables = {"items": ["a", "<b>"]}
    expected = plain.get_template("page.html").render(variables)
    assert ours.get_template("page.html").render(variables) == expected
    template = ours.get_template("page.html")
    assert (
        render_in_context(template, {**template.globals, **variables}, dict(template.globals))
        == expected
    )


def test_template_loads_are_seen(tmp_path):
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "a.html").write_text("{% include 'b.html' %}")
    (folder / "b.html").write_text("b")
    env = make_environment(tmp_path)
    seen = []
    on_template_load(env, seen.append)
    assert env.get_template("a.html").render() == "b"
    assert seen == ["a.html", "b.html"], "jinja2: Environment._load_template is no longer called"
