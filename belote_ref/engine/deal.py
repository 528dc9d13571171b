"""Dealing a deck order and the two-round auction (la prise).

The deck is dealt as given (the cut already applied), top card first:

1. ``deal.first_packets`` (its first entry, e.g. ``[3, 2]``): each packet size is dealt to every
   seat in play order starting with eldest (``next(dealer)``), so with ``[3, 2]`` eldest gets
   cards 0-2, the next seat 3-5, ... then eldest 12-13, and so on; 20 cards in all.
2. The next card (index 20) is turned: the *retourne*.
3. After the auction the taker takes the turned card, then the completion is dealt one packet
   per seat in play order starting at ``deal.completion_start`` (eldest or the taker): the taker
   receives 2 cards, every other seat 3. With ``deal.completion_packets: one_at_a_time`` it goes
   round one card at a time instead: three rounds from the same seat, the taker left out of the
   third.

Round 1 of the auction, from eldest: ``pass`` or ``take`` (trump = the turned suit). Round 2, only
if all four passed: ``pass`` or a suit letter, which must differ from the turned suit unless
``bidding.round2_allow_turnup_suit``, or ``SA`` (sans-atout) and ``TA`` (tout-atout) when
``bidding.contracts`` allows them. When everybody passes twice, ``bidding.all_pass`` decides:
a redeal by the next dealer or by the same dealer, or a third round in which eldest alone must
name a suit (any suit; belote-ref offers no SA or TA there, since the one source of the third
round speaks of a suit). Whatever the contract and the round, the taker receives the turned card.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from belote_ref.core.cards import (
    CARDS,
    DECK,
    SEATS,
    SUIT_LETTERS,
    Card,
    CardSet,
    Seat,
    Suit,
    Trump,
    cardset_of_mask,
    trump_of,
)
from belote_ref.core.errors import BeloteRefError, IllegalCallError, IllegalPlayError, InternalError
from belote_ref.engine.announcements import Declaration
from belote_ref.engine.bids.auction import Bid, BidStatus, make_calls
from belote_ref.engine.dealing import DeckGetter, check_deck, getter_of, hand_mask, packet_plan
from belote_ref.engine.faults import Fault, FaultError, score_revoke
from belote_ref.engine.play import Trick, _winning_index, explain_illegal, legal_mask, run_tricks
from belote_ref.engine.scoring import Belote, DealScore, score_deal
from belote_ref.rules.ruleset import Ruleset

__all__ = [
    "Auction",
    "AuctionStatus",
    "DealState",
    "Phase",
    "PlayedDeal",
    "check_hands",
    "complete_hands",
    "deal_first_hands",
    "play_out",
    "run_auction",
]

FIRST_DEAL_CARDS = 20
_SEVENS = 0x01010101  # the 7 of each suit: rank 0 of suits S H D C


def check_hands(hands: Mapping[Seat, CardSet], size: int, *, seen: int = 0, what: str = "hand",
                index: int | None = None) -> int:
    """The cards of the four ``hands`` and of ``seen``, as one mask.

    Raises :class:`~belote_ref.core.errors.BeloteRefError` (code ``bad_deal``, with ``index`` when
    given) naming the first seat whose ``what`` is not ``size`` cards dealt nowhere else."""
    for seat in SEATS:
        hand = hands[seat]
        if len(hand) != size or hand.mask & seen:
            raise BeloteRefError(f"{seat.name}'s {what} must be {size} cards not dealt elsewhere; found {hand}",
                                 code="bad_deal", index=index)
        seen |= hand.mask
    return seen


@functools.cache
def _completion_plan(start: int, taker: int, one_at_a_time: bool) -> tuple[DeckGetter, ...]:
    """For each seat, the getter of its completion cards: 2 for the taker, 3 for the others, from
    deck position 21, in packets (or one card at a time) round the table from ``start``."""
    sizes = [2 if seat == taker else 3 for seat in range(4)]
    positions: list[list[int]] = [[], [], [], []]
    position = FIRST_DEAL_CARDS + 1
    for round_number in range(max(sizes) if one_at_a_time else 1):
        for offset in range(4):
            seat = (start + offset) & 3
            count = (1 if round_number < sizes[seat] else 0) if one_at_a_time else sizes[seat]
            positions[seat].extend(range(position, position + count))
            position += count
    return tuple(getter_of(seat_positions) for seat_positions in positions)


def deal_first_hands(rules: Ruleset, dealer: Seat, deck: Sequence[Card]) -> tuple[dict[Seat, CardSet], Card]:
    """The four 5-card hands of the first distribution and the turned card.

    Raises :class:`~belote_ref.core.errors.BeloteRefError` (code ``bad_deck``) unless ``deck`` holds
    the 32 cards once each.
    """
    check_deck(deck)
    getters, turned = packet_plan(tuple(rules.deal.first_packets[0]), (dealer + 1) & 3)
    hands = {SEATS[seat]: cardset_of_mask(hand_mask(getters[seat](deck))) for seat in range(4)}
    return hands, deck[turned]


def complete_hands(rules: Ruleset, dealer: Seat, deck: Sequence[Card], taker: Seat) -> dict[Seat, CardSet]:
    """The four 8-card hands after the completion: the taker holds the turned card.

    Raises :class:`~belote_ref.core.errors.BeloteRefError` (code ``bad_deck``) on a bad deck.
    """
    first, turned = deal_first_hands(rules, dealer, deck)
    return _completed(rules, dealer, deck, taker, [first[seat].mask for seat in SEATS], turned)


def _completed(rules: Ruleset, dealer: Seat, deck: Sequence[Card], taker: Seat, first: list[int],
               turned: Card) -> dict[Seat, CardSet]:
    start = taker if rules.deal.completion_start == "taker_first" else (dealer + 1) & 3
    getters = _completion_plan(start, taker, rules.deal.completion_packets == "one_at_a_time")
    masks = [first[seat] | hand_mask(getters[seat](deck)) for seat in range(4)]
    masks[taker] |= 1 << turned
    return {seat: cardset_of_mask(masks[seat]) for seat in SEATS}


@functools.cache
def _other_calls(trumps: frozenset[Trump]) -> tuple[str, ...]:
    """The round-2 calls of the contracts other than a suit that ``trumps`` allows (``SA``, ``TA``)."""
    return tuple(trump.letter for trump in sorted(trumps) if trump.suit is None)


@functools.cache
def _open_statuses(allow_turned_suit: bool, eldest: Seat, turned_suit: Suit,
                   others: tuple[str, ...] = ()) -> tuple[AuctionStatus, ...]:
    """The status before each call (0 to 7) of the first two rounds; shared, since they are frozen.

    ``others`` are the calls of the contracts other than a suit (``SA``, ``TA``) allowed in round 2.
    """
    suits = tuple(letter for letter in SUIT_LETTERS if allow_turned_suit or letter != turned_suit.letter)
    return tuple(
        AuctionStatus("open", next=SEATS[(eldest + count) & 3], round=1, legal=("pass", "take")) if count < 4
        else AuctionStatus("open", next=SEATS[(eldest + count) & 3], round=2, legal=("pass", *suits, *others))
        for count in range(8))


@dataclass(frozen=True, slots=True)
class AuctionStatus:
    """Where an auction stands.

    ``status`` is ``open`` (``next``, ``round`` and ``legal`` are set), ``taken`` (``taker``,
    ``trump``, ``round``) or ``redeal`` (``next_dealer``). ``trump`` is a :class:`Suit` for a suit
    contract, ``Trump.SA`` or ``Trump.TA`` otherwise.
    """

    status: Literal["open", "taken", "redeal"]
    next: Seat | None = None
    round: int | None = None
    legal: tuple[str, ...] = ()
    taker: Seat | None = None
    trump: Suit | Trump | None = None
    next_dealer: Seat | None = None

    def __init__(self, status: Literal["open", "taken", "redeal"], next: Seat | None = None,
                 round: int | None = None, legal: tuple[str, ...] = (), taker: Seat | None = None,
                 trump: Suit | Trump | None = None, next_dealer: Seat | None = None) -> None:
        # Written out: the compiled build compiles this __init__, not the one dataclasses generates
        # (interpreted); tests/test_build.py checks it takes the fields in order with their defaults.
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "next", next)
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "legal", legal)
        object.__setattr__(self, "taker", taker)
        object.__setattr__(self, "trump", trump)
        object.__setattr__(self, "next_dealer", next_dealer)

    def to_json(self) -> dict[str, object]:
        """The protocol's ``auction`` result.

        Raises :class:`~belote_ref.core.errors.InternalError` only on a broken invariant (a bug).
        """
        if self.status == "open":
            if self.next is None:
                raise InternalError("broken invariant: self.next is not None")
            return {"status": "open", "next": self.next.name, "round": self.round, "legal": list(self.legal)}
        if self.status == "taken":
            if self.taker is None or self.trump is None:
                raise InternalError("broken invariant: self.taker is not None and self.trump is not None")
            return {"status": "taken", "taker": self.taker.name, "trump": self.trump.letter, "round": self.round}
        if self.next_dealer is None:
            raise InternalError("broken invariant: self.next_dealer is not None")
        return {"status": "redeal", "next_dealer": self.next_dealer.name}


@functools.cache
def _taken_status(taker: Seat, trump: int, round_number: int) -> AuctionStatus:
    """A taken auction's status (``trump`` 0 to 5, as :func:`~belote_ref.core.cards.trump_of` reads it);
    shared, since it is frozen."""
    return AuctionStatus("taken", taker=taker, trump=trump_of(trump), round=round_number)


class Auction:
    """The two-round auction of one deal. ``call`` checks each call; ``status`` says where it stands."""

    def __init__(self, rules: Ruleset, dealer: Seat, turned: Card) -> None:
        self.rules = rules
        self.dealer = dealer
        self.turned = turned
        self.calls: list[str] = []
        self._others = _other_calls(rules.trumps)
        self._eldest = SEATS[(dealer + 1) & 3]
        self._open = _open_statuses(rules.bidding.round2_allow_turnup_suit, self._eldest, turned.suit, self._others)
        self._status = self._open[0]

    @property
    def status(self) -> AuctionStatus:
        """The current status."""
        return self._status

    def copy(self) -> Auction:
        """An independent copy: calls made on one never show in the other."""
        twin = Auction(self.rules, self.dealer, self.turned)
        twin.calls = list(self.calls)
        twin._status = self._status
        return twin

    def _compute(self) -> AuctionStatus:
        count = len(self.calls)
        eldest = self._eldest
        if count and self.calls[-1] != "pass":
            last = self.calls[-1]
            taker = SEATS[(eldest + count - 1) & 3] if count <= 8 else eldest
            trump = self.turned >> 3 if last == "take" else int(Trump.parse(last))
            return _taken_status(taker, trump, min((count - 1) // 4 + 1, 3))
        if count < 8:
            return self._open[count]
        rule = self.rules.bidding.all_pass
        if rule == "forced_third_round":
            return AuctionStatus("open", next=eldest, round=3, legal=tuple(SUIT_LETTERS))
        next_dealer = self.dealer if rule == "redeal_same_dealer" else self.dealer.next
        return AuctionStatus("redeal", next_dealer=next_dealer)

    def call(self, token: str) -> AuctionStatus:
        """Make the next call (``pass``, ``take``, a suit letter, ``SA`` or ``TA``) and return the new status.

        Raises :class:`~belote_ref.core.errors.IllegalCallError` naming the seat, the round, the rule
        and what was legal, when the call is not allowed (or the auction is over).
        """
        status = self._status
        if status.status != "open":
            raise IllegalCallError(f"call {token!r} after the auction ended ({status.status})")
        if token not in status.legal:
            if status.round == 2 and token == self.turned.suit.letter:
                rule = "bidding.round2_allow_turnup_suit"
            elif status.round == 2 and token in ("SA", "TA"):
                rule = "bidding.contracts"
            else:
                rule = "bidding.calls"
            raise IllegalCallError(
                f"{status.next.name if status.next is not None else '?'} may not call {token!r} "
                f"in round {status.round} ({rule}); legal: {' '.join(status.legal)}"
            )
        self.calls.append(token)
        self._status = self._compute()
        return self._status


def run_auction(rules: Ruleset, dealer: Seat, turned: Card, calls: Sequence[str]) -> AuctionStatus:
    """Apply ``calls`` in order and return the final status.

    Raises :class:`~belote_ref.core.errors.IllegalCallError` with ``index`` (0-based into ``calls``)
    at the first illegal call.
    """
    auction = Auction(rules, dealer, turned)
    make_calls(auction, calls)
    return auction.status


# ----------------------------------------------------------------------------- the whole deal


class Phase(enum.Enum):
    """Where a deal stands."""

    AUCTION = "auction"
    PLAY = "play"
    SCORED = "scored"
    REDEAL = "redeal"


_PLAYING = Phase.PLAY


class DealState:
    """One deal from the first distribution to the score: auction, completion, declarations, 32 plays.

    Build it from a deck order (:meth:`from_deck`) or from recorded hands (:meth:`from_hands`).
    Two paths, as in python-chess: :meth:`call` and :meth:`play` check and raise an error naming
    the rule, the seat and what was legal; :meth:`play_unchecked` is the fast path for
    simulations and trusts its caller. :meth:`play_random` draws and plays a whole random deal at
    once, and :meth:`play_all` checks and plays a whole recorded one.
    """

    def __init__(
        self,
        rules: Ruleset,
        dealer: Seat,
        first_hands: Mapping[Seat, CardSet],
        turned: Card,
        *,
        completion: Mapping[Seat, CardSet] | None = None,
        deck: Sequence[Card] | None = None,
        pot: int = 0,
        final_deal: bool = False,
    ) -> None:
        self.rules = rules
        self.final_deal = final_deal
        self.dealer = dealer
        self.first_hands = {seat: first_hands[seat] for seat in SEATS}
        self.turned = turned
        self.pot = pot
        self._completion = completion
        self._deck = deck
        self.auction = Auction(rules, dealer, turned)
        self.phase = Phase.AUCTION
        self.taker: Seat | None = None
        self.trump: Suit | Trump | None = None
        self.hands: list[int] = [self.first_hands[seat].mask for seat in SEATS]
        self.full_hands: dict[Seat, CardSet] = {}
        self.belote: Belote = None
        self.declarations: list[Declaration] = []
        self.plays: list[Card] = []
        self.tricks: list[Trick] = []
        self.leader: Seat = dealer.next
        self.trick_cards: list[Card] = []
        self.score: DealScore | None = None

    @classmethod
    def from_deck(cls, rules: Ruleset, dealer: Seat, deck: Sequence[Card], *, pot: int = 0) -> DealState:
        """A deal dealt from ``deck`` (top card first, the cut already applied).

        Raises :class:`~belote_ref.core.errors.BeloteRefError` (code ``bad_deck``) on a bad deck.
        """
        first, turned = deal_first_hands(rules, dealer, deck)
        # DealState by name, not cls: a deal of bids has constructors of its own (BidDeal), and the
        # compiled build calls a class it knows directly.
        return DealState(rules, dealer, first, turned, deck=deck, pot=pot)

    @classmethod
    def from_hands(
        cls,
        rules: Ruleset,
        dealer: Seat,
        first_hands: Mapping[Seat, CardSet],
        turned: Card,
        completion: Mapping[Seat, CardSet] | None,
        *,
        pot: int = 0,
    ) -> DealState:
        """A deal from recorded 5-card hands, the turned card and the completion cards.

        Raises :class:`~belote_ref.core.errors.BeloteRefError` (code ``bad_deal``) when the cards
        are not 32 distinct cards in the right numbers.
        """
        seen = check_hands(first_hands, 5, seen=turned.mask, what="first hand")
        if completion is not None:
            for seat in SEATS:
                extra = completion[seat]
                if extra.mask & seen:
                    raise BeloteRefError(f"{seat.name}'s completion repeats a card: {extra}", code="bad_deal")
                seen |= extra.mask
            if seen != DECK.mask:
                raise BeloteRefError("the hands, the turned card and the completion must make the 32 cards",
                                     code="bad_deal")
        return DealState(rules, dealer, first_hands, turned, completion=completion, pot=pot)

    # ----------------------------------------------------------------------------- auction

    def call(self, token: str) -> AuctionStatus | BidStatus:
        """Make the next call of the auction; complete the hands when someone takes. The status is
        an :class:`AuctionStatus`, and a :class:`~belote_ref.engine.bids.auction.BidStatus` for a
        deal of the bidding family (:class:`~belote_ref.engine.bids.deal.BidDeal`).

        Raises :class:`~belote_ref.core.errors.IllegalCallError` when the call is not allowed.
        """
        if self.phase is not Phase.AUCTION:
            raise IllegalCallError(f"call {token!r} outside the auction (phase {self.phase.value})")
        status = self.auction.call(token)
        if status.status == "taken":
            if status.taker is None or status.trump is None:
                raise InternalError("broken invariant: status.taker is not None and status.trump is not None")
            self._start_play(status.taker, status.trump)
        elif status.status == "redeal":
            self.phase = Phase.REDEAL
        return status

    def _start_play(self, taker: Seat, trump: Suit | Trump) -> None:
        self.taker, self.trump = taker, trump
        if self._completion is not None:
            completion, first = self._completion, self.first_hands
            masks = []
            for seat in SEATS:
                extra = completion[seat].mask
                expected = 2 if seat == taker else 3
                if extra.bit_count() != expected:
                    raise BeloteRefError(
                        f"{seat.name} must receive {expected} cards in the completion; found {completion[seat]}",
                        code="bad_deal")
                masks.append(first[seat].mask | extra)
            masks[taker] |= 1 << self.turned
            full = {SEATS[seat]: cardset_of_mask(masks[seat]) for seat in range(4)}
        elif self._deck is not None:
            full = _completed(self.rules, self.dealer, self._deck, taker,
                              [self.first_hands[seat].mask for seat in SEATS], self.turned)
        else:
            raise BeloteRefError("someone took, but the completion cards are not given", code="bad_deal")
        self.full_hands = full
        self.hands = [full[seat].mask for seat in SEATS]
        if self.rules.announcements.carre_of_sevens == "redeal" and any(
                hand & _SEVENS == _SEVENS for hand in self.hands):
            # A misdeal-like void deal: the same dealer deals again, as after a misdeal (FFB-K15, PAGAT).
            self.phase = Phase.REDEAL
            return
        self.phase = Phase.PLAY

    @property
    def next_dealer(self) -> Seat | None:
        """Who deals next after a redeal (everyone passed, or four sevens under
        ``announcements.carre_of_sevens: redeal``); None unless the phase is REDEAL."""
        if self.phase is not Phase.REDEAL:
            return None
        status = self.auction.status
        return status.next_dealer if status.status == "redeal" else self.dealer

    # ----------------------------------------------------------------------------- declarations

    def declare_belote(self, seat: Seat, suit: Suit | None = None) -> None:
        """Record that ``seat`` announced belote-rebelote (checked when the deal is scored).

        At tout-atout, where every suit may hold a belote, name its ``suit``: each call adds one
        belote to :attr:`belote`, then a mapping suit -> seat.
        """
        if suit is None:
            self.belote = seat
            return
        belotes = dict(self.belote) if isinstance(self.belote, Mapping) else {}
        belotes[suit] = seat
        self.belote = belotes

    def declare(self, declaration: Declaration) -> None:
        """Record a declared (and shown) combination.

        Raises :class:`~belote_ref.core.errors.BeloteRefError` (code ``bad_announcement``) when
        announcements are not played, the play has gone past trick 1, or the seat's hand did not
        hold the cards.
        """
        if not self.rules.announcements.enabled:
            raise BeloteRefError(
                "announcements are not played (announcements.enabled is false)", code="bad_announcement"
            )
        if self.phase is not Phase.PLAY or len(self.plays) >= 4:
            raise BeloteRefError("combinations are declared during the first trick", code="bad_announcement")
        cards = declaration.combination.cards
        if cards.mask & ~self.full_hands[declaration.seat].mask:
            raise BeloteRefError(f"{declaration.seat.name} did not hold {cards}", code="bad_announcement")
        self.declarations.append(declaration)

    # ----------------------------------------------------------------------------- play

    @property
    def current_seat(self) -> Seat | None:
        """The seat to call or to play, or None when the deal is over."""
        if self.phase is Phase.AUCTION:
            return self.auction.status.next
        if self.phase is Phase.PLAY:
            return SEATS[(self.leader + len(self.trick_cards)) & 3]
        return None

    @property
    def current_trick(self) -> Trick:
        """The trick being played."""
        return Trick(self.leader, tuple(self.trick_cards))

    def legal_plays(self) -> CardSet:
        """The cards the seat to play may play."""
        seat = self.current_seat
        if self.phase is not Phase.PLAY or seat is None or self.trump is None:
            return CardSet()
        return CardSet(legal_mask(self.rules, self.trump, self.hands[seat], self.leader, tuple(self.trick_cards)))

    def play(self, card: Card) -> None:
        """Play ``card`` for the seat to play, after checking it.

        Raises :class:`~belote_ref.core.errors.IllegalPlayError` (code ``card_not_in_hand`` or
        ``illegal_play``) with a message such as ``trick 4, E played 8C: must overtrump
        (play.undertrump_over_opponent); legal: 9H JH``.
        """
        if self.phase is not _PLAYING or self.trump is None:
            raise IllegalPlayError(f"no card can be played now (phase {self.phase.value})", code="illegal_play",
                                   index=len(self.plays))
        seat = SEATS[(self.leader + len(self.trick_cards)) & 3]
        hand_mask = self.hands[seat]
        if legal_mask(self.rules, self.trump, hand_mask, self.leader, tuple(self.trick_cards)) >> card & 1:
            self.play_unchecked(card)
            return
        hand = CardSet(hand_mask)
        where = f"trick {len(self.tricks) + 1}, {seat.name} played {card}"
        if card not in hand:
            raise IllegalPlayError(f"{where}: not in hand ({hand})", code="card_not_in_hand", index=len(self.plays))
        violation = explain_illegal(self.rules, self.trump, hand, self.current_trick, card)
        if violation is None:
            raise InternalError("explain_illegal and legal_mask disagree")
        raise IllegalPlayError(f"{where}: {violation.message} ({violation.rule}); legal: {violation.allowed}",
                               violation=violation, code=violation.code, index=len(self.plays))

    def copy(self) -> DealState:
        """An independent copy of the deal as it stands: calls and plays made on one never show in
        the other, so a search can try a move on a copy and drop it (the undo of python-chess's
        ``pop``). The ruleset, cards, tricks and declarations are immutable and shared."""
        twin = DealState(self.rules, self.dealer, self.first_hands, self.turned, completion=self._completion,
                         deck=self._deck, pot=self.pot, final_deal=self.final_deal)
        self._copy_play_to(twin)
        twin.auction = self.auction.copy()
        return twin

    def _copy_play_to(self, twin: DealState) -> None:
        """Give ``twin`` copies of this deal's state after the auction (what :meth:`copy` copies)."""
        twin.phase, twin.taker, twin.trump, twin.leader = self.phase, self.taker, self.trump, self.leader
        twin.hands, twin.full_hands = list(self.hands), dict(self.full_hands)
        twin.belote = dict(self.belote) if isinstance(self.belote, dict) else self.belote
        twin.declarations, twin.plays = list(self.declarations), list(self.plays)
        twin.tricks, twin.trick_cards = list(self.tricks), list(self.trick_cards)
        twin.score = self.score

    def play_unchecked(self, card: Card) -> None:
        """Play ``card`` without any check (fast path for simulations).

        .. warning:: An illegal card or a card not in hand corrupts the state silently.

        Raises nothing on bad input (nothing is checked); :class:`~belote_ref.core.errors.InternalError`
        only on a broken invariant (a bug).
        """
        trick_cards = self.trick_cards
        leader = self.leader
        self.hands[(leader + len(trick_cards)) & 3] &= ~(1 << card)
        self.plays.append(card)
        trick_cards.append(card)
        if len(trick_cards) == 4:
            cards = tuple(trick_cards)
            self.tricks.append(Trick(leader, cards))
            if self.trump is None:
                raise InternalError("broken invariant: self.trump is not None")
            self.leader = SEATS[(leader + _winning_index(self.rules.strength[self.trump], cards)) & 3]
            self.trick_cards = []
            if len(self.tricks) == 8:
                self._finish()

    def play_all(self, cards: Sequence[Card], leaders: Sequence[Seat | None] = ()) -> int:
        """Play a whole deal's 32 ``cards`` at once, each checked as :meth:`play` checks it, and
        the leader of each trick checked against ``leaders`` (None: not recorded).

        Returns -1 when all were played (the deal is then scored). Otherwise the state is unchanged,
        :meth:`play` card by card names the rule broken, and the index returned is that of the
        first fault: the first card that is illegal or not in hand, or the first card of a trick
        led by another seat than ``leaders`` says, whichever comes first; for other than 32 cards,
        their number (32 when there are more), unless a wrong leader comes first. Only from the
        first card of the play phase: raises :class:`~belote_ref.core.errors.IllegalPlayError`
        otherwise. Raises :class:`~belote_ref.core.errors.InconsistentDealError` as the scoring does (a
        belote or a declaration that the cards played belie): the 32 cards are then played, and
        the deal is not scored.
        """
        if self.phase is not _PLAYING or self.plays or self.trump is None:
            raise IllegalPlayError("play_all plays a deal from its first card", code="illegal_play", index=0)
        hands = list(self.hands)
        played, trick_leaders, bad = run_tricks(self.rules, self.trump, hands, self.leader, cards)
        last = bad if bad >= 0 else len(cards)
        # trick_leaders holds the leader of every trick begun, so of every trick up to the fault.
        for number, recorded in enumerate(leaders[:min(8, len(trick_leaders))]):
            if recorded is not None and recorded != trick_leaders[number] and number * 4 <= last:
                return number * 4
        if bad >= 0:
            return bad
        self._commit(played, trick_leaders, hands)
        return -1

    def play_random(self, random_: Callable[[], float]) -> None:
        """Play the 32 cards of the deal, each drawn uniformly from the legal plays with ``random_``
        (``rng.random``): the fast path of :func:`~belote_ref.engine.simulate.random_deal`. Only from the
        first card of the play phase: raises :class:`~belote_ref.core.errors.IllegalPlayError` otherwise.
        """
        if self.phase is not _PLAYING or self.plays or self.trump is None:
            raise IllegalPlayError("play_random plays a deal from its first card", code="illegal_play", index=0)
        hands = self.hands
        played, trick_leaders, _ = run_tricks(self.rules, self.trump, hands, self.leader, None, random_)
        self._commit(played, trick_leaders, hands)

    def _commit(self, played: list[int], leaders: list[int], hands: list[int]) -> None:
        """Take the 32 cards of :func:`~belote_ref.engine.play.run_tricks` as played, and score the deal."""
        seats = [SEATS[leader] for leader in leaders]
        self.hands[:] = hands  # in place: whoever holds the list sees the hands emptied
        self.plays = [CARDS[card] for card in played]
        plays = self.plays
        self.tricks = [Trick(seats[number], tuple(plays[number * 4:number * 4 + 4])) for number in range(8)]
        self.leader = seats[8]
        self.trick_cards = []
        self._finish(tuple(seats[1:]))

    def _finish(self, winners: tuple[Seat, ...] | None = None) -> None:
        if self.taker is None or self.trump is None:
            raise InternalError("broken invariant: self.taker is not None and self.trump is not None")
        self.score = score_deal(
            self.rules, dealer=self.dealer, taker=self.taker, trump=self.trump, tricks=self.tricks,
            belote=self.belote, announcements=self.declarations, pot=self.pot, final_deal=self.final_deal,
            validate=False, trick_winners=winners,
        )
        self.phase = Phase.SCORED


