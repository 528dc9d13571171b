"""Each hand fixture's quotation says what it is: the source's own words, a translation or a summary.

A quotation credited to a source is read as that source's words. ``source.quote_is`` says whether it
is (``words``, in the source's own language: the registry's ``lang``) or whether belote-ref translated
it (``translation``) or put it in its own words (``summary``), in the language ``source.quote_lang``.
The site prints that label beside the quotation, with how the source was read (the registry's
``read_through``: a transcription, a survey's quotations). Lint checks here that every hand fixture
has a label, that the label agrees with the text's language where the text says it clearly
(:func:`~belote_ref.core.language.language_of`), and that a quotation is plain text, not Markdown.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from belote_ref.conformance.corpus import Fixture
from belote_ref.core.errors import Diagnostic
from belote_ref.core.language import language_of
from belote_ref.rules.registry import Registry

__all__ = ["QUOTE_KINDS", "cited_sources", "quotation_problems", "quote_language"]

QUOTE_KINDS = ("words", "translation", "summary")

# Markdown a reader would see as raw characters in a quotation: a table row, emphasis, code, a heading.
_MARKDOWN = re.compile(r"(^|\n)\s*\||\|\s*$|\*\*|(?<![\w*])\*[^\s*][^*\n]*\*(?![\w*])|`|(^|\n)#{1,6} ")


def cited_sources(doc: str, registry: Registry) -> list[str]:
    """The registry's source ids named in a fixture's ``source.doc``, in the order it names them."""
    found = [(match.start(), sid) for sid in registry.sources
             for match in [re.search(rf"(?<![\w-]){re.escape(sid)}(?![\w-])", doc)] if match]
    return [sid for _, sid in sorted(found)]


def quote_language(source: Mapping[str, Any], registry: Registry) -> str | None:
    """The language a fixture's quotation is written in: its ``quote_lang``, else (its own words) the
    language of the first registry source it cites; ``None`` when neither says."""
    if source.get("quote_lang"):
        return str(source["quote_lang"])
    for sid in cited_sources(str(source.get("doc", "")), registry):
        lang = registry.sources[sid].get("lang")
        if lang:
            return str(lang)
    return None


def quotation_problems(fixture: Fixture, registry: Registry) -> list[Diagnostic]:
    if fixture.located is None or fixture.data.get("provenance") != "hand":
        return []
    at = fixture.located.diagnostic
    source = fixture.data.get("source") or {}
    quote = str(source.get("quote") or "")
    if not quote:
        return []
    problems = []
    kind = source.get("quote_is")
    if kind is None:
        return [at(("source",), "the quotation has no label: add quote_is (words: the source's own words; "
                   "translation or summary, with quote_lang: belote-ref's)", "lint.quote")]
    if _MARKDOWN.search(quote):
        problems.append(at(("source", "quote"), "a quotation is plain text: it shows Markdown (a table row, "
                           "emphasis or code) as raw characters", "lint.quote"))
    if kind != "words" and not source.get("quote_lang"):
        problems.append(at(("source", "quote_is"), f"a {kind} names its language: add quote_lang (en or fr)",
                           "lint.quote"))
    if kind == "words" and source.get("quote_lang"):
        problems.append(at(("source", "quote_lang"), "the source's own words are in the source's language: "
                           "quote_lang is for a translation or a summary", "lint.quote"))
    expected = quote_language(source, registry)
    written = language_of(quote)
    if expected and written and written != expected:
        cited = ", ".join(cited_sources(str(source.get("doc", "")), registry)[:1]) or "the source"
        problems.append(at(("source", "quote"), f"the quotation reads as {written} but "
                           + (f"{cited} is written in {expected}: label it translation or summary, with quote_lang"
                              if kind == "words" else f"quote_lang says {expected}"), "lint.quote"))
    return problems
