"""Derived cases by rounding are sound: on the reference engine, a ruleset that rounds scores the
unrounded deal and rounds each team's score, nothing else.

belote_ref.conformance.rounding sends a hand fixture worked out with ``scoring.rounding.mode: none``
to a ruleset that rounds, its ``deal_score`` rounded by the mode. These tests prove that reading on
whole random deals of every shipped ruleset, check the rounding arithmetic against the registry's
words, and check that every derived case of the corpus holds.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_symmetry import played_given

from belote_ref.conformance.corpus import canonical_result, compare_results, load_corpus
from belote_ref.conformance.rounding import ROUNDED_KINDS, ROUNDINGS, rounded_expectation, rounded_result
from belote_ref.conformance.runner import build_cases
from belote_ref.protocol.serve import run_case
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets
from belote_ref.engine.simulate import random_deal

SHIPPED = [find_ruleset(name) for name in shipped_rulesets()]


def with_rounding(rules: Ruleset, mode: str) -> Ruleset:
    return Ruleset.from_parameters({**rules.params, "scoring.rounding.mode": mode}, id=f"{rules.id}-{mode}")


@pytest.mark.parametrize(("mode", "points", "rounded"), [
    # The registry: "to the nearest ten; 5 goes up" / "5 goes down, 6 goes up" / "the nearest multiple of five".
    ("nearest_10_half_up", 85, 90), ("nearest_10_half_up", 84, 80), ("nearest_10_half_up", 162, 160),
    ("nearest_10_six_up", 85, 80), ("nearest_10_six_up", 86, 90), ("nearest_10_six_up", 0, 0),
    ("nearest_5", 82, 80), ("nearest_5", 83, 85), ("nearest_5", 252, 250), ("nearest_5", 87, 85),
])
def test_each_mode_rounds_as_the_registry_says(mode: str, points: int, rounded: int) -> None:
    assert ROUNDINGS[mode](points) == rounded


def test_complement_160_is_not_derived() -> None:
    # The defenders get the rest of 160: not a rounding of each team's score alone.
    assert "complement_160" not in ROUNDINGS and "none" not in ROUNDINGS


@pytest.mark.parametrize("rules", SHIPPED, ids=lambda rules: rules.id)
@pytest.mark.parametrize("mode", sorted(ROUNDINGS))
def test_a_rounding_ruleset_rounds_each_teams_unrounded_score(rules: Ruleset, mode: str) -> None:
    exact, rounding = with_rounding(rules, "none"), with_rounding(rules, mode)
    rng = random.Random(f"{rules.id} {mode}")
    changed = scored = 0
    while scored < 60:
        state = random_deal(exact, rng)
        if state.score is None:
            continue
        given: dict[str, Any] = played_given(state)
        if exact["bidding.auction"] == "bids":
            given["bid"] = state.bid.to_json()  # type: ignore[attr-defined]
        else:  # a litige pot carried in, paid to the winners and then rounded with their score
            given["pot"] = rng.choice([0, 0, 5, 81, 166])
        unrounded = run_case(exact, "score", given)
        derived = rounded_result("score", unrounded, mode)
        assert compare_results("score", derived, run_case(rounding, "score", given)) == [], given
        changed += derived != unrounded
        scored += 1
    assert changed, "no deal's score was changed by the rounding: the test would prove nothing"


def test_every_derived_case_of_the_corpus_holds_on_the_engine() -> None:
    cases = [case for case in build_cases(load_corpus(), SHIPPED) if case.variant.startswith("@rounding=")]
    assert {case.ruleset.id for case in cases} >= {"ffb-coinche-2015", "ffb-contree-2016", "pagat-coinche"}
    assert {case.fixture.kind for case in cases} <= set(ROUNDED_KINDS)
    failures = []
    for case in cases:
        answer = canonical_result(case.fixture.kind, run_case(case.ruleset, case.fixture.kind, case.given))
        failures.extend(f"{case.key}: {line}" for line in compare_results(case.fixture.kind, case.expected, answer))
    assert failures == []


def test_a_fixture_that_applies_keeps_its_own_expectation() -> None:
    corpus = load_corpus()
    coinche = find_ruleset("ffb-coinche-2015")
    applying = [fixture for fixture in corpus if fixture.expected(coinche) is not None and fixture.kind == "score"]
    assert applying
    # build_cases asks for a derivation only when the fixture does not apply; the derivation of one
    # that applies under rounding none too would be another answer, so it must not be used then.
    cases = {case.id for case in build_cases(applying, [coinche])}
    assert not any("@rounding=" in case for case in cases)


def test_no_derivation_for_engine_fixtures_or_other_kinds() -> None:
    coinche = find_ruleset("ffb-coinche-2015")
    for fixture in load_corpus():
        if fixture.provenance != "hand" or fixture.kind not in ROUNDED_KINDS:
            assert rounded_expectation(fixture, coinche) is None, fixture.id


def test_a_ruleset_without_rounding_gets_no_derived_case() -> None:
    classic = find_ruleset("classic")
    assert classic["scoring.rounding.mode"] == "none"
    assert not [case for case in build_cases(load_corpus(), [classic]) if "@rounding=" in case.id]


def test_a_deal_ended_on_a_fault_is_never_derived_rounded() -> None:
    # Its forfeit (162, 182 with the belote) stands as the rule texts write it: nearest_5 would make 180.
    fixture = next(f for f in load_corpus() if f.id == "score.faults.revoke-by-the-belote-holder")
    rounding = find_ruleset("classic").with_parameter("scoring.rounding.mode", "nearest_5")
    assert fixture.expected(rounding) is None and rounded_expectation(fixture, rounding) is None
