"""Every file a build writes, decided before anything is rendered.

One ``Output`` per file: a page in one output format (HTML, RSS, JSON, the site's
own), a pager page, an alias redirect, the sitemap, robots.txt, 404, a copied static
file or bundle resource. Planning first lets the build find two sources that want the
same path (Hugo's "duplicate target paths") and split the work across workers.

A page is written in a format other than HTML when a template for it exists (Hugo
warns and writes nothing when none does), and a list page in such a format is
paginated when that template's text names ``paginator`` (Hugo paginates when the
render calls ``.Paginator``; matome decides before rendering).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Container, Sequence
from dataclasses import dataclass
from itertools import compress
from pathlib import Path

from ..content.urls import is_safe_relative, output_path_for
from ..errors import SourceError
from ..formats import OutputFormat, format_location
from ..graph.site import Site
from ..markup import go_url
from ..mounts import Mount, walk_mount
from .environment import find_layout, layout_candidates, template_dirs, template_names

LIST_KINDS = ("home", "section", "taxonomy", "term")
# The words in a template that make a list page paginated (Hugo writes the pagers of a list
# only when its template asks for the paginator).
PAGINATOR = re.compile(r"\bpaginat(?:or|e)\b")
PAGINATOR_BYTES = re.compile(PAGINATOR.pattern.encode())
# The templates a Jinja template uses: {% extends/include/import/from "name" %}, partial("name").
TEMPLATE_USES = re.compile(
    r"""\{%-?\s*(?:extends|include|import|from)\s+["']([^"']+)["']"""
    r"""|\bpartial(?:_cached)?\(\s*["']([^"']+)["']"""
)


@dataclass(frozen=True)
class Output:
    kind: str  # page, pager, alias, sitemap, robots, 404, copy
    out_path: str  # relative to the destination, unescaped
    page: int = -1  # index into Site.pages
    fmt: str = "html"
    pager: int = 1
    target: str = ""  # alias: the URL to redirect to
    source: Path | None = None  # copy: the file to copy
    origin: str = ""  # what asked for this path, for duplicate-target errors
    lang: str = ""  # the language of a file that is no page's (sitemap, 404, alias); "": the site's


_OUT_PATH = operator.attrgetter("out_path")


def out_paths(outputs: Sequence[Output]) -> set[str]:
    """The paths of these outputs (made in C: a site's outputs are many)."""
    return set(map(_OUT_PATH, outputs))


def outputs_not_in(outputs: Sequence[Output], paths: Container[str]) -> list[Output]:
    """The outputs whose path is not among ``paths``, in order (filtered in C: a site's
    outputs are many and a run on a kept graph leaves most of them as they were)."""
    return list(
        compress(outputs, map(operator.not_, map(paths.__contains__, map(_OUT_PATH, outputs))))
    )


def plan_outputs(
    site: Site, static: list[Mount], generated: Sequence[Output] = ()
) -> tuple[list[Output], list[SourceError]]:
    """``generated``: files made before planning (thumbnails), written as copies. The
    problems are errors, and warnings (a format with no template)."""
    from .languages import language_redirects, not_found_outputs, sitemap_outputs  # uses Output

    outputs: list[Output] = []
    problems: list[SourceError] = []
    config = site.config
    layouts = _Layouts(site)
    missing: dict[tuple[str, str], list] = {}  # (format, kind) -> the pages with no template
    aliases: list[tuple[str, Output]] = []  # (the page's place in Hugo's content tree, alias)
    for page in site.pages:
        origin = _origin(page)
        lang = page.lang if page.site is not None and not page.site.is_default_language else ""
        for name in page.outputs:
            if name == "html":
                outputs.append(Output("page", page.out_path, page.index, origin=origin))
                if page.kind in LIST_KINDS and page.pagers:
                    # Hugo writes a list's pagers only when its template paginates.
                    found = layouts.find(page, page.site.output_formats["html"])
                    if found is None or layouts.paginates(found):
                        outputs.extend(_pager_outputs(page, origin, lang, config))
                continue
            fmt = page.site.output_formats[name]
            found = layouts.find(page, fmt)
            if found is None:
                missing.setdefault((name, page.kind), []).append((page, origin))
                continue
            path = format_location(page, fmt).out_path
            outputs.append(Output("page", path, page.index, fmt=name, origin=origin))
            if page.kind in LIST_KINDS and len(page.pagers) > 1 and layouts.paginates(found):
                for pager in page.pagers[1:]:
                    pager_path = format_pager_path(path, pager.number)
                    outputs.append(
                        Output(
                            "pager",
                            pager_path,
                            page.index,
                            fmt=name,
                            pager=pager.number,
                            origin=origin,
                        )
                    )
        aliases.extend(
            (
                _tree_key(page),
                Output(
                    "alias", output_path_for(alias), target=page.permalink, origin=origin, lang=lang
                ),
            )
            for alias in ([] if config.disable_aliases else page.aliases)
        )
        if page.publish_resources:  # front matter build.publishResources
            for res in page.resources:
                outputs.append(Output("copy", res.out_path, source=res.source, origin=origin))
    # Of two aliases with one path Hugo writes whichever comes last, which varies from build
    # to build (it writes in parallel); mostly the later in the order of its content tree,
    # which matome always writes.
    outputs.extend(alias for _, alias in sorted(aliases, key=lambda pair: pair[0]))
    disabled = config.disable_kinds
    if "sitemap" not in disabled:
        outputs.extend(sitemap_outputs(site, _sitemap_name(config)))
    if config.enable_robots_txt and "robotstxt" not in disabled:
        outputs.append(Output("robots", "robots.txt", origin="robots.txt"))
    if "404" not in disabled:
        outputs.extend(not_found_outputs(site))
    outputs.extend(language_redirects(site))
    for source, rel in site.static_content:
        outputs.append(Output("copy", rel, source=source, origin=f"content/{rel}"))
    outputs.extend(generated)
    outputs.extend(_static_outputs(static, out_paths(outputs)))
    kept, errors = _check_targets(outputs)
    for (name, _), pages in missing.items():
        problems.append(_no_template(pages, site.output_formats[name]))
    return kept, problems + errors


def format_pager_path(path: str, number: int) -> str:
    """Pager ``number`` of a list in a format other than HTML: ``posts/page/2/index.json``."""
    folder, _, name = path.rpartition("/")
    return f"{folder}/page/{number}/{name}" if folder else f"page/{number}/{name}"


class _Layouts:
    """Which template each page and format would be rendered with, found (as
    ``select_layout`` finds it) without loading it; and whether it paginates."""

    def __init__(self, site: Site):
        self.dirs = template_dirs(site.config.source)
        self.names = [template_names(d) for d in self.dirs]
        self.found: dict[tuple, tuple[int, str] | None] = {}
        self.paginating: dict[tuple[int, str], bool] = {}

    def find(self, page, fmt: OutputFormat) -> tuple[int, str] | None:
        # Pages that differ in none of what the lookup reads find the same template.
        key = (fmt.name, page.kind, page.type, page.section, page.layout, page.taxonomy)
        if key not in self.found:
            self.found[key] = find_layout(self.names, layout_candidates(page, fmt))
        return self.found[key]

    def paginates(self, found: tuple[int, str]) -> bool:
        """Whether the template, or one it extends, includes, imports or calls as a
        partial, uses the paginator (Hugo's ``.Paginator``, ``.Paginate``)."""
        if found not in self.paginating:
            self.paginating[found] = self._uses_paginator(found[1], set())
        return self.paginating[found]

    def _uses_paginator(self, name: str, seen: set[str]) -> bool:
        seen.add(name)
        path = next((d / name for d in self.dirs if (d / name).is_file()), None)
        if path is None:
            return False
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return False  # the render reports what is wrong with it
        if PAGINATOR.search(text):
            return True
        used = [m[0] or f"partials/{m[1]}" for m in TEMPLATE_USES.findall(text)]
        return any(self._uses_paginator(u, seen) for u in used if u not in seen)


def _no_template(pages: list, fmt: OutputFormat) -> SourceError:
    """One warning for the pages of a kind that no template renders in a format."""
    page, origin = pages[0]
    names = layout_candidates(page, fmt)
    others = f" (and {len(pages) - 1} more of its kind)" if len(pages) > 1 else ""
    message = (
        f"no template for the {fmt.name!r} output of this {page.kind}{others}; nothing "
        f"written (looked for templates/{', templates/'.join(names[:3])}, ...)"
    )
    return SourceError(origin, 0, 0, message, "warning")


def _origin(page) -> str:
    """The file to blame for a page's outputs; a term blames the first page that uses it."""
    if page.file:
        return page.file.site_path
    if page.kind == "term" and page.pages and page.pages[0].file:
        return f"{page.pages[0].file.site_path} ({page.taxonomy} {page.term!r})"
    return f"{page.kind} {page.rel_permalink}"


def _tree_key(page) -> str:
    """The page's key in Hugo's content tree, whose order Hugo renders aliases in: its
    path lower-cased, without extension or language, a bundle or section by its folder."""
    if page.file is None:
        return page.rel_permalink
    name = page.file.base_name
    path = page.file.dir if name in ("index", "_index") else page.file.dir + name
    return "/" + path.rstrip("/").lower()


def _pager_outputs(page, origin: str, lang: str, config) -> list[Output]:
    out = []
    base = f"{page.output_dir}/" if page.output_dir else ""
    # An ugly term's pagers are files (tags/go/page/2.html), other lists' folders.
    leaf = page.ugly and page.kind == "term"
    # Hugo writes page/1/ as a redirect to the list itself.
    first = f"{base}page/1.html" if leaf else f"{base}page/1/index.html"
    if not config.disable_pager_aliases:
        out.append(Output("alias", first, target=page.permalink, origin=origin, lang=lang))
    for pager in page.pagers[1:]:
        n = pager.number
        path = f"{base}page/{n}.html" if leaf else f"{base}page/{n}/index.html"
        out.append(Output("pager", path, page.index, pager=pager.number, origin=origin))
    return out


def _sitemap_name(config) -> str:
    return str((config.get("sitemap") or {}).get("filename") or "sitemap.xml")


def _static_outputs(static: list[Mount], taken: set[str]) -> list[Output]:
    """Files of the theme's and the site's static mounts; a later mount's file wins a path."""
    files: dict[str, Path] = {}
    for mount in static:
        files.update(walk_mount(mount))
    return [
        Output("copy", rel, source=src, origin=f"static/{rel}")
        for rel, src in files.items()
        if rel not in taken
    ]


def _check_targets(outputs: list[Output]) -> tuple[list[Output], list[SourceError]]:
    """Drop outputs that would leave the destination; report two sources with one target.

    An alias takes the place of a page with its path or of an earlier alias, with a
    warning: Hugo says nothing and writes one of them, the alias in most builds."""
    errors: list[SourceError] = []
    seen: dict[str, int] = {}  # path -> its output's place in kept
    kept: list[Output | None] = []
    for out in outputs:
        if not is_safe_relative(out.out_path):
            errors.append(
                SourceError(out.origin, 0, 0, f"output path {out.out_path!r} leaves the site")
            )
            continue
        # Paths that differ only in case are two files, as Hugo writes them (short links
        # such as /b/FY and /b/Fy); a file system that ignores case keeps one of them.
        key = out.out_path
        place = seen.get(key)
        first = kept[place] if place is not None else None
        if first is not None and out.kind == "alias" and first.kind in ("alias", "page", "pager"):
            if (first.kind, first.target, first.lang) != (out.kind, out.target, out.lang):
                what = "an alias of" if first.kind == "alias" else "the page of"
                message = (
                    f"alias {key!r} is also {what} {first.origin}: this alias is written "
                    "there (Hugo writes either, varying from build to build)"
                )
                errors.append(SourceError(out.origin, 0, 0, message, "warning"))
            kept[place] = None
            first = None
        elif first is not None and first.kind == "alias" and out.kind in ("page", "pager"):
            message = f"{key!r} is also an alias of {first.origin}: the alias is written there"
            errors.append(SourceError(out.origin, 0, 0, message, "warning"))
            continue
        if first is not None:
            if first.kind == "copy" and out.kind == "copy":
                continue  # the same file from two static folders: the first wins
            errors.append(
                SourceError(
                    out.origin,
                    0,
                    0,
                    f"duplicate target path {out.out_path!r}: also written by {first.origin}",
                )
            )
            continue
        seen[key] = len(kept)
        kept.append(out)
    return [out for out in kept if out is not None], errors


def alias_html(target: str, lang: str) -> str:
    """The redirect page Hugo (0.168) writes for an alias, byte for byte: ``lang`` is the
    site language's code."""
    target = go_url.attribute_text(target)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{go_url.attribute_text(lang)}">\n'
        "\t<head>\n"
        f"\t\t<title>{target}</title>\n"
        f'\t\t<link rel="canonical" href="{target}">\n'
        '\t\t<meta charset="utf-8">\n'
        f'\t\t<meta http-equiv="refresh" content="0; url={target}">\n'
        "\t</head>\n"
        "</html>\n"
    )
