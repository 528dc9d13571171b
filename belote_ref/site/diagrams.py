"""The card diagram of a fixture's ``given``: a table seen from above, a hand, an auction, the tricks.

The master of a trick is the reference engine's :func:`belote_ref.play.trick_winner`, asked under
every card order the fixture's branches allow; it is marked only when they all agree."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from belote_ref.cards import Seat
from belote_ref.conformance.corpus import Fixture
from belote_ref.rules import find_ruleset
from belote_ref.site.cardhtml import SUIT_SYMBOLS, _also_given, _call_html, _caption, _seat_rows, card_html, cards_html, suit_html
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


def _winner_index(cards: Sequence[str], trump: str, orders: Orders) -> int | None:
    """The index of the card winning ``cards`` so far, when every applicable card order agrees."""
    tokens = [c if len(c) == 2 else "T" + c[-1] for c in cards]
    led = tokens[0][1]
    winners = set()
    for trump_order, plain_order in orders:
        strengths = [100 - trump_order.index(c[0]) if c[1] == trump else
                     50 - plain_order.index(c[0]) if c[1] == led else 0 for c in tokens]
        winners.add(max(range(len(tokens)), key=strengths.__getitem__))
    return winners.pop() if len(winners) == 1 else None


def _table_html(lang: str, trump: str, leader: Seat, cards: Sequence[str], bottom: Seat, orders: Orders,
                to_play: Seat | None = None) -> str:
    """A table seen from above: each seat's card of the trick, the master marked, trump in the centre."""
    master = _winner_index(cards, trump, orders) if cards else None
    played = {leader.__class__((leader + i) & 3): (card, i) for i, card in enumerate(cards)}
    cells = []
    for seat, position in _positions(bottom).items():
        name = html.escape(seat_name(seat.name, lang))
        label = f'<span class="bt-seat-name" title="{name}">{seat.name}</span>'
        if seat in played:
            card, index = played[seat]
            extra = "bt-master" if index == master else ""
            badge = t(lang, "led") if index == 0 else str(index + 1)
            inner = card_html(card, extra, badge)
        elif to_play is not None and seat == to_play:
            inner = f'<span class="bt-card bt-empty">?</span><span class="bt-to-play">{t(lang, "to_play")}</span>'
        else:
            inner = '<span class="bt-card bt-empty">&nbsp;</span>'
        cells.append(f'<div class="bt-seat bt-pos-{position}">{label}{inner}</div>')
    centre = f'<div class="bt-centre">{t(lang, "trump")}<br>{suit_html(trump, lang)}</div>'
    return (f'<div class="bt-table">{"".join(cells)}{centre}</div>'
            f'<p class="bt-caption bt-direction">{t(lang, "direction")}</p>')


