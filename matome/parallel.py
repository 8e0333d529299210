"""Work in forked children: one call (``ForkedCall``) or a pool of workers (``fork_pool``).

Both fork, so a child starts with everything the build has set up (the site graph, the
templates) without it being sent, and both end with the build when it is killed.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

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
    # 15 ms sooner without multiprocessing and concurrent.futures.process.
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
