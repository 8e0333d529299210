"""Hugo's template functions that need the site: markdownify, ref, abs_url, partial, ...

Installed into the Jinja environment once the site graph exists. Names are
Hugo's in snake_case, as filters and as globals.
"""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import urlsplit

import jinja2
from markupsafe import Markup

from ..content.page import Page
from ..content.urls import urlize
from ..graph.site import Site
from ..images.thumbnails import thumbnail
from ..markup.expand import ShortcodeProblem, merge_placeholder_runs, render_markdown
from ..markup.markdown import MarkdownRenderer
from ..markup.sanitize import clean_html, css_color, escape_unknown_tags
from .emoji import emojify


def install_site_functions(env: jinja2.Environment, site: Site, markdown: MarkdownRenderer) -> None:
    base = site.config.base_url
    base_path = urlsplit(base).path or "/"

    def markdownify(text: Any) -> Markup:
        return Markup(markdown.markdownify(str(text if text is not None else "")))

    def abs_url(path: Any) -> str:
        text = str(path)
        if "://" in text or text.startswith("//"):
            return text
        return base.rstrip("/") + "/" + text.lstrip("/") if text.startswith("/") else base + text

    def rel_url(path: Any) -> str:
        text = str(path)
        if "://" in text or text.startswith("//"):
            return text
        return base_path.rstrip("/") + "/" + text.lstrip("/")

    def find(page: Page | None, target: Any) -> tuple[Page, str]:
        """Resolve a ``ref`` target: a content path, optionally with ``#anchor``."""
        text = str(target)
        path, _, anchor = text.partition("#")
        if not path:
            if page is None:
                raise ShortcodeProblem(f"ref {text!r}: no page to anchor to")
            return page, anchor
        found = site.get_page(path)
        if found is None and page is not None and page.file and not path.startswith("/"):
            found = site.get_page(page.file.dir + path)
        if found is None:
            raise ShortcodeProblem(f'REF_NOT_FOUND: ref "{text}": page not found')
        return found, anchor

    def ref(page: Page | None, target: Any) -> str:
        if str(target).startswith("#"):
            return str(target)  # an anchor on the same page stays as written, as in Hugo
        found, anchor = find(page, target)
        return found.permalink + (f"#{anchor}" if anchor else "")

    def relref(page: Page | None, target: Any) -> str:
        if str(target).startswith("#"):
            return str(target)
        found, anchor = find(page, target)
        return found.rel_permalink + (f"#{anchor}" if anchor else "")

    def partial(name: str, context: Any = None, **kwargs: Any) -> Markup:
        template = env.get_template(name if name.startswith("partials/") else f"partials/{name}")
        return Markup(template.render(page=context, context=context, site=site, **kwargs))

    def partial_cached(name: str, context: Any = None, *variants: Any, **kwargs: Any) -> Markup:
        """Hugo's ``partialCached``: rendered once per name and variants (not per context,
        as in Hugo) while a batch of outputs is written; a plain partial otherwise."""
        log = getattr(env, "read_log", None)
        if log is None or log.partials is None:
            return partial(name, context, **kwargs)
        key = (name, variants, tuple(sorted(kwargs.items())))
        found = log.partials.get(key)
        if found is None:
            log.partials[key] = log.capture(lambda: partial(name, context, **kwargs))
            return log.partials[key][0]
        log.replay(found[1], found[2])
        return found[0]

    def get_page(path: str) -> Page | None:
        return site.get_page(path)

    def raise_error(message: str) -> None:
        raise ShortcodeProblem(message)

    sanitize = bool((site.config.get("matome") or {}).get("sanitize", True))

    def comment_html(body: Any) -> Markup:
        """A comment body: Markdown like ``markdownify``, made safe unless sanitizing is off."""
        text = str(body if body is not None else "")
        if markdown.is_own_html(text):  # four in five: no mark, no tag but <br>, nothing to clean
            return Markup(text)
        if not sanitize:
            return markdownify(text)
        return Markup(clean_html(markdown.markdownify(escape_unknown_tags(text))))

    def render_string(text: Any) -> Markup:
        """Hugo's ``.Page.RenderString`` with ``display = block``."""
        return Markup(render_markdown(markdown, merge_placeholder_runs(str(text))).html)

    def highlight(code: Any, lang: str = "", options: str = "") -> Markup:
        return Markup(markdown.highlight(str(code), str(lang), str(options or "")))

    env.filters.update(
        comment_html=comment_html,
        render_string=render_string,
        css_color=css_color,
        markdownify=markdownify,
        abs_url=abs_url,
        rel_url=rel_url,
        urlize=urlize,
        emojify=lambda text: Markup(emojify(str(text))),
    )
    env.globals.update(
        site=site,
        markdownify=markdownify,
        abs_url=abs_url,
        rel_url=rel_url,
        urlize=urlize,
        ref=ref,
        relref=relref,
        partial=partial,
        partial_cached=partial_cached,
        get_page=get_page,
        error=raise_error,
        highlight=highlight,
        thumbnail=functools.partial(thumbnail, site),
    )
