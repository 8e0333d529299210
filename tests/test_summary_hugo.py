"""The automatic summary (``.Summary``, ``.Truncated``) against the real ``hugo``.

Hugo cuts after the paragraph in which the ``summaryLength``-th word falls (words counted
in the raw HTML, markup left out), takes the whole container that paragraph sits in (a
blockquote, a list, a raw ``<div>``), and takes nothing at all for ``summaryLength = 0``,
which the real blog sets. One site of varied bodies is built by both tools for each length.
"""

from __future__ import annotations

import pytest

try:  # tests/ as a package or as a plain directory on sys.path
    from tests.theme_site import build_both
except ImportError:
    from theme_site import build_both

BODIES = {
    "paragraphs": "first para words here\n\nsecond para more words\n",
    "quote_first": "> quoted words in a block\n\nthen a para of five words\n\nlast one\n",
    "heading_markup": '# Title here\n\nA para with *emphasis* and `code` and [a link](/x "t").\n\nNext.\n',
    "tight_list": "- item one\n- item two\n\nPara after list with words\n",
    "one_letter": "Para a\n\nb\n\nc d e f g h\n",
    "japanese": "日本語の文章です。引用元：[link](https://x.y)\n\n二番目 の 段落 です\n",
    "raw_div_line": '<div class="x">raw html block words</div>\n\npara one two three four\n',
    "table": "Para with line\nbreak words here and more\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nend\n",
    "empty": "",
    "code": "```\ncode block words one two\n```\n\npara x y\n",
    "quote_paragraphs": "> one two\n>\n> three four\n\nafter para\n",
    "loose_list": "- item one\n\n  para in item words\n\n  second para in item\n- item two\n\nafter\n",
    "nested_quotes": "> outer\n>\n> > inner one two\n> >\n> > inner three\n\nafter\n",
    "raw_div_around": "<div>\n\npara in div one two\n\npara two in div\n\n</div>\n\nafter\n",
    "comment_cards": '<div><div><span>user</span></div><p class="x">comment body one two three</p>'
    "</div>\n\n<div><div><span>u2</span></div><p>second comment</p></div>\n\nend\n",
    "footnote": "Text[^1] here and more words.\n\n[^1]: A note with words.\n",
    "details": "<details><summary>more</summary>\n\ninner para one two\n\n</details>\n\nafter words\n",
    "ordered": "1. first\n\n   para one\n2. second\n\n> q\n\ntail\n",
}
LENGTHS = (0, 1, 2, 3, 5, 8, 12, 70)
SEPARATOR = "@@case:"


def _site(root, length: int):
    (root / "layouts" / "_default").mkdir(parents=True)
    (root / "templates" / "_default").mkdir(parents=True)
    (root / "content" / "posts").mkdir(parents=True)
    (root / "hugo.toml").write_text(
        f'baseURL = "https://e.org/"\ntitle = "T"\nsummaryLength = {length}\n'
        "[markup.goldmark.renderer]\nunsafe = true\n",
        encoding="utf-8",
    )
    (root / "layouts" / "_default" / "list.html").write_text(
        SEPARATOR
        + "{{ range .Pages }}{{ .Title }}[{{ .Summary }}|{{ .Truncated }}]"
        + SEPARATOR
        + "{{ end }}",
        encoding="utf-8",
    )
    (root / "templates" / "_default" / "list.html").write_text(
        SEPARATOR + "{% for p in page.pages %}{{ p.title }}[{{ p.summary }}|"
        "{{ p.truncated | lower }}]" + SEPARATOR + "{% endfor %}",
        encoding="utf-8",
    )
    for name in ("layouts", "templates"):
        (root / name / "_default" / "single.html").write_text("x", encoding="utf-8")
    for day, (name, body) in enumerate(BODIES.items(), start=1):
        (root / "content" / "posts" / f"{name}.md").write_text(
            f"+++\ntitle = '{name}'\ndate = '2025-01-{day:02d}'\n+++\n{body}", encoding="utf-8"
        )


def _summaries(page: str) -> dict[str, str]:
    cases = [c.strip() for c in page.split(SEPARATOR) if c.strip()]
    return {case.split("[", 1)[0]: case for case in cases}


