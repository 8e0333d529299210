"""The search index as Pagefind bundles: a few large ones, and small *young* ones for
the articles changed since.

``pagefind/`` holds one folder per bundle (a complete Pagefind index of some
articles) and ``matome-search.json``, which lists the bundles and, by Pagefind's
fragment id, the results the search box hides. A published bundle never changes:
the articles a build changed or added go into a new young bundle, and the older
copies of them are hidden; a deleted article is hidden the same way. The new young
bundle takes in the newest young bundles while they hold no more articles than it
(a binary counter's carry): a build indexes its own changes and, now and then, those
of a few builds before, never all the changes since the large bundles, and there are
at most a few young bundles for a query to read. Once the changes outgrow
``RECENT_PAGES`` articles, the large bundles that hold most of them are made again
(the others go into one young bundle).

A large bundle holds ``BUNDLE_PAGES`` articles at most, in date order. For each
character of a query the browser fetches a part of every bundle (one Pagefind chunk,
some 20,000 word positions, even for a rare character), so a few large bundles fetch
less than many small ones; but Pagefind holds a whole bundle in memory while it writes
it, its largest need by far, so one process at a time writes.
A build whose articles are all as the bundles have them (``state.py``) runs no
Pagefind and writes nothing.
"""

from __future__ import annotations

import json
import math
import os
import re
import secrets
import shutil
import threading
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import OUTPUT_DIR, tokens
from .service import PagefindError, PagefindService
from .state import Bundle, SearchState, fingerprint, load_state, save_state, text_digest

MANIFEST = "matome-search.json"
BUNDLE_PAGES = 640
RECENT_PAGES = 16
# Pagefind writes its own search UIs into every bundle; the theme's search box uses
# its JavaScript API (pagefind.js) only.
ATTEMPTS = 3  # Pagefind runs for a bundle before its failure to write the files is an error
UNUSED_FILES = (
    "pagefind-ui.js",
    "pagefind-ui.css",
    "pagefind-modular-ui.js",
    "pagefind-modular-ui.css",
    "pagefind-component-ui.js",
    "pagefind-component-ui.css",
    "pagefind-highlight.js",
)
# For these languages Pagefind would run its own segmenter; their characters are
# words already (tokens.py), and "unknown" is the language Pagefind does nothing for.
SEGMENTED_LANGUAGES = ("ja", "zh")


@dataclass
class SearchPage:
    """One article as the search index sees it."""

    url: str  # its address from the site's root, as the site links to it
    title: str
    language: str
    order: str  # its place among the large bundles: its date, then its URL
    thumbnail: str  # the image shown beside the result, or ""
    # Another value whenever the text may have changed ("": unknown, always read).
    text_version: str
    text: Callable[[], str]


@dataclass
class SearchUpdate:
    """What a build did to the index; ``publish`` once the staging folder is in place."""

    indexed: int  # articles Pagefind indexed in this build (0: Pagefind did not run)
    written: dict[str, tuple[int, int]]  # files written, from the site's root -> (size, mtime)
    files: dict[str, tuple[int, int]]  # every file of the index after this build
    state: SearchState
    state_changed: bool
    cache_dir: Path

    def publish(self, destination: Path) -> None:
        """Remove from ``destination/pagefind`` what the new index does not use (the
        replaced bundles, an index in an older layout), then keep the new state."""
        folder = destination / OUTPUT_DIR
        if self.written and folder.is_dir():
            keep = {MANIFEST, *(b.name for b in self.state.all_bundles())}
            for entry in os.scandir(folder):
                if entry.name in keep:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)
        if self.state_changed:
            save_state(self.cache_dir, self.state)


@dataclass
class _Plan:
    bundles: list[Bundle]  # the large bundles after this build
    young: list[Bundle]
    todo: list[tuple[Bundle, list[SearchPage]]] = field(default_factory=list)  # to make


def update_index(
    pages: list[SearchPage], staging: Path, published: Path, cache_dir: Path, workers: int
) -> SearchUpdate:
    """Make the bundles whose articles changed, and the manifest if it changed, in
    ``staging/pagefind``; ``published/pagefind`` is left as it is until ``publish``.

    Raises PagefindError when Pagefind fails."""
    return make_index(plan_index(pages, published, cache_dir), staging, workers)


@dataclass
class IndexPlan:
    """What ``make_index`` is to do: ``plan_index``'s answer."""

    old: SearchState
    prints: _Fingerprints
    plan: _Plan
    published: Path
    cache_dir: Path


