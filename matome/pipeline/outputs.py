"""Stages 4 and 5, the files: which of the last run's files would come out the same, and
rendering and writing the others in forked workers.

A file of the last run is kept when its plan is the same, no template it loaded changed,
every read it made returns what it did (``last_reads_now``) and the published file is
the one the last run wrote. Every rendered file's reads are numbered into the cache's
table of reads as its chunk comes in (``ReadNumbers``).
"""

from __future__ import annotations

import functools
import operator
import os
from array import array
from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from itertools import chain, compress, starmap
from pathlib import Path

import jinja2

from ..content.page import drop_content
from ..errors import SourceError
from ..graph.site import Site
from ..incremental import buildcache
from ..incremental.buildcache import BuildCache, OutputRecord, PairIndex, PartialRecord
from ..incremental.reads import (
    GONE,
    OWN_ATTRIBUTES,
    UNSET,
    GraphView,
    RelatedLists,
    share_related,
)
from ..parallel import PARALLEL_THRESHOLD, map_chunks
from ..progress import Progress
from ..publish.files import copy_file, write_if_changed, write_new
from ..render.environment import template_error, templates_used_say
from ..render.output import render_output
from ..render.plan import Output, outputs_not_in
from ..render.undefined import add_once
from . import context
from .bodies import STORED
from .report import BuildReport

_KEY = operator.itemgetter(0)
_ATTR = operator.itemgetter(1)
_RELATED = functools.partial(operator.eq, "related")
_PAGES = functools.partial(operator.eq, "pages")
_KIND = operator.attrgetter("kind")
_PAGE_KINDS = ("page", "sitemap", "robots", "404")
_COUNTED = frozenset({*_PAGE_KINDS, "pager", "alias"})
# From how many files to render the partial renders kept by the last builds are read (and
# new ones kept): below it, reading them takes longer than the renders they save.
KEEP_PARTIALS = 8

# Site reads that show no order of pages: a title edit, which changes no term, leaves them.
_NO_PAGE_ORDER = frozenset({"taxonomies"})


def last_reads_now(
    cache: BuildCache,
    view: GraphView,
    fresh: BuildCache,
    kept: bool,
    patched: frozenset[str] = frozenset(),
    reordered: bool = False,
    index: PairIndex | None = None,
    reranked: datetime | None = None,
    edited: set[str] | None = None,
) -> tuple[list, set[int]]:
    """What each read of the last build's files returns now, in ``cache.pairs`` order,
    and the numbers of those whose value changed (a value that compares unequal to
    itself, a read of a callable, counts as changed each time).

    A body taken from the cache renders as it did, so its reads need not load it. On a
    kept graph (``kept``), only the pages rendered again, those whose front matter was
    put in (``patched``), the related lists of the pages as new as or newer than those
    whose related rank a title moved (``reranked``: the earliest date of those; an older
    page lists none of them) and the build date can read differently. ``index``: the
    reads by page and those equal to nothing, when kept (``MemoryStore``); else every read
    is looked at, but those of the terms ``same_terms`` finds as they were and what the
    pages of ``own_pages`` read of themselves. ``edited``: on a graph built anew, the
    pages whose file changed, when only page files did (else None)."""
    attrs = buildcache.content_attributes()
    reused = {key for key, entry in fresh.content.items() if entry is cache.content.get(key)}
    value, storable = view.value, buildcache.storable
    known = view.memo.get(STORED, {})  # the digests of the bodies rendered in this build
    if kept:
        again = {key for key in fresh.content if key not in reused} | patched
        if reordered:  # the site's lists hold the pages whose order changed
            again |= set(view.sites)
        sites = view.sites if reordered else {}
        pairs, current = cache.pairs, list(cache.values)
        dates = [(key, "build_date") for key in view.sites]  # each language's site
        if index is not None:
            ours = index.of_keys(again)
            dated = [index.ids[p] for p in dates if p in index.ids]
        else:  # the pairs of those pages, found in C: a site's reads are many
            ours = compress(range(len(pairs)), map(again.__contains__, map(_KEY, pairs)))
            dated = [pairs.index(p) for p in dates if p in pairs]
        related = []
        same = None
        if reranked is not None:
            related = _related_reads(pairs, view, reranked, index)
            # Related lists are compared keyword by keyword, each keyword's pages once.
            same = RelatedLists(view.site.related_index.include_newer)
        stale = set()
        for i in chain(ours, dated, related):
            pair = pairs[i]
            if pair[1] in _NO_PAGE_ORDER and pair[0] in sites:
                continue
            now = known[pair] if pair in known else storable(value(pair))
            if same is not None and pair[1] == "related":
                if same.unchanged(current[i], now):
                    continue
            elif now == current[i]:  # an equal value keeps its object: not a change to save
                continue
            current[i] = now
            stale.add(i)
            if index is not None:
                index.valued(i, now)
        if index is None:
            return current, _changed_reads(cache.values, current)
        return current, stale | index.volatile
    same_keys = same_terms(cache, view, edited) if edited is not None else set()
    own = own_pages(view, edited) if edited is not None else set()
    current = [  # each pair once: no memo (``current``) needed
        old
        if pair[0] in reused
        and pair[1] in attrs
        or pair[0] in same_keys
        or pair[1] in OWN_ATTRIBUTES
        and pair[0] in own
        and old != GONE
        else known[pair]
        if pair in known
        else storable(value(pair))
        for pair, old in zip(cache.pairs, cache.values, strict=True)
    ]
    # A related list that lists the same pages keeps its old value (see RelatedLists).
    same = RelatedLists(view.site.related_index.include_newer)
    for i in _related_numbers(cache.pairs, None):
        if same.unchanged(cache.values[i], current[i]):
            current[i] = cache.values[i]
    changed = _changed_reads(cache.values, current)
    values = list(cache.values)  # an equal value keeps its object: not a change to save
    for i in changed:
        values[i] = current[i]
    return values, changed


