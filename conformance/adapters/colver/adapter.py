"""belote-ref protocol adapter (versions 1 to 3) for colver, the Belote contrée engine on PyPI (Rust core).

    python conformance/adapters/colver/adapter.py

colver plays belote contrée, the bidding family of protocol 3: its auction (80 to 160, capot,
coinche), its scoring ("points faits + points demandés") and its deal (8 cards at once) are not
classic belote. Under every ruleset the play of a suit contract is checked: ``legal_plays``,
``trick_winner`` and whole deals under a given contract (``play``); under the family's rulesets
also ``auction``, ``score`` and the score of a ``play``. Positions are handed to the engine in its
own notation, CFN (``colver.Env.from_cfn``): the engine replays the cards of the tricks itself
(``replay_tricks`` -> ``apply_play``) and answers ``Env.legal_actions`` (its ``legal_plays``),
``Env.get_trick_lead`` (the winner, who leads next), ``Env.get_points`` and its deal score
(``Env.rewards``). A whole deal is played card by card with ``Env.step``; the auction call by call
the same way. A classic deal (no bid) that colver plays out to the end is answered ``skipped``, its
score being contrée's; only its rejections (a card not in hand, an illegal play) are results.
colver has no sans-atout or tout-atout contract.

colver's seats are N=0, E=1, S=2, W=3 and play goes to ``(player + 1) % 4``: the protocol's seats
and play order, unchanged. Every case is answered (result, skipped or errored); README.md next to
this file quotes the code behind every declared value.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any

try:
    import colver
except ImportError as error:  # pragma: no cover - reported in every answer
    colver = None
    IMPORT_ERROR: str | None = f"colver is not installed ({error}); pip install colver"
    COLVER_VERSION = "absent"
else:
    IMPORT_ERROR = None
    COLVER_VERSION = colver.__version__

#: The protocol versions this adapter speaks. Before version 3 there is no bidding family, and
#: colver plays no classic auction or score: those versions get the play of a suit contract only
#: (``legal_plays`` and ``trick_winner``; from version 2 also ``play``, whose classic deals are
#: rejected or skipped, see kind_play).
SPOKEN_PROTOCOLS = (1, 2, 3)
KINDS = ["legal_plays", "trick_winner", "play", "auction", "score"]
KINDS_BY_VERSION = {1: ["legal_plays", "trick_winner"], 2: ["legal_plays", "trick_winner", "play"], 3: KINDS}
#: The parameters a version added (their prefixes, or the whole id), left out of an older hello.
PARAMETER_SINCE = {"sans_atout.": 2, "tout_atout.": 2, "bidding.auction": 3, "deal.bid_packets": 3, "auction.": 3,
                   "scoring.bid.": 3, "scoring.capot_bid.": 3, "scoring.generale.": 3, "belote.multiplied": 3}

SUPPORTED_PARAMETERS: dict[str, Any] = {
    # card.rs: "Within each suit: 7, 8, 9, J, Q, K, 10, A (plain strength order). Trump strength:
    # J > 9 > A > 10 > K > Q > 8 > 7", with the usual point tables.
    "cards.trump_order": [["J", "9", "A", "T", "K", "Q", "8", "7"]],
    "cards.plain_order": [["A", "T", "K", "Q", "J", "9", "8", "7"]],
    "cards.trump_points": [{"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}],
    "cards.plain_points": [{"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}],
    # play.rs, legal_plays_color
    "play.partner_master_exception": [True],
    "play.trump_lead_overtrump": ["always"],
    "play.undertrump_over_opponent": ["optional"],
    "play.undertrump_partner": ["allowed"],
    "play.must_head_plain_suit": [False],
    # colver's contracts are the four suits (state.rs Contract.trump 0-3; its auction offers
    # 80-160 and capot in S H D C only): no sans-atout, no tout-atout.
    "bidding.contracts": [["suit"]],
    **{parameter_id: [] for parameter_id in (
        "sans_atout.card_order", "sans_atout.card_points", "sans_atout.carres", "sans_atout.belote",
        "tout_atout.card_order", "tout_atout.card_points", "tout_atout.scale_to", "tout_atout.rounding",
        "tout_atout.belote", "tout_atout.carres", "tout_atout.must_head", "tout_atout.partner_relief")},
}
# No other parameter can change a legal play or a trick's winner and points, nor a play rejected
# at an illegal card: a whole deal played out is skipped (see kind_play).


class BadGiven(Exception):
    """The ``given`` does not have the protocol's shape: answered ``errored``."""


