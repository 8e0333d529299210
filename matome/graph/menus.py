"""Menus as Hugo assembles them: the configuration's entries (``[[menus.main]]``), one
entry per top-level section with ``sectionPagesMenu``, and the entries pages give in
front matter (``menu = "main"``, ``menu = ["main", "footer"]``, ``[menu.main]`` tables;
``menus`` too), in that order: an entry whose menu already has one of its key (its
identifier, else its name) is left out with a warning. Entries with a ``parent`` become
the children of the entry with that key (one is made, with no URL, when there is none).
Every level is in Hugo's order: by weight (no weight last), then by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..config import SiteConfig
from ..content.page import Page
from ..errors import SourceError
from .outputs import front_matter_position
from .paths import lookup_page


@dataclass
class MenuEntry:
    name: str
    url: str
    weight: int
    identifier: str  # as configured: "" when the entry has none (its key is then its name)
    parent: str = ""
    pre: str = ""
    post: str = ""
    title: str = ""
    page: Page | None = None
    params: dict = field(default_factory=dict)
    children: list[MenuEntry] = field(default_factory=list)
    menu: str = ""  # the menu it was defined in ("" for a section's and a made parent)

    @property
    def has_children(self) -> bool:
        return bool(self.children)

    @property
    def key_name(self) -> str:
        """What names the entry in its menu (Hugo's ``KeyName``): identifier, else name."""
        return self.identifier or self.name


def make_menus(
    config: SiteConfig, pages: list[Page], by_path: dict[str, Page], warnings: list[SourceError]
) -> dict[str, list[MenuEntry]]:
    """Every menu of the site, name -> its top-level entries, each with its children."""
    flat: dict[tuple[str, str], MenuEntry] = {}  # (menu, key) -> entry, first come
    where = config.files[0] if config.files else str(config.source)
    for menu, entries in config.menus.items():
        for raw in [entries] if isinstance(entries, dict) else entries or []:
            if isinstance(raw, dict):
                entry = _config_entry(str(menu), raw, by_path)
                _add(flat, entry, warnings, lambda: (where, 0, 0))
    section_menu = str(config.get("sectionPagesMenu") or "")
    if section_menu:
        for section in pages:
            top_level = section.parent is not None and section.parent.kind == "home"
            if section.kind == "section" and top_level:
                flat.setdefault((section_menu, section.section), _section_entry(section))
    for page in pages:
        for menu, table in _page_menus(page):
            entry = _page_entry(page, menu, table)
            _add(flat, entry, warnings, lambda p=page: _place(p))
    return _tree(flat)


def _add(flat: dict, entry: MenuEntry, warnings: list[SourceError], place) -> None:
    key = (entry.menu, entry.key_name)
    if key in flat:
        message = f"duplicate menu entry with identifier {entry.key_name!r} in menu {entry.menu!r}"
        warnings.append(SourceError(*place(), message, "warning"))
        return
    flat[key] = entry


def _place(page: Page) -> tuple[str, int, int]:
    return (page.file.site_path, *front_matter_position(page, "menus?"))


def _config_entry(menu: str, raw: dict, by_path: dict[str, Page]) -> MenuEntry:
    raw = {str(k).lower(): v for k, v in raw.items()}
    page = None
    url = str(raw.get("url") or "")
    ref = raw.get("pageref") or raw.get("page")
    if ref:
        page = lookup_page(by_path, str(ref))
        if page is not None:
            url = page.rel_permalink
    return _entry(menu, raw, page, url)


def _entry(menu: str, raw: dict, page: Page | None, url: str) -> MenuEntry:
    """An entry from its table (keys lower-cased); what it leaves out comes from its page."""
    name = str(raw.get("name") or "") or (page.link_title or page.title if page else "")
    weight = _int(raw.get("weight")) or (page.weight if page else 0)
    title = str(raw.get("title") or "") or (page.title if page else "")
    params = raw.get("params")
    return MenuEntry(
        name=name,
        url=url,
        weight=weight,
        identifier=str(raw.get("identifier") or ""),
        parent=str(raw.get("parent") or ""),
        pre=str(raw.get("pre") or ""),
        post=str(raw.get("post") or ""),
        title=title,
        page=page,
        params=params if isinstance(params, dict) else {},
        menu=menu,
    )


def _int(value: Any) -> int:
    if isinstance(value, bool):
        return 0
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def _section_entry(section: Page) -> MenuEntry:
    # Named after the section; Hugo gives these no menu name.
    return _entry("", {"identifier": section.section}, section, section.rel_permalink)


def _page_menus(page: Page) -> list[tuple[str, dict]]:
    """The (menu, table) pairs of a page's front matter ``menu`` (or ``menus``)."""
    value = None
    for key, found in page.params.items():
        if str(key).lower() in ("menu", "menus"):
            value = found
            break
    if not value:
        return []
    if isinstance(value, str):
        return [(value, {})]
    if isinstance(value, list):
        return [(str(v), {}) for v in value if str(v)]
    if isinstance(value, dict):
        return [
            (str(name), {str(k).lower(): v for k, v in table.items()})
            if isinstance(table, dict)
            else (str(name), {})
            for name, table in value.items()
        ]
    return []


def _page_entry(page: Page, menu: str, table: dict) -> MenuEntry:
    return _entry(menu, table, page, page.rel_permalink)


def _tree(flat: dict[tuple[str, str], MenuEntry]) -> dict[str, list[MenuEntry]]:
    """Children under their parents (a parent made where none has the key), each level sorted."""
    made: dict[tuple[str, str], MenuEntry] = {}
    for (menu, _), entry in list(flat.items()):
        if not entry.parent:
            continue
        key = (menu, entry.parent)
        parent = flat.get(key) or made.get(key)
        if parent is None:
            parent = made[key] = MenuEntry(name=entry.parent, url="", weight=0, identifier="")
        parent.children.append(entry)
    menus: dict[str, list[MenuEntry]] = {}
    for (menu, _), entry in [*flat.items(), *made.items()]:
        entry.children.sort(key=_menu_order)
        if not entry.parent:
            menus.setdefault(menu, []).append(entry)
    for entries in menus.values():
        entries.sort(key=_menu_order)
    return menus


def _menu_order(entry: MenuEntry):
    return (
        entry.weight if entry.weight else float("inf"),
        entry.name.lower(),
        entry.name,
        entry.identifier,
    )


# --- the page methods themes call ---------------------------------------------------
def is_menu_current(page: Page, menu: str, entry: Any) -> bool:
    """Hugo's ``.IsMenuCurrent``: the entry is the page's, and the menu has the page."""
    if not isinstance(entry, MenuEntry) or entry.page is not page or page.site is None:
        return False
    return _has_page(page.site.menus.get(str(menu), []), page)


def has_menu_current(page: Page, menu: str, entry: Any) -> bool:
    """Hugo's ``.HasMenuCurrent``: the entry's page is a section the page is in, or one of
    its children (at any depth) is the page's entry."""
    if not isinstance(entry, MenuEntry):
        return False
    target = entry.page
    if target is not None and target.kind == "section":
        ancestor = page.parent
        while ancestor is not None:
            if ancestor is target:
                return True
            ancestor = ancestor.parent
    return any(
        child.page is page or has_menu_current(page, menu, child) for child in entry.children
    )


def _has_page(entries: list[MenuEntry], page: Page) -> bool:
    return any(e.page is page or _has_page(e.children, page) for e in entries)
