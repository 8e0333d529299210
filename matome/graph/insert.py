"""New articles put into a kept site graph (``matome build`` after an article is added).

An added article takes a place in the lists that hold it (its section and those above,
the home page, its terms), gives them newer dates and pagers, becomes the neighbour of
the pages beside it and moves every page after it one place on in ``site.pages``. When
it would change more than that (a new section or term, a menu entry, a page listed
nowhere), ``insertable`` says no and the graph is built anew.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..content.page import Page, Term
from ..content.urls import urlize
from ..errors import SourceError
from ..formats import site_formats
from .build_options import apply_build_options
from .order import sort_pages
from .outputs import assign_outputs
from .pagination import paginate
from .patch import put_in_order, relink, resort
from .paths import index_paths
from .related import build_related, keywords_of
from .sections import apply_cascade
from .site import Site, place_page, settle_outputs
from .taxonomies import term_values


@dataclass
class Inserted:
    """What putting the pages in changed: the pages whose lists, neighbours, dates or
    pagers changed (those put in too), and the earliest publish date of those put in (the
    ``related`` lists of pages as new or newer may list them). Every page after them in
    ``site.pages`` moved a place on: what names pages by place is made again."""

    touched: set[Page]
    reranked: datetime
    warnings: list[SourceError]


def insertable(site: Site, page: Page, now: datetime) -> bool:
    """Whether ``page``, as the loader made it, can be put into ``site``: a regular page of
    a one-language site, in a section the site has, whose terms the site has (in no tree
    of terms), with no menu entry, published by ``now``, and the site's pages all in its
    lists (no build option leaves one out)."""
    config = site.config
    if page.kind != "page" or len(config.languages) > 1 or site.is_multilingual:
        return False
    if {"page", "section"} & set(config.disable_kinds) or page.publish_date > now:
        return False
    if any(str(k).lower() in ("menu", "menus") for k in page.params):
        return False
    if page.section and page.section not in _sections(site):
        return False
    if sum(p.kind == "page" for p in site.pages) != len(site.regular_pages):
        return False  # a page listed nowhere: the lists are not the site's pages in order
    for plural in config.taxonomies.values():
        keys = list(filter(None, map(urlize, term_values(page, plural))))
        if not keys:
            continue
        terms = _site_terms(site, plural)
        # A term in a tree of terms (``ui/ux`` below ``ui``): the term above lists the
        # pages of those below.
        above = {id(t.page.parent) for t in site.taxonomies[plural]}
        for key in keys:
            term = terms.get(key)
            if term is None or term.page.parent is not site.taxonomy_pages[plural]:
                return False
            if id(term.page) in above:
                return False
    return True


def insert_pages(site: Site, pages: list[Page], now: datetime) -> Inserted | None:
    """Put ``pages`` (each ``insertable``) into the kept ``site``, built at ``now``; None,
    the site left as it was, when one is listed nowhere once its cascade and build
    options apply, or its outputs are in error."""
    touched: set[Page] = set()
    warnings: list[SourceError] = []
    if not all([_place(site, page, warnings) for page in pages]):
        return None  # the site is as it was
    known = keywords_of(site.related_index, site.pages) if site.related_index else None
    for page in pages:
        _renumber(site, page)
        touched |= _link(site, page, now)
    site.related_index = build_related(site.config, site.regular_pages, known)
    site.by_path = index_paths(site.pages)
    return Inserted(touched, min(p.publish_date for p in pages), warnings)


def _place(site: Site, page: Page, warnings: list[SourceError]) -> bool:
    """The page's own fields as the graph builder sets them."""
    config = site.config
    branches = [p for p in site.pages if p.kind in ("home", "section") and p.params.get("cascade")]
    apply_cascade([*branches, page], config.environment)
    apply_build_options(page, warnings)
    if page.list_mode != "always" or page.render != "always":
        return False
    place_page(page, config, _sections(site), site.home)
    page.lang = config.language.code
    page.site_params = config.params
    page.site = site
    if assign_outputs(config, [page], site_formats(config), warnings):
        return False
    settle_outputs(page, config)
    return True


