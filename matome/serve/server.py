"""``matome serve``: Hugo's ``hugo server`` for matome.

Builds the site into a temporary folder (never ``public/``, never ``content/``),
serves that folder, watches the sources and rebuilds what changed
(``incremental.py``), then tells open pages over Server-Sent Events to reload,
or to fetch their stylesheets again after a CSS-only change. The reload script
is added to HTML responses as they are sent; the files on disk stay exactly what
``matome build`` writes. A failed rebuild keeps the last good site served and
shows its ``path:line:col: message`` lines in the terminal and over the page.

Only files inside the built site are answered: a request path is
percent-decoded once, ``.``/``..`` segments are refused and the real path
(symlinks resolved) must lie inside the served folder; anything else is a 404.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import hashlib
import json
import mimetypes
import os
import queue
import select
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..config import Flags, load_config
from ..errors import SourceError
from ..publish.staging import process_alive
from .live import LiveSite, Outcome, site_paths
from .watch import Watcher

PORT_TRIES = 100
PREFIX = "/__matome/"
EVENTS = PREFIX + "events"
SCRIPT = PREFIX + "livereload.js"
STATUS = PREFIX + "status"
MAX_EVENT_CLIENTS = 256
HEARTBEAT_SECONDS = 15.0
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".xml": "application/xml; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".webp": "image/webp",
    ".avif": "image/avif",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".woff2": "font/woff2",
}
NOT_FOUND_PAGE = (
    b"<!DOCTYPE html>\n<title>404 page not found</title>\n<h1>404 page not found</h1>\n"
)


def content_type(path: str) -> str:
    ext = os.path.splitext(path)[1].lower()
    return CONTENT_TYPES.get(ext) or mimetypes.guess_type(path)[0] or "application/octet-stream"


# --- which file a request path names ------------------------------------------------
@dataclass(frozen=True)
class Resolved:
    file: str = ""  # the real path of the file to send
    redirect: str = ""  # or a Location to send (a folder asked for without its slash)


def resolve_request(
    root: str, base_path: str, raw_path: str, ensure: Callable[[str], object] | None = None
) -> Resolved | None:
    """The file inside ``root`` that ``raw_path`` names, or None (a 404).

    ``root`` is a real path (no symlinks). The path is percent-decoded once, so
    ``%2e%2e`` is ``..`` and refused, while ``%252e`` stays a harmless ``%2e``.
    ``ensure(rel)`` is called with the site-relative file paths the request may
    name before the disk is looked at (a rebuild may have left them to render).
    """
    path = unquote(raw_path)
    if "\x00" in path or "\\" in path:
        return None
    if base_path:
        if path == base_path:
            return Resolved(redirect=raw_path + "/")
        if not path.startswith(base_path + "/"):
            return None
        path = path[len(base_path) :]
    segments = path.split("/")
    if any(s in (".", "..") for s in segments):
        return None
    parts = [s for s in segments if s]
    if ensure is not None:
        ensure("/".join(parts))
        ensure("/".join([*parts, "index.html"]))
    full = os.path.join(root, *parts)
    real = os.path.realpath(full)
    if not _inside(real, root):
        return None
    if os.path.isdir(real):
        if not path.endswith("/"):
            return Resolved(redirect=raw_path + "/")
        real = os.path.realpath(os.path.join(real, "index.html"))
        if not _inside(real, root):
            return None
    return Resolved(file=real) if os.path.isfile(real) else None


def _inside(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def inject_script(html: bytes, navigate: bool, build: int = 0) -> bytes:
    """The reload script, just before the last ``</body>`` (or at the end).

    ``build`` counts the changes served so far: a page that missed an event while it
    was loading sees a newer count when its event stream opens, and reloads."""
    attrs = f'data-navigate="{int(navigate)}" data-build="{build}"'
    tag = f'<script src="{SCRIPT}" {attrs}></script>'.encode()
    at = html.lower().rfind(b"</body>")
    return html[:at] + tag + html[at:] if at >= 0 else html + tag


# --- reload events --------------------------------------------------------------------
class ReloadHub:
    """The open event streams and what to tell them; the last build's errors for newcomers."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clients: set[queue.SimpleQueue] = set()
        self._closed = False
        self.errors: list[str] = []
        self.build = 0  # changes sent so far (reload and css events)
        self.reloaded = 0  # the number of the last change that needed a reload, not only CSS

    @property
    def clients(self) -> int:
        with self._lock:
            return len(self._clients)

    def subscribe(self) -> queue.SimpleQueue | None:
        with self._lock:
            if self._closed or len(self._clients) >= MAX_EVENT_CLIENTS:
                return None
            client: queue.SimpleQueue = queue.SimpleQueue()
            self._clients.add(client)
            client.put(_event("hello", {"build": self.build, "reload": self.reloaded}))
            if self.errors:
                client.put(_event("builderror", {"errors": self.errors}))
            return client

    def unsubscribe(self, client: queue.SimpleQueue) -> None:
        with self._lock:
            self._clients.discard(client)

    def send(self, event: str, data: dict) -> None:
        with self._lock:
            if event == "builderror":
                self.errors = list(data["errors"])
            else:
                self.errors = []
                self.build += 1
                if event == "reload":
                    self.reloaded = self.build
                data = {**data, "build": self.build, "reload": self.reloaded}
            for client in self._clients:
                client.put(_event(event, data))

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for client in self._clients:
                client.put(None)


