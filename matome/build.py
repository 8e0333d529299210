"""One build: config → load → site graph → render content → render outputs → atomic write.

The expensive stages (shortcodes + Markdown per page, templates per output)
run in worker processes made by fork, after the site graph is built, so every
worker reads the same graph without it being sent to them. Every render logs
what it reads, and the build cache (``buildcache.py``) keeps those reads: the
next build renders again only the bodies and files whose reads changed.
Everything is written into a staging folder beside the destination and swapped
in at the end: a failed or interrupted build leaves the previous site as it was.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import operator
import os
import shutil
import time
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import chain, compress, starmap
from pathlib import Path
from typing import Any

import jinja2

from . import buildcache, snapshot
from .buildcache import BuildCache, ContentEntry, LastBuild, OutputRecord
from .config import Flags, SiteConfig, load_config
from .content.loader import CONTENT_EXTS, load_content
from .content.page import LARGE_FIELDS, RENDERED_FIELDS, Page, defer_rendered, drop_content
from .early_thumbnails import EarlyThumbnails
from .errors import BuildFailed, SourceError
from .forking import FORKS, ForkedCall, fork_pool
from .functions import install_site_functions
from .images import (
    encode_thumbnails,
    plan_thumbnails,
    prepared_for,
    remove_unfinished,
    thumbnail_cache,
)
from .markup.expand import ContentRenderer, attach_content
from .markup.markdown import MarkdownRenderer
from .outputs.plan import Output, alias_html, plan_outputs
from .progress import Progress
from .reads import (
    SITE,
    UNSET,
    GraphView,
    ReadLog,
    RelatedLists,
    instrument,
    log_lookups,
    log_thumbnails,
    page_key,
    share_related,
)
from .render import (
    layout_candidates,
    make_environment,
    select_layout,
    template_dirs,
    template_error,
    theme_dir,
)
from .search import article_pages, search_enabled, update_search
from .site import Site, build_site
from .snapshot import Snapshot

# Below this many pages, forking costs more than it saves.
PARALLEL_THRESHOLD = 64


@dataclass
class BuildReport:
    pages: int = 0
    paginator_pages: int = 0
    non_page_files: int = 0
    static_files: int = 0
    aliases: int = 0
    cleaned: int = 0
    unchanged: int = 0
    rendered_content: int = 0  # page bodies rendered
    cached_content: int = 0  # page bodies taken from the build cache
    rendered_outputs: int = 0  # files rendered from templates
    kept_outputs: int = 0  # files the build cache showed would come out the same
    graph_kept: bool = False  # the last build's site graph, only article bodies changed
    edited: int = 0  # on a kept graph, the articles whose body changed
    search_indexed: int = 0  # articles Pagefind indexed (0: it did not run)
    seconds: float = 0.0
    stages: dict[str, float] = field(default_factory=dict)  # stage -> seconds
    warnings: list[SourceError] = field(default_factory=list)
    destination: Path | None = None


@dataclass
class BuildState:
    """What every worker needs; set before the pool forks, so it is inherited, not sent."""

    site: Site
    env: jinja2.Environment
    content: ContentRenderer
    staging: Path
    minify: bool
    log: ReadLog = field(default_factory=ReadLog)
    # Where the last build's files are, to compare with; None: in the staging folder itself.
    published: Path | None = None
    # Nothing is published yet: the staging folder starts empty and every file is new.
    empty_staging: bool = False
    # Pages whose rendered fields the output being written loaded from the cache.
    loaded: list[Page] = field(default_factory=list)


_STATE: BuildState | None = None


def build(
    source: Path,
    flags: Flags,
    *,
    jobs: int | None = None,
    clean: bool = False,
    read_cache: bool = True,
    progress: Progress | None = None,
) -> BuildReport:
    """Build the site at ``source``; raise BuildFailed (nothing published) on any error."""
    # A build makes millions of objects that live until it ends (the graph, the rendered
    # fields): at the default thresholds the collector ran about 200 times in the real
    # blog's main process, 0.3 s of its serial time, finding little garbage. Young
    # collections less often (as mypy does), for this build and the workers it forks.
    thresholds = gc.get_threshold()
    gc.set_threshold(200_000, 30, 30)
    with contextlib.ExitStack() as children:  # stopped if the build ends without them
        try:
            return _build(source, flags, jobs, clean, read_cache, progress, children)
        finally:
            gc.unfreeze()  # what the build cache loaded frozen (``buildcache._read``) is garbage now
            gc.set_threshold(*thresholds)  # `matome serve` goes on in this process


def _build(
    source: Path,
    flags: Flags,
    jobs: int | None,
    clean: bool,
    read_cache: bool,
    progress: Progress | None,
    children: contextlib.ExitStack,
) -> BuildReport:
    started = time.perf_counter()
    progress = progress or Progress()
    stages: dict[str, float] = {}
    clock = _Clock(stages)
    source = source.resolve()
    config = load_config(source, flags)
    destination = (source / config.destination).resolve()
    print_ = buildcache.fingerprint(config)
    now = datetime.now(UTC)
    stamps = buildcache.input_stamps(*_inputs(source, config))
    last = buildcache.load_last_build(source, print_) if read_cache else None
    hashing = None
    if isinstance(last, LastBuild):
        digests = buildcache.input_digests(stamps, last)  # only files with another stamp
    else:  # none to compare with: every file is read by a child, on a core the load leaves idle
        digests = {}
        hashing = children.enter_context(ForkedCall(buildcache.input_digests, stamps, None))
    if _nothing_changed(last, digests, now, destination, clean):
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
            search_indexed=0,
        )
        report.seconds = time.perf_counter() - started
        report.stages = {"check": report.seconds}
        return report
    buildcache.forget_last_build(source)
    templates = buildcache.template_digests(template_dirs(source))
    cache = buildcache.load(source, print_) if read_cache else None
    changed = buildcache.changed_templates(cache, templates) if cache else None
    if changed is None:
        cache = None  # no cache, another fingerprint, or templates added or removed
    reuse = _kept_graph(source, config, print_, last, cache, digests, now)
    workers = jobs or os.cpu_count() or 1
    early = None
    if reuse is not None:
        snap, edits = reuse
        site, build_id, next_change = snap.site, snap.build_id, last.next_change
        snapshot.apply(site, edits, now)
        errors: list[SourceError] = []
        report = BuildReport(
            warnings=list(snap.warnings), stages=stages, graph_kept=True, edited=len(edits)
        )
        clock.lap("load (kept graph)")
    else:
        snap, build_id = None, os.urandom(8).hex()
        if FORKS:  # thumbnails are encoded on the core the load leaves idle
            early = children.enter_context(EarlyThumbnails(config, workers))
        loaded = load_content(config, now, early.page_read if early else None)
        if early:
            early.all_read()
        clock.lap("load")
        site = build_site(config, loaded, now)
        errors = [*loaded.errors, *site.errors]
        report = BuildReport(warnings=list(loaded.warnings), stages=stages)
        next_change = loaded.next_change
    log = ReadLog()
    env = make_environment(source)
    if env.bytecode_cache is None:  # compiled templates, kept between builds
        env.bytecode_cache = buildcache.template_bytecode(source)
    instrument(env, log)
    markdown = MarkdownRenderer(config.markup, enable_emoji=config.enable_emoji)
    install_site_functions(env, site, markdown)
    log_lookups(site, log)
    log_thumbnails(env, log)
    content = ContentRenderer(env, markdown, site, summary_length=config.summary_length)
    report.destination = destination
    fresh = BuildCache(print_, templates, build_id)
    view = GraphView(site)
    clock.lap("site graph")
    # Thumbnails are named and sized now (a template may ask for one). Those the early
    # encoder was not given are encoded by another child at the lowest priority: it takes
    # what the workers leave of the cores (their uneven ends, this process's serial
    # stretches), and runs at full speed once they are done.
    thumbnails = None
    if snap is None or not all(os.path.exists(o.source) for o in snap.images.outputs):
        thumbnails = plan_thumbnails(site)
    pending = thumbnails.pending if thumbnails else []
    early_jobs, pending = early.split(pending) if early else ([], pending)
    if pending:
        encoding = children.enter_context(ForkedCall(encode_thumbnails, pending, workers, nice=19))

    global _STATE
    _STATE = BuildState(site, env, content, destination, config.minify, log)
    edited = {page_key(p) for p, _ in edits} if snap else None
    errors += _render_all_content(
        site, view, cache, changed, fresh, workers, progress, report, edited
    )
    clock.lap("content")
    if thumbnails is None:
        outputs = snap.outputs  # the same graph and files plan the same
    else:
        report.warnings += thumbnails.warnings
        static_dirs = [theme_dir() / "static", source / "static"]
        outputs, plan_errors = plan_outputs(
            site, list(dict.fromkeys(d.resolve() for d in static_dirs)), thumbnails.outputs
        )
        errors += plan_errors
    graph_warnings = list(report.warnings)  # what a build on the same graph warns about again
    if _has_hugo_layouts(source, config):
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

    # The staging folder holds only the files this build changes (the search index's
    # too), moved into place one by one when every file is ready.
    sparse = destination.is_dir()
    _STATE.empty_staging = not destination.is_dir()
    staging = _make_staging(destination, sparse)
    _STATE.staging = staging
    _STATE.published = destination if sparse else None
    try:
        current = _last_reads_now(cache, view, fresh, snap is not None) if cache else []
        same_plan = snap is not None and outputs is snap.outputs
        kept = _kept_outputs(outputs, site, cache, changed, destination, current, same_plan)
        clock.lap("staging")
        # The copies of thumbnails wait until the renders tell whether any are shown.
        thumbs = {o.out_path for o in (thumbnails or snap.images).outputs}
        now_, later = [], []
        for item in outputs:
            (later if item.kind == "copy" and item.out_path in thumbs else now_).append(item)
        numbers = _ReadNumbers(fresh, cache, current, view)
        written, files, write_errors = _write_all(
            now_, kept, fresh, numbers, workers, progress, report
        )
        if write_errors:
            raise BuildFailed(_sorted_errors(write_errors))
        clock.lap("outputs")
        delivered = outputs  # the plan stays whole: the next build's templates may show them
        if thumbs and not _thumbnails_shown(_STATE.env, fresh):
            # As Hugo makes only the images its templates ask for: a site whose own
            # templates show none gets none (the encoder had only idle cores so far).
            if early:
                early.stop()
                early = None
            if pending:
                encoding.stop()
                remove_unfinished(thumbnail_cache(config), encoding.pid)
                pending = []
            later = []
            delivered = [item for item in outputs if item.out_path not in thumbs]
        # The graph is kept by a child while this process saves the cache index and the
        # thumbnails may still encode: the output workers are gone, so the pages the
        # pickler touches (and copies) do not make the build's peak. Of no use without the
        # LastBuild record, written only when the build has succeeded.
        if snap is None:
            kept_graph = Snapshot(build_id, site, outputs, prepared_for(site), graph_warnings)
            keeping = children.enter_context(ForkedCall(snapshot.save, source, print_, kept_graph))
        numbers.finish(renumber=snap is None)
        if snap is None or not buildcache.save_changes(source, fresh, cache):
            buildcache.save(source, fresh)
        if snap is None:
            keeping.result()
        image_warnings = encoding.result() if pending else []
        if early:
            image_warnings += early.finish(early_jobs)
        report.warnings += image_warnings
        if snap is None and image_warnings:  # a stand-in blank is kept: the next build warns too
            kept_graph.warnings = graph_warnings + image_warnings
            snapshot.save(source, print_, kept_graph)
        more, more_files, write_errors = _write_all(later, {}, fresh, numbers, 1, progress, report)
        if write_errors:
            raise BuildFailed(_sorted_errors(write_errors))
        written |= more
        files.update(more_files)
        clock.lap("thumbnails and cache index")
        if clean and not sparse:
            report.cleaned = _clean_stale(staging, written)
        search = None
        if search_enabled(config.params):
            pages = article_pages(site, fresh.content, with_thumbnails=delivered is outputs)
            search = update_search(pages, staging, destination, source, workers)
            report.search_indexed = search.indexed
            report.non_page_files += len(search.written)
            files.update(search.files)
            written |= search.files.keys()
            clock.lap("search index")
        if sparse:
            _move_in(staging, destination)
            if clean:
                report.cleaned = _clean_stale(destination, written)
        else:
            _swap_in(staging, destination)
        if search is not None:
            search.publish(destination)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    finally:
        _STATE = None
    _count(report, delivered)
    report.unchanged = len(kept) + report.unchanged
    report.seconds = time.perf_counter() - started
    told = dataclasses.replace(report, stages={})
    if hashing is not None:
        digests = hashing.result()
    buildcache.save_last_build(
        source,
        print_,
        LastBuild(
            build_id, stamps, digests, now.date(), next_change, str(destination), files, told
        ),
    )
    clock.lap("cache")
    return report


def _inputs(source: Path, config: SiteConfig) -> tuple[list[Path], list[Path]]:
    """The folders and files a build reads: a build with none of them changed has no work."""
    roots = [
        source / str(config.get("contentDir") or "content"),
        *template_dirs(source),
        theme_dir() / "static",
        source / "static",
        source / str(config.get("assetDir") or "assets"),
    ]
    roots += [Path(f) for f in config.files if Path(f).is_dir()]
    return roots, [Path(f) for f in config.files if not Path(f).is_dir()]


def _nothing_changed(
    last: LastBuild | None, digests: dict, now: datetime, destination: Path, clean: bool
) -> bool:
    """Whether the last build stands: same inputs, same day, no page due, files as published."""
    if not isinstance(last, LastBuild) or last.digests != digests or last.day != now.date():
        return False
    if last.next_change is not None and now >= last.next_change:
        return False
    if last.destination != str(destination):
        return False
    if clean and sum(len(f) for _, _, f in os.walk(destination)) != len(last.files):
        return False  # files the last build did not write are there to be cleaned
    return buildcache.files_unchanged(destination, last.files)


def _kept_graph(
    source: Path,
    config: SiteConfig,
    print_: str,
    last: LastBuild | None,
    cache: BuildCache | None,
    digests: dict,
    now: datetime,
) -> tuple[Snapshot, list] | None:
    """The last build's graph and the edits to put in it, when only article bodies changed.

    Template files may have changed too: the graph does not read them (which renders
    they change is the cache's business)."""
    if not isinstance(last, LastBuild) or cache is None or cache.build_id != last.build_id:
        return None
    if last.next_change is not None and now >= last.next_change:
        return None  # a page became due or expired: the loader would leave out others
    templates = tuple(f"{d}{os.sep}" for d in template_dirs(source))
    content = f"{source / str(config.get('contentDir') or 'content')}{os.sep}"
    old = last.digests
    changed = {p for p in old.keys() | digests.keys() if old.get(p) != digests.get(p)}
    changed = {p for p in changed if not p.startswith(templates)}
    if not all(p.startswith(content) and p.endswith(CONTENT_EXTS) for p in changed):
        return None
    snap = snapshot.load(source, print_, last.build_id)
    if snap is None:
        return None
    edits = snapshot.body_edits(snap.site, changed)
    return None if edits is None else (snap, edits)


class _Clock:
    """Seconds per stage, for ``--verbose`` and the benchmarks."""

    def __init__(self, stages: dict[str, float]):
        self.stages = stages
        self.last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.stages[name] = self.stages.get(name, 0.0) + now - self.last
        self.last = now


def _has_hugo_layouts(source: Path, config: SiteConfig) -> bool:
    return (source / "layouts").is_dir() or bool(config.theme)


def _sorted_errors(errors: list[SourceError]) -> list[SourceError]:
    return sorted(errors, key=lambda e: (e.path, e.line, e.col))


# --- content -------------------------------------------------------------------
def _render_all_content(
    site: Site,
    view: GraphView,
    cache: BuildCache | None,
    changed: frozenset[str] | None,
    fresh: BuildCache,
    workers: int,
    progress: Progress,
    report: BuildReport,
    edited: set[str] | None,
) -> list[SourceError]:
    """Every page body: from the cache when it would render the same, else rendered.

    ``edited``: on a kept graph, the pages whose file changed; the files of the others
    are as the cache saw them (their body is not loaded: read from the file if the page
    must be rendered again).
    A body from the cache stays on disk until a template reads it (``defer_rendered``)."""
    todo = []
    errors: list[SourceError] = []
    stored = buildcache.stored_bodies(site.config.source) if cache else set()
    for page in site.pages:
        if page.file is None:
            continue
        key = page_key(page)
        entry = cache.content.get(key) if cache else None
        if (
            entry is not None
            and _reusable(entry, page, view, changed, edited is not None and key not in edited)
            and entry.blob in stored
        ):
            defer_rendered(page, functools.partial(_cached_fields, page, entry, _STATE.content))
            page.__dict__["comment_count"] = entry.comment_count
            fresh.content[key] = entry
            continue
        try:
            snapshot.read_body(page)
        except SourceError as e:
            errors.append(e)
            continue
        todo.append(page.index)
    rows = list(_map(_render_content_chunk, todo, workers, progress, "Rendering content"))
    rendered = []
    for index, result, source, reads, templates in rows:
        if isinstance(result, SourceError):
            errors.append(result)
            continue
        page = site.pages[index]
        fields, digests, count = result
        page.__dict__.update(fields)
        page.__dict__["comment_count"] = count
        entry = ContentEntry(source[0], None, {}, templates, source[1], count)
        # The HTML and its text, the largest fields, stay in the cache file until the
        # page's own file is written, and are compared by their digests, made by the worker.
        loader = functools.partial(_cached_fields, page, entry, _STATE.content)
        defer_rendered(page, loader, LARGE_FIELDS)
        rendered.append((page, entry, reads, digests))
    view.forget()  # the graph has its bodies now
    stored = view.memo[_STORED] = {}
    for page, _, _, digests in rendered:
        key = page_key(page)
        for name, digest in digests.items():
            for attr in _READ_AS.get(name, (name,)):
                stored[(key, attr)] = digest
    for page, entry, reads, _ in rendered:
        entry.reads = {pair: _current(view, pair) for pair in reads}
        fresh.content[page_key(page)] = entry
    report.rendered_content = len(todo)
    report.cached_content = len(fresh.content) - len(rendered)
    return errors


def _cached_fields(page: Page, entry: ContentEntry, content: ContentRenderer) -> dict:
    """A page's fields from the cache; rendered again if its file was damaged since."""
    if _STATE is not None:
        _STATE.loaded.append(page)
    fields = buildcache.content_fields(page.site.config.source, entry)
    if fields is None:
        snapshot.read_body(page)
        attach_content(page, content.render_page(page))
        fields = {name: page.__dict__[name] for name in RENDERED_FIELDS}
    return fields


def _reusable(
    entry: ContentEntry, page, view: GraphView, changed: frozenset[str], unchanged_file: bool
) -> bool:
    if entry.templates & changed:
        return False
    if not unchanged_file and entry.source != buildcache.content_source(page):
        return False
    derived = buildcache.content_attributes()
    for pair, value in entry.reads.items():
        # Another page's body is not rendered yet when this is decided: render again.
        if pair[1] in derived or _current(view, pair) != value:
            return False
    return True


def _current(view: GraphView, pair: tuple) -> Any:
    """A read's value on this build's graph, as the cache keeps it (kept until the view forgets)."""
    stored = view.memo.get(_STORED)
    if stored is None:
        stored = view.memo[_STORED] = {}
    # Not try/except KeyError: most calls miss (a body's reads are each asked for once
    # when its entry is made), and a raised KeyError costs more than the lookup.
    value = stored.get(pair, UNSET)
    if value is UNSET:
        value = stored[pair] = buildcache.storable(view.value(pair))
    return value


_STORED = ("@stored",)
# The reads that return a rendered field, by the field's name (see reads._PAGE_SPECIAL).
_READ_AS = {
    "content_html": ("content", "content_html"),
    "summary_html": ("summary", "summary_html"),
}
_BUILD_DATE = (SITE, "build_date")
_KEY = operator.itemgetter(0)
_ATTR = operator.itemgetter(1)
_RELATED = functools.partial(operator.eq, "related")


def _render_content_chunk(indices: list[int]) -> list[tuple]:
    """Render bodies; each one's page fields go to the cache from here, in parallel."""
    state = _STATE
    root = state.site.config.source
    out = []
    for index in indices:
        page = state.site.pages[index]
        state.log.begin()
        try:
            rendered = state.content.render_page(page)
        except SourceError as e:
            rendered = e
        except Exception as e:  # a template bug must name the page, not crash the build
            rendered = template_error(e)
            rendered.message = f"while rendering content/{page.file.path}: {rendered.message}"
        reads, templates = state.log.end()
        if isinstance(rendered, SourceError):
            out.append((index, rendered, ("", ""), reads, templates))
            continue
        attach_content(page, rendered)
        # The worker keeps none of it: the parent has the fields, the HTML is on disk.
        fields = {name: page.__dict__.pop(name) for name in RENDERED_FIELDS}
        source = buildcache.content_source(page)
        blob = buildcache.save_fields(root, page_key(page), source, fields)
        # Long text is kept in the cache by its digest (``storable``): each made here,
        # once, and not by every output worker that reads the text. The largest fields
        # are not sent: the parent leaves them in the cache file (``LARGE_FIELDS``).
        digests = {name: buildcache.storable(fields.pop(name)) for name in LARGE_FIELDS}
        for name, value in fields.items():
            if type(value) is str and len(value) > buildcache.LONG_VALUE:
                digests[name] = buildcache.storable(value)
        row = (fields, digests, page.comment_count)
        out.append((index, row, (source, blob), reads, templates))
    return out


# --- outputs -------------------------------------------------------------------
def _last_reads_now(cache: BuildCache, view: GraphView, fresh: BuildCache, kept: bool) -> list:
    """What each read of the last build's files returns now, in ``cache.pairs`` order.

    A body taken from the cache renders as it did, so its reads need not load it. On a
    kept graph (``kept``), only the pages rendered again and the build date can read
    differently (a value that compares unequal to itself, a read of a callable, stays so)."""
    attrs = buildcache.content_attributes()
    reused = {key for key, entry in fresh.content.items() if entry is cache.content.get(key)}
    value, storable = view.value, buildcache.storable
    known = view.memo.get(_STORED, {})  # the digests of the bodies rendered in this build
    if kept:
        again = {key for key in fresh.content if key not in reused}
        pairs, current = cache.pairs, list(cache.values)
        # The pairs of those pages, found in C: an edit build's reads are 143,000 pairs.
        ours = compress(range(len(pairs)), map(again.__contains__, map(_KEY, pairs)))
        dated = [pairs.index(_BUILD_DATE)] if _BUILD_DATE in pairs else []
        for i in chain(ours, dated):
            pair = pairs[i]
            now = known[pair] if pair in known else storable(value(pair))
            if now != current[i]:  # an equal value keeps its object: not a change to save
                current[i] = now
        return current
    current = [  # each pair once: no memo (``_current``) needed
        old
        if pair[0] in reused and pair[1] in attrs
        else known[pair]
        if pair in known
        else storable(value(pair))
        for pair, old in zip(cache.pairs, cache.values, strict=True)
    ]
    # A related list that lists the same pages keeps its old value (see RelatedLists).
    same = RelatedLists(view.site.related_index.include_newer)
    for i in compress(range(len(current)), map(_RELATED, map(_ATTR, cache.pairs))):
        if same.unchanged(cache.values[i], current[i]):
            current[i] = cache.values[i]
    return current


def _kept_outputs(
    outputs: list[Output],
    site: Site,
    cache: BuildCache | None,
    changed: frozenset[str] | None,
    destination: Path,
    current: list,
    same_plan: bool,
) -> dict[str, OutputRecord]:
    """The files of the last build that this one would write again byte for byte.

    ``same_plan``: the outputs are the kept graph's, planned as the records were."""
    if cache is None:
        return {}
    changed_reads = starmap(operator.ne, zip(cache.values, current, strict=True))
    stale = set(compress(range(len(current)), changed_reads))  # in C: 143,000 pairs
    published = f"{destination}{os.sep}"
    kept = {}
    for item in outputs:
        record = cache.outputs.get(item.out_path)
        if (
            record is None
            or item.kind == "copy"
            or (not same_plan and record.sig != buildcache.plan_sig(item, site))
            or (changed and not record.templates.isdisjoint(changed))
            or not stale.isdisjoint(record.reads)
        ):
            continue
        try:
            stat = os.stat(f"{published}{item.out_path}")
        except OSError:
            continue
        # The published file is still the one this record describes.
        if (stat.st_size, stat.st_mtime_ns) == (record.size, record.mtime_ns):
            kept[item.out_path] = record
    return kept


def _write_all(
    outputs: list[Output],
    kept: dict[str, OutputRecord],
    fresh: BuildCache,
    numbers: _ReadNumbers,
    workers: int,
    progress: Progress,
    report: BuildReport,
) -> tuple[set[str], dict[str, tuple[int, int]], list[SourceError]]:
    """Render and write what the cache cannot keep; return the paths, their stats, errors.
    Each file's record goes into ``fresh``, its reads numbered as its chunk comes in."""
    todo = [item for item in outputs if item.out_path not in kept]
    # The sitemap lists every page (a tenth of a second for the real blog): first, in the
    # first chunk, not last, where the other worker would have nothing left to do.
    todo.sort(key=lambda item: item.kind != "sitemap")
    # A copy already published is two stats: workers are forked for renders only.
    if sum(item.kind != "copy" for item in todo) < PARALLEL_THRESHOLD:
        workers = 1
    planned = {item.out_path: item for item in todo}
    files = {path: (record.size, record.mtime_ns) for path, record in kept.items()}
    errors: list[SourceError] = []
    # A dozen sets of templates for 12,677 files: one object each, pickled and loaded once.
    same_templates = {record.templates: record.templates for record in kept.values()}
    rows = _map(_write_chunk, todo, workers, progress, "Writing files")
    for path, status, reads, templates, stat in rows:
        if isinstance(status, SourceError):
            errors.append(status)
            continue
        files[path] = stat
        report.unchanged += status == "same"
        if planned[path].kind != "copy":
            sig = buildcache.plan_sig(planned[path], _STATE.site)
            templates = same_templates.setdefault(templates, templates)
            fresh.outputs[path] = OutputRecord(sig, numbers.file_reads(reads), templates, *stat)
    _STATE.log.partials = None  # in case the chunks ran in this process
    fresh.outputs.update(kept)
    report.rendered_outputs += sum(1 for item in todo if item.kind != "copy")
    report.kept_outputs += len(kept)
    return set(files), files, errors


def _write_chunk(outputs: list[Output]) -> list[tuple]:
    state = _STATE
    out = []
    # The chunk's distinct reads, sent once; each file's row numbers them (a page's title
    # is read by hundreds of files: one tuple per read and file would fill the parent).
    table: list[tuple] = []
    numbers: dict[tuple, int] = {}
    if state.log.partials is None:  # kept by the worker for the rest of the stage: the
        state.log.partials = {}  # graph stays as it is while files are written
    for item in outputs:
        target = state.staging / item.out_path
        published = state.published / item.out_path if state.published else target
        numbered = array("I")
        templates: frozenset = frozenset()
        stat = None
        try:
            if item.kind == "copy":
                status: str | SourceError = _copy(item.source, target, published)
            else:
                state.log.begin()
                try:
                    data = render_output(item, state)
                    if state.empty_staging:
                        status, stat = "new", write_new(target, data)
                    else:
                        status = write_if_changed(target, data, published)
                finally:
                    reads, templates = state.log.end()
                for pair in reads | buildcache.implicit_reads(item, state.site):
                    i = numbers.get(pair)
                    if i is None:
                        i = numbers[pair] = len(table)
                        table.append(pair)
                    numbered.append(i)
                while state.loaded:  # the bodies the render read: not kept
                    drop_content(state.loaded.pop())
            stat = stat or (target if status == "new" else published).stat()
            row = (status, (table, numbered), templates, (stat.st_size, stat.st_mtime_ns))
            out.append((item.out_path, *row))
        except SourceError as e:
            out.append((item.out_path, e, (), (), None))
        except OSError as e:
            where = str(item.source) if item.kind == "copy" else item.out_path
            out.append((item.out_path, SourceError(where, 0, 0, str(e)), (), (), None))
        except Exception as e:
            err = template_error(e)
            err.message = f"while writing {item.out_path}: {err.message}"
            out.append((item.out_path, err, (), (), None))
    return out


class _ReadNumbers:
    """Numbers the reads of the files written into ``fresh.pairs``, as each chunk's rows
    come in, and works out each new pair's value (on this process's graph, the one the
    workers were forked with: the values are those the workers would find).

    The last build's pairs keep their numbers, so a kept file's ids stand. Values are
    worked out here, each pair once, rather than by each output worker for each chunk
    that reads it: the workers' copies took a sixth of the stage. When most pairs are no
    longer read by any file, the rest are numbered anew (``finish``)."""

    def __init__(self, fresh: BuildCache, cache: BuildCache | None, current: list, view: GraphView):
        if cache is not None:
            fresh.pairs, fresh.values = list(cache.pairs), current
        self.fresh, self.cache, self.view = fresh, cache, view
        self.ids = dict(zip(fresh.pairs, range(len(fresh.pairs)), strict=True))
        # Each worker's table has its own copy of a page's key: one string per key, not
        # per pair, is kept (the real blog's pairs load in 11 ms instead of 21).
        self.same_key: dict[str, str] = {}
        self.same_pages: dict[tuple, tuple] = {}
        # id of a chunk's table -> the table (kept, so that no other table takes its id)
        # and its pairs' numbers here
        self.tables: dict[int, tuple[list, list[int]]] = {}

    def file_reads(self, reads: tuple[list, array]) -> array:
        """One file's reads as its worker sent them: its chunk's table of pairs, and
        numbers into that table."""
        table, local = reads
        found = self.tables.get(id(table))
        if found is None:  # the first row of its chunk: the table is numbered once
            numbers = list(map(self.ids.get, table))  # in C: most pairs are known
            if None in numbers:
                self._number_new(table, numbers)
            found = self.tables[id(table)] = (table, numbers)
            while _STATE.loaded:  # a body a value needed (a read that is new to the cache)
                drop_content(_STATE.loaded.pop())
        return array("I", map(found[1].__getitem__, local))

    def _number_new(self, table: list[tuple], numbers: list[int | None]) -> None:
        """Number the pairs of ``table`` that ``numbers`` has no number for, and keep each
        one's value (each pair is new once: no memo)."""
        ids, view, fresh = self.ids, self.view, self.fresh
        pairs, values, same_key = fresh.pairs, fresh.values, self.same_key
        digests = view.memo.get(_STORED, {})  # of the bodies rendered in this build
        for j in [j for j, i in enumerate(numbers) if i is None]:
            pair = table[j]
            numbers[j] = ids[pair] = len(pairs)
            key, attr = pair
            value = digests.get(pair, UNSET)
            if value is UNSET:
                value = buildcache.storable(view.evaluate(pair))
            if attr == "related":
                value = share_related(value, self.same_pages)
            pairs.append((same_key.setdefault(key, key), attr))
            values.append(value)

    def finish(self, renumber: bool) -> None:
        """With ``renumber`` (not when the cache is saved as changes to the last index),
        number anew the pairs still read when most are read by no file any more."""
        self.tables.clear()
        fresh = self.fresh
        if not renumber or self.cache is None:  # with no cache, every pair is read
            return
        used = sorted(set().union(*(record.reads for record in fresh.outputs.values())))
        if len(used) < len(fresh.pairs) // 2:
            new_number = {old: new for new, old in enumerate(used)}
            fresh.pairs = [fresh.pairs[i] for i in used]
            fresh.values = [fresh.values[i] for i in used]
            for record in fresh.outputs.values():
                record.reads = array("I", map(new_number.__getitem__, record.reads))


def render_output(item: Output, state: BuildState) -> bytes:
    site = state.site
    if item.kind == "alias":
        return alias_html(item.target, site.config.language.language_code).encode()
    if item.kind in ("sitemap", "robots", "404"):
        name = {"sitemap": "sitemap.xml", "robots": "robots.txt", "404": "404.html"}[item.kind]
        page = site.not_found if item.kind == "404" else site.home
        text = _render_first(state.env, [name, f"_default/{name}"], page=page, site=site)
    else:
        page = site.pages[item.page]
        # Each worker renders one output at a time, so the page can carry the current pager.
        if page.pagers:
            page.paginator = page.pagers[item.pager - 1]
        text = _render_first(
            state.env,
            layout_candidates(page, item.fmt),
            page=page,
            site=site,
            paginator=page.paginator,
        )
    if state.minify and item.out_path.endswith((".html", ".xml")):
        text = _minify(text)
    return text.encode("utf-8")


def _thumbnails_shown(env: jinja2.Environment, fresh: BuildCache) -> bool:
    """Whether a template that rendered this build's files or bodies calls ``thumbnail``
    (read from its source: the calls themselves happen in the workers, or in an earlier
    build for the files kept)."""
    used = {r.templates for r in fresh.outputs.values()}
    used.update(entry.templates for entry in fresh.content.values())
    for name in frozenset().union(*used):
        try:
            source, _, _ = env.loader.get_source(env, name)
        except jinja2.TemplateNotFound:  # a layout looked for and not there
            continue
        if "thumbnail" in source:
            return True
    return False


def _render_first(env: jinja2.Environment, names: list[str], **context) -> str:
    try:
        template = select_layout(env, names)
    except jinja2.TemplateNotFound:
        raise SourceError(
            "templates", 0, 0, f"no template found; looked for {', '.join(names)}"
        ) from None
    except jinja2.TemplateSyntaxError as e:
        raise template_error(e) from None
    return template.render(**context)


def _minify(text: str) -> str:
    import minify_html

    return minify_html.minify(text, minify_css=True, minify_js=True, keep_closing_tags=True)


def holds_bytes(path: Path, data: bytes) -> bool:
    """Whether the file at ``path`` already holds exactly ``data``."""
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except FileNotFoundError:
        return False


def is_copy_of(target: Path, source: Path) -> bool:
    """Whether ``target`` is an earlier copy of ``source`` (same size and mtime, as copy2 keeps)."""
    try:
        existing, stat = target.stat(), source.stat()
    except FileNotFoundError:
        return False
    return existing.st_size == stat.st_size and existing.st_mtime_ns == stat.st_mtime_ns


def write_new(path: Path, data: bytes) -> os.stat_result:
    """Write ``path`` in place, with no check of what is there (a file no one else can see
    yet: in a staging folder that started empty, or a temporary file)."""
    try:
        fd = os.open(path, _NEW_FILE, 0o666)
    except FileNotFoundError:  # the first file of its folder (asking first costs a syscall each)
        try:  # its parent folder is most often there: one mkdir, not makedirs' stat and mkdir
            os.mkdir(path.parent)
        except FileNotFoundError:
            os.makedirs(path.parent, exist_ok=True)
        except FileExistsError:  # another worker made it in between
            pass
        fd = os.open(path, _NEW_FILE, 0o666)
    try:
        with memoryview(data) as view:
            while view:
                view = view[os.write(fd, view) :]
        return os.fstat(fd)
    finally:
        os.close(fd)


_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0)


