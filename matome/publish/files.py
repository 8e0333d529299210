"""Writing a build's files: only when their bytes change, so deploy tools that compare
modification times or hashes upload only what changed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def holds_bytes(path: Path, data: bytes) -> bool:
    """Whether the file at ``path`` already holds exactly ``data``."""
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except FileNotFoundError:
        return False


def is_copy_of(target: Path, source: Path) -> bool:
    """Whether ``target`` is an earlier copy of ``source`` (same size and mtime, as copy2 keeps)."""
    try:
        existing, stat = target.stat(), source.stat()
    except FileNotFoundError:
        return False
    return existing.st_size == stat.st_size and existing.st_mtime_ns == stat.st_mtime_ns


def write_new(path: Path, data: bytes) -> os.stat_result:
    """Write ``path`` in place, with no check of what is there (a file no one else can see
    yet: in a staging folder that started empty, or a temporary file)."""
    try:
        fd = os.open(path, _NEW_FILE, 0o666)
    except FileNotFoundError:  # the first file of its folder (asking first costs a syscall each)
        try:  # its parent folder is most often there: one mkdir, not makedirs' stat and mkdir
            os.mkdir(path.parent)
        except FileNotFoundError:
            os.makedirs(path.parent, exist_ok=True)
        except FileExistsError:  # another worker made it in between
            pass
        fd = os.open(path, _NEW_FILE, 0o666)
    try:
        with memoryview(data) as view:
            while view:
                view = view[os.write(fd, view) :]
        return os.fstat(fd)
    finally:
        os.close(fd)


_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0)


def write_if_changed(path: Path, data: bytes, published: Path | None = None) -> str:
    """Write ``data`` unless the published file (by default ``path``) holds exactly these
    bytes, so its modification time stays."""
    if holds_bytes(published or path, data):
        return "same"
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    write_new(tmp, data)
    # Replacing (not writing in place) breaks the hard link to the previous build's file.
    os.replace(tmp, path)
    return "new"


def copy_file(source: Path, target: Path, published: Path) -> str:
    if is_copy_of(published, source):
        return "same"
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp{os.getpid()}")
    shutil.copy2(source, tmp)
    os.replace(tmp, target)
    return "new"