def same_terms(cache: BuildCache, view: GraphView, edited: set[str]) -> set[str]:
    """The term pages whose every read returns what it did: those of no ``_index`` file
    that list the same pages as before, none of them ``edited``. What a term page shows of
    itself (its title, dates, pagers) comes from its pages' front matter, in their order;
    what it shows of each page is that page's own reads."""
    pairs, values = cache.pairs, cache.values
    found = set()
    for i in compress(range(len(pairs)), map(_PAGES, map(_ATTR, pairs))):  # in C: reads are many
        key = pairs[i][0]
        page = view.by_key.get(key)
        if page is None or page.kind != "term" or page.file is not None:
            continue
        if values[i] == view.value(pairs[i]) and edited.isdisjoint(values[i]):
            found.add(key)
    return found


def own_pages(view: GraphView, edited: set[str]) -> set[str]:
    """The regular pages whose file did not change: what they read of themselves
    (``OWN_ATTRIBUTES``) returns what it did, if they were in the last graph (a page
    fallen due was not: its reads returned ``GONE``)."""
    return {
        key
        for key, page in view.by_key.items()
        if page.kind == "page" and page.file is not None and key not in edited
    }


def _related_reads(
    pairs: list[tuple], view: GraphView, since: datetime, index: PairIndex | None
) -> list[int]:
    """The numbers of the ``related`` reads that may list a page published at ``since``
    or later: those of pages as new or newer, of pages with no date, and ``site.related``."""
    include_newer = view.site.related_index.include_newer
    found = []
    for i in _related_numbers(pairs, index):
        page = view.by_key.get(pairs[i][0])
        if include_newer or page is None or not page.publish_date or page.publish_date >= since:
            found.append(i)
    return found


def _related_numbers(pairs: list[tuple], index: PairIndex | None) -> Iterable[int]:
    """The numbers of the ``related`` reads: kept in ``index``, else found in C."""
    if index is not None:
        return index.related
    return compress(range(len(pairs)), map(_RELATED, map(_ATTR, pairs)))


def _changed_reads(before: list, now: list) -> set[int]:
    """The numbers of the reads whose value is not equal to what it was (in C: reads
    are many)."""
    return set(compress(range(len(now)), starmap(operator.ne, zip(before, now, strict=True))))


