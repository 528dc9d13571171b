"""A rule's ``applies_when`` (rules/registry.yaml) says when it is part of the game: the auction of
bids only in coinche and contrée, the announcements' rules only where announcements are played.

The site and ``rules show`` tell a reader which rules of a ruleset are not in play on that word,
so the word is checked with the engine: under every shipped ruleset where a rule is not in play,
each other documented value of it leaves everything the same (random deals and matches played
with the same seeds, and every game fixture of the corpus that applies to the ruleset).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from belote_ref.cli import main
from belote_ref.records.random_match import match_records
from belote_ref.conformance.corpus import Fixture, canonical_result, load_corpus
from belote_ref.core.errors import BeloteRefError, RulesetError
from belote_ref.protocol.serve import run_case
from belote_ref.records.record import record_of
from belote_ref.rules.registry import load_registry
from belote_ref.core.resources import data_dir
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets
from belote_ref.engine.simulate import random_deals

# Slow tier (every rule not in play, tried under every ruleset with the engine): left out of the quick default; see README.
pytestmark = pytest.mark.slow

REGISTRY = load_registry()
SHIPPED = [find_ruleset(ruleset_id) for ruleset_id in shipped_rulesets()]
# Every shipped ruleset plays to points: classic played over a number of deals is compared too.
# Beside the shipped rulesets, two that leave out rules every shipped one plays: a match of a number
# of deals, and a revoke found at the end that does not lose the deal (the penalties of a lost deal).
COMPARED = [*SHIPPED, find_ruleset("classic").with_parameter("game.end", "deals"),
            find_ruleset("classic").with_parameter("penalties.revoke.found_at_end", "innocent_choice")]
CONDITIONED = [pid for pid, p in REGISTRY.parameters.items() if p.applies_when and p.outcome]
# A rule with one documented value (a reserved one, a table of which one reading is known) cannot
# be set otherwise: there is nothing to compare.
VARIABLE = [pid for pid in CONDITIONED if len(REGISTRY[pid].values) > 1 or REGISTRY[pid].type == "int"]


def _game_fixtures(rules: Ruleset) -> list[Fixture]:
    # The announcements kind asks what a hand would declare, whether or not announcements are
    # played: it is a question about the rules of announcements, not a part of a game.
    return [f for f in load_corpus() if f.kind != "announcements" and f.expected(rules) is not None]


def _without_id(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key != "ruleset"}


def _everything(rules: Ruleset, fixtures: list[Fixture]) -> tuple[Any, ...]:
    deals = [_without_id(record_of(state)) for state in random_deals(rules, seed=5, count=200)]
    matches = []
    for seed in range(2):
        outcome: dict[str, Any] = {}
        matches.append([_without_id(record) for record in match_records(rules, seed, 40, outcome)])
        matches.append(sorted((str(key), repr(value)) for key, value in outcome.items()))
    answers = []
    for fixture in fixtures:
        try:
            answers.append(canonical_result(fixture.kind, run_case(rules, fixture.kind, fixture.given)))
        except BeloteRefError as error:
            answers.append(("error", error.code))
    return deals, matches, answers


@functools.cache
def _everything_compared(index: int) -> tuple[Any, ...]:
    rules = COMPARED[index]
    return _everything(rules, _game_fixtures(rules))


def _other_values(rules: Ruleset, parameter_id: str) -> list[Any]:
    """The documented values of the parameter but the ruleset's, and for a number its bounds and
    ten more than the ruleset's (a number often has a single documented value)."""
    parameter = REGISTRY[parameter_id]
    values = list(parameter.values)
    if parameter.type == "int":
        values += [parameter.minimum, parameter.maximum, rules[parameter_id] + 10]
    others: list[Any] = []
    for value in values:
        if value is not None and value != rules[parameter_id] and value not in others and parameter.allows(value):
            others.append(value)
    return others


@pytest.mark.parametrize("parameter_id", VARIABLE)
def test_a_rule_not_in_play_changes_nothing(parameter_id: str) -> None:
    tried = 0
    for index, rules in enumerate(COMPARED):
        if REGISTRY.applies(parameter_id, rules.params):
            continue
        for value in _other_values(rules, parameter_id):
            try:
                changed = rules.with_parameter(parameter_id, value)
            except RulesetError:
                continue  # a value the ruleset's other values forbid
            tried += 1
            for what, usual, now in zip(("random deals", "matches", "fixtures"), _everything_compared(index),
                                        _everything(changed, _game_fixtures(rules)), strict=True):
                assert usual == now, f"{parameter_id}: {value!r} changes the {what} of {rules.id}"
    assert tried > 0, f"{parameter_id}: no compared ruleset leaves it out with another value allowed"


