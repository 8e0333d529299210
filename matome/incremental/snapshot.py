"""The last build's site graph, kept for a build whose only changes are article bodies
and new articles.

Reading every file with its front matter and building the graph takes far longer
than loading the pickled graph. Every full
build keeps its graph here (``graph.pickle`` in the build cache) with the plan of
its outputs and its thumbnails; ``LastBuild`` keeps the digest of every input
file. The next build takes the kept graph instead of loading the site when every
file whose bytes changed is an article whose front matter reads the same as before
(an edit below it), a new article ``graph/insert.py`` can put in, or a template, and
no page became due or expired: the loader and the graph builder would then make this
graph again, but for those bodies and articles, which are put in (a graph with
articles put in is kept again).

Bodies are not kept (the site's text would be loaded twice): a page that must be
rendered again for another reason reads its file then (``read_body``).
"""

from __future__ import annotations

import functools
import pickle
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..config import SiteConfig
from ..content.frontmatter import FrontMatter, split_front_matter
from ..content.loader import is_cjk_language, read_text
from ..content.page import RENDERED_FIELDS, Page
from ..errors import SourceError
from ..graph.site import Site
from ..images.thumbnails import PreparedImages, register_prepared
from ..render.plan import Output
from . import buildcache

GRAPH_FILE = "graph.pickle"


@dataclass
class Snapshot:
    build_id: str  # the build that made it; the cache index and LastBuild name the same
    site: Site  # bodies None, rendered fields dropped
    outputs: list[Output]  # the plan, thumbnails included
    images: PreparedImages
    warnings: list[SourceError]  # what loading the site and its images warned about


def save(folder: Path, print_: str, snap: Snapshot) -> None:
    """Keep the graph of a build that has finished with it (its pages are emptied here)."""
    site = snap.site
    for one in [site, *site.language_sites]:
        one.__dict__.pop("get_page", None)  # the read log's wrapper, bound to this build
    for page in site.pages:
        for name in (*RENDERED_FIELDS, "load_rendered"):
            page.__dict__.pop(name, None)
        page.body = None
        page.paginator = page.pagers[0] if page.pagers else None  # as the graph builder left it
    kept = _Kept(snap, [page.__dict__ for page in site.pages])
    pickler = functools.partial(_GraphPickler, pages=site.pages)
    buildcache.write_file(folder, GRAPH_FILE, print_, kept, pickler)


def load(folder: Path, print_: str, build_id: str) -> Snapshot | None:
    kept = buildcache.read_file(folder, GRAPH_FILE, print_, _GraphUnpickler)
    if not isinstance(kept, _Kept) or kept.snap.build_id != build_id:
        return None
    for page, state in zip(kept.snap.site.pages, kept.pages, strict=True):
        page.__dict__.update(state)
    register_prepared(kept.snap.site, kept.snap.images)
    return kept.snap


@dataclass
class _Kept:
    snap: Snapshot
    pages: list[dict]  # each page's fields, in ``site.pages`` order


