"""The bidding family (coinche, contrée): the eight-card deal and the auction of bids.

A ruleset belongs to the family when ``bidding.auction`` is ``bids``. Then:

- **The deal** (:func:`deal_bid_hands`): all 32 cards are dealt before the auction, in the first
  pattern of ``deal.bid_packets`` (``[3, 2, 3]``: three cards to each seat from eldest, then two
  each, then three each, top card first). No card is turned.
- **The auction** (:class:`BidAuction`): eldest speaks first, then each seat in play order. A
  call is ``pass``; a bid ``<value><trump>`` (``80H``, ``110SA``), the value a multiple of
  ``auction.step`` above ``auction.min_bid`` up to ``auction.max_bid``, the trump one that
  ``bidding.contracts`` allows; a capot bid ``capot<trump>``; a générale ``generale<trump>``
  (``auction.generale``); ``coinche``; ``surcoinche``; or, with ``auction.coinche_out_of_turn``,
  ``coinche:<seat>`` said by that seat out of turn. A bid must be strictly higher than the last
  (the capot above every value, the générale above the capot; suits have no rank); a player may
  outbid his partner and bid after passing. ``coinche`` doubles an opponent's bid, once;
  ``surcoinche`` is for the coinched side only, after a coinche, and ends the auction at once
  (multiplier ``auction.surcoinche_multiplier``). With ``auction.coinche_freezes`` no bid is
  allowed after a coinche; without it a higher bid cancels the coinche. A capot (and a générale)
  bid may be coinched only with ``auction.capot_can_be_doubled``. Three passes in a row after a
  bid or a coinche end the auction: the last bidder takes. Four passes from the start void the
  deal (``bidding.all_pass``: the next dealer or the same one deals again).

:func:`legal_calls` lists what the seat to speak may call, in the protocol's order;
:func:`why_illegal` says in words why a call is not allowed (``None`` when it is). The values of
the ruleset are compiled once per ruleset into a :class:`BidTable`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from belote_ref.core.cards import SEATS, Card, CardSet, Seat, Suit, Trump, cardset_of_mask, trump_of
from belote_ref.core.errors import BeloteRefError, IllegalCallError, InternalError
from belote_ref.engine.dealing import check_deck, hand_mask, packet_plan
from belote_ref.rules.ruleset import Ruleset

__all__ = [
    "Bid",
    "BidAuction",
    "BidStatus",
    "BidTable",
    "BidValue",
    "Call",
    "bid_table",
    "deal_bid_hands",
    "impossible_bid",
    "is_bidding",
    "legal_calls",
    "parse_bid",
    "run_bid_auction",
    "why_illegal",
]

BidValue = int | Literal["capot", "generale"]
"""A contract's value: points, or ``"capot"`` (all eight tricks), or ``"generale"`` (all eight by the
bidder alone)."""

_CALL = re.compile(r"^(?:(?P<value>[0-9]{1,6}|capot|generale)(?P<trump>SA|TA|[SHDC])|coinche:(?P<seat>[NESW]))$")
_PASSES_TO_END = 3
_PASSES_TO_REDEAL = 4


def is_bidding(rules: Ruleset) -> bool:
    """Whether ``rules`` plays the bidding family's auction (``bidding.auction: bids``)."""
    return bool(rules.bidding.auction == "bids")


@dataclass(frozen=True, slots=True)
class Bid:
    """A contract of the family: its value and its multiplier (1; 2 coinched; surcoinched
    ``auction.surcoinche_multiplier``)."""

    value: BidValue
    multiplier: int = 1

    def to_json(self) -> dict[str, object]:
        """The protocol's ``bid`` object."""
        return {"value": self.value, "multiplier": self.multiplier}


def parse_bid(data: object) -> Bid:
    """A :class:`Bid` from the protocol's ``{"value": V | "capot" | "generale", "multiplier": m}``.

    Raises :class:`~belote_ref.core.errors.BeloteRefError` (code ``bad_bid``) on another shape.
    """
    if not isinstance(data, Mapping) or set(data) - {"value", "multiplier"} or "value" not in data:
        raise BeloteRefError(f"a bid is {{value, multiplier}}; found {data!r}"[:200], code="bad_bid")
    value, multiplier = data["value"], data.get("multiplier", 1)
    if not (value in ("capot", "generale") or (isinstance(value, int) and not isinstance(value, bool) and value > 0)):
        raise BeloteRefError(f"bid.value must be a number of points, capot or generale; found {value!r}"[:200],
                             code="bad_bid")
    if not isinstance(multiplier, int) or isinstance(multiplier, bool) or multiplier < 1:
        raise BeloteRefError(f"bid.multiplier must be a whole number >= 1; found {multiplier!r}"[:200], code="bad_bid")
    return Bid(value, multiplier)


