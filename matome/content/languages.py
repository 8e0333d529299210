"""Which language a content file is in, as Hugo decides it.

A file is in a language by its name (``a.fr.md``, ``index.fr.md``, ``_index.fr.md``: the
part before the extension names a language of ``[languages]``) or by the content folder it
is in (a language's own ``contentDir``); else it is in the default content language. A
file of a disabled language is left out. A name whose middle part is no configured
language (``a.v2.md``) is an ordinary name.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..config import SiteConfig


@dataclass(frozen=True)
class ContentRoot:
    """One folder of content: where it is, how errors name it, the language of its files."""

    path: Path
    label: str  # "content", "content/fr": the folder relative to the site
    lang: str  # the language of a file whose name names none
    own: bool  # a language's own contentDir (its pages are named with the folder)


def content_roots(config: SiteConfig) -> list[ContentRoot]:
    """The content folders to read: the site's ``contentDir`` (for every language that has
    none of its own), then each language's own, in the order of the languages."""
    site_dir = str(config.get("contentDir") or "content")
    roots = []
    if any(not lang.content_dir for lang in config.languages):
        roots.append(
            ContentRoot(config.source / site_dir, site_dir, config.default_language, False)
        )
    for lang in config.languages:
        if lang.content_dir:
            label = lang.content_dir.strip("/")
            roots.append(ContentRoot(config.source / label, label, lang.code, True))
    return roots


def root_of(file, config: SiteConfig) -> ContentRoot:
    """The content folder a page's file (``page.file``) was read from."""
    roots = content_roots(config)
    own = [r for r in roots if r.own and r.label == file.content_dir]
    return own[0] if own else next(r for r in roots if not r.own)


def language_of(name: str, config: SiteConfig) -> tuple[str, str | None]:
    """``name`` without its language part, and that language: ``a.fr.md`` -> (``a.md``,
    ``fr``); a name that names no language of ``[languages]`` -> (name, None)."""
    stem, dot, ext = name.rpartition(".")
    if not dot:
        return name, None
    base, dot, lang = stem.rpartition(".")
    if not dot or not base:
        return name, None
    code = lang.lower()
    if code in config.disabled_languages or any(code == lg.code for lg in config.languages):
        return f"{base}.{ext}", code
    return name, None
