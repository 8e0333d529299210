"""The site graph: home, sections, taxonomies, terms, menus, prev/next, pagination.

Built once from the loaded pages, then only read (by content rendering, by
templates, by every worker process, which inherit it through fork).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..config import SiteConfig
from ..content.loader import LoadResult, page_url, set_location
from ..content.page import ZERO_DATE, Page, Resource, Term
from ..content.urls import escape_url_path, sanitize_path, urlize
from ..errors import SourceError
from .related import Related, build_related, related_pages


def sort_key(page: Page):
    """Hugo's default order: weight (unset last), newest first, link title, then path."""
    weight = page.weight if page.weight else float("inf")
    return (
        weight,
        -page.date.timestamp(),
        page.name.lower(),
        page.file.path if page.file else page.out_path,
    )


def sort_pages(pages: list[Page]) -> list[Page]:
    return sorted(pages, key=sort_key)


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


@dataclass
class Pager:
    """One page of a paginated list (Hugo's ``.Paginator``)."""

    number: int
    pages: list[Page]
    url: str
    pagers: list[Pager]
    total_elements: int

    @property
    def total_pages(self) -> int:
        return len(self.pagers)

    @property
    def total(self) -> int:
        return len(self.pagers)

    @property
    def has_prev(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < len(self.pagers)

    @property
    def prev(self) -> Pager | None:
        return self.pagers[self.number - 2] if self.has_prev else None

    @property
    def next(self) -> Pager | None:
        return self.pagers[self.number] if self.has_next else None

    @property
    def first(self) -> Pager:
        return self.pagers[0]

    @property
    def last(self) -> Pager:
        return self.pagers[-1]


@dataclass
class Site:
    config: SiteConfig
    home: Page
    pages: list[Page]  # every page of every kind, in a stable order
    regular_pages: list[Page]
    sections: list[Page]  # top-level sections
    taxonomies: dict[str, list[Term]]  # plural -> terms sorted by name
    taxonomy_pages: dict[str, Page]
    menus: dict[str, list[MenuEntry]]
    static_content: list[tuple]
    build_date: datetime
    by_path: dict[str, Page] = field(default_factory=dict)  # content path and URL -> page
    not_found: Page | None = None  # the page 404.html renders, Hugo's kind "404"
    related_index: Related | None = None
    errors: list[SourceError] = field(default_factory=list)

    # --- template API --------------------------------------------------------
    @property
    def title(self) -> str:
        return self.config.title

    @property
    def base_url(self) -> str:
        return self.config.base_url

    @property
    def language_code(self) -> str:
        return self.config.language.language_code

    @property
    def params(self) -> dict:
        return self.config.params

    @property
    def main_sections(self) -> list[str]:
        value = self.config.params.get("mainSections") or self.config.params.get("mainsections")
        if value:
            return list(value)
        return [s.section for s in sorted(self.sections, key=lambda s: -len(s.regular_pages))[:1]]

    def get_page(self, path: str) -> Page | None:
        """Hugo's ``site.GetPage``: by content path (``/posts``, ``posts/x/index.md``) or URL."""
        return lookup_page(self.by_path, path)

    def related(self, page: Page, limit: int = 5) -> list[Page]:
        return related_pages(self, page, limit)


def lookup_page(by_path: dict[str, Page], path: str) -> Page | None:
    key = path.strip()
    for candidate in (key, key.strip("/"), "/" + key.strip("/"), "/" + key.strip("/") + "/"):
        page = by_path.get(candidate.lower())
        if page is not None:
            return page
    return None


def build_site(config: SiteConfig, loaded: LoadResult, now: datetime) -> Site:
    errors: list[SourceError] = []
    home = next((p for p in loaded.pages if p.kind == "home"), None)
    if home is None:
        home = Page(kind="home", title=config.title, params={}, rel_permalink="", out_path="")
    if not home.title:
        home.title = config.title
    set_location(home, "/", config)
    _apply_cascade(loaded.pages)
    sections = _make_sections(config, loaded.pages, home)
    regular = [p for p in loaded.pages if p.kind == "page"]
    for page in [*regular, *[s for s in sections.values() if s.file]]:
        set_location(page, page_url(page, config), config)
    for page in regular:
        page.parent = _parent_section(page, sections, home)
        page.aliases = [_normalize_alias(a, page) for a in page.aliases]
        page.resources = _resources(page, config)
    for section in sections.values():
        if section.file:
            section.resources = _resources(section, config)
    regular = sort_pages(regular)
    _link_children(home, sections, regular)
    _link_prev_next(regular)
    taxonomies, taxonomy_pages, term_pages = _make_taxonomies(
        config, regular + list(sections.values())
    )
    all_pages = [home, *sort_pages(list(sections.values())), *regular]
    for plural, tax_page in taxonomy_pages.items():
        all_pages.append(tax_page)
        all_pages.extend(term_pages[plural])
    for i, page in enumerate(all_pages):
        page.index = i
        page.site_params = config.params
        if not page.outputs:
            page.outputs = list(config.outputs.get(page.kind, ["html"]))
    by_path = _index_paths(all_pages)
    menus = _make_menus(config, by_path, errors)
    site = Site(
        config=config,
        home=home,
        pages=all_pages,
        regular_pages=regular,
        sections=sort_pages([s for s in sections.values() if s.parent is home]),
        taxonomies=taxonomies,
        taxonomy_pages=taxonomy_pages,
        menus=menus,
        static_content=loaded.static_files,
        build_date=now,
        by_path=by_path,
        errors=errors,
    )
    site.related_index = build_related(config, regular)
    site.not_found = _not_found_page(config, site, home)
    for page in all_pages:
        page.site = site
        if page.kind != "page":
            page.pagers = paginate(page, config.pager_size, site)
            page.paginator = page.pagers[0]
    return site


def _not_found_page(config: SiteConfig, site: Site, home: Page) -> Page:
    """Hugo's 404 page: its own kind, title and URL (not the home page's), in no list."""
    page = Page(kind="404", title="404 Page not found", params={}, rel_permalink="", out_path="")
    set_location(page, "/404.html", config)
    page.parent = home
    page.site = site
    page.site_params = config.params
    page.index = -1
    return page


def _make_sections(config: SiteConfig, pages: list[Page], home: Page) -> dict[str, Page]:
    """Section pages by content folder: every top-level folder, and deeper folders with ``_index.md``."""
    sections: dict[str, Page] = {}
    for page in pages:
        if page.kind == "section":
            sections[page.file.dir.rstrip("/")] = page
    for page in pages:
        if page.kind == "page" and page.section and page.section not in sections:
            section = Page(
                kind="section",
                title=list_title(page.section),
                params={},
                rel_permalink="",
                out_path="",
                section=page.section,
                type=page.section,
            )
            set_location(section, "/" + sanitize_path(page.section).lower() + "/", config)
            sections[page.section] = section
    return sections


_SMALL_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "as",
        "at",
        "but",
        "by",
        "en",
        "for",
        "if",
        "in",
        "nor",
        "of",
        "on",
        "or",
        "per",
        "the",
        "to",
        "v",
        "vs",
        "via",
    ]
)


