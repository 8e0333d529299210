"""Images alone in a paragraph (``markup.goldmark.parser.wrapStandAloneImageWithinParagraph``).

Hugo marks an image that is its paragraph's only content as a block image (render hooks
see ``is_block``) and, with the setting off, writes it in place of the paragraph, with the
paragraph's attributes.
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
            if len(children) == 1 and paragraph.type == "paragraph_open" and not paragraph.hidden:
                # Written in place of the paragraph, with its attributes (a tight list
                # item's text is no paragraph in Goldmark).
                paragraph.hidden = tokens[i + 1].hidden = True
                child.meta["attrs"] = paragraph.meta.get("block_attrs", [])
