"""The default theme's generated files: thumbnails (matome/images.py). The search index has
tests/test_search.py."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PIL import Image
from procs import proc_files

from matome.images import thumbnails as images

try:  # tests/ as a package or as a plain directory on sys.path
    from tests.theme_site import REPO, matome_build
except ImportError:
    from theme_site import REPO, matome_build


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def site(tmp_path) -> Path:
    """A small site with the demo's thumbnails in assets/ and search off (fast)."""
    root = tmp_path / "site"
    write(
        root / "hugo.toml",
        'baseURL = "https://e.org/blog/"\ntitle = "T"\nlanguageCode = "ja"\n'
        "[taxonomies]\n  tag = 'tags'\n[params]\n  enableSearch = false\n",
    )
    shutil.copytree(REPO / "assets", root / "assets")
    for n, image in enumerate(
        ["thumbnails/purple2.jpg", "THUMBNAILS/Green4.JPG", "thumbnails/purple2.jpg"]
    ):
        write(
            root / f"content/posts/p{n}.md",
            f"+++\ntitle = 'P{n}'\ndate = 2025-01-0{n + 1}\ntags = ['x']\nfeatureimage = '{image}'\n+++\n"
            '{{<matomeQuote body="こんにちは" userName="u" createdAt="2025/01/01 10:00:00" color="">}}\n',
        )
    return root


def test_glob_matches_like_hugo():
    assert images.glob_regex("thumbnails/*.jpg").match("thumbnails/a.jpg")
    assert not images.glob_regex("*.jpg").match("thumbnails/a.jpg")  # * stays in its folder
    assert images.glob_regex("**.jpg").match("thumbnails/a.jpg")
    assert images.glob_regex("{*cover*,*thumbnail*}").match("My-Cover.PNG")


def test_thumbnails_are_resized_once_per_image_and_size_and_shared(site, tmp_path):
    out = tmp_path / "out"
    matome_build(site, out)
    thumbs = sorted((out / "thumbnails").iterdir())
    # Two distinct images (one named in another case) x two sizes, shared by three pages.
    assert len(thumbs) == 4, thumbs
    sizes = sorted((Image.open(p).width, p.suffix) for p in thumbs)
    assert sizes == [(480, ".webp"), (480, ".webp"), (1200, ".jpg"), (1200, ".jpg")]
    card = (out / "posts/index.html").read_text()
    img = re.search(
        r'<img src="(/blog/thumbnails/[^"]+_480\.webp)" alt="" width="480" height="(\d+)" loading="lazy"',
        card,
    )
    assert img, card
    assert (out / img.group(1).removeprefix("/blog/")).is_file()
    article = (out / "posts/p0/index.html").read_text()
    og = re.search(
        r'<meta property="og:image" content="https://e\.org/blog/(thumbnails/purple2_\w+_1200\.jpg)">',
        article,
    )
    assert og, article
    hero = re.search(r'<figure class="article-hero">\s*<img src="/blog/([^"]+)"', article)
    assert hero and hero.group(1) == og.group(1)  # the hero is the OpenGraph image


def test_the_image_cache_is_reused_and_keyed_by_content(site, tmp_path, monkeypatch):
    matome_build(site, tmp_path / "out")
    cache = site / "resources/_gen/images/matome"
    before = {p.name: p.stat().st_mtime_ns for p in cache.iterdir()}
    assert before

    from matome.build import build
    from matome.config import Flags

    def no_encoding(*args):
        raise AssertionError("a cached thumbnail was encoded again")

    monkeypatch.setattr(images, "encode", no_encoding)
    report = build(site, Flags(destination=str(tmp_path / "out2")), jobs=1)
    assert not [w for w in report.warnings if "thumbnail" in w.message]
    assert {p.name: p.stat().st_mtime_ns for p in cache.iterdir()} == before
    monkeypatch.undo()

    # New bytes under the same name: a new file name, so browsers never see a stale image.
    Image.new("RGB", (800, 450), "red").save(site / "assets/thumbnails/purple2.jpg")
    matome_build(site, tmp_path / "out3")
    old = {n for n in before if n.startswith("purple2")}
    new = {p.name for p in (tmp_path / "out3/thumbnails").iterdir() if p.name.startswith("purple2")}
    assert new and not new & old


