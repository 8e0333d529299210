"""Hugo's ``images.QR`` (and so its ``qr`` shortcode): a QR code of a text as a PNG
resource published at ``<targetDir>/qr_<hash>.png``.

Hugo encodes with rsc.io/qr, which takes one mode for the whole text (numeric, else
alphanumeric, else bytes of its UTF-8), the smallest version that holds it, always mask
pattern 0 (it never scores the eight masks) and a quiet zone of 4 modules. The python
``qrcode`` package is told the same mode and mask, so its module matrix is rsc.io/qr's
(``tests/test_shortcodes_hugo.py`` compares both images module by module). The PNG bytes
are Pillow's, not rsc.io/qr's own encoder's: the same pixels, another file.

The file name is Hugo's ``hashing.HashStringHex(text, options)``: gohugoio/hashstructure
over the text and the options struct, with xxHash64 as its hasher. ``_hugo_hash`` walks
those two values as hashstructure walks them.
"""

from __future__ import annotations

import io
import posixpath
import struct
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from xxhash import xxh64_intdigest as xxh64

# Hugo's option names, its defaults, and the error correction level of each level name.
LEVELS = {"low": "L", "medium": "M", "quartile": "Q", "high": "H"}
DEFAULT_LEVEL = "medium"
DEFAULT_SCALE = 4
QUIET_ZONE = 4  # modules of white around the code, on each side
_NUMERIC = frozenset("0123456789")
_ALPHANUMERIC = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")


@dataclass(frozen=True)
class QROptions:
    """The options of one QR code, as Hugo holds them after decoding the map it is given:
    the level name, the pixels per module, and the folder (as written, not cleaned) under
    the publish directory."""

    level: str = DEFAULT_LEVEL
    scale: int = DEFAULT_SCALE
    target_dir: str = ""


def qr_text(value: Any) -> str:
    """The text to encode, cast to a string as Hugo casts ``images.QR``'s first argument."""
    if isinstance(value, str):
        text = str(value)
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int):
        text = str(value)
    elif isinstance(value, float):
        text = _go_float(value)
    elif isinstance(value, bytes):
        text = value.decode("utf-8", errors="replace")
    elif value is None:
        text = ""
    else:
        raise ValueError(f"unable to cast {value!r} of type {type(value).__name__} to string")
    if not text:
        raise ValueError("cannot encode an empty string")
    return text


def qr_options(options: Any) -> QROptions:
    """Hugo's options map decoded as Hugo decodes it (mapstructure's weak decoding: keys
    matched to ``level``, ``scale`` and ``targetDir`` ignoring case, a number as text, text
    as a number, unknown keys ignored), then checked."""
    if options is None:
        options = {}
    elif not isinstance(options, dict):
        raise ValueError(f"expected a map, got '{type(options).__name__}'")
    level = _option(options, "Level", _weak_str, DEFAULT_LEVEL)
    scale = _option(options, "Scale", _weak_int, DEFAULT_SCALE)
    target_dir = _option(options, "TargetDir", _weak_str, "")
    if level not in LEVELS:
        raise ValueError("error correction level must be one of low, medium, quartile, or high")
    if scale < 2:
        raise ValueError("scale must be an integer greater than or equal to 2")
    return QROptions(level, scale, target_dir)


def qr_path(text: str, options: QROptions) -> str:
    """Where Hugo publishes the code: ``<targetDir>/qr_<hash>.png``, relative to the
    publish directory (a folder that climbs out of it is kept inside)."""
    name = f"qr_{_hugo_hash(text, options)}.png"
    return posixpath.normpath(posixpath.join("/", options.target_dir, name)).lstrip("/")


