"""The search index while ``matome serve`` runs: made again after each rebuild, in the
background, so the first page is served before the whole site is indexed and an edit
is shown at once (its search results follow a moment later)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from . import indexed_message
from .bundles import SearchPage, update_index
from .service import PagefindError

PAUSE = 0.2  # seconds between a run and its index


class LiveSearch:
    """Indexes ``root`` (the served folder), one update at a time; asked again while one
    runs, it runs once more afterwards with the articles as they are then."""

    def __init__(self, root: Path, state: Path, workers: int):
        self.root = root
        self.state = state  # the index's state, kept with serve's own between sessions
        self.workers = workers
        self.wanted: Callable[[], list[SearchPage]] | None = None
        self.busy = False
        self.lock = threading.Lock()

    def refresh(self, pages: Callable[[], list[SearchPage]]) -> None:
        """Index the articles ``pages()`` lists (called in the index's own thread)."""
        with self.lock:
            self.wanted = pages
            if not self.busy:
                self.busy = True
                threading.Thread(target=self._run, name="search index", daemon=True).start()

    def _run(self) -> None:
        # The browser fetches the page it was told to reload first: listing the articles
        # would hold the interpreter the server's threads need meanwhile.
        time.sleep(PAUSE)
        while True:
            with self.lock:
                pages, self.wanted = self.wanted, None
                if pages is None:
                    self.busy = False
                    return
            staging = None
            try:
                # Beside the served folder: its files are moved in, not copied.
                staging = Path(tempfile.mkdtemp(prefix="search-", dir=self.root.parent))
                listed = pages()
                update = update_index(listed, staging, self.root, self.state, self.workers)
                _move_into(staging, self.root)
                update.publish(self.root)
                if update.indexed:  # the author knows when search finds what they wrote
                    print(indexed_message(update.indexed), flush=True)
            # (OSError: the served folder is gone, serve is stopping, or the disk is full.)
            except (PagefindError, OSError) as e:
                print(f"params.enableSearch:0:0: error: {e}", file=sys.stderr, flush=True)
            except Exception as e:  # the next run's refresh tries again; this thread goes on
                message = f"the search index was not made: {type(e).__name__}: {e}"
                print(f"params.enableSearch:0:0: error: {message}", file=sys.stderr, flush=True)
            finally:
                if staging is not None:
                    shutil.rmtree(staging, ignore_errors=True)


def _move_into(staging: Path, root: Path) -> None:
    """Each new file into the served folder (the manifest, which lists the bundles,
    after the bundles it lists)."""
    moves = []
    for folder, _, names in os.walk(staging):
        target = root / os.path.relpath(folder, staging)
        for name in names:
            moves.append((Path(folder) / name, target / name))
    moves.sort(key=lambda move: move[1].parent == root / "pagefind")
    for source, target in moves:
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(source, target)
