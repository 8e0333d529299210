"""Hugo's image processing for templates: ``resize``, ``fit``, ``fill``, ``crop`` and
``process`` with Hugo's spec strings (``"600x"``, ``"300x200 center"``, ``"400x400 TopLeft
webp q50 r90 #ffffff Lanczos"``), on page and global resources (``render/resources.py``).

Sizes follow Hugo 0.168 (``tests/test_image_processing.py`` compares each spec with
Hugo's on generated images): ``resize`` may enlarge and rounds the free side half up;
``fit`` never enlarges; ``fill`` is always the size asked for; ``crop`` cuts at most the
image, and a box larger than the image both ways is scaled down to fit it, keeping its
shape. Rotation (counter-clockwise, as Hugo's) comes first. The bytes are Pillow's, not
Go's: the same size, another encoder. ``Smart`` (Hugo's smartcrop) is the centre here.

Results are cached with the thumbnails, in ``resources/_gen/images/matome/``, named by
the source's bytes and the normalized spec, so a later build copies instead of encoding.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass
from pathlib import Path

from .thumbnails import (
    ENCODER_VERSION,
    RESAMPLE_FILTERS,
    cached,
    decode,
    decoded_size,
    encode,
    finish,
    imaging_settings,
)

ACTIONS = ("resize", "fit", "fill", "crop")
# Where the kept part of an image sits, as fractions of the part cut away (x, y).
ANCHORS = {
    "center": (0.5, 0.5),
    "smart": (0.5, 0.5),
    "topleft": (0.0, 0.0),
    "top": (0.5, 0.0),
    "topright": (1.0, 0.0),
    "left": (0.0, 0.5),
    "right": (1.0, 0.5),
    "bottomleft": (0.0, 1.0),
    "bottom": (0.5, 1.0),
    "bottomright": (1.0, 1.0),
}
FORMATS = {
    "jpg": "jpg",
    "jpeg": "jpg",
    "png": "png",
    "gif": "gif",
    "webp": "webp",
    "bmp": "bmp",
    "tif": "tif",
    "tiff": "tif",
}
# Hugo's WebP hints and its lossless option: accepted; Pillow's encoder takes no hint.
_HINTS = {"picture", "photo", "drawing", "icon", "text", "lossless", "lossy"}
# Hugo's filters in a spec: those Pillow has (RESAMPLE_FILTERS), and the others as the
# closest Pillow has.
SPEC_FILTERS = {
    **{name: name for name in RESAMPLE_FILTERS},
    "hermite": "catmullrom",
    "mitchellnetravali": "catmullrom",
    "bspline": "catmullrom",
    "gaussian": "catmullrom",
    "hann": "hamming",
    "blackman": "lanczos",
    "bartlett": "lanczos",
    "welch": "lanczos",
    "cosine": "lanczos",
}
_SIZE = re.compile(r"(\d*)x(\d*)")
_QUALITY = re.compile(r"q(\d+)")
_ROTATE = re.compile(r"r(-?\d+)")
_COLOR = re.compile(r"#([0-9a-f]{3}|[0-9a-f]{6})")


class ImageSpecError(ValueError):
    """A spec Hugo would refuse."""


@dataclass(frozen=True)
class ImageOptions:
    """One processing step, with the site's ``imaging`` defaults filled in."""

    action: str  # resize, fit, fill, crop, or "" (a format conversion)
    width: int  # 0: from the other side (resize)
    height: int
    anchor: str
    resample: str  # a key of RESAMPLE_FILTERS
    quality: int
    rotate: int  # degrees, counter-clockwise
    fmt: str  # "" keeps the source's
    background: tuple[int, int, int]

    def key(self) -> str:
        """The options in one canonical form: what the file name is a hash of."""
        color = bytes(self.background).hex()
        return (
            f"{self.action}:{self.width}x{self.height}:{self.anchor}:{self.resample}:"
            f"q{self.quality}:r{self.rotate}:{self.fmt}:{color}"
        )


