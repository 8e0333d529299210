"""URLs as Hugo's templates write them: Go's ``url.Parse`` and ``URL.String`` (what
``urls.Parse`` gives a template), and what Go's ``html/template`` does to a value it
writes into a URL attribute (``href="{{ . }}"``).

Go keeps a path or fragment as it was written when that is a valid escaping of it, and
escapes it afresh otherwise (non-ASCII bytes as ``%E6``, upper case); ``html/template``
then refuses schemes other than http, https and mailto (``#ZgotmplZ``) and
percent-encodes what it does not let through in an attribute (``(`` as ``%28``, lower
case), before HTML-escaping ``&``, ``+``, quotes and angle brackets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ALNUM = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_HEX = frozenset(b"0123456789abcdefABCDEF")
_RESERVED = frozenset(b"$&+,/:;=?@")
# Sub-delimiters a host may hold (with ":" for the port, "[]" for IPv6, and "<>\"").
_HOST_OK = frozenset(b"!$&'()*+,;=:[]<>\"")
# What a path or fragment kept as written may hold besides what needs no escaping.
_VALID_ENCODED = frozenset(b"!$&'()*+,;=:@[]%")
_USERINFO_OK = _ALNUM | frozenset(b"-._:~!$&'()*+,;=%@")

PATH, HOST, ZONE, USER, FRAGMENT = "path", "host", "zone", "user", "fragment"


class URLError(ValueError):
    """What Go's ``url.Parse`` refuses, in its words (``invalid URL escape "%zz"``)."""


def _should_escape(c: int, mode: str) -> bool:
    if c in _ALNUM:
        return False
    if mode in (HOST, ZONE) and c in _HOST_OK:
        return False
    if c in b"-_.~":
        return False
    if c in _RESERVED:
        if mode == PATH:
            return c == ord("?")
        if mode == USER:
            return c in b"@/?:"
        return mode != FRAGMENT
    return not (mode == FRAGMENT and c in b"!()*")


def _ascii_class(keep) -> str:
    """A regular expression class of the characters ``keep(byte)`` refuses: any non-ASCII
    one, and the ASCII bytes it is false for."""
    return "[^" + "".join(re.escape(chr(c)) for c in range(0x80) if keep(c)) + "]"


# The loops below look at a URL byte by byte in Python; most URLs need none of it, which
# one regular expression search (in C) tells: these find the first byte a loop would act on.
_ESCAPED = {
    mode: re.compile(_ascii_class(lambda c, mode=mode: not _should_escape(c, mode)))
    for mode in (PATH, HOST, ZONE, USER, FRAGMENT)
}
_NOT_VALID_ENCODED = {
    mode: re.compile(
        _ascii_class(lambda c, mode=mode: c in _VALID_ENCODED or not _should_escape(c, mode))
    )
    for mode in (PATH, FRAGMENT)
}
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def _escape(text: str, mode: str) -> str:
    if _ESCAPED[mode].search(text) is None:
        return text
    data = _bytes(text)
    return "".join(f"%{c:02X}" if _should_escape(c, mode) else chr(c) for c in data)


def _unescape(text: str, mode: str) -> str:
    if "%" not in text and (mode not in (HOST, ZONE) or _ESCAPED[mode].search(text) is None):
        if not text.isascii():
            _bytes(text)  # what UTF-8 cannot hold fails as the loop would
        return text
    data = _bytes(text)
    out = bytearray()
    i = 0
    while i < len(data):
        c = data[i]
        if c == ord("%"):
            if i + 2 >= len(data) or data[i + 1] not in _HEX or data[i + 2] not in _HEX:
                raise URLError(f"invalid URL escape {_quote(_text(data[i : i + 3]))}")
            value = int(data[i + 1 : i + 3], 16)
            # A host escapes only non-ASCII bytes (and "%25"); a zone what a host may hold.
            refused = mode == HOST and value < 0x80
            refused |= mode == ZONE and value != 0x20 and _should_escape(value, HOST)
            if refused and data[i : i + 3] != b"%25":
                raise URLError(f"invalid URL escape {_quote(_text(data[i : i + 3]))}")
            out.append(value)
            i += 3
            continue
        if mode in (HOST, ZONE) and c < 0x80 and _should_escape(c, mode):
            raise URLError(f"invalid character {_quote(chr(c))} in host name")
        out.append(c)
        i += 1
    return _text(bytes(out))


