"""Deal records: read, write and replay a recorded deal.

A record is a human-readable YAML or JSON mapping (JSON Lines: one record per line). What PGN and
PBN teach is kept: the ruleset is a mandatory header (id and version, never defaulted), the deal
is given as the first-distribution hands rather than a deck order (packet conventions then do not
matter), tricks are listed in play order with their leader, and the result is written last::

    record: 1
    ruleset: {id: classic, version: 1}
    dealer: S
    hands: {N: [7S, 8S, 9S, TS, JS], E: [...], S: [...], W: [...]}   # first distribution, 5 each
    turned: JH
    calls: [pass, take]
    completion: {N: [...3], E: [...], S: [...], W: [...2]}          # what each seat receives next
    belote: N                                                       # or null; at TA {H: N, ...}
    announcements: [{seat: N, kind: tierce, cards: [7C, 8C, 9C]}]
    tricks:
      - {leader: W, cards: [AS, 9H, 7S, 8S]}
      ...
    pot: 0
    result: {...}                                                   # the protocol's score result

Reading accepts the lenient forms (``10H``, unsorted hands, a flat ``plays`` list instead of
``tricks``); writing is canonical (sorted hands, ``tricks``). A partial record (a deal stopped
mid-play, or without ``result``) is valid.

A ``.jsonl`` file (or standard input) is read as untrusted input by :mod:`belote_ref.core.jsonlines`:
streamed a line at a time, each line bounded (length, nesting, number size, no duplicate key).
:func:`check_records` gives one verdict per non-blank line and goes on after a bad one:

- **good**: every event is legal and the recorded ``result`` agrees with the computed one;
- **bad**: the line is not a record (not UTF-8, not JSON, too long, malformed, unknown ruleset),
  an event is illegal, or the recorded ``result`` disagrees with the computed one or cannot be
  checked (it is empty, has a key the computed result does not have, or the deal is not over);
- **unchecked**: every event is legal but there is no ``result`` to compare (a partial record,
  or a whole deal recorded without its result). Valid, but only its events were checked.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal

from belote_ref.core.cards import CARDS, SEATS, TRUMP_TOKENS, Card, CardSet, Seat, Suit, cardset_of_mask, parse_card
from belote_ref.core.errors import (
    BeloteRefError,
    InconsistentDealError,
    InternalError,
    NotationError,
    UnknownRulesetError,
)
from belote_ref.core.jsonlines import JsonLineError, decode_json_line, one_line, read_lines, same_json
from belote_ref.core.located import KeyPath, Located
from belote_ref.core.yamlsource import read_yaml
from belote_ref.engine.announcements import Declaration
from belote_ref.engine.bids.auction import BidAuction, is_bidding
from belote_ref.engine.bids.deal import BidDeal
from belote_ref.engine.deal import DealState, Phase
from belote_ref.engine.play import Trick, legal_mask
from belote_ref.engine.scoring import Belote
from belote_ref.rules.ruleset import Ruleset, find_ruleset

__all__ = ["DealRecord", "RecordCheck", "RecordError", "ReplayReport", "check_records", "describe", "read_records",
           "records_or_errors", "replay", "write_record"]

RECORD_FORMAT = 1
# Canonical tokens read by a look-up; anything else goes through the lenient parsers.
_CARD_BY_TOKEN: dict[str, Card] = {str(card): card for card in CARDS}
_SEAT_BY_TOKEN: dict[str, Seat] = {seat.name: seat for seat in SEATS}
_SEAT_NAMES: tuple[tuple[Seat, str], ...] = tuple((seat, seat.name) for seat in SEATS)
_SEAT_KEYS = {seat.name: None for seat in SEATS}.keys()
_SEAT_NAME = tuple(seat.name for seat in SEATS)  # by seat number, without the enum's property
_BIT_BY_TOKEN: dict[str, int] = {str(card): 1 << card for card in CARDS}


class RecordError(BeloteRefError):
    """A record is malformed. ``location`` is ``file:line`` (or ``file:line:col``)."""

    code = "bad_record"

    def __init__(self, message: str, *, location: str = "", code: str | None = None, index: int | None = None) -> None:
        super().__init__(f"{location}: {message}" if location else message, code=code, index=index)
        self.location = location


@dataclass
class DealRecord:
    """A parsed deal record. ``locate(path)`` gives ``file:line`` of a key path, for messages."""

    ruleset_id: str
    ruleset_version: int
    dealer: Seat
    hands: dict[Seat, CardSet]
    turned: Card | None  # None in a record of the bidding family, which turns no card
    calls: list[str]
    completion: dict[Seat, CardSet] | None
    belote: Belote
    announcements: list[Mapping[str, Any]]
    plays: list[Card]
    pot: int = 0
    leaders: list[Seat | None] = field(default_factory=list)
    final_deal: bool = False
    result: dict[str, Any] | None = None
    source: Located | None = field(default=None, repr=False)
    base_line: int = 0

    def __init__(self, ruleset_id: str, ruleset_version: int, dealer: Seat, hands: dict[Seat, CardSet],
                 turned: Card | None, calls: list[str], completion: dict[Seat, CardSet] | None, belote: Belote,
                 announcements: list[Mapping[str, Any]], plays: list[Card], pot: int = 0,
                 leaders: list[Seat | None] | None = None, final_deal: bool = False,
                 result: dict[str, Any] | None = None, source: Located | None = None, base_line: int = 0) -> None:
        # Written out: the compiled build compiles this __init__, not the one dataclasses generates
        # (interpreted); tests/test_build.py checks it takes the fields in order with their defaults.
        self.ruleset_id = ruleset_id
        self.ruleset_version = ruleset_version
        self.dealer = dealer
        self.hands = hands
        self.turned = turned
        self.calls = calls
        self.completion = completion
        self.belote = belote
        self.announcements = announcements
        self.plays = plays
        self.pot = pot
        self.leaders = [] if leaders is None else leaders
        self.final_deal = final_deal
        self.result = result
        self.source = source
        self.base_line = base_line

    def locate(self, path: KeyPath) -> str:
        """``file:line`` of ``path`` in the source, or an empty string."""
        if self.source is None:
            return ""
        line, _ = self.source.where(path)
        if line is None:
            return self.source.file
        return f"{self.source.file}:{line + self.base_line}"

    def ruleset(self, known: Mapping[str, Ruleset] | None = None) -> Ruleset:
        """The ruleset the record names: one of ``known`` (id -> ruleset, such as house rules loaded
        from files) or else a shipped one; raises :class:`RecordError` if the version differs."""
        ruleset = known[self.ruleset_id] if known and self.ruleset_id in known else find_ruleset(self.ruleset_id)
        if ruleset.version != self.ruleset_version:
            raise RecordError(
                f"ruleset {self.ruleset_id} is version {ruleset.version} here; the record needs version "
                f"{self.ruleset_version}", location=self.locate(("ruleset",)), code="ruleset_version")
        return ruleset


# ------------------------------------------------------------------------------------- reading


#: Where a key of a record is: the record's source, the number of lines before the record in it,
#: and the key's path. Its ``file:line`` is written only when there is a problem (:func:`_location`):
#: locating a key in its source costs more than checking it, and the good path never needs it.
Where = tuple[Located | None, int, tuple[str | int, ...]]


def _location(where: Where, *path: str | int) -> str:
    """``file:line`` of the key ``path`` below ``where``."""
    source, base_line, prefix = where
    if source is None:
        return "<record>"
    line, _ = source.where(prefix + path)
    return f"{source.file}:{(line or 1) + base_line}"


def _require(data: Mapping[str, Any], key: str, where: Where) -> Any:
    if key not in data:
        raise RecordError(f"missing required key {key!r}", location=_location(where))
    return data[key]


def _cards(tokens: Any, where: Where, what: str) -> list[Card]:
    if not isinstance(tokens, list):
        raise RecordError(f"{what}: expected a list of cards; found {tokens!r}", location=_location(where))
    try:
        cards = list(map(_CARD_BY_TOKEN.get, tokens))
    except TypeError:  # a token that is not hashable (a list, a mapping): the lenient parser says why
        cards = [None]
    if None not in cards:
        return cards  # type: ignore[return-value]
    try:
        return [parse_card(str(token)) for token in tokens]
    except NotationError as error:
        raise RecordError(f"{what}: {error}", location=_location(where), code="bad_notation") from None


def _seat_map(data: Any, where: Where, what: str) -> dict[Seat, CardSet]:
    if not isinstance(data, dict) or data.keys() != _SEAT_KEYS:
        raise RecordError(f"{what}: expected a mapping with the seats N, E, S and W", location=_location(where))
    result = {}
    for seat, name in _SEAT_NAMES:
        tokens = data[name]
        # The good path: each token is a card's, and a card named twice leaves fewer bits than tokens.
        # (A loop, not sum(map(...)): the faster of the two in both builds.)
        mask = 0
        try:
            if type(tokens) is not list:
                raise TypeError
            for token in tokens:
                mask |= _BIT_BY_TOKEN[token]
        except (KeyError, TypeError):  # a bad token: _cards says which
            mask = -1
        if mask < 0 or mask.bit_count() != len(tokens):
            cards = _cards(tokens, where, f"{what}.{name}")
            cardset = CardSet(cards)
            if len(cardset) != len(cards):
                raise RecordError(f"{what}.{name}: a card is listed twice", location=_location(where))
            result[seat] = cardset
        else:
            result[seat] = cardset_of_mask(mask)
    return result


def _belote(token: Any) -> Belote:
    """A record's ``belote``: null, a seat, or (tout-atout) a mapping suit -> seat."""
    if token is None:
        return None
    if isinstance(token, dict):
        return {Suit.parse(str(suit)): Seat.parse(str(seat)) for suit, seat in token.items()}
    # The good path looks the seat up; any other value goes to the parser, which says why.
    seat = _SEAT_BY_TOKEN.get(token) if type(token) is str else None
    return seat if seat is not None else Seat.parse(token)


