"""``page.git_info`` with ``enableGitInfo``: the last commit of each content file.

One ``git log`` for the whole content folder (never one per file): commits newest first,
each with the files it touched, so a file's first commit in the log is its last change.
No git, or no repository, is a warning and no page has git info, as in Hugo.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ..errors import SourceError

_FIELDS = "%H%x1f%h%x1f%s%x1f%an%x1f%ae%x1f%aI%x1f%cI"


@dataclass(frozen=True)
class GitInfo:
    """Hugo's ``.GitInfo``, in snake_case."""

    hash: str
    abbreviated_hash: str
    subject: str
    author_name: str
    author_email: str
    author_date: datetime
    commit_date: datetime


def read_git_info(content: Path, where: str) -> tuple[dict[str, GitInfo], list[SourceError]]:
    """Each file's last commit, by its path relative to ``content``; ``where`` names the
    config file that asked, for the warning when git cannot tell."""
    git = shutil.which("git")
    if git is None:
        return {}, [_warning(where, "enableGitInfo: git is not installed: no page has git info")]
    cmd = [git, "-c", "core.quotepath=false", "-C", str(content), "log", "--name-only"]
    cmd += ["--no-merges", "--relative", f"--format=%x1e{_FIELDS}"]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {}, [_warning(where, f"enableGitInfo: git log failed ({e}): no page has git info")]
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or ["no repository"])[0]
        return {}, [_warning(where, f"enableGitInfo: {why}: no page has git info")]
    return parse_git_log(done.stdout), []


def parse_git_log(text: str) -> dict[str, GitInfo]:
    found: dict[str, GitInfo] = {}
    for record in text.split("\x1e")[1:]:
        header, _, names = record.partition("\n")
        fields = header.split("\x1f")
        if len(fields) != 7:
            continue
        try:
            info = GitInfo(
                *fields[:5], datetime.fromisoformat(fields[5]), datetime.fromisoformat(fields[6])
            )
        except ValueError:
            continue
        for name in names.split("\n"):
            if name and name not in found:
                found[name] = info
    return found


def _warning(where: str, message: str) -> SourceError:
    return SourceError(where, 1, 1, message, "warning")
