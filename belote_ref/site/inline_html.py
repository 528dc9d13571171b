"""A Markdown extension that stores each of the site's inline pieces of HTML (a card, a call, a value)
in the HTML stash in one go, as the tags Python-Markdown would have stored one by one.

The generated pages draw cards, suits, calls and values as small ``<span>`` elements (:mod:`belote_ref.site.cardhtml`),
a few hundred to a page. Python-Markdown stores an inline tag at a time: each one rebuilds the text it
sits in, and the text between the tags is read again by the patterns that follow. This extension
stores a whole ``<span>`` element, its tags balanced, before the tag pattern runs, when nothing in it
would have been changed by what runs after: its text holds no character that the later patterns or
the writer act on (emphasis, a bare ``&``, ``<`` or ``>``, an attribute list, a line break; a character
reference is stored as it is either way) and nothing another pattern stored already. Taken tag by tag
or whole, it is the same HTML.

It runs after every pattern of the links (a link's text is read first, as before) and just before
Python-Markdown's own tag pattern, which takes what this one leaves.
"""

from __future__ import annotations

import re
from typing import Any

from markdown import Extension, Markdown  # type: ignore[import-untyped]
from markdown.inlinepatterns import HTML_RE, InlineProcessor  # type: ignore[import-untyped]

__all__ = ["InlineHtmlExtension", "inline_element_end", "makeExtension"]

_TAG = re.compile(HTML_RE)
_SPAN_TAG = re.compile(r"</?span\b")
# Text that comes out of Python-Markdown as it went in: no emphasis (* _), no character that HTML escapes
# but a character reference (which the entity pattern stores as it is), no attribute list ({ }), no
# backslash or backtick, no other pattern's placeholder (\x02 \x03) and no line break.
_INERT_TEXT = re.compile(r"(?:[^*_&<>{}\\`\x02\x03\n]|&(?:#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z0-9]+);)*")
# Python-Markdown's tag pattern is priority 90, the last of the link patterns 110.
_PRIORITY = 95


def inline_element_end(data: str, start: int) -> int | None:
    """The index just past the ``</span>`` that closes the ``<span`` at ``start``, when the element is one
    that Python-Markdown writes out as it is (its text inert, every tag whole); else None."""
    depth = 0
    index = start
    while True:
        tag = _TAG.match(data, index)
        if tag is None or tag.group(0).startswith("<!--") or "\x02" in tag.group(0) or "\n" in tag.group(0):
            return None
        if _SPAN_TAG.match(tag.group(0)):
            depth += -1 if tag.group(0)[1] == "/" else 1
        index = tag.end()
        if depth == 0:
            return index
        text = _INERT_TEXT.match(data, index)
        assert text is not None  # the pattern matches the empty text
        index = text.end()
        if index == len(data) or data[index] != "<":
            return None


class InlineHtmlProcessor(InlineProcessor):  # type: ignore[misc]  # Python-Markdown is untyped
    """Stores a whole inert ``<span>`` element (:func:`inline_element_end`) in the HTML stash."""

    def handleMatch(  # Python-Markdown's name
            self, m: re.Match[str], data: str) -> tuple[str | None, int | None, int | None]:
        end = inline_element_end(data, m.start(0))
        if end is None:
            return None, None, None
        return self.md.htmlStash.store(data[m.start(0):end]), m.start(0), end


class InlineHtmlExtension(Extension):  # type: ignore[misc]  # Python-Markdown is untyped
    def extendMarkdown(self, md: Markdown) -> None:  # Python-Markdown's name
        md.inlinePatterns.register(InlineHtmlProcessor(r"<span\b", md), "belote_ref_inline_html", _PRIORITY)


def makeExtension(**kwargs: Any) -> InlineHtmlExtension:  # Python-Markdown's name
    return InlineHtmlExtension(**kwargs)
