"""A deal ended on a fault: given.fault of the score kind, its bad input, and who gets such cases."""

from __future__ import annotations

from typing import Any

import pytest

from belote_ref.conformance.applicability import Claims, must_be_listed
from belote_ref.core.errors import BeloteRefError
from belote_ref.protocol.serve import run_case
from belote_ref.rules.ruleset import find_ruleset

TRICKS = [
    {"leader": "S", "cards": ["KC", "8C", "JC", "AC"]},
    {"leader": "N", "cards": ["AD", "QD", "KD", "8H"]},
    {"leader": "N", "cards": ["AS", "7S", "KS", "QS"]},
    {"leader": "N", "cards": ["7D", "JD", "8D", "9D"]},
    {"leader": "E", "cards": ["TS", "JS", "9S", "8S"]},
    {"leader": "E", "cards": ["AH", "KH", "QH", "TH"]},
    {"leader": "E", "cards": ["JH", "9H", "TD", "7H"]},
    {"leader": "E", "cards": ["9C", "QC", "TC", "7C"]},
]
PLAYED = {"dealer": "E", "taker": "E", "trump": "C", "tricks": TRICKS, "belote": "S", "pot": 0}


def _score(given: dict[str, Any], ruleset: str = "classic") -> dict[str, Any]:
    return run_case(find_ruleset(ruleset), "score", given)


def test_a_deal_without_a_fault_is_scored_as_played() -> None:
    assert _score(PLAYED)["contract"] == "litige"  # 71 + 20 belote against 91


def test_a_revoke_found_at_the_end_gives_the_innocent_side_the_forfeit_and_its_own_belote() -> None:
    result = _score({**PLAYED, "fault": {"kind": "revoke", "by": "W", "trick": 2}})
    assert result["deal_score"] == {"NS": 162 + 20, "EW": 0}
    assert result["contract"] == "down"  # the offenders, EW, took


def test_the_forfeit_is_the_ruleset_s_value() -> None:
    classic = find_ruleset("classic").with_parameter("penalties.forfeit_value", 160)
    assert run_case(classic, "score", {**PLAYED, "fault": {"kind": "revoke", "by": "W", "trick": 2}})[
        "deal_score"] == {"NS": 180, "EW": 0}


def test_a_third_misdeal_gives_the_forfeit_and_passes_the_deal() -> None:
    result = _score({"dealer": "W", "fault": {"kind": "misdeal", "by": "W", "attempt": 3}})
    assert result == {"misdeal": "forfeit", "barred": None, "deal_score": {"NS": 162, "EW": 0}, "next_dealer": "N"}
    second = _score({"dealer": "W", "fault": {"kind": "misdeal", "by": "W", "attempt": 2}})
    assert second == {"misdeal": "redeal_barred", "barred": "EW", "deal_score": {"NS": 0, "EW": 0},
                      "next_dealer": "W"}


