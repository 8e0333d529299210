"""Link destinations as Goldmark writes them: its percent-encoding and its dangerous URLs.

markdown-it normalises links with mdurl and punycode and refuses ``javascript:`` links at
parse time; Goldmark percent-encodes only what is not URL-safe ASCII (hosts included, no
punycode) and, unless raw HTML is allowed, writes a dangerous URL as an empty ``href``.
"""

from __future__ import annotations

import re

from .library_internals import escapeHtml

_URL_SAFE = frozenset(
    "!#$&'()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"
)
_HEX = frozenset("0123456789abcdefABCDEF")
_URL_UNSAFE = re.compile(r"[^!#$&'()*+,\-./0-9:;=?@A-Z_a-z~]")  # what _URL_SAFE lacks, "%" too
_DANGEROUS = ("javascript:", "vbscript:", "file:", "data:")
_SAFE_DATA_IMAGES = ("png;", "gif;", "jpeg;", "webp;")


def url_escape(url: str) -> str:
    """Percent-encode like Goldmark: keep URL-safe ASCII and existing ``%XX`` escapes.

    Goldmark leaves host names alone (no punycode) and only checks that the first
    character after ``%`` is a hex digit before keeping an escape as it is.
    """
    if not _URL_UNSAFE.search(url):  # most URLs: nothing to encode
        return url
    out = []
    i, n = 0, len(url)
    while i < n:
        ch = url[i]
        if ch in _URL_SAFE:
            out.append(ch)
        elif ch == "%" and i + 2 < n and url[i + 1] in _HEX:
            out.append(url[i : i + 3])
            i += 3
            continue
        elif ch == " ":
            out.append("%20")
        else:
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass")))
        i += 1
    return "".join(out)


def _is_dangerous_url(url: str) -> bool:
    low = url[:16].lower()
    if low.startswith("data:image/") and len(url) >= 11:
        return not low[11:].startswith(_SAFE_DATA_IMAGES)
    return low.startswith(_DANGEROUS)


def safe_href(url: str, unsafe: bool) -> str:
    return escapeHtml(url) if unsafe or not _is_dangerous_url(url) else ""
