"""Paths and URLs as Hugo makes them: sanitized, lower-cased, percent-encoded.

A page has two forms of its location: the output path on disk (Unicode,
``tags/c#/index.html``) and the URL in HTML (``/tags/c%23/``).
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote, unquote

# Characters Hugo keeps in a path besides letters, digits and marks.
_KEPT = frozenset("./\\_#+~-@")
_HEX = frozenset("0123456789abcdefABCDEF")
# Go's URL path escaping keeps these as they are.
_PATH_SAFE = "/-_.~$&+,:;=@"
# Text made only of characters sanitize_path keeps: \w is str.isalnum() and "_".
_ALL_KEPT = re.compile(f"[\\w{re.escape(''.join(sorted(_KEPT)))}]*")
# What is_safe_relative refuses: a Windows drive, a "." or ".." path segment.
_DRIVE = re.compile(r"[A-Za-z]:")
_DOT_SEGMENT = re.compile(r"(?:\A|/)\.\.?(?:/|\Z)")


def sanitize_path(text: str) -> str:
    """Hugo's path sanitizing: keep letters, digits, marks and a few symbols; spaces become ``-``."""
    if _ALL_KEPT.fullmatch(text):  # most terms and file names: every character is kept
        return text
    out: list[str] = []
    pending_hyphen = False
    n = len(text)
    for i, ch in enumerate(text):
        keep = ch in _KEPT or ch.isalnum() or _is_mark(ch)
        if not keep and ch == "%" and i + 2 < n and text[i + 1] in _HEX and text[i + 2] in _HEX:
            keep = True
        if keep:
            if pending_hyphen and (not out or out[-1] != "-"):
                out.append("-")
            pending_hyphen = False
            out.append(ch)
        elif out and ch.isspace():
            pending_hyphen = True
    return "".join(out)


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


def urlize(text: str) -> str:
    """Hugo's ``urlize`` for a term or a title: sanitized, lower-cased, still unescaped."""
    return sanitize_path(str(text)).lower()


def escape_url_path(path: str) -> str:
    """Percent-encode a path the way Go's ``url.URL.EscapedPath`` does."""
    return quote(path, safe=_PATH_SAFE)


_MULTI_SLASH = re.compile(r"/{2,}")


def clean_url(path: str) -> str:
    """Collapse double slashes and make sure the path starts with ``/``."""
    path = _MULTI_SLASH.sub("/", "/" + path.lstrip("/"))
    return path


def output_path_for(url_path: str) -> str:
    """Where a page URL lands on disk: ``/a/b/`` → ``a/b/index.html``, ``/a/b.html`` stays."""
    path = url_path.lstrip("/")
    if not path or path.endswith("/"):
        return path + "index.html"
    last = path.rsplit("/", 1)[-1]
    if "." in last:
        return path
    return path + "/index.html"


def is_safe_relative(path: str) -> bool:
    """True if ``path`` stays inside the destination, as written and once percent-decoded.

    Refused: ``..`` and ``.`` segments, absolute paths, drive letters, NUL and
    backslashes (a path separator on Windows), in either form, since a server in
    front of the site may decode ``%2e%2e`` before it looks at the disk.
    """
    for form in (path, unquote(path)) if "%" in path else (path,):
        if not form or "\x00" in form or "\\" in form or form.startswith("/"):
            return False
        if _DRIVE.match(form) or _DOT_SEGMENT.search(form):
            return False
    return True
