"""Image processing (``resize``, ``fit``, ``fill``, ``crop``, ``process``) with Hugo's spec
strings, on global and page resources: the size of every result is compared with what
the real ``hugo`` makes of the same spec on the same generated images, and the files
are checked as published. The bytes differ (Pillow's encoders, not Go's): the width,
height, format and place of each file are compared, not its bytes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image
from site_probe import build_hugo, build_matome, cases, write_tree

IMAGES = {
    "wide": (800, 600),
    "tall": (300, 500),
    "odd": (101, 79),
    "thin": (60, 1000),
    "square": (333, 333),
}
SPECS = [
    "resize 600x",
    "resize x400",
    "resize 600x400",
    "resize 1000x",  # enlarges
    "resize x50",
    "resize 7x",
    "fit 800x600",
    "fit 200x200",
    "fit 1000x1000",  # never enlarges
    "fit 50x500",
    "fit 10x10",
    "fill 300x200",
    "fill 1000x1000",
    "fill 50x50 TopLeft",
    "fill 7x3 BottomRight",
    "crop 400x400",
    "crop 1000x1000",  # larger both ways: the box scaled down to fit
    "crop 100x50 TopLeft",
    "crop 400x300",
    "resize x100 r90",
    "resize 100x r45",
    "resize 100x r30",
    "fill 100x50 r270",
    "crop 50x60 r180",
    "fit 100x100 r-90",
    "resize 50x jpg",
    "resize 64x webp q50",
    "resize 64x png Lanczos",
    "resize 64x gif NearestNeighbor",
    "fill 64x64 center CatmullRom q90",
    "fit 90x90 #ff0000 jpeg",
    "resize 30x MitchellNetravali picture",
]
# Hugo's methods called by name, besides process.
METHODS = [("resize", "120x"), ("fit", "120x120"), ("fill", "120x90 Top"), ("crop", "120x90 Right")]


def make_images(root: Path) -> None:
    for name, size in IMAGES.items():
        path = root / "assets/images" / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        picture = Image.new("RGBA", size, (30, 160, 200, 255))
        picture.paste((200, 40, 40, 128), (0, 0, size[0] // 2, size[1] // 2))  # a corner to keep
        picture.save(path)
    bundle = root / "content/posts/shot"
    bundle.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (640, 480), (90, 90, 90)).save(bundle / "photo.jpg")


GO = (
    '{{ range slice "wide" "tall" "odd" "thin" "square" }}{{ $i := resources.Get (printf "images/%s.png" .) }}'
    "{{ $n := . }}{{ range $k, $spec := $.Site.Params.specs }}"
    "@@{{ $n }}-{{ $k }}@@{{ with $i.Process $spec }}{{ .Width }}x{{ .Height }} {{ .MediaType }} {{ .RelPermalink }}{{ end }}@@end@@\n"
    "{{ end }}{{ end }}"
    '{{ $p := (site.GetPage "/posts/shot").Resources.GetMatch "*.jpg" }}'
    "@@page-size@@{{ $p.Width }}x{{ $p.Height }}@@end@@\n"
    '@@page-resize@@{{ with $p.Resize "200x" }}{{ .Width }}x{{ .Height }} {{ .Name }} {{ .RelPermalink }}{{ end }}@@end@@\n'
    + "".join(
        f'@@method-{m}@@{{{{ with (resources.Get "images/wide.png").{m.title()} "{s}" }}}}{{{{ .Width }}}}x{{{{ .Height }}}}{{{{ end }}}}@@end@@\n'
        for m, s in METHODS
    )
)
JINJA = (
    "{% for n in ['wide', 'tall', 'odd', 'thin', 'square'] %}{% set i = resources.get('images/' ~ n ~ '.png') %}"
    "{% for spec in site.params.specs %}{% set r = i.process(spec) %}"
    "@@{{ n }}-{{ loop.index0 }}@@{{ r.width }}x{{ r.height }} {{ r.media_type }} {{ r.rel_permalink }}@@end@@\n"
    "{% endfor %}{% endfor %}"
    "{% set p = site.get_page('/posts/shot').resources.get_match('*.jpg') %}"
    "@@page-size@@{{ p.width }}x{{ p.height }}@@end@@\n"
    "{% set r = p.resize('200x') %}@@page-resize@@{{ r.width }}x{{ r.height }} {{ r.name }} {{ r.rel_permalink }}@@end@@\n"
    + "".join(
        f"{{% set r = resources.get('images/wide.png').{m}('{s}') %}}@@method-{m}@@{{{{ r.width }}}}x{{{{ r.height }}}}@@end@@\n"
        for m, s in METHODS
    )
)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    site = tmp_path_factory.mktemp("images") / "site"
    specs = ", ".join(f'"{s}"' for s in SPECS)
    write_tree(
        site,
        {
            "hugo.toml": 'baseURL = "https://example.org/"\n'
            'disableKinds = ["rss", "sitemap", "robotstxt", "404", "taxonomy", "term"]\n'
            f"[params]\nspecs = [{specs}]\n",
            "content/posts/shot/index.md": '+++\ntitle = "Shot"\n+++\n',
            "layouts/home.html": GO,
            "layouts/single.html": "{{ .Title }}",
            "layouts/list.html": "{{ .Title }}",
            "templates/index.html": JINJA,
            "templates/_default/single.html": "{{ page.title }}",
            "templates/_default/list.html": "{{ page.title }}",
        },
    )
    make_images(site)
    hugo_out = build_hugo(site)
    matome_out, _ = build_matome(site)
    return {
        "hugo": cases((hugo_out / "index.html").read_text()),
        "matome": cases((matome_out / "index.html").read_text()),
        "matome_out": matome_out,
        "site": matome_out.parent,
    }


def split(text: str) -> tuple[str, str, str]:
    size, kind, url = text.split(" ")
    return size, kind, url


@pytest.mark.parametrize("spec", range(len(SPECS)), ids=SPECS)
@pytest.mark.parametrize("image", list(IMAGES))
def test_size_and_type_match_hugo(built, image, spec):
    case = f"{image}-{spec}"
    hugo, ours = split(built["hugo"][case]), split(built["matome"][case])
    assert ours[:2] == hugo[:2], f"{SPECS[spec]} on {IMAGES[image]}: hugo {hugo}, matome {ours}"
    # Published beside the source under Hugo's pattern of name; the hash is matome's own.
    pattern = re.escape(hugo[2].split("_hu")[0]) + r"_hu_[0-9a-f]{16}\." + hugo[2].rsplit(".", 1)[1]
    assert re.fullmatch(pattern, ours[2])
    published = built["matome_out"] / ours[2].lstrip("/")
    with Image.open(published) as made:
        assert f"{made.width}x{made.height}" == ours[0]
        assert Image.MIME[made.format] == ours[1]


@pytest.mark.parametrize("case", ["page-size", "page-resize", *(f"method-{m}" for m, _ in METHODS)])
def test_page_resources_and_method_names_match_hugo(built, case):
    hugo, ours = built["hugo"][case], built["matome"][case]
    if case == "page-resize":
        assert ours.split(" ")[:2] == hugo.split(" ")[:2]
        assert re.fullmatch(r"/posts/shot/photo_hu_[0-9a-f]{16}\.jpg", ours.split(" ")[2])
    else:
        assert ours == hugo


def test_a_fill_keeps_the_part_its_anchor_names(built):
    """The top left quarter of the generated images is red: TopLeft keeps it."""
    url = built["matome"]["wide-13"].split(" ")[2]  # "fill 50x50 TopLeft"
    with Image.open(built["matome_out"] / url.lstrip("/")) as made:
        red, green, blue, *_ = made.convert("RGBA").getpixel((2, 2))
        assert red > blue


def test_results_are_cached_and_not_encoded_again(built, monkeypatch):
    from matome.build import build
    from matome.config import Flags
    from matome.images import processing, thumbnails

    site = built["site"]
    cache = site / "resources/_gen/images/matome"
    before = {p.name: p.stat().st_mtime_ns for p in cache.iterdir()}
    assert any("_hu_" in name for name in before)

    def no_encoding(*args, **kwargs):
        raise AssertionError("a cached image was encoded again")

    monkeypatch.setattr(thumbnails, "encode", no_encoding)
    monkeypatch.setattr(processing, "encode", no_encoding)
    out = site.parent / "again"
    build(site, Flags(destination=str(out)), jobs=1, read_cache=False)
    assert {p.name: p.stat().st_mtime_ns for p in cache.iterdir()} == before
    assert (out / "index.html").read_text() == (built["matome_out"] / "index.html").read_text()


def test_a_spec_hugo_refuses_fails_the_build_with_the_template_line(tmp_path):
    site = tmp_path / "site"
    write_tree(
        site,
        {
            "hugo.toml": 'baseURL = "https://example.org/"\n',
            "templates/index.html": "ok\n{{ resources.get('images/wide.png').resize('600x nonsense').width }}",
        },
    )
    make_images(site)
    from cli import matome

    done = matome("build", "-s", str(site))
    assert done.returncode == 1
    assert re.search(
        r"templates/index\.html:2:\d+: error: .*unrecognized image option 'nonsense'", done.stderr
    )
    for bad in ("fill 600x", "crop x10"):
        write_tree(
            site,
            {
                "templates/index.html": f"{{{{ resources.get('images/wide.png').process('{bad}').width }}}}"
            },
        )
        assert "give both width and height" in matome("build", "-s", str(site)).stderr