def impossible_bid(params: Mapping[str, object], bid: Bid) -> str | None:
    """Why no auction under the rule values ``params`` (a ruleset's ``params``) can end on ``bid``,
    in words; ``None`` when one can.

    A value in points must be on the ladder ``auction.min_bid``, ``+ auction.step``... up to
    ``auction.max_bid``; a générale needs ``auction.generale`` (a capot bid is always there, above
    the ladder); the multiplier is 1, 2 (coinched) or ``auction.surcoinche_multiplier``, and more
    than 1 on a capot or a générale only with ``auction.capot_can_be_doubled``. The trump is not
    looked at here: ``bidding.contracts`` says which contracts a deal may have, whatever its bid.
    """
    value, multiplier = bid.value, bid.multiplier
    if isinstance(value, int):
        low, step, high = params["auction.min_bid"], params["auction.step"], params["auction.max_bid"]
        if not (isinstance(low, int) and isinstance(step, int) and isinstance(high, int)):
            raise InternalError("broken invariant: the ladder of bids is made of whole numbers")
        if not (low <= value <= high and (value - low) % step == 0):
            return (f"no bid of {value}: the bids go from auction.min_bid {low} by auction.step {step} "
                    f"to auction.max_bid {high}")
    elif value == "generale" and not params["auction.generale"]:
        return "no générale here (auction.generale false)"
    surcoinche = params["auction.surcoinche_multiplier"]
    if multiplier not in (1, 2, surcoinche):
        return (f"no multiplier {multiplier}: a contract is 1, 2 coinched or {surcoinche} surcoinched "
                f"(auction.surcoinche_multiplier)")
    if multiplier > 1 and not isinstance(value, int) and not params["auction.capot_can_be_doubled"]:
        return f"a {value} bid cannot be coinched here (auction.capot_can_be_doubled false)"
    return None


@dataclass(frozen=True, slots=True)
class Call:
    """One parsed call: ``kind`` is ``pass``, ``bid``, ``coinche`` or ``surcoinche``.

    For a bid, ``level`` orders it among the bids (its index in :attr:`BidTable.values`, then the
    capot, then the générale), ``value`` is its value and ``trump`` its trump. An out-of-turn
    coinche names its ``seat``.
    """

    token: str
    kind: Literal["pass", "bid", "coinche", "surcoinche"]
    level: int = -1
    value: BidValue = 0
    trump: Suit | Trump | None = None
    seat: Seat | None = None


@dataclass(frozen=True)
class BidTable:
    """A ruleset's auction, compiled once (see :func:`bid_table`).

    - ``values``: the bid values in points, ascending; ``capot_level`` is the level of the capot
      bid (the générale, with ``auction.generale``, is the level above it);
    - ``trumps``: the trumps a bid may name, in the order S H D C SA TA;
    - ``tokens``: every bid token, ascending by level then trump, and ``start[level]`` the index
      of the first token of ``level`` in it;
    - ``calls``: token -> parsed :class:`Call` for every call of the ruleset;
    - ``legal[level, double]``: ``pass``, every bid token of ``level`` and higher (the calls of a
      seat when the last bid is one level lower; level 0 when nobody has bid; none at the level
      past the last), then nothing (``double`` 0), ``coinche`` (1) or ``surcoinche`` (2): every
      list of legal calls, built once.

    The open statuses of its auctions are kept in ``open_statuses`` (frozen, so shared): an auction
    of bids says "open" some six times a deal, always one of a few hundred statuses.
    """

    values: tuple[int, ...]
    trumps: tuple[Trump, ...]
    capot_level: int
    tokens: tuple[str, ...]
    start: tuple[int, ...]
    calls: Mapping[str, Call]
    out_of_turn: bool
    freezes: bool
    capot_doubled: bool
    surcoinche: int
    redeal_same_dealer: bool
    legal: Mapping[tuple[int, int], tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)
    open_statuses: dict[tuple[Seat, int, int], BidStatus] = field(default_factory=dict, compare=False, repr=False)


