"""The self-consistency sweep: the reference engine against its own corpus under random valid rulesets.

A case is sent under a ruleset R only if its expected answer is the right answer under R. The
sweep puts that to the test: it draws rulesets extending each shipped ruleset, several parameters
changed at once, each drawn among the values the registry documents (an integer anywhere in its
valid range too); it builds every case of the corpus under each (the default run's cases, with
their derived variants, and the ``--every-branch`` assignments on that base), runs each with the
reference engine in-process and compares its answer with the corpus's. The reference engine plays
every valid ruleset, so each disagreement is a fixture that claims an answer it does not have
under R: a missing ``applies_to`` pin or ``expect`` branch.

Each failure is shrunk to a minimal set of the drawn changes under which the same case still
fails (no change of the set can be left out), so that the cause can be read: the parameters
whose values a fixture must name. Draws are seeded: a seed and a count give the same rulesets.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from belote_ref.conformance.branches import branch_cases_of, labelled_assignment
from belote_ref.conformance.corpus import Fixture, compare_results
from belote_ref.conformance.rounding import rounded_expectation
from belote_ref.conformance.runner import Case
from belote_ref.conformance.settled import unsettled_reason
from belote_ref.conformance.symmetry import variants
from belote_ref.core.errors import BeloteRefError
from belote_ref.protocol.serve import run_case
from belote_ref.rules.registry import Parameter, Registry, load_registry
from belote_ref.rules.ruleset import Ruleset

__all__ = [
    "Change",
    "Draw",
    "Finding",
    "SweepReport",
    "case_differences",
    "cases_under",
    "draw_rulesets",
    "drawable_values",
    "shrink",
    "sweep",
]

#: One parameter set to one value: ``("scoring.chute.base", 160)``.
Change = tuple[str, Any]

SWEEP_RULESET_ID = "sweep"


@dataclass(frozen=True)
class Draw:
    """A shipped ruleset with some of its parameters changed, and the ruleset that makes."""

    base: Ruleset
    changes: tuple[Change, ...]
    ruleset: Ruleset

    @property
    def label(self) -> str:
        """``classic + announcements.enabled=true, announcements.declared="automatic"``."""
        return f"{self.base.id} + {describe(self.changes)}"


def describe(changes: Iterable[Change]) -> str:
    """``a=1, b="x"``: the changes as a reader (and a house rule file) would write them."""
    return ", ".join(f"{pid}={json.dumps(value)}" for pid, value in changes)


def drawable_values(parameter: Parameter, rng: random.Random) -> list[Any]:
    """The values the sweep may draw for ``parameter``: the documented ones and, for an integer,
    its bounds and a value drawn between them (a value no shipped ruleset uses: a capot of 300)."""
    values = list(parameter.values)
    if parameter.type == "int" and parameter.minimum is not None and parameter.maximum is not None:
        values += [parameter.minimum, parameter.maximum, rng.randint(parameter.minimum, parameter.maximum)]
        near = [v + step for v in parameter.values for step in (-1, 1)
                if isinstance(v, int) and parameter.minimum <= v + step <= parameter.maximum]
        values += near
    return values


def _make(base: Ruleset, changes: Sequence[Change]) -> Ruleset | None:
    try:
        return Ruleset.from_parameters({**base.params, **dict(changes)}, id=SWEEP_RULESET_ID)
    except BeloteRefError:
        return None


def draw_rulesets(bases: Sequence[Ruleset], count: int, seed: int, max_changes: int = 4,
                  registry: Registry | None = None) -> tuple[list[Draw], int]:
    """``count`` valid rulesets extending each of ``bases`` (its changes of 1 to ``max_changes``
    outcome parameters), and how many drawn rulesets the ruleset validation refused."""
    registry = registry or load_registry()
    rng = random.Random(seed)
    outcome = [p for p in registry.parameters.values() if p.outcome]
    draws: list[Draw] = []
    refused = 0
    for base in bases:
        made = 0
        attempts = 0
        while made < count and attempts < count * 50:
            attempts += 1
            changes: dict[str, Any] = {}
            for parameter in rng.sample(outcome, rng.randint(1, max_changes)):
                value = rng.choice(drawable_values(parameter, rng))
                if not (type(value) is type(base.params[parameter.id]) and value == base.params[parameter.id]):
                    changes[parameter.id] = value
            if not changes:
                continue
            ruleset = _make(base, tuple(changes.items()))
            if ruleset is None:
                refused += 1
                continue
            draws.append(Draw(base, tuple(changes.items()), ruleset))
            made += 1
    return draws, refused


def _with_variants(case: Case) -> list[Case]:
    cases = [case]
    if case.fixture.provenance == "hand":
        cases += [Case(case.fixture, case.ruleset, result, f"{case.variant}@{label}", given)
                  for label, given, result in variants(case.fixture.kind, case.given, case.expected)]
    return cases


def cases_under(fixtures: Iterable[Fixture], ruleset: Ruleset, every_branch: bool = True) -> list[Case]:
    """Every case of ``fixtures`` a run under ``ruleset`` sends (the derived ones too) and, with
    ``every_branch``, every assignment of each fixture's predicates on ``ruleset`` as the base."""
    fixtures = list(fixtures)
    cases: list[Case] = []
    for fixture in fixtures:
        expected, variant = fixture.expected(ruleset), ""
        if expected is None:
            derived = rounded_expectation(fixture, ruleset)
            if derived is not None:
                variant, expected = derived
        if expected is not None:
            cases += _with_variants(Case(fixture, ruleset, expected, variant))
    if every_branch:
        for fixture, assignment, expected in branch_cases_of(fixtures, base=ruleset):
            if assignment.values and assignment.ruleset is not None:
                cases += _with_variants(Case(fixture, assignment.ruleset, expected, f"#{assignment.label}"))
    return cases


