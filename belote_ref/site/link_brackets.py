"""A Markdown extension that finds a link's closing bracket by reading forward from its opening one.

To find where a link's text ends, Python-Markdown works out, for every character of the text it is
reading, where the bracket open there closes, and reads the whole text again each time a link is
replaced by its placeholder (the text has changed). A paragraph of n links is then read n times:
the site's worked examples list many links in one paragraph (the rulesets a case applies to, the
rules it tests), and this was the largest single cost of the site's Markdown.

This extension has each link and reference pattern find its closing bracket by reading only the
brackets from the opening one on, in C (a regular expression), which gives the same end. A bracket
that has not closed after :data:`MAX_BRACKETS_READ` brackets is left to Python-Markdown's own
reading, which stays linear on a text of many unclosed brackets.
"""

from __future__ import annotations

import re
import types
from typing import Any

from markdown import Extension, Markdown  # type: ignore[import-untyped]
from markdown.inlinepatterns import LinkInlineProcessor  # type: ignore[import-untyped]

__all__ = ["MAX_BRACKETS_READ", "LinkBracketsExtension", "bracket_end", "makeExtension"]

#: How many brackets are read forward before Python-Markdown's own reading takes over.
MAX_BRACKETS_READ = 64
_BRACKET = re.compile(r"[\[\]]")


def bracket_end(data: str, index: int) -> int | None:
    """The index just past the ``]`` that closes the bracket opened just before ``index`` (the brackets
    between them balanced), None when it does not close; ``-1`` when :data:`MAX_BRACKETS_READ`
    brackets were read without it closing (the answer is not known)."""
    depth = 0
    for read, bracket in enumerate(_BRACKET.finditer(data, index)):
        if read == MAX_BRACKETS_READ:
            return -1
        if bracket.group() == "[":
            depth += 1
        else:
            depth -= 1
            if depth < 0:
                return bracket.end()
    return None


def _get_text(processor: Any, data: str, index: int) -> tuple[str, int, bool]:
    # Python-Markdown's LinkInlineProcessor.getText, the closing bracket found by bracket_end.
    end = bracket_end(data, index)
    if end == -1:
        return LinkInlineProcessor.getText(processor, data, index)  # type: ignore[no-any-return]
    if end is None:
        return data[index:], len(data), False
    return data[index:end - 1], end, True


class LinkBracketsExtension(Extension):  # type: ignore[misc]  # Python-Markdown is untyped
    def extendMarkdown(self, md: Markdown) -> None:  # Python-Markdown's name
        for processor in md.inlinePatterns:
            if isinstance(processor, LinkInlineProcessor):
                processor.getText = types.MethodType(_get_text, processor)


def makeExtension(**kwargs: Any) -> LinkBracketsExtension:  # Python-Markdown's name
    return LinkBracketsExtension(**kwargs)
