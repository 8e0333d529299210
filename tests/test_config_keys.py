"""The configuration: keys matome does not use are named, values of another type are read
as Hugo reads them (with a warning) or refused at their line (where Hugo refuses them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli import matome

from matome.config import ACTED_ON, load_config


def site(root: Path, config: str, name: str = "hugo.toml") -> Path:
    (root / "content/posts").mkdir(parents=True)
    (root / "content/posts/a.md").write_text('+++\ntitle = "A"\n+++\nA.\n', encoding="utf-8")
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    (root / name).write_text(config, encoding="utf-8")
    return root


CONFIG = """baseURL = "https://example.org/"
title = "T"
timeout = 180

[security]
  enableInlineShortcodes = false
  [security.http]
    urls = [".*"]

[params]
  anything = "themes read it"
"""


def test_build_and_check_name_each_unused_key_once(tmp_path):
    root = site(tmp_path / "s", CONFIG)
    (root / "config/_default").mkdir(parents=True)
    (root / "config/_default/module.toml").write_text("[hugoVersion]\nmin = '0.87.0'\n")
    built = matome("build", "-s", str(root), "-d", str(tmp_path / "out"))
    assert built.returncode == 0, built.stderr
    for where in (
        f"{root}/hugo.toml:3:1: warning: 'timeout' is not used by matome",
        f"{root}/hugo.toml:6:3: warning: 'security.enableinlineshortcodes' is not used by matome",
        f"{root}/config/_default/module.toml:1:2: warning: 'module.hugoversion' is not used by matome",
    ):
        assert built.stderr.count(where) == 1, built.stderr
    assert "params" not in built.stderr and "'title'" not in built.stderr
    checked = matome("check", str(root))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "'timeout' is not used by matome" in checked.stdout
    assert "'security.enableinlineshortcodes' is not used by matome" in checked.stdout
    assert "security.http" not in built.stderr


def test_keys_acted_on_are_not_reported(tmp_path):
    keys = "\n".join(f"{k} = 1" for k in ("enableGitInfo", "uglyURLs", "summaryLength"))
    config = load_config(site(tmp_path, f'baseURL = "/"\n{keys}\n[outputFormats]\n[services]\n'))
    assert not [w for w in config.warnings if "not used" in w.message]
    assert {"params", "languages", "menus", "taxonomies", "permalinks", "outputs"} <= ACTED_ON


def test_a_value_hugo_converts_is_read_with_a_warning(tmp_path):
    config = load_config(
        site(
            tmp_path,
            'baseURL = "/"\nsummaryLength = "12"\nenableRobotsTXT = "t"\ntaxonomies = []\n',
        )
    )
    assert config.summary_length == 12 and config.enable_robots_txt and config.taxonomies == {}
    messages = [f"{w.line}:{w.col}: {w.message}" for w in config.warnings]
    assert "2:1: summarylength: expected a number, got text ('12'): read as 12" in messages
    assert "3:1: enablerobotstxt: expected true or false, got text ('t'): read as True" in messages
    assert not any("taxonomies" in m for m in messages)  # [] is how Hugo says "none"


@pytest.mark.parametrize(
    ("config", "where", "message"),
    [
        # A value Hugo refuses.
        (
            'baseURL = "/"\n\n[pagination]\n  pagerSize = "many"\n',
            "4:3",
            "pagination.pagersize: expected a number",
        ),
        # A folder name with a NUL character.
        (
            'baseURL = "/"\ncontentDir = "a\\u0000b"\n',
            "2:1",
            "contentdir: a folder name cannot hold",
        ),
    ],
)
def test_a_value_matome_cannot_use_is_an_error_at_its_line(tmp_path, config, where, message):
    root = site(tmp_path / "s", config)
    result = matome("build", "-s", str(root), "-d", str(tmp_path / "out"))
    assert result.returncode == 1
    assert f"{root}/hugo.toml:{where}: error: {message}" in result.stderr
    assert "Traceback" not in result.stderr
