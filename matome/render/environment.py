"""The Jinja environment: template lookup in Hugo's order and Hugo's functions as filters.

A site's own ``templates/`` overrides the default theme file by file. A site's
``layouts/`` folder holds Go templates for Hugo and is never read.
"""

from __future__ import annotations

import functools
import html
import json
import re
from datetime import UTC, date, datetime
from pathlib import Path
from types import BuiltinFunctionType, FunctionType, MethodType
from typing import Any, NamedTuple

import jinja2
from jinja2.runtime import Context, Macro
from jinja2.utils import missing
from markupsafe import Markup, escape

from ..content.page import Page
from ..errors import SourceError

PACKAGE = Path(__file__).resolve().parent.parent
REPO_ROOT = PACKAGE.parent


def theme_dir() -> Path:
    """The default theme: inside the wheel when installed, at the repository root in a checkout."""
    packaged = PACKAGE / "theme"
    return packaged if (packaged / "templates").is_dir() else REPO_ROOT


# --- Go's reference-time layouts ------------------------------------------------
_GO_TOKENS = [
    ("January", "%B"),
    ("Monday", "%A"),
    ("Z07:00", "Z07:00"),
    ("-07:00", "-07:00"),
    ("-0700", "%z"),
    ("2006", "%Y"),
    ("Jan", "%b"),
    ("Mon", "%a"),
    ("MST", "%Z"),
    (".000", ".000"),
    ("01", "%m"),
    ("02", "%d"),
    ("_2", "_2"),
    ("15", "%H"),
    ("03", "%I"),
    ("04", "%M"),
    ("05", "%S"),
    ("06", "%y"),
    ("PM", "%p"),
    ("pm", "pm"),
    ("1", "1"),
    ("2", "2"),
    ("3", "3"),
    ("4", "4"),
    ("5", "5"),
]
_GO_PATTERN = re.compile("|".join(re.escape(t) for t, _ in _GO_TOKENS))


def date_format(value: Any, layout: str = "2006-01-02") -> str:
    """Format a date with a Go layout (``2006/01/02``) or a strftime pattern (``%Y/%m/%d``)."""
    if value is None or value == "":
        return ""
    if isinstance(value, datetime):
        # Lists, feeds and the sitemap format the same few thousand dates over and over.
        return _format_datetime(value, layout)
    if isinstance(value, str):
        from ..content.dates import parse_date

        value = parse_date(value, UTC)
    if isinstance(value, date) and not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day)
    return _format_datetime(value, layout)


@functools.lru_cache(maxsize=65536)
def _format_datetime(value: datetime, layout: str) -> str:
    if "%" in layout:
        return value.strftime(layout)
    return _GO_PATTERN.sub(lambda m: _go_token(value, m.group(0)), layout)


def _go_token(d: datetime, token: str) -> str:
    if token in ("Z07:00", "-07:00"):
        offset = d.utcoffset()
        if offset is None or (token == "Z07:00" and not offset):
            return "Z" if token == "Z07:00" else "+00:00"
        z = d.strftime("%z")
        return f"{z[:3]}:{z[3:]}"
    simple = {
        "2006": f"{d.year:04d}",
        ".000": f".{d.microsecond // 1000:03d}",
        "_2": f"{d.day:2d}",
        "pm": d.strftime("%p").lower(),
        "1": str(d.month),
        "2": str(d.day),
        "3": str(d.hour % 12 or 12),
        "4": str(d.minute),
        "5": str(d.second),
    }
    if token in simple:
        return simple[token]
    fmt = dict(_GO_TOKENS)[token]
    if fmt == "%Z":
        return d.strftime("%Z") or "UTC"
    return d.strftime(fmt)


# --- Hugo's text functions ----------------------------------------------------
_TAG = re.compile(r"<[^>]*>")


def plainify(value: Any) -> str:
    """Hugo's ``plainify``: the text with every HTML tag removed."""
    return _TAG.sub("", str(value))


# XML 1.0 forbids the C0 controls but tab, newline and carriage return.
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
_XML_REPLACEMENTS = {code: 0xFFFD for code in range(32) if code not in (9, 10, 13)}


