"""Hugo's module mounts of the project itself: which folders (or files) of the site make up
its ``content``, ``static``, ``layouts``, ``data``, ``assets``, ``i18n`` and ``archetypes``.

Each ``[[module.mounts]]`` entry maps a ``source`` (relative to the site, or absolute) to a
``target`` whose first part names the component (``content/docs``: the files appear under
``docs/`` of the content tree). Declaring any mount for a component replaces that
component's default folder (``contentDir``, ``static``, ...); the others keep theirs. When
two mounts hold the same path the one declared first wins. ``files`` keeps only the files
its globs match (a pattern starting with ``! `` leaves files out), matched against the path
inside the mount's source with a leading ``/``. ``sites.matrix.languages`` gives a content
mount's files their language; a mount naming no configured language is not read. Hugo
0.153 removed ``lang``, ``includeFiles`` and ``excludeFiles``: they fail the build, as in
Hugo. Remote modules (``[[module.imports]]``) are not fetched.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .content.globs import glob_regex
from .errors import SourceError

COMPONENTS = ("content", "data", "layouts", "i18n", "archetypes", "assets", "static")
EXCLUDE = "! "
# Keys of a mount Hugo 0.153 replaced; Hugo 0.168 fails on them.
REMOVED = {
    "lang": "replaced by sites.matrix.languages",
    "includefiles": "replaced by files",
    "excludefiles": 'replaced by files (a pattern starting with "! " leaves files out)',
}


@dataclass(frozen=True)
class Mount:
    """One folder or file of the site mounted into a component."""

    source: Path  # absolute
    component: str  # "content", "static", ...
    target: str  # the path inside the component: "" for its root, "docs" for content/docs
    languages: tuple[str, ...] = ()  # the languages of a content mount's files (none: by name)
    files: tuple[str, ...] = ()  # Hugo's ``files`` globs; a "! " one leaves files out
    declared: bool = False  # from [[module.mounts]] rather than the component's default
    watch: bool = True  # disableWatch = false

    def admits(self, rel: str, is_dir: bool = False) -> bool:
        """Whether the file (or folder) at ``rel`` inside the source is mounted: an excluding
        pattern that matches leaves it out, an including one keeps it, and with including
        patterns a file none matches is left out (a folder is kept when it leads to one)."""
        if not self.files:
            return True
        path = "/" + rel.strip("/")
        including = False
        for pattern in self.files:
            excluding = pattern.startswith(EXCLUDE)
            regex = _pattern_regex(pattern.removeprefix(EXCLUDE) if excluding else pattern)
            if excluding:
                if regex.fullmatch(path):
                    return False
                continue
            if regex.fullmatch(path):
                return True
            including = True
            if is_dir and any(d.fullmatch(path) for d in _leading_dirs(pattern)):
                return True
        return not including

    def place(self, rel: str) -> str:
        """Where a file at ``rel`` inside the source is in its component."""
        return "/".join(p for p in (self.target, rel) if p)


def _pattern_regex(pattern: str):
    return glob_regex("/" + pattern.lstrip("/"))


def _leading_dirs(pattern: str) -> list:
    """The folders on the way to an including pattern's files: they are walked into."""
    parts = posixpath.dirname("/" + pattern.lstrip("/")).strip("/").split("/")
    return [_pattern_regex("/".join(parts[: i + 1])) for i in range(len(parts)) if parts[0]]


def read_mounts(
    tree: dict, source: Path, origin: Path | None, languages: list[str]
) -> tuple[list[Mount], list[SourceError]]:
    """The declared mounts of ``[module]`` (``origin``: the config file that set it), and
    the errors of the ones Hugo refuses. ``languages``: the configured language codes."""
    entries = (tree.get("module") or {}).get("mounts") or []
    mounts: list[Mount] = []
    errors: list[SourceError] = []
    for n, entry in enumerate(entries):

        def error(key: str, message: str, n=n) -> None:
            errors.append(_error_at(origin, n, key, f"module.mounts[{n}].{key}: {message}"))

        removed = [k for k in entry if k in REMOVED]
        for key in removed:
            error(key, f"removed in Hugo 0.153: {REMOVED[key]}")
        target = posixpath.normpath(str(entry.get("target") or "").replace("\\", "/"))
        component, _, inner = target.partition("/")
        if component not in COMPONENTS:
            error(
                "target", f"{target!r}: the target must start with one of {', '.join(COMPONENTS)}"
            )
            continue
        raw_source = str(entry.get("source") or ".")  # none: the site's own folder, as in Hugo
        langs = _matrix_languages(entry)
        picked = tuple(code for code in languages if any(_glob(g, code) for g in langs))
        if langs and not picked or removed:
            continue  # Hugo reads no mount for languages the site does not have
        files = entry.get("files") or []
        mounts.append(
            Mount(
                source=(source / raw_source).resolve(),
                component=component,
                target=inner.strip("/") if inner != "." else "",
                languages=picked,
                files=tuple(str(f) for f in ([files] if isinstance(files, str) else files)),
                declared=True,
                watch=not entry.get("disablewatch", False),
            )
        )
    return mounts, errors


def lower_mount_keys(tree: dict) -> dict:
    """``tree`` with the keys of its mounts lower-cased, as Hugo reads them (the config
    loader leaves the keys of tables inside lists as written)."""
    module = tree.get("module") or {}
    if not module.get("mounts"):
        return tree
    mounts = [_lowered(m) if isinstance(m, dict) else m for m in module["mounts"]]
    return {**tree, "module": {**module, "mounts": mounts}}


