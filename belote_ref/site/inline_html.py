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

It does so twice. Before the HTML blocks are read (:class:`InlineHtmlPreprocessor`), it takes the
elements of the lines where nothing could read them otherwise than as inline HTML: then neither
Python-Markdown's reading of the HTML blocks nor MkDocs' search for anchors reads their tags one by
one (those two readings were a fifth of the site's Markdown). The conditions are in
:func:`inline_elements`. Then, among the inline patterns (:class:`InlineHtmlProcessor`), after every
pattern of the links (a link's text is read first, as before) and just before Python-Markdown's own tag
pattern, it takes the elements the first pass left, in the text Markdown has read by then.
"""

from __future__ import annotations

import re
from typing import Any

from markdown import Extension, Markdown  # type: ignore[import-untyped]
from markdown.inlinepatterns import HTML_RE, InlineProcessor  # type: ignore[import-untyped]
from markdown.preprocessors import Preprocessor  # type: ignore[import-untyped]

from belote_ref.core.errors import InternalError

__all__ = ["InlineHtmlExtension", "inline_element_end", "inline_elements", "makeExtension"]

_TAG = re.compile(HTML_RE)
_SPAN_TAG = re.compile(r"</?span\b")
# Text that comes out of Python-Markdown as it went in: no emphasis (* _), no character that HTML escapes
# but a character reference (which the entity pattern stores as it is), no attribute list ({ }), no
# backslash or backtick, no other pattern's placeholder (\x02 \x03) and no line break.
_INERT_TEXT = re.compile(r"(?:[^*_&<>{}\\`\x02\x03\n]|&(?:#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z0-9]+);)*")
# Python-Markdown's tag pattern is priority 90, the last of the link patterns 110.
_PRIORITY = 95
# After the fenced blocks (25) and the site's raw blocks (24), before MkDocs' anchors (21) and the HTML
# blocks (20) are read.
_PREPROCESSOR_PRIORITY = 23
_SPAN = re.compile(r"<span\b")
# In an element taken before the patterns run, what a pattern that runs before the tag pattern could read
# (a link's brackets, a code span's backtick, an escape, a mail address, a table's cell) or an anchor MkDocs
# must see.
_READ_BEFORE_THE_TAGS = re.compile(r"[\[\]`\\@|]|(?i:\s(?:id|name)\s*=)")
# A line that may not be a paragraph's or a heading's: indented (code, a list's inner block), a reference
# definition, an admonition's or a details' title, a table's row, one with an escape.
_SET_APART_LINE = re.compile(r"^(?:[\s\[!?]|.*[\\|])")


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
        if text is None:
            raise InternalError("broken invariant: the pattern of inert text matches the empty text")
        index = text.end()
        if index == len(data) or data[index] != "<":
            return None


def inline_elements(lines: list[str]) -> list[tuple[int, int, int]]:
    """The ``<span>`` elements of a page's ``lines`` (index of the line, start, end) that Markdown would
    read as inline HTML written as it is (:func:`inline_element_end`), wherever they are: on a line that
    is not :data:`_SET_APART_LINE`, in a paragraph whose lines each hold an even number of single
    backticks, after an even number on its line (not in a code span), not after an image's ``![`` nor in
    a link's address or title (after its ``](``, before the ``)`` that ends it, no quote between), and
    holding nothing :data:`_READ_BEFORE_THE_TAGS`."""
    found: list[tuple[int, int, int]] = []
    paragraph_start = 0
    for index, line in enumerate(lines):
        if not line.strip():
            paragraph_start = index + 1
            continue
        if "<span" not in line or _SET_APART_LINE.match(line):
            continue
        paragraph_end = next((after for after in range(index, len(lines)) if not lines[after].strip()), len(lines))
        if any(other.count("`") % 2 or "``" in other for other in lines[paragraph_start:paragraph_end]):
            continue
        taken_to = 0
        for span in _SPAN.finditer(line):
            start = span.start()
            if start < taken_to or line.count("`", 0, start) % 2 or "![" in line[:start]:
                continue
            address = line.rfind("](", 0, start)
            if address >= 0 and (")" not in line[address:start] or '"' in line[address:start]
                                 or "'" in line[address:start]):
                continue
            end = inline_element_end(line, start)
            if end is None or _READ_BEFORE_THE_TAGS.search(line, start, end):
                continue
            found.append((index, start, end))
            taken_to = end
    return found


class InlineHtmlPreprocessor(Preprocessor):  # type: ignore[misc]  # Python-Markdown is untyped
    """Stores the page's :func:`inline_elements` in the HTML stash, before the HTML blocks are read."""

    def run(self, lines: list[str]) -> list[str]:
        out = list(lines)
        for index, start, end in reversed(inline_elements(lines)):
            line = out[index]
            out[index] = line[:start] + self.md.htmlStash.store(line[start:end]) + line[end:]
        return out


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
        md.preprocessors.register(InlineHtmlPreprocessor(md), "belote_ref_inline_html", _PREPROCESSOR_PRIORITY)
        md.inlinePatterns.register(InlineHtmlProcessor(r"<span\b", md), "belote_ref_inline_html", _PRIORITY)


def makeExtension(**kwargs: Any) -> InlineHtmlExtension:  # Python-Markdown's name
    return InlineHtmlExtension(**kwargs)
