"""The site build's faster readings give what the slower ones gave: the search parser
(belote_ref/site/search_parser.py) cuts pages into Material's sections, the raw blocks
(belote_ref/site/raw_blocks.py) pass only whole pre-rendered HTML lines through Markdown untouched, and
a link's closing bracket (belote_ref/site/link_brackets.py) is the one Python-Markdown finds."""

from __future__ import annotations

import random
from typing import Any

import markdown  # type: ignore[import-untyped]
import pytest
from markdown.inlinepatterns import LinkInlineProcessor  # type: ignore[import-untyped]
from material.plugins.search.plugin import Parser  # type: ignore[import-untyped]

from belote_ref.site import generate_pages, load_site_data
from belote_ref.site.inline_html import inline_element_end, inline_elements
from belote_ref.site.link_brackets import MAX_BRACKETS_READ, bracket_end
from belote_ref.site.raw_blocks import is_raw_block
from belote_ref.site.search_parser import _UNTAKEN, FastParser

PAGES = [
    # A worked example's shape: an excluded section holding headings, kept text, lists, code, entities.
    ('<h1 id="x">A &amp; B</h1>\n<ul>\n<li>Kind: <code>play</code></li>\n<li></li>\n</ul>\n'
    '<section data-search-exclude>\n<div class="bt-example">\n<h2 id="the-situation">The situation'
    '<a class="headerlink" href="#the-situation" title="Permanent link">&para;</a></h2>\n'
    '<div class="bt-diagram"><p class="bt-caption">Trump</p><br /><span title="a &quot;b&quot;">10</span></div>\n'
    '</div>\n<h2 id="story">Story</h2><p>Told.</p>\n</section>\n<h2 id="note">Note</h2>\n'
    '<p>Line one\nline two &lt;here&gt; <!-- a comment --> <em>é</em></p>\n<pre><code>{\n  "a":  1\n}</code></pre>\n'
    "<script>if (a < b) { document.write('</div>') }</script><p>after</p>"),
    # No h1 first, a nested heading, an unclosed tag, upper-case names, an attribute without a value.
    ('<p>Preface</p><DIV class=linenodiv>1 2</DIV><details open><summary>More</summary>'
    '<h3 id="deep">Deep</h3><p>Inside</p></details><p>Back out<sup>2</sup></p><p>x'),
    # What the fast reading does not take is read by HTMLParser: a stray "<".
    "<h1 id=\"a\">T</h1><p>1 < 2</p>",
]
# The worked example's shape without its script: read as tokens as it goes, the skipped section's tags
# read for their headings only (one skipped element's class spelled with a character reference).
PAGES.append(PAGES[0].split("<script>")[0].replace('<div class="bt-example">', '<div class="&#108;inenodiv">'))
# Inside a skipped element: a nested element of the skipped one's tag (Material ends the skip at its end
# tag), an end tag that closes nothing open, void and self-closing tags, a heading whose parent closes.
PAGES.append('<h1 id="t">T</h1><div data-search-exclude><p>a<br><span/><em>b</i></em></p><div>in</div>'
             'out of the skip</div><section data-search-exclude><div><h2 id="s">S</h2><p>c</p></div>'
             '<div><b>d</b></div></section><p>after</p>')


def _sections(parser_class: Any, page: str) -> list[tuple[Any, ...]]:
    parser = parser_class()
    parser.feed(page)
    parser.close()
    return [(s.el.tag, s.el.attrs, s.id, s.depth, s.title, s.text, s.is_excluded()) for s in parser.data]


@pytest.mark.parametrize("page", PAGES)
def test_the_fast_search_parser_cuts_a_page_into_materials_sections(page: str) -> None:
    assert _sections(FastParser, page) == _sections(Parser, page)


def test_a_page_with_a_script_or_a_stray_angle_bracket_is_not_read_as_tokens_as_it_goes() -> None:
    assert _UNTAKEN.search(PAGES[0])  # its script
    assert _UNTAKEN.search(PAGES[2])  # its stray "<"
    assert not _UNTAKEN.search(PAGES[1])
    assert not _UNTAKEN.search(PAGES[3])
    assert not _UNTAKEN.search(PAGES[4])


def test_a_stray_angle_bracket_hands_the_page_to_htmlparser() -> None:
    assert FastParser()._calls(PAGES[2]) is None
    assert FastParser()._calls(PAGES[0]) is not None


