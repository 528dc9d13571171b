"""The reference engine as a conformance-protocol adapter (``belote-ref serve``), protocol version 3.

:func:`run_case` answers one case of any kind from its ``given`` (the shapes of PROTOCOL.md);
:func:`serve` is the JSON-lines loop on standard input and output. The loop never dies on a bad
message: it answers ``errored`` with the reason, and exits 0 on ``stop`` or end of input. Input is
untrusted: it is read as bytes within the limits of :mod:`belote_ref.core.jsonlines` (line length,
strict UTF-8, nesting, number size, no duplicate key), and every reply is one line of valid UTF-8.
"""

from __future__ import annotations

import io
import json
import sys
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import IO, Any

from belote_ref.core.cards import Card, CardSet, Seat, Suit, Team, Trump, parse_card, parse_cards, trump_of
from belote_ref.core.errors import BeloteRefError, InternalError, NotationError
from belote_ref.core.jsonlines import JsonLineError, binary_input, decode_json_line, one_line, read_lines
from belote_ref.engine.announcements import Declaration, combinations
from belote_ref.engine.bids.auction import (
    Bid,
    BidStatus,
    deal_bid_hands,
    impossible_bid,
    is_bidding,
    parse_bid,
    run_bid_auction,
)
from belote_ref.engine.bids.deal import BidDeal
from belote_ref.engine.deal import (
    AuctionStatus,
    DealState,
    Phase,
    complete_hands,
    deal_first_hands,
    play_out,
    run_auction,
)
from belote_ref.engine.faults import FAULT_KINDS, Fault, score_misdeal, score_revoke
from belote_ref.engine.match import Match
from belote_ref.engine.play import Trick, legal_plays, trick_points, trick_winner
from belote_ref.engine.scoring import Belote, score_deal
from belote_ref.protocol.hello import KINDS, PROTOCOL_VERSION, hello_reply
from belote_ref.rules.registry import load_registry, registry_data
from belote_ref.rules.ruleset import Ruleset

__all__ = ["KINDS", "PROTOCOL_VERSION", "GivenError", "adapter", "answer", "hello", "reply_to_line", "run_case",
           "serve"]



class GivenError(BeloteRefError):
    """A ``given`` does not have the shape its kind requires."""

    code = "bad_given"


