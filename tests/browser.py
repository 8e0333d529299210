"""Debian's Chromium for the browser tests: where it is, how it is started, what if it is not.

Playwright drives it with ``executable_path``; its own browser download is never used
(the machines have no network for it). A missing Chromium fails the test, never skips it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# Without the background-networking flags Chromium keeps trying hosts this closed
# network refuses; as root it needs --no-sandbox.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def require_chromium() -> str:
    if not CHROMIUM.is_file():
        pytest.fail(
            f"{CHROMIUM} is missing: apt-get install chromium (or run .ci/run). "
            "The browser tests never download a browser and are never skipped.",
            pytrace=False,
        )
    return str(CHROMIUM)
