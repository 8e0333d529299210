"""Hugo's default page order, used by every list of the graph."""

from __future__ import annotations

from ..content.page import Page


def sort_key(page: Page):
    """Hugo's default order: weight (unset last), newest first, link title, then path."""
    weight = page.weight if page.weight else float("inf")
    return (
        weight,
        -page.date.timestamp(),
        page.name.lower(),
        page.file.path if page.file else page.out_path,
    )


def sort_pages(pages: list[Page]) -> list[Page]:
    return sorted(pages, key=sort_key)
