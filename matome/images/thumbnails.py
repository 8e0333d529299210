"""Thumbnails: feature images resolved the way the Blowfish theme does, resized with Pillow.

A matome blog's articles share a few images, so the work is keyed by
image, not by page: every (source, width, format) is named and sized from the
image's header before any page is rendered, encoded by low-priority children of
the build (from the start of a full build's load: ``images/early.py``; they
take the time the main process and the workers leave of the cores), and made
once ever thanks to a cache in ``<site>/resources/_gen/images/matome/`` (the
folder Hugo uses for its own processed images). Outputs are copies of
cached files, named after a hash of the source's bytes and the size, under
``thumbnails/``.

Templates call ``thumbnail(page_or_asset_path, width, format="webp")``.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..content.globs import glob_regex
from ..content.page import Page
from ..errors import SourceError
from ..graph.resources import resource_order
from ..mounts import Mount, component_mounts, walk_mount
from ..render.plan import Output

# Bump when encoding changes, so cached files made the old way are not reused.
ENCODER_VERSION = 3

# Hugo's ``imaging.resampleFilter`` names, for the filters Pillow has; Hugo's default is box.
RESAMPLE_FILTERS = {
    "box": "BOX",
    "nearestneighbor": "NEAREST",
    "linear": "BILINEAR",
    "hamming": "HAMMING",
    "catmullrom": "BICUBIC",  # Pillow's bicubic is Catmull-Rom's spline
    "lanczos": "LANCZOS",
}
# Hugo's ``imaging.quality`` when the site sets none, for JPEG and WebP alike.
DEFAULT_QUALITY = 75

# What the default theme shows: list cards (WebP: a list shows dozens), the article hero
# and the author's round picture. The hero is also the OpenGraph image, so it is a JPEG,
# which every link preview reads; Blowfish's hero is a resize in the source's format too.
# One file for both: a WebP hero beside it would double the largest encodings.
CARD = ((480, "webp"),)
HERO = ((1200, "jpg"),)
AVATAR = ((160, "webp"),)
PAGE_SIZES = CARD + HERO

# Blowfish looks for these bundle images before the featureimage parameter.
BUNDLE_PATTERNS = ("*feature*", "*cover*", "*thumbnail*")
RASTER = (".jpg", ".jpeg", ".png", ".webp", ".gif", ".avif", ".bmp", ".tif", ".tiff")


@dataclass(frozen=True)
class Thumbnail:
    """What a template gets: where the image is and its size in pixels (0 when unknown)."""

    rel_permalink: str
    permalink: str
    width: int = 0
    height: int = 0

    def __str__(self) -> str:
        return self.rel_permalink


@dataclass
class PreparedImages:
    """Every thumbnail of one build, by (source file, requested width, format)."""

    by_key: dict[tuple[str, int, str], Thumbnail]
    sources: dict[str, Path | str]  # "page:<index>" or "asset:<path>" -> file or remote URL
    outputs: list[Output]


# Set by plan_thumbnails before the workers fork, so they inherit it.
_PREPARED: dict[int, PreparedImages] = {}


@functools.cache  # every page asks for its feature image with the same few patterns
class Assets:
    """The site's ``assets`` mounts (``assets/``), for Hugo's ``resources.Get`` and
    ``resources.GetMatch``; the first mount declared wins a name two hold."""

    def __init__(self, mounts: tuple[Mount, ...]):
        self.root = mounts[0].source if mounts else Path("assets")  # what errors name
        files: dict[str, Path] = {}
        for mount in reversed(mounts):
            files.update(walk_mount(mount))
        self.files = files
        self.names = list(self.files)
        self.by_lower = {n.lower(): n for n in self.names}  # names equal but for case: the last

    def path(self, name: str) -> Path:
        """The file of an asset name."""
        return self.files.get(name) or self.root / name

    def get_match(self, pattern: str) -> Path | None:
        pattern = pattern.strip().lstrip("/")
        if not pattern:
            return None
        exact = self.by_lower.get(pattern.lower())
        if exact:
            return self.files[exact]
        regex = glob_regex(pattern)
        return next((self.files[n] for n in self.names if regex.match(n)), None)


def feature_source(page: Page, assets: Assets) -> Path | str | None:
    """The page's feature image as Blowfish finds it: a file, a remote URL, or nothing."""
    bundle = [(r.name, r.source) for r in page.resources]
    return _feature_source(page.params, bundle, page.site_params, assets)


