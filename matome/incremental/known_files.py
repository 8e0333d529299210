"""The pages the loader made, kept for the next run that builds its site graph anew.

An article added or a tag renamed changes the graph: the next build loads the content
and builds the graph again. Most files are as they were; their pages are taken from here
instead of being read and parsed again. A page is kept with what it was made from: the
file's digest (its stamp, when the run had no digests yet: a build without a last run
hashes its inputs in a child). Bodies are not kept (the site's text would be stored
twice): a page whose body must be rendered reads its file then (``read_body``).

Each page is kept pickled on its own, so a page taken is kept again as the bytes it came
from: a run pickles only the pages it read. It does so in the build's own process, before
the graph changes them; a child forked for it cost more (every page the graph then
changed was copied by the kernel for it).

Not used when a section's ``_index`` file changed (a build then compares every page's
source with its cached body's, which reads every body: ``Changes.only_own_files``) or
with ``enableGitInfo`` (a page's dates then come from Git as well as from its file).
"""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

from ..content.loader import KnownFiles
from . import buildcache

KNOWN_FILE = "pages.pickle"


def known_files(
    folder: Path,
    print_: str,
    stamps: dict[str, tuple[int, int] | None],
    digests: dict[str, bytes | None],
) -> KnownFiles:
    """The kept pages whose file is as it was when they were made."""
    known = KnownFiles({})
    kept = buildcache.read_file(folder, KNOWN_FILE, print_)
    if not isinstance(kept, dict):
        return known
    for filename, (digest, stamp, pickled) in kept.items():
        same = (
            digests.get(filename) == digest if digest is not None else stamps.get(filename) == stamp
        )
        if not same:
            continue
        try:
            page, warnings = pickle.loads(pickled)
        except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError):
            continue  # cut short: the file is read
        known.pages[filename] = (page, warnings)
        known.stored[filename] = pickled
    return known


def keep_files(
    folder: Path,
    print_: str,
    known: KnownFiles,
    stamps: dict[str, tuple[int, int] | None],
    digests: dict[str, bytes | None],
) -> None:
    """Keep the pages the loader made, before the site graph changes them."""
    kept = {}
    for filename, made in known.made.items():
        digest = digests.get(filename)
        if digest == buildcache.MOVING:
            continue  # written while it was read: either version may be the page
        pickled = known.stored.get(filename)  # a page taken: the loader read no file
        if pickled is None:
            page, warnings = made
            bare = copy.copy(page)
            bare.body = None
            pickled = pickle.dumps((bare, warnings), protocol=pickle.HIGHEST_PROTOCOL)
        kept[filename] = (digest, stamps.get(filename), pickled)
    buildcache.write_file(folder, KNOWN_FILE, print_, kept)