def hello(message: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The reference engine's answer to the ``hello`` ``message`` (None: from a runner of the
    newest version): :func:`~belote_ref.protocol.hello.hello_reply` of the shipped registry,
    checked and cached if need be."""
    return hello_reply(registry_data(), message)


def _field(given: Mapping[str, Any], key: str) -> Any:
    if not isinstance(given, Mapping):
        raise GivenError(f"expected an object with {key!r}; found {json.dumps(given)[:60]}")
    if key not in given:
        raise GivenError(f"given: missing {key!r}")
    return given[key]


def _seat(token: Any) -> Seat:
    if not isinstance(token, str):
        raise GivenError(f"expected a seat (N E S W); found {token!r}")
    return Seat.parse(token)


def _trump(rules: Ruleset, token: Any) -> Suit | Trump:
    """A contract's trump: a suit letter, ``SA`` or ``TA`` (the last two where ``bidding.contracts``
    allows them)."""
    if not isinstance(token, str):
        raise GivenError(f"expected a contract's trump (S H D C, SA or TA); found {token!r}")
    trump = Trump.parse(token)
    if trump not in rules.trumps:
        raise GivenError(f"trump {token}: this ruleset does not play that contract (bidding.contracts: "
                         f"{', '.join(rules['bidding.contracts'])})")
    return trump_of(trump)


def _belote(rules: Ruleset, trump: Suit | Trump, data: Any) -> Belote:
    """``given.belote``: null or the announcing seat; at a contract with several belote suits
    (tout-atout), null or a mapping suit letter -> seat."""
    if data is None:
        return None
    if len(rules.belote_suits[trump]) > 1:
        if not isinstance(data, Mapping) or not data:
            raise GivenError(f"given.belote at {trump.letter}: null or a mapping suit -> seat (one entry per "
                             f"belote, e.g. {{\"H\": \"N\"}}); found {data!r}")
        belotes = {}
        for suit, seat in data.items():
            if not isinstance(suit, str) or len(suit) != 1:
                raise GivenError(f"given.belote: expected a suit letter (S H D C) as key; found {suit!r}")
            belotes[Suit.parse(suit)] = _seat(seat)
        return belotes
    return _seat(data)


def _cards(tokens: Any) -> list[Any]:
    if not isinstance(tokens, list):
        raise GivenError(f"expected a list of cards; found {tokens!r}")
    try:
        return parse_cards(tokens)
    except NotationError:  # the error names the token as text, whatever its JSON type
        return parse_cards([str(t) for t in tokens])


def _trick(data: Any) -> Trick:
    if not isinstance(data, Mapping):
        raise GivenError(f"expected a trick {{leader, cards}}; found {data!r}")
    return Trick(_seat(_field(data, "leader")), tuple(_cards(_field(data, "cards"))))


def _hands(data: Any) -> dict[Seat, CardSet]:
    if not isinstance(data, Mapping) or set(data) != {"N", "E", "S", "W"}:
        raise GivenError("expected a mapping of the seats N, E, S, W to cards")
    return {seat: CardSet(_cards(data[seat.name])) for seat in Seat}


def _pot(given: Mapping[str, Any]) -> int:
    pot = given.get("pot") or 0
    if not isinstance(pot, int) or isinstance(pot, bool) or pot < 0:
        raise GivenError(f"given.pot must be a whole number >= 0; found {pot!r}")
    return pot


def _rejected(error: BeloteRefError, default_code: str) -> dict[str, Any]:
    code = error.code if error.code not in ("error", "illegal_action") else default_code
    return {"rejected": {"code": code, "index": error.index if error.index is not None else 0}}


def _deal(rules: Ruleset, given: Mapping[str, Any]) -> dict[str, Any]:
    dealer = _seat(_field(given, "dealer"))
    deck = _cards(_field(given, "deck"))
    taker = given.get("taker")
    if "calls" in given:
        return _deal_through_the_auction(rules, dealer, deck, given)
    if taker is None:
        hands, turned = deal_first_hands(rules, dealer, deck)
        return {"hands": {seat.name: cards.tokens() for seat, cards in hands.items()}, "turned": str(turned)}
    full = complete_hands(rules, dealer, deck, _seat(taker))
    return {"hands": {seat.name: cards.tokens() for seat, cards in full.items()}}


def _deal_through_the_auction(rules: Ruleset, dealer: Seat, deck: list[Card],
                              given: Mapping[str, Any]) -> dict[str, Any]:
    """A deal whose ``calls`` are made before the completion, as at the table: the hands come from
    the auction's taker, who must be ``given.taker``, whatever the round of the take."""
    taker = _seat(_field(given, "taker"))
    state = DealState.from_deck(rules, dealer, deck)
    if _make_calls(state, given) is not None:
        raise GivenError("given.calls: a call is not allowed under this ruleset")
    if state.phase not in (Phase.PLAY, Phase.REDEAL) or state.taker is not taker:
        raise GivenError(f"given.calls must end the auction with a take by given.taker {taker.name}")
    return {"hands": {seat.name: cards.tokens() for seat, cards in state.full_hands.items()}}


def _answer_auction(given: Mapping[str, Any], run: Callable[[list[str]], AuctionStatus | BidStatus]) -> dict[str, Any]:
    """An auction case of either family: the status ``run`` ends on for ``given.calls``, or the
    rejection of the first illegal call."""
    calls = _field(given, "calls")
    if not isinstance(calls, list):
        raise GivenError("given.calls must be a list")
    try:
        status = run([str(c) for c in calls])
    except BeloteRefError as error:
        if error.code == "illegal_call":
            return _rejected(error, "illegal_call")
        raise
    return status.to_json()