@functools.lru_cache(maxsize=64)
def bid_table(rules: Ruleset) -> BidTable:
    """The compiled auction of ``rules`` (cached per ruleset)."""
    low, step, high = rules.auction.min_bid, rules.auction.step, rules.auction.max_bid
    values = tuple(range(low, high + 1, step))
    trumps = tuple(trump for trump in Trump if trump in rules.trumps)
    levels: list[BidValue] = [*values, "capot"]
    if rules.auction.generale:
        levels.append("generale")
    tokens: list[str] = []
    start: list[int] = []
    calls: dict[str, Call] = {"pass": Call("pass", "pass"), "coinche": Call("coinche", "coinche"),
                              "surcoinche": Call("surcoinche", "surcoinche")}
    for level, value in enumerate(levels):
        start.append(len(tokens))
        for trump in trumps:
            token = f"{value}{trump.letter}"
            tokens.append(token)
            calls[token] = Call(token, "bid", level, value, trump_of(trump))
    start.append(len(tokens))
    above = [("pass", *tokens[first:]) for first in start]
    if rules.auction.coinche_out_of_turn:
        for seat in SEATS:
            calls[f"coinche:{seat.name}"] = Call(f"coinche:{seat.name}", "coinche", seat=seat)
    return BidTable(values, trumps, len(values), tuple(tokens), tuple(start), calls,
                    bool(rules.auction.coinche_out_of_turn), bool(rules.auction.coinche_freezes),
                    bool(rules.auction.capot_can_be_doubled), int(rules.auction.surcoinche_multiplier),
                    rules.bidding.all_pass == "redeal_same_dealer",
                    {(level, double): above[level] + suffix for level in range(len(above))
                     for double, suffix in enumerate(((), ("coinche",), ("surcoinche",)))})


@dataclass(frozen=True, slots=True)
class BidStatus:
    """Where an auction of bids stands: ``open`` (``next``, ``legal``), ``taken`` (``taker``,
    ``trump``, ``bid``) or ``redeal`` (``next_dealer``)."""

    status: Literal["open", "taken", "redeal"]
    next: Seat | None = None
    legal: tuple[str, ...] = ()
    taker: Seat | None = None
    trump: Suit | Trump | None = None
    bid: Bid | None = None
    next_dealer: Seat | None = None

    @property
    def round(self) -> None:
        """An auction of bids has no rounds (the classic auction's ``round``)."""
        return None

    def to_json(self) -> dict[str, object]:
        """The protocol's ``auction`` result."""
        if self.status == "open":
            if not (self.next is not None):
                raise InternalError("broken invariant: self.next is not None")
            return {"status": "open", "next": self.next.name, "legal": list(self.legal)}
        if self.status == "taken":
            if not (self.taker is not None and self.trump is not None and self.bid is not None):
                raise InternalError("broken invariant: a taken contract has its taker, trump and bid")
            return {"status": "taken", "taker": self.taker.name, "trump": self.trump.letter,
                    "bid": self.bid.value, "multiplier": self.bid.multiplier}
        if not (self.next_dealer is not None):
            raise InternalError("broken invariant: self.next_dealer is not None")
        return {"status": "redeal", "next_dealer": self.next_dealer.name}


