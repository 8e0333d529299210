"""Images alone in a paragraph (``markup.goldmark.parser.wrapStandAloneImageWithinParagraph``).

With the setting off, Hugo writes an image that is its paragraph's only content in place
of the paragraph, with the paragraph's attributes and nothing around it: the paragraph's
tokens become ``unwrapped_paragraph_open``/``_close``, which write nothing (hidden ones
would also drop the newline after a ``<blockquote>``, and add one before the next block).
Render hooks see an image that is its parent's only child (a paragraph's or a link's) as
``is_block``.
"""

from __future__ import annotations


def standalone_images_core(state) -> None:
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "inline" or not token.children:
            continue
        children = token.children
        for k, child in enumerate(children):
            if child.type != "image":
                continue
            # Goldmark's test: the image is its parent's only child (a link's too).
            alone = len(children) == 1 or (
                0 < k < len(children) - 1
                and children[k - 1].nesting == 1
                and children[k + 1].nesting == -1
            )
            if not alone:
                continue
            child.meta["is_block"] = True
            paragraph = tokens[i - 1]
            # A tight list item's text is no paragraph in Goldmark: it stays as it is.
            if len(children) == 1 and paragraph.type == "paragraph_open" and not paragraph.hidden:
                paragraph.type = "unwrapped_paragraph_open"
                tokens[i + 1].type = "unwrapped_paragraph_close"
                child.meta["attrs"] = paragraph.meta.get("block_attrs", [])
