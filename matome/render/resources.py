"""Hugo's resources for templates: ``resources.get(path)``, ``resources.get_match(glob)``,
``resources.match(glob)`` over the site's ``assets/`` folder (``assetDir``),
``resources.from_string``, ``resources.concat``, ``minify``, ``fingerprint`` (SHA-256, 384
or 512, MD5: ``data.integrity`` for ``<link integrity>``), the image methods of page
and global resources (``images/processing.py``), and ``images.qr`` (``images/qr.py``).

As in Hugo, a resource made here is published only when a template reads its
``rel_permalink`` or ``permalink``. Renders run in worker processes, so a resource is
named in the render's read log by its recipe: a tuple saying how to make it from the
site's files (``("minify", ("asset", "css/main.css"))``). After the files are written,
the build publishes every recipe some written or kept file read (``published_outputs``),
and the build cache re-renders a file when what one of its recipes makes changes
(``resource_value``). Text results and processed images are kept in
``resources/_gen/`` between builds.

``resources.get_remote`` fetches a URL once and keeps the response (``remote.py``).

Not made (matome fails on them as on any unknown name): Sass/PostCSS/Babel/js.Build,
``resources.ExecuteAsTemplate``, ``resources.Copy``,
``resources.PostProcess``, image filters (``images.Filter``) and EXIF, front matter
``[[resources]]`` metadata (a resource's title is its name).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import mimetypes
import os
import re
from dataclasses import dataclass
from itertools import compress
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlparse

from ..content.page import Resource
from ..errors import SourceError
from ..images.processing import (
    ProcessedImage,
    imaging_defaults,
    make_image,
    parse_spec,
    plan_image,
)
from ..images.qr import QROptions, qr_options, qr_path, qr_png, qr_text
from ..images.thumbnails import decoded_size, glob_regex, site_assets, thumbnail_cache
from ..markup.expand import ShortcodeProblem
from ..markup.markdown.settings import read_settings
from .environment import templates_used_say
from .plan import Output, out_paths
from .remote import RemoteError, attempt, fetch, remote_folder, unmarshal, url_allowed

RESOURCE = "@resource"  # the read log's key of resource lookups, uses and publications

# Media types Hugo gives that Python's table lacks or names otherwise.
_MEDIA_TYPES = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".webp": "image/webp",
    ".avif": "image/avif",
    ".scss": "text/x-scss",
    ".sass": "text/x-sass",
    ".toml": "application/toml",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".xml": "application/xml",
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".html": "text/html",
}
_IMAGES = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp", ".tif", ".tiff")
FINGERPRINTS = ("sha256", "sha384", "sha512", "md5")


class MediaType(str):
    """A resource's media type: prints as ``image/jpeg``, with Hugo's ``.Type``,
    ``.MainType``, ``.SubType`` and ``.Suffixes``."""

    @property
    def type(self) -> str:
        return str(self)

    @property
    def main_type(self) -> str:
        return self.split("/")[0]

    @property
    def sub_type(self) -> str:
        return self.split("/")[-1].split("+")[0]

    @property
    def suffixes(self) -> list[str]:
        found = [ext.lstrip(".") for ext, kind in _MEDIA_TYPES.items() if kind == self]
        return found or [ext.lstrip(".") for ext in mimetypes.guess_all_extensions(self)]


def media_type(name: str) -> MediaType:
    ext = os.path.splitext(name)[1].lower()
    found = _MEDIA_TYPES.get(ext) or mimetypes.guess_type(name)[0]
    return MediaType(found or "application/octet-stream")


@dataclass
class Made:
    """What a recipe makes: where it is published, its bytes (text results), the file that
    holds them once written, its ``integrity``, and for an image its planned result."""

    out_path: str
    name: str  # Hugo's .Name: "/css/main.css" for a global resource, "a.jpg" in a bundle
    file: Path
    data: bytes | None = None
    integrity: str = ""
    image: ProcessedImage | None = None
    source: Path | None = None  # an image's source file
    size: tuple[int, int] | None = None  # an image made in memory (a QR code): its pixels


class SiteResources:
    """The resources of one site in one process: what it looked up and made, once each."""

    def __init__(self, config: Any, env: Any = None) -> None:
        self.config = config
        self.env = env  # its read log, once instrumented, learns what renders use
        self.generated = Path(config.source) / "resources" / "_gen" / "assets" / "matome"
        self.image_cache = thumbnail_cache(config)
        self.made: dict[tuple, Made] = {}
        self.digests: dict[Path, tuple[tuple[int, int], str]] = {}

    # The assets folder is listed, and the imaging settings read, when a template first
    # asks for a resource: most sites' templates never do.
    @functools.cached_property
    def assets(self) -> Any:
        return site_assets(self.config)

    @functools.cached_property
    def names(self) -> frozenset[str]:
        return frozenset(self.assets.names)

    @functools.cached_property
    def defaults(self) -> tuple:
        return imaging_defaults(self.config)

    # --- what templates call -----------------------------------------------------
    def get(self, path: Any) -> AssetResource | None:
        """Hugo's ``resources.Get``: the file of ``assets/`` at ``path``, or None."""
        name = self._find(str(path))
        self._log(("get", str(path)))
        return AssetResource(self, ("asset", name)) if name else None

    def get_match(self, pattern: Any) -> AssetResource | None:
        """Hugo's ``resources.GetMatch``: the first file of ``assets/`` matching the glob."""
        found = self._matching(str(pattern))
        self._log(("match", str(pattern)))
        return AssetResource(self, ("asset", found[0])) if found else None

    def match(self, pattern: Any) -> list[AssetResource]:
        """Hugo's ``resources.Match``: every file of ``assets/`` matching the glob, by name."""
        self._log(("match", str(pattern)))
        return [AssetResource(self, ("asset", n)) for n in self._matching(str(pattern))]

    def get_remote(self, url: Any) -> AssetResource | None:
        """Hugo's ``resources.GetRemote``: the response to a GET of ``url`` (kept once
        fetched), None on a 404; any other failure raises (``try`` catches it)."""
        recipe = ("remote", str(url))
        policy = ((self.config.raw.get("security") or {}).get("http") or {}).get("urls")
        if not url_allowed(recipe[1], policy):
            raise RemoteError(
                f"access denied: {recipe[1]!r} is not allowed by the policy security.http.urls"
            )
        try:
            self.make(recipe)
        except FileNotFoundError:
            return None
        self._log(("use", recipe))
        return AssetResource(self, recipe)

    def from_string(self, name: Any, content: Any) -> AssetResource:
        """Hugo's ``resources.FromString``: a resource of that name and text."""
        return AssetResource(self, ("string", str(name).lstrip("/"), str(content)))

    def minify(self, resource: Any) -> AssetResource:
        """Hugo's ``resources.Minify`` (CSS, JavaScript, JSON, HTML): ``a.css`` -> ``a.min.css``."""
        return AssetResource(self, ("minify", _recipe(resource)))

    def fingerprint(self, resource: Any, algorithm: str = "sha256") -> AssetResource:
        """Hugo's ``resources.Fingerprint``: the digest in the name, ``data.integrity``."""
        algorithm = str(algorithm).lower()
        if algorithm not in FINGERPRINTS:
            raise ValueError(f"fingerprint: {algorithm!r} is not one of {', '.join(FINGERPRINTS)}")
        return AssetResource(self, ("fingerprint", algorithm, _recipe(resource)))

    def concat(self, name: Any, resources: Any) -> AssetResource:
        """Hugo's ``resources.Concat``: one file of the resources' contents (JavaScript files
        kept apart by ``;``)."""
        parts = tuple(_recipe(r) for r in resources)
        return AssetResource(self, ("concat", str(name).lstrip("/"), parts))

    def qr(self, text: Any, options: Any = None) -> AssetResource:
        """Hugo's ``images.QR``: the QR code of ``text`` as a PNG image (options ``level``,
        ``scale``, ``targetDir``). Bad options and a text too long for a QR code fail here
        (as ``error`` does: a shortcode's call is named)."""
        try:
            opts = qr_options(options)
            recipe = ("qr", qr_text(text), opts.level, opts.scale, opts.target_dir)
            self.make(recipe)
        except ValueError as e:
            raise ShortcodeProblem(f"images.qr: {e}") from None
        return AssetResource(self, recipe)

    # --- lookups -----------------------------------------------------------------
    def _find(self, path: str) -> str | None:
        wanted = path.strip().lstrip("/")
        if wanted in self.names:
            return wanted
        return self.assets.by_lower.get(wanted.lower())

    def _matching(self, pattern: str) -> list[str]:
        regex = glob_regex(pattern.strip().lstrip("/"))
        return [n for n in self.assets.names if regex.match(n)]

    def _log(self, what: tuple) -> None:
        log = getattr(self.env, "read_log", None)
        if log is not None and log.reads is not None:
            log.reads.add((RESOURCE, what))

    def use(self, recipe: tuple) -> Made:
        """What the recipe makes, with the read logged (its text, size or integrity)."""
        self._log(("use", recipe))
        return self.make(recipe)

    def publish(self, recipe: tuple) -> Made:
        """The recipe made and written, and logged as published (its URL was read)."""
        self._log(("publish", recipe))
        return self.produce(recipe)

    # --- making ------------------------------------------------------------------
    def make(self, recipe: tuple) -> Made:
        found = self.made.get(recipe)
        if found is None:
            found = self.made[recipe] = self._make(recipe)
        return found

    def produce(self, recipe: tuple) -> Made:
        """``make``, and its bytes on disk: a text result written to ``resources/_gen``, an
        image encoded into the image cache."""
        made = self.make(recipe)
        if made.image is not None:
            make_image(made.source, made.image, self._image_options(recipe))
        elif made.data is not None and not made.file.is_file():
            made.file.parent.mkdir(parents=True, exist_ok=True)
            tmp = made.file.with_name(f".{made.file.name}.{os.getpid()}.tmp")
            tmp.write_bytes(made.data)
            os.replace(tmp, made.file)
        return made

    def _make(self, recipe: tuple) -> Made:
        kind = recipe[0]
        if kind == "asset":
            path = self.assets.path(recipe[1])
            return Made(recipe[1], "/" + recipe[1], path)
        if kind == "bundle":
            _, source, out_path, name = recipe
            return Made(out_path, name, Path(source))
        if kind == "remote":
            found = fetch(remote_folder(Path(self.config.source)), recipe[1])
            if found is None:
                raise FileNotFoundError(f"{recipe[1]}: 404 Not Found")
            file, suffix = found
            stem = os.path.basename(urlparse(recipe[1]).path).rsplit(".", 1)[0] or "remote"
            return Made(f"{stem}_{file.stem[:16]}{suffix}", stem + suffix, file)
        if kind == "string":
            return self._text(recipe[1], "/" + recipe[1], recipe[2].encode())
        if kind == "minify":
            inner = self.make(recipe[1])
            data = minify_bytes(self._bytes(inner), media_type(inner.out_path))
            return self._text(_with_suffix(inner.out_path, "min"), inner.name, data)
        if kind == "fingerprint":
            _, algorithm, inner_recipe = recipe
            inner = self.make(inner_recipe)
            data = self._bytes(inner)
            digest = hashlib.new(algorithm, data).digest()
            integrity = f"{algorithm}-{base64.b64encode(digest).decode()}"
            out_path = _with_suffix(inner.out_path, digest.hex())
            file = inner.file if inner.data is None else self._generated_file(out_path, data)
            return Made(out_path, inner.name, file, inner.data, integrity, size=inner.size)
        if kind == "concat":
            _, name, parts = recipe
            made = [self.make(p) for p in parts]
            separator = b"\n;\n" if media_type(name) == "text/javascript" else b""
            return self._text(name, "/" + name, separator.join(self._bytes(m) for m in made))
        if kind == "qr":
            _, text, level, scale, target_dir = recipe
            out_path = qr_path(text, QROptions(level, scale, target_dir))
            data, width = qr_png(text, level, scale)
            made = self._text(out_path, "/" + out_path, data)
            made.size = (width, width)
            return made
        if kind == "image":
            inner = self.make(recipe[3])
            source = inner.file
            named = None
            if inner.size is not None:  # made in memory: processed from its file
                self.produce(recipe[3])
                named = Path(inner.out_path)
            elif inner.data is not None:  # a resource made from text is not an image
                raise ValueError(f"{recipe[1]}: {inner.name} is not an image")
            options = self._image_options(recipe)
            image = plan_image(source, self._digest(source), options, self.image_cache, named)
            folder = inner.out_path.rsplit("/", 1)[0] + "/" if "/" in inner.out_path else ""
            return Made(
                folder + image.name, inner.name, image.cache_file, image=image, source=source
            )
        raise ValueError(f"unknown resource recipe {kind!r}")

    def _image_options(self, recipe: tuple):
        return parse_spec(recipe[1], recipe[2], self.defaults)

    def _text(self, out_path: str, name: str, data: bytes) -> Made:
        return Made(out_path, name, self._generated_file(out_path, data), data)

    def _generated_file(self, out_path: str, data: bytes) -> Path:
        key = hashlib.sha256(data).hexdigest()[:16]
        return self.generated / f"{key}_{out_path.rsplit('/', 1)[-1]}"

    def _bytes(self, made: Made) -> bytes:
        if made.data is not None:
            return made.data
        if made.image is not None:
            raise ValueError(f"{made.name}: a processed image has no text")
        return made.file.read_bytes()

    def _digest(self, path: Path) -> str:
        stat = path.stat()
        stamp = (stat.st_size, stat.st_mtime_ns)
        found = self.digests.get(path)
        if found is None or found[0] != stamp:
            found = self.digests[path] = (stamp, hashlib.sha256(path.read_bytes()).hexdigest())
        return found[1]

    def signature(self, recipe: tuple) -> tuple:
        """What a render that used the recipe depends on: where it is published, its
        integrity, size and bytes (by their digest)."""
        made = self.make(recipe)
        if made.image is not None:
            return made.out_path, made.image.width, made.image.height
        if made.data is not None:
            return made.out_path, made.integrity, hashlib.sha256(made.data).hexdigest()
        return made.out_path, made.integrity, self._digest(made.file)


