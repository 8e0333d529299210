"""One run of the pipeline, the same for ``matome build`` and ``matome serve``:

1. what changed (``changes.py``): the inputs' digests against the last run's; when none
   changed and the published files are as the last run left them, the run stops there;
2. the site graph (``graph.py``): the last run's with edited bodies put in, or loaded
   from ``content/`` and built (``content/``, ``graph/``);
3. page bodies (``bodies.py``): shortcodes and Markdown (``markup/``), from the build
   cache when they would render the same, else in forked workers;
4. the plan (``render/plan.py``): every file the site has;
5. the files (``outputs.py``): the last run's where they would come out the same, else
   rendered from templates (``render/``) in forked workers into a staging folder;
6. publish (``publish/``): the search index (begun while the files are written, when
   the last run's cache is there), then the staging folder moved or swapped in, only
   once everything has succeeded;
7. keep the state (``state.py``): the cache index, the graph and the record of this run,
   on disk for ``matome build``, in memory for ``matome serve``.

``matome serve`` adds a ``Preview``: which bodies and files may wait until a browser
asks for them (Hugo's fast render mode).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import os
import shutil
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from ..config import Flags, SiteConfig, load_config
from ..content.loader import CONTENT_EXTS
from ..content.page import Page
from ..errors import BuildFailed, SourceError
from ..graph.site import Site
from ..images.thumbnails import (
    encode_thumbnails,
    plan_thumbnails,
    prepared_for,
    remove_unfinished,
    thumbnail_cache,
)
from ..incremental import buildcache
from ..incremental.buildcache import BuildCache, LastBuild, PairIndex
from ..incremental.reads import (
    GraphView,
    ReadLog,
    instrument,
    log_lookups,
    log_thumbnails,
    page_key,
)
from ..incremental.snapshot import Snapshot
from ..markup.expand import ContentRenderer
from ..markup.markdown import MarkdownRenderer
from ..mounts import component_folders, mount_prefixes, static_mounts
from ..parallel import ForkedCall
from ..progress import Progress
from ..publish.staging import clean_stale, make_staging, move_in, swap_in
from ..render.environment import make_environment, template_dirs, theme_dir
from ..render.plan import Output, out_paths, outputs_not_in, plan_outputs
from ..render.resources import published_outputs
from ..render.site_functions import install_site_functions
from ..render.undefined import RenderWarning, fail_on_undefined
from ..search import (
    OUTPUT_DIR,
    article_pages,
    make_search,
    plan_search,
    search_enabled,
    update_search,
)
from . import context
from .bodies import render_bodies
from .changes import Changes, content_prefixes, detect_changes, nothing_changed
from .graph import Graph, load_graph
from .outputs import (
    ReadNumbers,
    count_outputs,
    kept_outputs,
    kept_partials,
    last_reads_now,
    thumbnails_shown,
    write_outputs,
)
from .report import BuildReport
from .state import DiskStore

__all__ = ["BuildReport", "Options", "Preview", "run"]


class Preview(Protocol):
    """What ``matome serve`` may leave for later, to show the page being edited sooner."""

    def bodies_can_wait(self, pages: list[Page]) -> list[Page]:
        """Of these pages, whose body only reads what changed elsewhere, those whose old
        body may stay until a file that shows it is asked for."""

    def split_outputs(
        self, todo: list[Output], site: Site, edited: set[str]
    ) -> tuple[list[Output], list[Output]]:
        """The files to render now, and those to render when they are asked for."""


@dataclasses.dataclass
class Options:
    jobs: int | None = None
    clean: bool = False  # --cleanDestinationDir
    read_cache: bool = True
    seen: set[Path] | None = None  # the only paths that may have changed (a watcher's)
    preview: Preview | None = None
    search: bool = True  # make the search index when the site asks for it
    remove_unplanned: bool = False  # delete the files of the last run no longer made
    strict: bool = False  # a name a template reads that does not exist is an error
    # Top-level folders of the destination that another writer keeps (``matome serve``'s
    # background search index): a run neither checks nor cleans them.
    outside: frozenset[str] = frozenset()


def run(
    source: Path,
    flags: Flags,
    store: DiskStore,
    options: Options | None = None,
    progress: Progress | None = None,
) -> BuildReport:
    """Build the site at ``source``; raise BuildFailed (nothing published) on any error."""
    # A run makes millions of objects that live until it ends (the graph, the rendered
    # fields): at the default thresholds the collector runs hundreds of times, finding
    # little garbage. Young collections less often (as mypy does), for this run and the
    # workers it forks.
    thresholds = gc.get_threshold()
    gc.set_threshold(200_000, 30, 30)
    with contextlib.ExitStack() as children:  # stopped if the run ends without them
        options = options or Options()
        try:
            report = _run(source, flags, store, options, progress or Progress(), children)
            if options.strict:  # also the last run's warnings, when nothing changed since
                fail_on_undefined(report.warnings)
            return report
        finally:
            context.CURRENT = None
            gc.unfreeze()  # what the cache loaded frozen (``buildcache._read``) is garbage now
            gc.set_threshold(*thresholds)


@dataclasses.dataclass
class _Run:
    """What the stages of one run share."""

    source: Path
    config: SiteConfig
    store: DiskStore
    options: Options
    progress: Progress
    children: contextlib.ExitStack
    changes: Changes
    workers: int
    clock: _Clock
    now: datetime
    templates: dict[str, str]  # template name -> digest
    cache: BuildCache | None  # the last run's index, when it can be used
    changed: frozenset[str] | None  # templates changed since that run
    published: ForkedCall | None  # the last run's published files checked (``_check_published``)
    graph: Graph | None = None
    report: BuildReport | None = None
    run_context: context.RunContext | None = None
    edited: set[str] | None = None  # the keys of the pages whose file changed (None: unknown)
    graph_warnings: list[SourceError] | None = None  # those a run on the same graph gives
    fresh: BuildCache | None = None  # this run's index, filled as files are rendered
    view: GraphView | None = None


@dataclasses.dataclass
class _Files:
    """What the write stage made: every file planned and what is on disk now."""

    delivered: list[Output]  # the files the site publishes
    written: set[str]  # the files this run wrote
    files: dict[str, tuple[int, int]]  # out_path -> (size, mtime) of each file written
    kept: dict  # out_path -> the last run's record, for files that came out the same
    graph: Snapshot | None  # the graph this run kept, when it built a new one
    thumbnails: bool  # whether the thumbnails are published (the templates show some)
    keeping: ForkedCall | None  # the child keeping that graph, waited for last


def _run(
    source: Path,
    flags: Flags,
    store: DiskStore,
    options: Options,
    progress: Progress,
    children: contextlib.ExitStack,
) -> BuildReport:
    started = time.perf_counter()
    clock = _Clock({})
    source = source.resolve()
    config = load_config(source, flags)
    now = datetime.now(UTC)
    changes = detect_changes(source, config, store, now, options.read_cache, children, options.seen)
    if nothing_changed(changes, store, options.clean, options.outside):
        return _as_last_time(changes.last, started)
    store.forget_last_build()
    published = _check_published(changes, store, options.read_cache, children)
    templates = buildcache.template_digests(template_dirs(source))
    cache = store.cache(changes.fingerprint) if options.read_cache else None
    changed = buildcache.changed_templates(cache, templates) if cache else None
    if changed is None:
        cache = None  # no cache, another fingerprint, or templates added or removed
    workers = options.jobs or os.cpu_count() or 1
    run = _Run(
        source, config, store, options, progress, children, changes, workers, clock, now,
        templates, cache, changed, published,
    )  # fmt: skip
    _load(run)
    thumbnails, encoding, early_jobs = _start_thumbnails(run.graph, changes, workers, children)
    waiting, errors = _render_bodies(run)
    outputs, plan_errors = _plan_files(run, thumbnails)
    if errors or plan_errors:
        raise BuildFailed(_sorted_errors(errors + plan_errors))
    done = _write_and_publish(run, outputs, thumbnails, encoding, early_jobs, waiting)
    _keep_state(run, done, started)
    return run.report


def _check_published(
    changes: Changes, store: DiskStore, read_cache: bool, children: contextlib.ExitStack
) -> ForkedCall | None:
    """Which of the last run's published files another hand changed, found by a child
    while this process loads the graph and the cache index (a stat a file: thousands)."""
    last = changes.last
    if last is None or not (read_cache and store.check_published):
        return None
    if last.destination != str(changes.destination):
        return None
    call = ForkedCall(buildcache.changed_files, changes.destination, last.files)
    return children.enter_context(call)


def _published_stamps(run: _Run) -> dict[str, tuple[int, int]] | None:
    """The last run's published files that are as it left them, with their stamps."""
    if run.published is None:
        return None
    changed = run.published.result()
    return {path: stamp for path, stamp in run.changes.last.files.items() if path not in changed}


