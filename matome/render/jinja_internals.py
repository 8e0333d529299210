"""Every use of Jinja's internals, in one place: the quicker context and template classes
the environment uses, the autoescape hook, and the hooks the read log and the shortcode
expander need.

Jinja's public API cannot do these: the code generator's ``_output_child_to_const`` is
overridden; ``Context.call``, ``Template.new_context``,
``_get_default_module`` and ``_from_namespace`` are overridden, ``root_render_func``
and ``Environment._load_template`` are called or wrapped. They are known to hold for the
Jinja versions ``pyproject.toml`` allows; ``tests/test_library_internals.py`` fails with
the name of the internal when an upgrade changes one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import BuiltinFunctionType, FunctionType, MethodType
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.runtime import Context, Macro
from jinja2.utils import missing
from markupsafe import Markup, escape


class QuickCallContext(Context):
    """Jinja's context with a shorter ``call`` for what templates call most.

    ``Context.call`` asks every callable, on every call, whether it wants the context or
    the environment passed in (``hasattr`` checks that fail), a good part of a matome
    comment card's time. Here the answer is known for built-in methods (no attribute
    can be set on them), marked on each Python function, and known for macros."""

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (Jinja's names)
        kind = type(__obj)
        if kind is Macro and _MACRO_TAKES_EVAL_CONTEXT:
            __obj, args = __obj.__call__, (__self.eval_ctx, *args)
        elif kind is FunctionType or kind is MethodType:
            marks = getattr(__obj.__func__ if kind is MethodType else __obj, "__dict__", None)
            if marks is None or _TAKES_NOTHING not in marks:
                if marks is None or hasattr(__obj, "jinja_pass_arg"):
                    return super().call(__obj, *args, **kwargs)
                marks[_TAKES_NOTHING] = True
        elif kind is not BuiltinFunctionType:
            return super().call(__obj, *args, **kwargs)
        if kwargs:  # what Jinja adds inside loops and blocks, for callables that take the context
            kwargs.pop("_loop_vars", None)
            kwargs.pop("_block_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:  # as Jinja does
            return __self.environment.undefined(
                "value was undefined because a callable raised a StopIteration exception"
            )


class QuickImportTemplate(jinja2.Template):
    """Jinja's template, quicker to ``{% import %}`` (every page imports the theme's macros)
    and to start a render in.

    Jinja lists the names of a template's globals, a ``ChainMap`` of its own and the
    environment's, key by key in Python: for each context it makes (``set(globals)``)
    and before reusing an imported module (a set difference). The names
    are taken once here, and again only when a map has grown (globals are only ever
    added)."""

    def _global_names(self) -> frozenset[str]:
        own, common = self.globals.maps
        found = self.__dict__.get("_matome_global_names")
        if found is None or found[0] != len(own) or found[1] != len(common):
            found = self._matome_global_names = (len(own), len(common), frozenset(self.globals))
        return found[2]

    def _get_default_module(self, ctx: Context | None = None) -> Any:
        if (
            ctx is not None
            and self._module is not None
            and ctx.globals_keys <= self._global_names()
        ):
            return self._module
        return super()._get_default_module(ctx)

    @classmethod
    def _from_namespace(cls, environment: Any, namespace: Any, globals: Any) -> Any:
        # The compiled template finds ``escape`` in its namespace at each ``{{ }}``.
        namespace["escape"] = output_escape
        return super()._from_namespace(environment, namespace, globals)

    def new_context(
        self, vars: dict | None = None, shared: bool = False, locals: Any = None
    ) -> Context:
        """Jinja's (``jinja2.runtime.new_context``), with the globals copied dict to dict
        and their names taken once: for every file, partial and include rendered."""
        maps = getattr(self.globals, "maps", None)
        if maps is None or len(maps) != 2:
            return super().new_context(vars, shared, locals)
        if vars is None:
            vars = {}
        if shared:
            parent = dict(vars) if locals else vars
        else:
            own, common = maps  # the template's own globals win, as in the ChainMap
            parent = {**common, **own, **vars}
        if locals:
            for key, value in locals.items():
                if value is not missing:
                    parent[key] = value
        env = self.environment
        names = self._global_names()
        return env.context_class(env, parent, self.name, self.blocks, globals=names)


class FinalizeFirstCodeGenerator(CodeGenerator):
    """Jinja's compiler, with a constant that is no text (``{{ true }}``, ``{{ 1 == 1 }}``)
    printed at run time: at compile time Jinja escapes such a constant before the
    environment's ``finalize`` sees it, so ``finalize`` would get the text ``True``."""

    def _output_child_to_const(self, node: nodes.Expr, frame: Any, finalize: Any) -> str:
        if not isinstance(node, nodes.TemplateData) and not isinstance(
            node.as_const(frame.eval_ctx), str
        ):
            raise nodes.Impossible()
        return super()._output_child_to_const(node, frame, finalize)


def output_escape(value: Any) -> Any:
    """What a ``{{ }}`` writes when autoescaping: ``escape(value)``, whose result is joined
    into the page, without making a Markup of text that needs no escaping (the commonest
    output: a title, a URL, a date)."""
    kind = type(value)
    if kind is str:
        return value if _ESCAPED.search(value) is None else escape(value)
    return value if kind is Markup else escape(value)


_ESCAPED = re.compile("[&<>'\"]")


# Marks, on the function itself, one with none of Jinja's pass_* decorators. A set of them
# kept `matome serve`'s every site graph alive (each holds functions bound to its site).
_TAKES_NOTHING = "_matome_takes_nothing"
_MACRO_TAKES_EVAL_CONTEXT = getattr(Macro.__call__, "jinja_pass_arg", None) is getattr(
    jinja2.pass_eval_context(lambda: None), "jinja_pass_arg", False
)


def render_in_context(template: jinja2.Template, variables: dict, names: dict) -> str:
    """``template.render`` with a context made from ``variables`` and the template's
    globals already flattened into ``names``: Jinja's ``render`` copies and merges the
    globals' chain of mappings for each call, and a matome article makes hundreds."""
    env = template.environment
    context = env.context_class(env, variables, template.name, template.blocks, globals=names)
    try:
        return env.concat(template.root_render_func(context))
    except Exception:
        return env.handle_exception()


def on_template_load(env: jinja2.Environment, callback: Callable[[str], None]) -> None:
    """Call ``callback(name)`` for every template the environment loads (extends, include,
    import, ``get_template``): compiled templates go through ``_load_template``."""
    plain_load = env._load_template

    def load_template(name: str, globals: Any) -> jinja2.Template:
        callback(name)
        return plain_load(name, globals)

    env._load_template = load_template