def plan_index(pages: list[SearchPage], published: Path, cache_dir: Path) -> IndexPlan:
    """The bundles to make: the kept state against the articles now and the published
    files. Apart from ``make_index`` so that a build begins the index beside its files
    only after this: its thousands of file checks, each a system call, would wait on the
    interpreter in a thread of a busy process."""
    old = load_state(cache_dir)
    prints = _Fingerprints(pages, old.texts)
    bundles = [b for b in old.bundles if _intact(b, published)]
    young = [b for b in old.young if _intact(b, published)]
    return IndexPlan(old, prints, _plan(bundles, young, pages, prints), published, cache_dir)


def make_index(
    planned: IndexPlan, staging: Path, workers: int, hold: Callable[[], None] | None = None
) -> SearchUpdate:
    """``update_index``'s making, once planned; ``hold`` is called before a large bundle
    is made (a young one is made at once).

    Raises PagefindError when Pagefind fails."""
    old, prints, plan = planned.old, planned.prints, planned.plan
    published, cache_dir = planned.published, planned.cache_dir
    target = staging / OUTPUT_DIR
    _build(plan.todo, target, prints, workers, plan.young, hold)
    state = SearchState(old.key, plan.bundles, plan.young, prints.texts)
    written = {
        f"{OUTPUT_DIR}/{bundle.name}/{rel}": (size, mtime)
        for bundle, _ in plan.todo
        for rel, (size, mtime) in bundle.files.items()
    }
    manifest = _manifest(state, prints)
    name = f"{OUTPUT_DIR}/{MANIFEST}"
    if _read(published / name) != manifest:
        target.mkdir(parents=True, exist_ok=True)
        (target / MANIFEST).write_bytes(manifest)
        stat = (target / MANIFEST).stat()
        written[name] = (stat.st_size, stat.st_mtime_ns)
    else:
        stat = (published / name).stat()
    files = {name: (stat.st_size, stat.st_mtime_ns)}
    for bundle in state.all_bundles():
        for rel, (size, mtime) in bundle.files.items():
            files[f"{OUTPUT_DIR}/{bundle.name}/{rel}"] = (size, mtime)
    names = [b.name for b in state.all_bundles()]
    changed = names != [b.name for b in old.all_bundles()] or state.texts != old.texts
    return SearchUpdate(
        sum(len(part) for _, part in plan.todo), written, files, state, changed, cache_dir
    )


def _plan(
    bundles: list[Bundle], young: list[Bundle], pages: list[SearchPage], prints: _Fingerprints
) -> _Plan:
    current = {page.url: page for page in pages}
    if not bundles:  # the first build, or every bundle is gone
        plan = _Plan([], [])
        for part in _partition(sorted(pages, key=_order)):
            bundle = Bundle(_new_name())
            plan.bundles.append(bundle)
            plan.todo.append((bundle, part))
        return plan

    def same(bundle: Bundle, url: str) -> bool:
        return url in current and bundle.pages[url] == prints.of(current[url])

    placed = {url for b in bundles for url in b.pages if same(b, url)}
    pending = [page for page in pages if page.url not in placed]
    gone = sum(1 for b in bundles for url in b.pages if url not in current)
    if len(pending) + gone <= RECENT_PAGES:
        return _grown(bundles, young, pending, current, placed, same)
    # Too many changes for the young bundles: the large bundles that hold most of them
    # are made again (down to half of RECENT_PAGES left, so that the next builds do not
    # come back here at once). A new article joins the last bundle while it has room.
    homes = {url: i for i, b in enumerate(bundles) for url in b.pages}
    parts = [[current[url] for url in b.pages if url in current] for b in bundles]
    changes = [sum(1 for url in b.pages if not same(b, url)) for b in bundles]
    for page in sorted((p for p in pending if p.url not in homes), key=_order):
        if len(parts[-1]) >= BUNDLE_PAGES:
            parts.append([])
            changes.append(0)
        parts[-1].append(page)
        changes[-1] += 1
    left = len(pending) + gone
    redo = set()
    for i in sorted(range(len(parts)), key=lambda i: -changes[i]):
        if left <= RECENT_PAGES // 2 or not changes[i]:
            break
        redo.add(i)
        left -= changes[i]
    plan = _Plan([], [])
    for i, part in enumerate(parts):
        if i < len(bundles) and i not in redo:
            plan.bundles.append(bundles[i])
        elif i in redo and part:  # (a bundle whose every article is gone is dropped)
            bundle = Bundle(_new_name())
            plan.bundles.append(bundle)
            plan.todo.append((bundle, sorted(part, key=_order)))
    absorbed = {page.url for i in redo for page in parts[i]}
    rest = sorted((page for page in pending if page.url not in absorbed), key=_order)
    if rest:
        plan.young.append(Bundle(_new_name()))
        plan.todo.append((plan.young[0], rest))
    return plan