@pytest.mark.parametrize(("fault", "words"), [
    ("revoke", "given.fault must be an object"),
    ({"kind": "reneg", "by": "W", "trick": 2}, "given.fault.kind must be one of revoke, misdeal"),
    ({"kind": "revoke", "by": "X", "trick": 2}, "not a seat: 'X'"),
    ({"kind": "revoke", "by": "W"}, "given.fault.trick must be the revoke's trick, 1 to 8"),
    ({"kind": "revoke", "by": "W", "trick": 9}, "given.fault.trick must be the revoke's trick, 1 to 8"),
    ({"kind": "revoke", "by": "W", "trick": 2, "attempt": 1}, "a revoke takes by, kind, trick; found attempt"),
    ({"kind": "misdeal", "by": "N", "attempt": 2}, "a misdeal is the dealer's (W); found N"),
    ({"kind": "misdeal", "by": "W", "attempt": 0}, "given.fault.attempt must be a whole number >= 1"),
])
def test_a_malformed_fault_is_refused_in_one_line(fault: Any, words: str) -> None:
    given = {**PLAYED, "dealer": "W", "fault": fault} if isinstance(fault, dict) and fault.get("kind") == "misdeal" \
        else {**PLAYED, "fault": fault}
    with pytest.raises(BeloteRefError) as caught:
        _score(given)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_fault_case_goes_only_to_an_adapter_that_lists_its_penalties() -> None:
    depends_on = ["penalties.revoke.found_at_end", "penalties.forfeit_value", "belote.value"]
    listed = must_be_listed({**PLAYED, "fault": {"kind": "revoke", "by": "W", "trick": 2}}, depends_on)
    assert listed == ["penalties.revoke.found_at_end", "penalties.forfeit_value"]
    assert must_be_listed(PLAYED, depends_on) == []
    classic = find_ruleset("classic")
    by_ruleset = Claims.from_hello({"protocol": 3, "supports": {"kinds": ["score"], "rulesets": ["classic"]}})
    assert by_ruleset.reason_not_applicable("score", classic, depends_on, 1, listed) == (
        "a case with a fault needs penalties.revoke.found_at_end listed in supports.parameters")
    assert by_ruleset.reason_not_applicable("score", classic, depends_on, 1, []) is None
    naming = Claims.from_hello({"protocol": 3, "supports": {"kinds": ["score"], "rulesets": ["classic"], "parameters": {
        "penalties.revoke.found_at_end": ["deal_lost"], "penalties.forfeit_value": "*"}}})
    assert naming.reason_not_applicable("score", classic, depends_on, 1, listed) is None


# ----------------------------------------------------------------------------- faults in a match

MISDEAL_W = {"dealer": "W", "fault": {"kind": "misdeal", "by": "W", "attempt": 1}}
# Dealt by W, N takes hearts: NS 132, EW 30 (match.faults.misdeal-then-redeal).
PLAYED_BY_W = {"dealer": "W", "taker": "N", "trump": "H", "belote": None, "tricks": [
    {"leader": "N", "cards": ["AS", "TS", "KS", "QS"]}, {"leader": "N", "cards": ["JS", "9S", "8S", "7S"]},
    {"leader": "N", "cards": ["AD", "TD", "KD", "QD"]}, {"leader": "N", "cards": ["JD", "9D", "8D", "7D"]},
    {"leader": "N", "cards": ["7C", "AC", "TC", "KC"]}, {"leader": "E", "cards": ["QC", "JC", "9C", "8C"]},
    {"leader": "E", "cards": ["7H", "JH", "9H", "AH"]}, {"leader": "S", "cards": ["TH", "KH", "QH", "8H"]}]}


# The same deal dealt by N, every seat one on: E takes, EW 132, NS 30.
PLAYED_BY_N = {"dealer": "N", "taker": "E", "trump": "H", "belote": None, "tricks": [
    {"leader": "E" if index < 5 else "S" if index < 7 else "W", "cards": trick["cards"]}
    for index, trick in enumerate(PLAYED_BY_W["tricks"])]}


def _misdeal(attempt: int, by: str = "W") -> dict[str, Any]:
    return {"dealer": by, "fault": {"kind": "misdeal", "by": by, "attempt": attempt}}


def _match(deals: list[dict[str, Any]], ruleset: Any = None) -> dict[str, Any]:
    return run_case(ruleset or find_ruleset("classic"), "match", {"deals": deals})


def test_a_redeal_adds_a_row_of_unchanged_totals_and_the_redeal_is_scored() -> None:
    assert _match([MISDEAL_W, PLAYED_BY_W])["totals"] == [{"NS": 0, "EW": 0}, {"NS": 132, "EW": 30}]


def test_a_third_misdeal_in_a_row_gives_the_opponents_the_forfeit_of_the_ruleset() -> None:
    rules = find_ruleset("classic").with_parameter("penalties.forfeit_value", 160)
    assert _match([_misdeal(1), _misdeal(2), _misdeal(3)], rules)["totals"][-1] == {"NS": 160, "EW": 0}
    always = find_ruleset("classic").with_parameter("penalties.misdeal.repeat", "redeal_only")
    assert _match([_misdeal(1), _misdeal(2), _misdeal(3)], always)["totals"][-1] == {"NS": 0, "EW": 0}


