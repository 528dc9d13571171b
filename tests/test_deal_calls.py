"""A deal case can carry the auction that leads to its completion (issue 32): a taker of round 2
receives the turned card as a taker of round 1 does, and an engine that deals from its own
auction is checked on that path."""

from __future__ import annotations

import pytest

from belote_ref.conformance.corpus import load_corpus
from belote_ref.core.errors import BeloteRefError
from belote_ref.protocol.serve import run_case
from belote_ref.rules.ruleset import find_ruleset

BY_THE_CALLS = "deal.completion.dealer-takes-in-round-2-by-the-calls"
SOURCE = "deal.completion.dealer-takes"


def _fixture(fixture_id: str):  # type: ignore[no-untyped-def]
    return next(f for f in load_corpus() if f.id == fixture_id)


def test_the_case_inherits_its_hands_from_the_hand_fixture_it_is_made_from() -> None:
    derived, source = _fixture(BY_THE_CALLS), _fixture(SOURCE)
    assert derived.given["deck"] == source.given["deck"] and derived.given["dealer"] == source.given["dealer"]
    assert derived.data["expect"] == source.data["expect"]


@pytest.mark.parametrize("ruleset_id", ["classic", "pagat", "strict-1001"])
def test_the_reference_deals_through_the_calls(ruleset_id: str) -> None:
    fixture, rules = _fixture(BY_THE_CALLS), find_ruleset(ruleset_id)
    result = run_case(rules, "deal", fixture.given)
    assert result == fixture.expected(rules)
    assert "9C" in result["hands"]["N"]  # the turned card


def test_calls_that_do_not_end_with_the_given_taker_are_a_malformed_given() -> None:
    given = dict(_fixture(BY_THE_CALLS).given)
    rules = find_ruleset("classic")
    with pytest.raises(BeloteRefError, match="take by given.taker N"):
        run_case(rules, "deal", {**given, "calls": ["take"]})  # E, eldest, takes in round 1
    with pytest.raises(BeloteRefError, match="take by given.taker N"):
        run_case(rules, "deal", {**given, "calls": ["pass"] * 3})
    with pytest.raises(BeloteRefError, match="not allowed"):
        run_case(rules, "deal", {**given, "calls": ["pass"] * 7 + ["C"]})  # the turned suit in round 2
