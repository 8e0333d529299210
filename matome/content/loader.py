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
from urllib.parse import unquote

from ..config import SiteConfig, permalink_pattern
from ..errors import SourceError
from .coerce import to_bool, to_int, to_str, to_str_list
from .dates import parse_date, site_zone
from .frontmatter import FrontMatter, split_front_matter
from .gitinfo import GitInfo, read_git_info
from .languages import ContentRoot, content_roots, language_of, root_of
from .page import ZERO_DATE, FileInfo, Page
from .page_dates import resolve_dates
from .urls import (
    clean_url,
    escape_url_path,
    file_path_segment,
    output_path_for,
    permalink_path,
    urlize,
)
from .words import has_cjk

CONTENT_EXTS = (".md", ".markdown")
# A CommonMark ATX heading line: up to three spaces, one to six #, then a space, tab or the end.
ATX_HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
# Files editors and systems leave behind; never content, never resources.
_IGNORED_NAMES = {".DS_Store", "Thumbs.db"}
MAX_CONTENT_BYTES = 64 * 1024 * 1024
# Hugo's content adapter: a Go template that adds pages. matome does not run Go templates.
CONTENT_ADAPTER = "_content.gotmpl"
ADAPTER_NOT_RUN = (
    "content adapters are Go templates, which matome does not run: the pages it adds are"
    " not built (write them as content files)"
)


@dataclass
class LoadResult:
    pages: list[Page] = field(default_factory=list)  # regular pages and branch-bundle pages
    static_files: list[tuple[Path, str]] = field(default_factory=list)  # content files copied as-is
    errors: list[SourceError] = field(default_factory=list)
    warnings: list[SourceError] = field(default_factory=list)
    skipped: int = 0  # drafts, future and expired pages left out
    # The first moment after the load at which a future page is due or a page expires.
    next_change: datetime | None = None


@dataclass
class KnownFiles:
    """What the last run made of the content files whose bytes are as they were then:
    those files are not read again (a body is read when it must be rendered)."""

    # file name -> the page as the loader made it, its body left out, and its warnings
    pages: dict[str, tuple[Page, list[SourceError]]]
    made: dict[str, tuple[Page, list[SourceError]]] = field(default_factory=dict)  # this run's
    stored: dict[str, bytes] = field(default_factory=dict)  # ``pages`` as kept (known_files.py)


def is_ignored(name: str) -> bool:
    return (
        name in _IGNORED_NAMES or name.startswith(".") or name.endswith("~") or name.startswith("#")
    )


def load_content(
    config: SiteConfig,
    now: datetime,
    on_page: Callable[[Page], None] | None = None,
    known: KnownFiles | None = None,
) -> LoadResult:
    """Read every content file of the site (``<source>/content``, and each language's own
    ``contentDir``); ``on_page`` is told of each page kept as soon as it is read. With
    ``known``, the pages it holds are taken rather than read, and every page made is
    put in its ``made``."""
    result = LoadResult(warnings=list(config.warnings))
    roots = [r for r in content_roots(config) if r.path.is_dir()]
    if not roots:
        return result
    try:
        zone = site_zone(config.time_zone)
    except ValueError as e:
        where = config.files[0] if config.files else str(config.source)
        result.errors.append(SourceError(where, 0, 0, f"{e}: use an IANA name such as Asia/Tokyo"))
        return result
    for root in roots:
        _load_root(config, zone, now, root, result, on_page, known)
    if any(root.mount for root in roots):
        result.pages = _first_of_each_path(result.pages)
    return result


def _first_of_each_path(pages: list[Page]) -> list[Page]:
    """Of two mounts holding a file at one path of the content tree (in one language),
    the one declared first wins, as in Hugo."""
    seen: set[tuple[str, str]] = set()
    kept = []
    for page in pages:
        key = (page.lang, page.file.key)
        if key not in seen:
            seen.add(key)
            kept.append(page)
    return kept


