"""The printed rule sheet: a club's own description is on it, and nothing dangles when printed."""

from __future__ import annotations

from pathlib import Path

from belote_ref.rules.ruleset import load_ruleset
from belote_ref.site import LANGUAGES, generate_pages, load_site_data

HOUSE_RULE = """\
id: our-club
version: 1
title: {en: Our club's belote, fr: La belote de notre club}
description:
  en: Played on Thursdays. A capot is worth 250.
  fr: Jouée le jeudi. Le capot vaut 250.
extends: classic
"""


def test_the_sheet_carries_the_club_description_in_each_language(tmp_path: Path) -> None:
    path = tmp_path / "our-club.yaml"
    path.write_text(HOUSE_RULE, encoding="utf-8")
    data = load_site_data([], extra_rulesets=[load_ruleset(path)])
    pages = generate_pages(data, []).pages
    expected = {"en": "Played on Thursdays. A capot is worth 250.", "fr": "Jouée le jeudi. Le capot vaut 250."}
    for lang in LANGUAGES:
        sheet = pages[f"{lang}/sheets/our-club.md"]
        assert expected[lang] in sheet, lang
        other = expected["fr" if lang == "en" else "en"]
        assert other not in sheet, lang


def test_the_separator_before_the_print_hint_is_hidden_with_it() -> None:
    pages = generate_pages(load_site_data([]), []).pages
    for lang in LANGUAGES:
        sheet = pages[f"{lang}/sheets/classic.md"]
        meta = next(line for line in sheet.splitlines() if "bt-print-hint" in line)
        assert '<span class="bt-print-hint"> · ' in meta, meta
        assert ' · <span class="bt-print-hint">' not in meta, meta
