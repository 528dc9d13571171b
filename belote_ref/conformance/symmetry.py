"""Derived cases: a hand fixture with its suits renamed or its seats rotated.

The rules of Belote name no suit and no seat: exchanging two suits everywhere (the trump among
them) or turning every seat one place round the table gives a situation whose answer is the old
one renamed the same way. A fixture written with hearts as trumps thus also checks the three other
trump suits, and a fixture led by North checks a deal led by East. A derived case inherits its
expected result from the hand fixture by the same renaming; ``tests/test_symmetry.py`` proves on
the reference engine that the renaming preserves answers.

Variants, each with its label (the case id is ``<fixture id>@<label>``):

- ``trump=X`` for each suit X other than the fixture's trump: the trump suit and X exchanged;
- ``seats+1``: every seat one place on (N->E->S->W->N), so the teams NS and EW exchange too;
- ``suits=XXXX`` at sans-atout and tout-atout, where no suit is trumps over another (SA) or every
  suit is (TA), so that every suit plays the same part: the four suits renamed by a permutation,
  S H D C becoming the letters of the label in turn (``suits=HDCS``: spades to hearts, hearts to
  diamonds, ...), in every card and in the keys of the tout-atout belotes.

Only the kinds whose ``given`` and ``result`` are fully understood here are derived.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from belote_ref.core.errors import InternalError

__all__ = ["SUIT_PERMUTATIONS", "SYMMETRIC_KINDS", "permute_suits", "rotate_seats", "swap_suits", "variants"]

SUITS = "SHDC"
#: The suit renamings derived at SA and TA: one cycle of the four suits and one that reverses them.
SUIT_PERMUTATIONS = ("HDCS", "CDHS")
SEATS = "NESW"
SYMMETRIC_KINDS = ("legal_plays", "trick_winner", "announcements", "score")

Rename = Callable[[Any], Any]


def _card_renamer(suits: Mapping[str, str]) -> Rename:
    def rename(token: Any) -> Any:
        if isinstance(token, str) and len(token) == 2 and token[1] in suits:
            return token[0] + suits[token[1]]
        return token

    return rename


def _cards(tokens: Any, rename: Rename) -> Any:
    return [rename(t) for t in tokens] if isinstance(tokens, list) else tokens


def _trick(trick: Any, card: Rename, seat: Rename) -> Any:
    if not isinstance(trick, Mapping):
        return trick
    out = dict(trick)
    if "leader" in out:
        out["leader"] = seat(out["leader"])
    if "cards" in out:
        out["cards"] = _cards(out["cards"], card)
    return out


def _teams(value: Any, team: Rename) -> Any:
    if isinstance(value, Mapping) and set(value) <= {"NS", "EW"}:
        return {team(key): points for key, points in value.items()}
    return value


def _rename(kind: str, given: Mapping[str, Any], result: Mapping[str, Any], card: Rename, suit: Rename,
            seat: Rename, team: Rename) -> tuple[dict[str, Any], dict[str, Any]]:
    new_given = dict(given)
    new_result = dict(result)
    if "trump" in new_given:
        new_given["trump"] = suit(new_given["trump"])
    for key in ("hand",):
        if key in new_given:
            new_given[key] = _cards(new_given[key], card)
    for key in ("seat", "dealer", "taker", "belote"):
        if new_given.get(key) is not None:
            new_given[key] = seat(new_given[key])
    if isinstance(new_given.get("belote"), Mapping):  # tout-atout: suit -> announcing seat
        new_given["belote"] = {suit(key): seat(holder) for key, holder in new_given["belote"].items()}
    if isinstance(new_given.get("fault"), Mapping) and "by" in new_given["fault"]:
        new_given["fault"] = {**new_given["fault"], "by": seat(new_given["fault"]["by"])}
    if "trick" in new_given:
        new_given["trick"] = _trick(new_given["trick"], card, seat)
    if isinstance(new_given.get("tricks"), list):
        new_given["tricks"] = [_trick(t, card, seat) for t in new_given["tricks"]]
    if isinstance(new_given.get("announcements"), list):
        new_given["announcements"] = [
            {**a, "seat": seat(a.get("seat")), "cards": _cards(a.get("cards"), card)} if isinstance(a, Mapping) else a
            for a in new_given["announcements"]
        ]
    if "rejected" in new_result:
        return new_given, new_result
    if kind == "legal_plays" and "legal" in new_result:
        new_result["legal"] = _cards(new_result["legal"], card)
    if kind == "trick_winner" and "winner" in new_result:
        new_result["winner"] = seat(new_result["winner"])
    if kind == "announcements" and isinstance(new_result.get("combinations"), list):
        new_result["combinations"] = [
            {**c, "cards": _cards(c.get("cards"), card)} if isinstance(c, Mapping) else c
            for c in new_result["combinations"]
        ]
    if kind == "score":
        if isinstance(new_result.get("trick_winners"), list):
            new_result["trick_winners"] = [seat(s) for s in new_result["trick_winners"]]
        for key in ("card_points", "announcements", "deal_score"):
            if key in new_result:
                new_result[key] = _teams(new_result[key], team)
        if new_result.get("next_dealer") is not None:  # a misdeal's answer
            new_result["next_dealer"] = seat(new_result["next_dealer"])
        for key in ("belote", "capot", "barred"):
            if isinstance(new_result.get(key), Mapping):  # tout-atout belotes: suit -> team
                new_result[key] = {suit(s): team(holder) for s, holder in new_result[key].items()}
            elif new_result.get(key) is not None:
                new_result[key] = team(new_result[key])
    return new_given, new_result


def _identity(value: Any) -> Any:
    return value


def swap_suits(kind: str, given: Mapping[str, Any], result: Mapping[str, Any], a: str,
               b: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """``given`` and ``result`` with the suits ``a`` and ``b`` exchanged everywhere."""
    suits = {s: s for s in SUITS} | {a: b, b: a}

    def suit(token: Any) -> Any:
        return suits.get(token, token) if isinstance(token, str) else token

    return _rename(kind, given, result, _card_renamer(suits), suit, _identity, _identity)


def permute_suits(kind: str, given: Mapping[str, Any], result: Mapping[str, Any],
                  order: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """``given`` and ``result`` with the suits S H D C renamed ``order[0]``, ``order[1]``, ... (a
    permutation of ``SHDC``) everywhere: cards, suits, the keys of the tout-atout belotes."""
    if sorted(order) != sorted(SUITS):
        raise InternalError(f"not a permutation of {SUITS}: {order!r}")
    suits = dict(zip(SUITS, order, strict=True))

    def suit(token: Any) -> Any:
        return suits.get(token, token) if isinstance(token, str) else token

    return _rename(kind, given, result, _card_renamer(suits), suit, _identity, _identity)


def rotate_seats(kind: str, given: Mapping[str, Any], result: Mapping[str, Any],
                 steps: int = 1) -> tuple[dict[str, Any], dict[str, Any]]:
    """``given`` and ``result`` with every seat ``steps`` places on (and, for an odd number of
    steps, the teams NS and EW exchanged)."""

    def seat(token: Any) -> Any:
        if isinstance(token, str) and token in SEATS:
            return SEATS[(SEATS.index(token) + steps) % 4]
        return token

    def team(token: Any) -> Any:
        if steps % 2 and token in ("NS", "EW"):
            return "EW" if token == "NS" else "NS"
        return token

    return _rename(kind, given, result, _identity, _identity, seat, team)


def variants(kind: str, given: Mapping[str, Any],
             result: Mapping[str, Any]) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Every derived ``(label, given, result)`` of a hand fixture's case (none for other kinds)."""
    if kind not in SYMMETRIC_KINDS:
        return
    trump = given.get("trump")
    if isinstance(trump, str) and trump in SUITS:
        for other in SUITS:
            if other != trump:
                yield (f"trump={other}", *swap_suits(kind, given, result, trump, other))
    elif trump in ("SA", "TA"):
        for order in SUIT_PERMUTATIONS:
            yield (f"suits={order}", *permute_suits(kind, given, result, order))
    if kind != "announcements":
        yield ("seats+1", *rotate_seats(kind, given, result))