def diagram_legal_plays(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    trump, seat = str(given["trump"]), _seat(given["seat"])
    trick = given.get("trick") or {}
    cards = list(trick.get("cards") or [])
    leader = _seat(trick["leader"]) if trick.get("leader") is not None else seat
    parts = [_table_html(lang, trump, leader, cards, seat, orders, to_play=seat)]
    index = _winner_index(cards, trump, orders) if cards else None
    if index is not None:
        master = Seat((leader + index) & 3)
        relation = t(lang, "master_partner" if master == seat.partner else "master_opponent", seat=seat.name)
        parts.append(_caption(lang, t(lang, "master", seat=master.name, card=card_html(cards[index])) + f" ({relation})."))
    elif not cards:
        parts.append(_caption(lang, t(lang, "trick_empty", seat=leader.name)))
    hand = list(given.get("hand") or [])
    parts.append(f'<div class="bt-hand"><span class="bt-label">{t(lang, "hand_of", seat=seat.name)}</span>'
                 f'{cards_html(hand)}</div>')
    return "".join(parts), {"trump", "seat", "trick", "hand"}


def diagram_trick_winner(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    trump = str(given["trump"])
    trick = given["trick"]
    cards = list(trick["cards"])
    leader = _seat(trick["leader"])
    return _table_html(lang, trump, leader, cards, Seat.S, orders), {"trump", "trick"}


def diagram_announcements(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    hand = list(given["hand"])
    label = t(lang, "hand_of", seat=given["seat"]) if given.get("seat") else t(lang, "hand")
    html_ = (f'<p class="bt-caption">{lbl(lang, "trump")}{suit_html(str(given["trump"]), lang)}</p>'
             f'<div class="bt-hand"><span class="bt-label">{html.escape(label)}</span>{cards_html(hand)}</div>')
    return html_, {"trump", "hand", "seat"}


def diagram_auction(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    dealer = _seat(given["dealer"])
    eldest = dealer.next
    calls = list(given.get("calls") or [])
    head = (f'<p class="bt-caption">{lbl(lang, "dealer")}<b>{dealer.name}</b> · {lbl(lang, "eldest")}'
            f'<b>{eldest.name}</b> · {lbl(lang, "turned")}{card_html(str(given["turned"]))}</p>')
    seats = [Seat((eldest + i) & 3) for i in range(4)]
    header = "".join(f"<th>{s.name}</th>" for s in seats)
    rows = []
    for start in range(0, max(len(calls), 1), 4):
        chunk = calls[start:start + 4]
        cells = "".join(f"<td>{_call_html(c, lang)}</td>" for c in chunk) + "<td></td>" * (4 - len(chunk))
        rows.append(f"<tr><th>{t(lang, 'round')} {start // 4 + 1}</th>{cells}</tr>")
    table = f'<table class="bt-grid"><tr><th>{t(lang, "calls")}</th>{header}</tr>{"".join(rows)}</table>'
    return head + table, {"dealer", "turned", "calls"}


def diagram_deal(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    dealer = _seat(given["dealer"])
    deck = list(given["deck"])
    head = (f'<p class="bt-caption">{lbl(lang, "dealer")}<b>{dealer.name}</b> · {lbl(lang, "eldest")}'
            f'<b>{dealer.next.name}</b></p><p class="bt-label">{t(lang, "deck")}</p>')
    cards = "".join(card_html(c, badge=str(i)) for i, c in enumerate(deck))
    return head + f'<div class="bt-hand bt-deck">{cards}</div>', {"dealer", "deck"}


def _tricks_table(lang: str, trump: str, tricks: Sequence[Mapping[str, Any]], orders: Orders) -> str:
    header = "".join(f"<th>{s.name}</th>" for s in Seat)
    rows = []
    for number, trick in enumerate(tricks, 1):
        leader = _seat(trick["leader"])
        cards = list(trick["cards"])
        master = _winner_index(cards, trump, orders) if len(cards) else None
        by_seat: dict[Seat, str] = {}
        for index, card in enumerate(cards):
            extra = "bt-master" if index == master else ""
            by_seat[Seat((leader + index) & 3)] = card_html(card, extra, t(lang, "led") if index == 0 else "")
        cells = "".join(f"<td>{by_seat.get(s, '')}</td>" for s in Seat)
        winner = Seat((leader + master) & 3).name if master is not None else ""
        rows.append(f"<tr><th>{number}</th>{cells}<td><b>{winner}</b></td></tr>")
    return (f'<table class="bt-grid bt-tricks"><tr><th>{t(lang, "trick")}</th>{header}'
            f'<th>{t(lang, "winner")}</th></tr>{"".join(rows)}</table>')


def diagram_score(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    trump = str(given["trump"])
    head = (f'<p class="bt-caption">{lbl(lang, "dealer")}<b>{html.escape(str(given["dealer"]))}</b> · '
            f'{lbl(lang, "taker")}<b>{html.escape(str(given["taker"]))}</b> · {lbl(lang, "trump")}'
            f'{suit_html(trump, lang)}</p>')
    return head + _tricks_table(lang, trump, given["tricks"], orders), {"dealer", "taker", "trump", "tricks"}


def diagram_match(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    parts = []
    for number, deal in enumerate(given["deals"], 1):
        body, used = diagram_score(deal, lang, orders)
        rest = _also_given(deal, used, lang)
        parts.append(f'<p class="bt-label">{t(lang, "deal_n", n=number)}</p>{body}{rest}')
    return "".join(parts), {"deals"}


def diagram_replay(given: Mapping[str, Any], lang: str, orders: Orders) -> tuple[str, set[str]]:
    dealer = _seat(given["dealer"])
    turned = str(given["turned"])
    calls = list(given.get("calls") or [])
    trump = turned[-1]
    for call in calls:
        if isinstance(call, str) and call in SUIT_SYMBOLS:
            trump = call
    head = (f'<p class="bt-caption">{lbl(lang, "dealer")}<b>{dealer.name}</b> · {lbl(lang, "turned")}'
            f'{card_html(turned)} · {lbl(lang, "calls")}{", ".join(_call_html(c, lang) for c in calls)}</p>')
    hands = f'<p class="bt-label">{t(lang, "first_five")}</p>{_seat_rows(lang, given["hands"])}'
    completion = given.get("completion")
    if completion:
        hands += f'<p class="bt-label">{t(lang, "completion")}</p>{_seat_rows(lang, completion)}'
    plays = list(given.get("plays") or [])
    tricks = []
    leader = dealer.next
    for start in range(0, len(plays), 4):
        cards = plays[start:start + 4]
        tricks.append({"leader": leader.name, "cards": cards})
        winner = _winner_index(cards, trump, orders[:1]) if len(cards) == 4 else None
        if winner is not None:
            leader = Seat((leader + winner) & 3)
    body = head + hands
    if tricks:
        body += f'<p class="bt-label">{t(lang, "plays")}</p>' + _tricks_table(lang, trump, tricks, orders)
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
        body = _caption(lang, t(lang, "no_diagram"))
    return f'<div class="bt-diagram">{body}{_also_given(given, used, lang)}</div>'