def _load(run: _Run) -> None:
    """The site graph, this run's report and context, and the pages the changes touched."""
    graph = load_graph(run.changes, run.store, run.cache, run.workers, run.children)
    run.graph = graph
    run.report = BuildReport(
        warnings=list(graph.warnings),
        stages=run.clock.stages,
        graph_kept=graph.kept is not None,
        edited=len(graph.edits),
        added=len(graph.inserted),
        destination=run.changes.destination,
    )
    run.clock.lap("load (kept graph)" if graph.kept is not None else "load")
    run.run_context = _make_context(
        run.source, run.config, graph.site, run.store, run.options.strict
    )
    run.fresh = BuildCache(run.changes.fingerprint, run.templates, graph.build_id)
    run.view = run.store.view_of(graph.site)
    if graph.kept is not None:
        run.edited = {page_key(p) for p in [*(p for p, _ in graph.edits), *graph.inserted]}
    else:
        run.edited = _files_changed(run)
    by_file = run.view.by_file
    run.report.changed_pages = [
        by_file[f].rel_permalink for f in sorted(run.changes.files) if f in by_file
    ]
    run.clock.lap("site graph")


def _files_changed(run: _Run) -> set[str] | None:
    """On a graph built anew, the keys of the pages whose file changed since the last run:
    the others' cached bodies are of their file as it is. None (every page's source is
    compared) without a last run, or when a section's ``_index`` file changed (its
    cascade reaches pages whose file did not)."""
    changes = run.changes
    if not changes.only_own_files:
        return None
    site = run.graph.site
    return {
        page_key(p) for p in site.pages if p.file is not None and p.file.filename in changes.files
    }