def _belote_json(belote: Belote) -> Any:
    if belote is None:
        return None
    if isinstance(belote, Seat):
        return belote.name
    return {suit.letter: seat.name for suit, seat in sorted(belote.items())}


def parse_record(data: Any, source: Located | None = None, base_line: int = 0) -> DealRecord:
    """Build a :class:`DealRecord` from parsed YAML/JSON; raises :class:`RecordError` when malformed."""
    # A tuple, not a closure: compiled (hatch_build.py), a closure and its environment make a
    # reference cycle, which would keep the source and its record alive until the collector runs.
    top: Where = (source, base_line, ())
    if not isinstance(data, dict):
        raise RecordError("a record must be a mapping", location=_location(top))
    ruleset = _require(data, "ruleset", top)
    if (
        not isinstance(ruleset, dict)
        or not isinstance(ruleset.get("id"), str)
        or not isinstance(ruleset.get("version"), int)
    ):
        raise RecordError("'ruleset' must give both id and version (never defaulted)",
                          location=_location(top, "ruleset"))
    try:
        # The good path looks the tokens up; any other value goes to the parser, which says why.
        dealer_token = _require(data, "dealer", top)
        dealer = _SEAT_BY_TOKEN.get(dealer_token) if type(dealer_token) is str else None
        if dealer is None:
            dealer = Seat.parse(dealer_token)
        # The bidding family turns no card; replay() asks for one when the ruleset needs it.
        turned_token = data.get("turned")
        turned = _CARD_BY_TOKEN.get(turned_token) if type(turned_token) is str else None
        if turned is None and "turned" in data:
            turned = parse_card(str(turned_token))
        belote = _belote(data.get("belote"))
    except NotationError as error:
        raise RecordError(str(error), location=_location(top), code="bad_notation") from None
    hands = _seat_map(_require(data, "hands", top), (source, base_line, ("hands",)), "hands")
    completion_data = data.get("completion")
    completion = (_seat_map(completion_data, (source, base_line, ("completion",)), "completion")
                  if completion_data is not None else None)
    calls = data.get("calls", [])
    if not isinstance(calls, list) or not all(isinstance(c, str) for c in calls):
        raise RecordError("'calls' must be a list of calls (pass, take, S, H, D, C, SA, TA; in the bidding family "
                          "bids such as 80H, capotS, coinche, surcoinche)", location=_location(top, "calls"))
    plays: list[Card] = []
    leaders: list[Seat | None] = []
    if "tricks" in data:
        tricks = data["tricks"]
        if not isinstance(tricks, list):
            raise RecordError("'tricks' must be a list", location=_location(top, "tricks"))
        seat_of, card_of = _SEAT_BY_TOKEN, _CARD_BY_TOKEN
        for index, trick in enumerate(tricks):
            if not isinstance(trick, dict) or "cards" not in trick:
                raise RecordError("each trick is {leader, cards}", location=_location(top, "tricks", index))
            tokens, before = trick["cards"], len(plays)
            try:
                if type(tokens) is not list:
                    raise TypeError
                for token in tokens:  # a loop, not extend(map(...)): the faster in both builds
                    plays.append(card_of[token])
            except (KeyError, TypeError):  # a bad token: _cards says which, and where
                del plays[before:]
                plays.extend(_cards(tokens, (source, base_line, ("tricks", index)), f"tricks[{index}]"))
            leader = trick.get("leader")
            if leader is None:
                leaders.append(None)
            elif type(leader) is str and leader in seat_of:
                leaders.append(seat_of[leader])
            else:
                try:
                    leaders.append(Seat.parse(leader))
                except NotationError as error:
                    raise RecordError(str(error), location=_location(top, "tricks", index, "leader"),
                                      code="bad_notation") from None
    elif "plays" in data:
        plays = _cards(data["plays"], (source, base_line, ("plays",)), "plays")
    announcements = data.get("announcements") or []
    if not isinstance(announcements, list):
        raise RecordError("'announcements' must be a list", location=_location(top, "announcements"))
    result = data.get("result")
    if result is not None and not isinstance(result, dict):
        raise RecordError(f"'result' must be a mapping; found {result!r}", location=_location(top, "result"))
    pot = data.get("pot", 0)
    if not isinstance(pot, int) or pot < 0:
        raise RecordError(f"'pot' must be a whole number >= 0; found {pot!r}", location=_location(top, "pot"))
    # Deliberate copy: a record's fields by name, alike in shape only to DealScore's in scoring.py.
    return DealRecord(
        ruleset_id=ruleset["id"],
        ruleset_version=ruleset["version"],
        dealer=dealer,
        hands=hands,
        turned=turned,
        calls=list(calls),
        completion=completion,
        belote=belote,
        announcements=announcements,
        plays=plays,
        pot=pot,
        leaders=leaders,
        final_deal=bool(data.get("final_deal", False)),
        result=data.get("result"),
        source=source,
        base_line=base_line,
    )


