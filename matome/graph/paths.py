"""Every name a page answers to: its content path, its folder, its URL (for
``site.get_page``, ``ref``, menus' ``pageRef``)."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from ..content.page import Page


def lookup_page(by_path: dict[str, Page], path: str) -> Page | None:
    key = path.strip()
    for candidate in (key, key.strip("/"), "/" + key.strip("/"), "/" + key.strip("/") + "/"):
        page = by_path.get(candidate.lower())
        if page is not None:
            return page
    return None


def index_paths(pages: list[Page]) -> dict[str, Page]:
    """Every way a template or a ``ref`` may name a page: content path, folder, URL."""
    index: dict[str, Page] = {}
    for page in pages:
        keys = [page.rel_permalink, page.out_path]
        if page.file:
            path = page.file.path
            keys += [path, "/" + path, path.rsplit(".", 1)[0], "/" + path.rsplit(".", 1)[0]]
            if page.file.base_name in ("index", "_index"):
                folder = page.file.dir.rstrip("/")
                keys += [folder, "/" + folder]
        elif page.kind == "section":
            keys += [page.section, "/" + page.section]
        elif page.kind in ("taxonomy", "term"):
            keys += [page.rel_permalink.strip("/"), page.out_path.rsplit("/", 1)[0]]
        if page.kind == "home":
            keys += ["/", ""]
        for key in keys:
            index.setdefault(key.lower(), page)
    return index


# --- ref and relref: Hugo's page references -------------------------------------------------


class AmbiguousRef(Exception):
    """A bare file name that more than one page answers to."""


@dataclass
class RefIndex:
    """The pages by Hugo's content path (``/posts/a`` for ``posts/a.md`` and for
    ``posts/a/index.md``, ``/posts`` for ``posts/_index.md``, ``/`` for the home) and by file
    name alone (``a``; a bundle by its folder's name), for ``ref`` and ``relref``."""

    by_content_path: dict[str, Page]
    by_file: dict[str, Page]  # content/ file path, lower case
    by_name: dict[str, Page | None]  # None: more than one page has the name
    home: Page | None


# The last index made, with the page list it was made of: ``matome serve`` renders a body
# again on the same site graph run after run, and its first ``ref`` would index it again.
_last_index: tuple[list[Page], RefIndex] | None = None


def refs_of(pages: list[Page]) -> RefIndex:
    """``index_refs(pages)``, made again only for another list of pages."""
    global _last_index
    if _last_index is None or _last_index[0] is not pages:
        _last_index = (pages, index_refs(pages))
    return _last_index[1]


def index_refs(pages: list[Page]) -> RefIndex:
    by_content_path: dict[str, Page] = {}
    by_file: dict[str, Page] = {}
    by_name: dict[str, Page | None] = {}
    home = None
    for page in pages:
        if page.kind == "home":
            home = page
        if page.file is not None:
            by_file.setdefault(page.file.path.lower(), page)
            # Without a language part: a.fr.md is /a, in its language's index.
            path = _content_path(page.file.dir + page.file.base_name + ".md")
        elif page.kind == "section":
            path = "/" + page.section.lower()
        elif page.kind in ("taxonomy", "term"):
            path = "/" + page.out_path.rsplit("/", 1)[0].lower()
        else:
            path = "/"
        by_content_path.setdefault(path, page)
        name = path.rsplit("/", 1)[-1]
        if name and page.file is not None:
            by_name[name] = None if name in by_name else page
    return RefIndex(by_content_path, by_file, by_name, home)


def _content_path(path: str) -> str:
    """Hugo's path of a content file or reference: no extension, no ``index``/``_index``,
    lower case, spaces as dashes."""
    folder, _, name = path.replace("\\", "/").lstrip("/").rpartition("/")
    stem = name.rsplit(".", 1)[0] if "." in name else name
    parts = [folder] if folder else []
    if stem not in ("index", "_index"):
        parts.append(stem)
    return "/" + "/".join(parts).lower().replace(" ", "-")


def resolve_ref(
    index: RefIndex, context: Page | None, ref: str, bare_names: bool = True
) -> Page | None:
    """The page ``ref`` (a path without its ``#fragment``) names from ``context``, as Hugo's
    ``ref`` finds it: a path relative to the page, then from ``content/``, with or without a
    content extension, a bundle by its folder, a bare file name anywhere when it is unique
    (not with ``bare_names`` off: a page's ``GetPage``). Raises AmbiguousRef for a bare name
    two pages have."""
    ref = ref.replace("\\", "/").rstrip("/")
    written = ref
    ref = ref or "/"
    if _has_extension(ref):
        return _resolve(index, context, True, written, ref, bare_names)
    if ref == "/":
        return _resolve(index, context, False, written, "/_index.md", bare_names)
    if ref.endswith("/index"):
        return _resolve(index, context, False, written, ref + "/index.md", bare_names) or _resolve(
            index, context, False, written, ref + ".md", bare_names
        )
    return _resolve(index, context, False, written, ref + ".md", bare_names)


def _has_extension(path: str) -> bool:
    return "." in path.rsplit("/", 1)[-1]


def _resolve(
    index: RefIndex,
    context: Page | None,
    had_extension: bool,
    written: str,
    ref: str,
    bare_names: bool,
) -> Page | None:
    if context is not None and context.file is not None and not ref.startswith("/"):
        folder = "/" + context.file.dir.strip("/")
        # A branch page's references start in its folder; a leaf bundle's in the folder that
        # holds it (but "../x.md", which starts in the bundle's); a single file's in its folder.
        if context.bundle_type == "leaf" and not (had_extension and ref.startswith("../")):
            folder = posixpath.dirname(folder)
        found = index.by_content_path.get(
            _content_path(posixpath.normpath(posixpath.join(folder, ref)))
        )
        if found is not None:
            return found
        if had_extension:
            on_disk = posixpath.normpath(posixpath.join(context.file.dir, ref)).lower()
            if (found := index.by_file.get(on_disk)) is not None:
                return found
    if ref.startswith("."):
        return None  # relative to the page only
    found = index.by_content_path.get(_content_path(posixpath.normpath("/" + ref)))
    if found is not None:
        return found
    if had_extension and (found := index.by_file.get(ref.lstrip("/").lower())) is not None:
        return found
    if "/" in written or not bare_names:
        return None
    name = _content_path(written or "/").rsplit("/", 1)[-1]
    if name in index.by_name and index.by_name[name] is None:
        raise AmbiguousRef(f'page reference "{written}" is ambiguous')
    return index.by_name.get(name)
