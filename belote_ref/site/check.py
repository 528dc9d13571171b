"""``belote-ref docs check``: read a built site as its readers would and count what lets them down.

For every page (``index.html``) of the site: links to a page or an anchor that is not there; on a French
page, sentences in English outside a block marked ``lang="en"`` (a sentence is English when its
function words say so: :func:`~belote_ref.core.language.language_of`); quotations (``<blockquote>``)
with no label after them saying whether they are the source's words, a translation or a summary;
headings that skip a level (h1 to h3). It also gives each language's search index size. Each count
but the sizes must be 0.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from belote_ref.core.language import language_of
from belote_ref.site.search_hook import index_path
from belote_ref.site.wording import LANGUAGES

__all__ = ["SiteCheck", "check_site"]

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Text a reader does not read as the page's prose: code, the card diagrams' names, proper names.
_NOT_PROSE_TAGS = {"code", "pre", "script", "style", "svg", "kbd"}
_NOT_PROSE_CLASSES = {"bt-diagram", "bt-name", "bt-card", "bt-cards", "bt-pid", "bt-lang"}
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")


class _Page(HTMLParser):
    """One page's links, anchors, headings, quotations and, in its article, its prose by language."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.headings: list[int] = []
        self.quotes = 0
        self.labelled_quotes = 0
        self.prose: list[str] = []
        self._stack: list[tuple[str, bool, bool]] = []  # tag, not prose, in the article
        self._not_prose = 0
        self._in_article = 0
        self._after_quote = False
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {key: value or "" for key, value in attrs}
        if attributes.get("id"):
            self.ids.add(attributes["id"])
        if attributes.get("name") and tag == "a":
            self.ids.add(attributes["name"])
        if tag == "a" and "href" in attributes:
            self.links.append(attributes["href"])
        if tag in _VOID:
            return
        classes = set(attributes.get("class", "").split())
        # The first block after a quotation is its label or not, in a page of any language (on an English
        # page the whole of <html lang="en"> is "not prose" to the French-sentence count).
        if self._in_article and tag not in {"blockquote"} and self._after_quote \
                and tag in {"p", "div", "ul", "ol", "h2", "h3", "hr", "details", "table"}:
            self.labelled_quotes += "bt-quote-label" in classes
            self._after_quote = False
        not_prose = (tag in _NOT_PROSE_TAGS or bool(classes & _NOT_PROSE_CLASSES)
                     or attributes.get("lang", "fr") != "fr" or attributes.get("translate") == "no")
        article = tag == "article"
        if self._in_article and re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        if self._in_article and tag == "blockquote":
            self.quotes += 1
        self._flush()
        self._stack.append((tag, not_prose, article))
        self._not_prose += not_prose
        self._in_article += article

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID or not any(open_tag == tag for open_tag, _, _ in self._stack):
            return
        self._flush()
        while self._stack:
            open_tag, not_prose, article = self._stack.pop()
            self._not_prose -= not_prose
            self._in_article -= article
            if open_tag == "blockquote" and self._in_article:
                self._after_quote = True
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._in_article and not self._not_prose:
            self._text.append(data)

    def _flush(self) -> None:
        text = " ".join("".join(self._text).split())
        if text:
            self.prose.append(text)
        self._text = []

    def close(self) -> None:
        super().close()
        self._flush()


@dataclass
class SiteCheck:
    """What ``docs check`` found in a built site (problems as ``page: detail`` lines)."""

    pages: int = 0
    broken_links: list[str] = field(default_factory=list)
    english_on_french_pages: list[str] = field(default_factory=list)
    unlabelled_quotations: list[str] = field(default_factory=list)
    skipped_headings: list[str] = field(default_factory=list)
    index_bytes: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not (self.broken_links or self.english_on_french_pages or self.unlabelled_quotations
                    or self.skipped_headings)


def _pages(site: Path) -> Iterator[tuple[str, Path]]:
    for path in sorted(site.rglob("*.html")):
        yield path.relative_to(site).as_posix(), path


def _target(page: str, href: str) -> tuple[str, str] | None:
    """The page (site-relative) and anchor a link points to; None for a link outside the site."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
        return None
    path = unquote(parts.path)
    if not path:
        return page, unquote(parts.fragment)
    base = "" if path.startswith("/") else posixpath.dirname(page)  # 404.html links from the site's root
    joined = posixpath.normpath(posixpath.join(base, path.lstrip("/")) or ".")
    if joined == ".":
        return "index.html", unquote(parts.fragment)
    if path.endswith("/") or not posixpath.splitext(joined)[1]:
        joined = posixpath.join(joined, "index.html")
    return joined, unquote(parts.fragment)


def check_site(site: str | Path) -> SiteCheck:
    """Check the built site in folder ``site`` (see the module's docstring)."""
    site = Path(site)
    parsed: dict[str, _Page] = {}
    for relative, path in _pages(site):
        page = _Page()
        page.feed(path.read_text(encoding="utf-8", errors="replace"))
        page.close()
        parsed[relative] = page
    result = SiteCheck(pages=sum(1 for name in parsed if name.endswith("index.html")))
    files = {relative for relative, _ in _pages(site)} | {p.relative_to(site).as_posix() for p in site.rglob("*")
                                                          if p.is_file()}
    for relative, page in parsed.items():
        for href in page.links:
            target = _target(relative, href)
            if target is None:
                continue
            name, anchor = target
            if name not in files:
                result.broken_links.append(f"{relative}: {href} (no such page)")
            elif anchor and name in parsed and anchor not in parsed[name].ids:
                result.broken_links.append(f"{relative}: {href} (no such anchor)")
        if relative.startswith("fr/"):
            english = [sentence for text in page.prose for sentence in _SENTENCE_END.split(text)
                       if language_of(sentence, minimum=2) == "en"]
            if english:
                result.english_on_french_pages.append(f"{relative}: {english[0][:100]!r}")
        # The API reference's docstrings quote no source: their blockquotes are indented text.
        if page.quotes > page.labelled_quotes and "/api/" not in f"/{relative}":
            result.unlabelled_quotations.append(f"{relative}: {page.quotes - page.labelled_quotes} of {page.quotes}")
        for before, after in zip(page.headings, page.headings[1:], strict=False):
            if after > before + 1:
                result.skipped_headings.append(f"{relative}: h{before} then h{after}")
                break
    for lang in LANGUAGES:
        index = index_path(site, lang)
        if index.is_file():
            result.index_bytes[lang] = index.stat().st_size
    return result