def kept_partials(
    cache: BuildCache | None, stale: set[int], changed: frozenset[str] | None
) -> dict[tuple, PartialRecord]:
    """The partial renders of the last builds that would render the same now: none of
    their reads (``stale``: those that return another value) or templates changed."""
    if cache is None:
        return {}
    return {
        key: record
        for key, record in cache.partials.items()
        if renders_the_same(record, stale, changed)
    }


def renders_the_same(
    record: OutputRecord | PartialRecord, stale: set[int], changed: frozenset[str] | None
) -> bool:
    """Whether a kept render would come out the same: none of its reads returns another
    value now (``stale``) and none of its templates ``changed``."""
    return stale.isdisjoint(record.reads) and not (
        changed and not record.templates.isdisjoint(changed)
    )


def kept_outputs(
    outputs: list[Output],
    site: Site,
    cache: BuildCache | None,
    changed: frozenset[str] | None,
    destination: Path,
    stale: set[int],
    same_plan: bool,
    check_published: bool = True,
    readers: dict[int, set[str]] | None = None,
    published: dict[str, tuple[int, int]] | None = None,
) -> dict[str, OutputRecord]:
    """The files of the last build that this one would write again byte for byte.

    ``stale``: the numbers of the reads that return another value now.
    ``same_plan``: the outputs are the kept graph's, planned as the records were.
    ``check_published``: whether the published file may have been changed by another hand
    (else what the last run wrote is taken to be there).
    ``readers``: each read's files, when known (``MemoryStore``): only those of the reads
    that changed are looked at.
    ``published``: the (size, mtime_ns) of published files as found before (a file not
    in it is looked at on disk)."""
    if cache is None:
        return {}
    if readers is not None and same_plan and not check_published:
        again = set().union(*(readers.get(i, ()) for i in stale))
        if changed:
            return {
                path: record
                for path, record in cache.outputs.items()
                if path not in again and record.templates.isdisjoint(changed)
            }
        kept = dict(cache.outputs)
        for path in again:
            kept.pop(path, None)
        return kept
    base = f"{destination}{os.sep}"
    found = published or {}
    kept = {}
    for item in outputs:
        record = cache.outputs.get(item.out_path)
        if (
            record is None
            or item.kind == "copy"
            or (not same_plan and record.sig != buildcache.plan_sig(item, site))
            or not renders_the_same(record, stale, changed)
        ):
            continue
        if not check_published:
            kept[item.out_path] = record
            continue
        stamp = found.get(item.out_path)
        if stamp is None:
            try:
                stat = os.stat(f"{base}{item.out_path}")
            except OSError:
                continue
            stamp = (stat.st_size, stat.st_mtime_ns)
        # The published file is still the one this record describes.
        if stamp == (record.size, record.mtime_ns):
            kept[item.out_path] = record
    return kept


def write_outputs(
    outputs: list[Output],
    kept: dict[str, OutputRecord],
    fresh: BuildCache,
    numbers: ReadNumbers,
    workers: int,
    progress: Progress,
    report: BuildReport,
) -> tuple[set[str], dict[str, tuple[int, int]], list[SourceError]]:
    """Render and write what the cache cannot keep; return the paths, their stats, errors.
    Each file's record goes into ``fresh``, its reads numbered as its chunk comes in."""
    todo = outputs_not_in(outputs, kept)
    # The sitemap lists every page (the longest render of a site): first, in the
    # first chunk, not last, where the other worker would have nothing left to do.
    todo.sort(key=lambda item: item.kind != "sitemap")
    # A copy already published is two stats: workers are forked for renders only.
    renders = sum(item.kind != "copy" for item in todo)
    if renders < PARALLEL_THRESHOLD:
        workers = 1
    planned = {item.out_path: item for item in todo}
    files = {path: (record.size, record.mtime_ns) for path, record in kept.items()}
    errors: list[SourceError] = []
    # A few sets of templates for all the files: one object each, pickled and loaded once.
    same_templates = {record.templates: record.templates for record in kept.values()}
    context.CURRENT.read_numbers = numbers.ids
    log = context.CURRENT.log
    if renders >= KEEP_PARTIALS:
        # Enough files to be worth reading the kept partial renders, and keeping new ones.
        log.blobs = buildcache.partial_blobs(context.CURRENT.cache_folder, fresh.partials)
        if len(log.blobs) > buildcache.PARTIAL_FILES:
            fresh.partials = buildcache.gathered_partials(fresh.partials, log.blobs)
        log.kept, log.pairs, log.made = fresh.partials, fresh.pairs, []
        same_templates.update((r.templates, r.templates) for r in fresh.partials.values())
    rows = map_chunks(write_chunk, todo, workers, progress, "Writing files")
    for path, status, reads, templates, stat, warned, partials in rows:
        add_once(report.warnings, warned)
        for key, html, read, used in partials:
            used = same_templates.setdefault(used, used)
            fresh.partials[key] = PartialRecord(numbers.file_reads(read), used, html)
        if isinstance(status, SourceError):
            errors.append(status)
            continue
        files[path] = stat
        if status == "same":
            report.unchanged += 1
        else:
            report.written.append(path)
        if planned[path].kind != "copy":
            sig = buildcache.plan_sig(planned[path], context.CURRENT.site)
            templates = same_templates.setdefault(templates, templates)
            fresh.outputs[path] = OutputRecord(sig, numbers.file_reads(reads), templates, *stat)
    log.partials = log.kept = log.pairs = log.made = None  # in case the chunks ran here
    log.blobs = {}
    context.CURRENT.read_numbers = {}
    fresh.outputs.update(kept)
    report.rendered_outputs += renders
    report.kept_outputs += len(kept)
    return set(files), files, errors


