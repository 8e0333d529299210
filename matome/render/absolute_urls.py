"""Root-relative URLs made absolute in a rendered file, as Hugo's publisher does it: in
every HTML file with ``canonifyURLs``, in every RSS file always.

Hugo does not parse the file: it scans the text for ``src=``, ``href=``, ``url=``,
``action=`` and ``srcset=`` (anywhere, ``data-src=`` too) and, when what follows (after a
quote, or unquoted) starts with a single ``/``, puts the base URL in place of that ``/``,
dropping the base URL's own path when the URL already starts with it. In HTML the quotes
are ``"`` and ``'``; in RSS, where the HTML of a description is escaped, ``&#34;`` and
``&#39;``. A ``srcset`` (quoted only) has each of its URLs made absolute.
"""

from __future__ import annotations

from urllib.parse import urlsplit

_ATTRIBUTES = ("src=", "href=", "url=", "action=", "srcset=")
HTML_QUOTES = ('"', "'")
XML_QUOTES = ("&#34;", "&#39;")
# Hugo leaves a srcset alone when its closing quote is further than this.
_LONGEST_SRCSET = 2000


def absolute_urls(text: str, base_url: str, quotes: tuple[str, ...]) -> str:
    """``text`` with its root-relative URLs in those attributes on ``base_url``."""
    if not any(a in text for a in _ATTRIBUTES):
        return text
    base = base_url if base_url.endswith("/") else base_url + "/"
    root = urlsplit(base).path.lstrip("/")  # "blog/": not written twice
    out: list[str] = []
    start = pos = 0  # text[start:pos] is yet to be written
    found = {a: text.find(a) for a in _ATTRIBUTES}
    while True:
        live = [(at, a) for a, at in found.items() if at != -1]
        if not live:
            break
        at, attribute = min(live)
        pos = at + len(attribute)
        found[attribute] = text.find(attribute, pos)
        quote = next((q for q in quotes if text.startswith(q, pos)), "")
        pos += len(quote)
        if not text.startswith("/", pos) or text.startswith("//", pos) or pos + 1 >= len(text):
            continue
        if attribute == "srcset=":
            if not quote:
                continue
            end = text.find(quote, pos)
            if end < 0 or end > pos + _LONGEST_SRCSET:
                continue
            out.append(text[start:pos])
            section = text[pos : end + 1]
            fields = [
                base + _unrooted(f[1:], root) if f.startswith("/") else f for f in section.split()
            ]
            out.append(" ".join(fields))
            pos = start = pos + len(section)
        else:
            out.append(text[start:pos])
            out.append(base)
            pos += 1
            if root and text.startswith(root, pos):
                pos += len(root)
            start = pos
        # What the replacement consumed is not searched again.
        found = {a: (at if at == -1 or at >= pos else text.find(a, pos)) for a, at in found.items()}
    out.append(text[start:])
    return "".join(out)


def _unrooted(path: str, root: str) -> str:
    return path[len(root) :] if root and path.startswith(root) else path