def _only_pages_changed(run: _Run) -> set[str] | None:
    """``run.edited`` when the only content files that changed are pages (no bundle's
    resource, which its page's reads would show) and the others' pages are as before
    (``Changes.pages_as_before``), else None."""
    if not run.changes.pages_as_before:
        return None
    content = content_prefixes(run.config)
    files = [path for path in run.changes.files if path.startswith(content)]
    return run.edited if all(path.endswith(CONTENT_EXTS) for path in files) else None


def _render_bodies(run: _Run) -> tuple[list[Page], list[SourceError]]:
    """Every page's body (``bodies.py``); returns those left for later, and the errors."""
    graph, report = run.graph, run.report
    context.CURRENT = run.run_context
    may_wait = run.options.preview.bodies_can_wait if run.options.preview else None
    # The bodies the cache names are on disk unless another hand may have removed them.
    stored = None
    if run.cache is not None and run.store.check_published:
        stored = buildcache.stored_bodies(run.run_context.cache_folder)
    rendered, waiting, errors = render_bodies(
        graph.site, run.view, run.cache, run.changed, run.fresh, run.workers, run.progress,
        run.edited, stored, may_wait, report.warnings,
    )  # fmt: skip
    report.rendered_content = rendered
    report.cached_content = len(run.fresh.content) - rendered
    report.waiting = [page_key(p) for p in waiting]
    run.clock.lap("content")
    return waiting, list(graph.errors) + errors


