"""The site build's faster readings give what the slower ones gave: the search parser
(belote_ref/site/search_parser.py) cuts pages into Material's sections, and the raw blocks
(belote_ref/site/raw_blocks.py) pass only whole pre-rendered HTML lines through Markdown untouched."""

from __future__ import annotations

from typing import Any

import markdown  # type: ignore[import-untyped]
import pytest
from material.plugins.search.plugin import Parser  # type: ignore[import-untyped]

from belote_ref.site.raw_blocks import is_raw_block
from belote_ref.site.search_parser import FastParser

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


def _sections(parser_class: Any, page: str) -> list[tuple[Any, ...]]:
    parser = parser_class()
    parser.feed(page)
    parser.close()
    return [(s.el.tag, s.el.attrs, s.id, s.depth, s.title, s.text, s.is_excluded()) for s in parser.data]


@pytest.mark.parametrize("page", PAGES)
def test_the_fast_search_parser_cuts_a_page_into_materials_sections(page: str) -> None:
    assert _sections(FastParser, page) == _sections(Parser, page)


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
