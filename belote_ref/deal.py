"""Dealing a deck order and the two-round auction (la prise).

The deck is dealt as given (the cut already applied), top card first:

1. ``deal.first_packets`` (its first entry, e.g. ``[3, 2]``): each packet size is dealt to every
   seat in play order starting with eldest (``next(dealer)``), so with ``[3, 2]`` eldest gets
   cards 0-2, the next seat 3-5, ... then eldest 12-13, and so on; 20 cards in all.
2. The next card (index 20) is turned: the *retourne*.
3. After the auction the taker takes the turned card, then the completion is dealt one packet
   per seat in play order starting at ``deal.completion_start`` (eldest or the taker): the taker
   receives 2 cards, every other seat 3.

Round 1 of the auction, from eldest: ``pass`` or ``take`` (trump = the turned suit). Round 2, only
if all four passed: ``pass`` or a suit letter, which must differ from the turned suit unless
``bidding.round2_allow_turnup_suit``. When everybody passes twice, ``bidding.all_pass`` decides:
a redeal by the next dealer or by the same dealer, or a third round in which eldest alone must
name a suit (any suit).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from belote_ref.cards import SUIT_LETTERS, Card, CardSet, Seat, Suit
from belote_ref.errors import BeloteRefError, IllegalCallError
from belote_ref.rules import Ruleset

__all__ = ["Auction", "AuctionStatus", "complete_hands", "deal_first_hands", "run_auction"]

FIRST_DEAL_CARDS = 20


def _check_deck(deck: Sequence[Card]) -> None:
    if len(deck) != 32 or len(set(deck)) != 32:
        raise BeloteRefError(f"a deck must hold the 32 distinct cards; found {len(deck)} cards, {len(set(deck))} distinct",
                             code="bad_deck")


def deal_first_hands(rules: Ruleset, dealer: Seat, deck: Sequence[Card]) -> tuple[dict[Seat, CardSet], Card]:
    """The four 5-card hands of the first distribution and the turned card.

    Raises :class:`~belote_ref.errors.BeloteRefError` (code ``bad_deck``) unless ``deck`` holds
    the 32 cards once each.
    """
    _check_deck(deck)
    packets = rules["deal.first_packets"][0]
    eldest = dealer.next
    hands: dict[Seat, list[Card]] = {seat: [] for seat in Seat}
    position = 0
    for size in packets:
        for offset in range(4):
            seat = Seat((eldest + offset) & 3)
            hands[seat].extend(deck[position:position + size])
            position += size
    return {seat: CardSet(cards) for seat, cards in hands.items()}, deck[position]


def complete_hands(rules: Ruleset, dealer: Seat, deck: Sequence[Card], taker: Seat) -> dict[Seat, CardSet]:
    """The four 8-card hands after the completion: the taker holds the turned card.

    Raises :class:`~belote_ref.errors.BeloteRefError` (code ``bad_deck``) on a bad deck.
    """
    first, turned = deal_first_hands(rules, dealer, deck)
    hands = {seat: set(cards) for seat, cards in first.items()}
    hands[taker].add(turned)
    start = taker if rules["deal.completion_start"] == "taker_first" else dealer.next
    position = FIRST_DEAL_CARDS + 1
    for offset in range(4):
        seat = Seat((start + offset) & 3)
        size = 2 if seat == taker else 3
        hands[seat].update(deck[position:position + size])
        position += size
    return {seat: CardSet(cards) for seat, cards in hands.items()}


@dataclass(frozen=True, slots=True)
class AuctionStatus:
    """Where an auction stands.

    ``status`` is ``open`` (``next``, ``round`` and ``legal`` are set), ``taken`` (``taker``,
    ``trump``, ``round``) or ``redeal`` (``next_dealer``).
    """

    status: Literal["open", "taken", "redeal"]
    next: Seat | None = None
    round: int | None = None
    legal: tuple[str, ...] = ()
    taker: Seat | None = None
    trump: Suit | None = None
    next_dealer: Seat | None = None

    def to_json(self) -> dict[str, object]:
        """The protocol's ``auction`` result."""
        if self.status == "open":
            assert self.next is not None
            return {"status": "open", "next": self.next.name, "round": self.round, "legal": list(self.legal)}
        if self.status == "taken":
            assert self.taker is not None and self.trump is not None
            return {"status": "taken", "taker": self.taker.name, "trump": self.trump.letter, "round": self.round}
        assert self.next_dealer is not None
        return {"status": "redeal", "next_dealer": self.next_dealer.name}


class Auction:
    """The two-round auction of one deal. ``call`` checks each call; ``status`` says where it stands."""

    def __init__(self, rules: Ruleset, dealer: Seat, turned: Card) -> None:
        self.rules = rules
        self.dealer = dealer
        self.turned = turned
        self.calls: list[str] = []
        self._status = self._compute()

    @property
    def status(self) -> AuctionStatus:
        """The current status."""
        return self._status

    def _round_two_suits(self) -> tuple[str, ...]:
        allow_turned = self.rules["bidding.round2_allow_turnup_suit"]
        return tuple(letter for letter in SUIT_LETTERS if allow_turned or letter != self.turned.suit.letter)

    def _compute(self) -> AuctionStatus:
        count = len(self.calls)
        eldest = self.dealer.next
        if count and self.calls[-1] != "pass":
            last = self.calls[-1]
            taker = Seat((eldest + count - 1) & 3) if count <= 8 else eldest
            trump = self.turned.suit if last == "take" else Suit.parse(last)
            return AuctionStatus("taken", taker=taker, trump=trump, round=min((count - 1) // 4 + 1, 3))
        if count < 4:
            return AuctionStatus("open", next=Seat((eldest + count) & 3), round=1, legal=("pass", "take"))
        if count < 8:
            return AuctionStatus("open", next=Seat((eldest + count) & 3), round=2, legal=("pass", *self._round_two_suits()))
        rule = self.rules["bidding.all_pass"]
        if rule == "forced_third_round":
            return AuctionStatus("open", next=eldest, round=3, legal=tuple(SUIT_LETTERS))
        next_dealer = self.dealer if rule == "redeal_same_dealer" else self.dealer.next
        return AuctionStatus("redeal", next_dealer=next_dealer)

    def call(self, token: str) -> AuctionStatus:
        """Make the next call (``pass``, ``take`` or a suit letter) and return the new status.

        Raises :class:`~belote_ref.errors.IllegalCallError` naming the seat, the round, the rule
        and what was legal, when the call is not allowed (or the auction is over).
        """
        status = self._status
        if status.status != "open":
            raise IllegalCallError(f"call {token!r} after the auction ended ({status.status})")
        if token not in status.legal:
            rule = "bidding.round2_allow_turnup_suit" if (
                status.round == 2 and token == self.turned.suit.letter) else "bidding.calls"
            raise IllegalCallError(
                f"{status.next.name if status.next is not None else '?'} may not call {token!r} in round {status.round} "
                f"({rule}); legal: {' '.join(status.legal)}"
            )
        self.calls.append(token)
        self._status = self._compute()
        return self._status


def run_auction(rules: Ruleset, dealer: Seat, turned: Card, calls: Sequence[str]) -> AuctionStatus:
    """Apply ``calls`` in order and return the final status.

    Raises :class:`~belote_ref.errors.IllegalCallError` with ``index`` (0-based into ``calls``)
    at the first illegal call.
    """
    auction = Auction(rules, dealer, turned)
    for index, token in enumerate(calls):
        try:
            auction.call(token)
        except IllegalCallError as error:
            error.index = index
            raise
    return auction.status
