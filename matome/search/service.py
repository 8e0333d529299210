"""A ``pagefind --service`` process, spoken to directly.

The service is what Pagefind's own Python and Node APIs drive: requests and answers
are JSON, base64-encoded, each ended by a comma, on the process's stdin and stdout.
Its Python API (``pagefind.index``) waits a tenth of a second before reading each
answer, one per article; here the records are written in one go and the answers read
as they come. The service indexes one request at a time: a build runs a process per
bundle, up to one per core.
"""

from __future__ import annotations

import base64
import contextlib
import importlib.util
import json
import os
import shutil
import subprocess
import tempfile


class PagefindError(Exception):
    """Pagefind could not be started, failed, or answered with an error."""


def pagefind_binary() -> str | None:
    """The binary Pagefind's own wrappers run: ``PAGEFIND_BINARY_PATH``, else the one in
    the ``pagefind_bin_extended`` (or ``pagefind_bin``) package, else one on the PATH.
    Found here rather than with ``pagefind.service.get_executable``, whose module imports
    asyncio (and ssl) first: a tenth of a second of every build that indexes."""
    found = os.environ.get("PAGEFIND_BINARY_PATH")
    if found:
        return found
    for package, names in (
        ("pagefind_bin_extended", ("pagefind_extended", "pagefind")),
        ("pagefind_bin", ("pagefind",)),
    ):
        spec = importlib.util.find_spec(package)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            for name in names:
                for suffix in ("", ".exe"):
                    if os.path.isfile(path := os.path.join(folder, name + suffix)):
                        return path
    return shutil.which("pagefind_extended") or shutil.which("pagefind")


class PagefindService:
    def __init__(self) -> None:
        binary = pagefind_binary()
        if binary is None:
            raise PagefindError(_NOT_INSTALLED)
        # What it prints besides answers (warnings, a panic) goes to a file, for the
        # error message: in its stdout it would break the answers, in an unread pipe it
        # could block it.
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        try:
            self._process = subprocess.Popen(
                [binary, "--service"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
            )
        except OSError as e:
            self._stderr.close()
            raise PagefindError(f"Pagefind did not start ({binary}): {e}") from None
        self._sent = 0
        self._buffer = b""

    def send(self, payload: dict) -> None:
        """Queue a request; its answer comes, in order, from ``receive``."""
        self._sent += 1
        # A character UTF-8 cannot hold (a lone surrogate) becomes "?": Pagefind drops a
        # request it cannot read without an answer, and its answer would never come.
        request = {"message_id": self._sent, "payload": payload}
        message = json.dumps(request, ensure_ascii=False).encode("utf-8", "replace")
        try:
            self._process.stdin.write(base64.b64encode(message) + b",")
        except OSError:
            raise self._failure("stopped while it was sent a request") from None

    def receive(self, expected: str) -> dict:
        """The next answer, which must be of type ``expected``."""
        try:
            self._process.stdin.flush()
        except OSError:
            raise self._failure("stopped while it was sent a request") from None
        while b"," not in self._buffer:
            chunk = self._process.stdout.read1(1 << 16)
            if not chunk:
                raise self._failure("stopped before it answered")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b",")
        try:
            payload = json.loads(base64.b64decode(message))["payload"]
        except (ValueError, KeyError, TypeError):
            raise self._failure(f"answered what is not its protocol: {message[:80]!r}") from None
        if payload.get("type") == "Error":
            raise PagefindError(f"Pagefind: {payload.get('message') or payload}")
        if payload.get("type") != expected:
            raise PagefindError(f"Pagefind answered {payload.get('type')!r}, not {expected!r}")
        return payload

    def call(self, payload: dict, expected: str) -> dict:
        self.send(payload)
        return self.receive(expected)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._process.stdin.close()  # the service exits at the end of its input
        try:  # it finishes writing its files before it exits: a large bundle takes a while
            self._process.wait(timeout=300)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._process.stdout.close()
        self._stderr.close()

    def _failure(self, what: str) -> PagefindError:
        try:  # its output has ended: it is exiting
            code = self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        self._stderr.seek(0)
        lines = self._stderr.read().decode(errors="replace").strip().splitlines()[-5:]
        detail = f" (exit status {code})" if code is not None else ""
        if lines:
            detail += ": " + " | ".join(lines)
        return PagefindError(f"Pagefind {what}{detail}")


_NOT_INSTALLED = "Pagefind is not installed: pip install 'pagefind[extended]'"
