"""Sections and the page tree: which folders are sections, each page's parent, the
children and dates of every branch, prev/next, front matter ``cascade``, and the titles
Hugo gives sections and taxonomies that have no ``_index.md``."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from ..config import SiteConfig
from ..content.globs import glob_regex
from ..content.loader import set_location
from ..content.page import ZERO_DATE, Page
from ..content.urls import file_path_segment
from .order import sort_pages


def make_sections(config: SiteConfig, pages: list[Page], home: Page) -> dict[str, Page]:
    """Section pages by content folder: every top-level folder, and deeper folders with ``_index.md``."""
    sections: dict[str, Page] = {}
    for page in pages:
        if page.kind == "section":
            sections[page.file.dir.rstrip("/")] = page
    for page in pages:
        if page.kind == "page" and page.section and page.section not in sections:
            section = Page(
                kind="section",
                title=section_title(page.section, config),
                params={},
                rel_permalink="",
                out_path="",
                section=page.section,
                type=page.section,
            )
            segment = file_path_segment(page.section, not config.disable_path_to_lower)
            set_location(section, "/" + segment + "/", config)
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
            out.append("-".join(map(_capitalized, word.split("-"))))
    return " ".join(out)


def _capitalized(word: str) -> str:
    """The word's first letter or digit, after any punctuation ('circle, (hello), _x),
    made upper case: "'circle" -> "'Circle", "1st" -> "1st"."""
    for i, char in enumerate(word):
        if char.isalnum():
            return word[:i] + char.upper() + word[i + 1 :]
    return word


def pluralize(word: str) -> str:
    # Hugo's inflector: any other ending takes an "s" (2024s, 日本s, V2.0s).
    if word.endswith("s"):
        return word
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("x", "ch", "sh", "z")):
        return word + "es"
    return word + "s"


def section_title(name: str, config: SiteConfig) -> str:
    """The title Hugo gives a section without ``_index.md``: its folder's name pluralized
    (``pluralizeListTitles``) and title-cased (``capitalizeListTitles``), both on by
    default: "blog-entry" → "Blog-Entries"."""
    if _setting(config, "pluralizeListTitles"):
        name = pluralize(name)
    return title_case(name) if _setting(config, "capitalizeListTitles") else name


def taxonomy_title(plural: str, config: SiteConfig) -> str:
    """The title Hugo gives a taxonomy without ``_index.md``: its name as configured,
    never pluralized, title-cased (``capitalizeListTitles``), hyphens made spaces:
    "category" → "Category", "box-item" → "Box Item", "my_thing" → "My_thing"."""
    title = title_case(plural) if _setting(config, "capitalizeListTitles") else plural
    return title.replace("-", " ")


def term_title(term: str, config: SiteConfig) -> str:
    """The title Hugo gives a term without ``_index.md``: the term as a page writes it,
    title-cased (``capitalizeListTitles``)."""
    return title_case(term) if _setting(config, "capitalizeListTitles") else term


def _setting(config: SiteConfig, key: str) -> bool:
    """A boolean setting that is on unless the config turns it off."""
    value = config.get(key)
    return not (value is False or str(value).lower() == "false")


def apply_cascade(pages: list[Page], environment: str) -> None:
    """Front matter ``cascade`` of a branch bundle fills in what its descendants (and the
    branch itself) leave unset; the nearest branch's value wins. A ``target`` (or the older
    ``_target``) limits it to pages whose path matches a glob, of a kind, in an environment."""
    branches = sorted(
        (p for p in pages if p.kind in ("home", "section") and p.params.get("cascade")),
        key=lambda p: -p.file.dir.count("/") if p.file.dir else 1,
    )
    for branch in branches:
        cascade = branch.params["cascade"]
        for values in cascade if isinstance(cascade, list) else [cascade]:
            if not isinstance(values, dict):
                continue
            target = next(
                (v for k, v in values.items() if str(k).lower() in ("target", "_target")), None
            )
            matches = cascade_target(target, environment)
            prefix = branch.file.dir
            for page in pages:
                if not page.file.path.startswith(prefix) or not matches(page):
                    continue
                if page is not branch:
                    _fill(page, values)
                else:  # the branch takes its own cascade's params and build, as in Hugo
                    for k, v in (values.get("params") or {}).items():
                        branch.params.setdefault(k, v)
                    _fill_build(branch, values)


def _fill_build(branch: Page, values: dict) -> None:
    build = next((v for k, v in values.items() if str(k).lower() == "build"), None)
    if build is not None and not any(str(k).lower() == "build" for k in branch.params):
        branch.params["build"] = build


def _fill(page: Page, values: dict) -> None:
    have = {str(k).lower() for k in page.params}
    for key, value in values.items():
        name = str(key).lower()
        if name in ("_target", "target"):
            continue
        if name == "params" and isinstance(value, dict):
            for k, v in value.items():
                page.params.setdefault(k, v)
        elif name not in have:
            page.params[key] = value
            if name in ("type", "layout"):
                setattr(page, name, str(value))


def cascade_target(target, environment: str):
    """Whether a page is one a cascade ``target`` names: ``path`` (a glob over the page's
    path, ``/docs/sub/**``), ``kind`` and ``environment``; any other key matches all."""
    if not isinstance(target, dict):
        return lambda page: True
    target = {str(k).lower(): v for k, v in target.items()}
    path = glob_regex(str(target["path"]).lower()) if target.get("path") else None
    kind = str(target.get("kind") or "").lower()
    env = str(target.get("environment") or "")
    if env and not glob_regex(env).match(environment):
        return lambda page: False

    def matches(page: Page) -> bool:
        if kind and not glob_regex(kind).match(page.kind):
            return False
        return path is None or bool(path.match(content_path(page)))

    return matches


def content_path(page: Page) -> str:
    """Hugo's path of a page: ``/docs/sub/b`` for docs/sub/b.md, ``/docs`` for its
    _index.md and for a bundle's index.md the folder's."""
    f = page.file
    if f is None:
        return "/"
    if f.base_name in ("index", "_index"):
        return "/" + f.dir.strip("/").lower()
    return "/" + f"{f.dir}{f.base_name}".lower()


def parent_section(page: Page, sections: dict[str, Page], home: Page) -> Page:
    folder = page.file.dir.rstrip("/")
    if page.file.base_name == "index":
        folder = folder.rsplit("/", 1)[0] if "/" in folder else ""
    while folder:
        if folder in sections:
            return sections[folder]
        folder = folder.rsplit("/", 1)[0] if "/" in folder else ""
    return home


def newest_published(pages: list[Page], now: datetime) -> datetime:
    """A list page's publish date as Hugo gives it: its newest page's that is not in the
    future (zero when every page is)."""
    return max((p.publish_date for p in pages if p.publish_date <= now), default=ZERO_DATE)


def link_children(
    home: Page,
    sections: dict[str, Page],
    regular: list[Page],
    now: datetime,
    lang: str,
    unlisted: list[Page] = (),
) -> None:
    """Each page in its parent's lists (in the default order of language ``lang``), and
    each list page's dates from its pages'; the ``unlisted`` pages (build list = never)
    count for the dates, as in Hugo."""
    for key, section in sections.items():
        parent_key = key.rsplit("/", 1)[0] if "/" in key else ""
        section.parent = sections.get(parent_key, home) if parent_key else home
    for page in regular:
        page.parent.regular_pages.append(page)
    hidden: dict[int, list[Page]] = defaultdict(list)
    for page in unlisted:
        hidden[id(page.parent)].append(page)
    for section in sections.values():
        if section.list_mode == "never":  # build list = never: in no list, as a page
            hidden[id(section.parent)].append(section)
        else:
            section.parent.sections.append(section)
    # Deepest first, so a section's date is known before its parent sorts it. A list page
    # takes its dates from every page below it, at any depth (Hugo sends each page's up
    # the tree), not only from its children's.
    below: dict[int, list[Page]] = {}
    for node in [*sorted(sections.values(), key=lambda s: -s.file_depth), home]:
        node.sections = sort_pages(node.sections, lang)
        node.pages = sort_pages(node.regular_pages + node.sections, lang)
        below[id(node)] = [*node.pages, *hidden.get(id(node), [])]
        for section in node.sections:
            below[id(node)] += below[id(section)]
        take_dates(node, below[id(node)], now)


def take_dates(node: Page, pages: list[Page], now: datetime) -> None:
    """A list page's dates from its pages' (the newest of each), as Hugo gives them to a
    list page none of whose own dates is set: one set in its _index.md (or a lastmod
    from Git) keeps all of them as they are."""
    if any(d != ZERO_DATE for d in (node.date, node.lastmod, node.publish_date, node.expiry_date)):
        return
    node.dates_taken = True
    node.date = max((p.date for p in pages), default=ZERO_DATE)
    node.publish_date = newest_published(pages, now)
    node.lastmod = max((p.lastmod for p in pages), default=ZERO_DATE)


def link_prev_next(regular: list[Page]) -> None:
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
