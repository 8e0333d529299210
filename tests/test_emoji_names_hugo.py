"""Every emoji short name matome knows, written as ``:name:`` and rendered by the real
``hugo`` and by matome, in Markdown with ``enableEmoji`` (Goldmark's table: GitHub's
names) and through ``emojify`` (Hugo's other table: GitHub's names and Unicode's).

matome's names are the ``emoji`` package's: GitHub's aliases and Unicode's (CLDR) names.
The test asks Hugo which of them it knows, then checks that matome writes the same emoji
for every one Hugo turns into an emoji, and that where the two differ Hugo left the
name as written (a name Hugo's table lacks; docs/content/hugo.md)."""

from __future__ import annotations

import html
import json

import emoji
import pytest
from site_probe import build_hugo, build_matome, write_tree

SEPARATOR = "@@name@@"
# GitHub names these two otherwise than the Unicode name the ``emoji`` package gives them
# (matome follows GitHub, as Hugo's Markdown does).
GITHUB_OWN = {"beetle", "egg"}


def _names() -> list[str]:
    """GitHub's and Unicode's names as the ``emoji`` package lists them."""
    emoji.config.load_language("alias")
    names = set()
    for data in emoji.EMOJI_DATA.values():
        names.update(name.strip(":") for name in [data["en"], *data.get("alias", ())])
    return sorted(names)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    names = _names()
    site = tmp_path_factory.mktemp("emoji") / "site"
    body = "\n\n".join(f"{SEPARATOR}:{name}:" for name in names)
    write_tree(
        site,
        {
            "hugo.toml": 'baseURL = "https://e.org/"\nenableEmoji = true\n'
            'disableKinds = ["rss", "sitemap", "robotstxt", "404", "taxonomy", "term", "home"]\n',
            "content/markdown.md": "+++\ntitle = 'm'\n+++\n" + body + "\n",
            "content/emojify.md": f"+++\ntitle = 'e'\nnames = {json.dumps(names)}\n+++\n",
            "layouts/single.html": (
                "{{ if .Params.names }}{{ range .Params.names }}"
                + SEPARATOR
                + '{{ printf ":%s:" . | emojify }}{{ end }}{{ else }}{{ .Content }}{{ end }}'
            ),
            "templates/_default/single.html": (
                "{% if page.params.names %}{% for n in page.params.names %}"
                + SEPARATOR
                + '{{ (":" ~ n ~ ":") | emojify }}{% endfor %}{% else %}{{ page.content }}'
                "{% endif %}"
            ),
        },
    )
    outputs = [build_hugo(site), build_matome(site)[0]]
    result = {}
    for page in ("markdown", "emojify"):
        texts = []
        for out in outputs:
            text = html.unescape((out / page / "index.html").read_text("utf-8"))
            parts = [
                p.replace("</p>", "").replace("<p>", "").strip() for p in text.split(SEPARATOR)
            ]
            texts.append(parts[1:])
        hugo, matome = texts
        assert len(hugo) == len(matome) == len(names)
        result[page] = {n: (h, m) for n, h, m in zip(names, hugo, matome, strict=True)}
    return result


def _report(cases: dict[str, tuple[str, str]]) -> dict[str, list[str]]:
    kinds: dict[str, list[str]] = {"same": [], "hugo_lacks": [], "other_emoji": []}
    for name, (hugo, matome) in cases.items():
        if hugo == matome:
            kinds["same"].append(name)
        elif hugo == f":{name}:":
            kinds["hugo_lacks"].append(name)
        else:
            kinds["other_emoji"].append(name)
    return kinds


def test_markdown_emoji_as_hugo_writes_them(rendered):
    kinds = _report(rendered["markdown"])
    assert kinds["other_emoji"] == [], kinds["other_emoji"]
    assert set(kinds["same"]) >= GITHUB_OWN
    for name in ("thinking", "shrug", "rofl", "hugs", "smile", "+1", "jp", "uk"):
        assert name in kinds["same"], name
        assert rendered["markdown"][name][0] != f":{name}:"


def test_emojify_as_hugo_writes_them(rendered):
    """Hugo's ``emojify`` has a table of its own (GitHub's names and Unicode's, from
    older releases of both); matome's uses the one Markdown uses. Every name Hugo's
    ``emojify`` knows is an emoji in matome too, and where the two write different emoji,
    matome writes what Hugo's Markdown writes for the name, or the name is not GitHub's
    (Hugo's Markdown leaves it as written)."""
    kinds = _report(rendered["emojify"])
    for name in set(kinds["other_emoji"]) - GITHUB_OWN:
        hugo_markdown = rendered["markdown"][name][0]
        matome_emojify = rendered["emojify"][name][1]
        assert matome_emojify != f":{name}:", name
        assert hugo_markdown in (matome_emojify, f":{name}:"), name
    for name in ("thinking", "shrug", "rofl", "ON!_arrow", "piñata", "man’s_shoe"):
        assert name in kinds["same"], name
        assert rendered["emojify"][name][0] != f":{name}:"