def imaging_defaults(config) -> tuple[str, str, int, tuple[int, int, int]]:
    """The site's ``imaging`` anchor, resample filter, quality and background colour."""
    imaging = config.get("imaging") or {}
    settings, _ = imaging_settings(config)  # warned about when the thumbnails are planned
    anchor = str(imaging.get("anchor") or "smart").lower()
    if anchor not in ANCHORS:
        anchor = "smart"
    color = _COLOR.fullmatch(str(imaging.get("bgcolor") or "#ffffff").lower())
    background = _rgb(color.group(1)) if color else (255, 255, 255)
    return anchor, settings.resample, settings.quality, background


def parse_spec(action: str, spec: str, defaults: tuple) -> ImageOptions:
    """Hugo's spec string for ``action`` (``process`` reads the action from the spec)."""
    anchor, resample, quality, background = defaults
    width = height = rotate = 0
    fmt = ""
    sized = False
    for token in str(spec).lower().split():
        if token in ACTIONS and action == "process":
            action = token
        elif (m := _SIZE.fullmatch(token)) and (m.group(1) or m.group(2)):
            width, height, sized = int(m.group(1) or 0), int(m.group(2) or 0), True
        elif token in ANCHORS:
            anchor = token
        elif token in SPEC_FILTERS:
            resample = SPEC_FILTERS[token]
        elif token in FORMATS:
            fmt = FORMATS[token]
        elif m := _QUALITY.fullmatch(token):
            quality = int(m.group(1))
            if not 1 <= quality <= 100:
                raise ImageSpecError(f"quality {quality} is not from 1 to 100")
        elif m := _ROTATE.fullmatch(token):
            rotate = int(m.group(1)) % 360
        elif m := _COLOR.fullmatch(token):
            background = _rgb(m.group(1))
        elif token not in _HINTS:
            raise ImageSpecError(f"{spec!r}: unrecognized image option {token!r}")
    if action == "process":
        action = ""
    if action and not sized:
        raise ImageSpecError(f"{action} {spec!r}: give a size, e.g. 600x400")
    if action in ("fit", "fill", "crop") and not (width and height):
        raise ImageSpecError(f"{action} {spec!r}: give both width and height, e.g. 600x400")
    return ImageOptions(action, width, height, anchor, resample, quality, rotate, fmt, background)


def _rgb(hex_: str) -> tuple[int, int, int]:
    if len(hex_) == 3:
        hex_ = "".join(c * 2 for c in hex_)
    return int(hex_[0:2], 16), int(hex_[2:4], 16), int(hex_[4:6], 16)


def _half_up(value: float) -> int:
    return int(math.floor(value + 0.5))


def rotated_size(width: int, height: int, degrees: int) -> tuple[int, int]:
    """The box an image turned by ``degrees`` needs, each side rounded as Hugo's."""
    if degrees % 180 == 0:
        return width, height
    if degrees % 90 == 0:
        return height, width
    cos, sin = abs(math.cos(math.radians(degrees))), abs(math.sin(math.radians(degrees)))
    return _half_up(width * cos + height * sin), _half_up(width * sin + height * cos)


def output_size(width: int, height: int, opts: ImageOptions) -> tuple[int, int]:
    """The size ``opts`` makes of an image of ``width`` x ``height``, as Hugo's."""
    sw, sh = rotated_size(width, height, opts.rotate)
    w, h = opts.width, opts.height
    if opts.action == "resize":
        if w and h:
            size = (w, h)
        elif w:
            size = (w, _half_up(w * sh / sw))
        else:
            size = (_half_up(h * sw / sh), h)
    elif opts.action == "fit":
        if sw <= w and sh <= h:
            size = (sw, sh)
        elif sw / sh > w / h:
            size = (w, _half_up(w * sh / sw))
        else:
            size = (_half_up(h * sw / sh), h)
    elif opts.action == "fill":
        size = (w, h)
    elif opts.action == "crop":
        if w > sw and h > sh:  # the box's shape, as large as the image holds (cut down)
            size = (sw, int(sw * h / w)) if w / h > sw / sh else (int(sh * w / h), sh)
        else:
            size = (min(w, sw), min(h, sh))
    else:
        size = (sw, sh)
    if size[0] < 1 or size[1] < 1:
        raise ImageSpecError(f"{opts.action} {w}x{h} makes an image of {size[0]}x{size[1]}")
    return size


