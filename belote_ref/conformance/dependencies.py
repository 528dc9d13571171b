"""The parameters a fixture's result depends on: named by the fixture, checked with the engine.

A case is sent to an adapter when the adapter claims the values of the parameters the case
depends on (:mod:`~belote_ref.conformance.applicability`). That set is the fixture's ``rules``
(what it exercises) and its ``depends_on`` (what else its answer needs: a card order, the value of
belote...). Lint makes the set a tested fact: under every assignment of the values its predicates
name (:func:`~belote_ref.conformance.branches.assignments`), the reference engine's answer must
stay the same when any other outcome parameter takes another value documented in the registry.
A parameter that changes it is an undeclared dependency, reported with the value that showed it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from belote_ref.conformance.branches import assignments
from belote_ref.conformance.corpus import AUCTION_PARAMETER, Fixture, canonical_result
from belote_ref.core.errors import BeloteRefError
from belote_ref.protocol.serve import run_case
from belote_ref.rules.registry import Registry, load_registry
from belote_ref.rules.ruleset import Ruleset

__all__ = ["dependencies_of", "undeclared_dependencies"]


def dependencies_of(fixture: Fixture) -> tuple[str, ...]:
    """The parameters the fixture declares its result depends on: ``rules`` then ``depends_on``."""
    declared = [*fixture.rules, *(fixture.data.get("depends_on") or ())]
    return tuple(dict.fromkeys(declared))


_RULESETS: dict[tuple[str, str, str], Ruleset | None] = {}


def _variant(base: Ruleset, parameter_id: str, value: Any) -> Ruleset | None:
    # The base's key (its id and every value) and the one change name the variant.
    key = (base._key, parameter_id, json.dumps(value, sort_keys=True))
    if key not in _RULESETS:
        try:
            _RULESETS[key] = base.with_parameter(parameter_id, value)
        except BeloteRefError:
            _RULESETS[key] = None
    return _RULESETS[key]


def _answer(rules: Ruleset, fixture: Fixture) -> Any:

    try:
        return canonical_result(fixture.kind, run_case(rules, fixture.kind, fixture.given))
    except BeloteRefError as error:
        return ("error", error.code)


def undeclared_dependencies(fixture: Fixture, registry: Registry | None = None) -> Iterator[tuple[str, Any, str]]:
    """``(parameter, value, assignment label)`` for each outcome parameter the fixture does not
    name whose documented ``value`` changes the engine's answer under that assignment."""
    registry = registry or load_registry()
    declared = set(dependencies_of(fixture))
    reported: set[str] = set()
    for assignment in assignments(fixture):
        if assignment.ruleset is None or fixture.expected(assignment.ruleset) is None:
            continue
        base = assignment.ruleset
        answer = _answer(base, fixture)
        for parameter_id, parameter in registry.parameters.items():
            if not parameter.outcome or parameter_id in declared or parameter_id in reported:
                continue
            for value in parameter.values:
                if type(value) is type(base.params[parameter_id]) and value == base.params[parameter_id]:
                    continue
                other = _variant(base, parameter_id, value)
                if other is None or (parameter_id == AUCTION_PARAMETER and fixture.auction_family is not None):
                    # A fixture of the classic auction never applies to the bidding family.
                    continue
                if _answer(other, fixture) != answer:
                    reported.add(parameter_id)
                    yield parameter_id, value, assignment.label
                    break
