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
from ..formats import page_output_format
from ..graph.paths import AmbiguousRef, RefIndex, refs_of, resolve_ref
from ..graph.site import Site
from ..images.thumbnails import thumbnail
from ..incremental.reads import page_key
from ..markup.expand import ShortcodeProblem, merge_placeholder_runs, render_markdown
from ..markup.markdown import MarkdownRenderer, RenderHooks
from ..markup.render_hooks import (
    hook_templates,
    page_hooks,
    render_template,
    site_embedded_hooks,
)
from ..markup.sanitize import clean_html, css_color, escape_unknown_tags
from . import urls
from .emoji import emojify
from .environment import use_formats
from .i18n import translator_for
from .namespaces import install_site_namespaces
from .resources import install_resources


def install_site_functions(env: jinja2.Environment, site: Site, markdown: MarkdownRenderer) -> None:
    use_formats(env, site.output_formats)
    base = site.config.base_url

    hook_names: dict[str, str] | None = None
    embedded = site_embedded_hooks(env, markdown.settings)

    def hooks_for(page: Any) -> RenderHooks | None:
        """The site's render hooks with ``page`` as theirs; None when the site has none."""
        nonlocal hook_names
        if hook_names is None:
            hook_names = hook_templates(env)
        if not hook_names and not embedded:
            return None
        variables = {"page": page, "page_inner": page, "site": site}
        return page_hooks(env, hook_names, variables, render_template, embedded)

    def markdownify(text: Any) -> Markup:
        """Hugo's ``markdownify``: render hooks see the home page as theirs, as in Hugo."""
        text = str(text if text is not None else "")
        return Markup(markdown.markdownify(text, hooks_for(site.home)))

    def abs_url(path: Any) -> str:
        return urls.abs_url(base, path)

    def rel_url(path: Any) -> str:
        if site.config.canonify_urls:  # no base path: it comes with the absolute URL
            return urls.rel_url(urls.root_of(base), str(path).removeprefix(base))
        return urls.rel_url(base, path)

    refs: dict[str, RefIndex] = {}  # by language, made at its first reference
    not_found_url = str(site.config.get("reflinksnotfoundurl") or "")
    refs_warn = str(site.config.get("reflinkserrorlevel") or "").lower() == "warning"

    def link(page: Page | None, args: Any, relative: bool) -> str:
        """Hugo's ``ref``/``relref``: ``args`` a path (``#fragment`` kept; alone, the page
        itself), [path, output format], or a map of ``path``, ``lang``, ``outputFormat``."""
        path, lang, output = _ref_args(args)
        if not path:
            return ""
        target, _, fragment = path.partition("#")
        found = page
        if target:
            try:
                found = _find(page, target, lang, output)
            except ShortcodeProblem:
                if not refs_warn:
                    raise
                return not_found_url  # Hugo warns; matome has no warning channel here yet
        url = _output_url(found, output, relative) if target else ""
        return url + (f"#{fragment}" if fragment else "")

    def _find(page: Page | None, target: str, lang: str, output: str) -> Page:
        def missing(what: str) -> ShortcodeProblem:
            return ShortcodeProblem(f'REF_NOT_FOUND: Ref "{target}": {what}')

        # A page's ref finds pages of its own language, as in Hugo; ``lang`` another's.
        own = page.site if page is not None and page.site is not None else site
        if lang:
            own = next((s for s in site.language_sites if s.lang == lang.lower()), None)
            if own is None:
                raise missing(f'no site found with lang "{lang}"')
        if own.lang not in refs:
            refs[own.lang] = refs_of(own.pages)
        try:
            found = resolve_ref(refs[own.lang], page, target)
        except AmbiguousRef as e:
            raise missing(str(e)) from None
        if found is None:
            raise missing("page not found")
        # The read log (incremental builds) records lookups through site.get_page: the
        # target by its file, so that a change of its URL renders this again.
        own.get_page(f"/{found.file.path}" if found.file else found.rel_permalink)
        if output and output.lower() not in found.outputs:
            raise missing(f'output format "{output}"')
        return found

    def _output_url(page: Page, output: str, relative: bool) -> str:
        fmt = page.site.output_formats.get(output.lower()) if output else None
        if fmt is None:
            return page.rel_permalink if relative else page.permalink
        own = page_output_format(page, fmt, page.site.config)
        return own.rel_permalink if relative else own.permalink

    def ref(page: Page | None, target: Any) -> str:
        return link(page, target, relative=False)

    def relref(page: Page | None, target: Any) -> str:
        return link(page, target, relative=True)

    def partial(name: str, context: Any = None, **kwargs: Any) -> Markup:
        template = env.get_template(name if name.startswith("partials/") else f"partials/{name}")
        # ``site`` in a partial of a page is the site of the page's language.
        own = context.site if type(context) is Page and context.site is not None else site
        return Markup(template.render(page=context, context=context, site=own, **kwargs))

    def partial_cached(name: str, context: Any = None, *variants: Any, **kwargs: Any) -> Markup:
        """Hugo's ``partialCached``: rendered once per name and variants (not per context,
        as in Hugo) while a batch of outputs is written, and kept for the next builds
        while what it read stays the same; a plain partial otherwise."""
        log = getattr(env, "read_log", None)
        if log is None or log.partials is None:
            return partial(name, context, **kwargs)
        own = id(context.site) if type(context) is Page else 0  # each language its own render
        key = (name, variants, tuple(sorted(kwargs.items())), own)
        found = log.partials.get(key)
        if found is None:
            lasting = lasting_key(name, context, variants, kwargs) if log.kept is not None else None
            kept = log.kept_render(lasting) if lasting is not None else None
            if kept is None:
                found = log.partials[key] = log.capture(lambda: partial(name, context, **kwargs))
                if lasting is not None:
                    log.keep(lasting, str(found[0]), found[1], found[2])
                return found[0]
            found = log.partials[key] = (Markup(kept[0]), kept[1], kept[2])
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
        hooks = hooks_for(site.home)
        return Markup(clean_html(markdown.markdownify(escape_unknown_tags(text), hooks)))

    def render_string(text: Any, page: Any = None) -> Markup:
        """Hugo's ``.Page.RenderString`` with ``display = block``: render hooks see
        ``page`` (``text | render_string(page)``), else the home page."""
        source = merge_placeholder_runs(str(text))
        return Markup(render_markdown(markdown, source, hooks_for(page or site.home)).html)

    def highlight(code: Any, lang: str = "", options: str = "") -> Markup:
        try:
            return Markup(markdown.highlight(str(code), str(lang), str(options or "")))
        except ValueError as e:  # an option Hugo refuses: reported at the call
            raise ShortcodeProblem(str(e)) from None

    # Hugo's functions a template calls either way: ``x | f`` or ``f(x)``.
    both = {
        "markdownify": markdownify,
        "abs_url": abs_url,
        "rel_url": rel_url,
        "urlize": functools.partial(urls.urlize_url, lower=not site.config.disable_path_to_lower),
        "emojify": lambda text: Markup(emojify(str(text))),
    }
    env.filters.update(
        both, comment_html=comment_html, render_string=render_string, css_color=css_color
    )
    env.globals.update(both, site=site, ref=ref, relref=relref, get_page=get_page)
    env.globals.update(partial=partial, partial_cached=partial_cached, error=raise_error)
    env.globals.update(warn=env.undefined_names.warn)
    env.globals.update(highlight=highlight, thumbnail=functools.partial(thumbnail, site))
    install_site_namespaces(env, site)
    install_resources(env, site)
    install_language_functions(env, site)


