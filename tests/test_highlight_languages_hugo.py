"""Which fence languages are highlighted: every name Pygments knows a lexer by (its aliases
and the extensions of its file patterns), one fenced block each, built by the real ``hugo``
(Chroma) and by matome (Pygments, with the names of matome/markup/markdown/
chroma_languages.txt). A language Chroma does not know is a plain ``<pre>`` in Hugo, and
must be one in matome too; one both know is highlighted by both."""

from __future__ import annotations

import re

import pytest
from pygments.lexers import get_all_lexers
from site_probe import build_hugo, build_matome, write_tree

MARK = re.compile(r"<p>@@(\d+)@@</p>")


def _pygments_names() -> list[str]:
    names = set()
    for _, aliases, patterns, _ in get_all_lexers():
        names.update(a.lower() for a in aliases)
        for pattern in patterns:
            if m := re.fullmatch(r"\*\.([A-Za-z0-9_+.#-]+)", pattern):
                names.add(m.group(1).lower())
    # A fence's language ends at a space or '{'; these are written as they are. Chroma
    # also takes a language as a file name (``hcl:main.tf``), and ignores its case.
    names.update(["hcl:main.tf", "yaml:requirements.yml", "http://a.b", "page.slim", "GO"])
    return sorted(n for n in names if re.fullmatch(r"[A-Za-z0-9_+.#:/-]+", n))


def _highlighted(page: str, names: list[str]) -> dict[str, bool]:
    parts = MARK.split(page)
    found = {
        names[int(parts[i])]: parts[i + 1].lstrip().startswith('<div class="highlight')
        for i in range(1, len(parts), 2)
    }
    assert len(found) == len(names)
    return found


@pytest.fixture(scope="module")
def highlighted(tmp_path_factory):
    names = _pygments_names()
    site = tmp_path_factory.mktemp("languages") / "site"
    body = "".join(f"@@{i}@@\n\n```{name}\nx = 1\n```\n\n" for i, name in enumerate(names))
    write_tree(
        site,
        {
            "hugo.toml": 'baseURL = "https://e.org/"\n'
            'disableKinds = ["rss", "sitemap", "robotstxt", "404", "taxonomy", "term", "home"]\n',
            "content/fences.md": "+++\ntitle = 'f'\n+++\n" + body,
            "layouts/single.html": "{{ .Content }}",
            "templates/_default/single.html": "{{ page.content }}",
        },
    )
    pages = [
        (out / "fences" / "index.html").read_text("utf-8")
        for out in (build_hugo(site), build_matome(site)[0])
    ]
    return names, [_highlighted(page, names) for page in pages]


def test_a_fence_is_highlighted_where_hugo_highlights_it(highlighted):
    names, (hugo, matome) = highlighted
    differing = {n: (hugo[n], matome[n]) for n in names if hugo[n] != matome[n]}
    assert differing == {}
    assert hugo["go"] and hugo["python"] and hugo["text"]
    assert not hugo["slim"]  # Pygments has a lexer for it, Chroma none