def _lowered(table: dict) -> dict:
    return {str(k).lower(): _lowered(v) if isinstance(v, dict) else v for k, v in table.items()}


def component_mounts(mounts: tuple[Mount, ...], component: str) -> list[Mount]:
    """The mounts of one component, in the order declared (the first wins)."""
    return [m for m in mounts if m.component == component]


def component_folders(mounts: tuple[Mount, ...], component: str) -> list[Path]:
    """The folders (or files) a component is read from, to watch and to stamp."""
    return [m.source for m in mounts if m.component == component]


def _matrix_languages(entry: dict) -> list[str]:
    matrix = (entry.get("sites") or {}).get("matrix") or {}
    langs = matrix.get("languages") or []
    return [str(g) for g in ([langs] if isinstance(langs, str) else langs)]


def _glob(pattern: str, code: str) -> bool:
    return bool(glob_regex(pattern.lower()).fullmatch(code))


def _error_at(origin: Path | None, n: int, key: str, message: str) -> SourceError:
    if origin is None:
        return SourceError("config", 1, 1, message)
    line, col = mount_key_position(origin, n, key)
    return SourceError(str(origin), line, col, message)


def mount_key_position(file: Path, n: int, key: str) -> tuple[int, int]:
    """Line and column of ``key`` in the ``n``-th ``[[module.mounts]]`` of a TOML file (or
    the ``n``-th item below ``mounts:`` in YAML): after that entry's start, the first line
    setting the key; else the entry's own line."""
    try:
        lines = file.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return 1, 1
    starts = [
        i
        for i, line in enumerate(lines)
        if line.strip().lower().replace(" ", "") == "[[module.mounts]]"
        or line.lstrip().startswith("- ")
        and _yaml_in_mounts(lines, i)
    ]
    if n >= len(starts):
        return 1, 1
    start = starts[n]
    end = starts[n + 1] if n + 1 < len(starts) else len(lines)
    for i in range(start, end):
        text = lines[i].lstrip(" -\t")
        name = text.split("=", 1)[0].split(":", 1)[0].strip().strip("\"'").lower()
        if name == key and ("=" in text or ":" in text):
            return i + 1, len(lines[i]) - len(text) + 1
    return start + 1, len(lines[start]) - len(lines[start].lstrip()) + 1


def _yaml_in_mounts(lines: list[str], i: int) -> bool:
    """Whether the YAML list item at line ``i`` is an item of a ``mounts:`` key."""
    indent = len(lines[i]) - len(lines[i].lstrip())
    for j in range(i - 1, -1, -1):
        text = lines[j]
        if not text.strip():
            continue
        own = len(text) - len(text.lstrip())
        if own < indent or own == indent and not text.lstrip().startswith("-"):
            return text.strip().lower().startswith("mounts:")
    return False


def default_mounts(config_tree: dict, source: Path) -> list[Mount]:
    """The folder of each component, where no mount declares one (Hugo's defaults;
    the languages' own ``contentDir`` are read by the content loader)."""
    dirs: dict[str, Any] = {
        "content": config_tree.get("contentdir") or "content",
        "data": config_tree.get("datadir") or "data",
        "layouts": config_tree.get("layoutdir") or "layouts",
        "i18n": config_tree.get("i18ndir") or "i18n",
        "archetypes": config_tree.get("archetypedir") or "archetypes",
        "assets": config_tree.get("assetdir") or "assets",
        "static": config_tree.get("staticdir") or "static",
    }
    return [Mount((source / str(d)).resolve(), c, "") for c, d in dirs.items()]


def site_mounts(tree: dict, source: Path, declared: list[Mount]) -> tuple[Mount, ...]:
    """Every mount of the site: the declared ones, then the default of each component
    none of them is for."""
    taken = {m.component for m in declared}
    defaults = [m for m in default_mounts(tree, source) if m.component not in taken]
    return (*declared, *defaults)


def static_mounts(mounts: tuple[Mount, ...], theme_static: Path) -> list[Mount]:
    """The folders of the site's files copied as they are, the one that wins a path last:
    the theme's ``static/``, then the site's static mounts from the last declared to the
    first (Hugo's first mount wins)."""
    theme = Mount(theme_static.resolve(), "static", "")
    site = [m for m in component_mounts(mounts, "static") if m.source != theme.source]
    return [theme, *reversed(site)]


def mount_prefixes(mounts: list[Mount]) -> tuple[str, ...]:
    """The start of the paths of the files the mounts hold (a file mount's own path)."""
    return tuple(str(m.source) if m.source.is_file() else f"{m.source}{os.sep}" for m in mounts)


def walk_mount(mount: Mount) -> list[tuple[str, Path]]:
    """Every file a mount holds, as (its path in the component, its path on disk), in
    name order; a single-file mount gives its one file. A symbolic link is followed only
    to a file inside the mount's folder."""
    root = mount.source
    if root.is_file():
        return [(mount.target or root.name, root)]
    if not root.is_dir():
        return []
    found = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not (_inside(path, root) if path.is_symlink() else path.is_file()):
            continue
        folder = posixpath.dirname(rel)
        if mount.files and not (
            mount.admits(rel) and all(mount.admits(folder[:i], True) for i in _slash_ends(folder))
        ):
            continue
        found.append((mount.place(rel), path))
    return found


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return path.resolve().is_file()


def _slash_ends(folder: str) -> list[int]:
    """The ends of each leading folder of ``folder`` (``a/b`` -> the ends of a and a/b)."""
    if not folder:
        return []
    return [i for i, c in enumerate(folder) if c == "/"] + [len(folder)]
