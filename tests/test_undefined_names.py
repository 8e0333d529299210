"""A name a template reads that does not exist: a warning with the template's path, line and
column, once per template and name in a build (from the worker processes too), again in
every later build until it is fixed, and an error with ``matome build --strict``. Hugo is
the reference for what counts: it fails on a field a page lacks and prints nothing for a
missing params key."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from cli import matome
from hugo_oracle import hugo_binary

SINGLE = """\
<p>{{ page.title }}</p>
<p>[{{ page.foo }}] [{{ page.params.missing }}]</p>
{% if page.params.a.b %}chained{% endif %}
[{{ nothere }}] [{{ page.bar | default("kept") }}]{% if page.baz is defined %}no{% endif %}
{%- if page.qux is undefined %}[tested]{% endif %}
[{{ site.data.x.y }}]
"""

# A list page and a shortcode with one undefined name each.
LIST = "{% for p in page.pages %}{{ p.title }}{% endfor %}{{ page.nope }}\n"
SHORTCODE = "<b>{{ shortcode.get(0) }}{{ shortcode.nothing }}</b>"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def make_site(root: Path, articles: int) -> Path:
    write(root / "hugo.toml", 'baseURL = "https://example.org/"\ntitle = "T"\n')
    write(root / "templates/_default/single.html", SINGLE)
    write(root / "templates/_default/list.html", LIST)
    write(root / "templates/shortcodes/sc.html", SHORTCODE)
    for i in range(articles):
        body = '{{< sc "x" >}}\n' if i == 0 else "text\n"
        write(
            root / f"content/posts/p{i:03}.md",
            f'+++\ntitle = "P{i}"\ndate = 2025-01-{1 + i % 28:02}\n[params]\nx = 1\n+++\n{body}',
        )
    return root


def warnings(stderr: str) -> list[tuple[str, str]]:
    return re.findall(r"^(\S+): warning: (.*)$", stderr, re.M)


def errors(stderr: str) -> list[tuple[str, str]]:
    return re.findall(r"^(\S+): error: (.*)$", stderr, re.M)


EXPECTED = [
    ("templates/_default/list.html:1:54", "'page.nope' is undefined"),
    ("templates/_default/single.html:2:8", "'page.foo' is undefined"),
    ("templates/_default/single.html:3:7", "'page.params.a' is undefined"),
    ("templates/_default/single.html:4:5", "'nothere' is undefined"),
    ("templates/_default/single.html:6:5", "'site.data.x' is undefined"),  # site.data is {}
    ("templates/shortcodes/sc.html:1:29", "'shortcode.nothing' is undefined"),
]


def test_each_undefined_name_warns_once_with_its_place_from_the_workers(tmp_path):
    site = make_site(tmp_path / "site", 100)  # enough files for the worker processes
    done = matome("build", "-s", str(site), "-j", "2")
    assert done.returncode == 0, done.stderr
    assert sorted(warnings(done.stderr)) == EXPECTED
    # Rendered as before: an undefined name prints nothing, a key a mapping lacks too.
    html = (site / "public/posts/p001/index.html").read_text()
    assert html == "<p>P1</p>\n<p>[] []</p>\n\n[] [kept][tested]\n[]\n"


def test_a_later_build_warns_again_and_a_fix_ends_the_warning(tmp_path):
    site = make_site(tmp_path / "site", 3)
    first = matome("build", "-s", str(site))
    again = matome("build", "-s", str(site))  # nothing changed: the last build's report
    write(site / "content/posts/p002.md", '+++\ntitle = "P2"\n+++\nedited\n')
    edited = matome("build", "-s", str(site))  # a kept graph, one body rendered again
    assert sorted(warnings(first.stderr)) == EXPECTED
    assert sorted(warnings(again.stderr)) == EXPECTED
    assert sorted(warnings(edited.stderr)) == EXPECTED
    write(site / "templates/_default/single.html", "<p>{{ page.title }}</p>\n")
    fixed = matome("build", "-s", str(site))
    assert sorted(warnings(fixed.stderr)) == [EXPECTED[0], EXPECTED[-1]]


def test_strict_makes_them_errors_and_publishes_nothing(tmp_path):
    site = make_site(tmp_path / "site", 3)
    done = matome("build", "-s", str(site), "--strict")
    assert done.returncode == 1
    # The page bodies come first: the build stops after them.
    assert errors(done.stderr) == [EXPECTED[-1]]
    assert not (site / "public").exists()
    write(site / "templates/shortcodes/sc.html", "{{ shortcode.get(0) }}")
    done = matome("build", "-s", str(site), "--strict")
    assert done.returncode == 1
    # Each render stops at its first undefined name; the same error is printed once.
    assert errors(done.stderr) == [EXPECTED[0], EXPECTED[1]]
    assert not (site / "public").exists()
    # A build that found nothing changed fails on the last build's warnings too.
    assert matome("build", "-s", str(site)).returncode == 0
    assert matome("build", "-s", str(site), "--strict").returncode == 1


def test_a_site_without_undefined_names_builds_strict(tmp_path):
    site = make_site(tmp_path / "site", 3)
    write(site / "templates/_default/single.html", "{{ page.params.missing }}{{ page.title }}")
    write(site / "templates/_default/list.html", "{{ page.title }}")
    write(site / "templates/shortcodes/sc.html", "{{ shortcode.get(0) }}")
    done = matome("build", "-s", str(site), "--strict")
    assert done.returncode == 0, done.stderr
    assert warnings(done.stderr) == []


def test_hugo_fails_on_a_missing_field_and_prints_nothing_for_a_missing_key(tmp_path):
    """The reference for the two kinds: Hugo's own behaviour on the same names."""
    site = tmp_path / "hugo"
    write(site / "hugo.toml", 'baseURL = "https://example.org/"\ndisableKinds = ["rss"]\n')
    write(site / "content/a.md", '+++\ntitle = "A"\n+++\n')
    write(site / "layouts/home.html", "home")
    write(site / "layouts/list.html", "list")
    write(site / "layouts/single.html", "[{{ .Params.missing }}][{{ .Params.a.b }}]")
    cmd = [hugo_binary(), "--source", str(site), "--noBuildLock"]
    ok = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert (site / "public/a/index.html").read_text() == "[][]"
    write(site / "layouts/single.html", "[{{ .Page.foo }}]")
    failed = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert failed.returncode != 0
    assert "can't evaluate field foo" in failed.stdout + failed.stderr