def _event(name: str, data: dict) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


# --- HTTP -------------------------------------------------------------------------------
class PreviewServer(ThreadingHTTPServer):
    """One thread per connection; HTTP/1.0, so a thread ends with its response."""

    daemon_threads = True

    def __init__(self, address: tuple, family: int):
        self.address_family = family
        super().__init__(address, PreviewHandler)
        self.root = ""
        self.base_path = ""
        self.live_reload = True
        self.navigate = False
        self.hub = ReloadHub()
        self.status: dict = {"builds": 0}
        self.live: LiveSite | None = None

    def handle_error(self, request, client_address) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return  # a browser that went away
        super().handle_error(request, client_address)


class PreviewHandler(BaseHTTPRequestHandler):
    server: PreviewServer
    server_version = "matome"
    protocol_version = "HTTP/1.0"
    timeout = 30  # a client that sends nothing does not hold a thread for long

    def log_message(self, format: str, *args) -> None:
        pass  # like Hugo: no line per request

    def do_HEAD(self) -> None:
        self.do_GET(head=True)

    def do_GET(self, head: bool = False) -> None:
        path = urlsplit(self.path).path
        if path == EVENTS:
            return self._events()
        if path == SCRIPT:
            script = (Path(__file__).parent / "livereload.js").read_bytes()
            return self._send(HTTPStatus.OK, script, content_type(SCRIPT), head)
        if path == STATUS:
            return self._send_status(head)
        server = self.server
        ensure = self._ensure if server.live is not None else None
        resolved = resolve_request(server.root, server.base_path, path, ensure)
        if resolved is not None and resolved.redirect:
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", resolved.redirect)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if resolved is None:
            page = os.path.join(server.root, "404.html")
            body = Path(page).read_bytes() if os.path.isfile(page) else NOT_FOUND_PAGE
            return self._send(HTTPStatus.NOT_FOUND, body, CONTENT_TYPES[".html"], head)
        kind = content_type(resolved.file)
        try:
            if kind.startswith("text/html"):
                body = Path(resolved.file).read_bytes()
                if server.live is not None:
                    server.live.visit(
                        os.path.relpath(resolved.file, server.root).replace(os.sep, "/")
                    )
                return self._send(HTTPStatus.OK, body, kind, head)
            with open(resolved.file, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                self._headers(HTTPStatus.OK, kind, size)
                if not head:
                    shutil.copyfileobj(f, self.wfile)
        except FileNotFoundError:  # replaced by a rebuild between the check and the read
            self._send(HTTPStatus.NOT_FOUND, NOT_FOUND_PAGE, CONTENT_TYPES[".html"], head)

    def _ensure(self, rel: str) -> None:
        """Render a file the last rebuild left for later; its errors go to the terminal."""
        for err in self.server.live.ensure(rel):
            print(
                f"{err.path}:{err.line}:{err.col}: {err.severity}: {err.message}", file=sys.stderr
            )

    def _headers(self, status: HTTPStatus, kind: str, length: int) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(length))
        self.send_header("Cache-Control", "no-store")  # an edit must show on reload
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()

    def _send(self, status: HTTPStatus, body: bytes, kind: str, head: bool) -> None:
        if kind.startswith("text/html") and self.server.live_reload:
            body = inject_script(body, self.server.navigate, self.server.hub.build)
        self._headers(status, kind, len(body))
        if not head:
            self.wfile.write(body)

    def _send_status(self, head: bool) -> None:
        status = dict(self.server.status)
        status.update(
            threads=threading.active_count(),
            clients=self.server.hub.clients,
            errors=self.server.hub.errors,
            root=self.server.root,
        )
        body = json.dumps(status).encode()
        self._headers(HTTPStatus.OK, CONTENT_TYPES[".json"], len(body))
        if not head:
            self.wfile.write(body)

    def _events(self) -> None:
        """A Server-Sent Events stream until the browser goes away or the server stops."""
        hub = self.server.hub
        client = hub.subscribe()
        if client is None:
            return self._send(HTTPStatus.SERVICE_UNAVAILABLE, b"", "text/plain", False)
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(b"retry: 1000\n\n")
            beat = time.monotonic()
            while True:
                try:
                    message = client.get(timeout=0.5)
                except queue.Empty:
                    if _peer_closed(self.connection):
                        return
                    if time.monotonic() - beat > HEARTBEAT_SECONDS:
                        self.wfile.write(b": ping\n\n")
                        beat = time.monotonic()
                    continue
                if message is None:
                    return
                self.wfile.write(message)
        except OSError:
            return
        finally:
            hub.unsubscribe(client)
            self.close_connection = True


