"""Front matter through matome's python-frontmatter handlers: errors at the file's own
``line:col`` for TOML, YAML and JSON (Hugo fails on the same files), and data written by
the handlers' ``export`` reads back the same."""

from __future__ import annotations

import subprocess
import tomllib
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import frontmatter
import pytest
import tomli_w
from hugo_oracle import hugo_binary
from hypothesis import example, given, settings
from hypothesis import strategies as st

from matome.config import load_config
from matome.content.frontmatter import (
    HANDLERS,
    FrontMatter,
    JSONHandler,
    TOMLHandler,
    YAMLHandler,
    front_matter_text,
    split_front_matter,
)
from matome.errors import SourceError
from matome.hn import ImportOptions, Thread, render_article
from matome.new import new_site

# (file text, the error matome reports, whether Hugo 0.168 fails on the file too)
BROKEN = [
    ("+++\ntitle = 'a'\n", "1:1: front matter opened with +++ is never closed", True),
    ("+++ \r\ntitle = 'a'\r\n", "1:1: front matter opened with +++ is never closed", True),
    ("+++x\ntitle = 'a'\n+++\n", "1:1: front matter opened with +++ is never closed", True),
    ("+++", "1:1: front matter opened with +++ is never closed", True),
    ("\ufeff+++\ntitle = 'a'\n", "1:1: front matter opened with +++ is never closed", True),
    ("---\ntitle: a\n", "1:1: front matter opened with --- is never closed", True),
    ("+++\ntitle = 'a'\ndate = \n+++\nbody\n", "3:8: invalid TOML: Invalid value", True),
    ("+++\ntitle = 'a'\ntitle = 'b'\n+++\n", "3:12: invalid TOML: Cannot overwrite a value", True),
    ("+++\r\ntitle = 'a'\r\ntags = [1, \r\n+++\r\n", "3:12: invalid TOML: Invalid value", True),
    ("+++\n[params]\n  x = 1\n  y = 'open\n+++\n", '4:12: invalid TOML: Expected "\'"', True),
    (
        '+++\ntitle = "日本語" x\n+++\n',
        "2:15: invalid TOML: Expected newline or end of document after a statement",
        True,
    ),
    (
        "\ufeff+++\ntitle = 'a'\nbad key = 1\n+++\n",
        "3:5: invalid TOML: Expected '=' after a key in a key/value pair",
        True,
    ),
    ("+++\na = " + "[" * 3000 + "\n+++\n", "2:1: invalid TOML: nested too deeply", True),
    (
        "---\ntitle: a\n  b: c\n---\n",
        "3:4: invalid YAML: mapping values are not allowed here",
        True,
    ),
    (
        "---\ntitle: [a, b\n---\nbody\n",
        "2:13: invalid YAML: expected ',' or ']', but got '<stream end>'",
        True,
    ),
    (
        "---\r\ntitle: a\r\ndate: 2025-13-45\r\n---\r\n",
        "3:7: invalid YAML: cannot read '2025-13-45' as timestamp: month must be in 1..12",
        True,
    ),
    ("---\na: *missing\n---\n", "2:4: invalid YAML: found undefined alias 'missing'", True),
    ("---\n- a\n- b\n---\n", "2:1: expected a table of keys, got list", True),
    (
        '---\ntitle: "日本語\ttab" x\n---\n',
        "2:18: invalid YAML: expected <block end>, but found '<scalar>'",
        True,
    ),
    ("---\n" + "- " * 3000 + "\n---\n", "2:1: invalid YAML: nested too deeply", True),
    # Hugo's YAML reader takes "x" tagged !!int; PyYAML cannot build the number.
    (
        "---\ntags: !!int x\n---\n",
        "2:7: invalid YAML: cannot read 'x' as int: invalid literal for int() with base 10: 'x'",
        False,
    ),
    (
        '{"title": "a",\n "draft": tru}\nbody\n',
        "2:11: invalid JSON front matter: Expecting value",
        True,
    ),
    (
        '{"title": "a"\n "draft": true}\n',
        "2:2: invalid JSON front matter: Expecting ',' delimiter",
        True,
    ),
    (
        '{\r\n  "title": "a",\r\n  "tags": ["x",]\r\n}\r\n',
        "3:16: invalid JSON front matter: Expecting value",
        True,
    ),
    (
        '{"title": "日本語\n"}\n',
        "1:15: invalid JSON front matter: Invalid control character at",
        True,
    ),
    ('{"title": "a"', "1:14: invalid JSON front matter: Expecting ',' delimiter", True),
    (
        '\ufeff{"title": 1,}\n',
        "1:13: invalid JSON front matter: Expecting property name enclosed in double quotes",
        True,
    ),
    # Go's JSON reader has no depth limit below this; Python's stops the recursion.
    (
        '{"a":' * 3000 + "1" + "}" * 3000,
        "1:1: invalid JSON front matter: nested too deeply",
        False,
    ),
]


@pytest.mark.parametrize(("text", "error", "hugo_fails"), BROKEN, ids=[e for _, e, _ in BROKEN])
def test_every_front_matter_error_names_its_line_and_column(text, error, hugo_fails):
    with pytest.raises(SourceError) as raised:
        split_front_matter(text, "content/p.md")
    assert str(raised.value) == f"content/p.md:{error}"


