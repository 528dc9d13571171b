"""belote-ref protocol adapter (versions 1 and 2) for belote-cli, the terminal Belote game on PyPI.

    python conformance/adapters/belote_cli/adapter.py

Drives belote-cli's rules engine directly (``belote.deck``, ``belote.game``, ``belote.scoring``),
never its terminal UI. One JSON object per line on standard input and output; logs go to
standard error. Every case is answered: ``result``, ``skipped`` (the engine cannot express the
case, with the reason) or ``errored`` (with the message); the adapter never dies on a case.

What the engine does is read from its code, not guessed; README.md next to this file quotes the
lines behind every declared parameter value and explains every failure of the committed report.

Seats. belote-cli numbers its seats SOUTH=0, EAST=1, NORTH=2, WEST=3 and plays in increasing
order (``Seat.next_seat``: S -> E -> N -> W), the other way round the table from the protocol's
N -> E -> S -> W. The adapter renames seats so that play order and partnerships are kept:
protocol N, E, S, W are engine NORTH, WEST, SOUTH, EAST (teams NS and EW stay NS and EW). This is
a relabelling, not a rule (``table.direction`` has ``outcome: false``).

Contracts. Protocol 2 writes a contract's trump as a suit letter, ``SA`` or ``TA``. belote-cli
carries a contract as ``GameState.trump`` plus ``GameState.contract`` (``game.place_bid``): a suit
and ``Contract.NORMAL``; ``None`` and ``Contract.SANS_ATOUT``; ``Suit.TOUT_ATOUT`` and
``Contract.TOUT_ATOUT``.
"""

from __future__ import annotations

import json
import sys
import traceback
from dataclasses import replace
from typing import Any

try:
    from belote import __version__ as BELOTE_CLI_VERSION
    from belote import game as bgame
    from belote import scoring as bscoring
    from belote.config import GLOBAL_CONFIG
    from belote.deck import Card, Contract, Rank, Suit, make_deck
    from belote.game import SANS_ATOUT_BID
except ImportError as error:  # pragma: no cover - reported in every answer
    IMPORT_ERROR: str | None = f"belote-cli is not installed ({error}); pip install belote-cli"
    BELOTE_CLI_VERSION = "absent"
else:
    IMPORT_ERROR = None

#: The protocol versions this adapter speaks: 1, and 2 (sans-atout, tout-atout, the play kind). The
#: bidding family of version 3 is not belote-cli's game (no bids, no coinche).
SPOKEN_PROTOCOLS = (1, 2)
KINDS = ["deal", "auction", "legal_plays", "trick_winner", "announcements", "score", "replay", "match", "play"]
#: The kinds and the parameters that a version added, left out of the hello of an older version.
KIND_SINCE = {"play": 2}
PARAMETER_PREFIX_SINCE = {"sans_atout.": 2, "tout_atout.": 2}

# ------------------------------------------------------------------------------------ support
# Every registry parameter, with the values belote-cli implements ("*": the value cannot change
# any result the engine gives). See README.md for the code behind each entry.
_TRUMP_ORDER = ["J", "9", "A", "T", "K", "Q", "8", "7"]
_PLAIN_ORDER = ["A", "T", "K", "Q", "J", "9", "8", "7"]
_SEQUENCE_ORDER = ["A", "K", "Q", "J", "T", "9", "8", "7"]
_TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
_PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
_ANNOUNCEMENT_VALUES = {"tierce": 20, "quarte": 50, "quinte": 100,
                        "carre": {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100, "8": 0, "7": 0}}

