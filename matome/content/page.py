"""The page model, in Hugo's vocabulary: kind, section, bundle, resource, term.

A ``Page`` is made by the loader (from a file) or by the site graph (sections
without ``_index.md``, taxonomies, terms). Rendered content is attached later
by the build; templates read pages through the attributes and methods here,
named as DESIGN.md's template API says.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from operator import attrgetter
from pathlib import Path
from typing import Any

from markupsafe import Markup

from ..formats import OutputFormats, page_output_format
from .words import plain_words


class _ZeroDate(datetime):
    """Hugo's zero time: falsy in templates, so ``{% if page.date %}`` works as in Go."""

    def __bool__(self) -> bool:
        return False


ZERO_DATE = _ZeroDate(1, 1, 1, tzinfo=UTC)

# A matomeQuote call, not one inside a {{</* comment */>}} (those start with "/*").
_MATOME_QUOTE = re.compile(r"\{\{[<%]\s*matomeQuote\b")


def media_type(name: str) -> str:
    """A file's media type by its extension, as Hugo's resources give it."""
    import mimetypes

    return mimetypes.guess_type(name)[0] or "application/octet-stream"


@dataclass
class Resource:
    """A file of a page bundle, copied next to the page's output."""

    name: str  # path relative to the bundle ("images/a.png"), or front matter's name
    source: Path
    rel_permalink: str
    permalink: str
    out_path: str
    title: str = ""  # front matter's title, else the path relative to the bundle
    params: dict = field(default_factory=dict)  # front matter [[resources]] params

    @property
    def media_type(self) -> str:
        return media_type(self.source.name)

    @property
    def resource_type(self) -> str:
        return self.media_type.split("/")[0]

    # Hugo's resource methods for templates; render/resources.py makes them.
    @property
    def content(self) -> Any:
        return _template_resource(self).content

    @property
    def width(self) -> int:
        return _template_resource(self).width

    @property
    def height(self) -> int:
        return _template_resource(self).height

    def resize(self, spec: str) -> Any:
        return _template_resource(self).resize(spec)

    def fit(self, spec: str) -> Any:
        return _template_resource(self).fit(spec)

    def fill(self, spec: str) -> Any:
        return _template_resource(self).fill(spec)

    def crop(self, spec: str) -> Any:
        return _template_resource(self).crop(spec)

    def process(self, spec: str) -> Any:
        return _template_resource(self).process(spec)


def _template_resource(resource: Resource) -> Any:
    from ..render.resources import bundle_resource  # rendering imports the page model

    return bundle_resource(resource)


class Resources(list):
    """``page.resources``: a bundle's files, with Hugo's ``.Resources`` methods."""

    def get(self, name: str) -> Resource | None:
        """Hugo's ``.Resources.Get``: the file of that name (a path in the bundle)."""
        wanted = str(name).strip().lstrip("/")
        return next((r for r in self if r.name == wanted), None)

    def get_match(self, pattern: str) -> Resource | None:
        """Hugo's ``.Resources.GetMatch``: the first file whose name matches the glob."""
        found = self.match(pattern)
        return found[0] if found else None

    def match(self, pattern: str) -> Resources:
        """Hugo's ``.Resources.Match``: every file whose name matches the glob (``*``, ``**``,
        ``?``, ``[ab]``, ``{a,b}``; any case)."""
        from ..images.thumbnails import glob_regex  # the images module imports this one

        regex = glob_regex(str(pattern).strip().lstrip("/"))
        return Resources(r for r in self if regex.match(r.name))

    def by_type(self, kind: str) -> Resources:
        """Hugo's ``.Resources.ByType``: the files of one main media type (``image``)."""
        return Resources(r for r in self if r.resource_type == kind)