def write_if_changed(path: Path, data: bytes, published: Path | None = None) -> str:
    """Write ``data`` unless the published file (by default ``path``) holds exactly these
    bytes, so its modification time stays."""
    if holds_bytes(published or path, data):
        return "same"
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    write_new(tmp, data)
    # Replacing (not writing in place) breaks the hard link to the previous build's file.
    os.replace(tmp, path)
    return "new"


def _copy(source: Path, target: Path, published: Path) -> str:
    if is_copy_of(published, source):
        return "same"
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp{os.getpid()}")
    shutil.copy2(source, tmp)
    os.replace(tmp, target)
    return "new"


def _map(func, items: list, workers: int, progress: Progress, label: str) -> Iterator:
    """Run ``func`` over chunks of ``items`` in forked workers (in-process when small);
    yield the rows it returns, each chunk's as soon as it is done, in order."""
    if not items:
        return
    chunks = _shrinking_chunks(items, workers)
    task = progress.task(label, len(items))
    if workers <= 1 or len(items) < PARALLEL_THRESHOLD or not FORKS:
        for part in chunks:
            yield from task.done(len(part), func(part))
        return
    # The workers share the parent's memory until they write to it; a collection of the
    # cyclic garbage collector writes to every object it visits, so what exists is frozen.
    gc.freeze()
    try:
        with fork_pool(workers) as pool:
            for part, rows in zip(chunks, pool.map(func, chunks), strict=True):
                yield from task.done(len(part), rows)
    finally:
        gc.unfreeze()


