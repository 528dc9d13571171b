"""Derived cases are sound: on the reference engine, renaming a situation renames its answer.

A derived case inherits its expected result from a hand fixture through the functions of
belote_ref.conformance.symmetry; these property tests prove, over random positions and whole random
deals of every shipped ruleset, that the engine's answer to the renamed situation is the renamed
answer, so the inherited expectations are right whenever the hand fixture is.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_ref.cards import Seat
from belote_ref.conformance.corpus import canonical_result, load_corpus
from belote_ref.conformance.runner import build_cases
from belote_ref.conformance.symmetry import SUITS, rotate_seats, swap_suits, variants
from belote_ref.protocol import run_case
from belote_ref.rules import find_ruleset, shipped_rulesets
from belote_ref.simulate import random_deal

# The classic auction's rulesets; the bidding family's symmetries are in tests/test_coinche.py.
RULESETS = [name for name in shipped_rulesets() if find_ruleset(name)["bidding.auction"] == "turned_card"]
CARDS = [rank + suit for suit in SUITS for rank in "789TJQKA"]


def score_given(name: str, seed: int) -> dict[str, Any] | None:
    state = random_deal(find_ruleset(name), random.Random(seed))
    if state.score is None or state.taker is None or state.trump is None:
        return None
    return {
        "dealer": state.dealer.name, "taker": state.taker.name, "trump": state.trump.letter,
        "tricks": [{"leader": t.leader.name, "cards": [str(c) for c in t.cards]} for t in state.tricks],
        # At tout-atout the belotes are a mapping suit -> seat.
        "belote": ({suit.letter: seat.name for suit, seat in state.belote.items()} if isinstance(state.belote, dict)
                   else state.belote.name if state.belote is not None else None),
        "announcements": [{"seat": d.seat.name, "kind": d.combination.kind, "cards": d.combination.cards.tokens()}
                          for d in state.declarations],
        "pot": 0,
    }


@st.composite
def positions(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    kind = draw(st.sampled_from(["legal_plays", "trick_winner", "announcements"]))
    cards = draw(st.permutations(CARDS))
    trump = draw(st.sampled_from(SUITS))
    leader = draw(st.sampled_from("NESW"))
    if kind == "trick_winner":
        return kind, {"trump": trump, "trick": {"leader": leader, "cards": cards[:4]}}
    if kind == "announcements":
        return kind, {"trump": trump, "hand": cards[:8]}
    played = draw(st.integers(0, 3))
    seat = Seat.parse(leader)
    for _ in range(played):
        seat = seat.next
    return kind, {"trump": trump, "seat": seat.name, "hand": cards[4:4 + draw(st.integers(1, 8))],
                  "trick": {"leader": leader, "cards": cards[:played]}}


def check_every_variant(name: str, kind: str, situation: dict[str, Any]) -> int:
    rules = find_ruleset(name)
    answer = run_case(rules, kind, situation)
    checked = 0
    renamings = [(label, g, r) for label, g, r in variants(kind, situation, answer)]
    renamings += [(f"swap {a}{b}", *swap_suits(kind, situation, answer, a, b)) for a in SUITS for b in SUITS if a < b]
    renamings += [(f"seats+{k}", *rotate_seats(kind, situation, answer, k)) for k in (2, 3)]
    for label, renamed_given, renamed_answer in renamings:
        assert canonical_result(kind, run_case(rules, kind, renamed_given)) == canonical_result(kind, renamed_answer), \
            (name, kind, label, situation)
        checked += 1
    return checked


@settings(max_examples=400, deadline=None, database=None)
@given(name=st.sampled_from(RULESETS), position=positions())
def test_renamed_positions_have_renamed_answers(name: str, position: tuple[str, dict[str, Any]]) -> None:
    kind, situation = position
    assert check_every_variant(name, kind, situation) >= 6


@settings(max_examples=150, deadline=None, database=None)
@given(name=st.sampled_from(RULESETS), seed=st.integers(0, 10**9))
def test_renamed_deals_have_renamed_scores(name: str, seed: int) -> None:
    situation = score_given(name, seed)
    if situation is not None:
        assert check_every_variant(name, "score", situation) >= 9


def test_a_suit_swap_twice_and_four_rotations_are_the_identity() -> None:
    situation = score_given("classic-annonces", 3)
    assert situation is not None
    answer = run_case(find_ruleset("classic-annonces"), "score", situation)
    given_back, answer_back = swap_suits("score", *swap_suits("score", situation, answer, "H", "C"), "H", "C")
    assert (given_back, answer_back) == (situation, answer)
    turned = (situation, answer)
    for _ in range(4):
        turned = rotate_seats("score", *turned)
    assert turned == (situation, answer)
    assert rotate_seats("score", situation, answer)[1]["deal_score"] == {"NS": answer["deal_score"]["EW"],
                                                                         "EW": answer["deal_score"]["NS"]}


def test_every_hand_fixture_of_a_symmetric_kind_runs_with_each_suit_as_trumps() -> None:
    cases = build_cases(load_corpus(), [find_ruleset("classic")])
    by_fixture: dict[str, set[str]] = {}
    for case in cases:
        if case.fixture.kind in ("legal_plays", "trick_winner", "score") and case.fixture.provenance == "hand":
            trump = case.given.get("trump")
            by_fixture.setdefault(case.fixture.id, set()).add(str(trump))
    assert by_fixture
    assert all(trumps == set(SUITS) for trumps in by_fixture.values())


@pytest.mark.parametrize("variant", ["trump=S", "seats+1"])
def test_a_derived_case_reruns_alone(variant: str) -> None:
    fixture = next(f for f in load_corpus() if f.kind == "trick_winner" and f.given["trump"] == "H")
    cases = build_cases(load_corpus(), [find_ruleset("classic")], id_prefix=f"{fixture.id}@{variant}")
    assert [case.id for case in cases] == [f"{fixture.id}@{variant}"]