def test_an_article_added_to_the_kept_graph_finds_every_thumbnail_in_the_cache(
    site, tmp_path, monkeypatch
):
    """The images are named by the digests the build took of its inputs (a cold build's
    encoders read them): an addition must find the names the cold build made."""
    from matome.build import build
    from matome.config import Flags

    out = tmp_path / "out"
    matome_build(site, out)
    before = sorted(p.name for p in (out / "thumbnails").iterdir())

    def no_encoding(*args):
        raise AssertionError("a cached thumbnail was encoded again")

    monkeypatch.setattr(images, "encode", no_encoding)
    write(
        site / "content/posts/p9.md",
        "+++\ntitle = 'P9'\ndate = 2025-01-09\ntags = ['x']\n"
        "featureimage = 'THUMBNAILS/Green4.JPG'\n+++\nnew\n",
    )
    report = build(site, Flags(destination=str(out)), jobs=1)
    assert report.graph_kept and report.added == 1
    assert not [w for w in report.warnings if "thumbnail" in w.message]
    assert sorted(p.name for p in (out / "thumbnails").iterdir()) == before
    page = (out / "posts/p9/index.html").read_text("utf-8")
    assert any(name in page for name in before if name.startswith("green4"))


def test_a_body_edit_after_the_image_cache_was_deleted_makes_the_thumbnails_again(site, tmp_path):
    out = tmp_path / "out"
    matome_build(site, out)
    shutil.rmtree(site / "resources")
    shutil.rmtree(out / "thumbnails")
    post = site / "content/posts/p1.md"
    post.write_text(post.read_text(encoding="utf-8").replace("こんにちは", "こんばんは"))
    summary = matome_build(site, out, "--verbose").stdout
    assert "the site graph was the last build's" in summary  # only a body changed
    assert "こんばんは" in (out / "posts/p1/index.html").read_text()
    cold = tmp_path / "cold"
    matome_build(site, cold, "--ignoreCache")
    made = sorted(p.relative_to(out).as_posix() for p in (out / "thumbnails").iterdir())
    assert made == sorted(p.relative_to(cold).as_posix() for p in (cold / "thumbnails").iterdir())
    assert made


def _files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def test_templates_that_show_no_thumbnail_get_none_until_one_does(site, tmp_path):
    """As Hugo makes only the images its templates ask for: a site's own templates that
    never call thumbnail() publish no thumbnails; once one does, the next (cached) build
    publishes them, the same files as a cold build."""
    plain = "{% block main %}{% endblock %}"
    own = {
        "_default/baseof.html": "<!doctype html><title>{{ page.title }}</title>" + plain,
        "index.html": "{% extends '_default/baseof.html' %}{% block main %}home{% endblock %}",
        "_default/list.html": "{% extends '_default/baseof.html' %}{% block main %}list{% endblock %}",
        "_default/term.html": "{% extends '_default/baseof.html' %}{% block main %}term{% endblock %}",
        "_default/taxonomy.html": "{% extends '_default/baseof.html' %}{% block main %}tax{% endblock %}",
        "_default/single.html": "{% extends '_default/baseof.html' %}{% block main %}{{ page.content }}{% endblock %}",
    }
    for name, text in own.items():
        write(site / "templates" / name, text)
    out = tmp_path / "out"
    summary = matome_build(site, out, "--verbose").stdout
    assert not (out / "thumbnails").exists()
    assert '<article class="comment"' in (out / "posts/p0/index.html").read_text()
    assert not [f for f in _files(out) if f.endswith((".webp", ".jpg"))]
    assert re.search(r"Non-page files\s*│\s*0\b", summary), summary
    # The encoder, stopped, leaves no half-written file in the image cache.
    assert not list((site / "resources/_gen/images/matome").glob(".*.tmp"))

    write(
        site / "templates/_default/single.html",
        "{% extends '_default/baseof.html' %}{% block main %}"
        '{% set t = thumbnail(page, 480) %}<img src="{{ t.rel_permalink }}" width="{{ t.width }}">'
        "{% endblock %}",
    )
    matome_build(site, out)
    src = re.search(
        r'<img src="/blog/(thumbnails/[^"]+)" width="480">',
        (out / "posts/p1/index.html").read_text(),
    )
    assert src, (out / "posts/p1/index.html").read_text()
    with Image.open(out / src.group(1)) as image:
        assert image.width == 480
    cold = tmp_path / "cold"
    matome_build(site, cold, "--ignoreCache")
    assert _files(out) == _files(cold)
    assert [f for f in _files(out) if f.startswith("thumbnails/")]