def _grown(
    bundles: list[Bundle],
    young: list[Bundle],
    pending: list[SearchPage],
    current: dict[str, SearchPage],
    placed: set[str],
    same: Callable[[Bundle, str], bool],
) -> _Plan:
    """The young bundles after a build whose changes they can hold (``pending``: the
    articles no large bundle has as they are now). A young bundle stays while it shows
    an article; the articles none shows go into a new one, which takes in the newest
    young bundles no larger than it."""
    kept: list[tuple[Bundle, list[str]]] = []  # each with the articles it shows
    for bundle in young:
        held = [url for url in bundle.pages if url not in placed and same(bundle, url)]
        if held:
            kept.append((bundle, held))
    shown = {url for _, held in kept for url in held}
    take = [page for page in pending if page.url not in shown]
    if not take:
        return _Plan(bundles, [bundle for bundle, _ in kept])
    while kept and len(kept[-1][1]) <= len(take):
        take += [current[url] for url in kept.pop()[1]]
    new = Bundle(_new_name())
    return _Plan(bundles, [*(b for b, _ in kept), new], [(new, sorted(take, key=_order))])


def _partition(pages: list[SearchPage]) -> list[list[SearchPage]]:
    """``pages`` in as few runs of at most ``BUNDLE_PAGES`` as can be, of even sizes."""
    if not pages:
        return []
    count = math.ceil(len(pages) / BUNDLE_PAGES)
    size = math.ceil(len(pages) / count)
    return [pages[i : i + size] for i in range(0, len(pages), size)]


def _order(page: SearchPage) -> tuple[str, str]:
    return page.order, page.url


def _new_name() -> str:
    return secrets.token_hex(6)


class _Fingerprints:
    """Each article's fingerprint; its text is read only if its version is new."""

    def __init__(self, pages: list[SearchPage], known: dict[str, list[str]]):
        self.pages = {page.url: page for page in pages}
        self.known = known
        self.texts: dict[str, list[str]] = {}  # url -> [version, digest], for the new state
        self.prints: dict[str, str] = {}
        self.lock = threading.Lock()

    def of(self, page: SearchPage, text: str | None = None) -> str:
        """``text``: the page's text, if the caller has read it already."""
        found = self.prints.get(page.url)
        if found is None:
            digest = self._digest(page, text)
            found = fingerprint(page.url, page.title, page.language, page.thumbnail, digest)
            self.prints[page.url] = found
        return found

    def current(self, url: str) -> str | None:
        """The fingerprint of the article at ``url`` now; None if there is none."""
        page = self.pages.get(url)
        return None if page is None else self.of(page)

    def _digest(self, page: SearchPage, text: str | None) -> str:
        done = self.texts.get(page.url)
        if done is not None:  # read (or known) already in this build
            return done[1]
        seen = self.known.get(page.url)
        if seen is not None and page.text_version and seen[0] == page.text_version:
            digest = seen[1]
        else:
            digest = text_digest(page.text() if text is None else text)
        with self.lock:
            self.texts[page.url] = [page.text_version, digest]
        return digest


def _intact(bundle: Bundle, published: Path) -> bool:
    """Whether every file of ``bundle`` is published as it was written."""
    folder = f"{published}{os.sep}{OUTPUT_DIR}{os.sep}{bundle.name}{os.sep}"
    try:
        return all(os.stat(folder + rel).st_size == size for rel, (size, _) in bundle.files.items())
    except OSError:
        return False


# --- making bundles ----------------------------------------------------------------
def _build(
    todo: list[tuple[Bundle, list[SearchPage]]],
    target: Path,
    prints: _Fingerprints,
    workers: int,
    young: list[Bundle],
    hold: Callable[[], None] | None,
) -> None:
    """Make the bundles of ``todo``, the largest first, on up to ``workers`` Pagefind
    processes at once (one writing while the others index), calling ``hold`` before each
    large bundle; raise the first failure once every process has stopped."""
    if not todo:
        return
    queue = sorted(todo, key=lambda item: -len(item[1]))
    lock = threading.Lock()
    writing = threading.Lock()
    failed = threading.Event()

    def work() -> None:
        while not failed.is_set():
            with lock:
                if not queue:
                    return
                bundle, part = queue.pop(0)
            try:
                if hold is not None and all(bundle is not b for b in young):
                    hold()
                for _ in range(ATTEMPTS):
                    # A process per bundle: one that has written a bundle keeps its memory.
                    service = PagefindService()
                    try:
                        _make_bundle(service, bundle, part, target / bundle.name, prints, writing)
                    finally:
                        service.close()
                    # Pagefind answers before its writes are done (it never flushes its
                    # files), and a busy machine has seen it exit with a file still empty
                    # (none of its files is, once written whole).
                    stamps = _stamps(target / bundle.name)
                    if all(size for size, _ in stamps.values()):
                        break
                    shutil.rmtree(target / bundle.name, ignore_errors=True)
                else:
                    raise PagefindError(f"Pagefind left empty files in {bundle.name}")
                _read_bundle(bundle, target / bundle.name, stamps)
            except BaseException:
                failed.set()
                raise

    count = max(1, min(workers, len(queue)))
    with ThreadPoolExecutor(count, thread_name_prefix="pagefind") as pool:
        runs = [pool.submit(work) for _ in range(count)]
    for run in runs:
        run.result()


