"""``site.data``: the files of ``data/`` (and of each theme's ``data/``) as one tree.

As Hugo reads them: TOML, YAML and JSON files hold tables (or, for YAML and JSON, a
list). A CSV file is an error, as in Hugo 0.168 (which reads CSV only through
``transform.Unmarshal``, not in ``data/``). A file's name
without its extension is its key, each folder a table: ``data/authors/ann.toml`` is
``site.data.authors.ann``. A theme's file is read first and the site's file of the same
name merged over it, key by key (a table in it is replaced whole, as in Hugo).
"""

from __future__ import annotations

import os
from pathlib import Path

from ..config import SiteConfig, parse_data
from ..errors import SourceError
from ..mounts import component_mounts

DATA_FORMATS = ("toml", "yaml", "yml", "json", "csv")


def data_dirs(config: SiteConfig) -> list[tuple[Path, str, tuple[str, ...]]]:
    """The folders ``site.data`` is read from, the one that wins a key last (the theme's,
    then the site's data mounts from the last declared to the first), each with the prefix
    of the paths its errors name and the keys its files go under (``data/team``)."""
    themes = config.theme if isinstance(config.theme, list) else [config.theme]
    themes_dir = str(config.get("themesdir") or "themes")
    dirs = [
        (config.source / themes_dir / str(theme) / "data", f"{themes_dir}/{theme}/data", ())
        for theme in reversed(themes)
        if theme
    ]
    for mount in reversed(component_mounts(config.mounts, "data")):
        try:
            shown = mount.source.relative_to(config.source.resolve()).as_posix()
        except ValueError:
            shown = mount.source.as_posix()
        under = tuple(p for p in mount.target.split("/") if p)
        dirs.append((mount.source, shown, under))
    return [d for d in dirs if d[0].is_dir()]


def load_site_data(config: SiteConfig) -> tuple[dict, list[SourceError]]:
    files: dict[tuple[str, ...], object] = {}
    errors: list[SourceError] = []
    for directory, shown, under in data_dirs(config):
        for key, value in _read_dir(directory, shown, errors).items():
            key = (*under, *key)
            old = files.get(key)
            # The site's file over the theme's: their top-level keys merged, the site's winning.
            both = isinstance(old, dict) and isinstance(value, dict)
            files[key] = {**old, **value} if both else value
    tree: dict = {}
    for key, value in files.items():
        node = tree
        for part in key[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                child = node[part] = {}
            node = child
        old = node.get(key[-1])
        both = isinstance(old, dict) and isinstance(value, dict)
        node[key[-1]] = {**old, **value} if both else value
    return tree, errors


def _read_dir(root: Path, shown: str, errors: list[SourceError]) -> dict[tuple[str, ...], object]:
    """Every data file below ``root`` by its key path (folders, then the name's stem)."""
    found: dict[tuple[str, ...], object] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        rel_dir = Path(dirpath).relative_to(root)
        for name in sorted(filenames):
            stem, _, ext = name.rpartition(".")
            if not stem or name.startswith(".") or ext.lower() not in DATA_FORMATS:
                continue
            display = f"{shown}/{(rel_dir / name).as_posix()}"
            try:
                found[(*rel_dir.parts, stem)] = read_data_file(
                    Path(dirpath, name), ext.lower(), display
                )
            except SourceError as e:
                errors.append(e)
    return found


def read_data_file(path: Path, fmt: str, display: str):
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise SourceError(display, 1, 1, f"not valid UTF-8: {e.reason}") from None
    except OSError as e:
        raise SourceError(display, 0, 0, f"cannot read: {e.strerror}") from None
    if fmt == "csv":
        raise SourceError(display, 1, 1, "a CSV file in data/ is not read (Hugo fails on it too)")
    return parse_data(text, fmt, display, tables_only=False)