def loaded_feature_source(page: Page, site_params: dict, assets: Assets) -> Path | str | None:
    """``feature_source`` of a page just read, before the site graph links it: from its
    bundle's file names and its own params (a section's cascade is not applied yet)."""
    folder = Path(page.file.filename).parent
    bundle = [(name, folder / name) for name in resource_order(page.resource_names)]
    return _feature_source(page.params, bundle, site_params, assets)


def _feature_source(
    params: dict, bundle: list[tuple[str, Path]], site_params: dict, assets: Assets
) -> Path | str | None:
    if _param(params, "hideFeatureImage") is True:
        return None
    images = [(n, path) for n, path in bundle if n.lower().endswith((*RASTER, ".svg"))]
    for pattern in BUNDLE_PATTERNS:
        regex = glob_regex(pattern)
        found = next((path for n, path in images if regex.match(n)), None)
        if found is not None:
            return found
    value = _param(params, "featureimage")
    if isinstance(value, str) and value.strip():
        if _is_remote(value):
            return value
        found = assets.get_match(value)
        if found is not None:
            return found
    default = _param(site_params, "defaultFeaturedImage")
    return assets.get_match(default) if isinstance(default, str) else None


def _param(params: dict, name: str) -> Any:
    """Front matter and params keys are case-insensitive, as in Hugo."""
    return next((v for k, v in params.items() if str(k).lower() == name.lower()), None)


def _site_images(params: dict) -> list[tuple[str, tuple]]:
    """Site-wide images the theme shows, with the sizes it shows them at."""

    def get(*path: str) -> Any:
        node: Any = params
        for key in path:
            node = _param(node, key) if isinstance(node, dict) else None
        return node

    wanted = [
        (get("homepage", "homepageImage"), HERO),
        (get("author", "image"), AVATAR),
        (get("defaultFeaturedImage"), PAGE_SIZES),
    ]
    return [(v, sizes) for v, sizes in wanted if isinstance(v, str) and v.strip()]


@dataclass(frozen=True)
class Imaging:
    """The site's ``imaging`` settings that change the files made."""

    resample: str = "box"  # Hugo's ``resampleFilter`` name, lower case
    quality: int = DEFAULT_QUALITY


@dataclass
class Encoding:
    """One source's sizes still to encode, with the files they go to and their sizes."""

    src: Path
    targets: dict[tuple[int, str], Path]  # (width, format) -> cached file to write
    sizes: dict[tuple[int, str], tuple[int, int]]  # the pixel sizes the templates were told
    imaging: Imaging


@dataclass
class PlannedThumbnails:
    outputs: list[Output]  # copies of the cached files
    warnings: list[SourceError]
    pending: list[Encoding]  # to encode before the copies are made


