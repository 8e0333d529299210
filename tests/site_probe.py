"""One small site built by the real ``hugo`` (Go layouts in ``layouts/``) and by matome
(Jinja templates in ``templates/``), for tests that compare what each prints.

Each tool builds its own copy of the site, so neither sees the other's caches
(``resources/_gen``, ``.matome-cache``). Cases are printed between markers
``@@name@@ ... @@end@@`` and read back as ``{name: text}``, HTML entities decoded (Go
templates write ``+`` as ``&#43;``).
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from hugo_oracle import hugo_binary

REPO = Path(__file__).resolve().parent.parent
CASE = re.compile(r"@@([\w.-]+)@@(.*?)@@end@@", re.S)


def write_tree(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")


def build_hugo(site: Path, *flags: str) -> Path:
    src = site.parent / f"{site.name}-hugo"
    shutil.copytree(site, src, dirs_exist_ok=True)
    out = src / "public"
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO_")}
    env["HUGO_CACHEDIR"] = str(site.parent / "hugo-cache")
    cmd = [hugo_binary(), "--source", str(src), "-d", str(out), "--noBuildLock", *flags]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    if done.returncode != 0:
        raise AssertionError(f"hugo failed:\n{done.stdout}\n{done.stderr}")
    return out


def build_matome(site: Path, *flags: str) -> tuple[Path, subprocess.CompletedProcess]:
    src = site.parent / f"{site.name}-matome"
    shutil.copytree(site, src, dirs_exist_ok=True)
    out = src / "public"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    cmd = [sys.executable, "-m", "matome", "build", "-s", str(src), "-d", str(out), *flags]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    if done.returncode != 0:
        raise AssertionError(f"matome failed:\n{done.stdout}\n{done.stderr}")
    return out, done


def cases(text: str) -> dict[str, str]:
    """``{name: printed text}`` of every ``@@name@@ ... @@end@@`` in a page."""
    return {m.group(1): html.unescape(m.group(2)).strip() for m in CASE.finditer(text)}


def go_cases(table: list[tuple[str, str, str]]) -> str:
    return "".join(f"@@{name}@@{go}@@end@@\n" for name, go, _ in table)


def jinja_cases(table: list[tuple[str, str, str]]) -> str:
    return "".join(f"@@{name}@@{jinja}@@end@@\n" for name, _, jinja in table)