class _GraphPickler(pickle.Pickler):
    """Pages are written once each, in one list, and named by their index wherever else
    they appear. Pickled as they come, a page's ``next`` holds the next page, whose
    ``next`` holds the next: the nesting would follow the whole site.

    A page is named by a reduction to ``_page(index)``, not a persistent id: the pickler
    asks ``persistent_id`` about each of its million objects, ``reducer_override`` only
    about those that are no string, number, list, tuple or dict, and a page named again
    is then a memo entry."""

    def __init__(self, *args: Any, pages: list[Page], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.pages = pages

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is Page:
            i = obj.index  # a page outside the site's list is pickled as it is
            if 0 <= i < len(self.pages) and self.pages[i] is obj:
                return _page, (i,)
        return NotImplemented


def _page(index: int) -> Page:
    """The name of a graph page in the pickle; ``_GraphUnpickler`` makes each one."""
    raise RuntimeError("a kept graph is loaded with _GraphUnpickler")


class _GraphUnpickler(pickle.Unpickler):
    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.pages: dict[int, Page] = {}

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__ and name == "_page":
            return self.page
        return super().find_class(module, name)

    def page(self, index: int) -> Page:
        page = self.pages.get(index)
        if page is None:  # its fields are filled in from ``_Kept.pages`` when all is loaded
            page = self.pages[index] = Page.__new__(Page)
        return page


def body_edits(
    site: Site, changed: set[str], by_file: dict[str, Page], patch: bool = False
) -> list[tuple[Page, FrontMatter]] | None:
    """The pages whose file (among ``changed``) changed only below its front matter, with
    what the file holds now (``by_file``: the site's pages by file name); None when one
    is not a page of the graph or its front matter changed (with ``patch``: other than in
    a way ``patchable`` allows)."""
    edits = []
    for path in sorted(changed):
        page = by_file.get(path)
        if page is None:
            return None
        fm = _front_matter(page)
        if fm is None:
            return None
        if not only_body_changed(page, fm, site.config) and not (
            patch and patchable(page, fm, site)
        ):
            return None
        edits.append((page, fm))
    return edits


# Front matter keys that place a regular page nowhere in the graph, so that a change of
# them can be put into the kept graph: the title only orders pages of the same weight and
# date (``graph/patch.py`` sorts those lists again), and names a menu entry (not put in).
PATCHABLE = frozenset({"title", "description"})


def patchable(page: Page, fm: FrontMatter, site: Site) -> bool:
    """Whether ``fm`` differs from what made the page only in ``PATCHABLE`` keys whose new
    values change no membership, menu or related keyword of the graph."""
    if page.kind != "page" or not fm.format or fm.format != page.front_matter_format:
        return False
    if len(site.config.languages) > 1:  # each language's lists share one list of pages
        return False
    old, new = page.params, fm.data
    changed = {k for k in old.keys() | new.keys() if old.get(k, _NONE) != new.get(k, _NONE)}
    if not changed or any(str(k).lower() not in PATCHABLE for k in changed):
        return False
    if site.related_index is not None and any(
        i.name.lower() in PATCHABLE or i.name.lower() == "linktitle"
        for i in site.related_index.indices
    ):
        return False
    entries = [e for menu in site.menus.values() for e in menu]
    while entries:
        entry = entries.pop()
        if entry.page is page:
            return False
        entries += entry.children
    return is_cjk_language(site.config, fm, page.file.site_path) == page.is_cjk_language


_NONE = object()


def front_matter_value(fm: FrontMatter, key: str) -> str:
    """A patchable key's value as the loader reads it (any case, text or nothing)."""
    value = next((v for k, v in fm.data.items() if str(k).lower() == key), None)
    return str(value) if value is not None else ""


def only_body_changed(page: Page, fm: FrontMatter, config: SiteConfig) -> bool:
    """Whether ``fm``, the page's file as it is now, differs from what made the page only
    below its front matter."""
    # A file without front matter takes its title from its first line: not a body edit.
    if not fm.format or fm.format != page.front_matter_format or fm.data != page.params:
        return False
    # A file's first or last CJK character changes how its words are counted.
    return is_cjk_language(config, fm, page.file.site_path) == page.is_cjk_language


def apply(site: Site, edits: list[tuple[Page, FrontMatter]], now: datetime) -> list[Page]:
    """Put the edited bodies (and patchable front matter) into the kept graph, built at
    ``now``; return the pages whose front matter changed."""
    site.build_date = now
    patched = []
    for page, fm in edits:
        page.body, page.body_line = fm.body, fm.body_line
        page.__dict__.pop("comment_count", None)  # counted from the body it had
        if fm.data != page.params:
            page.params = dict(fm.data)
            page.title = front_matter_value(fm, "title")
            page.description = front_matter_value(fm, "description")
            patched.append(page)
    return patched


def read_body(page: Page) -> None:
    """A kept page's body, from its file (whose digest showed it unchanged)."""
    if page.body is None:
        fm = _front_matter(page)
        if fm is None:  # it could be read when the build began
            message = "cannot be read any more: was it changed during the build? Build again"
            raise SourceError(page.file.site_path, 0, 0, message)
        page.body = fm.body


def _front_matter(page: Page) -> FrontMatter | None:
    display = page.file.site_path
    try:
        return split_front_matter(read_text(Path(page.file.filename), display), display)
    except (OSError, SourceError):
        return None  # the full load reports it with its line and column