def plan_thumbnails(site, digests: dict[str, bytes]) -> PlannedThumbnails:
    """Every thumbnail the theme shows, named and sized, registered for ``thumbnail()``.

    Sizes come from the cache or from the image's header, so the pages can be rendered
    while the missing files are encoded (``encode_thumbnails``). ``digests``: the SHA-1s
    of the inputs the build knows (``source_digest``)."""
    config = site.config
    assets = site_assets(config)
    cache = thumbnail_cache(config)
    wanted: dict[Path, set[tuple[int, str]]] = {}
    sources: dict[str, Path | str] = {}
    same_file: dict[Path, Path] = {}
    for page in site.regular_pages:  # the theme shows images of articles only
        found = feature_source(page, assets)
        if found is None:
            continue
        if isinstance(found, Path):
            # Pages share a few images: one Path object each, which the kept graph pickles
            # once, not once per page that shows it.
            found = same_file.setdefault(found, found)
            wanted.setdefault(found, set()).update(PAGE_SIZES)
        sources[f"page:{page.index}"] = found
    for value, sizes in _site_images(config.params):
        if _is_remote(value):
            sources[f"asset:{value}"] = value
            continue
        found = assets.get_match(value)
        if found is not None:
            sources[f"asset:{value}"] = found
            wanted.setdefault(found, set()).update(sizes)

    imaging, warnings = imaging_settings(config)
    by_key: dict[tuple[str, int, str], Thumbnail] = {}
    outputs: list[Output] = []
    pending: list[Encoding] = []
    base = config.base_url.rstrip("/")
    for src, sizes in wanted.items():
        try:
            made, todo = _plan_source(src, sizes, cache, imaging, digests)
        except Exception as e:  # a broken image must not stop the build: the card shows no image
            warnings.append(SourceError(str(src), 0, 0, f"cannot make a thumbnail: {e}", "warning"))
            continue
        if todo is not None:
            pending.append(todo)
        for (width, fmt), (cached_file, size) in made.items():
            out_path = f"thumbnails/{cached_file.name}"
            rel = config.rel_base_path + "/" + quote(out_path)
            by_key[(str(src), width, fmt)] = Thumbnail(rel, base + "/" + quote(out_path), *size)
            outputs.append(
                Output("copy", out_path, source=cached_file, origin=f"thumbnail of {src}")
            )
    # One output per file even when two sources have the same bytes.
    outputs = list({o.out_path: o for o in outputs}.values())
    register_prepared(site, PreparedImages(by_key, sources, outputs))
    return PlannedThumbnails(outputs, warnings, pending)


def encode_thumbnails(pending: list[Encoding], jobs: int = 1) -> list[SourceError]:
    """Encode what ``plan_thumbnails`` found missing; a warning for each source that failed."""
    if not pending:
        return []
    from concurrent.futures import ThreadPoolExecutor  # only here: a build's start skips it

    with ThreadPoolExecutor(max(1, jobs)) as pool:  # Pillow decodes and encodes without the GIL
        return [w for w in pool.map(_encode_source, pending) if w is not None]


def encode_as_found(found, cache: Path, imaging: Imaging, jobs: int = 1) -> None:
    """Encode each (source, sizes) received on the connection ``found``, as they come,
    until None (see ``early_thumbnails``). What fails is left for the build's own plan,
    which finds it missing, encodes it again and warns."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        while (item := found.recv()) is not None:
            pool.submit(_encode_early, *item, cache, imaging)


def _encode_early(src: Path, sizes: set[tuple[int, str]], cache: Path, imaging: Imaging) -> None:
    with contextlib.suppress(Exception):  # an unreadable image: the plan warns
        _, todo = _plan_source(src, sizes, cache, imaging, {})
        if todo is not None:
            _encode_source(todo)


def is_finished(job: Encoding) -> bool:
    """Whether every file of ``job`` is in the cache (an encoder made them)."""
    return all(cached(target) is not None for target in job.targets.values())


def remove_unfinished(cache: Path, pid: int | None) -> None:
    """The temporary files of an encoder stopped midway (process ``pid``); what it
    finished stays in the cache."""
    for tmp in cache.glob(f".*.{pid}.tmp"):
        tmp.unlink(missing_ok=True)


def site_assets(config) -> Assets:
    return Assets(tuple(component_mounts(config.mounts, "assets")))


def thumbnail_cache(config) -> Path:
    """Where encoded thumbnails are kept between builds."""
    return Path(config.source) / "resources" / "_gen" / "images" / "matome"


def site_image_files(params: dict, assets: Assets) -> list[tuple[Path, tuple]]:
    """The files of the site-wide images the theme shows, with their sizes."""
    found = [(assets.get_match(v), sizes) for v, sizes in _site_images(params) if not _is_remote(v)]
    return [(path, sizes) for path, sizes in found if path is not None]


def _is_remote(value: str) -> bool:
    return value.startswith(("http://", "https://", "//"))


def prepared_for(site) -> PreparedImages | None:
    return _PREPARED.get(id(site))


def register_prepared(site, prepared: PreparedImages) -> None:
    """The thumbnails ``thumbnail()`` finds for this site's pages."""
    _PREPARED.clear()  # one site per build; a long-running `matome serve` keeps only the last
    _PREPARED[id(site)] = prepared


