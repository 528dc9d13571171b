"""The API reference page of the site, made from the docstrings."""

from __future__ import annotations

import re

import pytest

import belote_ref
from belote_ref.site.api_page import api_page, docstring_md
from belote_ref.site.pages import generate_pages

# Slow tier (the site built for its API page): left out of the quick default; see README.
pytestmark = pytest.mark.slow


def test_every_public_name_has_an_entry() -> None:
    page = api_page("en")
    for name in belote_ref.__all__:
        assert f"### `{name}`" in page, name
    assert "legal_plays(rules: 'Ruleset', trump: 'Suit | Trump', hand: 'CardSet', trick: 'Trick') -> 'CardSet'" in page
    assert "#### `DealState.copy`" in page and "#### `CardSet.isdisjoint`" in page


def test_the_docstrings_become_markdown() -> None:
    page = api_page("en")
    assert page.count("```") % 2 == 0
    prose = re.sub(r"```.*?```", "", page, flags=re.DOTALL)  # code blocks are shown as written
    assert not re.search(r":(class|func|meth|attr|data|mod):`", prose), "a reST role was left"
    assert "``" not in prose, "a reST literal was left"
    converted = docstring_md("""Read :class:`~belote_ref.core.cards.CardSet` and ``x``.

    >>> 1 + 1
    2

    A table:

    ====  ====
    a     b
    ====  ====
    1     2
    ====  ====

    Text again.
    """)
    assert converted.startswith("Read `CardSet` and `x`.")
    assert "```pycon\n>>> 1 + 1\n2\n```" in converted
    assert "```text\n====  ====\na     b\n====  ====\n1     2\n====  ====\n```" in converted
    assert converted.endswith("Text again.")


def test_the_page_is_in_the_english_navigation() -> None:
    site = generate_pages()
    assert "en/api.md" in site.pages
    english = next(section for section in site.nav if "English" in section)["English"]
    assert {"API reference": "en/api.md"} in english
