"""What the forked workers of a run need, set before they fork so it is inherited, not sent."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from ..content.page import Page
from ..graph.site import Site
from ..incremental.reads import ReadLog
from ..markup.expand import ContentRenderer


@dataclass
class RunContext:
    site: Site
    env: jinja2.Environment
    content: ContentRenderer
    cache_folder: Path  # where rendered bodies are kept (``buildcache.save_fields``)
    staging: Path
    minify: bool
    log: ReadLog = field(default_factory=ReadLog)
    # Where the last run's files are, to compare with; None: in the staging folder itself.
    published: Path | None = None
    # Nothing is published yet: the staging folder starts empty and every file is new.
    empty_staging: bool = False
    # Pages whose rendered fields the output being written loaded from the cache.
    loaded: list[Page] = field(default_factory=list)
    # The reads numbered in the cache index when the workers forked (``ReadNumbers.ids``):
    # a worker numbers those itself and sends only the others.
    read_numbers: dict = field(default_factory=dict)


# The run in progress (a worker's copy, in a worker); None between runs.
CURRENT: RunContext | None = None
