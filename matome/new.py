"""``matome new site DIR`` and ``matome new content PATH``: a working site, and articles from archetypes.

Archetypes are looked up as Hugo does: ``archetypes/<section>.md``, then
``archetypes/default.md``, then matome's own default. An archetype is a Jinja
template that gets ``date`` (now, RFC 3339, like Hugo's ``.Date``), ``file``
(``path``, ``dir``, ``base_name``, ``content_base_name``, ``section``) and
``title`` (the file's name, dashes to spaces, title-cased as Hugo's ``title``),
and the filter ``toml``, which writes a value as TOML (``title = {{ title | toml }}``:
quotes in the title stay valid). Shortcodes in it are left as written.

A Hugo archetype (Go template: ``{{ .Date }}``, ``{{ .File.ContentBaseName }}``,
``{{ replace .Name "-" " " | title }}``, ``{{ now.Format "2006" }}``) is detected
by its syntax and translated to Jinja for the forms archetypes use: fields of
the page, file and site, pipes, and the functions ``replace``, ``title``,
``lower``, ``upper``, ``humanize``, ``urlize``, ``dateFormat`` and ``now``.
Anything else (``if``, ``range``, variables) is an error naming the line.

Neither command ever overwrites a file.
"""

from __future__ import annotations

import io
import json
import re
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import jinja2
import tomli_w

from .config import load_config
from .content.dates import site_zone
from .content.frontmatter import front_matter_text
from .content.urls import urlize
from .graph.sections import title_case
from .render.functions import date_format, humanize


class NewError(Exception):
    """Why a file was not created, and what to do instead."""


# --- matome new site ----------------------------------------------------------------------


def site_config(images: list[str]) -> str:
    """A new site's hugo.toml, with ``images`` as ``[matome] featureImages``.

    Each part is written by tomli-w after its comment (tomli-w writes none). Every
    part but the first holds only tables, so its keys cannot fall into the table before.
    """
    parts = [
        (
            "A matome site: `matome build` writes public/, `matome check` lists content problems.",
            {
                "baseURL": "https://example.org/",
                "title": "海外テックの反応まとめ",
                "defaultContentLanguage": "ja",
                "languageCode": "ja",
                "enableRobotsTXT": True,
                "summaryLength": 0,
                "pagination": {"pagerSize": 20},
                "taxonomies": {"tag": "tags", "months": "months"},
                "outputs": {"home": ["HTML", "RSS", "JSON"]},
            },
        ),
        (
            "Comment bodies use <br> and other inline HTML.",
            {"markup": {"goldmark": {"renderer": {"unsafe": True}}}},
        ),
        (
            "",
            {
                "params": {"dateFormat": "2006/01/02", "mainSections": ["posts"]},
                "menus": {
                    "main": [
                        {"name": "記事一覧", "pageRef": "posts", "weight": 10},
                        {"name": "タグ", "pageRef": "tags", "weight": 20},
                    ]
                },
            },
        ),
        (
            "`matome import hn` gives each new article one of these (from assets/).",
            {"matome": {"featureImages": images}},
        ),
    ]
    return "\n".join(
        (f"# {comment}\n" if comment else "") + tomli_w.dumps(values) for comment, values in parts
    )


DEFAULT_ARCHETYPE = """\
+++
date = {{ date | toml }}
months = {{ date[:7] | replace("-", "/") | toml }}
draft = true
title = {{ title | toml }}
tags = []
+++

> {{ title }}

引用元：



[記事一覧へ]({{% ref "/{{ file.section or 'posts' }}/" %}})
"""

SECTION_INDEX = front_matter_text({"title": "記事一覧"})

# Solid colours for the sample thumbnails (RGB), written as small JPEGs.
THUMBNAILS = {"blue": (52, 101, 164), "green": (78, 154, 6), "orange": (245, 121, 0)}

SAMPLE_QUOTES = [
    (
        "静的サイトジェネレーターは結局、テンプレートとコンテンツの組み合わせだよね。<br>"
        "でも細かい部分で差が出るんだ。",
        "sample_user",
        "#ff5733",
    ),
    ("同意。特にビルド速度は記事が増えると効いてくるよ。", "another_user", ""),
    ("個人的には、ずっと使えるMarkdownのフォルダが一番大事だと思う。", "third_user", ""),
]


