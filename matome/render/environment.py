"""The Jinja environment and template lookup in Hugo's order.

A site's own ``templates/`` overrides the default theme file by file. A site's
``layouts/`` folder holds Go templates for Hugo and is never read.
"""

from __future__ import annotations

import html
from pathlib import Path

import jinja2
from markupsafe import Markup

from ..content.page import Page
from ..errors import SourceError
from .functions import (
    comment_time,
    date_format,
    humanize,
    jsonify,
    safe_url,
    strip_html,
    truncate_text,
    xml_text,
)
from .jinja_internals import QuickCallContext, QuickImportTemplate
from .lists import delimit, group_by_date, intersect, union, uniq, where
from .namespaces import MathFunctions
from .text import find_re, printf, replace_re
from .undefined import UndefinedNames, undefined_class

PACKAGE = Path(__file__).resolve().parent.parent
REPO_ROOT = PACKAGE.parent


def theme_dir() -> Path:
    """The default theme: inside the wheel when installed, at the repository root in a checkout."""
    packaged = PACKAGE / "theme"
    return packaged if (packaged / "templates").is_dir() else REPO_ROOT


def layout_candidates(page: Page, fmt: str = "html") -> list[str]:
    """Templates to try for a page, most specific first (Hugo's lookup order)."""
    ext = {"html": "html", "rss": "xml", "json": "json"}.get(fmt, fmt)
    layout = page.layout
    kind = page.kind
    if fmt == "rss":
        base = ["rss.xml", "_default/rss.xml"]
        if kind == "home":
            return ["index.rss.xml", "home.rss.xml", *base]
        return [f"{page.type}/rss.xml", f"{page.section}/rss.xml", f"{kind}.rss.xml", *base]
    if kind == "home":
        names = ["index", "home", "list"]
        return [*(f"{n}.{ext}" for n in names), *(f"_default/{n}.{ext}" for n in names)]
    if kind == "page":
        names = [layout] if layout else []
        names.append("single")
        return [
            *(
                f"{d}/{n}.{ext}"
                for d in dict.fromkeys([page.type, page.section])
                if d
                for n in names
            ),
            *(f"_default/{n}.{ext}" for n in names),
            *(f"{n}.{ext}" for n in names),
        ]
    if kind == "section":
        return [
            *(f"{page.type}/{n}.{ext}" for n in ([layout] if layout else []) + ["section", "list"]),
            f"section/{page.section}.{ext}",
            f"_default/section.{ext}",
            f"section.{ext}",
            f"_default/list.{ext}",
            f"list.{ext}",
        ]
    singular = page.taxonomy.rstrip("s")
    return [
        f"{page.taxonomy}/{kind}.{ext}",
        f"{kind}/{singular}.{ext}",
        f"_default/{kind}.{ext}",
        f"{kind}.{ext}",
        f"{page.taxonomy}/list.{ext}",
        f"_default/list.{ext}",
        f"list.{ext}",
    ]


def template_dirs(source: Path) -> list[Path]:
    """Where templates come from, the site's first."""
    dirs = [source / "templates", theme_dir() / "templates"]
    return [d for d in dict.fromkeys(d.resolve() for d in dirs) if d.is_dir()]


def select_layout(env: jinja2.Environment, names: list[str]) -> jinja2.Template:
    """The first of ``names`` in the site's templates, else the first in the theme's.

    Jinja's own ``select_template`` would take a theme file over a site file
    that comes later in ``names``; Hugo lets the site's own templates win.
    """
    for names_in_dir in env.matome_template_names:
        for name in names:
            if name in names_in_dir:
                return env.get_template(name)
    raise jinja2.TemplateNotFound(names[0] if names else "", f"looked for {', '.join(names)}")


def template_names(directory: Path) -> frozenset[str]:
    return frozenset(
        p.relative_to(directory).as_posix() for p in directory.rglob("*") if p.is_file()
    )


def make_environment(source: Path, strict: bool = False) -> jinja2.Environment:
    """The environment of one build; ``strict``: a name that does not exist is an error."""
    names = UndefinedNames(source, strict)
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(d) for d in template_dirs(source)]),
        autoescape=jinja2.select_autoescape(
            enabled_extensions=("html", "xml", "htm"), default_for_string=True
        ),
        undefined=undefined_class(names),
        trim_blocks=False,
        lstrip_blocks=False,
        keep_trailing_newline=True,
        auto_reload=False,
        cache_size=-1,
    )
    env.context_class = QuickCallContext
    env.template_class = QuickImportTemplate
    env.matome_template_names = [template_names(d) for d in template_dirs(source)]
    env.extend(undefined_names=names)
    env.filters.update(
        plainify=strip_html,
        humanize=humanize,
        jsonify=jsonify,
        date_format=date_format,
        safe_html=Markup,
        html_unescape=html.unescape,
        truncate_words=truncate_text,
        comment_time=comment_time,
        xml_text=xml_text,
        safe_url=safe_url,
    )
    env.globals.update(
        date_format=date_format, plainify=strip_html, humanize=humanize, jsonify=jsonify
    )
    install_list_and_text_functions(env)
    return env


def install_list_and_text_functions(env: jinja2.Environment) -> None:
    """Hugo's collection and text functions Jinja has no built-in for, and ``math``."""
    lists = dict(
        where=where,
        group_by_date=group_by_date,
        uniq=uniq,
        union=union,
        intersect=intersect,
        delimit=delimit,
    )
    env.filters.update(lists, replace_re=replace_re, find_re=find_re)
    env.globals.update(lists, printf=printf, math=MathFunctions())


def template_error(exc: Exception, name: str = "") -> SourceError:
    """A Jinja error as ``templates/x.html:line:col: message``."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return SourceError(
            exc.filename or exc.name or name, exc.lineno or 0, 0, exc.message or str(exc)
        )
    tb = exc.__traceback__
    line, filename = 0, name
    while tb is not None:
        frame_file = tb.tb_frame.f_code.co_filename
        if frame_file.endswith((".html", ".xml", ".json", ".txt")):
            filename = frame_file
            line = tb.tb_lineno
        tb = tb.tb_next
    return SourceError(filename, line, 0, f"{type(exc).__name__}: {exc}")
