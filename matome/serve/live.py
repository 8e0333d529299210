"""The site ``matome serve`` keeps: the pipeline's runs, one per change, with their state
in memory, and what a browser asked for lately.

Each change runs the same pipeline as ``matome build`` (``pipeline/``), told which paths
the watcher saw. Its state (the build cache, the site graph, the loader's pages) stays
in memory from one run to the next, and is written to ``.matome-cache/serve/`` when
serve is idle, so the next ``matome serve`` starts from it.

When a run has more than ``RENDER_AT_ONCE`` files to render, only the changed page and
the pages a browser asked for lately are rendered at once; the others are rendered when
a browser asks for them (Hugo's fast render mode), and so are the bodies that only list
what changed elsewhere (the newest articles, after one is renamed).
"""

from __future__ import annotations

import gc
import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..config import CONFIG_EXTS, ROOT_NAMES, Flags, SiteConfig
from ..content.languages import content_roots
from ..content.page import Page
from ..errors import BuildFailed, SourceError
from ..graph.site import Site
from ..incremental import buildcache
from ..incremental.buildcache import OutputRecord
from ..incremental.reads import page_key
from ..mounts import component_folders, static_mounts
from ..pipeline import Options, context, run
from ..pipeline.bodies import render_pages
from ..pipeline.outputs import ReadNumbers, write_chunk
from ..pipeline.report import BuildReport
from ..pipeline.state import MemoryStore
from ..progress import Progress
from ..render.environment import theme_dir
from ..render.plan import Output, out_paths
from ..search import OUTPUT_DIR, article_pages, search_enabled

# More template renders than this in one run: render what the browser shows now, the
# rest when it is asked for (Hugo's fast render mode).
RENDER_AT_ONCE = 8
TEMPLATE_KINDS = ("page", "pager", "sitemap", "robots", "404")
VISITED = 64  # pages a browser asked for lately: rendered at once after a change
SEARCH_FOLDERS = frozenset({OUTPUT_DIR})  # the background search index's, in the served folder


@dataclass
class Outcome:
    """What one run did, for the terminal and the browser."""

    errors: list[SourceError] = field(default_factory=list)
    warnings: list[SourceError] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    rendered_content: int = 0
    rendered_outputs: int = 0
    deferred: int = 0  # files left to render when they are asked for
    files: int = 0  # files the site has
    kind: str = "full"  # full, graph (site graph built again), reuse (graph kept), none
    changed_page: str = ""  # URL path of the first changed page, for --navigateToChanged
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def css_only(self) -> bool:
        return bool(self.written) and all(p.endswith(".css") for p in self.written + self.removed)


@dataclass
class SitePaths:
    source: Path
    content: list[Path]  # the site's content folder, and each language's own
    templates: list[Path]  # the site's first
    static: list[Path]
    assets: list[Path]  # the assets mounts (``assets/``)
    config_dir: Path
    i18n: list[Path] = field(default_factory=list)  # the i18n mounts (``i18n/``)
    unwatched: list[Path] = field(default_factory=list)  # mounts with ``disableWatch``

    @property
    def folders(self) -> list[Path]:
        """The folders to watch with everything below them (a mount of one file: its
        folder, whose other files are no kind of input)."""
        places = [*self.content, *self.templates, *self.static, *self.assets, *self.i18n]
        places = [p for p in places if p not in self.unwatched]
        return [p.parent if p.is_file() else p for p in [*places, self.config_dir]]

    def kind_of(self, path: Path) -> str:
        """config, template, content, static, assets or '' (not something a build reads)."""
        if path.parent == self.source:
            stem, _, ext = path.name.partition(".")
            if stem in ROOT_NAMES and ext in CONFIG_EXTS:
                return "config"
            folders = ("config", "templates", "static", "i18n", "assets")
            mounted = [*self.content, *self.static, *self.assets, *self.i18n]
            if path.name in folders or path in mounted:
                return "folder"  # a watched folder appeared or went away
            return ""
        for kind, roots in (
            ("config", [self.config_dir, *self.i18n]),
            ("template", self.templates),
            ("content", self.content),
            ("static", self.static),
            ("assets", self.assets),
        ):
            if any(path.is_relative_to(r) for r in roots):
                return kind
        return ""


