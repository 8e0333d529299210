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
6. publish (``publish/``): the search index, then the staging folder moved or swapped
   in, only once everything has succeeded;
7. keep the state (``state.py``): the cache index, the graph and the record of this run,
   on disk for ``matome build``, in memory for ``matome serve``.

``matome serve`` adds a ``Preview``: which bodies and files may wait until a browser
asks for them (Hugo's fast render mode).
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from ..config import Flags, load_config
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
from ..incremental.buildcache import BuildCache, LastBuild
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
from ..parallel import ForkedCall
from ..progress import Progress
from ..publish.staging import clean_stale, make_staging, move_in, swap_in
from ..render.environment import make_environment, template_dirs, theme_dir
from ..render.plan import Output, plan_outputs
from ..render.resources import published_outputs
from ..render.site_functions import install_site_functions
from ..render.undefined import UndefinedName, fail_on_undefined
from ..search import OUTPUT_DIR as SEARCH_DIR
from ..search import index_site, search_enabled
from . import context
from .bodies import render_bodies
from .changes import Changes, detect_changes, nothing_changed
from .graph import Graph, load_graph
from .outputs import (
    ReadNumbers,
    count_outputs,
    kept_outputs,
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


def _run(
    source: Path,
    flags: Flags,
    store: DiskStore,
    options: Options,
    progress: Progress,
    children: contextlib.ExitStack,
) -> BuildReport:
    started = time.perf_counter()
    stages: dict[str, float] = {}
    clock = _Clock(stages)
    source = source.resolve()
    config = load_config(source, flags)
    now = datetime.now(UTC)
    changes = detect_changes(source, config, store, now, options.read_cache, children, options.seen)
    if nothing_changed(changes, store, options.clean):
        return _as_last_time(changes.last, started)
    store.forget_last_build()
    print_ = changes.fingerprint
    templates = buildcache.template_digests(template_dirs(source))
    cache = store.cache(print_) if options.read_cache else None
    changed = buildcache.changed_templates(cache, templates) if cache else None
    if changed is None:
        cache = None  # no cache, another fingerprint, or templates added or removed
    workers = options.jobs or os.cpu_count() or 1
    graph = load_graph(changes, store, cache, workers, children)
    site, snap, errors = graph.site, graph.kept, graph.errors
    report = BuildReport(
        warnings=list(graph.warnings),
        stages=stages,
        graph_kept=snap is not None,
        edited=len(graph.edits),
        destination=changes.destination,
    )
    clock.lap("load (kept graph)" if snap is not None else "load")

    run = _make_context(source, config, site, store, options.strict)
    fresh = BuildCache(print_, templates, graph.build_id)
    view = GraphView(site)
    report.changed_pages = [
        view.by_file[f].rel_permalink for f in sorted(changes.files) if f in view.by_file
    ]
    clock.lap("site graph")
    thumbnails, encoding, early_jobs = _start_thumbnails(graph, workers, children)

    context.CURRENT = run
    edited = {page_key(p) for p, _ in graph.edits} if snap else None
    may_wait = options.preview.bodies_can_wait if options.preview else None
    rendered, waiting, body_errors = render_bodies(
        site, view, cache, changed, fresh, workers, progress, edited, may_wait, report.warnings
    )
    errors += body_errors
    report.rendered_content = rendered
    report.cached_content = len(fresh.content) - rendered
    report.waiting = [page_key(p) for p in waiting]
    clock.lap("content")

    if thumbnails is not None:
        report.warnings += thumbnails.warnings
    outputs, plan_problems = _plan(source, site, snap, thumbnails, changes, bool(changed))
    errors += [p for p in plan_problems if p.severity == "error"]
    report.warnings += [p for p in plan_problems if p.severity != "error"]
    # What a run on the same graph warns about again (a render that used an undefined name
    # is rendered again, and warns again, each run).
    graph_warnings = [w for w in report.warnings if not isinstance(w, UndefinedName)]
    if (source / "layouts").is_dir() or config.theme:
        report.warnings.append(
            SourceError(
                str(source / "layouts"),
                0,
                0,
                "Hugo layouts and themes are not used: matome renders with its own Jinja templates",
                "warning",
            )
        )
    clock.lap("plan")
    if errors:
        raise BuildFailed(_sorted_errors(errors))

    destination = changes.destination
    search = options.search and search_enabled(config.params)
    # With a search index, Pagefind reads the whole new site, so the staging folder starts
    # as hard links to the published one. Without, it holds only the files this run
    # changes, which are moved into place one by one when every file is ready.
    sparse = destination.is_dir() and not search
    run.empty_staging = not destination.is_dir()
    staging = make_staging(destination, sparse)
    run.staging = staging
    run.published = destination if sparse else None
    try:
        patched = frozenset(page_key(p) for p in graph.patched)
        ids = store.pair_ids() if snap is not None and cache is not None else None
        current = (
            last_reads_now(cache, view, fresh, snap is not None, patched, graph.reordered, ids)
            if cache
            else []
        )
        same_plan = snap is not None and outputs is snap.outputs
        readers = store.readers() if same_plan else None
        kept = kept_outputs(
            outputs,
            site,
            cache,
            changed,
            destination,
            current,
            same_plan,
            store.check_published,
            readers,
        )
        clock.lap("staging")
        # The copies of thumbnails wait until the renders tell whether any are shown.
        thumbs = {o.out_path for o in (thumbnails or snap.images).outputs}
        now_, later = [], []
        for item in outputs:
            (later if item.kind == "copy" and item.out_path in thumbs else now_).append(item)
        if options.preview is not None:
            now_, deferred = _defer(options.preview, now_, kept, site, edited, cache, waiting)
            report.deferred = [item.out_path for item in deferred]
        numbers = ReadNumbers(fresh, cache, current, view, ids)
        written, files, write_errors = write_outputs(
            now_, kept, fresh, numbers, workers, progress, report
        )
        if write_errors:
            raise BuildFailed(_sorted_errors(write_errors))
        clock.lap("outputs")
        delivered = outputs  # the plan stays whole: the next run's templates may show them
        early = graph.early
        if thumbs and not thumbnails_shown(run.env, fresh):
            # As Hugo makes only the images its templates ask for: a site whose own
            # templates show none gets none (the encoder had only idle cores so far).
            if early:
                early.stop()
                early = None
            if encoding is not None:
                encoding.stop()
                remove_unfinished(thumbnail_cache(config), encoding.pid)
                encoding = None
            later = []
            delivered = [item for item in outputs if item.out_path not in thumbs]
        # The assets and processed images templates showed (as Hugo, only those).
        resources, resource_errors = published_outputs(site, fresh, outputs, run.env)
        if resource_errors:
            raise BuildFailed(_sorted_errors(resource_errors))
        later += resources
        delivered = delivered + resources
        # The graph is kept (by a child, on disk) while the cache index is saved and the
        # thumbnails may still encode: the output workers are gone, so the pages the
        # pickler touches do not make the run's peak. Of no use without the LastBuild
        # record, written only when the run has succeeded.
        kept_graph = keeping = None
        if snap is None:
            images = prepared_for(site)
            kept_graph = Snapshot(graph.build_id, site, outputs, images, graph_warnings)
            keeping = store.save_graph(print_, kept_graph, children)
        elif outputs is not snap.outputs:
            snap.outputs = outputs  # a static file changed: planned again
        numbers.finish(renumber=snap is None)
        store.save_cache(fresh, cache, changes_only=snap is not None)
        if keeping is not None:
            keeping.result()
        image_warnings = encoding.result() if encoding is not None else []
        if early:
            image_warnings += early.finish(early_jobs)
        report.warnings += image_warnings
        if kept_graph is not None and image_warnings:  # a stand-in is kept: warned again
            kept_graph.warnings = graph_warnings + image_warnings
            again = store.save_graph(print_, kept_graph, children)
            if again is not None:
                again.result()
        more, more_files, write_errors = write_outputs(
            later, {}, fresh, numbers, 1, progress, report
        )
        if write_errors:
            raise BuildFailed(_sorted_errors(write_errors))
        written |= more
        files.update(more_files)
        clock.lap("thumbnails and cache index")
        if options.clean and not sparse:
            report.cleaned = clean_stale(staging, written)
        if search:
            search_files, search_errors = index_site(staging)
            if search_errors:
                raise BuildFailed(search_errors)
            report.non_page_files += search_files
            files.update(_stamps(staging, SEARCH_DIR))
            clock.lap("search index")
        if sparse:
            move_in(staging, destination)
            if options.clean:
                report.cleaned = clean_stale(destination, written)
        else:
            swap_in(staging, destination)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    planned = {item.out_path for item in delivered} | set(files)
    if options.remove_unplanned and changes.last is not None:
        before = store.planned if store.planned is not None else set(changes.last.files)
        report.removed = _remove(destination, before - planned)
    store.keep_run(run, kept_graph, graph.loaded, planned)
    count_outputs(report, delivered)
    report.unchanged += len(kept)
    report.seconds = time.perf_counter() - started
    told = dataclasses.replace(report, stages={}, written=[], deferred=[], waiting=[])
    store.save_last_build(
        print_,
        LastBuild(
            graph.build_id,
            changes.stamps,
            changes.final_digests(),
            now.date(),
            graph.next_change,
            str(destination),
            files,
            told,
            # Files left for later are not what this run would write: the next is no mere check.
            unfinished=bool(report.deferred or report.waiting),
        ),
    )
    clock.lap("cache")
    return report


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
        written=[],
        removed=[],
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
    markdown = MarkdownRenderer(config.markup, enable_emoji=config.enable_emoji)
    install_site_functions(env, site, markdown)
    log_lookups(site, log)
    log_thumbnails(env, log)
    content = ContentRenderer(env, markdown, site, summary_length=config.summary_length)
    return context.RunContext(site, env, content, store.folder, Path(), config.minify, log)


def _start_thumbnails(graph: Graph, workers: int, children: contextlib.ExitStack):
    """Thumbnails are named and sized now (a template may ask for one). Those the early
    encoder was not given are encoded by another child at the lowest priority: it takes
    what the workers leave of the cores, and runs at full speed once they are done."""
    snap = graph.kept
    thumbnails = None
    if snap is None or not all(os.path.exists(o.source) for o in snap.images.outputs):
        thumbnails = plan_thumbnails(graph.site)
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
    static_dirs = list(
        dict.fromkeys(d.resolve() for d in [theme_dir() / "static", source / "static"])
    )
    if snap is not None and thumbnails is None and not templates_changed:
        statics = tuple(f"{d}{os.sep}" for d in static_dirs)
        if not any(path.startswith(statics) for path in changes.files):
            return snap.outputs, []  # the same graph and files plan the same
    images = thumbnails.outputs if thumbnails is not None else snap.images.outputs
    return plan_outputs(site, static_dirs, images)


def _defer(
    preview: Preview,
    todo: list[Output],
    kept: dict,
    site: Site,
    edited: set[str] | None,
    cache: BuildCache | None,
    waiting: list[Page],
) -> tuple[list[Output], list[Output]]:
    """Split the files to render into now and later. What shows a body left as it was
    waits too, kept or not (its reads are those of the old body), and loses its record."""
    shows = set()
    if waiting and cache is not None:
        shows = _readers_of_bodies(cache, {page_key(p) for p in waiting})
        for path in shows:
            kept.pop(path, None)
    render = [item for item in todo if item.out_path not in kept]
    now, later = preview.split_outputs(render, site, edited or set())
    later += [item for item in now if item.out_path in shows]
    deferred = {item.out_path for item in later}
    return [item for item in todo if item.out_path not in deferred], later


def _readers_of_bodies(cache: BuildCache, keys: set[str]) -> set[str]:
    """The files of the last run that read the rendered body of these pages."""
    attrs = buildcache.content_attributes()
    wanted = {i for i, (key, attr) in enumerate(cache.pairs) if key in keys and attr in attrs}
    return {path for path, record in cache.outputs.items() if not wanted.isdisjoint(record.reads)}


def _remove(destination: Path, paths: set[str]) -> list[str]:
    for path in paths:
        (destination / path).unlink(missing_ok=True)
    return sorted(paths)


def _stamps(root: Path, folder: str) -> dict[str, tuple[int, int]]:
    found = {}
    for dirpath, _, names in os.walk(root / folder):
        for name in names:
            stat = os.stat(os.path.join(dirpath, name))
            rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
            found[rel] = (stat.st_size, stat.st_mtime_ns)
    return found


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
