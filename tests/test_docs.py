"""The reference in ``docs/`` is a matome site: it builds without a warning, its links
resolve (``matome check``), and every page is linked from its home page."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from cli import matome

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_docs_build_without_a_warning_and_the_home_page_links_every_page(tmp_path):
    site = tmp_path / "docs"
    shutil.copytree(DOCS, site)
    out = tmp_path / "public"
    done = matome("build", "-s", str(site), "-d", str(out), "--strict")
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stderr, done.stderr
    pages = sorted(p.stem for p in (DOCS / "content").glob("*.md") if p.stem != "_index")
    assert len(pages) >= 10
    for name in pages:
        assert (out / name / "index.html").is_file(), name
    home = (out / "index.html").read_text(encoding="utf-8")
    linked = set(re.findall(r'href="(?:https://example.org)?/matome/([a-z-]+)/"', home))
    assert set(pages) <= linked, set(pages) - linked


def test_matome_check_finds_no_problem_in_the_docs():
    done = matome("check", str(DOCS))
    assert done.returncode == 0, done.stdout + done.stderr
