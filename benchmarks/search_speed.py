"""matome build with its search index against hugo build on a real matome blog, and the
search box in Chromium on what matome built.

    python benchmarks/search_speed.py /work/corpus --runs 3

The site (a folder or a .tar.xz) is copied for matome, with its own configuration
(``params.enableSearch = true`` on the real blog: every article and comment indexed),
and for Hugo with the stand-in layouts of ``compare_paths.py`` and ``enableSearch =
false`` (Hugo makes no search index), as ``build_speed.py`` does; its measuring,
copying and editing are reused. Per run, the tools alternate:

- cold: Hugo and matome from nothing (destinations and caches moved aside);
- edit: one sentence added to the first comment of one article, matome builds;
- add: one new article (a copy of one, with a new title, date and comment), matome builds.

Each is timed as a whole process (wall, CPU of the process and its children, peak PSS
of the process tree); medians are compared with Hugo's cold build of the same run.

Then the matome site is served on 127.0.0.1 and Chromium (Debian's, through Playwright)
opens its search box and enters words that occur in one comment of one article only
(picked from the articles' source, the same ones every time), each as an input method
commits a word: one input event. For each: the bytes the server sent from opening the
box until its index was loaded, the bytes sent for the query until its results were
shown, the time from the input to the results, and whether the article was found. The
server sends files as static hosts do: text (the HTML, the scripts) gzipped.

Then ``--commits`` builds in a row, as a blog's CI runs them (an article added, then a
fix to it, and so on): each build's time against Hugo's cold build and the articles
Pagefind indexed for it, and the search box again on what they left.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import hashlib
import http.server
import io
import json
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from build_speed import (  # noqa: E402
    TRASH,
    Run,
    Tool,
    articles,
    edit_one_article,
    first_comment_begun,
    machine,
    measure,
    without_search,
    work_folder,
)
from compare_paths import prepare_for_hugo  # noqa: E402

SCENARIOS = ("cold", "edit", "add")
_BODY = re.compile(r'matomeQuote body="((?:[^"\\]|\\.)*)"')
_CJK_WORD = re.compile(r"[\u30a1-\u30fa\u30fc]{5,}|[\u4e00-\u9fff]{4,}")  # a loanword, a compound


def timed_build(tool: Tool, stages: list[float], indexed: list[int] | None = None) -> Run:
    """``tool``'s build, its ``--verbose`` summary read for the time of the search index
    (and, given ``indexed``, the number of articles Pagefind indexed)."""
    command = [arg for arg in tool.command() if arg != "--quiet"] + ["--verbose"]
    with tempfile.TemporaryFile("w+", encoding="utf-8") as output:
        run = measure(command, stdout=output)
        output.seek(0)
        said = output.read()
    found = re.search(r"search index ([\d.]+) s", said)
    stages.append(float(found.group(1)) if found else 0.0)
    if indexed is not None:
        found = re.search(r"Pagefind indexed (\d+) article", said)
        indexed.append(int(found.group(1)) if found else 0)
    return run


def add_one_article(site: Path, n: int) -> Path:
    """A copy of the middle article as the newest one, with a comment only it has."""
    source = articles(site)[len(articles(site)) // 2]
    target = source.parent.with_name(f"{source.parent.name}_added{n}") / "index.md"
    target.parent.mkdir()
    text = source.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^title = '(.*)'$", rf"title = '\1（追加{n}）'", text, count=1)
    text = re.sub(r"(?m)^date = '.*'$", "date = '2025-12-31T00:00:00'", text, count=1)
    target.write_text(first_comment_begun(text, f"追加された記事{n}の言葉。"), encoding="utf-8")
    return target


def unique_words(site: Path, count: int) -> list[tuple[str, str]]:
    """``count`` words (runs of katakana, or of kanji) that occur in one comment of one article
    and nowhere else in the articles' text; with the URL path of their article."""
    bodies: list[tuple[str, str]] = []
    for path in articles(site):
        url = "/" + path.parent.relative_to(site / "content").as_posix() + "/"
        bodies += [(url, body) for body in _BODY.findall(path.read_text(encoding="utf-8"))]
    words = Counter(w for _, body in bodies for w in set(_CJK_WORD.findall(body)))
    once = [(w, url) for url, body in bodies for w in _CJK_WORD.findall(body) if words[w] == 1]
    # The same words every run: the ones whose digest comes first (and that no longer
    # word of another comment holds).
    once.sort(key=lambda item: hashlib.sha256(item[0].encode()).hexdigest())
    text = "\n".join(body for _, body in bodies)
    found = []
    for word, url in once:
        if len(found) == count:
            break
        if text.count(word) == 1:
            found.append((word, url))
    return found