def _with_suffix(path: str, suffix: str) -> str:
    """``css/a.css`` with ``min`` -> ``css/a.min.css`` (Hugo's minify and fingerprint names)."""
    folder, _, name = path.rpartition("/")
    stem, dot, ext = name.rpartition(".")
    new = f"{stem}.{suffix}.{ext}" if dot and stem else f"{name}.{suffix}"
    return f"{folder}/{new}" if folder else new


def minify_bytes(data: bytes, kind: str) -> bytes:
    """CSS and JavaScript by minify-html's minifiers, JSON by Python's; HTML by
    minify-html; other types as they are."""
    import minify_html

    text = data.decode("utf-8")
    if kind == "text/css":
        out = minify_html.minify(f"<style>{text}</style>", minify_css=True)
        return out.removeprefix("<style>").removesuffix("</style>").encode()
    if kind == "text/javascript":
        out = minify_html.minify(f"<script>{text}</script>", minify_js=True)
        return out.removeprefix("<script>").removesuffix("</script>").encode()
    if kind == "application/json":
        return json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":")).encode()
    if kind == "text/html":
        return minify_html.minify(text, minify_css=True, minify_js=True).encode()
    return data


def _recipe(resource: Any) -> tuple:
    if isinstance(resource, AssetResource):
        return resource.recipe
    if isinstance(resource, Resource):
        return _bundle_recipe(resource)
    raise TypeError(f"expected a resource, got {type(resource).__name__}")