def _load_root(
    config: SiteConfig,
    zone,
    now: datetime,
    content: ContentRoot,
    result: LoadResult,
    on_page: Callable[[Page], None] | None,
    known: KnownFiles | None,
) -> None:
    root = content.path
    git: dict[str, GitInfo] = {}
    if config.enable_git_info:
        git, git_warnings = read_git_info(root, config.files[0] if config.files else "config")
        result.warnings += git_warnings
    mount = content.mount
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        directory = Path(dirpath)
        inside = directory.relative_to(root).as_posix()
        inside = "" if inside == "." else inside
        dirnames[:] = sorted(
            d
            for d in dirnames
            if not is_ignored(d) and (mount is None or mount.admits(_joined(inside, d), True))
        )
        rel_dir = content.place(inside)
        if CONTENT_ADAPTER in filenames:
            filenames.remove(CONTENT_ADAPTER)
            shown = f"{content.label}/{_joined(inside, CONTENT_ADAPTER)}"
            result.warnings.append(SourceError(shown, 1, 1, ADAPTER_NOT_RUN, "warning"))
        names = sorted(
            n
            for n in filenames
            if not is_ignored(n)
            and (mount is None or mount.admits(_joined(inside, n)))
            and _stays_inside(directory / n, root, result)
        )
        # index.md and its translations (index.fr.md) are one leaf bundle's pages.
        leaves = [n for n in names if _bundle_page(n, config) == "index"]
        if leaves:
            resources = [
                r
                for r in _walk_files(directory)
                if (mount is None or mount.admits(_joined(inside, r)))
                and _stays_inside(directory / r, root, result)
            ]
            for leaf in leaves:
                resources.remove(leaf)
            for leaf in leaves:
                _load_file(
                    config, zone, now, content, rel_dir, leaf, resources, result, on_page, git,
                    known,
                )  # fmt: skip
            dirnames[:] = []  # everything below a leaf bundle belongs to it
            continue
        branch = any(_bundle_page(n, config) == "_index" for n in names)
        for name in names:
            if name.endswith(CONTENT_EXTS):
                resources = (
                    [n for n in names if not n.endswith(CONTENT_EXTS)]
                    if _bundle_page(name, config) == "_index"
                    else []
                )
                _load_file(
                    config, zone, now, content, rel_dir, name, resources, result, on_page, git,
                    known,
                )  # fmt: skip
            elif not branch:
                result.static_files.append((directory / name, _joined(rel_dir, name)))


def _joined(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _bundle_page(name: str, config: SiteConfig) -> str:
    """Which bundle a content file is the page of, in any language: index.fr.md is
    "index", _index.md "_index", any other file ""."""
    if not name.endswith(CONTENT_EXTS):
        return ""
    stem = _stem(language_of(name, config)[0])
    return stem if stem in ("index", "_index") else ""


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
        dirnames[:] = sorted(d for d in dirnames if not is_ignored(d))
        rel = Path(dirpath).relative_to(directory).as_posix()
        for name in sorted(filenames):
            if not is_ignored(name):
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
    content: ContentRoot,
    rel_dir: str,
    name: str,
    resources: list[str],
    result: LoadResult,
    on_page: Callable[[Page], None] | None = None,
    git: dict[str, GitInfo] | None = None,
    known: KnownFiles | None = None,
) -> None:
    """Read ``rel_dir/name`` into ``result``; a page kept is also told to ``on_page``;
    ``git`` holds each file's last commit (``enableGitInfo``)."""
    rel = f"{rel_dir}/{name}" if rel_dir else name
    path = content.disk_path(rel)
    inside = path.relative_to(content.path).as_posix()
    display = f"{content.label}/{inside}"
    plain, lang = language_of(name, config)
    if lang in config.disabled_languages:
        return
    taken = known.pages.pop(str(path), None) if known is not None else None
    try:
        if taken is not None:
            page, warnings = taken
        else:
            text = read_text(path, display)
            fm = split_front_matter(text, display)
            warnings = []
            git_info = (git or {}).get(inside)
            page = _make_page(config, zone, rel_dir, plain, path, fm, display, warnings, git_info)
        result.warnings += warnings
    except SourceError as e:
        result.errors.append(e)
        return
    except OSError as e:
        result.errors.append(SourceError(display, 0, 0, f"cannot read: {e.strerror}"))
        return
    page.lang = lang or content.lang
    page.file.lang = page.lang
    page.file.path = page.file.key = rel  # with its language part, as Hugo's .File.Path
    page.file.folder = content.label
    if content.own:  # two languages' folders may hold the same path
        page.file.content_dir = content.label
        page.file.key = f"{content.label}:{rel}"
    page.resource_names = resources
    if known is not None:
        known.made[str(path)] = (page, warnings)
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


