"""The "May I play this card?" page without a browser: the answer the browser computes (the same
module, run here by CPython), the page's text, and the build's files with and without Pyodide."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from belote_ref.core.errors import BeloteRefError
from belote_ref.rules.ruleset import find_ruleset
from belote_ref.site import load_site_data
from belote_ref.site.browser_assets import PYODIDE_FILES, browser_assets
from belote_ref.site.may_i_play import answer, contract_choices, house_choice, ruleset_choices
from belote_ref.site.may_i_play_page import may_i_play_md


def test_the_answer_is_the_engine_s_legal_cards_and_a_rule_for_each_other() -> None:
    result = answer("classic", "H", "8D AD", "TS 9H QH 7C")
    assert result["legal"] == ["9H", "QH"]
    assert [(item["card"], item["rule"]) for item in result["illegal"]] == [("TS", "play.must_trump"),
                                                                          ("7C", "play.must_trump")]


def test_lower_case_and_tens_are_read() -> None:
    assert answer("classic", "h", "as 10h", "7h qh kd 8c")["legal"] == ["7H", "QH"]


@pytest.mark.parametrize(("args", "says"), [
    (("classik", "H", "", "7H"), "did you mean 'classic'"),
    (("classic", "X", "", "7H"), "not a contract"),
    (("classic", "H", "8D AD", "TS AD"), "AD is given twice"),
    (("classic", "H", "7S 8S 9S TS", "7H"), "at most 3 cards"),
    (("classic", "H", "", ""), "the hand is empty"),
    (("classic", "H", "", "ZZ"), "ZZ"),
])
def test_a_situation_that_cannot_be_read_is_one_line_of_error(args: tuple[str, str, str, str], says: str) -> None:
    result = answer(*args)
    assert set(result) == {"error"} and says in result["error"] and "\n" not in result["error"]


def test_the_choices_are_the_shipped_rulesets_classic_first() -> None:
    assert ruleset_choices()[0] == "classic" and "pagat" in ruleset_choices()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_page_names_every_rule_the_engine_may_give_with_its_section(lang: str) -> None:
    page = may_i_play_md(load_site_data(), lang, 14)
    config = json.loads(re.search(r'<script type="application/json" id="bt-mip-config">(.*?)</script>', page).group(1))
    for rule in ("play.follow_suit", "play.must_trump", "play.must_overtrump", "play.card_in_hand",
                 "play.partner_master_exception", "tout_atout.must_head"):
        assert config["rules"][rule]["href"].startswith("../rules/"), rule
    assert "14" in config["words"]["loading"].replace("{megabytes}", "14")


def test_without_pyodide_the_assets_say_why_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(BeloteRefError) as caught:
        browser_assets(tmp_path)
    assert "\n" not in str(caught.value) and caught.value.code == "no_browser_engine"
    (tmp_path / "package.json").write_text('{"dependencies": {"pyodide": "314.0.8"}}', encoding="utf-8")
    with pytest.raises(BeloteRefError, match=r"Pyodide is not installed .*browser/fetch"):
        browser_assets(tmp_path)
    pyodide = tmp_path / "node_modules" / "pyodide"
    pyodide.mkdir(parents=True)
    (pyodide / "package.json").write_text('{"version": "0.1.0"}', encoding="utf-8")
    with pytest.raises(BeloteRefError, match=r"not the pinned 314\.0\.8"):
        browser_assets(tmp_path)
    (pyodide / "package.json").write_text('{"version": "314.0.8"}', encoding="utf-8")
    with pytest.raises(BeloteRefError, match=r"lacks pyodide\.mjs"):
        browser_assets(tmp_path)
    for name in PYODIDE_FILES:
        (pyodide / name).write_bytes(b"")
    with pytest.raises(BeloteRefError, match="no wheels"):
        browser_assets(tmp_path)


HOUSE = "id: our-club\nversion: 1\ntitle: Our club\nextends: classic\nplay: {undertrump_over_opponent: optional}\n"


def test_under_a_house_rule_its_values_decide() -> None:
    # The README's example: under classic S must undertrump with 7H or QH; the house rule lets him discard.
    assert answer("classic", "H", "AS 9H", "7H QH KD 8C")["legal"] == ["7H", "QH"]
    assert answer("house", "H", "AS 9H", "7H QH KD 8C", HOUSE) == {"legal": ["7H", "QH", "KD", "8C"], "illegal": []}


def test_a_house_rule_that_cannot_be_read_is_its_first_error_on_one_line() -> None:
    result = answer("house", "H", "", "7H", HOUSE.replace("optional", "sometimes"))
    assert result == {"error": "5:8: play.undertrump_over_opponent: expected one of required, optional; "
                               "found a string \"sometimes\""}
    assert house_choice("")["error"] == "1:1: the file is empty; expected a mapping"


def test_only_the_ruleset_s_contracts_are_offered_and_answered() -> None:
    assert contract_choices(find_ruleset("classic")) == ["H", "S", "D", "C"]
    assert contract_choices(find_ruleset("classic-sa-ta")) == ["H", "S", "D", "C", "SA", "TA"]
    assert answer("classic", "TA", "", "7H")["error"] == "TA is not a contract of classic (bidding.contracts: suit)"
    sa_ta = HOUSE.replace("extends: classic", "extends: classic-sa-ta")
    assert house_choice(sa_ta) == {"title": {"en": "Our club", "fr": "Our club"},
                                   "contracts": ["H", "S", "D", "C", "SA", "TA"]}
    assert "legal" in answer("house", "TA", "", "7H", sa_ta)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_page_offers_each_ruleset_s_contracts_a_house_rule_and_the_32_cards(lang: str) -> None:
    page = may_i_play_md(load_site_data(), lang, 14)
    config = json.loads(re.search(r'<script type="application/json" id="bt-mip-config">(.*?)</script>', page).group(1))
    assert config["contracts"]["classic"] == ["H", "S", "D", "C"]
    assert config["contracts"]["ffb-coinche-2015"][-2:] == ["SA", "TA"]
    assert 'id="bt-mip-house"' in page and 'id="bt-mip-house-file"' in page and 'value="house"' in page
    cards = re.findall(r'<button type="button" class="bt-mip-card" data-card="(\w\w)"', page)
    assert len(set(cards)) == 32 and {"7S", "TH", "AC", "JD"} <= set(cards)
