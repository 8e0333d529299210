"""The build cache: what the last build rendered and read, so the next one redoes only that.

Kept in ``<site>/.matome-cache/`` (ignored by git, safe to delete): ``index.pickle``
with what every render read (and ``index-changes.pickle``, what builds on a kept site
graph changed in it since), one file per page body under ``content/``,
``last-build.pickle``, what a build with no changed input needs to know,
``graph.pickle``, the site graph (``snapshot.py``), and under ``partials/`` the HTML of
the ``partial_cached`` renders kept for the next builds (a list's article cards).
Every render logs what it reads (``reads.py``); the cache keeps, for each page
body and each output file, those reads with the values they returned, and the
templates it loaded. The next build loads the site and builds its graph as
usual, then evaluates the kept reads on the new graph:

- a page body is reused when its source is the same, no template it loaded
  changed and every read (another page's title through ``ref``, a site list)
  returns what it returned before;
- an output file is left as it is when its plan is the same, no template it
  loaded changed, every read is unchanged and the published file is the one
  the last build wrote (same size and modification time);
- a ``partial_cached`` render is used again, by the files rendered again, on the
  same terms as a page body.

Everything that is not a read of the graph is in the fingerprint, and a
different fingerprint discards the whole cache: matome's own code and its
rendering dependencies, the merged configuration and the command-line flags
(but not the destination: a build into another folder reuses every body).
Template files are compared one by one (by content); a template added or
removed may change which file a lookup picks, so it too discards the cache.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import hashlib
import importlib
import operator
import os
import pickle
import time
from array import array
from dataclasses import dataclass, field
from itertools import compress
from pathlib import Path
from typing import Any

from ..content.page import RENDERED_FIELDS, Page
from ..graph.site import Site
from ..render.environment import EscapeKeyedBytecodeCache
from ..render.plan import PAGINATOR_BYTES, Output
from .reads import page_key

CACHE_DIR = ".matome-cache"
INDEX_FILE = "index.pickle"
CHANGES_FILE = "index-changes.pickle"
LAST_BUILD_FILE = "last-build.pickle"
PARTIALS_DIR = "partials"
# Past this many files of partial renders, a build that reads them writes them as one.
PARTIAL_FILES = 16
# Libraries whose version can change what a page renders to, module -> distribution. The
# module's ``__version__`` is read: importing importlib.metadata is slow next to an edit
# build.
RENDERING_PACKAGES = {
    "jinja2": "jinja2",
    "markdown_it": "markdown-it-py",
    "mdit_py_plugins": "mdit-py-plugins",
    "pygments": "pygments",
    "nh3": "nh3",
    "PIL": "pillow",
}
# A string value longer than this is kept as its digest: page bodies are read by their
# own page and by feeds, and the cache need not hold the site's HTML twice.
LONG_VALUE = 256


@dataclass
class ContentEntry:
    """A page's rendered content and what rendering it read."""

    source: str  # digest of what render_page reads from the page itself
    fields: dict | None  # what attaching the rendered content set (None: in the file ``blob``)
    reads: dict  # (key, attr) -> the value read
    templates: frozenset
    blob: str = ""  # the file under content/ that holds ``fields``
    # The rendered fields but the HTML and the text (the summary, the counts), and the
    # comments the body quotes, kept here too: every list card and feed reads them for its
    # pages, and ``blob`` holds a page's HTML.
    listed: dict = field(default_factory=dict)


@dataclass
class OutputRecord:
    """One file of the last build: how it was planned, what rendering it read, its stat."""

    sig: tuple
    # Indexes into ``BuildCache.pairs`` (an array of ints loads at once; a site's files
    # make many reads of far fewer pairs).
    reads: array
    templates: frozenset
    size: int
    mtime_ns: int

    def __reduce__(self) -> tuple:
        # A call with the reads as bytes: the index loads one record per file (a dataclass
        # is pickled as a dictionary of its fields, its array as a call of its own).
        fields = (self.sig, self.reads.tobytes(), self.templates, self.size, self.mtime_ns)
        return _output_record, fields