def _auction(rules: Ruleset, given: Mapping[str, Any]) -> dict[str, Any]:
    return _answer_auction(given, lambda calls: run_auction(
        rules, _seat(_field(given, "dealer")), parse_card(str(_field(given, "turned"))), calls))


def _legal_plays(rules: Ruleset, given: Mapping[str, Any]) -> dict[str, Any]:
    trick = _trick(_field(given, "trick"))
    # The answer depends only on the trick, so a wrong seat would go unnoticed: an adapter that
    # sends the seat of the wrong player (or none) is told so rather than answered.
    seat = _seat(_field(given, "seat"))
    if seat is not trick.next_seat:
        raise GivenError(f"given.seat {seat.name} is not the seat to play: after {len(trick.cards)} card(s) "
                         f"led by {trick.leader.name} it is {trick.next_seat.name}")
    legal = legal_plays(rules, _trump(rules, _field(given, "trump")), CardSet(_cards(_field(given, "hand"))), trick)
    return {"legal": legal.tokens()}


def _trick_winner(rules: Ruleset, given: Mapping[str, Any]) -> dict[str, Any]:
    trump = _trump(rules, _field(given, "trump"))
    trick = _trick(_field(given, "trick"))
    if len(trick.cards) != 4:
        raise GivenError("trick_winner needs a trick of 4 cards")
    return {"winner": trick_winner(rules, trump, trick).name, "points": trick_points(rules, trump, trick.cards)}


def _announcements(rules: Ruleset, given: Mapping[str, Any]) -> dict[str, Any]:
    found = combinations(rules, _trump(rules, _field(given, "trump")), CardSet(_cards(_field(given, "hand"))))
    return {"combinations": [combination.to_json() for combination in found]}


def _declarations(rules: Ruleset, trump: Suit | Trump, data: Any) -> list[Declaration]:
    if data is None:
        return []
    if not isinstance(data, list):
        raise GivenError("given.announcements must be a list")
    declarations = []
    for index, item in enumerate(data):
        try:
            declarations.append(Declaration.from_json(rules, trump, item))
        except BeloteRefError as error:
            raise BeloteRefError(str(error), code="bad_announcement", index=index) from None
    return declarations


