"""Search without a server: Pagefind indexes every article's text into ``pagefind/``.

``update_search`` makes, in a build's staging folder, only the Pagefind bundles whose
articles changed (``bundles.py``); ``SearchUpdate.publish`` removes what the new index
no longer uses once the staging folder is in place. The text is what matome already
has for each article (``page.plain``: the body with its comments), never the HTML.
The search box (``static/js/matome.js``) merges the bundles with Pagefind's own
JavaScript API.

The modules that do the work are imported when a build indexes: a site without search
loads none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import BuildFailed, SourceError

OUTPUT_DIR = "pagefind"  # the index's folder in the site

if TYPE_CHECKING:
    from ..incremental.buildcache import ContentEntry
    from .bundles import IndexPlan, SearchPage, SearchUpdate


def indexed_message(count: int) -> str:
    """What ``matome build`` and ``matome serve`` print once Pagefind indexed articles."""
    return f"Search index: Pagefind indexed {count} article{'' if count == 1 else 's'}"


def search_enabled(params: dict) -> bool:
    value = next((v for k, v in params.items() if str(k).lower() == "enablesearch"), False)
    return value is True or str(value).lower() == "true"


def article_pages(
    site, entries: dict[str, ContentEntry], cache: Path, with_thumbnails: bool = True
) -> list[SearchPage]:
    """Every article of ``site`` as the index sees it (see ``pages.article_pages``)."""
    from .pages import article_pages as pages_of

    return pages_of(site, entries, cache, with_thumbnails)


def update_search(
    pages: list[SearchPage], staging: Path, published: Path, cache: Path, workers: int
) -> SearchUpdate:
    """Index what changed into ``staging/pagefind``, keeping the index's state in the build
    cache folder ``cache``; raise BuildFailed if Pagefind fails (the staging folder is then
    discarded, the published index stays as it was)."""
    return make_search(plan_search(pages, published, cache), staging, workers)


def plan_search(pages: list[SearchPage], published: Path, cache: Path) -> IndexPlan:
    """``update_search``'s first part: which bundles to make (``bundles.plan_index``)."""
    from .bundles import plan_index

    return plan_index(pages, published, cache / "search")


def make_search(
    planned: IndexPlan, staging: Path, workers: int, hold: Callable[[], None] | None = None
) -> SearchUpdate:
    """``update_search``'s second part; ``hold``: called before a large bundle is made."""
    from .bundles import make_index
    from .service import PagefindError

    try:
        return make_index(planned, staging, workers, hold)
    except PagefindError as e:
        raise BuildFailed([SourceError("params.enableSearch", 0, 0, str(e))]) from None
