"""Paths and URLs as Hugo makes them: sanitized, lower-cased (unless ``disablePathToLower``),
percent-encoded.

A page has two forms of its location: the output path on disk (Unicode,
``tags/c#/index.html``) and the URL in HTML (``/tags/c%23/``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from urllib.parse import quote, unquote, unquote_plus

# Characters Hugo keeps in a path besides letters, decimal digits and marks.
_KEPT = frozenset("./\\_#+~-@")
_HEX = frozenset("0123456789abcdefABCDEF")
# Go's URL path escaping keeps these as they are.
_PATH_SAFE = "/-_.~$&+,:;=@"
# ASCII text made only of characters sanitize_path keeps (most terms and file names).
_ALL_KEPT = re.compile(r"[A-Za-z0-9./\\_#+~@-]*")
# Go's unicode.IsSpace besides the separators (categories Z*).
_GO_SPACES = frozenset("\t\n\v\f\r \x85\xa0")
# What is_safe_relative refuses: a Windows drive, a "." or ".." path segment.
_DRIVE = re.compile(r"[A-Za-z]:")
_DOT_SEGMENT = re.compile(r"(?:\A|/)\.\.?(?:/|\Z)")


@functools.lru_cache(maxsize=65536)
def sanitize_path(text: str) -> str:
    """Hugo's path sanitizing (``paths.Sanitize``): keep letters, decimal digits, marks, a
    few symbols and ``%XX``; drop the rest (punctuation such as « » … “ ” ・ included). A
    run of spaces becomes one ``-``, none at the start, none next to a ``-`` already there."""
    if _ALL_KEPT.fullmatch(text):
        return text
    out: list[str] = []
    pending_hyphen = False
    last_hyphen = False
    n = len(text)
    for i, ch in enumerate(text):
        if ch in _KEPT or _is_letter_digit_or_mark(ch):
            keep = True
        else:
            keep = ch == "%" and i + 2 < n and text[i + 1] in _HEX and text[i + 2] in _HEX
        if keep:
            last_hyphen = ch == "-"
            if pending_hyphen and not last_hyphen:
                out.append("-")
            pending_hyphen = False
            out.append(ch)
        elif out and not last_hyphen and _is_go_space(ch):
            pending_hyphen = True
    return "".join(out)


def _is_letter_digit_or_mark(ch: str) -> bool:
    # Go's unicode.IsLetter (L*), IsDigit (Nd only: not ½, ² or Ⅷ) and IsMark (M*).
    category = unicodedata.category(ch)
    return category[0] in "LM" or category == "Nd"


def _is_go_space(ch: str) -> bool:
    return ch in _GO_SPACES or unicodedata.category(ch)[0] == "Z"


def file_path_segment(name: str, lower: bool = True) -> str:
    """A folder or file name as part of a page's path: Hugo turns each space into ``-``
    before sanitizing (``a - b.md`` is ``a---b``), then lower-cases unless ``lower`` is
    false (``disablePathToLower``)."""
    segment = sanitize_path(name.replace(" ", "-"))
    return segment.lower() if lower else segment


def permalink_path(expanded: str, lower: bool = True) -> str:
    """A permalink pattern once its tokens are filled in, as Hugo makes it a path: decoded
    as a query string (``+`` is a space, ``%XX`` a byte), sanitized again, lower-cased
    unless ``lower`` is false."""
    try:
        decoded = unquote_plus(expanded, errors="strict")
    except UnicodeDecodeError:
        decoded = expanded
    path = sanitize_path(decoded)
    return path.lower() if lower else path


def urlize(text: str, lower: bool = True) -> str:
    """Hugo's ``urlize`` for a term or a title: sanitized, lower-cased unless ``lower`` is
    false, still unescaped."""
    path = sanitize_path(str(text))
    return path.lower() if lower else path


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