def _score_arguments(rules: Ruleset, given: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(given, Mapping):
        raise GivenError(f"a deal to score is an object {{dealer, taker, trump, tricks, ...}}; found {given!r}")
    trump = _trump(rules, _field(given, "trump"))
    tricks = _field(given, "tricks")
    if not isinstance(tricks, list):
        raise GivenError("given.tricks must be a list")
    return {
        "dealer": _seat(_field(given, "dealer")),
        "taker": _seat(_field(given, "taker")),
        "trump": trump,
        "tricks": [_trick(t) for t in tricks],
        "belote": _belote(rules, trump, given.get("belote")),
        "announcements": _declarations(rules, trump, given.get("announcements")),
    }


def _fault(given: Mapping[str, Any]) -> Fault | None:
    """``given.fault``, the fault that ended the deal (docs/protocol.md, "A deal ended on a fault"), or
    None for a deal played out; a malformed one is a GivenError of one line."""
    data = given.get("fault")
    if data is None:
        return None
    if not isinstance(data, Mapping):
        raise GivenError(f"given.fault must be an object {{kind, by, ...}}; found {json.dumps(data)}")
    kind = data.get("kind")
    if kind not in FAULT_KINDS:
        raise GivenError(f"given.fault.kind must be one of {', '.join(FAULT_KINDS)}; found {json.dumps(kind)}")
    by = _seat(data.get("by"))
    allowed = {"kind", "by", "trick"} if kind == "revoke" else {"kind", "by", "attempt", "late"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise GivenError(f"given.fault: a {kind} takes {', '.join(sorted(allowed))}; found {', '.join(unknown)}")
    if kind == "revoke":
        trick = data.get("trick")
        if type(trick) is not int or not 1 <= trick <= 8:
            raise GivenError(f"given.fault.trick must be the revoke's trick, 1 to 8; found {json.dumps(trick)}")
        return Fault("revoke", by, trick=trick)
    attempt = data.get("attempt", 1)
    if type(attempt) is not int or attempt < 1:
        raise GivenError(f"given.fault.attempt must be a whole number >= 1; found {json.dumps(attempt)}")
    late = data.get("late", False)
    if not isinstance(late, bool):
        raise GivenError(f"given.fault.late must be true or false; found {json.dumps(late)}")
    dealer = _seat(_field(given, "dealer"))
    if by is not dealer:
        raise GivenError(f"given.fault.by: a misdeal is the dealer's ({dealer.name}); found {by.name}")
    return Fault("misdeal", by, attempt=attempt, late=late)


def _score(rules: Ruleset, given: Mapping[str, Any], bid: Bid | None = None) -> dict[str, Any]:
    """A score case; in the bidding family the deal's ``bid`` (and no pot: the family has no litige).
    With ``given.fault`` the deal ended on a fault: a misdeal (no tricks), or a revoke."""
    fault = _fault(given) if isinstance(given, Mapping) else None
    if fault is not None and fault.kind == "misdeal":
        try:
            _check_bid(rules, bid)
        except BeloteRefError as error:
            return _rejected(error, "bad_bid")
        return score_misdeal(rules, fault, bid).to_json()
    try:
        arguments = _score_arguments(rules, given)
        _check_bid(rules, bid)
        pot = _pot(given) if bid is None else 0
        if fault is not None:
            return score_revoke(rules, fault, pot=pot, bid=bid, **arguments).to_json()
        return score_deal(rules, pot=pot, bid=bid, **arguments).to_json()
    except GivenError:
        raise
    except BeloteRefError as error:
        return _rejected(error, "inconsistent_deal")


def _replay(rules: Ruleset, given: Mapping[str, Any]) -> dict[str, Any]:
    completion = given.get("completion")
    return _answer_replay(rules, given, lambda: DealState.from_hands(
        rules, _seat(_field(given, "dealer")), _hands(_field(given, "hands")), parse_card(str(_field(given, "turned"))),
        _hands(completion) if completion is not None else None, pot=_pot(given)))


def _answer_replay(rules: Ruleset, given: Mapping[str, Any], new_state: Callable[[], DealState]) -> dict[str, Any]:
    """A replay of either family on the deal ``new_state`` sets up: its calls, then the play; or the
    first rejection."""
    try:
        state = new_state()
    except GivenError:
        raise
    except BeloteRefError as error:
        return _rejected(error, "bad_deal")
    rejected = _make_calls(state, given)
    if rejected is not None:
        return rejected
    return _replay_play(rules, state, given)


def _make_calls(state: DealState | BidDeal, given: Mapping[str, Any]) -> dict[str, Any] | None:
    """Make the recorded ``calls`` of a replay on ``state``: None, or the rejection of the first
    illegal call (the classic auction and the family's alike)."""
    calls = given.get("calls") or []
    if not isinstance(calls, list):
        raise GivenError(f"given.calls must be a list; found {calls!r}")
    for index, call in enumerate(calls):
        try:
            state.call(str(call))
        except BeloteRefError as error:
            error.index = index
            return _rejected(error, "illegal_call")
    return None


def _replay_play(rules: Ruleset, state: DealState, given: Mapping[str, Any]) -> dict[str, Any]:
    """The rest of a replay once the auction is made: belote, declarations, the plays, the score."""
    plays = _cards(given.get("plays") or [])
    if state.phase is Phase.REDEAL:
        if state.next_dealer is None:
            raise InternalError("broken invariant: state.next_dealer is not None")
        return {"status": "redeal", "next_dealer": state.next_dealer.name}
    if state.phase is not Phase.PLAY or state.trump is None:
        raise GivenError("the calls do not end the auction")
    belote = _belote(rules, state.trump, given.get("belote"))
    if isinstance(belote, Seat):
        state.declare_belote(belote)
    elif belote is not None:
        for suit, seat in belote.items():
            state.declare_belote(seat, suit)
    try:
        for declaration in _declarations(rules, state.trump, given.get("announcements")):
            state.declare(declaration)
    except BeloteRefError as error:
        return _rejected(error, "bad_announcement")
    for index, card in enumerate(plays):
        try:
            state.play(card)
        except BeloteRefError as error:
            error.index = index
            return _rejected(error, "illegal_play")
    if state.score is None:
        raise GivenError(f"a replay needs the 32 plays of a whole deal; found {len(plays)}")
    if state.taker is None:
        raise InternalError("broken invariant: state.taker is not None")
    result = {**state.score.to_json(), "taker": state.taker.name, "trump": state.trump.letter}
    if isinstance(state, BidDeal) and state.bid is not None:
        result["bid"] = state.bid.to_json()
    return result


def _match(rules: Ruleset, given: Mapping[str, Any], with_bids: bool = False) -> dict[str, Any]:
    """A match case; ``with_bids`` in the bidding family, where every deal carries its ``bid``."""
    deals = _field(given, "deals")
    if not isinstance(deals, list):
        raise GivenError("given.deals must be a list")
    match = Match(rules)
    for index, deal in enumerate(deals):
        if match.ended:
            break
        fault = _fault(deal) if isinstance(deal, Mapping) else None
        misdeal = fault is not None and fault.kind == "misdeal"
        # A misdeal has no bid, unless found late once bids were made (penalties.misdeal.late).
        bidded = with_bids and (not misdeal or (fault is not None and fault.late and "bid" in deal))
        bid = _given_bid(deal, f"given.deals[{index}]") if bidded else None
        try:
            if fault is not None and fault.kind == "misdeal":
                _check_bid(rules, bid)
                match.misdeal(fault, bid)
                continue
            arguments = _score_arguments(rules, deal)
            _check_bid(rules, bid)
            match.play_deal(bid=bid, fault=fault, **arguments)
        except GivenError:
            raise
        except BeloteRefError as error:
            return {"rejected": {"code": error.code, "index": index}}
    return {
        "totals": [{"NS": row[Team.NS], "EW": row[Team.EW]} for row in match.history],
        "winner": match.winner.value if match.winner is not None else None,
        "ended_after": len(match.history) if match.ended else None,
    }


def _play(rules: Ruleset, given: Mapping[str, Any], bid: Bid | None = None) -> dict[str, Any]:
    """A whole deal under a given contract: ``{hands, contract: {trump, taker}, leader, plays,
    belote, announcements, want_legal, pot, fault}`` (the last five optional); in the bidding family the
    contract carries its ``bid``. ``fault``: one of the plays was a revoke, found at the end."""
    contract = _field(given, "contract")
    if not isinstance(contract, Mapping):
        raise GivenError(f"given.contract must be {{trump, taker}}; found {contract!r}")
    trump = _trump(rules, _field(contract, "trump"))
    taker = _seat(_field(contract, "taker"))
    hands = _hands(_field(given, "hands"))
    leader = _seat(_field(given, "leader"))
    plays = _cards(_field(given, "plays"))
    named = given.get("fault")
    if isinstance(named, Mapping) and named.get("kind") == "misdeal":
        raise GivenError("given.fault of a play case is a revoke: a misdeal has no plays (send it as a score case)")
    revoke = _fault(given)
    want_legal = given.get("want_legal", False)
    if not isinstance(want_legal, bool):
        raise GivenError(f"given.want_legal must be true or false; found {want_legal!r}")
    if len(plays) != 32:
        raise GivenError(f"given.plays must be the 32 cards of a whole deal; found {len(plays)}")
    belote = _belote(rules, trump, given.get("belote"))
    try:
        announcements = _declarations(rules, trump, given.get("announcements"))
        _check_bid(rules, bid)
        played = play_out(rules, hands=hands, trump=trump, taker=taker, leader=leader, plays=plays, belote=belote,
                          announcements=announcements, pot=_pot(given), legal=want_legal, bid=bid, revoke=revoke)
    except GivenError:
        raise
    except BeloteRefError as error:
        return _rejected(error, "illegal_play")
    result: dict[str, Any] = {"trick_winners": [seat.name for seat in played.trick_winners]}
    if played.legal is not None:
        result["legal"] = [allowed.tokens() for allowed in played.legal]
    result["score"] = played.score.to_json()
    return result


# ----------------------------------------------------------------------------- the bidding family


def _given_bid(given: Mapping[str, Any], where: str = "given") -> Bid:
    """``bid`` of a score, a match deal or a contract: required under ``bidding.auction: bids``."""
    if not isinstance(given, Mapping) or "bid" not in given:
        raise GivenError(f"{where}.bid is required under bidding.auction: bids ({{value: V | \"capot\" | "
                         f"\"generale\", multiplier: m}})")
    try:
        return parse_bid(given["bid"])
    except BeloteRefError as error:
        raise GivenError(f"{where}.bid: {error}") from None


def _check_bid(rules: Ruleset, bid: Bid | None) -> None:
    """Refuse (code ``bad_bid``) a contract no auction of ``rules`` can end on: a value off the
    ladder of bids, a générale where there is none, a multiplier other than 1, 2 and the
    surcoinche's, a coinched capot where a capot cannot be coinched. A situation, not a malformed
    ``given``: the reply is a rejection, as for a card played twice."""
    if bid is None:
        return
    fault = impossible_bid(rules.params, bid)
    if fault is not None:
        raise BeloteRefError(f"bid {bid.value} x {bid.multiplier}: {fault}", code="bad_bid")


def _no_turned_card(given: Mapping[str, Any], kind: str) -> None:
    if "turned" in given:
        raise GivenError(f"{kind}: a bids auction (bidding.auction: bids) has no turned card; leave out 'turned'")


def _bid_deal(rules: Ruleset, given: Mapping[str, Any]) -> dict[str, Any]:
    if "taker" in given:
        raise GivenError("deal: under bidding.auction: bids all eight cards are dealt at once; leave out 'taker'")
    hands = deal_bid_hands(rules, _seat(_field(given, "dealer")), _cards(_field(given, "deck")))
    return {"hands": {seat.name: cards.tokens() for seat, cards in hands.items()}}


def _bid_auction(rules: Ruleset, given: Mapping[str, Any]) -> dict[str, Any]:
    _no_turned_card(given, "auction")
    return _answer_auction(given, lambda calls: run_bid_auction(rules, _seat(_field(given, "dealer")), calls))


def _bid_score(rules: Ruleset, given: Mapping[str, Any]) -> dict[str, Any]:
    # A misdeal ends the deal before any bid, or, found late, may carry the contract bid so far.
    fault = _fault(given) if isinstance(given, Mapping) else None
    if fault is not None and fault.kind == "misdeal":
        return _score(rules, given, _given_bid(given) if fault.late and "bid" in given else None)
    return _score(rules, given, _given_bid(given))


def _bid_match(rules: Ruleset, given: Mapping[str, Any]) -> dict[str, Any]:
    return _match(rules, given, with_bids=True)


def _bid_play(rules: Ruleset, given: Mapping[str, Any]) -> dict[str, Any]:
    contract = _field(given, "contract")
    return _play(rules, given, _given_bid(contract, "given.contract") if isinstance(contract, Mapping) else None)


def _bid_replay(rules: Ruleset, given: Mapping[str, Any]) -> dict[str, Any]:
    """A whole recorded deal of the family: ``{dealer, hands (8 cards each), calls, belote,
    announcements, plays}``; the result is the score's with ``taker``, ``trump`` and ``bid``."""
    _no_turned_card(given, "replay")
    return _answer_replay(rules, given, lambda: BidDeal.from_bid_hands(
        rules, _seat(_field(given, "dealer")), _hands(_field(given, "hands"))))


_BID_HANDLERS: dict[str, Callable[[Ruleset, Mapping[str, Any]], dict[str, Any]]] = {
    "deal": _bid_deal,
    "auction": _bid_auction,
    "score": _bid_score,
    "match": _bid_match,
    "play": _bid_play,
    "replay": _bid_replay,
}


_HANDLERS: dict[str, Callable[[Ruleset, Mapping[str, Any]], dict[str, Any]]] = {
    "deal": _deal,
    "auction": _auction,
    "legal_plays": _legal_plays,
    "trick_winner": _trick_winner,
    "announcements": _announcements,
    "score": _score,
    "replay": _replay,
    "match": _match,
    "play": _play,
}


def run_case(rules: Ruleset, kind: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The result of one case of ``kind`` under ``rules``, in the protocol's shape.

    Expected rejections (an illegal call or play, an inconsistent deal) are results
    (``{"rejected": {"code", "index"}}``). Raises :class:`~belote_ref.core.errors.BeloteRefError`
    when the ``given`` itself is malformed or the kind is unknown.
    """
    handler = _HANDLERS.get(kind)
    if handler is not None and kind in _BID_HANDLERS and is_bidding(rules):
        handler = _BID_HANDLERS[kind]
    if handler is None:
        raise GivenError(f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
    if not isinstance(given, Mapping):
        raise GivenError("given must be a JSON object")
    return handler(rules, given)


# Compiled rulesets by (id, version), a few parameter sets each, least recently used id first:
# bounded in ids too, so that messages with ever new ids cannot grow it without end.
_RULESET_CACHE: OrderedDict[tuple[str, int], list[Ruleset]] = OrderedDict()
_RULESET_CACHE_IDS = 16


def _with_newer_defaults(parameters: Mapping[str, Any]) -> Mapping[str, Any]:
    """``parameters`` with the registry default of each missing parameter of protocol 2 or later: a
    runner of an older version never sends them, and their defaults are the classic game (no
    sans-atout or tout-atout contract, the turned-card auction)."""
    registry = load_registry()
    missing = {pid: p.default for pid, p in registry.parameters.items()
               if p.since_protocol >= 2 and pid not in parameters}
    return {**parameters, **missing} if missing else parameters


def ruleset_of(message: Mapping[str, Any]) -> Ruleset:
    """Compile (with a small cache keyed by the parameters) the ruleset a ``run`` message carries."""
    data = message.get("ruleset")
    if not isinstance(data, Mapping) or not isinstance(data.get("parameters"), Mapping):
        raise GivenError("run: 'ruleset' must be {id, version, parameters}")
    ruleset_id = data.get("id", "custom")
    version = data.get("version", 1)
    if not isinstance(ruleset_id, str):
        raise GivenError(f"run: ruleset.id must be a string; found {one_line(repr(ruleset_id), 100)}")
    if not isinstance(version, int) or isinstance(version, bool):
        raise GivenError(f"run: ruleset.version must be a whole number; found {one_line(repr(version), 100)}")
    key = (ruleset_id, version)
    parameters = data["parameters"]
    known = _RULESET_CACHE.setdefault(key, [])
    _RULESET_CACHE.move_to_end(key)
    if len(_RULESET_CACHE) > _RULESET_CACHE_IDS:
        _RULESET_CACHE.popitem(last=False)
    for ruleset in known:
        if ruleset.params == parameters:
            return ruleset
    if len(known) > 16:
        known.clear()
    ruleset = Ruleset.from_parameters(_with_newer_defaults(parameters), id=ruleset_id, version=version)
    known.append(ruleset)
    return ruleset


def _echoable(seq: Any) -> bool:
    """Whether ``seq`` can be echoed: an integer, or a string that is valid Unicode (no lone surrogate,
    so that the reply stays valid UTF-8 for any reader)."""
    if isinstance(seq, int) and not isinstance(seq, bool):
        return True
    if isinstance(seq, str):
        try:
            seq.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    return False


def _errored(message: Mapping[str, Any] | None, text: str) -> dict[str, Any]:
    """An ``errored`` reply: ``seq`` echoed when it can be, the reason as one bounded line."""
    reply: dict[str, Any] = {}
    if message is not None and _echoable(message.get("seq")):
        reply["seq"] = message["seq"]
    reply.update(errored=True, message=one_line(text))
    return reply


def answer(message: Any) -> dict[str, Any] | None:
    """The reply to one decoded message (None for ``stop``).

    ``seq`` is echoed when it is an integer or a clean string (see :func:`_echoable`), and left out
    otherwise; an ``errored`` reply's message is one line of at most
    :data:`~belote_ref.core.jsonlines.MAX_MESSAGE_CHARS` characters.
    """
    if not isinstance(message, dict):
        return _errored(None, "a message must be a JSON object")
    command = message.get("cmd")
    if command == "hello":
        return hello(message)
    if command == "stop":
        return None
    if command != "run":
        return _errored(message, f"unknown cmd {command!r}")
    try:
        rules = ruleset_of(message)
        result = run_case(rules, str(message.get("kind")), message.get("given") or {})
    except BeloteRefError as error:
        return _errored(message, str(error).partition("\n")[0])
    except Exception as error:
        return _errored(message, f"internal error: {type(error).__name__}: {error}")
    reply: dict[str, Any] = {"seq": message["seq"]} if _echoable(message.get("seq")) else {}
    reply["result"] = result
    return reply


def _encode_reply(reply: Mapping[str, Any]) -> bytes:
    """One reply line, always valid UTF-8: as today (non-ASCII kept) unless a string holds a lone
    surrogate, which only ASCII escapes can carry."""
    try:
        return (json.dumps(reply, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(reply, ensure_ascii=True, separators=(",", ":")) + "\n").encode("ascii")


def reply_to_line(raw: bytes) -> bytes | None:
    """The reply line (UTF-8 JSON, ending in ``\\n``) to one raw input line, or None for ``stop``.

    Never raises for bad input: a line that is not strict UTF-8 JSON within the limits of
    :mod:`belote_ref.core.jsonlines` is answered ``errored``.
    """
    try:
        message = decode_json_line(raw)
    except JsonLineError as error:
        return _encode_reply(_errored(None, str(error)))
    reply = answer(message)
    return None if reply is None else _encode_reply(reply)


def _writer(stream: IO[Any]) -> Callable[[bytes], None]:
    """A function writing reply bytes to ``stream`` (binary, or text such as ``sys.stdout`` or
    ``io.StringIO``) and flushing it: the runner waits for each reply."""
    if not isinstance(stream, io.TextIOBase):
        def write_bytes(data: bytes) -> None:
            stream.write(data)
            stream.flush()
        return write_bytes
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        # Bytes go to the buffer so that the reply is UTF-8 whatever the stream's encoding.
        def write_buffer(data: bytes) -> None:
            stream.flush()
            buffer.write(data)
            buffer.flush()
        return write_buffer

    def write_text(data: bytes) -> None:
        stream.write(data.decode("utf-8"))
        stream.flush()
    return write_text


def serve(stdin: IO[Any] | None = None, stdout: IO[Any] | None = None) -> int:
    """Answer protocol messages, one JSON object per line, until ``stop`` or end of input.

    ``stdin`` and ``stdout`` default to the process's; binary or text streams both work (a text
    one is read and written as UTF-8). Input is read a bounded line at a time; blank lines are
    skipped.
    """
    source = binary_input(sys.stdin if stdin is None else stdin)
    write = _writer(sys.stdout if stdout is None else stdout)
    for _, line in read_lines(source):
        if isinstance(line, JsonLineError):
            write(_encode_reply(_errored(None, str(line))))
            continue
        if not line.strip():
            continue
        reply = reply_to_line(line)
        if reply is None:
            return 0
        write(reply)
    return 0


def adapter() -> Callable[[dict[str, Any]], dict[str, Any] | None]:
    """The reference engine for the runner's in-process mode: ``--impl python:belote_ref.protocol.serve:adapter``."""
    return answer
