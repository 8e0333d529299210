"""Hugo's ``resources.GetRemote``, ``try`` and ``transform.Unmarshal`` for templates.

Hugo's built-in ``x``, ``x_simple`` and ``vimeo_simple`` shortcodes ask a provider's
oEmbed endpoint for what to embed while building; offline, they warn and write nothing.
matome's do the same through these functions:

- ``resources.get_remote(url)`` fetches the URL (an HTTP GET), and returns a resource
  (``content``, ``media_type``), or None when the server answers 404; any other failure
  raises, which fails the render unless the call is wrapped in ``try``.
- ``try(function, *args)`` calls it and returns ``.value`` and ``.err`` (the error's
  message, or None), as Hugo's ``try`` does: ``{% set r = try(resources.get_remote, url) %}``.
- the ``unmarshal`` filter reads JSON, TOML, YAML or CSV text (a resource by its media type).

As in Hugo, whose ``getresource`` cache has no maximum age, a response is fetched once and
kept (``resources/_gen/remote/``, beside matome's other generated resources): later
builds read it from disk. Delete the folder to fetch again. A failed fetch is not kept.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from ..config import parse_data
from ..errors import SourceError
from ..publish.files import write_if_changed
from .text import go_regex

TIMEOUT = 30  # seconds for one request, as a slow provider may need

# Response types by the suffix a kept response is published with.
_SUFFIXES = {
    "application/json": ".json",
    "text/html": ".html",
    "text/plain": ".txt",
    "text/xml": ".xml",
    "application/xml": ".xml",
    "text/csv": ".csv",
    "application/toml": ".toml",
    "application/yaml": ".yaml",
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/gif": ".gif",
    "image/webp": ".webp",
    "image/svg+xml": ".svg",
}


# Hugo's ``[security.http] urls`` when a site sets none: a host name, not an IP address,
# not localhost, no user name in the URL.
DEFAULT_URLS = (
    r"(?i)^https?://[a-z0-9]",
    r"! (?i)^https?://\d+\.",
    r"! (?i)localhost",
    r"! (?i)^https?://[^/?#]*@",
)
NEGATION = "! "


class RemoteError(OSError):
    """A URL that could not be fetched (no connection, or an HTTP error but 404)."""


def url_allowed(url: str, patterns: Any) -> bool:
    """Whether Hugo's ``security.http.urls`` (``patterns``: one or a list; ``"none"``
    refuses all) lets ``url`` be fetched: no ``"! "`` pattern matches it, and some other
    pattern does (with none, any URL not refused)."""
    if patterns is None:
        patterns = DEFAULT_URLS
    elif isinstance(patterns, str):
        patterns = [patterns]
    patterns = [str(p).strip() for p in patterns if str(p).strip()]
    if not patterns or "none" in patterns:
        return False
    deny = [_pattern(p[len(NEGATION) :]) for p in patterns if p.startswith(NEGATION)]
    allow = [_pattern(p) for p in patterns if not p.startswith(NEGATION)]
    if any(p.search(url) for p in deny):
        return False
    return any(p.search(url) for p in allow) if allow else bool(deny)


def _pattern(text: str) -> re.Pattern:
    try:
        return go_regex(text)
    except re.error as e:
        raise ValueError(f"security.http.urls: {text!r} is not a regular expression: {e}") from None


def remote_folder(source: Path) -> Path:
    return source / "resources" / "_gen" / "remote"


def fetch(folder: Path, url: str) -> tuple[Path, str] | None:
    """The kept response of ``url`` (fetched now if it is not kept yet) and its suffix, or
    None when the server answers 404."""
    name = hashlib.sha256(url.encode()).hexdigest()
    for kept in folder.glob(f"{name}.*") if folder.is_dir() else ():
        return kept, kept.suffix  # (a write in progress is a hidden file: not matched)
    import urllib.error  # only when a template fetches: http.client and ssl load slowly
    import urllib.request

    request = urllib.request.Request(url, headers={"User-Agent": "matome"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            data = response.read()
            kind = response.headers.get_content_type()
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return None
        message = f"failed to fetch remote resource from {url!r}: {e.code} {e.reason}"
        raise RemoteError(message) from None
    except (urllib.error.URLError, OSError, ValueError) as e:
        reason = getattr(e, "reason", None) or e
        raise RemoteError(f"failed to fetch remote resource from {url!r}: {reason}") from None
    suffix = _SUFFIXES.get(kind, os.path.splitext(urlparse(url).path)[1] or ".bin")
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name}{suffix}"
    write_if_changed(target, data)  # whole or not at all: another worker may read it
    return target, suffix


@dataclass(frozen=True)
class Attempt:
    """What Hugo's ``try`` returns: the call's value, or the message of its error."""

    value: Any = None
    err: str | None = None


def attempt(function: Any, *args: Any, **kwargs: Any) -> Attempt:
    """Hugo's ``try``: a failing call gives ``.err`` instead of failing the render."""
    try:
        return Attempt(function(*args, **kwargs))
    except (SourceError, OSError, ValueError, TypeError, LookupError) as e:
        return Attempt(None, str(e))


def unmarshal(value: Any, fmt: str | None = None) -> Any:
    """Hugo's ``transform.Unmarshal``: a resource's text by its media type, or text by the
    look of it (JSON, then TOML, then YAML; ``fmt`` names one)."""
    text = value.content if hasattr(value, "media_type") else str(value)
    if fmt is None and hasattr(value, "media_type"):
        fmt = str(value.media_type).split("/")[-1].split("+")[0]
    if fmt == "csv":
        return list(csv.reader(io.StringIO(text)))
    if fmt in ("json", "toml", "yaml", "yml"):
        return parse_data(text, fmt, "unmarshal", tables_only=False)
    stripped = text.lstrip()
    if stripped[:1] in ("{", "["):
        return json.loads(text)
    try:
        return parse_data(text, "toml", "unmarshal", tables_only=False)
    except SourceError:
        return parse_data(text, "yaml", "unmarshal", tables_only=False)
