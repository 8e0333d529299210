"""The build cache on a site in two languages: an edit in one language renders again what
shows it there, and every warm build's output is byte for byte a cold build's.

Reads of ``site`` are kept per language (``@site`` for the default, ``@site:fr`` for
French): French lists read the French site's pages, so a French article added or
retitled reaches them, and English files that show none of it are left as they are.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from matome.build import build
from matome.config import Flags

ARTICLES = 12


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def article(title: str, day: int, body: str) -> str:
    return (
        f"+++\ntitle = '{title}'\ndate = 2025-03-{day:02d}T10:00:00+09:00\n"
        f"tags = ['t{day % 3}']\n+++\n{body}\n"
    )


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    write(
        root / "hugo.toml",
        'baseURL = "https://example.org/"\ndefaultContentLanguage = "en"\n'
        "[pagination]\n  pagerSize = 5\n[taxonomies]\n  tag = 'tags'\n"
        "[params]\n  mainSections = ['posts']\n"
        "[languages.en]\n  weight = 1\n  title = 'English site'\n"
        "[languages.fr]\n  weight = 2\n  title = 'Site français'\n",
    )
    for n in range(1, ARTICLES + 1):
        write(root / f"content/posts/p{n:02d}/index.md", article(f"Post {n}", n, f"Body {n}"))
        if n % 2:
            write(
                root / f"content/posts/p{n:02d}/index.fr.md",
                article(f"Billet {n}", n, f"Corps {n}"),
            )
    # A French page shows another French page's title through a shortcode.
    write(
        root / "templates/shortcodes/title-of.html",
        "<cite>{{ get_page(shortcode.get(0)).title }}</cite>",
    )
    write(
        root / "content/posts/p01/index.fr.md",
        article("Billet 1", 1, 'Voir : {{< title-of "/posts/p03" >}}'),
    )
    # A shortcode that prints how many pages the page's language has.
    write(root / "templates/shortcodes/count.html", "{{ site.regular_pages|length }} pages")
    write(root / "content/posts/p02/index.md", article("Post 2", 2, "Count: {{< count >}}"))
    write(root / "content/posts/p03/index.fr.md", article("Billet 3", 3, "Compte : {{< count >}}"))
    return root


def run(site: Path, out: Path, *, cache: bool = True):
    return build(site, Flags(destination=str(out)), jobs=2, read_cache=cache)


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def assert_same_as_cold(site: Path, warm_out: Path, tmp_path: Path) -> None:
    cold_out = tmp_path / "cold"
    run(site, cold_out, cache=False)
    warm, cold = tree(warm_out), tree(cold_out)
    assert warm.keys() == cold.keys()
    differing = [path for path in warm if warm[path] != cold[path]]
    assert not differing, differing[:10]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture
def built(site: Path, tmp_path: Path) -> tuple[Path, Path]:
    out = tmp_path / "public"
    run(site, out)
    assert "Billet 3" in (out / "fr/posts/p01/index.html").read_text(encoding="utf-8")
    return site, out


def stamps(out: Path, prefix: str) -> dict[str, int]:
    return {
        p.relative_to(out).as_posix(): p.stat().st_mtime_ns
        for p in out.rglob("*.html")
        if p.relative_to(out).as_posix().startswith(prefix)
    }


def english(out: Path) -> dict[str, int]:
    return {k: v for k, v in stamps(out, "").items() if not k.startswith("fr/")}


def test_a_french_title_edit_reaches_french_pages_only(built, tmp_path):
    site, out = built
    before = english(out)
    edit(site / "content/posts/p03/index.fr.md", "Billet 3", "Billet trois")
    report = run(site, out)
    assert 0 < report.rendered_outputs < 30
    assert "Billet trois" in (out / "fr/posts/p03/index.html").read_text(encoding="utf-8")
    assert "Billet trois" in (out / "fr/posts/p01/index.html").read_text(encoding="utf-8")
    assert "Billet trois" in (out / "fr/index.html").read_text(encoding="utf-8")
    # English pages show no French title: the English home and lists are not written again.
    after = english(out)
    assert after["index.html"] == before["index.html"]
    assert after["posts/index.html"] == before["posts/index.html"]
    assert_same_as_cold(site, out, tmp_path)


def test_a_french_body_edit_renders_one_body(built, tmp_path):
    site, out = built
    edit(site / "content/posts/p05/index.fr.md", "Corps 5", "Corps cinq")
    report = run(site, out)
    assert report.graph_kept and report.rendered_content == 1
    assert "Corps cinq" in (out / "fr/posts/p05/index.html").read_text(encoding="utf-8")
    assert_same_as_cold(site, out, tmp_path)


def test_a_new_french_article_reaches_the_french_lists(built, tmp_path):
    """A body that counts its site's pages reads ``site`` of its language (``@site:fr``
    for French): a new French article renders the French count again, not the English."""
    site, out = built
    assert "Compte : 6 pages" in (out / "fr/posts/p03/index.html").read_text(encoding="utf-8")
    write(site / "content/posts/p12/index.fr.md", article("Billet 12", 12, "Corps 12"))
    report = run(site, out)
    assert report.rendered_content == 2  # the new article and the French count
    assert "Compte : 7 pages" in (out / "fr/posts/p03/index.html").read_text(encoding="utf-8")
    assert "Count: 12 pages" in (out / "posts/p02/index.html").read_text(encoding="utf-8")
    assert "Billet 12" in (out / "fr/posts/index.html").read_text(encoding="utf-8")
    assert "Billet 12" in (out / "fr/index.html").read_text(encoding="utf-8")
    assert (out / "fr/posts/p12/index.html").is_file()
    assert_same_as_cold(site, out, tmp_path)


def test_an_english_edit_leaves_french_pages_that_do_not_show_it(built, tmp_path):
    site, out = built
    before = stamps(out, "fr/")
    edit(site / "content/posts/p12/index.md", "Post 12", "Post twelve")
    run(site, out)
    assert "Post twelve" in (out / "index.html").read_text(encoding="utf-8")
    after = stamps(out, "fr/")
    assert after["fr/index.html"] == before["fr/index.html"]
    assert_same_as_cold(site, out, tmp_path)
