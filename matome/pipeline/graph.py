"""Stage 2, the site graph: the last run's, with the edited article bodies and the added
articles put in, when nothing else that shapes it changed; else loaded from ``content/``
and built anew.

The last graph is taken when every file whose bytes changed is an article whose front
matter reads the same (an edit below it, the usual commit to a matome blog), a new
article that ``graph/insert.py`` can put in (in a section and terms the site has), a
template or a static file (the graph reads neither); and no page fell due or expired
since (the loader would leave out others).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import os
from dataclasses import dataclass, field
from datetime import datetime

from ..content.loader import (
    CONTENT_EXTS,
    LoadResult,
    load_added_file,
    load_content,
    reload_page,
)
from ..content.page import Page
from ..errors import SourceError
from ..graph.insert import insert_pages, insertable
from ..graph.patch import reorder
from ..graph.site import Site, build_site
from ..images.early import EarlyThumbnails
from ..images.thumbnails import register_prepared, renumber_pages
from ..incremental import snapshot
from ..incremental.buildcache import BuildCache
from ..incremental.snapshot import Snapshot
from ..mounts import mount_prefixes, static_mounts
from ..parallel import FORKS
from ..render.environment import template_dirs, theme_dir
from .changes import Changes, content_prefixes
from .state import DiskStore


@dataclass
class Graph:
    site: Site
    build_id: str  # names this graph in the cache index and the record of the run
    kept: Snapshot | None  # the last run's graph it is, edited
    edits: list[tuple[Page, object]] = field(default_factory=list)  # the bodies put in
    # Pages whose title was put in, and those whose lists or neighbours it reordered.
    patched: list[Page] = field(default_factory=list)
    reordered: bool = False  # the site's pages changed places (its lists read otherwise)
    # The earliest publish date of the pages whose related rank changed: the ``related``
    # lists of pages as new or newer read otherwise.
    reranked: datetime | None = None
    errors: list[SourceError] = field(default_factory=list)
    warnings: list[SourceError] = field(default_factory=list)
    next_change: object = None  # when a future page is due or a page expires
    early: EarlyThumbnails | None = None  # the thumbnail encoder started during the load
    loaded: LoadResult | None = None  # as the loader made it (``store.keeps_loaded``)
    # The new articles put into the kept graph: it is planned and kept again.
    inserted: list[Page] = field(default_factory=list)


def load_graph(
    changes: Changes,
    store: DiskStore,
    cache: BuildCache | None,
    workers: int,
    children: contextlib.ExitStack,
) -> Graph:
    kept = kept_graph(changes, store, cache)
    graph = taken_graph(changes, store, *kept) if kept is not None else None
    if graph is not None:
        return graph
    config = changes.config
    early = None
    kept = reloaded(changes, store.loaded) if store.loaded is not None else None
    if kept is not None:
        loaded = pristine(kept)  # the graph changes what it is built from
    else:
        if FORKS:  # thumbnails are encoded on the core the load leaves idle
            early = children.enter_context(EarlyThumbnails(config, workers))
        known = store.known_files(changes)
        loaded = load_content(config, changes.now, early.page_read if early else None, known)
        if early:
            early.all_read()
        store.keep_files(changes, known)
        kept = pristine(loaded) if store.keeps_loaded else None
    site = build_site(config, loaded, changes.now)
    return Graph(
        site,
        os.urandom(8).hex(),
        None,
        errors=[*loaded.errors, *site.errors],
        warnings=list(loaded.warnings),
        next_change=loaded.next_change,
        early=early,
        loaded=kept,
    )


def taken_graph(
    changes: Changes, store: DiskStore, snap: Snapshot, edits: list, added: LoadResult | None
) -> Graph | None:
    """The last run's graph with the edits and the added pages put in; None when the added
    pages cannot be (the graph is then built anew)."""
    register_prepared(snap.site, snap.images)  # another site's run may have replaced them
    if added is not None:
        site = snap.site
        site.build_date = changes.now
        inserted = insert_pages(site, added.pages, changes.now)
        if inserted is None:
            return None
        store.graph_changed()
        snapshot.apply(site, edits, changes.now)  # bodies only: titles are not put in on disk
        warnings = [*snap.warnings, *added.warnings, *inserted.warnings]
        graph = Graph(site, snap.build_id, snap, edits, warnings=warnings)
        graph.patched = list(inserted.touched)
        graph.reordered = True
        graph.reranked = inserted.reranked
        graph.inserted = added.pages
        graph.next_change = _sooner(changes.last.next_change, added.next_change)
        return graph
    patched = snapshot.apply(snap.site, edits, changes.now)
    reordered: set[Page] = set()
    moved: dict[int, int] = {}
    reranked = None
    if patched:
        reordered, moved, reranked = reorder(snap.site, patched)
        if moved:  # the plan and the images name pages by their place
            renumber_pages(snap.site, moved)
            snap.outputs = [
                dataclasses.replace(o, page=moved[o.page]) if o.page in moved else o
                for o in snap.outputs
            ]
    if store.loaded is not None:  # the loader's copies hold the new files too
        by_file = {p.file.filename: p for p in store.loaded.pages if p.file is not None}
        for page, fm in edits:
            loaded = by_file.get(page.file.filename)
            if loaded is not None:
                loaded.body, loaded.body_line = fm.body, fm.body_line
                loaded.params, loaded.title = dict(page.params), page.title
                loaded.description = page.description
    graph = Graph(snap.site, snap.build_id, snap, edits, warnings=list(snap.warnings))
    graph.patched = list(reordered)
    graph.reordered = bool(patched) and bool(moved)
    graph.reranked = reranked
    graph.next_change = changes.last.next_change
    return graph


def reloaded(changes: Changes, last: LoadResult) -> LoadResult | None:
    """What the loader makes of the content when only existing content files changed: the
    last run's pages, but for those files, read again. None when a file is new or gone."""
    known = {p.file.filename: i for i, p in enumerate(last.pages) if p.file is not None}
    content = content_prefixes(changes.config)
    edited = [path for path in changes.files if path.startswith(content)]
    if not edited or any(path not in known or not os.path.isfile(path) for path in edited):
        return None
    pages: list[Page | None] = list(last.pages)
    again = {last.pages[known[path]].file.site_path for path in edited}
    fresh = LoadResult(static_files=last.static_files, skipped=last.skipped)
    fresh.warnings = [w for w in last.warnings if w.path not in again]
    fresh.next_change = last.next_change
    for path in edited:
        result = reload_page(changes.config, last.pages[known[path]], changes.now)
        fresh.errors += result.errors
        fresh.warnings += result.warnings
        fresh.next_change = _sooner(fresh.next_change, result.next_change)
        pages[known[path]] = result.pages[0] if result.pages else None  # a draft now
    fresh.pages = [p for p in pages if p is not None]
    return fresh