def _plan_files(run: _Run, thumbnails) -> tuple[list[Output], list[SourceError]]:
    """Every file of the site; returns them and the errors."""
    report = run.report
    if thumbnails is not None:
        report.warnings += thumbnails.warnings
    outputs, problems = _plan(
        run.source, run.graph.site, run.graph.kept, thumbnails, run.changes, bool(run.changed)
    )
    report.warnings += [p for p in problems if p.severity != "error"]
    # What a run on the same graph warns about again (a render that used an undefined name
    # is rendered again, and warns again, each run).
    run.graph_warnings = [w for w in report.warnings if not isinstance(w, RenderWarning)]
    layouts = component_folders(run.config.mounts, "layouts")
    if any(folder.exists() for folder in layouts) or run.config.theme:
        report.warnings.append(
            SourceError(
                str(next((f for f in layouts if f.exists()), run.source / "layouts")),
                0,
                0,
                "Hugo layouts and themes are not used: matome renders with its own Jinja templates",
                "warning",
            )
        )
    run.clock.lap("plan")
    return outputs, [p for p in problems if p.severity == "error"]


def _write_and_publish(
    run: _Run, outputs: list[Output], thumbnails, encoding, early_jobs, waiting: list[Page]
) -> _Files:
    """The files into a staging folder, then published: the staging folder holds only the
    files this run changes (the search index's too), moved into place one by one when
    every file is ready; the whole new site swapped in when nothing is published yet."""
    destination = run.changes.destination
    sparse = destination.is_dir()
    run.run_context.empty_staging = not sparse
    staging = make_staging(destination, sparse)
    run.run_context.staging = staging
    run.run_context.published = destination if sparse else None
    searches = run.options.search and search_enabled(run.config.params)
    # Begun beside the files when a published index may be kept (else every bundle is
    # made, after the files, as ``clean_stale`` below expects the staging folder).
    early = searches and sparse and run.cache is not None
    search = None
    try:
        search = _start_search(run, staging) if early else None
        done = _write_files(run, outputs, thumbnails, encoding, early_jobs, waiting)
        if run.options.clean and not sparse:
            run.report.cleaned = clean_stale(staging, done.written, run.options.outside)
        index = _index_search(run, staging, done, search) if searches else None
        if sparse:
            move_in(staging, destination)
            if run.options.clean:
                run.report.cleaned = clean_stale(destination, done.written, run.options.outside)
        else:
            swap_in(staging, destination)
        if index is not None:
            index.publish(destination)
    except BaseException:
        if search is not None:
            search.abandon()  # it writes into the staging folder until it stops
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return done


