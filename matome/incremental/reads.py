"""What a render reads, and what those reads return on another site graph.

A render (the content of one page, or one output file) runs with a ``ReadLog``:
Jinja's compiled templates call ``environment.getattr``/``getitem`` for every
``page.title`` or ``site.taxonomies`` and every template loaded (extends,
include, partial: ``on_template_load``), so wrapping those on the environment logs each
(page, attribute) and each template read. ``get_page``/``ref`` lookups and
``thumbnail()`` calls read pages in Python and are logged where they are made.

``GraphView`` evaluates a logged read on a site graph in a form that compares
across two graphs: a page becomes its key (its content file), a list of pages
the tuple of their keys, a term its name, URL and count. Equal values on the new
graph mean the output that made the read would come out the same.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from datetime import date, datetime
from typing import Any

import jinja2
from markupsafe import Markup

from ..content.page import Page, Term
from ..formats import OutputFormats
from ..graph.menus import MenuEntry
from ..graph.pagination import Pager
from ..graph.paths import lookup_page
from ..graph.site import Site
from ..images.thumbnails import thumbnail
from ..render.jinja_internals import on_template_load
from ..render.resources import RESOURCE, resource_value

SITE = "@site"  # the key of reads from ``site`` itself (the default language's)
LOOKUP = "@lookup"  # the key of ``get_page``/``ref`` lookups, by path
THUMB = "@thumbnail"  # the key of ``thumbnail()`` calls, by their arguments
ALWAYS = "@always"  # the key of reads that never compare equal: rendered again each build


class _Changed:
    """A value that equals nothing: reads of unknown callables always count as changed."""

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = None


GONE = ("@gone",)  # what a read of a page that no longer exists returns
MISSING = ("@missing",)
UNSET = object()  # not worked out yet: None and MISSING are values


def page_key(page: Page) -> str:
    """A page's name across rebuilds: its content file, else its kind and output path.

    Files are unique by their path in ``content/`` (a translation's name has its
    language: ``a.fr.md``), or in a language's own contentDir, whose folder is added."""
    f = page.file
    if f is not None:
        return f.key
    key = page.__dict__.get("_key")
    if key is None:  # made once: each read of a list page would otherwise keep its own copy
        key = page.__dict__["_key"] = f"{page.kind}:{page.out_path}"
    return key


def site_key(site: Site, kind: str = SITE) -> str:
    """The key of reads from a language's site (``kind``: SITE, or LOOKUP for its lookups):
    ``@site`` for the default language, ``@site:fr`` for another."""
    return kind if site.is_default_language else f"{kind}:{site.config.language.code}"


# --- the read log ------------------------------------------------------------------
class ReadLog:
    """What the render in progress reads; None between renders, so nothing is kept."""

    def __init__(self) -> None:
        self.reads: set | None = None
        self.templates: set | None = None
        # ``partial_cached`` results with what making them read; None: not caching. Set
        # for a batch of outputs rendered on a graph that does not change meanwhile.
        self.partials: dict | None = None
        # The renders kept by the last builds (``buildcache.PartialRecord`` by lasting
        # key) and the files of their HTML, the pairs their reads number, and the renders
        # made since that will be kept (key, HTML, reads, templates); None: none kept.
        self.kept: dict | None = None
        self.blobs: dict[str, bytes] = {}
        self.pairs: list | None = None
        self.made: list | None = None
        # The reads of kept renders used by the render in progress, by number: their
        # pairs are made only for a render captured around them.
        self.numbers: set[int] = set()
        self.capturing = 0

    def begin(self) -> None:
        self.reads, self.templates, self.numbers = set(), set(), set()

    def end(self) -> tuple[frozenset, frozenset]:
        reads, templates = self.reads or set(), self.templates or set()
        self.reads = self.templates = None
        return frozenset(reads), frozenset(templates)

    def always(self, reason: str) -> None:
        """Log a read that never compares equal: the render in progress (one that warned,
        or showed the time) is rendered again in the next build."""
        if self.reads is not None:
            self.reads.add((ALWAYS, reason))

    def capture(self, render: Any) -> tuple[Any, frozenset, frozenset]:
        """``render()`` with what it read, also logged in the render in progress."""
        outer = self.reads, self.templates
        self.reads, self.templates = set(), set()
        self.capturing += 1
        try:
            result = render()
        finally:
            self.capturing -= 1
            reads, templates = frozenset(self.reads), frozenset(self.templates)
            self.reads, self.templates = outer
        self.replay(reads, templates)
        return result, reads, templates

    def kept_render(self, key: tuple) -> tuple[str, array, frozenset] | None:
        """A render the last builds kept under ``key``: its HTML, the numbers of its reads
        and its templates (``replay`` takes them)."""
        record = self.kept.get(key) if self.kept is not None else None
        html = record.text(self.blobs) if record is not None else None
        return (html, record.reads, record.templates) if html is not None else None

    def keep(self, key: tuple, html: str, reads: frozenset, templates: frozenset) -> None:
        """Keep a render for the next builds, unless it reads what is never the same."""
        if self.made is not None and not any(pair[0] == ALWAYS for pair in reads):
            self.made.append((key, html, reads, templates))

    def replay(self, reads: frozenset | array, templates: frozenset) -> None:
        """Log reads made once for a result used again (a cached partial): pairs, or the
        numbers of a kept render's."""
        if self.reads is None:
            return
        if type(reads) is not array:
            self.reads |= reads
        elif self.capturing:
            self.reads.update(map(self.pairs.__getitem__, reads))
        else:
            self.numbers.update(reads)
        self.templates |= templates