def write_chunk(outputs: list[Output]) -> list[tuple]:
    state = context.CURRENT
    names = state.env.undefined_names  # what each render used that does not exist
    out = []
    # Reads the cache index numbered are sent as their numbers. The chunk's other reads
    # are sent once, in a table each file's row points into (a page's title is read by
    # hundreds of files: one tuple per read and file would fill the parent).
    known = state.read_numbers
    table: list[tuple] = []
    numbers: dict[tuple, int] = {}
    if state.log.partials is None:  # kept by the worker for the rest of the stage: the
        state.log.partials = {}  # graph stays as it is while files are written

    def numbered_reads(reads) -> tuple[array, list, array]:
        numbered, pointed = array("I"), array("I")
        for pair in reads:
            n = known.get(pair)
            if n is not None:
                numbered.append(n)
                continue
            i = numbers.get(pair)
            if i is None:
                i = numbers[pair] = len(table)
                table.append(pair)
            pointed.append(i)
        return numbered, table, pointed

    made = state.log.made
    for item in outputs:
        target = state.staging / item.out_path
        published = state.published / item.out_path if state.published else target
        templates: frozenset = frozenset()
        stat = None
        try:
            if item.kind == "copy":
                status: str | SourceError = copy_file(item.source, target, published)
                reads = (array("I"), table, array("I"))
            else:
                state.log.begin()
                try:
                    data = render_output(item, state.site, state.env, state.minify)
                    if state.empty_staging:
                        status, stat = "new", write_new(target, data)
                    else:
                        status = write_if_changed(target, data, published)
                finally:
                    read, templates = state.log.end()
                reads = numbered_reads(read | buildcache.implicit_reads(item, state.site))
                if state.log.numbers:  # the reads of kept partial renders, numbered
                    reads = (array("I", state.log.numbers.union(reads[0])), *reads[1:])
                while state.loaded:  # the bodies the render read: not kept
                    drop_content(state.loaded.pop())
            stat = stat or (target if status == "new" else published).stat()
            row = (status, reads, templates, (stat.st_size, stat.st_mtime_ns))
            # The partial renders made for this file, to keep for the next builds.
            partials = [(k, html, numbered_reads(r), t) for k, html, r, t in made or ()]
            out.append((item.out_path, *row, names.take(), partials))
        except SourceError as e:
            out.append((item.out_path, e, (), (), None, names.take(), []))
        except OSError as e:
            where = str(item.source) if item.kind == "copy" else item.out_path
            out.append((item.out_path, SourceError(where, 0, 0, str(e)), (), (), None, (), []))
        except Exception as e:
            err = template_error(e)
            err.message = f"while writing {item.out_path}: {err.message}"
            out.append((item.out_path, err, (), (), None, names.take(), []))
        if made:
            made.clear()
    return out


