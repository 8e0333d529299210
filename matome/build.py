"""One build: config → load → site graph → render content → render outputs → atomic write.

The expensive stages (shortcodes + Markdown per page, templates per output)
run in worker processes made by fork, after the site graph is built, so every
worker reads the same graph without it being sent to them. Everything is
written into a staging folder beside the destination and swapped in at the
end: a failed or interrupted build leaves the previous site as it was.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from multiprocessing import get_context
from pathlib import Path

import jinja2

from .config import Flags, SiteConfig, load_config
from .content.loader import load_content
from .errors import BuildFailed, SourceError
from .functions import install_site_functions
from .images import prepare_thumbnails
from .markup.expand import ContentRenderer, RenderedContent
from .markup.markdown import MarkdownRenderer
from .outputs.plan import Output, alias_html, plan_outputs
from .render import layout_candidates, make_environment, select_layout, template_error, theme_dir
from .search import index_site, search_enabled
from .site import Site, build_site

# Below this many pages, forking costs more than it saves.
PARALLEL_THRESHOLD = 64


@dataclass
class BuildReport:
    pages: int = 0
    paginator_pages: int = 0
    non_page_files: int = 0
    static_files: int = 0
    aliases: int = 0
    cleaned: int = 0
    unchanged: int = 0
    seconds: float = 0.0
    warnings: list[SourceError] = field(default_factory=list)
    destination: Path | None = None


@dataclass
class BuildState:
    """What every worker needs; set before the pool forks, so it is inherited, not sent."""

    site: Site
    env: jinja2.Environment
    content: ContentRenderer
    staging: Path
    minify: bool


_STATE: BuildState | None = None


def build(
    source: Path, flags: Flags, *, jobs: int | None = None, clean: bool = False
) -> BuildReport:
    """Build the site at ``source``; raise BuildFailed (nothing published) on any error."""
    started = time.perf_counter()
    source = source.resolve()
    config = load_config(source, flags)
    now = datetime.now(UTC)
    loaded = load_content(config, now)
    site = build_site(config, loaded, now)
    errors = [*loaded.errors, *site.errors]
    report = BuildReport(warnings=list(loaded.warnings))
    if _has_hugo_layouts(source, config):
        report.warnings.append(
            SourceError(
                str(source / "layouts"),
                0,
                0,
                "Hugo layouts and themes are not used: matome renders with its own Jinja templates",
                "warning",
            )
        )
    env = make_environment(source)
    markdown = MarkdownRenderer(config.markup, enable_emoji=config.enable_emoji)
    install_site_functions(env, site, markdown)
    content = ContentRenderer(env, markdown, site, summary_length=config.summary_length)
    destination = (source / config.destination).resolve()
    report.destination = destination
    workers = jobs or os.cpu_count() or 1

    global _STATE
    _STATE = BuildState(site, env, content, destination, config.minify)
    errors += _render_all_content(site, workers)
    # Once per (image, size) for the whole build, before the output workers fork.
    thumbnails, image_warnings = prepare_thumbnails(site, workers)
    report.warnings += image_warnings
    static_dirs = [theme_dir() / "static", source / "static"]
    outputs, plan_errors = plan_outputs(
        site, list(dict.fromkeys(d.resolve() for d in static_dirs)), thumbnails
    )
    errors += plan_errors
    if errors:
        raise BuildFailed(_sorted_errors(errors))

    staging = _make_staging(destination)
    _STATE.staging = staging
    try:
        written, unchanged, write_errors = _write_all(outputs, workers)
        if write_errors:
            raise BuildFailed(_sorted_errors(write_errors))
        if clean:
            report.cleaned = _clean_stale(staging, written)
        if search_enabled(config.params):
            search_files, search_errors = index_site(staging)
            if search_errors:
                raise BuildFailed(search_errors)
            report.non_page_files += search_files
        _swap_in(staging, destination)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    finally:
        _STATE = None
    _count(report, outputs)
    report.unchanged = unchanged
    report.seconds = time.perf_counter() - started
    return report


def _has_hugo_layouts(source: Path, config: SiteConfig) -> bool:
    return (source / "layouts").is_dir() or bool(config.theme)


def _sorted_errors(errors: list[SourceError]) -> list[SourceError]:
    return sorted(errors, key=lambda e: (e.path, e.line, e.col))


# --- content -------------------------------------------------------------------
def _render_all_content(site: Site, workers: int) -> list[SourceError]:
    todo = [p.index for p in site.pages if p.file is not None]
    results = _map(_render_content_chunk, todo, workers)
    errors: list[SourceError] = []
    for index, rendered in results:
        if isinstance(rendered, SourceError):
            errors.append(rendered)
        else:
            _attach(site.pages[index], rendered)
    return errors


def _render_content_chunk(indices: list[int]) -> list[tuple[int, RenderedContent | SourceError]]:
    state = _STATE
    out = []
    for index in indices:
        page = state.site.pages[index]
        try:
            out.append((index, state.content.render_page(page)))
        except SourceError as e:
            out.append((index, e))
        except Exception as e:  # a template bug must name the page, not crash the build
            err = template_error(e)
            err.message = f"while rendering content/{page.file.path}: {err.message}"
            out.append((index, err))
    return out


def _attach(page, rendered: RenderedContent) -> None:
    from .render import plainify

    page.content_html = rendered.html
    page.summary_html = rendered.summary
    page.truncated = rendered.truncated
    page.toc = rendered.toc
    page.plain = plainify(rendered.html)
    page.word_count = len(page.plain.split())
    page.fuzzy_word_count = (page.word_count + 99) // 100 * 100
    page.reading_time = (page.word_count + 212) // 213


# --- outputs -------------------------------------------------------------------
def _write_all(outputs: list[Output], workers: int):
    results = _map(_write_chunk, outputs, workers)
    written: set[str] = set()
    unchanged = 0
    errors: list[SourceError] = []
    for path, status in results:
        if isinstance(status, SourceError):
            errors.append(status)
        else:
            written.add(path)
            unchanged += status == "same"
    return written, unchanged, errors


def _write_chunk(outputs: list[Output]) -> list[tuple[str, str | SourceError]]:
    state = _STATE
    out = []
    for item in outputs:
        try:
            if item.kind == "copy":
                status = _copy(item.source, state.staging / item.out_path)
            else:
                status = write_if_changed(state.staging / item.out_path, render_output(item, state))
            out.append((item.out_path, status))
        except SourceError as e:
            out.append((item.out_path, e))
        except Exception as e:
            err = template_error(e)
            err.message = f"while writing {item.out_path}: {err.message}"
            out.append((item.out_path, err))
    return out


def render_output(item: Output, state: BuildState) -> bytes:
    site = state.site
    if item.kind == "alias":
        return alias_html(item.target).encode()
    if item.kind in ("sitemap", "robots", "404"):
        name = {"sitemap": "sitemap.xml", "robots": "robots.txt", "404": "404.html"}[item.kind]
        text = _render_first(state.env, [name, f"_default/{name}"], page=site.home, site=site)
    else:
        page = site.pages[item.page]
        # Each worker renders one output at a time, so the page can carry the current pager.
        if page.pagers:
            page.paginator = page.pagers[item.pager - 1]
        text = _render_first(
            state.env,
            layout_candidates(page, item.fmt),
            page=page,
            site=site,
            paginator=page.paginator,
        )
    if state.minify and item.out_path.endswith((".html", ".xml")):
        text = _minify(text)
    return text.encode("utf-8")


def _render_first(env: jinja2.Environment, names: list[str], **context) -> str:
    try:
        template = select_layout(env, names)
    except jinja2.TemplateNotFound:
        raise SourceError(
            "templates", 0, 0, f"no template found; looked for {', '.join(names)}"
        ) from None
    except jinja2.TemplateSyntaxError as e:
        raise template_error(e) from None
    return template.render(**context)


def _minify(text: str) -> str:
    import minify_html

    return minify_html.minify(text, minify_css=True, minify_js=True, keep_closing_tags=True)


def holds_bytes(path: Path, data: bytes) -> bool:
    """Whether the file at ``path`` already holds exactly ``data``."""
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except FileNotFoundError:
        return False


def is_copy_of(target: Path, source: Path) -> bool:
    """Whether ``target`` is an earlier copy of ``source`` (same size and mtime, as copy2 keeps)."""
    try:
        existing, stat = target.stat(), source.stat()
    except FileNotFoundError:
        return False
    return existing.st_size == stat.st_size and existing.st_mtime_ns == stat.st_mtime_ns


def write_if_changed(path: Path, data: bytes) -> str:
    """Write ``data`` unless the file already holds exactly these bytes (mtime then stays)."""
    if holds_bytes(path, data):
        return "same"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    tmp.write_bytes(data)
    # Replacing (not writing in place) breaks the hard link to the previous build's file.
    os.replace(tmp, path)
    return "new"


def _copy(source: Path, target: Path) -> str:
    if is_copy_of(target, source):
        return "same"
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp{os.getpid()}")
    shutil.copy2(source, tmp)
    os.replace(tmp, target)
    return "new"


def _map(func, items: list, workers: int) -> list:
    """Run ``func`` over chunks of ``items`` in forked workers (in-process when small)."""
    if workers <= 1 or len(items) < PARALLEL_THRESHOLD or sys.platform == "win32":
        return func(items)
    chunk = max(8, len(items) // (workers * 8))
    chunks = [items[i : i + chunk] for i in range(0, len(items), chunk)]
    with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
        return [row for rows in pool.map(func, chunks) for row in rows]


# --- staging and swap ------------------------------------------------------------
def _make_staging(destination: Path) -> Path:
    """A fresh folder beside the destination, pre-filled with hard links to the last build."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(destination)
    staging = destination.with_name(f".{destination.name}.staging-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    if destination.is_dir():
        shutil.copytree(destination, staging, copy_function=_link_or_copy, symlinks=True)
    else:
        staging.mkdir()
    return staging


def _remove_leftovers(destination: Path) -> None:
    """Staging folders of builds that were killed (their process is gone) are garbage."""
    for path in destination.parent.glob(f".{destination.name}.*-*"):
        kind, _, pid = path.name.rpartition("-")
        if not kind.endswith((".staging", ".old")) or not pid.isdigit() or _alive(int(pid)):
            continue
        shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _clean_stale(staging: Path, written: set[str]) -> int:
    """``--cleanDestinationDir``: remove what the new build did not write."""
    removed = 0
    for path in sorted(staging.rglob("*"), reverse=True):
        rel = path.relative_to(staging).as_posix()
        if path.is_file() or path.is_symlink():
            if rel not in written:
                path.unlink()
                removed += 1
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return removed


def _swap_in(staging: Path, destination: Path) -> None:
    old = destination.with_name(f".{destination.name}.old-{os.getpid()}")
    if destination.exists():
        os.rename(destination, old)
    os.rename(staging, destination)
    shutil.rmtree(old, ignore_errors=True)


def _count(report: BuildReport, outputs: list[Output]) -> None:
    for item in outputs:
        if item.kind in ("page", "sitemap", "robots", "404"):
            report.pages += 1
        elif item.kind == "pager":
            report.paginator_pages += 1
        elif item.kind == "alias":
            report.aliases += 1
        elif item.origin.startswith("static/"):
            report.static_files += 1
        else:
            report.non_page_files += 1