def imaging_settings(config) -> tuple[Imaging, list[SourceError]]:
    """The site's ``imaging.resampleFilter`` (box when unset) and ``imaging.quality``
    (75 when unset), each with a warning and its default when Hugo would not take it."""
    imaging = config.get("imaging") or {}
    where = config.files[0] if config.files else str(config.source)
    warnings = []
    name = str(imaging.get("resamplefilter") or "box").lower()
    if name not in RESAMPLE_FILTERS:
        known = ", ".join(RESAMPLE_FILTERS)
        message = f"imaging.resampleFilter {name!r} is not one of {known}: box is used"
        warnings.append(SourceError(where, 0, 0, message, "warning"))
        name = "box"
    quality = imaging.get("quality", DEFAULT_QUALITY)
    if isinstance(quality, bool) or not isinstance(quality, int) or not 1 <= quality <= 100:
        message = f"imaging.quality {quality!r} is not a whole number from 1 to 100: 75 is used"
        warnings.append(SourceError(where, 0, 0, message, "warning"))
        quality = DEFAULT_QUALITY
    return Imaging(name, quality), warnings


def source_digest(src: Path, digests: dict[str, bytes]) -> str:
    """What names a source's thumbnails: the SHA-1 of its bytes, from ``digests`` (the
    build's inputs, each read again only when its size or time changed), else read now."""
    digest = digests.get(str(src))
    if digest is None:
        with open(src, "rb") as f:
            digest = hashlib.file_digest(f, "sha1").digest()
    return digest.hex()


def _plan_source(
    src: Path,
    sizes: set[tuple[int, str]],
    cache: Path,
    imaging: Imaging,
    digests: dict[str, bytes],
) -> tuple[dict, Encoding | None]:
    """Each size's cached file and pixel size, and what must be encoded for the missing."""
    digest = source_digest(src, digests)
    targets = {size: _target(src, *size, digest, cache, imaging) for size in sorted(sizes)}
    made: dict = {}
    missing = {}
    for size, target in targets.items():
        found = cached(target)
        if found is None:
            missing[size] = target
        else:
            made[size] = found
    if not missing:
        return made, None
    if src.suffix.lower() == ".svg":  # vectors need no resizing; browsers scale them
        sizes = {size: (0, 0) for size in missing}
    else:
        width, height = decoded_size(src, max(w for w, _ in missing))
        sizes = {(w, f): _resized_size(width, height, w) for w, f in missing}
    made.update({size: (target, sizes[size]) for size, target in missing.items()})
    return made, Encoding(src, missing, sizes, imaging)


def _encode_source(job: Encoding) -> SourceError | None:
    """Every missing size of one image, from one decoding of the source.

    An image whose header read well but whose pixels do not (a cut-short file) was
    promised to the pages already: a blank image of the promised size stands in, not
    kept in the cache, so the next build tries again and warns again."""
    try:
        job.targets[next(iter(job.targets))].parent.mkdir(parents=True, exist_ok=True)
        if job.src.suffix.lower() == ".svg":
            for target in job.targets.values():
                _atomic_copy(job.src, target)
                finish(target, (0, 0))
            return None
        image = decode(job.src, max(width for width, _ in job.targets))
        # One resize per width, shared by the formats asked for at that width.
        for width in sorted({width for width, _ in job.targets}, reverse=True):
            resized = _resize(image, width, job.imaging.resample)
            for size in [s for s in job.targets if s[0] == width]:
                made = encode(resized, job.targets[size], size[1], job.imaging.quality)
                if made != job.sizes[size]:  # the header promised another size: a bug here
                    raise ValueError(f"made {made} where {job.sizes[size]} was planned")
                finish(job.targets[size], made)
    except Exception as e:  # a broken image must not stop the build
        for size, target in job.targets.items():
            if cached(target) is None:
                with contextlib.suppress(OSError):  # else the copy of the page's image fails
                    _blank(target, size[1], job.sizes[size])
        message = f"cannot make a thumbnail: {e} (a blank image stands in)"
        return SourceError(str(job.src), 0, 0, message, "warning")
    return None