SUPPORTED_PARAMETERS: dict[str, Any] = {
    "cards.trump_order": [_TRUMP_ORDER],
    "cards.plain_order": [_PLAIN_ORDER],
    "cards.sequence_order": [_SEQUENCE_ORDER],
    "cards.trump_points": [_TRUMP_POINTS],
    "cards.plain_points": [_PLAIN_POINTS],
    "table.direction": "*",
    "deal.shuffle": "*",
    "deal.cut_min_pile": "*",
    # deck.deal's docstring: "Initial deal: 5 cards each (3 then 2)"; the first packet entry is the
    # one used for a given deck order, so [[3, 2]] and [[3, 2], [2, 3]] deal alike.
    "deal.first_packets": [[[3, 2]], [[3, 2], [2, 3]]],
    "deal.completion_start": ["eldest_first"],
    # game._distribute_remaining_cards: "Taker only needs 2 more" / "Others need 3 more", one slice each.
    "deal.completion_packets": ["packets"],
    "bidding.round2_allow_turnup_suit": [False],
    "bidding.all_pass": ["redeal_next_dealer"],
    # prompts.prompt_bid offers Tout Atout and Sans Atout in every round 2, and place_bid accepts
    # them there: the engine has no game without them.
    "bidding.contracts": [["suit", "sans_atout", "tout_atout"]],
    "bidding.trump_seven_exchange": [False],
    "bidding.turned_jack_forced": [False],
    "play.partner_master_exception": [True],
    "play.trump_lead_overtrump": ["always"],
    "play.undertrump_over_opponent": ["required"],
    "play.undertrump_partner": ["allowed"],
    "play.must_head_plain_suit": [False],
    # Only read without the partner-master exception, which the engine always applies.
    "play.undertrump_partner_no_exception": "*",
    "belote.value": [20],
    "belote.announcement": ["automatic"],
    "belote.king_first": [False],
    "belote.on_chute": ["kept_by_holder"],
    "belote.on_capot_against_holder": ["kept"],
    # The engine always scores announcements; false is expressed with its own switch that zeroes
    # every declaration (BossModifiers.declarations_zero), see README.
    "announcements.enabled": [True, False],
    "announcements.values": [_ANNOUNCEMENT_VALUES],
    # scoring._detect_all_declarations: every combination of every initial hand; README.
    "announcements.declared": ["automatic"],
    "announcements.long_sequence": ["one_quinte"],
    "announcements.carre_beats_equal_sequence": [True],
    # resolve_declarations' docstring: the tie goes to "the team whose seat declared first during
    # the first trick" (the code counts from the taker instead: README, failure 3).
    "announcements.final_tie": ["earlier_declarer"],
    # The claims below are the federation's rules, which belote-cli's README promises ("official
    # rules of the Fédération Française de Belote") and on which its own documentation says nothing
    # else; where its code departs from them, the report shows it (README, "The failures").
    "announcements.carre_order": ["play_order"],
    "announcements.card_reuse": ["forbidden"],
    "announcements.declare_at": "*",
    "announcements.show": "*",
    "announcements.carre_of_sevens": ["nothing"],
    "scoring.last_trick_bonus": [10],
    "scoring.capot.mode": ["raised_last_trick"],
    "scoring.capot.last_trick_bonus": [100],
    "scoring.capot.value": "*",
    "scoring.capot.defenders_earn_bonus": [True],
    "scoring.capot.loser_announcements": ["transfer_to_winner"],
    "scoring.contract.test": ["compare_totals"],
    "scoring.contract.card_threshold": "*",
    # rules.py: "The Taker must score more than the defenders (points + declarations)", belote
    # listed among the declarations; the federation counts either side's belote.
    "scoring.contract.count_belote": ["both_sides"],
    "scoring.contract.count_announcements": [True],
    "scoring.contract.on_tie": ["litige"],
    "scoring.litige.pot_to": ["winner_of_next_deal"],
    "scoring.litige.belote": ["in_totals_and_pot"],
    "scoring.litige.on_final_deal": ["each_scores_own"],
    "scoring.chute.base": [162],
    "scoring.chute.announcements": ["all_to_defenders"],
    "scoring.rounding.mode": ["none"],
    "scoring.rounding.final_deal_exact": "*",
    "game.end": ["points"],
    "game.target_points": "*",
    "game.deal_limit": "*",
    "game.win_when": ["reach"],
    "game.simultaneous_finish": ["higher_total"],
    "game.exact_tie": ["extra_deals"],
    "game.no_win_on_capot_with_belote": [False],
    "game.count_passed_deals": "*",
    # Sans-atout (trump None, Contract.SANS_ATOUT): only the led suit wins, in the plain order
    # (game._card_beats, _NONTRUMP_RANK); no belote (place_bid fills belote_holders only for
    # Contract.NORMAL). The card points are the plain ones (deck.card_points: ace 11, a deal of
    # 120 + 10) and the carrés keep their suit values (scoring._CARRE_POINTS): the registry has
    # neither table, so no value is declared and every case that depends on them is n/a.
    "sans_atout.card_order": [_PLAIN_ORDER],
    "sans_atout.card_points": [],
    "sans_atout.carres": [],
    "sans_atout.belote": ["none"],
    # Tout-atout (Suit.TOUT_ATOUT): every card on the trump order and points (deck.trick_rank,
    # card_points), carrés at their suit values, follow and go over the best card of the led suit
    # whoever holds it (game._calculate_legal_cards_impl). The raw 248 + 10 are never brought back
    # to 162 (config.TOTAL_POINTS_TOUT_ATOUT, CAPOT_BASE_TOUT_ATOUT 348), so no value of
    # tout_atout.scale_to is declared, and nothing is ever rounded. No belote at tout-atout.
    "tout_atout.card_order": [_TRUMP_ORDER],
    "tout_atout.card_points": [_TRUMP_POINTS],
    "tout_atout.scale_to": [],
    "tout_atout.rounding": "*",
    "tout_atout.belote": [],
    "tout_atout.carres": [_ANNOUNCEMENT_VALUES["carre"]],
    "tout_atout.must_head": [True],
    "tout_atout.partner_relief": [False],
}


class CannotExpress(Exception):
    """The engine has no way to represent this case: answered ``skipped``."""


class BadGiven(Exception):
    """The ``given`` does not have the protocol's shape: answered ``errored``."""


# ------------------------------------------------------------------------------------ notation
PROTOCOL_SEATS = "NESW"
TEAMS = ("NS", "EW")


def _engine_seat(token: str) -> Any:
    mapping = {"N": bgame.Seat.NORTH, "E": bgame.Seat.WEST, "S": bgame.Seat.SOUTH, "W": bgame.Seat.EAST}
    if token not in mapping:
        raise BadGiven(f"not a seat: {token!r}")
    return mapping[token]


def _protocol_seat(seat: Any) -> str:
    return {bgame.Seat.NORTH: "N", bgame.Seat.WEST: "E", bgame.Seat.SOUTH: "S", bgame.Seat.EAST: "W"}[seat]


def _next_protocol(token: str, steps: int = 1) -> str:
    return PROTOCOL_SEATS[(PROTOCOL_SEATS.index(token) + steps) % 4]


def _team_name(team_index: int) -> str:
    return TEAMS[team_index]  # belote.game.team_of: 0 = NS (SOUTH, NORTH), 1 = EW


_RANKS = {"7": "SEVEN", "8": "EIGHT", "9": "NINE", "T": "TEN", "J": "JACK", "Q": "QUEEN", "K": "KING", "A": "ACE"}
_SUITS = {"S": "SPADES", "H": "HEARTS", "D": "DIAMONDS", "C": "CLUBS"}