# Term attributes read what the term page holds.
_TERM_ATTRS = {"name": "title", "url": "rel_permalink", "count": "@count"}


def _note(reads: set, obj: Any, attr: Any) -> None:
    kind = type(obj)
    if kind is Page:
        reads.add((page_key(obj), attr))
    elif kind is Site:
        reads.add((SITE if obj.is_default_language else site_key(obj), attr))
    elif kind is Term:
        reads.add((page_key(obj.page), _TERM_ATTRS.get(attr, attr)))


_DICT_ATTRIBUTES = frozenset(dir(dict))


def instrument(env: jinja2.Environment, log: ReadLog) -> None:
    """Log what templates read. Compiled templates call ``environment.getattr`` and friends,
    so instance attributes here see every ``page.x``, ``page["x"]``, extends and include."""
    plain_getattr, plain_getitem = env.getattr, env.getitem

    def getattr_(obj: Any, attribute: str) -> Any:
        # The commonest call of a render (a million in a build of the real blog): _note
        # inlined, and Jinja's getattr only when the attribute is missing (it then tries
        # obj[attribute] and makes an Undefined).
        kind = type(obj)
        reads = log.reads
        if reads is not None:
            if kind is Page:
                reads.add((page_key(obj), attribute))
            elif kind is Site or kind is Term:
                _note(reads, obj, attribute)
        if kind is dict and attribute not in _DICT_ATTRIBUTES:
            # A key read as an attribute (``t.tags``, ``params.x``): Jinja would raise and
            # catch an AttributeError first (a dict's attributes are its methods).
            value = obj.get(attribute, UNSET)
            return plain_getattr(obj, attribute) if value is UNSET else value
        try:
            return getattr(obj, attribute)
        except AttributeError:
            return plain_getattr(obj, attribute)

    def getitem(obj: Any, argument: Any) -> Any:
        if log.reads is not None and isinstance(argument, str):
            _note(log.reads, obj, argument)
        return plain_getitem(obj, argument)

    def loaded(name: str) -> None:
        if log.templates is not None:
            log.templates.add(name)

    env.getattr = getattr_
    env.getitem = getitem
    on_template_load(env, loaded)
    env.extend(read_log=log)  # for ``partial_cached``
    names = getattr(env, "undefined_names", None)
    if names is not None:  # a render that used an undefined name warns again next build
        names.read_log = log


def log_lookups(site: Site, log: ReadLog) -> None:
    """``ref``, ``relref`` and ``get_page`` call ``site.get_page`` (of the page's language):
    log the path asked for."""
    for one in {id(s): s for s in [site, *site.language_sites]}.values():
        _log_lookups(one, log)