def _blank(target: Path, fmt: str, size: tuple[int, int]) -> None:
    from PIL import Image

    if target.suffix == ".svg":
        target.write_text('<svg xmlns="http://www.w3.org/2000/svg"/>\n')
    else:
        encode(Image.new("RGB", (max(1, size[0]), max(1, size[1])), "#888"), target, fmt)


def _target(src: Path, width: int, fmt: str, digest: str, cache: Path, imaging: Imaging) -> Path:
    ext = "svg" if src.suffix.lower() == ".svg" else fmt
    if ext == "svg":
        width = 0  # one copy of a vector serves every size
    quality = imaging.quality if ext in ("jpg", "webp") else None
    made = f"{digest}:{width}:{ext}:{quality}:{ENCODER_VERSION}:{imaging.resample}"
    key = hashlib.sha256(made.encode()).hexdigest()[:16]
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", src.stem).strip("-")[:40] or "image"
    return cache / f"{stem}_{key}_{width}.{ext}"


def cached(target: Path) -> tuple[Path, tuple[int, int]] | None:
    meta = target.with_suffix(target.suffix + ".size")
    try:
        w, h = (int(n) for n in meta.read_text().split())
    except (OSError, ValueError):
        return None
    return (target, (w, h)) if target.is_file() else None


def finish(target: Path, size: tuple[int, int]) -> tuple[Path, tuple[int, int]]:
    """Written after the image and atomically: a file with its size is a finished one."""
    meta = target.with_suffix(target.suffix + ".size")
    tmp = meta.with_name(f".{meta.name}.{os.getpid()}.tmp")
    tmp.write_text(f"{size[0]} {size[1]}\n")
    os.replace(tmp, meta)
    return target, size


def decode(src: Path, largest: int | None = None):
    """The first frame, upright. A JPEG is decoded at a reduced scale (in the DCT, fast)
    that still leaves at least twice the ``largest`` width wanted, for a sharp resize;
    whole without ``largest``."""
    from PIL import Image, ImageOps

    with Image.open(src) as opened:
        _prepare(opened, largest)
        if opened.getexif().get(_ORIENTATION, 1) in (1, None):
            opened.load()
            return opened  # upright already (exif_transpose would copy it)
        return ImageOps.exif_transpose(opened)


def decoded_size(src: Path, largest: int | None = None) -> tuple[int, int]:
    """The size ``decode`` gives, from the header (a PNG whose EXIF follows its pixels is
    decoded to find it)."""
    from PIL import Image

    with Image.open(src) as opened:
        _prepare(opened, largest)
        width, height = opened.size
        if opened.getexif().get(_ORIENTATION, 1) in _QUARTER_TURNS:
            return height, width
        return width, height


def _prepare(opened, largest: int | None) -> None:
    opened.seek(0)  # the first frame of an animation
    if opened.format == "JPEG" and largest:
        # A rotated photo's width is its stored height: ask for both sides to be large.
        opened.draft("RGB", (2 * largest, 2 * largest))


_ORIENTATION = 0x0112
_QUARTER_TURNS = (5, 6, 7, 8)  # EXIF orientations that swap width and height


def _resized_size(width: int, height: int, wanted: int) -> tuple[int, int]:
    if width <= wanted:  # never enlarge
        return width, height
    return wanted, max(1, round(height * wanted / width))