# --- the search box in Chromium ------------------------------------------------------
class _Counting(http.server.SimpleHTTPRequestHandler):
    """Serves the site as static hosts do (GitHub Pages, Netlify, Cloudflare Pages): text
    gzipped when the browser takes it, other files as they are (Pagefind's index files
    are gzipped already). Notes each file sent: (path, bytes sent)."""

    def log_message(self, *args) -> None:
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        kind = self.guess_type(str(path))
        text = kind.startswith("text/") or kind in _TEXT_TYPES
        if not (text and path.is_file() and "gzip" in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        data = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return io.BytesIO(data)

    def copyfile(self, source, destination) -> None:
        data = source.read()
        self.server.sent.append((self.path, len(data)))
        destination.write(data)


_TEXT_TYPES = {"application/javascript", "application/json", "application/xml", "image/svg+xml"}


# A promise, kept by the page, of when the results (or that there are none) are shown.
_SHOWN = """(word) => { window.searchShown = new Promise(done => {
    const dialog = document.getElementById('search-dialog');
    const list = dialog.querySelector('.search-results');
    const status = dialog.querySelector('.search-status');
    const none = dialog.dataset.none.replace('{q}', word);
    new MutationObserver((_, observer) => {
        if (list.children.length || status.textContent === none) {
            observer.disconnect();
            done(performance.now());
        }
    }).observe(dialog, {subtree: true, childList: true, characterData: true});
}); }"""


def _wait_for(condition, seconds: float = 60) -> None:
    for _ in range(int(seconds * 20)):
        if condition():
            return
        time.sleep(0.05)
    raise TimeoutError("the search box did not load its index")


def query_in_chromium(public: Path, words: list[tuple[str, str]]) -> list[dict]:
    from browser import CHROMIUM_ARGS, require_chromium
    from playwright.sync_api import sync_playwright

    handler = functools.partial(_Counting, directory=str(public))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.sent = []
    manifest = json.loads((public / "pagefind" / "matome-search.json").read_text())
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}"
    rows = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=require_chromium(), args=CHROMIUM_ARGS
            )
            for word, expected in words:
                context = browser.new_context()  # nothing cached from the last word
                page = context.new_page()
                page.goto(url + "/")
                page.wait_for_load_state("networkidle")
                httpd.sent.clear()
                page.click("[data-search-open]")
                # Loaded: the metadata of every bundle is in (the wasm before the first).
                _wait_for(
                    lambda: (
                        sum(p.endswith(".pf_meta") for p, _ in httpd.sent)
                        == len(manifest["bundles"])
                    )
                )
                page.wait_for_load_state("networkidle")
                opened = sum(n for _, n in httpd.sent)
                httpd.sent.clear()
                page.evaluate(_SHOWN, word)
                start = page.evaluate("performance.now()")
                page.keyboard.insert_text(word)
                end = page.evaluate("window.searchShown")
                page.wait_for_load_state("networkidle")
                links = page.locator(".search-result-link").evaluate_all(
                    "a => a.map(x => x.getAttribute('href'))"
                )
                rows.append(
                    {
                        "word": word,
                        "found": expected in links,
                        "results": len(links),
                        "open_kib": opened / 1024,
                        "query_kib": sum(n for _, n in httpd.sent) / 1024,
                        "ms": end - start,
                    }
                )
                context.close()
            browser.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
    return rows


# --- the report ----------------------------------------------------------------------
def median(runs: list[Run], field: str) -> float:
    return statistics.median(getattr(r, field) for r in runs)