def _peer_closed(sock: socket.socket) -> bool:
    """Whether the other end closed the connection (readable with nothing to read)."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


def bind_server(host: str, port: int, tries: int = PORT_TRIES) -> PreviewServer:
    """Listen on ``host:port``, or on the next free port after it."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    for candidate in range(port, port + tries):
        try:
            return PreviewServer((host, candidate), family)
        except OSError as e:
            if e.errno != errno.EADDRINUSE or port == 0:
                raise
    raise OSError(f"no free port from {port} to {port + tries - 1} on {host}")


# --- the command ------------------------------------------------------------------------
def serve(args: argparse.Namespace, flags: Flags) -> int:
    """Run ``matome serve`` until Ctrl-C."""
    source = Path(args.source).resolve()
    if not args.environment and not os.environ.get("HUGO_ENVIRONMENT"):
        flags = replace(flags, environment="development")  # as hugo server
    try:
        config = load_config(source, flags)
    except SourceError as err:
        print(f"{err.path}:{err.line}:{err.col}: error: {err.message}", file=sys.stderr)
        return 1
    base_path = urlsplit(args.baseURL or config.base_url).path.rstrip("/")
    try:
        server = bind_server(args.bind, args.port)
    except OSError as e:
        print(f"Error: cannot listen on {args.bind}:{args.port}: {e}", file=sys.stderr)
        return 1
    port = server.server_address[1]
    host = args.bind if args.bind not in ("0.0.0.0", "::", "") else "127.0.0.1"
    netloc = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    flags = replace(flags, base_url=f"http://{netloc}{base_path}/", destination=None)

    cache, work, root = serve_folders(source, port)
    live = LiveSite(source, flags, root, fast_render=not args.disableFastRender, cache=cache)
    if args.destination:
        print("Note: -d is not used; matome serve builds into a folder of its own.")
    server.root = os.path.realpath(root)
    server.base_path = base_path
    server.live_reload = not args.disableLiveReload
    server.navigate = args.navigateToChanged
    server.live = live
    paths = live.paths = site_paths(source, config)  # what the watcher reports is read
    # Watching starts before the first build, so that an edit saved meanwhile is built next.
    watcher = Watcher(
        lambda changed: _rebuild(live, server, changed, args),
        recursive=paths.folders,
        flat=[source],
        late=paths.folders,
    )
    serving = False
    signal.signal(signal.SIGTERM, _interrupt)
    # Ctrl-C stops serve even when it was started from a script's background job, which
    # starts it with SIGINT ignored.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        watcher.start()
        print("Start building sites …", flush=True)
        with live.lock:  # the watcher's first rebuild waits for this build
            outcome = live.full()
            _print_outcome(outcome, first=True)
            server.status.update(_status(outcome))
            if outcome.errors:
                server.hub.send("builderror", {"errors": _lines(outcome.errors)})
        live.index_search()
        threading.Thread(target=server.serve_forever, args=(0.2,), daemon=True).start()
        serving = True
        print(f'Environment: "{flags.environment}"')
        print(f"Serving pages from {root} (public/ is not touched)")
        print(f"Web Server is available at http://{netloc}{base_path}/ (bind address {args.bind})")
        print("Press Ctrl+C to stop", flush=True)
        while True:
            time.sleep(0.5)
            live.settle()
    except KeyboardInterrupt:
        pass
    finally:
        # A second Ctrl-C must not cut the clean-up short and leave the folder behind.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("\nStopping.", flush=True)
        watcher.stop()
        server.hub.close()
        if serving:
            server.shutdown()
        server.server_close()
        with live.lock:
            live.store.flush()
        keep_served(cache, work, root)
    return 0


