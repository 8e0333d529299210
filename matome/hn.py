"""``matome import hn``: a Hacker News thread as a draft article in the real site's form.

Sources: a saved thread, either the Algolia API's ``items/<id>`` JSON (comments
nested under ``children``) or the official API's item JSON with its ``kids``
fetched into the same file (nested: each kid an item object; or flat: a JSON
list of every item, kids given by id). With the network, an item id or a
``news.ycombinator.com/item?id=`` URL is fetched from Algolia.

The article: front matter (``date``, ``months``, ``draft = true``, ``title``,
``tags = []``, ``featureimage``), the title as a blockquote, the ``引用元：``
link, then one ``matomeQuote`` per comment in thread order (depth first,
siblings in the order the source gives: the official API's ranking, Algolia's
order). Deleted and dead comments are skipped; their replies are kept. After
the first N comments the rest go into ``details`` blocks of M, titled
もっとコメントを表示（k）, as the real site does (N = M = 30 in its newer
articles).

Colour rule. In the real site about half the comments have no colour and the
rest use six colours about equally, with no link between neighbours' colours;
its first comment is coloured 81% of the time, its second 61%, later ones
about 45%. Those are the odds that a comment has replies in a Hacker News
thread, so the rule is: a comment with (visible) replies starts a conversation
and takes the next colour of the palette, cycling in thread order; a comment
without replies has ``color=""`` (the theme's default colour).

Bodies. HN's HTML becomes the one-line Markdown the real site's bodies use:
paragraphs joined by ``<br>``, ``<i>`` as ``*emphasis*``, links as plain URLs
where Markdown would linkify them whole, else as ``[text](url)``. A shortcode
value cannot hold a raw ``"`` and Hugo drops every backslash of a value that
has ``\\"``, so text is written with HTML entities that Markdown decodes:
``&quot; &amp; &lt; &gt; &#92;``; a literal ``*`` is ``\\*``. Hugo's
``markdownify`` runs shortcodes in the body, so ``{{%`` is written ``{{&#37;``
(``{{<`` cannot occur). Code blocks become ``<pre><code>`` (lines joined by
``<br>``) whose text is escaped further (``&#42; &#95; &#96; &#39;`` ...) so
that neither Markdown nor the typographer touch it; a backtick span whose text
would need such escapes becomes ``<code>`` too. A body that would start a
Markdown block (``# x``, ``1. x``) gets a backslash. Checked against hugo
0.168: both render every fixture body to the same text and links. Rendering
needs raw HTML on (``markup.goldmark.renderer.unsafe``), as the real site has.
"""

from __future__ import annotations

import json
import re
import sys
import urllib.request
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from html.parser import HTMLParser
from pathlib import Path

from .config import SiteConfig, load_config
from .content.dates import site_zone
from .content.frontmatter import front_matter_text

PALETTE = ("#ff5733", "#45d325", "#785bff", "#ff5c5c", "#ff33a1", "#38d3d3")
HN_ITEM_URL = "https://news.ycombinator.com/item?id={}"
ALGOLIA_ITEM_URL = "https://hn.algolia.com/api/v1/items/{}"
CREATED_AT_FORMAT = "%Y/%m/%d %H:%M:%S"  # the real site's createdAt
MORE_COMMENTS = "もっとコメントを表示（{}）"
IMAGE_EXTS = (".jpg", ".jpeg", ".png", ".webp", ".gif", ".avif")


class ThreadError(Exception):
    """A thread that cannot be imported, with what to do about it."""


@dataclass
class Comment:
    id: int
    author: str
    time: datetime
    html: str
    gone: bool  # deleted or dead: not shown, its replies are
    children: list[Comment] = field(default_factory=list)


@dataclass
class Thread:
    id: int
    title: str
    time: datetime
    comments: list[Comment]


@dataclass
class ImportOptions:
    first: int = 30  # comments shown before the first details block
    per_block: int = 30  # comments per details block
    max_comments: int = 0  # 0: all
    article_date: date | None = None  # default: the day the story was posted
    section: str = "posts"


# --- reading a thread -------------------------------------------------------------------


