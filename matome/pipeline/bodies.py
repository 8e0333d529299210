"""Stage 3, page bodies: shortcodes and Markdown of every page, from the build cache when
they would render the same, else rendered in forked workers.

A body is taken from the cache when its source is the same, no template it loaded
changed and every read it made (another page's title through ``ref``, a site list)
returns what it returned before. A body from the cache stays on disk until a template
reads it (``defer_rendered``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..content.page import LARGE_FIELDS, RENDERED_FIELDS, Page, defer_rendered
from ..errors import SourceError
from ..graph.site import Site
from ..incremental import buildcache, snapshot
from ..incremental.buildcache import BuildCache, ContentEntry
from ..incremental.reads import LOOKUP, THUMB, UNSET, GraphView, page_key
from ..markup.expand import ContentRenderer, attach_content
from ..parallel import map_chunks
from ..progress import Progress
from ..render.environment import template_error
from ..render.undefined import add_once
from . import context

# Where the view keeps the cache's form of each read worked out in this run.
STORED = ("@stored",)
# The reads that return a rendered field, by the field's name (see reads._PAGE_SPECIAL).
READ_AS = {
    "content_html": ("content", "content_html"),
    "summary_html": ("summary", "summary_html"),
}


def render_bodies(
    site: Site,
    view: GraphView,
    cache: BuildCache | None,
    changed: frozenset[str] | None,
    fresh: BuildCache,
    workers: int,
    progress: Progress,
    edited: set[str] | None,
    stored: set[str] | None,
    may_wait: Callable[[list[Page]], list[Page]] | None = None,
    warnings: list[SourceError] | None = None,
) -> tuple[int, list[Page], list[SourceError]]:
    """Put every page's body on it; return how many were rendered, those left as they
    were for now (``may_wait``), and the errors.

    ``edited``: the pages whose file changed since the last run; the files of the others
    are as the cache saw them (on a kept graph their body is not loaded: read from the
    file if the page must be rendered again). None: every page's source is compared.
    ``stored``: the bodies on disk (``buildcache.stored_bodies``); None when all that the
    cache names are there (no other hand writes in the cache folder).
    ``may_wait(pages)``: of the pages whose body only reads what changed elsewhere in the
    graph, those whose old body may stay until it is asked for (``matome serve``)."""
    run = context.CURRENT
    todo: list[Page] = []
    graph_only: list[tuple[Page, ContentEntry]] = []
    errors: list[SourceError] = []
    for page in site.pages:
        if page.file is None:
            continue
        key = page_key(page)
        entry = cache.content.get(key) if cache else None
        why = "source"
        if entry is not None and (stored is None or entry.blob in stored):
            unchanged_file = edited is not None and key not in edited
            why = stale_reason(entry, page, view, changed, unchanged_file)
        if not why:
            reuse(page, entry, fresh, run)
        elif why == "graph" and may_wait is not None:
            graph_only.append((page, entry))
        else:
            todo.append(page)
    waiting = may_wait([page for page, _ in graph_only]) if graph_only else []
    waits = {id(page) for page in waiting}
    for page, entry in graph_only:
        if id(page) in waits:
            reuse(page, entry, fresh, run)
        else:
            todo.append(page)
    rendered = render_pages(site, view, todo, fresh, workers, progress, errors, warnings)
    return rendered, waiting, errors


def render_pages(
    site: Site,
    view: GraphView,
    pages: list[Page],
    fresh: BuildCache,
    workers: int,
    progress: Progress,
    errors: list[SourceError],
    warnings: list[SourceError] | None = None,
) -> int:
    """Render these pages' bodies (in forked workers when many) and put each on its page
    with an entry in ``fresh``; return how many were rendered. ``warnings`` gets the
    undefined names the templates used."""
    run = context.CURRENT
    indices = []
    for page in pages:
        try:
            snapshot.read_body(page)
        except SourceError as e:
            errors.append(e)
            continue
        indices.append(page.index)
    rows = list(map_chunks(render_chunk, indices, workers, progress, "Rendering content"))
    rendered = []
    for index, result, source, reads, templates, warned in rows:
        if warnings is not None:
            add_once(warnings, warned)
        if isinstance(result, SourceError):
            errors.append(result)
            continue
        page = site.pages[index]
        fields, digests = result
        page.__dict__.update(fields)
        entry = ContentEntry(source[0], None, {}, templates, source[1], fields)
        # The HTML and its text, the largest fields, stay in the cache file until the
        # page's own file is written, and are compared by their digests, made by the worker.
        defer_rendered(page, cached_fields_loader(page, entry, run), LARGE_FIELDS)
        rendered.append((page, entry, reads, digests))
    view.forget()  # the graph has its bodies now
    known = view.memo[STORED] = {}
    for page, _, _, digests in rendered:
        key = page_key(page)
        for name, digest in digests.items():
            for attr in READ_AS.get(name, (name,)):
                known[(key, attr)] = digest
    for page, entry, reads, _ in rendered:
        entry.reads = {pair: current(view, pair) for pair in reads}
        fresh.content[page_key(page)] = entry
    return len(indices)


def reuse(page: Page, entry: ContentEntry, fresh: BuildCache, run: context.RunContext) -> None:
    loader = page.__dict__.get("load_rendered")
    if loader is not None and getattr(loader[0], "entry", None) is entry:
        # A kept graph's page whose fields come from this entry already (kept or left
        # for the cache file): only the renderer of a damaged file is this run's now.
        loader[0].content = run.content
    else:
        defer_rendered(page, cached_fields_loader(page, entry, run), LARGE_FIELDS)
    page.__dict__.update(entry.listed)
    fresh.content[page_key(page)] = entry


def cached_fields_loader(page: Page, entry: ContentEntry, run: context.RunContext) -> Callable:
    return CachedFields(page, entry, run.content, run.cache_folder)


@dataclass(eq=False)
class CachedFields:
    """A page's rendered fields, from the cache (``defer_rendered``'s loader); rendered
    again with ``content`` if the cache file was damaged since."""

    page: Page
    entry: ContentEntry
    content: ContentRenderer
    folder: Path

    def __call__(self) -> dict:
        run = context.CURRENT
        if run is not None:
            run.loaded.append(self.page)
        fields = buildcache.content_fields(self.folder, self.entry)
        if fields is None:
            snapshot.read_body(self.page)
            attach_content(self.page, self.content.render_page(self.page))
            fields = {name: self.page.__dict__[name] for name in RENDERED_FIELDS}
        return fields


def stale_reason(
    entry: ContentEntry, page: Page, view: GraphView, changed: frozenset[str], unchanged_file: bool
) -> str:
    """Why a cached body cannot be used: '' (it can), 'graph' when only what it reads from
    other pages or ``site`` changed, else 'source'."""
    if changed and not entry.templates.isdisjoint(changed):
        return "source"
    if not unchanged_file and entry.source != buildcache.content_source(page):
        return "source"
    derived = buildcache.content_attributes()
    why = ""
    for pair, value in entry.reads.items():
        # Another page's body is not rendered yet when this is decided: render again.
        if pair[1] in derived:
            return "source"
        if current(view, pair) != value:
            # A lookup that no longer finds its page is an error to report now, not later.
            if pair[0] == THUMB or pair[0].startswith(LOOKUP):  # @lookup:fr too
                return "source"
            why = "graph"
    return why


def current(view: GraphView, pair: tuple) -> Any:
    """A read's value on this run's graph, as the cache keeps it (kept until the view forgets)."""
    stored = view.memo.get(STORED)
    if stored is None:
        stored = view.memo[STORED] = {}
    # Not try/except KeyError: most calls miss (a body's reads are each asked for once
    # when its entry is made), and a raised KeyError costs more than the lookup.
    value = stored.get(pair, UNSET)
    if value is UNSET:
        value = stored[pair] = buildcache.storable(view.value(pair))
    return value


def render_chunk(indices: list[int]) -> list[tuple]:
    """Render bodies (in a worker); each one's page fields go to the cache from here."""
    run = context.CURRENT
    names = run.env.undefined_names  # what each render used that does not exist
    out = []
    for index in indices:
        page = run.site.pages[index]
        run.log.begin()
        try:
            rendered = run.content.render_page(page)
        except SourceError as e:
            rendered = e
        except Exception as e:  # a template bug must name the page, not crash the build
            rendered = template_error(e)
            if rendered.path:  # the template's line; the message names the page
                rendered.message = f"while rendering {page.file.site_path}: {rendered.message}"
            else:  # no template's: the page is where to look
                rendered.path = page.file.site_path
                rendered.message = f"while rendering: {rendered.message}"
        reads, templates = run.log.end()
        if isinstance(rendered, SourceError):
            out.append((index, rendered, ("", ""), reads, templates, names.take()))
            continue
        attach_content(page, rendered)
        # The worker keeps none of it: the parent has the fields, the HTML is on disk.
        fields = {name: page.__dict__.pop(name) for name in RENDERED_FIELDS}
        source = buildcache.content_source(page)
        blob = buildcache.save_fields(run.cache_folder, page_key(page), source, fields)
        # Long text is kept in the cache by its digest (``storable``): each made here,
        # once, and not by every output worker that reads the text. The largest fields
        # are not sent: the parent leaves them in the cache file (``LARGE_FIELDS``).
        digests = {name: buildcache.storable(fields.pop(name)) for name in LARGE_FIELDS}
        for name, value in fields.items():
            if type(value) is str and len(value) > buildcache.LONG_VALUE:
                digests[name] = buildcache.storable(value)
        fields["comment_count"] = page.comment_count  # read by every list card
        row = (fields, digests)
        out.append((index, row, (source, blob), reads, templates, names.take()))
    return out
