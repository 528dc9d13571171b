"""belote-ref protocol adapter (version 2) for colver, the Belote contrée engine on PyPI (Rust core).

    python conformance/adapters/colver/adapter.py

colver plays belote contrée: its auction (80 to 160, capot, coinche), its scoring ("points faits
+ points demandés") and its deal (8 cards at once) are not classic belote, so what is checked is
the play of a suit contract: ``legal_plays``, ``trick_winner`` and, from protocol 2, whole deals
under a given contract (``play``). Positions are handed to the engine in its own notation, CFN
(``colver.Env.from_cfn``): the engine replays the cards of the trick itself (``replay_tricks`` ->
``apply_play``) and answers ``Env.legal_actions`` (its ``legal_plays``), ``Env.get_trick_lead``
(the winner, who leads next) and ``Env.get_points``. A whole deal is played card by card with
``Env.step``; colver's score of it is a contrée score, which the ``play`` result cannot carry, so
a deal that colver plays out to the end is answered ``skipped`` and only its rejections (a card
not in hand, an illegal play) are results. colver has no sans-atout or tout-atout contract.

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

PROTOCOL = 2
KINDS = ["legal_plays", "trick_winner", "play"]

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
    side = "NS" if taker % 2 == 0 else "EW"
    env = colver.Env.from_cfn(f"{dealer}:{'/'.join(_cfn_hand(h) for h in hands)} - 80{SUITS[trump].lower()}{side}")
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


def kind_play(given: dict[str, Any]) -> dict[str, Any]:
    _, rejected, _, _ = play_through(given)
    if rejected is not None:
        return rejected
    raise CannotExpress("colver played the 32 cards, but the result of a whole deal needs its score, and colver "
                        "scores contrée (points faits + points demandés, scoring.rs compute_deal_score): the "
                        "contract is judged against a bid value the play kind does not carry, and no classic "
                        "scoring value is implemented")


HANDLERS = {"legal_plays": kind_legal_plays, "trick_winner": kind_trick_winner, "play": kind_play}


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
]


def hello() -> dict[str, Any]:
    parameters: dict[str, Any] = {parameter_id: "*" for parameter_id in OTHER_PARAMETERS}
    parameters.update(SUPPORTED_PARAMETERS)
    return {
        "protocol": PROTOCOL,
        "implementation": {"name": "colver", "version": COLVER_VERSION, "language": "rust (python bindings)",
                           "homepage": "https://github.com/Avo-k/colver"},
        "supports": {"kinds": KINDS, "rulesets": [], "parameters": parameters},
    }


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    command = message.get("cmd")
    if command == "hello":
        return hello()
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
        return {"seq": seq, "result": handler(message.get("given") or {})}
    except CannotExpress as error:
        return {"seq": seq, "skipped": True, "reason": str(error)}
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # noqa: BLE001 - a Rust panic is a BaseException; never die on a case
        traceback.print_exc(file=sys.stderr)
        return {"seq": seq, "errored": True, "message": f"{type(error).__name__}: {error}"}


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
