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
from ..graph.site import Site
from ..images.thumbnails import thumbnail
from ..markup.expand import ShortcodeProblem, merge_placeholder_runs, render_markdown
from ..markup.markdown import MarkdownRenderer, emojify
from ..markup.sanitize import clean_html, css_color, escape_unknown_tags
from . import urls
from .environment import use_formats
from .i18n import translator_for
from .namespaces import install_site_namespaces
from .resources import install_resources


def emojify_html(text: Any) -> Markup:
    """Hugo's ``emojify``: HTML, as Hugo's is (the text is not escaped)."""
    return Markup(emojify(str(text)))


def install_site_functions(env: jinja2.Environment, site: Site, markdown: MarkdownRenderer) -> None:
    use_formats(env, site.output_formats)
    base = site.config.base_url

    def markdownify(text: Any) -> Markup:
        return Markup(markdown.markdownify(str(text if text is not None else "")))

    def abs_url(path: Any) -> str:
        return urls.abs_url(base, path)

    def rel_url(path: Any) -> str:
        return urls.rel_url(base, path)

    def find(page: Page | None, target: Any) -> tuple[Page, str]:
        """Resolve a ``ref`` target: a content path, optionally with ``#anchor``."""
        text = str(target)
        path, _, anchor = text.partition("#")
        if not path:
            if page is None:
                raise ShortcodeProblem(f"ref {text!r}: no page to anchor to")
            return page, anchor
        # A page's ref finds pages of its own language, as in Hugo.
        get = (page.site if page is not None and page.site is not None else site).get_page
        found = get(path)
        if found is None and page is not None and page.file and not path.startswith("/"):
            found = get(page.file.dir + path)
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
        # ``site`` in a partial of a page is the site of the page's language.
        own = context.site if type(context) is Page and context.site is not None else site
        return Markup(template.render(page=context, context=context, site=own, **kwargs))

    def partial_cached(name: str, context: Any = None, *variants: Any, **kwargs: Any) -> Markup:
        """Hugo's ``partialCached``: rendered once per name and variants (not per context,
        as in Hugo) while a batch of outputs is written; a plain partial otherwise."""
        log = getattr(env, "read_log", None)
        if log is None or log.partials is None:
            return partial(name, context, **kwargs)
        own = id(context.site) if type(context) is Page else 0  # each language its own render
        key = (name, variants, tuple(sorted(kwargs.items())), own)
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
        urlize=urls.urlize_url,
        emojify=emojify_html,
    )
    env.globals.update(
        site=site,
        emojify=emojify_html,
        markdownify=markdownify,
        abs_url=abs_url,
        rel_url=rel_url,
        urlize=urls.urlize_url,
        ref=ref,
        relref=relref,
        partial=partial,
        partial_cached=partial_cached,
        get_page=get_page,
        error=raise_error,
        highlight=highlight,
        thumbnail=functools.partial(thumbnail, site),
    )
    install_site_namespaces(env, site)
    install_resources(env, site)
    install_language_functions(env, site)


def install_language_functions(env: jinja2.Environment, site: Site) -> None:
    """``i18n``, ``rel_lang_url``, ``abs_lang_url``, and ``get_page`` in the language of the
    template's ``site`` (the page's language)."""
    config = site.config
    translators = {
        s.lang: translator_for(s.language, config.translations, config.default_language, config.raw)
        for s in site.language_sites
    }

    def own_site(context: Any) -> Site:
        found = context.get("site")
        return found if type(found) is Site else site

    @jinja2.pass_context
    def i18n(context: Any, key: Any, data: Any = None) -> str:
        """Hugo's ``i18n`` (``T``): the text of ``key`` in the page's language."""
        return translators[own_site(context).lang](key, data)

    def lang_url(context: Any, path: Any, absolute: bool) -> str:
        text = str(path)
        if "://" in text or text.startswith("//"):
            return text
        own = own_site(context)
        base = own.base_url if absolute else (urlsplit(own.base_url).path or "/")
        prefix = own.language.prefix.lstrip("/")
        rest = text.lstrip("/")
        joined = f"{prefix}/{rest}" if prefix and rest else prefix or rest
        return base.rstrip("/") + "/" + joined

    @jinja2.pass_context
    def rel_lang_url(context: Any, path: Any) -> str:
        return lang_url(context, path, False)

    @jinja2.pass_context
    def abs_lang_url(context: Any, path: Any) -> str:
        return lang_url(context, path, True)

    env.filters.update(rel_lang_url=rel_lang_url, abs_lang_url=abs_lang_url)
    env.globals.update(i18n=i18n, T=i18n, rel_lang_url=rel_lang_url, abs_lang_url=abs_lang_url)
    if site.is_multilingual:

        @jinja2.pass_context
        def get_page(context: Any, path: str) -> Page | None:
            return own_site(context).get_page(path)

        env.globals["get_page"] = get_page