def _bundle_recipe(resource: Resource) -> tuple:
    return ("bundle", str(resource.source), resource.out_path, resource.name)


class AssetResource:
    """A global resource, or what a transformation or image method made: Hugo's resource
    methods in snake_case. Reading ``rel_permalink`` or ``permalink`` publishes it."""

    __slots__ = ("recipe", "site")

    def __init__(self, site: SiteResources, recipe: tuple) -> None:
        self.site = site
        self.recipe = recipe

    def _made(self) -> Made:
        return self.site.use(self.recipe)

    @property
    def name(self) -> str:
        return self.site.make(self.recipe).name

    title = property(attrgetter("name"))
    key = property(attrgetter("name"))

    @property
    def params(self) -> dict:
        return {}

    @property
    def media_type(self) -> MediaType:
        return media_type(self.site.make(self.recipe).out_path)

    @property
    def resource_type(self) -> str:
        return self.media_type.main_type

    @property
    def content(self) -> str:
        made = self._made()
        return self.site._bytes(made).decode("utf-8", errors="replace")

    @property
    def data(self) -> dict:
        """Hugo's ``.Data``: ``integrity`` once fingerprinted."""
        made = self._made()
        return {"integrity": made.integrity} if made.integrity else {}

    @property
    def rel_permalink(self) -> str:
        made = self.site.publish(self.recipe)
        return self.site.config.rel_base_path + "/" + quote(made.out_path)

    @property
    def permalink(self) -> str:
        made = self.site.publish(self.recipe)
        return self.site.config.base_url.rstrip("/") + "/" + quote(made.out_path)

    @property
    def width(self) -> int:
        return self._size()[0]

    @property
    def height(self) -> int:
        return self._size()[1]

    def _size(self) -> tuple[int, int]:
        made = self._made()
        if made.image is not None:
            return made.image.width, made.image.height
        if made.size is not None:
            return made.size
        if made.data is None and made.file.suffix.lower() in _IMAGES:
            return decoded_size(made.file)
        return 0, 0

    def resize(self, spec: str) -> AssetResource:
        return self._image("resize", spec)

    def fit(self, spec: str) -> AssetResource:
        return self._image("fit", spec)

    def fill(self, spec: str) -> AssetResource:
        return self._image("fill", spec)

    def crop(self, spec: str) -> AssetResource:
        return self._image("crop", spec)

    def process(self, spec: str) -> AssetResource:
        return self._image("process", spec)

    def _image(self, action: str, spec: str) -> AssetResource:
        parse_spec(action, spec, self.site.defaults)  # a bad spec fails where it is written
        return AssetResource(self.site, ("image", action, str(spec), self.recipe))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AssetResource) and other.recipe == self.recipe

    def __hash__(self) -> int:
        return hash(self.recipe)

    def __repr__(self) -> str:
        return f"<resource {self.recipe!r}>"


