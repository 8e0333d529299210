"""Translations: the same page in several languages, as Hugo pairs them.

Two pages are translations of each other when they have the same ``translationKey`` in
front matter, else the same path in their content folder without the language part
(``posts/a.md``, ``posts/a.fr.md`` and ``content/de/posts/a.md`` are one page in three
languages). Pages the graph makes are paired by what they are: the home pages, the
sections of one folder, the taxonomies, the terms of one name.

A bundle's files are shared by its translations, as in Hugo: each file is published once,
under the language its name has (``photo.fr.jpg``) or else the default language (the
first language whose bundle has it, when the default's has none), and every translation's
``resources`` list it at that URL.
"""

from __future__ import annotations

from ..config import SiteConfig
from ..content.languages import language_of
from ..content.page import Page, Resource, Resources
from .resources import resource_order


def translation_key(page: Page) -> str:
    """What a page's translations have in common."""
    key = next((v for k, v in page.params.items() if str(k).lower() == "translationkey"), None)
    if key not in (None, ""):
        return f"{page.kind}:key:{key}"
    kind = page.kind
    if kind in ("home", "404"):
        return kind
    if kind == "taxonomy":
        return f"taxonomy:{page.taxonomy}"
    if kind == "term":
        return f"term:{page.taxonomy}/{page.term_key}"
    if kind == "section":
        return f"section:{page.file.dir.rstrip('/') if page.file else page.section}"
    if page.file is None:
        return f"{kind}:{page.out_path}"
    return f"page:{page.file.dir}{page.file.base_name}"


def link_translations(config: SiteConfig, sites: list) -> None:
    """Set each page's ``translation_group`` (one page per language, in the languages'
    order) and share bundle files across the group."""
    groups: dict[str, list[Page]] = {}
    for site in sites:  # in the order of the languages
        for page in [*site.pages, site.not_found]:
            group = groups.setdefault(translation_key(page), [])
            if not group or group[-1].lang != page.lang:  # one page per language
                group.append(page)
    for group in groups.values():
        if len(group) > 1:
            for page in group:
                page.translation_group = group
            share_resources(config, group)


def share_resources(config: SiteConfig, group: list[Page]) -> None:
    """Every bundle of the group lists each file of the group's bundles once: in the
    page's own language when the file has a version in it (``notes.fr.txt`` for French),
    else the version without a language part, else another language's."""
    bundles = [p for p in group if p.resources]
    if not bundles:
        return
    # Each file's versions by language ("": none), as the page of that language has it. A
    # file of no language is published by the default language's page, else by the first.
    bundles.sort(key=lambda p: p.lang != config.default_language)
    versions: dict[str, dict[str, Resource]] = {}
    for page in bundles:
        for res in page.resources:
            folder, _, base = res.name.rpartition("/")
            plain, lang = language_of(base, config)
            found = versions.setdefault(f"{folder}/{plain}", {})
            if lang is None:
                found.setdefault("", res)
            elif lang == page.lang or lang not in found:
                found[lang] = res
    for page in group:
        if page.file is None or not page.bundle_type:
            continue
        chosen = {}
        for found in versions.values():
            res = found.get(page.lang) or found.get("") or next(iter(found.values()))
            chosen[res.name] = res
        page.resources = Resources(chosen[name] for name in resource_order(list(chosen)))