def source_format(path: Path) -> str:
    return FORMATS.get(path.suffix.lower().lstrip("."), "png")


@dataclass(frozen=True)
class ProcessedImage:
    """Where a processed image is cached, its name for the output, and its size."""

    cache_file: Path
    name: str  # "<stem>_hu_<hash>.<ext>", published beside the source's own URL
    width: int
    height: int


def plan_image(
    src: Path, digest: str, opts: ImageOptions, cache: Path, named: Path | None = None
) -> ProcessedImage:
    """Name and size the result from the source's header, without decoding its pixels.
    The name starts as the source's (``named``'s, for a source kept under another name:
    a QR code made in memory)."""
    fmt = opts.fmt or source_format(src)
    key = f"{digest}:{opts.key()}:{ENCODER_VERSION}"
    name = f"{_stem(named or src)}_hu_{hashlib.sha256(key.encode()).hexdigest()[:16]}.{fmt}"
    target = cache / name
    found = cached(target)
    if found is not None:
        return ProcessedImage(target, name, *found[1])
    width, height = output_size(*decoded_size(src), opts)
    return ProcessedImage(target, name, width, height)


def make_image(src: Path, image: ProcessedImage, opts: ImageOptions) -> None:
    """Encode ``image`` into the cache unless it is there already."""
    if cached(image.cache_file) is not None:
        return
    from PIL import Image, ImageOps

    picture = decode(src)
    if opts.rotate:
        picture = _rotate(picture, opts.rotate)
    size = (image.width, image.height)
    method = getattr(Image.Resampling, RESAMPLE_FILTERS[opts.resample])
    ax, ay = ANCHORS[opts.anchor]
    if opts.action in ("resize", "fit") and picture.size != size:
        picture = picture.resize(size, method)
    elif opts.action == "fill":
        picture = ImageOps.fit(picture, size, method, centering=(ax, ay))
    elif opts.action == "crop":
        left = _half_up((picture.width - size[0]) * ax)
        top = _half_up((picture.height - size[1]) * ay)
        picture = picture.crop((left, top, left + size[0], top + size[1]))
    fmt = opts.fmt or source_format(src)
    image.cache_file.parent.mkdir(parents=True, exist_ok=True)
    made = encode(picture, image.cache_file, fmt, opts.quality, opts.background)
    if made != size:  # the plan promised another size: a bug here
        raise ValueError(f"made {made} where {size} was planned")
    finish(image.cache_file, made)


def _rotate(picture, degrees: int):
    from PIL import Image

    quarter = {90: Image.Transpose.ROTATE_90, 180: Image.Transpose.ROTATE_180}
    quarter[270] = Image.Transpose.ROTATE_270
    if degrees in quarter:
        return picture.transpose(quarter[degrees])
    if picture.mode not in ("RGBA", "LA"):
        picture = picture.convert("RGBA")  # the corners the turn uncovers are transparent
    turned = picture.rotate(degrees, resample=Image.Resampling.NEAREST, expand=True)
    size = rotated_size(picture.width, picture.height, degrees)
    if turned.size == size:
        return turned
    # Pillow's box is whole pixels out from the corners, Hugo's rounds: the same centre.
    box = Image.new(turned.mode, size)
    box.paste(turned, ((size[0] - turned.width) // 2, (size[1] - turned.height) // 2))
    return box


def _stem(src: Path) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", src.stem).strip("-")[:40] or "image"
