"""Rebuilds for ``matome serve`` that redo only what a change affects.

Every render (a page's content, an output file) logs what it reads (``reads.py``).
After a change, the reads are evaluated again and only what read a changed value
is rendered again:

- an article's text changed (same front matter): its content is rendered again
  on the site graph in memory, then the outputs that read what changed (its own
  page; lists and feeds only if they show its summary or comment count);
- its front matter, a new or deleted file: the site graph is built again, from the
  changed files read again and the loader's kept copies of the others; content
  comes from the cache for every page whose body and reads are unchanged;
- a template: the content and outputs that loaded it; a template added or
  removed (lookup may pick another file) or the config: everything.

When more than ``RENDER_AT_ONCE`` outputs are to be rendered, only the changed
pages and the ones a browser asked for lately are rendered at once; the others
are marked stale and rendered when a browser asks for them (Hugo's fast render
mode). Outputs are rendered into a staging folder and moved into the served
folder only when the whole rebuild succeeded, so a failed rebuild leaves the
last good site served.

The steps are ``build.py``'s (config → load → graph → content → thumbnails →
plan → render), called one by one so each can be skipped or narrowed. The search
index follows each rebuild in the background (``search/live.py``).
"""

from __future__ import annotations

import contextlib
import copy
import gc
import os
import shutil
import tempfile
import threading
import time
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2

from .build import BuildState, _copy, render_output, write_if_changed
from .buildcache import ContentEntry, content_source, implicit_reads, plan_sig
from .config import CONFIG_EXTS, ROOT_NAMES, Flags, SiteConfig, load_config
from .content import loader
from .content.dates import site_zone
from .content.frontmatter import split_front_matter
from .content.loader import LoadResult, load_content
from .content.page import RENDERED_FIELDS, Page
from .errors import SourceError
from .forking import fork_pool
from .functions import install_site_functions
from .images import prepare_thumbnails
from .markup.expand import ContentRenderer, RenderedContent, attach_content
from .markup.markdown import MarkdownRenderer
from .outputs.plan import Output, plan_outputs
from .reads import (
    FAST_TYPES,
    LOOKUP,
    MISSING,
    THUMB,
    GraphView,
    ReadLog,
    RelatedLists,
    instrument,
    log_lookups,
    log_thumbnails,
    page_key,
)
from .render import make_environment, template_dirs, template_error, theme_dir
from .search import article_pages, search_enabled
from .site import Site, build_site
from .snapshot import only_body_changed

PARALLEL_CONTENT = 64  # below this, forking costs more than it saves
PARALLEL_OUTPUTS = 256
# More template renders than this in one rebuild: render what the browser shows now, the
# rest when it is asked for (Hugo's fast render mode). A list page of the real blog with
# its 100 cards takes about 0.2 s to render.
RENDER_AT_ONCE = 8
TEMPLATE_KINDS = ("page", "pager", "sitemap", "robots", "404")
VISITED = 64  # pages a browser asked for lately: rendered at once after a change


# --- one rebuild's work, shared with forked workers ----------------------------------
@dataclass
class Job:
    """What workers need; set before the pool forks, so it is inherited, not sent."""

    state: BuildState
    log: ReadLog
    root: Path  # the served folder, to compare against
    staging: Path


_JOB: Job | None = None


