"""``matome build``: one run of the pipeline (``pipeline/``), its state kept on disk in
``<site>/.matome-cache/`` so that the next build redoes only what changed."""

from __future__ import annotations

from pathlib import Path

from .config import Flags
from .incremental.buildcache import cache_folder
from .pipeline import Options, run
from .pipeline.report import BuildReport
from .pipeline.state import DiskStore
from .progress import Progress

__all__ = ["BuildReport", "build"]


def build(
    source: Path,
    flags: Flags,
    *,
    jobs: int | None = None,
    clean: bool = False,
    read_cache: bool = True,
    progress: Progress | None = None,
    strict: bool = False,
) -> BuildReport:
    """Build the site at ``source``; raise BuildFailed (nothing published) on any error.
    ``strict``: a name a template reads that does not exist is an error, not a warning."""
    store = DiskStore(cache_folder(Path(source).resolve()))
    options = Options(jobs=jobs, clean=clean, read_cache=read_cache, strict=strict)
    return run(source, flags, store, options, progress)
