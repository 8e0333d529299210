"""Stage 1, what changed: the inputs a run reads, each file's digest against the last
run's, and whether the last run's output still stands as it is.

A file is read again only when its size or modification time changed, and counts as
changed only when its bytes did: a fresh clone, where every file's time is new, changes
nothing. ``matome serve`` names the paths its watcher saw, so the rest are not stamped
again.
"""

from __future__ import annotations

import contextlib
import functools
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ..config import SiteConfig
from ..content.data import data_dirs
from ..content.languages import content_roots
from ..incremental import buildcache
from ..incremental.buildcache import LastBuild
from ..mounts import component_folders, static_mounts
from ..parallel import ForkedCall
from ..render.environment import template_dirs, theme_dir
from .state import DiskStore


@dataclass
class Changes:
    config: SiteConfig
    fingerprint: str
    destination: Path
    now: datetime
    stamps: dict[str, tuple[int, int] | None]
    digests: dict[str, bytes | None]  # empty while ``hashing`` works them out
    hashing: ForkedCall | None  # a child reading every input, when there is no last run
    last: LastBuild | None

    @functools.cached_property
    def files(self) -> set[str]:
        """The input files whose bytes changed since the last run (every one without it)."""
        if self.last is None:
            return set(self.stamps)
        old, new = self.last.digests, self.digests
        return {p for p in old.keys() | new.keys() if old.get(p) != new.get(p)}

    @functools.cached_property
    def only_own_files(self) -> bool:
        """Whether a page whose file did not change since the last run is made as it was
        then: there is a last run, and no section's ``_index`` file changed (its cascade
        reaches pages whose file did not)."""
        return self.last is not None and not any(
            os.path.basename(path).startswith("_index.") for path in self.files
        )

    @functools.cached_property
    def pages_as_before(self) -> bool:
        """``only_own_files``, and with them their dates: not with ``enableGitInfo`` (a
        page's dates then come from Git as well as from its file)."""
        return self.only_own_files and not self.config.enable_git_info

    def final_digests(self) -> dict[str, bytes | None]:
        return self.hashing.result() if self.hashing is not None else self.digests


def input_roots(source: Path, config: SiteConfig) -> tuple[list[Path], list[Path]]:
    """The folders and files a run reads: a run with none of them changed has no work."""
    roots = [
        *(root.path for root in content_roots(config)),
        *(d[0] for d in data_dirs(config)),
        *component_folders(config.mounts, "i18n"),
        *template_dirs(source),
        *(m.source for m in static_mounts(config.mounts, theme_dir() / "static")),
        *component_folders(config.mounts, "assets"),
    ]
    roots += [Path(f) for f in config.files if Path(f).is_dir()]
    files = [Path(f) for f in config.files if not Path(f).is_dir()]
    files += [root for root in roots if root.is_file()]  # a mount of one file
    return [root for root in roots if not root.is_file()], files


def content_prefixes(config: SiteConfig) -> tuple[str, ...]:
    """The content folders, as the start of the paths of the files in them."""
    return tuple(f"{root.path}{os.sep}" for root in content_roots(config))


def detect_changes(
    source: Path,
    config: SiteConfig,
    store: DiskStore,
    now: datetime,
    read_cache: bool,
    children: contextlib.ExitStack,
    seen: set[Path] | None = None,
) -> Changes:
    """``seen``: the only paths that may have changed since the last run (a watcher's)."""
    print_ = buildcache.fingerprint(config)
    last = store.last_build(print_) if read_cache else None
    roots, files = input_roots(source, config)
    if last is not None and seen is not None:
        stamps = restamped(last.stamps, seen, roots, files)
    else:
        stamps = buildcache.input_stamps(roots, files)
    hashing = None
    if last is not None:
        digests = buildcache.input_digests(stamps, last)  # only files with another stamp
    else:  # none to compare with: every file is read by a child, on a core the load leaves idle
        digests = {}
        hashing = children.enter_context(ForkedCall(buildcache.input_digests, stamps, None))
    destination = (source / config.destination).resolve()
    return Changes(config, print_, destination, now, stamps, digests, hashing, last)


def restamped(
    stamps: dict, seen: set[Path], roots: list[Path], files: list[Path]
) -> dict[str, tuple[int, int] | None]:
    """The last run's stamps with those of the ``seen`` paths taken again: a file's own, a
    folder's every file (new, moved in), and none for what is gone."""
    fresh = dict(stamps)
    inside = tuple(f"{root}{os.sep}" for root in roots)
    named = {str(f) for f in files} | {str(root) for root in roots}
    for path in seen:
        text = str(path)
        if not text.startswith(inside) and text not in named:
            continue
        under = f"{text}{os.sep}"
        for known in [p for p in fresh if p.startswith(under)]:
            del fresh[known]  # a folder moved or removed; what is there now is walked
        if path.is_dir():
            fresh.update(buildcache.input_stamps([path], []))
        elif os.path.lexists(path):
            fresh.update(buildcache.input_stamps([], [path]))
        else:
            fresh.pop(text, None)
    return fresh


def nothing_changed(
    changes: Changes, store: DiskStore, clean: bool, outside: frozenset[str] = frozenset()
) -> bool:
    """Whether the last run stands: same inputs, same day, no page due, files as published."""
    last = changes.last
    if last is None or last.unfinished or last.digests != changes.digests:
        return False
    if last.day != changes.now.date():
        return False
    if last.next_change is not None and changes.now >= last.next_change:
        return False
    if last.destination != str(changes.destination):
        return False
    if not store.check_published:
        return True
    # With ``clean``, files the last run did not write are there to be removed.
    return buildcache.files_unchanged(changes.destination, last.files, clean, outside)
