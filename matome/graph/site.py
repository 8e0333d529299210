"""The site graph: home, sections, taxonomies, terms, menus, prev/next, pagination.

Built once from the loaded pages, then only read (by content rendering, by
templates, by every worker process, which inherit it through fork).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from operator import attrgetter
from typing import Any

from ..config import Language, SiteConfig
from ..content.data import load_site_data
from ..content.loader import LoadResult, page_url, set_location, unescaped_path
from ..content.page import ZERO_DATE, Page, Term
from ..errors import SourceError
from ..formats import OutputFormat, site_formats
from .build_options import apply_build_options
from .menus import MenuEntry, make_menus
from .order import sort_pages
from .outputs import assign_outputs
from .pagination import paginate
from .paths import index_paths, lookup_page
from .related import Related, build_related, related_pages
from .resources import normalize_alias, page_resources
from .sections import apply_cascade, link_children, link_prev_next, make_sections, parent_section
from .taxonomies import make_taxonomies, taxonomy_indexes


@dataclass
class Site:
    config: SiteConfig
    home: Page
    pages: list[Page]  # every page of every kind, in a stable order
    regular_pages: list[Page]
    sections: list[Page]  # top-level sections
    taxonomies: dict[str, list[Term]]  # plural -> terms sorted by name
    taxonomy_pages: dict[str, Page]
    menus: dict[str, list[MenuEntry]]
    static_content: list[tuple]
    build_date: datetime
    by_path: dict[str, Page] = field(default_factory=dict)  # content path and URL -> page
    not_found: Page | None = None  # the page 404.html renders, Hugo's kind "404"
    related_index: Related | None = None
    errors: list[SourceError] = field(default_factory=list)
    # Every page of every language, indexed by ``Page.index`` (``pages`` itself when the
    # site has one language).
    all_pages: list[Page] = field(default_factory=list)
    # Each language's site, in the order of the languages (this site alone when it has one).
    language_sites: list[Site] = field(default_factory=list)
    is_default_language: bool = True
    # Whether pages are in language folders (several languages, or the default in its own).
    is_multilingual: bool = False
    data: dict = field(default_factory=dict)  # site.data: the files of data/, every language's
    warnings: list[SourceError] = field(default_factory=list)  # until build_site reports them
    output_formats: dict[str, OutputFormat] = field(default_factory=dict)  # by name

    # --- template API --------------------------------------------------------
    title = property(attrgetter("config.title"))
    base_url = property(attrgetter("config.base_url"))
    language_code = property(attrgetter("config.language.language_code"))
    language = property(attrgetter("config.language"))

    @property
    def languages(self) -> list[Language]:
        """Every language built, in Hugo's order (weight, then code)."""
        return [s.config.language for s in self.language_sites]

    lang = property(attrgetter("config.language.code"))

    @property
    def sites(self) -> list[Site]:
        """Every language's site (Hugo's ``.Sites``)."""
        return self.language_sites

    @property
    def default_site(self) -> Site:
        """The site of the default content language."""
        return next((s for s in self.language_sites if s.is_default_language), self)

    def language_site(self, code: str) -> Site:
        """The site of language ``code``; this one for ""."""
        return next((s for s in self.language_sites if s.config.language.code == code), self)

    @property
    def last_change(self) -> datetime:
        """When a page of this site last changed (the sitemap index's ``lastmod``)."""
        return max((p.lastmod for p in self.regular_pages), default=ZERO_DATE)

    params = property(attrgetter("config.params"))

    @property
    def copyright(self) -> str:
        return str(self.config.get("copyright") or "")

    @property
    def google_analytics_id(self) -> str:
        """The Google Analytics 4 ID the theme's head loads, as Hugo's internal template does:
        ``services.googleAnalytics.id`` (or the older ``googleAnalytics``), never in ``matome
        serve`` (the development environment), nor when ``privacy.googleAnalytics.disable``,
        nor for an old Universal Analytics ID (UA-...)."""
        config = self.config
        privacy = _table(_table(config.get("privacy")).get("googleanalytics"))
        if config.environment == "development" or privacy.get("disable") is True:
            return ""
        service = _table(_table(config.get("services")).get("googleanalytics"))
        found = str(service.get("id") or config.get("googleanalytics") or "")
        return "" if found.lower().startswith("ua-") else found

    @property
    def google_analytics_respects_do_not_track(self) -> bool:
        privacy = _table(_table(self.config.get("privacy")).get("googleanalytics"))
        return privacy.get("respectdonottrack") is True

    @property
    def main_sections(self) -> list[str]:
        value = self.config.params.get("mainSections") or self.config.params.get("mainsections")
        if value:
            return list(value)
        return [s.section for s in sorted(self.sections, key=lambda s: -len(s.regular_pages))[:1]]

    def get_page(self, path: str) -> Page | None:
        """Hugo's ``site.GetPage``: by content path (``/posts``, ``posts/x/index.md``) or URL."""
        return lookup_page(self.by_path, path)

    def related(self, page: Page, limit: int = 5) -> list[Page]:
        return related_pages(self, page, limit)