def test_feature_images_resolve_as_blowfish_does(site, tmp_path):
    write(
        site / "content/posts/remote.md",
        "+++\ntitle = 'R'\nfeatureimage = 'https://img.example/x.png'\n+++\n",
    )
    write(
        site / "content/posts/missing.md", "+++\ntitle = 'M'\nfeatureimage = 'nowhere.jpg'\n+++\n"
    )
    bundle = site / "content/posts/bundle"
    write(bundle / "index.md", "+++\ntitle = 'B'\n+++\n")
    Image.new("RGB", (2000, 1000), "blue").save(bundle / "feature-photo.png")
    out = tmp_path / "out"
    matome_build(site, out)
    assert (
        '<meta property="og:image" content="https://img.example/x.png">'
        in (out / "posts/remote/index.html").read_text()
    )
    assert "og:image" not in (out / "posts/missing/index.html").read_text()
    hero = re.search(
        r'<figure class="article-hero">\s*<img src="/blog/(thumbnails/feature-photo_\w+_1200\.jpg)" alt="" width="1200" height="600"',
        (out / "posts/bundle/index.html").read_text(),
    )
    assert hero and (out / hero.group(1)).is_file()


def test_the_encoder_started_with_the_load_makes_the_thumbnails_before_the_site_graph(
    site, tmp_path
):
    """A cold build's encoder is told each article's feature image as the loader reads
    it, so the images are made while one core loads the content; the build then finds
    them made and publishes those very files."""
    from datetime import UTC, datetime

    from matome.config import Flags, load_config
    from matome.content.loader import load_content
    from matome.images.early import EarlyThumbnails

    config = load_config(site, Flags())
    with EarlyThumbnails(config, 1) as early:
        loaded = load_content(config, datetime.now(UTC), early.page_read)
        early.all_read()
        assert early.finish([]) == []  # waits for the child; nothing left for this process
    assert len(loaded.pages) == 3
    cache = site / "resources/_gen/images/matome"
    made = {p.name for p in cache.iterdir() if not p.name.endswith(".size")}
    # Two images (one named in another case), each as a 480 px WebP and a 1200 px JPEG.
    assert {(name.split("_")[0], name.rsplit("_")[-1]) for name in made} == {
        ("green4", "480.webp"),
        ("green4", "1200.jpg"),
        ("purple2", "480.webp"),
        ("purple2", "1200.jpg"),
    }
    assert len(made) == 4
    stamps = {p.name: p.stat().st_mtime_ns for p in cache.iterdir()}
    out = tmp_path / "out"
    matome_build(site, out)
    assert {p.name for p in (out / "thumbnails").iterdir()} == made
    assert {p.name: p.stat().st_mtime_ns for p in cache.iterdir()} == stamps  # none made again


def test_the_site_graph_decides_the_thumbnails_when_the_loads_guess_was_wrong(site, tmp_path):
    """The early encoder guesses from each page as read, before a section's cascade is
    applied: an image the cascade gives is still made and shown, and one it hides is
    not published (made for nothing, it only stays in the image cache)."""
    write(
        site / "content/news/_index.md",
        "+++\ntitle = 'News'\n[cascade]\n  featureimage = 'thumbnails/color3.jpg'\n+++\n",
    )
    write(site / "content/news/n1.md", "+++\ntitle = 'N1'\ndate = 2025-01-05\n+++\n本文\n")
    write(
        site / "content/quiet/_index.md",
        "+++\ntitle = 'Quiet'\n[cascade]\n  hideFeatureImage = true\n+++\n",
    )
    Image.new("RGB", (1600, 900), "navy").save(site / "assets/hidden.jpg")
    write(
        site / "content/quiet/q1.md",
        "+++\ntitle = 'Q1'\ndate = 2025-01-06\nfeatureimage = 'hidden.jpg'\n+++\n本文\n",
    )
    out = tmp_path / "out"
    result = matome_build(site, out)
    assert "thumbnail" not in result.stderr, result.stderr
    published = {p.name.split("_")[0] for p in (out / "thumbnails").iterdir()}
    assert published == {"purple2", "green4", "color3"}
    news = (out / "news/n1/index.html").read_text()
    hero = re.search(r'<img src="/blog/(thumbnails/color3_\w+_1200\.jpg)"', news)
    assert hero and (out / hero.group(1)).is_file(), news
    assert "thumbnails/" not in (out / "quiet/q1/index.html").read_text()
    made = {p.name.split("_")[0] for p in (site / "resources/_gen/images/matome").iterdir()}
    assert "hidden" in made  # the guess: encoded early, and left unpublished


