"""Walking ``content/``: each Markdown file becomes a Page, nothing is rendered.

Hugo's rules: a folder with ``index.md`` is a leaf bundle (every other file
below it is a resource of that page); a folder with ``_index.md`` is a branch
bundle (a section, or the home page at the root); top-level folders are
sections even without ``_index.md``; deeper folders without one are plain
folders whose pages keep their path.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..config import SiteConfig
from ..errors import SourceError
from .dates import parse_date, site_zone
from .frontmatter import FrontMatter, split_front_matter
from .page import ZERO_DATE, FileInfo, Page
from .urls import clean_url, escape_url_path, output_path_for, sanitize_path, urlize
from .words import has_cjk

CONTENT_EXTS = (".md", ".markdown")
# Files editors and systems leave behind; never content, never resources.
_IGNORED_NAMES = {".DS_Store", "Thumbs.db"}
MAX_CONTENT_BYTES = 64 * 1024 * 1024


@dataclass
class LoadResult:
    pages: list[Page] = field(default_factory=list)  # regular pages and branch-bundle pages
    static_files: list[tuple[Path, str]] = field(default_factory=list)  # content files copied as-is
    errors: list[SourceError] = field(default_factory=list)
    warnings: list[SourceError] = field(default_factory=list)
    skipped: int = 0  # drafts, future and expired pages left out
    # The first moment after the load at which a future page is due or a page expires.
    next_change: datetime | None = None


def _is_ignored(name: str) -> bool:
    return (
        name in _IGNORED_NAMES or name.startswith(".") or name.endswith("~") or name.startswith("#")
    )


def load_content(
    config: SiteConfig, now: datetime, on_page: Callable[[Page], None] | None = None
) -> LoadResult:
    """Read every content file under ``<source>/content``; ``on_page`` is told of each
    page kept as soon as it is read."""
    root = config.source / str(config.get("contentDir") or "content")
    result = LoadResult()
    if not root.is_dir():
        return result
    try:
        zone = site_zone(config.time_zone)
    except ValueError as e:
        where = config.files[0] if config.files else str(config.source)
        result.errors.append(SourceError(where, 0, 0, f"{e}: use an IANA name such as Asia/Tokyo"))
        return result
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not _is_ignored(d))
        directory = Path(dirpath)
        rel_dir = directory.relative_to(root).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir
        names = sorted(
            n
            for n in filenames
            if not _is_ignored(n) and _stays_inside(directory / n, root, result)
        )
        leaf = next((n for n in names if _stem(n) == "index" and n.endswith(CONTENT_EXTS)), None)
        if leaf:
            resources = [
                r for r in _walk_files(directory) if _stays_inside(directory / r, root, result)
            ]
            resources.remove(leaf)
            _load_file(config, zone, now, root, rel_dir, leaf, resources, result, on_page)
            dirnames[:] = []  # everything below a leaf bundle belongs to it
            continue
        branch = next((n for n in names if _stem(n) == "_index" and n.endswith(CONTENT_EXTS)), None)
        for name in names:
            if name.endswith(CONTENT_EXTS):
                resources = (
                    [n for n in names if not n.endswith(CONTENT_EXTS)] if name == branch else []
                )
                _load_file(config, zone, now, root, rel_dir, name, resources, result, on_page)
            elif not branch:
                rel = f"{rel_dir}/{name}" if rel_dir else name
                result.static_files.append((directory / name, rel))
    return result


def _stays_inside(path: Path, root: Path, result: LoadResult) -> bool:
    """A symbolic link that leads out of ``content/`` is not followed (and said so)."""
    if not path.is_symlink():
        return True
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        rel = path.relative_to(root).as_posix()
        result.warnings.append(
            SourceError(
                f"content/{rel}",
                0,
                0,
                "symbolic link leads out of content/: not followed",
                "warning",
            )
        )
        return False
    return True


def _stem(name: str) -> str:
    return name.rsplit(".", 1)[0]


def _walk_files(directory: Path) -> list[str]:
    """All files below a bundle folder, as paths relative to it."""
    found = []
    for dirpath, dirnames, filenames in os.walk(directory, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not _is_ignored(d))
        rel = Path(dirpath).relative_to(directory).as_posix()
        for name in sorted(filenames):
            if not _is_ignored(name):
                found.append(name if rel == "." else f"{rel}/{name}")
    return found


def read_text(path: Path, rel: str) -> str:
    size = path.stat().st_size
    if size > MAX_CONTENT_BYTES:
        raise SourceError(
            rel,
            0,
            0,
            f"file is {size // 2**20} MiB, over the {MAX_CONTENT_BYTES // 2**20} MiB limit for a content file",
        )
    data = path.read_bytes()
    if b"\x00" in data[:8192]:
        raise SourceError(
            rel,
            0,
            0,
            "binary file in content/: move it next to an index.md (a bundle resource) or into static/",
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise SourceError(
            rel, line, col, f"not valid UTF-8 (byte 0x{data[e.start]:02x}): save the file as UTF-8"
        ) from e


def _load_file(
    config: SiteConfig,
    zone,
    now: datetime,
    root: Path,
    rel_dir: str,
    name: str,
    resources: list[str],
    result: LoadResult,
    on_page: Callable[[Page], None] | None = None,
) -> None:
    """Read ``rel_dir/name`` into ``result``; a page kept is also told to ``on_page``."""
    rel = f"{rel_dir}/{name}" if rel_dir else name
    display = f"content/{rel}"
    path = root / rel
    try:
        text = read_text(path, display)
        fm = split_front_matter(text, display)
        page = _make_page(config, zone, rel_dir, name, path, fm, display)
    except SourceError as e:
        result.errors.append(e)
        return
    except OSError as e:
        result.errors.append(SourceError(display, 0, 0, f"cannot read: {e.strerror}"))
        return
    if not fm.format and _stem(name) not in ("_index",):
        result.warnings.append(
            SourceError(
                display, 1, 1, "no front matter: title taken from the first line", "warning"
            )
        )
    page.resource_names = resources
    for moment in (page.publish_date, page.expiry_date):
        if moment != ZERO_DATE and moment > now:
            result.next_change = min(moment, result.next_change or moment)
    if _left_out(page, config, now):
        result.skipped += 1
        return
    result.pages.append(page)
    if on_page is not None:
        on_page(page)


def _left_out(page: Page, config: SiteConfig, now: datetime) -> bool:
    if page.draft and not config.build_drafts:
        return True
    if page.publish_date > now and not config.build_future:
        return True
    return page.expiry_date != ZERO_DATE and page.expiry_date <= now and not config.build_expired


def _make_page(config, zone, rel_dir, name, path, fm, display) -> Page:
    data = fm.data
    params = dict(data)
    lower = {str(k).lower(): v for k, v in data.items()}
    body = fm.body
    title = lower.get("title")
    if not fm.format:
        title, body, fm.body_line = _title_from_first_line(body)
    stem = _stem(name)
    is_branch = stem == "_index"
    is_leaf = stem == "index"
    content_base = (
        (rel_dir.rsplit("/", 1)[-1] if rel_dir else "") if (is_leaf or is_branch) else stem
    )
    dates = {
        key: _date(lower, key, zone, display, fm)
        for key in ("date", "publishdate", "lastmod", "expirydate")
    }
    date = dates["date"] or dates["publishdate"] or ZERO_DATE
    kind = "page"
    if is_branch:
        kind = "home" if not rel_dir else "section"
    section = rel_dir.split("/", 1)[0] if rel_dir else ""
    aliases = lower.get("aliases") or []
    if isinstance(aliases, str):
        aliases = [aliases]
    page = Page(
        kind=kind,
        title=str(title) if title is not None else "",
        params=params,
        rel_permalink="",
        out_path="",
        section=section,
        type=str(lower.get("type") or section or "page"),
        layout=str(lower.get("layout") or ""),
        date=date,
        lastmod=dates["lastmod"] or date,
        publish_date=dates["publishdate"] or date,
        expiry_date=dates["expirydate"] or ZERO_DATE,
        draft=_bool(lower.get("draft", False), display, "draft"),
        weight=_int(lower.get("weight", 0), display, "weight"),
        slug=str(lower.get("slug") or ""),
        link_title=str(lower.get("linktitle") or ""),
        description=str(lower.get("description") or ""),
        aliases=[str(a) for a in aliases],
        file=FileInfo(
            path=f"{rel_dir}/{name}" if rel_dir else name,
            dir=f"{rel_dir}/" if rel_dir else "",
            base_name=stem,
            content_base_name=content_base,
            filename=str(path),
        ),
        body=body,
        body_line=fm.body_line,
        front_matter_format=fm.format,
        is_cjk_language=is_cjk_language(config, fm, display),
    )
    page.url_override = str(lower.get("url") or "")
    outputs = lower.get("outputs")
    if outputs:
        # One format may be named alone: outputs = "json".
        names = outputs if isinstance(outputs, list) else [outputs]
        page.outputs = [str(o).lower() for o in names]
    return page


def is_cjk_language(config: SiteConfig, fm: FrontMatter, display: str) -> bool:
    """Hugo's ``isCJKLanguage``: the front matter's, else whether the file holds CJK script
    when the site sets ``hasCJKLanguage``."""
    for key, value in fm.data.items():
        if str(key).lower() == "iscjklanguage" and value is not None:
            return _bool(value, display, "isCJKLanguage")
    return config.has_cjk_language and (has_cjk(fm.head) or has_cjk(fm.body))


def _title_from_first_line(body: str) -> tuple[str, str, int]:
    """A file without front matter: its first non-blank line is the title, the rest the body."""
    lines = body.split("\n")
    for i, line in enumerate(lines):
        if line.strip():
            title = line.strip().lstrip("#").strip()
            return title, "\n".join(lines[i + 1 :]), i + 2
    return "", body, 1


def _date(lower: dict, key: str, zone, display: str, fm) -> datetime | None:
    if key not in lower or lower[key] in (None, ""):
        return None
    try:
        return parse_date(lower[key], zone)
    except ValueError as e:
        line, col = fm.key_position(key)
        raise SourceError(display, line, col, f"{key}: {e}") from None


def _bool(value, display: str, key: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise SourceError(display, 1, 1, f"{key}: expected true or false, got {value!r}")


def _int(value, display: str, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise SourceError(display, 1, 1, f"{key}: expected a number, got {value!r}")
    try:
        return int(value)
    except (ValueError, OverflowError):  # "x", or a float such as inf or nan
        raise SourceError(display, 1, 1, f"{key}: expected a number, got {value!r}") from None


def page_url(page: Page, config: SiteConfig) -> str:
    """The unescaped URL path of a page that came from a file (Hugo's rules, permalinks included)."""
    override = page.url_override
    if override:
        return clean_url(
            override if override.endswith(("/", ".html", ".xml", ".json")) else override + "/"
        )
    assert page.file is not None
    rel_dir = page.file.dir.rstrip("/")
    if page.kind in ("home", "section"):
        pattern = (
            config.permalinks.get(f"section:{page.section}") if page.kind == "section" else None
        )
        if pattern:
            return _expand_permalink(pattern, page, config)
        return "/" + (_path_segments(rel_dir) + "/" if rel_dir else "")
    pattern = config.permalinks.get(page.section) or config.permalinks.get(f"page:{page.section}")
    if pattern:
        return _expand_permalink(pattern, page, config)
    if page.file.base_name == "index":
        parent = rel_dir.rsplit("/", 1)[0] if "/" in rel_dir else ""
        last = page.slug or rel_dir.rsplit("/", 1)[-1]
    else:
        parent = rel_dir
        last = page.slug or page.file.base_name
    parts = [p for p in (_path_segments(parent), _path_segment(last)) if p]
    return "/" + "/".join(parts) + "/"


def _path_segment(text: str) -> str:
    return sanitize_path(text).lower()


def _path_segments(path: str) -> str:
    return "/".join(_path_segment(p) for p in path.split("/") if p)


def _expand_permalink(pattern: str, page: Page, config: SiteConfig) -> str:
    """Expand ``:year``, ``:slug`` and the other permalink tokens Hugo knows."""
    d = page.date
    assert page.file is not None
    sections = [s for s in page.file.dir.strip("/").split("/") if s]
    if page.file.base_name in ("index", "_index") and sections:
        sections = sections[:-1] if page.kind == "page" else sections
    title_slug = urlize(page.title)
    tokens = {
        "year": f"{d.year:04d}",
        "month": f"{d.month:02d}",
        "monthname": d.strftime("%B"),
        "day": f"{d.day:02d}",
        "weekday": str((d.weekday() + 1) % 7),
        "weekdayname": d.strftime("%A"),
        "yearday": str(d.timetuple().tm_yday),
        "section": page.section,
        "sections": "/".join(sections),
        "title": title_slug,
        "slug": urlize(page.slug) if page.slug else title_slug,
        "filename": urlize(page.file.content_base_name),
        "contentbasename": urlize(page.file.content_base_name),
        "slugorfilename": urlize(page.slug) if page.slug else urlize(page.file.content_base_name),
        "slugorcontentbasename": urlize(page.slug)
        if page.slug
        else urlize(page.file.content_base_name),
    }

    def replace(m: re.Match) -> str:
        return tokens.get(m.group(1), m.group(0))

    expanded = re.sub(r":([a-z]+)", replace, pattern)
    expanded = clean_url(expanded)
    if not expanded.endswith("/") and "." not in expanded.rsplit("/", 1)[-1]:
        expanded += "/"
    return expanded.lower()


def set_location(page: Page, url_path: str, config: SiteConfig) -> None:
    """Give a page its output path, URL and permalink from an unescaped URL path."""
    page.out_path = output_path_for(url_path)
    escaped = escape_url_path(url_path)
    page.rel_permalink = config.base_path + escaped
    page.permalink = config.base_url.rstrip("/") + escaped
