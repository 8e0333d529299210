"""What the published search bundles were made from, kept in ``.matome-cache/search/``.

For each bundle: its folder name, each article's URL with the fingerprint of what was
indexed (title, thumbnail, language, text), Pagefind's fragment id of each article
(what the search box hides once the article changed) and the bundle's files as
written (to tell that the published copy is whole). For each article: the version of
its text that was last read (the build cache's name for its rendered body) and the
text's digest, so that an unchanged article's text is never read again.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from dataclasses import dataclass, field, fields
from pathlib import Path

from . import tokens
from .service import pagefind_binary

STATE_FILE = "state.json"
FORMAT = "2"


@dataclass
class Bundle:
    name: str  # its folder under pagefind/
    pages: dict[str, str] = field(default_factory=dict)  # url -> fingerprint of what was indexed
    fragments: dict[str, str] = field(default_factory=dict)  # url -> Pagefind's fragment id
    files: dict[str, list[int]] = field(default_factory=dict)  # path in it -> [size, mtime_ns]


@dataclass
class SearchState:
    key: str  # what the bundles depend on besides the articles; another key: all made again
    bundles: list[Bundle] = field(default_factory=list)  # the large ones, in date order
    # The articles changed since their large bundle was made, in small bundles, the
    # largest and oldest first.
    young: list[Bundle] = field(default_factory=list)
    texts: dict[str, list[str]] = field(default_factory=dict)  # url -> [text version, digest]

    def all_bundles(self) -> list[Bundle]:
        return self.bundles + self.young


def current_key() -> str:
    """The format, the tokens and the Pagefind binary that will run, as ``pagefind
    --version`` names it (a few milliseconds; importing ``importlib.metadata`` to read the
    package's version takes longer than that)."""
    binary = pagefind_binary()
    answer = ""
    if binary is not None:
        try:
            found = subprocess.run([binary, "--version"], capture_output=True, timeout=60)
            answer = found.stdout.decode(errors="replace").strip()
        except (OSError, subprocess.SubprocessError):
            pass  # indexing fails with the message that says why
    return f"format {FORMAT}, tokens {tokens.VERSION}, {answer or 'pagefind unknown'}"


def load_state(cache_dir: Path) -> SearchState:
    """The kept state; an empty one (every bundle made again) if there is none, it is
    unreadable, or it was made for another format or Pagefind."""
    key = current_key()
    try:
        data = json.loads((cache_dir / STATE_FILE).read_text(encoding="utf-8"))
        if data.get("key") != key:
            return SearchState(key)
        return SearchState(
            key,
            [Bundle(**b) for b in data["bundles"]],
            [Bundle(**b) for b in data["young"]],
            data["texts"],
        )
    except (OSError, ValueError, KeyError, TypeError):
        return SearchState(key)


def save_state(cache_dir: Path, state: SearchState) -> None:
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = cache_dir / f".{STATE_FILE}.{os.getpid()}"
    # The fields as they are (JSON copies them): dataclasses.asdict would deep-copy
    # every article's entries first.
    data = {
        "key": state.key,
        "bundles": [_fields(b) for b in state.bundles],
        "young": [_fields(b) for b in state.young],
        "texts": state.texts,
    }
    tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, cache_dir / STATE_FILE)


def _fields(bundle: Bundle) -> dict:
    return {f.name: getattr(bundle, f.name) for f in fields(bundle)}


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def fingerprint(url: str, title: str, language: str, thumbnail: str, digest: str) -> str:
    """What a search result shows and finds of an article (its date is not in the index)."""
    data = json.dumps([url, title, language, thumbnail, digest], ensure_ascii=False)
    return hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()[:32]
