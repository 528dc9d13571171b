"""Every fixture of the corpus against the reference engine, in-process.

Each fixture runs under every shipped ruleset it applies to, and each of its `expect` branches
also runs under a ruleset made for it (classic with the branch's and `applies_to`'s values), so
that branches no shipped ruleset reaches (rounding modes, a 160 chute base...) are checked too.
"""

from __future__ import annotations

import pytest

from belote_ref.conformance.corpus import (
    Fixture,
    branch_ruleset,
    compare_results,
    iter_fixture_paths,
    load_corpus,
    load_fixture,
)
from belote_ref.protocol.serve import run_case
from belote_ref.rules.ruleset import find_ruleset, shipped_rulesets

FIXTURES = load_corpus()


def test_every_fixture_file_loads() -> None:
    problems = []
    for path in iter_fixture_paths():
        _, diagnostics = load_fixture(path)
        problems.extend(str(d) for d in diagnostics)
    assert problems == []
    assert len(FIXTURES) == len(list(iter_fixture_paths()))


@pytest.mark.parametrize("fixture", FIXTURES, ids=[f.id for f in FIXTURES])
def test_reference_engine_passes(fixture: Fixture) -> None:
    failures = []
    for ruleset_id in shipped_rulesets():
        ruleset = find_ruleset(ruleset_id)
        expected = fixture.expected(ruleset)
        if expected is not None:
            got = run_case(ruleset, fixture.kind, fixture.given)
            failures.extend(f"{ruleset_id}: {d}" for d in compare_results(fixture.kind, expected, got))
    for index, branch in enumerate(fixture.data["expect"]):
        ruleset = branch_ruleset(fixture, index)
        assert fixture.expected(ruleset) == branch["result"], f"branch {index} is shadowed by an earlier one"
        got = run_case(ruleset, fixture.kind, fixture.given)
        failures.extend(f"branch {index} ({branch.get('when')}): {d}" for d in compare_results(fixture.kind, branch["result"], got))
    assert failures == []


def test_every_hand_fixture_has_its_own_french_title() -> None:
    # The French pages title each worked example by its title_fr; without one a title is made
    # from the kind and the rules, and neighbours read alike.
    hand = [f for f in FIXTURES if f.data["provenance"] == "hand"]
    assert [f.id for f in hand if not f.data.get("title_fr")] == []
    titles = [f.data["title_fr"] for f in hand]
    assert sorted(t for t in set(titles) if titles.count(t) > 1) == []
