"""A kept site graph after titles changed in place (``matome serve``'s title edits).

A title orders a page only among the pages of the same weight and date (Hugo's default
order) and, for related content, of the same publish date. So the lists that hold a
retitled page are sorted again, with the neighbours and pagers they make, and the
related ranks of its publish date are numbered again; nothing else in the graph moves.
"""

from __future__ import annotations

import bisect
import functools
from datetime import datetime

from ..content.page import Page
from .han_order import han_order
from .order import sort_key
from .pagination import paginate
from .related import Related
from .site import Site


def reorder(site: Site, retitled: list[Page]) -> tuple[set[Page], dict[int, int], datetime | None]:
    """Sort again what the titles of ``retitled`` order; return the pages whose lists,
    neighbours or pagers changed (``retitled`` themselves included), the pages whose
    place in ``site.pages`` changed (old index -> new), and the earliest publish date of
    the pages whose related rank changed (None: every ``related`` list reads as it did)."""
    touched = set(retitled)
    # Only the retitled pages and the pages beside them, before or after, change neighbours.
    before = {id(p): (p, _neighbours(p)) for p in _beside(retitled)}
    resort(site.regular_pages, retitled)
    moved = renumber(site)
    relink(site.regular_pages, retitled)
    near = {id(p): p for p in _beside(retitled)} | {key: p for key, (p, _) in before.items()}
    relink(site.regular_pages, [p for p in near.values() if p not in touched])
    for key, page in near.items():
        if key not in before or _neighbours(page) != before[key][1]:
            touched.add(page)
    lists = {id(site.home): site.home}
    for page in retitled:
        node = page.parent
        while node is not None and id(node) not in lists:
            lists[id(node)] = node
            node = node.parent
        for terms in page.page_terms.values():
            for term in terms:  # and the terms above it (``ui`` above ``ui/ux``)
                node = term.page
                while node is not None and node.kind == "term" and id(node) not in lists:
                    lists[id(node)] = node
                    node = node.parent
    for node in lists.values():
        resort(node.regular_pages, retitled)
        if node.pages is not node.regular_pages:
            resort(node.pages, retitled)
        node.pagers = paginate(node, site.config.pager_size, site)
        node.paginator = node.pagers[0]
        touched.add(node)
    reranked = None
    if site.related_index is not None:
        related = site.related_index
        if moved:
            related.by_rank = [moved.get(i, i) for i in related.by_rank]
            related.rank = {moved.get(i, i): r for i, r in related.rank.items()}
        reranked = rerank(related, site.pages, retitled)
    return touched, moved, reranked


def resort(pages: list[Page], retitled: list[Page]) -> None:
    """``pages``, in the default order but for the ``retitled`` among them, in that order
    again: those are taken out and put back in their place, rather than the whole list
    sorted (a year's list holds most of a site's pages)."""
    moving = []
    for page in retitled:
        # By identity (pages compare so), each time it is there: a term lists a page of
        # itself and of a term below it twice.
        while page in pages:
            pages.remove(page)
            moving.append(page)
    for page in moving:
        put_in_order(pages, page)


def put_in_order(pages: list[Page], page: Page) -> None:
    """``page`` into ``pages``, a list in the default order."""
    bisect.insort(pages, page, key=functools.partial(sort_key, han=han_order(page.lang)))


def renumber(site: Site) -> dict[int, int]:
    """Put the regular pages into ``site.pages`` in their new order (they stand together
    there, in the default order, as the sitemap lists them); return old index -> new."""
    regular = site.regular_pages
    if not regular:
        return {}
    start = min(page.index for page in regular)
    moved = {}
    for n, page in enumerate(regular, start):
        if page.index != n:
            moved[page.index] = n
            page.index = n
            site.pages[n] = page
    return moved


def rerank(related: Related, pages: list[Page], retitled: list[Page]) -> datetime | None:
    """Number again the related ranks of the pages that share a publish date with one of
    ``retitled`` (they are consecutive: pages rank newest first, then by title); return
    the earliest publish date of those whose rank changed."""
    earliest = None
    for page in retitled:
        at = related.rank.get(page.index)
        if at is None:
            continue
        start = end = at
        while start > 0 and related.newest_first[start - 1] == related.newest_first[at]:
            start -= 1
        while (
            end + 1 < len(related.by_rank)
            and related.newest_first[end + 1] == related.newest_first[at]
        ):
            end += 1
        group = related.by_rank[start : end + 1]
        order = sorted(group, key=lambda i: (pages[i].title, i))
        if order == group:
            continue
        if earliest is None or page.publish_date < earliest:
            earliest = page.publish_date
        moved = {related.rank[i]: start + n for n, i in enumerate(order)}
        keywords = [related.keywords[related.rank[i]] for i in order]
        related.by_rank[start : end + 1] = order
        related.keywords[start : end + 1] = keywords
        for n, i in enumerate(order):
            related.rank[i] = start + n
        for name, word in {k for kws in keywords for k in kws}:
            ranks = related.members.get(name, {}).get(word)
            if ranks is not None:
                ranks[:] = sorted(moved.get(r, r) for r in ranks)
    return earliest


def relink(regular: list[Page], pages: list[Page]) -> None:
    """The neighbours of ``pages`` in ``regular`` (the site's regular pages, in order and
    in their place in ``site.pages``), as ``link_prev_next`` sets them for every page."""
    start = regular[0].index if regular else 0
    for page in pages:
        at = page.index - start
        page.next = regular[at - 1] if at > 0 else None
        page.prev = regular[at + 1] if at + 1 < len(regular) else None
        parent = page.parent
        newer = (regular[i] for i in range(at - 1, -1, -1))
        older = (regular[i] for i in range(at + 1, len(regular)))
        page.next_in_section = next((p for p in newer if p.parent is parent), None)
        page.prev_in_section = next((p for p in older if p.parent is parent), None)


def _beside(pages: list[Page]) -> list[Page]:
    """These pages and their neighbours."""
    return [*pages, *(n for page in pages for n in _neighbours(page) if n is not None)]


def _neighbours(page: Page) -> tuple:
    return page.prev, page.next, page.prev_in_section, page.next_in_section
