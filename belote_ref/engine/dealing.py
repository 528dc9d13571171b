"""Cutting a deck order into hands: the check of a deck and the compiled plans of a deal.

A deal's packets (``deal.first_packets``, the completion, ``deal.bid_packets``) send each deck
position to one seat. :func:`packet_plan` compiles that once per pattern and eldest into one getter
per seat, so a hand is read from the deck in one call, and :func:`hand_mask` sums its cards' bits.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter

from belote_ref.core.cards import CARDS, Card
from belote_ref.core.errors import BeloteRefError

__all__ = ["DeckGetter", "check_deck", "getter_of", "hand_mask", "packet_plan"]

#: The cards at some positions of a deck (see :func:`getter_of`).
DeckGetter = Callable[[Sequence[Card]], Sequence[Card]]

#: A card's bit by its index: the sum of distinct cards' bits is their mask. Keyed by the shared
#: :data:`~belote_ref.core.cards.CARDS`, which a look-up finds by identity (an int, by equality).
_BIT_OF: dict[int, int] = {card: 1 << card for card in CARDS}
_bit_of = _BIT_OF.__getitem__


def check_deck(deck: Sequence[Card]) -> None:
    """Raise :class:`~belote_ref.core.errors.BeloteRefError` (code ``bad_deck``) unless ``deck`` holds
    the 32 cards once each."""
    try:
        # 32 powers of two add up to 2**32 - 1 only when all 32 differ (no carry).
        mask = sum(map(_bit_of, deck))
    except (KeyError, TypeError):
        mask = -1
    if len(deck) != 32 or mask != 0xFFFFFFFF:
        raise BeloteRefError(
            f"a deck must hold the 32 distinct cards; found {len(deck)} cards, {len(set(deck))} distinct",
            code="bad_deck",
        )


def hand_mask(cards: Iterable[Card]) -> int:
    """The mask of distinct ``cards`` (from a deck :func:`check_deck` accepted)."""
    mask = 0
    for card in cards:  # a loop, not sum(map(...)): the faster in both builds for a hand's few cards
        mask |= 1 << card
    return mask


def getter_of(positions: Sequence[int]) -> DeckGetter:
    """The cards at ``positions`` of a deck, as a sequence (even for one position)."""
    if len(positions) == 1:
        return itemgetter(slice(positions[0], positions[0] + 1))
    return itemgetter(*positions)


@functools.cache
def packet_plan(packets: tuple[int, ...], eldest: int, start: int = 0) -> tuple[tuple[DeckGetter, ...], int]:
    """For each seat, the getter of the cards it receives when each packet size is dealt to every
    seat in play order from ``eldest``, from deck position ``start``; and the next position."""
    positions: list[list[int]] = [[], [], [], []]
    position = start
    for size in packets:
        for offset in range(4):
            positions[(eldest + offset) & 3].extend(range(position, position + size))
            position += size
    return tuple(getter_of(seat_positions) for seat_positions in positions), position