# The site's resources in this process: one site per build (``matome serve`` keeps the last).
_CURRENT: dict[int, SiteResources] = {}


def site_resources(site: Any) -> SiteResources:
    """The ``SiteResources`` installed for ``site`` (made here when none was)."""
    found = _CURRENT.get(id(site))
    if found is None:
        found = _register(site, SiteResources(site.config))
    return found


def _register(site: Any, resources: SiteResources) -> SiteResources:
    _CURRENT.clear()
    _CURRENT[id(site)] = resources
    return resources


def bundle_resource(resource: Resource) -> AssetResource:
    """A page's bundle file with Hugo's image methods and ``content``."""
    current = next(iter(_CURRENT.values()), None)
    if current is None:
        raise RuntimeError("resources are used before the site's functions are installed")
    return AssetResource(current, _bundle_recipe(resource))


def resource_value(site: Any, what: tuple) -> Any:
    """A logged resource read, on this build's files (compared with the last build's)."""
    resources = site_resources(site)
    kind = what[0]
    try:
        if kind == "get":
            return resources._find(what[1])
        if kind == "match":
            return tuple(resources._matching(what[1]))
        return resources.signature(what[1])
    except (OSError, ValueError) as e:  # the file is gone or no longer an image
        return ("@failed", str(e))