# --- where serve keeps its state -----------------------------------------------------------
def serve_folders(source: Path, port: int) -> tuple[Path, Path, Path]:
    """Serve's cache for this site and port (in the user's cache folder: nothing is written
    into the site), and the folder it serves this time, holding what the last serve of
    the site served, so that a start with nothing changed has nothing to write."""
    home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    name = hashlib.sha256(str(source).encode()).hexdigest()[:16]
    cache = Path(home) / "matome" / "serve" / f"{name}-{port}"
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError:  # no cache folder to be had: a cold start every time
        cache = Path(tempfile.mkdtemp(prefix="matome-serve-"))
    for leftover in cache.glob("run-*"):  # of a serve that was killed
        pid = leftover.name.removeprefix("run-")
        if pid.isdigit() and not process_alive(int(pid)):
            keep_served(cache, leftover, leftover / "site")
    work = cache / f"run-{os.getpid()}"
    work.mkdir(exist_ok=True)
    root = work / "site"
    try:
        os.rename(cache / "public", root)
    except OSError:  # none yet, or another serve of the site has it
        root.mkdir(exist_ok=True)
    return cache, work, root


def keep_served(cache: Path, work: Path, root: Path) -> None:
    """Put the served folder back for the next serve, and remove this run's folder."""
    with contextlib.suppress(OSError):
        if not (cache / "public").exists():
            os.rename(root, cache / "public")
    shutil.rmtree(work, ignore_errors=True)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt  # SIGTERM stops the server as Ctrl-C does


def _rebuild(live: LiveSite, server: PreviewServer, changed: set[Path], args) -> None:
    """The watcher's callback: rebuild, print, tell the open pages."""
    if not live.affected_by(changed):
        return  # nothing a build reads (a README beside the config, say)
    number = server.status["builds"] + 1
    stamp = datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    print(f"\nChange detected, rebuilding site (#{number}). {stamp}")
    names = sorted(_shown(p, live.source) for p in changed)
    print("Source changed " + ", ".join(names[:5]) + (" …" if len(names) > 5 else ""), flush=True)
    try:
        outcome = live.update(changed)
    except Exception as e:  # a bug must not stop the watching: report it like a build error
        traceback.print_exc()
        outcome = Outcome(kind="crash", errors=[SourceError("matome", 0, 0, repr(e))])
    server.status.update(_status(outcome), builds=number)
    _print_outcome(outcome)
    hub = server.hub
    if outcome.errors:
        hub.send("builderror", {"errors": _lines(outcome.errors)})
    elif outcome.written or outcome.removed or hub.errors:
        if outcome.css_only and not hub.errors:
            hub.send("css", {"paths": outcome.written})
        else:
            hub.send("reload", {"path": outcome.changed_page if args.navigateToChanged else ""})
    live.index_search()


def _shown(path: Path, source: Path) -> str:
    return path.relative_to(source).as_posix() if path.is_relative_to(source) else str(path)


def _lines(errors: list[SourceError]) -> list[str]:
    return [f"{e.path}:{e.line}:{e.col}: {e.severity}: {e.message}" for e in errors]


def _status(outcome: Outcome) -> dict:
    return {
        "ok": outcome.ok,
        "kind": outcome.kind,
        "written": len(outcome.written),
        "removed": len(outcome.removed),
        "rendered": outcome.rendered_outputs,
        "ms": round(outcome.seconds * 1000, 1),
    }


def _print_outcome(outcome: Outcome, first: bool = False) -> None:
    for line in _lines(outcome.errors):
        print(line, file=sys.stderr)
    if outcome.errors:
        print(
            f"Error: {len(outcome.errors)} error(s); still serving the last good site.",
            file=sys.stderr,
            flush=True,
        )
        return
    if first:
        for line in _lines(outcome.warnings[:20]):
            print(line, file=sys.stderr)
        print(f" Files            │ {outcome.files:>6}")
        print(f" Rendered         │ {outcome.rendered_outputs:>6}")
        print(f"Built in {outcome.seconds * 1000:.0f} ms", flush=True)
        return
    later = f" ({outcome.deferred} left to render when asked for)" if outcome.deferred else ""
    print(
        f"Rendered {outcome.rendered_content} page bodies and {outcome.rendered_outputs} outputs"
        f"{later}, wrote {len(outcome.written)} files, removed {len(outcome.removed)}"
    )
    print(f"Total in {outcome.seconds * 1000:.0f} ms", flush=True)
