"""Hugo's embedded link and image render hooks, written in Python.

Hugo ships ``_markup/render-link.html`` and ``_markup/render-image.html`` of its own and
uses them where a site has none, as ``markup.goldmark.renderHooks.link.useEmbedded`` and
``...image.useEmbedded`` say: "always" and "fallback" (the same in Hugo 0.168), "never",
or "auto", which is "fallback" on a site with a ``[languages]`` table served from one
host and "never" elsewhere (see ``markdown/settings.py``). The Markdown fast path writes
autolinks as the link hook does (``markdown/fastpath.py``); other links and images take
the full path.

With them, a link's destination that names a page (``other.md``, ``../foo/``,
``/posts/x``, as the page's ``GetPage`` finds it), a resource of the page or a file of
``assets/`` becomes its URL, its query and fragment kept; a lone ``#x`` becomes the page's
own URL with it; anything else stays as written. An image's is looked for among the
page's resources and ``assets/``. The URLs are written as Go's ``url.URL.String`` and
html/template write them (``go_url.py``): ``(`` as ``%28``, other schemes than http,
https and mailto as ``#ZgotmplZ``.

A destination Go cannot parse (``%zz``) fails the build, as in Hugo.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..content.coerce import float_string
from ..graph.paths import RefIndex, index_refs, resolve_ref
from .go_url import GoURL, URLError, attribute_text, parse_url, replace_each, url_attribute

EmbeddedHook = Callable[[dict[str, Any], dict[str, Any]], str]


class DestinationError(ValueError):
    """A destination Go's ``url.Parse`` refuses; the message says which and why."""

    def __init__(self, destination: str, message: str):
        super().__init__(message)
        self.destination = destination

    def place_in(self, markdown: str) -> tuple[int, int]:
        """Line and column (from 1) of the destination in the ``markdown`` rendered: its
        first appearance after ``(`` or ``<``, else anywhere; (1, 1) when not there."""
        for before in ("(", "<", ""):
            at = markdown.find(before + self.destination)
            if at >= 0:
                at += len(before)
                line_start = markdown.rfind("\n", 0, at) + 1
                return markdown.count("\n", 0, at) + 1, at - line_start + 1
        return 1, 1


def embedded_hooks(
    link_mode: str, image_mode: str, asset: Callable[[str], Any]
) -> dict[str, EmbeddedHook]:
    """The embedded hooks a site uses, by kind ("link", "image"); each is called with the
    element's context and the page's variables (``page``, ``site``). ``asset(path)`` is
    templates' ``resources.get``: the file of ``assets/`` at ``path``, or None."""
    hooks: dict[str, EmbeddedHook] = {}
    indexes = PageIndexes()
    if link_mode != "never":
        hooks["link"] = lambda context, variables: render_link(context, variables, asset, indexes)
    if image_mode != "never":
        hooks["image"] = lambda context, variables: render_image(context, variables, asset)
    return hooks


def _parsed(destination: str, kind: str) -> GoURL:
    try:
        return parse_url(destination)
    except URLError as e:
        raise DestinationError(destination, f"render-{kind}: {e}") from None


def _with_query_and_fragment(url: str, parsed: GoURL) -> str:
    if parsed.raw_query:
        url += "?" + parsed.raw_query
    if parsed.fragment:
        url += "#" + parsed.fragment
    return url


class PageIndexes:
    """Each language's pages indexed by their paths, made at a page's first link (the
    pages of a multilingual site's languages take turns)."""

    def __init__(self) -> None:
        self.made: dict[int, tuple[list, RefIndex]] = {}

    def of(self, pages: list) -> RefIndex:
        found = self.made.get(id(pages))
        if found is None or found[0] is not pages:
            found = self.made[id(pages)] = (pages, index_refs(pages))
        return found[1]


def find_page(page: Any, path: str, indexes: PageIndexes) -> Any:
    """The page ``path`` names from ``page``, as Hugo's ``.Page.GetPage`` finds it, or
    None."""
    site = page.site
    if site is None:
        return None
    found = resolve_ref(indexes.of(site.pages), page, path, bare_names=False)
    if found is not None:  # logged as a lookup, for incremental builds (as ``ref`` does)
        site.get_page(f"/{found.file.path}" if found.file else found.rel_permalink)
    return found


def render_link(
    context: dict[str, Any],
    variables: dict[str, Any],
    asset: Callable[[str], Any],
    indexes: PageIndexes,
) -> str:
    """Hugo's embedded ``render-link.html``."""
    page = variables["page"]
    parsed = _parsed(context["destination"], "link")
    href = parsed.string()
    if href.startswith("#"):
        href = f"{page.rel_permalink}#{parsed.fragment}"
    elif href and not parsed.is_abs:
        path = parsed.path.removeprefix("./")
        found = find_page(page, path, indexes) or page.resources.get(path) or asset(path)
        if found is not None:
            href = _with_query_and_fragment(found.rel_permalink, parsed)
    title = context["title"]
    title = f' title="{attribute_text(title)}"' if title else ""
    return f'<a href="{url_attribute(href)}"{title}>{context["text"]}</a>'


def render_image(
    context: dict[str, Any], variables: dict[str, Any], asset: Callable[[str], Any]
) -> str:
    """Hugo's embedded ``render-image.html``."""
    page = variables["page"]
    parsed = _parsed(context["destination"], "image")
    src = parsed.string()
    if not parsed.is_abs:
        path = parsed.path.removeprefix("./")
        found = page.resources.get(path) or asset(path)
        if found is not None:
            src = _with_query_and_fragment(found.rel_permalink, parsed)
    out = f'<img src="{url_attribute(src)}" alt="{attribute_text(context["plain_text"])}"'
    if context["title"]:
        out += f' title="{attribute_text(context["title"])}"'
    attributes = context["attributes"]
    for name in sorted(attributes):
        value = attributes[name]
        if value:
            out += f" {name}={_go_quote(_html_escape(_go_string(value)))}"
    return out + ">"


def _go_string(value: Any) -> str:
    """A value as Hugo's ``cast.ToString`` prints it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return float_string(value)  # no exponent: 1e21 is 1000000000000000000000
    return str(value)


# "&" first, as the others bring one in.
_HTML_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("'", "&#39;"), ('"', "&#34;"))


def _html_escape(text: str) -> str:
    """Go's ``html.EscapeString`` (Hugo's ``transform.HTMLEscape``)."""
    return replace_each(text, _HTML_ESCAPES)


def _go_quote(text: str) -> str:
    """Go's ``%q`` of a string: backslash escapes for quotes, backslashes and control
    characters."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch in "\n\t\r":
            out.append({"\n": "\\n", "\t": "\\t", "\r": "\\r"}[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'
