"""A protocol adapter that makes exactly one of the mistakes real implementations make, for the fuzzer's tests.

    python mistakes.py MODE

Answers with belote-ref's engine (every kind, every ruleset and parameter declared), except:

    eight-as-seven       when spades, diamonds or clubs are trumps, the eight of trumps ranks as the
                         seven (equal: the first played of the two wins the trick; neither beats the
                         other, so holding the eight does not oblige a player to overtrump the seven):
                         trick_winner and legal_plays
    discard-wins         a discard (a card of neither the led suit nor trumps) higher in the plain
                         order than the cards of the led suit wins a trick without trumps: trick_winner
    led-beats-trump      a card of the led suit played after a trump beats it when it is higher in the
                         plain order than the trump's rank there: trick_winner
    belote-not-counted   declares scoring.contract.count_belote: [both_sides] but scores as if it were
                         none (belote never helps the takers make their contract): score, replay, match
    named-kind-trusted   scores a declared sequence by the kind it is named, whatever its length
                         (three cards in sequence declared as a quarte are worth 50): score, replay,
                         match, play
"""

from __future__ import annotations

import sys
from typing import Any

from _loop import answer, serve

SEATS = "NESW"
SUITS_WHERE_EIGHT_IS_SEVEN = ("S", "D", "C")


def _beats(card: str, best: str, led: str, trump: str, parameters: dict[str, Any], mode: str) -> bool:
    """Whether ``card`` takes the trick from ``best`` (the card winning so far), with the mode's mistake."""
    trump_order, plain_order = parameters["cards.trump_order"], parameters["cards.plain_order"]
    rank, suit, best_rank, best_suit = card[0], card[1], best[0], best[1]
    if suit == trump:
        if best_suit != trump:
            return True
        if mode == "eight-as-seven" and trump in SUITS_WHERE_EIGHT_IS_SEVEN and {rank, best_rank} == {"7", "8"}:
            return False  # equal ranks: the first played keeps the trick
        return trump_order.index(rank) < trump_order.index(best_rank)
    if best_suit == trump:
        return mode == "led-beats-trump" and suit == led and plain_order.index(rank) < plain_order.index(best_rank)
    if suit == best_suit:
        return plain_order.index(rank) < plain_order.index(best_rank)
    if mode == "discard-wins":
        return plain_order.index(rank) < plain_order.index(best_rank)
    return False


def trick_winner(message: dict[str, Any], mode: str) -> dict[str, Any] | None:
    reply = answer(message)
    if reply is None or "result" not in reply:
        return reply
    given = message["given"]
    cards, trump = given["trick"]["cards"], given["trump"]
    best = 0
    for position in range(1, 4):
        if _beats(cards[position], cards[best], cards[0][1], trump, message["ruleset"]["parameters"], mode):
            best = position
    reply["result"]["winner"] = SEATS[(SEATS.index(given["trick"]["leader"]) + best) % 4]
    return reply


def legal_plays_eight_as_seven(message: dict[str, Any]) -> dict[str, Any] | None:
    """The reference's answer under a trump order where, of the seven and the eight, the one played
    first ranks just above the other: neither is then "higher" than the one already played."""
    given = message.get("given") or {}
    trump = given.get("trump")
    cards = (given.get("trick") or {}).get("cards") or []
    seven, eight = f"7{trump}", f"8{trump}"
    present = [card for card in cards if card in (seven, eight)]
    if trump in SUITS_WHERE_EIGHT_IS_SEVEN and present:
        parameters = message["ruleset"]["parameters"]
        first = present[0][0]
        other = "8" if first == "7" else "7"
        order = [rank for rank in parameters["cards.trump_order"] if rank != other]
        order.insert(order.index(first) + 1, other)
        parameters["cards.trump_order"] = order
    return answer(message)


def trust_the_named_kind() -> None:
    """Make the engine take a declared run of one suit for the kind it is named, whatever its length."""
    from belote_ref.engine import announcements, scoring
    from belote_ref.core.cards import CardSet
    from belote_ref.core.errors import BeloteRefError

    checked = announcements.make_combination

    def trusting(rules: Any, trump: Any, kind: str, cards: Any) -> Any:
        try:
            return checked(rules, trump, kind, cards)
        except BeloteRefError:
            if kind == "carre":
                raise
            for length_kind in announcements.SEQUENCE_KINDS:
                try:
                    found = checked(rules, trump, length_kind, CardSet(cards))
                except BeloteRefError:
                    continue
                return announcements.Combination(kind, found.cards, rules["announcements.values"][kind], found.top)
            raise

    announcements.make_combination = scoring.make_combination = trusting


def run(message: dict[str, Any], mode: str) -> dict[str, Any] | None:
    """The reply to a message other than hello and stop, with the mode's mistake."""
    kind = message.get("kind")
    if mode == "belote-not-counted":
        parameters = (message.get("ruleset") or {}).get("parameters") or {}
        if parameters.get("scoring.contract.count_belote") == "both_sides":
            parameters["scoring.contract.count_belote"] = "none"
        return answer(message)
    if kind == "trick_winner":
        return trick_winner(message, mode)
    if kind == "legal_plays" and mode == "eight-as-seven":
        return legal_plays_eight_as_seven(message)
    return answer(message)


def main() -> int:
    mode = sys.argv[1]
    if mode == "named-kind-trusted":
        trust_the_named_kind()

    def claim(supports: dict[str, Any]) -> None:
        # The mistakes are in the kinds of protocol 1: the whole-deal kind is not claimed.
        supports["kinds"] = [k for k in supports["kinds"] if k != "play"]
        if mode == "belote-not-counted":
            supports["parameters"]["scoring.contract.count_belote"] = ["both_sides"]

    return serve(f"mistake-{mode}", claim, lambda message: run(message, mode))


if __name__ == "__main__":
    sys.exit(main())
