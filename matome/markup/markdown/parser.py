"""The markdown-it parser set up as Hugo's Goldmark: CommonMark plus Hugo's extensions.

Hugo runs Goldmark with its extensions (tables, strikethrough, linkify, task lists,
footnotes, definition lists, typographer, heading attributes, emoji) each switched by the
``markup`` config; this builds a MarkdownIt instance with the same set, markdown-it's
rules replaced by the Goldmark-like ones of this package and the core fix-ups run in
Goldmark's order.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin

from .block_attributes import attributes_rule, block_attributes_core
from .blocks import ascii_trimmed, footnote_first_definition_core, reference_then_paragraph
from .emoji import emoji_rule
from .extras import tags_by_char, tags_post, tags_rule
from .headings import heading_attributes_core
from .images import standalone_images_core
from .inline import (
    core_inline,
    escape_rule,
    newline_rule,
    strikethrough_post,
    strikethrough_tokenize,
    task_rule,
    text_rule,
)
from .library_internals import ruler_rules
from .linkify import label_rule, linkify_rule, raw_html_keeps_link_level
from .lists import deflist_terms_core, deflist_tightness_core, list_tightness_core
from .passthrough import passthrough_blocks_core, passthrough_rule
from .rawhtml import html_block_rule, lowercase_declaration
from .settings import Settings
from .tables import tables_core
from .typographer import typographer_rule


def build_parser(s: Settings) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True, "xhtmlOut": s.xhtml, "breaks": s.hard_wraps})
    # Goldmark neither punycodes hosts nor refuses "dangerous" links (it empties their href).
    # Destinations stay as written until they are written out (render hooks get them so).
    md.normalizeLink = _as_written
    md.normalizeLinkText = _as_written
    md.validateLink = lambda url: True
    if s.footnote:
        footnote_plugin(md, inline=False)
    if s.definition_list:
        deflist_plugin(md)
    _install_block_rules(md, s)
    _install_inline_rules(md, s)
    _install_core_rules(md, s)
    return md


def _as_written(url: str) -> str:
    return url


def _find_rule(ruler, name: str):
    return next(r for r in ruler_rules(ruler) if r.name == name)


def _replace_rule(ruler, name: str, wrap) -> None:
    rule = _find_rule(ruler, name)
    ruler.at(name, wrap(rule.fn), {"alt": list(rule.alt)})


def _install_block_rules(md: MarkdownIt, s: Settings) -> None:
    for kind in ("paragraph", "heading", "lheading"):
        _replace_rule(md.block.ruler, kind, lambda fn, kind=kind: ascii_trimmed(fn, kind))
    _replace_rule(md.block.ruler, "html_block", html_block_rule)
    paragraph = _find_rule(md.block.ruler, "paragraph").fn
    _replace_rule(md.block.ruler, "reference", lambda fn: reference_then_paragraph(fn, paragraph))
    if s.attribute_block:
        # An attribute line ends a paragraph, and a block quote's or list's lazy lines.
        alt = ["paragraph", "reference", "blockquote", "list"]
        md.block.ruler.before("paragraph", "gm_attributes", attributes_rule, {"alt": alt})


def _install_inline_rules(md: MarkdownIt, s: Settings) -> None:
    ruler = md.inline.ruler
    delimiters = s.passthrough_block + s.passthrough_inline
    ruler.at("text", text_rule(s.linkify, "".join({o[0] for o, _ in delimiters})))
    if delimiters:
        rule = passthrough_rule(s.passthrough_block, s.passthrough_inline)
        ruler.before("escape", "gm_passthrough", rule)
    ruler.at("newline", newline_rule)
    _replace_rule(ruler, "escape", lambda fn: escape_rule(fn, s.cjk_escaped_space))
    if s.task_list:
        ruler.before("link", "task_checkbox", task_rule)
    if s.linkify:
        ruler.after("text", "gm_linkify", linkify_rule(s.linkify_protocol))
        openers = [r.fn for r in ruler_rules(ruler) if r.name in ("link", "footnote_ref")]
        ruler.before("link", "link_labels", label_rule(openers))
    ruler.before("html_inline", "gm_declaration_case", lowercase_declaration)
    _replace_rule(ruler, "html_inline", raw_html_keeps_link_level)
    tags = tags_by_char(s.extras, s.strikethrough)
    if s.strikethrough and "~" not in tags:
        ruler.before("emphasis", "gm_strikethrough", strikethrough_tokenize)
        md.inline.ruler2.before("emphasis", "gm_strikethrough", strikethrough_post)
    if tags:
        ruler.before("emphasis", "gm_extras", tags_rule(tags))
        md.inline.ruler2.before("emphasis", "gm_extras", tags_post(frozenset(tags)))
    if s.emoji:
        ruler.push("emoji", emoji_rule)
    if s.typographer:
        ruler.push("typographer", typographer_rule(s.typographer))


def _install_core_rules(md: MarkdownIt, s: Settings) -> None:
    md.core.ruler.at("inline", core_inline)
    last = "inline"
    if s.passthrough_block:
        md.core.ruler.after(last, "passthrough_blocks", passthrough_blocks_core)
        last = "passthrough_blocks"
    if not s.wrap_standalone_images:
        md.core.ruler.after(last, "standalone_images", standalone_images_core)
    # Block-level fix-ups, in Goldmark's order: duplicate footnotes are dropped, definition
    # terms interrupt paragraphs while blocks are parsed, tables are cut out of finished
    # paragraphs, and list tightness is decided when the list closes.
    fixups = [
        ("footnote_first", footnote_first_definition_core, s.footnote),
        ("deflist_terms", deflist_terms_core, s.definition_list),
        ("tables", tables_core, s.table),
        ("list_tightness", list_tightness_core, True),
        ("deflist_tightness", deflist_tightness_core, s.definition_list),
    ]
    fixups.append(("block_attributes", block_attributes_core, s.attribute_block))
    previous = "block"
    for name, rule, enabled in fixups:
        if enabled:
            md.core.ruler.after(previous, name, rule)
            previous = name
    if s.attribute_title:
        md.core.ruler.before("inline", "heading_attributes", heading_attributes_core)