# ----------------------------------------------------------------------------- a deal under a given contract


@dataclass(frozen=True)
class PlayedDeal:
    """The outcome of :func:`play_out`: the trick winners, the legal plays at each turn (when
    asked for) and the score."""

    trick_winners: tuple[Seat, ...]
    legal: tuple[CardSet, ...] | None
    score: DealScore


def play_out(
    rules: Ruleset,
    *,
    hands: Mapping[Seat, CardSet],
    trump: Suit | Trump,
    taker: Seat,
    leader: Seat,
    plays: Sequence[Card],
    belote: Belote = None,
    announcements: Sequence[Declaration] = (),
    pot: int = 0,
    legal: bool = False,
    bid: Bid | None = None,
    revoke: Fault | None = None,
) -> PlayedDeal:
    """Play a whole deal whose contract is known: 32 cards from the four 8-card ``hands``.

    ``leader`` leads trick 1 (the dealer is the seat before him, for eldest-based rules); each
    trick's winner leads the next. Every card is checked against the legal plays of its turn
    (``legal=True`` keeps them, one :class:`CardSet` per turn); then the deal is scored by
    :func:`~belote_ref.engine.scoring.score_deal` with ``belote`` and ``announcements``.

    Raises :class:`~belote_ref.core.errors.BeloteRefError` with code ``bad_deal`` unless the hands
    are 8 cards each and 32 distinct cards in all, or there are not 32 plays (``index`` = the
    number of plays given); :class:`~belote_ref.core.errors.IllegalPlayError` (code ``illegal_play``
    or ``card_not_in_hand``, ``index`` = the 0-based index into ``plays``) at the first card that
    may not be played; :class:`~belote_ref.engine.scoring.InconsistentDealError` (``bad_belote``,
    ``bad_announcement``) from the scoring. Under ``bidding.auction: bids``, ``bid`` is the
    contract's value and multiplier.

    ``revoke``: the card ``revoke.by`` played in trick ``revoke.trick`` was a revoke, found at the
    end of the deal: that card is let through (the others are checked as ever) and the deal is
    scored by :func:`~belote_ref.engine.faults.score_revoke` (``penalties.revoke.found_at_end``).
    Raises :class:`~belote_ref.engine.faults.FaultError` (code ``no_revoke``, ``index`` = that
    play's) when the card was one the play rules allowed.
    """
    check_hands(hands, 8, index=0)
    if len(plays) != 32:
        raise BeloteRefError(f"a deal is 32 plays; found {len(plays)}", code="bad_deal", index=len(plays))
    masks = [hands[seat].mask for seat in SEATS]
    if not legal and revoke is None:
        # The good path: all 32 cards at once; a deal it refuses is played card by card below, for
        # the error that names the rule.
        _, leaders, bad = run_tricks(rules, trump, list(masks), leader, plays)
        if bad < 0:
            seats = [SEATS[seat] for seat in leaders]
            played = [Trick(seats[number], tuple(plays[number * 4:number * 4 + 4])) for number in range(8)]
            score = score_deal(rules, dealer=SEATS[(leader - 1) & 3], taker=taker, trump=trump, tricks=played,
                               belote=belote, announcements=announcements, pot=pot, validate=False, bid=bid,
                               trick_winners=tuple(seats[1:]))
            return PlayedDeal(score.trick_winners, None, score)
    allowed: list[CardSet] = []
    tricks: list[Trick] = []
    first = leader
    cards: list[Card] = []
    strength = rules.strength[trump]
    for index, card in enumerate(plays):
        seat = SEATS[(first + len(cards)) & 3]
        mask = legal_mask(rules, trump, masks[seat], first, tuple(cards))
        if legal:
            allowed.append(CardSet(mask))
        named = revoke is not None and seat is revoke.by and len(tricks) + 1 == revoke.trick
        if named and mask >> card & 1:
            raise FaultError(f"trick {len(tricks) + 1}: {seat.name}'s {card} was a card the play rules allow, "
                             f"not a revoke", code="no_revoke", index=index)
        if not mask >> card & 1 and not (named and card in CardSet(masks[seat])):
            hand = CardSet(masks[seat])
            where = f"trick {len(tricks) + 1}, {seat.name} played {card}"
            if card not in hand:
                raise IllegalPlayError(f"{where}: not in hand ({hand})", code="card_not_in_hand", index=index)
            violation = explain_illegal(rules, trump, hand, Trick(first, tuple(cards)), card)
            if violation is None:
                raise InternalError("explain_illegal and legal_mask disagree")
            raise IllegalPlayError(f"{where}: {violation.message} ({violation.rule}); legal: {violation.allowed}",
                                   violation=violation, code=violation.code, index=index)
        masks[seat] &= ~(1 << card)
        cards.append(card)
        if len(cards) == 4:
            trick = tuple(cards)
            tricks.append(Trick(first, trick))
            first = SEATS[(first + _winning_index(strength, trick)) & 3]
            cards = []
    dealer = SEATS[(leader - 1) & 3]
    if revoke is not None:
        score = score_revoke(rules, revoke, dealer=dealer, taker=taker, trump=trump, tricks=tricks, belote=belote,
                             announcements=announcements, pot=pot, bid=bid)
        # The tricks as played; the score's own winners are the penalty's (innocent_choice).
        as_played = (*(trick.leader for trick in tricks[1:]), first)
        return PlayedDeal(as_played, tuple(allowed) if legal else None, score)
    score = score_deal(rules, dealer=dealer, taker=taker, trump=trump, tricks=tricks,
                       belote=belote, announcements=announcements, pot=pot, validate=False, bid=bid)
    return PlayedDeal(score.trick_winners, tuple(allowed) if legal else None, score)
