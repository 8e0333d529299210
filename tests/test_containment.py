"""No input can make a build write outside its destination or read outside the site."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def build(site: Path, dest: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "matome", "build", "-s", str(site), "-d", str(dest)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def files_outside(root: Path, dest: Path, site: Path) -> list[Path]:
    """Every file under ``root`` that is neither the site's source nor the destination."""
    return [
        p
        for p in root.rglob("*")
        if p.is_file() and site not in p.parents and dest not in p.parents
    ]


def make_site(root: Path, front_matter: str, *, config: str = "") -> Path:
    site = root / "deep" / "site"
    (site / "content/posts").mkdir(parents=True)
    (site / "hugo.toml").write_text(
        f'baseURL = "https://e.org/"\ntitle = "T"\n{config}', encoding="utf-8"
    )
    (site / "content/posts/evil.md").write_text(
        f"+++\n{front_matter}\n+++\nbody\n", encoding="utf-8"
    )
    return site


ESCAPES = {
    "url_dotdot": 'title = "x"\nurl = "/../../../escaped/"',
    "url_encoded_dots": 'title = "x"\nurl = "/%2e%2e/%2E%2E/escaped/"',
    "url_backslash": 'title = "x"\nurl = "/a\\\\..\\\\..\\\\escaped/"',
    "url_nul": 'title = "x"\nurl = "/a\\u0000b/"',
    "slug_dotdot": 'title = "x"\nslug = "../../../escaped"',
    "alias_dotdot": 'title = "x"\naliases = ["/../../../escaped"]',
    "alias_relative_dotdot": 'title = "x"\naliases = ["../../../../escaped"]',
    "alias_drive": 'title = "x"\naliases = ["/C:/escaped"]',
    "term_dotdot": 'title = "x"\ntags = ["../../../escaped"]',
    "term_encoded": 'title = "x"\ntags = ["%2e%2e/%2e%2e/escaped"]',
}


@pytest.mark.parametrize("case", ESCAPES)
def test_paths_that_leave_the_destination_are_refused(tmp_path, case):
    site = make_site(tmp_path, ESCAPES[case])
    dest = tmp_path / "deep" / "out"
    result = build(site, dest)
    assert result.returncode == 1, result.stdout
    assert "leaves the site" in result.stderr
    assert "content/posts/evil.md" in result.stderr
    assert files_outside(tmp_path, dest, site) == []
    assert not dest.exists(), "a refused build publishes nothing"


def test_permalink_pattern_cannot_leave_the_destination(tmp_path):
    site = make_site(
        tmp_path, 'title = "x"\nslug = "../../escaped"', config='[permalinks]\nposts = "/:slug/"\n'
    )
    dest = tmp_path / "deep" / "out"
    result = build(site, dest)
    assert result.returncode == 1
    assert files_outside(tmp_path, dest, site) == []


def test_symlinks_out_of_the_site_are_not_followed(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET", encoding="utf-8")
    site = make_site(tmp_path, 'title = "x"')
    bundle = site / "content/posts/bundle"
    bundle.mkdir()
    (bundle / "index.md").write_text('+++\ntitle = "b"\n+++\nb\n', encoding="utf-8")
    (bundle / "leak.txt").symlink_to(secret)
    (site / "content/posts/leak.md").symlink_to(secret)
    (site / "static").mkdir()
    (site / "static/leak.txt").symlink_to(secret)
    dest = tmp_path / "deep" / "out"
    result = build(site, dest)
    assert result.returncode == 0, result.stderr
    assert "symbolic link leads out of content/" in result.stderr
    written = [p for p in dest.rglob("*") if p.is_file()]
    assert all("SECRET" not in p.read_text(errors="replace") for p in written)
    assert not (dest / "posts/bundle/leak.txt").exists()
    assert not (dest / "leak.txt").exists()


def test_two_sources_for_one_path_name_both(tmp_path):
    site = make_site(tmp_path, 'title = "x"\nurl = "/same/"')
    (site / "content/posts/other.md").write_text(
        '+++\ntitle = "y"\nurl = "/same/"\n+++\n', encoding="utf-8"
    )
    result = build(site, tmp_path / "out")
    assert result.returncode == 1
    assert "duplicate target path 'same/index.html'" in result.stderr
    assert "content/posts/evil.md" in result.stderr and "content/posts/other.md" in result.stderr