def read_source(source: str, fetch=None) -> object:
    """The JSON of a thread: from a file, else (an id or a URL) from Algolia."""
    path = Path(source)
    if path.is_file():
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ThreadError(f"{source}: not a JSON file: {e}") from None
    m = re.fullmatch(r"(?:https?://news\.ycombinator\.com/item\?id=)?(\d+)", source.strip())
    if not m:
        raise ThreadError(
            f"{source}: no such file; give a saved thread (.json), an item id or an item URL"
        )
    url = ALGOLIA_ITEM_URL.format(m.group(1))
    try:
        return json.loads((fetch or _fetch)(url))
    except (OSError, ValueError) as e:
        raise ThreadError(
            f"cannot fetch {url}: {e}; save the thread JSON there and pass the file"
        ) from None


def _fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read()


def parse_thread(data: object) -> Thread:
    """A thread from Algolia's or the official API's JSON (see the module docstring)."""
    if isinstance(data, list):
        return _from_official_list(data)
    if not isinstance(data, dict):
        raise ThreadError("expected a JSON object (an item) or a list of items")
    if "children" in data:
        root = _algolia_comment(data)
    elif "kids" in data or "by" in data:
        root = _official_comment(data, {})
    else:
        raise ThreadError(
            "not a Hacker News item: expected Algolia's items/<id> JSON (with children) "
            "or the official API's item JSON (with kids)"
        )
    return Thread(root.id, str(data.get("title") or ""), root.time, root.children)


def _algolia_comment(item: dict) -> Comment:
    created = item.get("created_at_i")
    if created is not None:
        time = datetime.fromtimestamp(int(created), UTC)
    else:
        time = datetime.fromisoformat(str(item.get("created_at")).replace("Z", "+00:00"))
    gone = (
        item.get("author") is None
        or (item.get("text") is None and item.get("type") == "comment")
        or bool(item.get("deleted") or item.get("dead"))
    )
    return Comment(
        id=int(item["id"]),
        author=str(item.get("author") or ""),
        time=time,
        html=str(item.get("text") or ""),
        gone=gone,
        children=[_algolia_comment(c) for c in item.get("children") or [] if isinstance(c, dict)],
    )


def _official_comment(item: dict, by_id: dict[int, dict]) -> Comment:
    kids = []
    for kid in item.get("kids") or []:
        kid_item = kid if isinstance(kid, dict) else by_id.get(int(kid))
        if kid_item is not None:  # a kid that was not fetched is left out
            kids.append(_official_comment(kid_item, by_id))
    return Comment(
        id=int(item["id"]),
        author=str(item.get("by") or ""),
        time=datetime.fromtimestamp(int(item.get("time") or 0), UTC),
        html=str(item.get("text") or ""),
        gone=bool(item.get("deleted") or item.get("dead")) or not item.get("by"),
        children=kids,
    )


def _from_official_list(items: list) -> Thread:
    by_id = {int(i["id"]): i for i in items if isinstance(i, dict) and "id" in i}
    roots = [i for i in by_id.values() if i.get("type") != "comment" or "parent" not in i]
    if not roots:
        raise ThreadError("the list of items has no story (an item without a parent)")
    root = _official_comment(roots[0], by_id)
    return Thread(root.id, str(roots[0].get("title") or ""), root.time, root.children)


# --- thread order and colours -----------------------------------------------------------


@dataclass
class Quote:
    comment: Comment
    color: str


def visible_replies(comment: Comment) -> list[Comment]:
    """Replies as shown: a deleted or dead reply is replaced by its own replies."""
    out = []
    for child in comment.children:
        out.extend(visible_replies(child) if child.gone else [child])
    return out


def thread_quotes(thread: Thread) -> list[Quote]:
    """Every visible comment, depth first, coloured by the rule in the module docstring."""
    quotes: list[Quote] = []
    coloured = 0

    def walk(comments: list[Comment]) -> None:
        nonlocal coloured
        for c in comments:
            if c.gone:
                walk(c.children)
                continue
            replies = visible_replies(c)
            color = ""
            if replies:
                color = PALETTE[coloured % len(PALETTE)]
                coloured += 1
            quotes.append(Quote(c, color))
            walk(c.children)

    walk(thread.comments)
    return quotes


# --- HN's HTML to a shortcode body --------------------------------------------------------