class ReadNumbers:
    """Numbers the reads of the files written into ``fresh.pairs``, as each chunk's rows
    come in, and works out each new pair's value (on this process's graph, the one the
    workers were forked with: the values are those the workers would find).

    The last build's pairs keep their numbers, so a kept file's ids stand. Values are
    worked out here, each pair once, rather than by each output worker for each chunk
    that reads it, which would work each out many times over. When most pairs are no
    longer read by any file, the rest are numbered anew (``finish``)."""

    def __init__(
        self,
        fresh: BuildCache,
        cache: BuildCache | None,
        current: list,
        view: GraphView,
        index: PairIndex | None = None,
    ):
        """``index``: ``cache.pairs`` numbered, when kept (``MemoryStore``): new reads
        are numbered into it."""
        if cache is not None:
            fresh.pairs, fresh.values = list(cache.pairs), current
        self.fresh, self.cache, self.view = fresh, cache, view
        self.index = index
        if index is None:
            self.ids = dict(zip(fresh.pairs, range(len(fresh.pairs)), strict=True))
        else:
            self.ids = index.ids
        # Each worker's table has its own copy of a page's key: one string per key, not
        # per pair, is kept, and the index loads faster.
        self.same_key: dict[str, str] = {}
        self.same_pages: dict[tuple, tuple] = {}
        # id of a chunk's table -> the table (kept, so that no other table takes its id)
        # and its pairs' numbers here
        self.tables: dict[int, tuple[list, list[int]]] = {}

    def file_reads(self, reads: tuple[array, list, array]) -> array:
        """One file's reads as its worker sent them: the numbers of those the index had
        when it forked, its chunk's table of the others, and places in that table."""
        numbered, table, local = reads
        if not local:
            return numbered
        found = self.tables.get(id(table))
        if found is None:  # the first row of its chunk: the table is numbered once
            numbers = list(map(self.ids.get, table))  # numbered since, by another chunk
            if None in numbers:
                self._number_new(table, numbers)
            found = self.tables[id(table)] = (table, numbers)
            while context.CURRENT.loaded:  # a body a value needed (a read that is new to the cache)
                drop_content(context.CURRENT.loaded.pop())
        numbered.extend(map(found[1].__getitem__, local))
        return numbered

    def _number_new(self, table: list[tuple], numbers: list[int | None]) -> None:
        """Number the pairs of ``table`` that ``numbers`` has no number for, and keep each
        one's value (each pair is new once: no memo)."""
        ids, view, fresh = self.ids, self.view, self.fresh
        pairs, values, same_key = fresh.pairs, fresh.values, self.same_key
        digests = view.memo.get(STORED, {})  # of the bodies rendered in this build
        for j in [j for j, i in enumerate(numbers) if i is None]:
            pair = table[j]
            number = numbers[j] = len(pairs)
            key, attr = pair
            value = digests.get(pair, UNSET)
            if value is UNSET:
                value = buildcache.storable(view.evaluate(pair))
            if attr == "related":
                value = share_related(value, self.same_pages)
            if self.index is not None:
                self.index.add(pair, number, value)
            else:
                ids[pair] = number
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
            kept = {}  # a partial render whose reads no file makes any more is not kept
            for key, record in fresh.partials.items():
                if all(i in new_number for i in record.reads):
                    record.reads = array("I", map(new_number.__getitem__, record.reads))
                    kept[key] = record
            fresh.partials = kept


def thumbnails_shown(env: jinja2.Environment, fresh: BuildCache) -> bool:
    """Whether a template that rendered this build's files or bodies calls ``thumbnail``."""
    return templates_used_say(env, fresh, lambda source: "thumbnail" in source)


def count_outputs(report: BuildReport, outputs: list[Output]) -> None:
    kinds = list(map(_KIND, outputs))  # in C: a site's outputs are many
    counts = Counter(kinds)
    report.pages += sum(counts[kind] for kind in _PAGE_KINDS)
    report.paginator_pages += counts["pager"]
    report.aliases += counts["alias"]
    copied = map(operator.not_, map(_COUNTED.__contains__, kinds))
    for item in compress(outputs, copied):
        if item.origin.startswith("static/"):
            report.static_files += 1
        else:
            report.non_page_files += 1
