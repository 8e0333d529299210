"""Each page's output formats: its front matter ``outputs``, else ``[outputs]`` for its
kind, checked against the site's formats (``formats.py``).

A page rendered in no HTML (``outputs = ["json"]``) has the URL of its first format as
its permalink, as in Hugo.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from ..config import SiteConfig
from ..content.page import Page
from ..errors import SourceError
from ..formats import OWN_FILES, SiteFormats, page_output_format


def assign_outputs(
    config: SiteConfig, pages: list[Page], formats: SiteFormats, warnings: list[SourceError]
) -> list[SourceError]:
    """Set every page's ``outputs`` (format names); return the errors, add the warnings."""
    errors: list[SourceError] = []
    where = config.files[0] if config.files else str(config.source)
    by_kind: dict[str, list[str]] = {}
    for kind, names in config.outputs.items():
        by_kind[kind] = _check(
            names, formats, f"outputs.{kind}", lambda: (where, 0, 0), errors, warnings
        )
    for page in pages:
        if page.outputs:  # from front matter
            place = functools.partial(_front_matter_place, page, "outputs")
            page.outputs = _check(page.outputs, formats, "outputs", place, errors, warnings)
        else:
            page.outputs = list(by_kind.get(page.kind, ["html"]))
        if page.outputs and "html" not in page.outputs:
            first = page_output_format(page, formats.formats[page.outputs[0]], config)
            page.rel_permalink, page.permalink = first.rel_permalink, first.permalink
    return errors


def _check(names, formats: SiteFormats, key: str, place, errors, warnings) -> list[str]:
    """The names of known formats, each once; ``place()`` is where to report the others."""
    kept: list[str] = []
    for name in names:
        if name in formats.formats:
            if name not in kept:
                kept.append(name)
        elif name in OWN_FILES:
            message = f"{key}: {name!r} is a file matome writes by itself; left out"
            warnings.append(SourceError(*place(), message, "warning"))
        else:
            known = ", ".join(sorted(formats.formats))
            errors.append(
                SourceError(*place(), f"{key}: unknown output format {name!r} (known: {known})")
            )
    return kept


def _front_matter_place(page: Page, key: str) -> tuple[str, int, int]:
    return (page.file.site_path, *front_matter_position(page, key))


def front_matter_position(page: Page, key: str) -> tuple[int, int]:
    """Line and column of a front matter key (a regular expression: ``menus?``) in the
    page's file, for a message about its value; (0, 0) when not found."""
    try:
        text = Path(page.file.filename).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return 0, 0
    # `key = `, `key: `, or a TOML table `[key.name]`.
    found = re.search(rf"""^[ \t]*\[?["']?(?:{key})["']?[ \t]*[=:.\]]""", text, re.I | re.M)
    if found is None:
        return 0, 0
    return text.count("\n", 0, found.start()) + 1, 1
