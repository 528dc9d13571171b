"""The score sheet of one deal: its lines, its result, and the context both families' scoring write from.

:mod:`belote_ref.engine.scoring` counts a deal's card points, capot, belote and announcements
into a :class:`DealContext` and judges the contract of the turned-card family;
:mod:`belote_ref.engine.bids.scoring` judges the bidding family's contract from the same context.
Both write :class:`ScoreLine` items on a :class:`Sheet`; :class:`DealScore` is the result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from belote_ref.core.cards import SEATS, Seat, Suit, Team, Trump
from belote_ref.rules.ruleset import Ruleset

__all__ = [
    "POINTS_NOTE",
    "POINTS_RULE",
    "Contract",
    "DealContext",
    "DealScore",
    "ScoreLine",
    "Sheet",
    "Words",
    "convert_points",
]


Contract = Literal["made", "down", "litige", "replay"]
"""The outcome of the contract test: made, down (chute), litige (tie held in the pot) or replay."""


#: The parameter holding a contract's card points, by trump (the suits, then SA and TA).
POINTS_RULE = ("cards.trump_points",) * 4 + ("sans_atout.card_points", "tout_atout.card_points")


POINTS_NOTE = ("card points in the tricks won (cards.trump_points, cards.plain_points)",) * 4 + tuple(
    f"card points in the tricks won ({rule})" for rule in POINTS_RULE[4:])


SEAT_NAMES = tuple(seat.name for seat in SEATS)  # a name by seat number, without the enum's property


class ScoreLine:
    """One item of a deal's score sheet.

    ``points`` is what the line adds to ``team``'s deal score (0 for a line that only explains a
    decision or a loss, negative for a rounding down); ``rule`` is the registry parameter id the
    line comes from; ``note`` says why in words.

    The note is written when it is first read: most sheets (a simulation's, a replay's, a protocol
    answer's) are never read, and writing every note cost a fifth of the scoring. A line may
    therefore be built with a :meth:`str.format` template and its ``arguments``, taken as they are
    when the line is made. Immutable, compared and hashed by the four values, as a frozen dataclass.
    """

    __slots__ = ("_arguments", "_note", "_points", "_rule", "_team")

    def __init__(self, team: Team, points: int, rule: str, note: str, *arguments: object) -> None:
        # Plain slot stores: the read-only properties below make the line immutable, and building
        # one costs a third of what object.__setattr__ on each field cost.
        self._team = team
        self._points = points
        self._rule = rule
        self._note = note
        self._arguments = arguments

    @property
    def team(self) -> Team:
        """The team the line is for."""
        return self._team

    @property
    def points(self) -> int:
        """What the line adds to the team's deal score."""
        return self._points

    @property
    def rule(self) -> str:
        """The registry parameter id the line comes from."""
        return self._rule

    @property
    def note(self) -> str:
        """Why, in words."""
        if self._arguments:
            self._note = self._note.format(*self._arguments)
            self._arguments = ()
        return self._note

    def _key(self) -> tuple[Team, int, str, str]:
        return self.team, self.points, self.rule, self.note

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ScoreLine) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"ScoreLine(team=Team.{self.team.name}, points={self.points!r}, rule={self.rule!r}, note={self.note!r})"


class Words:
    """Words of a note written only when the note is: ``format(Words(function, *arguments))``."""

    __slots__ = ("arguments", "function")

    def __init__(self, function: Callable[..., str], *arguments: object) -> None:
        self.function = function
        self.arguments = arguments

    def __format__(self, spec: str) -> str:
        return format(self.function(*self.arguments), spec)


