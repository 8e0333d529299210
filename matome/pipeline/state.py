"""Where a run's results wait for the next run: the build cache, the site graph and the
record of the last run (``incremental/``).

``matome build`` reads them from ``.matome-cache/`` and writes them back (``DiskStore``).
``matome serve`` keeps the same objects in memory between its runs (``MemoryStore``),
starts from its own folder in ``.matome-cache/`` when one is there, and writes it back
when it is idle, so the next ``matome serve`` starts warm.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..content.loader import KnownFiles
from ..incremental import buildcache, known_files, snapshot
from ..incremental.buildcache import BuildCache, LastBuild, PairIndex
from ..incremental.reads import GraphView
from ..incremental.snapshot import Snapshot
from ..parallel import ForkedCall
from .context import RunContext


@dataclass
class DiskStore:
    folder: Path  # the cache folder: rendered bodies, compiled templates, the index files
    # Whether the published files may have been changed by another hand since the last
    # run (a deploy step, a person): they are then compared with what it wrote.
    check_published: bool = True
    # What the loader made, kept to read only the changed files again (``MemoryStore``).
    keeps_loaded = False
    loaded = None
    planned: set[str] | None = None  # the files the last run made (``MemoryStore``)
    view: GraphView | None = field(default=None, repr=False)  # see ``view_of``

    def view_of(self, site: Any) -> GraphView:
        """The reads of this site graph, worked out: made once per graph, whose pages stay
        the same objects while it is kept (its memo is forgotten each run)."""
        if self.view is None or self.view.site is not site:
            self.view = GraphView(site)
        else:
            self.view.forget()
        return self.view

    def graph_changed(self) -> None:
        """Pages were put into the graph the view was made for: it is made again."""
        self.view = None

    def pair_ids(self) -> PairIndex | None:
        """The cache's reads by number and by page, when kept (``ReadNumbers`` numbers
        them otherwise)."""
        return None

    def readers(self) -> dict[int, set[str]] | None:
        """Each read's files, when kept (``kept_outputs`` looks at every file otherwise)."""
        return None

    def last_build(self, print_: str) -> LastBuild | None:
        last = buildcache.load_last_build(self.folder, print_)
        return last if isinstance(last, LastBuild) else None

    def cache(self, print_: str) -> BuildCache | None:
        return buildcache.load(self.folder, print_)

    def graph(self, print_: str, build_id: str) -> Snapshot | None:
        return snapshot.load(self.folder, print_, build_id)

    def forget_last_build(self) -> None:
        """A run that changes the site makes the last one's record untrue until it succeeds."""
        buildcache.forget_last_build(self.folder)

    def known_files(self, changes: Any) -> KnownFiles:
        """The last load's pages whose file is as it was; none unless ``pages_as_before``
        (every page's source is then compared with its cached body's, which reads the
        body; or a page's dates come from Git)."""
        if not changes.pages_as_before:
            return KnownFiles({})
        args = changes.fingerprint, changes.stamps, changes.digests
        return known_files.known_files(self.folder, *args)

    def keep_files(self, changes: Any, known: KnownFiles) -> None:
        """Keep the pages just loaded for the next load, before the site graph changes
        them (not with ``enableGitInfo``: see ``known_files``)."""
        if not changes.config.enable_git_info:
            args = changes.fingerprint, known, changes.stamps, changes.digests
            known_files.keep_files(self.folder, *args)

    def save_cache(
        self, fresh: BuildCache, cache: BuildCache | None, kept: Set, renumber: Callable | None
    ) -> None:
        """The index, as what changed since ``cache`` when that is small. ``kept``: the
        files whose record is the last run's (``MemoryStore`` keeps its index of each
        read's files by them). ``renumber``, on a graph built anew: leaves out the reads
        no file makes any more, before the whole index is written."""
        if cache is None or not buildcache.save_changes(self.folder, fresh, cache):
            if renumber is not None:
                renumber()
            buildcache.save(self.folder, fresh)

    def save_graph(self, print_: str, snap: Snapshot, children: contextlib.ExitStack) -> Any:
        """Keep the graph, in a child (pickling empties its pages); returns its call."""
        return children.enter_context(ForkedCall(snapshot.save, self.folder, print_, snap))

    def save_last_build(self, print_: str, last: LastBuild) -> None:
        buildcache.save_last_build(self.folder, print_, last)

    def keep_run(
        self, context: RunContext, snap: Snapshot | None, loaded: Any, planned: set[str]
    ) -> None:
        """A finished run's context, graph, load and files: of no use once a build has ended."""


