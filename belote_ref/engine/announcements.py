"""Announcements (*annonces*): the combinations a hand holds, and the comparison between teams.

FFB-K15, PAGAT. A combination is a sequence (*tierce*, *quarte*, *quinte*: cards of one suit
consecutive in the ruleset's ``cards.sequence_order``) or a *carré* (the four cards of one rank
whose value in ``announcements.values.carre`` is above 0). Every value comes from the ruleset;
nothing here knows a point value.

>>> from belote_ref import CardSet, Suit, find_ruleset
>>> rules = find_ruleset("classic-annonces")
>>> for combination in combinations(rules, Suit.H, CardSet.parse("7C 8C 9C JS JH JD JC AH")):
...     print(combination.to_json())
{'kind': 'carre', 'cards': ['JS', 'JH', 'JD', 'JC'], 'points': 200}
{'kind': 'tierce', 'cards': ['7C', '8C', '9C'], 'points': 20}

Choices of belote-ref where the sources are silent (each documented where it is made):

- A run of six to eight cards is one quinte (``announcements.long_sequence: one_quinte``) whose
  cards are the **top five** of the run; its height is the run's top card. With
  ``quinte_ranked_by_length`` the quinte is the whole run, so that a longer run beats a shorter
  one before their heights are compared (seed 001 read literally; belote-cli).
- With ``announcements.card_reuse: forbidden`` the hand's combinations are the set of disjoint
  combinations with the most points; a run is cut where a kept carré takes one of its cards (what
  is left forms maximal runs again). On equal points the set that keeps more carré points wins.
- Between sequences of equal value, a longer one ranks first (seed 001: "Une séquence plus longue
  est plus forte"); with the shipped values equal value already means equal length.
- With ``announcements.carre_beats_equal_sequence: false`` a carré met by a sequence of equal
  value is ranked "like a sequence": its height is its rank in ``cards.sequence_order`` and it is
  never in trumps. Two carrés are always ranked by ``announcements.carre_order``.
- With ``announcements.final_tie: earlier_declarer`` a team's declaring seat is the earliest seat,
  counted from eldest, that declared a combination equal to its team's best.
- At sans-atout and tout-atout (the contract's trump is ``Trump.SA`` or ``Trump.TA``) the carrés
  take their values from ``sans_atout.carres`` and ``tout_atout.carres``; sequences are formed and
  valued as at a suit contract. The step "a sequence in trumps wins" never parts two sequences
  there: at SA no suit is trumps; at TA every suit is, so the two are equal on that step too and
  ``announcements.final_tie`` decides (belote-ref's reading at TA).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from belote_ref.core.cards import Card, CardSet, Rank, Seat, Suit, Team, Trump
from belote_ref.core.errors import BeloteRefError, NotationError
from belote_ref.rules.ruleset import Ruleset

__all__ = [
    "CARRE",
    "KINDS",
    "QUARTE",
    "QUINTE",
    "SEQUENCE_KINDS",
    "TIERCE",
    "Combination",
    "Declaration",
    "announcement_points",
    "best_team",
    "combinations",
    "compare_combinations",
    "make_combination",
]

# Deliberate copy: the combination kinds as named constants, alike in shape only to play.py's rule ids.
TIERCE: Final = "tierce"
QUARTE: Final = "quarte"
QUINTE: Final = "quinte"
CARRE: Final = "carre"
SEQUENCE_KINDS: Final[tuple[str, ...]] = (TIERCE, QUARTE, QUINTE)
"""Sequence kinds by length: index 0 is 3 cards, index 2 is 5 cards (and, as one quinte, 6 to 8)."""
KINDS: Final[tuple[str, ...]] = (*SEQUENCE_KINDS, CARRE)

_MIN_RUN: Final = 3
_QUINTE_CARDS: Final = 5
_KIND_ORDER: Final = {CARRE: 0, QUINTE: 1, QUARTE: 2, TIERCE: 3}


@dataclass(frozen=True, slots=True)
class Combination:
    """One combination of a hand: ``kind``, its ``cards`` and its ``points`` under a ruleset.

    ``top`` is the combination's height: the rank of its highest card in the ruleset's
    ``cards.sequence_order`` for a sequence, the rank of the four cards for a carré. Build
    combinations with :func:`make_combination` or :func:`combinations`, which check them.
    """

    kind: str
    cards: CardSet
    points: int
    top: Rank

    @property
    def is_sequence(self) -> bool:
        """True for a tierce, quarte or quinte; False for a carré."""
        return self.kind != CARRE

    @property
    def suit(self) -> Suit | None:
        """The suit of a sequence; ``None`` for a carré."""
        if not self.is_sequence:
            return None
        return next(iter(self.cards)).suit

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "cards", "points"}`` with the cards as canonical tokens in canonical order."""
        return {"kind": self.kind, "cards": self.cards.tokens(), "points": self.points}

    def __str__(self) -> str:
        return f"{self.kind} {self.cards} ({self.points})"


