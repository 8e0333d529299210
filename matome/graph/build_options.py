"""Hugo's build options of a page: front matter ``build`` (or ``headless``), also given
through ``cascade``.

- ``render``: ``always``; ``never`` (no file, no URL: ``permalink`` is empty); ``link`` (no
  file, but a URL, for a page listed elsewhere).
- ``list``: ``always``; ``never`` (in no list: not its section's, not the site's, no
  taxonomy's); ``local`` (in its section's lists only, not in ``site.regular_pages``).
- ``publishResources``: whether its bundle's files are copied (see docs/content/content.md).

``headless = true`` is ``render = "never"`` and ``list = "never"``. A page that is never
rendered is in no taxonomy either, as in Hugo.
"""

from __future__ import annotations

from ..content.coerce import to_bool
from ..content.page import Page
from ..errors import SourceError

RENDER = ("always", "never", "link")
LIST = ("always", "never", "local")


def apply_build_options(page: Page, warnings: list[SourceError]) -> None:
    """Set ``page.render``, ``page.list_mode`` and ``page.publish_resources`` from its params."""
    params = {str(k).lower(): (k, v) for k, v in page.params.items()}
    display = page.file.site_path if page.file else page.kind
    headless = params.get("headless", (None, False))[1]
    if headless is not None and to_bool(headless)[0]:
        page.render, page.list_mode = "never", "never"
    options = params.get("build", (None, None))[1]
    if options is None:
        return
    if not isinstance(options, dict):
        warnings.append(
            SourceError(
                display, 1, 1, f"build: expected a table, got {options!r}: ignored", "warning"
            )
        )
        return
    for key, value in options.items():
        name = str(key).lower()
        if name == "render":
            page.render = _choice(value, RENDER, "build.render", display, warnings, page.render)
        elif name == "list":
            page.list_mode = _choice(value, LIST, "build.list", display, warnings, page.list_mode)
        elif name == "publishresources":
            page.publish_resources = to_bool(value)[0]


def _choice(
    value, allowed: tuple[str, ...], key: str, display: str, warnings: list, current: str
) -> str:
    # Hugo's older booleans: true is the first choice, false "never".
    if isinstance(value, bool):
        return allowed[0] if value else "never"
    text = str(value).lower()
    if text in allowed:
        return text
    warnings.append(
        SourceError(
            display,
            1,
            1,
            f"{key}: {value!r} is not one of {', '.join(allowed)}: ignored",
            "warning",
        )
    )
    return current