@dataclass
class PartialRecord:
    """A ``partial_cached`` render kept for the next builds: what it read, the templates
    it loaded and its HTML. The index keeps no HTML: it is bytes ``at`` to ``at + size``
    of a file of ``partials/`` (``blob``), read only by a build that renders many files."""

    reads: array  # indexes into ``BuildCache.pairs``
    templates: frozenset
    html: str | None = None  # made by this run, until written
    blob: str = ""  # "" until written
    at: int = 0
    size: int = 0

    def __reduce__(self) -> tuple:
        # A call with the reads as bytes: the index loads thousands of these (a dataclass
        # is pickled as a dictionary of its fields, its array as a call of its own).
        fields = (self.reads.tobytes(), self.templates, self.html, self.blob, self.at, self.size)
        return _partial_record, fields

    def text(self, blobs: dict[str, bytes]) -> str | None:
        """The HTML, from this run or from its file in ``blobs`` (None: not there)."""
        if self.html is not None:
            return self.html
        data = blobs.get(self.blob)
        return data[self.at : self.at + self.size].decode() if data is not None else None


def _output_record(sig: tuple, reads: bytes, *fields: Any) -> OutputRecord:
    return OutputRecord(sig, array("I", reads), *fields)


def _partial_record(reads: bytes, *fields: Any) -> PartialRecord:
    return PartialRecord(array("I", reads), *fields)


@dataclass
class BuildCache:
    fingerprint: str
    templates: dict[str, tuple]  # template name -> its digest in each template folder
    build_id: str = ""  # the build that made the site graph these renders read
    content: dict[str, ContentEntry] = field(default_factory=dict)  # page key -> entry
    outputs: dict[str, OutputRecord] = field(default_factory=dict)  # out_path -> record
    pairs: list[tuple] = field(default_factory=list)  # every read some output made
    values: list = field(default_factory=list)  # what each of ``pairs`` returned
    index_id: str = ""  # names the index file, for the changes kept beside it
    changes: IndexChanges | None = None  # as loaded: what the changes file changed
    partials: dict[tuple, PartialRecord] = field(default_factory=dict)  # by lasting key


@dataclass
class PairIndex:
    """``BuildCache.pairs`` by number and by page key, and the reads whose value equals
    nothing (they read as changed each run), kept from one run to the next by
    ``MemoryStore`` (``ReadNumbers`` numbers the new reads into it): a run on a kept graph
    looks up the reads of the few pages that changed rather than every read."""

    ids: dict[tuple, int]
    by_key: dict[str, list[int]]
    volatile: set[int]
    related: list[int]  # the ``related`` reads (a title edit may read them all again)

    @classmethod
    def of(cls, pairs: list[tuple], values: list) -> PairIndex:
        index = cls({}, {}, set(), [])
        for i, (pair, value) in enumerate(zip(pairs, values, strict=True)):
            index.add(pair, i, value)
        return index

    def add(self, pair: tuple, number: int, value: Any) -> None:
        self.ids[pair] = number
        self.by_key.setdefault(pair[0], []).append(number)
        if pair[1] == "related":
            self.related.append(number)
        self.valued(number, value)

    def valued(self, number: int, value: Any) -> None:
        """Read ``number`` returns ``value`` now."""
        if value != value:
            self.volatile.add(number)
        else:
            self.volatile.discard(number)

    def of_keys(self, keys) -> list[int]:
        """The numbers of every read of these keys."""
        return [i for key in keys for i in self.by_key.get(key, ())]


