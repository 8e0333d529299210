"""Work in forked children: one call (``ForkedCall``), or a pool of workers over chunks
of a list (``map_chunks``).

Both fork, so a child starts with everything the build has set up (the site graph, the
templates) without it being sent, and both end with the build when it is killed.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from .progress import Progress

FORKS = sys.platform != "win32"  # elsewhere a ForkedCall runs in the caller, and pools are not used


class ForkedCall:
    """``func(*args)`` in a forked child, its result read back through a pipe.

    Unlike an executor, it starts no thread in this process, so the worker pools forked
    after it are safe. As a context manager, the child is stopped if its result was not
    collected (the build failed)."""

    def __init__(self, func, *args, nice: int = 0):
        self._done = False
        if not FORKS:  # done here and now, as the worker pools' work is
            self._value, self._child, self._done = func(*args), None, True
            return
        context = fork_context()
        self._results, sender = context.Pipe(duplex=False)
        self._child = context.Process(
            target=_call_in_child, args=(sender, os.getpid(), nice, func, args), daemon=True
        )
        self._child.start()
        sender.close()

    def result(self) -> Any:
        if self._child is None:
            return self._value
        try:
            ok, value = self._results.recv()
        except EOFError:
            raise RuntimeError(f"a build worker ended with code {self._child.exitcode}") from None
        finally:
            self._child.join()
            self._done = True
        if not ok:
            raise value
        return value

    @property
    def pid(self) -> int | None:
        return self._child.pid if self._child is not None else None

    def stop(self) -> None:
        """End the child now; its result is not wanted."""
        if self._child is not None and not self._done:
            self._child.kill()
            self._child.join()
            self._done = True

    def __enter__(self) -> ForkedCall:
        return self

    def __exit__(self, *exc) -> None:
        if self._child is None:
            return
        self.stop()
        self._results.close()


def _call_in_child(sender, parent: int, nice: int, func, args) -> None:
    _end_with_parent(parent)
    os.nice(nice)
    try:
        sender.send((True, func(*args)))
    except BaseException as e:
        sender.send((False, e))


def fork_context():
    # Imported when first used: a build that forks nothing (one article edited) starts
    # sooner without multiprocessing and concurrent.futures.process.
    from multiprocessing import get_context

    return get_context("fork")


def fork_pool(workers: int) -> ProcessPoolExecutor:
    """Workers forked from this process (they inherit what is set up), ending with it."""
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(
        workers,
        mp_context=fork_context(),
        initializer=_end_with_parent,
        initargs=(os.getpid(),),
    )


def _end_with_parent(parent: int) -> None:
    """Run in each worker: when the build is killed (SIGKILL leaves it no time to stop its
    pool), its workers, waiting for work that will not come, get SIGTERM (Linux)."""
    if sys.platform != "linux":
        return
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
    if os.getppid() != parent:  # it died before the call
        os._exit(1)


# Below this many items, forking costs more than it saves.
PARALLEL_THRESHOLD = 64


def map_chunks(func, items: list, workers: int, progress: Progress, label: str) -> Iterator:
    """Run ``func`` over chunks of ``items`` in forked workers (in-process when small);
    yield the rows it returns, each chunk's as soon as it is done, in order."""
    if not items:
        return
    chunks = shrinking_chunks(items, workers)
    task = progress.task(label, len(items))
    if workers <= 1 or len(items) < PARALLEL_THRESHOLD or not FORKS:
        for part in chunks:
            yield from task.done(len(part), func(part))
        return
    # The workers share the parent's memory until they write to it; a collection of the
    # cyclic garbage collector writes to every object it visits, so what exists is frozen.
    gc.freeze()
    try:
        with fork_pool(workers) as pool:
            for part, rows in zip(chunks, pool.map(func, chunks), strict=True):
                yield from task.done(len(part), rows)
    finally:
        gc.unfreeze()


def shrinking_chunks(items: list, workers: int) -> list[list]:
    """Large chunks first (fewer results to send), ever smaller ones at the end, so that
    the workers finish together instead of one waiting on the other's last chunk."""
    chunks, start = [], 0
    while start < len(items):
        size = max(8, (len(items) - start) // (workers * 4))
        chunks.append(items[start : start + size])
        start += size
    return chunks
