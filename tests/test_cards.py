"""Cards and card sets: constructors that read the notation, reprs that evaluate back, the set laws
of :class:`collections.abc.Set`, and the copy of a deal."""

from __future__ import annotations

import pickle
import random
from collections.abc import Set

import pytest
from hypothesis import given
from hypothesis import strategies as st

from belote_ref.core.cards import CARDS, DECK, Card, CardSet, Seat
from belote_ref.engine.deal import DealState, Phase
from belote_ref.core.errors import NotationError
from belote_ref.rules.ruleset import find_ruleset

masks = st.integers(min_value=0, max_value=(1 << 32) - 1)
card_sets = masks.map(CardSet)


def test_card_from_a_token_or_an_index() -> None:
    assert Card("JH") is CARDS[12]
    assert Card("10D") is Card("TD") is CARDS[19]
    assert Card(12) is CARDS[12]
    assert Card.parse("7S") is CARDS[0]
    for bad in ("JX", "1H", ""):
        with pytest.raises(NotationError):
            Card(bad)
    for index in (-1, 32):
        with pytest.raises(NotationError):
            Card(index)


def test_reprs_evaluate_back() -> None:
    namespace = {"Card": Card, "CardSet": CardSet}
    for card in CARDS:
        assert eval(repr(card), namespace) is card
    for cards in (CardSet(), CardSet("7H QH"), DECK):
        assert eval(repr(cards), namespace) == cards
    assert repr(CardSet("QH 7H")) == "CardSet('7H QH')"


def test_card_set_constructors() -> None:
    assert CardSet("7H QH") == CardSet.parse("7H QH") == CardSet(["7H", "QH"]) == CardSet([Card("QH"), 8])
    assert CardSet("") == CardSet() == CardSet(0)
    with pytest.raises(NotationError):
        CardSet("7H XX")
    with pytest.raises(NotationError):
        CardSet([32])
    with pytest.raises(NotationError):
        CardSet(-1)


def test_card_set_is_an_immutable_set() -> None:
    cards = CardSet("7H QH")
    assert isinstance(cards, Set)
    assert not hasattr(cards, "add") and not hasattr(cards, "discard")
    with pytest.raises(AttributeError):
        cards.mask = 0  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(cards)) == cards
    assert {cards: 1}[CardSet("QH 7H")] == 1


@given(card_sets, card_sets, card_sets)
def test_set_laws(a: CardSet, b: CardSet, c: CardSet) -> None:
    fa, fb = frozenset(a), frozenset(b)
    assert len(a) == len(fa) and all(card in a for card in fa)
    assert frozenset(a | b) == fa | fb
    assert frozenset(a & b) == fa & fb
    assert frozenset(a - b) == fa - fb
    assert frozenset(a ^ b) == fa ^ fb
    assert (a <= b) == (fa <= fb) and (a < b) == (fa < fb)
    assert (a >= b) == (fa >= fb) and (a > b) == (fa > fb)
    assert a.isdisjoint(b) == fa.isdisjoint(fb)
    assert (a == b) == (fa == fb) and (a != b) == (fa != fb)
    if a == b:
        assert hash(a) == hash(b)
    # The laws themselves, on card sets only.
    assert a | (b & c) == (a | b) & (a | c)
    assert a - (b | c) == (a - b) & (a - c)
    assert a ^ b == (a - b) | (b - a)
    assert (a & b) <= a <= (a | b)
    assert DECK - (DECK - a) == a


@given(card_sets, card_sets)
def test_operations_with_other_kinds_of_set(a: CardSet, b: CardSet) -> None:
    fb = frozenset(b)
    for result in (a | fb, fb | a):
        assert isinstance(result, CardSet) and result == a | b
    assert a & fb == fb & a == a & b
    assert a - fb == a - b and fb - a == b - a
    assert a ^ fb == fb ^ a == a ^ b
    assert (a <= fb) == (a <= b) and (a >= fb) == (a >= b) and (a < fb) == (a < b)
    assert a.isdisjoint(fb) == a.isdisjoint(b)
    # Equal only to a card set (the hash is the mask's): documented in CardSet.
    assert a != frozenset(a) and CardSet(frozenset(a)) == a


def test_copy_of_a_deal_is_independent() -> None:
    rules = find_ruleset("classic")
    rng = random.Random(3)
    deck = list(CARDS)
    while True:
        rng.shuffle(deck)
        state = DealState.from_deck(rules, Seat.N, deck)
        state.call("take")
        if state.phase is Phase.PLAY:
            break
    before = state.copy()
    for _ in range(5):
        state.play(next(iter(state.legal_plays())))
    assert len(before.plays) == 0 and len(state.plays) == 5
    assert before.hands != state.hands
    assert before.current_seat == Seat.E
    # The copy plays on by itself, and its copies in turn.
    again = before.copy()
    while before.phase is Phase.PLAY:
        before.play(next(iter(before.legal_plays())))
    assert before.score is not None and again.score is None and not again.plays
    auction = before.auction.copy()
    assert auction.calls == before.auction.calls and auction.calls is not before.auction.calls
