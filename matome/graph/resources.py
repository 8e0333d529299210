"""A bundle's files as page resources, and aliases in Hugo's form."""

from __future__ import annotations

from pathlib import Path

from ..config import SiteConfig
from ..content.page import Page, Resource, Resources
from ..content.urls import escape_url_path


def resource_order(names: list[str]) -> list[str]:
    """A bundle's files in the order of ``page.resources``."""
    return sorted(names, key=lambda n: (not _is_image(n), n.count("/") == 0, n))


def page_resources(page: Page, config: SiteConfig) -> Resources:
    base_dir = page.out_path.rsplit("/", 1)[0] if "/" in page.out_path else ""
    names = resource_order(page.resource_names)
    src_dir = page.file.filename.rsplit("/", 1)[0]
    out = Resources()
    for name in names:
        out_path = f"{base_dir}/{name}" if base_dir else name
        rel = escape_url_path("/" + out_path)
        out.append(
            Resource(
                name=name,
                source=Path(src_dir, name),
                rel_permalink=config.base_path + rel,
                permalink=config.base_url.rstrip("/") + rel,
                out_path=out_path,
            )
        )
    return out


def normalize_alias(alias: str, page: Page) -> str:
    """Hugo's form: absolute, no trailing slash; a relative alias sits beside the page."""
    if not alias.startswith("/"):
        folder = page.out_path.rsplit("/", 2)[0] if page.out_path.count("/") >= 2 else ""
        alias = f"/{folder}/{alias}" if folder else f"/{alias}"
    return alias.rstrip("/") or "/"


def _is_image(name: str) -> bool:
    return name.lower().endswith((".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".avif"))