def _shrinking_chunks(items: list, workers: int) -> list[list]:
    """Large chunks first (fewer results to send), ever smaller ones at the end, so that
    the workers finish together instead of one waiting on the other's last chunk."""
    chunks, start = [], 0
    while start < len(items):
        size = max(8, (len(items) - start) // (workers * 4))
        chunks.append(items[start : start + size])
        start += size
    return chunks


# --- staging and swap ------------------------------------------------------------
def _make_staging(destination: Path, sparse: bool) -> Path:
    """A fresh folder beside the destination: empty when ``sparse``, else pre-filled with
    hard links to the last build."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(destination)
    staging = destination.with_name(f".{destination.name}.staging-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    if destination.is_dir() and not sparse:
        shutil.copytree(destination, staging, copy_function=_link_or_copy, symlinks=True)
    else:
        staging.mkdir()
    return staging


def _remove_leftovers(destination: Path) -> None:
    """Staging folders of builds that were killed (their process is gone) are garbage."""
    for path in destination.parent.glob(f".{destination.name}.*-*"):
        kind, _, pid = path.name.rpartition("-")
        if not kind.endswith((".staging", ".old")) or not pid.isdigit() or _alive(int(pid)):
            continue
        shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _clean_stale(staging: Path, written: set[str]) -> int:
    """``--cleanDestinationDir``: remove what the new build did not write."""
    removed = 0
    for path in sorted(staging.rglob("*"), reverse=True):
        rel = path.relative_to(staging).as_posix()
        if path.is_file() or path.is_symlink():
            if rel not in written:
                path.unlink()
                removed += 1
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return removed


def _move_in(staging: Path, destination: Path) -> None:
    """Each file of a sparse staging folder replaces its published copy (atomically, one by one)."""
    for folder, _, names in os.walk(staging):
        rel = os.path.relpath(folder, staging)
        target_dir = destination if rel == "." else destination / rel
        if names:
            target_dir.mkdir(parents=True, exist_ok=True)
        for name in names:
            os.replace(os.path.join(folder, name), target_dir / name)
    shutil.rmtree(staging, ignore_errors=True)


def _swap_in(staging: Path, destination: Path) -> None:
    old = destination.with_name(f".{destination.name}.old-{os.getpid()}")
    if destination.exists():
        os.rename(destination, old)
    os.rename(staging, destination)
    shutil.rmtree(old, ignore_errors=True)


def _count(report: BuildReport, outputs: list[Output]) -> None:
    for item in outputs:
        if item.kind in ("page", "sitemap", "robots", "404"):
            report.pages += 1
        elif item.kind == "pager":
            report.paginator_pages += 1
        elif item.kind == "alias":
            report.aliases += 1
        elif item.origin.startswith("static/"):
            report.static_files += 1
        else:
            report.non_page_files += 1