def _suit(token: Any) -> Any:
    if not isinstance(token, str) or token not in _SUITS:
        raise BadGiven(f"not a suit letter: {token!r}")
    return Suit[_SUITS[token]]


def _suit_letter(suit: Any) -> str:
    return {value: key for key, value in _SUITS.items()}[suit.name]


def _contract(token: Any) -> tuple[Any, str]:
    """A protocol contract's trump as belote-cli's (``GameState.trump``, ``GameState.contract``)."""
    if token == "SA":
        return None, Contract.SANS_ATOUT
    if token == "TA":
        return Suit.TOUT_ATOUT, Contract.TOUT_ATOUT
    return _suit(token), Contract.NORMAL


def _contract_token(trump: Any, contract: Any) -> str:
    if contract == Contract.SANS_ATOUT:
        return "SA"
    if contract == Contract.TOUT_ATOUT:
        return "TA"
    return _suit_letter(trump)


def _card(token: Any) -> Any:
    if not isinstance(token, str) or len(token) != 2 or token[0] not in _RANKS or token[1] not in _SUITS:
        raise BadGiven(f"not a card: {token!r}")
    return Card(Suit[_SUITS[token[1]]], Rank[_RANKS[token[0]]])


def _cards(tokens: Any) -> list[Any]:
    if not isinstance(tokens, list):
        raise BadGiven(f"expected a list of cards, found {tokens!r}")
    return [_card(t) for t in tokens]


_RANK_LETTER = {value: key for key, value in _RANKS.items()}


def _token(card: Any) -> str:
    return _RANK_LETTER[card.rank.name] + _suit_letter(card.suit)


def _tokens(cards: Any) -> list[str]:
    return [_token(c) for c in cards]


def _field(given: Any, key: str) -> Any:
    if not isinstance(given, dict) or key not in given:
        raise BadGiven(f"given: missing {key!r}")
    return given[key]


def _trick_cards(trick: Any) -> tuple[str, list[Any]]:
    leader = _field(trick, "leader")
    _engine_seat(leader)
    return leader, _cards(_field(trick, "cards"))


def _engine_trick(leader: str, cards: list[Any]) -> tuple[Any, ...]:
    return tuple(bgame.TrickCard(_engine_seat(_next_protocol(leader, i)), card) for i, card in enumerate(cards))


# ------------------------------------------------------------------------------------ kinds
def kind_deal(params: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """``belote.game.deal_cards`` on the deck as given, then (with a taker) ``place_bid``."""
    dealer = _engine_seat(_field(given, "dealer"))
    deck = _cards(_field(given, "deck"))
    if len(deck) != 32 or len(set(deck)) != 32:
        raise BadGiven("the deck must hold the 32 cards once each")
    initial_hands, up_card, remaining = bgame.deal_cards(tuple(deck))
    taker = given.get("taker")
    if taker is None:
        return {"hands": {_protocol_seat(bgame.Seat(i)): _tokens(h) for i, h in enumerate(initial_hands)},
                "turned": _token(up_card)}
    # As start_round leaves it, then the taker takes in round 1 (the completion only depends on who took).
    state = bgame.GameState(hands=initial_hands, initial_hands=initial_hands, dealer=dealer,
                            leader=dealer.next_seat(), turn=dealer.next_seat(), phase=bgame.Phase.BIDDING,
                            up_card=up_card, remaining_cards=remaining, bidding_round=1)
    taker_seat = _engine_seat(taker)
    index = next(i for i in range(4) if bgame.get_bidder(dealer, i) == taker_seat)
    state = replace(state, bidder_index=index, turn=taker_seat)
    state = bgame.place_bid(state, up_card.suit)
    return {"hands": {_protocol_seat(bgame.Seat(i)): _tokens(h) for i, h in enumerate(state.hands)}}


def _bid_options(state: Any) -> list[Any]:
    """The calls belote-cli lets a player make, as ``belote.ui.prompts.prompt_bid`` builds them
    (the engine's ``place_bid`` itself checks only that TA/SA are not bid in round 1):

        if state.bidding_round == 1:
            options = [state.up_card.suit, None]
        else:
            other_suits = [s for s in all_suits if s != state.up_card.suit]
            options = [*other_suits, Suit.TOUT_ATOUT, SANS_ATOUT_BID, None]

    Protocol 2 names Tout Atout and Sans Atout ``TA`` and ``SA``.
    """
    if state.bidding_round == 1:
        return [state.up_card.suit, None]
    other_suits = [s for s in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS) if s != state.up_card.suit]
    return [*other_suits, Suit.TOUT_ATOUT, SANS_ATOUT_BID, None]


def _engine_bid(state: Any, call: Any) -> tuple[bool, Any]:
    """(a bid of belote-cli's, the bid) for a protocol call, in any round: ``place_bid`` judges it.

    belote-cli's bids are a suit, ``Suit.TOUT_ATOUT``, ``SANS_ATOUT_BID`` or None (pass); taking
    the turned card is bidding its suit. The protocol's round-1 naming of the turned suit is
    therefore the same bid as taking it, which the engine cannot tell apart: that case is skipped.
    A call that is none of belote-cli's bids (a bid of the coinche family) is no bid at all.
    """
    if call == "pass":
        return True, None
    if call == "take":
        return True, state.up_card.suit
    if call == "SA":
        return True, SANS_ATOUT_BID
    if call == "TA":
        return True, Suit.TOUT_ATOUT
    if isinstance(call, str) and call in _SUITS:
        if state.bidding_round == 1 and _suit(call) == state.up_card.suit:
            raise CannotExpress("the turned card's suit named in round 1: belote-cli has one bid for it and for "
                                "taking the turned card (place_bid(up_card.suit)), so it cannot tell the two apart")
        return True, _suit(call)
    return False, None