@dataclass
class IndexChanges:
    """What builds on the kept site graph changed since the index file was written.

    Kept beside it, so a build after a one-article edit writes a few kilobytes instead
    of the whole index."""

    base: str  # the ``index_id`` of the index file these apply to
    size: int  # how many pairs the index file numbers; ``pairs`` are numbered on from it
    templates: dict[str, tuple]
    content: dict[str, ContentEntry] = field(default_factory=dict)
    outputs: dict[str, OutputRecord] = field(default_factory=dict)
    values: dict[int, Any] = field(default_factory=dict)  # the index file's pairs, by number
    pairs: list[tuple] = field(default_factory=list)
    added: list = field(default_factory=list)  # the values of ``pairs``
    build_id: str = ""  # the graph's, when it was built anew since the index file
    # Keys no longer kept (some may be of a change since, ``content`` puts them back).
    gone_content: set[str] = field(default_factory=set)
    gone_outputs: set[str] = field(default_factory=set)
    partials: dict[tuple, PartialRecord] = field(default_factory=dict)
    gone_partials: set[tuple] = field(default_factory=set)


@dataclass
class LastBuild:
    """What a build with no changed input needs: it then only checks the published files."""

    build_id: str  # the build whose graph and cache index this build used
    stamps: dict[str, tuple[int, int] | None]  # every input file -> (size, mtime_ns)
    digests: dict[str, bytes | None]  # every input file -> its bytes' digest
    day: Any  # the build date's day, which templates may print
    next_change: Any  # when a future page is due or a page expires (None: never)
    destination: str
    files: dict[str, tuple[int, int]]  # out_path -> (size, mtime_ns) as published
    report: Any  # the build's report, told again
    unfinished: bool = False  # some files were left to render when asked for


def input_stamps(roots: list[Path], files: list[Path]) -> dict[str, tuple[int, int] | None]:
    """Every file under ``roots`` and each of ``files``: its (size, modification time).

    Folders are walked as ``os.walk`` does (a link to a folder is not followed), each
    file stamped from its directory entry: a third faster than a stat by path."""
    stamps: dict[str, tuple[int, int] | None] = {}
    folders = [str(root) for root in reversed(roots)]
    while folders:
        try:
            entries = os.scandir(folders.pop())
        except OSError:
            continue  # missing or unreadable, as os.walk skips it
        with entries:
            for entry in entries:
                if entry.is_dir():
                    if not entry.is_symlink():
                        folders.append(entry.path)
                    continue
                try:
                    stat = entry.stat()
                except OSError:
                    stamps[entry.path] = None  # a dangling link, or gone
                    continue
                stamps[entry.path] = stat.st_size, stat.st_mtime_ns
    for path in files:
        stamps[str(path)] = _stamp(str(path))
    return stamps


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None  # gone
    return stat.st_size, stat.st_mtime_ns


def input_digests(stamps: dict, last: Any) -> dict[str, bytes | None]:
    """Each input's digest: the last build's where its stamp is the same, else read anew.

    What changed is told by digests, so a fresh checkout, where every file has a new
    modification time (a CI build with the cache restored), changes nothing (each file
    is read once then)."""
    known = last.stamps if isinstance(last, LastBuild) else {}
    digests = last.digests if isinstance(last, LastBuild) else {}
    return {
        path: digests[path] if known.get(path) == stamp else _digest(path, stamp)
        for path, stamp in stamps.items()
    }


# The digest of a file written again after it was stamped: it equals no file's digest, so
# the next build reads it again (the build may have read either version of it).
MOVING = b"written while read"


def _digest(path: str, stamp: tuple[int, int] | None) -> bytes | None:
    try:
        with open(path, "rb") as f:
            digest = hashlib.file_digest(f, "sha1").digest()
            stat = os.fstat(f.fileno())
    except OSError:
        return None  # gone
    return digest if (stat.st_size, stat.st_mtime_ns) == stamp else MOVING


def changed_files(destination: Path, files: dict[str, tuple[int, int]]) -> set[str]:
    """Those of ``files`` (out_path -> (size, mtime_ns)) that ``destination`` no longer
    holds with that size and modification time."""
    base = f"{destination}{os.sep}"
    changed = set()
    for path, stamp in files.items():
        try:
            stat = os.stat(base + path)
        except OSError:
            changed.add(path)
            continue
        if (stat.st_size, stat.st_mtime_ns) != stamp:
            changed.add(path)
    return changed