def test_a_forfeit_counts_as_a_deal_and_can_end_a_match_of_deals() -> None:
    rules = (find_ruleset("classic").with_parameter("game.end", "deals").with_parameter("game.deal_limit", 1)
             .with_parameter("penalties.misdeal.repeat", "forfeit_at_second"))
    result = _match([_misdeal(1), _misdeal(2), PLAYED_BY_N], rules)
    assert result == {"totals": [{"NS": 0, "EW": 0}, {"NS": 162, "EW": 0}], "winner": "NS", "ended_after": 2}


def test_a_revoke_in_a_match_is_scored_as_in_score_and_the_match_goes_on() -> None:
    revoke = {**PLAYED, "fault": {"kind": "revoke", "by": "W", "trick": 2}}
    assert _match([revoke, PLAYED_BY_W])["totals"] == [{"NS": 182, "EW": 0}, {"NS": 314, "EW": 30}]


@pytest.mark.parametrize(("deals", "code", "index"), [
    ([MISDEAL_W, {**PLAYED_BY_W, "dealer": "N"}], "wrong_dealer", 1),
    ([_misdeal(1), _misdeal(1)], "wrong_attempt", 1),
    ([_misdeal(2)], "wrong_attempt", 0),
    ([_misdeal(1), _misdeal(2), {**PLAYED_BY_W, "taker": "E"}], "barred_taker", 2),
])
def test_an_impossible_fault_in_a_match_is_a_rejection_at_its_deal(deals: list[dict[str, Any]], code: str,
                                                                   index: int) -> None:
    assert _match(deals) == {"rejected": {"code": code, "index": index}}


def test_the_barred_team_may_take_again_once_the_redeal_is_played() -> None:
    deals = [_misdeal(1), _misdeal(2), PLAYED_BY_W, {**PLAYED_BY_W, "taker": "E"}]
    assert "rejected" not in _match(deals)


def test_a_match_with_a_fault_in_any_deal_needs_its_penalties_listed() -> None:
    depends_on = ["penalties.misdeal.repeat", "game.target_points"]
    assert must_be_listed({"deals": [PLAYED_BY_W, MISDEAL_W]}, depends_on) == ["penalties.misdeal.repeat"]
    assert must_be_listed({"deals": [PLAYED_BY_W]}, depends_on) == []


# ----------------------------------------------------------------------------- a revoke in a play case

# The deal of play-deal.faults.revoke-by-the-takers: W plays 8H on AD at trick 2 holding 9D and TD.
PLAY_GIVEN: dict[str, Any] = {
    "hands": {"N": ["JC", "AD", "AS", "7D", "8S", "TH", "7H", "7C"],
              "E": ["AC", "QD", "7S", "JD", "TS", "AH", "JH", "9C"],
              "S": ["KC", "KD", "KS", "8D", "JS", "KH", "9H", "QC"],
              "W": ["TC", "8H", "QS", "9D", "9S", "QH", "TD", "8C"]},
    "contract": {"trump": "C", "taker": "E"}, "leader": "S", "belote": "S",
    "plays": ["KC", "TC", "JC", "AC", "AD", "QD", "KD", "8H", "AS", "7S", "KS", "QS", "7D", "JD", "8D", "9D",
              "TS", "JS", "9S", "8S", "AH", "KH", "QH", "TH", "JH", "9H", "TD", "7H", "9C", "QC", "8C", "7C"]}


def _play(given: dict[str, Any], rules: Any = None) -> dict[str, Any]:
    return run_case(rules or find_ruleset("classic"), "play", given)


def test_without_the_fault_the_revoke_is_an_illegal_play() -> None:
    assert _play(PLAY_GIVEN) == {"rejected": {"code": "illegal_play", "index": 7}}