def _is_ugly(page: Page, setting: bool | dict) -> bool:
    if isinstance(setting, dict):
        return any(str(k).lower() == page.section.lower() and v is True for k, v in setting.items())
    return setting is True and page.kind != "404"


def make_ugly(page: Page, config: SiteConfig) -> None:
    """uglyURLs: a page or term at ``/posts/a.html`` (its aliases files too), a list page at
    ``/posts/index.html``; bundle files stay in the bundle's folder."""
    page.ugly = True
    path = unescaped_path(page.rel_permalink, config)
    if page.kind in ("page", "term") and path.endswith("/") and path != "/":
        path = path[:-1] + ".html"
        page.aliases = [a if a.endswith(".html") else f"{a}.html" for a in page.aliases]
    elif path.endswith("/"):
        path += "index.html"
    set_location(page, path, config)


def _table(value: Any) -> dict:
    return {str(k).lower(): v for k, v in value.items()} if isinstance(value, dict) else {}


def build_site(config: SiteConfig, loaded: LoadResult, now: datetime) -> Site:
    """The site graph. With several languages (``languages.py``), one graph per language,
    under a site whose ``pages`` are every language's. Warnings of the graph (build
    options) are reported with the loader's."""
    data, errors = load_site_data(config)
    if config.multilingual:
        from .languages import build_languages

        site = build_languages(config, loaded, now)
    else:
        site = build_language_site(config, loaded.pages, loaded.static_files, now)
        site.language_sites = [site]
    for one in {id(s): s for s in [site, *site.language_sites]}.values():
        loaded.warnings += one.warnings
        one.warnings = []
        one.data = data
    site.errors += errors
    return site


