"""A title edit put into a kept site graph (``matome serve``) leaves it as building the
site again would: the same order of every list, the same neighbours in the site and in
each section, the same related ranks. ``graph/patch.py`` moves only the retitled pages
and relinks only the pages beside them; here random sites, with many pages of the same
date (whose order the title decides), are patched and compared with a fresh build."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from matome.config import Flags, load_config
from matome.content.loader import load_content
from matome.graph.patch import reorder
from matome.graph.site import build_site
from matome.incremental import snapshot
from matome.incremental.reads import page_key

CONFIG = """\
baseURL = "https://example.org/"
title = "Patch test"
[taxonomies]
  tag = "tags"
[related]
  threshold = 0
  indices = [{name = "tags", weight = 100}, {name = "date", weight = 10}]
"""

TITLES = st.text(alphabet="abAB 1-", min_size=1, max_size=4).map(str.strip).filter(bool)
ARTICLE = st.tuples(
    st.sampled_from(["posts", "notes", "posts/deep"]),
    st.sampled_from(["2025-01-01", "2025-01-02", "2025-01-03"]),
    TITLES,
    st.sets(st.sampled_from(["x", "y", "z", "x/y", "x/y/z"]), max_size=3),
)


def write(path: Path, title: str, date: str, tags: set[str]) -> None:
    tag_list = ", ".join(f'"{t}"' for t in sorted(tags))
    path.write_text(f"+++\ntitle = '{title}'\ndate = {date}\ntags = [{tag_list}]\n+++\n\nText.\n")


def shape(site) -> dict:
    """What the title orders, by page key."""

    def keys(pages):
        return [page_key(p) if p is not None else None for p in pages]

    related = site.related_index
    return {
        "regular": keys(site.regular_pages),
        "links": {
            page_key(p): keys([p.prev, p.next, p.prev_in_section, p.next_in_section])
            for p in site.regular_pages
        },
        "lists": {page_key(p): keys(p.regular_pages) for p in site.pages if p.kind != "page"},
        "related": [page_key(site.pages[i]) for i in related.by_rank],
        "members": {
            name: {
                word: [page_key(site.pages[related.by_rank[r]]) for r in ranks]
                for word, ranks in words.items()
            }
            for name, words in related.members.items()
        },
    }


@settings(max_examples=60)
@given(
    st.lists(ARTICLE, min_size=2, max_size=9),
    st.lists(st.tuples(st.integers(0, 8), TITLES), min_size=1, max_size=3),
)
def test_a_title_put_into_the_graph_orders_it_as_a_new_build(articles, retitles):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "hugo.toml").write_text(CONFIG)
        files = []
        for n, (section, date, title, tags) in enumerate(articles):
            folder = root / "content" / section / f"a{n}"
            folder.mkdir(parents=True)
            files.append((folder / "index.md", date, tags))
            write(files[-1][0], title, date, tags)
        config = load_config(root, Flags())
        now = datetime(2026, 1, 1, tzinfo=UTC)
        kept = build_site(config, load_content(config, now), now)
        changed = set()
        for which, title in retitles:
            path, date, tags = files[which % len(files)]
            write(path, title, date, tags)
            changed.add(str(path.resolve()))
        by_file = {p.file.filename: p for p in kept.pages if p.file is not None}
        edits = snapshot.body_edits(kept, changed, by_file, patch=True)
        assert edits is not None  # a title edit is put into the graph
        patched = snapshot.apply(kept, edits, now)
        if patched:
            reorder(kept, patched)
        fresh = build_site(config, load_content(config, now), now)
        assert shape(kept) == shape(fresh)
