"""Material's search index, made with a faster reading of each page's HTML.

Material's search plugin reads every page's HTML with the standard library's ``HTMLParser`` to cut it
into sections; on this site (some 1,400 pages, their examples' diagrams included) that reading was a
fifth of MkDocs' work. :class:`FastParser` is Material's own parser, whose handlers decide what goes in
the index, fed by one regular expression instead: the same calls, in the same order, for the HTML the
site's Markdown makes (well-formed tags, comments, text with character references). On anything else
(a ``<`` that starts no tag, a declaration, a processing instruction) it hands the whole page to
``HTMLParser`` as Material does, so the index is the same in every case.

Imported by :mod:`belote_ref.site.search_hook` when the search plugin is on (Material is then installed).
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from material.plugins.search.plugin import Parser, SearchIndex  # type: ignore[import-untyped]

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
# Elements whose content HTMLParser reads as text up to their end tag.
_CDATA = ("script", "style")


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
        calls = self._calls(data)
        if calls is None:
            super().feed(data)
            return
        for call, *arguments in calls:
            call(*arguments)

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
