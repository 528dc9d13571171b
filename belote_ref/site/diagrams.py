"""The card diagram of a fixture's ``given``: a table seen from above, a hand, an auction, the tricks.

The master of a trick is the reference engine's :func:`belote_ref.engine.play.trick_winner`, asked under
every card order the fixture's branches allow; it is marked only when they all agree."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from markupsafe import Markup

from belote_ref.conformance.corpus import Fixture
from belote_ref.core.cards import Seat, Suit, parse_cards
from belote_ref.engine.play import Trick, trick_winner
from belote_ref.rules.ruleset import Ruleset, find_ruleset
from belote_ref.site.cardhtml import (
    SUIT_SYMBOLS,
    also_given,
    call_html,
    caption,
    card_html,
    hand_html,
    render,
    seat_letter,
    seat_rows,
    suit_html,
)
from belote_ref.site.wording import lbl, seat_name, t


def _seat(value: Any) -> Seat:
    return Seat.parse(str(value))


def _positions(bottom: Seat) -> dict[Seat, str]:
    """Where each seat is drawn: ``bottom`` at the bottom and play going counterclockwise (classic)."""
    return {bottom: "bottom", bottom.next: "right", bottom.next.next: "top", bottom.next.next.next: "left"}


Orders = list[tuple[tuple[str, ...], tuple[str, ...]]]


def _order_options(wanted: Any, default: Sequence[str]) -> list[tuple[str, ...]]:
    """The card orders a predicate entry allows (``one_of`` gives several); the default when it names none."""
    options = wanted["one_of"] if isinstance(wanted, Mapping) and "one_of" in wanted else [wanted]
    found = []
    for option in options:
        if isinstance(option, list):
            ranks = tuple("T" if str(r) in ("10", "T") else str(r) for r in option)
            if sorted(ranks) == sorted("789TJQKA"):
                found.append(ranks)
    return found or [tuple(default)]


def card_orders(fixture: Fixture) -> Orders:
    """Every (trump order, plain order) under which one of the fixture's branches applies."""
    classic = find_ruleset("classic")
    orders: Orders = []
    for branch in fixture.data.get("expect") or [{}]:
        predicate = {**(fixture.data.get("applies_to") or {}), **((branch or {}).get("when") or {})}
        for trump in _order_options(predicate.get("cards.trump_order"), classic["cards.trump_order"]):
            for plain in _order_options(predicate.get("cards.plain_order"), classic["cards.plain_order"]):
                if (trump, plain) not in orders:
                    orders.append((trump, plain))
    return orders


@cache
def _orders_ruleset(trump_order: tuple[str, ...], plain_order: tuple[str, ...]) -> Ruleset:
    """Classic with these card orders: the rules the engine judges a drawn trick by."""
    classic = find_ruleset("classic")
    if tuple(classic["cards.trump_order"]) == trump_order and tuple(classic["cards.plain_order"]) == plain_order:
        return classic
    return Ruleset.from_parameters({**classic.params, "cards.trump_order": list(trump_order),
                                    "cards.plain_order": list(plain_order)})


def _winner_index(cards: Sequence[str], trump: str, orders: Orders) -> int | None:
    """The index of the card winning ``cards`` so far (the engine's :func:`~belote_ref.engine.play.trick_winner`),
    when every applicable card order agrees."""
    trick = Trick(Seat.N, tuple(parse_cards([c if len(c) == 2 else "T" + c[-1] for c in cards])))
    winners = {(trick_winner(_orders_ruleset(*order), Suit.parse(trump), trick) - Seat.N) & 3 for order in orders}
    return winners.pop() if len(winners) == 1 else None


