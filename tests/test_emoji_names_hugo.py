"""Every emoji short name of the ``emoji`` package, written as ``:name:`` and rendered by the
real ``hugo`` and by matome, in Markdown with ``enableEmoji`` (Goldmark's table: GitHub's
names) and through ``emojify`` (Hugo's other table: GitHub's names, Unicode's and more).

matome's emoji are the ``emoji`` package's: GitHub's aliases and Unicode's (CLDR) names;
matome/markup/markdown/emoji_names.tsv says which of them each of Hugo's tables knows. The
test asks Hugo about every one of the package's names: matome must write what Hugo writes,
the emoji or the name left as written (docs/content/hugo.md)."""

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


def _differing(cases: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    return {name: pair for name, pair in cases.items() if pair[0] != pair[1]}


def test_markdown_emoji_as_hugo_writes_them(rendered):
    """Hugo's Markdown knows GitHub's names only: Unicode's (``:thinking_face:``) and older
    aliases (``:person_with_pouting_face:``) stay as written."""
    cases = rendered["markdown"]
    assert _differing(cases) == {}
    for name in ("thinking", "shrug", "rofl", "hugs", "smile", "+1", "jp", "uk", *GITHUB_OWN):
        assert cases[name][0] != f":{name}:", name
    for name in ("thinking_face", "person_with_pouting_face"):
        assert cases[name][0] == f":{name}:", name


def test_emojify_as_hugo_writes_them(rendered):
    """Hugo's ``emojify`` has a table of its own: it knows Unicode's names too, and writes
    some emoji otherwise than Markdown does (without U+FE0F, or a gendered sequence)."""
    cases = rendered["emojify"]
    assert _differing(cases) == {}
    for name in ("thinking", "thinking_face", "ON!_arrow", "piñata", "man’s_shoe"):
        assert cases[name][0] != f":{name}:", name
    assert cases["bicyclist"][0] != rendered["markdown"]["bicyclist"][0]
    assert cases["Afghanistan"][0] == ":Afghanistan:"