def test_thumbnails_follow_hugos_resample_filter_setting(site, tmp_path):
    """Hugo's ``imaging.resampleFilter`` (default box) picks the filter; another filter
    makes other pixels under other names; a name Pillow lacks is a warning, not a crash."""
    from matome.build import build
    from matome.config import Flags

    def made(out: Path) -> tuple[dict[str, bytes], list]:
        report = build(site, Flags(destination=str(out)), jobs=1)
        thumbs = {
            p.name.split("_")[0] + p.suffix: p.read_bytes() for p in (out / "thumbnails").iterdir()
        }
        return thumbs, report.warnings

    box, warnings = made(tmp_path / "box")
    assert not warnings
    config = site / "hugo.toml"
    config.write_text(config.read_text() + "[imaging]\n  resampleFilter = 'Lanczos'\n")
    lanczos, _ = made(tmp_path / "lanczos")
    assert box.keys() == lanczos.keys()
    assert all(box[name] != lanczos[name] for name in box)
    names = {p.name for p in (tmp_path / "box" / "thumbnails").iterdir()}
    assert names.isdisjoint(p.name for p in (tmp_path / "lanczos" / "thumbnails").iterdir())

    config.write_text(config.read_text().replace("'Lanczos'", "'gaussian'"))
    again, warnings = made(tmp_path / "unknown")
    assert again == box  # box is used
    assert [w.message for w in warnings] == [
        "imaging.resampleFilter 'gaussian' is not one of box, nearestneighbor, linear, "
        "hamming, catmullrom, lanczos: box is used"
    ]
    assert warnings[0].path.endswith("hugo.toml")


def test_thumbnails_follow_hugos_quality_setting(site, tmp_path):
    """Hugo's ``imaging.quality`` (default 75) sets the JPEG and WebP quality; a value
    Hugo would refuse is a warning, and 75 is used."""
    from matome.build import build
    from matome.config import Flags

    config = site / "hugo.toml"
    plain = config.read_text()

    def made(quality: str | None, out: Path) -> tuple[dict[str, Path], list[str]]:
        setting = "" if quality is None else f"[imaging]\n  quality = {quality}\n"
        config.write_text(plain + setting)
        report = build(site, Flags(destination=str(out)), jobs=1)
        thumbs = {p.name.split("_")[0] + p.suffix: p for p in (out / "thumbnails").iterdir()}
        return thumbs, [w.message for w in report.warnings]

    default, warnings = made(None, tmp_path / "default")
    assert not warnings and {p.suffix for p in default.values()} == {".jpg", ".webp"}
    same, _ = made("75", tmp_path / "q75")
    assert {p.name for p in same.values()} == {p.name for p in default.values()}
    low, _ = made("30", tmp_path / "q30")
    assert low.keys() == default.keys()
    for name, path in low.items():
        assert path.name != default[name].name
        assert path.stat().st_size < default[name].stat().st_size, name
    for i, (bad, shown) in enumerate(
        [("0", "0"), ("101", "101"), ("'high'", "'high'"), ("true", "True")]
    ):
        again, warnings = made(bad, tmp_path / f"bad{i}")
        assert {p.name for p in again.values()} == {p.name for p in default.values()}
        assert warnings == [
            f"imaging.quality {shown} is not a whole number from 1 to 100: 75 is used"
        ]


def _bundle_with(site: Path, name: str, image) -> Path:
    """An article whose bundle's feature image is ``image`` (a Pillow image or bytes)."""
    bundle = site / f"content/posts/{name}"
    write(bundle / "index.md", f"+++\ntitle = '{name}'\ndate = 2025-02-01\n+++\n本文\n")
    target = bundle / ("feature.jpg" if isinstance(image, bytes) else f"feature.{image.format_}")
    if isinstance(image, bytes):
        target.write_bytes(image)
    else:
        image.save(target, **image.options_)
    return bundle


def _image(size, mode="RGB", fmt="jpg", **options):
    image = Image.new(mode, size, "teal" if mode != "P" else 3)
    image.format_, image.options_ = fmt, options
    return image