@dataclass(frozen=True, slots=True)
class Declaration:
    """A combination declared by ``seat``."""

    seat: Seat
    combination: Combination

    @property
    def team(self) -> Team:
        """The declaring seat's team."""
        return self.seat.team

    def to_json(self) -> dict[str, Any]:
        """``{"seat", "kind", "cards", "points"}``."""
        return {"seat": self.seat.name, **self.combination.to_json()}

    @classmethod
    def from_json(cls, rules: Ruleset, trump: Suit | Trump, data: Mapping[str, Any]) -> Declaration:
        """Read ``{"seat": "N", "kind": "tierce", "cards": [...]}`` (``points`` optional).

        Raises :class:`~belote_ref.core.errors.NotationError` for a bad seat or card token and
        :class:`~belote_ref.core.errors.BeloteRefError` with code ``bad_announcement`` when the cards
        are not a combination of that kind, a card is repeated, or ``points`` is given and wrong.
        """
        if not isinstance(data, Mapping):
            raise BeloteRefError(f"an announcement is {{seat, kind, cards}}; found {data!r}", code="bad_announcement")
        seat_token, kind, tokens = data.get("seat"), data.get("kind"), data.get("cards")
        if not isinstance(seat_token, str):
            raise NotationError(f"announcement: 'seat' must be one of N E S W; found {seat_token!r}")
        seat = Seat.parse(seat_token)
        if not isinstance(kind, str):
            raise BeloteRefError(
                f"announcement of {seat.name}: 'kind' must be a string; found {kind!r}", code="bad_announcement"
            )
        if not isinstance(tokens, list):
            raise BeloteRefError(
                f"announcement of {seat.name}: 'cards' must be a list of card tokens", code="bad_announcement"
            )
        cards = CardSet.parse(tokens)
        if len(cards) != len(tokens):
            raise BeloteRefError(
                f"announcement of {seat.name}: a card is listed twice in {tokens}", code="bad_announcement"
            )
        combination = make_combination(rules, trump, kind, cards)
        points = data.get("points")
        if points is not None and points != combination.points:
            raise BeloteRefError(
                f"announcement of {seat.name}: {combination.kind} {cards} is worth {combination.points}, "
                f"not {points!r}",
                code="bad_announcement",
            )
        return cls(seat, combination)


# ------------------------------------------------------------------------ reading the ruleset


def _sequence_positions(rules: Ruleset) -> dict[Rank, int]:
    """Position of each rank in the sequence order, 0 for the lowest."""
    order = rules.sequence_order
    return {rank: len(order) - 1 - index for index, rank in enumerate(order)}


def _carre_value(rules: Ruleset, trump: Suit | Trump, rank: Rank) -> int:
    """The carré of ``rank`` under the contract: ``announcements.values`` at a suit contract,
    ``sans_atout.carres`` at SA, ``tout_atout.carres`` at TA."""
    return rules.carres[trump][rank]


