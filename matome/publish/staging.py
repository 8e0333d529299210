"""The staging folder a build writes into and how it reaches the destination: moved in
file by file, or swapped in whole, only once the whole build has succeeded, so a failed
or interrupted build leaves the published site as it was."""

from __future__ import annotations

import itertools
import os
import shutil
import threading
from pathlib import Path

_EMPTIED = itertools.count()  # names the emptied staging folders of this process
_REMOVING: list[threading.Thread] = []  # their removals still running


def make_staging(destination: Path, sparse: bool) -> Path:
    """A fresh folder beside the destination: empty when ``sparse``, else pre-filled with
    hard links to the last build."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(destination)
    staging = destination.with_name(f".{destination.name}.staging-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    if destination.is_dir() and not sparse:
        shutil.copytree(destination, staging, copy_function=_link_or_copy, symlinks=True)
    else:
        staging.mkdir()
    return staging


def _remove_leftovers(destination: Path) -> None:
    """Staging folders of builds that were killed (their process is gone) are garbage."""
    for path in destination.parent.glob(f".{destination.name}.*-*"):
        kind, _, pid = path.name.rpartition("-")
        if not kind.endswith((".staging", ".old")) or not pid.isdigit() or process_alive(int(pid)):
            continue
        shutil.rmtree(path, ignore_errors=True)


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def clean_stale(staging: Path, written: set[str], outside: frozenset[str] = frozenset()) -> int:
    """``--cleanDestinationDir``: remove what the new build did not write (but what is in
    the top-level folders ``outside``, which another writer keeps)."""
    removed = 0
    for path in sorted(staging.rglob("*"), reverse=True):
        rel = path.relative_to(staging).as_posix()
        if rel.split("/", 1)[0] in outside:
            continue
        if path.is_file() or path.is_symlink():
            if rel not in written:
                path.unlink()
                removed += 1
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return removed


def move_in(staging: Path, destination: Path) -> None:
    """Each file of a sparse staging folder replaces its published copy (atomically, one by one)."""
    for folder, _, names in os.walk(staging):
        rel = os.path.relpath(folder, staging)
        target_dir = destination if rel == "." else destination / rel
        if names:
            target_dir.mkdir(parents=True, exist_ok=True)
        for name in names:
            os.replace(os.path.join(folder, name), target_dir / name)
    # Only empty folders are left: removing them is slow on some file systems and holds
    # up nothing, so it goes on while the caller reports the build (``finish_removals``
    # waits for it before the process ends).
    emptied = destination.with_name(f".{destination.name}.{next(_EMPTIED)}.old-{os.getpid()}")
    os.rename(staging, emptied)
    _REMOVING[:] = [t for t in _REMOVING if t.is_alive()]
    removal = threading.Thread(target=shutil.rmtree, args=(emptied, True), name="matome-emptied")
    removal.start()
    _REMOVING.append(removal)


def finish_removals() -> None:
    """Wait for the emptied staging folders to be removed."""
    for removal in _REMOVING:
        removal.join()


def swap_in(staging: Path, destination: Path) -> None:
    old = destination.with_name(f".{destination.name}.old-{os.getpid()}")
    if destination.exists():
        os.rename(destination, old)
    os.rename(staging, destination)
    shutil.rmtree(old, ignore_errors=True)
