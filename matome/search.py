"""Search without a server: Pagefind indexes the finished site into ``pagefind/``.

Runs on the staging folder after every page is written and before the swap,
so a failed index leaves the published site untouched like any other error.
Only elements marked ``data-pagefind-body`` are indexed (the default theme
marks each article with its comments), so list pages do not crowd the results.
The ``extended`` build of Pagefind (``pagefind[extended]``) segments Japanese.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .errors import SourceError

OUTPUT_DIR = "pagefind"
# What the index was made from, so a rebuild that changed no page keeps it (the real
# blog's 155,000 comments take Pagefind about a minute to index).
STAMP = ".matome-stamp"


def search_enabled(params: dict) -> bool:
    value = next((v for k, v in params.items() if str(k).lower() == "enablesearch"), False)
    return value is True or str(value).lower() == "true"


def index_site(site_dir: Path) -> tuple[int, list[SourceError]]:
    """Write the Pagefind index of ``site_dir`` into ``site_dir/pagefind``; return its file count."""
    bundle = site_dir / OUTPUT_DIR
    stamp = _pages_stamp(site_dir)
    if (bundle / "pagefind.js").is_file() and _read(bundle / STAMP) == stamp:
        return _count(bundle), []
    # The staging folder starts as hard links to the last build: drop the old index
    # (unlinking leaves the published copy alone) so stale fragments do not pile up.
    shutil.rmtree(bundle, ignore_errors=True)
    command = [
        sys.executable,
        "-m",
        "pagefind",
        "--site",
        str(site_dir),
        "--output-subdir",
        OUTPUT_DIR,
        "--silent",
    ]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    except (OSError, subprocess.TimeoutExpired) as e:
        return 0, [_error(f"Pagefind did not run: {e}")]
    if result.returncode != 0 or not (bundle / "pagefind.js").is_file():
        detail = (result.stderr or result.stdout).strip().splitlines()[-5:]
        if "No module named pagefind" in result.stderr or "Could not find" in result.stderr:
            detail.append("install it with: pip install 'pagefind[extended]'")
        return 0, [_error("Pagefind failed: " + " | ".join(detail))]
    (bundle / STAMP).write_text(stamp + "\n")
    return _count(bundle), []


def _pages_stamp(site_dir: Path) -> str:
    """Every HTML file's path, size and mtime: a page the build left alone keeps its mtime."""
    digest = hashlib.sha256(_pagefind_version().encode())
    bundle = os.path.join(str(site_dir), OUTPUT_DIR)
    for folder, dirs, files in os.walk(site_dir):
        dirs[:] = sorted(d for d in dirs if os.path.join(folder, d) != bundle)
        for name in sorted(files):
            if name.endswith(".html"):
                stat = os.stat(os.path.join(folder, name))
                rel = os.path.relpath(os.path.join(folder, name), site_dir)
                digest.update(f"{rel}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _pagefind_version() -> str:
    try:
        from importlib.metadata import version

        return version("pagefind")
    except Exception:
        return "unknown"


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


def _count(bundle: Path) -> int:
    return sum(1 for p in bundle.rglob("*") if p.is_file())


def _error(message: str) -> SourceError:
    return SourceError("params.enableSearch", 0, 0, message)
