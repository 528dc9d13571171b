"""Coverage of card against card: which pairs of ranks of one suit the corpus ever puts to the test.

A case *decides* the pair of ranks (a, b) under a card order when a and b are the two best cards
of the suit that wins one of its tricks (trumps when a trump was played at a suit contract, else
the suit led) and the trick's winner is part of the case's expected answer: swapping a and b in
the order would then change that answer, so an engine that ranks the two wrongly, or as equal,
fails the case. A pair never decided is a blind spot: an engine in which the plain jack and nine
are of equal strength passes every case that never plays them as the two best of a trick.

The analysis reads every case the runner sends by default (``build_cases`` over the shipped
rulesets, with the derived ``@trump=``, ``@suits=`` and ``@seats`` variants) of the kinds whose
answer names trick winners: ``trick_winner`` (``winner``), ``score`` and ``play`` and ``replay``
(``trick_winners``). A ``legal_plays`` answer names no winner, so its cases decide no pair here.

Each pair is also counted by the order in which its two cards were played: the higher first (an
engine that lets the later of two equal cards win fails it) or the lower first (one that lets the
earlier win fails it). A pair is undecided, a gap of ``conformance coverage --strict``, when no
case decides it in either play order; a pair met in one play order only is listed apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from belote_ref.conformance.corpus import Fixture
from belote_ref.conformance.runner import Case, build_cases
from belote_ref.core.cards import parse_card
from belote_ref.core.errors import NotationError
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets

__all__ = ["PLAY_ORDERS", "OrderCoverage", "card_pair_coverage", "decided_pairs", "format_pair", "tricks_of"]

#: The card orders that rank the cards of a trick, by the contract that uses each: the trump suit
#: and the plain suits at a suit contract, every suit at sans-atout, every suit at tout-atout.
PLAY_ORDERS = ("cards.trump_order", "cards.plain_order", "sans_atout.card_order", "tout_atout.card_order")

_NO_TRUMP, _ALL_TRUMP = "SA", "TA"


@dataclass(frozen=True)
class DecidedPair:
    """One trick that decides a pair: the order's id, the two ranks (higher first) and whether
    the higher of the two was played first."""

    order: str
    higher: str
    lower: str
    higher_first: bool


@dataclass
class OrderCoverage:
    """The pairs of ranks of one value of one card order, and the cases that decide each.

    ``higher_first[pair]`` and ``lower_first[pair]`` count the deciding tricks by which of the two
    cards was played first; a pair is a ``(higher, lower)`` tuple of rank letters.
    """

    order: str
    value: tuple[str, ...]
    higher_first: dict[tuple[str, str], int] = field(default_factory=dict)
    lower_first: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """Every pair of ranks of the order, the higher first, in the order's own sequence."""
        return list(combinations(self.value, 2))

    def cases(self, pair: tuple[str, str]) -> int:
        """How many deciding tricks the pair has, in either play order."""
        return self.higher_first.get(pair, 0) + self.lower_first.get(pair, 0)

    @property
    def decided(self) -> list[tuple[str, str]]:
        """The pairs some case decides."""
        return [pair for pair in self.pairs if self.cases(pair)]

    @property
    def undecided(self) -> list[tuple[str, str]]:
        """The pairs no case decides: the blind spots of the corpus under this order."""
        return [pair for pair in self.pairs if not self.cases(pair)]

    @property
    def one_way(self) -> list[tuple[str, str]]:
        """The decided pairs whose two cards are only ever played in one of the two orders."""
        return [pair for pair in self.decided if not (self.higher_first.get(pair) and self.lower_first.get(pair))]

    def to_json(self) -> dict[str, Any]:
        """The coverage of this order value as ``conformance coverage --json`` prints it: every pair
        (``J>9``) with its deciding tricks by play order, and the undecided pairs."""
        return {
            "order": self.order,
            "value": list(self.value),
            "pairs": [{"pair": format_pair(pair), "higher_first": self.higher_first.get(pair, 0),
                       "lower_first": self.lower_first.get(pair, 0)} for pair in self.pairs],
            "decided": len(self.decided),
            "undecided": [format_pair(pair) for pair in self.undecided],
        }


def format_pair(pair: tuple[str, str]) -> str:
    """``J>9``: the higher rank, then the lower, as the listings name a pair (``T`` is the ten)."""
    return f"{pair[0]}>{pair[1]}"


