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
from ..mounts import Mount, component_mounts


@dataclass(frozen=True)
class ContentRoot:
    """One folder of content: where it is, how errors name it, the language of its files."""

    path: Path
    label: str  # "content", "content/fr": the folder relative to the site
    lang: str  # the language of a file whose name names none
    own: bool  # a language's own contentDir (its pages are named with the folder)
    mount: Mount | None = None  # the [[module.mounts]] entry it comes from

    def place(self, rel: str) -> str:
        """Where a file at ``rel`` inside the folder is in the content tree."""
        return self.mount.place(rel) if self.mount else rel

    def disk_path(self, place: str) -> Path:
        """The file at ``place`` in the content tree, inside this folder."""
        if self.mount and self.mount.target:
            place = place.removeprefix(self.mount.target).lstrip("/")
        return self.path / place


def content_roots(config: SiteConfig) -> list[ContentRoot]:
    """The content folders to read: the content mounts when the site declares any (in the
    order declared: the first one's file wins a path two hold); else the site's
    ``contentDir`` (for every language that has none of its own), then each language's
    own, in the order of the languages."""
    declared = [m for m in component_mounts(config.mounts, "content") if m.declared]
    if declared:
        return [root for mount in declared for root in _mount_roots(config, mount)]
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


def _mount_roots(config: SiteConfig, mount: Mount) -> list[ContentRoot]:
    """A content mount's folder: once for each of its languages (each with its own pages),
    or once with the language of each file's name."""
    try:
        label = mount.source.relative_to(config.source.resolve()).as_posix()
    except ValueError:
        label = mount.source.as_posix()
    if not mount.languages:
        return [ContentRoot(mount.source, label, config.default_language, False, mount)]
    return [ContentRoot(mount.source, label, code, True, mount) for code in mount.languages]


def root_of(file, config: SiteConfig) -> ContentRoot:
    """The content folder a page's file (``page.file``) was read from."""
    roots = content_roots(config)
    if any(r.mount for r in roots):
        folder = [r for r in roots if r.label == file.folder]
        inside = [r for r in folder if r.mount and file.path.startswith(r.mount.target)]
        return next((r for r in inside if r.lang == file.lang), (inside or folder)[0])
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
