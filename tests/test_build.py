"""``matome build`` end to end: the demo site, Hugo-style sites, and bad input."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli import matome
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup, escape

from matome.render.go_values import finalize

REPO = Path(__file__).resolve().parent.parent


def tree_digest(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    out = tmp_path_factory.mktemp("demo") / "public"
    result = matome("build", "-s", str(REPO), "-d", str(out))
    return result, out


def test_demo_site_builds_with_a_summary(demo):
    result, out = demo
    assert result.returncode == 0, result.stderr
    for row in ("Pages", "Paginator pages", "Static files", "Aliases", "Total in"):
        assert row in result.stdout
    assert (out / "index.html").is_file()
    assert (out / "sitemap.xml").is_file()
    assert (out / "robots.txt").read_text().startswith("User-agent: *")


def test_page_without_front_matter_warns_and_takes_its_title_from_the_first_line(demo):
    result, out = demo
    assert (
        "content/posts/notes/tensorflow-vs-pytorch.md:1:1: warning: no front matter"
        in result.stderr
    )
    first_line = (REPO / "content/posts/notes/tensorflow-vs-pytorch.md").read_text().split("\n")[0]
    page = (out / "posts/notes/tensorflow-vs-pytorch/index.html").read_text()
    assert f"<h1>{first_line}</h1>" in page
    # The title line is not repeated as the body's first paragraph.
    assert page.count(first_line) <= 3  # <title>, og:title, <h1>


@pytest.mark.parametrize(
    "article",
    sorted(
        p.relative_to(REPO / "content").parent.as_posix()
        for p in (REPO / "content").rglob("index.md")
    ),
)
def test_every_matome_quote_becomes_one_comment(demo, article):
    _, out = demo
    source = (REPO / "content" / article / "index.md").read_text()
    html = (out / article / "index.html").read_text()
    assert source.count("{{<matomeQuote") > 0
    assert html.count('<article class="comment"') == source.count("{{<matomeQuote")


def test_articles_keep_their_hugo_urls_and_terms(demo):
    _, out = demo
    assert (out / "posts/2025_11/2025_11_07_leaving_meta_and_pytorch/index.html").is_file()
    assert (out / "months/2025/11/index.html").is_file()
    assert (out / "tags/pytorch/index.html").is_file()
    assert (out / "tags/page/1/index.html").read_text().count('http-equiv="refresh"') == 1


def test_ref_shortcode_links_to_the_section(demo):
    _, out = demo
    html = (out / "posts/2025_11/2025_11_07_leaving_meta_and_pytorch/index.html").read_text()
    assert '<a href="https://example.org/posts/">記事一覧へ</a>' in html


def write(path: Path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def small_site(tmp_path) -> Path:
    site = tmp_path / "site"
    write(site / "hugo.toml", 'baseURL = "https://e.org/"\ntitle = "E"\n')
    write(site / "content/posts/good.md", '+++\ntitle = "Good"\ndate = 2025-01-01\n+++\nhello\n')
    return site


BROKEN = {
    "bad-toml.md": ('+++\ntitle = "bad\ndate = 2025-01-01\n+++\nx\n', 2, "invalid TOML"),
    "bad-yaml.md": ("---\ntitle: ok\ntags: [unclosed\n---\nx\n", 3, "invalid YAML"),
    "bad-json.md": ('{"title": "j",\n "date": }\nbody\n', 2, "invalid JSON"),
    "bad-date.md": ('+++\ntitle = "d"\ndate = "2025-13-45"\n+++\nx\n', 3, "unable to parse date"),
    "bad-utf8.md": (b'+++\ntitle = "u"\n+++\n\xff\xfe bad\n', 4, "not valid UTF-8"),
    "binary.md": (b"\x00\x01\x02binary", 0, "binary file"),
    "bad-shortcode.md": ('+++\ntitle = "s"\n+++\ntext\n{{< nosuch >}}\n', 5, "unknown shortcode"),
    "unclosed-fm.md": ("+++\ntitle = 'x'\n", 1, "never closed"),
}


def test_every_broken_file_is_reported_once_and_nothing_is_published(small_site):
    first = matome("build", "-s", str(small_site))
    assert first.returncode == 0, first.stderr
    before = tree_digest(small_site / "public")
    for name, (text, _, _) in BROKEN.items():
        write(small_site / "content/posts" / name, text)
    result = matome("build", "-s", str(small_site))
    assert result.returncode == 1
    expected = {name: (line, msg) for name, (_, line, msg) in BROKEN.items()}
    for name, (line, message) in expected.items():
        pattern = rf"^content/posts/{re.escape(name)}:{line}:\d+: error: .*{re.escape(message)}"
        assert re.search(pattern, result.stderr, re.M), f"{name}: {result.stderr}"
    assert len(re.findall(r": error: ", result.stderr)) == len(expected), result.stderr
    assert tree_digest(small_site / "public") == before
    assert not list(small_site.glob(".public.*")), "staging folder left behind"


def test_a_draft_that_is_not_a_boolean_is_published_with_a_warning(small_site):
    # Hugo reads draft = "maybe" as false, without a word; matome says where it is.
    write(small_site / "content/posts/maybe.md", '+++\ntitle = "s"\ndraft = "maybe"\n+++\n')
    result = matome("build", "-s", str(small_site))
    assert result.returncode == 0, result.stderr
    assert "content/posts/maybe.md:3:1: warning: draft: 'maybe' is not true or false" in (
        result.stderr
    )
    assert (small_site / "public/posts/maybe/index.html").is_file()


def test_content_files_are_never_rewritten(small_site):
    before = tree_digest(small_site / "content")
    assert matome("build", "-s", str(small_site)).returncode == 0
    assert tree_digest(small_site / "content") == before


def test_hugo_layouts_and_missing_theme_are_ignored_with_one_notice(small_site):
    write(small_site / "layouts/_default/single.html", "{{ .Content | nosuchfunc }}")
    write(
        small_site / "hugo.toml", 'baseURL = "https://e.org/"\ntheme = "blowfish"\nunknownKey = 3\n'
    )
    result = matome("build", "-s", str(small_site))
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("Hugo layouts and themes are not used") == 1
    assert "nosuchfunc" not in (small_site / "public/posts/good/index.html").read_text()


def test_rebuild_with_clean_destination_removes_only_stale_files(small_site):
    assert matome("build", "-s", str(small_site)).returncode == 0
    write(small_site / "public/stale.txt", "old")
    assert matome("build", "-s", str(small_site)).returncode == 0
    assert (small_site / "public/stale.txt").exists(), "without the flag, Hugo keeps stale files"
    result = matome("build", "-s", str(small_site), "--cleanDestinationDir")
    assert result.returncode == 0
    assert not (small_site / "public/stale.txt").exists()
    assert (small_site / "public/posts/good/index.html").exists()


def test_unchanged_files_keep_their_mtime(small_site):
    assert matome("build", "-s", str(small_site)).returncode == 0
    page = small_site / "public/posts/good/index.html"
    mtime = page.stat().st_mtime_ns
    assert matome("build", "-s", str(small_site)).returncode == 0
    assert page.stat().st_mtime_ns == mtime


def test_environment_flag_and_variable_select_config(small_site):
    write(small_site / "config/staging/hugo.toml", 'title = "Staging title"\n')
    assert matome("build", "-s", str(small_site), "-e", "staging").returncode == 0
    assert "Staging title" in (small_site / "public/index.html").read_text()
    assert matome("build", "-s", str(small_site)).returncode == 0
    assert "Staging title" not in (small_site / "public/index.html").read_text()
    env = {**os.environ, "HUGO_ENVIRONMENT": "staging"}
    result = subprocess.run(
        [sys.executable, "-m", "matome", "build", "-s", str(small_site)],
        env=env,
        capture_output=True,
    )
    assert result.returncode == 0
    assert "Staging title" in (small_site / "public/index.html").read_text()


def test_python_dash_m_and_console_script_agree():
    script = shutil.which("matome")
    assert script, "the matome console script is not installed"
    out = subprocess.run([script, "--version"], capture_output=True, text=True)
    assert out.stdout.strip() == matome("--version").stdout.strip()


@pytest.mark.parametrize("example", ["hugo-style", "yaml-site"])
def test_examples_build(tmp_path, example):
    result = matome("build", "-s", str(REPO / "examples" / example), "-d", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    sources = [p for p in (REPO / "examples" / example / "content").rglob("*.md")]
    articles = [p for p in sources if "matomeQuote" in p.read_text()]
    assert articles
    for source in articles:
        rel = source.relative_to(REPO / "examples" / example / "content")
        folder = rel.parent if source.name == "index.md" else rel.with_suffix("")
        html = (tmp_path / "out" / folder / "index.html").read_text()
        assert html.count('<article class="comment"') == source.read_text().count("matomeQuote")


def test_template_calls_give_what_plain_jinja_gives(tmp_path):
    """matome's quicker ``Context.call`` must not change what a call gets or returns."""
    import jinja2

    from matome.render.environment import make_environment

    source = """
{%- macro row(x) %}[{{ x }}{% if caller %}:{{ caller() }}{% endif %}]{% endmacro -%}
{%- set ns = namespace(n=0) -%}
{%- for item in items %}{{ row(item) }}{% call row(item) %}{{ loop.index }}{% endcall %}
{%- set ns.n = ns.n + item | length %}{{ ctx_name() }}{{ env_flag() }}{{ box.get(item, "?") }}
{%- endfor %}{{ ns.n }}{{ stop() }}{{ cycle.next() }}{{ cycle.next() }}
{%- block b %}{% for i in range(2) %}{{ ctx_name() }}{{ row(i) }}{% endfor %}{% endblock %}"""

    @jinja2.pass_context
    def ctx_name(context):
        return context.get("who", "none")

    @jinja2.pass_environment
    def env_flag(environment):
        return environment.autoescape is not False

    def stop():
        raise StopIteration

    values = dict(
        items=["a", "bb"],
        who="me",
        box={"a": 1},
        ctx_name=ctx_name,
        env_flag=env_flag,
        stop=stop,
        cycle=jinja2.utils.Cycler("x", "y"),
    )
    plain = jinja2.Environment(
        undefined=jinja2.ChainableUndefined, autoescape=True, finalize=finalize
    )
    expected = plain.from_string(source).render(values)
    values["cycle"] = jinja2.utils.Cycler("x", "y")
    ours = make_environment(tmp_path).from_string(source).render(values)
    assert ours == expected
    assert "[a:1]" in ours and "metrue1" in ours and ours.count("me") == 4


