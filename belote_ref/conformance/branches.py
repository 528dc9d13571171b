"""Every branch of every fixture, each under a ruleset generated to reach it.

A fixture states its answer for several rule values: ``expect`` branches with ``when`` predicates,
each value of a ``one_of`` an option of its own. The shipped rulesets reach only some of them. For
``belote-ref conformance run --every-branch`` each fixture runs once per *assignment*: one value
for every parameter its ``applies_to`` and ``when`` predicates name, every ``one_of`` option
taken in turn. The generated ruleset is classic with that assignment; the expected result is the
fixture's answer under it. This is how an adapter's claim of ``"*"`` (or of a list of values) is
held to account: the cases apply only where the adapter claims the assigned values.

A case's id is ``<fixture id>#<parameter>=<value>,...``; its ruleset id is
:data:`BRANCH_RULESET_ID` (the parameters travel with it, as for every case).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from belote_ref.conformance.corpus import Fixture
from belote_ref.core.errors import RulesetError
from belote_ref.rules.ruleset import Ruleset, find_ruleset

__all__ = ["BRANCH_RULESET_ID", "Assignment", "assignments", "branch_cases_of", "labelled_assignment"]

BRANCH_RULESET_ID = "every-branch"


@dataclass(frozen=True)
class Assignment:
    """One value for each parameter a fixture's predicates name, and the ruleset it makes."""

    values: tuple[tuple[str, Any], ...]
    ruleset: Ruleset | None
    problem: str = ""

    @property
    def label(self) -> str:
        """``play.undertrump_partner=only_if_forced,belote.value=20``."""
        return ",".join(f"{pid}={value if isinstance(value, str) else json.dumps(value)}" for pid, value in self.values)


def _options(wanted: Any) -> list[Any]:
    return list(wanted["one_of"]) if isinstance(wanted, Mapping) and "one_of" in wanted else [wanted]


def _named(fixture: Fixture) -> dict[str, list[Any]]:
    """Every parameter the predicates name, with every value they name for it, in order."""
    named: dict[str, list[Any]] = {}
    predicates = [fixture.data.get("applies_to") or {}] + [b.get("when") or {} for b in fixture.data["expect"]]
    for predicate in predicates:
        for parameter_id, wanted in predicate.items():
            values = named.setdefault(parameter_id, [])
            for option in _options(wanted):
                if not any(type(option) is type(v) and option == v for v in values):
                    values.append(option)
    return named


_RULESETS: dict[str, Ruleset | RulesetError] = {}


def _ruleset(params: dict[str, Any]) -> Ruleset:
    key = json.dumps(params, sort_keys=True)
    found = _RULESETS.get(key)
    if found is None:
        try:
            found = Ruleset.from_parameters(params, id=BRANCH_RULESET_ID)
        except RulesetError as error:
            found = error
        _RULESETS[key] = found
    if isinstance(found, RulesetError):
        raise found
    return found


def assignments(fixture: Fixture, base: Ruleset | None = None) -> Iterator[Assignment]:
    """Each combination of the values named by ``fixture``'s predicates, with its ruleset
    (``base``, classic by default, with those values), or the reason no ruleset allows it."""
    base = base or find_ruleset("classic")
    named = _named(fixture)
    parameter_ids = list(named)
    for combination in itertools.product(*(named[pid] for pid in parameter_ids)):
        values = tuple(zip(parameter_ids, combination, strict=True))
        params = {**base.params, **dict(values)}
        try:
            yield Assignment(values, _ruleset(params))
        except RulesetError as error:
            yield Assignment(values, None, str(error).splitlines()[0])


def labelled_assignment(fixture: Fixture, label: str, base: Ruleset | None = None) -> Assignment | None:
    """The assignment of ``fixture`` whose :attr:`Assignment.label` is ``label``, its ruleset made
    from ``base`` (only that one is compiled); None when the fixture has none of that label."""
    named = _named(fixture)
    parameter_ids = list(named)
    for combination in itertools.product(*(named[pid] for pid in parameter_ids)):
        values = tuple(zip(parameter_ids, combination, strict=True))
        if Assignment(values, None).label != label:
            continue
        params = {**(base or find_ruleset("classic")).params, **dict(values)}
        try:
            return Assignment(values, _ruleset(params))
        except RulesetError as error:
            return Assignment(values, None, str(error).splitlines()[0])
    return None


def branch_cases_of(fixtures: Iterable[Fixture], kinds: Sequence[str] = (), id_prefix: str = "",
                    base: Ruleset | None = None) -> Iterator[tuple[Fixture, Assignment, Mapping[str, Any]]]:
    """``(fixture, assignment, expected)`` for every assignment under which the fixture applies,
    each assignment's ruleset made from ``base`` (classic by default)."""
    for fixture in fixtures:
        if kinds and fixture.kind not in kinds:
            continue
        if id_prefix and not fixture.id.startswith(id_prefix.split("#", 1)[0]):
            continue
        for assignment in assignments(fixture, base):
            if assignment.ruleset is None:
                continue
            expected = fixture.expected(assignment.ruleset)
            if expected is None:
                continue
            if f"{fixture.id}#{assignment.label}".startswith(id_prefix):
                yield fixture, assignment, expected
