"""Fixtures several test modules share."""

from __future__ import annotations

import pytest
from hypothesis import settings

# A deadline is a wall-clock assertion: on a loaded two-core machine it fails for no fault.
settings.register_profile("matome", deadline=None)
settings.load_profile("matome")

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
