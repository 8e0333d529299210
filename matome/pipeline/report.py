"""What a run did, for the summary ``matome build`` prints and for ``matome serve``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import SourceError


@dataclass
class BuildReport:
    pages: int = 0
    paginator_pages: int = 0
    non_page_files: int = 0
    static_files: int = 0
    aliases: int = 0
    cleaned: int = 0
    unchanged: int = 0
    rendered_content: int = 0  # page bodies rendered
    cached_content: int = 0  # page bodies taken from the build cache
    rendered_outputs: int = 0  # files rendered from templates
    kept_outputs: int = 0  # files the build cache showed would come out the same
    graph_kept: bool = False  # the last run's site graph, articles edited or added
    edited: int = 0  # on a kept graph, the articles whose body changed
    added: int = 0  # on a kept graph, the articles put into it
    search_indexed: int = 0  # articles Pagefind indexed (0: it did not run)
    seconds: float = 0.0
    stages: dict[str, float] = field(default_factory=dict)  # stage -> seconds
    warnings: list[SourceError] = field(default_factory=list)
    destination: Path | None = None
    written: list[str] = field(default_factory=list)  # files whose bytes this run changed
    removed: list[str] = field(default_factory=list)  # files of the last run no longer made
    deferred: list[str] = field(default_factory=list)  # files left to render when asked for
    waiting: list[str] = field(default_factory=list)  # bodies left as they were for now
    changed_pages: list[str] = field(default_factory=list)  # URLs of the pages edited