def published_outputs(
    site: Any, cache: Any, planned: list[Output], env: Any, index: Any = None
) -> tuple[list[Output], list[SourceError]]:
    """The resources to publish, made or taken from ``resources/_gen``: those whose URL a
    written or kept file, or a page body, read (``cache``: the build's BuildCache, its
    reads as they are when every file is written; ``index``: its PairIndex, when kept).
    A path already planned (a static or bundle file) is not written twice. An error for
    each one that cannot be made."""
    # Most sites' templates never reach a resource, and then the build's reads (one per
    # page attribute each file read) are not searched for published ones; Hugo's embedded
    # link and image hooks, on, may reach one from any body.
    if not templates_used_say(env, cache, _USES_RESOURCES.search) and not _embedded_hooks_on(
        site.config
    ):
        return [], []
    pairs = cache.pairs
    if index is not None:
        ids = index.of_keys((RESOURCE,))
    else:
        ids = compress(range(len(pairs)), map(RESOURCE.__eq__, map(_KEY, pairs)))
    wanted = {i for i in ids if pairs[i][1][0] == "publish"}
    recipes = set()
    if wanted:
        for record in cache.outputs.values():
            for i in wanted.intersection(record.reads):
                recipes.add(pairs[i][1][1])
    for entry in cache.content.values():
        recipes.update(p[1][1] for p in entry.reads if p[0] == RESOURCE and p[1][0] == "publish")
    if not recipes:
        return [], []
    resources = site_resources(site)
    taken = out_paths(planned)
    outputs, errors = [], []
    for recipe in sorted(recipes, key=repr):
        try:
            made = resources.produce(recipe)
        except (OSError, ValueError) as e:
            errors.append(SourceError(str(resources.assets.root), 0, 0, f"resource: {e}"))
            continue
        if made.out_path not in taken:
            taken.add(made.out_path)
            origin = f"resource {made.name}"
            outputs.append(Output("copy", made.out_path, source=made.file, origin=origin))
    return outputs, errors


