"""Taxonomies and terms: every configured taxonomy's terms, urlized as Hugo does, with
their pages, and each page's terms in its front matter's order."""

from __future__ import annotations

from datetime import datetime

from ..config import SiteConfig, permalink_pattern
from ..content.loader import expand_permalink, set_location
from ..content.page import Page, Term
from ..content.urls import sanitize_path, urlize
from .order import sort_pages
from .sections import take_dates, taxonomy_title, term_title


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
    lang = config.language.code
    # Each page's place in the default order, worked out once for the lists of every term.
    place = {id(page): i for i, page in enumerate(sort_pages(pages, lang))}
    for plural in dict.fromkeys(config.taxonomies.values()):
        by_key: dict[str, Page] = {}
        for page in pages:
            for raw in term_values(page, plural):
                key = urlize(raw)
                if not key:
                    continue
                term_page = by_key.get(key)
                if term_page is None:
                    term_page = by_key[key] = _term_page(
                        config, (term_indexes or {}).get((plural, key)), plural, raw, key
                    )
                if page not in term_page.regular_pages:
                    term_page.regular_pages.append(page)
        # A term's _index.md makes the term even when no page uses it.
        for (of, key), index in (term_indexes or {}).items():
            if of == plural and key not in by_key:
                by_key[key] = _term_page(config, index, plural, index.file.dir.split("/")[1], key)
        tax_page = _as_list_page(
            (lists or {}).get(plural),
            "taxonomy",
            taxonomy_title(plural, config),
            section=plural,
            type=plural,
            taxonomy=plural,
        )
        # Each term's own pages (its page's terms), before the terms below it add theirs.
        own = {key: list(term_page.regular_pages) for key, term_page in by_key.items()}
        parents = _nest(by_key, own)
        for term_page in by_key.values():
            term_page.regular_pages = sorted(term_page.regular_pages, key=lambda p: place[id(p)])
            term_page.pages = term_page.regular_pages
            term_page.parent = parents.get(term_page.term_key, tax_page)
            take_dates(term_page, term_page.pages, now)
            set_location(
                term_page,
                _list_url(config, term_page, f"{plural}/{_term_path(config, term_page)}"),
                config,
            )
        terms = sort_pages(list(by_key.values()), lang)
        tax_page.pages = terms
        # Its terms' pages count too, whether or not their term has dates of its own.
        take_dates(tax_page, [*terms, *(p for t in terms for p in t.pages)], now)
        set_location(tax_page, _list_url(config, tax_page, plural), config)
        taxonomy_pages[plural] = tax_page
        term_pages[plural] = terms
        taxonomies[plural] = sorted(
            (Term(t.title, t.rel_permalink, len(t.pages), t) for t in terms),
            key=lambda t: t.page.term_key,
        )
        for term_page in terms:
            term = Term(term_page.title, term_page.rel_permalink, len(term_page.pages), term_page)
            for page in own[term_page.term_key]:
                page.page_terms.setdefault(plural, []).append(term)
    # A page lists its terms in front matter order.
    for page in pages:
        for plural, terms in page.page_terms.items():
            order = {urlize(v): i for i, v in reversed(list(enumerate(term_values(page, plural))))}
            terms.sort(key=lambda t: order.get(t.page.term_key, 0))
    return taxonomies, taxonomy_pages, term_pages


def _nest(by_key: dict[str, Page], own: dict[str, list[Page]]) -> dict[str, Page]:
    """Hugo's tree of terms: a term whose key is another's and more after a ``/`` (``ui/ux``
    below ``ui``) is below it. The term above lists the pages of every term below it too
    (and counts them; a page of both, twice, as Hugo does), and is the parent of the
    nearest. Returns each nested term's parent."""
    parents: dict[str, Page] = {}
    for key in by_key:
        cut = key.rfind("/")
        while cut > 0:
            above = by_key.get(key[:cut])
            if above is not None:
                parents.setdefault(key, above)
                above.regular_pages += own[key]  # as Hugo: a page of both is listed twice
            cut = key.rfind("/", 0, cut)
    return parents


def _term_page(config: SiteConfig, index: Page | None, plural: str, raw: str, key: str) -> Page:
    return _as_list_page(
        index,
        "term",
        term_title(raw, config),
        section=plural,
        type=plural,
        taxonomy=plural,
        term=raw,
        term_key=key,
    )


def _term_path(config: SiteConfig, term_page: Page) -> str:
    """A term in its page's path: its key (lower case), or with ``disablePathToLower`` the
    term as the first page that names it writes it (``AI`` and ``ai`` are one term)."""
    if config.disable_path_to_lower:
        return urlize(term_page.term, lower=False)
    return term_page.term_key


def _list_url(config: SiteConfig, page: Page, path: str) -> str:
    """A taxonomy's or term's URL: by its ``[permalinks]`` pattern, else its path
    (``/tags/``, ``/tags/go/``)."""
    pattern = permalink_pattern(config, page.kind, path)
    if pattern:
        return expand_permalink(pattern, page, config)
    plural, _, key = path.partition("/")
    plural = sanitize_path(plural)
    if not config.disable_path_to_lower:
        plural = plural.lower()
    return f"/{plural}/{key}/" if key else f"/{plural}/"
