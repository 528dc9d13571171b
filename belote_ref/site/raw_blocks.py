"""A Markdown extension that passes the site's pre-rendered HTML blocks through untouched.

The generated pages carry large blocks of HTML made by the site's templates (a worked example's
diagram, its answers): each on one line of its own, between blank lines. Inside a ``markdown`` block
(``md_in_html``) Python-Markdown parses such a block tag by tag into elements, marks their text as not
Markdown, and writes them out again: the same HTML, for about half of the time spent on the site's
Markdown. This extension stores each such line in the HTML stash before that parser runs, as Markdown
does with a raw HTML block at the top level, so it is written out as it is.

A line is taken only when it is one whole ``<div class="bt-...">`` element (its ``div`` tags balanced,
the first one closed at the line's end), holds no ``markdown`` attribute (no Markdown inside to
parse), starts at the line's first column and stands between blank lines (else it could be part of a
paragraph or of an indented block). It runs after the fenced blocks are stashed, so a fence's content
is never taken.
"""

from __future__ import annotations

import re
from typing import Any

from markdown import Extension, Markdown  # type: ignore[import-untyped]
from markdown.preprocessors import Preprocessor  # type: ignore[import-untyped]

__all__ = ["RawBlocksExtension", "is_raw_block", "makeExtension"]

_OPENS = re.compile(r"<div\b")
_CLOSES = re.compile(r"</div\s*>")
_DIV_TAG = re.compile(r"</?div\b[^>]*>")
_MARKDOWN_ATTRIBUTE = re.compile(r"\smarkdown\s*=|\smarkdown[\s>]")


def is_raw_block(line: str) -> bool:
    """Whether ``line`` is one whole ``<div class="bt-...">`` element with no Markdown inside."""
    if not line.startswith('<div class="bt-') or not line.endswith("</div>"):
        return False
    if _MARKDOWN_ATTRIBUTE.search(line):
        return False
    depth = 0
    for tag in _DIV_TAG.finditer(line):
        depth += -1 if tag.group(0).startswith("</") else 1
        if depth == 0:
            return tag.end() == len(line)
    return False


class RawBlocksPreprocessor(Preprocessor):  # type: ignore[misc]  # Python-Markdown is untyped
    """Stores each pre-rendered HTML line (:func:`is_raw_block`) between blank lines in the HTML stash."""

    def run(self, lines: list[str]) -> list[str]:
        out = list(lines)
        for index, line in enumerate(lines):
            if (line.startswith('<div class="bt-')
                    and (index == 0 or not lines[index - 1].strip())
                    and (index + 1 == len(lines) or not lines[index + 1].strip())
                    and is_raw_block(line)):
                out[index] = self.md.htmlStash.store(line)
        return out


class RawBlocksExtension(Extension):  # type: ignore[misc]  # Python-Markdown is untyped
    def extendMarkdown(self, md: Markdown) -> None:  # Python-Markdown's name
        # After the fenced blocks (25) are stashed, before the HTML blocks are parsed (20).
        md.preprocessors.register(RawBlocksPreprocessor(md), "belote_ref_raw_blocks", 24)


def makeExtension(**kwargs: Any) -> RawBlocksExtension:  # Python-Markdown's name
    return RawBlocksExtension(**kwargs)
