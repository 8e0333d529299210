"""The examples of docs/content/templates.md run as written: each Jinja block is rendered by a
strict build (no undefined name) of a small site with the files the examples name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli import matome
from PIL import Image

DOC = Path(__file__).resolve().parent.parent / "docs" / "content" / "templates.md"
BLOCKS = re.findall(r"```jinja\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_the_reference_has_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("block", BLOCKS)
def test_an_example_builds_strict_and_publishes_what_it_links(tmp_path, block):
    site = tmp_path / "site"
    write(site / "hugo.toml", 'baseURL = "https://example.org/"\n')
    write(site / "assets/css/main.css", "body { color: red; }\n")
    write(site / "assets/js/a.js", "var a = 1;\n")
    write(site / "assets/js/b.js", "var b = 2;\n")
    write(site / "content/posts/x/index.md", '+++\ntitle = "X"\n+++\nx\n')
    Image.new("RGB", (1200, 800), "teal").save(site / "content/posts/x/feature.jpg")
    write(site / "templates/_default/single.html", block)
    done = matome("build", "-s", str(site), "--strict")
    assert done.returncode == 0, done.stderr
    html = (site / "public/posts/x/index.html").read_text()
    urls = re.findall(r'(?:href|src)="([^"]+)"', html)
    assert urls
    for url in urls:
        assert (site / "public" / url.lstrip("/")).is_file(), url