def title_case(text: str) -> str:
    """Hugo's default (AP style) title case: capitalise words, keep small words low."""
    words = text.split(" ")
    out = []
    for i, word in enumerate(words):
        if 0 < i < len(words) - 1 and word.lower() in _SMALL_WORDS:
            out.append(word.lower())
        else:
            out.append("-".join(w[:1].upper() + w[1:] for w in word.split("-")))
    return " ".join(out)


def pluralize(word: str) -> str:
    if word.endswith("s") or not word.isascii() or not word[-1:].isalpha():
        return word
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("x", "ch", "sh", "z")):
        return word + "es"
    return word + "s"


def list_title(name: str) -> str:
    """The title Hugo gives a section or taxonomy without ``_index.md``: "archive" → "Archives"."""
    return title_case(pluralize(name.replace("-", " ").replace("_", " ")))


def _apply_cascade(pages: list[Page]) -> None:
    """Front matter ``cascade`` of a branch bundle fills in what its descendants leave unset."""
    branches = sorted(
        (p for p in pages if p.kind in ("home", "section") and p.params.get("cascade")),
        key=lambda p: p.file.dir.count("/"),
    )
    for branch in branches:
        cascade = branch.params["cascade"]
        for values in cascade if isinstance(cascade, list) else [cascade]:
            prefix = branch.file.dir
            for page in pages:
                if page is branch or not page.file.path.startswith(prefix):
                    continue
                for key, value in values.items():
                    if key in ("_target", "target"):
                        continue
                    if key == "params" and isinstance(value, dict):
                        for k, v in value.items():
                            page.params.setdefault(k, v)
                    elif key.lower() not in {str(k).lower() for k in page.params}:
                        page.params[key] = value
                        if key.lower() in ("type", "layout"):
                            setattr(page, key.lower(), str(value))
                # The branch itself takes its own cascade too, as in Hugo.
                for k, v in (values.get("params") or {}).items():
                    branch.params.setdefault(k, v)


