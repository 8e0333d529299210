"""A multilingual site: one graph per language, under a site that holds them all.

Each language is built as a site of its own (``build_language_site``): its home,
sections, taxonomies, menus, pagination and related pages, its pages under its folder
(``/fr/``; the default language at the root unless ``defaultContentLanguageInSubdir``).
Templates see the site of the page's language as ``site``.

The build reads one site: the default language's, with ``pages`` (and
``regular_pages``) holding every language's, so that a page's ``index`` names it in
every language's list and a build renders all of them.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from ..config import SiteConfig, language_config
from ..content.loader import LoadResult
from ..content.page import Page
from .site import Site, build_language_site
from .translations import link_translations


def build_languages(config: SiteConfig, loaded: LoadResult, now: datetime) -> Site:
    every: list[Page] = []
    sites: list[Site] = []
    for language in config.languages:
        pages = [p for p in loaded.pages if p.lang == language.code]
        static = loaded.static_files if language.code == config.default_language else []
        sites.append(
            build_language_site(language_config(config, language), pages, static, now, every)
        )
    link_translations(config, sites)
    default = next(s for s in sites if s.is_default_language)
    root = dataclasses.replace(
        default,
        pages=every,
        regular_pages=[p for s in sites for p in s.regular_pages],
        errors=[e for s in sites for e in s.errors],
        warnings=[],  # each language's are reported once, by build_site
    )
    for site in [*sites, root]:
        site.language_sites = sites
    return root