def sample_article(now: datetime) -> tuple[str, str]:
    """The scaffold's one article (path under content/, text), in the real site's form."""
    day = now.date()
    url = "https://news.ycombinator.com/item?id=1"
    quotes = [
        f'{{{{<matomeQuote body="{body}" userName="{user}" '
        f'createdAt="{day:%Y/%m/%d} 12:0{i}:00" color="{color}">}}}}'
        for i, (body, user, color) in enumerate(SAMPLE_QUOTES)
    ]
    gap = "\n" * 5
    front = {
        "date": f"{day.isoformat()}T00:00:00",
        "months": f"{day:%Y/%m}",
        "draft": False,
        "title": "matomeへようこそ",
        "tags": ["matome", "サンプル"],
        "featureimage": "thumbnails/blue.jpg",
    }
    text = (
        front_matter_text(front)
        + f"\n> matomeへようこそ\n\n引用元：[{url}]({url})"
        + gap
        + gap.join(quotes[:2])
        + f'{gap}{{{{< details summary="もっとコメントを表示（1）">}}}}\n\n{quotes[2]}\n\n'
        "{{</details>}}\n\n\n\n"
        '[記事一覧へ]({{% ref "/posts/" %}})\n'
    )
    return f"posts/{day:%Y_%m}/{day:%Y_%m_%d}_welcome_to_matome/index.md", text


def _jpeg(rgb: tuple[int, int, int]) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (640, 360), rgb).save(out, "JPEG", quality=85)
    return out.getvalue()


def new_site(directory: Path, now: datetime | None = None) -> list[Path]:
    """Create a site in ``directory`` (which may exist); refuse if any file is already there."""
    now = now or datetime.now(UTC)  # the site has no timeZone: a local date could be "future"
    images = [f"thumbnails/{name}.jpg" for name in THUMBNAILS]
    article_path, article = sample_article(now)
    files: dict[str, str | bytes] = {
        "hugo.toml": site_config(images),
        # What builds make: the site, the build cache, processed images (Hugo's folder).
        ".gitignore": "/public/\n/.matome-cache/\n/resources/_gen/\n",
        "archetypes/default.md": DEFAULT_ARCHETYPE,
        "content/posts/_index.md": SECTION_INDEX,
        f"content/{article_path}": article,
        **{f"assets/thumbnails/{n}.jpg": _jpeg(rgb) for n, rgb in THUMBNAILS.items()},
    }
    existing = [name for name in files if (directory / name).exists()]
    if existing:
        raise NewError(f"{directory} already has {', '.join(existing)}: nothing was written")
    written = []
    for name, data in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
        written.append(path)
    return written


# --- matome new content -------------------------------------------------------------------


@dataclass
class ArchetypeFile:
    """``file`` in an archetype: Hugo's ``.File`` in snake_case."""

    path: str
    dir: str
    base_name: str
    content_base_name: str
    section: str


def file_info(rel: str) -> ArchetypeFile:
    parts = rel.split("/")
    name = parts[-1]
    base = name.rsplit(".", 1)[0]
    folder = "/".join(parts[:-1])
    content_base = parts[-2] if base in ("index", "_index") and len(parts) > 1 else base
    return ArchetypeFile(
        path=rel,
        dir=folder + "/" if folder else "",
        base_name=base,
        content_base_name=content_base,
        section=parts[0] if len(parts) > 1 else "",
    )


def find_archetype(config, section: str) -> tuple[str, str]:
    """(name for messages, template text) of the archetype for ``section``, from the
    site's archetypes mounts (``archetypes/``), the first declared winning."""
    folders = [m for m in config.mounts if m.component == "archetypes"]
    for name in ([f"{section}.md"] if section else []) + ["default.md"]:
        for mount in folders:
            inside = name.removeprefix(mount.target).lstrip("/") if mount.target else name
            path = mount.source / inside
            if (not mount.target or name.startswith(mount.target + "/")) and path.is_file():
                return shown_path(path, config.source), path.read_text(encoding="utf-8")
    return "matome's default archetype", DEFAULT_ARCHETYPE


