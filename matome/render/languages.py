"""The files a multilingual site has once, or once per language, beside its pages.

Each language has its sitemap (``/fr/sitemap.xml``, the default language's at
``/en/sitemap.xml`` too) and ``sitemap.xml`` at the root is the index of them (Hugo's
``sitemapindex``); each has its 404 page; ``/en/`` redirects to the root where the default
language is (or the root to ``/en/`` with ``defaultContentLanguageInSubdir``). A site of
one language at the root has one sitemap and one 404 page, as before.
"""

from __future__ import annotations

from ..graph.site import Site
from .plan import Output


def sitemap_outputs(site: Site, name: str) -> list[Output]:
    if not site.is_multilingual:
        return [Output("sitemap", name, origin="sitemap")]
    out = [Output("sitemapindex", name, origin="sitemap index")]
    for lang_site in site.language_sites:
        code = lang_site.lang
        out.append(Output("sitemap", f"{code}/{name}", lang=code, origin=f"sitemap ({code})"))
    return out


def not_found_outputs(site: Site) -> list[Output]:
    if not site.is_multilingual:
        return [Output("404", "404.html", origin="404")]
    return [
        Output("404", s.not_found.out_path, lang=s.lang, origin=f"404 ({s.lang})")
        for s in site.language_sites
    ]


def language_redirects(site: Site) -> list[Output]:
    """The redirect between the root and the default language's folder."""
    if not site.is_multilingual:
        return []
    default = site.default_site
    path = "index.html" if default.language.prefix else f"{default.lang}/index.html"
    return [
        Output("alias", path, target=default.home.permalink, lang=default.lang, origin="languages")
    ]
