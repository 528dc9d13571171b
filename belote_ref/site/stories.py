"""Each worked example told as a story, in the page's language, from the fixture's data: who dealt,
who took and at what, each trick and who won it (the engine's :func:`~belote_ref.engine.play.trick_winner`),
and for a scored deal the score sheet line by line with the rule behind each line (the engine's
itemised :func:`~belote_ref.engine.scoring.score_deal`, under the first shipped ruleset each answer holds
for). The phrases are in the locale files (``story_*`` keys); the note a fixture's author wrote
(English, or ``note_fr``) is shown beside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from belote_ref.conformance.corpus import Fixture
from belote_ref.core.cards import Seat, Suit, parse_cards
from belote_ref.core.errors import BeloteRefError
from belote_ref.engine.play import Trick, trick_winner
from belote_ref.engine.scoring import score_deal
from belote_ref.protocol.serve import _score_arguments
from belote_ref.rules.ruleset import Ruleset
from belote_ref.site.cardhtml import card_html, cards_html, seat_letter, suit_html
from belote_ref.site.data import SiteData
from belote_ref.site.markup import code, fixture_page, md, param_page, rel, title_of
from belote_ref.site.wording import kind_name, t

__all__ = ["fixture_link", "fixture_title", "story_md"]


def fixture_title(fixture: Fixture, lang: str) -> str:
    """The example's title in ``lang``: its own (``title``, ``title_fr``), else made from its kind and rules."""
    if lang == "en":
        return str(fixture.data["title"])
    own = fixture.data.get(f"title_{lang}")
    if own:
        return str(own)
    rules = [title_of(pid, lang) for pid in fixture.rules[:2]]
    kind = kind_name(fixture.kind, lang)
    kind = kind[:1].upper() + kind[1:]
    return t(lang, "story_title", kind=kind, rules=", ".join(rules)) if rules else kind


def fixture_link(fixture: Fixture, lang: str, path: str) -> str:
    """A Markdown link to the example's page, by its title; a made-up title is followed by the example's id."""
    link = f"[{md(fixture_title(fixture, lang))}]({rel(path, fixture_page(lang, fixture))})"
    if lang != "en" and not fixture.data.get(f"title_{lang}"):
        link += f" {code(fixture.id)}"
    return link


def _seat(value: Any, lang: str) -> str:
    return f"**{md(seat_letter(str(value), lang))}**"


def _play_line(lang: str, leader: Seat, cards: Sequence[str]) -> str:
    plays = [t(lang, "story_plays", seat=_seat(Seat((leader + i) & 3).name, lang), card=card_html(card, lang=lang))
             for i, card in enumerate(cards)]
    return ", ".join(plays)


def _winner(rules: Ruleset, trump: str, leader: Seat, cards: Sequence[str]) -> Seat | None:

    try:
        return trick_winner(rules, Suit.parse(trump), Trick(leader, tuple(parse_cards(list(cards)))))
    except (BeloteRefError, ValueError):
        return None


def _ruleset_for(data: SiteData, fixture: Fixture) -> Ruleset | None:
    """The first shipped ruleset the example applies to (classic first)."""
    for ruleset in data.rulesets:
        if data.branches.get(fixture.id, {}).get(ruleset.id) is not None:
            return ruleset
    return None


def _story_legal_plays(lang: str, given: Mapping[str, Any], rules: Ruleset) -> list[str]:
    seat = Seat.parse(str(given["seat"]))
    trick = given.get("trick") or {}
    cards = list(trick.get("cards") or [])
    out = [t(lang, "story_trump", suit=suit_html(str(given["trump"]), lang))]
    if cards:
        leader = Seat.parse(str(trick["leader"]))
        out.append(_play_line(lang, leader, cards) + ".")
        master = _winner(rules, str(given["trump"]), leader, cards)
        if master is not None:
            key = "story_partner_master" if master == seat.partner else "story_opponent_master"
            out.append(t(lang, key, seat=_seat(master.name, lang)))
    out.append(t(lang, "story_to_play", seat=_seat(seat.name, lang),
                 cards=cards_html(list(given.get("hand") or []), lang=lang)))
    return [" ".join(out)]


def _story_trick(lang: str, given: Mapping[str, Any], rules: Ruleset) -> list[str]:
    trick = given["trick"]
    leader = Seat.parse(str(trick["leader"]))
    out = [
        t(lang, "story_trump", suit=suit_html(str(given["trump"]), lang)),
        _play_line(lang, leader, trick["cards"]) + ".",
    ]
    winner = _winner(rules, str(given["trump"]), leader, trick["cards"])
    if winner is not None:
        out.append(t(lang, "story_trick_won", seat=_seat(winner.name, lang)))
    return [" ".join(out)]


