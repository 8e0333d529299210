"""``matome check``: every content problem of a site in one pass, each with file:line:col.

It reads what a build reads (matome's config loader, content loader, front
matter splitter, shortcode parser and site graph, drafts included) but renders
nothing, so it takes a fraction of a build. A problem never stops the run: a
shortcode syntax error is reported, the broken tag blanked out, and the file
parsed again.

Kinds (severity):

- ``encoding`` (error): unreadable, binary or not UTF-8.
- ``front-matter`` (error): front matter that does not parse.
- ``front-matter-type`` (error): ``title`` not text, ``date`` not a date,
  ``draft`` not a boolean, ``weight`` not a number, taxonomy terms not text...
- ``months-mismatch`` (error): ``months`` is not the year/month of ``date``.
- ``featureimage-not-found`` (error): not in the bundle, ``assets/`` or ``static/``.
- ``unknown-shortcode``, ``unclosed-shortcode``, ``shortcode-syntax`` (error).
- ``matomequote-missing-param`` (error): no ``body``, ``userName`` or ``createdAt``.
- ``bad-createdat`` (error): a ``createdAt`` that is not a date.
- ``empty-tags``, ``placeholder-tags`` (warning): ``tags = []``, or tags such as
  ``tag1``, ``TODO``, ``xxx`` left from a template.
- ``config`` (warning): a config key matome does not use, or a config value of
  another type that is read as Hugo reads it.
- ``duplicate-hn-item`` (warning): the Hacker News item an article quotes (its
  first ``news.ycombinator.com/item?id=`` link) is quoted by another article.
- ``ref-not-found`` (error): a ``ref``/``relref`` whose page does not exist.
- ``broken-link`` (error): a Markdown or HTML link into the site that matches
  no page, alias, resource or static file.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from .config import Flags, SiteConfig, load_config
from .content.dates import parse_date, site_zone
from .content.frontmatter import FrontMatter, split_front_matter
from .content.loader import CONTENT_EXTS, is_ignored, load_content
from .content.page import Page
from .errors import SourceError, line_col
from .graph.site import Site, build_site
from .markup.expand import ContentRenderer
from .markup.shortcodes import Shortcode, parse_shortcodes
from .mounts import static_mounts
from .render.environment import make_environment, theme_dir
from .render.plan import out_paths, plan_outputs

SEVERITY = {
    "encoding": "error",
    "front-matter": "error",
    "front-matter-type": "error",
    "months-mismatch": "error",
    "featureimage-not-found": "error",
    "unknown-shortcode": "error",
    "unclosed-shortcode": "error",
    "shortcode-syntax": "error",
    "matomequote-missing-param": "error",
    "bad-createdat": "error",
    "empty-tags": "warning",
    "placeholder-tags": "warning",
    "duplicate-hn-item": "warning",
    "config": "warning",
    "ref-not-found": "error",
    "broken-link": "error",
}
# Tags left from a template: the real site's one is tags = ['tag1', 'tag2']. "ToDo" is a real
# tag there (an article on to-do apps), so only the all-caps markers count.
PLACEHOLDER_TAG = re.compile(
    r"(?i:tags?|タグ|placeholder|dummy|hoge|fuga|piyo|x{3,})[\s_-]*\d*|TODO|TBD|FIXME"
)
# The real site's 2025/11/07 15:41:42, and the ISO form a few of its articles use.
_CREATED_AT = re.compile(
    r"(\d{4})[/-](\d\d)[/-](\d\d)(?:[ T](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?"
)
HN_ITEM = re.compile(r"news\.ycombinator\.com/item\?id=(\d+)")
# The target of [text](url) and ![alt](url) (the text is not needed), and href/src attributes.
_LINK = re.compile(
    r"\]\(\s*<?(?P<url>[^\s()<>]+)"
    r"|<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*[\"'](?P<attr>[^\"']+)[\"']",
    re.I,
)
_STRINGS = ("title", "slug", "url", "description", "linktitle", "type", "layout", "featureimage")
_DATES = ("date", "publishdate", "pubdate", "lastmod", "expirydate")
_UNKNOWN = re.compile(r'unknown shortcode "([^"]+)"')
MAX_RETRIES = 100  # shortcode errors reported per file before giving up on it


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    col: int
    severity: str
    kind: str
    message: str


@dataclass
class _Context:
    config: SiteConfig
    site: Site
    outputs: set[str]
    renderer: ContentRenderer
    prefix: str  # put before content/... in every path shown
    findings: list[Finding]

    def add(self, path: str, line: int, col: int, kind: str, message: str) -> None:
        self.findings.append(Finding(path, line, col, SEVERITY[kind], kind, message))


def check_site(source: Path, prefix: str = "") -> tuple[list[Finding], int]:
    """Every finding for the site at ``source`` (sorted) and how many files were read."""
    flags = Flags(build_drafts=True, build_future=True, build_expired=True)
    config = load_config(source.resolve(), flags)
    now = datetime.now(UTC)
    site = build_site(config, load_content(config, now), now)
    outputs, _ = plan_outputs(site, static_mounts(config.mounts, theme_dir() / "static"))
    ctx = _Context(
        config=config,
        site=site,
        outputs=out_paths(outputs),
        renderer=ContentRenderer(make_environment(config.source), None, site),
        prefix=prefix,
        findings=[],
    )
    for warning in config.warnings:  # named like the content files: from the site's folder
        where = Path(warning.path)
        if where.is_absolute() and where.is_relative_to(config.source):
            where = where.relative_to(config.source)
        ctx.add(f"{prefix}{where.as_posix()}", warning.line, warning.col, "config", warning.message)
    content = config.source / str(config.get("contentdir") or "content")
    sources: dict[int, list[tuple[str, int, int]]] = {}
    files = content_files(content)
    for rel in files:
        item = check_file(ctx, content, rel)
        if item:
            sources.setdefault(item[0], []).append(item[1])
    for item_id, places in sources.items():
        first = places[0][0]
        for path, line, col in places[1:]:
            ctx.add(
                path,
                line,
                col,
                "duplicate-hn-item",
                f"Hacker News item {item_id} is already the source of {first}",
            )
    return sorted(ctx.findings), len(files)


def content_files(root: Path) -> list[str]:
    """The files the loader reads as pages (a leaf bundle's other files are resources)."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not is_ignored(d))
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        names = sorted(n for n in filenames if n.endswith(CONTENT_EXTS) and not is_ignored(n))
        leaf = next((n for n in names if n.rsplit(".", 1)[0] == "index"), None)
        if leaf:
            names, dirnames[:] = [leaf], []
        found += [n if rel_dir == "." else f"{rel_dir}/{n}" for n in names]
    return found


def check_file(ctx: _Context, content: Path, rel: str) -> tuple[int, tuple[str, int, int]] | None:
    """Report one file's problems; return the HN item it quotes, with where, if any."""
    display = f"{ctx.prefix}content/{rel}"
    try:
        data = (content / rel).read_bytes()
        if b"\x00" in data[:8192]:
            raise UnicodeDecodeError("utf-8", data, 0, 1, "binary")
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        ctx.add(display, 0, 0, "encoding", f"cannot read as UTF-8 text: {e}")
        return None
    try:
        fm = split_front_matter(text, display)
    except SourceError as e:
        ctx.add(display, e.line, e.col, "front-matter", e.message)
        return None
    page = ctx.site.get_page(rel)
    is_page = rel.rsplit("/", 1)[-1].rsplit(".", 1)[0] != "_index"
    if fm.format:
        check_front_matter(ctx, fm, display, content / rel, is_page)
    return check_body(ctx, fm, display, page)


# --- front matter ---------------------------------------------------------------------------


def check_front_matter(
    ctx: _Context, fm: FrontMatter, display: str, path: Path, is_page: bool
) -> None:
    fields = {str(k).lower(): (str(k), v) for k, v in fm.data.items()}
    zone = site_zone(ctx.config.time_zone)

    def bad(key: str, message: str, kind: str = "front-matter-type") -> None:
        line, col = fm.key_position(fields[key][0])
        ctx.add(display, line, col, kind, message)

    for key, (name, value) in fields.items():
        if key in _STRINGS and not isinstance(value, str):
            bad(key, f"{name}: expected text, got {_describe(value)}")
        elif key == "draft" and not (isinstance(value, bool) or str(value) in ("true", "false")):
            bad(key, f"{name}: expected true or false, got {_describe(value)}")
        elif key == "weight" and (isinstance(value, bool) or not isinstance(value, int)):
            bad(key, f"{name}: expected a whole number, got {_describe(value)}")
        elif key == "aliases" and not _texts(value):
            bad(key, f"{name}: expected a list of paths, got {_describe(value)}")
        elif key in ctx.config.taxonomies.values() and not _texts(value):
            bad(key, f"{name}: expected a term or a list of terms, got {_describe(value)}")
    dates = {}
    for key in _DATES:
        if key in fields and fields[key][1] not in (None, ""):
            try:
                dates[key] = parse_date(fields[key][1], zone)
            except ValueError as e:
                bad(key, f"{fields[key][0]}: {e}")
    if "months" in fields and "date" in dates and _texts(fields["months"][1]):
        d = dates["date"]
        expected = f"{d.year:04d}/{d.month:02d}"
        months = fields["months"][1]
        values = [months] if isinstance(months, str) else list(months)
        if expected not in [str(v).strip("/") for v in values]:
            bad(
                "months",
                f"months = {_describe(months)} does not match date {d.date().isoformat()}: "
                f"write months = '{expected}'",
                "months-mismatch",
            )
    image = fields.get("featureimage", ("", None))[1]
    if isinstance(image, str) and image.strip() and not _image_exists(ctx, path, image.strip()):
        bad(
            "featureimage",
            f"featureimage {image!r} is not in the page bundle, assets/ or static/",
            "featureimage-not-found",
        )
    if is_page and "tags" in fields and _texts(fields["tags"][1]):
        tags = fields["tags"][1]
        values = [tags] if isinstance(tags, str) else [str(t) for t in tags]
        placeholders = [t for t in values if PLACEHOLDER_TAG.fullmatch(t.strip())]
        if not any(t.strip() for t in values):
            bad("tags", "tags is empty: give the article its tags", "empty-tags")
        elif placeholders:
            shown = ", ".join(repr(t) for t in placeholders)
            bad(
                "tags", f"placeholder tags {shown}: replace them with real ones", "placeholder-tags"
            )


def _texts(value) -> bool:
    """A term or path, or a list of them (Hugo accepts one string for a list)."""
    if isinstance(value, str):
        return True
    return isinstance(value, list) and all(
        isinstance(v, str) or isinstance(v, int) and not isinstance(v, bool) for v in value
    )


def _describe(value) -> str:
    if isinstance(value, str):
        return repr(value)
    return f"{type(value).__name__} {json.dumps(value, default=str, ensure_ascii=False)}"


def _image_exists(ctx: _Context, path: Path, image: str) -> bool:
    if image.startswith(("http://", "https://", "//")):
        return True
    rel = image.lstrip("/")
    places = [m.source for m in ctx.config.mounts if m.component in ("assets", "static")]
    if path.name.rsplit(".", 1)[0] == "index":
        places.insert(0, path.parent)
    return any((place / rel).is_file() for place in places)


# --- body: shortcodes, links, the quoted HN item ----------------------------------------------


def check_body(
    ctx: _Context, fm: FrontMatter, display: str, page: Page | None
) -> tuple[int, tuple[str, int, int]] | None:
    offset = fm.body_line - 1
    body, nodes = parse_reporting(ctx, fm.body, display, offset)
    tags: list[tuple[int, int]] = []
    for sc in _walk(nodes):
        tags += _tag_spans(body, sc)
        if sc.name == "matomeQuote":
            _check_quote(ctx, display, sc)
        elif sc.name in ("ref", "relref"):
            _check_ref(ctx, display, sc, page)
    # Links and HN items are looked for outside shortcode tags and code, which show text.
    text = _blank_spans(body, tags + _code_spans(body))
    if page is not None:
        for m in _LINK.finditer(text):
            url = m.group("url") or m.group("attr")
            target = internal_path(url, page.rel_permalink, ctx.config)
            if target is not None and not _exists(ctx.outputs, target):
                line, col = line_col(body, m.start("url" if m.group("url") else "attr"))
                ctx.add(
                    display,
                    line + offset,
                    col,
                    "broken-link",
                    f"link {url!r}: no such page or file",
                )
    m = HN_ITEM.search(text)
    if m is None:
        return None
    line, col = line_col(body, m.start())
    return int(m.group(1)), (display, line + offset, col)


def parse_reporting(ctx: _Context, body: str, display: str, offset: int) -> tuple[str, list]:
    """Parse shortcodes; on each error report it, blank the tag out and parse again."""
    for _ in range(MAX_RETRIES):
        try:
            return body, parse_shortcodes(body, display, ctx.renderer.takes_inner, offset)
        except SourceError as e:
            unknown = _UNKNOWN.match(e.message)
            kind = "shortcode-syntax"
            if unknown:
                kind = "unknown-shortcode"
            elif e.message.startswith("unclosed shortcode"):
                kind = "unclosed-shortcode"
            ctx.add(display, e.line, e.col, kind, e.message)
            body = _blank_tag(body, _offset(body, e.line - offset, e.col))
            if unknown:  # its closing tags would be reported again
                name = re.escape(unknown.group(1))
                closing = re.compile(r"\{\{[<%]\s*/\s*" + name + r"\s*[>%]\}\}")
                body = closing.sub(lambda c: _spaces(c.group()), body)
    return body, []


def _offset(text: str, line: int, col: int) -> int:
    start = 0
    for _ in range(line - 1):
        start = text.index("\n", start) + 1
    return start + col - 1


def _spaces(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def _blank_tag(body: str, at: int) -> str:
    start = max(body.rfind("{{<", 0, at + 3), body.rfind("{{%", 0, at + 3))
    start = at if start < 0 else start
    ends = [i for i in (body.find(">}}", start + 3), body.find("%}}", start + 3)) if i >= 0]
    end = min(ends) + 3 if ends else len(body)
    return body[:start] + _spaces(body[start:end]) + body[end:]


def _walk(nodes: list):
    for node in nodes:
        if isinstance(node, Shortcode):
            yield node
            if node.inner:
                yield from _walk(node.inner)


def _tag_spans(body: str, sc: Shortcode) -> list[tuple[int, int]]:
    """Where a shortcode's tags are: the whole call, or its opening and closing tag."""
    if sc.inner_source is None:
        return [(sc.offset, sc.end)]
    closing = body.rfind("{{", sc.offset, sc.end)
    return [(sc.offset, closing - len(sc.inner_source)), (closing, sc.end)]


_FENCED_CODE = re.compile(
    r"^[ \t]{0,3}(`{3,}|~{3,})[^\n]*\n.*?(?:^[ \t]{0,3}\1[ \t]*$|\Z)", re.M | re.S
)
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)", re.S)


def _code_spans(body: str) -> list[tuple[int, int]]:
    """Where the body has fenced code blocks and code spans: their text is no link."""
    spans = [m.span() for m in _FENCED_CODE.finditer(body)]
    outside = _blank_spans(body, spans)
    return spans + [m.span() for m in _CODE_SPAN.finditer(outside)]


def _blank_spans(body: str, spans: list[tuple[int, int]]) -> str:
    pieces, pos = [], 0
    for start, end in sorted(spans):
        if start < pos:  # inside a call already blanked
            continue
        pieces += [body[pos:start], " " * (end - start)]
        pos = end
    pieces.append(body[pos:])
    return "".join(pieces)


def _check_quote(ctx: _Context, display: str, sc: Shortcode) -> None:
    params = sc.params if isinstance(sc.params, dict) else {}
    missing = [k for k in ("body", "userName", "createdAt") if not str(params.get(k, "")).strip()]
    if missing:
        ctx.add(
            display,
            sc.line,
            sc.col,
            "matomequote-missing-param",
            f'matomeQuote without {", ".join(missing)}: write {missing[0]}="..."',
        )
    created = str(params.get("createdAt", "")).strip()
    if created and not _is_date(created):
        ctx.add(
            display,
            sc.line,
            sc.col,
            "bad-createdat",
            f"createdAt {created!r} is not a date: write it as 2025/11/07 15:41:42",
        )


def _is_date(text: str) -> bool:
    m = _CREATED_AT.fullmatch(text)
    if m:  # strptime is too slow for every comment of a site
        try:
            datetime(*(int(g or 0) for g in m.groups()))
            return True
        except ValueError:
            return False
    try:
        parse_date(text, UTC)
        return True
    except ValueError:
        return False


def _check_ref(ctx: _Context, display: str, sc: Shortcode, page: Page | None) -> None:
    params = sc.params
    target = params[0] if isinstance(params, list) and params else None
    if isinstance(params, dict):
        target = params.get("path")
    if not isinstance(target, str):
        return
    path = target.partition("#")[0]
    if not path:
        return
    # The lookup of matome's ref (functions.py): site path first, then relative to the page.
    found = ctx.site.get_page(path)
    if found is None and page is not None and page.file and not path.startswith("/"):
        found = ctx.site.get_page(page.file.dir + path)
    if found is None:
        ctx.add(display, sc.line, sc.col, "ref-not-found", f'{sc.name} "{target}": no such page')


def internal_path(url: str, page_url: str, config: SiteConfig) -> str | None:
    """The site path a link points to, or None for external links, anchors and templates."""
    if url.startswith(("#", "mailto:", "tel:", "javascript:", "data:")) or "{{" in url:
        return None
    parts = urlsplit(url)
    base = urlsplit(config.base_url)
    own = parts.netloc == base.netloc and parts.path.startswith(config.base_path + "/")
    if (parts.scheme or parts.netloc) and not own:
        return None
    path = parts.path
    if not path:
        return None
    if not path.startswith("/"):
        path = urljoin(page_url, path)
    if config.base_path and path.startswith(config.base_path + "/"):
        path = path[len(config.base_path) :]
    return unquote(path)


def _exists(outputs: set[str], path: str) -> bool:
    rel = path.lstrip("/")
    return (
        rel in outputs
        or (rel.rstrip("/") + "/index.html").lstrip("/") in outputs
        or (not rel and "index.html" in outputs)
    )


# --- output ---------------------------------------------------------------------------------


def _github_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def format_finding(f: Finding, github: bool) -> str:
    if github:
        where = f"file={_github_escape(f.path, True)},line={max(f.line, 1)},col={max(f.col, 1)}"
        return f"::{f.severity} {where},title={f.kind}::{_github_escape(f.message)}"
    return f"{f.path}:{f.line}:{f.col}: {f.severity}: {f.message} [{f.kind}]"


def run(args) -> int:
    """``matome check [SITE]`` (flags in cli.py): exit 1 when there is an error."""
    started = time.perf_counter()
    site = Path(args.site)
    prefix = "" if site == Path(".") else site.as_posix().rstrip("/") + "/"
    try:
        findings, files = check_site(site, prefix)
    except SourceError as e:  # a broken config: nothing else can be checked
        findings, files = [Finding(e.path, e.line, e.col, "error", "config", e.message)], 0
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    if args.format == "json":
        report = {"files": files, "errors": errors, "warnings": warnings}
        report["findings"] = [asdict(f) for f in findings]
        print(json.dumps(report, ensure_ascii=False, indent=1))
    else:
        github = os.environ.get("GITHUB_ACTIONS") == "true"
        for f in findings:
            print(format_finding(f, github))
        seconds = time.perf_counter() - started
        print(
            f"{errors} error(s), {warnings} warning(s) in {files} file{'s' * (files != 1)} "
            f"({seconds:.1f} s)",
            file=sys.stderr,
        )
    return 1 if errors else 0