def _call_token(option: Any) -> str:
    if option == SANS_ATOUT_BID:
        return "SA"
    if option == Suit.TOUT_ATOUT:
        return "TA"
    return _suit_letter(option)


def _legal_calls(state: Any) -> list[str]:
    """The calls belote-cli's game offers the player to speak (``prompt_bid``), in the protocol's
    order: pass, take or the suits S H D C, then SA, TA. ``place_bid`` accepts more (README)."""
    if state.bidding_round == 1:
        return ["pass", "take"]
    tokens = {_call_token(option) for option in _bid_options(state) if option is not None}
    return ["pass", *(token for token in ("S", "H", "D", "C", "SA", "TA") if token in tokens)]


def _auction_state(dealer: Any, turned: Any, hands5: dict[Any, list[Any]] | None = None,
                   pool: list[Any] | None = None) -> Any:
    if hands5 is None:  # the auction kind gives no hands: any consistent deal of the other cards
        rest = [c for c in make_deck() if c != turned]
        hands = tuple(tuple(rest[5 * i:5 * i + 5]) for i in range(4))
        pool = rest[20:]
    else:
        hands = tuple(tuple(hands5[bgame.Seat(i)]) for i in range(4))
    return bgame.GameState(hands=hands, initial_hands=hands, dealer=dealer, leader=dealer.next_seat(),
                           turn=dealer.next_seat(), phase=bgame.Phase.BIDDING, up_card=turned,
                           remaining_cards=tuple(pool or ()), bidding_round=1, belote_holders={})


def _run_calls(state: Any, calls: list[Any]) -> tuple[Any, int | None, int]:
    """Apply the calls with ``place_bid``; (state, index of the first illegal call or None, round of the take).

    Every call goes to the engine: ``place_bid`` refuses what it refuses (``IllegalMoveError``) and
    accepts what it accepts. Once the engine has left the bidding phase its game takes no call.
    """
    taken_round = 0
    for index, call in enumerate(calls):
        if state.phase != bgame.Phase.BIDDING:
            return state, index, taken_round
        known, bid = _engine_bid(state, call)
        if not known:
            return state, index, taken_round
        round_before = state.bidding_round
        try:
            state = bgame.place_bid(state, bid)
        except bgame.IllegalMoveError:
            return state, index, taken_round
        if state.phase == bgame.Phase.PLAYING:
            taken_round = round_before
    return state, None, taken_round


def _auction_status(state: Any, taken_round: int) -> dict[str, Any]:
    if state.phase == bgame.Phase.PLAYING:
        return {"status": "taken", "taker": _protocol_seat(state.taker),
                "trump": _contract_token(state.trump, state.contract), "round": taken_round}
    if state.phase == bgame.Phase.DEAL:  # all passed twice: place_bid rotates the dealer
        return {"status": "redeal", "next_dealer": _protocol_seat(state.dealer)}
    return {"status": "open", "next": _protocol_seat(state.current_bidder), "round": state.bidding_round,
            "legal": _legal_calls(state)}


