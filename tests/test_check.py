"""``matome check``: a site seeded with one instance of every problem yields exactly those."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from matome.check import PLACEHOLDER_TAG, SEVERITY, internal_path
from matome.config import load_config

SEEDED = Path(__file__).parent / "fixtures" / "check-site"
PROBLEMS = "content/posts/problems/index.md"
# (path, line, severity, kind): every problem `matome check` knows, once, where it is.
EXPECTED = {
    ("content/posts/broken-front-matter.md", 4, "error", "front-matter"),
    ("content/posts/empty-tags/index.md", 6, "warning", "empty-tags"),
    (PROBLEMS, 3, "error", "months-mismatch"),
    (PROBLEMS, 5, "error", "front-matter-type"),
    (PROBLEMS, 6, "warning", "placeholder-tags"),
    (PROBLEMS, 7, "error", "featureimage-not-found"),
    (PROBLEMS, 14, "error", "matomequote-missing-param"),
    (PROBLEMS, 16, "error", "bad-createdat"),
    (PROBLEMS, 18, "error", "unknown-shortcode"),
    (PROBLEMS, 20, "error", "broken-link"),
    (PROBLEMS, 22, "error", "ref-not-found"),
    (PROBLEMS, 24, "error", "unclosed-shortcode"),
    ("content/posts/same-thread-again/index.md", 11, "warning", "duplicate-hn-item"),
    ("hugo.toml", 5, "warning", "config"),
}


def matome(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "matome", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "GITHUB_ACTIONS": "false", **(env or {})},
        timeout=120,
    )


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return Path(shutil.copytree(SEEDED, tmp_path / "site"))


def test_every_seeded_problem_is_found_once_at_its_line(site: Path):
    result = matome("check", "--format", "json", cwd=site)
    assert result.returncode == 1
    report = json.loads(result.stdout)
    found = [(f["path"], f["line"], f["severity"], f["kind"]) for f in report["findings"]]
    assert sorted(found) == sorted(EXPECTED)
    assert {kind for *_, kind in EXPECTED} == set(SEVERITY) - {"encoding", "shortcode-syntax"}
    assert (report["errors"], report["warnings"], report["files"]) == (10, 4, 6)


def test_text_output_is_path_line_col(site: Path):
    result = matome("check", cwd=site)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == len(EXPECTED)
    assert (
        f"{PROBLEMS}:3:1: error: months = '2025/10' does not match date 2025-11-07: "
        "write months = '2025/11' [months-mismatch]"
    ) in lines
    assert f"{PROBLEMS}:22:8: error: " in "\n".join(lines)
    assert "10 error(s), 4 warning(s) in 6 files" in result.stderr


def test_site_argument_prefixes_the_paths(site: Path):
    result = matome("check", site.name, cwd=site.parent)
    assert result.stdout.startswith("site/content/posts/broken-front-matter.md:4:9: error:")


def test_github_actions_annotations(site: Path):
    result = matome("check", cwd=site, env={"GITHUB_ACTIONS": "true"})
    assert result.returncode == 1
    assert (
        f"::error file={PROBLEMS},line=7,col=1,title=featureimage-not-found::"
        "featureimage 'thumbnails/missing.jpg' is not in the page bundle, assets/ or static/"
    ) in result.stdout.splitlines()
    annotation = next(line for line in result.stdout.splitlines() if "months-mismatch" in line)
    assert annotation.startswith(f"::error file={PROBLEMS},line=3,col=1,title=months-mismatch::")
    assert sum(line.startswith("::warning ") for line in result.stdout.splitlines()) == 4


def test_warnings_alone_exit_zero(site: Path):
    for rel in ("content/posts/problems", "content/posts/same-thread-again"):
        shutil.rmtree(site / rel)
    (site / "content/posts/broken-front-matter.md").unlink()
    result = matome("check", "--format", "json", cwd=site)
    assert result.returncode == 0
    findings = json.loads(result.stdout)["findings"]
    assert sorted(f["kind"] for f in findings) == ["config", "empty-tags"]


@pytest.mark.parametrize(
    ("tag", "placeholder"),
    [
        ("tag1", True),
        ("Tag 2", True),
        ("TODO", True),
        ("xxx", True),
        ("ToDo", False),
        ("AI", False),
    ],
)
def test_placeholder_tags(tag: str, placeholder: bool):
    assert bool(PLACEHOLDER_TAG.fullmatch(tag)) is placeholder


def test_internal_paths():
    config = load_config(SEEDED)
    page = "/posts/good/"
    assert internal_path("../empty-tags/", page, config) == "/posts/empty-tags/"
    assert internal_path("/posts/a%20b/", page, config) == "/posts/a b/"
    assert internal_path("https://example.org/tags/", page, config) == "/tags/"
    for external in ("https://example.com/", "#top", "mailto:a@example.org", "{{< ref x >}}"):
        assert internal_path(external, page, config) is None


def test_links_shown_as_code_are_not_checked(site: Path):
    """A link written in a code span or a fenced code block is text, as Hugo renders it."""
    page = site / "content/posts/code-links.md"
    page.write_text(
        "+++\ntitle = 'Code'\ndate = 2025-01-01\ntags = ['x']\n+++\n\n"
        "Write `[text](/nowhere/)` for a link, or ``a `[b](/nowhere/)` c``.\n\n"
        '```markdown\n[text](/nowhere/)\n<a href="/nowhere/">x</a>\n```\n\n'
        "But [this one](/missing-page/) is a link.\n"
    )
    result = matome("check", "--format", "json", cwd=site)
    found = [
        (f["line"], f["message"])
        for f in json.loads(result.stdout)["findings"]
        if f["path"] == "content/posts/code-links.md"
    ]
    assert found == [(14, "link '/missing-page/': no such page or file")]