_CODE_ESCAPES = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "\\": "&#92;",
    "`": "&#96;",
    "*": "&#42;",
    "_": "&#95;",
    "[": "&#91;",
    "]": "&#93;",
    "~": "&#126;",
    "'": "&#39;",
    "\n": "<br>",
}
_CODE_CHARS = re.compile(
    r"[&<>\"\\`*_\[\]~'\n]|-(?=-)|(?<=-)-|\.(?=\.\.)|(?<=\.)\.(?=\.)|(?<=\.\.)\."
)
_TEXT_CHARS = re.compile(r'[&<>"\\*]')
_TEXT_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\\": "&#92;", "*": "\\*"}
_BACKTICKS = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)|`+")
# Markdown would linkify these whole: no character it trims, escapes or ends a URL on.
_PLAIN_URL = re.compile(r"https?://[A-Za-z0-9\-._~:/?#@!$+,;=%]*[A-Za-z0-9\-_~/#=%+]")
_BAD_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
# A line that starts with one of these would open a Markdown block.
_BLOCK_START = re.compile(r"(#{1,6}|[-+=]|\d{1,9}[.)]|\[[^\]]*\]:)(?=\s|$)|[-=_~]{3}")


def escape_code(text: str) -> str:
    """Code inside ``<pre><code>`` or ``<code>``: Markdown and the typographer leave it alone."""
    return _CODE_CHARS.sub(lambda m: _CODE_ESCAPES.get(m.group(), f"&#{ord(m.group())};"), text)


def escape_text(text: str) -> str:
    """Prose: entities Markdown decodes, backtick spans kept (or made ``<code>`` if they must be)."""
    out = []
    pos = 0
    for m in _BACKTICKS.finditer(text):
        out.append(_TEXT_CHARS.sub(lambda c: _TEXT_ESCAPES[c.group()], text[pos : m.start()]))
        if m.group(2) is None:  # an unmatched backtick must not pair with one after a <br>
            out.append("&#96;" * len(m.group()))
        elif _TEXT_CHARS.search(m.group(2)):
            out.append(f"<code>{escape_code(m.group(2))}</code>")
        else:
            out.append(m.group())
        pos = m.end()
    out.append(_TEXT_CHARS.sub(lambda c: _TEXT_ESCAPES[c.group()], text[pos:]))
    return "".join(out)


def _link_destination(href: str) -> str:
    return (
        href.replace("&", "&amp;")
        .replace(" ", "%20")
        .replace('"', "%22")
        .replace("(", "%28")
        .replace(")", "%29")
        .replace("<", "%3C")
        .replace(">", "%3E")
        .replace("\\", "%5C")
        .replace("`", "%60")
    )


@dataclass
class _Link:
    href: str
    text: str