def _contract_of(case: Case) -> str | None:
    """The contract's trump token (a suit letter, ``SA`` or ``TA``) of a case, where its kind has one."""
    given, expected = case.given, case.expected
    if case.fixture.kind in ("trick_winner", "score"):
        trump = given.get("trump")
    elif case.fixture.kind == "play":
        trump = (given.get("contract") or {}).get("trump")
    elif case.fixture.kind == "replay":
        # The replayed deal's contract is part of its answer, not of its situation.
        trump = expected.get("trump")
    else:
        return None
    return trump if isinstance(trump, str) else None


def tricks_of(case: Case) -> Iterator[tuple[str, list[str]]]:
    """The tricks of ``case`` whose winner its expected answer names: (contract's trump, cards in
    the order played). Tricks of an answer that names no winner (a rejection) yield nothing."""
    kind, given, expected = case.fixture.kind, case.given, case.expected
    trump = _contract_of(case)
    if trump is None:
        return
    if kind == "trick_winner":
        if "winner" in expected and isinstance(given.get("trick"), Mapping):
            yield trump, list(given["trick"].get("cards") or [])
        return
    winners = expected.get("trick_winners")
    if not isinstance(winners, list):
        return
    if kind == "score":
        tricks = [trick.get("cards") or [] for trick in given.get("tricks") or [] if isinstance(trick, Mapping)]
    else:
        plays = list(given.get("plays") or [])
        tricks = [plays[start:start + 4] for start in range(0, len(plays) - len(plays) % 4, 4)]
    for cards in tricks[:len(winners)]:
        yield trump, list(cards)


def decided_pairs(trump: str, cards: Sequence[str], params: Mapping[str, Any]) -> DecidedPair | None:
    """The pair of ranks one complete trick decides under the orders of ``params``, or None when
    fewer than two cards of the winning suit were played."""
    parsed = [_split(token) for token in cards]
    if not parsed:
        return None
    led_suit = parsed[0][1]
    if trump == _NO_TRUMP:
        order_id, suit = "sans_atout.card_order", led_suit
    elif trump == _ALL_TRUMP:
        order_id, suit = "tout_atout.card_order", led_suit
    elif any(card_suit == trump for _, card_suit in parsed):
        order_id, suit = "cards.trump_order", trump
    else:
        order_id, suit = "cards.plain_order", led_suit
    order = params.get(order_id)
    if not isinstance(order, (list, tuple)):
        return None
    strength = {rank: len(order) - index for index, rank in enumerate(order)}
    contenders = [(position, rank) for position, (rank, card_suit) in enumerate(parsed) if card_suit == suit]
    if len(contenders) < 2 or any(rank not in strength for _, rank in contenders):
        return None
    best, second = sorted(contenders, key=lambda contender: strength[contender[1]], reverse=True)[:2]
    return DecidedPair(order_id, best[1], second[1], higher_first=best[0] < second[0])


def _split(token: str) -> tuple[str, str]:
    card = parse_card(token)
    return card.rank.letter, card.suit.letter


def card_pair_coverage(fixtures: Iterable[Fixture], rulesets: Sequence[Ruleset] | None = None) -> list[OrderCoverage]:
    """For every documented value of every card order (:data:`PLAY_ORDERS`), the pairs of ranks the
    cases of ``fixtures`` decide under ``rulesets`` (default: the shipped rulesets), as the
    runner forms them by default, derived variants included."""
    registry = load_registry()
    if rulesets is None:
        rulesets = [find_ruleset(ruleset_id) for ruleset_id in shipped_rulesets()]
    coverages = {(order_id, tuple(value)): OrderCoverage(order_id, tuple(value))
                 for order_id in PLAY_ORDERS for value in registry[order_id].values}
    kinds = ("trick_winner", "score", "play", "replay")
    # One trick counts once per (case id, order value): the same case under two rulesets that
    # share the order decides nothing more.
    seen: set[tuple[str, str, tuple[str, ...], int]] = set()
    for case in build_cases(fixtures, rulesets, kinds):
        for index, (trump, cards) in enumerate(tricks_of(case)):
            decided = _safely_decided(trump, cards, case.ruleset.params)
            if decided is None:
                continue
            value = tuple(case.ruleset.params[decided.order])
            key = (case.id, decided.order, value, index)
            if key in seen:
                continue
            seen.add(key)
            coverage = coverages.setdefault((decided.order, value), OrderCoverage(decided.order, value))
            tally = coverage.higher_first if decided.higher_first else coverage.lower_first
            pair = (decided.higher, decided.lower)
            tally[pair] = tally.get(pair, 0) + 1
    return list(coverages.values())


def _safely_decided(trump: str, cards: Sequence[str], params: Mapping[str, Any]) -> DecidedPair | None:
    # A rejection fixture may hold a malformed card; it decides nothing, and lint reports it.
    try:
        return decided_pairs(trump, cards, params)
    except NotationError:
        return None