@pytest.mark.parametrize(("text", "error", "hugo_fails"), BROKEN, ids=[e for _, e, _ in BROKEN])
def test_hugo_fails_on_the_same_front_matter(tmp_path: Path, text, error, hugo_fails):
    (tmp_path / "hugo.toml").write_text("baseURL = 'https://example.org/'\n")
    (tmp_path / "content").mkdir()
    (tmp_path / "content/p.md").write_bytes(text.encode())
    cmd = [hugo_binary(), "-s", str(tmp_path), "--noBuildLock", "--logLevel", "error"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    output = done.stdout + done.stderr
    assert (done.returncode != 0) == hugo_fails, output
    assert ("content/p.md" in output) == hugo_fails, output


@pytest.mark.parametrize(
    ("text", "key", "position"),
    [
        ("+++\r\ntitle = 'a'\r\n  Date = 1\r\n+++\r\n", "date", (3, 3)),
        ('+++\n"weight" = 1\n+++\n', "weight", (2, 2)),
        ("---\ntitle: a\ndraft: 1\n---\n", "draft", (3, 1)),
        ('{\n  "title": "a",\n  "tags": 3\n}\n', "tags", (3, 4)),
        ("+++\ntitle = 'a'\n+++\n", "missing", (1, 1)),
    ],
)
def test_key_positions_are_the_files_own(text, key, position):
    assert split_front_matter(text, "p.md").key_position(key) == position


@pytest.mark.parametrize(
    ("text", "fmt", "body_line"),
    [
        ("+++\ntitle = 'a'\n+++\nbody\n", "toml", 4),
        ("\ufeff---\r\ntitle: a\r\n---\r\n\r\nbody\r\n", "yaml", 4),
        ('{"title": "a"}\n\n\nbody\n', "json", 4),
        ('{\n"title": "a"\n}\nbody', "json", 4),
        ("+++\n+++\n", "toml", 3),
        ("body only\n", "", 1),
    ],
)
def test_body_starts_on_the_files_own_line(text, fmt, body_line):
    fm = split_front_matter(text, "p.md")
    assert (fm.format, fm.body_line) == (fmt, body_line)
    assert fm.head + fm.body == text.removeprefix("\ufeff")
    assert fm.body == (text.removeprefix("\ufeff").split("\n", body_line - 1)[-1])


def test_handlers_are_found_by_python_frontmatter():
    found = [
        type(frontmatter.detect_format(text, HANDLERS))
        for text in ("+++\n", "---\n", "{}", "++ \n", "")
    ]
    assert found == [TOMLHandler, YAMLHandler, JSONHandler, type(None), type(None)]
    post = frontmatter.loads("+++\ntitle = 'a'\n+++\nbody\n", handler=TOMLHandler())
    assert (post.metadata, post.content) == ({"title": "a"}, "body")
    assert frontmatter.dumps(post) == '+++\ntitle = "a"\n+++\n\nbody'


# --- round trip ---------------------------------------------------------------------------

keys = st.text(max_size=8)
offsets = st.integers(-24 * 60 + 1, 24 * 60 - 1).map(lambda m: timezone(timedelta(minutes=m)))
toml_scalars = st.one_of(
    st.text(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False),
    st.booleans(),
    st.dates(),
    st.datetimes(),
    st.datetimes(timezones=offsets),
    st.times(),
)
json_scalars = st.one_of(
    st.text(), st.integers(), st.floats(allow_nan=False), st.booleans(), st.none()
)
yaml_scalars = st.one_of(json_scalars, st.dates(), st.datetimes(timezones=st.none() | offsets))


def tables(scalars):
    values = st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
        max_leaves=8,
    )
    return st.dictionaries(keys, values, max_size=6)


BODY = "+++\n---\n}\nThe body, with fences of every format in it.\n"


def read_back(data: dict, fmt: str) -> FrontMatter:
    text = front_matter_text(data, fmt) + BODY
    fm = split_front_matter(text, "p.md")
    assert fm.format == fmt
    assert fm.head + fm.body == text
    return fm


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["toml", "yaml", "json"]).flatmap(lambda f: st.tuples(st.just(f), tables(
    {"toml": toml_scalars, "yaml": yaml_scalars, "json": json_scalars}[f]))))  # fmt: skip
def test_exported_front_matter_loads_back_the_same(case):
    fmt, data = case
    fm = read_back(data, fmt)
    assert fm.data == data
    assert fm.body.endswith(BODY)
    assert read_back(fm.data, fmt).data == data


def test_toml_is_written_by_tomli_w():
    data = {"title": 'It\'s "quoted" \\ 日本語', "draft": True, "tags": []}
    text = front_matter_text(data)
    assert text == "+++\n" + tomli_w.dumps(data) + "+++\n"
    assert tomllib.loads(text.strip("+\n")) == data


# --- what matome writes -------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("site")
    new_site(root)
    return root


@settings(max_examples=100, deadline=None)
@given(st.text(min_size=1).filter(str.strip))
@example('It\'s "quoted" \\ with a DEL \x7f')  # TOML strings must escape DEL
def test_imported_titles_read_back_the_same(site: Path, title: str):
    thread = Thread(id=7, title=title, time=datetime(2025, 11, 7, tzinfo=UTC), comments=[])
    article = render_article(thread, load_config(site), ImportOptions())
    fm = split_front_matter(article, "index.md")
    assert fm.data["title"] == title
    assert list(fm.data) == ["date", "months", "draft", "title", "tags", "featureimage"]
    assert fm.body.startswith("\n> ")
