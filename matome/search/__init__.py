"""Search without a server: Pagefind indexes every article's text into ``pagefind/``.

``update_search`` makes, in a build's staging folder, only the Pagefind bundles whose
articles changed (``bundles.py``); ``SearchUpdate.publish`` removes what the new index
no longer uses once the staging folder is in place. The text is what matome already
has for each article (``page.plain``: the body with its comments), never the HTML.
The search box (``static/js/matome.js``) merges the bundles with Pagefind's own
JavaScript API.
"""

from __future__ import annotations

from pathlib import Path

from ..buildcache import CACHE_DIR
from ..errors import BuildFailed, SourceError
from .bundles import OUTPUT_DIR, SearchPage, SearchUpdate, update_index
from .pages import article_pages
from .service import PagefindError

__all__ = [
    "OUTPUT_DIR",
    "SearchPage",
    "SearchUpdate",
    "article_pages",
    "search_enabled",
    "update_search",
]


def search_enabled(params: dict) -> bool:
    value = next((v for k, v in params.items() if str(k).lower() == "enablesearch"), False)
    return value is True or str(value).lower() == "true"


def update_search(
    pages: list[SearchPage], staging: Path, published: Path, source: Path, workers: int
) -> SearchUpdate:
    """Index what changed into ``staging/pagefind``; raise BuildFailed if Pagefind fails
    (the staging folder is then discarded, the published index stays as it was)."""
    try:
        return update_index(pages, staging, published, source / CACHE_DIR / "search", workers)
    except PagefindError as e:
        raise BuildFailed([SourceError("params.enableSearch", 0, 0, str(e))]) from None