@dataclass
class FileInfo:
    """``page.file``: where the page came from, relative to ``content/``."""

    path: str  # posts/2025_11/x/index.md, posts/a.fr.md (with its language part)
    dir: str  # posts/2025_11/x/
    base_name: str  # index; "a" for a.fr.md (Hugo's TranslationBaseName)
    content_base_name: str  # x for a bundle, else the file's base name
    filename: str  # absolute path on disk
    lang: str = ""  # the page's language, by the file's name or content folder
    # A language's own contentDir ("content/fr"), where the page is; "" for the site's.
    content_dir: str = ""
    # Unique among the files of every language (set by the loader): the path, after a
    # language's own content folder ("content_de:posts/a.md"). Builds name a page by it.
    key: str = ""
    # The content folder the file was read from, relative to the site ("content",
    # "content/fr", a contentDir of the config): messages name the file from the site.
    folder: str = "content"

    @property
    def site_path(self) -> str:
        """The file relative to the site, as messages name it: content/fr/posts/a.md."""
        return f"{self.folder}/{self.path}"

    @property
    def logical_name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def translation_base_name(self) -> str:
        return self.base_name

    @property
    def base_file_name(self) -> str:
        """The file's name without its extension, language part kept: "a.fr"."""
        return self.logical_name.rsplit(".", 1)[0]


@dataclass
class Term:
    """One term of a taxonomy as templates see it from a page."""

    name: str
    url: str
    count: int
    page: Page

    # The term's page's fields, under the names templates use for both.
    permalink = property(attrgetter("page.permalink"))
    rel_permalink = property(attrgetter("page.rel_permalink"))
    title = property(attrgetter("page.title"))
    pages = property(attrgetter("page.pages"))


class _Rendered:
    """A page field set by rendering its content. A build can leave fields on disk (in its
    cache) until a template reads one: most builds render few pages, and a page's HTML is
    read by its own file alone."""

    def __init__(self, default: Any):
        self.default = default

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, page: Page | None, owner: type | None = None) -> Any:
        if page is None:
            return self.default  # the dataclass's default
        deferred = page.__dict__.get("load_rendered")
        if deferred is None:
            return self.default
        load = deferred[0]
        # Fields still here stay: a worker's copy of the text its parent holds would be
        # its own, kept for the whole stage.
        fields = page.__dict__
        for name, value in load().items():
            fields.setdefault(name, value)
        return fields.get(self.name, self.default)


RENDERED_FIELDS = (
    "content_html",
    "summary_html",
    "truncated",
    "plain",
    "word_count",
    "fuzzy_word_count",
    "reading_time",
    "toc",
)


# What a rendered body's page holds only while a template reads it: most are read by the
# page's own file alone (its HTML, and its text for a description and a reading time).
LARGE_FIELDS = ("content_html", "plain")


def defer_rendered(page: Page, load: Any, names: tuple[str, ...] = RENDERED_FIELDS) -> None:
    """Leave these rendered fields to ``load()`` (a dict with at least them), called when
    one of them is read."""
    for name in names:
        page.__dict__.pop(name, None)
    # With the large fields ``load()`` gives back, which ``drop_content`` may free again.
    page.__dict__["load_rendered"] = (load, _large(names))