def _resize(image, width: int, resample: str):
    from PIL import Image

    size = _resized_size(image.width, image.height, width)
    if size == image.size:
        return image
    method = getattr(Image.Resampling, RESAMPLE_FILTERS[resample])
    return image.resize(size, method, reducing_gap=3.0)


# Pillow's names of the formats ``encode`` writes besides JPEG and WebP.
PLAIN_FORMATS = {"png": "PNG", "gif": "GIF", "bmp": "BMP", "tif": "TIFF"}


def encode(
    image,
    target: Path,
    fmt: str,
    quality: int = DEFAULT_QUALITY,
    background: tuple[int, int, int] = (255, 255, 255),
) -> tuple[int, int]:
    """Write ``image`` to ``target`` as ``fmt`` (``jpg``, ``webp``, ``png``, ``gif``,
    ``bmp``, ``tif``), atomically; a JPEG has its transparency on ``background``."""
    from PIL import Image

    if fmt in PLAIN_FORMATS:
        if image.mode not in ("RGB", "RGBA", "P", "L", "LA"):
            image = image.convert("RGBA")
        options: dict = {}
        pil_format = PLAIN_FORMATS[fmt]
    elif fmt == "jpg":
        if image.mode in ("RGBA", "LA", "P"):
            image = image.convert("RGBA")
            flat = Image.new("RGB", image.size, background)
            flat.paste(image, mask=image.getchannel("A"))
            image = flat
        elif image.mode != "RGB":
            image = image.convert("RGB")
        # Baseline, not progressive: the JPEG is the OpenGraph image, fetched whole by link
        # previews, and a progressive encoding takes several times as long.
        options = {"quality": quality, "optimize": True}
        pil_format = "JPEG"
    else:
        if image.mode not in ("RGB", "RGBA"):
            image = image.convert("RGBA" if "A" in image.getbands() or image.mode == "P" else "RGB")
        # Method 2 encodes several times faster than Pillow's default 4, for a few more
        # bytes (benchmarks/RESULTS.md).
        options = {"quality": quality, "method": 2}
        pil_format = "WEBP"
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    image.save(tmp, pil_format, **options)
    os.replace(tmp, target)
    return image.width, image.height


def _atomic_copy(src: Path, target: Path) -> None:
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    shutil.copyfile(src, tmp)
    os.replace(tmp, target)


def renumber_pages(site, moved: dict[int, int]) -> None:
    """The site's pages changed places (``graph/patch.py``): their images follow them."""
    prepared = _PREPARED.get(id(site))
    if prepared is None:
        return
    pages = {f"page:{old}": f"page:{new}" for old, new in moved.items()}
    prepared.sources = {pages.get(key, key): found for key, found in prepared.sources.items()}


def thumbnail(site, target: Any, width: int = 480, fmt: str = "webp") -> Thumbnail | None:
    """The template function: ``thumbnail(page, 480)`` or ``thumbnail("hero.jpg", 1200)``.

    None when there is no image. A remote feature image is returned as it is
    (matome never downloads). A size the theme did not prepare falls back to
    the nearest larger prepared one, so a site's own template still gets an image.
    """
    prepared = _PREPARED.get(id(site))
    if prepared is None or target is None:
        return None
    key = f"page:{target.index}" if isinstance(target, Page) else f"asset:{target}"
    source = prepared.sources.get(key)
    if source is None:
        return None
    if isinstance(source, str):
        return Thumbnail(source, source)
    fmt = "jpg" if fmt in ("jpeg", "jpg") else fmt
    found = prepared.by_key.get((str(source), int(width), fmt))
    if found is not None:
        return found
    same = sorted(
        (w, t) for (s, w, f), t in prepared.by_key.items() if s == str(source) and f == fmt
    ) or sorted((w, t) for (s, w, _), t in prepared.by_key.items() if s == str(source))
    larger = [t for w, t in same if w >= int(width)]
    return larger[0] if larger else (same[-1][1] if same else None)
