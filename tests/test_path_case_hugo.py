"""``disablePathToLower`` against the real ``hugo``: a site whose file, folder, slug, title
and term names have capitals, built by both with the setting on and off; the paths both
write and what each page prints (its URL, its resources' URLs, ``urlize``) must agree."""

from __future__ import annotations

import pytest
from site_probe import build_hugo, build_matome, write_tree

CONFIG = """baseURL = "https://example.org/"
disablePathToLower = {flag}
disableKinds = ["rss", "sitemap", "robotsTXT", "404"]
[permalinks.page]
  Posts = "/Archive/:year/:title/"
  Notes = "/:sections/:filename/:slug/"
[permalinks.section]
  Notes = "/Sect/:title/"
[permalinks.term]
  categories = "/Cat/:slug/"
"""

PRINT_GO = (
    "{{ .RelPermalink }}|{{ range .Resources }}{{ .RelPermalink }} {{ end }}"
    '|{{ "Hello World" | urlize }}|{{ range .Pages }}{{ .RelPermalink }} {{ end }}'
)
PRINT_JINJA = (
    "{{ page.rel_permalink }}|{% for r in page.resources %}{{ r.rel_permalink }} {% endfor %}"
    '|{{ "Hello World" | urlize }}|{% for p in page.pages %}{{ p.rel_permalink }} {% endfor %}'
)

SITE = {
    "content/Docs/_index.md": '+++\ntitle = "Docs Home"\n+++\n',
    "content/Docs/Sub Dir/_index.md": '+++\ntitle = "Sub"\n+++\n',
    "content/Docs/Sub Dir/Deep Page.md": '+++\ntitle = "Deep Page"\n+++\n',
    "content/Docs/MyPage.md": '+++\ntitle = "My Page"\ntags = ["MyTag", "Other Tag"]\n+++\n',
    "content/Docs/Slugged.md": '+++\ntitle = "Slugged"\nslug = "MySlug"\n+++\n',
    "content/Docs/Custom.md": '+++\ntitle = "Custom"\nurl = "/Custom/URL/"\n+++\n',
    "content/Docs/Bundle/index.md": '+++\ntitle = "Bundle"\ntags = ["MyTag"]\n+++\n',
    "content/Docs/Bundle/Data.TXT": "data\n",
    "content/Posts/PostOne.md": '+++\ntitle = "Post Title"\ndate = 2024-01-02\n+++\n',
    "content/Notes/_index.md": '+++\ntitle = "Notes"\n+++\n',
    "content/Notes/Inner/_index.md": '+++\ntitle = "Inner"\n+++\n',
    "content/Notes/Inner/NoteFile.md": (
        '+++\ntitle = "Note Title"\nslug = "Note Slug"\ncategories = ["Big Cat"]\n+++\n'
    ),
    "layouts/single.html": PRINT_GO,
    "layouts/list.html": PRINT_GO,
    "templates/_default/single.html": PRINT_JINJA,
    "templates/_default/list.html": PRINT_JINJA,
}


def _written(out) -> dict[str, str]:
    """Every file written, by path, with the text of its pages. Left out: matome's theme
    files, and the ``page/1/`` redirects matome writes for every list page (Hugo writes
    them only for a list whose template paginates, which these do not)."""
    return {
        p.relative_to(out).as_posix(): p.read_text("utf-8") if p.suffix == ".html" else ""
        for p in sorted(out.rglob("*"))
        if p.is_file()
        and not p.relative_to(out).as_posix().startswith(("css/", "js/"))
        and not p.relative_to(out).as_posix().endswith("page/1/index.html")
    }


@pytest.mark.parametrize("flag", ["true", "false"])
def test_paths_keep_their_case_as_hugo_keeps_them(tmp_path, flag):
    site = tmp_path / "site"
    write_tree(site, {**SITE, "hugo.toml": CONFIG.format(flag=flag)})
    hugo = _written(build_hugo(site))
    matome = _written(build_matome(site)[0])
    assert sorted(matome) == sorted(hugo)
    for path, text in hugo.items():
        assert matome[path].strip() == text.strip(), path
    kept = flag == "true"
    assert ("Docs/Sub-Dir/Deep-Page/index.html" in hugo) is kept
    assert ("tags/MyTag/index.html" in hugo) is kept
    assert ("docs/sub-dir/deep-page/index.html" in hugo) is not kept