def case_differences(case: Case) -> list[str]:
    """How the reference engine's answer to ``case`` differs from the corpus's (empty: it agrees)."""
    try:
        got = run_case(case.ruleset, case.fixture.kind, case.given)
    except BeloteRefError as error:
        return [f"errored: {error.code}: {str(error).splitlines()[0]}"]
    return compare_results(case.fixture.kind, case.expected, got)


def _case_of(fixture: Fixture, ruleset: Ruleset, case_id: str) -> Case | None:
    if "#" not in case_id:
        return next((case for case in cases_under([fixture], ruleset, every_branch=False) if case.id == case_id),
                    None)
    # A branch case: only the assignment it names is built, not every one of the fixture's.
    label = case_id.split("#", 1)[1].split("@", 1)[0]
    assignment = labelled_assignment(fixture, label, ruleset)
    if assignment is None or assignment.ruleset is None:
        return None
    expected = fixture.expected(assignment.ruleset)
    if expected is None:
        return None
    base = Case(fixture, assignment.ruleset, expected, f"#{assignment.label}")
    return next((case for case in _with_variants(base) if case.id == case_id), None)


def shrink(fixture: Fixture, draw: Draw, case_id: str) -> tuple[Change, ...]:
    """The smallest set of ``draw``'s changes found under which case ``case_id`` still fails: each
    change is left out in turn, and stays out when the case still exists and still fails."""
    kept = list(draw.changes)
    progress = True
    while progress and kept:
        progress = False
        for change in list(kept):
            trial = [c for c in kept if c != change]
            ruleset = _make(draw.base, trial)
            case = _case_of(fixture, ruleset, case_id) if ruleset is not None else None
            if case is not None and case_differences(case):
                kept = trial
                progress = True
    return tuple(kept)


@dataclass
class Finding:
    """A minimal set of changes to a shipped ruleset under which some cases fail, one for example."""

    base: str
    changes: tuple[Change, ...]
    example: str
    differences: list[str]
    cases: int = 0

    @property
    def label(self) -> str:
        """``classic + scoring.chute.base=160``; with no change, the base alone (a branch case
        whose assignment on the base fails)."""
        return f"{self.base} + {describe(self.changes)}" if self.changes else f"{self.base} (no change)"


@dataclass
class SweepReport:
    """What a sweep ran and found."""

    rulesets: int = 0
    refused: int = 0
    cases: int = 0
    failures: int = 0
    findings: dict[tuple[str, str], Finding] = field(default_factory=dict)
    failures_with_net: int = 0
    """The failures left with the runner's safety net on (:mod:`~belote_ref.conformance.settled`)."""

    def lines(self) -> list[str]:
        """The report in words: the figures, then each minimal set with its example."""
        out = [f"rulesets run: {self.rulesets} (drawn and refused by validation: {self.refused})",
               f"cases run: {self.cases}",
               f"failures, safety net off (the fixtures' own declarations): {self.failures}",
               f"failures, safety net on (unsettled cases n/a): {self.failures_with_net}",
               f"minimal parameter sets: {len(self.findings)}"]
        for finding in sorted(self.findings.values(), key=lambda f: (-f.cases, f.label)):
            out.append(f"  {finding.label}  ({finding.cases} failing case(s))")
            out.append(f"    e.g. {finding.example}: {'; '.join(finding.differences)[:300]}")
        return out


def sweep(fixtures: Sequence[Fixture], draws: Iterable[Draw], every_branch: bool = True,
          case_limit: int | None = None, rng: random.Random | None = None,
          progress: Callable[[int, Draw, int], None] | None = None) -> SweepReport:
    """Run every case of ``fixtures`` under each draw with the reference engine; shrink each
    failing fixture once per draw. ``case_limit`` runs at most that many cases per draw, drawn
    with ``rng``."""
    report = SweepReport()
    by_id = {fixture.id: fixture for fixture in fixtures}
    for index, draw in enumerate(draws):
        report.rulesets += 1
        cases = cases_under(fixtures, draw.ruleset, every_branch)
        if case_limit is not None and len(cases) > case_limit:
            cases = (rng or random.Random(index)).sample(cases, case_limit)
        shrunk: dict[str, tuple[Change, ...]] = {}
        for case in cases:
            report.cases += 1
            differences = case_differences(case)
            if not differences:
                continue
            report.failures += 1
            if unsettled_reason(case.ruleset, case.fixture.kind, case.given, case.expected) is None:
                report.failures_with_net += 1
            fixture = by_id[case.fixture.id]
            if fixture.id not in shrunk:
                shrunk[fixture.id] = shrink(fixture, draw, case.id)
            changes = shrunk[fixture.id]
            key = (draw.base.id, describe(changes))
            finding = report.findings.setdefault(key, Finding(draw.base.id, changes, case.key, differences))
            finding.cases += 1
        if progress is not None:
            progress(index, draw, report.failures)
    return report


def changes_of(params: Mapping[str, Any], base: Ruleset) -> tuple[Change, ...]:
    """The values of ``params`` that differ from ``base``'s."""
    return tuple((pid, value) for pid, value in params.items()
                 if not (type(value) is type(base.params.get(pid)) and value == base.params.get(pid)))