def with_params_table(data: dict) -> dict:
    """A page's params from its front matter: every key, with the keys of a ``params``
    table (Hugo's newer form) in place of the table, over a top-level key of the same name."""
    table = next((v for k, v in data.items() if str(k).lower() == "params"), None)
    if not isinstance(table, dict):
        return dict(data)
    inner = {str(k).lower() for k in table}
    params = {k: v for k, v in data.items() if str(k).lower() not in inner | {"params"}}
    params.update(table)
    return params


def _make_page(config, zone, rel_dir, name, path, fm, display, warnings, git_info=None) -> Page:
    data = fm.data
    params = with_params_table(data)
    lower = {str(k).lower(): v for k, v in data.items()}
    body = fm.body

    def read(key: str, convert, what: str, default):
        """A field as Hugo converts it; a value of another type is warned about."""
        if key not in lower:
            return default
        value, fits = convert(lower[key])
        if not fits:
            spelled = next(str(k) for k in data if str(k).lower() == key)
            line, col = fm.key_position(spelled)
            warnings.append(
                SourceError(
                    display,
                    line,
                    col,
                    f"{spelled}: {lower[key]!r} is not {what}: read as {value!r}, as Hugo does",
                    "warning",
                )
            )
        return value

    if "_build" in lower:
        # Hugo 0.145 removed it, and fails the build: the table is named build now.
        line, col = fm.key_position(next(str(k) for k in data if str(k).lower() == "_build"))
        raise SourceError(display, line, col, "_build is no longer read: rename it to build")
    title = read("title", to_str, "text", None)
    stem = _stem(name)
    is_branch = stem == "_index"
    if not fm.format and not is_branch:  # a home or section page keeps Hugo's title
        title, body, fm.body_line = _title_from_first_line(body, fm.body_line)
        taken = "title taken from the first line" if title is not None else "untitled"
        warnings.append(SourceError(display, 1, 1, f"no front matter: {taken}", "warning"))
    is_leaf = stem == "index"
    content_base = (
        (rel_dir.rsplit("/", 1)[-1] if rel_dir else "") if (is_leaf or is_branch) else stem
    )
    dates = resolve_dates(
        config.front_matter_dates,
        lambda key: _date(lower, key, zone, display, fm),
        path,
        content_base,
        zone,
        git_info,
    )
    date = dates.date or ZERO_DATE
    kind = "page"
    if is_branch:
        kind = "home" if not rel_dir else "section"
    # A leaf bundle's folder is the page itself: content/about/index.md is in no section.
    section_dir = rel_dir.rsplit("/", 1)[0] if is_leaf and "/" in rel_dir else rel_dir
    section = "" if is_leaf and "/" not in rel_dir else section_dir.split("/", 1)[0]
    aliases = read("aliases", to_str_list, "a list of paths", [])
    page = Page(
        kind=kind,
        title=title if title is not None else "",
        params=params,
        rel_permalink="",
        out_path="",
        section=section,
        type=read("type", to_str, "text", "") or section or "page",
        layout=read("layout", to_str, "text", ""),
        date=date,
        lastmod=dates.lastmod or date,
        publish_date=dates.publishdate or date,
        expiry_date=dates.expirydate or ZERO_DATE,
        draft=read("draft", to_bool, "true or false", False),
        weight=read("weight", to_int, "a whole number", 0),
        # Hugo trims hyphens from a slug (and keeps other characters for the path to drop).
        slug=read("slug", to_str, "text", "").strip("-") or dates.slug,
        link_title=read("linktitle", to_str, "text", ""),
        description=read("description", to_str, "text", ""),
        aliases=aliases,
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
        is_cjk_language=is_cjk_language(config, fm, display, warnings),
    )
    page.url_override = read("url", to_str, "text", "")
    page.git_info = git_info
    outputs = lower.get("outputs")
    if outputs:
        # One format may be named alone: outputs = "json".
        names = outputs if isinstance(outputs, list) else [outputs]
        page.outputs = [str(o).lower() for o in names]
    return page