class BidAuction:
    """The auction of bids of one deal. :meth:`call` checks and makes a call; :attr:`status` says
    where it stands; :meth:`why_illegal` explains a refusal."""

    def __init__(self, rules: Ruleset, dealer: Seat) -> None:
        self.rules = rules
        self.table = bid_table(rules)
        self.dealer = dealer
        self.calls: list[str] = []
        self.turn: Seat = dealer.next
        self.last: Call | None = None  # the last bid
        self.bidder: Seat | None = None
        self.multiplier = 1
        self.coincher: Seat | None = None
        self.passes = 0
        self.outcome: Literal["open", "taken", "redeal"] = "open"
        self._status: BidStatus | None = None

    def copy(self) -> BidAuction:
        """An independent copy: calls made on one never show in the other."""
        twin = BidAuction(self.rules, self.dealer)
        twin.calls, twin.turn, twin.last, twin.bidder = list(self.calls), self.turn, self.last, self.bidder
        twin.multiplier, twin.coincher, twin.passes = self.multiplier, self.coincher, self.passes
        twin.outcome, twin._status = self.outcome, self._status
        return twin

    # ------------------------------------------------------------------ legality

    def _coinche_refusal(self, seat: Seat) -> str | None:
        last, bidder = self.last, self.bidder
        if last is None or bidder is None:
            return "there is no bid to coinche"
        if not (bidder ^ seat) & 1:  # partners sit two seats apart: same parity, same side
            return f"the bid is his own side's ({last.token} by {bidder.name})"
        if self.multiplier > 1:
            return f"{last.token} is already coinched"
        if last.level >= self.table.capot_level and not self.table.capot_doubled:
            return f"a {last.value} bid cannot be coinched (auction.capot_can_be_doubled)"
        return None

    def why_illegal(self, token: str) -> str | None:
        """Why ``token`` may not be called now, in words; ``None`` when it may."""
        table = self.table
        seat = self.turn
        if self.outcome != "open":
            return f"the auction is over ({self.outcome}); no call {token!r} can follow"
        call = table.calls.get(token)
        if call is None:
            return self._unknown(token)
        if call.kind == "pass":
            return None
        if call.kind == "bid":
            if self.last is not None and call.level <= self.last.level:
                if not (self.bidder is not None):
                    raise InternalError("broken invariant: self.bidder is not None")
                return (f"{seat.name} may not bid {token}: a bid must be higher than the last bid "
                        f"{self.last.token} (by {self.bidder.name})")
            if self.multiplier > 1 and table.freezes:
                return f"{seat.name} may not bid {token}: no bid after a coinche (auction.coinche_freezes)"
            return None
        if call.kind == "coinche":
            coincher = call.seat or seat
            refusal = self._coinche_refusal(coincher)
            return f"{coincher.name} may not coinche: {refusal}" if refusal else None
        if self.multiplier != 2 or self.bidder is None:
            return f"{seat.name} may not surcoinche: only a coinched bid can be surcoinched"
        if self.bidder.team is not seat.team:
            return (f"{seat.name} may not surcoinche: only the coinched side ({self.bidder.name} or "
                    f"{self.bidder.partner.name}) may")
        return None

    def _unknown(self, token: str) -> str:
        table = self.table
        match = _CALL.match(token) if isinstance(token, str) else None
        shown = repr(token)[:40]
        if match is None:
            return (f"{shown} is not a call: pass, a bid such as {table.tokens[0]}, capot<trump>, coinche or "
                    f"surcoinche")
        if match.group("seat"):
            return f"{shown}: a coinche out of turn is not allowed (auction.coinche_out_of_turn)"
        value, trump = match.group("value"), match.group("trump")
        if Trump.parse(trump) not in table.trumps:
            return f"{shown}: this ruleset does not play {trump} (bidding.contracts)"
        if value == "generale":
            return f"{shown}: the générale is not played (auction.generale)"
        values = table.values
        step = values[1] - values[0] if len(values) > 1 else 0
        return (
            f"{shown}: a bid is one of {values[0]} to {values[-1]} by {step} "
            f"(auction.min_bid, auction.step, auction.max_bid), or capot"
        )

    def legal(self) -> tuple[str, ...]:
        """The calls the seat to speak may make, in the protocol's order: ``pass``, the bids
        (ascending, by trump S H D C SA TA), ``coinche``, ``surcoinche``."""
        if self.outcome != "open":
            return ()
        return self.table.legal[self._legal_key()]

    def _legal_key(self) -> tuple[int, int]:
        """Where :meth:`legal` reads the calls in ``table.legal``: (the lowest level that may be
        bid, the table's level count when none may; 0 alone, 1 with coinche, 2 with surcoinche)."""
        table = self.table
        seat = self.turn
        if self.multiplier > 1 and table.freezes:
            level = len(table.start) - 1
        else:
            level = self.last.level + 1 if self.last is not None else 0
        if self._coinche_refusal(seat) is None:
            return level, 1
        if self.multiplier == 2 and self.bidder is not None and not (self.bidder ^ seat) & 1:
            return level, 2
        return level, 0

    # ------------------------------------------------------------------ calls

    @property
    def status(self) -> BidStatus:
        """The current status."""
        if self._status is None:
            self._status = self._compute()
        return self._status

    def _compute(self) -> BidStatus:
        if self.outcome == "open":
            key = (self.turn, *self._legal_key())
            status = self.table.open_statuses.get(key)
            if status is None:
                status = self.table.open_statuses[key] = BidStatus("open", next=self.turn,
                                                                   legal=self.table.legal[key[1:]])
            return status
        if self.outcome == "redeal":
            return BidStatus("redeal", next_dealer=self.dealer if self.table.redeal_same_dealer else self.dealer.next)
        if not (self.last is not None and self.bidder is not None):
            raise InternalError("broken invariant: self.last is not None and self.bidder is not None")
        return BidStatus("taken", taker=self.bidder, trump=self.last.trump,
                         bid=Bid(self.last.value, self.multiplier))

    def call(self, token: str) -> BidStatus:
        """Make the next call and return the new status.

        Raises :class:`~belote_ref.core.errors.IllegalCallError` with the reason of
        :meth:`why_illegal` and the legal calls.
        """
        refusal = self.why_illegal(token)
        if refusal is not None:
            legal = " ".join(self.legal()) if self.outcome == "open" else "none"
            raise IllegalCallError(f"{refusal}; legal: {legal}")
        call = self.table.calls[token]
        seat = self.turn
        self.calls.append(token)
        self._status = None
        if call.kind == "pass":
            self.passes += 1
            if self.last is None and self.passes >= _PASSES_TO_REDEAL:
                self.outcome = "redeal"
            elif self.last is not None and self.passes >= _PASSES_TO_END:
                self.outcome = "taken"
        elif call.kind == "bid":
            self.last, self.bidder = call, seat
            self.multiplier, self.coincher, self.passes = 1, None, 0
        elif call.kind == "coinche":
            seat = call.seat or seat
            self.multiplier, self.coincher, self.passes = 2, seat, 0
        else:
            self.multiplier = self.table.surcoinche
            self.outcome = "taken"
        self.turn = SEATS[(seat + 1) & 3]
        return self.status


