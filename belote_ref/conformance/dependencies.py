"""The parameters a fixture's result depends on: named by the fixture, checked with the engine.

A case is sent to an adapter when the adapter claims the values of the parameters the case
depends on (:mod:`~belote_ref.conformance.applicability`). That set is the fixture's ``rules``
(what it exercises) and its ``depends_on`` (what else its answer needs: a card order, the value of
belote...). Lint makes the set a tested fact: under every assignment of the values its predicates
name (:func:`~belote_ref.conformance.branches.assignments`), the reference engine's answer must
stay the same when any other outcome parameter takes another value: one documented in the
registry, an integer across its valid range, an alternative table for a parameter with a single
documented value (:func:`trial_values`), a parameter not in play together with the one that puts
it in play. A parameter that changes it is an undeclared dependency, reported with the value that
showed it.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from typing import Any

from belote_ref.conformance.branches import assignments
from belote_ref.conformance.corpus import AUCTION_PARAMETER, Fixture, canonical_result, compare_results
from belote_ref.core.errors import BeloteRefError
from belote_ref.protocol.serve import run_case
from belote_ref.rules.predicates import same_value
from belote_ref.rules.registry import Parameter, Registry, load_registry
from belote_ref.rules.ruleset import Ruleset

__all__ = ["dependencies_of", "trial_values", "undeclared_dependencies", "unpinned_dependencies"]


def dependencies_of(fixture: Fixture) -> tuple[str, ...]:
    """The parameters the fixture declares its result depends on: ``rules`` then ``depends_on``."""
    declared = [*fixture.rules, *(fixture.data.get("depends_on") or ())]
    return tuple(dict.fromkeys(declared))


# The variants most recently compiled, the oldest dropped first (about 17 KB each, their play tables
# shared): fixtures met in folder order share their bases, and keeping every compiled variant held
# the whole corpus's lint at gigabytes.
_RULESETS: OrderedDict[tuple[str, str], Ruleset | None] = OrderedDict()
_RULESETS_KEPT = 4096


def _variant(base: Ruleset, changes: tuple[tuple[str, Any], ...]) -> Ruleset | None:
    # The base's key (its id and every value) and the changes name the variant.
    key = (base._key, json.dumps(changes, sort_keys=True))
    if key in _RULESETS:
        _RULESETS.move_to_end(key)
        return _RULESETS[key]
    variant: Ruleset | None
    try:
        ruleset = base
        for parameter_id, value in changes:
            ruleset = ruleset.with_parameter(parameter_id, value)
        variant = ruleset
    except BeloteRefError:
        variant = None
    _RULESETS[key] = variant
    if len(_RULESETS) > _RULESETS_KEPT:
        _RULESETS.popitem(last=False)
    return variant


def valid_trial_values(parameter: Parameter) -> list[Any]:
    """The values of :func:`trial_values` a house rule may set: the documented ones and an integer
    anywhere in its range, not the tables invented only to show that an answer needs a parameter."""
    return trial_values(parameter, invented=False)


def trial_values(parameter: Parameter, invented: bool = True) -> list[Any]:
    """The values lint tries for ``parameter``: the documented ones; for an integer also its bounds,
    the middle of its range and each documented value's neighbours (a capot of 300 is a valid house
    rule though no ruleset ships it); for a table with one documented value (a card order, a
    points table), an alternative, so that a parameter with one documented value is a dependency
    too when the answer needs it."""
    values = list(parameter.values)
    if parameter.type == "int" and parameter.minimum is not None and parameter.maximum is not None:
        low, high = parameter.minimum, parameter.maximum
        values += [low, high, (low + high) // 2]
        values += [v + step for v in parameter.values for step in (-1, 1)
                   if isinstance(v, int) and low <= v + step <= high]
    elif not invented:
        pass
    elif len(values) == 1 and parameter.type == "rank_order" and isinstance(values[0], list):
        order = list(values[0])
        values += [order[1:2] + order[:1] + order[2:], order[:-2] + order[-1:] + order[-2:-1]]
    elif len(values) == 1 and parameter.type == "rank_points" and isinstance(values[0], dict):
        # Two ranks' points swapped: the suit's total, which the pack's total needs, is kept.
        ranked = sorted(values[0], key=lambda rank: -values[0][rank])
        for first, second in ((ranked[0], ranked[1]), (ranked[1], ranked[2])):
            values.append({**values[0], first: values[0][second], second: values[0][first]})
    unique: list[Any] = []
    for value in values:
        if not any(same_value(value, seen) for seen in unique):
            unique.append(value)
    return unique


def _enabling(registry: Registry, parameter_id: str, params: Mapping[str, Any]) -> tuple[str, Any] | None:
    """The change that puts ``parameter_id`` in play under ``params`` (its unmet ``applies_when``
    entry set to a value that meets it), when one change does; None when it is in play already."""
    unmet = registry.unmet(parameter_id, params)
    if unmet is None:
        return None
    enabler, wanted = unmet
    options = list(wanted["one_of"]) if isinstance(wanted, Mapping) and "one_of" in wanted else [wanted]
    return (enabler, options[0]) if options and not isinstance(options[0], Mapping) else None


def _answer(rules: Ruleset, fixture: Fixture) -> Any:

    try:
        return canonical_result(fixture.kind, run_case(rules, fixture.kind, fixture.given))
    except BeloteRefError as error:
        return ("error", error.code)


def undeclared_dependencies(fixture: Fixture, registry: Registry | None = None) -> Iterator[tuple[str, Any, str]]:
    """``(parameter, value, assignment label)`` for each outcome parameter the fixture does not
    name whose ``value`` changes the engine's answer under that assignment.

    The values tried are :func:`trial_values`. A parameter that is not in play under the
    assignment (its ``applies_when`` unmet: ``announcements.declared`` where announcements are
    off) is tried with the parameter that enables it set too, against the answer with that one
    alone: the answer may depend on the two together and on neither alone. The label then ends
    with the enabling change (``...; with announcements.enabled=true``)."""
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
            if parameter_id == AUCTION_PARAMETER and fixture.auction_family is not None:
                # A fixture of the classic auction never applies to the bidding family.
                continue
            enabling = _enabling(registry, parameter_id, base.params)
            before: tuple[tuple[str, Any], ...] = (enabling,) if enabling is not None else ()
            reference = answer
            if before:
                enabled = _variant(base, before)
                if enabled is None or fixture.expected(enabled) is None:
                    # Where the enabling value makes the fixture not apply (it pins another), the
                    # parameter it would put in play never reaches the fixture's cases.
                    continue
                reference = _answer(enabled, fixture)
            for value in trial_values(parameter):
                if same_value(value, base.params[parameter_id]):
                    continue
                other = _variant(base, (*before, (parameter_id, value)))
                if other is None or fixture.expected(other) is None:
                    # Nor does a value under which the fixture does not apply (a given contract
                    # off that ruleset's ladder of bids: Fixture.fits_bids).
                    continue
                if _answer(other, fixture) != reference:
                    reported.add(parameter_id)
                    yield parameter_id, value, _label(assignment.label, enabling)
                    break


def _label(assignment: str, enabling: tuple[str, Any] | None) -> str:
    """The assignment a finding was made under, with the change that put the parameter in play."""
    if enabling is None:
        return assignment
    return f"{assignment}; with {enabling[0]}={json.dumps(enabling[1])}".lstrip("; ")


def _pinned(fixture: Fixture) -> set[str]:
    """The parameters the fixture's ``applies_to`` or a branch's ``when`` names."""
    predicates = [fixture.data.get("applies_to") or {},
                  *(branch.get("when") or {} for branch in fixture.data["expect"])]
    return {parameter_id for predicate in predicates for parameter_id in predicate}


def unpinned_dependencies(fixture: Fixture, registry: Registry | None = None) -> Iterator[tuple[str, Any, str]]:
    """``(parameter, value, assignment label)`` for each parameter the fixture names as a dependency
    but pins nowhere (no ``applies_to``, no ``when``), under whose ``value`` the fixture still applies
    while its expected answer is wrong: naming a dependency without pinning it says the answer holds
    for every value a house rule may set (:func:`valid_trial_values`; a threshold of 0 or of 162 too).

    The first such value is reported per parameter; the fix is to pin the values the answer holds
    under in ``applies_to`` (``{one_of: [...]}``) or to give the other values a branch."""
    registry = registry or load_registry()
    unpinned = [pid for pid in dependencies_of(fixture) if pid not in _pinned(fixture) and pid in registry.parameters]
    reported: set[str] = set()
    for assignment in assignments(fixture):
        if assignment.ruleset is None or fixture.expected(assignment.ruleset) is None:
            continue
        base = assignment.ruleset
        for parameter_id in unpinned:
            if parameter_id in reported:
                continue
            enabling = _enabling(registry, parameter_id, base.params)
            before: tuple[tuple[str, Any], ...] = (enabling,) if enabling is not None else ()
            for value in valid_trial_values(registry.parameters[parameter_id]):
                other = _variant(base, (*before, (parameter_id, value)))
                expected = None if other is None else fixture.expected(other)
                if other is None or expected is None:
                    continue
                if _differs(other, fixture, expected):
                    reported.add(parameter_id)
                    yield parameter_id, value, _label(assignment.label, enabling)
                    break


def _differs(rules: Ruleset, fixture: Fixture, expected: Any) -> bool:
    try:
        got = run_case(rules, fixture.kind, fixture.given)
    except BeloteRefError:
        return True
    return bool(compare_results(fixture.kind, expected, got))