def files_unchanged(
    destination: Path,
    files: dict[str, tuple[int, int]],
    only: bool,
    outside: frozenset[str] = frozenset(),
) -> bool:
    """Whether each of ``files`` is in ``destination`` with its size and modification
    time; with ``only``, and no other file is there but in the top-level folders
    ``outside`` (one walk does both)."""
    if not only:
        return not changed_files(destination, files)
    found = 0
    folders = [(str(destination), "")]
    while folders:  # os.scandir: a site has a folder per page, os.walk's work per folder adds up
        folder, prefix = folders.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if prefix or entry.name not in outside:
                        folders.append((entry.path, f"{prefix}{entry.name}/"))
                    continue
                stamp = files.get(prefix + entry.name)
                if stamp is None:
                    return False
                stat = entry.stat()
                if (stat.st_size, stat.st_mtime_ns) != stamp:
                    return False
                found += 1
    return found == len(files)


# --- what a cache entry depends on --------------------------------------------------
@functools.cache
def content_attributes() -> frozenset[str]:
    """Page attributes made by rendering content: unknown until every body is rendered."""
    return frozenset({*RENDERED_FIELDS, "content", "summary", "comment_count"})


def body_readers(
    cache: BuildCache,
    keys: set[str],
    index: PairIndex | None = None,
    by_read: dict[int, set[str]] | None = None,
) -> dict[str, set[str]]:
    """For each of these pages, the files of the last run that read its rendered body.
    ``index`` and ``by_read``: the cache's reads and each read's files, when kept
    (``MemoryStore``); else every read and every file is looked at."""
    attrs = content_attributes()
    if index is not None and by_read is not None:
        found: dict[str, set[str]] = {}
        for i in index.of_keys(keys):
            key, attr = cache.pairs[i]
            if attr in attrs and by_read.get(i):
                found.setdefault(key, set()).update(by_read[i])
        return found
    wanted = {i: key for i, (key, attr) in enumerate(cache.pairs) if key in keys and attr in attrs}
    found = {}
    for path, record in cache.outputs.items():
        if wanted.keys().isdisjoint(record.reads):
            continue
        for i in wanted.keys() & set(record.reads):
            found.setdefault(wanted[i], set()).add(path)
    return found


def content_source(page: Page) -> str:
    """A digest of what ``render_page`` reads from the page itself."""
    digest = hashlib.sha256(page.body.encode("utf-8", "surrogatepass"))
    digest.update(
        f"\0{page.body_line}\0{page.file.path}\0{page.params.get('summary')!r}"
        f"\0{page.is_cjk_language}".encode()
    )
    return digest.hexdigest()


def implicit_reads(item: Output, site: Site) -> set:
    """What picks an output's template and pager, read in Python rather than in a template."""
    if item.page < 0:
        return set()
    key = page_key(site.pages[item.page])
    reads = {(key, a) for a in ("kind", "type", "layout", "section", "taxonomy", "outputs")}
    reads.add((key, "@pagers"))
    return reads


def plan_sig(item: Output, site: Site) -> tuple:
    page = page_key(site.pages[item.page]) if item.page >= 0 else ""
    return (item.kind, item.fmt, item.pager, item.target, str(item.source or ""), page)


def storable(value: Any) -> Any:
    """A read's value as the cache keeps it: long text by its digest."""
    if isinstance(value, str) and len(value) > LONG_VALUE:
        return ("@digest", hashlib.sha256(value.encode("utf-8", "surrogatepass")).digest())
    return value


def _version(module: str, distribution: str) -> str:
    try:
        version = getattr(importlib.import_module(module), "__version__", None)
    except ImportError:
        return "none"
    if isinstance(version, str):
        return version
    from importlib import metadata

    return metadata.version(distribution)