def qr_png(text: str, level: str, scale: int) -> tuple[bytes, int]:
    """The QR code of ``text`` as a 1-bit PNG, ``scale`` pixels per module, and its width
    (and height) in pixels. ``ValueError`` when the text does not fit a version 40 code."""
    import qrcode
    from PIL import Image
    from qrcode.exceptions import DataOverflowError
    from qrcode.util import MODE_8BIT_BYTE, MODE_ALPHA_NUM, MODE_NUMBER, QRData

    chars = set(text)
    if chars <= _NUMERIC:
        mode = MODE_NUMBER
    elif chars <= _ALPHANUMERIC:
        mode = MODE_ALPHA_NUM
    else:
        mode = MODE_8BIT_BYTE
    error_correction = getattr(qrcode.constants, f"ERROR_CORRECT_{LEVELS[level]}")
    code = qrcode.QRCode(error_correction=error_correction, border=QUIET_ZONE, mask_pattern=0)
    code.add_data(QRData(text.encode("utf-8"), mode))
    try:
        code.make(fit=True)
    except (DataOverflowError, ValueError):  # past version 40: qrcode names either
        raise ValueError("text too long to encode as QR") from None
    rows = code.get_matrix()  # with the quiet zone; True is a dark module
    modules = len(rows)
    image = Image.frombytes(
        "L", (modules, modules), bytes(0 if d else 255 for r in rows for d in r)
    )
    width = modules * scale
    image = image.resize((width, width), Image.Resampling.NEAREST).convert("1")
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue(), width


# --- Hugo's decoding and hashing -------------------------------------------------------------


def _option(options: dict, field: str, convert: Any, default: Any) -> Any:
    """The option for a struct field, converted: the key spelled as the field, else one
    that differs only in case; the default when there is none or it is null."""
    value = options.get(field)
    if value is None:
        value = next(
            (v for k, v in options.items() if isinstance(k, str) and k.lower() == field.lower()),
            None,
        )
    return default if value is None else convert(field, value)


def _weak_str(field: str, value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (str, int)):
        return str(value)
    if isinstance(value, float):
        return _go_float(value)
    raise ValueError(
        f"'{field}' expected type 'string', got unconvertible type '{type(value).__name__}'"
    )


def _weak_int(field: str, value: Any) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)  # Go converts toward zero
    if isinstance(value, str):
        if not value:
            return 0
        try:
            return int(value, 0)  # Go's ParseInt with base 0: 0x10, 0o17, 0b11, 1_000
        except ValueError:
            raise ValueError(f"cannot parse '{field}' as int: {value!r}") from None
    raise ValueError(
        f"'{field}' expected type 'int', got unconvertible type '{type(value).__name__}'"
    )


def _go_float(value: float) -> str:
    """Go's ``strconv.FormatFloat(f, 'f', -1, 64)``: the shortest digits, no exponent."""
    text = format(Decimal(repr(value)), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _hugo_hash(text: str, options: QROptions) -> str:
    """``hashing.HashStringHex(text, opts)``: hashstructure's walk of the slice ``[text,
    opts]`` with xxHash64, in hex without leading zeros.

    hashstructure hashes a string as its bytes and an int as its 8 little-endian bytes; a
    struct as the hash of its type's name (empty: the struct is anonymous) combined with
    each exported field in order, each time as ``finish(h ^ ordered(hash(name),
    hash(value)))``; a slice as ``ordered`` folded over its items from 0."""

    def ordered(a: int, b: int) -> int:
        return xxh64(struct.pack("<QQ", a, b))

    def finish(h: int) -> int:
        return xxh64(struct.pack("<Q", h))

    fields = (
        ("Level", xxh64(options.level.encode())),
        ("Scale", xxh64(struct.pack("<Q", options.scale & 0xFFFFFFFFFFFFFFFF))),
        ("TargetDir", xxh64(options.target_dir.encode())),
    )
    opts = xxh64(b"")
    for name, value in fields:
        opts = finish(opts ^ ordered(xxh64(name.encode()), value))
    return format(ordered(ordered(0, xxh64(text.encode())), opts), "x")
