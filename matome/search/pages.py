"""A site's articles as search records, from what the build already has: URL, title,
thumbnail, date, and the text of the rendered body (``page.plain``), read from the
build cache only for the articles whose body was rendered again."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from html.parser import HTMLParser
from pathlib import Path

from ..content.page import Page
from ..content.words import strip_html
from ..images.thumbnails import thumbnail
from ..incremental.buildcache import ContentEntry, content_fields
from ..incremental.reads import page_key
from ..markup.expand import VOID_ELEMENTS
from .bundles import SearchPage

# The card thumbnail (images.CARD), which the browser may have already.
THUMBNAIL_WIDTH = 480
IGNORE = "data-pagefind-ignore"


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
    fields = content_fields(cache, entry) if entry is not None else None
    if fields is None:  # rendered again if the cache file was damaged since
        fields = {"content_html": page.content_html, "plain": page.plain}
    html = fields["content_html"]
    return strip_html(without_ignored(html)) if IGNORE in html else fields["plain"]


def without_ignored(html: str) -> str:
    """``html`` without the elements marked ``data-pagefind-ignore`` (and what they hold),
    which Pagefind leaves out of its index: what changes with other pages (the theme's
    ``list`` of recent articles) does not make an article's text change."""
    # Parsed from the tag before the first mark: no element before it is left out.
    first = max(html.rfind("<", 0, html.find(IGNORE)), 0)
    cutter = _IgnoredParts()
    cutter.feed(html[first:])
    cutter.close()
    kept, at = [html[:first]], first
    for start, end in cutter.parts:
        kept.append(html[at : first + start])
        at = max(at, first + end)
    kept.append(html[at:])
    return "".join(kept)


class _IgnoredParts(HTMLParser):
    """The spans (offsets into the fed text) of the elements marked ignored."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.parts: list[tuple[int, int]] = []
        self.lines = [0]
        self.open: list[str] = []  # the tags open inside the ignored element
        self.start = 0

    def feed(self, data: str) -> None:
        for line in data.split("\n"):  # lines as the parser counts them
            self.lines.append(self.lines[-1] + len(line) + 1)
        super().feed(data)

    def close(self) -> None:
        super().close()
        if self.open:  # ignored to the end, as an unclosed element holds the rest
            self.parts.append((self.start, self.lines[-1] - 1))

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in VOID_ELEMENTS:
            return
        if self.open:
            self.open.append(tag)
        elif any(name == IGNORE for name, _ in attrs):
            self.open, self.start = [tag], self._offset()

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.open:
            return
        while self.open.pop() != tag:  # an element left open ends with its parent
            pass
        if not self.open:
            end = self.rawdata.find(">", self._offset()) + 1
            self.parts.append((self.start, end or len(self.rawdata)))
