"""Progress bars: drawn on a terminal for long stages, never into a pipe (CI logs)."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path


def write_site(root: Path, articles: int) -> Path:
    (root / "content/posts").mkdir(parents=True)
    (root / "hugo.toml").write_text(
        'baseURL = "https://example.org/"\ntitle = "T"\n[params]\n  enableSearch = false\n'
    )
    for n in range(articles):
        (root / f"content/posts/p{n}.md").write_text(
            f"+++\ntitle = 'P{n}'\ndate = 2025-01-01\n+++\n"
            f'{{{{< matomeQuote body="本文 {n}" userName="u" createdAt="2025/01/01 10:00:00" >}}}}\n',
            encoding="utf-8",
        )
    return root


def run_on_terminal(args: list[str]) -> str:
    """Run ``matome`` with a pseudo-terminal as its stdout; return what it drew."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "matome", *args],
        stdout=follower,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "COLUMNS": "100", "TERM": "xterm"},
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # the terminal closed: the process is done
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=300)
    os.close(leader)
    assert proc.returncode == 0
    return b"".join(chunks).decode("utf-8", "replace")


def test_a_long_build_shows_progress_on_a_terminal_only(tmp_path: Path):
    site = write_site(tmp_path / "site", articles=220)
    drawn = run_on_terminal(["build", "-s", str(site), "-d", str(tmp_path / "a"), "-j", "2"])
    assert "Rendering content" in drawn and "Writing files" in drawn
    assert "220/220" in drawn  # the bar counts every body
    assert "Total in" in drawn  # and the summary follows it

    piped = subprocess.run(
        [sys.executable, "-m", "matome", "build", "-s", str(site), "-d", str(tmp_path / "b")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert piped.returncode == 0
    assert "Total in" in piped.stdout
    assert "Rendering content" not in piped.stdout + piped.stderr
    assert "\x1b[" not in piped.stdout  # no terminal codes in a log