def pristine(loaded: LoadResult) -> LoadResult:
    """A copy of what the loader made that building the site graph will not change.

    The graph sets fields and appends to the pages' lists and dicts in place; copying
    every page and each of its containers keeps this copy as the loader left it."""
    pages = []
    for page in loaded.pages:
        clone = copy.copy(page)
        for name, value in clone.__dict__.items():
            if isinstance(value, (list, dict, set)):
                clone.__dict__[name] = copy.copy(value)
        pages.append(clone)
    result = LoadResult(pages=pages, static_files=list(loaded.static_files), skipped=loaded.skipped)
    result.errors, result.warnings = loaded.errors, loaded.warnings
    result.next_change = loaded.next_change
    return result


def kept_graph(
    changes: Changes, store: DiskStore, cache: BuildCache | None
) -> tuple[Snapshot, list, LoadResult | None] | None:
    """The last run's graph, the body edits and the added pages to put in it, or None when
    it must be built."""
    last = changes.last
    if last is None or cache is None or cache.build_id != last.build_id:
        return None
    if last.next_change is not None and changes.now >= last.next_change:
        return None  # a page became due or expired: the loader would leave out others
    source = changes.config.source
    templates = tuple(f"{d}{os.sep}" for d in template_dirs(source))
    statics = mount_prefixes(static_mounts(changes.config.mounts, theme_dir() / "static"))
    content = content_prefixes(changes.config)
    edited, added = set(), set()
    for path in changes.files:
        if path.startswith(templates) or path.startswith(statics):
            continue
        if not path.startswith(content) or path not in changes.stamps:
            return None  # a file removed is no edit of the graph's pages
        if path in last.digests:
            if not path.endswith(CONTENT_EXTS):
                return None
            edited.add(path)
        else:
            added.add(path)
    new = None
    if added:
        new = added_pages(changes, store, added)
        if new is None:
            return None
    snap = store.graph(changes.fingerprint, last.build_id)
    if snap is None:
        return None
    if new is not None and not all(insertable(snap.site, p, changes.now) for p in new.pages):
        return None
    # In memory (``matome serve``), a title edit is put into the graph rather than the
    # graph built again; a build on disk would have to keep the graph again.
    by_file = store.view_of(snap.site).by_file
    edits = snapshot.body_edits(snap.site, edited, by_file, patch=store.keeps_loaded)
    return None if edits is None else (snap, edits, new)


def added_pages(changes: Changes, store: DiskStore, added: set[str]) -> LoadResult | None:
    """The pages of the content files ``added`` (and the files of their bundles), read;
    None when one is no page (a draft, a file in error) or a file is no page's, with
    ``enableGitInfo`` (a page's dates come from Git, which the full load reads), or in
    memory (``matome serve`` keeps the loader's pages, which would need them too)."""
    if store.keeps_loaded or changes.config.enable_git_info:
        return None
    result = LoadResult()
    for path in sorted(p for p in added if p.endswith(CONTENT_EXTS)):
        one = load_added_file(changes.config, path, changes.now)
        if one is None or one.errors or len(one.pages) != 1:
            return None
        result.pages += one.pages
        result.warnings += one.warnings
        result.next_change = _sooner(result.next_change, one.next_change)
    # Every other file added is a resource of a new leaf bundle.
    bundles = tuple(
        f"{os.path.dirname(p.file.filename)}{os.sep}"
        for p in result.pages
        if p.file.base_name == "index"
    )
    if not result.pages or not all(
        p.endswith(CONTENT_EXTS) or p.startswith(bundles) for p in added
    ):
        return None
    return result


def _sooner(one: datetime | None, other: datetime | None) -> datetime | None:
    """The earlier of two moments a page falls due or expires (None: never)."""
    return min((d for d in (one, other) if d is not None), default=None)
