"""Coverage of card against card (which pairs of ranks the corpus decides in a trick, per card order)
and of the scoring's boundaries."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from belote_ref.cli import conformance_verbs
from belote_ref.conformance.boundaries import Boundary, scoring_boundaries
from belote_ref.conformance.card_pairs import PLAY_ORDERS, OrderCoverage, card_pair_coverage, decided_pairs
from belote_ref.conformance.corpus import Fixture, load_corpus
from belote_ref.conformance.lint import Coverage
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import find_ruleset


def _trick_fixture(slug: str, trump: str, leader: str, cards: list[str], result: dict[str, Any]) -> Fixture:
    data = {"id": f"trick.test.{slug}", "kind": "trick_winner", "title": slug, "rules": ["cards.plain_order"],
            "source": {"doc": "seed-000", "quote": "-"}, "provenance": "hand", "note": "-",
            "given": {"trump": trump, "trick": {"leader": leader, "cards": cards}}, "expect": [{"result": result}]}
    return Fixture(Path(f"{slug}.yaml"), data)


def _order(coverages: list[OrderCoverage], order_id: str) -> OrderCoverage:
    (found,) = [coverage for coverage in coverages if coverage.order == order_id]
    return found


def test_a_made_up_corpus_decides_one_plain_pair_and_no_other() -> None:
    corpus = [
        # Clubs led, no trump played: JC and 9C are the two best clubs, the jack played first.
        _trick_fixture("jack-over-nine", "H", "W", ["JC", "9C", "8C", "7C"], {"winner": "W", "points": 2}),
        # One heart only among the trumps: nothing to compare at trumps, and the plain aces are discards.
        _trick_fixture("lone-trump", "H", "N", ["AS", "7H", "AD", "AC"], {"winner": "E", "points": 33}),
        # A rejected trick names no winner: it decides nothing although K and Q of clubs meet.
        _trick_fixture("rejected", "H", "N", ["KC", "QC", "8S", "8S"], {"rejected": {"code": "duplicate_card"}}),
    ]
    coverages = card_pair_coverage(corpus, [find_ruleset("classic")])
    plain = _order(coverages, "cards.plain_order")
    assert plain.decided == [("J", "9")]
    # The derived cases (@trump=S, @trump=D, @trump=C, @seats+1) carry the same pair to the other suits.
    assert plain.higher_first[("J", "9")] == 5 and plain.lower_first == {}
    assert ("K", "Q") in plain.undecided and len(plain.undecided) == 27
    assert plain.one_way == [("J", "9")]
    assert _order(coverages, "cards.trump_order").decided == []
    # The orders of sans-atout and tout-atout are listed with no case at all under classic.
    assert len(_order(coverages, "sans_atout.card_order").undecided) == 28
    assert len(_order(coverages, "tout_atout.card_order").undecided) == 28


def test_the_winning_suit_picks_the_order() -> None:
    classic = find_ruleset("classic-sa-ta").params
    ruffed = decided_pairs("H", ["AS", "7H", "9H", "TS"], classic)
    assert ruffed is not None and (ruffed.order, ruffed.higher, ruffed.lower, ruffed.higher_first) == (
        "cards.trump_order", "9", "7", False)
    plain = decided_pairs("H", ["QS", "KS", "JD", "7S"], classic)
    assert plain is not None and (plain.order, plain.higher, plain.lower) == ("cards.plain_order", "K", "Q")
    # At sans-atout the ten is above the king; at tout-atout the nine is above the ace; another suit never counts.
    no_trump = decided_pairs("SA", ["KD", "TD", "AS", "7D"], classic)
    assert no_trump is not None and (no_trump.order, no_trump.higher, no_trump.lower) == (
        "sans_atout.card_order", "T", "K")
    all_trump = decided_pairs("TA", ["AC", "JH", "9C", "7C"], classic)
    assert all_trump is not None and (all_trump.order, all_trump.higher, all_trump.lower, all_trump.higher_first) == (
        "tout_atout.card_order", "9", "A", False)
    assert decided_pairs("H", ["AS", "7H", "AD", "AC"], classic) is None


def test_the_corpus_decides_every_pair_of_every_order() -> None:
    coverages = card_pair_coverage(load_corpus())
    registry = load_registry()
    assert {(c.order, c.value) for c in coverages} == {
        (order_id, tuple(value)) for order_id in PLAY_ORDERS for value in registry[order_id].values}
    for coverage in coverages:
        assert len(coverage.pairs) == 28
        assert coverage.undecided == [], f"{coverage.order}: {coverage.undecided}"
        # Each pair also in both play orders: an engine that ranks the two as equal fails whichever
        # of them it lets win a tie (the earlier or the later card).
        assert coverage.one_way == [], f"{coverage.order}: {coverage.one_way}"
    # At sans-atout and tout-atout the trick_winner fixtures alone do it, for an engine claiming no other kind.
    tricks_only = card_pair_coverage([f for f in load_corpus() if f.kind == "trick_winner"])
    for coverage in tricks_only:
        if coverage.order in ("sans_atout.card_order", "tout_atout.card_order"):
            assert (coverage.undecided, coverage.one_way) == ([], []), coverage.order


def _report(undecided: bool) -> Coverage:
    order = OrderCoverage("sans_atout.card_order", ("A", "T", "K", "Q", "J", "9", "8", "7"))
    for pair in order.pairs:
        if not (undecided and pair == ("J", "9")):
            order.higher_first[pair] = 1
    return Coverage([], [], [], [order])


@pytest.mark.parametrize("undecided", [True, False])
def test_coverage_prints_the_table_and_strict_fails_on_an_undecided_pair(
        undecided: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(conformance_verbs, "load_corpus", lambda: ())
    monkeypatch.setattr(conformance_verbs, "coverage", lambda fixtures: _report(undecided))
    code = conformance_verbs.cmd_conformance_coverage(argparse.Namespace(json=False, strict=True))
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("sans_atout.card_order"))
    if undecided:
        assert code != 0
        assert row.split()[-2:] == ["27/28", "J>9"]
        assert "1 undecided pair(s)" in out
    else:
        assert code == 0
        assert row.split()[-2:] == ["28/28", "-"]
        assert "0 undecided pair(s)" in out
    assert "never with the lower card played first: A>T" in out
    conformance_verbs.cmd_conformance_coverage(argparse.Namespace(json=True, strict=False))
    (order,) = json.loads(capsys.readouterr().out)["card_pairs"]
    assert order["undecided"] == (["J>9"] if undecided else [])
    assert order["pairs"][0] == {"pair": "A>T", "higher_first": 1, "lower_first": 0}


def _score_fixture(slug: str, winners: list[str], points: dict[str, int]) -> Fixture:
    result = {"trick_winners": winners, "card_points": points, "announcements": {"NS": 0, "EW": 0}, "belote": None,
              "contract": "made", "capot": None, "deal_score": points, "pot": 0}
    given = {"dealer": "W", "taker": "N", "trump": "H", "tricks": [], "belote": None, "announcements": [], "pot": 0}
    data = {"id": f"score.test.{slug}", "kind": "score", "title": slug, "rules": [],
            "source": {"doc": "-", "quote": "-"}, "provenance": "hand", "note": "-", "given": given,
            "expect": [{"result": result}]}
    return Fixture(Path(f"{slug}.yaml"), data)


def test_boundaries_of_a_made_up_corpus() -> None:
    corpus = [
        # NS take every card point, EW one trick worth nothing: the edge of the capot.
        _score_fixture("empty-trick", ["N", "N", "E", "S", "S", "S", "S", "S"], {"NS": 162, "EW": 0}),
        # 81 each: the edge of the contract's test, and no other.
        _score_fixture("equal", ["N", "E", "S", "W", "N", "E", "S", "W"], {"NS": 81, "EW": 81}),
    ]
    reached = {(b.parameter, b.edge): b.cases for b in scoring_boundaries(corpus, [find_ruleset("classic")])}
    # The seats rotated (@seats+1) and each other trump suit are derived cases of each fixture.
    assert reached == {("scoring.capot.mode", "a team wins every trick"): 0,
                       ("scoring.capot.mode", "a team wins a trick but no card point"): 5,
                       ("scoring.contract.on_tie", "equal card points"): 5}


def test_the_corpus_reaches_every_scoring_boundary() -> None:
    boundaries = scoring_boundaries(load_corpus())
    assert {b.parameter for b in boundaries} == {
        "scoring.capot.mode", "scoring.contract.on_tie", "scoring.contract.card_threshold"}
    assert [b for b in boundaries if not b.cases] == []


def test_strict_coverage_fails_on_an_unreached_boundary(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    report = _report(undecided=False)
    report.boundaries = [Boundary("scoring.contract.on_tie", "litige", "equal card points", 0)]
    monkeypatch.setattr(conformance_verbs, "load_corpus", lambda: ())
    monkeypatch.setattr(conformance_verbs, "coverage", lambda fixtures: report)
    assert conformance_verbs.cmd_conformance_coverage(argparse.Namespace(json=False, strict=True)) != 0
    assert "equal card points" in capsys.readouterr().out
    report.boundaries = [Boundary("scoring.contract.on_tie", "litige", "equal card points", 3)]
    assert conformance_verbs.cmd_conformance_coverage(argparse.Namespace(json=False, strict=True)) == 0
