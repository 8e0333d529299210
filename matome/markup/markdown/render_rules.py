"""The HTML of each markdown-it token, written as Goldmark's renderer and Hugo write it.

Goldmark's renderer differs from markdown-it's default one in many small ways: raw HTML
omitted unless ``unsafe``, heading attributes, ``<br>``/``<hr>`` with or without XHTML
slashes, tab-indented tables (Hugo's embedded table template), footnotes with ``fn:``
ids and ``doc-`` roles, Goldmark's image alt text, dangerous URLs emptied, and fenced code
through the highlighter. Each ``r_`` method of :class:`RenderRules` replaces the rule of
the token type it is named after.
"""

from __future__ import annotations

from markdown_it import MarkdownIt

from .. import goat
from .attributes import attribute_text
from .block_attributes import filter_attributes
from .chars import GO_SPACE
from .cjk import soft_break
from .emoji import emoji_entities
from .errors import MarkdownError
from .highlight import FenceAttributeError, Highlighter, codeblock_context, fence_language
from .highlight_options import OptionError
from .hooks import (
    RenderHooks,
    autolink_context,
    hook_attributes,
    split_alert,
    table_rows,
    text_content,
)
from .library_internals import Token, escapeHtml
from .rawhtml import OMITTED, html_block_has_closure, is_comment
from .settings import Settings
from .urls import safe_href, url_escape


def _attr_value(value: str) -> str:
    return escapeHtml(value)


def _image_alt(children: list[Token] | None) -> str:
    """Goldmark's alt text: text escaped, typographer entities kept, soft breaks as newlines."""
    out = []
    for token in children or []:
        if token.type == "typographer":
            out.append(token.content)
        elif token.type in ("text", "code_inline", "text_special"):
            out.append(escapeHtml(token.content))
        elif token.type in ("softbreak", "hardbreak"):
            out.append("\n")
        elif token.type == "image":
            out.append(_image_alt(token.children))
        elif token.type == "gm_autolink":
            out.append(escapeHtml(token.content))
    return "".join(out)


def _html_attrs(attrs) -> str:
    return "".join(f' {name}="{escapeHtml(str(value))}"' for name, value in attrs)


def _info_column(env: dict, line: int, info: str) -> int:
    """Where a fence's info string starts on its source line (from 0)."""
    lines = env.get("_source", "").split("\n")
    return max(lines[line].find(info), 0) if line < len(lines) else 0


