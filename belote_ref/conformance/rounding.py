"""Derived cases: a hand fixture worked out without rounding, sent to a ruleset that rounds.

``scoring.rounding.mode`` rounds each team's deal score last, when everything else is counted: it
never decides the contract, the litige pot stays unrounded, and in the bidding family it rounds
"each team's score afterwards" (the registry's texts). The answer of a fixture worked out with
``scoring.rounding.mode: none`` is therefore also the answer under a ruleset that rounds each team's
score on its own, every ``deal_score`` rounded by that mode. Most hand fixtures of scores are worked
out unrounded (their arithmetic is then plain), while the shipped rulesets of the coinche family
all round to the ten: derived this way, those fixtures reach them.

The modes derived round each team's score alone: ``nearest_10_half_up`` (a 5 goes up),
``nearest_10_six_up`` (a 5 goes down) and ``nearest_5``. ``complement_160`` gives the defenders
the rest of 160 and is not derived. Neither is a deal given as the last of a match
(``final_deal``), where ``scoring.rounding.final_deal_exact`` may keep it exact.

The case id is ``<fixture id>@rounding=<mode>``. The rounding below is written from the
registry's words, not taken from the engine; ``tests/test_rounding_cases.py`` proves on the
reference engine that every derived case holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from belote_ref.conformance.corpus import Fixture
    from belote_ref.rules.ruleset import Ruleset

__all__ = ["ROUNDED_KINDS", "ROUNDINGS", "rounded_expectation"]

ROUNDING_PARAMETER = "scoring.rounding.mode"
#: The kinds whose result holds a deal's score: ``deal_score`` in it, or in its ``score`` (play).
ROUNDED_KINDS = ("score", "replay", "play")
#: Each mode that rounds a team's score alone, as the registry's ``explain`` words it.
ROUNDINGS: Mapping[str, Callable[[int], int]] = {
    "nearest_10_half_up": lambda points: (points + 5) // 10 * 10,  # to the nearest ten, 5 up
    "nearest_10_six_up": lambda points: (points + 4) // 10 * 10,  # to the nearest ten, 5 down, 6 up
    "nearest_5": lambda points: (points + 2) // 5 * 5,  # to the nearest multiple of five
}


def rounded_expectation(fixture: Fixture, ruleset: Ruleset) -> tuple[str, Mapping[str, Any]] | None:
    """``(variant, expected)`` of ``fixture`` under ``ruleset`` derived from its unrounded answer,
    or None when it is not derived: another kind or provenance, a ruleset whose rounding is not one
    of :data:`ROUNDINGS`, a deal given as the last of a match, a deal ended on a fault (its forfeit
    is never rounded: :mod:`belote_ref.engine.faults`), or a fixture that would not apply under
    ``ruleset`` with ``scoring.rounding.mode: none`` either.

    Call it for a fixture that does not apply under ``ruleset`` itself: one that does keeps its own
    expectation.
    """
    mode = str(ruleset.params.get(ROUNDING_PARAMETER))
    if fixture.provenance != "hand" or fixture.kind not in ROUNDED_KINDS or mode not in ROUNDINGS:
        return None
    if fixture.given.get("final_deal") or fixture.given.get("fault"):
        return None
    unrounded = fixture.expected_under({**ruleset.params, ROUNDING_PARAMETER: "none"})
    if unrounded is None:
        return None
    return f"@rounding={mode}", rounded_result(fixture.kind, unrounded, mode)


def rounded_result(kind: str, result: Mapping[str, Any], mode: str) -> dict[str, Any]:
    """``result`` of a ``kind`` with each team's ``deal_score`` rounded by ``mode`` (a rejection,
    which no rounding changes, as it is)."""
    rounded = dict(result)
    if kind == "play" and isinstance(result.get("score"), Mapping):
        rounded["score"] = rounded_result("score", result["score"], mode)
    elif isinstance(result.get("deal_score"), Mapping):
        round_points = ROUNDINGS[mode]
        rounded["deal_score"] = {team: round_points(points) for team, points in result["deal_score"].items()}
    return rounded
