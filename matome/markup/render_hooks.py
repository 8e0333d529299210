"""A site's render hook templates: ``templates/_markup/render-link.html``,
``render-image.html``, ``render-heading.html``, ``render-codeblock.html``,
``render-codeblock-LANG.html``, ``render-blockquote.html``, ``render-table.html``,
``render-passthrough.html``, ``render-passthrough-block.html`` and
``render-passthrough-inline.html``, as Hugo's ``layouts/_markup/``.

Each template gets Hugo's context in snake_case (see ``markdown/hooks.py``: the link's
``destination``, ``title``, ``text`` as HTML, ``plain_text``; an image's ``ordinal``,
``is_block`` and ``attributes``; a heading's ``level``, ``anchor`` and ``attributes``;
a code block's ``type``, ``inner``, ``options``, ``attributes`` and ``ordinal``; a block
quote's ``type`` ("regular" or "alert"), ``alert_type``, ``alert_title`` (HTML),
``alert_sign``, ``text``, ``attributes`` and ``ordinal``; a table's ``thead`` and
``tbody`` (rows of cells, each with ``alignment`` and ``text`` as HTML), ``attributes``
and ``ordinal``; a passthrough's ``type`` ("block" or "inline"), ``inner`` (without its
delimiters), ``attributes`` and ``ordinal``) plus ``page``, ``page_inner`` (the same
page: matome has no ``RenderShortcodes``) and ``site``. What it writes replaces the
element.

Where the site has no link or image hook of its own, Hugo's embedded ones may write them
(``embedded_hooks.py``): ``page_hooks`` takes those the site's settings use.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import jinja2
from markupsafe import Markup

from ..render.environment import template_error
from .embedded_hooks import EmbeddedHook, embedded_hooks
from .markdown.hooks import RenderHooks, TableCell

_HOOK_NAME = re.compile(
    r"_markup/render-(link|image|heading|blockquote|table|passthrough(?:-block|-inline)?"
    r"|codeblock(?:-[^/]+)?)\.html"
)


def hook_templates(env: jinja2.Environment) -> dict[str, str]:
    """The hook templates the site (or its theme) has: kind ("link", "codeblock-mermaid",
    ...) -> template name."""
    found = {}
    for names in env.matome_template_names:
        for name in names:
            m = _HOOK_NAME.fullmatch(name)
            if m:
                found[m.group(1)] = name
    return found


def site_embedded_hooks(env: jinja2.Environment, settings: Any) -> dict[str, EmbeddedHook]:
    """Hugo's embedded link and image hooks, those the Markdown ``settings`` use (none on
    a site without ``[languages]`` unless it asks); ``resources.get`` of ``env`` finds
    assets."""
    return embedded_hooks(
        settings.embedded_link_hook,
        settings.embedded_image_hook,
        lambda path: env.globals["resources"].get(path),
    )


def _html_cell(cell: TableCell) -> TableCell:
    return replace(cell, text=Markup(cell.text))


def render_template(template: jinja2.Template, **variables: Any) -> str:
    """A hook written by a plain ``template.render`` (``page_hooks``' ``render``)."""
    return template.render(**variables)


def page_hooks(
    env: jinja2.Environment,
    names: dict[str, str],
    variables: dict[str, Any],
    render: Callable[..., str],
    embedded: Mapping[str, EmbeddedHook] | None = None,
) -> RenderHooks:
    """The hooks of one page: ``render(template, **context)`` writes each with the
    element's context and ``variables`` (the page and site); a kind the site has no
    template for is written by the ``embedded`` hook of that kind."""
    embedded = embedded or {}

    def call(kind: str, context: dict[str, Any]) -> str:
        name = names.get(kind)
        if name is None:
            return embedded[kind](context, variables)
        for key in ("text", "alert_title"):
            if key in context:
                context[key] = Markup(context[key])
        for key in ("thead", "tbody"):
            if key in context:
                context[key] = [[_html_cell(cell) for cell in row] for row in context[key]]
        try:
            template = env.get_template(name)  # logs its use, as shortcodes do
            return render(template, **variables, **context)
        except jinja2.TemplateError as e:
            raise template_error(e, name) from None

    embedded_kinds = frozenset(embedded) - frozenset(names)
    return RenderHooks(frozenset(names) | embedded_kinds, call, embedded_kinds)
