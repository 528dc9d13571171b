"""The safety net of applicability: a case the corpus does not settle under its ruleset is n/a.

A case is sent under a ruleset R only if its expected answer is the right answer under R. The
fixtures' predicates (``applies_to``, ``when``) say so for the shipped rulesets, which the corpus
is checked against, and for the values lint and the self-consistency sweep
(:mod:`~belote_ref.conformance.sweep`) have tried. Under any other ruleset (a house rule, a
branch assignment of ``--every-branch``) the runner asks the reference engine, in-process, whether
the fixture's expected answer holds under R; where it does not, the case is reported n/a with
:data:`UNSETTLED_REASON` instead of a failure that would be the corpus's fault, not the adapter's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from belote_ref.conformance.corpus import compare_results
from belote_ref.core.errors import BeloteRefError
from belote_ref.protocol.serve import run_case
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets

__all__ = ["UNSETTLED_REASON", "is_shipped_as_is", "unsettled_reason"]

UNSETTLED_REASON = "the corpus does not settle this case under this ruleset"


@cache
def _shipped_values() -> frozenset[str]:
    return frozenset(json.dumps(dict(find_ruleset(r).params), sort_keys=True) for r in shipped_rulesets())


def is_shipped_as_is(ruleset: Ruleset) -> bool:
    """Whether ``ruleset`` plays every value of some shipped ruleset (whatever its id)."""
    return json.dumps(dict(ruleset.params), sort_keys=True) in _shipped_values()


def unsettled_reason(ruleset: Ruleset, kind: str, given: Mapping[str, Any], expected: Any,
                     part: Callable[[Any], Any] | None = None) -> str | None:
    """:data:`UNSETTLED_REASON` when ``ruleset`` is not shipped as-is and the reference engine's
    answer to the case differs from ``expected`` (or the engine refuses the situation); else None.
    ``part`` takes the part of the answer that ``expected`` holds (a play case's tricks). A shipped
    ruleset is never judged this way: there a disagreement is a failure to be fixed."""
    if is_shipped_as_is(ruleset):
        return None
    try:
        got = run_case(ruleset, kind, given)
    except BeloteRefError:
        return UNSETTLED_REASON
    if part is not None:
        got = part(got)
    return UNSETTLED_REASON if compare_results(kind, expected, got) else None