def xml_text(value: Any) -> str:
    """``value`` fit for an XML 1.0 document: each forbidden control character becomes
    U+FFFD. The search goes first: ``str.translate`` looks up every character, which
    for the real blog's feeds (14 MB) took half a second."""
    text = value if isinstance(value, str) else str(value)
    return text.translate(_XML_REPLACEMENTS) if _XML_FORBIDDEN.search(text) else text


class CommentTime(NamedTuple):
    """A comment's ``createdAt`` for display: ``iso`` is set when it is a date and time."""

    iso: str
    text: str


# Dashes or slashes, then "T" or a space: the forms matome and the HN importers write.
_COMMENT_TIME = re.compile(r"(\d{4})[-/](\d\d)[-/](\d\d)[T ](\d\d:\d\d)(:\d\d)")


def comment_time(value: Any) -> CommentTime:
    """``2025/11/07 15:41:42`` or ``2025-11-07T15:41:42`` as ``2025/11/07 15:41``; else as written."""
    created = str(value or "").strip()
    m = _COMMENT_TIME.fullmatch(created)
    if m is None:
        return CommentTime("", created)
    year, month, day, minute, seconds = m.groups()
    return CommentTime(f"{year}-{month}-{day}T{minute}{seconds}", f"{year}/{month}/{day} {minute}")


# Schemes a configured link may use; Go's html/template allows these and prints #ZgotmplZ
# for any other (javascript:, data:, vbscript:, ...).
_SAFE_SCHEMES = ("http", "https", "mailto", "tel")


def safe_url(value: Any) -> str:
    """A URL from the configuration (a menu entry, an author link) fit for an ``href``:
    relative, or with a safe scheme; anything else becomes Hugo's ``#ZgotmplZ``.
    Autoescaping keeps a value inside its attribute, not a ``javascript:`` URL harmless."""
    text = str(value or "").strip().replace("\t", "").replace("\n", "").replace("\r", "")
    head = text.split("/")[0].split("?")[0].split("#")[0]
    if ":" not in head or head.split(":")[0].lower() in _SAFE_SCHEMES:
        return text
    return "#ZgotmplZ"


def humanize(value: Any) -> str:
    text = str(value)
    if text.isdigit():
        n = int(text)
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    text = re.sub(r"[-_]+", " ", text).strip()
    return text[:1].upper() + text[1:]


def truncate_text(value: Any, length: int = 70, ellipsis: str = " …") -> str:
    """Hugo's ``truncate``: cut at a word boundary, never inside an HTML tag."""
    text = str(value)
    if len(text) <= length:
        return text
    cut = text[:length]
    if " " in cut and not text[length].isspace():
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip() + ellipsis


def jsonify(value: Any, indent: int | None = None) -> Markup:
    return Markup(json.dumps(value, ensure_ascii=False, indent=indent, default=_json_default))


def _json_default(value: Any):
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, Page):
        return value.permalink
    return str(value)


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


def _names_in(directory: Path) -> frozenset[str]:
    return frozenset(
        p.relative_to(directory).as_posix() for p in directory.rglob("*") if p.is_file()
    )


