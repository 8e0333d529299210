"""The Jinja environment and template lookup in Hugo's order.

A site's own ``templates/`` overrides the default theme file by file. A site's
``layouts/`` folder holds Go templates for Hugo and is never read.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

import jinja2
from markupsafe import Markup

from ..content.page import Page
from ..errors import SourceError
from ..formats import BUILTIN_FORMATS, HTML, OutputFormat
from .functions import (
    comment_time,
    date_format,
    humanize,
    jsonify,
    plainify,
    safe_url,
    truncate_text,
    xml_text,
)
from .go_values import finalize
from .jinja_internals import FinalizeFirstCodeGenerator, QuickCallContext, QuickImportTemplate
from .lists import delimit, group_by_date, intersect, union, uniq, where
from .namespaces import DiagramsFunctions, MathFunctions
from .text import find_re, printf, replace_re
from .undefined import UndefinedNames, undefined_class

PACKAGE = Path(__file__).resolve().parent.parent
REPO_ROOT = PACKAGE.parent


def theme_dir() -> Path:
    """The default theme: inside the wheel when installed, at the repository root in a checkout."""
    packaged = PACKAGE / "theme"
    return packaged if (packaged / "templates").is_dir() else REPO_ROOT


def layout_candidates(page: Page, fmt: OutputFormat = HTML) -> list[str]:
    """Templates to try for a page in an output format, most specific first (Hugo's
    lookup order).

    HTML looks for ``<layout>.html`` names (``posts/single.html``, ``_default/list.html``);
    another format first for the same names with its name and suffix
    (``index.atom.xml``, ``_default/list.atom.xml``), then with its suffix alone
    (``single.json``, ``list.xml``), then for a template named after it
    (``posts/rss.xml``, ``_default/rss.xml``)."""
    layouts = _layouts(page)
    if fmt.name == "html":
        return [f"{n}.html" for n in layouts]
    name, suffix = fmt.name, fmt.suffix
    if not suffix:  # a format without a suffix (Netlify's _redirects): list.redir, redir
        folders = dict.fromkeys([page.type, page.section]) if page.kind != "home" else {}
        return [
            *(f"{n}.{name}" for n in layouts),
            f"all.{name}",
            *(f"{d}/{name}" for d in folders if d),
            name,
            f"_default/{name}",
        ]
    folders = dict.fromkeys([page.type, page.section]) if page.kind != "home" else {}
    named_by_format = [f"{d}/{name}.{suffix}" for d in folders if d]
    named_by_format += [f"{name}.{suffix}", f"_default/{name}.{suffix}"]
    if name == suffix:
        # A format named as its suffix (json): ``single.json`` names both, before
        # ``single.json.json``.
        both = [*layouts, "all"]
        return [*(f"{n}.{s}" for n in both for s in (suffix, f"{name}.{suffix}")), *named_by_format]
    return [
        *(f"{n}.{name}.{suffix}" for n in layouts),
        f"all.{name}.{suffix}",
        *(f"{n}.{suffix}" for n in layouts),
        *named_by_format,
        f"all.{suffix}",
    ]


def _layouts(page: Page) -> list[str]:
    """The layouts to look for, without their suffix."""
    layout = page.layout
    kind = page.kind
    if kind == "home":
        names = ["index", "home", "list"]
        return [*names, *(f"_default/{n}" for n in names)]
    # A layout set in front matter is looked for in every folder before the kind's names
    # (posts/foo, _default/foo, foo, then posts/single...), as Hugo looks.
    if kind == "page":
        folders = [d for d in dict.fromkeys([page.type, page.section]) if d]
        return [
            *_named(layout, folders),
            *(f"{d}/single" for d in folders),
            "_default/single",
            "single",
        ]
    if kind == "section":
        return [
            *_named(layout, [page.type]),
            f"{page.type}/section",
            f"{page.type}/list",
            f"section/{page.section}",
            "_default/section",
            "section",
            "_default/list",
            "list",
        ]
    singular = page.taxonomy.rstrip("s")
    return [
        f"{page.taxonomy}/{kind}",
        f"{kind}/{singular}",
        f"_default/{kind}",
        kind,
        f"{page.taxonomy}/list",
        "_default/list",
        "list",
    ]


def _named(layout: str, folders: list[str]) -> list[str]:
    if not layout:
        return []
    return [*(f"{d}/{layout}" for d in folders), f"_default/{layout}", layout]


def template_dirs(source: Path) -> list[Path]:
    """Where templates come from, the site's first."""
    dirs = [source / "templates", theme_dir() / "templates"]
    return [d for d in dict.fromkeys(d.resolve() for d in dirs) if d.is_dir()]


def select_layout(env: jinja2.Environment, names: list[str]) -> jinja2.Template:
    """The first of ``names`` in the site's templates, else the first in the theme's.

    Jinja's own ``select_template`` would take a theme file over a site file
    that comes later in ``names``; Hugo lets the site's own templates win.
    """
    found = find_layout(env.matome_template_names, names)
    if found is None:
        raise jinja2.TemplateNotFound(names[0] if names else "", f"looked for {', '.join(names)}")
    return env.get_template(found[1])


