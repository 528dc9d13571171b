"""Cards, suits, seats and given values drawn as small pieces of HTML (from the Jinja2 templates)."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

from belote_ref.site.wording import suit_name, t


def _rank(rank: Any) -> str:
    return "10" if str(rank) in ("T", "10") else str(rank)


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


_CARD = re.compile(r"^(10|[789TJQKA])([SHDC])$")


def is_card(token: Any) -> bool:
    return isinstance(token, str) and bool(_CARD.match(token))


def is_cards(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(is_card(v) for v in value)


def card_html(token: str, extra: str = "", badge: str = "") -> str:
    """One card as a small HTML chip: rank and suit symbol, hearts and diamonds in red."""
    match = _CARD.match(token)
    if not match:
        return html.escape(token)
    rank, suit = match.groups()
    colour = "bt-red" if suit in "HD" else "bt-black"
    classes = " ".join(c for c in ("bt-card", colour, extra) if c)
    badge_html = f'<sup class="bt-order">{html.escape(badge)}</sup>' if badge else ""
    return (f'<span class="{classes}" title="{html.escape(token)}">{_rank(rank)}'
            f'<span class="bt-suit">{SUIT_SYMBOLS[suit]}</span>{badge_html}</span>')


def cards_html(tokens: Sequence[str], classes: Mapping[str, str] | None = None) -> str:
    return f'<span class="bt-cards">{"".join(card_html(t, (classes or {}).get(t, "")) for t in tokens)}</span>'


def suit_html(letter: str, lang: str) -> str:
    if letter not in SUIT_SYMBOLS:
        return html.escape(str(letter))
    colour = "bt-red" if letter in "HD" else "bt-black"
    return (f'<span class="bt-suit-name"><span class="bt-trump {colour}">{SUIT_SYMBOLS[letter]}</span> '
            f'{suit_name(letter, lang)}</span>')


def value_html(value: Any, lang: str) -> str:
    """Any given or result value as inline HTML (cards drawn, seats named, the rest as code)."""
    if value is None:
        return f"<em>{t(lang, 'none')}</em>"
    if is_card(value):
        return card_html(value)
    if is_cards(value):
        return cards_html(value)
    if isinstance(value, dict):
        if value and all(k in "NESW" and len(k) == 1 for k in value):
            return " ".join(f'<span class="bt-kv"><b>{k}</b> {value_html(v, lang)}</span>' for k, v in value.items())
        return " ".join(f'<span class="bt-kv"><b>{html.escape(str(k))}</b> {value_html(v, lang)}</span>'
                        for k, v in value.items())
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value):
            return "<br>".join(value_html(v, lang) for v in value)
        if not value:
            return f"<em>{t(lang, 'none')}</em>"
        return ", ".join(value_html(v, lang) for v in value)
    if isinstance(value, bool):
        return f"<code>{'true' if value else 'false'}</code>"
    return f"<code>{html.escape(str(value))}</code>"


def _caption(lang: str, text: str) -> str:
    return f'<p class="bt-caption">{text}</p>'


def _seat_rows(lang: str, hands: Mapping[str, Any]) -> str:
    rows = "".join(f'<tr><th>{html.escape(str(seat))}</th><td>{value_html(cards, lang)}</td></tr>'
                   for seat, cards in hands.items())
    return f'<table class="bt-grid">{rows}</table>'


def _call_html(call: Any, lang: str) -> str:
    if isinstance(call, str) and call in SUIT_SYMBOLS:
        return suit_html(call, lang)
    return f"<code>{html.escape(str(call))}</code>"


def _also_given(given: Mapping[str, Any], used: set[str], lang: str) -> str:
    rest = [(k, v) for k, v in given.items() if k not in used]
    if not rest:
        return ""
    rows = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{value_html(v, lang)}</td></tr>" for k, v in rest)
    return f'<table class="bt-grid bt-also">{rows}</table>'