def _json_lines_records(stream: IO[bytes], name: str) -> Iterator[DealRecord | RecordError]:
    for number, line in read_lines(stream):
        entry = entry_of_line(name, number, line)
        if entry is not None:
            yield entry


def entry_of_line(name: str, number: int, line: bytes | JsonLineError) -> DealRecord | RecordError | None:
    """The record on line ``number`` of JSON Lines input ``name`` (as :func:`~belote_ref.core.jsonlines.read_lines`
    yields it), its :class:`RecordError`, or None for a blank line."""
    if isinstance(line, JsonLineError):
        return RecordError(str(line), location=f"{name}:{number}", code=line.code)
    if not line or line.isspace():  # a blank line (isspace reads no further than the first byte of a record)
        return None
    try:
        value = decode_json_line(line)
    except JsonLineError as refused:
        return RecordError(str(refused), location=f"{name}:{number}", code=refused.code)
    source = Located(name, value, {(): (1, 1)})
    try:
        return parse_record(value, source, base_line=number - 1)
    except RecordError as bad_record:
        return bad_record
    except BeloteRefError as error:  # parse_record wraps its own; never let another one stop the file
        return RecordError(str(error), location=f"{name}:{number}", code=error.code)


def records_or_errors(source: str | Path | IO[bytes], name: str | None = None) -> Iterator[DealRecord | RecordError]:
    """Each record of ``source``, or the :class:`RecordError` of each entry that is not a record,
    going on after a bad one.

    ``source`` is a path (``.jsonl``: one record per line; otherwise a YAML/JSON file with one
    record or a ``deals`` list) or a binary stream of JSON Lines (such as ``sys.stdin.buffer``),
    named ``name`` in messages. JSON Lines are streamed a line at a time, within the limits of
    :mod:`belote_ref.core.jsonlines`; blank lines are skipped. Raises :class:`RecordError` only when the
    file cannot be opened or read.
    """
    if not isinstance(source, (str, Path)):
        yield from _json_lines_records(source, name or "<stdin>")
        return
    path = Path(source)
    name = name or str(path)
    if path.suffix == ".jsonl":
        try:
            with path.open("rb") as stream:
                yield from _json_lines_records(stream, name)
        except OSError as unreadable:
            raise RecordError(f"cannot read: {unreadable.strerror}", location=name, code="io") from None
        return

    located, diagnostics = read_yaml(path)
    if located is None or diagnostics:
        yield RecordError(str(diagnostics[0]), code="bad_yaml")
        return
    data = located.data
    if isinstance(data, dict) and "deals" in data and isinstance(data["deals"], list):
        for index, item in enumerate(data["deals"]):
            sub = Located(located.file, item, {key[2:]: pos for key, pos in located.positions.items()
                                                if key[:2] == ("deals", index)})
            try:
                yield parse_record(item, sub)
            except RecordError as error:
                yield error
        return
    try:
        yield parse_record(data, located)
    except RecordError as error:
        yield error


