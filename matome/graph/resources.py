"""A bundle's files as page resources, and aliases in Hugo's form."""

from __future__ import annotations

from pathlib import Path

from ..config import SiteConfig
from ..content.globs import glob_regex
from ..content.page import Page, Resource, Resources, media_type
from ..content.urls import escape_url_path


def resource_order(names: list[str]) -> list[str]:
    """A bundle's files in the order of ``page.resources``: by main media type (application,
    image, text, ...), then by path, as Hugo lists them."""
    return sorted(names, key=lambda n: (media_type(n).split("/")[0], n))


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
                rel_permalink=config.rel_base_path + rel,
                permalink=config.base_url.rstrip("/") + rel,
                out_path=out_path,
                title=name,
            )
        )
    metadata = _resources_metadata(page.params)
    if metadata:
        _apply_metadata(out, metadata)
        out.sort(key=lambda r: r.name)  # Hugo lists renamed resources by their new names
    return out


def _resources_metadata(params: dict) -> list[dict]:
    value = next((v for k, v in params.items() if str(k).lower() == "resources"), None)
    if isinstance(value, dict):
        value = [value]
    return [e for e in value if isinstance(e, dict)] if isinstance(value, list) else []


def _apply_metadata(resources: list[Resource], entries: list[dict]) -> None:
    """Front matter ``[[resources]]``: each entry's ``src`` glob (any case) picks files; the
    first entry that matches a file names and titles it (``:counter`` counts that entry's
    matches), and the params of every matching entry are merged, later ones winning."""
    entries = [{str(k).lower(): v for k, v in e.items()} for e in entries]
    patterns = [glob_regex(str(e.get("src") or "").lower()) for e in entries]
    counters = [0] * len(entries)
    for res in resources:
        path = res.name.lower()
        name = title = None
        for i, entry in enumerate(entries):
            if not entry.get("src") or not patterns[i].match(path):
                continue
            counters[i] += 1
            counter = str(counters[i])
            if name is None and entry.get("name") is not None:
                name = str(entry["name"]).replace(":counter", counter)
            if title is None and entry.get("title") is not None:
                title = str(entry["title"]).replace(":counter", counter)
            if isinstance(entry.get("params"), dict):
                res.params.update({str(k).lower(): v for k, v in entry["params"].items()})
        res.name = name if name is not None else res.name
        res.title = title if title is not None else res.title


def normalize_alias(alias: str, page: Page, prefix: str = "") -> str:
    """Hugo's form: absolute, no trailing slash; a relative alias sits beside the page, an
    absolute one goes under the page's language folder (``prefix``, "/fr")."""
    if not alias.startswith("/"):
        folder = page.out_path.rsplit("/", 2)[0] if page.out_path.count("/") >= 2 else ""
        alias = f"/{folder}/{alias}" if folder else f"/{alias}"
    elif prefix:
        alias = prefix + alias
    return alias.rstrip("/") or "/"