def test_quicker_template_contexts_see_the_globals_and_variables_jinjas_do(tmp_path):
    """matome's ``new_context`` copies the globals dict to dict: a template's own global
    still wins over the environment's, a render variable over both, and a global added
    to the environment after the template was loaded is seen."""
    import jinja2

    from matome.render.environment import make_environment

    source = "{{ a }} {{ b }} {{ c }} {{ later | default('-') }} {{ self_name() }}"

    @jinja2.pass_context
    def self_name(context):
        return f"{context.name}:{sorted(k for k in context.parent if len(k) == 1)}"

    def render(env: jinja2.Environment) -> list[str]:
        env.globals.update(a="env-a", b="env-b", c="env-c", self_name=self_name)
        env.loader = jinja2.DictLoader({"t.html": source})
        template = env.get_template("t.html", globals={"b": "own-b"})
        out = [template.render(), template.render(c="var-c", b="var-b")]
        env.globals["later"] = "added"
        out.append(template.render())
        return out

    plain = jinja2.Environment(
        undefined=jinja2.ChainableUndefined, autoescape=True, finalize=finalize
    )
    ours = render(make_environment(tmp_path))
    assert ours == render(plain)
    assert ours[0].startswith("env-a own-b env-c - t.html:")
    assert ours[1].startswith("env-a var-b var-c")
    assert ours[2].startswith("env-a own-b env-c added")