@dataclass(frozen=True)
class DealScore:
    """The itemised result of one deal, as returned by :func:`score_deal`.

    - ``trick_winners``: the seat that won each of the 8 tricks;
    - ``card_points``: card points plus last-trick bonus per team (the capot value for a team
      that won every trick, 0 for the swept team);
    - ``announcements``: validated announcement points each team is credited before the contract
      test (only the comparison's winner has any);
    - ``belote``: the team credited with belote-rebelote before the contract test, or ``None``
      (what the contract result then does with those points is in ``deal_score`` and ``lines``);
      at a contract with several belote suits (tout-atout) a mapping suit -> team of the belotes
      credited, or ``None`` when there is none;
    - ``contract``: ``made``, ``down``, ``litige`` or ``replay``;
    - ``capot``: the team that won all 8 tricks, or ``None``;
    - ``deal_score``: what each team writes on the sheet for this deal, pot payout and rounding
      included;
    - ``pot``: litige points still held after this deal (unrounded);
    - ``lines``: the score sheet items; per team their points add up to ``deal_score``.
    """

    trick_winners: tuple[Seat, ...]
    card_points: dict[Team, int]
    announcements: dict[Team, int]
    belote: Team | Mapping[Suit, Team] | None
    contract: Contract
    capot: Team | None
    deal_score: dict[Team, int]
    pot: int
    lines: tuple[ScoreLine, ...]

    def __init__(self, trick_winners: tuple[Seat, ...], card_points: dict[Team, int], announcements: dict[Team, int],
                 belote: Team | Mapping[Suit, Team] | None, contract: Contract, capot: Team | None,
                 deal_score: dict[Team, int], pot: int, lines: tuple[ScoreLine, ...]) -> None:
        # Written out: the compiled build compiles this __init__, not the one dataclasses generates
        # (interpreted); tests/test_build.py checks it takes the fields in order with their defaults.
        # object.__setattr__ called by name: the compiled build turns each call into a plain store.
        object.__setattr__(self, "trick_winners", trick_winners)
        object.__setattr__(self, "card_points", card_points)
        object.__setattr__(self, "announcements", announcements)
        object.__setattr__(self, "belote", belote)
        object.__setattr__(self, "contract", contract)
        object.__setattr__(self, "capot", capot)
        object.__setattr__(self, "deal_score", deal_score)
        object.__setattr__(self, "pot", pot)
        object.__setattr__(self, "lines", lines)

    def lines_for(self, team: Team) -> tuple[ScoreLine, ...]:
        """The lines of ``team``, in order."""
        return tuple(line for line in self.lines if line.team is team)

    def to_json(self) -> dict[str, Any]:
        """The protocol's ``score`` result (PROTOCOL.md, kind ``score``).

        ``{"trick_winners": [seats], "card_points": {"NS", "EW"}, "announcements": {...},
        "belote": "EW" | None, "contract": ..., "capot": "NS" | None, "deal_score": {...},
        "pot": int}``; at tout-atout ``"belote"`` is ``{"H": "NS", ...}`` (suits in the order
        S H D C) or ``None``.
        """
        belote: Any
        if isinstance(self.belote, Team):
            belote = self.belote.value
        elif self.belote:
            belote = {suit.letter: team.value for suit, team in sorted(self.belote.items())}
        else:
            belote = None
        card_points, announcements, deal_score = self.card_points, self.announcements, self.deal_score
        return {
            "trick_winners": [SEAT_NAMES[seat] for seat in self.trick_winners],
            "card_points": {"NS": card_points[Team.NS], "EW": card_points[Team.EW]},
            "announcements": {"NS": announcements[Team.NS], "EW": announcements[Team.EW]},
            "belote": belote,
            "contract": self.contract,
            "capot": self.capot.value if self.capot is not None else None,
            "deal_score": {"NS": deal_score[Team.NS], "EW": deal_score[Team.EW]},
            "pot": self.pot,
        }


def convert_points(points: int, scale: tuple[int, int, str]) -> int:
    """``points`` of a deal whose raw total is ``scale[1]``, brought to ``scale[0]`` and rounded
    by ``scale[2]`` (``nearest``: to the nearest point, a half upward)."""
    target, raw_total, _rounding = scale
    return (2 * points * target + raw_total) // (2 * raw_total)


class Sheet:
    """Accumulates score lines and keeps the running deal score of each team."""

    def __init__(self) -> None:
        self.lines: list[ScoreLine] = []
        self.score: dict[Team, int] = {Team.NS: 0, Team.EW: 0}

    def add(self, team: Team, points: int, rule: str, note: str, *arguments: object) -> None:
        """A line; ``note`` is a :meth:`str.format` template when ``arguments`` are given (see
        :class:`ScoreLine`): pass values, never an object changed afterwards."""
        self.lines.append(ScoreLine(team, points, rule, note, *arguments))
        self.score[team] += points