def shown_path(path: Path, source: Path) -> str:
    """A site's file as messages name it: relative to the site when it is inside."""
    try:
        return path.relative_to(source.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def new_content(site: Path, rel: str, now: datetime | None = None) -> Path:
    """Create ``content/<rel>`` from its archetype; never overwrite."""
    rel = rel.replace("\\", "/").lstrip("/")
    rel = rel.removeprefix("content/")
    if not rel.endswith((".md", ".markdown")):
        raise NewError(f"{rel}: give a Markdown file, e.g. posts/my-article/index.md")
    config = load_config(site)
    target = _content_folder(config) / rel
    if target.exists():
        raise NewError(f"{target} already exists: nothing was written")
    if now is None:
        now = datetime.now(site_zone(config.time_zone)) if config.time_zone else None
        now = now or datetime.now().astimezone()
    info = file_info(rel)
    name, source = find_archetype(config, info.section)
    text = render_archetype(
        source,
        name,
        date=now.isoformat(timespec="seconds"),
        file=info,
        title=title_case(info.content_base_name.replace("-", " ")),
        site={"title": config.title, "base_url": config.base_url, "params": config.params},
        now=now,
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "x", encoding="utf-8") as f:  # "x": fail rather than overwrite
        f.write(text)
    return target


def _content_folder(config) -> Path:
    """Where new content is written: the first content mount for the whole content tree
    (``contentDir``, ``content/``, unless mounts say otherwise)."""
    roots = [m for m in config.mounts if m.component == "content" and not m.target]
    return roots[0].source if roots else config.source / str(config.get("contentdir") or "content")


# --- archetype rendering ------------------------------------------------------------------

# Shortcode delimiters are kept out of Jinja's sight: {{% would start a Jinja expression.
_SHORTCODE_DELIMS = {d: f"\x00SC{i}\x00" for i, d in enumerate(("{{<", ">}}", "{{%", "%}}"), 1)}
# Go: a field (".Date", "(.Name)", "| .X") where Jinja would have a name; a Go comment; "now.Format".
_GO_HINT = re.compile(r"\{\{-?[^}]*?(?<![\w\])])\.[A-Z]|\{\{-?\s*(?:/\*|now\.[A-Z]|\$)")


def is_hugo_archetype(text: str) -> bool:
    return bool(_GO_HINT.search(_protect(text)))


def _protect(text: str) -> str:
    for delim, mark in _SHORTCODE_DELIMS.items():
        text = text.replace(delim, mark)
    return text


def _restore(text: str) -> str:
    for delim, mark in _SHORTCODE_DELIMS.items():
        text = text.replace(mark, delim)
    return text


def toml_value(value: object) -> str:
    """``value`` as TOML writes it after ``key =``: a title with quotes stays valid TOML."""
    text = tomli_w.dumps({"v": value})
    if not text.startswith("v = "):
        raise TypeError(f"the toml filter writes one value, not a table: {value!r}")
    return text.removeprefix("v = ").rstrip("\n")


def render_archetype(source: str, name: str, **context) -> str:
    protected = _protect(source)
    if is_hugo_archetype(source):
        protected = go_to_jinja(protected, name)
    env = jinja2.Environment(
        keep_trailing_newline=True, undefined=jinja2.StrictUndefined, autoescape=False
    )
    env.globals.update(_GO_FUNCTIONS)
    env.filters["toml"] = toml_value
    env.globals["go_now_format"] = lambda layout: date_format(context["now"], str(layout))
    try:
        return _restore(env.from_string(protected).render(**context))
    except jinja2.TemplateSyntaxError as e:
        raise NewError(f"{name}:{e.lineno}: {e.message}") from None
    except jinja2.UndefinedError as e:
        raise NewError(f"{name}: {e.message} (archetypes get date, file, title)") from None
    except (TypeError, ValueError) as e:  # a value the template cannot use, e.g. a table for toml
        raise NewError(f"{name}: {e}") from None


# Hugo's page, file and site fields as the Jinja context names them.
_GO_FIELDS = {
    ".Date": "date",
    ".Name": "file.content_base_name",
    ".Title": "title",
    ".Section": "file.section",
    ".Type": "file.section",
    ".File.ContentBaseName": "file.content_base_name",
    ".File.TranslationBaseName": "file.base_name",
    ".File.BaseFileName": "file.base_name",
    ".File.LogicalName": "file.path.rsplit('/', 1)[-1]",
    ".File.Path": "file.path",
    ".File.Dir": "file.dir",
    ".File.Section": "file.section",
    ".Site.Title": "site.title",
    ".Site.BaseURL": "site.base_url",
}
_GO_FUNCTIONS = {
    "go_replace": lambda s, old, new: str(s).replace(str(old), str(new)),
    "go_title": lambda s: title_case(str(s)),
    "go_lower": lambda s: str(s).lower(),
    "go_upper": lambda s: str(s).upper(),
    "go_humanize": humanize,
    "go_urlize": urlize,
    "go_date_format": lambda layout, value: date_format(value, str(layout)),
}
_GO_CALLS = {
    "replace": "go_replace",
    "strings.Replace": "go_replace",
    "title": "go_title",
    "strings.Title": "go_title",
    "lower": "go_lower",
    "strings.ToLower": "go_lower",
    "upper": "go_upper",
    "strings.ToUpper": "go_upper",
    "humanize": "go_humanize",
    "urlize": "go_urlize",
    "dateFormat": "go_date_format",
    "time.Format": "go_date_format",
}
_ACTION = re.compile(r"\{\{(-?)\s*(.*?)\s*(-?)\}\}", re.S)
_GO_TOKEN = re.compile(
    r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*")|(?P<raw>`[^`]*`)|(?P<num>-?\d+(?:\.\d+)?)'
    r"|(?P<pipe>\|)|(?P<open>\()|(?P<close>\))|(?P<word>[.$]?[A-Za-z_][\w.]*|\.))"
)


class _Unsupported(Exception):
    pass


def go_to_jinja(text: str, name: str) -> str:
    """Rewrite every ``{{ ... }}`` Go action as the equivalent Jinja expression."""

    def action(m: re.Match) -> str:
        left, body, right = m.group(1), m.group(2), m.group(3)
        if body.startswith("/*") and body.endswith("*/"):
            return "{#" + left + " " + body[2:-2].replace("#}", "") + " " + right + "#}"
        try:
            expr = _pipeline(_go_tokens(body))
        except _Unsupported as e:
            line = text.count("\n", 0, m.start()) + 1
            raise NewError(
                f"{name}:{line}: cannot translate the Go template action {{{{ {body} }}}} "
                f"({e}); write this archetype as a Jinja template"
            ) from None
        return "{{" + left + " " + expr + " " + right + "}}"

    return _ACTION.sub(action, text)


def _go_tokens(body: str) -> list[tuple[str, str]]:
    tokens, pos = [], 0
    while pos < len(body):
        m = _GO_TOKEN.match(body, pos)
        if not m or m.end() == pos:
            if body[pos:].strip():
                raise _Unsupported(f"unexpected {body[pos:].strip()[:20]!r}")
            break
        tokens.append((m.lastgroup, m.group(m.lastgroup)))
        pos = m.end()
    return tokens


def _pipeline(tokens: list[tuple[str, str]]) -> str:
    commands: list[list] = [[]]
    depth = 0
    for kind, value in tokens:
        depth += kind == "open"
        depth -= kind == "close"
        if kind == "pipe" and depth == 0:
            commands.append([])
        else:
            commands[-1].append((kind, value))
    expr = None
    for command in commands:
        expr = _command(command, expr)
    if expr is None:
        raise _Unsupported("empty action")
    return expr


def _command(tokens: list, piped: str | None) -> str:
    operands: list[str] = []
    i = 0
    while i < len(tokens):
        kind, value = tokens[i]
        if kind == "open":
            depth, j = 1, i + 1
            while j < len(tokens) and depth:
                depth += tokens[j][0] == "open"
                depth -= tokens[j][0] == "close"
                j += 1
            operands.append("(" + _pipeline(tokens[i + 1 : j - 1]) + ")")
            i = j
            continue
        operands.append(_operand(kind, value, is_first=not operands))
        i += 1
    if not operands:
        raise _Unsupported("empty command")
    head, args = operands[0], operands[1:]
    if head.startswith("go_"):
        return f"{head}({', '.join(args + ([piped] if piped else []))})"
    if args or piped:
        raise _Unsupported(f"{head} is not a function")
    return head


def _operand(kind: str, value: str, is_first: bool) -> str:
    if kind == "str":
        return json.dumps(json.loads(value))
    if kind == "raw":
        return json.dumps(value[1:-1])
    if kind == "num":
        return value
    if kind != "word":
        raise _Unsupported(f"unexpected {value!r}")
    if value in _GO_FIELDS:
        return _GO_FIELDS[value]
    if value.startswith(".Site.Params."):
        return "site.params" + "".join(f"[{json.dumps(k)}]" for k in value.split(".")[3:])
    if value == "now":
        return "now"
    if value.startswith("now."):
        method = value[4:]
        if method == "Format":
            return "go_now_format"
        if method in ("Year", "Month", "Day"):
            return f"now.{method.lower()}"
        raise _Unsupported(f"now.{method}")
    if is_first and value in _GO_CALLS:
        return _GO_CALLS[value]
    raise _Unsupported(f"{value} is not supported")


def run(args) -> int:
    """``matome new site DIR`` / ``matome new content PATH`` (flags in cli.py)."""
    try:
        if args.kind == "site":
            written = new_site(Path(args.path))
            print(f"Created a matome site in {args.path} ({len(written)} files).")
            print(f"Next: cd {args.path} && matome build && matome check")
        else:
            print(f"Created {new_content(Path(args.source), args.path)}")
    except (NewError, OSError) as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1
    return 0