def _valid_encoded(text: str, mode: str) -> bool:
    if text.isascii():
        return _NOT_VALID_ENCODED[mode].search(text) is None
    return all(c in _VALID_ENCODED or not _should_escape(c, mode) for c in _bytes(text))


def _raw_if_same(raw: str, value: str, mode: str) -> str | None:
    """``raw``, when it is a valid encoding of ``value`` (Go keeps a path or fragment as
    written then); else None."""
    if raw and _valid_encoded(raw, mode):
        try:
            if _unescape(raw, mode) == value:
                return raw
        except URLError:
            pass
    return None


def _quote(text: str) -> str:
    """Go's ``%q`` of text that parsed this far (no control characters in it)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass
class GoURL:
    """A parsed URL, as Go's ``url.URL`` holds it: ``path`` and ``fragment`` unescaped,
    ``raw_path``/``raw_fragment`` the escaping written when it is not Go's own."""

    scheme: str = ""
    opaque: str = ""
    user: tuple[str, str | None] | None = None  # name, password
    host: str = ""
    path: str = ""
    raw_path: str = ""
    force_query: bool = False
    raw_query: str = ""
    fragment: str = ""
    raw_fragment: str = ""

    @property
    def is_abs(self) -> bool:
        return bool(self.scheme)

    def escaped_path(self) -> str:
        kept = _raw_if_same(self.raw_path, self.path, PATH)
        if kept is not None:
            return kept
        return "*" if self.path == "*" else _escape(self.path, PATH)

    def escaped_fragment(self) -> str:
        kept = _raw_if_same(self.raw_fragment, self.fragment, FRAGMENT)
        return kept if kept is not None else _escape(self.fragment, FRAGMENT)

    def string(self) -> str:
        """Go's ``URL.String``."""
        out = f"{self.scheme}:" if self.scheme else ""
        if self.opaque:
            out += self.opaque
        else:
            if self.scheme or self.host or self.user is not None:
                if self.host or self.path or self.user is not None:
                    out += "//"
                if self.user is not None:
                    name, password = self.user
                    out += _escape(name, USER)
                    if password is not None:
                        out += ":" + _escape(password, USER)
                    out += "@"
                out += _escape(self.host, HOST)
            path = self.escaped_path()
            if path and path[0] != "/" and self.host:
                out += "/"
            if not out and ":" in path.split("/", 1)[0]:
                out += "./"
            out += path
        if self.force_query or self.raw_query:
            out += "?" + self.raw_query
        if self.fragment:
            out += "#" + self.escaped_fragment()
        return out


def parse_url(raw: str) -> GoURL:
    """Go's ``url.Parse``; raises URLError with Go's message (``parse "x": ...``)."""
    before, hashed, fragment = raw.partition("#")
    try:
        url = _parse(before)
    except URLError as e:
        raise URLError(f"parse {_quote(before)}: {e}") from None
    if hashed and fragment:
        try:
            url.fragment = _unescape(fragment, FRAGMENT)
        except URLError as e:
            raise URLError(f"parse {_quote(raw)}: {e}") from None
        url.raw_fragment = "" if _escape(url.fragment, FRAGMENT) == fragment else fragment
    return url


def _scheme(raw: str) -> tuple[str, str]:
    for i, ch in enumerate(raw):
        if ch.isascii() and ch.isalpha():
            continue
        if ch.isascii() and (ch.isdigit() or ch in "+-."):
            if i == 0:
                return "", raw
            continue
        if ch == ":":
            if i == 0:
                raise URLError("missing protocol scheme")
            return raw[:i], raw[i + 1 :]
        return "", raw
    return "", raw