class _BodyParser(HTMLParser):
    """HN's comment HTML (``<p>``, ``<i>``, ``<a>``, ``<pre><code>``) as pieces of a body."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list = []  # str (escaped Markdown), "<br>", ("pre", code) or _Link
        self.stack: list[tuple[str, list]] = []  # open <i> and <a>: (tag or href, their pieces)
        self.code: list[str] | None = None

    @property
    def target(self) -> list:
        return self.stack[-1][1] if self.stack else self.pieces

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if self.code is not None:
            return
        if tag == "pre":
            self.code = []
        elif tag in ("p", "br"):
            self.target.append("<br>")
        elif tag in ("i", "em"):
            self.stack.append(("i", []))
        elif tag == "a":
            self.stack.append((dict(attrs).get("href") or "", []))

    def handle_endtag(self, tag: str) -> None:
        if self.code is not None:
            if tag == "pre":
                self.target.append(("pre", "".join(self.code).strip("\n")))
                self.code = None
            return
        if tag in ("i", "em") and self.stack and self.stack[-1][0] == "i":
            _, inner = self.stack.pop()
            if not all(isinstance(p, str) for p in inner):
                self.target.extend(["*", *inner, "*"])
                return
            text = "".join(inner)
            core = text.strip()
            if core:  # "* x *" is no emphasis in Markdown: spaces go outside
                lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]
                self.target.append(f"{lead}*{core}*{trail}")
        elif tag == "a" and self.stack and self.stack[-1][0] != "i":
            href, inner = self.stack.pop()
            self.target.append(_Link(href, "".join(p for p in inner if isinstance(p, str))))

    def handle_data(self, data: str) -> None:
        if self.code is not None:
            self.code.append(data)
            return
        if self.stack and self.stack[-1][0] != "i":  # link text: raw until the link is written
            self.target.append(data.replace("\n", " "))
        else:
            self.target.append(escape_text(data.replace("\n", " ")))

    def close_all(self) -> list:
        self.close()
        while self.stack:  # unclosed <i> or <a>: keep their text
            _, inner = self.stack.pop()
            self.target.extend(inner)
        if self.code is not None:
            self.target.append(("pre", "".join(self.code).strip("\n")))
            self.code = None
        return self.pieces


def hn_html_to_body(html_text: str) -> str:
    """A comment's HTML as a ``matomeQuote`` body (see the module docstring)."""
    parser = _BodyParser()
    parser.feed(html_text)
    pieces = parser.close_all()
    out: list[str] = []
    for i, piece in enumerate(pieces):
        if piece == "<br>":
            if out and out[-1] != "<br>" and not out[-1].endswith("</pre>"):
                out.append("<br>")
        elif isinstance(piece, tuple):
            if out and out[-1] == "<br>":
                out.pop()  # <pre> is a block: a <br> before it would add an empty line
            out.append(f"<pre><code>{escape_code(piece[1])}</code></pre>")
        elif isinstance(piece, _Link):
            out.append(_link_markdown(piece, "".join(out), _next_text(pieces, i + 1)))
        else:
            out.append(piece)
    while out and out[-1] == "<br>":
        out.pop()
    body = "".join(out).strip()
    while body.startswith("<br>"):
        body = body[4:].lstrip()
    # Hugo's markdownify runs shortcodes in the body too ("{{<" cannot occur: "<" is escaped).
    body = body.replace("{{%", "{{&#37;")
    # A body that starts like a Markdown block (or an HTML block, <pre>) would not render inline.
    if body.startswith("<pre>"):
        body = "<br>" + body
    elif _BLOCK_START.match(body):
        digits = body[0].isdigit()
        body = re.sub(r"(\d+)([.)])", r"\1\\\2", body, count=1) if digits else "\\" + body
    return body


def _next_text(pieces: list, start: int) -> str:
    for piece in pieces[start:]:
        if isinstance(piece, str):
            return piece
        return "<"  # a link or code block: a tag follows
    return ""


def _ends_url(after: str) -> bool:
    """Whether Markdown's linkify stops right where the URL ends (trailing ``.,:;!?)`` are trimmed)."""
    rest = after.lstrip(".,:;!?)")
    return not rest or rest[0] in " <"


def _link_markdown(link: _Link, before: str, after: str) -> str:
    href, text = link.href.strip(), link.text.strip()
    if not href.startswith(("http://", "https://")):
        return escape_text(text)
    # HN shortens long link texts with "..."; the href is the whole URL.
    same = text == href or (text.endswith("...") and href.startswith(text[:-3]))
    plain = (
        same
        and _PLAIN_URL.fullmatch(href)
        and not _BAD_UNDERSCORE.search(href)
        and (not before or before[-1] in " >(")
        and _ends_url(after)
    )
    if plain:
        return href
    label = escape_text(text or href).replace("[", "\\[").replace("]", "\\]")
    return f"[{label}]({_link_destination(href)})"


# --- the article ----------------------------------------------------------------------------


def _markdown_line(text: str) -> str:
    """A title on a Markdown line: punctuation that could start formatting is escaped."""
    return re.sub(r"([\\`*_\[\]<{])", r"\\\1", text)  # "{" : no "{{%" shortcode


def quote_shortcode(q: Quote, zone) -> str:
    body = hn_html_to_body(q.comment.html)
    created = q.comment.time.astimezone(zone).strftime(CREATED_AT_FORMAT)
    return (
        f'{{{{<matomeQuote body="{body}" userName="{q.comment.author}" '
        f'createdAt="{created}" color="{q.color}">}}}}'
    )