@functools.cache  # the code and the libraries of a process do not change while it runs
def _code_digest() -> bytes:
    """matome's own code and the versions of the libraries it renders with."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).resolve().parent.parent.rglob("*.py")):
        digest.update(path.read_bytes())
    for module, distribution in RENDERING_PACKAGES.items():
        digest.update(f"{distribution}={_version(module, distribution)}\n".encode())
    return digest.digest()


def fingerprint(config: Any) -> str:
    """What every cached render depends on besides its reads and templates."""
    digest = hashlib.sha256(_code_digest())
    # Where the site is written changes no file's bytes: the cache serves any destination.
    digest.update(repr(dataclasses.replace(config, destination="")).encode())
    return digest.hexdigest()


def template_digests(dirs: list[Path]) -> dict[str, tuple]:
    """Each template name with, in every template folder, the digest of its file and
    whether it names the paginator (None: absent)."""
    found: dict[str, list] = {}
    for i, directory in enumerate(dirs):
        for path in directory.rglob("*"):
            if path.is_file():
                name = path.relative_to(directory).as_posix()
                slot = found.setdefault(name, [None] * len(dirs))
                data = path.read_bytes()
                slot[i] = (hashlib.blake2b(data).hexdigest(), bool(PAGINATOR_BYTES.search(data)))
    return {name: tuple(slots) for name, slots in found.items()}


def changed_templates(cache: BuildCache, now: dict[str, tuple]) -> frozenset[str] | None:
    """Names whose files changed; None when a template was added or removed in any folder
    (a site's file now shadows the theme's, a lookup now finds another name). A changed
    template may name the paginator where it did not (a list in a format other than HTML
    is then paginated differently): the plan is made again (``pipeline/__init__.py``)."""

    def where(templates: dict[str, tuple]) -> dict[str, tuple]:
        return {name: tuple(d is not None for d in digests) for name, digests in templates.items()}

    if where(cache.templates) != where(now):
        return None
    return frozenset(name for name, digests in now.items() if cache.templates[name] != digests)


# --- reading and writing -------------------------------------------------------------
def cache_folder(source: Path) -> Path:
    """Where ``matome build`` keeps its cache (``matome serve`` keeps its own inside it)."""
    return source / CACHE_DIR


def _blob(folder: Path, name: str) -> Path:
    return folder / "content" / f"{name}.pickle"


def template_bytecode(folder: Path) -> Any:
    """Jinja's compiled templates, kept by name, escaping and source checksum under
    ``templates/``."""
    compiled = folder / "templates"
    compiled.mkdir(parents=True, exist_ok=True)
    return EscapeKeyedBytecodeCache(str(compiled))


def load(folder: Path, print_: str) -> BuildCache | None:
    """The last build's cache if it was made with this fingerprint; None otherwise.

    Page bodies stay on disk until ``content_fields`` asks for one."""
    cache = _read(folder / INDEX_FILE, print_)
    if not isinstance(cache, BuildCache):
        return None
    changes = _read(folder / CHANGES_FILE, print_)
    if not isinstance(changes, IndexChanges) or changes.base != cache.index_id:
        changes = IndexChanges(cache.index_id, len(cache.pairs), cache.templates)
    cache.templates = changes.templates
    cache.build_id = changes.build_id or cache.build_id
    for key in changes.gone_content:
        cache.content.pop(key, None)
    for path in changes.gone_outputs:
        cache.outputs.pop(path, None)
    for key in changes.gone_partials:
        cache.partials.pop(key, None)
    cache.content.update(changes.content)
    cache.outputs.update(changes.outputs)
    cache.partials.update(changes.partials)
    for i, value in changes.values.items():
        cache.values[i] = value
    cache.pairs += changes.pairs
    cache.values += changes.added
    cache.changes = changes
    return cache


def stored_bodies(folder: Path) -> set[str]:
    """The ``blob`` names of the rendered bodies on disk (one listing, not a stat each)."""
    try:
        with os.scandir(folder / "content") as found:
            return {item.name.removesuffix(".pickle") for item in found}
    except FileNotFoundError:
        return set()


def content_fields(folder: Path, entry: ContentEntry) -> dict | None:
    """The entry's page fields, read from its file each time (not kept: the HTML is big)."""
    if entry.fields is not None:
        return entry.fields
    fields = _read(_blob(folder, entry.blob), entry.source) if entry.blob else None
    return fields if isinstance(fields, dict) else None


