"""The deck check and the compiled packet plans of :mod:`belote_ref.engine.dealing`."""

from __future__ import annotations

from typing import Any

import pytest

from belote_ref import CARDS, Seat, find_ruleset
from belote_ref.engine.bids.auction import deal_bid_hands
from belote_ref.engine.deal import complete_hands, deal_first_hands
from belote_ref.engine.dealing import check_deck, getter_of, hand_mask, packet_plan
from belote_ref.core.errors import BeloteRefError


@pytest.mark.parametrize("deck", [
    list(CARDS[:31]),                    # one card short
    [*CARDS, CARDS[0]],                  # one card too many
    [*CARDS[:31], CARDS[0]],             # a card twice, another missing
    [*CARDS[:30], CARDS[31], CARDS[31]],  # the top card twice: carries past 32 bits
    [*CARDS[:31], -1],                   # not a card
    [*CARDS[:31], 32],
    [*CARDS[:31], "AC"],
    [*CARDS[:31], 1.0],
])
def test_a_bad_deck_is_refused(deck: list[Any]) -> None:
    with pytest.raises(BeloteRefError, match="a deck must hold the 32 distinct cards") as caught:
        check_deck(deck)
    assert caught.value.code == "bad_deck"
    for deal in (lambda: deal_first_hands(find_ruleset("classic"), Seat.S, deck),
                 lambda: deal_bid_hands(find_ruleset("ffb-contree-2016"), Seat.S, deck)):
        with pytest.raises(BeloteRefError, match="32 distinct cards"):
            deal()


def test_every_order_of_the_32_cards_is_a_deck() -> None:
    check_deck(list(CARDS))
    check_deck(list(reversed(CARDS)))


def test_a_plan_deals_each_position_once_in_packets_from_eldest() -> None:
    getters, end = packet_plan((3, 2), 1)
    deck = list(range(32))
    assert end == 20
    assert [list(getters[seat](deck)) for seat in range(4)] == [
        [9, 10, 11, 18, 19], [0, 1, 2, 12, 13], [3, 4, 5, 14, 15], [6, 7, 8, 16, 17]]
    one_each, after = packet_plan((1,), 3, start=21)
    assert [list(one_each[seat](deck)) for seat in range(4)] == [[22], [23], [24], [21]] and after == 25
    assert list(getter_of([5])(deck)) == [5] and hand_mask([CARDS[0], CARDS[31]]) == 1 | 1 << 31


def test_the_hands_are_the_rules_text() -> None:
    """deal.py's module docstring: with [3, 2] eldest gets cards 0-2 and 12-13; the taker the
    turned card (index 20) and 2 of the completion, the others 3, dealt from eldest."""
    rules = find_ruleset("classic")
    deck = list(CARDS)
    first, turned = deal_first_hands(rules, Seat.W, deck)  # eldest N
    assert [card for card in first[Seat.N]] == [CARDS[i] for i in (0, 1, 2, 12, 13)]
    assert turned == CARDS[20]
    full = complete_hands(rules, Seat.W, deck, Seat.E)
    assert set(full[Seat.E]) == {CARDS[i] for i in (3, 4, 5, 14, 15, 20, 24, 25)}
    assert set(full[Seat.N]) == {CARDS[i] for i in (0, 1, 2, 12, 13, 21, 22, 23)}
    assert set(full[Seat.S]) == {CARDS[i] for i in (6, 7, 8, 16, 17, 26, 27, 28)}
    assert set(full[Seat.W]) == {CARDS[i] for i in (9, 10, 11, 18, 19, 29, 30, 31)}


def _by_the_text(start_seat: int, taker: int, one_at_a_time: bool) -> dict[int, list[int]]:
    """deal.py's docstring, card by card: the completion from deck position 21, the taker 2
    cards and the others 3, one packet per seat from ``start_seat``, or one card at a time in
    three rounds, the taker left out of the third."""
    sizes = {seat: 2 if seat == taker else 3 for seat in range(4)}
    got: dict[int, list[int]] = {seat: [] for seat in range(4)}
    position = 21
    order = [(start_seat + offset) & 3 for offset in range(4)]
    if one_at_a_time:
        for round_number in range(3):
            for seat in order:
                if round_number < sizes[seat]:
                    got[seat].append(position)
                    position += 1
    else:
        for seat in order:
            got[seat].extend(range(position, position + sizes[seat]))
            position += sizes[seat]
    return got


@pytest.mark.parametrize("start", ["eldest_first", "taker_first"])
@pytest.mark.parametrize("packets", ["packets", "one_at_a_time"])
def test_the_completion_under_each_parameter(start: str, packets: str) -> None:
    rules = find_ruleset("classic").with_parameter("deal.completion_start", start).with_parameter(
        "deal.completion_packets", packets)
    deck = list(CARDS)
    for dealer in Seat:
        first, turned = deal_first_hands(rules, dealer, deck)
        for taker in Seat:
            full = complete_hands(rules, dealer, deck, taker)
            start_seat = taker if start == "taker_first" else (dealer + 1) & 3
            extra = _by_the_text(start_seat, taker, packets == "one_at_a_time")
            for seat in Seat:
                expected = set(first[seat]) | {CARDS[i] for i in extra[seat]} | ({turned} if seat == taker else set())
                assert set(full[seat]) == expected and len(full[seat]) == 8, (dealer, taker, seat)