class QuickCallContext(Context):
    """Jinja's context with a shorter ``call`` for what templates call most.

    ``Context.call`` asks every callable, on every call, whether it wants the context or
    the environment passed in (``hasattr`` checks that fail): 2 us a call, a tenth of a
    matome comment card. Here the answer is known for built-in methods (no attribute
    can be set on them), marked on each Python function, and known for macros."""

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (Jinja's names)
        kind = type(__obj)
        if kind is Macro and _MACRO_TAKES_EVAL_CONTEXT:
            __obj, args = __obj.__call__, (__self.eval_ctx, *args)
        elif kind is FunctionType or kind is MethodType:
            marks = getattr(__obj.__func__ if kind is MethodType else __obj, "__dict__", None)
            if marks is None or _TAKES_NOTHING not in marks:
                if marks is None or hasattr(__obj, "jinja_pass_arg"):
                    return super().call(__obj, *args, **kwargs)
                marks[_TAKES_NOTHING] = True
        elif kind is not BuiltinFunctionType:
            return super().call(__obj, *args, **kwargs)
        if kwargs:  # what Jinja adds inside loops and blocks, for callables that take the context
            kwargs.pop("_loop_vars", None)
            kwargs.pop("_block_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:  # as Jinja does
            return __self.environment.undefined(
                "value was undefined because a callable raised a StopIteration exception"
            )


class QuickImportTemplate(jinja2.Template):
    """Jinja's template, quicker to ``{% import %}`` (every page imports the theme's macros)
    and to start a render in.

    Jinja lists the names of a template's globals, a ``ChainMap`` of its own and the
    environment's, key by key in Python: for each context it makes (``set(globals)``, 2 us)
    and before reusing an imported module (a set difference, 35 us an import). The names
    are taken once here, and again only when a map has grown (globals are only ever
    added)."""

    def _global_names(self) -> frozenset[str]:
        own, common = self.globals.maps
        found = self.__dict__.get("_matome_global_names")
        if found is None or found[0] != len(own) or found[1] != len(common):
            found = self._matome_global_names = (len(own), len(common), frozenset(self.globals))
        return found[2]

    def _get_default_module(self, ctx: Context | None = None) -> Any:
        if (
            ctx is not None
            and self._module is not None
            and ctx.globals_keys <= self._global_names()
        ):
            return self._module
        return super()._get_default_module(ctx)

    @classmethod
    def _from_namespace(cls, environment: Any, namespace: Any, globals: Any) -> Any:
        # The compiled template finds ``escape`` in its namespace at each ``{{ }}``.
        namespace["escape"] = output_escape
        return super()._from_namespace(environment, namespace, globals)

    def new_context(
        self, vars: dict | None = None, shared: bool = False, locals: Any = None
    ) -> Context:
        """Jinja's (``jinja2.runtime.new_context``), with the globals copied dict to dict
        and their names taken once: for every file, partial and include rendered (25,000
        in a build of the real blog)."""
        maps = getattr(self.globals, "maps", None)
        if maps is None or len(maps) != 2:
            return super().new_context(vars, shared, locals)
        if vars is None:
            vars = {}
        if shared:
            parent = dict(vars) if locals else vars
        else:
            own, common = maps  # the template's own globals win, as in the ChainMap
            parent = {**common, **own, **vars}
        if locals:
            for key, value in locals.items():
                if value is not missing:
                    parent[key] = value
        env = self.environment
        names = self._global_names()
        return env.context_class(env, parent, self.name, self.blocks, globals=names)


def output_escape(value: Any) -> Any:
    """What a ``{{ }}`` writes when autoescaping: ``escape(value)``, whose result is joined
    into the page, without making a Markup of text that needs no escaping (the commonest
    output: a title, a URL, a date), which took a tenth of a file's render."""
    kind = type(value)
    if kind is str:
        return value if _ESCAPED.search(value) is None else escape(value)
    return value if kind is Markup else escape(value)


_ESCAPED = re.compile("[&<>'\"]")


# Marks, on the function itself, one with none of Jinja's pass_* decorators. A set of them
# kept `matome serve`'s every site graph alive (each holds functions bound to its site).
_TAKES_NOTHING = "_matome_takes_nothing"
_MACRO_TAKES_EVAL_CONTEXT = getattr(Macro.__call__, "jinja_pass_arg", None) is getattr(
    jinja2.pass_eval_context(lambda: None), "jinja_pass_arg", False
)


def make_environment(source: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(d) for d in template_dirs(source)]),
        autoescape=jinja2.select_autoescape(
            enabled_extensions=("html", "xml", "htm"), default_for_string=True
        ),
        undefined=jinja2.ChainableUndefined,
        trim_blocks=False,
        lstrip_blocks=False,
        keep_trailing_newline=True,
        auto_reload=False,
        cache_size=-1,
    )
    env.context_class = QuickCallContext
    env.template_class = QuickImportTemplate
    env.matome_template_names = [_names_in(d) for d in template_dirs(source)]
    env.filters.update(
        plainify=plainify,
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
    env.globals.update(date_format=date_format, plainify=plainify, humanize=humanize)
    return env


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
