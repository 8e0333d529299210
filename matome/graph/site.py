"""The site graph: home, sections, taxonomies, terms, menus, prev/next, pagination.

Built once from the loaded pages, then only read (by content rendering, by
templates, by every worker process, which inherit it through fork).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ..config import SiteConfig
from ..content.loader import LoadResult, page_url, set_location
from ..content.page import Page, Term
from ..errors import SourceError
from ..formats import OutputFormat, site_formats
from .menus import MenuEntry, make_menus
from .order import sort_pages
from .outputs import assign_outputs
from .pagination import paginate
from .paths import index_paths, lookup_page
from .related import Related, build_related, related_pages
from .resources import normalize_alias, page_resources
from .sections import apply_cascade, link_children, link_prev_next, make_sections, parent_section
from .taxonomies import make_taxonomies


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
    output_formats: dict[str, OutputFormat] = field(default_factory=dict)  # by name

    # --- template API --------------------------------------------------------
    @property
    def title(self) -> str:
        return self.config.title

    @property
    def base_url(self) -> str:
        return self.config.base_url

    @property
    def language_code(self) -> str:
        return self.config.language.language_code

    @property
    def params(self) -> dict:
        return self.config.params

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


def build_site(config: SiteConfig, loaded: LoadResult, now: datetime) -> Site:
    errors: list[SourceError] = []
    home = next((p for p in loaded.pages if p.kind == "home"), None)
    if home is None:
        home = Page(kind="home", title=config.title, params={}, rel_permalink="", out_path="")
    if not home.title:
        home.title = config.title
    set_location(home, "/", config)
    apply_cascade(loaded.pages)
    sections = make_sections(config, loaded.pages, home)
    regular = [p for p in loaded.pages if p.kind == "page"]
    for page in [*regular, *[s for s in sections.values() if s.file]]:
        set_location(page, page_url(page, config), config)
    for page in regular:
        page.parent = parent_section(page, sections, home)
        page.aliases = [normalize_alias(a, page) for a in page.aliases]
        page.resources = page_resources(page, config)
    for section in sections.values():
        if section.file:
            section.resources = page_resources(section, config)
    regular = sort_pages(regular)
    link_children(home, sections, regular)
    link_prev_next(regular)
    taxonomies, taxonomy_pages, term_pages = make_taxonomies(
        config, regular + list(sections.values())
    )
    all_pages = [home, *sort_pages(list(sections.values())), *regular]
    for plural, tax_page in taxonomy_pages.items():
        all_pages.append(tax_page)
        all_pages.extend(term_pages[plural])
    for i, page in enumerate(all_pages):
        page.index = i
        page.site_params = config.params
    formats = site_formats(config)
    errors += formats.errors
    # Warnings about the graph join the loader's, which every caller reports.
    errors += assign_outputs(config, all_pages, formats, loaded.warnings)
    by_path = index_paths(all_pages)
    menus = make_menus(config, all_pages, by_path, loaded.warnings)
    site = Site(
        config=config,
        home=home,
        pages=all_pages,
        regular_pages=regular,
        sections=sort_pages([s for s in sections.values() if s.parent is home]),
        taxonomies=taxonomies,
        taxonomy_pages=taxonomy_pages,
        menus=menus,
        static_content=loaded.static_files,
        build_date=now,
        by_path=by_path,
        errors=errors,
        output_formats=formats.formats,
    )
    site.related_index = build_related(config, regular)
    site.not_found = _not_found_page(config, site, home)
    for page in all_pages:
        page.site = site
        if page.kind != "page":
            page.pagers = paginate(page, config.pager_size, site)
            page.paginator = page.pagers[0]
    return site


def _not_found_page(config: SiteConfig, site: Site, home: Page) -> Page:
    """Hugo's 404 page: its own kind, title and URL (not the home page's), in no list."""
    page = Page(kind="404", title="404 Page not found", params={}, rel_permalink="", out_path="")
    set_location(page, "/404.html", config)
    page.parent = home
    page.site = site
    page.site_params = config.params
    page.index = -1
    return page