def _renumber(site: Site, page: Page) -> None:
    """The page in ``site.pages`` among the regular pages (which follow the home page and
    the sections, and come before the taxonomies), in their order."""
    kinds = ("page", "taxonomy", "term")
    start = next((i for i, p in enumerate(site.pages) if p.kind in kinds), len(site.pages))
    put_in_order(site.regular_pages, page)
    at = start + site.regular_pages.index(page)
    site.pages.insert(at, page)
    _number(site, at, len(site.pages))


def _link(site: Site, page: Page, now: datetime) -> set[Page]:
    """The page in the lists that hold it, with their dates and pagers, and its neighbours."""
    touched = {page}
    relink(site.regular_pages, [page])
    near = [n for n in (page.prev, page.next, page.prev_in_section, page.next_in_section) if n]
    relink(site.regular_pages, near)
    touched.update(near)
    size = site.config.pager_size
    # Its section and each above: the section's own list holds the page, the others the
    # section, whose dates may now put it elsewhere among theirs.
    node = page.parent
    put_in_order(node.pages, page)
    if node.pages is not node.regular_pages:
        put_in_order(node.regular_pages, page)
    moving: list[Page] = []
    while node is not None:
        _newer(node, page, now)
        resort(node.pages, moving)
        resort(node.sections, moving)
        if node.kind == "section" and node.parent is site.home:
            resort(site.sections, [node])
        moving = [node]
        touched.add(node)
        node = node.parent
    # The sections follow the home page in ``site.pages`` in the default order: their new
    # dates may have moved them.
    start = end = site.home.index + 1
    while end < len(site.pages) and site.pages[end].kind == "section":
        end += 1
    site.pages[start:end] = sort_pages(site.pages[start:end], site.config.language.code)
    _number(site, start, end)
    for plural in site.config.taxonomies.values():
        keys = dict.fromkeys(k for k in map(urlize, term_values(page, plural)) if k)
        site_terms = _site_terms(site, plural) if keys else {}
        terms = []
        for key in keys:
            term_page = site_terms[key].page
            term = _shared_term(plural, term_page)
            put_in_order(term_page.regular_pages, page)
            if term_page.pages is not term_page.regular_pages:
                put_in_order(term_page.pages, page)
            _newer(term_page, page, now)
            for one in (term, site_terms[key]):
                one.count = len(term_page.pages)
            terms.append(term)
            touched.add(term_page)
        if terms:
            page.page_terms[plural] = terms
            tax_page = site.taxonomy_pages[plural]
            _newer(tax_page, page, now)
            resort(tax_page.pages, [t.page for t in terms])
            # The terms follow their taxonomy in ``site.pages`` in the same order.
            at = tax_page.index + 1
            site.pages[at : at + len(tax_page.pages)] = tax_page.pages
            _number(site, at, at + len(tax_page.pages))
            touched.add(tax_page)
    for node in touched:
        if node.kind != "page":
            node.pagers = paginate(node, size, site)
            node.paginator = node.pagers[0]
    return touched


def _number(site: Site, start: int, end: int) -> None:
    """The pages of ``site.pages[start:end]`` numbered by their place there."""
    for i in range(start, end):
        site.pages[i].index = i


def _newer(node: Page, page: Page, now: datetime) -> None:
    """A list page's dates with ``page`` among its pages (``take_dates``)."""
    if not node.dates_taken:
        return
    node.date = max(node.date, page.date)
    node.lastmod = max(node.lastmod, page.lastmod)
    if page.publish_date <= now:
        node.publish_date = max(node.publish_date, page.publish_date)


def _sections(site: Site) -> dict[str, Page]:
    """The site's sections by their folder, as ``make_sections`` names them."""
    return {
        (p.file.dir.rstrip("/") if p.file else p.section): p
        for p in site.pages
        if p.kind == "section"
    }


def _site_terms(site: Site, plural: str) -> dict[str, Term]:
    """The terms of a taxonomy as the site lists them, by their page's key (the first,
    for a key spelled twice)."""
    terms: dict[str, Term] = {}
    for term in site.taxonomies.get(plural, []):
        terms.setdefault(term.page.term_key, term)
    return terms


def _shared_term(plural: str, term_page: Page) -> Term:
    """The term as its pages list it (one object for them all)."""
    for other in term_page.regular_pages:
        for term in other.page_terms.get(plural, []):
            if term.page is term_page:
                return term
    return Term(term_page.title, term_page.rel_permalink, len(term_page.pages), term_page)