def _write_files(
    run: _Run, outputs: list[Output], thumbnails, encoding, early_jobs, waiting: list[Page]
) -> _Files:
    """The files that would not come out the same, rendered into the staging folder; the
    thumbnails and processed images the templates showed; the graph and cache index kept."""
    graph, cache, store, report, fresh = run.graph, run.cache, run.store, run.report, run.fresh
    snap, site = graph.kept, graph.site
    patched = frozenset(page_key(p) for p in graph.patched)
    if graph.inserted:  # a lookup may find a page put in
        patched |= frozenset(run.view.lookups)
    index = store.pair_ids() if snap is not None and cache is not None else None
    current, stale = [], set()
    if cache:
        current, stale = last_reads_now(
            cache, run.view, fresh, snap is not None, patched, graph.reordered, index,
            graph.reranked, _only_pages_changed(run),
        )  # fmt: skip
    same_plan = snap is not None and outputs is snap.outputs
    readers = store.readers() if same_plan else None
    kept = kept_outputs(
        outputs, site, cache, run.changed, run.changes.destination, stale, same_plan,
        store.check_published, readers, _published_stamps(run),
    )  # fmt: skip
    fresh.partials = kept_partials(cache, stale, run.changed)
    run.clock.lap("staging")
    # The copies of thumbnails wait until the renders tell whether any are shown.
    thumbs = out_paths((thumbnails or snap.images).outputs)
    now, later = [], []
    for item in outputs:
        (later if item.kind == "copy" and item.out_path in thumbs else now).append(item)
    if run.options.preview is not None:
        now, deferred = _defer(
            run.options.preview, now, kept, site, run.edited, cache, waiting, index, readers
        )
        report.deferred = [item.out_path for item in deferred]
    numbers = ReadNumbers(fresh, cache, current, run.view, index)
    written, files, errors = write_outputs(
        now, kept, fresh, numbers, run.workers, run.progress, report
    )
    if errors:
        raise BuildFailed(_sorted_errors(errors))
    run.clock.lap("outputs")
    delivered = outputs  # the plan stays whole: the next run's templates may show them
    early = graph.early
    shown = not thumbs or thumbnails_shown(run.run_context.env, fresh)
    if not shown:
        # As Hugo makes only the images its templates ask for: a site whose own
        # templates show none gets none (the encoder had only idle cores so far).
        if early:
            early.stop()
            early = None
        if encoding is not None:
            encoding.stop()
            remove_unfinished(thumbnail_cache(run.config), encoding.pid)
            encoding = None
        later = []
        delivered = outputs_not_in(outputs, thumbs)
    # The assets and processed images templates showed (as Hugo, only those).
    resources, errors = published_outputs(site, fresh, outputs, run.run_context.env, index)
    if errors:
        raise BuildFailed(_sorted_errors(errors))
    later += resources
    delivered = delivered + resources
    kept_graph, keeping = _keep_graph(run, outputs, kept, encoding, early, early_jobs, numbers)
    more, more_files, errors = write_outputs(later, {}, fresh, numbers, 1, run.progress, report)
    if errors:
        raise BuildFailed(_sorted_errors(errors))
    written |= more
    files.update(more_files)
    run.clock.lap("thumbnails and cache index")
    return _Files(delivered, written, files, kept, kept_graph, shown, keeping)


def _keep_graph(
    run: _Run, outputs, kept: dict, encoding, early, early_jobs, numbers
) -> tuple[Snapshot | None, ForkedCall | None]:
    """The graph is kept (by a child, on disk) while the cache index is saved, the
    thumbnails may still encode and the files are published: the output workers are gone,
    so the pages the pickler touches are not copied for them, nor make the run's peak.
    Of no use without the LastBuild record, written only when the run has succeeded
    (``_keep_state`` waits for the child first). Returns the graph kept, when it is new
    or changed, and its child."""
    graph, store, print_ = run.graph, run.store, run.changes.fingerprint
    snap = graph.kept
    kept_graph = keeping = None
    graph_warnings = run.graph_warnings
    # Kept again when built, when pages were put in, or planned again (a static file
    # added or removed: the next run takes the plan with the graph).
    if snap is None or graph.inserted or outputs is not snap.outputs:
        images = prepared_for(graph.site)
        kept_graph = Snapshot(graph.build_id, graph.site, outputs, images, graph_warnings)
        keeping = store.save_graph(print_, kept_graph, run.children)
    numbers.finish(renumber=False)
    renumber = functools.partial(numbers.finish, renumber=True) if snap is None else None
    store.save_cache(run.fresh, run.cache, kept.keys(), renumber)
    image_warnings = encoding.result() if encoding is not None else []
    if early:
        image_warnings += early.finish(early_jobs)
    run.report.warnings += image_warnings
    if kept_graph is not None and image_warnings:  # a stand-in is kept: warned again
        if keeping is not None:
            keeping.result()
        kept_graph.warnings = graph_warnings + image_warnings
        keeping = store.save_graph(print_, kept_graph, run.children)
    return kept_graph, keeping


class _Abandoned(Exception):
    """The search index begun beside the files is not wanted (``_Search.hold``)."""


