"""The answer of the "May I play this card?" page, computed in the reader's browser by the engine itself.

The page's script (``browser/may_i_play.js``) runs this module under Pyodide and passes the form as
plain strings; :func:`answer` returns plain JSON data, so that nothing but strings and lists cross
between JavaScript and Python. It imports only the engine, never MkDocs: the browser has the
package without the ``docs`` extra.

A house rule (its YAML, as the page "Check my house rules" reads it) may stand for the ruleset: the
ruleset id is then :data:`HOUSE_CHOICE` and the text comes as ``house``.

The trick is typed in the order the cards were played; who led does not matter to what may be
played (only who is partner of whom, which the order gives), so the leader is taken to be North.
"""

from __future__ import annotations

from typing import Any

from belote_ref.core.cards import CardSet, Seat, Trump, parse_cards, trump_of
from belote_ref.core.errors import BeloteRefError
from belote_ref.engine.play import Trick, explain_illegal, legal_plays
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets
from belote_ref.site.check_house_rule import house_ruleset
from belote_ref.site.wording import LANGUAGES

__all__ = ["HOUSE_CHOICE", "answer", "contract_choices", "house_choice", "ruleset_choices"]

#: The ruleset choice that stands for the house rule given as text.
HOUSE_CHOICE = "house"

# The trumps a player may be under, by the contracts of bidding.contracts that bring them.
_CONTRACT_TRUMPS = {"suit": ("H", "S", "D", "C"), "sans_atout": ("SA",), "tout_atout": ("TA",)}


def ruleset_choices() -> list[str]:
    """The ids of the shipped rulesets, classic first."""
    return list(shipped_rulesets())


def contract_choices(rules: Ruleset) -> list[str]:
    """The trumps (``H S D C SA TA``) of the contracts ``rules`` allows (``bidding.contracts``)."""
    return [token for contract in rules["bidding.contracts"] for token in _CONTRACT_TRUMPS[contract]]


def house_choice(house: str) -> dict[str, Any]:
    """``{"title": {lang: text}, "contracts": [trumps]}`` of the house rule ``house``, or
    ``{"error": one line}`` when it is not a valid one."""
    try:
        rules = house_ruleset(house)
    except BeloteRefError as error:
        return {"error": " ".join(str(error).split())}
    return {"title": {lang: rules.title.get(lang) or rules.title.get("en") or rules.id for lang in LANGUAGES},
            "contracts": contract_choices(rules)}


def answer(ruleset_id: str, trump_token: str, trick_text: str, hand_text: str, house: str = "") -> dict[str, Any]:
    """``{"legal": [cards], "illegal": [{"card", "rule", "message"}]}`` for the hand's cards, or
    ``{"error": one line}`` when the situation cannot be read. ``house``: the house rule's text, read
    when ``ruleset_id`` is :data:`HOUSE_CHOICE`."""
    try:
        return _answer(ruleset_id, trump_token, trick_text, hand_text, house)
    except BeloteRefError as error:
        return {"error": " ".join(str(error).split())}


def _answer(ruleset_id: str, trump_token: str, trick_text: str, hand_text: str, house: str) -> dict[str, Any]:
    rules = house_ruleset(house) if ruleset_id == HOUSE_CHOICE else find_ruleset(ruleset_id)
    token = trump_token.strip().upper()
    trump = trump_of(Trump.parse(token))
    if token not in contract_choices(rules):
        raise BeloteRefError(f"{token} is not a contract of {rules.id} "
                             f"(bidding.contracts: {', '.join(rules['bidding.contracts'])})")
    trick_cards = parse_cards(trick_text.upper())
    hand_cards = parse_cards(hand_text.upper())
    if len(trick_cards) > 3:
        raise BeloteRefError(f"a trick holds at most 3 cards before the player's: {len(trick_cards)} given")
    if not hand_cards:
        raise BeloteRefError("the hand is empty: type the player's cards, e.g. 7H QH KD 8C")
    seen: set[int] = set()
    for card in trick_cards + hand_cards:
        if card in seen:
            raise BeloteRefError(f"{card} is given twice")
        seen.add(card)
    hand = CardSet(hand_cards)
    trick = Trick(Seat.N, tuple(trick_cards))
    legal = legal_plays(rules, trump, hand, trick)
    illegal = []
    for card in hand_cards:
        violation = explain_illegal(rules, trump, hand, trick, card)
        if violation is not None:
            illegal.append({"card": str(card), "rule": violation.rule, "message": violation.message})
    return {"legal": [str(card) for card in hand_cards if card in legal], "illegal": illegal}