def site_paths(source: Path, config: SiteConfig) -> SitePaths:
    source = source.resolve()
    return SitePaths(
        source=source,
        content=[root.path.resolve() for root in content_roots(config)],
        templates=[(source / "templates").resolve(), (theme_dir() / "templates").resolve()],
        static=[m.source for m in static_mounts(config.mounts, theme_dir() / "static")],
        assets=component_folders(config.mounts, "assets"),
        config_dir=(source / "config").resolve(),
        i18n=component_folders(config.mounts, "i18n"),
        unwatched=[m.source for m in config.mounts if not m.watch],
    )


class LiveSite:
    """The served site: runs of the pipeline into ``root``, with their state in memory."""

    def __init__(
        self,
        source: Path,
        flags: Flags,
        root: Path,
        workers: int | None = None,
        fast_render: bool = True,
        cache: Path | None = None,
    ):
        self.source = source.resolve()
        self.fast_render = fast_render  # False: every run renders all it affects at once
        self.root = root  # the served folder
        self.flags = replace(flags, destination=str(root.resolve()))
        self.workers = workers or os.cpu_count() or 1
        # ``cache``: where the state is kept between serves (by default beside ``root``).
        self.store = MemoryStore(cache or root.parent / f".{root.name}-cache", root.resolve())
        self.config: SiteConfig | None = None
        self.paths: SitePaths | None = None
        self.pending: set[Path] = set()  # changes of runs that failed, tried again next time
        self.stale: set[str] = set()  # out_paths whose served file is out of date
        self.stale_content: set[str] = set()  # page keys whose body is out of date
        self.visited: OrderedDict[str, None] = OrderedDict()
        self.seen: set[str] = set()  # the paths of the run in progress
        # Runs happen in the watcher's thread, renders on request in the server's threads.
        self.lock = threading.RLock()
        self._visited_lock = threading.Lock()
        self._settled = True  # see settle()
        self._changed_at = 0.0
        self.search = None  # the search index (search.live.LiveSearch), if the site has one
        self.search_due = False  # a run changed the site since the index was last asked for
        self.running = False  # a run is on (in the watcher's thread, holding ``lock``)

    @property
    def site(self) -> Site | None:
        run_context = self.store.context
        return run_context.site if run_context is not None else None

    # --- entry points --------------------------------------------------------------
    def full(self) -> Outcome:
        """The first run: from ``.matome-cache/serve/`` when it is there."""
        with self.lock:
            return self._run(None)

    def update(self, changed: set[Path]) -> Outcome:
        """A run after ``changed`` paths changed on disk."""
        with self.lock:
            if self.paths is not None and not self.affected_by(changed):
                return Outcome(kind="none")
            return self._run(self.pending | changed)

    def affected_by(self, changed: set[Path]) -> bool:
        """Whether any of these paths is something a build reads (or a failed one is pending)."""
        return self.paths is None or any(self.paths.kind_of(p) for p in self.pending | changed)

    def settle(self, idle: float = 1.0) -> bool:
        """Once nothing has changed for ``idle`` seconds: free what the last runs left (an
        old site graph is garbage in cycles), freeze what stays, so that the cyclic
        collector skips it during the next run, and write the state to disk. Returns
        whether it ran."""
        if self._settled or time.monotonic() - self._changed_at < idle:
            return False
        with self.lock:
            gc.unfreeze()
            gc.collect()
            self.store.flush()
            self.store.readers()  # made now, not by the next edit
            self.store.pair_ids()
            gc.freeze()
            self._settled = True
        return True

    def visit(self, out_path: str) -> None:
        """The server sent this page to a browser: keep it fresh at once after a change."""
        with self._visited_lock:
            self.visited[out_path] = None
            self.visited.move_to_end(out_path)
            while len(self.visited) > VISITED:
                self.visited.popitem(last=False)

    def ensure(self, out_path: str) -> list[SourceError]:
        """Render ``out_path`` now if a run left it for later (before it is served). While
        a run is on, wait for it: it publishes its files before it says which it left for
        later, and a file asked for in between would be served as it was."""
        if out_path not in self.stale and not self.running:
            return []
        with self.lock:
            if out_path not in self.stale:
                return []
            return self._render_later([out_path])

    def finish(self) -> Outcome:
        """Render everything left for later (tests and benchmarks compare the whole folder)."""
        with self.lock:
            started = time.perf_counter()
            outcome = Outcome(kind="finish", errors=self._render_later(sorted(self.stale)))
            if outcome.ok and self.store.last is not None:
                self.store.last.unfinished = bool(self.stale or self.stale_content)
            outcome.seconds = time.perf_counter() - started
            return outcome

    # --- what may wait (the pipeline's ``Preview``) ---------------------------------
    def bodies_can_wait(self, pages: list[Page]) -> list[Page]:
        """Bodies that can wait until a browser asks for a page that shows them: not when
        there are few, nor when a page a browser looked at lately shows them, nor when
        another body reads them."""
        if not self.fast_render or len(pages) <= 3:
            return []
        cache = self.store.index
        if cache is None:
            return []
        with self._visited_lock:
            visited = set(self.visited)
        read_by_bodies = {pair[0] for e in cache.content.values() for pair in e.reads}
        keys = {page_key(p) for p in pages}
        shown = buildcache.body_readers(cache, keys, self.store.pair_ids(), self.store.readers())
        later = []
        for page in pages:
            key = page_key(page)
            if page.file.filename in self.seen or key in read_by_bodies:
                continue
            if shown.get(key, set()) & visited:
                continue
            later.append(page)
        return later

    def split_outputs(
        self, todo: list[Output], site: Site, edited: set[str]
    ) -> tuple[list[Output], list[Output]]:
        """Now: everything when there is little to render; else what is cheap (copies,
        redirects), the changed pages' own HTML and the pages a browser looked at lately."""
        heavy = sum(1 for item in todo if item.kind in TEMPLATE_KINDS)
        if not self.fast_render or heavy <= RENDER_AT_ONCE:
            return todo, []
        with self._visited_lock:
            visited = set(self.visited)
        now, later = [], []
        for item in todo:
            page = site.pages[item.page] if item.page >= 0 else None
            own = (
                page is not None
                and item.fmt == "html"
                and page.file is not None
                and page.file.filename in self.seen
            )
            if item.kind not in TEMPLATE_KINDS or own or item.out_path in visited:
                now.append(item)
            else:
                later.append(item)
        return now, later

    # --- runs ----------------------------------------------------------------------
    def _run(self, changed: set[Path] | None) -> Outcome:
        self.running = True
        try:
            return self._run_pipeline(changed)
        finally:
            self.running = False

    def _run_pipeline(self, changed: set[Path] | None) -> Outcome:
        started = time.perf_counter()
        had_state = self.store.last is not None
        self.seen = {str(p) for p in changed} if changed is not None else set()
        options = Options(
            jobs=self.workers,
            clean=self.store.last is None,  # a folder an earlier serve left
            seen=changed if had_state else None,
            preview=self if self.store.context is not None else None,  # the first run: all
            search=False,  # made in the background after the run (``index_search``)
            outside=SEARCH_FOLDERS,
            remove_unplanned=True,
        )
        try:
            report = run(self.source, self.flags, self.store, options, Progress())
        except (BuildFailed, SourceError) as failure:  # SourceError: the configuration
            errors = failure.errors if isinstance(failure, BuildFailed) else [failure]
            self.store.failed()
            self.pending = set(changed or ())
            self._touched()
            return Outcome(errors=list(errors), seconds=time.perf_counter() - started)
        self.pending = set()
        self.config = self.store.context.site.config if self.store.context else self.config
        if self.config is not None:
            self.paths = site_paths(self.source, self.config)
        outcome = self._outcome(report, had_state)
        if outcome.kind != "none":
            self.search_due = True
        outcome.seconds = time.perf_counter() - started
        self._touched()
        return outcome

    def index_search(self) -> None:
        """The search index of the last run, made in the background: the page is shown
        at once, its search results a moment later. Called once the browser was told, so
        that the index's thread does not hold the interpreter while the reload is sent."""
        with self.lock:
            if self.search_due:
                self.search_due = False
                self._index_search()

    def _index_search(self) -> None:
        run_context = self.store.context
        if run_context is None or not search_enabled(run_context.site.config.params):
            return
        if self.search is None:
            from ..search.live import LiveSearch

            self.search = LiveSearch(self.root, self.store.folder / "search", self.workers)
        entries = self.store.index.content if self.store.index is not None else {}
        site, folder = run_context.site, self.store.folder
        # The articles are listed in the index's thread: the reload need not wait for it.
        self.search.refresh(lambda: article_pages(site, entries, folder))

    def _outcome(self, report: BuildReport, had_state: bool) -> Outcome:
        checked = report.stages.keys() == {"check"}
        if not checked:
            self.stale = (self.stale - set(report.written)) | set(report.deferred)
            if self.store.snap is not None:
                planned = out_paths(self.store.snap.outputs)
                self.stale &= planned
            self.stale_content = set(report.waiting)
        if checked:
            kind = "none"
        elif report.graph_kept:
            kind = "reuse"
        else:
            kind = "graph" if had_state else "full"
        return Outcome(
            warnings=report.warnings,
            written=report.written,
            removed=report.removed,
            rendered_content=report.rendered_content,
            rendered_outputs=report.rendered_outputs,
            deferred=len(self.stale),
            files=len(self.store.snap.outputs) if self.store.snap else 0,
            kind=kind,
            changed_page=report.changed_pages[0] if report.changed_pages else "",
        )

    def _render_later(self, paths: list[str]) -> list[SourceError]:
        """The bodies and files a run left for later, rendered here and now."""
        store, run_context = self.store, self.store.context
        if run_context is None or store.index is None or store.snap is None:
            return []
        planned = {item.out_path: item for item in store.snap.outputs}
        items = [planned[p] for p in paths if p in planned]
        site = run_context.site
        view = store.view_of(site)
        errors: list[SourceError] = []
        context.CURRENT = run_context
        run_context.staging = run_context.published = self.root
        run_context.empty_staging = False
        try:
            if self.stale_content:
                pages = [view.by_key[k] for k in sorted(self.stale_content) if k in view.by_key]
                render_pages(site, view, pages, store.index, 1, Progress(), errors)
                if errors:
                    return errors
                self.stale_content = set()
            numbers = ReadNumbers(store.index, None, [], view, store.pair_ids())
            for row in write_chunk(items):
                path, status, reads, templates, stat, _, _ = row
                if isinstance(status, SourceError):
                    errors.append(status)
                    continue
                sig = buildcache.plan_sig(planned[path], site)
                record = OutputRecord(sig, numbers.file_reads(reads), templates, *stat)
                store.recorded(path, store.index.outputs.get(path), record)
                store.index.outputs[path] = record
                store.last.files[path] = stat
                self.stale.discard(path)
            run_context.log.partials = None
        finally:
            context.CURRENT = None
        store.dirty = True
        return errors

    def _touched(self) -> None:
        self._settled, self._changed_at = False, time.monotonic()
