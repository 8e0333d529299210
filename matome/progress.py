"""Progress bars for long builds on a terminal (rich); nothing at all elsewhere (CI logs)."""

from __future__ import annotations

from typing import Any

# Below this many items a stage is over before a bar is worth drawing.
SHOWN_FROM = 200


class Task:
    """One stage's bar; ``done`` advances it and hands the finished rows on."""

    def __init__(self, bars: Any = None, task_id: Any = None):
        self.bars, self.task_id = bars, task_id

    def done(self, count: int, rows: list) -> list:
        if self.bars is not None:
            self.bars.advance(self.task_id, count)
        return rows


class Progress:
    """``with Progress(enabled=sys.stdout.isatty()) as progress: build(..., progress=progress)``."""

    def __init__(self, enabled: bool = False):
        self.bars = None
        if enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as Bars

            self.bars = Bars(
                TextColumn("{task.description:<18}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                transient=True,  # the summary replaces the bars when the build ends
            )

    def __enter__(self) -> Progress:
        if self.bars is not None:
            self.bars.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bars is not None:
            self.bars.stop()

    def task(self, label: str, total: int) -> Task:
        if self.bars is None or total < SHOWN_FROM:
            return Task()
        return Task(self.bars, self.bars.add_task(label, total=total))