class RenderRules:
    """Render rules for markdown-it token types, producing Goldmark's HTML."""

    def __init__(self, settings: Settings, highlighter: Highlighter):
        self.s = settings
        self.highlighter = highlighter

    # Block tokens that follow a hidden (tight) paragraph start on a new line, as
    # markdown-it's default renderer does for the tokens it renders itself.
    _BLOCK_STARTS = frozenset(
        [
            "table_open",
            "fence",
            "code_block",
            "html_block",
            "hr",
            "heading_open",
            "footnote_block_open",
            "passthrough_block",
            "hooked_heading",
            "hooked_blockquote",
            "hooked_table",
        ]
    )

    # Tokens whose markup never varies.
    _FIXED = {
        "s_open": "<del>",
        "s_close": "</del>",
        "unwrapped_paragraph_close": "",
        "table_close": "</table>\n",
        "thead_open": "\t<thead>\n",
        "tbody_open": "\t<tbody>\n",
        "tbody_close": "\t</tbody>\n",
        "tr_open": "\t\t\t<tr>\n",
        "tr_close": "\t\t\t</tr>\n",
        "th_close": "</th>\n",
        "td_close": "</td>\n",
        "footnote_block_close": "</ol>\n</div>\n",
        "footnote_close": "</li>\n",
    }

    def install(self, md: MarkdownIt) -> None:
        self._options = md.options  # for the text of hooked links, images and headings
        for name in dir(self):
            if name.startswith("r_"):
                method = getattr(self, name)
                if name[2:] in self._BLOCK_STARTS:
                    method = self._after_tight_paragraph(method)
                md.add_render_rule(name[2:], lambda r, t, i, o, e, m=method: m(r, t, i, e))
        for name, markup in self._FIXED.items():
            md.add_render_rule(name, lambda r, t, i, o, e, markup=markup: markup)

    @staticmethod
    def _after_tight_paragraph(method):
        def rule(r, tokens, idx, env):
            out = method(r, tokens, idx, env)
            return "\n" + out if idx and tokens[idx - 1].hidden else out

        return rule

    # raw HTML
    def r_html_block(self, r, tokens, idx, env):
        content = tokens[idx].content
        if self.s.unsafe:
            return content.replace("\x00", "\ufffd")
        if is_comment(content):
            return ""  # Hugo drops comments silently instead of marking them omitted
        twice = html_block_has_closure(content)
        return (OMITTED + "\n") * (2 if twice else 1)

    def r_html_inline(self, r, tokens, idx, env):
        content = tokens[idx].content
        if self.s.unsafe:
            return content
        return "" if is_comment(content) else OMITTED

    # text
    def r_typographer(self, r, tokens, idx, env):
        return tokens[idx].content

    def r_softbreak(self, r, tokens, idx, env):
        if self.s.hard_wraps:
            return self._br()
        if self.s.cjk_line_breaks:
            return soft_break(tokens, idx, self.s.cjk_line_breaks)
        return "\n"

    def r_hardbreak(self, r, tokens, idx, env):
        return self._br()

    def _br(self) -> str:
        return "<br />\n" if self.s.xhtml else "<br>\n"

    def r_code_inline(self, r, tokens, idx, env):
        return f"<code>{escapeHtml(tokens[idx].content)}</code>"

    def r_emoji(self, r, tokens, idx, env):
        return emoji_entities(tokens[idx].content)

    def r_task_checkbox(self, r, tokens, idx, env):
        checked = 'checked="" ' if tokens[idx].meta["checked"] else ""
        end = " /> " if self.s.xhtml else "> "
        return f'<input {checked}disabled="" type="checkbox"{end}'

    # passthrough: written as it is, or by its hook
    def r_passthrough_inline(self, r, tokens, idx, env):
        return self._passthrough(tokens[idx], "inline", env)

    def r_passthrough_block(self, r, tokens, idx, env):
        return self._passthrough(tokens[idx], "block", env)

    @staticmethod
    def _passthrough(token: Token, type_: str, env: dict) -> str:
        hooks: RenderHooks | None = env.get("_hooks")
        kind = hooks.passthrough_kind(type_) if hooks is not None else None
        if kind is None:
            return token.content
        opening, closing = token.meta["open"], token.meta["close"]
        context = {
            "type": type_,
            "inner": token.content[len(opening) : len(token.content) - len(closing)],
            # Blocks and inline ones are numbered together; those written raw are not.
            "ordinal": env.setdefault("_passthroughs", -1) + 1,
            "attributes": hook_attributes(token.meta.get("block_attrs", [])),
        }
        env["_passthroughs"] = context["ordinal"]
        return hooks.call(kind, context)

    # links and images
    def r_link_open(self, r, tokens, idx, env):
        token = tokens[idx]
        out = f'<a href="{safe_href(url_escape(token.attrGet("href") or ""), self.s.unsafe)}"'
        title = token.attrGet("title")
        if title is not None:
            out += f' title="{_attr_value(title)}"'
        return out + ">"

    def r_hooked_link(self, r, tokens, idx, env):
        token = tokens[idx]
        children = token.children or []
        context = {
            "destination": token.attrGet("href") or "",
            "title": token.attrGet("title") or "",
            "text": r.renderInline(children, self._options, env),
            "plain_text": text_content(children),
        }
        return env["_hooks"].call("link", context)

    def r_gm_autolink(self, r, tokens, idx, env):
        token = tokens[idx]
        hooks: RenderHooks | None = env.get("_hooks")
        if hooks is not None and "link" in hooks.kinds:
            return hooks.call("link", autolink_context(token.attrGet("href") or "", token.content))
        href = safe_href(token.attrGet("href") or "", self.s.unsafe)
        return f'<a href="{href}">{escapeHtml(token.content)}</a>'

    def r_image(self, r, tokens, idx, env):
        token = tokens[idx]
        hooks: RenderHooks | None = env.get("_hooks")
        if hooks is not None and "image" in hooks.kinds:
            return self._hooked_image(r, token, env, hooks)
        src = safe_href(url_escape(token.attrGet("src") or ""), self.s.unsafe)
        out = f'<img src="{src}" alt="{_image_alt(token.children)}"'
        title = token.attrGet("title")
        if title is not None:
            out += f' title="{_attr_value(title)}"'
        if token.meta and token.meta.get("attrs"):  # an unwrapped image's paragraph's
            out += _html_attrs(filter_attributes(token.meta["attrs"], "img"))
        return out + (" />" if self.s.xhtml else ">")

    def _hooked_image(self, r, token: Token, env: dict, hooks: RenderHooks) -> str:
        children = token.children or []
        is_block = bool(token.meta and token.meta.get("is_block"))
        ordinal = env["_images"] = env.get("_images", -1) + 1  # Hugo counts them per page
        context = {
            "destination": token.attrGet("src") or "",
            "title": token.attrGet("title") or "",
            "text": r.renderInline(children, self._options, env),
            "plain_text": text_content(children),
            "ordinal": ordinal,
            "is_block": is_block,
            "attributes": hook_attributes(token.meta.get("attrs", [])) if is_block else {},
        }
        return hooks.call("image", context)

    # blocks
    def r_unwrapped_paragraph_open(self, r, tokens, idx, env):
        return ""  # an image written in place of its paragraph (images.py)

    def r_hooked_heading(self, r, tokens, idx, env):
        token = tokens[idx]
        children = token.children or []
        attrs = hook_attributes(token.meta.get("attrs", []))
        context = {
            "level": int(token.tag[1]),
            "anchor": attribute_text(attrs["id"]) if "id" in attrs else "",
            "attributes": attrs,
            "text": r.renderInline(children, self._options, env),
            "plain_text": token.meta["plain_text"],
        }
        return env["_hooks"].call("heading", context)

    def r_hooked_blockquote(self, r, tokens, idx, env):
        token = tokens[idx]
        blocks = token.children or []
        alert = split_alert(blocks)
        context = {"type": "regular", "alert_type": "", "alert_title": "", "alert_sign": ""}
        if alert is None:
            context["text"] = r.render(blocks, self._options, env)
        else:
            # Hugo trims an alert's title and text (a regular quote keeps its last newline).
            title = r.renderInline(alert.title, self._options, env).strip(GO_SPACE)
            context["type"], context["alert_type"] = "alert", alert.kind
            context["alert_title"], context["alert_sign"] = title, alert.sign
            context["text"] = r.render(alert.body, self._options, env).strip(GO_SPACE)
        # Numbered as Hugo does: after the quotes inside it.
        context["ordinal"] = env["_blockquotes"] = env.get("_blockquotes", -1) + 1
        context["attributes"] = hook_attributes(token.meta.get("block_attrs", []))
        return env["_hooks"].call("blockquote", context)

    def r_heading_open(self, r, tokens, idx, env):
        token = tokens[idx]
        attrs = token.meta.get("attrs", [])
        rendered = "".join(
            f' {name}="{_attr_value(attribute_text(value))}"'
            for name, value in attrs
            if not name.lower().startswith("on")
        )
        return f"<{token.tag}{rendered}>"

    def r_hr(self, r, tokens, idx, env):
        attrs = _html_attrs(tokens[idx].attrs.items()) if tokens[idx].attrs else ""
        return f"<hr{attrs} />\n" if self.s.xhtml else f"<hr{attrs}>\n"

    def r_code_block(self, r, tokens, idx, env):
        return f"<pre><code>{escapeHtml(tokens[idx].content)}</code></pre>\n"

    def r_fence(self, r, tokens, idx, env):
        token = tokens[idx]
        if not self.s.highlight.code_fences:
            lang = fence_language(token.info)
            css = f' class="language-{escapeHtml(lang)}"' if lang else ""
            return f"<pre><code{css}>{escapeHtml(token.content)}</code></pre>\n"
        ordinal = env["_fences"] = env.get("_fences", -1) + 1
        info = token.info
        line = token.map[0] if token.map else 0
        if (
            len(info) == 1
            and info.isascii()
            and token.map
            and token.map[0] == env.get("_last_line")
        ):
            info = ""  # Goldmark drops a one-byte info string that ends the source
        try:
            hooks: RenderHooks | None = env.get("_hooks")
            lang = fence_language(info)
            kind = hooks.codeblock_kind(lang) if hooks is not None else None
            # Hugo's own goat hook comes before a site's general code block hook.
            if lang == "goat" and kind != "codeblock-goat":
                return goat.codeblock_html(codeblock_context(token.content, info, ordinal))
            if kind is not None:
                return hooks.call(kind, codeblock_context(token.content, info, ordinal))
            return self.highlighter.fence(token.content, info, ordinal)
        except FenceAttributeError as e:
            raise MarkdownError(
                line + 1, _info_column(env, line, info) + e.column + 1, str(e)
            ) from None
        except OptionError as e:
            raise MarkdownError(line + 1, _info_column(env, line, info) + 1, str(e)) from None

    # tables, laid out like Hugo's embedded table template, or by the site's hook
    def r_hooked_table(self, r, tokens, idx, env):
        token = tokens[idx]
        head, body = table_rows(
            token.children or [], lambda children: r.renderInline(children, self._options, env)
        )
        context = {
            "thead": head,
            "tbody": body,
            "ordinal": env.setdefault("_tables", -1) + 1,
            "attributes": hook_attributes(token.meta.get("block_attrs", [])),
        }
        env["_tables"] = context["ordinal"]
        return env["_hooks"].call("table", context)

    def r_table_open(self, r, tokens, idx, env):
        attrs = sorted((k, v) for k, v in tokens[idx].attrs.items() if v)
        return f"<table{_html_attrs(attrs)}>\n"

    def r_thead_close(self, r, tokens, idx, env):
        has_body = idx + 1 < len(tokens) and tokens[idx + 1].type == "tbody_open"
        return "\t</thead>\n" + ("" if has_body else "\t<tbody>\n\t</tbody>\n")

    def r_th_open(self, r, tokens, idx, env):
        return "\t\t\t\t\t<th" + self._align(tokens[idx]) + ">"

    def r_td_open(self, r, tokens, idx, env):
        return "\t\t\t\t\t<td" + self._align(tokens[idx]) + ">"

    @staticmethod
    def _align(token: Token) -> str:
        style = token.attrGet("style") or ""
        if not style.startswith("text-align:"):
            return ""
        return f' style="text-align: {style.split(":", 1)[1]}"'

    # footnotes, in Goldmark's markup
    @staticmethod
    def _footnote_ids(token: Token) -> tuple[int, str]:
        """The note's number and the id of this reference to it (Goldmark's ``fnref2:1``)."""
        n, sub = token.meta["id"] + 1, token.meta.get("subId", 0)
        return n, f"fnref{sub if sub > 0 else ''}:{n}"

    def r_footnote_ref(self, r, tokens, idx, env):
        n, ref = self._footnote_ids(tokens[idx])
        return (
            f'<sup id="{ref}"><a href="#fn:{n}" class="footnote-ref" role="doc-noteref">'
            f"{n}</a></sup>"
        )

    def r_footnote_block_open(self, r, tokens, idx, env):
        hr = "<hr />" if self.s.xhtml else "<hr>"
        return f'<div class="footnotes" role="doc-endnotes">\n{hr}\n<ol>\n'

    def r_footnote_open(self, r, tokens, idx, env):
        return f'<li id="fn:{tokens[idx].meta["id"] + 1}">\n'

    def r_footnote_anchor(self, r, tokens, idx, env):
        _, ref = self._footnote_ids(tokens[idx])
        return (
            f'&#160;<a href="#{ref}" class="footnote-backref" role="doc-backlink">'
            f"{self.s.footnote_backlink}</a>"
        )
