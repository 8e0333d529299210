"""Rendering one planned output file with the Jinja templates Hugo's lookup order picks."""

from __future__ import annotations

import jinja2

from ..content.page import Page
from ..content.urls import escape_url_path
from ..errors import SourceError
from ..formats import OutputFormat, format_location, page_output_format
from ..graph.pagination import Pager
from ..graph.site import Site
from .absolute_urls import HTML_QUOTES, XML_QUOTES, absolute_urls
from .environment import layout_candidates, select_layout, template_error
from .plan import Output, alias_html, format_pager_path


def render_output(item: Output, site: Site, env: jinja2.Environment, minify: bool) -> bytes:
    """The bytes of one planned file rendered from templates (an alias, a page in one of
    its formats, a pager, the sitemap, robots.txt, the 404 page)."""
    # A file of no page is its language's (``item.lang``), else the site's.
    own = site.language_site(item.lang) if item.lang else site
    if item.kind == "alias":
        return alias_html(item.target, own.config.language.language_code).encode()
    if item.kind in ("sitemap", "robots", "404", "sitemapindex"):
        name = _TEMPLATES[item.kind]
        page = own.not_found if item.kind == "404" else own.home
        text = render_first(
            env, [name, f"_default/{name}"], page=page, site=own, sites=site.language_sites
        )
    elif item.fmt == "html":
        page = site.pages[item.page]
        # Each worker renders one output at a time, so the page can carry the current pager.
        if page.pagers:
            page.paginator = page.pagers[item.pager - 1]
        text = render_first(
            env,
            layout_candidates(page),
            page=page,
            site=page.site,  # the site of the page's language
            paginator=page.paginator,
        )
    else:
        page = site.pages[item.page]
        text = _render_format(item, page, page.site, env)
    text = _absolute_urls(item, site.pages[item.page].site if item.page >= 0 else own, text)
    if minify and item.out_path.endswith((".html", ".xml")):
        text = minify_text(text)
    return text.encode("utf-8")


def _absolute_urls(item: Output, site: Site, text: str) -> str:
    """Hugo makes root-relative URLs absolute in every RSS file, and in every HTML file
    with ``canonifyURLs``."""
    if item.kind not in ("page", "pager", "404"):
        return text  # aliases (absolute already), the sitemap, robots.txt
    if item.fmt == "rss":
        return absolute_urls(text, site.config.base_url, XML_QUOTES)
    fmt = site.output_formats.get(item.fmt)
    if site.config.canonify_urls and (item.kind == "404" or (fmt is not None and fmt.is_html)):
        return absolute_urls(text, site.config.base_url, HTML_QUOTES)
    return text


_TEMPLATES = {
    "sitemap": "sitemap.xml",
    "sitemapindex": "sitemapindex.xml",
    "robots": "robots.txt",
    "404": "404.html",
}


def _render_format(item: Output, page: Page, site: Site, env: jinja2.Environment) -> str:
    """A page in a format other than HTML: while it renders, the page's paginator has
    this format's URLs, ``alternative_output_formats`` leaves this format out, and in a
    ``permalinkable`` format the page's permalink is its URL in it."""
    fmt = site.output_formats[item.fmt]
    kept = page.paginator, page.rendering_format, page.permalink, page.rel_permalink
    try:
        if page.pagers:
            page.paginator = format_pagers(page, fmt, site)[item.pager - 1]
        page.rendering_format = fmt.name
        main = "html" if "html" in page.outputs else page.outputs[0]
        if fmt.permalinkable and fmt.name != main:
            own = page_output_format(page, fmt, site.config)
            page.permalink, page.rel_permalink = own.permalink, own.rel_permalink
        return render_first(
            env, layout_candidates(page, fmt), page=page, site=site, paginator=page.paginator
        )
    finally:
        page.paginator, page.rendering_format, page.permalink, page.rel_permalink = kept


def format_pagers(page: Page, fmt: OutputFormat, site: Site) -> list[Pager]:
    """The page's pagers with the URLs of their files in ``fmt`` (``/page/2/index.json``)."""
    first = format_location(page, fmt).url_path
    pagers: list[Pager] = []
    for pager in page.pagers:
        path = first if pager.number == 1 else "/" + format_pager_path(first[1:], pager.number)
        url = site.config.rel_base_path + escape_url_path(path)
        pagers.append(Pager(pager.number, pager.pages, url, pagers, pager.total_elements))
    return pagers


def render_first(env: jinja2.Environment, names: list[str], **context) -> str:
    try:
        template = select_layout(env, names)
    except jinja2.TemplateNotFound:
        raise SourceError(
            "templates", 0, 0, f"no template found; looked for {', '.join(names)}"
        ) from None
    except jinja2.TemplateSyntaxError as e:
        raise template_error(e) from None
    return template.render(**context)


def minify_text(text: str) -> str:
    import minify_html

    return minify_html.minify(text, minify_css=True, minify_js=True, keep_closing_tags=True)