def find_layout(names_by_dir: list[frozenset[str]], names: list[str]) -> tuple[int, str] | None:
    """Which template folder (its index) and name ``select_layout`` takes; None: none."""
    for i, names_in_dir in enumerate(names_by_dir):
        for name in names:
            if name in names_in_dir:
                return i, name
    return None


def template_names(directory: Path) -> frozenset[str]:
    return frozenset(
        p.relative_to(directory).as_posix() for p in directory.rglob("*") if p.is_file()
    )


def escapes(name: str | None, formats: dict[str, OutputFormat]) -> bool:
    """Whether a template escapes what it prints for HTML, by its name: a format named in
    it (``list.atom.xml``) escapes unless it is plain text (``isPlainText``, as JSON is);
    else ``.html``, ``.htm`` and ``.xml`` do, and a suffix only formats that are not
    plain text use. A template made from a string escapes."""
    if name is None:
        return True
    parts = name.rsplit("/", 1)[-1].lower().split(".")
    suffix = parts[-1] if len(parts) > 1 else ""
    named = formats.get(parts[-2]) if len(parts) > 2 else None
    if named is not None and named.suffix == suffix:
        return not named.is_plain_text
    if suffix in ("html", "htm", "xml"):
        return True
    users = [f for f in formats.values() if f.suffix == suffix]
    return bool(users) and not any(f.is_plain_text for f in users)


class EscapeKeyedBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's compiled templates on disk, kept by whether the template escapes as well as
    by its name and source: a template compiles to other code once a format that uses it
    becomes plain text, or stops being it."""

    def get_bucket(self, environment, name, filename, source):
        escaped = environment.autoescape
        if callable(escaped):
            escaped = escaped(name)
        key = f"{name}\0{'escaped' if escaped else 'plain'}"
        return super().get_bucket(environment, key, filename, source)


def make_environment(source: Path, strict: bool = False) -> jinja2.Environment:
    """The environment of one build; ``strict``: a name that does not exist is an error."""
    names = UndefinedNames(source, strict)
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(d) for d in template_dirs(source)]),
        undefined=undefined_class(names),
        trim_blocks=False,
        lstrip_blocks=False,
        keep_trailing_newline=True,
        auto_reload=False,
        cache_size=-1,
        finalize=finalize,
        extensions=["jinja2.ext.loopcontrols"],  # break and continue, as Go's range has
    )
    env.code_generator_class = FinalizeFirstCodeGenerator
    env.context_class = QuickCallContext
    env.template_class = QuickImportTemplate
    env.matome_template_names = [template_names(d) for d in template_dirs(source)]
    # The site's formats decide which templates escape (``use_formats``); until a site is
    # known, Hugo's built-in ones.
    env.matome_formats = BUILTIN_FORMATS
    env.autoescape = lambda name: escapes(name, env.matome_formats)
    env.extend(undefined_names=names)
    both = {"plainify": plainify, "humanize": humanize, "jsonify": jsonify}
    both["date_format"] = date_format
    env.filters.update(both, safe_html=Markup, html_unescape=html.unescape)
    env.filters.update(truncate_words=truncate_text, comment_time=comment_time)
    env.filters.update(xml_text=xml_text, safe_url=safe_url)
    env.globals.update(both)
    install_list_and_text_functions(env)
    return env


def use_formats(env: jinja2.Environment, formats: dict[str, OutputFormat]) -> None:
    """Templates compiled from now on escape as the site's formats say (``escapes``)."""
    env.matome_formats = formats


def install_list_and_text_functions(env: jinja2.Environment) -> None:
    """Hugo's collection and text functions Jinja has no built-in for, ``math`` and
    ``diagrams``."""
    lists = {f.__name__: f for f in (where, group_by_date, uniq, union, intersect, delimit)}
    env.filters.update(lists, replace_re=replace_re, find_re=find_re)
    env.globals.update(lists, printf=printf, math=MathFunctions(), diagrams=DiagramsFunctions())


def templates_used_say(env: jinja2.Environment, cache, found: Callable[[str], object]) -> bool:
    """Whether the source of a template that rendered a file or a body recorded in the
    build cache ``cache`` satisfies ``found`` (the calls themselves happened in the
    workers, or in an earlier build for what was kept)."""
    used = {record.templates for record in cache.outputs.values()}
    used.update(entry.templates for entry in cache.content.values())
    for name in frozenset().union(*used):
        try:
            source, _, _ = env.loader.get_source(env, name)
        except jinja2.TemplateNotFound:  # a layout looked for and not there
            continue
        if found(source):
            return True
    return False


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
        if not frame_file.endswith(".py") and not frame_file.startswith("<"):  # a template
            filename = frame_file
            line = tb.tb_lineno
        tb = tb.tb_next
    return SourceError(filename, line, 0, f"{type(exc).__name__}: {exc}")
