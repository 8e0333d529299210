"""The ``emojify`` filter against the real ``hugo``'s ``emojify``: codes anywhere in a string
(not only between spaces), colons that pair up or not, codes too long, unknown codes, and
names whose emoji GitHub writes with a variation selector. Each string is printed by a
single-page template of both tools and compared as text."""

from __future__ import annotations

import html
import json

try:  # tests/ as a package or as a plain directory on sys.path
    from tests.theme_site import build_both
except ImportError:
    from theme_site import build_both

SEPARATOR = "@@case@@"
CODES = [
    "smile",
    "heart",
    "+1",
    "thumbsup",
    "-1",
    "copyright",
    "tm",
    "registered",
    "jp",
    "us",
    "gb",
    "uk",
    "thinking_face",
    "sparkles",
    "warning",
    "x",
    "o",
    "100",
    "1234",
    "white_check_mark",
    "heavy_check_mark",
    "bangbang",
    "arrow_right",
    "fire",
    "rocket",
    "tada",
    "eyes",
    "pray",
    "relaxed",
    "man_technologist",
    "family_man_woman_girl_boy",
    "pirate_flag",
    "rainbow_flag",
    "zero",
    "one",
    "smiley_cat",
    "sweat_smile",
    "joy",
    "zany_face",
    "woozy_face",
    "flag-jp",
    "nonexistent_name",
    "Smile",
    "SMILE",
    "thinking",
    "shrug",
    "rofl",
    "hugs",
    "keycap_ten",
    "hash",
    "star_struck",
]
CASES = [
    " ".join(f":{code}:" for code in CODES),
    *(f":{code}:" for code in CODES),
    "a:smile:b",
    ":smile::heart:",
    ":smile :heart:",
    "::smile:",
    ":sm ile:",
    "time 12:30:45 ok",
    "::",
    ":",
    "",
    "a:b:c:smile:",
    ":smile:x:heart:",
    ":" + "a" * 60 + ":smile:",
    ":" + "a" * 50 + ":smile:",
    "日本語:smile:テキスト",
    "<b>:fire:</b> & more",
]


def test_emojify_matches_hugo(tmp_path):
    root = tmp_path / "site"
    for kind, template in (
        ("layouts", "{{ range .Params.cases }}" + SEPARATOR + "{{ . | emojify }}{{ end }}"),
        (
            "templates",
            "{% for c in page.params.cases %}" + SEPARATOR + "{{ c | emojify }}{% endfor %}",
        ),
    ):
        (root / kind / "_default").mkdir(parents=True)
        (root / kind / "_default" / "single.html").write_text(template, encoding="utf-8")
        (root / kind / "_default" / "list.html").write_text("x", encoding="utf-8")
    (root / "content").mkdir()
    (root / "hugo.toml").write_text('baseURL = "https://e.org/"\ntitle = "T"\n', encoding="utf-8")
    (root / "content" / "e.md").write_text(
        f"+++\ntitle = 'e'\ncases = {json.dumps(CASES)}\n+++\n", encoding="utf-8"
    )
    hugo_out, matome_out = build_both(root, tmp_path)
    hugo, ours = (
        [
            html.unescape(c)
            for c in (out / "e" / "index.html").read_text("utf-8").split(SEPARATOR)[1:]
        ]
        for out in (hugo_out, matome_out)
    )
    assert len(hugo) == len(ours) == len(CASES)
    differ = {
        case: (mine, theirs)
        for case, mine, theirs in zip(CASES, ours, hugo, strict=True)
        if mine != theirs
    }
    assert not differ, differ
    assert hugo[CASES.index(":smile:")] == "\U0001f604"
    assert hugo[CASES.index(":heart:")] == "\u2764\ufe0f"
