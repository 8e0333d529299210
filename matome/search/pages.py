"""A site's articles as search records, from what the build already has: URL, title,
thumbnail, date, and the text of the rendered body (``page.plain``), read from the
build cache only for the articles whose body was rendered again."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path

from ..content.page import Page
from ..images.thumbnails import thumbnail
from ..incremental.buildcache import ContentEntry, content_fields
from ..incremental.reads import page_key
from .bundles import SearchPage

# The card thumbnail (images.CARD), which the browser may have already.
THUMBNAIL_WIDTH = 480


def article_pages(
    site, entries: Mapping[str, ContentEntry], cache: Path, with_thumbnails: bool = True
) -> list[SearchPage]:
    """Every article with an HTML page; ``entries``: each page's rendered body (page key ->
    entry), kept in the build cache folder ``cache``. ``with_thumbnails``: whether the run
    publishes the thumbnails."""
    language = site.config.language.language_code
    pages = []
    for page in site.regular_pages:
        if page.file is None or "html" not in page.outputs:
            continue
        entry = entries.get(page_key(page))
        thumb = thumbnail(site, page, THUMBNAIL_WIDTH) if with_thumbnails else None
        pages.append(
            SearchPage(
                url=page.rel_permalink,
                title=page.title,
                language=language,
                order=page.date.isoformat(),
                thumbnail=thumb.rel_permalink if thumb is not None else "",
                # A body rendered again is a new cache file (``blob``); in memory, no name.
                text_version=entry.blob if entry is not None else "",
                text=functools.partial(_text, page, entry, cache),
            )
        )
    return pages


def _text(page: Page, entry: ContentEntry | None, cache: Path) -> str:
    if entry is not None:
        fields = content_fields(cache, entry)
        if fields is not None:
            return fields["plain"]
    return page.plain  # rendered again if the cache file was damaged since