def build_language_site(
    config: SiteConfig,
    pages: list[Page],
    static_files: list[tuple],
    now: datetime,
    every: list[Page] | None = None,
) -> Site:
    """One language's graph; its pages are numbered on from those already in ``every``
    (every language's pages), to which they are added."""
    errors: list[SourceError] = []
    home = next((p for p in pages if p.kind == "home"), None)
    if home is None:  # with an _index.md, the home page's title is its own, even empty
        home = Page(
            kind="home", title=config.title, params={}, rel_permalink="", out_path="", type="page"
        )
    set_location(home, "/", config)
    apply_cascade(pages, config.environment)
    warnings: list[SourceError] = []
    for page in pages:
        apply_build_options(page, warnings)
    disabled = config.disable_kinds
    pages, taxonomy_lists, term_indexes = taxonomy_indexes(config, pages)
    sections = make_sections(config, pages, home)
    # With "page" disabled Hugo makes no regular page, but the folders are sections still.
    regular = [p for p in pages if p.kind == "page" and "page" not in disabled]
    for section in sections.values():
        if section.file:
            set_location(section, page_url(section, config), config)
    for page in regular:
        place_page(page, config, sections, home)
    for node in [home, *sections.values()]:
        node.aliases = [normalize_alias(a, node, config.language.prefix) for a in node.aliases]
    for branch in [home, *sections.values()]:  # the home page's _index.md is a bundle too
        if branch.file:
            branch.resources = page_resources(branch, config)
    lang = config.language.code
    regular = sort_pages(regular, lang)
    # Build options: a page listed nowhere is still rendered (and found by get_page).
    in_sections = [p for p in regular if p.list_mode != "never"]
    site_regular = [p for p in in_sections if p.list_mode == "always"]
    unlisted = [p for p in regular if p.list_mode == "never"]
    link_children(home, sections, in_sections, now, lang, unlisted)
    link_prev_next(site_regular)
    listed = [p for p in [*regular, *sections.values()] if p.list_mode != "never"]
    taxonomies, taxonomy_pages, term_pages = make_taxonomies(
        config, [p for p in listed if p.render != "never"], now, taxonomy_lists, term_indexes
    )
    if "term" in disabled:
        for plural, tax_page in taxonomy_pages.items():
            tax_page.pages, term_pages[plural], taxonomies[plural] = [], [], []
            tax_page.date = tax_page.lastmod = tax_page.publish_date = ZERO_DATE
    if "section" in disabled:
        for node in [home, *sections.values()]:
            node.pages = [p for p in node.pages if p.kind != "section"]
            node.sections = []
    all_pages = [home, *sort_pages(list(sections.values()), lang), *regular]
    for plural, tax_page in taxonomy_pages.items():
        all_pages.append(tax_page)
        all_pages.extend(term_pages[plural])
    first = len(every) if every is not None else 0
    for i, page in enumerate(all_pages, first):
        page.index = i
        page.lang = lang
        page.site_params = config.params
    formats = site_formats(config)
    errors += formats.errors
    errors += assign_outputs(config, all_pages, formats, warnings)
    for page in all_pages:
        settle_outputs(page, config)
    if config.ugly_urls:  # terms were named before their pages moved
        for term in [t for terms in taxonomies.values() for t in terms] + [
            t for p in all_pages for terms in p.page_terms.values() for t in terms
        ]:
            term.url = term.page.rel_permalink
    by_path = index_paths(all_pages)
    menus = make_menus(config, all_pages, by_path, warnings)
    site = Site(
        config=config,
        home=home,
        pages=all_pages,
        regular_pages=site_regular,
        sections=[]
        if "section" in disabled
        else sort_pages([s for s in sections.values() if s.parent is home], lang),
        taxonomies=taxonomies,
        taxonomy_pages=taxonomy_pages,
        menus=menus,
        static_content=static_files,
        build_date=now,
        by_path=by_path,
        errors=errors,
        all_pages=all_pages if every is None else every,
        is_default_language=config.language.code == config.default_language,
        is_multilingual=config.multilingual,
        warnings=warnings,
        output_formats=formats.formats,
    )
    if every is not None:
        every.extend(all_pages)
    site.related_index = build_related(config, site_regular)
    site.not_found = _not_found_page(config, site, home)
    for page in all_pages:
        page.site = site
        if page.kind != "page":
            page.pagers = paginate(page, config.pager_size, site)
            page.paginator = page.pagers[0]
    return site


def place_page(page: Page, config: SiteConfig, sections: dict[str, Page], home: Page) -> None:
    """A regular page's URL, section, aliases and bundle files."""
    set_location(page, page_url(page, config), config)
    page.parent = parent_section(page, sections, home)
    page.aliases = [normalize_alias(a, page, config.language.prefix) for a in page.aliases]
    page.resources = page_resources(page, config)


def settle_outputs(page: Page, config: SiteConfig) -> None:
    """A page's files (``outputs`` assigned) as its build options, the disabled kinds and
    ``uglyURLs`` leave them."""
    disabled = config.disable_kinds
    if page.render != "always" or page.kind in disabled:
        page.outputs, page.aliases = [], []  # no file (and no redirect to it)
    if "rss" in disabled:
        page.outputs = [f for f in page.outputs if f != "rss"]
    if _is_ugly(page, config.ugly_urls):
        make_ugly(page, config)
    if page.render == "never":
        page.rel_permalink = page.permalink = ""


def _not_found_page(config: SiteConfig, site: Site, home: Page) -> Page:
    """Hugo's 404 page: its own kind, title and URL (not the home page's), in no list."""
    page = Page(
        kind="404",
        title="404 Page not found",
        params={},
        rel_permalink="",
        out_path="",
        type="page",
    )
    set_location(page, "/404.html", config)
    page.parent = home
    page.site = site
    page.site_params = config.params
    page.index = -1
    page.lang = config.language.code
    return page
