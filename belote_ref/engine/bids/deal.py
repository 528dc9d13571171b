"""A whole deal of the bidding family: the eight-card deal, the auction of bids, the play, the score.

:class:`BidDeal` is a :class:`~belote_ref.engine.deal.DealState` whose auction is a
:class:`~belote_ref.engine.bids.auction.BidAuction`: the hands are the full eight cards from the start (no turned
card, no completion), eldest leads the first trick, and the deal is scored with the bid taken
(:func:`~belote_ref.engine.scoring.score_deal` with ``bid``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from belote_ref.core.cards import DECK, SEATS, Card, CardSet, Seat
from belote_ref.core.errors import BeloteRefError, IllegalCallError, InternalError
from belote_ref.engine.bids.auction import Bid, BidAuction, BidStatus, deal_bid_hands
from belote_ref.engine.deal import DealState, Phase, check_hands
from belote_ref.engine.scoring import score_deal
from belote_ref.rules.ruleset import Ruleset

__all__ = ["BidDeal"]

_SEVENS = 0x01010101  # the 7 of each suit


class BidDeal(DealState):
    """One deal of the bidding family. :meth:`call` takes the family's calls (``80H``, ``coinche``...)."""

    def __init__(self, rules: Ruleset, dealer: Seat, hands: Mapping[Seat, CardSet], *, pot: int = 0,
                 final_deal: bool = False) -> None:
        # The classic state needs a turned card; the family has none, and never shows this one.
        super().__init__(rules, dealer, hands, Card(0), pot=0, final_deal=final_deal)
        del pot  # the family has no litige: nothing is carried in
        self.bids = BidAuction(rules, dealer)
        self.bid: Bid | None = None

    @classmethod
    def from_bid_deck(cls, rules: Ruleset, dealer: Seat, deck: Sequence[Card]) -> BidDeal:
        """A deal dealt from ``deck`` by ``deal.bid_packets``; raises ``bad_deck`` on a bad deck."""
        return cls(rules, dealer, deal_bid_hands(rules, dealer, deck))

    @classmethod
    def from_bid_hands(cls, rules: Ruleset, dealer: Seat, hands: Mapping[Seat, CardSet]) -> BidDeal:
        """A deal from recorded 8-card hands; raises ``bad_deal`` unless they are the 32 cards."""
        if check_hands(hands, 8) != DECK.mask:
            raise BeloteRefError("the four hands must make the 32 cards", code="bad_deal")
        return cls(rules, dealer, hands)

    def copy(self) -> BidDeal:
        """An independent copy of the deal as it stands, its auction of bids included (as
        :meth:`DealState.copy <belote_ref.engine.deal.DealState.copy>`)."""
        twin = BidDeal(self.rules, self.dealer, self.first_hands, final_deal=self.final_deal)
        self._copy_play_to(twin)
        twin.bids, twin.bid = self.bids.copy(), self.bid
        return twin

    @property
    def status(self) -> BidStatus:
        """Where the auction stands."""
        return self.bids.status

    def call(self, token: str) -> BidStatus:
        """Make the next call of the auction; start the play when the auction ends with a bid.

        Raises :class:`~belote_ref.core.errors.IllegalCallError` (with the reason) when the call is not allowed.
        """
        if self.phase is not Phase.AUCTION:
            raise IllegalCallError(f"call {token!r} outside the auction (phase {self.phase.value})")
        status = self.bids.call(token)
        if status.status == "taken":
            if not (status.taker is not None and status.trump is not None and status.bid is not None):
                raise InternalError("broken invariant: a taken contract has its taker, trump and bid")
            self.taker, self.trump, self.bid = status.taker, status.trump, status.bid
            self.full_hands = dict(self.first_hands)
            self.hands = [self.first_hands[seat].mask for seat in SEATS]
            if self.rules.announcements.carre_of_sevens == "redeal" and any(
                    hand & _SEVENS == _SEVENS for hand in self.hands):
                self.phase = Phase.REDEAL
            else:
                self.phase = Phase.PLAY
        elif status.status == "redeal":
            self.phase = Phase.REDEAL
        return status

    @property
    def current_seat(self) -> Seat | None:
        """The seat to call or to play, or None when the deal is over."""
        if self.phase is Phase.AUCTION:
            return self.bids.turn
        return super().current_seat

    @property
    def next_dealer(self) -> Seat | None:
        """Who deals next after a redeal; None unless the phase is REDEAL."""
        if self.phase is not Phase.REDEAL:
            return None
        status = self.bids.status
        return status.next_dealer if status.status == "redeal" else self.dealer

    def _finish(self, winners: tuple[Seat, ...] | None = None) -> None:
        if not (self.taker is not None and self.trump is not None):
            raise InternalError("broken invariant: self.taker is not None and self.trump is not None")
        self.score = score_deal(
            self.rules, dealer=self.dealer, taker=self.taker, trump=self.trump, tricks=self.tricks,
            belote=self.belote, announcements=self.declarations, final_deal=self.final_deal,
            validate=False, bid=self.bid, trick_winners=winners,
        )
        self.phase = Phase.SCORED