def is_cjk_language(
    config: SiteConfig, fm: FrontMatter, display: str, warnings: list | None = None
) -> bool:
    """Hugo's ``isCJKLanguage``: the front matter's, else whether the file holds CJK script
    when the site sets ``hasCJKLanguage``."""
    for key, value in fm.data.items():
        if str(key).lower() == "iscjklanguage" and value is not None:
            flag, fits = to_bool(value)
            if not fits and warnings is not None:
                line, col = fm.key_position(str(key))
                warnings.append(
                    SourceError(
                        display,
                        line,
                        col,
                        f"{key}: {value!r} is not true or false: read as {flag!r}, as Hugo does",
                        "warning",
                    )
                )
            return flag
    return config.has_cjk_language and (has_cjk(fm.head) or has_cjk(fm.body))


def _title_from_first_line(body: str, body_line: int) -> tuple[str | None, str, int]:
    """A file without front matter: a plain first non-blank line is the title and the rest the
    body (a document dropped into content/ as it is). A file that opens with a Markdown heading
    is Markdown written for Hugo, which leaves such a page untitled and renders the heading: it
    is kept whole."""
    lines = body.split("\n")
    for i, line in enumerate(lines):
        if line.strip():
            if ATX_HEADING.match(line):
                return None, body, body_line
            return line.strip(), "\n".join(lines[i + 1 :]), i + 2
    return None, body, body_line


def _date(lower: dict, key: str, zone, display: str, fm) -> datetime | None:
    if key not in lower or lower[key] in (None, ""):
        return None
    try:
        return parse_date(lower[key], zone)
    except ValueError as e:
        line, col = fm.key_position(key)
        raise SourceError(display, line, col, f"{key}: {e}") from None


def page_url(page: Page, config: SiteConfig) -> str:
    """The unescaped URL path of a page that came from a file (Hugo's rules, permalinks included)."""
    override = page.url_override
    if override:
        return clean_url(
            override if override.endswith(("/", ".html", ".xml", ".json")) else override + "/"
        )
    assert page.file is not None
    rel_dir = page.file.dir.rstrip("/")
    lower = not config.disable_path_to_lower
    if page.kind in ("home", "section"):
        pattern = permalink_pattern(config, "section", rel_dir) if page.kind == "section" else None
        if pattern:
            return expand_permalink(pattern, page, config)
        return "/" + (_path_segments(rel_dir, lower) + "/" if rel_dir else "")
    own = rel_dir if page.file.base_name == "index" else f"{rel_dir}/{page.file.base_name}"
    pattern = permalink_pattern(config, "page", own)
    if pattern:
        return expand_permalink(pattern, page, config)
    if page.file.base_name == "index":
        parent = rel_dir.rsplit("/", 1)[0] if "/" in rel_dir else ""
        name = rel_dir.rsplit("/", 1)[-1]
    else:
        parent = rel_dir
        name = page.file.base_name
    last = urlize(page.slug, lower) if page.slug else file_path_segment(name, lower)
    parts = [p for p in (_path_segments(parent, lower), last) if p]
    return "/" + "/".join(parts) + "/"


def _path_segments(path: str, lower: bool) -> str:
    return "/".join(file_path_segment(p, lower) for p in path.split("/") if p)