def report(work: Path, site: Path, rounds: int, word_count: int, commits: int) -> list[str]:
    """The benchmark's lines: ``rounds`` of cold, edit and add builds of ``site`` in ``work``, then
    ``word_count`` words searched in Chromium; then ``commits`` builds in a row
    (``series``) and the words searched again."""
    words = unique_words(site, word_count)
    matome_site = work / "matome-site"
    shutil.copytree(site, matome_site)
    hugo_site = prepare_for_hugo(site, work / "h")
    without_search(hugo_site)
    matome = Tool("matome", matome_site, work / "out-matome")
    hugo = Tool("hugo", hugo_site, work / "out-hugo")
    lines = machine()
    results: dict[tuple[str, str], list[Run]] = {}
    search = {scenario: [] for scenario in SCENARIOS}  # seconds of the search index stage
    for run in range(rounds):
        for tool in [hugo, matome] if run % 2 == 0 else [matome, hugo]:
            tool.clear(work / TRASH)
            if tool is hugo:
                results.setdefault(("hugo", "cold"), []).append(measure(tool.command()))
            else:
                results.setdefault(("matome", "cold"), []).append(
                    timed_build(matome, search["cold"])
                )
        edit_one_article(matome_site, run + 1)
        results.setdefault(("matome", "edit"), []).append(timed_build(matome, search["edit"]))
        add_one_article(matome_site, run + 1)
        results.setdefault(("matome", "add"), []).append(timed_build(matome, search["add"]))
        print(f"  run {run + 1}/{rounds} done", file=sys.stderr)
    hugo_cold = median(results[("hugo", "cold")], "wall")
    hugo_peak = median(results[("hugo", "cold")], "peak_mib")
    lines += ["", f"{len(articles(matome_site))} articles; Hugo's cold build (search off, as it"
              f" has none): {hugo_cold:.2f} s wall, {median(results[('hugo', 'cold')], 'cpu'):.1f}"
              f" s CPU, {hugo_peak:.0f} MiB peak", "",
              "| matome, search on | wall | vs hugo cold | CPU | peak | peak vs hugo"
              " | of which the search index |", "| --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for scenario in SCENARIOS:
        runs = results[("matome", scenario)]
        wall, peak = median(runs, "wall"), median(runs, "peak_mib")
        lines.append(
            f"| {scenario} | {wall:.2f} s | {wall / hugo_cold:.3f} | {median(runs, 'cpu'):.1f} s"
            f" | {peak:.0f} MiB | {peak / hugo_peak:.2f} | {statistics.median(search[scenario]):.2f} s |"
        )
    lines += query_table(query_in_chromium(matome.out, words))
    if commits:
        lines += series(matome, commits, hugo_cold)
        lines += ["", f"The search box after these {commits} commits:"]
        lines += query_table(query_in_chromium(matome.out, words))
    return lines


def query_table(rows: list[dict]) -> list[str]:
    lines = ["", "| word (in one comment of one article) | found | results | opening the box"
             " | first query | query to results |", "| --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for row in rows:
        lines.append(
            f"| {row['word']} | {'yes' if row['found'] else 'NO'} | {row['results']}"
            f" | {row['open_kib']:.0f} KiB | {row['query_kib']:.0f} KiB | {row['ms']:.0f} ms |"
        )
    if rows:
        total = statistics.median(r["open_kib"] + r["query_kib"] for r in rows)
        lines.append(
            f"median: opening and first query {total:.0f} KiB, query to results"
            f" {statistics.median(r['ms'] for r in rows):.0f} ms"
        )
    return lines


def series(matome: Tool, commits: int, hugo_cold: float) -> list[str]:
    """A blog's commits one after the other, each built: an article added, then a
    sentence added to it (the author's fix), and so on. Each build's time and the
    articles Pagefind indexed for it: the young bundles take each build's changes until
    the large bundle that holds most of them is made again."""
    walls, indexed, stages = [], [], []
    added = None
    for n in range(commits):
        if n % 2 == 0:
            added = add_one_article(matome.site, 100 + n)
        else:
            text = added.read_text(encoding="utf-8")
            added.write_text(first_comment_begun(text, f"直した{n}。"), encoding="utf-8")
        walls.append(timed_build(matome, stages, indexed).wall)
    state = json.loads((matome.site / ".matome-cache/search/state.json").read_text())
    young = [len(bundle["pages"]) for bundle in state["young"]]
    slow = [i for i, wall in enumerate(walls) if wall > 2 * statistics.median(walls)]
    return [
        "",
        f"{commits} commits in a row (an article added, then fixed, and so on), each built:",
        "",
        "| builds | median | vs hugo cold | largest | articles indexed (median, largest)"
        " | builds slower than twice the median |",
        "| --- | --- | --- | --- | --- | --- |",
        f"| {commits} | {statistics.median(walls):.2f} s"
        f" | {statistics.median(walls) / hugo_cold:.3f} | {max(walls):.2f} s"
        f" | {statistics.median(indexed):.0f}, {max(indexed)} | {len(slow)}"
        f" ({', '.join(f'{walls[i]:.1f} s, {indexed[i]} indexed' for i in slow) or 'none'}) |",
        f"young bundles at the end: {young} articles; per build, indexed: {indexed}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a site folder or a .tar.xz of one")
    parser.add_argument("--runs", type=int, default=3, help="runs per scenario")
    parser.add_argument("--words", type=int, default=5, help="words searched in Chromium")
    parser.add_argument(
        "--commits", type=int, default=40, help="builds in a row after the runs (0: none)"
    )
    parser.add_argument("--out", type=Path, help="keep the work folder here (default: temporary)")
    args = parser.parse_args()
    with work_folder(args.site, args.out, "matome-search-bench-") as (work, site):
        print("\n".join(report(work, site, args.runs, args.words, args.commits)))


if __name__ == "__main__":
    main()
