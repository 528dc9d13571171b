"""The self-consistency sweep (belote_ref.conformance.sweep) and the runner's safety net
(belote_ref.conformance.settled): a case is sent under a ruleset only if its expected answer is
the right answer there."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from belote_ref.conformance.corpus import Fixture, load_corpus
from belote_ref.conformance.settled import UNSETTLED_REASON, is_shipped_as_is, unsettled_reason
from belote_ref.conformance.sweep import (
    Draw,
    _make,
    case_differences,
    cases_under,
    draw_rulesets,
    drawable_values,
    shrink,
    sweep,
)
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import find_ruleset, shipped_rulesets

# Slow tier (the corpus under random rulesets): left out of the quick default; see README.
pytestmark = pytest.mark.slow

AUTOMATIC = (("announcements.enabled", True), ("announcements.declared", "automatic"))
HOUSE_RULE_FIXTURES = ("score.belote.no-belote-takers-king-and-queen",
                       "score.belote.no-belote-defenders-king-and-queen")


def fixture(fixture_id: str) -> Fixture:
    return next(f for f in load_corpus() if f.id == fixture_id)


def test_house_rule_with_automatic_announcements_passes_the_corpus() -> None:
    """The issue's house rule: classic with announcements counted automatically. Its 11 false
    failures (two score fixtures with their variants, one whole deal) are gone: the score fixtures
    carry a hand-worked branch and pass; the whole deal, which holds a quinte nobody declares, is
    pinned to declared announcements."""
    ruleset = _make(find_ruleset("classic"), AUTOMATIC)
    assert ruleset is not None
    cases = cases_under(load_corpus(), ruleset, every_branch=False)
    failing = [case.id for case in cases if case_differences(case)]
    assert failing == []
    ids = {case.id for case in cases}
    for fixture_id in HOUSE_RULE_FIXTURES:
        assert {fixture_id, f"{fixture_id}@trump=S", f"{fixture_id}@seats+1"} <= ids
        branch = next(case for case in cases if case.id == fixture_id)
        assert branch.expected["announcements"] == {"NS": 0, "EW": 100}
    assert "play-deal.bids-engine.capot-bid-made" not in ids


@pytest.mark.parametrize("change", [("scoring.chute.base", 160), ("scoring.rounding.mode", "nearest_5"),
                                    ("scoring.contract.test", "card_threshold")])
def test_house_rules_of_classic_sa_ta_pass_without_the_net(change: tuple[str, object]) -> None:
    """The issue's house rules extending classic-sa-ta (8, 31 and 5 false failures before): the
    sans-atout and tout-atout score fixtures now pin the chute base, the rounding (their rounded
    variants are derived) and the contract test their arithmetic uses."""
    ruleset = _make(find_ruleset("classic-sa-ta"), (change,))
    assert ruleset is not None
    cases = cases_under(load_corpus(), ruleset, every_branch=False)
    assert len(cases) > 900
    assert [case.id for case in cases if case_differences(case)] == []


def test_shrink_finds_the_two_parameters_that_fail_together() -> None:
    """The takers fixture without its automatic branches fails under automatic announcements; the
    shrinker leaves out the change that plays no part and keeps the two that fail together (and
    neither fails alone)."""
    original = fixture(HOUSE_RULE_FIXTURES[0])
    plain = [b for b in original.data["expect"] if "announcements.declared" not in (b.get("when") or {})]
    stripped = replace(original, data={**original.data, "expect": plain})
    base = find_ruleset("classic")
    changes = (*AUTOMATIC, ("game.simultaneous_finish", "draw"))
    ruleset = _make(base, changes)
    assert ruleset is not None
    draw = Draw(base, changes, ruleset)
    case = next(c for c in cases_under([stripped], ruleset, every_branch=False) if c.id == stripped.id)
    assert case_differences(case)
    assert set(shrink(stripped, draw, case.id)) == set(AUTOMATIC)
    for alone in AUTOMATIC:
        single = _make(base, (alone,))
        assert single is not None
        assert not any(case_differences(c) for c in cases_under([stripped], single, every_branch=False))


def test_integers_are_drawn_across_their_range() -> None:
    parameter = load_registry()["scoring.capot.last_trick_bonus"]
    values = drawable_values(parameter, random.Random(3))
    assert {0, 1000, 99, 101} <= set(values)
    assert all(0 <= v <= 1000 for v in values)


def test_draws_are_seeded_valid_and_change_something() -> None:
    bases = [find_ruleset("classic"), find_ruleset("ffb-coinche-2015")]
    first, _ = draw_rulesets(bases, 5, seed=11)
    again, _ = draw_rulesets(bases, 5, seed=11)
    assert [d.label for d in first] == [d.label for d in again]
    assert len(first) == 10
    assert all(d.changes and not is_shipped_as_is(d.ruleset) for d in first)
    assert any(len(d.changes) > 1 for d in first)


def test_safety_net_judges_only_rulesets_not_shipped() -> None:
    takers = fixture(HOUSE_RULE_FIXTURES[0])
    classic = find_ruleset("classic")
    wrong = {**takers.data["expect"][-1]["result"], "contract": "down"}
    # Under a shipped ruleset a wrong expectation stays a failure for the runner to show.
    assert unsettled_reason(classic, takers.kind, takers.given, wrong) is None
    other = _make(classic, (("game.simultaneous_finish", "draw"),))
    assert other is not None
    assert unsettled_reason(other, takers.kind, takers.given, wrong) == UNSETTLED_REASON
    right = takers.expected(other)
    assert right is not None and unsettled_reason(other, takers.kind, takers.given, right) is None


def test_small_sweep_has_no_failure_with_the_safety_net() -> None:
    """A seeded ruleset per shipped ruleset, 300 cases of each (default and every branch on
    that base): no case fails once the runner's net is on; every failure without it is shrunk to
    a set of the drawn changes that shows an example."""
    bases = [find_ruleset(r) for r in shipped_rulesets()]
    draws, _ = draw_rulesets(bases, 1, seed=5)
    report = sweep(load_corpus(), draws, case_limit=300, rng=random.Random(5))
    assert report.rulesets == len(bases)
    assert report.cases == 300 * report.rulesets
    assert report.failures_with_net == 0
    assert sum(finding.cases for finding in report.findings.values()) == report.failures
    lines = report.lines()
    assert lines[0].startswith(f"rulesets run: {report.rulesets}")
