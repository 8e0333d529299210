"""``matome serve``: real HTTP against a real ``matome serve`` process on real files.

Path safety (traversal in every spelling, symlinks out of the site), binding only
to the address asked for, content types, the reload script only in responses,
rebuilds after an edit (one per burst of writes, one per editor save), errors
shown then cleared, event streams that come and go without leaking threads,
Ctrl-C. Incremental rebuilds are also checked file by file against a fresh
full build after every kind of change.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

from matome.config import Flags
from matome.serve.live import LiveSite

SITE_CONFIG = """\
baseURL = "https://example.org/"
title = "Serve test"
[taxonomies]
  tag = "tags"
[outputs]
  home = ["HTML", "RSS", "JSON"]
"""


def article(title: str, date: str, tags: list[str], body: str) -> str:
    tag_list = ", ".join(f'"{t}"' for t in tags)
    return f"+++\ntitle = '{title}'\ndate = {date}\ntags = [{tag_list}]\n+++\n\n{body}\n"


def make_site(root: Path, articles: int = 3, extra: str = "") -> Path:
    (root / "content/posts").mkdir(parents=True)
    (root / "hugo.toml").write_text(SITE_CONFIG)
    for i in range(articles):
        folder = root / f"content/posts/a{i}"
        folder.mkdir()
        tags = ["common", f"t{i % 2}"]
        body = f"Hello from article {i}.\n\nSecond paragraph {i}.\n\n{extra}"
        (folder / "index.md").write_text(
            article(f"Article {i}", f"2025-01-{i + 1:02d}", tags, body)
        )
    return root


class Serve:
    """A ``matome serve`` process; its URL is read from what it prints."""

    def __init__(self, site: Path, *args: str):
        self.site = site
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "matome", "serve", "-s", str(site), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        self.lines: list[str] = []
        self.errors: list[str] = []
        ready = threading.Event()
        threading.Thread(target=self._read, args=(ready,), daemon=True).start()
        errors = threading.Thread(target=self._read_errors, daemon=True)
        errors.start()
        if not ready.wait(60):
            self.stop()
            raise AssertionError("matome serve did not start:\n" + "\n".join(self.errors))
        match = re.search(
            r"Web Server is available at http://([\d.]+):(\d+)/", "\n".join(self.lines)
        )
        if match is None:  # it ended before serving: say what it printed
            self.proc.wait(10)
            errors.join(10)
            output = "\n".join(self.lines + self.errors)
            raise AssertionError(f"matome serve exited ({self.proc.returncode}):\n{output}")
        self.host, self.port = match.group(1), int(match.group(2))

    def _read(self, ready: threading.Event) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            if line.startswith("Web Server is available"):
                ready.set()
        ready.set()

    def _read_errors(self) -> None:
        for line in self.proc.stderr:
            self.errors.append(line.rstrip("\n"))

    def request(self, target: str, host: str | None = None) -> tuple[int, dict, bytes]:
        return raw_get(host or self.host, self.port, target)

    def get(self, target: str) -> tuple[int, str]:
        status, _, body = self.request(target)
        return status, body.decode("utf-8", "replace")

    def status(self) -> dict:
        return json.loads(self.request("/__matome/status")[2])

    def wait_for(self, predicate, timeout: float = 15.0, what: str = "condition"):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}; status {self.status()}")

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.wait()


def raw_get(host: str, port: int, target: str, timeout: float = 10.0) -> tuple[int, dict, bytes]:
    """Send the request line exactly as given: no client-side path cleaning."""
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.sendall(f"GET {target} HTTP/1.0\r\nHost: {host}\r\n\r\n".encode("latin-1"))
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
    return int(lines[0].split()[1]), headers, body


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    site = make_site(tmp_path_factory.mktemp("served") / "site")
    japanese = site / "content/posts/日本語の記事/index.md"
    japanese.parent.mkdir()
    japanese.write_text(article("日本語", "2025-02-01", ["タグ"], "本文です。"))
    outside = site.parent / "secret.txt"
    outside.write_text("SECRET-OUTSIDE-THE-SITE")
    before = tree(site)
    server = Serve(site, "-p", str(free_port()))
    server.before = before
    yield server
    server.stop()


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


# --- path rules -----------------------------------------------------------------------
TRAVERSALS = [
    "/../../../../../../../../etc/passwd",
    "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/%2E%2E/%2E%2E/%2E%2E/%2E%2E/%2E%2E/%2E%2E/%2E%2E/etc/passwd",
    "/..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "/posts/..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc/passwd",
    "/posts/../../../../../../../../etc/passwd",
    "/./../../../../../../../etc/passwd",
    "/%252e%252e/%252e%252e/%252e%252e/%252e%252e/%252e%252e/etc/passwd",
    "/..\\..\\..\\..\\..\\..\\..\\etc\\passwd",
    "//etc/passwd",
    "/%2fetc%2fpasswd",
    "/etc/passwd",
    "/index.html%00.txt",
    "http://127.0.0.1/../../../../../../../etc/passwd",
]


@pytest.mark.parametrize("target", TRAVERSALS)
def test_paths_outside_the_site_are_404(served, target):
    status, _, body = served.request(target)
    assert status == 404
    assert b"root:" not in body


def test_parent_folder_of_the_served_site_is_not_reachable(served):
    root = Path(served.status()["root"])
    (root.parent / "beside.txt").write_text("BESIDE")
    for target in ("/../beside.txt", "/%2e%2e/beside.txt", "/..%2fbeside.txt"):
        status, _, body = served.request(target)
        assert status == 404 and b"BESIDE" not in body


def test_symlinks_out_of_the_site_are_404(served):
    root = Path(served.status()["root"])
    outside = served.site.parent / "secret.txt"
    (root / "leak.txt").symlink_to(outside)
    (root / "leakdir").symlink_to(served.site.parent, target_is_directory=True)
    (root / "inside.html").symlink_to(root / "index.html")  # a link that stays inside is fine
    for target in ("/leak.txt", "/leakdir/secret.txt", "/leakdir/", "/leakdir"):
        status, _, body = served.request(target)
        assert status == 404, target
        assert b"SECRET-OUTSIDE" not in body
    assert served.request("/inside.html")[0] == 200


def test_pages_folders_and_content_types(served):
    status, headers, body = served.request("/")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    assert served.request("/posts/a1/")[0] == 200
    status, headers, _ = served.request("/posts/a1")
    assert status == 301 and headers["location"] == "/posts/a1/"
    expected = {
        "/index.xml": "application/xml; charset=utf-8",
        "/index.json": "application/json; charset=utf-8",
        "/sitemap.xml": "application/xml; charset=utf-8",
        "/css/matome.css": "text/css; charset=utf-8",
        "/js/matome.js": "text/javascript; charset=utf-8",
        "/__matome/livereload.js": "text/javascript; charset=utf-8",
    }
    for target, kind in expected.items():
        status, headers, _ = served.request(target)
        assert (status, headers["content-type"]) == (200, kind), target
    status, headers, body = served.request("/no/such/page/")
    assert status == 404 and headers["content-type"].startswith("text/html")
    # Percent-encoded UTF-8 paths name their files (decoded once).
    for target in ("/posts/日本語の記事/", "/tags/タグ/"):
        status, body = served.get(urllib.parse.quote(target))
        assert status == 200 and "日本語" in body, target


def test_reload_script_is_in_responses_not_in_files(served):
    _, body = served.get("/posts/a0/")
    script = '<script src="/__matome/livereload.js" data-navigate="0" data-build="0"></script>'
    assert body.count(script) == 1 and body.index(script) < body.rindex("</body>")
    on_disk = (Path(served.status()["root"]) / "posts/a0/index.html").read_text()
    assert "__matome" not in on_disk
    # The base URL is the local address, so links and feeds point at this server.
    assert f'href="http://127.0.0.1:{served.port}/posts/a0/"' in on_disk


def test_serve_writes_nothing_into_the_site(served):
    # Built, served, read: the site's folder is byte for byte what it was, no public/.
    assert served.request("/posts/a0/")[0] == 200
    assert tree(served.site) == served.before


def test_many_event_streams_open_and_close_without_leaking_threads(served):
    baseline = served.wait_for(
        lambda: served.status()["clients"] == 0 and served.status()["threads"], what="no clients"
    )
    streams = []
    for _ in range(40):
        sock = socket.create_connection((served.host, served.port), timeout=10)
        sock.sendall(b"GET /__matome/events HTTP/1.0\r\n\r\n")
        streams.append(sock)
    for sock in streams:
        assert b"text/event-stream" in read_until(sock, b"retry:")
    assert served.status()["clients"] == 40
    for sock in streams:
        sock.close()
    served.wait_for(lambda: served.status()["clients"] == 0, what="streams closed")
    served.wait_for(lambda: served.status()["threads"] <= baseline + 1, what="threads to end")


def read_until(sock: socket.socket, marker: bytes, timeout: float = 10.0) -> bytes:
    sock.settimeout(timeout)
    data = b""
    while marker not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


# --- binding -----------------------------------------------------------------------------
def local_addresses() -> set[str]:
    """This machine's non-loopback IPv4 addresses (none on an isolated machine)."""
    found = set()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("10.255.255.255", 1))  # no packet is sent; picks the outgoing address
            found.add(sock.getsockname()[0])
        except OSError:
            pass
    with contextlib.suppress(OSError):
        found |= {ai[4][0] for ai in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    return {a for a in found if not a.startswith("127.") and a != "0.0.0.0"}


def refused(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return False
    except OSError:
        return True


def test_binds_only_to_the_address_asked_for(served, tmp_path):
    # The default, 127.0.0.1: not reachable through another local address.
    assert not refused("127.0.0.1", served.port)
    assert refused("127.0.0.2", served.port)
    for address in local_addresses():
        assert refused(address, served.port), address
    # --bind 127.0.0.2, with its port taken there: the next free port, only on 127.0.0.2.
    with socket.socket() as taken:
        taken.bind(("127.0.0.2", 0))
        taken.listen()
        port = taken.getsockname()[1]
        other = Serve(make_site(tmp_path / "site"), "--bind", "127.0.0.2", "-p", str(port))
    try:
        assert other.host == "127.0.0.2" and other.port > port
        assert other.request("/")[0] == 200
        assert refused("127.0.0.1", other.port)
        assert "(bind address 127.0.0.2)" in "\n".join(other.lines)
    finally:
        other.stop()


# --- rebuilds ----------------------------------------------------------------------------
@pytest.fixture
def editable(tmp_path):
    server = Serve(make_site(tmp_path / "site"), "-p", str(free_port()))
    yield server
    server.stop()


def builds(server: Serve) -> int:
    return server.status()["builds"]


def test_edit_rebuilds_the_page_and_tells_the_browser(editable):
    events = EventStream(editable)
    source = editable.site / "content/posts/a1/index.md"
    source.write_text(source.read_text().replace("Hello from article 1.", "Edited text."))
    editable.wait_for(lambda: "Edited text." in editable.get("/posts/a1/")[1], what="new text")
    editable.wait_for(lambda: builds(editable) == 1, what="the rebuild to be counted")
    assert events.wait_for("event: reload")
    assert "Rendered 1 page bodies" in "\n".join(editable.lines)


def test_a_burst_of_writes_is_one_rebuild(editable):
    source = editable.site / "content/posts/a2/index.md"
    text = source.read_text()
    for i in range(10):
        source.write_text(text.replace("Hello from article 2.", f"Burst {i}."))
    editable.wait_for(lambda: "Burst 9." in editable.get("/posts/a2/")[1], what="last write")
    time.sleep(1.0)
    assert builds(editable) == 1


def test_editor_save_patterns_are_one_rebuild_each(editable):
    source = editable.site / "content/posts/a0/index.md"
    text = source.read_text()
    # Atomic save: a hidden temporary file renamed over the original.
    tmp = source.with_name(".index.md.tmp1234")
    tmp.write_text(text.replace("Hello from article 0.", "Atomic save."))
    os.replace(tmp, source)
    editable.wait_for(lambda: "Atomic save." in editable.get("/posts/a0/")[1], what="atomic")
    time.sleep(0.5)
    assert builds(editable) == 1
    # Vim: probe file 4913, backup by rename, write the new file, drop the backup.
    probe = source.with_name("4913")
    probe.write_text("")
    probe.unlink()
    backup = source.with_name("index.md~")
    os.rename(source, backup)
    source.write_text(text.replace("Hello from article 0.", "Vim save."))
    backup.unlink()
    editable.wait_for(lambda: "Vim save." in editable.get("/posts/a0/")[1], what="vim save")
    time.sleep(0.5)
    assert builds(editable) == 2


def test_error_is_shown_then_cleared_when_fixed(editable):
    events = EventStream(editable)
    source = editable.site / "content/posts/a1/index.md"
    good = source.read_text()
    source.write_text(good.replace("title = 'Article 1'", "title = 'Article 1"))
    errors = editable.wait_for(lambda: editable.status()["errors"], what="the error")
    assert re.match(r"content/posts/a1/index\.md:\d+:\d+: error: invalid TOML", errors[0])
    assert events.wait_for("event: builderror") and "content/posts/a1/index.md:" in events.text
    editable.wait_for(lambda: any(errors[0] in line for line in editable.errors), what="stderr")
    # Still serving the last good site.
    status, body = editable.get("/posts/a1/")
    assert status == 200 and "Hello from article 1." in body
    # A new event stream hears about the error at once.
    late = EventStream(editable)
    assert late.wait_for("event: builderror")
    source.write_text(good.replace("Hello from article 1.", "Fixed and edited."))
    editable.wait_for(lambda: not editable.status()["errors"], what="errors cleared")
    assert "Fixed and edited." in editable.get("/posts/a1/")[1]
    assert events.wait_for("event: reload")


def _hello(server: Serve) -> dict:
    """What a newly opened event stream is told first."""
    stream = EventStream(server)
    try:
        assert stream.wait_for("event: hello")
        line = stream.text.split("event: hello\ndata: ", 1)[1].split("\n", 1)[0]
        return json.loads(line)
    finally:
        stream.sock.close()


def test_a_page_that_missed_only_css_changes_is_not_reloaded(editable):
    """A page whose stream opens after changes learns whether any of them needs a reload
    (then it reloads) or they were all stylesheets (then it fetches those again)."""
    assert _hello(editable) == {"build": 0, "reload": 0}
    css = editable.site / "static/css/extra.css"
    css.parent.mkdir(parents=True, exist_ok=True)
    css.write_text("p { color: red }")
    editable.wait_for(lambda: builds(editable) == 1, what="the CSS rebuild")
    editable.wait_for(lambda: _hello(editable)["build"] == 1, what="the change to be sent")
    assert _hello(editable) == {"build": 1, "reload": 0}
    source = editable.site / "content/posts/a1/index.md"
    source.write_text(source.read_text().replace("Hello from article 1.", "Edited text."))
    editable.wait_for(lambda: builds(editable) == 2, what="the content rebuild")
    editable.wait_for(lambda: _hello(editable)["build"] == 2, what="the change to be sent")
    assert _hello(editable) == {"build": 2, "reload": 2}
    css.write_text("p { color: blue }")
    editable.wait_for(lambda: _hello(editable)["build"] == 3, what="the second CSS change")
    assert _hello(editable) == {"build": 3, "reload": 2}


def test_front_matter_edit_updates_lists_and_terms(editable):
    source = editable.site / "content/posts/a0/index.md"
    source.write_text(source.read_text().replace("'Article 0'", "'Renamed zero'"))
    editable.wait_for(lambda: "Renamed zero" in editable.get("/posts/a0/")[1], what="title")
    for page in ("/", "/posts/", "/tags/common/", "/index.xml"):
        assert "Renamed zero" in editable.get(page)[1], page


def test_ctrl_c_stops_cleanly_and_removes_the_temporary_folder(editable):
    root = Path(editable.status()["root"])
    assert root.is_dir()
    EventStream(editable)  # an open stream must not hold up the exit
    assert editable.stop() == 0
    assert not root.parent.exists()
    assert "Stopping." in "\n".join(editable.lines)


class EventStream:
    """A Server-Sent Events client reading in a thread."""

    def __init__(self, server: Serve):
        self.sock = socket.create_connection((server.host, server.port), timeout=30)
        self.sock.sendall(b"GET /__matome/events HTTP/1.0\r\n\r\n")
        self._lock = threading.Lock()
        self.text = read_until(self.sock, b"retry:").decode("utf-8", "replace")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while chunk := self.sock.recv(4096):
                with self._lock:
                    self.text += chunk.decode("utf-8", "replace")
        except OSError:
            pass

    def wait_for(self, marker: str, timeout: float = 15.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if marker in self.text:
                    return True
            time.sleep(0.05)
        return False


# --- incremental rebuilds equal full builds ---------------------------------------------
def full_build(site: Path, flags: Flags, tmp_path: Path) -> dict[str, bytes]:
    """What a first serve of ``site`` writes, into a new folder: the files a change must
    leave the served folder equal to."""
    out = Path(tempfile.mkdtemp(dir=tmp_path)) / "site"
    out.mkdir()
    assert LiveSite(site, flags, out, workers=1).full().ok
    return tree(out)


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_a_temporary_file_renamed_over_an_article_reads_no_other_file(tmp_path, monkeypatch):
    """``sed -i`` and safe-saving editors write a temporary file and rename it over the
    article: the watcher reports both paths. The temporary one, gone and never read, must
    not count as a new file (that reads every article again), and the edit must show."""
    import matome.pipeline.graph as incremental

    site = make_site(tmp_path / "site", articles=4)
    root = tmp_path / "served"
    root.mkdir()
    live = LiveSite(site, Flags(environment="development"), root, workers=1)
    assert live.full().ok
    full_loads = []
    plain = incremental.load_content
    monkeypatch.setattr(incremental, "load_content", lambda *a: full_loads.append(a) or plain(*a))
    post = site / "content/posts/a2/index.md"
    temp = post.parent / "sedX1b2c3"
    # A title and a tag: the graph is built again (a title alone is put into the kept one).
    renamed = re.sub(r"title = '[^']*'", "title = 'Renamed over'", post.read_text())
    temp.write_text(renamed.replace('"common"', '"renamed"'))
    temp.replace(post)
    outcome = live.update({post.resolve(), temp.resolve()})
    assert outcome.ok and outcome.kind == "graph"
    assert full_loads == []
    assert "Renamed over" in (root / "posts/a2/index.html").read_text()
    # A file the last build read that is gone (a deleted article) still reloads the site.
    (site / "content/posts/a3/index.md").unlink()
    assert live.update({(site / "content/posts/a3/index.md").resolve()}).ok
    assert len(full_loads) == 1
    assert not (root / "posts/a3/index.html").exists()


def test_front_matter_edits_keep_no_old_site_graph_alive(tmp_path):
    """Each tag edit builds the site graph again; the graphs before it must be freed (a
    set of the functions bound to each graph kept them all: 20 MB an edit on the real blog),
    also when ``settle`` froze them while serve was idle."""
    import gc
    import weakref

    site = make_site(tmp_path / "site", articles=6, extra="{{< list limit=2 >}}")
    root = tmp_path / "served"
    root.mkdir()
    live = LiveSite(site, Flags(environment="development"), root, workers=1)
    assert live.full().ok
    post = site / "content/posts/a2/index.md"
    graphs = []
    try:
        for n in range(4):
            # What serve does when idle: the graph it freezes must still be freed later.
            assert live.settle(idle=0) and not live.settle(idle=0)
            # A tag: the graph is built again (a title alone is put into the kept one).
            post.write_text(re.sub(r"tags = \[[^]]*\]", f'tags = ["e{n}"]', post.read_text()))
            outcome = live.update({post.resolve()})
            assert outcome.ok and outcome.kind == "graph"
            graphs.append(weakref.ref(live.site))
        assert not live.settle(idle=60)  # only once nothing has changed for that long
        assert live.settle(idle=0)
        assert [g() is not None for g in graphs] == [False, False, False, True]
    finally:
        gc.unfreeze()


def test_incremental_rebuilds_write_what_a_full_build_writes(tmp_path):
    # Every body lists the newest articles: a new or re-dated article changes them all.
    # Each quotes a comment, which list cards count (kept, not counted again, when a
    # front matter edit builds the graph anew).
    quote = '{{< matomeQuote body="Hi" userName="u" createdAt="2025-01-01T00:00:00Z" >}}'
    site = make_site(tmp_path / "site", articles=10, extra=f"{{{{< list limit=2 >}}}}\n\n{quote}")
    flags = Flags(base_url="http://127.0.0.1:1313/", environment="development")

    def fresh() -> dict[str, bytes]:
        return full_build(site, flags, tmp_path)

    root = tmp_path / "served" / "site"
    root.mkdir(parents=True)
    live = LiveSite(site, flags, root, workers=1)
    assert live.full().ok
    post = site / "content/posts/a2/index.md"
    other = site / "content/posts/a4/index.md"
    theme_single = Path(__file__).resolve().parent.parent / "templates/_default/single.html"
    template = site / "templates/_default/single.html"
    new = site / "content/posts/new/index.md"
    css = site / "static/css/extra.css"
    config = site / "hugo.toml"
    # (name, paths changed, change, compare with a full build right after)
    steps = [
        ("body", [post], lambda: post.write_text(post.read_text().replace("Second", "Changed")), 1),
        ("other", [other], lambda: other.write_text(other.read_text().replace("e 4'", "e X'")), 1),
        ("title", [post], lambda: post.write_text(post.read_text().replace("e 2'", "e Y'")), 0),
        (
            "title and body",
            [post],
            lambda: post.write_text(post.read_text().replace("e Y'", "e Z'").replace("Hi", "Yo")),
            1,
        ),
        ("tags", [post], lambda: post.write_text(post.read_text().replace('"common"', '"new"')), 1),
        ("date", [post], lambda: post.write_text(post.read_text().replace("01-03", "02-09")), 0),
        ("new", [new.parent, new], lambda: write(new, article("N", "2025-03-01", ["t1"], "Hi")), 1),
        ("delete", [new, new.parent], lambda: shutil.rmtree(new.parent), 1),
        ("template added", [template], lambda: write(template, theme_single.read_text()), 0),
        (
            "template edit",
            [template],
            lambda: write(template, "{% extends '_default/list.html' %}"),
            1,
        ),
        ("static", [css], lambda: write(css, "p { color: red }"), 1),
        ("config", [config], lambda: config.write_text(SITE_CONFIG.replace("Serve", "Renamed")), 1),
    ]
    waited = set()
    for name, paths, step, compare in steps:
        step()
        kind = live.update({p.resolve() for p in paths}).kind
        waited |= {name} if live.stale_content else set()
        assert live.pending == set(), name
        expected = {"body": "reuse", "static": "reuse", "template edit": "reuse"}.get(name)
        assert kind == expected or expected is None, (name, kind)
        if compare:  # otherwise the next change comes while outputs are left for later
            assert_same_as_full_build(live, root, fresh, name)
    assert {"date", "new"} <= waited  # bodies listing the newest articles were left for later


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def assert_same_as_full_build(live: LiveSite, root: Path, fresh, name: str) -> None:
    theirs = fresh()
    # Every file not marked stale is already what a full build writes.
    ours = tree(root)
    wrong = [p for p in ours.keys() | theirs.keys() if ours.get(p) != theirs.get(p)]
    assert set(wrong) <= live.stale, (name, sorted(set(wrong) - live.stale))
    # A stale file asked for is rendered right (an article whose body waits, if any);
    # then everything left is.
    if live.stale:
        waiting = sorted(k.replace(".md", ".html") for k in live.stale_content)
        first = next((p for p in waiting if p in live.stale), sorted(live.stale)[0])
        assert live.ensure(first) == []
        assert (root / first).read_bytes() == theirs[first], (name, first)
    assert live.finish().ok
    ours = tree(root)
    assert sorted(ours) == sorted(theirs), name
    assert [p for p in ours if ours[p] != theirs[p]] == [], name


def test_a_feed_template_that_begins_or_ceases_to_paginate_changes_the_files_served(tmp_path):
    """Whether the home page's JSON is paginated is read from its template's text (the
    plan), so an edit of the template alone adds or removes its pager files."""
    site = make_site(tmp_path / "site", articles=14)  # two pagers of 10
    template = site / "templates/index.json"
    listed = "[{% for p in site.regular_pages %}{{ p.title | jsonify }},{% endfor %}]\n"
    write(template, listed)
    flags = Flags(base_url="http://127.0.0.1:1313/", environment="development")

    def fresh() -> dict[str, bytes]:
        return full_build(site, flags, tmp_path)

    root = tmp_path / "served" / "site"
    root.mkdir(parents=True)
    live = LiveSite(site, flags, root, workers=1)
    assert live.full().ok
    assert not (root / "page/2/index.json").exists()
    write(template, listed.replace("site.regular_pages", "paginator.pages"))
    assert live.update({template.resolve()}).ok
    assert (root / "page/2/index.json").is_file()
    assert_same_as_full_build(live, root, fresh, "paginated")
    write(template, listed)
    assert live.update({template.resolve()}).ok
    assert not (root / "page/2/index.json").exists()
    assert_same_as_full_build(live, root, fresh, "not paginated")


def test_related_lists_follow_a_date_change(tmp_path):
    # Every article shares a tag, every other one a second: moving the oldest to the
    # front puts it in the related list of a6, which is not its neighbour and showed
    # nothing of it before.
    site = make_site(tmp_path / "site", articles=14)
    flags = Flags(base_url="http://127.0.0.1:1313/", environment="development")

    def fresh() -> dict[str, bytes]:
        return full_build(site, flags, tmp_path)

    root = tmp_path / "served" / "site"
    root.mkdir(parents=True)
    live = LiveSite(site, flags, root, workers=1, fast_render=False)
    assert live.full().ok
    post = site / "content/posts/a0/index.md"
    post.write_text(post.read_text().replace("2025-01-01", "2025-03-01"))
    outcome = live.update({post.resolve()})
    assert outcome.ok and not live.stale
    assert "posts/a6/index.html" in outcome.written  # not a neighbour of a0, before or after
    assert_same_as_full_build(live, root, fresh, "date")


def test_a_watcher_stopped_while_idle_ends_without_an_error(tmp_path, monkeypatch):
    from matome.serve.watch import Watcher

    failures = []
    monkeypatch.setattr(threading, "excepthook", failures.append)
    calls = []
    watcher = Watcher(calls.append, recursive=[tmp_path]).start()
    time.sleep(0.2)  # its thread waits for a change
    watcher.stop()
    assert not watcher._thread.is_alive()
    assert not failures, [f.exc_value for f in failures]
    assert calls == []


def test_a_file_closed_after_writing_is_built_without_waiting_for_quiet(tmp_path):
    """A file closed after writing, or renamed into place, is whole: its batch goes at
    once. A file moved away (an editor's backup step) waits for the quiet period, and a
    save that puts it back joins the same batch."""
    from matome.serve.watch import Watcher

    calls = []
    arrived = threading.Event()

    def record(batch):
        calls.append(batch)
        arrived.set()

    watcher = Watcher(record, recursive=[tmp_path], quiet=60, longest=120).start()
    try:
        page = tmp_path / "a.md"
        page.write_text("one")
        assert arrived.wait(20), "a closed file waited for the quiet period"
        assert calls == [{page.resolve()}]
        arrived.clear()
        tmp = tmp_path / ".a.md.tmp"
        tmp.write_text("two")
        tmp.rename(page)  # an atomic save: a hidden file renamed over the page
        assert arrived.wait(20), "a file renamed into place waited for the quiet period"
        assert calls[1] == {page.resolve()}
        arrived.clear()
        page.rename(tmp_path / "a.md~")  # vim's backup, before it writes the page again
        assert not arrived.wait(0.5), "a file moved away was built before the quiet period"
    finally:
        watcher.stop()


def test_an_edit_saved_as_soon_as_the_first_page_answers_is_shown(tmp_path):
    """The watcher starts before the first build: an edit made while the server starts up
    (here, the moment its first page answers) is rebuilt like any other."""
    site = make_site(tmp_path / "site", articles=1)
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "matome", "serve", "-s", str(site), "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "the server never answered"
            try:
                if raw_get("127.0.0.1", port, "/posts/a0/")[0] == 200:
                    break
            except OSError:
                time.sleep(0.002)
        page = site / "content/posts/a0/index.md"
        page.write_text(article("Article 0", "2025-01-01", ["common"], "EDITED-RIGHT-AWAY"))
        deadline = time.monotonic() + 20
        body = b""
        while time.monotonic() < deadline and b"EDITED-RIGHT-AWAY" not in body:
            time.sleep(0.1)
            body = raw_get("127.0.0.1", port, "/posts/a0/")[2]
        assert b"EDITED-RIGHT-AWAY" in body, "the edit made during start-up was lost"
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_a_title_edit_is_put_into_the_kept_graph_and_reorders_pages_of_its_date(tmp_path):
    """A new title changes no list's membership: serve puts it into the graph it keeps
    (every list, feed and neighbour that shows it is rendered again). Between two pages of
    the same date the title decides their order: the lists, neighbours, pagers and related
    ranks that hold both are sorted again, as a full build sorts them."""
    quote = '{{< matomeQuote body="Hi" userName="u" createdAt="2025-01-01T00:00:00Z" >}}'
    site = make_site(tmp_path / "site", articles=6, extra=f"{{{{< list limit=2 >}}}}\n\n{quote}")
    flags = Flags(base_url="http://127.0.0.1:1313/", environment="development")

    def fresh() -> dict[str, bytes]:
        return full_build(site, flags, tmp_path)

    # Each article has an image of its own: a card must keep its image when the article
    # changes places with another.
    from PIL import Image

    for n in range(6):
        bundle = site / f"content/posts/a{n}"
        Image.new("RGB", (40 + n, 30), (40 * n, 0, 0)).save(bundle / "feature.png")
    root = tmp_path / "served" / "site"
    root.mkdir(parents=True)
    live = LiveSite(site, flags, root, workers=1, fast_render=False)
    assert live.full().ok
    post = site / "content/posts/a2/index.md"
    post.write_text(post.read_text().replace("'Article 2'", "'A new title'"))
    outcome = live.update({post.resolve()})
    assert outcome.ok and outcome.kind == "reuse"
    assert {"index.html", "posts/a3/index.html", "tags/common/index.html"} <= set(outcome.written)
    assert_same_as_full_build(live, root, fresh, "title")
    tied = site / "content/posts/a4/index.md"
    tied.write_text(tied.read_text().replace("2025-01-05", "2025-01-03"))  # a2's date
    assert live.update({tied.resolve()}).kind == "graph"
    assert_same_as_full_build(live, root, fresh, "tied")
    for title in ("'Z comes last'", "'A comes first'"):  # after a4, then before it
        text = post.read_text()
        post.write_text(re.sub(r"title = '[^']*'", f"title = {title}", text))
        outcome = live.update({post.resolve()})
        assert outcome.ok and outcome.kind == "reuse"
        assert_same_as_full_build(live, root, fresh, title)


def test_mounted_folders_are_watched(tmp_path):
    """Content and static files mounted from folders outside content/ and static/
    ([[module.mounts]]) are served, and an edit there is built again."""
    site = make_site(tmp_path / "site")
    shutil.move(site / "content", site / "docs")
    (site / "files").mkdir()
    (site / "files/note.txt").write_text("first\n")
    mounts = (
        '\n[[module.mounts]]\n  source = "docs"\n  target = "content"\n'
        '[[module.mounts]]\n  source = "files"\n  target = "static/files"\n'
    )
    (site / "hugo.toml").write_text((site / "hugo.toml").read_text() + mounts)
    server = Serve(site, "-p", str(free_port()))
    try:
        assert "Hello from article 1." in server.get("/posts/a1/")[1]
        assert server.get("/files/note.txt") == (200, "first\n")
        source = site / "docs/posts/a1/index.md"
        source.write_text(source.read_text().replace("Hello from article 1.", "Mounted edit."))
        server.wait_for(lambda: "Mounted edit." in server.get("/posts/a1/")[1], what="content")
        (site / "files/note.txt").write_text("second\n")
        server.wait_for(lambda: server.get("/files/note.txt")[1] == "second\n", what="static")
    finally:
        server.stop()
