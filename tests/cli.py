"""Running the ``matome`` command as a user does: a real process, its output and exit code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def matome(
    *args: str, cwd: Path | None = None, timeout: float = 300
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "matome", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
    )
