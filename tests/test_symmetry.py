"""Derived cases are sound: on the reference engine, renaming a situation renames its answer.

A derived case inherits its expected result from a hand fixture through the functions of
belote_ref.conformance.symmetry; these property tests prove, over random positions and whole random
deals of every shipped ruleset, that the engine's answer to the renamed situation is the renamed
answer, so the inherited expectations are right whenever the hand fixture is.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_ref.core.cards import Seat
from belote_ref.conformance.corpus import canonical_result, load_corpus
from belote_ref.conformance.runner import build_cases
from belote_ref.conformance.symmetry import SUIT_PERMUTATIONS, SUITS, permute_suits, rotate_seats, swap_suits, variants
from belote_ref.engine.deal import DealState
from belote_ref.core.errors import InternalError
from belote_ref.protocol.serve import run_case
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets
from belote_ref.engine.simulate import random_deal

# The classic auction's rulesets; the bidding family's symmetries are in tests/test_coinche.py.
RULESETS = [name for name in shipped_rulesets() if find_ruleset(name)["bidding.auction"] == "turned_card"]
CARDS = [rank + suit for suit in SUITS for rank in "789TJQKA"]


def played_given(state: DealState) -> dict[str, Any]:
    """The ``given`` of a score case for a played deal (its taker and trump known)."""
    assert state.taker is not None and state.trump is not None
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


def score_given(name: str, seed: int) -> dict[str, Any] | None:
    state = random_deal(find_ruleset(name), random.Random(seed))
    if state.score is None or state.taker is None or state.trump is None:
        return None
    return played_given(state)


@st.composite
def positions(draw: st.DrawFn, trumps: tuple[str, ...] = tuple(SUITS)) -> tuple[str, dict[str, Any]]:
    kind = draw(st.sampled_from(["legal_plays", "trick_winner", "announcements"]))
    cards = draw(st.permutations(CARDS))
    trump = draw(st.sampled_from(trumps))
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
    if situation["trump"] in SUITS:
        renamings += [(f"swap {a}{b}", *swap_suits(kind, situation, answer, a, b))
                      for a in SUITS for b in SUITS if a < b]
    else:  # at SA and TA every suit plays the same part: every permutation of the four renames the answer
        renamings += [(f"suits={''.join(order)}", *permute_suits(kind, situation, answer, "".join(order)))
                      for order in itertools.permutations(SUITS)]
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


# classic-sa-ta plays SA and TA; the variants of the other shipped rulesets at SA and TA, with
# announcements on or the other tout-atout scales, come from their parameters on top of it.
SA_TA_RULESETS = ["classic-sa-ta", "classic-sa-ta-annonces", "classic-sa-ta-ffb-2015", "classic-sa-ta-pagat"]
_SA_TA_VARIANTS = {
    "classic-sa-ta-annonces": {"announcements.enabled": True},
    "classic-sa-ta-ffb-2015": {
        "tout_atout.card_points": {"J": 13, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 2, "8": 0, "7": 0},
        "announcements.enabled": True, "announcements.card_reuse": "allowed",
    },
    "classic-sa-ta-pagat": {"tout_atout.card_points": {"J": 14, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 1, "8": 0, "7": 0},
                            "tout_atout.partner_relief": True, "announcements.enabled": True},
}


def sa_ta_ruleset(name: str) -> Ruleset:
    base = find_ruleset("classic-sa-ta")
    if name == "classic-sa-ta":
        return base
    return Ruleset.from_parameters({**base.params, **_SA_TA_VARIANTS[name]}, id=name)


def check_sa_ta_variants(name: str, kind: str, situation: dict[str, Any]) -> int:
    """As check_every_variant, at SA or TA under one of SA_TA_RULESETS: every permutation of the suits."""
    rules = sa_ta_ruleset(name)
    answer = run_case(rules, kind, situation)
    renamings = [(label, g, r) for label, g, r in variants(kind, situation, answer)]
    renamings += [(f"suits={''.join(order)}", *permute_suits(kind, situation, answer, "".join(order)))
                  for order in itertools.permutations(SUITS)]
    for label, renamed_given, renamed_answer in renamings:
        assert canonical_result(kind, run_case(rules, kind, renamed_given)) == canonical_result(kind, renamed_answer), \
            (name, kind, label, situation)
    return len(renamings)


@settings(max_examples=300, deadline=None, database=None)
@given(name=st.sampled_from(SA_TA_RULESETS), position=positions(("SA", "TA")))
def test_renamed_sa_ta_positions_have_renamed_answers(name: str, position: tuple[str, dict[str, Any]]) -> None:
    kind, situation = position
    # the derived suits= variants, every permutation of the four suits and the seat rotation
    assert check_sa_ta_variants(name, kind, situation) >= len(SUIT_PERMUTATIONS) + 24


def sa_ta_score_given(name: str, seed: int) -> dict[str, Any] | None:
    """A random deal under ``name`` played at SA or TA (deals at a suit contract are skipped)."""
    rules = sa_ta_ruleset(name)
    state = random_deal(rules, random.Random(seed))
    if state.score is None or state.taker is None or state.trump is None or state.trump.letter not in ("SA", "TA"):
        return None
    return played_given(state)


def test_renamed_sa_ta_deals_have_renamed_scores() -> None:
    checked = {"SA": 0, "TA": 0}
    belotes = 0
    for seed in range(400):
        name = SA_TA_RULESETS[seed % len(SA_TA_RULESETS)]
        situation = sa_ta_score_given(name, seed)
        if situation is None:
            continue
        check_sa_ta_variants(name, "score", situation)
        checked[situation["trump"]] += 1
        belotes += isinstance(situation["belote"], dict)
        if min(checked.values()) >= 12 and belotes >= 3:
            break
    assert min(checked.values()) >= 12, checked
    assert belotes >= 3, "some deals must carry tout-atout belotes, whose suit keys are renamed"


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
        # A misdeal (given.fault) ends the deal before any trump: it has none to rename.
        if case.fixture.kind in ("legal_plays", "trick_winner", "score") and case.fixture.provenance == "hand" \
                and "trump" in case.given:
            trump = case.given.get("trump")
            by_fixture.setdefault(case.fixture.id, set()).add(str(trump))
    assert by_fixture
    assert all(trumps == set(SUITS) for trumps in by_fixture.values())


def test_every_sa_ta_hand_fixture_runs_with_its_suits_renamed() -> None:
    cases = build_cases(load_corpus(), [find_ruleset("classic-sa-ta")])
    by_fixture: dict[str, set[str]] = {}
    for case in cases:
        if case.fixture.kind in ("legal_plays", "trick_winner", "announcements", "score") \
                and case.fixture.provenance == "hand" and case.fixture.given.get("trump") in ("SA", "TA"):
            by_fixture.setdefault(case.fixture.id, set()).add(case.id.partition("@")[2])
    assert len(by_fixture) >= 20
    expected = {"", *(f"suits={order}" for order in SUIT_PERMUTATIONS)}
    assert all(labels >= expected for labels in by_fixture.values()), by_fixture


def test_a_tout_atout_belote_mapping_is_renamed_by_its_keys() -> None:
    given_ = {"dealer": "N", "taker": "E", "trump": "TA", "tricks": [], "belote": {"S": "N", "C": "E"},
              "announcements": [], "pot": 0}
    answer = {"belote": {"S": "NS", "C": "EW"}, "deal_score": {"NS": 1, "EW": 2}}
    renamed_given, renamed_answer = permute_suits("score", given_, answer, "HDCS")
    assert renamed_given["belote"] == {"H": "N", "S": "E"} and renamed_given["trump"] == "TA"
    assert renamed_answer["belote"] == {"H": "NS", "S": "EW"}
    with pytest.raises(InternalError):
        permute_suits("score", given_, answer, "HHCS")


@pytest.mark.parametrize("variant", ["trump=S", "seats+1"])
def test_a_derived_case_reruns_alone(variant: str) -> None:
    fixture = next(f for f in load_corpus() if f.kind == "trick_winner" and f.given["trump"] == "H")
    cases = build_cases(load_corpus(), [find_ruleset("classic")], id_prefix=f"{fixture.id}@{variant}")
    assert [case.id for case in cases] == [f"{fixture.id}@{variant}"]
