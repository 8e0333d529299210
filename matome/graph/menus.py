"""Menus from the configuration (``[[menus.main]]``): entries, their pages, nesting and order."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..config import SiteConfig
from ..content.page import Page
from .paths import lookup_page


@dataclass
class MenuEntry:
    name: str
    url: str
    weight: int
    identifier: str
    parent: str = ""
    pre: str = ""
    post: str = ""
    title: str = ""
    page: Page | None = None
    params: dict = field(default_factory=dict)
    children: list[MenuEntry] = field(default_factory=list)

    @property
    def has_children(self) -> bool:
        return bool(self.children)


def make_menus(config: SiteConfig, by_path: dict[str, Page], errors) -> dict[str, list[MenuEntry]]:
    menus: dict[str, list[MenuEntry]] = {}
    for menu_name, entries in config.menus.items():
        if isinstance(entries, dict):
            entries = [entries]
        flat: list[MenuEntry] = []
        for raw in entries or []:
            raw = {str(k).lower(): v for k, v in raw.items()}
            page = None
            url = str(raw.get("url") or "")
            ref = raw.get("pageref") or raw.get("page")
            if ref:
                page = lookup_page(by_path, str(ref))
                if page is not None:
                    url = page.rel_permalink
            name = str(raw.get("name") or (page.link_title or page.title if page else ""))
            flat.append(
                MenuEntry(
                    name=name,
                    url=url,
                    weight=int(raw.get("weight") or 0),
                    identifier=str(raw.get("identifier") or name),
                    parent=str(raw.get("parent") or ""),
                    pre=str(raw.get("pre") or ""),
                    post=str(raw.get("post") or ""),
                    title=str(raw.get("title") or ""),
                    page=page,
                    params=raw.get("params") or {},
                )
            )
        by_id = {e.identifier: e for e in flat}
        top = []
        for entry in flat:
            if entry.parent and entry.parent in by_id:
                by_id[entry.parent].children.append(entry)
            else:
                top.append(entry)
        for entry in flat:
            entry.children.sort(key=_menu_order)
        menus[menu_name] = sorted(top, key=_menu_order)
    return menus


def _menu_order(entry: MenuEntry):
    return (entry.weight if entry.weight else float("inf"), entry.name.lower())
