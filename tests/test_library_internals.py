"""The internals of other libraries matome relies on, each checked where it is used.

An upgrade that changes one fails here, naming the library and the internal, rather than
somewhere deep in a build. ``pyproject.toml`` bounds these libraries to the versions this
file was checked with; widen a bound only when this file passes with the new version.
"""

from __future__ import annotations

import inspect

import jinja2
import jinja2.runtime
import jinja2.utils
import pytest

from matome.render.environment import make_environment
from matome.render.jinja_internals import on_template_load, render_in_context


def _parameters(func) -> list[str]:
    return list(inspect.signature(func).parameters)


JINJA_INTERNALS = [
    # (what matome uses, a check that it is still what matome expects)
    ("Context.call", lambda: callable(jinja2.runtime.Context.call)),
    (
        "Context(environment, parent, name, blocks, globals=)",
        lambda: (
            _parameters(jinja2.runtime.Context.__init__)[:6]
            == ["self", "environment", "parent", "name", "blocks", "globals"]
        ),
    ),
    ("Context.globals_keys", lambda: "globals_keys" in inspect.getsource(jinja2.runtime.Context)),
    (
        "Template._get_default_module(ctx)",
        lambda: _parameters(jinja2.Template._get_default_module) == ["self", "ctx"],
    ),
    (
        "Template._from_namespace(environment, namespace, globals)",
        lambda: (
            _parameters(jinja2.Template._from_namespace)
            == ["environment", "namespace", "globals"]
        ),
    ),
    (
        "Template.new_context(vars, shared, locals)",
        lambda: _parameters(jinja2.Template.new_context) == ["self", "vars", "shared", "locals"],
    ),
    ("Template._module", lambda: "_module" in inspect.getsource(jinja2.Template)),
    (
        "Environment._load_template(name, globals)",
        lambda: _parameters(jinja2.Environment._load_template) == ["self", "name", "globals"],
    ),
    ("jinja2.utils.missing", lambda: repr(jinja2.utils.missing) == "missing"),
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


def test_rich_emoji_table_is_there():
    from rich import _emoji_codes

    assert isinstance(_emoji_codes.EMOJI, dict), "rich: _emoji_codes.EMOJI is gone"
    assert _emoji_codes.EMOJI.get("smile") == "😄", "rich: _emoji_codes.EMOJI changed its names"
