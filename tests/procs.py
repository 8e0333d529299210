"""The running processes, read from /proc (Linux), for tests that check none is left."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path


def proc_files(name: str) -> Iterator[tuple[int, bytes]]:
    """Each process's ``/proc/<pid>/<name>``, with its pid; a process that ends meanwhile
    is skipped."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            yield int(entry.name), (entry / name).read_bytes()
        except OSError:
            continue
