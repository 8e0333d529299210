"""``matome new site`` and ``matome new content``: a site that builds and checks clean, archetypes."""

from __future__ import annotations

import json
import subprocess
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli import matome
from hugo_oracle import hugo_binary

from matome.content.dates import parse_date
from matome.content.frontmatter import split_front_matter
from matome.graph.sections import title_case
from matome.new import NewError, file_info, is_hugo_archetype, render_archetype

# The real site's archetypes/default.md, as Hugo writes it for `hugo new site`.
HUGO_ARCHETYPE = """+++
date = '{{ .Date }}'
draft = true
title = '{{ replace .File.ContentBaseName "-" " " | title }}'
+++
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("new") / "blog"
    result = matome("new", "site", str(root))
    assert result.returncode == 0, result.stderr
    return root


def test_new_site_builds_with_its_sample_article(site: Path):
    assert (site / "hugo.toml").is_file()
    assert (site / "archetypes/default.md").is_file()
    articles = list((site / "content/posts").glob("*/*/index.md"))
    assert len(articles) == 1
    result = matome("build", "-s", str(site), "-d", str(site / "public"))
    assert result.returncode == 0, result.stderr
    bundle = articles[0].parent.relative_to(site / "content")
    html = (site / "public" / bundle / "index.html").read_text()
    assert html.count('<article class="comment"') == 3


def test_new_site_checks_clean(site: Path):
    result = matome("check", "--format", "json", cwd=site)
    assert result.returncode == 0, result.stdout
    assert json.loads(result.stdout)["findings"] == []


def test_new_site_never_overwrites(tmp_path: Path):
    (tmp_path / "hugo.toml").write_text("title = 'mine'\n")
    result = matome("new", "site", str(tmp_path))
    assert result.returncode == 1
    assert "hugo.toml" in result.stderr
    assert (tmp_path / "hugo.toml").read_text() == "title = 'mine'\n"
    assert not (tmp_path / "content").exists()


def test_new_content_from_the_real_sites_hugo_archetype(tmp_path: Path):
    (tmp_path / "archetypes").mkdir()
    (tmp_path / "archetypes/default.md").write_text(HUGO_ARCHETYPE)
    result = matome("new", "content", "posts/my-first-post/index.md", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    path = tmp_path / "content/posts/my-first-post/index.md"
    fm = split_front_matter(path.read_text(), "index.md")
    assert fm.data["title"] == "My First Post"
    assert fm.data["draft"] is True
    assert abs((parse_date(fm.data["date"], UTC) - datetime.now(UTC)).total_seconds()) < 120

    again = matome("new", "content", "posts/my-first-post/index.md", cwd=tmp_path)
    assert again.returncode == 1
    assert "already exists" in again.stderr
    assert split_front_matter(path.read_text(), "index.md").data == fm.data


def test_new_content_prefers_the_section_archetype_and_keeps_shortcodes(tmp_path: Path):
    (tmp_path / "archetypes").mkdir()
    (tmp_path / "archetypes/posts.md").write_text(
        "+++\ntitle = '{{ title }}'\nsection = '{{ file.section }}'\n+++\n"
        '[back]({{% ref "/posts/" %}}) {{< details summary="x" >}}y{{< /details >}}\n'
    )
    (tmp_path / "archetypes/default.md").write_text("+++\ntitle = 'default'\n+++\n")
    assert matome("new", "content", "posts/some-news.md", cwd=tmp_path).returncode == 0
    assert matome("new", "content", "about.md", cwd=tmp_path).returncode == 0
    text = (tmp_path / "content/posts/some-news.md").read_text()
    assert text == (
        "+++\ntitle = 'Some News'\nsection = 'posts'\n+++\n"
        '[back]({{% ref "/posts/" %}}) {{< details summary="x" >}}y{{< /details >}}\n'
    )
    assert (tmp_path / "content/about.md").read_text() == "+++\ntitle = 'default'\n+++\n"


def _render(source: str) -> str:
    now = datetime(2025, 11, 7, 12, 34, 56, tzinfo=UTC)
    return render_archetype(
        source,
        "archetypes/default.md",
        date=now.isoformat(),
        file=file_info("posts/leaving-meta/index.md"),
        title="Leaving Meta",
        site={"title": "海外テックの反応まとめ", "base_url": "https://example.org/", "params": {}},
        now=now,
    )


def test_hugo_archetype_forms_are_translated():
    assert is_hugo_archetype(HUGO_ARCHETYPE)
    assert not is_hugo_archetype("{{ title }} {{ file.content_base_name | upper }}")
    assert _render(HUGO_ARCHETYPE) == (
        "+++\ndate = '2025-11-07T12:34:56+00:00'\ndraft = true\ntitle = 'Leaving Meta'\n+++\n"
    )
    assert _render('{{ now.Format "2006/01" }} {{ .Date | dateFormat "Jan 2" }}') == "2025/11 Nov 7"
    assert _render('{{ upper (replace .Name "-" "_") }} {{ .Site.Title }}{{/* gone */}}') == (
        "LEAVING_META 海外テックの反応まとめ"
    )


def test_unsupported_go_actions_name_the_line():
    with pytest.raises(NewError, match=r"archetypes/default.md:2: .*\{\{ if \.Draft \}\}"):
        _render("+++\n{{ if .Draft }}x{{ end }}\n+++\n")


def test_new_site_config_keeps_its_comments_and_reads_the_same_in_hugo(site: Path):
    text = (site / "hugo.toml").read_text()
    assert "# Comment bodies use <br> and other inline HTML.\n[markup.goldmark.renderer]\n" in text
    assert "\n# `matome import hn` gives each new article one of these" in text
    written = tomllib.loads(text)
    assert written["matome"]["featureImages"] == [
        f"thumbnails/{p.name}" for p in sorted((site / "assets/thumbnails").iterdir())
    ]
    done = subprocess.run(
        [hugo_binary(), "config", "--format", "json", "-s", str(site)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    hugo = json.loads(done.stdout[done.stdout.index("{") :])  # after the wrapper's banner

    def lower(value):
        if isinstance(value, dict):
            return {k.lower(): lower(v) for k, v in value.items()}
        return [lower(v) for v in value] if isinstance(value, list) else value

    for key in ("baseURL", "title", "defaultContentLanguage", "enableRobotsTXT", "taxonomies"):
        assert hugo[key.lower()] == written[key]
    assert hugo["pagination"]["pagersize"] == written["pagination"]["pagerSize"]
    assert hugo["params"] == lower(written["params"])
    assert hugo["menus"] == lower(written["menus"])
    assert hugo["markup"]["goldmark"]["renderer"]["unsafe"] is True
    assert hugo["outputs"]["home"] == [f.lower() for f in written["outputs"]["home"]]


def test_default_archetype_writes_titles_with_quotes_as_valid_toml(tmp_path: Path):
    for name in ("don't-panic", 'say-"hi"'):
        result = matome("new", "content", f"posts/{name}/index.md", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        path = tmp_path / f"content/posts/{name}/index.md"
        fm = split_front_matter(path.read_text(), "index.md")
        title = title_case(name.replace("-", " "))
        assert (fm.data["title"], fm.data["draft"], fm.data["tags"]) == (title, True, [])
        assert fm.data["months"] == fm.data["date"][:7].replace("-", "/")


def test_toml_filter_refuses_a_table():
    assert _render("title = {{ title | toml }}") == 'title = "Leaving Meta"'
    with pytest.raises(NewError, match="archetypes/default.md: the toml filter writes one value"):
        _render("x = {{ site.params | toml }}")
    with pytest.raises(NewError, match="archetypes/default.md: .*ArchetypeFile"):
        _render("x = {{ file | toml }}")
