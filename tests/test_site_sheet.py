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


def test_the_sheet_writes_card_values_and_orders_in_numbers() -> None:
    pages = generate_pages(load_site_data([]), []).pages
    french = pages["fr/sheets/classic.md"].replace("\u00a0", " ").replace("\u202f", " ")
    assert "Valeur habituelle des atouts : V 20, 9 14, A 11, 10 10, R 4, D 3, 8 0, 7 0</dd>" in french
    assert "V &gt; 9 &gt; A &gt; 10 &gt; R &gt; D &gt; 8 &gt; 7</dd>" in french
    english = pages["en/sheets/classic.md"]
    assert "J 20, 9 14, A 11, 10 10, K 4, Q 3, 8 0, 7 0" in english


def test_a_club_sheet_marks_what_the_club_changed_from_the_rules_it_extends(tmp_path: Path) -> None:
    # A house rule on top of contrée changes one rule: that one is marked, not contrée's own departures
    # from classic.
    path = tmp_path / "our-contree.yaml"
    path.write_text("id: our-contree\nversion: 1\ntitle: Our contrée\nextends: ffb-contree-2016\n"
                    "game: {target_points: 1500}\n", encoding="utf-8")
    data = load_site_data([], extra_rulesets=[load_ruleset(path)])
    pages = generate_pages(data, []).pages
    for lang in LANGUAGES:
        sheet = pages[f"{lang}/sheets/our-contree.md"]
        marked = [line for line in sheet.splitlines() if 'class="bt-changed"' in line]
        assert len(marked) == 1 and "1500" in marked[0], marked
        assert "ontrée (FFB 2016)" in sheet.split('class="bt-sheet-foot"')[1], lang
    contree = pages["fr/sheets/ffb-contree-2016.md"]
    assert contree.count('class="bt-changed"') > 3  # contrée's own sheet marks its departures from classic
