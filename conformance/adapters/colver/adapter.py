"""belote-ref protocol adapter (version 1) for colver, the Belote contrée engine on PyPI (Rust core).

    python conformance/adapters/colver/adapter.py

colver plays belote contrée: its auction (80 to 160, capot, coinche), its scoring ("points faits
+ points demandés") and its deal (8 cards at once) are not classic belote, so only the play rules
of a suit contract are checked: ``legal_plays`` and ``trick_winner``. Positions are handed to the
engine in its own notation, CFN (``colver.Env.from_cfn``): the engine replays the cards of the
trick itself (``replay_tricks`` -> ``apply_play``) and answers ``Env.legal_actions`` (its
``legal_plays``), ``Env.get_trick_lead`` (the winner, who leads next) and ``Env.get_points``.

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

PROTOCOL = 1
KINDS = ["legal_plays", "trick_winner"]

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
}
# No other parameter can change a legal play or a trick's winner and points.


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


def kind_legal_plays(given: dict[str, Any]) -> dict[str, Any]:
    trump = _suit(_field(given, "trump"))
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
    trump = _suit(_field(given, "trump"))
    trick = _field(given, "trick")
    leader = _seat(_field(trick, "leader"))
    cards = _cards(_field(trick, "cards"))
    if len(cards) != 4:
        raise BadGiven("trick_winner needs a trick of 4 cards")
    env = _position(trump, leader, cards)
    ns, ew = env.get_points()  # play.rs resolve_trick: the trick's points to the winner's team
    return {"winner": SEATS[env.get_trick_lead()], "points": int(ns + ew)}


HANDLERS = {"legal_plays": kind_legal_plays, "trick_winner": kind_trick_winner}


# Every registry parameter that cannot change a legal play or a trick (ids of registry_version 1).
OTHER_PARAMETERS = [
    "cards.sequence_order", "table.direction", "deal.shuffle", "deal.cut_min_pile", "deal.first_packets",
    "deal.completion_start", "bidding.round2_allow_turnup_suit", "bidding.all_pass", "bidding.contracts",
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
    # Added with protocol 2's registry: none of them changes a legal play or a trick under the
    # partner-master exception colver always applies.
    "deal.completion_packets", "announcements.declared", "play.undertrump_partner_no_exception",
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
