"""Pagination of list pages (Hugo's ``.Paginator``): page 1 at the list's own URL."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..content.page import Page

if TYPE_CHECKING:
    from .site import Site


@dataclass
class Pager:
    """One page of a paginated list (Hugo's ``.Paginator``)."""

    number: int
    pages: list[Page]
    url: str
    pagers: list[Pager]
    total_elements: int

    @property
    def total_pages(self) -> int:
        # Hugo counts no pages for an empty list, though it still renders its first page.
        return len(self.pagers) if self.total_elements else 0

    @property
    def total(self) -> int:
        return self.total_pages

    @property
    def has_prev(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < len(self.pagers)

    @property
    def prev(self) -> Pager | None:
        return self.pagers[self.number - 2] if self.has_prev else None

    @property
    def next(self) -> Pager | None:
        return self.pagers[self.number] if self.has_next else None

    @property
    def first(self) -> Pager:
        return self.pagers[0]

    @property
    def last(self) -> Pager:
        return self.pagers[-1]


def _pager_url(page: Page, number: int) -> str:
    url = page.rel_permalink
    if not page.ugly:
        return f"{url}page/{number}/"
    if page.kind == "term":  # /tags/go.html: /tags/go/page/2.html
        return f"{url.removesuffix('.html')}/page/{number}.html"
    return f"{url.removesuffix('index.html')}page/{number}/"


def paginate(page: Page, size: int, site: Site) -> list[Pager]:
    """Every pager of a list page; page 1 lives at the list's own URL."""
    if page.kind == "home":
        items = site.regular_pages
    elif page.kind in ("taxonomy", "term"):
        items = page.pages
    else:
        items = page.regular_pages
    chunks = [items[i : i + size] for i in range(0, len(items), size)] or [[]]
    pagers: list[Pager] = []
    for number, chunk in enumerate(chunks, 1):
        url = page.rel_permalink if number == 1 else _pager_url(page, number)
        pagers.append(Pager(number, chunk, url, pagers, len(items)))
    return pagers