def _story_score(data: SiteData, lang: str, path: str, given: Mapping[str, Any], rules: Ruleset) -> list[str]:
    trump = str(given["trump"])
    out = [t(lang, "story_took", dealer=_seat(given["dealer"], lang), taker=_seat(given["taker"], lang),
             suit=suit_html(trump, lang)), ""]
    tricks = list(given.get("tricks") or [])
    for number, trick in enumerate(tricks, 1):
        leader = Seat.parse(str(trick["leader"]))
        line = t(lang, "story_trick", n=number) + _play_line(lang, leader, trick["cards"])
        winner = _winner(rules, trump, leader, trick["cards"])
        if winner is not None:
            line += " — " + t(lang, "story_trick_won", seat=_seat(winner.name, lang))
        out.append(f"- {line}")
    out.append("")
    try:
        score = score_deal(rules, pot=int(given.get("pot") or 0), **_score_arguments(rules, given))
    except (BeloteRefError, ValueError, TypeError, KeyError):
        return out
    out += [t(lang, "story_sheet", ruleset=f"[{rules.id}]({rel(path, f'{lang}/rulesets/{rules.id}.md')})"), "",
            f"| {t(lang, 'story_team')} | {t(lang, 'points')} | {t(lang, 'rule')} |", "|---|--:|---|"]
    for item in score.lines:
        rule = (f"[{md(title_of(item.rule, lang))}]({rel(path, param_page(data, lang, item.rule))})"
                if item.rule in data.registry.parameters else md(item.rule))
        out.append(f"| {seat_letter(item.team.value, lang)} | {item.points:+d} | {rule} |")
    totals = ", ".join(f"{seat_letter(team.value, lang)} {points}" for team, points in score.deal_score.items())
    out += ["", t(lang, "story_total", totals=totals)]
    return out


def _story_dealt(lang: str, given: Mapping[str, Any]) -> list[str]:
    out = []
    if given.get("dealer") is not None:
        dealer = Seat.parse(str(given["dealer"]))
        out.append(t(lang, "story_dealer", dealer=_seat(dealer.name, lang), eldest=_seat(dealer.next.name, lang)))
    if given.get("turned"):
        out.append(t(lang, "story_turned", card=card_html(str(given["turned"]), lang=lang)))
    if given.get("trump") and isinstance(given.get("hand"), list):
        out.append(t(lang, "story_trump", suit=suit_html(str(given["trump"]), lang)))
        out.append(t(lang, "story_hand", cards=cards_html(list(given["hand"]), lang=lang)))
    return [" ".join(out)] if out else []


def _story_replay(lang: str, given: Mapping[str, Any], rules: Ruleset) -> list[str]:
    out = _story_dealt(lang, given) + [""]
    dealer = Seat.parse(str(given["dealer"]))
    trump = str(given["turned"])[-1]
    for call in given.get("calls") or []:
        if isinstance(call, str) and call in ("S", "H", "D", "C"):
            trump = call
    plays = list(given.get("plays") or [])
    leader = dealer.next
    for number, start in enumerate(range(0, len(plays), 4), 1):
        cards = plays[start:start + 4]
        line = t(lang, "story_trick", n=number) + _play_line(lang, leader, cards)
        winner = _winner(rules, trump, leader, cards) if len(cards) == 4 else None
        if winner is not None:
            line += " — " + t(lang, "story_trick_won", seat=_seat(winner.name, lang))
            leader = winner
        out.append(f"- {line}")
    return out


def story_md(data: SiteData, lang: str, path: str, fixture: Fixture) -> list[str]:
    """The story of the example (Markdown lines), or nothing when its situation is not one the story knows."""
    given = fixture.given if isinstance(fixture.given, Mapping) else {}
    rules = _ruleset_for(data, fixture) or data.classic
    try:
        if fixture.kind == "legal_plays":
            return _story_legal_plays(lang, given, rules)
        if fixture.kind == "trick_winner":
            return _story_trick(lang, given, rules)
        if fixture.kind == "score":
            return _story_score(data, lang, path, given, rules)
        if fixture.kind == "replay":
            return _story_replay(lang, given, rules)
        return _story_dealt(lang, given)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return []