def kind_auction(params: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    dealer = _engine_seat(_field(given, "dealer"))
    turned = _card(_field(given, "turned"))
    calls = _field(given, "calls")
    if not isinstance(calls, list):
        raise BadGiven("given.calls must be a list")
    state, illegal, taken_round = _run_calls(_auction_state(dealer, turned), calls)
    if illegal is not None:
        return {"rejected": {"code": "illegal_call", "index": illegal}}
    return _auction_status(state, taken_round)


def kind_legal_plays(params: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """``belote.game.legal_cards`` on a state in the PLAYING phase holding the trick so far."""
    trump, contract = _contract(_field(given, "trump"))
    seat = _engine_seat(_field(given, "seat"))
    hand = _cards(_field(given, "hand"))
    leader, trick = _trick_cards(_field(given, "trick"))
    hands = [()] * 4
    hands[seat.value] = tuple(hand)
    state = bgame.GameState(hands=tuple(hands), trump=trump, contract=contract, phase=bgame.Phase.PLAYING,
                            leader=_engine_seat(leader), turn=seat, current_trick=_engine_trick(leader, trick))
    return {"legal": _tokens(bgame.legal_cards(state, seat))}


def kind_trick_winner(params: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """``belote.game.trick_winner_seat`` and ``belote.scoring.trick_card_points``."""
    trump, contract = _contract(_field(given, "trump"))
    leader, cards = _trick_cards(_field(given, "trick"))
    if len(cards) != 4:
        raise BadGiven("trick_winner needs a trick of 4 cards")
    trick = _engine_trick(leader, cards)
    state = bgame.GameState(hands=((), (), (), ()), trump=trump, contract=contract, phase=bgame.Phase.PLAYING)
    winner = bgame.trick_winner_seat(trick, trump, False, contract == Contract.SANS_ATOUT)
    return {"winner": _protocol_seat(winner), "points": bscoring.trick_card_points(state, trick)}


_SEQUENCE_KINDS = {3: "tierce", 4: "quarte", 5: "quinte"}


def _engine_combinations(hand: tuple[Any, ...]) -> list[dict[str, Any]]:
    """``detect_sequences`` and ``detect_carres`` on one hand, worth ``get_declaration_points``.

    A run of 6 to 8 cards is one quinte for the engine (``min(d.length, 5)``); it is listed with
    its top five cards (the engine's ``top_rank`` is the run's top). Carrés of 7s and 8s are
    listed as the engine detects them, worth 0.
    """
    found = []
    for sequence in bscoring.detect_sequences(hand):
        cards = sequence.cards[-5:] if sequence.length > 5 else sequence.cards
        found.append({"kind": _SEQUENCE_KINDS[min(sequence.length, 5)], "cards": _tokens(cards),
                      "points": bscoring.get_declaration_points([sequence])})
    for carre in bscoring.detect_carres(hand):
        found.append({"kind": "carre", "cards": _tokens(carre.cards), "points": bscoring.get_declaration_points([carre])})
    return found


def kind_announcements(params: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    _contract(_field(given, "trump"))  # detect_sequences and detect_carres read no contract
    hand = tuple(_cards(_field(given, "hand")))
    return {"combinations": _engine_combinations(hand)}


# ------------------------------------------------------------------------------------ deals
def _check_declared_set(initial_hands: tuple[Any, ...], announcements: Any, enabled: bool,
                        missing_too: bool = True) -> None:
    """The engine declares every combination of every hand automatically (``_detect_all_declarations``
    on ``initial_hands``); a deal where the players declared something else cannot be expressed.

    With ``missing_too`` false, only declarations the engine would not make are refused (a
    replay checks the missing ones once the plays are done: they change the score, no play).
    """
    if announcements is None:
        announcements = []
    if not isinstance(announcements, list):
        raise BadGiven("given.announcements must be a list")
    if not enabled:
        if announcements:
            raise CannotExpress("announcements are declared but the ruleset plays without them; "
                                "the engine has no rejection for that")
        return
    declared = set()
    for item in announcements:
        seat = _engine_seat(_field(item, "seat"))
        kind = _field(item, "kind")
        declared.add((seat, kind, frozenset(_tokens(_cards(_field(item, "cards"))))))
    automatic = set()
    for i, hand in enumerate(initial_hands):
        for combo in _engine_combinations(hand):
            if combo["points"] > 0:
                automatic.add((bgame.Seat(i), combo["kind"], frozenset(combo["cards"])))
    missing = sorted(f"{_protocol_seat(s)} {k} {' '.join(sorted(c))}" for s, k, c in automatic - declared)
    extra = sorted(f"{_protocol_seat(s)} {k} {' '.join(sorted(c))}" for s, k, c in declared - automatic)
    if not missing_too:
        missing = []
    if missing or extra:
        raise CannotExpress(
            "belote-cli declares every combination of every hand automatically; this deal declares "
            + (f"not {'; '.join(missing)}" if missing else "")
            + ("; " if missing and extra else "")
            + (f"{'; '.join(extra)}, which the engine would not" if extra else ""))


def _belote_holder(trump: Any, contract: Any, plays: dict[Any, Any]) -> Any:
    """The seat that played both the king and the queen of trumps, if any. Only a suit contract
    has a belote in belote-cli (``place_bid`` fills ``belote_holders`` only for ``Contract.NORMAL``)."""
    if contract != Contract.NORMAL:
        return None
    king, queen = plays.get(Card(trump, Rank.KING)), plays.get(Card(trump, Rank.QUEEN))
    return king if king is not None and king == queen else None


def _given_belote(given: dict[str, Any], contract: Any, holder: Any) -> None:
    """A ``belote`` the engine cannot express: a seat that did not play K and Q of trumps, or any
    belote at sans-atout or tout-atout (belote-cli has none there, and no rejection)."""
    belote = given.get("belote")
    if contract != Contract.NORMAL:
        if belote:
            raise CannotExpress("belote is announced at sans-atout or tout-atout: belote-cli has no belote at "
                                "those contracts (place_bid fills belote_holders only for Contract.NORMAL) and no "
                                "rejection for one")
        return
    if belote is not None and _engine_seat(belote) != holder:
        raise CannotExpress("belote is announced by a seat that did not play both the king and the queen of "
                            "trumps: belote-cli credits belote automatically to the holder and has no rejection "
                            "for that")


def _scoring_state(params: dict[str, Any], given: dict[str, Any], *, team_scores: tuple[int, int] = (0, 0),
                   pot: int | None = None) -> Any:
    """A GameState in the SCORING phase as ``play_card`` leaves it after the 8th trick."""
    dealer = _engine_seat(_field(given, "dealer"))
    taker = _engine_seat(_field(given, "taker"))
    trump, contract = _contract(_field(given, "trump"))
    is_sa = contract == Contract.SANS_ATOUT
    tricks_given = _field(given, "tricks")
    if not isinstance(tricks_given, list):
        raise BadGiven("given.tricks must be a list")
    if len(tricks_given) != 8:
        raise CannotExpress("not 8 tricks: belote-cli scores only complete deals and has no rejection for an "
                            "inconsistent one")
    tricks = []
    plays: dict[Any, Any] = {}
    hands: list[list[Any]] = [[], [], [], []]
    expected_leader = dealer.next_seat()
    for index, raw in enumerate(tricks_given):
        leader, cards = _trick_cards(raw)
        if len(cards) != 4:
            raise CannotExpress(f"trick {index + 1} has {len(cards)} cards: belote-cli scores only complete deals "
                                "and has no rejection for an inconsistent one")
        trick = _engine_trick(leader, cards)
        if trick[0].seat != expected_leader:
            raise CannotExpress(f"trick {index + 1} is led by the wrong seat: belote-cli derives leaders "
                                "from the play and has no rejection for an inconsistent deal")
        for trick_card in trick:
            if trick_card.card in plays:
                raise CannotExpress("a card is played twice: belote-cli has no rejection for an inconsistent deal")
            plays[trick_card.card] = trick_card.seat
            hands[trick_card.seat.value].append(trick_card.card)
        tricks.append(trick)
        expected_leader = bgame.trick_winner_seat(trick, trump, False, is_sa)
    holder = _belote_holder(trump, contract, plays)
    _given_belote(given, contract, holder)
    # belote.announcement automatic (the only value declared): _record_belote_announcement credits
    # the holder of K and Q of trumps as soon as he plays them, whether or not anyone said so.
    credited = holder is not None
    enabled = bool(params.get("announcements.enabled", True))
    initial_hands = tuple(tuple(h) for h in hands)
    _check_declared_set(initial_hands, given.get("announcements"), enabled)
    return bgame.GameState(
        hands=((), (), (), ()), initial_hands=initial_hands, trump=trump, contract=contract, dealer=dealer,
        leader=expected_leader, turn=expected_leader, phase=bgame.Phase.SCORING, taker=taker,
        completed_tricks=tuple(tricks), last_trick_winner=expected_leader,
        belote_holders={trump: holder} if holder is not None else {},
        belote_tracker=(credited, credited), belote_announcer=holder if credited else None,
        belote_trump=trump if credited else None, first_trick_done=True,
        team_scores=team_scores, target=int(params.get("game.target_points", 1000)),
        litige_points=int(given.get("pot") or 0) if pot is None else pot,
        boss_modifiers=bgame.BossModifiers(declarations_zero=not enabled),
    )


def _capot_base(contract: Any) -> int:
    """What the engine credits for the cards of a capot, as ``scoring._score_capot_outcome`` picks
    it: ``CAPOT_BASE`` (252), ``CAPOT_BASE_SANS_ATOUT`` (220), ``CAPOT_BASE_TOUT_ATOUT`` (348)."""
    if contract == Contract.SANS_ATOUT:
        return GLOBAL_CONFIG.CAPOT_BASE_SANS_ATOUT
    if contract == Contract.TOUT_ATOUT:
        return GLOBAL_CONFIG.CAPOT_BASE_TOUT_ATOUT
    return GLOBAL_CONFIG.CAPOT_BASE


def _score_result(state: Any) -> tuple[dict[str, Any], Any]:
    """``score_round`` then ``apply_round_score`` (from zero totals), in the protocol's shape."""
    breakdown = bscoring.score_round(state)
    before = state.team_scores
    after = bscoring.apply_round_score(state, breakdown)
    taker_team = breakdown.taker_team
    defender_team = 1 - taker_team
    winners = bgame.compute_trick_winners(state, state.trump, state.contract == Contract.SANS_ATOUT)
    capot = None
    if breakdown.is_capot:
        capot = defender_team if breakdown.is_failed else taker_team
    card_points = {taker_team: breakdown.table_taker_pts, defender_team: breakdown.table_defender_pts}
    if capot is not None:
        card_points = {capot: _capot_base(state.contract), 1 - capot: 0}
    announcements = {taker_team: breakdown.taker_declarations, defender_team: breakdown.defender_declarations}
    belote = None
    if breakdown.taker_belote:
        belote = taker_team
    elif breakdown.defender_belote:
        belote = defender_team
    contract = "litige" if breakdown.is_litige else "down" if breakdown.is_failed else "made"
    result = {
        "trick_winners": [_protocol_seat(w) for w in winners],
        "card_points": {TEAMS[t]: card_points[t] for t in (0, 1)},
        "announcements": {TEAMS[t]: announcements[t] for t in (0, 1)},
        "belote": TEAMS[belote] if belote is not None else None,
        "contract": contract,
        "capot": TEAMS[capot] if capot is not None else None,
        "deal_score": {TEAMS[t]: after.team_scores[t] - before[t] for t in (0, 1)},
        "pot": after.litige_points,
    }
    return result, after


def kind_score(params: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    result, _ = _score_result(_scoring_state(params, given))
    return result


def kind_match(params: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """Deals scored in turn with ``apply_round_score``, which carries the totals and the litige pool
    and sets the GAME_OVER phase (``if ns >= state.target or ew >= state.target``)."""
    deals = _field(given, "deals")
    if not isinstance(deals, list):
        raise BadGiven("given.deals must be a list")
    totals: list[dict[str, int]] = []
    scores, pot = (0, 0), 0
    for deal in deals:
        state = _scoring_state(params, deal, team_scores=scores, pot=pot)
        _, after = _score_result(state)
        scores, pot = after.team_scores, after.litige_points
        totals.append({"NS": scores[0], "EW": scores[1]})
        if after.phase == bgame.Phase.GAME_OVER:
            return {"totals": totals, "winner": "NS" if scores[0] > scores[1] else "EW", "ended_after": len(totals)}
    return {"totals": totals, "winner": None, "ended_after": None}


def kind_replay(params: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """The deal played through the engine: ``place_bid`` for the calls, ``play_card`` for the plays."""
    dealer = _engine_seat(_field(given, "dealer"))
    hands_given = _field(given, "hands")
    if not isinstance(hands_given, dict) or set(hands_given) != set(PROTOCOL_SEATS):
        raise BadGiven("given.hands must map N, E, S, W to cards")
    hands5 = {_engine_seat(s): _cards(c) for s, c in hands_given.items()}
    turned = _card(_field(given, "turned"))
    completion_given = given.get("completion")
    pool: list[Any] = []
    if completion_given is not None:
        if not isinstance(completion_given, dict) or set(completion_given) != set(PROTOCOL_SEATS):
            raise BadGiven("given.completion must map N, E, S, W to cards")
        completion = {_engine_seat(s): _cards(c) for s, c in completion_given.items()}
        for i in range(4):  # _distribute_remaining_cards deals the pool from eldest round
            pool.extend(completion[bgame.get_bidder(dealer, i)])
    calls = given.get("calls") or []
    state, illegal, taken_round = _run_calls(_auction_state(dealer, turned, hands5, pool), calls)
    if illegal is not None:
        return {"rejected": {"code": "illegal_call", "index": illegal}}
    if state.phase == bgame.Phase.DEAL:
        return {"status": "redeal", "next_dealer": _protocol_seat(state.dealer)}
    if state.phase != bgame.Phase.PLAYING:
        raise BadGiven("the calls do not end the auction")
    enabled = bool(params.get("announcements.enabled", True))
    _check_declared_set(state.initial_hands, given.get("announcements"), enabled, missing_too=False)
    state = replace(state, boss_modifiers=bgame.BossModifiers(declarations_zero=not enabled),
                    litige_points=int(given.get("pot") or 0), target=int(params.get("game.target_points", 1000)))
    state, rejected, _ = _play_out(state, _cards(given.get("plays") or []))
    if rejected is not None:
        return rejected
    # Belote and declarations change no play (legal_cards never looks at them), only the score:
    # checked here, so that a replay rejected at an illegal play is answered whatever was declared.
    _given_belote(given, state.contract, state.belote_holders.get(state.trump))
    _check_declared_set(state.initial_hands, given.get("announcements"), enabled)
    taker, trump = state.taker, _contract_token(state.trump, state.contract)
    result, _ = _score_result(state)
    return {**result, "taker": _protocol_seat(taker), "trump": trump}


def _play_out(state: Any, plays: list[Any], want_legal: bool = False) -> tuple[Any, dict[str, Any] | None, list[list[str]]]:
    """The plays through ``play_card``: (state after the 32nd, a rejection or None, the legal sets).

    ``play_card`` raises ``IllegalMoveError`` for a card that is not in ``legal_cards``; the card
    is looked for in the hand first, so that a card the seat does not hold is told apart.
    """
    legal_sets: list[list[str]] = []
    for index, card in enumerate(plays):
        if state.phase != bgame.Phase.PLAYING:
            raise BadGiven(f"play {index} after the end of the deal")
        if want_legal:
            legal_sets.append(_canonical(bgame.legal_cards(state, state.turn)))
        if card not in state.hand_of(state.turn):
            return state, {"rejected": {"code": "card_not_in_hand", "index": index}}, legal_sets
        try:
            state = bgame.play_card(state, card)
        except bgame.IllegalMoveError:
            return state, {"rejected": {"code": "illegal_play", "index": index}}, legal_sets
    if state.phase != bgame.Phase.SCORING:
        raise BadGiven(f"a whole deal needs its 32 plays; found {len(plays)}")
    return state, None, legal_sets


_CANONICAL = {f"{rank}{suit}": index for index, (suit, rank) in
              enumerate((suit, rank) for suit in "SHDC" for rank in "789TJQKA")}


def _canonical(cards: Any) -> list[str]:
    """Cards as tokens in the protocol's canonical order: suits S H D C, ranks 7 to A."""
    return sorted(_tokens(cards), key=_CANONICAL.__getitem__)


def kind_play(params: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """A whole deal under a known contract, set up through the engine's own auction.

    belote-cli starts a deal only from its auction (``place_bid`` deals the completion, fills
    ``belote_holders`` and the declarations, and sets the PLAYING phase with eldest to lead). The
    adapter therefore builds the auction that gives these hands and this contract: the dealer is
    the seat before ``leader``; the turned card is one of the taker's cards; the first five cards
    of each hand are dealt, the rest is the completion, in the order ``_distribute_remaining_cards``
    deals it. A suit contract is taken in round 1 when its suit is the turned card's, else named
    in round 2 over a turned card of another suit; SA and TA are named in round 2.
    """
    hands_given = _field(given, "hands")
    if not isinstance(hands_given, dict) or set(hands_given) != set(PROTOCOL_SEATS):
        raise BadGiven("given.hands must map N, E, S, W to cards")
    hands = {_engine_seat(seat): _cards(cards) for seat, cards in hands_given.items()}
    every_card = [card for cards in hands.values() for card in cards]
    if any(len(cards) != 8 for cards in hands.values()) or len(set(every_card)) != 32:
        raise CannotExpress("the hands are not four hands of 8 distinct cards: belote-cli has no rejection for a "
                            "bad deal (its deal is made by deck.deal)")
    contract_given = _field(given, "contract")
    trump_token = _field(contract_given, "trump")
    trump, contract = _contract(trump_token)
    taker = _engine_seat(_field(contract_given, "taker"))
    leader = _engine_seat(_field(given, "leader"))
    dealer = _engine_seat(_next_protocol(_protocol_seat(leader), 3))
    taker_hand = hands[taker]
    if contract == Contract.NORMAL:
        others = [card for card in taker_hand if card.suit != trump]
        turned = others[0] if others else taker_hand[0]  # a hand of trumps only: taken in round 1
    else:
        turned = taker_hand[0]
    round_one = contract == Contract.NORMAL and turned.suit == trump
    first = {seat: [card for card in cards if card != turned][:5] for seat, cards in hands.items()}
    pool: list[Any] = []
    for i in range(4):  # _distribute_remaining_cards deals the pool from eldest round
        seat = bgame.get_bidder(dealer, i)
        pool.extend(card for card in hands[seat] if card != turned and card not in first[seat])
    speaker = next(i for i in range(4) if bgame.get_bidder(dealer, i) == taker)
    calls = ["pass"] * speaker + ["take"] if round_one else ["pass"] * (4 + speaker) + [trump_token]
    state, illegal, _ = _run_calls(_auction_state(dealer, turned, first, pool), calls)
    if illegal is not None or state.phase != bgame.Phase.PLAYING:
        raise RuntimeError(f"belote-cli refused the auction {calls} that sets up the contract")
    if {seat: sorted(_tokens(state.hand_of(seat))) for seat in hands} != \
            {seat: sorted(_tokens(cards)) for seat, cards in hands.items()}:
        raise RuntimeError("belote-cli dealt other hands than the ones given")
    enabled = bool(params.get("announcements.enabled", True))
    _check_declared_set(state.initial_hands, given.get("announcements"), enabled, missing_too=False)
    state = replace(state, boss_modifiers=bgame.BossModifiers(declarations_zero=not enabled),
                    litige_points=int(given.get("pot") or 0), target=int(params.get("game.target_points", 1000)))
    want_legal = given.get("want_legal", False)
    plays = _cards(_field(given, "plays"))
    state, rejected, legal_sets = _play_out(state, plays, want_legal is True)
    if rejected is not None:
        return rejected
    _given_belote(given, contract, state.belote_holders.get(state.trump))  # as in replay: after the plays
    _check_declared_set(state.initial_hands, given.get("announcements"), enabled)
    score, _ = _score_result(state)
    result: dict[str, Any] = {"trick_winners": score["trick_winners"]}
    if want_legal is True:
        result["legal"] = legal_sets
    result["score"] = score
    return result


HANDLERS = {"deal": kind_deal, "auction": kind_auction, "legal_plays": kind_legal_plays,
            "trick_winner": kind_trick_winner, "announcements": kind_announcements, "score": kind_score,
            "replay": kind_replay, "match": kind_match, "play": kind_play}


# ------------------------------------------------------------------------------------ loop
def negotiated_version(message: dict[str, Any]) -> int | None:
    """The highest version this adapter speaks among those the runner's hello offers
    (``protocols``, or ``protocol`` alone from a version-1 runner); the newest it speaks when the
    hello names none; None when no version is in common."""
    if isinstance(message.get("protocols"), list):
        offered = message["protocols"]
    elif "protocol" in message:
        offered = [message["protocol"]]
    else:
        return SPOKEN_PROTOCOLS[-1]
    common = [v for v in offered if type(v) is int and v in SPOKEN_PROTOCOLS]
    return max(common) if common else None


def _since(parameter_id: str) -> int:
    return next((v for prefix, v in PARAMETER_PREFIX_SINCE.items() if parameter_id.startswith(prefix)), 1)


def hello(message: dict[str, Any] | None = None) -> dict[str, Any]:
    """The reply to the runner's hello: the negotiated version and that version's kinds and
    parameters, or an error line when no version is in common."""
    version = negotiated_version(message or {})
    if version is None:
        offered = (message or {}).get("protocols", (message or {}).get("protocol"))
        return {"errored": True, "message": f"no protocol version in common: the runner offers {offered!r}, "
                f"this adapter speaks {', '.join(map(str, SPOKEN_PROTOCOLS))}"}
    return {
        "protocol": version,
        "implementation": {"name": "belote-cli", "version": BELOTE_CLI_VERSION, "language": "python",
                           "homepage": "https://github.com/ElysiumDisc/belote"},
        "supports": {"kinds": [kind for kind in KINDS if KIND_SINCE.get(kind, 1) <= version], "rulesets": [],
                     "parameters": {pid: values for pid, values in SUPPORTED_PARAMETERS.items()
                                    if _since(pid) <= version}},
    }


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    command = message.get("cmd")
    if command == "hello":
        return hello(message)
    if command == "stop":
        return None
    seq = message.get("seq")
    try:
        if IMPORT_ERROR:
            return {"seq": seq, "errored": True, "message": IMPORT_ERROR}
        if command != "run":
            return {"seq": seq, "errored": True, "message": f"unknown cmd {command!r}"}
        # No check of the ruleset's other values: the runner sends a case only when the values of
        # the parameters its answer depends on are among those declared in hello.
        params = (message.get("ruleset") or {}).get("parameters") or {}
        handler = HANDLERS.get(message.get("kind"))  # type: ignore[arg-type]
        if handler is None:
            return {"seq": seq, "skipped": True, "reason": f"kind {message.get('kind')!r} is not supported"}
        return {"seq": seq, "result": handler(params, message.get("given") or {})}
    except CannotExpress as error:
        return {"seq": seq, "skipped": True, "reason": str(error)}
    except Exception as error:  # noqa: BLE001 - never die on a case
        traceback.print_exc(file=sys.stderr)
        return {"seq": seq, "errored": True, "message": f"{type(error).__name__}: {error}"}


# The JSON-lines loop of every adapter, on purpose: an adapter must not import belote_ref.
def main() -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError as error:
            reply: dict[str, Any] | None = {"errored": True, "message": f"not JSON: {error.msg}"}
        else:
            reply = answer(message) if isinstance(message, dict) else {"errored": True, "message": "not an object"}
            if reply is None:
                return 0
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