def read_records(path: str | Path) -> Iterator[DealRecord]:
    """Read the records of a ``.jsonl`` file (one per line) or a YAML/JSON file (one record, or a
    ``deals`` list), lazily.

    Raises :class:`RecordError` naming the file and line of the first malformed record (after
    yielding the records before it); :func:`records_or_errors` goes on instead.
    """
    for entry in records_or_errors(path):
        if isinstance(entry, RecordError):
            raise entry
        yield entry


# ------------------------------------------------------------------------------------- writing


def record_of(state: DealState) -> dict[str, Any]:
    """The canonical record of a deal state (partial if the deal is not over).

    A deal of the bidding family (:class:`~belote_ref.engine.bids.deal.BidDeal`) is recorded with the
    eight-card hands, its calls of bids, and neither ``turned`` nor ``completion``.
    """
    if isinstance(state, BidDeal):
        return _bid_record_of(state)
    tricks = [{"leader": trick.leader.name, "cards": [str(c) for c in trick.cards]} for trick in state.tricks]
    if state.trick_cards:
        tricks.append({"leader": state.leader.name, "cards": [str(c) for c in state.trick_cards]})
    completion = None
    if state.full_hands:
        completion = {}
        for seat in Seat:
            extra = state.full_hands[seat] - state.first_hands[seat]
            if seat == state.taker:
                extra = extra - CardSet([state.turned])
            completion[seat.name] = extra.tokens()
    record: dict[str, Any] = {
        "record": RECORD_FORMAT,
        "ruleset": {"id": state.rules.id, "version": state.rules.version},
        "dealer": state.dealer.name,
        "hands": {seat.name: state.first_hands[seat].tokens() for seat in Seat},
        "turned": str(state.turned),
        "calls": list(state.auction.calls),
        "completion": completion,
        "belote": _belote_json(state.belote),
        "announcements": [
            {"seat": d.seat.name, "kind": d.combination.kind, "cards": d.combination.cards.tokens()}
            for d in state.declarations
        ],
        "tricks": tricks,
        "pot": state.pot,
    }
    if state.score is not None:
        record["result"] = state.score.to_json()
    elif state.phase is Phase.REDEAL:
        if state.next_dealer is None:
            raise InternalError("broken invariant: state.next_dealer is not None")
        record["result"] = {"status": "redeal", "next_dealer": state.next_dealer.name}
    return record