@dataclass(slots=True)
class DealContext:
    rules: Ruleset
    sheet: Sheet
    takers: Team
    defenders: Team
    capot: Team | None
    raw: dict[Team, int]
    card_points: dict[Team, int]
    bel: dict[Team, int]
    ann: dict[Team, int]
    belote_note: str
    last_team: Team
    last_seat: Seat
    trump: Suit | Trump

    def __init__(self, rules: Ruleset, sheet: Sheet, takers: Team, defenders: Team, capot: Team | None,
                 raw: dict[Team, int], card_points: dict[Team, int], bel: dict[Team, int], ann: dict[Team, int],
                 belote_note: str, last_team: Team, last_seat: Seat, trump: Suit | Trump) -> None:
        # Written out: the compiled build compiles this __init__, not the one dataclasses generates
        # (interpreted); tests/test_build.py checks it takes the fields in order with their defaults.
        self.rules = rules
        self.sheet = sheet
        self.takers = takers
        self.defenders = defenders
        self.capot = capot
        self.raw = raw
        self.card_points = card_points
        self.bel = bel
        self.ann = ann
        self.belote_note = belote_note
        self.last_team = last_team
        self.last_seat = last_seat
        self.trump = trump

    def cards(self, team: Team) -> None:
        """Lines for a team's own card points (tricks, then the last-trick bonus or the capot value;
        one converted line when the contract's points are converted)."""
        rules, sheet = self.rules, self.sheet
        scale = rules.scale[self.trump]
        bonus = rules.scoring.last_trick_bonus
        if self.capot is team:
            if rules.scoring.capot.mode == "raised_last_trick":
                whole = f"{self.raw[team]} card points"
                if scale is not None:
                    whole = (f"{self.raw[team]} card points + {bonus} = {self.raw[team] + bonus} converted to "
                             f"{convert_points(self.raw[team] + bonus, scale)} (tout_atout.scale_to) - {bonus}")
                sheet.add(team, self.card_points[team], "scoring.capot.mode",
                          f"capot (raised_last_trick): {whole} + "
                          f"{rules.scoring.capot.last_trick_bonus} (scoring.capot.last_trick_bonus)")
            else:
                sheet.add(team, self.card_points[team], "scoring.capot.mode",
                          f"capot (flat): scoring.capot.value {rules.scoring.capot.value}")
            return
        if scale is not None and self.capot is None:
            target, raw_total, rounding = scale
            last = self.last_team is team
            points = self.raw[team] + (bonus if last else 0)
            counted = f"{self.raw[team]} + dix de der {bonus} = {points}" if last else f"{points}"
            sheet.add(team, self.card_points[team], "tout_atout.scale_to",
                      f"card points in the tricks won (tout_atout.card_points), {counted} of {raw_total}, "
                      f"x {target} / {raw_total} -> {self.card_points[team]} (tout_atout.rounding {rounding})")
            return
        rule = POINTS_RULE[self.trump]
        sheet.add(team, self.raw[team], rule, POINTS_NOTE[self.trump])
        if self.capot is None and self.last_team is team:
            sheet.add(team, bonus, "scoring.last_trick_bonus", "dix de der: trick 8 won by {0.name}", self.last_seat)

    def belote(self, team: Team, note: str = "") -> None:
        """The line for ``team``'s own belote, if it has one."""
        if self.bel[team]:
            self.sheet.add(team, self.bel[team], "belote.value", self.belote_note + (f"; {note}" if note else ""))

    def announcements(self, team: Team) -> None:
        """The line for ``team``'s own validated announcements, if any."""
        if self.ann[team]:
            self.sheet.add(team, self.ann[team], "announcements.values", "validated announcements (won the comparison)")

    def total(self, team: Team) -> None:
        """Lines for a team's own total: cards + own announcements + own belote."""
        self.cards(team)
        self.announcements(team)
        self.belote(team)