def _table_html(lang: str, trump: str, leader: Seat, cards: Sequence[str], bottom: Seat, orders: Orders,
                to_play: Seat | None = None) -> Markup:
    """A table seen from above: each seat's card of the trick, the master marked, trump in the centre."""
    master = _winner_index(cards, trump, orders) if cards else None
    played = {Seat((leader + i) & 3): (card, i) for i, card in enumerate(cards)}
    seats = []
    for seat, position in _positions(bottom).items():
        card = None
        if seat in played:
            token, index = played[seat]
            badge = t(lang, "led") if index == 0 else str(index + 1)
            card = card_html(token, "bt-master" if index == master else "", badge, lang)
        seats.append({"position": position, "name": seat_name(seat.name, lang), "letter": seat_letter(seat.name, lang),
                      "card": card, "to_play": to_play is not None and seat == to_play})
    return render("table.html", seats=seats, to_play=t(lang, "to_play"), trump_word=t(lang, "trump"),
                  trump=suit_html(trump, lang), direction=t(lang, "direction"))


def _facts(lang: str, *pairs: tuple[str, Any]) -> Markup:
    """A caption of facts: ``Dealer: N · Eldest: E``."""
    return caption(Markup(" · ").join(Markup("{}<b>{}</b>").format(lbl(lang, key), value) for key, value in pairs))