def _log_lookups(site: Site, log: ReadLog) -> None:
    # The method's own, not the wrapper an earlier run put on a kept graph.
    plain = type(site).get_page.__get__(site)
    key = site_key(site, LOOKUP)

    def get_page(path: str) -> Page | None:
        if log.reads is not None:
            log.reads.add((key, str(path)))
        return plain(path)

    site.get_page = get_page


def log_thumbnails(env: jinja2.Environment, log: ReadLog) -> None:
    """``thumbnail(page, width)`` reads the page's front matter and bundle in Python: log the call."""
    plain = env.globals.get("thumbnail")
    if plain is None:
        return

    def thumbnail_(target: Any = None, width: int = 480, fmt: str = "webp") -> Any:
        if log.reads is not None:
            name = ("page", page_key(target)) if type(target) is Page else target
            if name is None or isinstance(name, (str, tuple)):
                log.reads.add((THUMB, (name, width, fmt)))
            else:
                log.reads.add((THUMB, repr(target)))  # never equal: always rendered again
        return plain(target, width, fmt)

    env.globals["thumbnail"] = thumbnail_


# --- what a read returns, in a form that compares across two site graphs ------------
_PLAIN = frozenset({str, Markup, int, float, bool, type(None), datetime, date})
FAST_TYPES = frozenset({str, int, float, bool, type(None), datetime})
_MEMO_TEXT = 4096  # characters
_PAGES_ONLY = {Page}