class MemoryStore(DiskStore):
    """The same state, kept in memory from one run to the next; read from the folder only
    when there is none yet (``matome serve``'s first run), written back by ``flush``."""

    keeps_loaded = True

    def __init__(self, folder: Path, destination: Path):
        # What an earlier serve left in the folder is checked once; after that, only serve
        # writes there.
        super().__init__(folder, check_published=True)
        self.destination = destination
        self.loaded = None
        self.ids: PairIndex | None = None
        self.by_read: dict[int, set[str]] | None = None
        self.dropped: dict[str, Any] = {}  # files still listed in by_read with no record
        self.fingerprint = ""
        self.last: LastBuild | None = None
        self.index: BuildCache | None = None
        self.snap: Snapshot | None = None
        self.context: RunContext | None = None
        self.dirty = False  # changed since it was last written to the folder

    def last_build(self, print_: str) -> LastBuild | None:
        if self.fingerprint != print_:
            self._forget()
            self.fingerprint = print_
            self.last = super().last_build(print_)
            if self.last is not None:  # an earlier serve served it from another folder
                self.last.destination = str(self.destination)
        return self.last

    def cache(self, print_: str) -> BuildCache | None:
        if self.index is None and self.fingerprint == print_:
            self.index = super().cache(print_)
        return self.index if self.fingerprint == print_ else None

    def graph(self, print_: str, build_id: str) -> Snapshot | None:
        if self.snap is None or self.snap.build_id != build_id:
            self.snap = super().graph(print_, build_id)
        return self.snap

    def forget_last_build(self) -> None:
        self.last = None
        super().forget_last_build()

    def save_cache(
        self, fresh: BuildCache, cache: BuildCache | None, kept: Set, renumber: Callable | None
    ) -> None:
        # On a kept graph the reads keep their numbers (``ReadNumbers.finish``): the index
        # of each read's files is brought up to date; otherwise it is made again when asked.
        if renumber is not None:  # a graph built anew
            renumber()
        if renumber is None and cache is self.index and self.by_read is not None:
            old = cache.outputs
            for path in (old.keys() | fresh.outputs.keys()) - kept:
                if old.get(path) is not fresh.outputs.get(path):
                    self.recorded(path, old.get(path), fresh.outputs.get(path))
        else:
            self.by_read = self.ids = None
        self.index = fresh
        self.dirty = True

    def recorded(self, path: str, before: Any, after: Any) -> None:
        """A file's record replaced: the index of each read's files follows. A file that
        lost its record (left for later, or gone) stays listed under its old reads until
        it has one again: it is rendered whatever they say, and then mostly reads what
        it read before, so only the difference moves."""
        if self.by_read is None:
            return
        if after is None:
            if before is not None:
                self.dropped[path] = before
            return
        before = self.dropped.pop(path, before)
        was = set(before.reads) if before is not None else set()
        now = set(after.reads)
        for i in was - now:
            self.by_read.get(i, set()).discard(path)
        for i in now - was:
            self.by_read.setdefault(i, set()).add(path)

    def pair_ids(self) -> PairIndex | None:
        if self.ids is None and self.index is not None:
            self.ids = PairIndex.of(self.index.pairs, self.index.values)
        return self.ids

    def readers(self) -> dict[int, set[str]] | None:
        if self.by_read is None and self.index is not None:
            by_read: dict[int, set[str]] = {}
            for path, record in self.index.outputs.items():
                for i in record.reads:
                    by_read.setdefault(i, set()).add(path)
            self.by_read = by_read
            self.dropped = {}
        return self.by_read

    def save_graph(self, print_: str, snap: Snapshot, children: contextlib.ExitStack) -> Any:
        self.snap = snap
        self.dirty = True
        return None

    def save_last_build(self, print_: str, last: LastBuild) -> None:
        self.last = last
        self.dirty = True

    def keep_run(
        self, context: RunContext, snap: Snapshot | None, loaded: Any, planned: set[str]
    ) -> None:
        self.check_published = False
        self.context = context
        self.planned = planned
        if snap is not None:
            self.snap = snap
        if loaded is not None:
            self.loaded = loaded

    def failed(self) -> None:
        """A run failed after it may have changed the graph in place: read it again."""
        self.snap = self.context = self.ids = self.by_read = self.view = None

    def flush(self) -> None:
        """Write the state to the folder, in a child: the graph is pickled there, which
        empties its pages, and this process goes on serving meanwhile."""
        if not self.dirty or self.last is None or self.index is None or self.snap is None:
            return
        self.dirty = False
        last, index, snap, print_ = self.last, self.index, self.snap, self.fingerprint
        with ForkedCall(_write_all, self.folder, print_, last, index, snap) as call:
            call.result()

    def _forget(self) -> None:
        self.last = self.index = self.snap = self.context = self.loaded = self.planned = None
        self.ids = self.by_read = self.view = None


def _write_all(folder: Path, print_: str, last: LastBuild, index: BuildCache, snap: Snapshot):
    buildcache.save(folder, index)
    snapshot.save(folder, print_, snap)
    buildcache.save_last_build(folder, print_, last)
