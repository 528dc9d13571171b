"""Cards, suits, seats and given values drawn as small pieces of HTML, from the Jinja2 templates of
``templates/``; the notation (R D V, N E S O on French pages) comes from the locale files."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from markupsafe import Markup

from belote_ref.site.value_words import rank_text
from belote_ref.site.wording import given_key, phrases, result_key, suit_name, t

__all__ = [
    "SUIT_SYMBOLS",
    "call_html",
    "caption",
    "card_html",
    "card_name",
    "cards_html",
    "grid_html",
    "hand_html",
    "is_card",
    "is_cards",
    "rank_text",
    "render",
    "seat_letter",
    "suit_html",
    "text_html",
    "value_html",
]

TEMPLATES = Path(__file__).resolve().parent / "templates"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_CARD = re.compile(r"^(10|[789TJQKA])([SHDC])$")
# The characters Markdown or HTML act on: [link](javascript:...), `code`, *emphasis*, {: attributes },
# table cells, quotes that end an attribute, tags and character references.
_ACTIVE = re.compile(r"""[!"#&'()*<>\[\\\]_`{|}~]""")


@cache
def _environment() -> Any:
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    return Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True, undefined=StrictUndefined,
                       keep_trailing_newline=False)


def render(template: str, **context: Any) -> Markup:
    """A template of ``templates/`` rendered on one line (raw HTML inside Markdown may not span blank lines)."""
    text = _environment().get_template(template).render(**context)
    return Markup(re.sub(r"\n\s*", "", text))


def text_html(text: Any) -> Markup:
    """Plain text as HTML that stays plain text inside Markdown too (and inside a Markdown link's quoted
    title): on one line, each character that Markdown or HTML acts on written as a character reference,
    which both read as the character."""
    one_line = " ".join(str(text).split())
    return Markup(_ACTIVE.sub(lambda m: f"&#{ord(m.group(0))};", one_line))


def seat_letter(letter: Any, lang: str = "en") -> str:
    """A seat (N E S W) or a team (NS EW) as the language writes it: O for West in French."""
    text = str(letter)
    return str(phrases(lang)["seat_letters"].get(text) or phrases(lang)["teams"].get(text) or text)


def is_card(token: Any) -> bool:
    return isinstance(token, str) and bool(_CARD.match(token))


