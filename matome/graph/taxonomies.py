"""Taxonomies and terms: every configured taxonomy's terms, urlized as Hugo does, with
their pages, and each page's terms in its front matter's order."""

from __future__ import annotations

from datetime import datetime

from ..config import SiteConfig
from ..content.loader import set_location
from ..content.page import ZERO_DATE, Page, Term
from ..content.urls import sanitize_path, urlize
from .order import sort_pages
from .sections import list_title, newest_published, title_case


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


def make_taxonomies(config: SiteConfig, pages: list[Page], now: datetime):
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
                    term_page = Page(
                        kind="term",
                        title=title_case(raw),
                        params={},
                        rel_permalink="",
                        out_path="",
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
        tax_page = Page(
            kind="taxonomy",
            title=list_title(plural),
            params={},
            rel_permalink="",
            out_path="",
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