def _sequence_kind(length: int) -> str:
    """The kind of a run of ``length`` >= 3 cards; 6 to 8 cards count as one quinte."""
    return SEQUENCE_KINDS[min(length, _QUINTE_CARDS) - _MIN_RUN]


def _carre_heights(rules: Ruleset) -> dict[Rank, int]:
    """Height of each rank between carrés, per ``announcements.carre_order`` (higher is better)."""
    if rules.announcements.carre_order == "play_order":
        order = [Rank.parse(letter) for letter in rules.cards.plain_order]
    else:
        order = list(rules.sequence_order)
    return {rank: len(order) - 1 - index for index, rank in enumerate(order)}


# ----------------------------------------------------------------------------- combinations


def _runs(rules: Ruleset, cards: CardSet) -> list[list[Card]]:
    """The maximal runs of at least three cards, each from its lowest card to its highest."""
    order = rules.sequence_order[::-1]  # lowest first
    runs: list[list[Card]] = []
    mask = cards.mask
    for suit in Suit:
        if (mask >> (suit * 8) & 0xFF).bit_count() < _MIN_RUN:  # most suits of a hand: no run to look for
            continue
        run: list[Card] = []
        for rank in order:
            card = Card.of(rank, suit)
            if card in cards:
                run.append(card)
                continue
            if len(run) >= _MIN_RUN:
                runs.append(run)
            run = []
        if len(run) >= _MIN_RUN:
            runs.append(run)
    return runs


def _sequence_of_run(rules: Ruleset, run: list[Card]) -> Combination:
    """The combination of a maximal run: a quinte of its top five cards when it is longer, or of
    the whole run under ``announcements.long_sequence: quinte_ranked_by_length``."""
    kind = _sequence_kind(len(run))
    kept = run if rules.announcements.long_sequence == "quinte_ranked_by_length" else run[-_QUINTE_CARDS:]
    return Combination(kind, CardSet(kept), rules["announcements.values"][kind], kept[-1].rank)


def _carres(rules: Ruleset, trump: Suit | Trump, hand: CardSet) -> list[Combination]:
    found = []
    mask = hand.mask
    for rank, four in zip(Rank, _FOURS, strict=True):
        if mask & four.mask == four.mask:
            value = _carre_value(rules, trump, rank)
            if value > 0:
                found.append(Combination(CARRE, four, value, rank))
    return found


#: The four cards of each rank, in rank order.
_FOURS: Final = tuple(CardSet(Card.of(rank, suit) for suit in Suit) for rank in Rank)


def _sort_key(combination: Combination) -> tuple[int, int, tuple[int, ...]]:
    return (-combination.points, _KIND_ORDER[combination.kind], tuple(combination.cards))


def combinations(rules: Ruleset, trump: Suit | Trump, hand: CardSet | Iterable[int]) -> list[Combination]:
    """The combinations ``hand`` holds under ``rules``, best first.

    Sequences are the maximal runs of three or more cards of one suit in ``cards.sequence_order``
    (a run of six to eight cards is one quinte made of its top five cards). Carrés are the four
    cards of a rank whose carré value under the contract (``announcements.values.carre``,
    ``sans_atout.carres`` at SA, ``tout_atout.carres`` at TA) is above 0; a carré of 8s or 7s
    worth 0 is nothing.

    ``announcements.card_reuse``: ``allowed`` lets a card be in a carré and a sequence;
    ``forbidden`` returns the disjoint set of combinations with the most points, cutting a run
    where a kept carré takes one of its cards (7H 8H 9H TH with the four tens gives the carré and
    the tierce 7H 8H 9H); on equal points the set with more carré points is kept.

    The result is ordered by points (highest first), then carré before quinte, quarte and tierce,
    then by cards in canonical order. ``trump`` changes only the carrés' values (at SA, for
    instance, four aces are 200 and four jacks 100). ``announcements.enabled`` is not checked here.
    """
    hand = hand if isinstance(hand, CardSet) else CardSet(hand)
    carres = _carres(rules, trump, hand)
    if rules.announcements.card_reuse == "allowed":
        found = carres + [_sequence_of_run(rules, run) for run in _runs(rules, hand)]
        return sorted(found, key=_sort_key)
    best: list[Combination] = []
    best_key: tuple[int, int] = (-1, -1)
    for subset in range(1 << len(carres)):
        kept = [carre for index, carre in enumerate(carres) if subset >> index & 1]
        used = CardSet()
        for carre in kept:
            used = used | carre.cards
        found = kept + [_sequence_of_run(rules, run) for run in _runs(rules, hand - used)]
        key = (sum(c.points for c in found), sum(c.points for c in kept))
        if key > best_key:
            best, best_key = found, key
    return sorted(best, key=_sort_key)