def save_fields(folder: Path, key: str, digest: str, fields: dict) -> str:
    """One rendered body's page fields, written by the worker that rendered it; the name
    is new each time, so a build that fails leaves the files the cache names as they were.
    Written in place, not renamed into place: no index names the file before the build
    has succeeded, so one cut short by a killed build is never read (the next full ``save``
    removes it)."""
    name = hashlib.blake2b(f"{key}\0{digest}\0{os.getpid()}\0{time.time_ns()}".encode())
    _write(_blob(folder, name.hexdigest()[:32]), digest, fields, in_place=True)
    return name.hexdigest()[:32]


def save(folder: Path, cache: BuildCache) -> None:
    """Write the index; drop the bodies no entry uses any more."""
    index = BuildCache(
        cache.fingerprint,
        cache.templates,
        cache.build_id,
        {
            k: ContentEntry(e.source, None, e.reads, e.templates, e.blob, e.listed)
            for k, e in cache.content.items()
        },
        cache.outputs,
        cache.pairs,
        cache.values,
        index_id=os.urandom(8).hex(),
        partials=_stored_partials(folder, cache.partials),
    )
    _write(folder / INDEX_FILE, cache.fingerprint, index)
    (folder / CHANGES_FILE).unlink(missing_ok=True)
    _remove_unused(folder / "content", {e.blob for e in cache.content.values()})
    _remove_unused(folder / PARTIALS_DIR, {r.blob for r in index.partials.values()})


def _remove_unused(folder: Path, used: set[str]) -> None:
    """Remove the files of ``folder`` whose name (before its suffix) is not in ``used``."""
    if folder.is_dir():
        with os.scandir(folder) as found:
            for item in found:
                if item.name.partition(".")[0] not in used:
                    os.unlink(item.path)


def _stored_partials(
    folder: Path, records: dict[tuple, PartialRecord]
) -> dict[tuple, PartialRecord]:
    """``records`` as the index keeps them, without their HTML: that of those not yet in
    a file is written to a new one (nothing names it until the index does), whose name
    ends with its size, so that a file cut short is not read."""
    new = [record for record in records.values() if not record.blob]
    if new:
        parts, at = [], 0
        for record in new:
            data = record.html.encode()
            record.at, record.size = at, len(data)
            parts.append(data)
            at += len(data)
        blob = f"{os.urandom(8).hex()}-{at}"
        target = folder / PARTIALS_DIR / f"{blob}.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(b"".join(parts))
        for record in new:
            record.blob = blob
    return {
        key: PartialRecord(r.reads, r.templates, None, r.blob, r.at, r.size)
        for key, r in records.items()
    }


def partial_blobs(folder: Path, records: dict[tuple, PartialRecord]) -> dict[str, bytes]:
    """The files that hold the HTML of ``records``, by name; one cut short is left out."""
    blobs = {}
    for blob in {record.blob for record in records.values() if record.html is None}:
        try:
            data = (folder / PARTIALS_DIR / f"{blob}.html").read_bytes()
        except OSError:
            continue
        if str(len(data)) == blob.rpartition("-")[2]:
            blobs[blob] = data
    return blobs


def gathered_partials(
    records: dict[tuple, PartialRecord], blobs: dict[str, bytes]
) -> dict[tuple, PartialRecord]:
    """``records`` with their HTML, to be written again as one file with the index (when
    they are in more than ``PARTIAL_FILES`` files); those whose file is gone left out."""
    gathered = {}
    for key, record in records.items():
        html = record.text(blobs)
        if html is not None:
            gathered[key] = PartialRecord(record.reads, record.templates, html)
    return gathered


