"""``run_tricks``, the engine's hot loop, against ``legal_mask`` card by card.

``run_tricks`` writes the follower's rungs of :func:`~belote_ref.engine.play.legal_mask` inline (a
deliberate copy, for speed). These tests hold the two equal under every combination of the
``play.*`` parameters and of the tout-atout heading parameters, at the six contracts: in random
mode it must draw exactly the cards a card-by-card loop over ``legal_mask`` draws from the same
generator, and in checked mode it must refuse a card exactly where ``legal_mask`` leaves it out.
"""

from __future__ import annotations

import itertools
import random

import pytest

from belote_ref import CARDS, Card, Seat, Suit, find_ruleset
from belote_ref.core.cards import Trump
from belote_ref.engine.deal import DealState, Phase, play_out
from belote_ref.core.errors import IllegalPlayError
from belote_ref.engine.play import _winning_index, legal_mask, run_tricks
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import Ruleset
from belote_ref.engine.simulate import random_deal

SA_TA = find_ruleset("classic-sa-ta")
PLAY_PARAMETERS = [pid for pid in load_registry().parameters if pid.startswith("play.")]
TA_PARAMETERS = [pid for pid in ("tout_atout.must_head", "tout_atout.partner_relief")
                 if len(load_registry()[pid].values) > 1]
PARAMETERS = PLAY_PARAMETERS + TA_PARAMETERS
COMBINATIONS = [
    Ruleset.from_parameters({**SA_TA.params, **dict(zip(PARAMETERS, values, strict=True))}, id="test-run-tricks")
    for values in itertools.product(*(load_registry()[pid].values for pid in PARAMETERS))
]
CONTRACTS = (Suit.S, Suit.H, Suit.D, Suit.C, Trump.SA, Trump.TA)


def random_hands(rng: random.Random) -> list[int]:
    order = list(range(32))
    rng.shuffle(order)
    return [sum(1 << card for card in order[seat * 8:seat * 8 + 8]) for seat in range(4)]


def reference(rules: Ruleset, trump: int, hands: list[int], leader: int,
              random_: object) -> tuple[list[Card], list[int], list[int]]:
    """(cards, leaders, legal mask of each turn) of a card-by-card loop over ``legal_mask``."""
    draw = random_  # a bound rng.random
    cards: list[Card] = []
    leaders = [leader]
    masks: list[int] = []
    for _trick in range(8):
        trick: list[Card] = []
        for position in range(4):
            seat = (leader + position) & 3
            mask = legal_mask(rules, trump, hands[seat], leader, tuple(trick)) if trick else hands[seat]
            masks.append(mask)
            chosen = mask
            for _ in range(int(draw() * chosen.bit_count())):  # type: ignore[operator]
                chosen &= chosen - 1
            card = CARDS[(chosen & -chosen).bit_length() - 1]  # a Card, as the engine's own lists hold
            hands[seat] &= ~(1 << card)
            trick.append(card)
        cards.extend(trick)
        leader = (leader + _winning_index(rules.strength[trump], trick)) & 3
        leaders.append(leader)
    return cards, leaders, masks


def test_the_combinations_cover_every_value() -> None:
    counts = [len(load_registry()[pid].values) for pid in PARAMETERS]
    assert len(COMBINATIONS) == len(set(itertools.product(*(range(count) for count in counts)))) == 384
    assert len(PLAY_PARAMETERS) == 6 and TA_PARAMETERS == ["tout_atout.partner_relief"]


@pytest.mark.parametrize("trump", CONTRACTS, ids=lambda trump: trump.letter)
def test_random_mode_draws_what_legal_mask_allows(trump: int) -> None:
    rng = random.Random(int(trump))
    for number, rules in enumerate(COMBINATIONS):
        for deal in range(3):
            hands = random_hands(rng)
            leader = rng.randrange(4)
            seed = number * 10 + deal
            expected = reference(rules, trump, list(hands), leader, random.Random(seed).random)
            got_hands = list(hands)
            cards, leaders, bad = run_tricks(rules, trump, got_hands, leader, None, random.Random(seed).random)
            assert (cards, leaders, bad) == (expected[0], expected[1], -1), (rules.params, trump, seed)
            assert got_hands == [0, 0, 0, 0]


