"""Every name a page answers to: its content path, its folder, its URL (for
``site.get_page``, ``ref``, menus' ``pageRef``)."""

from __future__ import annotations

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