def _parse(raw: str) -> GoURL:
    if _CONTROL.search(raw):
        raise URLError("net/url: invalid control character in URL")
    url = GoURL()
    if raw == "*":
        url.path = "*"
        return url
    scheme, rest = _scheme(raw)
    url.scheme = scheme.lower()
    if rest.endswith("?") and rest.count("?") == 1:
        url.force_query, rest = True, rest[:-1]
    else:
        rest, _, url.raw_query = rest.partition("?")
    if not rest.startswith("/"):
        if url.scheme:
            url.opaque = rest  # a rootless path (mailto:a@b.c) is opaque
            return url
        if ":" in rest.split("/", 1)[0]:
            raise URLError("first path segment in URL cannot contain colon")
    if rest.startswith("//") and (url.scheme or not rest.startswith("///")):
        authority, slash, path = rest[2:].partition("/")
        rest = slash + path
        url.user, url.host = _authority(authority)
    url.path = _unescape(rest, PATH)
    url.raw_path = "" if _escape(url.path, PATH) == rest else rest
    return url


def _authority(authority: str) -> tuple[tuple[str, str | None] | None, str]:
    userinfo, at, hostport = authority.rpartition("@")
    host = _host(hostport)
    if not at:
        return None, host
    if not all(c in _USERINFO_OK for c in _bytes(userinfo)):
        raise URLError("net/url: invalid userinfo")
    name, colon, password = userinfo.partition(":")
    return (_unescape(name, USER), _unescape(password, USER) if colon else None), host


def _valid_port(port: str) -> bool:
    return not port or (port[0] == ":" and all("0" <= ch <= "9" for ch in port[1:]))


def _host(host: str) -> str:
    if host.startswith("["):
        end = host.rfind("]")
        if end < 0:
            raise URLError("missing ']' in host")
        if not _valid_port(host[end + 1 :]):
            raise URLError(f"invalid port {_quote(host[end + 1 :])} after host")
        zone = host.find("%25", 0, end)
        if zone >= 0:
            return (
                _unescape(host[:zone], HOST)
                + _unescape(host[zone:end], ZONE)
                + _unescape(host[end:], HOST)
            )
    elif (colon := host.rfind(":")) >= 0 and not _valid_port(host[colon:]):
        raise URLError(f"invalid port {_quote(host[colon:])} after host")
    return _unescape(host, HOST)


# --- html/template: a value written into a URL attribute --------------------------------

# What html/template's URL normaliser lets through as it is ("%" when it starts an escape).
_NORMAL = _ALNUM | frozenset(b"!#$&*+,/:;=?@[]-._~")
# A character the loop of ``url_attribute`` escapes: not in ``_NORMAL``, or a "%" that
# starts no escape.
_ATTRIBUTE_ESCAPED = re.compile(
    _ascii_class(lambda c: c in _NORMAL or c == ord("%")) + "|%(?![0-9A-Fa-f]{2})"
)
# Go's html/template escapes these in text and attributes ('+' too: c++ is c&#43;&#43;);
# "&" first, as the others bring one in.
_ATTRIBUTE_ESCAPES = (
    ("&", "&amp;"),
    ("\0", "\ufffd"),
    ('"', "&#34;"),
    ("'", "&#39;"),
    ("+", "&#43;"),
    ("<", "&lt;"),
    (">", "&gt;"),
)


def replace_each(text: str, replacements: tuple[tuple[str, str], ...]) -> str:
    """Each character of ``replacements`` replaced by its escape, in their order: one
    replace per character present (in C), where ``str.translate`` with a table looks up
    every character of a text with any non-ASCII one in Python."""
    for char, escaped in replacements:
        if char in text:
            text = text.replace(char, escaped)
    return text


def attribute_text(text: str) -> str:
    """A value as html/template writes it in a quoted attribute (or as text)."""
    return replace_each(text, _ATTRIBUTE_ESCAPES)


def url_attribute(url: str) -> str:
    """A URL as html/template writes it as a whole ``href``/``src`` value."""
    protocol, colon, _ = url.partition(":")
    if colon and "/" not in protocol and protocol.lower() not in ("http", "https", "mailto"):
        return "#ZgotmplZ"
    if _ATTRIBUTE_ESCAPED.search(url) is None:
        return attribute_text(url)
    data = _bytes(url)
    out: list[str] = []
    for i, c in enumerate(data):
        if c in _NORMAL or (
            c == ord("%") and i + 2 < len(data) and data[i + 1] in _HEX and data[i + 2] in _HEX
        ):
            out.append(chr(c))
        else:
            out.append(f"%{c:02x}")
    return attribute_text("".join(out))