def test_only_a_whole_pre_rendered_div_line_is_a_raw_block() -> None:
    assert is_raw_block('<div class="bt-result"><div class="bt-x"><p>a</p></div></div>')
    assert not is_raw_block('<div class="bt-result"><p>a</p></div><div class="bt-x">b</div>')  # two elements
    assert not is_raw_block('<div class="bt-result" markdown><p>a</p></div>')  # Markdown inside
    assert not is_raw_block('<div class="bt-result"><p>a</p>')  # not closed on its line
    assert not is_raw_block('<div class="other"><p>a</p></div>')  # not the site's own


def test_a_raw_block_comes_out_as_it_went_in_and_the_rest_is_still_markdown() -> None:
    block = '<div class="bt-diagram"><p class="bt-caption">*not emphasis* &amp; 10</p></div>'
    source = f'<div class="bt-left" markdown>\n\n## Here\n\n{block}\n\nSome *words*.\n\n</div>\n'
    plain = markdown.Markdown(extensions=["md_in_html"]).convert(source)
    fast = markdown.Markdown(extensions=["md_in_html", "belote_ref.site.raw_blocks"]).convert(source)
    assert block in fast
    assert "<em>words</em>" in fast
    assert fast.replace(">\n<", "><") == plain.replace(">\n<", "><")


def test_a_closing_bracket_read_forward_is_the_one_python_markdown_finds() -> None:
    texts = ["", "[", "]", "a]b", "[a]]", "x [a [b] c] d] e", "[[[", "]]]", "[]" * MAX_BRACKETS_READ + "]",
             "[" * (MAX_BRACKETS_READ + 1) + "]" * (MAX_BRACKETS_READ + 2)]
    draw = random.Random(30)
    texts += ["".join(draw.choice("[]ab") for _ in range(draw.randrange(40))) for _ in range(500)]
    for text in texts:
        expected = LinkInlineProcessor._findBracketEnds(text)
        for index in range(len(text) + 1):
            found = bracket_end(text, index)
            if found != -1:
                assert found == expected[index], (text, index)
    assert bracket_end("[" * MAX_BRACKETS_READ + "]", 0) == -1  # left to Python-Markdown


INLINE = [
    '<span class="bt-card bt-red" title="ace of hearts">A<span class="bt-suit">&#9829;</span></span>',  # whole
    '<span class="bt-call" title="80H">80 <span class="bt-suit">&hearts;</span></span> (E)',  # whole, then text
    '<span class="bt-word">*not* emphasis</span>',  # emphasis inside: tag by tag
    '<span class="bt-word">a & b</span>',  # a bare "&": tag by tag
    '<span class="bt-word">open',  # never closed
    '<span title="x">a</span></span>',  # one more end tag than start tags
    '<span class="bt-kv"><b>N</b> <code>W</code></span>',  # other tags inside
]


def test_a_span_is_stored_whole_only_when_markdown_would_write_it_as_it_is() -> None:
    assert inline_element_end(INLINE[0], 0) == len(INLINE[0])
    assert inline_element_end(INLINE[1], 0) == len(INLINE[1]) - len(" (E)")
    assert [inline_element_end(text, 0) for text in INLINE[2:5]] == [None, None, None]
    assert inline_element_end(INLINE[5], 0) == len(INLINE[5]) - len("</span>")
    assert inline_element_end(INLINE[6], 0) == len(INLINE[6])


@pytest.mark.parametrize("text", INLINE)
def test_a_span_stored_whole_or_tag_by_tag_is_the_same_html(text: str) -> None:
    source = f"*Said*: {text} and `<span>` [a link](x.md) <span>*b*</span>.\n\n## A {text}\n"
    plain = markdown.Markdown(extensions=_SITE_EXTENSIONS).convert(source)
    assert markdown.Markdown(extensions=[*_SITE_EXTENSIONS, "belote_ref.site.inline_html"]).convert(source) == plain


