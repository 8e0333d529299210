"""The theme's comment card in Python: a matome article calls it once per comment.

``templates/shortcodes/matomeQuote.html`` through Jinja costs a call object, a context,
four ``shortcode.get`` calls and the filters for each card: a good part of a cold build
of a matome blog, which has thousands of them. ``matome_quote`` writes the same bytes from the call's parameters.

It stands in for the template only while the template is the theme's own file with the
bytes it was written for (``TEMPLATE_SHA256``): a site's own ``matomeQuote.html``, or an
edit of the theme's, goes through Jinja as before. ``tests/test_native_shortcodes.py``
compares the two on every kind of parameter, and fails when the digest is stale.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Callable
from typing import Any

import jinja2

from ..render.environment import theme_dir
from ..render.go_values import finalize
from ..render.jinja_internals import output_escape

TEMPLATE = "shortcodes/matomeQuote.html"
TEMPLATE_SHA256 = "d45263e147491c02d1abf588880ef730858f78b9615f1ded753b61b031858bec"


def matome_quote(
    params: Any, css_color: Callable, comment_time: Callable, body_html: Callable
) -> str:
    """What the theme's ``matomeQuote.html`` renders for these parameters, with these filters."""
    get = params.get if isinstance(params, dict) else _no_named
    color = css_color(get("color"))
    style = f' data-color style="--comment-color: {output_escape(color)}"' if color else ""
    time = comment_time(get("createdAt"))
    if time.iso:  # digits and separators only: nothing to escape
        date = f' <time class="comment-date" datetime="{time.iso}">{time.text}</time>'
    elif time.text:
        date = f' <span class="comment-date">{output_escape(time.text)}</span>'
    else:
        date = ""
    user = get("userName")
    # As ``{{ }}`` prints it (go_values.finalize): a bool as ``true``, none as nothing.
    user = output_escape(user if type(user) is str else finalize(user))
    body = output_escape(body_html(get("body", "")))
    return (
        f'<article class="comment"{style}>\n'
        f'  <header class="comment-meta"><span class="comment-user">{user}</span>'
        f'{date}</header>\n  <div class="comment-body">{body}</div>\n'
        "</article>\n"
    )


def _no_named(key: str, default: Any = None) -> Any:
    return default  # positional parameters: every .Get by name is the default


def native_renderer(env: jinja2.Environment, name: str) -> Callable[[Any], str] | None:
    """``params -> html`` for shortcode ``name`` when the theme's own template renders it."""
    if f"shortcodes/{name}.html" != TEMPLATE:
        return None
    try:
        source, filename, _ = env.loader.get_source(env, TEMPLATE)
    except jinja2.TemplateNotFound:
        return None
    own = (theme_dir() / "templates" / TEMPLATE).resolve()
    if filename is None or os.path.realpath(filename) != str(own):
        return None
    if hashlib.sha256(source.encode()).hexdigest() != TEMPLATE_SHA256:
        return None
    filters = env.filters
    return functools.partial(
        matome_quote,
        css_color=filters["css_color"],
        comment_time=filters["comment_time"],
        body_html=filters["comment_html"],
    )
