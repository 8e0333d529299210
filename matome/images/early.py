"""The thumbnail encoder of a full build, started while the content is being read.

Reading the content and linking the site graph keep one core busy for the first
second of a cold build of the real blog, and the other mostly idle. So the loader
tells this encoder each article's feature image as soon as it has read the
article, and a child at the lowest priority encodes the images meanwhile.

What the child gets is a guess made before the graph exists (a section's cascade
is not applied yet). ``plan_thumbnails`` on the finished graph still decides what
is made and shown: what it wants and the child was given is left to the child,
the rest is encoded as before, and what the child could not make is encoded
again at the end, with a warning if it fails again.
"""

from __future__ import annotations

from pathlib import Path

from ..config import SiteConfig
from ..content.page import Page
from ..errors import SourceError
from ..parallel import ForkedCall, fork_context
from .thumbnails import (
    PAGE_SIZES,
    Encoding,
    encode_as_found,
    encode_thumbnails,
    imaging_settings,
    is_finished,
    loaded_feature_source,
    remove_unfinished,
    site_assets,
    site_image_files,
    thumbnail_cache,
)


class EarlyThumbnails:
    """Feeds the encoder child; a context manager that stops it if the build fails."""

    def __init__(self, config: SiteConfig, jobs: int):
        self._config, self._jobs = config, jobs
        self._assets = site_assets(config)
        self._given: dict[Path, set[tuple[int, str]]] = {}
        self._child: ForkedCall | None = None  # started with the first image
        self._send = None
        self._finished = False
        for path, sizes in site_image_files(config.params, self._assets):
            self._give(path, sizes)

    def page_read(self, page: Page) -> None:
        if page.kind == "page":  # the theme shows images of articles only
            found = loaded_feature_source(page, self._config.params, self._assets)
            if isinstance(found, Path):
                self._give(found, PAGE_SIZES)

    def _give(self, src: Path, sizes: tuple) -> None:
        given = self._given.setdefault(src, set())
        new = set(sizes) - given
        if not new:
            return
        given |= new
        if self._child is None:
            found, self._send = fork_context().Pipe(duplex=False)
            imaging, _ = imaging_settings(self._config)  # the plan warns about a bad setting
            cache = thumbnail_cache(self._config)
            self._child = ForkedCall(encode_as_found, found, cache, imaging, self._jobs, nice=19)
            found.close()
        self._send.send((src, sorted(new)))

    def all_read(self) -> None:
        """No more images: the child ends when it has made those it got."""
        if self._send is not None:
            self._send.send(None)
            self._send.close()

    def split(self, pending: list[Encoding]) -> tuple[list[Encoding], list[Encoding]]:
        """``pending`` (from ``plan_thumbnails``) as what the child is making and the rest."""
        mine, rest = [], []
        for job in pending:
            (mine if set(job.targets) <= self._given.get(job.src, set()) else rest).append(job)
        return mine, rest

    def finish(self, mine: list[Encoding]) -> list[SourceError]:
        """Wait for the child; encode here what it was to make and did not."""
        if self._child is not None:
            self._child.result()
            self._finished = True
        return encode_thumbnails([job for job in mine if not is_finished(job)], self._jobs)

    def stop(self) -> None:
        """End the child now (the build failed, or it shows no thumbnails)."""
        if self._child is not None and not self._finished:
            self._child.stop()
            remove_unfinished(thumbnail_cache(self._config), self._child.pid)
            self._finished = True

    def __enter__(self) -> EarlyThumbnails:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
        if self._child is not None:
            self._child.__exit__(*exc)
            self._send.close()
