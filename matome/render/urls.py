"""Hugo's URL functions for templates: ``abs_url``, ``rel_url`` and ``urlize``, as Hugo
0.168 makes them (``tests/test_template_api.py`` compares each with Hugo's output).

What surprises people coming from other tools, as it does in Hugo: a path that starts
with ``/`` is taken from the host's root, not the ``baseURL``'s path, so with
``baseURL = "https://example.org/blog/"``, ``"css/a.css" | rel_url`` is ``/blog/css/a.css``
and ``"/css/a.css" | rel_url`` is ``/css/a.css``.
"""

from __future__ import annotations

import posixpath
from urllib.parse import quote, urlsplit

from ..content.urls import escape_url_path, urlize

# What Go's url.URL.String leaves as it is in a fragment.
_FRAGMENT_SAFE = "/$&+,:;=@!()*?'-_.~"


def _go_join(base: str, path: str) -> str:
    """Go's ``path.Join``: the two joined and cleaned (``..`` resolved), no trailing slash."""
    joined = "/".join(part for part in (base, path) if part)
    if not joined:
        return ""
    cleaned = posixpath.normpath(joined)
    return "/" + cleaned.lstrip("/") if cleaned.startswith("/") else cleaned


def _has_scheme(text: str) -> bool:
    head = text.split("/", 1)[0]
    return text.startswith("//") or (":" in head and head.split(":", 1)[0].isalnum())


def go_url(text: str) -> str:
    """A URL as Go's ``url.Parse`` then ``String`` write it: the path percent-encoded, the
    query kept, the fragment (after the first ``#``) encoded as a fragment."""
    rest, hashed, fragment = text.partition("#")
    path, asked, query = rest.partition("?")
    out = escape_url_path(path) + (f"?{query}" if asked else "")
    return out + (f"#{quote(fragment, safe=_FRAGMENT_SAFE)}" if hashed else "")


def urlize_url(value: object, lower: bool = True) -> str:
    """Hugo's ``urlize``: lower case (unless ``lower`` is false: ``disablePathToLower``),
    spaces as ``-``, percent-encoded as a URL path."""
    return go_url(urlize(str(value), lower))


def abs_url(base_url: str, value: object) -> str:
    """Hugo's ``absURL``: ``path`` on the ``baseURL`` (on its host when it starts with
    ``/``); a URL with a scheme or ``//`` stays as it is."""
    text = str(value)
    if _has_scheme(text):
        return text
    base = urlsplit(base_url)
    root = f"{base.scheme}://{base.netloc}" if base.scheme else ""
    base_path = "" if text.startswith("/") else base.path
    rest, hashed, fragment = text.partition("#")
    path, asked, query = rest.partition("?")
    joined = _go_join(base_path, path)
    trailing = (text == "" and base_url.endswith("/")) or path.endswith("/")
    if trailing and not joined.endswith("/"):
        joined += "/"
    if joined and not joined.startswith("/"):
        joined = "/" + joined
    out = root + escape_url_path(joined) + (f"?{query}" if asked else "")
    return out + (f"#{quote(fragment, safe=_FRAGMENT_SAFE)}" if hashed else "")


def rel_url(base_url: str, value: object) -> str:
    """Hugo's ``relURL``: ``path`` under the ``baseURL``'s path (from the root when it starts
    with ``/``); a URL on the site becomes its path, another site's stays as it is."""
    text = str(value)
    base = base_url if not text.startswith("/") else root_of(base_url)
    if _has_scheme(text) and not (base and text.startswith(base)):
        return text
    url = text[len(base) :] if base and text.startswith(base) else text
    joined = _go_join(urlsplit(base).path, url)
    if joined != "/" and url.endswith("/"):
        joined += "/"
    if text == "" and not joined.endswith("/") and base.endswith("/"):
        joined += "/"
    return joined if joined.startswith("/") else "/" + joined


def root_of(base_url: str) -> str:
    """The scheme and host of a URL, without its path: "https://example.org"."""
    parts = urlsplit(base_url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme else ""