CARD = '<span class="bt-card" title="ace of hearts">A<span class="bt-suit">&#9829;</span></span>'
# Where a span is read otherwise than as inline HTML, or may be: each page is the same HTML either way.
PLACES = [
    f"{CARD} opens a paragraph,\nand {CARD} ends its second line.",
    f"# A heading {CARD}\n\n- a list {CARD}\n- item",
    f"A `code span {CARD}` and `one\nacross lines {CARD}` here.",
    f"An ``escaped ` tick {CARD}`` span.",
    f"A [link {CARD}](x.md) and [one](x.md \"its title {CARD}\") and ![an image {CARD}](i.png).",
    f"[ref]: x.md \"{CARD}\"\n\n[a reference][ref] {CARD}",
    f"    indented code {CARD}\n\nafter",
    f"| a | b |\n|---|---|\n| {CARD} | c |",
    f'<div class="raw">\n{CARD} in a raw block\n</div>\n\n<div markdown>\n\n{CARD} in a Markdown one\n\n</div>',
    f'!!! note "An admonition {CARD}"\n\n    Inside {CARD}',
    f"\\{CARD} escaped, *emphasis {CARD}*, **{CARD}**.",
    '<span id="here" class="x">an anchor</span> and <span title="[not] a link">x</span>.',
    f"<!-- a comment {CARD} -->\n\nText {CARD}{{: .x }}",
    "A line with a span but no card: <span>plain</span> <span>*stars*</span>",
]


@pytest.mark.parametrize("text", PLACES)
def test_a_span_stored_before_the_html_blocks_are_read_is_the_same_html(text: str) -> None:
    extensions = [*_SITE_EXTENSIONS, "belote_ref.site.link_brackets"]
    plain = markdown.Markdown(extensions=extensions).convert(text)
    assert markdown.Markdown(extensions=[*extensions, "belote_ref.site.inline_html"]).convert(text) == plain


def test_only_the_spans_of_plain_paragraphs_are_taken_before_the_html_blocks_are_read() -> None:
    def taken(text: str) -> list[tuple[int, int]]:
        return [(line, start) for line, start, _ in inline_elements(text.splitlines())]

    assert taken(PLACES[0]) == [(0, 0), (1, PLACES[0].splitlines()[1].index("<span"))]
    assert taken(PLACES[4]) == [(0, PLACES[4].index("<span"))]  # in a link's text, not its title nor an image
    for text in (PLACES[2], PLACES[3], PLACES[6], PLACES[7], PLACES[11]):  # code, indented, a table, an anchor
        assert taken(text) == [], text


_SITE_EXTENSIONS = ["admonition", "attr_list", "md_in_html", "tables", "toc", "pymdownx.details",
                    "pymdownx.superfences", "belote_ref.site.raw_blocks"]


def _body(page: str) -> str:
    return page.split("\n---\n", 1)[1] if page.startswith("---\n") else page


@pytest.fixture(scope="module")
def site_sources() -> dict[str, str]:
    """Real pages of the site, as Markdown: the pages with the most links (the indexes, the sources, the
    rules), and one worked example in ten."""
    pages = generate_pages(load_site_data(), ["house-rules.md", "protocol.md"]).pages
    by_links = sorted(pages, key=lambda name: -pages[name].count("]("))
    chosen = by_links[:40] + [name for name in sorted(pages) if "/fixtures/" in name][::10]
    return {name: _body(pages[name]) for name in chosen}


@pytest.mark.slow
@pytest.mark.parametrize("extension", ["belote_ref.site.link_brackets", "belote_ref.site.inline_html"],
                         ids=["links read forward", "inline html stored whole"])
def test_a_fast_markdown_extension_gives_the_site_pages_the_same_html(site_sources: dict[str, str],
                                                                      extension: str) -> None:
    for name, source in site_sources.items():
        plain = markdown.Markdown(extensions=_SITE_EXTENSIONS).convert(source)
        fast = markdown.Markdown(extensions=[*_SITE_EXTENSIONS, extension]).convert(source)
        assert fast == plain, name


@pytest.mark.slow
def test_the_fast_search_parser_cuts_the_site_pages_into_materials_sections(site_sources: dict[str, str]) -> None:
    read_as_tokens = 0
    for name, source in site_sources.items():
        page = markdown.Markdown(extensions=_SITE_EXTENSIONS).convert(source)
        read_as_tokens += not _UNTAKEN.search(page)
        assert _sections(FastParser, page) == _sections(Parser, page), name
    assert read_as_tokens > len(site_sources) // 2  # the reading as tokens is the one compared