def _parallel(func, items: list, workers: int, threshold: int) -> list:
    if workers <= 1 or len(items) < threshold or os.name != "posix":
        return func(items)
    chunk = max(8, len(items) // (workers * 8))
    chunks = [items[i : i + chunk] for i in range(0, len(items), chunk)]
    with fork_pool(workers) as pool:
        return [row for rows in pool.map(func, chunks) for row in rows]


def render_content(content: ContentRenderer, page: Page) -> RenderedContent | SourceError:
    try:
        return content.render_page(page)
    except SourceError as e:
        return e
    except Exception as e:  # a template bug must name the page, not stop the server
        err = template_error(e)
        err.message = f"while rendering content/{page.file.path}: {err.message}"
        return err


def _content_chunk(indices: list[int]) -> list[tuple]:
    job = _JOB
    out = []
    for index in indices:
        job.log.begin()
        result = render_content(job.state.content, job.state.site.pages[index])
        reads, templates = job.log.end()
        out.append((index, result, reads, templates))
    return out


def _output_chunk(items: list[Output]) -> list[tuple]:
    job = _JOB
    out = []
    for item in items:
        served, staged = job.root / item.out_path, job.staging / item.out_path
        if item.kind == "copy":
            try:
                out.append((item.out_path, _copy(item.source, staged, served), (), ()))
            except OSError as e:
                out.append((item.out_path, SourceError(str(item.source), 0, 0, str(e)), (), ()))
            continue
        job.log.begin()
        try:
            status: str | SourceError = write_if_changed(
                staged, render_output(item, job.state), served
            )
        except SourceError as e:
            status = e
        except Exception as e:
            status = template_error(e)
            status.message = f"while writing {item.out_path}: {status.message}"
        reads, templates = job.log.end()
        out.append((item.out_path, status, reads | implicit_reads(item, job.state.site), templates))
    return out


# --- the live site -------------------------------------------------------------------
@dataclass
class Outcome:
    """What one rebuild did, for the terminal and the browser."""

    errors: list[SourceError] = field(default_factory=list)
    warnings: list[SourceError] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    rendered_content: int = 0
    rendered_outputs: int = 0
    deferred: int = 0  # outputs left to render when they are asked for
    outputs: list[Output] = field(default_factory=list)
    kind: str = "full"  # full, graph (site graph built again), reuse (graph kept)
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
    content: Path
    templates: list[Path]  # the site's first
    static: list[Path]
    assets: Path
    config_dir: Path

    def kind_of(self, path: Path) -> str:
        """config, template, content, static, assets or '' (not something a build reads)."""
        if path.parent == self.source:
            stem, _, ext = path.name.partition(".")
            if stem in ROOT_NAMES and ext in CONFIG_EXTS:
                return "config"
            if path.name in ("config", "templates", "static", "assets", "content"):
                return "folder"  # a watched folder appeared or went away
            return ""
        for kind, roots in (
            ("config", [self.config_dir]),
            ("template", self.templates),
            ("content", [self.content]),
            ("static", self.static),
            ("assets", [self.assets]),
        ):
            if any(path.is_relative_to(r) for r in roots):
                return kind
        return ""


def site_paths(source: Path, config: SiteConfig) -> SitePaths:
    source = source.resolve()
    return SitePaths(
        source=source,
        content=(source / str(config.get("contentDir") or "content")).resolve(),
        templates=[(source / "templates").resolve(), (theme_dir() / "templates").resolve()],
        static=list(
            dict.fromkeys(d.resolve() for d in [theme_dir() / "static", source / "static"])
        ),
        assets=(source / "assets").resolve(),
        config_dir=(source / "config").resolve(),
    )


class LiveSite:
    """The site as last built for serving: its graph, rendered content and every read."""

    def __init__(
        self,
        source: Path,
        flags: Flags,
        root: Path,
        workers: int | None = None,
        fast_render: bool = True,
    ):
        self.source = source.resolve()
        self.fast_render = fast_render  # False: every rebuild renders all it affects at once
        self.flags = flags
        self.root = root  # the served folder; staging folders are made beside it
        self.workers = workers or os.cpu_count() or 1
        self.config: SiteConfig | None = None
        self.paths: SitePaths | None = None
        self.site: Site | None = None
        self.view: GraphView | None = None
        self.env: jinja2.Environment | None = None
        self.markdown: MarkdownRenderer | None = None
        self.content: ContentRenderer | None = None
        self.thumbnails: list[Output] = []
        self.loaded: LoadResult | None = None  # as the loader made it, before the site graph
        self.log = ReadLog()
        self.entries: dict[str, ContentEntry] = {}  # page key -> rendered content
        self.outputs: dict[str, Output] = {}  # out_path -> output
        self.plan_sigs: dict[str, tuple] = {}
        self.out_reads: dict[str, frozenset] = {}
        self.out_templates: dict[str, frozenset] = {}
        self.readers: dict[tuple, set[str]] = defaultdict(set)
        self.template_readers: dict[str, set[str]] = defaultdict(set)
        self.values: dict[tuple, Any] = {}  # each read, as every output that made it saw it
        self.attrs: dict[str, set] = defaultdict(set)  # page key -> attributes in ``values``
        self.pending: set[Path] = set()  # changes of rebuilds that failed, tried again next time
        self.stale: set[str] = set()  # out_paths whose served file is out of date
        self.stale_content: set[str] = set()  # page keys whose body is out of date
        self.visited: OrderedDict[str, None] = OrderedDict()
        # Rebuilds run in the watcher's thread, renders on request in the server's threads.
        self.lock = threading.RLock()
        self._visited_lock = threading.Lock()
        self._settled = True  # see settle()
        self._changed_at = 0.0
        self.search = None  # the search index (search.live.LiveSearch), if the site has one

    # --- entry points --------------------------------------------------------------
    def full(self) -> Outcome:
        """Build everything from scratch (first build, config change, templates added)."""
        with self.lock:
            return self._full()

    def update(self, changed: set[Path]) -> Outcome:
        """Rebuild after ``changed`` paths changed on disk."""
        with self.lock:
            if self.view is not None:
                self.view.forget()
            return self._update(changed)

    def affected_by(self, changed: set[Path]) -> bool:
        """Whether any of these paths is something a build reads (or a failed one is pending)."""
        return self.paths is None or any(self.paths.kind_of(p) for p in self.pending | changed)

    def settle(self, idle: float = 1.0) -> bool:
        """Once nothing has been rebuilt for ``idle`` seconds: free what the last rebuilds
        left (an old site graph is garbage in cycles) and freeze what stays, so that the
        cyclic collector skips it during the next rebuild. On the real blog a full
        collection took 0.35 to 0.45 s of every front matter edit. Returns whether it ran."""
        if self._settled or time.monotonic() - self._changed_at < idle:
            return False
        with self.lock:
            gc.unfreeze()
            gc.collect()
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
        """Render ``out_path`` now if a rebuild left it for later (before it is served)."""
        if out_path not in self.stale:
            return []
        with self.lock:
            item = self.outputs.get(out_path)
            if out_path not in self.stale or item is None:
                return []
            self.view.forget()
            outcome = Outcome(kind="request", errors=self._render_stale_content())
            if outcome.errors:
                return outcome.errors
            rows, staging = self._render_outputs([item], self.site, self.env, self.content, outcome)
            if not outcome.errors:
                self.stale.discard(out_path)
                self._commit(rows, staging, outcome, self.outputs, None)
            return outcome.errors

    def finish(self) -> Outcome:
        """Render everything left for later (tests and benchmarks compare the whole folder)."""
        with self.lock:
            started = time.perf_counter()
            self.view.forget()
            outcome = Outcome(kind="finish", errors=self._render_stale_content())
            if outcome.errors:
                return self._finish(outcome, started)
            todo = [self.outputs[p] for p in sorted(self.stale) if p in self.outputs]
            rows, staging = self._render_outputs(todo, self.site, self.env, self.content, outcome)
            if not outcome.errors:
                self.stale = set()
                self._commit(rows, staging, outcome, self.outputs, None)
            return self._finish(outcome, started)

    def _full(self) -> Outcome:
        started = time.perf_counter()
        outcome = Outcome(kind="full")
        try:
            config = load_config(self.source, self.flags)
        except SourceError as e:
            outcome.errors.append(e)
            return self._finish(outcome, started)
        now = datetime.now(UTC)
        loaded = load_content(config, now)
        pristine = _pristine(loaded)
        site = build_site(config, loaded, now)
        outcome.warnings = list(loaded.warnings)
        outcome.errors += [*loaded.errors, *site.errors]
        env = self._new_env()
        markdown = MarkdownRenderer(config.markup, enable_emoji=config.enable_emoji)
        content = self._bind(env, site, markdown, config)
        log_lookups(site, self.log)
        view = GraphView(site)
        entries: dict[str, ContentEntry] = {}
        todo = [p for p in site.pages if p.file is not None]
        outcome.errors += self._render_contents(todo, view, content, entries, outcome)
        paths = site_paths(self.source, config)
        thumbnails, image_warnings = prepare_thumbnails(site, self.workers)
        outcome.warnings += image_warnings
        outputs, plan_errors = plan_outputs(site, paths.static, thumbnails)
        outcome.errors += plan_errors
        if outcome.errors:
            return self._finish(outcome, started)
        rows, staging = self._render_outputs(outputs, site, env, content, outcome)
        if outcome.errors:
            return self._finish(outcome, started)
        old_outputs = self.outputs
        self._forget_site()
        self.config, self.paths, self.site, self.view = config, paths, site, view
        self.env, self.markdown, self.content = env, markdown, content
        self.entries, self.thumbnails, self.loaded = entries, thumbnails, pristine
        self.out_reads, self.out_templates, self.values = {}, {}, {}
        self.readers, self.template_readers = defaultdict(set), defaultdict(set)
        self.attrs, self.stale, self.stale_content = defaultdict(set), set(), set()
        self._commit(rows, staging, outcome, old_outputs, outputs)
        self._warm_templates()
        return self._finish(outcome, started)

    def _update(self, changed: set[Path]) -> Outcome:
        if self.site is None:
            return self._full()
        changed = self.pending | changed
        kinds: dict[str, set[Path]] = defaultdict(set)
        gone = self._gone_unknown(changed)
        for path in changed - gone:
            kind = self.paths.kind_of(path)
            if kind:
                kinds[kind].add(path)
        started = time.perf_counter()
        if not kinds:
            outcome = Outcome(kind="none")
        elif "config" in kinds or "folder" in kinds or self._template_set_changed(kinds):
            outcome = self._full()
        else:
            edits = self._body_edits(kinds.get("content", set()))
            if edits is None or "assets" in kinds:
                outcome = self._rebuild_graph(kinds)
            else:
                outcome = self._reuse_graph(kinds, edits)
            self._finish(outcome, started)
        self.pending = set() if outcome.ok else changed
        return outcome

    # --- incremental ---------------------------------------------------------------
    def _gone_unknown(self, changed: set[Path]) -> set[Path]:
        """Content paths that are gone and that the last build never read: a tool's
        temporary file, written and renamed over the article (``sed -i``, an editor's
        safe save). They change nothing, where a new file means loading every file."""
        gone = {p for p in changed if not os.path.lexists(p)}
        if not gone or self.loaded is None:
            return set()
        read = set()
        for page in self.loaded.pages:
            if page.file is not None:
                read.add(page.file.filename)
                folder = os.path.dirname(page.file.filename)
                read.update(os.path.join(folder, name) for name in page.resource_names)
        folders = {os.path.dirname(path) for path in read}
        return {
            p
            for p in gone
            if str(p) not in read
            and not any(f == str(p) or f.startswith(f"{p}{os.sep}") for f in folders)
        }

    def _body_edits(self, paths: set[Path]) -> list[tuple[Page, Any]] | None:
        """The pages whose file changed only below its front matter; None if anything else did."""
        edits = []
        for path in sorted(paths):
            page = self.view.by_file.get(str(path))
            if page is None:
                return None
            try:
                # As the loader reads it: bytes decoded, line endings kept.
                text = path.read_bytes().decode("utf-8")
                fm = split_front_matter(text, f"content/{page.file.path}")
            except (OSError, UnicodeDecodeError, SourceError):
                return None  # the full load reports it with its line and column
            if not only_body_changed(page, fm, self.config):
                return None
            edits.append((page, fm))
        return edits

    def _reuse_graph(self, kinds: dict[str, set[Path]], edits: list) -> Outcome:
        """Body edits, template edits, static files: the site graph stays as it is."""
        outcome = Outcome(kind="reuse")
        site, view = self.site, self.view
        changed_templates = self._template_names_of(kinds.get("template", set()))
        env, content = self.env, self.content
        if changed_templates:
            env = self._new_env()
            content = self._bind(env, site, self.markdown, self.config)
        todo = [page for page, _ in edits]
        todo += [
            view.by_key[key]
            for key, entry in self.entries.items()
            if entry.templates & changed_templates and key in view.by_key
        ]
        todo = list({id(p): p for p in todo}.values())
        saved = [(page, dict(page.__dict__)) for page in todo]
        for page, fm in edits:
            page.body, page.body_line = fm.body, fm.body_line
            page.__dict__.pop("comment_count", None)  # cached from the old body
        entries: dict[str, ContentEntry] = {}
        outcome.errors += self._render_contents(todo, view, content, entries, outcome)
        view.forget()
        # Another page's content may read what rendering these changed (a summary, a title).
        keys = {page_key(p) for p in todo}
        again = [
            view.by_key[key]
            for key, entry in self.entries.items()
            if key not in entries
            and any(pair[0] in keys and view.value(pair) != v for pair, v in entry.reads.items())
        ]
        saved += [(page, dict(page.__dict__)) for page in again]
        outcome.errors += self._render_contents(again, view, content, entries, outcome)
        view.forget()
        keys |= {page_key(p) for p in again}
        replanned = "static" in kinds
        outputs = None
        if replanned:
            outputs, plan_errors = plan_outputs(site, self.paths.static, self.thumbnails)
            outcome.errors += plan_errors
        if not outcome.errors:
            dirty = self._dirty(outputs, view, keys, changed_templates)
            now, later = self._at_once(dirty, site, {page_key(p) for p, _ in edits})
            rows, staging = self._render_outputs(now, site, env, content, outcome)
        if outcome.errors:
            for page, state in saved:
                page.__dict__.clear()
                page.__dict__.update(state)
            return outcome
        self.env, self.content = env, content
        self.entries.update(entries)
        self.stale_content -= keys
        # The loader's copies must hold the new bodies too, for the next graph rebuild.
        pristine = {p.file.filename: i for i, p in enumerate(self.loaded.pages)}
        for page, _ in edits:
            fresh = self._load_file(page, datetime.now(UTC)).pages
            if fresh and page.file.filename in pristine:
                self.loaded.pages[pristine[page.file.filename]] = fresh[0]
        self._commit(rows, staging, outcome, self.outputs, outputs, later)
        if changed_templates:
            self._warm_templates()
        if edits:
            outcome.changed_page = edits[0][0].rel_permalink
        return outcome

    def _rebuild_graph(self, kinds: dict[str, set[Path]]) -> Outcome:
        """Front matter, new or deleted files: load and graph again, content from the cache."""
        outcome = Outcome(kind="graph")
        now = datetime.now(UTC)
        loaded, pristine = self._load(kinds, now)
        site = build_site(self.config, loaded, now)
        outcome.warnings = list(loaded.warnings)
        outcome.errors += [*loaded.errors, *site.errors]
        if outcome.errors:
            return outcome
        log_lookups(site, self.log)
        changed_templates = self._template_names_of(kinds.get("template", set()))
        env = self._new_env() if changed_templates else self.env
        content = self._bind(env, site, self.markdown, self.config)
        view = GraphView(site)
        changed = sorted(str(p) for p in kinds.get("content", set()))
        changed_pages = [view.by_file[f] for f in changed if f in view.by_file]
        changed_keys = {page_key(p) for p in changed_pages}
        entries: dict[str, ContentEntry] = {}
        todo, may_wait = [], []
        for page in site.pages:
            if page.file is None:
                continue
            key = page_key(page)
            entry = self.entries.get(key)
            why = self._content_stale(entry, page, view, changed_templates, key in changed_keys)
            if not why:
                _reuse(page, entry)
                entries[key] = entry
            else:
                (may_wait if why == "graph" else todo).append(page)
        waiting = self._content_later(may_wait, changed_keys)
        todo += [p for p in may_wait if p not in waiting]
        for page in waiting:  # the old body until a browser asks for what shows it
            key = page_key(page)
            _reuse(page, self.entries[key])
            entries[key] = self.entries[key]
        outcome.errors += self._render_contents(todo, view, content, entries, outcome)
        view.forget()
        thumbnails, image_warnings = prepare_thumbnails(site, self.workers)
        outcome.warnings += image_warnings
        outputs, plan_errors = plan_outputs(site, self.paths.static, thumbnails)
        outcome.errors += plan_errors
        if not outcome.errors:
            dirty = self._dirty(outputs, view, None, changed_templates)
            now, later = self._at_once(dirty, site, changed_keys)
            # What shows a body left for later is left for later too.
            shows = self._content_readers({page_key(p) for p in waiting})
            later += [item for item in outputs if item.out_path in shows]
            now = [item for item in now if item.out_path not in shows]
            rows, staging = self._render_outputs(now, site, env, content, outcome)
        if outcome.errors:
            self._bind(self.env, self.site, self.markdown, self.config)
            _forget_images(site)
            return outcome
        outcome.changed_page = changed_pages[0].rel_permalink if changed_pages else ""
        self._forget_site()
        self.site, self.view, self.env, self.content = site, view, env, content
        self.entries, self.thumbnails, self.loaded = entries, thumbnails, pristine
        self.stale_content = {page_key(p) for p in waiting}
        self._commit(rows, staging, outcome, self.outputs, outputs, later)
        if changed_templates:
            self._warm_templates()
        return outcome

    # --- pieces ----------------------------------------------------------------------
    def _load(self, kinds: dict[str, set[Path]], now: datetime) -> tuple[LoadResult, LoadResult]:
        """The content as ``load_content`` reads it (for the graph), and a copy to keep.

        When only existing Markdown files changed, only those are read again; the other
        pages are copies of what the loader made last time (reading 1,933 articles takes
        about a second)."""
        changed = kinds.get("content", set())
        known = {p.file.filename: i for i, p in enumerate(self.loaded.pages)}
        if any(str(p) not in known or not p.is_file() for p in changed):
            loaded = load_content(self.config, now)
            return loaded, _pristine(loaded)
        pages: list[Page | None] = list(self.loaded.pages)
        errors, warnings = [], []
        for path in changed:
            index = known[str(path)]
            fresh = self._load_file(pages[index], now)
            errors += fresh.errors
            warnings += fresh.warnings
            pages[index] = fresh.pages[0] if fresh.pages else None  # a draft now: left out
        kept = LoadResult(
            pages=[p for p in pages if p is not None],
            static_files=self.loaded.static_files,
            skipped=self.loaded.skipped,
        )
        loaded = _pristine(kept)
        loaded.errors, loaded.warnings = errors, warnings
        return loaded, kept

    def _load_file(self, page: Page, now: datetime) -> LoadResult:
        """One content file read again by the loader, with the bundle files it had."""
        root = self.config.source / str(self.config.get("contentDir") or "content")
        zone = site_zone(self.config.time_zone)
        fresh = LoadResult()
        name = page.file.path.rsplit("/", 1)[-1]
        rel_dir = page.file.dir.rstrip("/")
        names = list(page.resource_names)
        loader._load_file(self.config, zone, now, root, rel_dir, name, names, fresh)
        return fresh

    def _new_env(self) -> jinja2.Environment:
        env = make_environment(self.source)
        instrument(env, self.log)
        return env

    def _bind(self, env, site: Site, markdown, config: SiteConfig) -> ContentRenderer:
        install_site_functions(env, site, markdown)
        log_thumbnails(env, self.log)
        return ContentRenderer(env, markdown, site, summary_length=config.summary_length)

    def _forget_site(self) -> None:
        if self.site is not None:
            _forget_images(self.site)

    def _warm_templates(self) -> None:
        """Compile here what the forked workers compiled, so the first edit does not pay for it."""
        names = set(self.template_readers)
        for entry in self.entries.values():
            names |= entry.templates
        for name in sorted(names):
            with contextlib.suppress(jinja2.TemplateError):  # the render that needs it reports it
                self.env.get_template(name)

    def _template_set_changed(self, kinds: dict[str, set[Path]]) -> bool:
        """A template added or removed may change which file a lookup picks: rebuild all."""
        if "template" not in kinds:
            return False
        from .render import _names_in

        return [_names_in(d) for d in template_dirs(self.source)] != self.env.matome_template_names

    def _template_names_of(self, paths: set[Path]) -> frozenset[str]:
        return frozenset(
            path.relative_to(directory).as_posix()
            for path in paths
            for directory in self.paths.templates
            if path.is_relative_to(directory)
        )

    def _render_contents(
        self, pages: list[Page], view: GraphView, content, entries: dict, outcome: Outcome
    ) -> list[SourceError]:
        """Render page bodies (forked workers when many), attach them, log what they read."""
        global _JOB
        if not pages:
            return []
        site = view.site
        state = BuildState(site, content.env, content, self.root, False)
        _JOB = Job(state, self.log, self.root, self.root)
        try:
            indices = [p.index for p in pages]
            rows = _parallel(_content_chunk, indices, self.workers, PARALLEL_CONTENT)
        finally:
            _JOB = None
        errors = []
        for index, result, reads, templates in rows:
            page = site.pages[index]
            if isinstance(result, SourceError):
                errors.append(result)
                continue
            attach_content(page, result)
            fields = {name: page.__dict__[name] for name in RENDERED_FIELDS}
            values = {pair: view.value(pair) for pair in reads}
            entries[page_key(page)] = ContentEntry(
                content_source(page), fields, values, templates, comment_count=page.comment_count
            )
        outcome.rendered_content += len(rows)
        return errors

    def _dirty(
        self,
        outputs: list[Output] | None,
        view: GraphView,
        keys: set[str] | None,
        templates: frozenset,
    ) -> list[Output]:
        """The outputs to render again: new, planned differently, or whose reads changed.

        ``outputs`` is None when the plan is the one already served; ``keys`` limits
        the reads compared to those pages' (when the site graph was kept)."""
        stale: set[str] = set()
        values, readers = self.values, self.readers
        same_related = RelatedLists(view.site.related_index.include_newer)
        for key in self.attrs if keys is None else keys:
            page = view.by_key.get(key)
            fields = page.__dict__ if page is not None else {}
            for attr in self.attrs.get(key, ()):
                pair = (key, attr)
                new = fields.get(attr, MISSING)
                if type(new) not in FAST_TYPES:
                    new = view.value(pair)
                if attr == "related":
                    changed = not same_related.unchanged(values[pair], new)
                else:
                    changed = new != values[pair]
                if changed:
                    stale |= readers.get(pair, set())
        for name in templates:
            stale |= self.template_readers.get(name, set())
        if outputs is None:
            return [self.outputs[path] for path in sorted(stale) if path in self.outputs]
        site = view.site
        return [
            item
            for item in outputs
            if item.kind == "copy"
            or item.out_path in stale
            or self.plan_sigs.get(item.out_path) != plan_sig(item, site)
        ]

    def _at_once(
        self, dirty: list[Output], site: Site, changed: set[str]
    ) -> tuple[list[Output], list[Output]]:
        """Split the outputs to render into now and later (when a browser asks for them).

        Now: everything when there is little to render; else what is cheap (copies,
        redirects), the changed pages' own HTML and the pages a browser looked at lately."""
        heavy = sum(1 for item in dirty if item.kind in TEMPLATE_KINDS)
        if not self.fast_render or heavy <= RENDER_AT_ONCE:
            return dirty, []
        with self._visited_lock:
            visited = set(self.visited)
        now, later = [], []
        for item in dirty:
            own = (
                item.page >= 0 and item.fmt == "html" and page_key(site.pages[item.page]) in changed
            )
            if item.kind not in TEMPLATE_KINDS or own or item.out_path in visited:
                now.append(item)
            else:
                later.append(item)
        return now, later

    def _content_stale(
        self,
        entry: ContentEntry | None,
        page: Page,
        view: GraphView,
        templates: frozenset,
        file_changed: bool,
    ) -> str:
        """Why a page's cached body cannot be used: '' (it can), 'graph' when only what it
        reads from other pages or ``site`` changed (it may wait), else 'source'.

        Only a changed file's source is digested again: the others' bodies are as the
        entries were made from (the watcher reports every file written; on the real blog
        digesting all 1,933 bodies took a tenth of a second of each front matter edit)."""
        if entry is None or entry.templates & templates:
            return "source"
        if file_changed and entry.source != content_source(page):
            return "source"
        changed = [pair for pair, value in entry.reads.items() if view.value(pair) != value]
        if not changed:
            return ""
        # A lookup that no longer finds its page is an error to report now, not later.
        return "source" if any(key in (LOOKUP, THUMB) for key, _ in changed) else "graph"

    def _content_later(self, pages: list[Page], changed: set[str]) -> list[Page]:
        """Bodies that can wait until a browser asks for a page that shows them.

        Such as the articles whose text lists the newest articles, after one is renamed.
        Not when there are few, nor when a page a browser looked at lately shows them."""
        if not self.fast_render or len(pages) <= 3:
            return []
        with self._visited_lock:
            visited = set(self.visited)
        later = []
        for page in pages:
            key = page_key(page)
            if key in changed or self._content_readers({key}) & visited:
                continue
            if any(pair[0] == key for e in self.entries.values() for pair in e.reads):
                continue  # another body reads this one: render it now
            later.append(page)
        return later

    def _content_readers(self, keys: set[str]) -> set[str]:
        """The outputs that read the rendered body of these pages."""
        attrs = (*RENDERED_FIELDS, "content", "summary")
        return {path for key in keys for a in attrs for path in self.readers.get((key, a), ())}

    def _render_stale_content(self) -> list[SourceError]:
        """Bodies a rebuild left for later, before an output that may show them is rendered."""
        pages = [self.view.by_key[k] for k in sorted(self.stale_content) if k in self.view.by_key]
        if not pages:
            return []
        entries: dict[str, ContentEntry] = {}
        errors = self._render_contents(pages, self.view, self.content, entries, Outcome())
        self.view.forget()
        if not errors:
            self.entries.update(entries)
            self.stale_content = set()
        return errors

    def _render_outputs(
        self, outputs: list[Output], site: Site, env, content, outcome: Outcome
    ) -> tuple[list[tuple], Path]:
        """Render into a fresh staging folder; only files whose bytes changed are written."""
        global _JOB
        staging = Path(tempfile.mkdtemp(prefix="staging-", dir=self.root.parent))
        _JOB = Job(BuildState(site, env, content, staging, False), self.log, self.root, staging)
        try:
            rows = _parallel(_output_chunk, outputs, self.workers, PARALLEL_OUTPUTS)
        finally:
            _JOB = None
        outcome.errors += [status for _, status, _, _ in rows if isinstance(status, SourceError)]
        outcome.rendered_outputs += sum(1 for item in outputs if item.kind != "copy")
        if outcome.errors:
            shutil.rmtree(staging, ignore_errors=True)
        return rows, staging

    def _commit(
        self,
        rows: list[tuple],
        staging: Path,
        outcome: Outcome,
        old_outputs: dict[str, Output],
        outputs: list[Output] | None,
        later: list[Output] = (),
    ) -> None:
        """Move what changed into the served folder; remember what each output read.

        ``later``: outputs left stale, rendered when a browser asks for them."""
        # Marked before any file moves: a request that sees a new file must also find
        # the ones left for later marked (it then waits for this rebuild to finish).
        planned = {item.out_path: item for item in outputs} if outputs is not None else None
        stale = self.stale & planned.keys() if planned is not None else set(self.stale)
        stale -= {path for path, _, _, _ in rows}
        self.stale = stale | {item.out_path for item in later}
        outcome.deferred = len(self.stale)
        if not any(self.root.iterdir()):
            # The first build: the staging folder is the whole site.
            self.root.rmdir()
            os.rename(staging, self.root)
            outcome.written = [path for path, status, _, _ in rows if status == "new"]
        else:
            for path, status, _, _ in rows:
                if status == "new":
                    target = self.root / path
                    target.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(staging / path, target)
                    outcome.written.append(path)
            shutil.rmtree(staging, ignore_errors=True)
        emptied: set[tuple] = set()
        for path, _, reads, templates in rows:
            if reads or templates or path in self.out_reads:
                emptied |= self._remember(path, reads, templates)
        if planned is not None:
            for path in old_outputs.keys() - planned.keys():
                (self.root / path).unlink(missing_ok=True)
                outcome.removed.append(path)
                emptied |= self._remember(path, frozenset(), frozenset())
            self.outputs = planned
            self.plan_sigs = {path: plan_sig(item, self.site) for path, item in planned.items()}
        for pair in {pair for _, _, reads, _ in rows for pair in reads}:
            self.values[pair] = self.view.value(pair)
            self.attrs[pair[0]].add(pair[1])
        for pair in emptied:
            if not self.readers.get(pair):
                self.readers.pop(pair, None)
                self.values.pop(pair, None)
                self.attrs[pair[0]].discard(pair[1])
        outcome.outputs = list(self.outputs.values())

    def _remember(self, path: str, reads: frozenset, templates: frozenset) -> set[tuple]:
        """Index what ``path`` read; return the reads it no longer makes."""
        old = self.out_reads.get(path, frozenset())
        for pair in old - reads:
            self.readers[pair].discard(path)
        for name in self.out_templates.get(path, frozenset()) - templates:
            self.template_readers[name].discard(path)
        for pair in reads - old:
            self.readers[pair].add(path)
        for name in templates:
            self.template_readers[name].add(path)
        if reads or templates:
            self.out_reads[path], self.out_templates[path] = reads, templates
        else:
            self.out_reads.pop(path, None)
            self.out_templates.pop(path, None)
        return old - reads

    def _finish(self, outcome: Outcome, started: float) -> Outcome:
        outcome.errors.sort(key=lambda e: (e.path, e.line, e.col))
        if outcome.ok and outcome.kind in ("full", "graph", "reuse"):
            self._index_search()
        outcome.seconds = time.perf_counter() - started
        self._settled, self._changed_at = False, time.monotonic()
        return outcome

    def _index_search(self) -> None:
        if not search_enabled(self.config.params):
            return
        if self.search is None:
            from .search.live import LiveSearch

            self.search = LiveSearch(self.root, self.workers)
        self.search.refresh(article_pages(self.site, self.entries))


def _reuse(page: Page, entry: ContentEntry) -> None:
    """A rendered body put on a page of a new site graph, with its comment count (counting
    again, on the real blog, took 40 ms of each front matter edit)."""
    page.__dict__.update(entry.fields)
    page.__dict__["comment_count"] = entry.comment_count


def _pristine(loaded: LoadResult) -> LoadResult:
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
    return LoadResult(pages=pages, static_files=list(loaded.static_files), skipped=loaded.skipped)


def _forget_images(site: Site) -> None:
    """The thumbnails prepared for a graph that is no longer served (kept by ``id(site)``)."""
    from . import images

    images._PREPARED.pop(id(site), None)