def _bid_record_of(state: BidDeal) -> dict[str, Any]:
    tricks = [{"leader": trick.leader.name, "cards": [str(c) for c in trick.cards]} for trick in state.tricks]
    if state.trick_cards:
        tricks.append({"leader": state.leader.name, "cards": [str(c) for c in state.trick_cards]})
    record: dict[str, Any] = {
        "record": RECORD_FORMAT,
        "ruleset": {"id": state.rules.id, "version": state.rules.version},
        "dealer": state.dealer.name,
        "hands": {seat.name: state.first_hands[seat].tokens() for seat in Seat},
        "calls": list(state.bids.calls),
        "belote": _belote_json(state.belote),
        "announcements": [
            {"seat": d.seat.name, "kind": d.combination.kind, "cards": d.combination.cards.tokens()}
            for d in state.declarations
        ],
        "tricks": tricks,
        "pot": 0,
    }
    if state.score is not None:
        record["result"] = state.score.to_json()
    elif state.phase is Phase.REDEAL:
        if not (state.next_dealer is not None):
            raise InternalError("broken invariant: state.next_dealer is not None")
        record["result"] = {"status": "redeal", "next_dealer": state.next_dealer.name}
    return record


def write_record(state: DealState) -> str:
    """One record as a single JSON line (canonical, for ``.jsonl`` files)."""
    return json.dumps(record_of(state), ensure_ascii=False, separators=(",", ":"))


# ------------------------------------------------------------------------------------- replay


@dataclass
class ReplayReport:
    """The outcome of replaying a record: the state reached, the first violation, result mismatches."""

    record: DealRecord
    state: DealState | None
    error: BeloteRefError | None = None
    mismatches: list[str] = field(default_factory=list)

    def __init__(self, record: DealRecord, state: DealState | None, error: BeloteRefError | None = None,
                 mismatches: list[str] | None = None) -> None:
        # Written out: the compiled build compiles this __init__, not the one dataclasses generates
        # (interpreted); tests/test_build.py checks it takes the fields in order with their defaults.
        self.record = record
        self.state = state
        self.error = error
        self.mismatches = [] if mismatches is None else mismatches

    @property
    def ok(self) -> bool:
        """True when every event was legal and the recorded result (if any) matches."""
        return self.error is None and not self.mismatches

    def result(self) -> dict[str, Any] | None:
        """The computed result: the score, a redeal status, or None for a partial deal.

        Raises :class:`~belote_ref.core.errors.InternalError` only on a broken invariant (a bug).
        """
        if self.state is None:
            return None
        if self.state.score is not None:
            result = self.state.score.to_json()
            if self.state.taker is None or self.state.trump is None:
                raise InternalError("broken invariant: self.state.taker is not None and self.state.trump is not None")
            if isinstance(self.state, BidDeal) and self.state.bid is not None:
                result["bid"] = self.state.bid.to_json()
            result["taker"] = _SEAT_NAME[self.state.taker]
            result["trump"] = TRUMP_TOKENS[self.state.trump]
            return result
        if self.state.phase is Phase.REDEAL:
            if self.state.next_dealer is None:
                raise InternalError("broken invariant: self.state.next_dealer is not None")
            return {"status": "redeal", "next_dealer": self.state.next_dealer.name}
        return None