def save_changes(folder: Path, cache: BuildCache, last: BuildCache) -> bool:
    """Write what ``cache`` changed in ``last`` (loaded, its pairs numbered the same) as
    changes to the index file; False when they are too many to be worth it."""
    changes = last.changes
    if changes is None or len(cache.pairs) < len(last.pairs):
        return False
    content = {k: e for k, e in cache.content.items() if last.content.get(k) is not e}
    outputs = {p: r for p, r in cache.outputs.items() if last.outputs.get(p) is not r}
    partials = {k: r for k, r in cache.partials.items() if last.partials.get(k) is not r}
    gone_content = last.content.keys() - cache.content.keys()
    gone_outputs = last.outputs.keys() - cache.outputs.keys()
    gone_partials = last.partials.keys() - cache.partials.keys()
    if len(changes.outputs) + len(outputs) + len(gone_outputs) > len(cache.outputs) // 4:
        return False
    size = changes.size
    values = dict(changes.values)
    now, before = cache.values, last.values
    values.update((i, now[i]) for i in compress(range(size), map(operator.is_not, now, before)))
    if len(values) > size // 4:
        return False  # a read's value that is equal is the same object: these changed
    kept = IndexChanges(
        changes.base,
        size,
        cache.templates,
        {k: e for k, e in {**changes.content, **content}.items() if k not in gone_content},
        {p: r for p, r in {**changes.outputs, **outputs}.items() if p not in gone_outputs},
        values,
        cache.pairs[size:],
        cache.values[size:],
        cache.build_id,
        changes.gone_content | gone_content,  # taken out before the entries are put in
        changes.gone_outputs | gone_outputs,
        {
            k: r
            for k, r in {
                **changes.partials,
                **_stored_partials(folder, partials),
            }.items()
            if k not in gone_partials
        },
        changes.gone_partials | gone_partials,
    )
    _write(folder / CHANGES_FILE, cache.fingerprint, kept)
    replaced = [(last.content[k], e.blob) for k, e in content.items() if k in last.content]
    for old, blob in replaced + [(last.content[k], "") for k in gone_content]:
        if old.blob and old.blob != blob:  # the body this entry replaces, or no entry keeps
            _blob(folder, old.blob).unlink(missing_ok=True)
    return True


def load_last_build(folder: Path, print_: str) -> Any:
    return read_file(folder, LAST_BUILD_FILE, print_)


def save_last_build(folder: Path, print_: str, last: Any) -> None:
    write_file(folder, LAST_BUILD_FILE, print_, last)


def forget_last_build(folder: Path) -> None:
    """A build that changes the site makes the last one's record untrue until it succeeds."""
    (folder / LAST_BUILD_FILE).unlink(missing_ok=True)


def read_file(folder: Path, name: str, print_: str, unpickler: type = pickle.Unpickler) -> Any:
    """What ``write_file`` kept under this name with this fingerprint; None if not that."""
    return _read(folder / name, print_, unpickler)


def write_file(
    folder: Path, name: str, print_: str, value: Any, pickler: type = pickle.Pickler
) -> None:
    _write(folder / name, print_, value, pickler)


def _read(path: Path, print_: str, unpickler: type = pickle.Unpickler) -> Any:
    try:
        with path.open("rb") as f:
            if f.readline().decode(errors="replace").strip() != print_:
                return None
            # Nothing loaded is garbage: collections while unpickling a graph of many small
            # objects would take longer than the loading itself, and so would scanning it
            # after, so it is frozen (``build.build`` unfreezes it when the build ends).
            enabled = gc.isenabled()
            gc.disable()
            try:
                value = unpickler(f).load()
                gc.freeze()
                return value
            finally:
                if enabled:
                    gc.enable()
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, ValueError):
        return None  # absent, from another version, or cut short: do without it


def _write(
    path: Path, print_: str, value: Any, pickler: type = pickle.Pickler, in_place: bool = False
) -> None:
    """Written beside and renamed into place: a build killed meanwhile leaves the old file.
    ``in_place``: a new name that nothing reads yet, written directly."""
    target = path if in_place else path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        f = target.open("wb")
    except FileNotFoundError:  # the cache's first file of its folder
        path.parent.mkdir(parents=True, exist_ok=True)
        f = target.open("wb")
    with f:
        f.write(print_.encode() + b"\n")
        pickler(f, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    if not in_place:
        os.replace(target, path)
