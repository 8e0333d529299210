"""GoAT diagrams (```goat code blocks) compared with the real ``hugo``, byte for byte.

Hugo draws a goat block as SVG with its embedded ``render-codeblock-goat`` hook; matome
must write the same string: the same elements, attributes, coordinates and text in the
same order, inside the same wrapper markup. The cases are hand-written diagrams of each
drawing rule, the diagrams of Hugo's documentation and of the LoveIt theme's example site
(``tests/fixtures/goat/``), and grids of drawing characters made at random (from a fixed
seed), all rendered in one Hugo build. Site hooks are compared through real ``matome
build`` and ``hugo`` runs.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from matome.markup.goat import draw, go_print
from matome.markup.markdown import MarkdownRenderer

try:  # tests/ as a package or as a plain directory on sys.path
    from tests.cli import matome
    from tests.hugo_oracle import BEGIN, END, run_hugo
except ImportError:
    from cli import matome
    from hugo_oracle import BEGIN, END, run_hugo

FIXTURES = Path(__file__).parent / "fixtures" / "goat"


def goat(diagram: str, info: str = "") -> str:
    return f"```goat{info}\n{diagram}\n```\n"


CASES: dict[str, str] = {
    "horizontal_lines": goat("---\n  ----   -\n-- --"),
    "vertical_lines": goat("|  |\n|  |\n|\n   |"),
    "box_plus_corners": goat("+----+\n|    |\n+----+--+\n     |  |\n     +--+"),
    "rounded_corners": goat(" .----.\n|      |\n '----'\n.-.\n'-'"),
    "rounded_joints": goat(".--+--.\n|  |  |\n+--+--+\n|  |  |\n'--+--'"),
    "arrows_horizontal": goat("-->  <--  <-->\n>  <\no-->  <--*"),
    "arrows_vertical": goat(" ^   |   +\n |   |   |\n |   v   v\n-+-\n ^\n-+-"),
    "arrows_diagonal": goat("  ^     ^\n /       \\\n/         \\\n\n  /     \\\n v       v"),
    "arrows_touching_lines": goat("  ^\n--+--\n  v\n.-^-.\n'-v-'"),
    "diagonals": goat("/    \\\n /  \\\n  /\\\n  \\/\n /  \\\n/    \\"),
    "diagonal_joints": goat("  +\n / \\\n+   +\n \\ /\n  +\n  o\n / \\\n*   o"),
    "lonely_diagonals": goat("/  \\  / \\\n\n \\/"),
    "circles": goat("o  *  o-o  *--*\n|     |\no     *"),
    "circles_in_text": goat("hello world foo*bar o* *o\n  o  \n  *  "),
    "text_and_lines": goat("A-B  foo----bar  x--->y\nLabel: |  a|b  (x) [y] {z}"),
    "text_reserved_words": goat("a v b ^ c < d > e\nvery ^hat <tag> o.k. it's"),
    "unicode_text": goat("日本語 → ✓ é ü\n┌─┐ │ └─┘\n  ─── 全角\u3000空白"),
    "box_drawing": goat("┌─────┐\n│Alice│\n└──┬──┘\n   │\n   ▽"),
    "shades": goat("▉▓▒░\n░▒▓▉ x"),
    "slants": goat("╱╲╳\n ╲╱"),
    "escaping": goat("a & b < c > d \" e ' f"),
    "empty": goat(""),
    "blank_lines_only": "```goat\n\n\n\n```\n",
    "tabs": goat("\ta\t-\tb\n\t|\n--\t--"),
    "trailing_spaces": goat("+--+   \n|  |     \n+--+ "),
    "trailing_blank_lines": "```goat\n x\n\n\n```\n",
    "leading_blank_lines": "```goat\n\n\n  .-.\n  '-'\n```\n",
    "baselines": goat(" ___\n|   |\n|___|\n  _\n_| |_\n _   _\n/ \\_/ \\\n\\_/ \\_/"),
    "baseline_slants": goat(" ____\n/    \\\n\\____/\n  _\n /_\\\n_\\_/_"),
    "half_steps": goat("_.-  -._\n _     _\n'-  -'\n _   _\n  | |\n_| |_\n  |\n -"),
    "bridges": goat("   |\n---)---\n   |\n   |\n---(---\n   |"),
    "wrap_around_diagonal": goat(" /\n\n/"),
    "dot_grid": goat("o o o\n| | |\no-o-o\n|/ \\|\no---o"),
    "plus_grid": goat("+-+-+\n| | |\n+-+-+\n| | |\n+-+-+"),
    "flow_chart": goat(
        "  .-------.      .------.\n  | start |----->| step |\n  '---+---'      '--+---'\n"
        "      |             |\n      v             v\n   .-----.     .--------.\n"
        "  / test  \\--->|  done  |\n  \\       /    '--------'\n   '-----'"
    ),
    "parentheses": goat("(a) (  ) )(\n-(  )-\n(o)"),
    "quotes_and_dots": goat("'quoted' ... 'a' .b. .'.'\n. ' . '"),
    "attributes_width": goat("+--+\n+--+", " {width=200}"),
    "attributes_height": goat("+--+\n+--+", " {height=50}"),
    "attributes_both_and_class": goat("-->", ' {width="1.5em" height=100 class="a b"}'),
    "attributes_escaped": goat("-->", ' {class="a\\"b<c>&\'+" width="x&y"}'),
    "attributes_numbers": goat("-->", " {width=1000000 height=0.00001}"),
    "attributes_zero_width": goat("-->", ' {width=0 class=""}'),
    "attributes_dot_class": goat("-->", " {.wide #d1}"),
    "tilde_fence": "~~~goat\n+-+\n| |\n+-+\n~~~\n",
    "in_list": "- item\n\n  ```goat\n  o--o\n  ```\n",
    "in_quote": "> ```goat\n> ^\n> |\n> ```\n",
    "between_text": "Before.\n\n" + goat("a-->b") + "\nAfter.\n\n```\nx := 1\n```\n",
    "two_diagrams": goat("--") + "\n" + goat("||"),
    "not_goat_case": "```GOAT\n-->\n```\n\n```Goat\n-->\n```\n",
    "long_line_dropped": goat("a" * 65536 + "\nb"),
}
for path in sorted(FIXTURES.glob("*.md")):
    CASES[f"fixture_{path.stem}"] = path.read_text(encoding="utf-8")


def _random_grid(rng: random.Random) -> str:
    alphabet = " " * 8 + "-_|/\\+.'*o<>^v()" + "-|" * 3 + "ax"
    rows = rng.randint(1, 7)
    return "\n".join(
        "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(rows)
    )


_RNG = random.Random(20260214)
RANDOM_CASES = {f"random_{i:02d}": goat(_random_grid(_RNG)) for i in range(80)}
MARKDOWNIFY_CASES = {"markdownify_box": goat("+--+\n|ab|\n+--+"), "markdownify_text": "x"}


@pytest.fixture(scope="module")
def hugo(tmp_path_factory) -> dict[str, dict[str, str]]:
    return run_hugo(
        tmp_path_factory.mktemp("goat"),
        content={**CASES, **RANDOM_CASES},
        markdownify={"markdownify_box": MARKDOWNIFY_CASES["markdownify_box"]},
    )


@pytest.fixture(scope="module")
def renderer() -> MarkdownRenderer:
    return MarkdownRenderer({})


@pytest.mark.parametrize("name", list(CASES))
def test_goat_block_matches_hugo(hugo, renderer, name):
    assert renderer.render(CASES[name]).html == hugo["content"][name]


@pytest.mark.parametrize("name", list(RANDOM_CASES))
def test_random_grid_matches_hugo(hugo, renderer, name):
    assert renderer.render(RANDOM_CASES[name]).html == hugo["content"][name]


def test_markdownify_draws_goat_blocks(hugo, renderer):
    source = MARKDOWNIFY_CASES["markdownify_box"]
    assert renderer.markdownify(source) == hugo["markdownify"]["markdownify_box"]
    assert "<svg" in hugo["markdownify"]["markdownify_box"]


def test_cases_cover_the_documentation_diagrams():
    assert len(CASES) >= 60
    fixtures = [name for name in CASES if name.startswith("fixture_")]
    assert any("loveit" in name for name in fixtures)
    assert sum("hugodocs" in name for name in fixtures) >= 8


def test_every_drawing_element_is_compared(hugo):
    """The cases draw each kind of element GoAT writes."""
    everything = "".join(hugo["content"].values())
    for element in ("<path d='M", " A 16,16 ", " A 9,9 ", "<polygon", "<circle", "<text", "<rect"):
        assert element in everything, element


# --- properties -------------------------------------------------------------------------

PRINTABLE = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff")
    | st.sampled_from(list("\n\t-_|/\\+.'*o<>^v() ")),
    max_size=300,
)


@settings(max_examples=300, deadline=None, database=None)
@given(PRINTABLE)
def test_any_text_draws_well_formed_svg(text):
    diagram = draw(text)
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    assert diagram.height == (len(lines) if text else 0) * 16 + 9
    assert diagram.width == (max(map(len, lines), default=0) + 1) * 8
    ET.fromstring(diagram.wrapped())  # parses as XML: text is escaped, every tag closed


@settings(max_examples=200, deadline=None, database=None)
@given(st.text(max_size=200), st.sampled_from(["", " {width=10}", ' {class="c"}']))
def test_any_text_in_a_goat_block_renders(text, info):
    fence = "~" * 3 if "`" in text else "`" * 3
    html = MarkdownRenderer({}).render(f"{fence}goat{info}\n{text}\n{fence}\n").html
    assert '<div class="goat svg-container' in html


@pytest.mark.parametrize(
    ("value", "printed"),
    [(200, "200"), (1.5, "1.5"), (1000000, "1e+06"), (0.00001, "1e-05"), (123456.5, "123456.5")],
)
def test_numbers_print_as_go_prints_a_float64(value, printed):
    assert go_print(value) == printed


# --- site hooks: the site's own goat hook wins, the general one does not take goat blocks

PAGE = (
    goat(".-.\n'-'", ' {class="c"}') + "\n```go\nx\n```\n\n" + goat(".-->\n|\nv", " {width=90}")
)  # no '+' in the text: Go's html/template writes it as &#43; where Jinja does not
GO_HOOKS = {
    "own": {
        "_markup/render-codeblock-goat.html": (
            '<pre class="mine" data-ordinal="{{ .Ordinal }}">{{ .Inner }}|{{ .Attributes.class }}'
            "</pre>\n"
        )
    },
    "general": {"_markup/render-codeblock.html": '<pre class="general">{{ .Type }}</pre>\n'},
    "function": {
        "_markup/render-codeblock-goat.html": (
            '{{ with diagrams.Goat .Inner }}<svg viewBox="0 0 {{ .Width }} {{ .Height }}">'
            "{{ .Inner }}</svg>{{ .Wrapped }}{{ end }}\n"
        )
    },
}
JINJA_HOOKS = {
    "own": {
        "_markup/render-codeblock-goat.html": (
            '<pre class="mine" data-ordinal="{{ ordinal }}">{{ inner }}|{{ attributes.class }}'
            "</pre>\n"
        )
    },
    "general": {"_markup/render-codeblock.html": '<pre class="general">{{ type }}</pre>\n'},
    "function": {
        "_markup/render-codeblock-goat.html": (
            '{% set d = diagrams.goat(inner) %}<svg viewBox="0 0 {{ d.width }} {{ d.height }}">'
            "{{ d.inner }}</svg>{{ d.wrapped }}\n"
        )
    },
}


def _matome_page(root: Path, hooks: dict[str, str], source: str) -> str:
    root.mkdir(parents=True)
    config = {"baseURL": "https://example.org/", "disableKinds": ["taxonomy", "term"]}
    (root / "hugo.toml").write_text(tomli_w.dumps(config))
    for name, text in {**hooks, "_default/single.html": BEGIN + "{{ page.content }}" + END}.items():
        (root / "templates" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "templates" / name).write_text(text)
    (root / "content").mkdir()
    (root / "content" / "page.md").write_text(f'+++\ntitle = "p"\n+++\n{source}')
    done = matome("build", "-s", str(root), "-d", str(root / "public"))
    assert done.returncode == 0, done.stderr
    page = (root / "public" / "page" / "index.html").read_text()
    return page[page.index(BEGIN) + len(BEGIN) : page.rindex(END)]


@pytest.mark.parametrize("kind", list(GO_HOOKS))
def test_site_hooks_for_goat_blocks_match_hugo(tmp_path, kind):
    expected = run_hugo(tmp_path / "hugo", content={"page": PAGE}, layouts=GO_HOOKS[kind])
    ours = _matome_page(tmp_path / "matome", JINJA_HOOKS[kind], PAGE)
    assert ours == expected["content"]["page"]
    if kind == "own":
        assert "<svg" not in ours and 'class="mine"' in ours
    if kind == "general":  # the go block takes the site's hook, the goat blocks Hugo's
        assert ours.count('class="general"') == 1 and ours.count("svg-container") == 2
    if kind == "function":
        assert ours.count("<svg class='diagram'") == 2