SEATS = "NESW"
RANKS = "789JQKTA"  # colver's rank index within a suit (card = suit * 8 + rank)
SUITS = "SHDC"


def _seat(token: Any) -> int:
    if not isinstance(token, str) or token not in SEATS:
        raise BadGiven(f"not a seat: {token!r}")
    return SEATS.index(token)


def _suit(token: Any) -> int:
    if not isinstance(token, str) or token not in SUITS:
        raise BadGiven(f"not a suit letter: {token!r}")
    return SUITS.index(token)


def _card(token: Any) -> int:
    if not isinstance(token, str) or len(token) != 2 or token[0] not in RANKS or token[1] not in SUITS:
        raise BadGiven(f"not a card: {token!r}")
    return SUITS.index(token[1]) * 8 + RANKS.index(token[0])


def _token(card: int) -> str:
    return RANKS[card % 8] + SUITS[card // 8]


def _cards(tokens: Any) -> list[int]:
    if not isinstance(tokens, list):
        raise BadGiven(f"expected a list of cards, found {tokens!r}")
    return [_card(t) for t in tokens]


def _field(given: Any, key: str) -> Any:
    if not isinstance(given, dict) or key not in given:
        raise BadGiven(f"given: missing {key!r}")
    return given[key]


def _cfn_card(card: int) -> str:
    return RANKS[card % 8] + SUITS[card // 8].lower()


def _cfn_hand(cards: list[int]) -> str:
    if not cards:
        return "-"
    groups = []
    for suit in range(4):  # cfn.rs format_hand: suits S.H.D.C, ranks high to low
        groups.append("".join(RANKS[r] for r in range(7, -1, -1) if suit * 8 + r in cards))
    return ".".join(groups)


def _position(trump: int, leader: int, trick: list[int], seat: int | None = None, hand: list[int] | None = None) -> Any:
    """A colver Env in the play phase of a suit contract, ``trick`` led by ``leader``.

    CFN is ``<dealer>:<hands N/E/S/W> <tricks> <contract>``; the first trick is led by the seat
    after the dealer, and the cards of the trick go back into their players' hands before the
    engine replays them (cfn.rs, ``from_cfn``). The contract is an 80 in ``trump`` (its value
    and taking side change no play rule).
    """
    hands: list[list[int]] = [[], [], [], []]
    if seat is not None and hand is not None:
        hands[seat] = hand
    dealer = SEATS[(leader + 3) % 4]
    tricks = "".join(_cfn_card(c) for c in trick) or "-"
    cfn = f"{dealer}:{'/'.join(_cfn_hand(h) for h in hands)} {tricks} 80{SUITS[trump].lower()}NS"
    return colver.Env.from_cfn(cfn)


class CannotExpress(Exception):
    """colver has no way to represent this case: answered ``skipped``."""


def _suit_contract(token: Any) -> int:
    if token in ("SA", "TA"):
        raise CannotExpress(f"contract {token}: colver has no sans-atout or tout-atout contract, only the four suits")
    return _suit(token)


def kind_legal_plays(given: dict[str, Any]) -> dict[str, Any]:
    trump = _suit_contract(_field(given, "trump"))
    seat = _seat(_field(given, "seat"))
    hand = _cards(_field(given, "hand"))
    trick = _field(given, "trick")
    leader = _seat(_field(trick, "leader"))
    cards = _cards(_field(trick, "cards"))
    if len(cards) > 3:
        raise BadGiven("legal_plays needs a trick of at most 3 cards")
    if (leader + len(cards)) % 4 != seat:
        raise BadGiven("seat is not the seat after the trick's last card")
    env = _position(trump, leader, cards, seat, hand)
    if env.current_player() != seat:
        raise RuntimeError(f"colver's player to move is {SEATS[env.current_player()]}, not {SEATS[seat]}")
    return {"legal": [_token(c) for c in env.legal_actions()]}


def kind_trick_winner(given: dict[str, Any]) -> dict[str, Any]:
    trump = _suit_contract(_field(given, "trump"))
    trick = _field(given, "trick")
    leader = _seat(_field(trick, "leader"))
    cards = _cards(_field(trick, "cards"))
    if len(cards) != 4:
        raise BadGiven("trick_winner needs a trick of 4 cards")
    env = _position(trump, leader, cards)
    ns, ew = env.get_points()  # play.rs resolve_trick: the trick's points to the winner's team
    return {"winner": SEATS[env.get_trick_lead()], "points": int(ns + ew)}


_CANONICAL = [suit * 8 + RANKS.index(rank) for suit in range(4) for rank in "789TJQKA"]


def _canonical(cards: list[int]) -> list[str]:
    """Cards in the protocol's canonical order: suits S H D C, ranks 7 to A."""
    return [_token(card) for card in sorted(cards, key=_CANONICAL.index)]


def play_through(given: dict[str, Any]) -> tuple[Any, dict[str, Any] | None, list[list[str]], list[str]]:
    """A whole deal through colver: (env, a rejection or None, the legal sets, the trick winners).

    The deal starts from CFN (``<dealer>:<hands> - <contract>``, the dealer the seat before the
    leader, the contract an 80 in the trump suit taken by the taker's side: its value changes no
    play), then each card goes through ``Env.step``. A card is looked for in
    ``Env.get_hands()`` first (``card_not_in_hand``), then in ``Env.legal_actions()``
    (``illegal_play``); colver never sees a card it would refuse.
    """
    hands_given = _field(given, "hands")
    if not isinstance(hands_given, dict) or set(hands_given) != set(SEATS):
        raise BadGiven("given.hands must map N, E, S, W to cards")
    hands = [_cards(hands_given[seat]) for seat in SEATS]
    if any(len(hand) != 8 for hand in hands) or len({card for hand in hands for card in hand}) != 32:
        raise CannotExpress("the hands are not four hands of 8 distinct cards: colver has no rejection for a bad "
                            "deal (its CFN reader takes any hands)")
    contract = _field(given, "contract")
    trump = _suit_contract(_field(contract, "trump"))
    taker = _seat(_field(contract, "taker"))
    leader = _seat(_field(given, "leader"))
    if given.get("announcements"):
        raise CannotExpress("declarations are given: colver plays without announcements and cannot check them")
    plays = _cards(_field(given, "plays"))
    dealer = SEATS[(leader + 3) % 4]
    # Without a bid (a classic ruleset) an 80 stands in for the contract: its value changes no play.
    bid = contract.get("bid") or {"value": 80, "multiplier": 1}
    env = colver.Env.from_cfn(f"{dealer}:{'/'.join(_cfn_hand(h) for h in hands)} - {_contract_cfn(trump, taker, bid)}")
    want_legal = given.get("want_legal") is True
    legal_sets: list[list[str]] = []
    winners: list[str] = []
    trick_leader = leader
    for index, card in enumerate(plays):
        if env.is_terminal():
            raise BadGiven(f"play {index} after the end of the deal")
        player = env.current_player()
        legal = env.legal_actions()
        if want_legal:
            legal_sets.append(_canonical(legal))
        if card not in env.get_hands()[player]:
            return env, {"rejected": {"code": "card_not_in_hand", "index": index}}, legal_sets, winners
        if card not in legal:
            return env, {"rejected": {"code": "illegal_play", "index": index}}, legal_sets, winners
        if index % 4 == 0:
            trick_leader = player
        env.step(card)
        if index % 4 == 3:
            # resolve_trick makes the winner the next leader; after the last trick the deal is over
            # and get_trick_lead is not moved, so that trick is resolved again on its own.
            last = env.is_terminal()
            lead = _position(trump, trick_leader, plays[index - 3:index + 1]).get_trick_lead() if last \
                else env.get_trick_lead()
            winners.append(SEATS[lead])
    if not env.is_terminal():
        raise BadGiven(f"a whole deal needs its 32 plays; found {len(plays)}")
    return env, None, legal_sets, winners


# ------------------------------------------------------------------ the bidding family (protocol 3)
# colver's actions in its auction (Env.action_name): 0 Pass, 1-36 the bids 80 to 160 by value then
# suit S H D C, 37-40 capot S H D C, 41 Coinche, 42 Surcoinche. colver has no générale, no SA or TA
# bid and no out-of-turn coinche, so those calls are never among its legal actions.
PASS, FIRST_BID, FIRST_CAPOT, COINCHE, SURCOINCHE = 0, 1, 37, 41, 42
BID_VALUES = range(80, 161, 10)


def _call_of(action: int) -> str:
    if action == PASS:
        return "pass"
    if action == COINCHE:
        return "coinche"
    if action == SURCOINCHE:
        return "surcoinche"
    if action >= FIRST_CAPOT:
        return f"capot{SUITS[action - FIRST_CAPOT]}"
    value, suit = divmod(action - FIRST_BID, 4)
    return f"{BID_VALUES[value]}{SUITS[suit]}"


def _action_of(call: Any) -> int | None:
    """colver's action for a protocol call, or None when colver has no such call."""
    names = {_call_of(action): action for action in range(SURCOINCHE + 1)}
    return names.get(call) if isinstance(call, str) else None


def _auction_env(dealer: int) -> Any:
    """A deal at the start of colver's auction. The auction kind gives no hands, and colver's
    auction never looks at them: any deal will do (the 32 cards in index order, 8 a seat)."""
    return colver.Env.deal_with_hands(dealer, [list(range(8 * seat, 8 * seat + 8)) for seat in range(4)])


_MULTIPLIER = {0: 1, 1: 2, 2: 3}  # Contract.coinche: 0, coinched x2, surcoinched x3 (scoring.rs: contrat x3)


def _run_auction(env: Any, calls: list[Any]) -> tuple[dict[str, Any] | None, int | None]:
    """The calls through ``Env.step``: (a rejection or None, the seat of the last bid)."""
    last_bidder = None
    for index, call in enumerate(calls):
        action = _action_of(call)
        if env.phase() != 0 or action is None or action not in env.legal_actions():
            return {"rejected": {"code": "illegal_call", "index": index}}, last_bidder
        if FIRST_BID <= action < COINCHE:
            last_bidder = env.current_player()
        env.step(action)
    return None, last_bidder


def _auction_status(env: Any, last_bidder: int | None) -> dict[str, Any]:
    if env.phase() == 0:
        return {"status": "open", "next": SEATS[env.current_player()],
                "legal": [_call_of(action) for action in env.legal_actions()]}
    contract = env.get_contract()
    if contract["value"] == 0:
        raise CannotExpress("four passes: colver ends the deal void (Phase::Done, contract 0) and leaves the next "
                            "dealer to its caller, so there is no next_dealer to give")
    assert last_bidder is not None
    bid: int | str = "capot" if contract["value"] == 250 else contract["value"]
    return {"status": "taken", "taker": SEATS[last_bidder], "trump": SUITS[contract["trump"]], "bid": bid,
            "multiplier": _MULTIPLIER[contract["coinche"]]}


def kind_auction(given: dict[str, Any], family: bool = True) -> dict[str, Any]:
    dealer = _seat(_field(given, "dealer"))
    if not family:
        raise CannotExpress("the classic auction (a turned card): colver bids in the contrée auction only")
    calls = _field(given, "calls")
    if not isinstance(calls, list):
        raise BadGiven("given.calls must be a list")
    env = _auction_env(dealer)
    rejected, last_bidder = _run_auction(env, calls)
    return rejected or _auction_status(env, last_bidder)


_COINCHE_SUFFIX = {1: "", 2: "x", 3: "xx"}  # cfn.rs format_resolved_contract


def _contract_cfn(trump: int, taker: int, bid: Any) -> str:
    """A family contract in CFN: ``<value><suit><team>[x|xx]``, the value 250 for a capot."""
    value, multiplier = _field(bid, "value"), _field(bid, "multiplier")
    if value == "generale":
        raise CannotExpress("a générale: colver has no générale bid")
    if value != "capot" and not (isinstance(value, int) and value in BID_VALUES):
        raise CannotExpress(f"a bid of {value!r}: colver's bids are 80 to 160 by 10, and capot")
    if multiplier not in _COINCHE_SUFFIX:
        raise CannotExpress(f"a multiplier of {multiplier!r}: colver's coinche doubles and its surcoinche "
                            "multiplies by 3 (scoring.rs: contrat x3)")
    return f"{250 if value == 'capot' else value}{SUITS[trump].lower()}{'NS' if taker % 2 == 0 else 'EW'}" \
           f"{_COINCHE_SUFFIX[multiplier]}"


def _family_score(env: Any, winners: list[str], taker: int) -> dict[str, Any]:
    """colver's score of a finished deal, in the protocol's shape: its card points
    (``get_points``, dix de der included), its belote (``get_belote``: 2 for the team whose player
    played both the king and the queen of trumps), its deal score (``rewards``: scoring.rs
    ``compute_deal_score``) and whether the contract was made (``deal_outcome``, 1 for the side
    that won the deal)."""
    ns, ew = env.get_points()
    belote = [team for team, count in zip(("NS", "EW"), env.get_belote()) if count == 2]
    tricks_ns, tricks_ew = env.get_tricks_won()
    capot = "NS" if tricks_ns == 8 else "EW" if tricks_ew == 8 else None
    outcome = env.deal_outcome()
    deal_ns, deal_ew = env.rewards()
    return {"trick_winners": winners, "card_points": {"NS": int(ns), "EW": int(ew)},
            "announcements": {"NS": 0, "EW": 0}, "belote": belote[0] if belote else None,
            "contract": "made" if outcome[taker % 2] == 1 else "down", "capot": capot,
            "deal_score": {"NS": int(deal_ns), "EW": int(deal_ew)}, "pot": 0}


def kind_score(given: dict[str, Any], family: bool = True) -> dict[str, Any]:
    """A played deal of the family scored by colver: the tricks are handed to ``Env.from_cfn``,
    which replays them (``replay_tricks``), deriving each trick's leader itself."""
    if not family:
        raise CannotExpress("a deal of the classic auction: colver scores contrée only, against a bid")
    dealer = _seat(_field(given, "dealer"))
    taker = _seat(_field(given, "taker"))
    trump = _suit_contract(_field(given, "trump"))
    contract = _contract_cfn(trump, taker, _field(given, "bid"))
    tricks = _field(given, "tricks")
    if not isinstance(tricks, list):
        raise BadGiven("given.tricks must be a list")
    cards = [_cards(_field(trick, "cards")) for trick in tricks]
    if len(cards) != 8 or any(len(trick) != 4 for trick in cards) or len({c for t in cards for c in t}) != 32:
        raise CannotExpress("not 8 tricks of 4 distinct cards: colver scores only complete deals and has no "
                            "rejection for an inconsistent one")
    if given.get("announcements"):
        raise CannotExpress("declarations are given: colver plays without announcements and has no rejection "
                            "for one")
    leader, winners, played_by = (dealer + 1) % 4, [], {}
    for index, (trick, trick_cards) in enumerate(zip(tricks, cards)):
        if _seat(_field(trick, "leader")) != leader:
            raise CannotExpress(f"trick {index + 1} is led by another seat than colver's replay gives: colver "
                                "derives the leaders from the play and has no rejection for a wrong one")
        for offset, card in enumerate(trick_cards):
            played_by[card] = (leader + offset) % 4
        leader = _position(trump, leader, trick_cards).get_trick_lead()
        winners.append(SEATS[leader])
    _check_belote(given.get("belote"), trump, played_by)
    text = "/".join("".join(_cfn_card(card) for card in trick) for trick in cards)
    env = colver.Env.from_cfn(f"{SEATS[(dealer) % 4]}:-/-/-/- {text} {contract}")
    if not env.is_terminal():
        raise RuntimeError("colver did not finish the deal from its 32 cards")
    return _family_score(env, winners, taker)


def _check_belote(belote: Any, trump: int, played_by: dict[int, int]) -> None:
    """colver credits belote by itself to the player of both the king and the queen of trumps
    (``check_belote`` in ``apply_play``) and has no rejection for another seat."""
    if belote is None:
        return
    king, queen = trump * 8 + RANKS.index("K"), trump * 8 + RANKS.index("Q")
    if not (played_by.get(king) == played_by.get(queen) == _seat(belote)):
        raise CannotExpress("belote is announced by a seat that did not play both the king and the queen of "
                            "trumps: colver credits belote by itself and has no rejection for that")



def kind_play(given: dict[str, Any], family: bool = False) -> dict[str, Any]:
    env, rejected, legal, winners = play_through(given)
    if rejected is not None:
        return rejected
    contract = _field(given, "contract")
    if not family:
        raise CannotExpress("colver played the 32 cards, but the result of a whole deal needs its score, and colver "
                            "scores contrée (points faits + points demandés, scoring.rs compute_deal_score): the "
                            "contract is judged against a bid, which the classic auction does not make, and no "
                            "classic scoring value is implemented")
    played_by = {card: seat for seat, cards in enumerate(_cards(given["hands"][s]) for s in SEATS) for card in cards}
    trump = _suit_contract(_field(contract, "trump"))
    _check_belote(given.get("belote"), trump, played_by)
    result: dict[str, Any] = {"trick_winners": winners}
    if given.get("want_legal") is True:
        result["legal"] = legal
    result["score"] = _family_score(env, winners, _seat(_field(contract, "taker")))
    return result


HANDLERS: dict[str, Any] = {"legal_plays": kind_legal_plays, "trick_winner": kind_trick_winner, "play": kind_play,
                            "auction": kind_auction, "score": kind_score}
# The kinds whose answer depends on the auction a deal comes from (the ruleset's bidding.auction).
FAMILY_KINDS = ("auction", "score", "play")


# Every other registry parameter: none can change a legal play, a trick, or a rejection of a play.
OTHER_PARAMETERS = [
    "cards.sequence_order", "table.direction", "deal.shuffle", "deal.cut_min_pile", "deal.first_packets",
    "deal.completion_start", "bidding.round2_allow_turnup_suit", "bidding.all_pass",
    "bidding.trump_seven_exchange", "bidding.turned_jack_forced", "belote.value", "belote.announcement",
    "belote.king_first", "belote.on_chute", "belote.on_capot_against_holder", "announcements.enabled",
    "announcements.values", "announcements.long_sequence", "announcements.carre_beats_equal_sequence",
    "announcements.final_tie", "announcements.carre_order", "announcements.card_reuse", "announcements.declare_at",
    "announcements.show", "announcements.carre_of_sevens", "scoring.last_trick_bonus", "scoring.capot.mode",
    "scoring.capot.last_trick_bonus", "scoring.capot.value", "scoring.capot.defenders_earn_bonus",
    "scoring.capot.loser_announcements", "scoring.contract.test", "scoring.contract.card_threshold",
    "scoring.contract.count_belote", "scoring.contract.count_announcements", "scoring.contract.on_tie",
    "scoring.litige.pot_to", "scoring.litige.belote", "scoring.litige.on_final_deal", "scoring.chute.base",
    "scoring.chute.announcements", "scoring.rounding.mode", "scoring.rounding.final_deal_exact", "game.end",
    "game.target_points", "game.deal_limit", "game.win_when", "game.simultaneous_finish", "game.exact_tie",
    "game.no_win_on_capot_with_belote", "game.count_passed_deals",
    # protocol 3, the bidding family
    "bidding.auction", "deal.bid_packets", "auction.min_bid", "auction.step", "auction.max_bid",
    "auction.capot_value", "auction.bid_target", "auction.coinche_out_of_turn", "auction.coinche_freezes",
    "auction.capot_can_be_doubled", "auction.surcoinche_multiplier", "scoring.bid.must_beat_defenders",
    "scoring.bid.formula", "scoring.bid.base", "scoring.bid.multiplier_applies_to", "scoring.capot_bid.mode",
    "scoring.capot_bid.value", "belote.multiplied", "auction.generale", "scoring.generale.value",
    # Added with protocol 2's registry: none of them changes a legal play or a trick under the
    # partner-master exception colver always applies.
    "deal.completion_packets", "announcements.declared", "play.undertrump_partner_no_exception",
]


# The contrée auction (bidding.rs, read through Env.legal_actions): bids of 80 to 160 by 10 in the
# four suits, a capot bid, coinche on an opponent's last bid (a capot bid included), surcoinche by
# the coinched side that ends the auction, nothing but pass and surcoinche after a coinche, no
# générale and no out-of-turn coinche. Four passes end the deal void and name no next dealer.
AUCTION_PARAMETERS: dict[str, Any] = {
    "bidding.auction": ["bids"],
    "bidding.all_pass": [],
    "auction.min_bid": [80],
    "auction.step": [10],
    "auction.max_bid": [160],
    "auction.coinche_out_of_turn": [False],
    "auction.coinche_freezes": [True],
    "auction.capot_can_be_doubled": [True],
    "auction.surcoinche_multiplier": [3],
    "auction.generale": [False],
    # the classic auction's own parameters: colver has no turned card and no two rounds
    "bidding.round2_allow_turnup_suit": [],
    "bidding.trump_seven_exchange": [],
    "bidding.turned_jack_forced": [],
}
# The contrée score (scoring.rs compute_deal_score; README "The bidding family"): "points faits +
# points demandés", made when the takers' card points and belote reach the bid, whatever the
# defenders count; on a chute the defenders score 162 + the bid + every belote; a coinche or
# surcoinche multiplies the bid only, over 162 (252 after a capot); a capot bid is worth 250 in that
# same formula; nothing rounded; no announcements; belote credited by itself to its player. The
# belote of the losing side is kept when the contract is made and goes to the defenders on a
# chute: no value of belote.on_chute says that, so none is declared.
SCORE_PARAMETERS: dict[str, Any] = {
    "bidding.auction": ["bids"],
    "auction.capot_value": [250],
    # The contracts colver's own auction makes, the only ones its score reads: a surcoinche
    # multiplies by 3 (CFN "xx", scoring.rs "contrat x3"), and a capot bid may be coinched.
    "auction.surcoinche_multiplier": [3],
    "auction.capot_can_be_doubled": [True],
    "auction.bid_target": ["as_spoken"],
    "scoring.bid.must_beat_defenders": [False],
    "scoring.bid.formula": ["points_plus_bid"],
    "scoring.bid.base": [162],
    # the closest value: on a chute colver's base is 162 even when the defenders swept (README)
    "scoring.bid.multiplier_applies_to": ["bid_only"],
    "scoring.capot_bid.mode": ["formula"],
    "belote.multiplied": [False],
    "belote.value": [20],
    "belote.announcement": ["automatic"],
    "belote.king_first": [False],
    "belote.on_chute": [],
    "belote.on_capot_against_holder": ["kept"],
    "announcements.enabled": [False],
    "scoring.contract.count_belote": ["both_sides", "takers_only"],
    "scoring.last_trick_bonus": [10],
    "scoring.capot.mode": ["raised_last_trick"],
    "scoring.capot.last_trick_bonus": [100],
    "scoring.capot.defenders_earn_bonus": [True],
    "scoring.rounding.mode": ["none"],
    # the classic contract test, litige and chute: colver judges every contract against a bid
    "scoring.contract.test": [],
    "scoring.contract.card_threshold": [],
    "scoring.contract.on_tie": [],
    "scoring.litige.pot_to": [],
    "scoring.litige.belote": [],
    "scoring.litige.on_final_deal": [],
    "scoring.chute.base": [],
}


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
    return next((v for prefix, v in PARAMETER_SINCE.items() if parameter_id.startswith(prefix)), 1)


def _of_version(parameters: dict[str, Any], version: int) -> dict[str, Any]:
    return {pid: values for pid, values in parameters.items() if _since(pid) <= version}


def hello(message: dict[str, Any] | None = None) -> dict[str, Any]:
    """The reply to the runner's hello: the negotiated version and that version's kinds and
    claims, or an error line when no version is in common."""
    version = negotiated_version(message or {})
    if version is None:
        offered = (message or {}).get("protocols", (message or {}).get("protocol"))
        return {"errored": True, "message": f"no protocol version in common: the runner offers {offered!r}, "
                f"this adapter speaks {', '.join(map(str, SPOKEN_PROTOCOLS))}"}
    parameters: dict[str, Any] = {parameter_id: "*" for parameter_id in OTHER_PARAMETERS}
    parameters.update(SUPPORTED_PARAMETERS)
    auction = {**parameters, **AUCTION_PARAMETERS}
    score = {**parameters, **SCORE_PARAMETERS}
    # A whole deal of a classic ruleset is only ever rejected or skipped (kind_play): the general
    # claims hold for it; one of the family is scored by colver, so its claims are the score's.
    play = {**score, "bidding.auction": ["turned_card", "bids"], "bidding.all_pass": "*"}
    supports: dict[str, Any] = {"kinds": KINDS_BY_VERSION[version], "rulesets": [],
                                "parameters": _of_version(parameters, version)}
    if version >= 3:  # before version 3 every deal is of the classic auction: the general claims hold
        supports["by_kind"] = {"auction": {"parameters": auction}, "score": {"parameters": score},
                               "play": {"parameters": play}}
    return {
        "protocol": version,
        "implementation": {"name": "colver", "version": COLVER_VERSION, "language": "rust (python bindings)",
                           "homepage": "https://github.com/Avo-k/colver"},
        "supports": supports,
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
        # No check of the ruleset's values: the runner sends a case only when the values of the
        # parameters its answer depends on are among those declared in hello.
        handler = HANDLERS.get(message.get("kind"))  # type: ignore[arg-type]
        if handler is None:
            return {"seq": seq, "skipped": True,
                    "reason": f"kind {message.get('kind')!r}: colver plays contrée (auction, scoring, deal differ)"}
        # The auction a deal comes from is the ruleset's (bidding.auction), never guessed from the
        # given: a deal of the classic auction may carry a bid the classic scoring does not read.
        parameters = (message.get("ruleset") or {}).get("parameters") or {}
        given = message.get("given") or {}
        if message.get("kind") in FAMILY_KINDS:
            return {"seq": seq, "result": handler(given, family=parameters.get("bidding.auction") == "bids")}
        return {"seq": seq, "result": handler(given)}
    except CannotExpress as error:
        return {"seq": seq, "skipped": True, "reason": str(error)}
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # noqa: BLE001 - a Rust panic is a BaseException; never die on a case
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