def run_bid_auction(rules: Ruleset, dealer: Seat, calls: Sequence[str]) -> BidStatus:
    """Apply ``calls`` in order and return the final status.

    Raises :class:`~belote_ref.core.errors.IllegalCallError` with ``index`` (0-based into ``calls``)
    at the first illegal call.
    """
    auction = BidAuction(rules, dealer)
    make_calls(auction, calls)
    return auction.status


class _Calling(Protocol):
    def call(self, token: str) -> object: ...


def make_calls(auction: _Calling, calls: Sequence[str]) -> None:
    """Say ``calls`` in order on ``auction`` (the family's or the classic one).

    Raises :class:`~belote_ref.core.errors.IllegalCallError` with ``index`` (0-based into ``calls``)
    at the first illegal call.
    """
    for index, token in enumerate(calls):
        try:
            auction.call(token)
        except IllegalCallError as error:
            error.index = index
            raise


def legal_calls(auction: BidAuction) -> tuple[str, ...]:
    """The calls the seat to speak may make (see :meth:`BidAuction.legal`)."""
    return auction.legal()


def why_illegal(auction: BidAuction, token: str) -> str | None:
    """Why ``token`` may not be called now; ``None`` when it may (see :meth:`BidAuction.why_illegal`)."""
    return auction.why_illegal(token)


# ----------------------------------------------------------------------------- the deal


def deal_bid_hands(rules: Ruleset, dealer: Seat, deck: Sequence[Card]) -> dict[Seat, CardSet]:
    """The four 8-card hands, dealt by the first pattern of ``deal.bid_packets`` from eldest.

    Raises :class:`~belote_ref.core.errors.BeloteRefError` (code ``bad_deck``) unless ``deck`` holds
    the 32 cards once each.
    """
    check_deck(deck)
    getters, _ = packet_plan(tuple(rules.deal.bid_packets[0]), (dealer + 1) & 3)
    return {seat: cardset_of_mask(hand_mask(getter(deck))) for seat, getter in zip(SEATS, getters, strict=True)}


