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
