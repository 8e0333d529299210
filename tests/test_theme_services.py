"""The default theme acts on the config items real Hugo blogs set: Google Analytics (as
Hugo's internal template loads it) and Blowfish's ``params.sitemap.excludedKinds``."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from cli import matome
from hugo_oracle import hugo_binary

GA_ID = "G-TEST12345"
SRC = re.compile(r'<script async src="(https://www\.googletagmanager\.com/gtag/js\?id=[^"]*)">')
CONFIG_ID = re.compile(r"gtag\('config', ['\"]([^'\"]*)['\"]\)")


def site(root: Path, config: str) -> Path:
    (root / "content/posts").mkdir(parents=True)
    (root / "content/posts/a.md").write_text(
        '+++\ntitle = "A"\ndate = 2024-01-02\ntags = ["x"]\n+++\nA.\n', encoding="utf-8"
    )
    (root / "hugo.toml").write_text(
        f'baseURL = "https://example.org/"\ntitle = "T"\n{config}', encoding="utf-8"
    )
    return root


def built(root: Path, *flags: str) -> Path:
    out = root.parent / f"{root.name}-out"
    result = matome("build", "-s", str(root), "-d", str(out), *flags)
    assert result.returncode == 0, result.stderr
    return out


def hugo_tag(tmp_path: Path, config: str) -> tuple[str, str] | None:
    """What Hugo's own internal template writes for this config: the script's src and id."""
    root = site(tmp_path / "hugo", config)
    (root / "layouts").mkdir()
    (root / "layouts/single.html").write_text('{{ template "_internal/google_analytics.html" . }}')
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO_")}
    cmd = [hugo_binary(), "-s", str(root), "-d", str(root / "public"), "--noBuildLock"]
    subprocess.run(cmd, check=True, capture_output=True, env=env, timeout=120)
    page = root / "public/posts/a/index.html"
    # Hugo writes no file for a page whose template printed nothing.
    return tag(page.read_text(encoding="utf-8")) if page.exists() else None


def tag(html: str) -> tuple[str, str] | None:
    src, config_id = SRC.search(html), CONFIG_ID.search(html)
    return (src.group(1), config_id.group(1)) if src and config_id else None


def test_google_analytics_tag_as_hugo_writes_it(tmp_path):
    for config in (
        f'googleAnalytics = "{GA_ID}"\n',
        f'[services.googleAnalytics]\nid = "{GA_ID}"\n',
    ):
        expected = hugo_tag(tmp_path / "h", config)
        assert expected == (f"https://www.googletagmanager.com/gtag/js?id={GA_ID}", GA_ID)
        out = built(site(tmp_path / "m", config))
        for page in ("index.html", "posts/a/index.html", "tags/x/index.html"):
            assert tag((out / page).read_text(encoding="utf-8")) == expected, page
        for made in (tmp_path / "h", tmp_path / "m", out):
            subprocess.run(["rm", "-rf", str(made)], check=True)


def test_no_google_analytics_in_development_when_disabled_or_universal(tmp_path):
    config = f'googleAnalytics = "{GA_ID}"\n'
    out = built(site(tmp_path / "dev", config), "--environment", "development")
    assert tag((out / "posts/a/index.html").read_text(encoding="utf-8")) is None
    for name, extra in (
        ("off", f"{config}[privacy.googleAnalytics]\ndisable = true\n"),
        ("ua", 'googleAnalytics = "UA-1234-5"\n'),
    ):
        assert hugo_tag(tmp_path / f"h-{name}", extra) is None
        out = built(site(tmp_path / name, extra))
        assert tag((out / "posts/a/index.html").read_text(encoding="utf-8")) is None


def test_sitemap_leaves_out_blowfishs_excluded_kinds(tmp_path):
    root = site(tmp_path / "s", "")
    # As the real blog (Blowfish) sets it: in config/_default/params.toml.
    (root / "config/_default").mkdir(parents=True)
    (root / "config/_default/params.toml").write_text(
        '[sitemap]\n  excludedKinds = ["taxonomy", "term"]\n', encoding="utf-8"
    )
    out = built(root)
    urls = re.findall(r"<loc>([^<]+)</loc>", (out / "sitemap.xml").read_text(encoding="utf-8"))
    assert "https://example.org/posts/a/" in urls and "https://example.org/posts/" in urls
    assert not [u for u in urls if "/tags/" in u or "/categories/" in u], urls
    full = built(site(tmp_path / "all", ""))
    assert "https://example.org/tags/x/" in (full / "sitemap.xml").read_text(encoding="utf-8")
