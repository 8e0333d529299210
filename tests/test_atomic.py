"""A build that is killed part-way leaves the previous site exactly as it was."""

from __future__ import annotations

import hashlib
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from procs import proc_files

COMMENT = '{{<matomeQuote body="コメント%d です。<br>二行目 **強調** `code`" userName="u%d" createdAt="2025/11/07 15:41:42" color="#ff5733">}}\n\n'


def write_site(site: Path, title_suffix: str, articles: int = 150) -> None:
    site.mkdir(parents=True, exist_ok=True)
    (site / "hugo.toml").write_text('baseURL = "https://e.org/"\ntitle = "T"\n', encoding="utf-8")
    for n in range(articles):
        folder = site / "content/posts" / f"a{n:04d}"
        folder.mkdir(parents=True, exist_ok=True)
        body = "".join(COMMENT % (i, i) for i in range(20))
        front = f"+++\ntitle = 'Article {n} {title_suffix}'\ndate = 2025-01-01\ntags = ['t{n % 50}']\n+++\n\n"
        (folder / "index.md").write_text(front + body, encoding="utf-8")


def digest(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def start_build(site: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "matome", "build", "-s", str(site), "--jobs", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        # As from a terminal: a test run started in a script's background job would pass
        # SIGINT on ignored, and the build would never see the Ctrl-C this test sends.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def wait_for_staging(site: Path, proc: subprocess.Popen, timeout: float = 120) -> None:
    """Until the build has started writing its new files (so a kill lands mid-write)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        staged = list(site.glob(".public.staging-*"))
        if staged and any(p.suffix == ".html" for p in staged[0].rglob("*.html")):
            return
        if proc.poll() is not None:
            pytest.fail(f"build ended before it could be interrupted: {proc.stderr.read()!r}")
        time.sleep(0.01)
    pytest.fail("the build never started writing")


@pytest.fixture
def built_site(tmp_path) -> tuple[Path, dict[str, str]]:
    site = tmp_path / "site"
    write_site(site, "old")
    first = subprocess.run(
        [sys.executable, "-m", "matome", "build", "-s", str(site)], capture_output=True
    )
    assert first.returncode == 0, first.stderr
    write_site(site, "new")
    return site, digest(site / "public")


def _processes_building(site: Path, timeout: float) -> list[int]:
    """Processes whose command line names the site (a build and its forked workers), once
    they had ``timeout`` seconds to end."""
    deadline = time.monotonic() + timeout
    while True:
        found = [pid for pid, cmdline in proc_files("cmdline") if str(site).encode() in cmdline]
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_interrupted_build_leaves_the_old_site_byte_identical(built_site, sig):
    site, before = built_site
    proc = start_build(site)
    wait_for_staging(site, proc)
    proc.send_signal(sig)
    proc.wait(timeout=60)
    assert proc.returncode != 0
    assert digest(site / "public") == before
    assert not _processes_building(site, timeout=10), "worker processes outlived the build"
    # The next build succeeds, publishes the new site and clears what the killed one left.
    again = subprocess.run(
        [sys.executable, "-m", "matome", "build", "-s", str(site)], capture_output=True
    )
    assert again.returncode == 0, again.stderr
    assert "Article 1 new" in (site / "public/posts/a0001/index.html").read_text(encoding="utf-8")
    assert not list(site.glob(".public.*")), "staging folders left behind"