@functools.cache
def _large(names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(name for name in LARGE_FIELDS if name in names)


def drop_content(page: Page) -> None:
    """Free a page's HTML and text again when they can be loaded back (``defer_rendered``)."""
    deferred = page.__dict__.get("load_rendered")
    if deferred is not None:
        for name in deferred[1]:
            page.__dict__.pop(name, None)


@dataclass(eq=False)
class Page:
    kind: str  # page, section, home, taxonomy, term
    title: str
    params: dict
    rel_permalink: str  # escaped URL path, "/posts/x/"
    out_path: str  # unescaped file path in the destination, "posts/x/index.html"
    permalink: str = ""
    section: str = ""
    type: str = ""
    layout: str = ""
    date: datetime = ZERO_DATE
    lastmod: datetime = ZERO_DATE
    publish_date: datetime = ZERO_DATE
    expiry_date: datetime = ZERO_DATE
    draft: bool = False
    weight: int = 0
    slug: str = ""
    link_title: str = ""
    description: str = ""
    aliases: list[str] = field(default_factory=list)
    file: FileInfo | None = None
    body: str = ""
    body_line: int = 1
    front_matter_format: str = ""
    # Front matter ``isCJKLanguage``, else with ``hasCJKLanguage`` whether the file holds CJK
    # script: words are then counted per character (``words.py``).
    is_cjk_language: bool = False
    resources: Resources = field(default_factory=Resources)
    outputs: list[str] = field(default_factory=list)
    # Filled in by the site graph.
    parent: Page | None = None
    pages: list[Page] = field(default_factory=list)
    regular_pages: list[Page] = field(default_factory=list)
    sections: list[Page] = field(default_factory=list)
    taxonomy: str = ""  # plural name, for taxonomy and term pages
    term: str = ""  # display name, for term pages
    term_key: str = ""  # urlized term
    page_terms: dict[str, list[Term]] = field(default_factory=dict)
    dates_taken: bool = False  # a list page's dates are its pages' newest (``take_dates``)
    prev: Page | None = None  # the next older page (Hugo's .Prev)
    next: Page | None = None
    prev_in_section: Page | None = None
    next_in_section: Page | None = None
    # Filled in by rendering (or, from the build cache, when first read: ``defer_rendered``).
    content_html: str = _Rendered("")
    summary_html: str = _Rendered("")
    truncated: bool = _Rendered(False)
    plain: str = _Rendered("")
    word_count: int = _Rendered(0)
    fuzzy_word_count: int = _Rendered(0)
    reading_time: int = _Rendered(0)
    toc: str = _Rendered("")
    pagers: list = field(default_factory=list)  # every pager of a list page
    paginator: Any = None  # the pager being rendered (Hugo's .Paginator)
    rendering_format: str = "html"  # the output format being rendered, set as paginator is
    index: int = -1  # position in Site.pages; how workers name a page
    url_override: str = ""  # front matter `url`
    resource_names: list[str] = field(default_factory=list)  # bundle files, set by the loader
    site_params: dict = field(default_factory=dict)
    site: Any = None  # the Site of this page's language, set by the site graph
    lang: str = ""  # the page's language code
    # The page and its translations, in the order of the languages (set by the site graph
    # when the page has translations; empty otherwise).
    translation_group: list[Page] = field(default_factory=list)
    git_info: Any = None  # the file's last commit (content/gitinfo.py), with enableGitInfo
    # Build options (graph/build_options.py): whether the page is written and listed.
    render: str = "always"  # always, never, link
    list_mode: str = "always"  # always, never, local
    publish_resources: bool = True
    ugly: bool = False  # uglyURLs: /posts/a.html for a page, /posts/index.html for a list

    @functools.cached_property
    def comment_count(self) -> int:
        """How many comments the article quotes (its matomeQuote calls), for list cards."""
        return len(_MATOME_QUOTE.findall(self.body))

    @property
    def related(self) -> list[Page]:
        """Pages that share the most ``[related]`` terms with this one."""
        return self.site.related(self) if self.site is not None else []

    # --- what templates read -------------------------------------------------
    @property
    def language(self) -> Any:
        """The page's language (``lang``, ``language_name``, ``language_code``, ``weight``)."""
        return self.site.language if self.site is not None else None

    @property
    def translations(self) -> list[Page]:
        """The same page in the other languages, in the order of the languages."""
        return [p for p in self.translation_group if p is not self]

    @property
    def all_translations(self) -> list[Page]:
        """The page and its translations, in the order of the languages."""
        return self.translation_group or [self]

    @property
    def is_translated(self) -> bool:
        return len(self.translation_group) > 1

    @property
    def content(self) -> Markup:
        return Markup(self.content_html)

    @property
    def summary(self) -> Markup:
        return Markup(self.summary_html)

    @property
    def output_dir(self) -> str:
        """The folder of the page's other files (feeds, pagers): ``posts/a`` for both
        ``posts/a/index.html`` and an ugly ``posts/a.html``."""
        if self.out_path == "index.html" or self.out_path.endswith("/index.html"):
            return self.out_path[: -len("index.html")].rstrip("/")
        return self.out_path.rsplit(".", 1)[0]

    @property
    def plain_words(self) -> list[str]:
        """Hugo's ``.PlainWords``: the words of ``plain``."""
        return plain_words(self.plain)

    @property
    def is_page(self) -> bool:
        return self.kind == "page"

    @property
    def is_section(self) -> bool:
        return self.kind == "section"

    @property
    def is_home(self) -> bool:
        return self.kind == "home"

    @property
    def is_node(self) -> bool:
        return self.kind != "page"

    @property
    def bundle_type(self) -> str:
        if self.file is None:
            return ""
        if self.file.base_name == "index":
            return "leaf"
        if self.file.base_name == "_index":
            return "branch"
        return ""

    @property
    def first_section(self) -> Page | None:
        page = self
        while page.parent is not None and page.parent.kind != "home":
            page = page.parent
        return page if page.kind == "section" else None

    @property
    def current_section(self) -> Page | None:
        return self if self.kind in ("section", "home") else self.parent

    @property
    def file_depth(self) -> int:
        return self.file.dir.count("/") if self.file else 1

    @property
    def name(self) -> str:
        return self.link_title or self.title

    @property
    def lastmod_or_date(self) -> datetime:
        return self.lastmod if self.lastmod != ZERO_DATE else self.date

    @property
    def has_date(self) -> bool:
        return self.date != ZERO_DATE

    @property
    def output_formats(self) -> OutputFormats:
        """Hugo's ``.OutputFormats``: each format the page is rendered in, with its URLs."""
        site = self.site
        if site is None:
            return OutputFormats()
        formats = site.output_formats
        return OutputFormats(
            page_output_format(self, formats[name], site.config)
            for name in self.outputs
            if name in formats
        )

    @property
    def alternative_output_formats(self) -> OutputFormats:
        """Hugo's ``.AlternativeOutputFormats``: the others than the one being rendered,
        but for those marked ``notAlternative``."""
        return OutputFormats(
            f
            for f in self.output_formats
            if f.name != self.rendering_format and not f.format.not_alternative
        )

    def is_menu_current(self, menu: str, entry: Any) -> bool:
        """Hugo's ``.IsMenuCurrent``: ``entry`` (of ``menu``) is this page's."""
        from ..graph.menus import is_menu_current

        return is_menu_current(self, menu, entry)

    def has_menu_current(self, menu: str, entry: Any) -> bool:
        """Hugo's ``.HasMenuCurrent``: ``entry`` is a section this page is in, or one of
        its children is this page's."""
        from ..graph.menus import has_menu_current

        return has_menu_current(self, menu, entry)

    def terms(self, taxonomy: str) -> list[Term]:
        """The terms this page has in ``taxonomy`` (plural name), in front matter order."""
        return self.page_terms.get(taxonomy, [])

    def get_terms(self, taxonomy: str) -> list[Term]:
        return self.terms(taxonomy)

    def param(self, key: str, default: Any = None) -> Any:
        """Hugo's ``.Param``: the page's value, else the site's (set by the site graph)."""
        value = lookup_param(self.params, key)
        if value is None:
            value = lookup_param(self.site_params, key)
        return default if value is None else value

    def resource(self, pattern: str) -> Resource | None:
        """Hugo's ``.Resources.GetMatch``: the first bundle file matching a glob."""
        from fnmatch import fnmatch

        for res in self.resources:
            if fnmatch(res.name.lower(), pattern.lower()):
                return res
        return None

    def resources_by_type(self, kind: str) -> list[Resource]:
        return [r for r in self.resources if r.resource_type == kind]

    def __repr__(self) -> str:
        return f"<Page {self.kind} {self.rel_permalink}>"


def lookup_param(tree: dict, dotted: str) -> Any:
    """A value by its key in any case, as Hugo reads params; ``a.b`` reads into tables.

    A key spelled as asked is found by hashing; only another spelling is searched for
    (a theme asks for the same few keys on every page of a site)."""
    node: Any = tree
    for part in dotted.split("."):
        if not isinstance(node, dict):
            return None
        found = node.get(part)
        if found is None:
            want = part.lower()
            found = next((v for k, v in node.items() if str(k).lower() == want), None)
        node = found
        if node is None:
            return None
    return node