def _parent_section(page: Page, sections: dict[str, Page], home: Page) -> Page:
    folder = page.file.dir.rstrip("/")
    if page.file.base_name == "index":
        folder = folder.rsplit("/", 1)[0] if "/" in folder else ""
    while folder:
        if folder in sections:
            return sections[folder]
        folder = folder.rsplit("/", 1)[0] if "/" in folder else ""
    return home


def _link_children(home: Page, sections: dict[str, Page], regular: list[Page]) -> None:
    for key, section in sections.items():
        parent_key = key.rsplit("/", 1)[0] if "/" in key else ""
        section.parent = sections.get(parent_key, home) if parent_key else home
    for page in regular:
        page.parent.regular_pages.append(page)
    for section in sections.values():
        section.parent.sections.append(section)
    # Deepest first, so a section's date is known before its parent sorts it.
    for node in [*sorted(sections.values(), key=lambda s: -s.file_depth), home]:
        node.sections = sort_pages(node.sections)
        node.pages = sort_pages(node.regular_pages + node.sections)
        latest = max((p.date for p in node.pages), default=ZERO_DATE)
        latest_mod = max((p.lastmod for p in node.pages), default=ZERO_DATE)
        if not node.date:
            node.date = latest
        if not node.publish_date:
            node.publish_date = node.date
        if not node.lastmod or node.lastmod < latest_mod:
            node.lastmod = max(node.lastmod, latest_mod)


def _link_prev_next(regular: list[Page]) -> None:
    """Hugo's ``.Next`` is the newer neighbour in the default order, ``.Prev`` the older."""
    for i, page in enumerate(regular):
        page.next = regular[i - 1] if i > 0 else None
        page.prev = regular[i + 1] if i + 1 < len(regular) else None
    by_section: dict[int, list[Page]] = defaultdict(list)
    for page in regular:
        by_section[id(page.parent)].append(page)
    for pages in by_section.values():
        for i, page in enumerate(pages):
            page.next_in_section = pages[i - 1] if i > 0 else None
            page.prev_in_section = pages[i + 1] if i + 1 < len(pages) else None


def resource_order(names: list[str]) -> list[str]:
    """A bundle's files in the order of ``page.resources``."""
    return sorted(names, key=lambda n: (not _is_image(n), n.count("/") == 0, n))


def _resources(page: Page, config: SiteConfig) -> list[Resource]:
    base_dir = page.out_path.rsplit("/", 1)[0] if "/" in page.out_path else ""
    names = resource_order(page.resource_names)
    src_dir = page.file.filename.rsplit("/", 1)[0]
    out = []
    for name in names:
        out_path = f"{base_dir}/{name}" if base_dir else name
        rel = escape_url_path("/" + out_path)
        out.append(
            Resource(
                name=name,
                source=Path(src_dir, name),
                rel_permalink=config.base_path + rel,
                permalink=config.base_url.rstrip("/") + rel,
                out_path=out_path,
            )
        )
    return out


def _normalize_alias(alias: str, page: Page) -> str:
    """Hugo's form: absolute, no trailing slash; a relative alias sits beside the page."""
    if not alias.startswith("/"):
        folder = page.out_path.rsplit("/", 2)[0] if page.out_path.count("/") >= 2 else ""
        alias = f"/{folder}/{alias}" if folder else f"/{alias}"
    return alias.rstrip("/") or "/"