@pytest.mark.parametrize("length", LENGTHS)
def test_summary_matches_hugo(tmp_path, length):
    root = tmp_path / "site"
    _site(root, length)
    hugo_out, matome_out = build_both(root, tmp_path)
    hugo = _summaries((hugo_out / "posts" / "index.html").read_text(encoding="utf-8"))
    ours = _summaries((matome_out / "posts" / "index.html").read_text(encoding="utf-8"))
    assert sorted(hugo) == sorted(BODIES)
    differ = {name: (ours.get(name), hugo[name]) for name in hugo if ours.get(name) != hugo[name]}
    assert not differ, f"summaryLength {length}: {differ}"


# --- the manual summary (<!--more-->) and the front matter's -------------------------------

# name -> (more front matter, body)
MANUAL = {
    "divider_inline": ("", "one two <!--more--> three four\n"),
    "divider_between": ("", "para one here\n\n<!--more-->\n\npara two\n"),
    "divider_first": ("", "<!--more-->\n\npara two\n"),
    "divider_last": ("", "para one\n\n<!--more-->\n"),
    "divider_at_end_of_file": ("", "para one\n<!--more-->"),
    "divider_in_list": ("", "- a\n- b <!--more-->\n- c\n\nafter\n"),
    "divider_in_quote": ("", "> q one\n>\n> <!--more-->\n> q two\n\nafter\n"),
    "divider_in_code": ("", "```\n<!--more-->\n```\n\nafter\n"),
    "divider_twice": ("", "x\n\n<!--more-->\n\ny\n\n<!--more-->\n\nz\n"),
    "divider_with_spaces_is_a_comment": ("", "x\n\n<!-- more -->\n\ny\n"),
    "divider_upper_case_is_a_comment": ("", "x\n\n<!--MORE-->\n\ny\n"),
    "divider_after_br": ("", "一行目<br>二行目 <!--more--> 三\n"),
    "front_matter": ("summary = '**bold** text'\n", "para one two three\n\npara four five\n"),
    "front_matter_short_body": ("summary = 'short'\n", "a\n"),
    "front_matter_paragraphs": ('summary = """one\n\ntwo"""\n', "body\n"),
    "front_matter_and_divider": ("summary = 'fm'\n", "para one\n\n<!--more-->\n\npara two\n"),
    "front_matter_and_first_divider": ("summary = 'fm'\n", "<!--more-->\n\npara two\n"),
    "front_matter_empty": ("summary = ''\n", "one two three four\n\nfive\n"),
}


def test_manual_and_front_matter_summaries_match_hugo(tmp_path):
    """Hugo cuts at the first exact ``<!--more-->`` of the source, which splits the paragraph,
    list or quote it stands in; a front matter ``summary`` is used only when that leaves no
    summary, and is not truncated by itself."""
    root = tmp_path / "site"
    _site(root, 3)
    for page in (root / "content" / "posts").iterdir():
        page.unlink()
    probe = {
        "layouts": SEPARATOR + "{{ range .Pages }}{{ .Title }}[{{ .Summary }}|{{ .Truncated }}|"
        "{{ .Content }}]" + SEPARATOR + "{{ end }}",
        "templates": SEPARATOR + "{% for p in page.pages %}{{ p.title }}[{{ p.summary }}|"
        "{{ p.truncated | lower }}|{{ p.content }}]" + SEPARATOR + "{% endfor %}",
    }
    for name, template in probe.items():
        (root / name / "_default" / "list.html").write_text(template, encoding="utf-8")
    for day, (name, (extra, body)) in enumerate(MANUAL.items(), start=1):
        (root / "content" / "posts" / f"{name}.md").write_text(
            f"+++\ntitle = '{name}'\ndate = '2025-01-{day:02d}'\n{extra}+++\n{body}",
            encoding="utf-8",
        )
    hugo_out, matome_out = build_both(root, tmp_path)
    hugo = _summaries((hugo_out / "posts" / "index.html").read_text(encoding="utf-8"))
    ours = _summaries((matome_out / "posts" / "index.html").read_text(encoding="utf-8"))
    assert sorted(hugo) == sorted(MANUAL)
    differ = {name: (ours.get(name), hugo[name]) for name in hugo if ours.get(name) != hugo[name]}
    assert not differ, differ
    assert hugo["divider_inline"].startswith("divider_inline[<p>one two</p>|true|")