def make_combination(rules: Ruleset, trump: Suit | Trump, kind: str, cards: CardSet | Iterable[int]) -> Combination:
    """Check a declared combination and return it with its points under ``rules``.

    A tierce, quarte or quinte must be exactly 3, 4 or 5 cards of one suit, consecutive in
    ``cards.sequence_order`` (a longer run is declared as the quinte of its top five cards). A
    carré must be the four cards of one rank whose carré value under the contract is above 0.

    Raises :class:`~belote_ref.core.errors.BeloteRefError` with code ``bad_announcement`` when the
    kind is unknown or the cards do not form that kind. Only the shape is checked: whether the
    declarer holds the cards, and whether announcements are enabled, is the caller's business.
    """
    cards = cards if isinstance(cards, CardSet) else CardSet(cards)
    shown = str(cards) or "no cards"
    if kind not in KINDS:
        raise BeloteRefError(
            f"unknown announcement kind {kind!r} (expected one of {', '.join(KINDS)})", code="bad_announcement"
        )
    if kind == CARRE:
        ranks = {card.rank for card in cards}
        if len(cards) != 4 or len(ranks) != 1:
            raise BeloteRefError(f"a carre is the four cards of one rank; got {shown}", code="bad_announcement")
        rank = ranks.pop()
        value = _carre_value(rules, trump, rank)
        if value <= 0:
            raise BeloteRefError(
                f"a carre of {rank.letter} is worth {value} in ruleset {rules.id!r} and is not a combination",
                code="bad_announcement",
            )
        return Combination(CARRE, cards, value, rank)
    length = SEQUENCE_KINDS.index(kind) + _MIN_RUN
    if kind == QUINTE and rules.announcements.long_sequence == "quinte_ranked_by_length" and len(cards) > length:
        length = min(len(cards), 8)  # the whole run of six to eight cards is the quinte
    if len(cards) != length:
        raise BeloteRefError(
            f"a {kind} is {length} cards in sequence; got {len(cards)} ({shown})", code="bad_announcement"
        )
    suits = {card.suit for card in cards}
    if len(suits) != 1:
        raise BeloteRefError(f"a {kind} is {length} cards of one suit; got {shown}", code="bad_announcement")
    positions = _sequence_positions(rules)
    ordered = sorted(cards, key=lambda card: positions[card.rank])
    low = positions[ordered[0].rank]
    if any(positions[card.rank] != low + index for index, card in enumerate(ordered)):
        order = " ".join(rank.letter for rank in rules.sequence_order)
        raise BeloteRefError(
            f"a {kind} is {length} consecutive cards in the order {order}; got {shown}", code="bad_announcement"
        )
    return Combination(kind, cards, rules["announcements.values"][kind], ordered[-1].rank)