def test_thumbnail_sizes_told_to_pages_before_encoding_are_the_encoded_sizes(site, tmp_path):
    """Pages are written with each thumbnail's size worked out from the image's header;
    the files are encoded later. Both must agree for every kind of source."""
    rotated = _image((1600, 900))
    exif = Image.Exif()
    exif[0x0112] = 6  # stored sideways: shown 900 wide, 1600 high
    rotated.options_ = {"exif": exif.tobytes()}
    animated = _image((700, 300), "P", "gif", save_all=True)
    animated.options_["append_images"] = [Image.new("P", (700, 300), 5)]
    cases = {
        "big-jpeg": _image((5000, 2813)),  # decoded at a reduced scale first
        "rotated": rotated,
        "alpha-png": _image((1999, 1001), "RGBA", "png"),
        "small": _image((300, 200), fmt="png"),  # never enlarged
        "animated": animated,
    }
    for name, image in cases.items():
        _bundle_with(site, name, image)
    out = tmp_path / "out"
    assert "thumbnail" not in matome_build(site, out).stderr
    checked = 0
    for name in cases:
        html = (out / f"posts/{name}/index.html").read_text()
        told = re.findall(
            r'src="/blog/(thumbnails/[^"]+)" alt=""[^>]* width="(\d+)" height="(\d+)"', html
        )
        og = re.search(
            r'og:image" content="https://e\.org/blog/(thumbnails/[^"]+)">\s*'
            r'<meta property="og:image:width" content="(\d+)">\s*'
            r'<meta property="og:image:height" content="(\d+)">',
            html,
        )
        assert told and og, html
        for path, width, height in [*told, og.groups()]:
            with Image.open(out / path) as made:
                assert made.size == (int(width), int(height)), (name, path)
                assert made.convert("RGB").getpixel((0, 0)) != (136, 136, 136)  # not a blank
            checked += 1
    assert checked >= 10
    with Image.open(next((out / "thumbnails").glob("feature_*_1200.jpg"))) as any_hero:
        assert any_hero.width <= 1200


def test_an_image_broken_past_its_header_gets_a_blank_stand_in_and_a_warning_each_build(
    site, tmp_path
):
    good = tmp_path / "good.jpg"
    Image.new("RGB", (1600, 900), "teal").save(good, quality=95)
    _bundle_with(site, "cut", good.read_bytes()[:2000])  # the header, then nothing
    _bundle_with(site, "junk", b"not an image at all")
    out = tmp_path / "out"
    post = site / "content/posts/p1.md"
    blanks = site / "resources/_gen/images/matome"
    made = []
    # A cold build; a body edit (the kept graph keeps the blank and its warning); a title
    # edit (the graph is built again: the blank was not cached, the image is tried again).
    for edit in ("", "こんばんは", "title = 'P1 again'"):
        if edit:
            text = post.read_text(encoding="utf-8")
            post.write_text(
                text.replace("こんにちは", edit)
                if "title" not in edit
                else text.replace("title = 'P1'", edit),
                encoding="utf-8",
            )
        stderr = matome_build(site, out).stderr
        assert "posts/cut/feature.jpg" in stderr and "a blank image stands in" in stderr, stderr
        assert "posts/junk/feature.jpg" in stderr and "cannot make a thumbnail" in stderr
        made.append(max(p.stat().st_mtime_ns for p in blanks.glob("feature_*")))
    assert made[0] == made[1] < made[2]
    cut = (out / "posts/cut/index.html").read_text()
    hero = re.search(
        r'<img src="/blog/(thumbnails/feature_\w+_1200\.jpg)" alt="" width="1200" height="675"',
        cut,
    )
    assert hero, cut
    with Image.open(out / hero.group(1)) as blank:
        assert blank.size == (1200, 675)
    assert "thumbnails/" not in (out / "posts/junk/index.html").read_text().split("</head>")[1]


def _children_of(pid: int) -> list[int]:
    # The parent pid is the second field after the command name, which may hold spaces.
    return [
        child
        for child, stat in proc_files("stat")
        if int(stat.rsplit(b")", 1)[1].split()[1]) == pid
    ]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_a_build_that_fails_stops_its_thumbnail_encoder(site, tmp_path):
    """Thumbnails are encoded by a child started before the pages are rendered; a build
    that fails on a page must not leave it running, and a fixed build still makes them."""
    import os

    from matome.build import build
    from matome.config import Flags
    from matome.errors import BuildFailed

    broken = site / "content/posts/broken.md"
    write(broken, "+++\ntitle = 'B'\n+++\n{{< matomeQuote body=\"unclosed >}}\n")
    with pytest.raises(BuildFailed) as failed:
        build(site, Flags(destination=str(tmp_path / "out")), jobs=2)
    assert [(e.path, e.line) for e in failed.value.errors] == [("content/posts/broken.md", 4)]
    assert not (tmp_path / "out").exists()
    assert _children_of(os.getpid()) == []
    broken.unlink()
    report = build(site, Flags(destination=str(tmp_path / "out")), jobs=2)
    assert not report.warnings
    assert len(list((tmp_path / "out/thumbnails").iterdir())) == 4  # two images, two sizes each
    assert _children_of(os.getpid()) == []
