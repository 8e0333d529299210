"""Hugo's embedded shortcodes that tests/test_shortcodes_hugo.py cannot compare with Hugo:
``x``'s privacy settings (Hugo fetches the post from X while building; tests reach no such
host, so both only warn), a site's own
``templates/shortcodes/NAME.html`` overriding a built-in one. Built with ``matome build``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _build(tmp_path: Path, body: str, config: str = "", templates: dict[str, str] | None = None):
    site = tmp_path / "site"
    (site / "content").mkdir(parents=True)
    (site / "hugo.toml").write_text(
        'baseURL = "https://e.org/"\ntitle = "T"\n' + config, encoding="utf-8"
    )
    (site / "content" / "p.md").write_text(f"+++\ntitle = 'p'\n+++\n{body}", encoding="utf-8")
    own = {"_default/single.html": "[{{ page.content }}]", **(templates or {})}
    for name, text in own.items():
        (site / "templates" / name).parent.mkdir(parents=True, exist_ok=True)
        (site / "templates" / name).write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "matome", "build", "-s", str(site), "-d", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    page = out / "p" / "index.html"
    return done, page.read_text(encoding="utf-8") if page.exists() else ""


def test_x_privacy_settings(tmp_path):
    """simple = true asks for the post without X's script (x_simple), enableDNT asks X not
    to track; disable = true asks nothing and prints nothing."""
    config = "[privacy.x]\n  enableDNT = true\n  simple = true\n"
    done, page = _build(tmp_path / "a", '{{< x user="u" id="1" >}}\n', config)
    assert done.returncode == 0, done.stderr
    assert 'content/p.md:4:1: warning: The "x" shortcode was unable to retrieve' in done.stderr
    assert (
        "oembed?dnt=true&omit_script=true&url=https%3A%2F%2Fx.com%2Fu%2Fstatus%2F1" in done.stderr
    )
    done, page = _build(
        tmp_path / "b", 'A {{< x user="u" id="1" >}} B\n', "[privacy.x]\ndisable = true\n"
    )
    assert done.returncode == 0, done.stderr
    assert "twitter" not in page and "A" in page and "warning" not in done.stderr


def test_a_sites_own_template_overrides_a_built_in_shortcode(tmp_path):
    own = {"shortcodes/youtube.html": "own player for {{ shortcode.get(0) }}"}
    done, page = _build(tmp_path, "{{< youtube abc >}}\n", templates=own)
    assert done.returncode == 0, done.stderr
    assert "own player for abc" in page and "iframe" not in page


def test_gist_is_refused_with_hugos_message(tmp_path):
    done, _ = _build(tmp_path, "Intro.\n\n{{< gist spf13 7896402 >}}\n")
    assert done.returncode == 1
    assert (
        'content/p.md:6:1: error: gist: The "gist" shortcode was deprecated in v0.143.0 and '
        "removed in v0.156.0." in done.stderr
    ), done.stderr