def test_a_logged_render_reads_dict_keys_and_methods_as_jinja_does(tmp_path):
    """The read log's ``getattr`` takes a dict's key without Jinja's failed attribute
    lookup first, but a dict's methods still win over its keys (``d.items``), and a
    missing key is Jinja's undefined."""
    import jinja2

    from matome.incremental.reads import ReadLog, instrument
    from matome.render.environment import make_environment

    source = (
        "{{ d.title }} {{ d.items is callable }} {{ d.get('title') }} "
        "[{{ d.missing }}] [{{ d.missing.deeper }}] {{ d.none is none }}"
    )
    d = {"title": "t", "items": "not a method", "none": None}
    plain = jinja2.Environment(
        undefined=jinja2.ChainableUndefined, autoescape=True, finalize=finalize
    )
    ours = make_environment(tmp_path)
    log = ReadLog()
    instrument(ours, log)
    log.begin()
    got = ours.from_string(source).render(d=d)
    log.end()
    assert got == plain.from_string(source).render(d=d) == "t true t [] [] true"


def test_quicker_includes_and_imports_see_the_names_jinjas_do(tmp_path):
    """An include (a shared context, with the loop's and block's variables as locals) and
    an import see the same variables and global names in matome's contexts as in
    Jinja's, before and after a global is added to the environment (matome keeps the
    names until a map grows)."""
    import jinja2

    from matome.render.environment import make_environment

    templates = {
        "page.html": (
            "{% import 'm.html' as m %}{% set x = 'set-x' %}"
            "{% for i in [1, 2] %}{% include 'part.html' %}{% endfor %}|{{ m.show() }}"
        ),
        "part.html": "[{{ i }} {{ x }} {{ a }} {{ names() }}]",
        "m.html": "{% macro show() %}{{ a }} {{ later | default('-') }}{% endmacro %}",
    }

    @jinja2.pass_context
    def names(context):
        return ",".join(sorted(k for k in context.globals_keys if k in ("a", "later")))

    def render(env: jinja2.Environment) -> list[str]:
        env.globals.update(a="env-a", names=names)
        env.loader = jinja2.DictLoader(templates)
        out = [env.get_template("page.html").render(a="var-a")]
        env.globals["later"] = "added"
        out.append(env.get_template("page.html").render())
        return out

    plain = jinja2.Environment(
        undefined=jinja2.ChainableUndefined, autoescape=True, finalize=finalize
    )
    ours = render(make_environment(tmp_path))
    assert ours == render(plain)
    assert ours[0] == "[1 set-x var-a a][2 set-x var-a a]|env-a -"
    # The module Jinja made at the first import is used again: it has no ``later``.
    assert ours[1] == "[1 set-x env-a a,later][2 set-x env-a a,later]|env-a -"