# The variants a render kept for the next builds may have (a page is named by its key).
_LASTING = (str, int, float, bool, type(None))


def lasting_key(name: str, context: Any, variants: tuple, kwargs: dict) -> tuple | None:
    """The key of a ``partial_cached`` render across builds: pages named by their key,
    in its language; None when a variant is no page, string, number or None."""
    named = []
    for value in (*variants, *(kwargs[k] for k in sorted(kwargs))):
        if type(value) is Page:
            named.append(("@page", page_key(value)))
        elif type(value) in _LASTING:
            named.append(value)
        else:
            return None
    own = context.site if type(context) is Page and context.site is not None else None
    return name, tuple(named), tuple(sorted(kwargs)), own.lang if own is not None else ""


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


def _ref_args(args: Any) -> tuple[str, str, str]:
    """(path, lang, output format) of what ``ref`` and ``relref`` are given, as Hugo reads
    it: a map (any key case), a list of a path and maybe an output format, or a path."""
    if isinstance(args, dict):
        named = {str(k).lower(): v for k, v in args.items()}
        return tuple(str(named.get(k) or "") for k in ("path", "lang", "outputformat"))
    if isinstance(args, (list, tuple)):
        if not 1 <= len(args) <= 2:
            raise ShortcodeProblem("invalid number of arguments to ref")
        return str(args[0]), "", str(args[1]) if len(args) == 2 else ""
    return ("" if args is None else str(args)), "", ""
