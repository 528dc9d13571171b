"""The "Score a deal" page's answer (belote_ref.site.score_a_deal) against the hand fixtures' expected
deal scores: every pair (score hand fixture, shipped ruleset it applies to) that the form can express,
typed as the page's form would be, both as the eight tricks and as the cards each side won."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from belote_ref.conformance.corpus import Fixture, load_corpus
from belote_ref.core.cards import Card, Rank, Seat, Suit, Trump, parse_card, trump_of
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets
from belote_ref.site.data import load_site_data
from belote_ref.site.score_a_deal import DealForm, answer, answer_json, ruleset_needs
from belote_ref.site.score_a_deal_page import score_a_deal_md, score_a_deal_page

_MULTIPLIER_WORDS = {1: "", 2: "coinche"}


def _belote_text(belote: Any) -> str:
    if belote is None:
        return ""
    if isinstance(belote, Mapping):
        return " ".join(f"{suit}:{seat}" for suit, seat in belote.items())
    return str(belote)


def _form(fixture: Fixture, rules: Ruleset) -> DealForm | None:
    """The fixture's situation as the page's form, or None when the form cannot say it (a fault, a
    multiplier the coinche list does not offer)."""
    given = fixture.given
    if "fault" in given:
        return None
    bid, multiplier = "", ""
    if "bid" in given:
        value, times = given["bid"].get("value"), given["bid"].get("multiplier", 1)
        words = {**_MULTIPLIER_WORDS, rules["auction.surcoinche_multiplier"]: "surcoinche"}
        if times not in words:
            return None
        bid, multiplier = str(value), words[times]
    announcements = "\n".join(f"{item['seat']} {item['kind']} {' '.join(item['cards'])}"
                              for item in given.get("announcements") or [])
    return DealForm(ruleset=rules.id, dealer=given["dealer"], taker=given["taker"], trump=given["trump"],
                    mode="tricks", tricks="\n".join(" ".join(trick["cards"]) for trick in given["tricks"]),
                    belote=_belote_text(given.get("belote")), announcements=announcements, bid=bid,
                    multiplier=multiplier, pot=str(given.get("pot") or ""))


def _piles_form(form: DealForm, fixture: Fixture, rules: Ruleset, expected: Mapping[str, Any]) -> DealForm | None:
    """The same deal as the cards each side won, or None where the form in piles cannot say it: who
    held which card decides (announcements found in the hands, a générale), or the order of a belote's
    king and queen does (belote.king_first)."""
    given = fixture.given
    if (rules["announcements.enabled"] and rules["announcements.declared"] == "automatic") or \
            given.get("bid", {}).get("value") == "generale":
        return None
    won: dict[str, list[str]] = {"NS": [], "EW": []}
    for trick, winner in zip(given["tricks"], expected["trick_winners"], strict=True):
        won[Seat.parse(winner).team.value] += trick["cards"]
    played: dict[Card, tuple[Seat, int]] = {}
    for number, trick in enumerate(given["tricks"]):
        for offset, token in enumerate(trick["cards"]):
            played[parse_card(token)] = (Seat((Seat.parse(trick["leader"]) + offset) & 3), number * 4 + offset)
    trump = trump_of(Trump.parse(given["trump"]))
    belote = form.belote
    for suit in rules.belote_suits[trump]:
        king, queen = played[Card.of(Rank.KING, suit)], played[Card.of(Rank.QUEEN, suit)]
        if king[0] is queen[0] and rules["belote.king_first"] and queen[1] < king[1]:
            return None
        if rules["belote.announcement"] == "automatic" and king[0] is queen[0] and not belote:
            belote = king[0].name if len(rules.belote_suits[trump]) == 1 else f"{Suit(suit).letter}:{king[0].name}"
    return dataclasses.replace(form, mode="piles", tricks="", ns_won=" ".join(won["NS"]), ew_won=" ".join(won["EW"]),
                               last=expected["trick_winners"][-1], belote=belote)


def _pairs() -> Iterator[tuple[Fixture, str]]:
    """Every (score hand fixture, shipped ruleset) whose expected result is a deal score."""
    for fixture in load_corpus():
        if fixture.kind != "score" or fixture.provenance != "hand":
            continue
        for ruleset_id in shipped_rulesets():
            expected = fixture.expected(find_ruleset(ruleset_id))
            if expected is not None and "deal_score" in expected:
                yield fixture, ruleset_id


PAIRS = list(_pairs())
#: The pairs the form can say: all but the deals ended on a fault and a coinche the form does not offer.
CASES = [(fixture, ruleset_id) for fixture, ruleset_id in PAIRS if _form(fixture, find_ruleset(ruleset_id))]


def test_the_form_says_nearly_every_scored_deal_of_the_corpus() -> None:
    assert len({fixture.id for fixture, _ in CASES}) > 100
    assert len({ruleset_id for _, ruleset_id in CASES}) == len(shipped_rulesets())
    unsaid = {fixture.id for fixture, ruleset_id in PAIRS if (fixture, ruleset_id) not in CASES}
    assert len(CASES) > 0.9 * len(PAIRS), sorted(unsaid)
    assert all(".faults." in name or ".bids." in name for name in unsaid), sorted(unsaid)


@pytest.mark.parametrize(("fixture", "ruleset_id"), CASES, ids=[f"{f.id}@{r}" for f, r in CASES])
def test_the_page_scores_the_fixture_as_its_hand_worked_result(fixture: Fixture, ruleset_id: str) -> None:
    rules = find_ruleset(ruleset_id)
    expected = fixture.expected(rules)
    assert expected is not None
    form = _form(fixture, rules)
    assert form is not None
    shown = answer(form)
    assert "error" not in shown, shown
    assert shown["deal_score"] == expected["deal_score"]
    assert shown["contract"] == expected["contract"]
    for team in ("NS", "EW"):  # the sheet's lines add up to the team's score
        assert sum(line["points"] for line in shown["lines"] if line["team"] == team) == shown["deal_score"][team]
    piles = _piles_form(form, fixture, rules, expected)
    if piles is not None:
        counted = answer(piles)
        assert "error" not in counted, counted
        assert (counted["deal_score"], counted["card_points"], counted["belote"]) == \
               (expected["deal_score"], expected["card_points"], expected["belote"])


def test_most_deals_are_also_said_as_the_cards_each_side_won() -> None:
    piles = 0
    for fixture, ruleset_id in CASES:
        rules = find_ruleset(ruleset_id)
        form, expected = _form(fixture, rules), fixture.expected(rules)
        assert form is not None and expected is not None
        piles += _piles_form(form, fixture, rules, expected) is not None
    assert piles > 0.7 * len(CASES)


def test_every_line_names_a_registry_parameter_the_page_links_to() -> None:
    from belote_ref.rules.registry import load_registry

    parameters = set(load_registry().parameters)
    for fixture, ruleset_id in CASES[::7]:
        form = _form(fixture, find_ruleset(ruleset_id))
        if form is not None:
            for line in answer(form)["lines"]:
                assert line["rule"] in parameters, (fixture.id, line)


CLASSIC_DEAL = DealForm(ruleset="classic", dealer="E", taker="E", trump="C", tricks="""KC 8C JC AC
AD QD KD TD
AS 7S KS QS
7D JD 8D 9D
TS JS 9S 8S
AH KH QH TH
JH 9H 8H 7H
9C QC TC 7C""", belote="S")


@pytest.mark.parametrize(("change", "words"), [
    ({"ruleset": "clasic"}, "did you mean 'classic'"),
    ({"house": "id: x\nversion: 1\ntitle: X\nextends: classicc\n"}, ":4:1: extends: unknown parent ruleset"),
    ({"house": "id: [unclosed"}, "house-rule.yaml"),
    ({"trump": "X"}, "X"),
    ({"trump": "SA"}, "does not play the contract SA"),
    ({"dealer": "Q"}, "dealer: expected a seat"),
    ({"tricks": "KC 8C JC AC"}, "give the 8 tricks"),
    ({"tricks": CLASSIC_DEAL.tricks.replace("KC 8C JC AC", "KC 8C JC")}, "trick 1 has 3 cards"),
    ({"tricks": CLASSIC_DEAL.tricks.replace("7C", "ZZ")}, "ZZ"),
    ({"tricks": CLASSIC_DEAL.tricks.replace("7C", "KC")}, "card KC is played twice"),
    ({"belote": "E"}, "did not play both the king and the queen"),
    ({"belote": "N S"}, "belote: the seat"),
    ({"announcements": "N tierce 7H 8H 9H"}, "announcements are not played"),
    ({"bid": "80"}, "has no bids"),
    ({"pot": "-5"}, "litige pot"),
    ({"mode": "guess"}, "mode must be tricks or piles"),
    ({"mode": "piles", "ns_won": "KC 8C JC", "last": "N"}, "NS won 3 cards"),
    ({"mode": "piles", "ns_won": "KC 8C JC AC KC", "last": "N"}, "NS won KC twice"),
    ({"mode": "piles", "ns_won": "KC 8C JC AC", "ew_won": "KC", "last": "N"}, "both sides won KC"),
    ({"mode": "piles", "ns_won": "KC 8C JC AC", "ew_won": "QC", "last": "N"}, "no side won"),
    ({"mode": "piles", "ns_won": "KC QC JC AC", "last": "E", "belote": "E"}, "E held 2 of the cards NS won"),
    ({"mode": "piles", "ns_won": "", "ew_won": "", "last": "E"}, "give the cards each side won"),
])
def test_bad_input_gets_one_line_saying_what_is_wrong(change: dict[str, str], words: str) -> None:
    shown = answer(dataclasses.replace(CLASSIC_DEAL, **change))
    assert set(shown) == {"error"}
    assert "\n" not in shown["error"] and "Traceback" not in shown["error"]
    assert words in shown["error"]


def test_the_bidding_family_asks_for_the_bid_and_refuses_one_off_the_ladder() -> None:
    coinche = dataclasses.replace(CLASSIC_DEAL, ruleset="ffb-coinche-2015", belote="")
    assert "give the bid" in answer(coinche)["error"]
    assert "no bid of 85" in answer(dataclasses.replace(coinche, bid="85"))["error"]
    assert "coinche: none" in answer(dataclasses.replace(coinche, bid="80", multiplier="x9"))["error"]
    needs = ruleset_needs("ffb-coinche-2015")
    assert needs["bids"] is True and "SA" in needs["trumps"]
    assert ruleset_needs("classic")["bids"] is False
    assert set(ruleset_needs("nope")) == {"error"}


def test_a_house_rule_is_scored_by_its_own_values() -> None:
    house = "id: our-club\nversion: 1\ntitle: Our club\nextends: classic\nscoring: {chute: {base: 160}}\n"
    shown = answer(dataclasses.replace(CLASSIC_DEAL, house=house))
    assert shown["ruleset"] == "our-club"
    assert shown["deal_score"] == {"NS": 180, "EW": 0}  # the chute base 160 + the belote 20


def test_the_script_passes_the_form_as_json_text_and_gets_json_text() -> None:
    fields = {name: getattr(CLASSIC_DEAL, name) for name in ("ruleset", "dealer", "taker", "trump", "tricks", "belote")}
    shown = json.loads(answer_json(json.dumps(fields)))
    assert shown["deal_score"] == {"NS": 182, "EW": 0}
    assert set(json.loads(answer_json("[1, 2"))) == {"error"}
    assert "unknown field(s) colour" in json.loads(answer_json('{"colour": "red"}'))["error"]
    assert "West" not in answer(dataclasses.replace(CLASSIC_DEAL, dealer="O")).get("error", "")  # O: Ouest


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_page_links_every_rule_a_line_may_name_and_loads_its_script(lang: str) -> None:
    page = score_a_deal_md(load_site_data(), lang, 14)
    config = json.loads(re.search(r'<script type="application/json" id="bt-sad-config">(.*?)</script>', page)[1])
    for rule in ("scoring.chute.base", "belote.value", "scoring.last_trick_bonus", "scoring.bid.formula",
                 "scoring.litige.pot_to", "scoring.rounding.mode", "tout_atout.scale_to"):
        assert config["rules"][rule]["href"].startswith("../rules/") and "#" + rule in config["rules"][rule]["href"]
    assert config["teams"]["EW"] == ("EW" if lang == "en" else "EO")
    assert '<script type="module" src="../../engine/score-a-deal.js"></script>' in page
    assert "</script>" not in page.split('id="bt-sad-config">')[1].split("</script>")[0]


def test_the_site_lists_the_page_in_both_languages_beside_may_i_play() -> None:
    from belote_ref.site.browser_assets import BrowserAssets
    from belote_ref.site.pages import generate_pages

    site = generate_pages(load_site_data(), (), BrowserAssets({"engine/site-packages.zip": b"zip"}, "0"))
    assert score_a_deal_page("en") in site.pages and score_a_deal_page("fr") in site.pages
    assert site.files["engine/score-a-deal.js"].startswith(b"// \"Score a deal\"")
    assert score_a_deal_page("fr") in str(site.nav) and "Compter une donne" in str(site.nav)


def _house(changes: str) -> str:
    return f"id: house\nversion: 1\ntitle: House\nextends: classic\n{changes}\n"


def test_from_the_cards_won_an_announced_belote_counts_where_the_king_must_come_first() -> None:
    # The cards each side won do not say in which order the king and queen fell: the belote the reader
    # says was announced is laid out king first, so belote.king_first does not void it (162 + 20).
    piles = dataclasses.replace(CLASSIC_DEAL, house=_house("belote: {king_first: true}"), mode="piles", tricks="",
                                ns_won="KC 8C JC AC AD QD KD TD AS 7S KS QS", last="E")
    shown = answer(piles)
    assert shown["deal_score"] == {"NS": 182, "EW": 0} and shown["belote"] == "NS"


def test_from_the_cards_won_no_belote_is_made_up_where_it_is_credited_automatically() -> None:
    # Under belote.announcement automatic the engine credits whoever held the king and queen of trumps: laid
    # out from the cards won, they go to two seats unless the reader names the belote's holder.
    tricks = [line.split() for line in CLASSIC_DEAL.tricks.splitlines()]
    for split in range(1, 8):
        for last in ("N", "E"):
            ns = [card for trick in (tricks[:split] if last == "E" else tricks[split:]) for card in trick]
            piles = dataclasses.replace(CLASSIC_DEAL, house=_house("belote: {announcement: automatic}"), mode="piles",
                                        tricks="", belote="", ns_won=" ".join(ns), last=last)
            shown = answer(piles)
            assert shown["belote"] is None, (split, last, shown)
            held = dataclasses.replace(piles, belote="W")
            assert answer(held)["belote"] == "EW"