@dataclasses.dataclass
class _Search:
    """The search index made while the files are written, on the guess that its articles
    show thumbnails as the last run's templates did. Pagefind runs in its own processes,
    on the cores the writing leaves idle; the large bundles, whose Pagefind holds a whole
    bundle in memory, wait until the files are written."""

    thumbnails: bool  # the guess
    pool: ThreadPoolExecutor
    future: Future | None = None
    written: threading.Event = dataclasses.field(default_factory=threading.Event)
    wanted: bool = True  # set with ``written``: whether the guess held

    def hold(self) -> None:
        self.written.wait()
        if not self.wanted:
            raise _Abandoned

    def result(self, thumbnails: bool):
        """The index made, or None when the guess was wrong."""
        self.wanted = thumbnails == self.thumbnails
        self.written.set()
        try:
            index = self.future.result()
        except _Abandoned:
            index = None
        self.pool.shutdown()
        return index if self.wanted else None

    def abandon(self) -> None:
        self.wanted = False
        self.written.set()
        self.pool.shutdown()  # waits for it: whatever it raises is of no use now


def _start_search(run: _Run, staging: Path) -> _Search:
    shown = thumbnails_shown(run.run_context.env, run.cache)
    pages = article_pages(run.graph.site, run.fresh.content, run.store.folder, shown)
    planned = plan_search(pages, run.changes.destination, run.store.folder)
    search = _Search(shown, ThreadPoolExecutor(1, thread_name_prefix="search"))
    search.future = search.pool.submit(make_search, planned, staging, run.workers, search.hold)
    return search


def _index_search(run: _Run, staging: Path, done: _Files, search: _Search | None):
    """The search index of the articles whose text changed, into the staging folder: the
    one begun beside the files, or made now."""
    index = search.result(done.thumbnails) if search is not None else None
    if index is None:
        shutil.rmtree(staging / OUTPUT_DIR, ignore_errors=True)  # what a wrong guess made
        pages = article_pages(run.graph.site, run.fresh.content, run.store.folder, done.thumbnails)
        index = update_search(
            pages, staging, run.changes.destination, run.store.folder, run.workers
        )
    run.report.search_indexed = index.indexed
    run.report.non_page_files += len(index.written)
    done.files.update(index.files)
    done.written |= index.files.keys()
    run.clock.lap("search index")
    return index


def _keep_state(run: _Run, done: _Files, started: float) -> None:
    """What the next run starts from: the graph, the files planned and the record of this
    run (the cache index is kept by ``_keep_graph``)."""
    report, store, changes, graph = run.report, run.store, run.changes, run.graph
    destination = changes.destination
    planned = out_paths(done.delivered) | done.files.keys()
    if run.options.remove_unplanned and changes.last is not None:
        before = store.planned if store.planned is not None else set(changes.last.files)
        report.removed = _remove(destination, before - planned)
    store.keep_run(run.run_context, done.graph, graph.loaded, planned)
    count_outputs(report, done.delivered)
    report.unchanged += len(done.kept)
    report.seconds = time.perf_counter() - started
    told = dataclasses.replace(report, stages={}, written=[], deferred=[], waiting=[])
    if done.keeping is not None:
        done.keeping.result()
    store.save_last_build(
        changes.fingerprint,
        LastBuild(
            graph.build_id,
            changes.stamps,
            changes.final_digests(),
            run.now.date(),
            graph.next_change,
            str(destination),
            done.files,
            told,
            # Files left for later are not what this run would write: the next is no mere check.
            unfinished=bool(report.deferred or report.waiting),
        ),
    )
    run.clock.lap("cache")


def _as_last_time(last: LastBuild, started: float) -> BuildReport:
    """The report of a run that found nothing to do: the last run's, all of it unchanged."""
    old = last.report
    report = dataclasses.replace(
        old,
        unchanged=len(last.files),
        rendered_content=0,
        cached_content=old.rendered_content + old.cached_content,
        rendered_outputs=0,
        kept_outputs=old.rendered_outputs + old.kept_outputs,
        cleaned=0,
        graph_kept=False,
        edited=0,
        added=0,
        search_indexed=0,
        written=[],
        removed=[],
        deferred=[],
        waiting=[],
        changed_pages=[],
    )
    report.seconds = time.perf_counter() - started
    report.stages = {"check": report.seconds}
    return report