def canon(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN or isinstance(value, (str, datetime, date)):
        return value
    if kind is Page:
        return page_key(value)
    if kind is Term:
        # Not its count: a template that shows it reads ``term.count`` (logged as the term
        # page's "@count"). A page's list of terms then stays the same when an article is
        # added to one of them, and so do the pages that show that list.
        return ("term", value.name, value.url, page_key(value.page))
    if kind is Pager:
        pages = tuple(page_key(p) for p in value.pages)
        return ("pager", value.number, pages, value.url, len(value.pagers))
    if kind is OutputFormats:
        # Their formats and media types come from the configuration, in the fingerprint.
        return tuple((f.name, f.permalink, f.rel_permalink) for f in value)
    if kind is MenuEntry:
        page = page_key(value.page) if value.page is not None else None
        fields = (value.name, value.url, value.weight, value.identifier, value.parent)
        more = (value.pre, value.post, value.title, value.menu, page, canon(value.params))
        return ("menu", *fields, *more, canon(value.children))
    if kind in (list, tuple):
        if set(map(type, value)) == _PAGES_ONLY:  # a list of pages, the most common read
            return tuple(map(page_key, value))
        return tuple(canon(v) for v in value)
    if kind is dict:
        return {k: canon(v) for k, v in value.items()}
    if kind is Site:
        return SITE
    if callable(value):
        return _Changed()
    return value


def _menu_place(page: Page) -> tuple:
    """What ``is_menu_current`` and ``has_menu_current`` read: the site's menus, and the
    sections the page is in."""
    sections = []
    ancestor = page.parent
    while ancestor is not None:
        sections.append(page_key(ancestor))
        ancestor = ancestor.parent
    return canon(page.site.menus), tuple(sections)


# Reads whose value is not the attribute itself (methods, and what is costly to compare).
_PAGE_SPECIAL = {
    # Front matter and config values hold no pages: compared as they are, not canonicalized.
    "params": lambda p: p.params,
    "param": lambda p: (p.params, p.site_params),
    "resource": lambda p: canon(p.resources),
    "resources_by_type": lambda p: canon(p.resources),
    "content": lambda p: p.content_html,
    "summary": lambda p: p.summary_html,
    "site": lambda p: SITE,
    "@pagers": lambda p: canon(p.pagers),
    "@count": lambda p: len(p.pages),  # a term's count: its pages' order does not matter
    # What a menu entry is compared with: the site's menus, and where the page is.
    "is_menu_current": _menu_place,
    "has_menu_current": _menu_place,
}


# Reads of a regular page that only its own file and the configuration decide: on a graph
# built anew, a page whose file did not change returns what it did (``own_pages``).
OWN_ATTRIBUTES = frozenset(
    {
        *("title", "description", "kind", "section", "type", "layout", "taxonomy", "params"),
        *("permalink", "rel_permalink", "outputs", "alternative_output_formats"),
        *("date", "lastmod", "lastmod_or_date", "has_date", "list_mode"),
        *("is_home", "is_page", "@pagers"),
    }
)


class GraphView:
    """Evaluates logged reads against one site graph (memoized until ``forget``)."""

    def __init__(self, site: Site):
        self.site = site
        self.by_key = {page_key(p): p for p in site.pages}
        for one in site.language_sites or [site]:
            if one.not_found is not None:
                self.by_key[page_key(one.not_found)] = one.not_found
        # Each language's site by the key of its reads, and of its lookups.
        languages = site.language_sites or [site]
        self.sites = {site_key(s): s for s in languages}
        self.lookups = {site_key(s, LOOKUP): s for s in languages}
        self.by_file = {p.file.filename: p for p in site.pages if p.file is not None}
        self.memo: dict[tuple, Any] = {}

    def forget(self) -> None:
        """The graph's pages may have changed (an edit applied in place)."""
        self.memo = {}

    def value(self, pair: tuple[str, Any]) -> Any:
        value = self.memo.get(pair, UNSET)  # most first reads miss: no KeyError raised
        if value is not UNSET:
            return value
        value = self.evaluate(pair)
        if not isinstance(value, str) or len(value) < _MEMO_TEXT:
            self.memo[pair] = value  # not a page's text or HTML: a worker would keep them all
        return value

    def evaluate(self, pair: tuple[str, Any]) -> Any:
        """``value``, not memoized: for a pair asked for once."""
        key, attr = pair
        page = self.by_key.get(key)
        if page is not None:
            found = page.__dict__.get(attr, MISSING)
            # Most reads are plain fields (title, dates, permalink): no need to canonicalize.
            value = found if type(found) in FAST_TYPES else self._page_value(page, attr)
        elif key in self.lookups:
            found = lookup_page(self.lookups[key].by_path, attr)
            value = None if found is None else (page_key(found), found.permalink)
        elif key in self.sites:
            value = self._site_value(self.sites[key], attr)
        elif key == THUMB:
            value = self._thumbnail(attr)
        elif key == ALWAYS:
            value = _Changed()
        elif key == RESOURCE:
            value = resource_value(self.site, attr)
        else:
            value = GONE
        return value

    def _page_value(self, page: Page, attr: str) -> Any:
        if attr == "terms" or attr == "get_terms":
            # canon(page.page_terms), each term made once: a tag's Term is every page's.
            return {plural: tuple(map(self._term, ts)) for plural, ts in page.page_terms.items()}
        if attr == "related":
            # What the ranking reads: the page's date and keywords, each keyword's pages.
            ranking = page.site.related_index
            rank = ranking.rank.get(page.index)
            keywords = ranking.keywords[rank] if rank is not None else ()
            return page.publish_date, tuple((k, self.related_members(k, ranking)) for k in keywords)
        if attr == "output_formats" or attr == "alternative_output_formats":
            # Without the format being rendered, which the graph does not know: all of
            # them, made once for both reads.
            found = self.memo.get(("@formats", id(page)))  # the graph keeps its pages alive
            if found is None:
                found = self.memo[("@formats", id(page))] = canon(page.output_formats)
            return found
        special = _PAGE_SPECIAL.get(attr)
        try:
            return special(page) if special else canon(getattr(page, attr, MISSING))
        except Exception:
            return _Changed()

    def _site_value(self, site: Site, attr: Any) -> Any:
        if attr == "build_date":
            return site.build_date.date()  # a rebuild on the same day changes no footer
        if attr == "get_page":
            return "get_page"  # each lookup is logged with its path
        if attr == "config":
            return "config"  # a new config is a new cache fingerprint: everything renders
        if attr == "related":  # site.related(page): every keyword's pages
            ranking = site.related_index
            members = ranking.members
            keywords = [(name, word) for name, words in members.items() for word in words]
            return tuple((k, self.related_members(k, ranking)) for k in keywords)
        try:
            return canon(getattr(site, attr, MISSING))
        except Exception:
            return _Changed()

    def _thumbnail(self, call: Any) -> Any:
        if not isinstance(call, tuple):
            return _Changed()
        target, width, fmt = call
        if isinstance(target, tuple):
            target = self.by_key.get(target[1])
            if target is None:
                return GONE
        return thumbnail(self.site, target, width, fmt)

    def _term(self, term: Term) -> tuple:
        found = self.memo.get(("@term", id(term)))  # the graph keeps its terms alive
        if found is None:
            found = self.memo[("@term", id(term))] = canon(term)
        return found

    def related_members(self, keyword: tuple, ranking: Any) -> tuple:
        """A keyword's pages as ``related`` ranks them: (key, publish date), newest
        first, in one language's ranking."""
        memo_key = ("@related", id(ranking), keyword)  # the graph keeps its rankings alive
        found = self.memo.get(memo_key)
        if found is None:
            name, word = keyword
            ranks = ranking.members.get(name, {}).get(word, ())
            indexes = map(ranking.by_rank.__getitem__, ranks)
            found = self.memo[memo_key] = tuple(map(self._ranked, indexes))
        return found

    def _ranked(self, index: int) -> tuple:
        found = self.memo.get(("@ranked", index))
        if found is None:
            page = self.site.pages[index]
            # Not its title: ties of a date are ordered by title, so the order of the
            # members shows a title that moves a page; a title shown is read as such.
            found = self.memo[("@ranked", index)] = (page_key(page), page.publish_date)
        return found


class RelatedLists:
    """Tells whether a page's ``related`` read (its date, and each of its keywords with
    that keyword's pages, newest first) reads the same on another graph.

    A page lists no page newer than itself (Hugo's default), so only the tail of each
    keyword's pages counts: an article added later changes no older article's list.
    Calling the old value unchanged is sound as the relation is transitive: the next
    build compares the same tails."""

    def __init__(self, include_newer: bool):
        self.include_newer = include_newer
        self.tails: dict[tuple[int, int], int] = {}  # two member lists -> their common tail
        self.newness: dict[int, list[float]] = {}  # a member list -> its sort keys

    def unchanged(self, old: Any, new: Any) -> bool:
        if not (_page_related(old) and _page_related(new)):  # a page gone, or site.related
            return old == new
        (old_date, old_lists), (date, lists) = old, new
        if old_date != date or len(old_lists) != len(lists):
            return False
        newest = None if self.include_newer or not date else -date.timestamp()
        for (old_keyword, old_members), (keyword, members) in zip(old_lists, lists, strict=True):
            if old_keyword != keyword:
                return False
            common = self._common_tail(old_members, members)
            if len(old_members) == len(members) == common:
                continue
            if newest is None:
                return False
            listable = len(members) - bisect_left(self._newness(members), newest)
            if listable > common:
                return False
            if len(old_members) - bisect_left(self._newness(old_members), newest) != listable:
                return False
        return True

    def _newness(self, members: tuple) -> list[float]:
        """Each member's sort key (minus its date's timestamp), once per list."""
        found = self.newness.get(id(members))
        if found is None:
            found = self.newness[id(members)] = [-m[1].timestamp() for m in members]
        return found

    def _common_tail(self, old: tuple, new: tuple) -> int:
        key = (id(old), id(new))  # both live while this object does: member lists are shared
        found = self.tails.get(key)
        if found is None:
            found = len(new) if old == new else 0
            if not found:
                for a, b in zip(reversed(old), reversed(new), strict=False):
                    if a != b:
                        break
                    found += 1
            self.tails[key] = found
        return found


def share_related(value: Any, shared: dict) -> Any:
    """A page's ``related`` read with each keyword's pages as the one tuple in ``shared``.

    Each worker sends its own copy of a keyword's pages (a year's is every article of
    that year): kept once, the cache index stays as small as the site graph is."""
    if not _page_related(value):
        return value
    date, lists = value
    return date, tuple((keyword, shared.setdefault(keyword, pages)) for keyword, pages in lists)


def _page_related(value: Any) -> bool:
    return type(value) is tuple and len(value) == 2 and isinstance(value[0], datetime)