@pytest.mark.parametrize("trump", CONTRACTS, ids=lambda trump: trump.letter)
def test_checked_mode_refuses_exactly_what_legal_mask_leaves_out(trump: int) -> None:
    rng = random.Random(100 + int(trump))
    refused = accepted = 0
    for rules in COMBINATIONS:
        hands = random_hands(rng)
        leader = rng.randrange(4)
        cards, leaders, masks = reference(rules, trump, list(hands), leader, rng.random)
        assert run_tricks(rules, trump, list(hands), leader, cards) == (cards, leaders, -1)
        for index in rng.sample(range(1, 32), 3):
            # Every card the seat still held at that turn, in place of the one played.
            seat = (leaders[index // 4] + index % 4) & 3
            held = hands[seat] & ~sum(1 << card for card in cards[:index])
            for other in (card for card in CARDS if held >> card & 1):
                changed = [*cards[:index], other, *cards[index + 1:]]
                _, _, bad = run_tricks(rules, trump, list(hands), leader, changed)
                if masks[index] >> other & 1:
                    accepted += 1
                    assert bad == -1 or bad > index, (rules.params, trump, index, other)
                else:
                    refused += 1
                    assert bad == index, (rules.params, trump, index, other)
    assert refused and accepted


def test_a_card_not_in_hand_and_a_wrong_length_are_refused() -> None:
    rules = find_ruleset("classic")
    rng = random.Random(5)
    hands = random_hands(rng)
    cards, _, _ = reference(rules, Suit.H, list(hands), 0, rng.random)
    assert run_tricks(rules, Suit.H, list(hands), 0, [cards[1], *cards[1:]])[2] == 0  # leader lacks it
    assert run_tricks(rules, Suit.H, list(hands), 0, [*cards[:5], cards[4], *cards[6:]])[2] == 5  # played already
    assert run_tricks(rules, Suit.H, list(hands), 0, cards[:31])[2] == 31
    assert run_tricks(rules, Suit.H, list(hands), 0, [*cards, cards[0]])[2] == 32


def test_play_all_and_play_random_match_the_card_by_card_path() -> None:
    """The whole-deal paths of DealState give the states and scores that play() card by card gives,
    and play_all leaves a refused deal as it was."""
    rng = random.Random(9)
    for ruleset_id in ("classic", "classic-sa-ta", "ffb-coinche-2015", "classic-annonces"):
        rules = find_ruleset(ruleset_id)
        played = 0
        while played < 40:
            state = random_deal(rules, rng)
            if state.score is None:
                continue
            played += 1
            fresh = _replayable(state)
            assert fresh.play_all(state.plays, [trick.leader for trick in state.tricks]) == -1
            assert (fresh.tricks, fresh.score, fresh.phase) == (state.tricks, state.score, Phase.SCORED)
            by_card = _replayable(state)
            for card in state.plays:
                by_card.play(card)
            assert by_card.score == state.score and by_card.tricks == state.tricks
            wrong_leader = _replayable(state)
            leaders: list[Seat | None] = [None] * 8
            leaders[3] = state.tricks[3].leader.next
            assert wrong_leader.play_all(state.plays, leaders) == 12
            swapped = [*state.plays[:-2], state.plays[-1], state.plays[-2]]  # the last trick's order
            refused = _replayable(state)
            bad = refused.play_all(swapped)
            assert bad in (30, 31)
            assert refused.plays == [] and refused.phase is Phase.PLAY and refused.hands == _replayable(state).hands
            assert _replayable(state).play_all(swapped, leaders) == 12  # the first fault comes first
            leaders_after = [None] * 7 + [state.tricks[7].leader.next]
            assert _replayable(state).play_all(swapped, leaders_after) == 28  # trick 8 begins before card 30
            assert _replayable(state).play_all(state.plays[:31]) == 31
            held = _replayable(state)
            hands = held.hands
            assert held.play_all(state.plays) == -1 and held.hands is hands and hands == [0, 0, 0, 0]
            with pytest.raises(IllegalPlayError):
                state.play_all(state.plays)


def test_play_out_scores_as_the_card_by_card_loop() -> None:
    rng = random.Random(11)
    rules = find_ruleset("classic")
    checked = 0
    while checked < 30:
        state = random_deal(rules, rng)
        if state.score is None or state.taker is None or state.trump is None:
            continue
        checked += 1
        hands = state.full_hands
        fast = play_out(rules, hands=hands, trump=state.trump, taker=state.taker, leader=state.dealer.next,
                        plays=state.plays, belote=state.belote, announcements=state.declarations, pot=state.pot)
        slow = play_out(rules, hands=hands, trump=state.trump, taker=state.taker, leader=state.dealer.next,
                        plays=state.plays, belote=state.belote, announcements=state.declarations, pot=state.pot,
                        legal=True)
        assert fast.score == slow.score == state.score and fast.trick_winners == slow.trick_winners


def _replayable(state: DealState) -> DealState:
    """A copy of ``state`` as it stood before its first card."""
    twin = state.copy()
    twin.hands = [state.full_hands[seat].mask for seat in Seat]
    twin.plays, twin.tricks, twin.trick_cards = [], [], []
    twin.leader, twin.score, twin.phase = state.dealer.next, None, Phase.PLAY
    assert all(card in CARDS for card in state.plays)
    return twin
