"""Taxonomies and terms: every configured taxonomy's terms, urlized as Hugo does, with
their pages, and each page's terms in its front matter's order."""

from __future__ import annotations

from datetime import datetime

from ..config import SiteConfig
from ..content.loader import set_location
from ..content.page import ZERO_DATE, Page, Term
from ..content.urls import sanitize_path, urlize
from .order import sort_pages
from .sections import newest_published, taxonomy_title, term_title


def term_values(page: Page, plural: str) -> list[str]:
    """The raw terms a page lists for a taxonomy (a string or a list in front matter)."""
    value = page.params.get(plural)
    if value is None:
        value = next((v for k, v in page.params.items() if str(k).lower() == plural), None)
    if value is None or value == "":
        return []
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if str(v).strip()]
    return [str(value)]


def taxonomy_indexes(config: SiteConfig, pages: list[Page]):
    """The ``_index.md`` of taxonomies (``content/tags/_index.md``) and of terms
    (``content/tags/go/_index.md``), taken out of ``pages``: they are not sections, their
    title, params and content are the taxonomy's and the term's."""
    plurals = set(config.taxonomies.values())
    rest: list[Page] = []
    lists: dict[str, Page] = {}
    terms: dict[tuple[str, str], Page] = {}
    for page in pages:
        parts = page.file.dir.strip("/").split("/") if page.kind == "section" else []
        if len(parts) == 1 and parts[0] in plurals:
            lists[parts[0]] = page
        elif len(parts) == 2 and parts[0] in plurals:
            terms[(parts[0], urlize(parts[1]))] = page
        else:
            rest.append(page)
    return rest, lists, terms


def _as_list_page(page: Page | None, kind: str, title: str, **fields) -> Page:
    """A taxonomy or term page: its ``_index.md`` page when it has one, else a new page."""
    if page is None:
        return Page(kind=kind, title=title, params={}, rel_permalink="", out_path="", **fields)
    page.kind = kind  # its title is the file's, even none (Hugo names only pages of no file)
    page.type = page.type or fields["type"]
    for name, value in fields.items():
        if name != "type":
            setattr(page, name, value)
    return page


def make_taxonomies(
    config: SiteConfig,
    pages: list[Page],
    now: datetime,
    lists: dict[str, Page] | None = None,
    term_indexes: dict[tuple[str, str], Page] | None = None,
):
    taxonomies: dict[str, list[Term]] = {}
    taxonomy_pages: dict[str, Page] = {}
    term_pages: dict[str, list[Page]] = {}
    for plural in dict.fromkeys(config.taxonomies.values()):
        by_key: dict[str, Page] = {}
        for page in pages:
            for raw in term_values(page, plural):
                key = urlize(raw)
                if not key:
                    continue
                term_page = by_key.get(key)
                if term_page is None:
                    term_page = _as_list_page(
                        (term_indexes or {}).get((plural, key)),
                        "term",
                        term_title(raw, config),
                        section=plural,
                        type=plural,
                        taxonomy=plural,
                        term=raw,
                        term_key=key,
                    )
                    set_location(term_page, f"/{sanitize_path(plural).lower()}/{key}/", config)
                    by_key[key] = term_page
                if page not in term_page.regular_pages:
                    term_page.regular_pages.append(page)
        tax_page = _as_list_page(
            (lists or {}).get(plural),
            "taxonomy",
            taxonomy_title(plural, config),
            section=plural,
            type=plural,
            taxonomy=plural,
        )
        set_location(tax_page, f"/{sanitize_path(plural).lower()}/", config)
        for term_page in by_key.values():
            term_page.regular_pages = sort_pages(term_page.regular_pages)
            term_page.pages = term_page.regular_pages
            term_page.parent = tax_page
            term_page.date = max((p.date for p in term_page.pages), default=ZERO_DATE)
            term_page.publish_date = newest_published(term_page.pages, now)
            term_page.lastmod = max((p.lastmod for p in term_page.pages), default=ZERO_DATE)
        terms = sort_pages(list(by_key.values()))
        tax_page.pages = terms
        tax_page.date = max((t.date for t in terms), default=ZERO_DATE)
        tax_page.publish_date = newest_published(terms, now)
        tax_page.lastmod = max((t.lastmod for t in terms), default=ZERO_DATE)
        taxonomy_pages[plural] = tax_page
        term_pages[plural] = terms
        taxonomies[plural] = sorted(
            (Term(t.title, t.rel_permalink, len(t.pages), t) for t in terms),
            key=lambda t: t.page.term_key,
        )
        for term_page in terms:
            term = Term(term_page.title, term_page.rel_permalink, len(term_page.pages), term_page)
            for page in term_page.pages:
                page.page_terms.setdefault(plural, []).append(term)
    # A page lists its terms in front matter order.
    for page in pages:
        for plural, terms in page.page_terms.items():
            order = {urlize(v): i for i, v in reversed(list(enumerate(term_values(page, plural))))}
            terms.sort(key=lambda t: order.get(t.page.term_key, 0))
    return taxonomies, taxonomy_pages, term_pages
