"""A page's four dates, from the sources ``[frontmatter]`` lists for each, as Hugo takes them.

Each of ``date``, ``lastmod``, ``publishDate`` and ``expiryDate`` is the first source in
its list that gives a date: a front matter key (``pubdate``, ``modified``...), or
``:filename`` (a name that starts with ``2024-03-05``, which also gives the slug),
``:fileModTime`` (the file's modification time), ``:git`` (the last commit's author date,
with ``enableGitInfo``) and ``:default`` (Hugo's list for that date). A ``lastmod`` or
``publishDate`` that no source gives is the page's ``date``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .dates import parse_date
from .gitinfo import GitInfo

DATE_FIELDS = ("date", "lastmod", "publishdate", "expirydate")
DEFAULT_SOURCES: dict[str, tuple[str, ...]] = {
    "date": ("date", "publishdate", "pubdate", "published", "lastmod", "modified"),
    "lastmod": (":git", "lastmod", "modified", "date", "publishdate", "pubdate", "published"),
    "publishdate": ("publishdate", "pubdate", "published", "date"),
    "expirydate": ("expirydate", "unpublishdate"),
}


def date_sources(table: dict) -> dict[str, tuple[str, ...]]:
    """The ``[frontmatter]`` config as lower-case source lists, ``:default`` expanded."""
    sources = dict(DEFAULT_SOURCES)
    for key, value in table.items():
        field = str(key).lower()
        if field not in sources:
            continue
        listed = [value] if isinstance(value, str) else list(value or [])
        expanded: list[str] = []
        for source in (str(s).lower() for s in listed):
            expanded += DEFAULT_SOURCES[field] if source == ":default" else [source]
        sources[field] = tuple(expanded)
    return sources


@dataclass
class PageDates:
    date: datetime | None
    lastmod: datetime | None
    publishdate: datetime | None
    expirydate: datetime | None
    slug: str  # from a dated file name, when ``:filename`` gave the date


def resolve_dates(
    sources: dict[str, tuple[str, ...]],
    front: Callable[[str], datetime | None],
    path: Path,
    name: str,
    zone,
    git: GitInfo | None,
) -> PageDates:
    """``front(key)`` is a front matter date (None when not set; it raises for one that is
    not a date); ``name`` is the file's name without extension, or a bundle's folder."""
    slug = ""

    def from_source(source: str) -> datetime | None:
        nonlocal slug
        if source == ":filename":
            found, rest = filename_date(name, zone)
            if found is not None:
                slug = slug or rest
            return found
        if source == ":filemodtime":
            try:
                return datetime.fromtimestamp(path.stat().st_mtime).astimezone()
            except (OSError, OverflowError, ValueError):
                return None
        if source == ":git":
            return git.author_date if git is not None else None
        return front(source)

    found: dict[str, datetime | None] = {}
    for field in DATE_FIELDS:
        found[field] = next(
            (d for d in (from_source(s) for s in sources[field]) if d is not None), None
        )
    return PageDates(**found, slug=slug)


def filename_date(name: str, zone) -> tuple[datetime | None, str]:
    """Hugo's date and slug from a name such as ``2024-03-05-my-post``: the first ten
    characters as a date, the rest trimmed of spaces, hyphens and underscores."""
    if len(name) < 10:
        return None, ""
    try:
        found = parse_date(name[:10], zone)
    except ValueError:
        return None, ""
    return found, name[10:].strip(" -_")