def feature_images(config: SiteConfig) -> list[str]:
    """``[matome] featureImages`` in the config, else every image in ``assets/thumbnails/``."""
    configured = (config.get("matome") or {}).get("featureimages")
    if isinstance(configured, str):
        configured = [configured]
    if configured:
        return [str(v) for v in configured]
    folder = config.source / str(config.get("assetdir") or "assets") / "thumbnails"
    if not folder.is_dir():
        return []
    return sorted(
        f"thumbnails/{p.name}" for p in folder.iterdir() if p.suffix.lower() in IMAGE_EXTS
    )


def article_day(thread: Thread, zone, options: ImportOptions) -> date:
    return options.article_date or thread.time.astimezone(zone).date()


def render_article(thread: Thread, config: SiteConfig, options: ImportOptions) -> str:
    """The article's text, in the real site's layout (blank lines included)."""
    zone = site_zone(config.time_zone)
    day = article_day(thread, zone, options)
    quotes = thread_quotes(thread)
    if options.max_comments > 0:
        quotes = quotes[: options.max_comments]
    images = feature_images(config)
    front = {
        "date": f"{day.isoformat()}T00:00:00",
        "months": f"{day.year:04d}/{day.month:02d}",
        "draft": True,
        "title": thread.title,
        "tags": [],
    }
    if images:
        front["featureimage"] = images[thread.id % len(images)]
    url = HN_ITEM_URL.format(thread.id)
    text = front_matter_text(front)
    text += f"\n> {_markdown_line(thread.title)}\n\n引用元：[{url}]({url})"
    calls = [quote_shortcode(q, zone) for q in quotes]
    first, per_block = max(options.first, 0), max(options.per_block, 1)
    gap = "\n" * 5  # four blank lines between comments and blocks, as in the real articles
    for call in calls[:first]:
        text += gap + call
    rest = calls[first:]
    for k, start in enumerate(range(0, len(rest), per_block), 1):
        block = gap.join(rest[start : start + per_block])
        summary = MORE_COMMENTS.format(k)
        text += f'{gap}{{{{< details summary="{summary}">}}}}\n\n{block}\n\n{{{{</details>}}}}'
    return text + f'\n\n\n\n[記事一覧へ]({{{{% ref "/{options.section}/" %}}}})\n'


def slug(title: str, words: int = 8) -> str:
    """The real site's folder names: the title's first words, lower case, joined by ``_``."""
    cleaned = re.sub(r"['’.$]", "", title.lower())
    return "_".join(re.findall(r"[a-z0-9]+", cleaned)[:words]) or "thread"


def default_path(thread: Thread, config: SiteConfig, options: ImportOptions) -> str:
    day = article_day(thread, site_zone(config.time_zone), options)
    folder = f"{day:%Y_%m}/{day:%Y_%m_%d}_{slug(thread.title)}"
    return f"{options.section}/{folder}/index.md"


def import_thread(
    source: str,
    site: Path,
    options: ImportOptions,
    output: str | None = None,
    force: bool = False,
    fetch=None,
) -> tuple[Path, int]:
    """Write the article; return its path and how many comments it holds."""
    config = load_config(site)
    data = read_source(source, fetch)
    try:
        thread = parse_thread(data)
    except (
        KeyError,
        TypeError,
        ValueError,
    ) as e:  # an item without id, a time that is not a number
        raise ThreadError(f"{source}: not a Hacker News thread ({type(e).__name__}: {e})") from None
    content = site / str(config.get("contentdir") or "content")
    rel = output or default_path(thread, config, options)
    path = Path(rel) if Path(rel).is_absolute() else content / rel
    if path.suffix not in (".md", ".markdown"):
        path = path / "index.md"
    if path.exists() and not force:
        raise ThreadError(f"{path} exists: pass --force to overwrite it")
    text = render_article(thread, config, options)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path, text.count("{{<matomeQuote ")


def run(args) -> int:
    """``matome import hn SOURCE`` (flags in cli.py)."""
    try:
        day = date.fromisoformat(args.date) if args.date else None
    except ValueError:
        print(f"Error: --date {args.date}: write the date as YYYY-MM-DD", file=sys.stderr)
        return 2
    options = ImportOptions(args.first, args.per_block, args.max, day)
    try:
        path, count = import_thread(
            args.thread, Path(args.source), options, args.output, args.force
        )
    except (ThreadError, OSError) as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1
    print(f"{path}: {count} comments (draft)")
    return 0
