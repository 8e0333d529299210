"""Watching a site's sources for ``matome serve``: watchdog events, debounced into one batch.

Editors save in bursts: a temporary file written then renamed over the
original (atomic save), a backup copy, vim's ``4913`` probe, several writes
in a row. Each event only adds its path to a pending set; the callback runs
once the events have been quiet for ``quiet`` seconds, so one save is one
rebuild. When every pending file is whole (closed after writing, or renamed
into place), the batch waits only ``settled`` seconds: nothing of that save is
still to come. A file moved away or deleted may be an editor's backup step,
so it waits the full ``quiet``. Reading a file (which the build itself does)
is never a change.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

_INOTIFY_LOG = logging.getLogger("watchdog.observers.inotify")
# Only these change what a build reads; opened/closed-without-write/attrib events
# come from reading (the build's own reads included) or from touch/chmod.
CHANGE_EVENTS = frozenset({"created", "modified", "deleted", "moved", "closed"})
_TEMP_SUFFIXES = (
    "~",
    ".swp",
    ".swx",
    ".swo",
    ".tmp",
    ".crswap",
    ".kate-swp",
    "___jb_tmp___",
    "___jb_old___",
)


def is_editor_temp(name: str) -> bool:
    """Files editors and tools write beside the real one; never a change to the site."""
    return (
        name.startswith((".", "#"))
        or name.endswith(_TEMP_SUFFIXES)
        or name.isdigit()  # vim writes 4913 (5036, ...) to probe that the folder is writable
        or name in ("Thumbs.db", "desktop.ini")
    )


class _Collector(FileSystemEventHandler):
    def __init__(self, on_path: Callable[[Path, bool], None], on_new_dir: Callable[[Path], None]):
        self._on_path = on_path
        self._on_new_dir = on_new_dir

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type not in CHANGE_EVENTS:
            return
        if event.is_directory and event.event_type == "modified":
            return  # a file inside changed; that file has its own event
        # Each path, and whether it is whole now: closed after writing, or the file a
        # rename put in place.
        whole = event.event_type == "closed"
        paths = [(event.src_path, whole)]
        if event.event_type == "moved":
            paths.append((event.dest_path, not event.is_directory))
        for raw, done in paths:
            path = Path(os.fsdecode(raw))
            if is_editor_temp(path.name):
                continue
            if event.is_directory and event.event_type in ("created", "moved"):
                self._on_new_dir(path)
            self._on_path(path, done)


class Watcher:
    """Watches folders and calls ``callback(paths)`` once per burst of changes, in its own thread.

    ``recursive`` folders are watched with everything below them; ``flat``
    folders only for their own files (the site folder, for its config file).
    A folder listed in ``late`` that does not exist yet is watched as soon as
    it is created inside a flat folder.
    """

    def __init__(
        self,
        callback: Callable[[set[Path]], None],
        *,
        recursive: Iterable[Path],
        flat: Iterable[Path] = (),
        late: Iterable[Path] = (),
        quiet: float = 0.03,
        settled: float = 0.015,
        longest: float = 2.0,
    ):
        self._callback = callback
        self._quiet = quiet
        self._settled = settled
        self._unfinished: set[Path] = set()  # pending paths not whole yet
        self._longest = longest
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._pending: set[Path] = set()
        self._first = self._last = 0.0
        self._stopped = False
        self._late = {p.resolve() for p in late}
        self._watched: set[Path] = set()
        self._handler = _Collector(self._add, self._new_dir)
        self._observer = Observer()
        for path in dict.fromkeys(p.resolve() for p in recursive):
            self._watch(path, True)
        for path in dict.fromkeys(p.resolve() for p in flat):
            self._watch(path, False)
        self._thread = threading.Thread(target=self._run, name="matome-watch", daemon=True)

    def _watch(self, path: Path, recursive: bool) -> None:
        if path.is_dir() and path not in self._watched:
            self._observer.schedule(self._handler, str(path), recursive=recursive)
            self._watched.add(path)

    def _new_dir(self, path: Path) -> None:
        if path in self._late:
            self._watch(path, True)

    def _add(self, path: Path, whole: bool) -> None:
        now = time.monotonic()
        with self._lock:
            if not self._pending:
                self._first = now
            self._pending.add(path)
            if whole:
                self._unfinished.discard(path)
            else:
                self._unfinished.add(path)
            self._last = now
        self._wake.set()

    def start(self) -> Watcher:
        self._observer.start()
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopped = True
        self._wake.set()
        # watchdog's inotify thread may still ask for events once its handle is closed, and
        # logs that as an error to the terminal: nothing is lost, serve is stopping.
        _INOTIFY_LOG.disabled = True
        try:
            self._observer.stop()
            self._observer.join(timeout=5)
        finally:
            _INOTIFY_LOG.disabled = False
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stopped:
            self._wake.wait()
            self._wake.clear()
            batch: set[Path] = set()  # none when stopped meanwhile
            while not self._stopped:
                with self._lock:
                    now = time.monotonic()
                    quiet_for = now - self._last
                    waited = now - self._first
                    quiet = self._quiet if self._unfinished else self._settled
                    if self._pending and (quiet_for >= quiet or waited >= self._longest):
                        batch, self._pending = self._pending, set()
                        self._unfinished = set()
                        break
                    if not self._pending:
                        break
                # Woken by the next event: it may make the batch whole.
                self._wake.wait(max(0.002, min(quiet - quiet_for, self._longest - waited)))
                self._wake.clear()
            if batch and not self._stopped:
                self._callback(batch)