def is_cards(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(is_card(v) for v in value)


@lru_cache(maxsize=8192)
def card_html(token: str, extra: str = "", badge: str = "", lang: str = "en") -> Markup:
    """One card as a small HTML chip: rank and suit symbol, hearts and diamonds in red."""
    match = _CARD.match(token)
    if not match:
        return text_html(token)
    rank, suit = match.groups()
    return render("card.html", token=token, rank=rank_text(rank, lang), symbol=SUIT_SYMBOLS[suit], extra=extra,
                  colour="bt-red" if suit in "HD" else "bt-black", badge=badge,
                  name=card_name(token, lang, playable="bt-illegal" not in extra.split()))


@lru_cache(maxsize=1024)
def card_name(token: str, lang: str, playable: bool = True) -> str:
    """A card's name in words, as a screen reader says it: "roi de carreau", and ", ne peut pas être
    joué" after a card the situation forbids (the page shows it only faded and struck through)."""
    match = _CARD.match(token)
    if not match:
        return token
    rank, suit = match.groups()
    words = str(phrases(lang)["rank_names"]["T" if rank == "10" else rank])
    name = t(lang, "card_name", rank=words, suit=suit_name(suit, lang))
    return name if playable else t(lang, "card_not_playable", card=name)


def cards_html(tokens: Sequence[str], classes: Mapping[str, str] | None = None, lang: str = "en") -> Markup:
    return Markup('<span class="bt-cards">{}</span>').format(
        Markup("").join(card_html(token, (classes or {}).get(token, ""), lang=lang) for token in tokens))


@lru_cache(maxsize=64)
def suit_html(letter: str, lang: str) -> Markup:
    if letter not in SUIT_SYMBOLS:
        return text_html(letter)
    return render("suit.html", colour="bt-red" if letter in "HD" else "bt-black", symbol=SUIT_SYMBOLS[letter],
                  name=suit_name(letter, lang))


def hand_html(cards: Sequence[str], lang: str, label: str = "", extra: str = "") -> Markup:
    return render("hand.html", cards=cards_html(cards, lang=lang), label=label, extra=extra)


def grid_html(rows: Sequence[tuple[Any, Any]], extra: str = "") -> Markup:
    return render("grid.html", rows=rows, extra=extra)


def caption(text: Any) -> Markup:
    return Markup('<p class="bt-caption">{}</p>').format(text)


def _kv(key: Any, value: Any, lang: str) -> Markup:
    return Markup('<span class="bt-kv"><b>{}</b> {}</span>').format(result_key(seat_letter(key, lang), lang),
                                                                    value_html(value, lang))


def value_html(value: Any, lang: str) -> Markup:
    """Any given or result value as inline HTML (cards drawn, seats and teams in the language's letters,
    the rest as code)."""
    if value is None:
        return Markup("<em>{}</em>").format(t(lang, "none"))
    if is_card(value):
        return card_html(value, lang=lang)
    if is_cards(value):
        return cards_html(value, lang=lang)
    if isinstance(value, dict):
        return Markup(" ").join(_kv(k, v, lang) for k, v in value.items())
    if isinstance(value, list):
        if not value:
            return Markup("<em>{}</em>").format(t(lang, "none"))
        if all(isinstance(v, dict) for v in value):
            return Markup("<br>").join(value_html(v, lang) for v in value)
        return Markup(", ").join(value_html(v, lang) for v in value)
    if isinstance(value, bool):
        return Markup("<code>{}</code>").format("true" if value else "false")
    if isinstance(value, str) and value in ("N", "E", "S", "W", "NS", "EW"):
        return Markup("<code>{}</code>").format(seat_letter(value, lang))
    word = (phrases(lang).get("result_values") or {}).get(value) if isinstance(value, str) else None
    if word:
        return Markup('<span class="bt-word" title="{}">{}</span>').format(value, word)
    calls = phrases(lang).get("call_words") or {}
    if isinstance(value, str) and (_BID.fullmatch(value) or value.partition(":")[0] in calls):
        return call_html(value, lang)
    return Markup("<code>{}</code>").format(text_html(value))


_BID = re.compile(r"(\d+|[a-z]+)(SA|TA|[SHDC])")  # 80H, capotS, generaleSA


def call_html(call: Any, lang: str) -> Markup:
    """A call of the auction in the language's words ("passe", "80 ♥", "coinche (O)"), the call as the
    protocol writes it on hover; an unknown call as code."""
    if not isinstance(call, str):
        return Markup("<code>{}</code>").format(text_html(call))
    if call in SUIT_SYMBOLS:
        return suit_html(call, lang)
    words = phrases(lang).get("call_words") or {}
    bid = _BID.fullmatch(call)
    if bid:
        amount, contract = bid.groups()
        shown = suit_html(contract, lang) if contract in SUIT_SYMBOLS else text_html(words.get(contract, contract))
        return Markup('<span class="bt-call" title="{}">{} {}</span>').format(call, words.get(amount, amount), shown)
    head, _, seat = call.partition(":")
    if head in words:
        text = words[head] + (f" ({seat_letter(seat, lang)})" if seat else "")
        return Markup('<span class="bt-call" title="{}">{}</span>').format(call, text_html(text))
    return Markup("<code>{}</code>").format(text_html(call))


def seat_rows(lang: str, hands: Mapping[str, Any]) -> Markup:
    return grid_html([(seat_letter(seat, lang), value_html(cards, lang)) for seat, cards in hands.items()])


def also_given(given: Mapping[str, Any], used: set[str], lang: str) -> Markup:
    rest = [(given_key(str(key), lang), value_html(value, lang)) for key, value in given.items() if key not in used]
    return grid_html(rest, "bt-also") if rest else Markup("")