def _is_image(name: str) -> bool:
    return name.lower().endswith((".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".avif"))


def term_values(page: Page, plural: str) -> list[str]:
    """The raw terms a page lists for a taxonomy (a string or a list in front matter)."""
    value = page.params.get(plural)
    if value is None:
        value = next((v for k, v in page.params.items() if str(k).lower() == plural), None)
    if value is None or value == "":
        return []
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if str(v).strip()]
    return [str(value)]


def _make_taxonomies(config: SiteConfig, pages: list[Page]):
    taxonomies: dict[str, list[Term]] = {}
    taxonomy_pages: dict[str, Page] = {}
    term_pages: dict[str, list[Page]] = {}
    for plural in dict.fromkeys(config.taxonomies.values()):
        by_key: dict[str, Page] = {}
        for page in pages:
            for raw in term_values(page, plural):
                key = urlize(raw)
                if not key:
                    continue
                term_page = by_key.get(key)
                if term_page is None:
                    term_page = Page(
                        kind="term",
                        title=title_case(raw),
                        params={},
                        rel_permalink="",
                        out_path="",
                        section=plural,
                        type=plural,
                        taxonomy=plural,
                        term=raw,
                        term_key=key,
                    )
                    set_location(term_page, f"/{sanitize_path(plural).lower()}/{key}/", config)
                    by_key[key] = term_page
                if page not in term_page.regular_pages:
                    term_page.regular_pages.append(page)
        tax_page = Page(
            kind="taxonomy",
            title=list_title(plural),
            params={},
            rel_permalink="",
            out_path="",
            section=plural,
            type=plural,
            taxonomy=plural,
        )
        set_location(tax_page, f"/{sanitize_path(plural).lower()}/", config)
        for term_page in by_key.values():
            term_page.regular_pages = sort_pages(term_page.regular_pages)
            term_page.pages = term_page.regular_pages
            term_page.parent = tax_page
            term_page.date = max((p.date for p in term_page.pages), default=ZERO_DATE)
            term_page.publish_date = term_page.date
            term_page.lastmod = max((p.lastmod for p in term_page.pages), default=ZERO_DATE)
        terms = sort_pages(list(by_key.values()))
        tax_page.pages = terms
        tax_page.date = max((t.date for t in terms), default=ZERO_DATE)
        tax_page.publish_date = tax_page.date
        tax_page.lastmod = max((t.lastmod for t in terms), default=ZERO_DATE)
        taxonomy_pages[plural] = tax_page
        term_pages[plural] = terms
        taxonomies[plural] = sorted(
            (Term(t.title, t.rel_permalink, len(t.pages), t) for t in terms),
            key=lambda t: t.page.term_key,
        )
        for term_page in terms:
            term = Term(term_page.title, term_page.rel_permalink, len(term_page.pages), term_page)
            for page in term_page.pages:
                page.page_terms.setdefault(plural, []).append(term)
    # A page lists its terms in front matter order.
    for page in pages:
        for plural, terms in page.page_terms.items():
            order = {urlize(v): i for i, v in reversed(list(enumerate(term_values(page, plural))))}
            terms.sort(key=lambda t: order.get(t.page.term_key, 0))
    return taxonomies, taxonomy_pages, term_pages


def _index_paths(pages: list[Page]) -> dict[str, Page]:
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


def _make_menus(config: SiteConfig, by_path: dict[str, Page], errors) -> dict[str, list[MenuEntry]]:
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


def paginate(page: Page, size: int, site: Site) -> list[Pager]:
    """Every pager of a list page; page 1 lives at the list's own URL."""
    if page.kind == "home":
        items = site.regular_pages
    elif page.kind in ("taxonomy", "term"):
        items = page.pages
    else:
        items = page.regular_pages
    chunks = [items[i : i + size] for i in range(0, len(items), size)] or [[]]
    pagers: list[Pager] = []
    for number, chunk in enumerate(chunks, 1):
        url = page.rel_permalink if number == 1 else f"{page.rel_permalink}page/{number}/"
        pagers.append(Pager(number, chunk, url, pagers, len(items)))
    return pagers