def _make_bundle(
    service: PagefindService,
    bundle: Bundle,
    pages: list[SearchPage],
    folder: Path,
    prints: _Fingerprints,
    writing: threading.Lock,
) -> None:
    index = service.call({"type": "NewIndex", "config": {}}, "NewIndex")["index_id"]
    for page in pages:
        text = page.text()
        bundle.pages[page.url] = prints.of(page, text)
        meta = {"title": page.title}
        if page.thumbnail:
            meta["image"] = page.thumbnail
        language = page.language.split("-")[0].lower() or "unknown"
        record = {
            "type": "AddRecord",
            "index_id": index,
            "url": page.url,
            "content": tokens.split_cjk(text),
            "language": "unknown" if language in SEGMENTED_LANGUAGES else language,
            "meta": meta,
        }
        service.send(record)
    for _ in pages:
        service.receive("IndexedFile")
    folder.parent.mkdir(parents=True, exist_ok=True)
    write = {"type": "WriteFiles", "index_id": index, "output_path": str(folder)}
    with writing:
        service.call(write, "WriteFiles")
        service.call({"type": "DeleteIndex", "index_id": index}, "DeleteIndex")


def _stamps(folder: Path) -> dict[str, list[int]]:
    """Each file under ``folder``, by its path in it: [size, mtime_ns]."""
    found = {}
    for dirpath, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(dirpath, name)
            stat = os.stat(path)
            rel = os.path.relpath(path, folder).replace(os.sep, "/")
            found[rel] = [stat.st_size, stat.st_mtime_ns]
    return found


def _read_bundle(bundle: Bundle, folder: Path, stamps: dict[str, list[int]]) -> None:
    """What Pagefind wrote for ``bundle`` (``stamps``: its files, ``_stamps``): each
    result's fragment id, each file's stamp."""
    for name in UNUSED_FILES:
        (folder / name).unlink(missing_ok=True)
    bundle.fragments = _fragment_ids(folder / "fragment")
    missing = bundle.pages.keys() - bundle.fragments.keys()
    if missing:
        raise PagefindError(f"Pagefind wrote no result for {sorted(missing)[0]}")
    bundle.files = {rel: stamp for rel, stamp in stamps.items() if rel not in UNUSED_FILES}


# A fragment file is gzip of "pagefind_dcd" and the result's JSON, its URL first.
_FRAGMENT_URL = re.compile(rb'pagefind_dcd\{"url":("(?:[^"\\]|\\.)*")')


def _fragment_ids(folder: Path) -> dict[str, str]:
    """URL -> fragment id (its file name): the id is what search results carry."""
    found = {}
    for entry in os.scandir(folder):
        with open(entry.path, "rb") as f:
            head = zlib.decompressobj(wbits=31).decompress(f.read(8192), 4096)
        m = _FRAGMENT_URL.match(head)
        if m is None:
            raise PagefindError(f"cannot read the URL of {entry.path} (another Pagefind format?)")
        found[json.loads(m.group(1))] = entry.name.removesuffix(".pf_fragment")
    return found


# --- the manifest --------------------------------------------------------------------
def _manifest(state: SearchState, prints: _Fingerprints) -> bytes:
    """The bundles for the search box to merge (the first one's pagefind.js runs them)
    and the results to hide: the copies of what changed since or is gone."""
    hidden = set()
    for bundle in state.all_bundles():
        for url, print_ in bundle.pages.items():
            if prints.current(url) != print_:
                hidden.add(bundle.fragments[url])
    data = {
        "version": 1,
        "bundles": [f"{b.name}/" for b in state.all_bundles()],
        "hidden": sorted(hidden),
    }
    return json.dumps(data, separators=(",", ":")).encode() + b"\n"


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None