@given(
    st.lists(
        st.one_of(
            st.text(alphabet=st.sampled_from("a<>&'\"日 b;#")),
            st.text(alphabet=st.sampled_from("a<>&'\"日 b;#")).map(Markup),
            st.integers(),
            st.none(),
        ),
        max_size=6,
    )
)
def test_autoescaped_output_writes_what_jinjas_escape_writes(values):
    """``{{ }}`` in matome's templates escapes through ``output_escape``, which returns
    text that needs no escaping as it is: the page must come out as plain Jinja makes it."""
    import jinja2

    from matome.render.environment import make_environment
    from matome.render.jinja_internals import output_escape

    for value in values:
        assert str(output_escape(value)) == str(escape(value))
    source = "{% for v in values %}<{{ v }}|{{ v ~ '&' }}>{% endfor %}{{ missing.x }}{{ values }}"
    plain = jinja2.Environment(
        undefined=jinja2.ChainableUndefined, autoescape=True, finalize=finalize
    )
    ours = make_environment(Path("."))
    ours.loader = plain.loader = jinja2.DictLoader({"t.html": source})
    expected = plain.get_template("t.html").render(values=values)
    assert ours.get_template("t.html").render(values=values) == expected


def test_xml_text_replaces_only_what_xml_forbids_and_keeps_the_type():
    from markupsafe import Markup

    from matome.render.functions import xml_text

    every_control = "".join(map(chr, range(32)))
    assert xml_text(every_control) == "\ufffd" * 9 + "\t\n\ufffd\ufffd\r" + "\ufffd" * 18
    assert xml_text("日本\x7f\x85 <b>") == "日本\x7f\x85 <b>"  # XML 1.0 allows these
    assert type(xml_text(Markup("<p>a\x08</p>"))) is Markup
    assert xml_text(Markup("<p>a\x08</p>")) == Markup("<p>a\ufffd</p>")
    assert xml_text(3) == "3"
