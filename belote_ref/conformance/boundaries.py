"""Which boundaries of the scoring the corpus reaches: the deals on the edge of a rule.

An engine that judges a rule by the wrong quantity agrees with the reference everywhere except at
the edge: one that calls a capot by card points (a side with 162, or 0) rather than by tricks
passes every deal but one where a side wins every point and not every trick. For each scoring
parameter value, this counts the default cases (``build_cases`` over the shipped rulesets, derived
variants included) of the kinds with a score in their answer (``score``, ``replay``, ``play``)
that sit on each edge the value has:

- ``scoring.capot.mode``: a team wins every trick (a capot); a team wins a trick but no card
  point (no capot, though the other side has every point);
- ``scoring.contract.on_tie``: both teams have the same card points;
- ``scoring.contract.card_threshold`` (under ``scoring.contract.test: card_threshold``): the
  takers' card points exactly the threshold, and one point short of it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from belote_ref.conformance.corpus import Fixture
from belote_ref.conformance.runner import Case, build_cases
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets

__all__ = ["Boundary", "scoring_boundaries"]

_TEAM_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


@dataclass(frozen=True)
class Boundary:
    """One edge of one scoring parameter's value, and how many default cases reach it."""

    parameter: str
    value: Any
    edge: str
    cases: int


def _score_of(case: Case) -> tuple[Mapping[str, Any], str | None] | None:
    """The score part of a case's answer and the takers' team, or None when it has no score."""
    kind, given, expected = case.fixture.kind, case.given, case.expected
    if kind == "play":
        score, taker = expected.get("score"), (given.get("contract") or {}).get("taker")
    elif kind == "score":
        score, taker = expected, given.get("taker")
    elif kind == "replay":
        score, taker = expected, expected.get("taker")
    else:
        return None
    if not isinstance(score, Mapping) or not isinstance(score.get("card_points"), Mapping):
        return None
    return score, _TEAM_OF.get(taker) if isinstance(taker, str) else None


def _edges(case: Case) -> Iterator[tuple[str, str]]:
    """(parameter, edge) for every edge the case's answer sits on."""
    found = _score_of(case)
    if found is None:
        return
    score, takers = found
    params = case.ruleset.params
    points = score["card_points"]
    winners = score.get("trick_winners")
    if isinstance(winners, list) and len(winners) == 8:
        tricks = Counter(_TEAM_OF.get(seat) for seat in winners)
        if any(count == 8 for count in tricks.values()):
            yield "scoring.capot.mode", "a team wins every trick"
        if any(tricks.get(team) and points.get(team) == 0 for team in ("NS", "EW")):
            yield "scoring.capot.mode", "a team wins a trick but no card point"
    if points.get("NS") == points.get("EW"):
        yield "scoring.contract.on_tie", "equal card points"
    threshold = params.get("scoring.contract.card_threshold")
    if takers and params.get("scoring.contract.test") == "card_threshold" and isinstance(threshold, int):
        if points.get(takers) == threshold:
            yield "scoring.contract.card_threshold", "takers exactly at the threshold"
        if points.get(takers) == threshold - 1:
            yield "scoring.contract.card_threshold", "takers one point short"


_EDGES: Mapping[str, tuple[str, ...]] = {
    "scoring.capot.mode": ("a team wins every trick", "a team wins a trick but no card point"),
    "scoring.contract.on_tie": ("equal card points",),
    "scoring.contract.card_threshold": ("takers exactly at the threshold", "takers one point short"),
}


def scoring_boundaries(fixtures: Iterable[Fixture], rulesets: Sequence[Ruleset] | None = None) -> list[Boundary]:
    """For every value the shipped rulesets give each parameter of :data:`_EDGES`, how many default
    cases reach each of its edges (0: a boundary the corpus never tries)."""
    if rulesets is None:
        rulesets = [find_ruleset(ruleset_id) for ruleset_id in shipped_rulesets()]
    registry = load_registry()
    counts: Counter[tuple[str, str, str]] = Counter()
    values: dict[tuple[str, str], Any] = {}
    for ruleset in rulesets:
        for parameter in _EDGES:
            # A value counts only where it is part of the game (no threshold when totals compare).
            if parameter in ruleset.params and registry.applies(parameter, ruleset.params):
                values[(parameter, repr(ruleset.params[parameter]))] = ruleset.params[parameter]
    seen: set[tuple[str, str, str, str]] = set()
    for case in build_cases(fixtures, rulesets, ("score", "replay", "play")):
        for parameter, edge in _edges(case):
            if not registry.applies(parameter, case.ruleset.params):
                continue
            value = repr(case.ruleset.params.get(parameter))
            if (case.id, parameter, value, edge) not in seen:
                seen.add((case.id, parameter, value, edge))
                counts[(parameter, value, edge)] += 1
    return [Boundary(parameter, value, edge, counts[(parameter, key, edge)])
            for (parameter, key), value in sorted(values.items(), key=lambda item: item[0])
            for edge in _EDGES[parameter]]
