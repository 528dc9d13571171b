"""Material's search index, made with a faster reading of each page's HTML.

Material's search plugin reads every page's HTML with the standard library's ``HTMLParser`` to cut it
into sections; on this site (some 1,400 pages, their examples' diagrams included) that reading was a
fifth of MkDocs' work. :class:`FastParser` is Material's own parser fed by one regular expression
instead: the same handler calls, in the same order, for the HTML the site's Markdown makes (well-formed
tags, comments, text with character references). On anything else (a ``<`` that starts no tag, a
declaration, a processing instruction) it hands the whole page to ``HTMLParser`` as Material does.

Its handlers are Material's (mkdocs-material 9.x), with one change that keeps their meaning: Material
asks "is an element being skipped open?" as a set intersection of elements compared by tag through
Python methods, for every piece of text; here the same question is asked of the tags. The site's tests
check that both parsers cut the site's pages into the same sections, so a Material that changes its
parser fails them rather than changing the index unseen.

Imported by :mod:`belote_ref.site.search_hook` when the search plugin is on (Material is then installed).
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from material.plugins.search.plugin import (  # type: ignore[import-untyped]
    Element,
    Parser,
    SearchIndex,
    Section,
    escape,
    void,
)

__all__ = ["FastParser", "FastSearchIndex"]

_NAME = r"[a-zA-Z][^\t\n\r\f />\x00]*"
_ATTRIBUTE = r"""[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?"""
_TOKEN = re.compile(
    rf"<({_NAME})((?:\s+{_ATTRIBUTE})*)\s*(/?)>"  # a start tag (1: name, 2: attributes, 3: self-closing)
    rf"|</({_NAME})\s*>"  # an end tag (4)
    r"|<!--.*?-->"  # a comment
    r"|<!(?i:doctype)[^>]*>"  # the document type (a declaration: nothing to index)
    r"|([^<]+)",  # text (5)
    re.DOTALL,
)
_ATTRIBUTES = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")
_HEADINGS = frozenset(f"h{level}" for level in range(1, 7))
# Elements whose content HTMLParser reads as text up to their end tag.
_CDATA = ("script", "style")
# What FastParser._read does not take: a "<" that starts no token (_TOKEN), or an element read as text.
# A "<" inside a comment or an attribute's value may be taken for one: the page is then read as before.
_UNTAKEN = re.compile(rf"<(?!{_NAME}(?:\s+{_ATTRIBUTE})*\s*/?>|/{_NAME}\s*>|!--.*?-->|!(?i:doctype)[^>]*>)"
                      r"|<(?i:script|style)\b", re.DOTALL)
# In a start tag's attributes, what may make Material's handler skip the element (a character reference
# may spell a value).
_MAY_START_A_SKIP = re.compile(r"(?i:data-search-exclude)|linenodiv|&")


def _attributes(text: str) -> list[tuple[str, str | None]]:
    """A start tag's attributes as ``HTMLParser`` gives them: names lower-cased, values unquoted, unescaped."""
    found: list[tuple[str, str | None]] = []
    for name, value in _ATTRIBUTES.findall(text):
        if not value:
            found.append((name.lower(), None))
            continue
        if value[:1] == value[-1:] and value[:1] in "'\"" and len(value) > 1:
            value = value[1:-1]
        found.append((name.lower(), unescape(value) if value else value))
    return found


class FastParser(Parser):  # type: ignore[misc]  # Material is untyped
    """Material's search parser, fed by one regular expression (see the module's text)."""

    def feed(self, data: str) -> None:
        if not _UNTAKEN.search(data):
            self._read(data)
            return
        calls = self._calls(data)
        if calls is None:
            super().feed(data)
            return
        for call, *arguments in calls:
            call(*arguments)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The tags of ``self.context`` and of ``self.skip``, kept beside them by these handlers.
        self._tags: list[str] = []
        self._skipped_tags: set[str] = set()
        self._skip_changed()

    def _skip_changed(self) -> None:
        self._skipped_tags = {getattr(member, "tag", member) for member in self.skip}

    def _skipping(self) -> bool:
        # Material: ``self.skip.intersection(self.context)``, its elements equal when their tags are.
        return not self._skipped_tags.isdisjoint(self._tags)

    def _in_title(self) -> bool:
        # Material: ``self.section.el in self.context``, its elements equal when their tags are.
        return self.section.el.tag in self._tags

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        el = Element(tag, attributes)
        if tag in void:
            return
        self.context.append(el)
        self._tags.append(tag)
        if tag in _HEADINGS:
            depth = len(self.context)
            if "id" in attributes:
                if tag != "h1" and not self.data:
                    self.section = Section(Element("hx"), depth)
                    self.data.append(self.section)
                self.section = Section(el, depth)
                if self.data:
                    self.section.id = attributes["id"]
                self.data.append(self.section)
        if not self.section:
            self.section = Section(Element("hx"))
            self.data.append(self.section)
        for key, value in attributes.items():
            if key == "data-search-exclude" or (key == "class" and value == "linenodiv"):
                self.skip.add(el)
                self._skip_changed()
                return
        if tag in self.keep and not self._skipping():
            data = self.section.title if self._in_title() else self.section.text
            data.append(f"<{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if not self.context or self.context[-1].tag != tag:
            return
        if self.section.depth > len(self.context):
            for section in reversed(self.data):
                if section.depth <= len(self.context):
                    self.section.depth = float("inf")
                    self.section = section
                    break
        el = self.context.pop()
        self._tags.pop()
        if el in self.skip:
            if el.tag not in ["script", "style", "object"]:
                self.skip.remove(el)
                self._skip_changed()
            return
        if tag in self.keep and not self._skipping():
            data = self.section.title if self._in_title() else self.section.text
            index = data.index(f"<{tag}>")
            for i in range(index + 1, len(data)):
                if not data[i].isspace():
                    index = len(data)
                    break
            if len(data) > index:
                while len(data) > index:
                    data.pop()
            else:
                data.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if self._skipping():
            return
        in_pre = "pre" in self._tags
        if not in_pre:
            data = data.replace("\n", " ") if not data.isspace() else " "
        if not self.section:
            self.section = Section(Element("hx"))
            self.data.append(self.section)
        if self._in_title():
            if not any(el.tag == "a" and el.attrs.get("class") == "headerlink" for el in self.context):
                self.section.title.append(escape(data, quote=False))
        elif data.isspace():
            if not self.section.text or not self.section.text[-1].isspace() or in_pre:
                self.section.text.append(data)
        else:
            self.section.text.append(escape(data, quote=False))

    def _read(self, data: str) -> None:
        """Make the handler calls ``HTMLParser`` would make for ``data``, which holds nothing :data:`_UNTAKEN`,
        as the tokens are read. Inside a skipped element (the examples' diagrams, kept out of the search)
        its text is passed over (``handle_data`` drops it), and a tag that only opens or closes an element
        (no heading, link, void or self-closing element, nothing that starts a skip, an end tag that closes
        the innermost element, ends no skip and no section) is put on or taken off the context here, as the
        handlers would; the attributes of the others are read only when a handler looks at them."""
        context, tags = self.context, self._tags
        for token in _TOKEN.finditer(data):
            start, attributes, closed, end_tag, text = token.group(1, 2, 3, 4, 5)
            skipping = not self._skipped_tags.isdisjoint(tags)
            if text is not None:
                if not skipping:
                    self.handle_data(unescape(text))
            elif start is not None:
                tag = start.lower()
                if not skipping or tag in _HEADINGS or tag == "a" or _MAY_START_A_SKIP.search(attributes):
                    self.handle_starttag(tag, _attributes(attributes))
                elif closed or tag in void or not self.section:
                    self.handle_starttag(tag, [])
                else:
                    context.append(Element(tag))
                    tags.append(tag)
                    continue
                if closed:
                    self.handle_endtag(tag)
            elif end_tag is not None:
                tag = end_tag.lower()
                if (skipping and tags and tags[-1] == tag and tag not in self._skipped_tags
                        and self.section.depth <= len(context)):
                    context.pop()
                    tags.pop()
                else:
                    self.handle_endtag(tag)

    def _calls(self, data: str) -> list[tuple[Any, ...]] | None:
        """The handler calls ``HTMLParser`` would make for ``data``; None if the page holds what this reading
        does not take (it is then read by ``HTMLParser``)."""
        calls: list[tuple[Any, ...]] = []
        position, end = 0, len(data)
        while position < end:
            found = _TOKEN.match(data, position)
            if found is None:
                return None
            position = found.end()
            start, attributes, closed, end_tag, text = found.group(1, 2, 3, 4, 5)
            if text is not None:
                calls.append((self.handle_data, unescape(text)))
            elif start is not None:
                tag = start.lower()
                calls.append((self.handle_starttag, tag, _attributes(attributes)))
                if closed:
                    calls.append((self.handle_endtag, tag))
                elif tag in _CDATA:
                    close = re.compile(rf"</{tag}\s*>", re.IGNORECASE).search(data, position)
                    if close is None:
                        return None
                    if close.start() > position:
                        calls.append((self.handle_data, data[position:close.start()]))
                    calls.append((self.handle_endtag, tag))
                    position = close.end()
            elif end_tag is not None:
                calls.append((self.handle_endtag, end_tag.lower()))
        return calls


class FastSearchIndex(SearchIndex):  # type: ignore[misc]  # Material is untyped
    """Material's search index, each page read by :class:`FastParser`."""

    def add_entry_from_context(self, page: Any) -> None:
        search = page.meta.get("search") or {}
        if search.get("exclude"):
            return
        parser = FastParser()
        parser.feed(page.content)
        parser.close()
        for section in parser.data:
            if not section.is_excluded():
                self.create_entry_for_section(section, page.toc, page.url, page)