def diagram_legal_plays(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    trump, seat = str(given["trump"]), _seat(given["seat"])
    trick = given.get("trick") or {}
    cards = list(trick.get("cards") or [])
    leader = _seat(trick["leader"]) if trick.get("leader") is not None else seat
    parts = [_table_html(lang, trump, leader, cards, seat, orders, to_play=seat)]
    index = _winner_index(cards, trump, orders) if cards else None
    me = seat_letter(seat.name, lang)
    if index is not None:
        master = Seat((leader + index) & 3)
        relation = t(lang, "master_partner" if master == seat.partner else "master_opponent", seat=me)
        parts.append(caption(Markup(t(lang, "master", seat=seat_letter(master.name, lang),
                                      card=card_html(cards[index], lang=lang))) + f" ({relation})."))
    elif not cards:
        parts.append(caption(t(lang, "trick_empty", seat=seat_letter(leader.name, lang))))
    parts.append(hand_html(list(given.get("hand") or []), lang, t(lang, "hand_of", seat=me)))
    return "".join(parts), {"trump", "seat", "trick", "hand"}


def diagram_trick_winner(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    trump = str(given["trump"])
    trick = given["trick"]
    return _table_html(lang, trump, _seat(trick["leader"]), list(trick["cards"]), Seat.S, orders), {"trump", "trick"}


def diagram_announcements(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    label = t(lang, "hand_of", seat=seat_letter(given["seat"], lang)) if given.get("seat") else t(lang, "hand")
    body = (caption(Markup("{}{}").format(lbl(lang, "trump"), suit_html(str(given["trump"]), lang)))
            + hand_html(list(given["hand"]), lang, label))
    return body, {"trump", "hand", "seat"}


def diagram_auction(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    dealer = _seat(given["dealer"])
    eldest = dealer.next
    calls = list(given.get("calls") or [])
    head = _facts(lang, ("dealer", seat_letter(dealer.name, lang)), ("eldest", seat_letter(eldest.name, lang)),
                  ("turned", card_html(str(given["turned"]), lang=lang)))
    rows = []
    for start in range(0, max(len(calls), 1), 4):
        chunk = [call_html(c, lang) for c in calls[start:start + 4]]
        rows.append(chunk + [""] * (4 - len(chunk)))
    table = render("auction.html", calls_word=t(lang, "calls"), round_word=t(lang, "round"), rows=rows,
                   seat_letters=[seat_letter(Seat((eldest + i) & 3).name, lang) for i in range(4)])
    return head + table, {"dealer", "turned", "calls"}


def diagram_deal(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    dealer = _seat(given["dealer"])
    head = _facts(lang, ("dealer", seat_letter(dealer.name, lang)), ("eldest", seat_letter(dealer.next.name, lang)))
    cards = Markup("").join(card_html(c, badge=str(i), lang=lang) for i, c in enumerate(given["deck"]))
    deck = Markup('<p class="bt-label">{}</p><div class="bt-hand bt-deck">{}</div>').format(t(lang, "deck"), cards)
    return head + deck, {"dealer", "deck"}


def _tricks_table(lang: str, trump: str, tricks: Sequence[Mapping[str, Any]], orders: Orders) -> Markup:
    rows = []
    for number, trick in enumerate(tricks, 1):
        leader = _seat(trick["leader"])
        cards = list(trick["cards"])
        master = _winner_index(cards, trump, orders) if len(cards) else None
        by_seat: dict[Seat, Markup] = {}
        for index, card in enumerate(cards):
            by_seat[Seat((leader + index) & 3)] = card_html(card, "bt-master" if index == master else "",
                                                            t(lang, "led") if index == 0 else "", lang)
        winner = seat_letter(Seat((leader + master) & 3).name, lang) if master is not None else ""
        rows.append({"number": number, "cells": [by_seat.get(s, "") for s in Seat], "winner": winner})
    return render("tricks.html", trick_word=t(lang, "trick"), winner_word=t(lang, "winner"), rows=rows,
                  seat_letters=[seat_letter(s.name, lang) for s in Seat])


def diagram_score(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    trump = str(given["trump"])
    head = _facts(lang, ("dealer", seat_letter(given["dealer"], lang)), ("taker", seat_letter(given["taker"], lang)),
                  ("trump", suit_html(trump, lang)))
    return head + _tricks_table(lang, trump, given["tricks"], orders), {"dealer", "taker", "trump", "tricks"}


def diagram_match(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    parts = []
    for number, deal in enumerate(given["deals"], 1):
        body, used = diagram_score(deal, lang, orders)
        parts.append(Markup('<p class="bt-label">{}</p>').format(t(lang, "deal_n", n=number)) + Markup(body)
                     + also_given(deal, used, lang))
    return "".join(parts), {"deals"}


def diagram_replay(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    dealer = _seat(given["dealer"])
    turned = str(given["turned"])
    calls = list(given.get("calls") or [])
    trump = turned[-1]
    for call in calls:
        if isinstance(call, str) and call in SUIT_SYMBOLS:
            trump = call
    head = _facts(lang, ("dealer", seat_letter(dealer.name, lang)), ("turned", card_html(turned, lang=lang)),
                  ("calls", Markup(", ").join(call_html(c, lang) for c in calls)))
    label = Markup('<p class="bt-label">{}</p>')
    body = head + label.format(t(lang, "first_five")) + seat_rows(lang, given["hands"])
    if given.get("completion"):
        body += label.format(t(lang, "completion")) + seat_rows(lang, given["completion"])
    plays = list(given.get("plays") or [])
    tricks = []
    leader = dealer.next
    for start in range(0, len(plays), 4):
        cards = plays[start:start + 4]
        tricks.append({"leader": leader.name, "cards": cards})
        winner = _winner_index(cards, trump, orders[:1]) if len(cards) == 4 else None
        if winner is not None:
            leader = Seat((leader + winner) & 3)
    if tricks:
        body += label.format(t(lang, "plays")) + _tricks_table(lang, trump, tricks, orders)
    return body, {"dealer", "turned", "calls", "hands", "completion", "plays"}


DIAGRAMS = {
    "legal_plays": diagram_legal_plays,
    "trick_winner": diagram_trick_winner,
    "announcements": diagram_announcements,
    "auction": diagram_auction,
    "deal": diagram_deal,
    "score": diagram_score,
    "match": diagram_match,
    "replay": diagram_replay,
}


def diagram(fixture: Fixture, lang: str) -> str:
    """The card diagram of a fixture's ``given`` (raw HTML); any shape the drawing does not know is listed."""
    given = fixture.given if isinstance(fixture.given, Mapping) else {}
    drawer = DIAGRAMS.get(fixture.kind)
    body, used = "", set[str]()
    if drawer is not None:
        try:
            body, used = drawer(given, lang, card_orders(fixture))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            body, used = "", set()
    if not body:
        body = caption(t(lang, "no_diagram"))
    return f'<div class="bt-diagram">{body}{also_given(given, used, lang)}</div>'
