"""Fixtures several test modules share."""

from __future__ import annotations

import pytest

try:  # tests/ as a package or as a plain directory on sys.path
    from tests.theme_site import launch_chromium
except ImportError:
    from theme_site import launch_chromium


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright, one per test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()
