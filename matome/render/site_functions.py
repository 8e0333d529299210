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
from ..graph.paths import AmbiguousRef, RefIndex, index_refs, resolve_ref
from ..graph.site import Site
from ..images.thumbnails import thumbnail
from ..markup.expand import ShortcodeProblem, merge_placeholder_runs, render_markdown
from ..markup.markdown import MarkdownRenderer
from ..markup.sanitize import clean_html, css_color, escape_unknown_tags
from .emoji import emojify
from .plan import FORMAT_FILES


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

    refs: list[RefIndex] = []  # made at the first reference: most builds make none
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

        if lang and lang.lower() != site.config.language.code.lower():
            raise missing(f'no site found with lang "{lang}"')
        if not refs:
            refs.append(index_refs(site.pages))
        try:
            found = resolve_ref(refs[0], page, target)
        except AmbiguousRef as e:
            raise missing(str(e)) from None
        if found is None:
            raise missing("page not found")
        # The read log (incremental builds) records lookups through site.get_page: the
        # target by its file, so that a change of its URL renders this again.
        site.get_page(f"/{found.file.path}" if found.file else found.rel_permalink)
        if output and output.lower() not in found.outputs:
            raise missing(f'output format "{output}"')
        return found

    def _output_url(page: Page, output: str, relative: bool) -> str:
        url = page.rel_permalink if relative else page.permalink
        file = FORMAT_FILES.get(output.lower())
        return url + file if file else url

    def ref(page: Page | None, target: Any) -> str:
        return link(page, target, relative=False)

    def relref(page: Page | None, target: Any) -> str:
        return link(page, target, relative=True)

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
