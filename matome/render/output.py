"""Rendering one planned output file with the Jinja templates Hugo's lookup order picks."""

from __future__ import annotations

import jinja2

from ..errors import SourceError
from ..graph.site import Site
from .environment import layout_candidates, select_layout, template_error
from .plan import Output, alias_html


def render_output(item: Output, site: Site, env: jinja2.Environment, minify: bool) -> bytes:
    """The bytes of one planned file rendered from templates (an alias, a page, a pager, the
    sitemap, robots.txt, the 404 page)."""
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
    else:
        page = site.pages[item.page]
        # Each worker renders one output at a time, so the page can carry the current pager.
        if page.pagers:
            page.paginator = page.pagers[item.pager - 1]
        text = render_first(
            env,
            layout_candidates(page, item.fmt),
            page=page,
            site=page.site,  # the site of the page's language
            paginator=page.paginator,
        )
    if minify and item.out_path.endswith((".html", ".xml")):
        text = minify_text(text)
    return text.encode("utf-8")


_TEMPLATES = {
    "sitemap": "sitemap.xml",
    "sitemapindex": "sitemapindex.xml",
    "robots": "robots.txt",
    "404": "404.html",
}


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