# ------------------------------------------------------------------------------- comparison


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def compare_combinations(rules: Ruleset, trump: Suit | Trump, a: Combination, b: Combination) -> int:
    """Compare two combinations: 1 if ``a`` is stronger, -1 if ``b`` is, 0 if they are equal.

    Higher point value first (FFB-K15, PAGAT, PARLETT). Between a carré and a sequence of equal value
    the carré wins when ``announcements.carre_beats_equal_sequence`` is true; otherwise both are
    compared like sequences (height in ``cards.sequence_order``, then a sequence in trumps wins).
    Between sequences: the longer, then the higher top card in ``cards.sequence_order``, then the
    one in trumps (never decisive at SA and TA). Between carrés: the higher rank in
    ``announcements.carre_order``.
    """
    if a.points != b.points:
        return _sign(a.points - b.points)
    if not a.is_sequence and not b.is_sequence:
        heights = _carre_heights(rules)
        return _sign(heights[a.top] - heights[b.top])
    if a.is_sequence != b.is_sequence and rules.announcements.carre_beats_equal_sequence:
        return 1 if not a.is_sequence else -1
    if a.is_sequence and b.is_sequence and len(a.cards) != len(b.cards):
        return _sign(len(a.cards) - len(b.cards))
    positions = _sequence_positions(rules)
    if a.top != b.top:
        return _sign(positions[a.top] - positions[b.top])
    return _sign(int(a.suit == trump) - int(b.suit == trump))


def _best_of(rules: Ruleset, trump: Suit | Trump, declarations: list[Declaration]) -> Declaration:
    """The first declaration of a best combination among ``declarations`` (not empty)."""
    best = declarations[0]
    for declaration in declarations[1:]:
        if compare_combinations(rules, trump, declaration.combination, best.combination) > 0:
            best = declaration
    return best


def best_team(rules: Ruleset, trump: Suit | Trump, declarations: Sequence[Declaration], eldest: Seat) -> Team | None:
    """The team whose best combination beats the other team's best, or ``None``.

    FFB-K15, PAGAT, PARLETT; see :func:`compare_combinations`. A team with no declaration cannot
    win. When the two bests are equal, ``announcements.final_tie`` decides: ``annul_all`` gives
    ``None`` (nobody scores announcements); ``earlier_declarer`` gives the team whose declaring
    seat comes first in play order from ``eldest`` (eldest, eldest.next, ...). Returns ``None``
    when nobody declared or ``announcements.enabled`` is false.
    """
    if not rules.announcements.enabled:
        return None
    by_team: dict[Team, list[Declaration]] = {Team.NS: [], Team.EW: []}
    for declaration in declarations:
        by_team[declaration.seat.team].append(declaration)
    if not by_team[Team.NS] or not by_team[Team.EW]:
        for team, own in by_team.items():
            if own:
                return team
        return None
    best = {team: _best_of(rules, trump, own) for team, own in by_team.items()}
    verdict = compare_combinations(rules, trump, best[Team.NS].combination, best[Team.EW].combination)
    if verdict:
        return Team.NS if verdict > 0 else Team.EW
    if rules.announcements.final_tie == "annul_all":
        return None

    def first_seat(team: Team) -> int:
        return min(
            (d.seat - eldest) & 3
            for d in by_team[team]
            if compare_combinations(rules, trump, d.combination, best[team].combination) == 0
        )

    return Team.NS if first_seat(Team.NS) < first_seat(Team.EW) else Team.EW


def announcement_points(
    rules: Ruleset, trump: Suit | Trump, declarations: Sequence[Declaration], eldest: Seat
) -> dict[Team, int]:
    """Announcement points of each team: ``{Team.NS: ..., Team.EW: ...}``.

    FFB-K15, PAGAT, seed 001: only the team chosen by :func:`best_team` scores, and it scores all its
    combinations, both partners', including ones lower than the other team's best; the other team
    scores 0. Both score 0 when nobody wins. When ``announcements.enabled`` is false both score 0;
    callers should reject non-empty ``declarations`` in that case (code ``bad_announcement``).
    Declarations are taken as given: checking them against the hands is the caller's business.
    """
    points = {Team.NS: 0, Team.EW: 0}
    winner = best_team(rules, trump, declarations, eldest)
    if winner is not None:
        points[winner] = sum(d.combination.points for d in declarations if d.seat.team is winner)
    return points