def test_the_named_revoke_is_let_through_and_the_deal_scored_by_the_ruleset_s_penalty() -> None:
    result = _play({**PLAY_GIVEN, "fault": {"kind": "revoke", "by": "W", "trick": 2}})
    assert result["trick_winners"] == ["N", "N", "N", "E", "E", "E", "E", "E"]
    assert result["score"]["deal_score"] == {"NS": 182, "EW": 0}
    choice = find_ruleset("classic").with_parameter("penalties.revoke.found_at_end", "innocent_choice")
    chosen = _play({**PLAY_GIVEN, "fault": {"kind": "revoke", "by": "W", "trick": 2}}, choice)
    assert chosen["trick_winners"] == ["N", "N", "N", "E", "E", "E", "E", "E"]  # as played
    assert chosen["score"]["trick_winners"] == ["N"] * 8 and chosen["score"]["deal_score"] == {"NS": 272, "EW": 0}


@pytest.mark.parametrize(("fault", "rejected"), [
    ({"kind": "revoke", "by": "W", "trick": 1}, {"code": "no_revoke", "index": 1}),
    ({"kind": "revoke", "by": "E", "trick": 2}, {"code": "no_revoke", "index": 5}),
    ({"kind": "revoke", "by": "W", "trick": 3}, {"code": "illegal_play", "index": 7}),
])
def test_a_fault_that_names_a_legal_card_is_no_revoke(fault: dict[str, Any], rejected: dict[str, Any]) -> None:
    assert _play({**PLAY_GIVEN, "fault": fault}) == {"rejected": rejected}


def test_a_misdeal_in_a_play_case_is_refused_in_one_line() -> None:
    with pytest.raises(BeloteRefError) as caught:
        _play({**PLAY_GIVEN, "fault": {"kind": "misdeal", "by": "W"}})
    assert "a misdeal has no plays" in str(caught.value) and "\n" not in str(caught.value)


# ----------------------------------------------------------------------------- a misdeal found late

@pytest.mark.parametrize(("late", "deal_score", "next_dealer"), [
    ("same_as_early", {"NS": 0, "EW": 0}, "W"),
    ("forfeit_after_trump", {"NS": 160, "EW": 0}, "N"),
    ("forfeit_plus_contract", {"NS": 160 + 100 * 2, "EW": 0}, "N"),
])
def test_a_misdeal_found_after_a_bid_is_priced_by_penalties_misdeal_late(late: str, deal_score: dict[str, int],
                                                                        next_dealer: str) -> None:
    rules = find_ruleset("ffb-contree-2016").with_parameter("penalties.misdeal.late", late)
    given = {"dealer": "W", "bid": {"value": 100, "multiplier": 2},
             "fault": {"kind": "misdeal", "by": "W", "late": True}}
    result = run_case(rules, "score", given)
    assert (result["deal_score"], result["next_dealer"]) == (deal_score, next_dealer)


def test_a_misdeal_found_early_ignores_penalties_misdeal_late() -> None:
    rules = find_ruleset("classic").with_parameter("penalties.misdeal.late", "forfeit_after_trump")
    assert _score({"dealer": "W", "fault": {"kind": "misdeal", "by": "W"}}, "classic")["misdeal"] == "redeal"
    assert run_case(rules, "score", {"dealer": "W", "fault": {"kind": "misdeal", "by": "W"}})["misdeal"] == "redeal"


def test_a_late_misdeal_forfeit_in_a_match_passes_the_deal() -> None:
    rules = find_ruleset("classic").with_parameter("penalties.misdeal.late", "forfeit_after_trump")
    late = {"dealer": "W", "fault": {"kind": "misdeal", "by": "W", "late": True}}
    assert _match([late, PLAYED_BY_N], rules)["totals"] == [{"NS": 162, "EW": 0}, {"NS": 192, "EW": 132}]
    assert _match([late, PLAYED_BY_W], rules) == {"rejected": {"code": "wrong_dealer", "index": 1}}


def test_late_must_be_a_boolean() -> None:
    with pytest.raises(BeloteRefError) as caught:
        _score({"dealer": "W", "fault": {"kind": "misdeal", "by": "W", "late": "yes"}})
    assert "given.fault.late must be true or false" in str(caught.value)