def _embedded_hooks_on(config: Any) -> bool:
    settings = read_settings(config.markup, config.enable_emoji, config.raw)
    return settings.embedded_link_hook != "never" or settings.embedded_image_hook != "never"


# What a template that reaches a resource says: ``resources``, ``images.qr``, or an image
# method.
_USES_RESOURCES = re.compile(
    r"resources|resource\(|images\.qr\(|\.(?:resize|fit|fill|crop|process)\("
)


_KEY = itemgetter(0)


class ImagesNamespace:
    """``images`` in templates: Hugo's ``images.QR`` as ``images.qr``."""

    def __init__(self, site: SiteResources) -> None:
        self.qr = site.qr


class ResourcesNamespace:
    """``resources`` in templates: Hugo's ``resources.Get`` and friends, in snake_case."""

    def __init__(self, site: SiteResources) -> None:
        self.get = site.get
        self.get_match = site.get_match
        self.get_remote = site.get_remote
        self.match = site.match
        self.from_string = site.from_string
        self.minify = site.minify
        self.fingerprint = site.fingerprint
        self.concat = site.concat


def install_resources(env: Any, site: Any) -> None:
    """``resources``, ``images`` and the ``minify``, ``fingerprint`` and ``concat`` filters."""
    resources = _register(site, SiteResources(site.config, env))
    env.globals["resources"] = ResourcesNamespace(resources)
    env.globals["images"] = ImagesNamespace(resources)
    env.globals["try"] = attempt
    env.filters["unmarshal"] = unmarshal
    env.filters.update(
        minify=resources.minify,
        fingerprint=resources.fingerprint,
        concat=lambda items, name: resources.concat(name, items),
    )