def test_the_rules_no_shipped_ruleset_plays() -> None:
    # A condition that holds nowhere hides a rule from every ruleset page: only these, which belong
    # to a générale, to flat forfeits and to a match over a number of deals, are idle in every
    # shipped ruleset.
    idle = {p for p in CONDITIONED if not any(REGISTRY.applies(p, r.params) for r in SHIPPED)}
    assert idle == {"scoring.generale.value", "scoring.bid.flat_forfeit", "game.deal_limit", "game.count_passed_deals"}


def test_a_condition_reaches_through_the_rules_it_names() -> None:
    coinche = find_ruleset("ffb-coinche-2015").params
    assert coinche["scoring.contract.on_tie"] == "litige"  # the classic value, inherited
    assert not REGISTRY.applies("scoring.litige.pot_to", coinche)
    assert REGISTRY.unmet("scoring.litige.pot_to", coinche) == ("bidding.auction", "turned_card")
    classic = find_ruleset("classic").params
    assert REGISTRY.applies("scoring.litige.pot_to", classic)
    assert REGISTRY.unmet("scoring.litige.pot_to", {**classic, "scoring.contract.on_tie": "takers_fail"}) == (
        "scoring.contract.on_tie", "litige")
    assert REGISTRY.applies("sans_atout.belote", find_ruleset("classic-sa-ta").params)
    assert REGISTRY.unmet("sans_atout.belote", classic) == ("bidding.contracts", {"includes": "sans_atout"})


def _registry_with(tmp_path: Path, parameter_id: str, condition: str) -> Path:
    text = (data_dir("rules") / "registry.yaml").read_text(encoding="utf-8")
    start = text.index(f"- id: {parameter_id}\n")
    end = text.index("\n", text.index("    title:", start)) + 1
    lines = [line for line in text[end:text.index("- id:", end)].splitlines(keepends=True)
             if not line.startswith("    applies_when:")]
    path = tmp_path / "registry.yaml"
    path.write_text(text[:end] + f"    applies_when: {condition}\n" + "".join(lines)
                    + text[text.index("- id:", end):], encoding="utf-8")
    return path


@pytest.mark.parametrize(("condition", "says"), [
    ("{auction.min_bids: 80}", "applies_when names an unknown parameter 'auction.min_bids'"),
    ("{bidding.auction: coinche}", "'coinche' is not a value of bidding.auction"),
    ("{game.end: {one_of: [points, rounds]}}", "'rounds' is not a value of game.end"),
    ("{bidding.contracts: {includes: misere}}", "no documented value of bidding.contracts includes 'misere'"),
    ("{scoring.litige.pot_to: winner_of_next_deal}", "applies_when of scoring.contract.on_tie comes back to itself"),
    ("{bidding.auction: {one: bids}}", "schema"),
])
def test_a_broken_condition_is_a_registry_error(tmp_path: Path, condition: str, says: str) -> None:
    path = _registry_with(tmp_path, "scoring.contract.on_tie", condition)
    with pytest.raises(RulesetError) as caught:
        load_registry(path)
    assert says in str(caught.value)


def test_rules_show_marks_the_rules_not_in_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "classic"]) == 0
    lines = capsys.readouterr().out.splitlines()
    idle = {line.split(" = ")[0].split()[-1] for line in lines if line.endswith("(not in play here)")}
    assert "auction.min_bid" in idle and "sans_atout.card_points" in idle and "cards.sequence_order" in idle
    assert "scoring.litige.pot_to" not in idle and "play.partner_master_exception" not in idle
    assert main(["rules", "show", "ffb-coinche-2015", "--lang", "fr"]) == 0
    lines = capsys.readouterr().out.splitlines()
    idle = {line.split(" = ")[0].split()[-1] for line in lines if line.endswith("(ne s'applique pas ici)")}
    assert {"deal.first_packets", "scoring.litige.pot_to", "scoring.chute.base"} <= idle
    assert "auction.min_bid" not in idle