def expand_permalink(pattern: str, page: Page, config: SiteConfig) -> str:
    """Expand ``:year``, ``:slug`` and the other permalink tokens Hugo knows, for a page of
    a file or a taxonomy or term page (whose names are its taxonomy's and its term's)."""
    d = page.date
    if page.file is not None:
        sections = [s for s in page.file.dir.strip("/").split("/") if s]
        if page.file.base_name in ("index", "_index") and sections:
            sections = sections[:-1] if page.kind == "page" else sections
        # Hugo's :filename is none for a branch's _index.md, the folder's name for index.md.
        filename = "" if page.file.base_name == "_index" else page.file.content_base_name
        base_name = page.file.content_base_name
    else:  # a taxonomy or term page: its path is the taxonomy's name, then the term's
        sections = [page.taxonomy, page.term_key] if page.kind == "term" else [page.taxonomy]
        filename, base_name = "", sections[-1]
    lower = not config.disable_path_to_lower
    title_slug = urlize(page.title, lower)
    slug = urlize(page.slug, lower) if page.slug else ""
    tokens = {
        "year": str(d.year),  # Go's strconv.Itoa: year 1 is "1"
        "month": f"{d.month:02d}",
        "monthname": d.strftime("%B"),
        "day": f"{d.day:02d}",
        "weekday": str((d.weekday() + 1) % 7),
        "weekdayname": d.strftime("%A"),
        "yearday": str(d.timetuple().tm_yday),
        # Hugo's section names are lower case even with disablePathToLower.
        "section": page.section.lower(),
        "sections": "/".join(sections).lower(),
        "title": title_slug,
        "slug": slug or title_slug,
        "filename": urlize(filename, lower),
        "contentbasename": urlize(base_name, lower),
        "slugorfilename": slug or urlize(filename, lower),
        "slugorcontentbasename": slug or urlize(base_name, lower),
    }

    def replace(m: re.Match) -> str:
        return tokens.get(m.group(1), m.group(0))

    expanded = clean_url(permalink_path(re.sub(r":([a-z]+)", replace, pattern), lower))
    if not expanded.endswith("/") and "." not in expanded.rsplit("/", 1)[-1]:
        expanded += "/"
    return expanded


def unescaped_path(rel_permalink: str, config: SiteConfig) -> str:
    """The unescaped URL path of a location ``set_location`` gave, without the base path."""
    return unquote(rel_permalink.removeprefix(config.rel_base_path))


def set_location(page: Page, url_path: str, config: SiteConfig) -> None:
    """Give a page its output path, URL and permalink from an unescaped URL path (under
    its language's folder, ``/fr``, when the language has one; a front matter ``url`` is
    taken as it is, as in Hugo)."""
    if not page.url_override:
        url_path = config.language.prefix + url_path
    page.out_path = output_path_for(url_path)
    escaped = escape_url_path(url_path)
    page.rel_permalink = config.rel_base_path + escaped
    page.permalink = config.base_url.rstrip("/") + escaped


def reload_page(config: SiteConfig, page: Page, now: datetime) -> LoadResult:
    """One content file read again, with the bundle files it had: what ``load_content``
    would make of it now (no page when it is now a draft or not yet due)."""
    root = root_of(page.file, config)
    result = LoadResult()
    name = page.file.path.rsplit("/", 1)[-1]
    rel_dir = page.file.dir.rstrip("/")
    # Its last commit is the one the load found (an edit is not committed yet).
    inside = root.disk_path(_joined(rel_dir, name)).relative_to(root.path).as_posix()
    git = {inside: page.git_info} if page.git_info else None
    zone = site_zone(config.time_zone)
    resources = list(page.resource_names)
    _load_file(config, zone, now, root, rel_dir, name, resources, result, None, git)
    return result


def load_added_file(config: SiteConfig, filename: str, now: datetime) -> LoadResult | None:
    """A content file new since the last load, read as ``load_content`` reads it (a leaf
    bundle's page with the files of its folder). None when its place changes what other
    files are: the page of a branch bundle, a file in a leaf bundle (its resource), or a
    file of a mounted or ignored folder."""
    path = Path(filename)
    roots = content_roots(config)
    root = next((r for r in roots if path.is_relative_to(r.path)), None)
    if root is None or any(r.mount for r in roots):
        return None
    inside = path.relative_to(root.path).as_posix()
    folder, _, name = inside.rpartition("/")
    if any(is_ignored(part) for part in inside.split("/")) or _stem(name) == "_index":
        return None
    leaf = _bundle_page(name, config) == "index"
    above = path.parent.parent if leaf else path.parent
    while above != root.path.parent:
        if any(_bundle_page(n, config) == "index" for n in os.listdir(above)):
            return None  # inside a leaf bundle
        above = above.parent
    resources = [r for r in _walk_files(path.parent) if r != name] if leaf else []
    if path.is_symlink() or any(r.endswith(CONTENT_EXTS) for r in resources):
        return None  # pages of the folder before, its resources now
    result = LoadResult()
    _load_file(config, site_zone(config.time_zone), now, root, folder, name, resources, result)
    return result