def _make_context(
    source: Path, config, site: Site, store: DiskStore, strict: bool
) -> context.RunContext:
    """The templates and renderers of this run, logging what every render reads."""
    log = ReadLog()
    env = make_environment(source, strict)
    if env.bytecode_cache is None:  # compiled templates, kept between runs
        env.bytecode_cache = buildcache.template_bytecode(store.folder)
    instrument(env, log)
    markdown = MarkdownRenderer.for_site(config)
    install_site_functions(env, site, markdown)
    log_lookups(site, log)
    log_thumbnails(env, log)
    content = ContentRenderer(env, markdown, site, summary_length=config.summary_length)
    return context.RunContext(site, env, content, store.folder, Path(), config.minify, log)


def _start_thumbnails(graph: Graph, changes: Changes, workers: int, children: contextlib.ExitStack):
    """Thumbnails are named and sized now (a template may ask for one), by the digests of
    the images ``changes`` has. Those the early encoder was not given are encoded by
    another child at the lowest priority: it takes what the workers leave of the cores,
    and runs at full speed once they are done."""
    snap = graph.kept
    thumbnails = None
    if (
        snap is None
        or graph.inserted  # pages moved places: the images are named by them
        or not all(os.path.exists(o.source) for o in snap.images.outputs)
    ):
        # (A file written while it was read has no digest of its bytes.)
        known = {p: d for p, d in changes.digests.items() if d and d != buildcache.MOVING}
        thumbnails = plan_thumbnails(graph.site, known)
    pending = thumbnails.pending if thumbnails else []
    early_jobs, pending = graph.early.split(pending) if graph.early else ([], pending)
    encoding = None
    if pending:
        encoding = children.enter_context(ForkedCall(encode_thumbnails, pending, workers, nice=19))
    return thumbnails, encoding, early_jobs


def _plan(
    source: Path,
    site: Site,
    snap: Snapshot | None,
    thumbnails,
    changes: Changes,
    templates_changed: bool,
):
    """Every file of the site; on a kept graph, the last plan unless a static file or a
    template changed (whether a list is paginated in a format is read from its template)."""
    static = static_mounts(changes.config.mounts, theme_dir() / "static")
    if snap is not None and thumbnails is None and not templates_changed:
        statics = mount_prefixes(static)
        if not any(path.startswith(statics) for path in changes.files):
            return snap.outputs, []  # the same graph and files plan the same
    images = thumbnails.outputs if thumbnails is not None else snap.images.outputs
    return plan_outputs(site, static, images)


def _defer(
    preview: Preview,
    todo: list[Output],
    kept: dict,
    site: Site,
    edited: set[str] | None,
    cache: BuildCache | None,
    waiting: list[Page],
    index: PairIndex | None,
    by_read: dict[int, set[str]] | None,
) -> tuple[list[Output], list[Output]]:
    """Split the files to render into now and later. What shows a body left as it was
    waits too, kept or not (its reads are those of the old body), and loses its record."""
    shows = set()
    if waiting and cache is not None:
        readers = buildcache.body_readers(cache, {page_key(p) for p in waiting}, index, by_read)
        shows = set().union(*readers.values())
        for path in shows:
            kept.pop(path, None)
    now, later = preview.split_outputs(outputs_not_in(todo, kept), site, edited or set())
    later += [item for item in now if item.out_path in shows]
    # What is rendered now: the kept files are the last run's records (``write_outputs``).
    return outputs_not_in(now, out_paths(later)), later


def _remove(destination: Path, paths: set[str]) -> list[str]:
    for path in paths:
        (destination / path).unlink(missing_ok=True)
    return sorted(paths)


class _Clock:
    """Seconds per stage, for ``--verbose`` and the benchmarks."""

    def __init__(self, stages: dict[str, float]):
        self.stages = stages
        self.last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.stages[name] = self.stages.get(name, 0.0) + now - self.last
        self.last = now


def _sorted_errors(errors: list[SourceError]) -> list[SourceError]:
    """Each error once (every file a template renders fails at the same line alike)."""
    unique = {(e.path, e.line, e.col, e.message): e for e in errors}
    return sorted(unique.values(), key=lambda e: (e.path, e.line, e.col))
