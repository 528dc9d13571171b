"""A whole deal checked in parts: a ``play`` case on its tricks alone, where its score is not claimed.

The result of a ``play`` case has two parts. The **tricks** (is every card allowed, the legal
cards of each turn, who wins each trick) depend only on the registry parameters marked
``decides_play``; the **score** depends on the others too. An adapter that claims
``supports.by_kind.play.tricks_alone: true`` is sent a play case whose tricks it claims but whose
score it does not as a case of its own, id ``<fixture>@tricks``: the run message says
``"parts": ["tricks"]``, the ``given`` leaves out what only the score reads (``belote``,
``announcements``, ``pot``), and only ``trick_winners``, ``legal`` and a rejection of the plays
(:data:`PLAY_REJECTIONS`) are compared. A fixture whose expected answer is a rejection of the
score (``bad_belote``, ``bad_announcement``) has no tricks part, nor has a case whose ``given``
carries a revoke (``fault``): which card is let through is the fault's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from belote_ref.rules.registry import load_registry

__all__ = ["PLAY_REJECTIONS", "TRICKS_FIELDS", "TRICKS_VARIANT", "play_dependencies", "tricks_given",
           "tricks_part"]

#: The fields of a ``play`` result that make its tricks part.
TRICKS_FIELDS = ("trick_winners", "legal")
#: The rejections of a ``play`` case that its plays decide, not its score.
PLAY_REJECTIONS = frozenset({"bad_deal", "card_not_in_hand", "illegal_play"})
#: What the id of a case checked on its tricks alone ends with.
TRICKS_VARIANT = "@tricks"
_SCORE_ONLY_GIVEN = ("belote", "announcements", "pot")


def play_dependencies(dependencies: Iterable[str]) -> list[str]:
    """Those of ``dependencies`` that can change the tricks part (``decides_play`` in the registry)."""
    registry = load_registry()
    return [pid for pid in dependencies if pid in registry and registry[pid].decides_play]


def tricks_part(result: Any) -> Any | None:
    """The tricks part of a ``play`` result (expected or received): its ``trick_winners`` and
    ``legal``, or the result itself when it is a rejection of the plays; None for a rejection of
    the score, or for anything that is not a result of that shape (compared whole, it fails as it
    should)."""
    if not isinstance(result, Mapping):
        return None
    rejected = result.get("rejected")
    if rejected is not None:
        code = rejected.get("code") if isinstance(rejected, Mapping) else None
        return dict(result) if code in PLAY_REJECTIONS else None
    return {field: result[field] for field in TRICKS_FIELDS if field in result}


def tricks_given(given: Mapping[str, Any]) -> dict[str, Any]:
    """The ``given`` of a case checked on its tricks alone: what only the score reads left out."""
    return {key: value for key, value in given.items() if key not in _SCORE_ONLY_GIVEN}