def _play_location(record: DealRecord, index: int) -> str:
    if record.source is None:
        return ""
    if ("tricks", index // 4, "cards", index % 4) in record.source.positions:
        return record.locate(("tricks", index // 4, "cards", index % 4))
    return record.locate(("plays", index))


def replay(record: DealRecord, rules: Ruleset | None = None) -> ReplayReport:
    """Replay every event of ``record`` against its ruleset and compare the recorded result.

    Never raises for a bad event: the first illegal call, play or declaration is returned in
    :attr:`ReplayReport.error` (a :class:`BeloteRefError` with ``code`` and ``index``, its message
    starting with ``file:line``). Raises :class:`RecordError` only when the ruleset is unknown.
    """
    rules = rules or record.ruleset()
    try:
        state: DealState
        if is_bidding(rules):
            state = BidDeal.from_bid_hands(rules, record.dealer, record.hands)
        elif record.turned is None:
            raise RecordError("missing required key 'turned' (the classic auction turns a card)",
                              location=record.locate(()))
        else:
            state = DealState.from_hands(rules, record.dealer, record.hands, record.turned, record.completion,
                                         pot=record.pot)
        state.final_deal = record.final_deal
    except RecordError as bad_record:
        return ReplayReport(record, None, bad_record)
    except BeloteRefError as error:
        return ReplayReport(record, None, RecordError(str(error), location=record.locate(("hands",)), code=error.code))
    report = ReplayReport(record, state)
    for index, call in enumerate(record.calls):
        try:
            state.call(call)
        except BeloteRefError as error:
            report.error = RecordError(str(error), location=record.locate(("calls", index)),
                                       code="illegal_call" if error.code == "illegal_call" else error.code, index=index)
            return report
    if state.phase is Phase.PLAY:
        if isinstance(record.belote, Seat):
            state.declare_belote(record.belote)
        elif record.belote is not None:
            for suit, seat in record.belote.items():
                state.declare_belote(seat, suit)
        if state.trump is None:
            raise InternalError("broken invariant: state.trump is not None")
        for index, data in enumerate(record.announcements):
            try:
                state.declare(Declaration.from_json(rules, state.trump, data))
            except BeloteRefError as error:
                report.error = RecordError(str(error), location=record.locate(("announcements", index)),
                                           code="bad_announcement", index=index)
                return report
        try:
            refused = _play_cards(record, rules, state, report)
        except InconsistentDealError as belied:  # the scoring of the 32nd card: a belied belote or declaration
            report.error = RecordError(str(belied), location=_scoring_location(record, belied), code=belied.code,
                                       index=belied.index)
            return report
        if refused:
            return report
    elif record.plays:
        report.error = RecordError("cards are played but nobody took", location=_play_location(record, 0),
                                   code="illegal_play", index=0)
        return report
    if state.score is None and state.phase is Phase.PLAY and len(record.plays) == 32:
        raise InternalError("32 legal plays must end the deal")
    report.mismatches.extend(_result_problems(record.result, report.result(), state, len(record.plays)))
    return report


def _scoring_location(record: DealRecord, error: BeloteRefError) -> str:
    """Where a scoring error lies in the record: its belote, or the declaration it names."""
    if error.code == "bad_announcement" and error.index is not None:
        return record.locate(("announcements", error.index))
    return record.locate(("belote",) if error.code == "bad_belote" else ())


def _play_cards(record: DealRecord, rules: Ruleset, state: DealState, report: ReplayReport) -> bool:
    """Play the recorded cards on ``state``; True when one is refused (``report.error`` says why).

    Raises :class:`~belote_ref.core.errors.InconsistentDealError` from the scoring of the last card.
    """
    trump, hands, leaders = state.trump, state.hands, record.leaders
    if trump is None:
        raise InternalError("broken invariant: state.trump is not None")
    # The good path plays all 32 cards at once; a deal it refuses is played card by card below,
    # for the error that names the rule (play_all leaves the state as it was).
    all_played = len(record.plays) == 32 and state.play_all(record.plays, leaders) < 0
    for index, card in enumerate(() if all_played else record.plays):
        trick_number = index // 4
        if index % 4 == 0 and trick_number < len(leaders):
            recorded = leaders[trick_number]
            if recorded is not None and recorded != state.leader:
                report.error = RecordError(
                    f"trick {trick_number + 1} is led by {state.leader.name}, not {recorded.name}",
                    location=record.locate(("tricks", trick_number, "leader")), code="wrong_leader", index=index)
                return True
        # The check of DealState.play, inline: a legal card is played without a second look;
        # any other goes through play() for the error that names the rule.
        leader, trick = state.leader, state.trick_cards
        if state.phase is Phase.PLAY and legal_mask(rules, trump, hands[(leader + len(trick)) & 3], leader,
                                                    tuple(trick)) >> card & 1:
            state.play_unchecked(card)
        else:
            try:
                state.play(card)
            except BeloteRefError as error:
                report.error = RecordError(str(error), location=_play_location(record, index), code=error.code,
                                           index=index)
                return True
        if state.phase is not Phase.PLAY and index + 1 < len(record.plays):
            report.error = RecordError("more than 32 cards played", location=_play_location(record, index + 1),
                                       code="too_many_plays", index=index + 1)
            return True
    return False


def _result_problems(recorded: dict[str, Any] | None, computed: dict[str, Any] | None, state: DealState,
                     plays: int) -> list[str]:
    """Why the recorded result disagrees with the computed one, or cannot be checked against it.

    A recorded result is never taken as agreeing when nothing of it was compared: an empty one, a
    key the computed result does not have and a result on a deal that is not over are problems.
    Values compare as JSON (:func:`~belote_ref.core.jsonlines.same_json`): a recorded ``81.0`` or
    ``true`` is not the computed ``81`` or ``1``.
    """
    if recorded is None:
        return []
    if not recorded:
        return ["result: empty; nothing to check (leave 'result' out of a record without one)"]
    if computed is None:
        if state.phase is Phase.AUCTION:
            calls = state.bids.calls if isinstance(state, BidDeal) else state.auction.calls
            return [f"result recorded but the auction is not over after {len(calls)} call(s)"]
        return [f"result recorded but the deal is not over after {plays} of 32 cards"]
    problems = [f"result.{one_line(str(key), 100)}: unknown result key; the computed result has "
                f"{', '.join(computed)}" for key in recorded if key not in computed]
    for key, value in computed.items():
        if key in recorded and not same_json(recorded[key], value):
            problems.append(f"result.{key}: recorded {_as_json(recorded[key])}, computed {_as_json(value)}")
    return problems


def _as_json(value: Any) -> str:
    # default=str: a YAML record may hold a value JSON has no type for (a date)
    return json.dumps(value, ensure_ascii=False, default=str)


Verdict = Literal["good", "bad", "unchecked"]

#: How the problem of a record naming a ruleset that is neither shipped nor given starts: every
#: record of a house rule's file has it, so ``replay`` says it once.
UNKNOWN_RULESET_PROBLEM = "unknown ruleset "


@dataclass
class RecordCheck:
    """The verdict on one entry of a records file: ``good``, ``bad`` or ``unchecked`` (defined in
    the module docstring).

    ``problems`` are one-line messages, each starting with ``file:line``. ``readable`` is False when
    the entry could not be replayed at all (not a record, or an unknown ruleset): bad input rather
    than a failed check. ``report`` is None then.
    """

    report: ReplayReport | None
    problems: list[str] = field(default_factory=list)
    readable: bool = True

    def __init__(self, report: ReplayReport | None, problems: list[str] | None = None, readable: bool = True) -> None:
        # Written out: the compiled build compiles this __init__, not the one dataclasses generates
        # (interpreted); tests/test_build.py checks it takes the fields in order with their defaults.
        self.report = report
        self.readable = readable
        self.problems = [] if problems is None else problems

    @property
    def verdict(self) -> Verdict:
        """``bad`` when there is a problem, else ``unchecked`` when no result is recorded, else ``good``."""
        if self.problems or self.report is None:
            return "bad"
        return "unchecked" if self.report.record.result is None else "good"


def check_record(entry: DealRecord | RecordError, rulesets: Mapping[str, Ruleset] | None = None) -> RecordCheck:
    """Replay one entry of :func:`records_or_errors`, under the ruleset it names (one of
    ``rulesets`` by id, else a shipped one); never raises for bad input."""
    if isinstance(entry, RecordError):
        return RecordCheck(None, [one_line(str(entry))], readable=False)
    try:
        report = replay(entry, entry.ruleset(rulesets))
    except BeloteRefError as error:  # the ruleset is unknown, or here in another version
        if isinstance(error, RecordError):
            return RecordCheck(None, [one_line(str(error))], readable=False)
        diagnostics = getattr(error, "diagnostics", ())
        message = diagnostics[0].message if diagnostics else str(error)
        if isinstance(error, UnknownRulesetError):
            message = (f"{UNKNOWN_RULESET_PROBLEM}{entry.ruleset_id!r}: if it is a house rule, pass its file "
                       f"(replay --ruleset FILE)")
        return RecordCheck(None, [one_line(f"{entry.locate(('ruleset',))}: {message}")], readable=False)
    problems = [one_line(str(report.error))] if report.error is not None else []
    if report.mismatches:
        problems.extend(one_line(f"{entry.locate(('result',))}: {mismatch}") for mismatch in report.mismatches)
    return RecordCheck(report, problems)


def check_records(source: str | Path | IO[bytes], name: str | None = None,
                  rulesets: Mapping[str, Ruleset] | None = None) -> Iterator[RecordCheck]:
    """The verdict on each entry of ``source`` (as :func:`records_or_errors` reads it), lazily:
    an entry is read only when the previous verdict has been taken, and a bad one never stops the
    rest. A record naming the id of one of ``rulesets`` is replayed under it (house rules), any
    other under the shipped ruleset it names. Raises :class:`RecordError` only when the file cannot
    be opened or read."""
    # find_ruleset is cached, but it is an interpreted call, once per record in the compiled build:
    # each shipped ruleset is taken from it once, at its first record.
    known = dict(rulesets or {})
    for entry in records_or_errors(source, name):
        if isinstance(entry, DealRecord) and entry.ruleset_id not in known:
            try:
                known[entry.ruleset_id] = find_ruleset(entry.ruleset_id)
            except BeloteRefError:
                pass  # an unknown ruleset: check_record says so, for this record and each that names it
        yield check_record(entry, known)


def records_from_json_lines(lines: Sequence[str]) -> list[DealRecord]:
    """Parse JSON Lines already in memory (for tests and the protocol), within the limits of
    :mod:`belote_ref.core.jsonlines`. Raises :class:`RecordError` for the first bad line."""
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = decode_json_line(line.encode("utf-8", "surrogatepass"))
        except JsonLineError as error:
            raise RecordError(str(error), location=f"<record>:{number}", code=error.code) from None
        records.append(parse_record(data))
    return records


def _describe_bids(state: BidDeal) -> list[str]:
    """The auction of bids in words: who said what, and the contract taken."""
    auction = BidAuction(state.rules, state.dealer)
    said = []
    for call in state.bids.calls:
        seat = call.partition(":")[2] or auction.turn.name
        said.append(f"{seat} {call.partition(':')[0]}")
        auction.call(call)
    lines = [f"calls: {', '.join(said) or '-'}"]
    status = state.bids.status
    if status.status == "taken":
        if not (status.taker is not None and status.trump is not None and status.bid is not None):
            raise InternalError("broken invariant: a taken contract has its taker, trump and bid")
        times = {1: "", 2: ", coinched"}.get(status.bid.multiplier, f", surcoinched (x {status.bid.multiplier})")
        lines.append(f"{status.taker.name} takes {status.bid.value} at {status.trump.letter}{times}")
    return lines


def describe(report: ReplayReport) -> str:
    """The deal as text, trick by trick, with the score sheet (for ``belote-ref replay``).

    Raises :class:`~belote_ref.core.errors.InternalError` only on a broken invariant (a bug).
    """
    record, state = report.record, report.state
    turned = f", turned {record.turned}" if record.turned is not None else ""
    out = [f"ruleset {record.ruleset_id} v{record.ruleset_version}, dealer {record.dealer.name}{turned}"]
    for seat in Seat:
        extra = f" + {record.completion[seat]}" if record.completion else ""
        out.append(f"  {seat.name}: {record.hands[seat]}{extra}")
    if state is None:
        return "\n".join(out)
    if isinstance(state, BidDeal):
        out.extend(_describe_bids(state))
        passed = state.bids.status.status == "redeal"
    else:
        status = state.auction.status
        calls = ", ".join(f"{Seat((record.dealer.next + i) & 3).name if i < 8 else record.dealer.next.name} {call}"
                          for i, call in enumerate(state.auction.calls))
        out.append(f"calls: {calls or '-'}")
        if status.status == "taken":
            if status.taker is None or status.trump is None:
                raise InternalError("broken invariant: status.taker is not None and status.trump is not None")
            out.append(f"{status.taker.name} takes, trump {status.trump.letter} (round {status.round})")
        passed = status.status == "redeal"
    if state.phase is Phase.REDEAL:
        if state.next_dealer is None:
            raise InternalError("broken invariant: state.next_dealer is not None")
        why = "everybody passed" if passed else "four sevens in one hand"
        out.append(f"{why}: redeal, next dealer {state.next_dealer.name}")
    if isinstance(state.belote, Seat):
        out.append(f"belote announced by {state.belote.name}")
    elif state.belote:
        out.append("belote announced by " + ", ".join(f"{seat.name} in {suit.letter}"
                                                      for suit, seat in sorted(state.belote.items())))
    for declaration in state.declarations:
        out.append(f"{declaration.seat.name} declares {declaration.combination.kind} {declaration.combination.cards}")
    tricks = list(state.tricks)
    if state.trick_cards:
        tricks.append(Trick(state.leader, tuple(state.trick_cards)))
    winners = state.score.trick_winners if state.score else ()
    for number, trick in enumerate(tricks, 1):
        cards = "  ".join(f"{trick.seat_of(i).name} {card}" for i, card in enumerate(trick.cards))
        won = f"  -> {winners[number - 1].name}" if number <= len(winners) else ""
        out.append(f"trick {number}: {cards}{won}")
    if state.score is not None:
        out.append("score sheet:")
        for line in state.score.lines:
            if line.points or line.note:
                out.append(f"  {line.team.value} {line.points:+5d}  {line.rule}: {line.note}")
        result = report.result() or {}
        out.append(f"result: contract {result.get('contract')}, deal score NS {result['deal_score']['NS']} "
                   f"EW {result['deal_score']['EW']}, pot {result.get('pot')}")
    return "\n".join(out)
