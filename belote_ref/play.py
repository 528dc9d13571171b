"""Playing a card: tricks, the trick winner, card points, and the legal plays.

Pure functions driven only by the compiled :class:`~belote_ref.rules.Ruleset`.

The legal plays follow the obligation ladder R0-R5 of ``rules.md`` §1.6, switched by the five
``play.*`` registry parameters. :func:`legal_plays` is the public entry point;
:func:`legal_mask` is the same computation on int masks for simulations, and
:func:`explain_illegal` says which rule forbids a card.

>>> from belote_ref import CardSet, Seat, Suit, find_ruleset, parse_cards
>>> classic = find_ruleset("classic")
>>> trick = Trick(Seat.N, tuple(parse_cards("AS 9H")))
>>> legal_plays(classic, Suit.H, CardSet.parse("7H QH KD 8C"), trick)
CardSet('7H QH')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from belote_ref.cards import Card, Seat, Suit
from belote_ref.rules import Ruleset

__all__ = ["Trick", "trick_points", "trick_winner"]


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick: the seat that led it and the cards played so far, in play order."""

    leader: Seat
    cards: tuple[Card, ...] = ()

    def seat_of(self, index: int) -> Seat:
        """The seat that played (or will play) the ``index``-th card of the trick."""
        return Seat((self.leader + index) & 3)

    @property
    def next_seat(self) -> Seat:
        """The seat to play next."""
        return Seat((self.leader + len(self.cards)) & 3)


def _winning_index(strength: tuple[int, ...], cards: tuple[Card, ...] | list[Card]) -> int:
    """Index of the winning card: trumps (strength 8..15) beat every plain card (0..7)."""
    led_suit = cards[0] >> 3
    best = 0
    best_value = strength[cards[0]]
    for index in range(1, len(cards)):
        card = cards[index]
        value = strength[card]
        if value > best_value and (value >= 8 or card >> 3 == led_suit):
            best, best_value = index, value
    return best


def trick_winner(rules: Ruleset, trump: Suit, trick: Trick) -> Seat:
    """The seat whose card wins ``trick`` so far: the highest trump, else the highest card of the led suit.

    Raises ``ValueError`` if the trick has no card.
    """
    if not trick.cards:
        raise ValueError("an empty trick has no winner")
    return trick.seat_of(_winning_index(rules.strength[trump], trick.cards))


def trick_points(rules: Ruleset, trump: Suit, cards: Iterable[int]) -> int:
    """The card points of ``cards`` with ``trump`` as trumps (no last-trick bonus)."""
    table = rules.points[trump]
    return sum(table[card] for card in cards)
