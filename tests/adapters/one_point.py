"""A protocol adapter that differs from the reference engine in exactly one point.

    python one_point.py MODE

Answers with belote-ref's engine, except:

    all-trumps-as-forced   reads play.undertrump_partner: only_if_hand_is_all_trumps as only_if_forced
    eight-as-seven         trick_winner only: when spades, diamonds or clubs are trumps, the eight
                           of trumps ranks as the seven (equal: the first played of the two wins)
    star-one-value         claims every value of play.must_head_plain_suit but always plays false
    count-belote-none      classic's cards exactly; declares rulesets [classic] and
                           scoring.contract.count_belote: [none], and scores as if none counted
    misspelt               declares a parameter id with a typo (play.undertrump_partnr)
    keeps-played-cards     play kind: never removes a played card from the hand, so a seat's earlier
                           cards are still offered as legal at its later turns
    turned-to-dealer       deal kind: after the take, the turned card goes to the dealer, who passes
                           one of his completion cards to the taker instead
    nothing-declared       declares kinds but no ruleset and no parameter
"""

from __future__ import annotations

import sys
from typing import Any

from _loop import answer, serve


def eight_as_seven(message: dict[str, Any]) -> dict[str, Any] | None:
    reply = answer(message)
    given = message.get("given") or {}
    trump = given.get("trump")
    cards = (given.get("trick") or {}).get("cards") or []
    if reply is None or trump not in ("S", "D", "C") or "result" not in reply:
        return reply
    seven, eight = "7" + trump, "8" + trump
    if seven in cards and eight in cards:
        order = message["ruleset"]["parameters"]["cards.trump_order"]
        higher = [c for c in cards if c[1] == trump and order.index(c[0]) < order.index("8")]
        if not higher:
            leader = "NESW".index(given["trick"]["leader"])
            first = min(cards.index(seven), cards.index(eight))
            reply["result"]["winner"] = "NESW"[(leader + first) % 4]
    return reply


def keeps_played_cards(message: dict[str, Any]) -> dict[str, Any] | None:
    reply = answer(message)
    given = message.get("given") or {}
    if message.get("kind") != "play" or reply is None or "result" not in reply or "legal" not in reply["result"]:
        return reply
    seat = "NESW".index(given["leader"])
    played_by: dict[int, list[str]] = {0: [], 1: [], 2: [], 3: []}
    winners = reply["result"]["trick_winners"]
    legal = reply["result"]["legal"]
    for turn, card in enumerate(given["plays"]):
        if turn % 4 == 0 and turn:
            seat = "NESW".index(winners[turn // 4 - 1])
        player = (seat + turn % 4) % 4
        legal[turn] = sorted(set(legal[turn]) | set(played_by[player]), key=str)
        played_by[player].append(card)
    return reply


def turned_to_dealer(message: dict[str, Any]) -> dict[str, Any] | None:
    reply = answer(message)
    given = message.get("given") or {}
    taker, dealer = given.get("taker"), given.get("dealer")
    if message.get("kind") != "deal" or reply is None or "result" not in reply or taker is None or taker == dealer:
        return reply
    first = answer({**message, "given": {key: value for key, value in given.items() if key != "taker"}})
    assert first is not None
    turned = first["result"]["turned"]
    hands = reply["result"]["hands"]
    given_back = next(card for card in hands[dealer] if card not in first["result"]["hands"][dealer])
    hands[taker] = [card for card in hands[taker] if card != turned] + [given_back]
    hands[dealer] = [card for card in hands[dealer] if card != given_back] + [turned]
    return reply


def run(message: dict[str, Any], mode: str) -> dict[str, Any] | None:
    """The reply to a message other than hello and stop, differing in the mode's point."""
    parameters = (message.get("ruleset") or {}).get("parameters") or {}
    if mode == "all-trumps-as-forced" and parameters.get("play.undertrump_partner") == "only_if_hand_is_all_trumps":
        parameters["play.undertrump_partner"] = "only_if_forced"
    if mode == "star-one-value":
        parameters["play.must_head_plain_suit"] = False
    if mode == "count-belote-none":
        parameters["scoring.contract.count_belote"] = "none"
    if mode == "eight-as-seven":
        return eight_as_seven(message)
    if mode == "keeps-played-cards":
        return keeps_played_cards(message)
    if mode == "turned-to-dealer":
        return turned_to_dealer(message)
    return answer(message)


def main() -> int:
    mode = sys.argv[1]

    def claim(supports: dict[str, Any]) -> None:
        if mode == "eight-as-seven":
            supports["kinds"] = ["trick_winner"]
        if mode == "count-belote-none":
            supports.update(rulesets=["classic"], parameters={"scoring.contract.count_belote": ["none"]})
        if mode == "misspelt":
            supports["parameters"]["play.undertrump_partnr"] = supports["parameters"].pop("play.undertrump_partner")
        if mode == "nothing-declared":
            supports.update(rulesets=[], parameters={})

    return serve(f"one-point-{mode}", claim, lambda message: run(message, mode))


if __name__ == "__main__":
    sys.exit(main())
