"""Shrinking a disagreement to a minimal situation, and writing it as a fixture.

A disagreement is shrunk greedily: every one-step simplification of the situation is tried (all of
them in one pipelined batch through the adapter), the first that still disagrees in the same way
(the same outcome: a wrong result stays a wrong result, an ``errored`` stays an ``errored``)
replaces it, and so on until none does. The simplifications, first to last:

- fewer cards: a card dropped from a hand (``legal_plays``, ``announcements``), a trick shortened
  from either end (``legal_plays``: the seat to play or the leader moves with it);
- fewer events: a call dropped (``auction``), a declaration dropped, belote not announced, no pot
  (``score``, ``replay``), a deal dropped (``match``), no taker (``deal``);
- the simplest ruleset: one parameter set back to its value in ``classic``, where the adapter
  claims that value for the kind (shrinking never leaves the claims).

A ``score`` or ``replay`` keeps its 8 tricks (fewer is a different, rejected, situation), and a
``trick_winner`` its 4 cards: those are already one trick. Each step makes the situation strictly
smaller, so shrinking ends.

The parameters the shrunk answer depends on are found as ``conformance lint`` finds them
(:mod:`~belote_ref.conformance.dependencies`): a parameter is a dependency when another value lint
tries for it (:func:`~belote_ref.conformance.dependencies.trial_values`) changes the reference
engine's answer. They become the fixture's
``rules`` and its ``applies_to`` pins their values, so the fixture applies wherever they hold.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from belote_ref.conformance.corpus import AUCTION_KINDS, AUCTION_PARAMETER, Fixture, canonical_result
from belote_ref.conformance.dependencies import trial_values, undeclared_dependencies
from belote_ref.core.errors import BeloteRefError
from belote_ref.protocol.serve import run_case
from belote_ref.rules.predicates import same_value
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets

__all__ = ["Candidate", "answer_dependencies", "compile_ruleset", "finding_fixture", "reference_answer", "shape_of",
           "shrink", "simpler_givens"]

FUZZ_RULESET_ID = "fuzz"


@dataclass(frozen=True)
class Candidate:
    """A situation to try: a ``given`` under a ruleset."""

    given: Mapping[str, Any]
    ruleset: Ruleset


_COMPILED: dict[str, Ruleset | None] = {}
_COMPILED_LIMIT = 4096  # bounded: a long run draws ever new parameter sets


def compile_ruleset(params: Mapping[str, Any], ruleset_id: str = FUZZ_RULESET_ID) -> Ruleset | None:
    """The ruleset of ``params`` (cached), or None when the registry does not allow them together."""
    key = ruleset_id + json.dumps(dict(params), sort_keys=True)
    if key not in _COMPILED:
        if len(_COMPILED) >= _COMPILED_LIMIT:
            _COMPILED.clear()
        try:
            _COMPILED[key] = Ruleset.from_parameters(dict(params), id=ruleset_id)
        except BeloteRefError:
            _COMPILED[key] = None
    return _COMPILED[key]


def reference_answer(kind: str, given: Mapping[str, Any], rules: Ruleset) -> Any:
    """The reference engine's answer, in canonical order; raises BeloteRefError for a malformed given."""

    return canonical_result(kind, run_case(rules, kind, given))


def _answer_or_error(kind: str, given: Mapping[str, Any], rules: Ruleset) -> Any:
    try:
        return reference_answer(kind, given, rules)
    except BeloteRefError as error:
        return ("error", error.code)


def parameter_variants(rules: Ruleset, parameter_id: str) -> Iterator[Ruleset]:
    """``rules`` with ``parameter_id`` at each other value lint tries (:func:`trial_values`: the
    documented ones, integers across their range, an alternative table), where allowed."""
    for value in trial_values(load_registry()[parameter_id]):
        if not same_value(value, rules.params[parameter_id]):
            variant = compile_ruleset({**rules.params, parameter_id: value}, rules.id)
            if variant is not None:
                yield variant


def depends_on(kind: str, given: Mapping[str, Any], rules: Ruleset, parameter_id: str, answer: Any) -> bool:
    """Whether another documented value of ``parameter_id`` changes the reference answer."""
    return any(_answer_or_error(kind, given, variant) != answer for variant in parameter_variants(rules, parameter_id))


def answer_dependencies(kind: str, given: Mapping[str, Any], rules: Ruleset) -> list[str]:
    """Every outcome parameter on which the reference answer depends, in registry order."""
    answer = _answer_or_error(kind, given, rules)
    return [pid for pid, parameter in load_registry().parameters.items()
            if parameter.outcome and depends_on(kind, given, rules, pid, answer)]


# ------------------------------------------------------------------------------- simplifications


def _without(items: Sequence[Any], index: int) -> list[Any]:
    return [item for position, item in enumerate(items) if position != index]


def _seat_after(seat: str, steps: int) -> str:
    return "NESW"[("NESW".index(seat) + steps) % 4]


def _fewer_declarations(given: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    for index in range(len(given.get("announcements") or ())):
        yield {**given, "announcements": _without(given["announcements"], index)}
    if given.get("belote") is not None:
        yield {**given, "belote": None}
    if given.get("pot"):
        yield {**given, "pot": 0}


def simpler_givens(kind: str, given: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """Every one-step simplification of ``given`` (see the module docstring), fewest cards first."""
    given = copy.deepcopy(dict(given))
    if kind == "legal_plays":
        trick = given["trick"]
        cards = trick["cards"]
        if cards:
            yield {**given, "seat": _seat_after(given["seat"], -1), "trick": {**trick, "cards": cards[:-1]}}
            yield {**given, "trick": {"leader": _seat_after(trick["leader"], 1), "cards": cards[1:]}}
        if len(given["hand"]) > 1:
            for index in range(len(given["hand"])):
                yield {**given, "hand": _without(given["hand"], index)}
    elif kind == "announcements":
        for index in range(len(given["hand"])):
            yield {**given, "hand": _without(given["hand"], index)}
    elif kind == "auction":
        for index in reversed(range(len(given["calls"]))):
            yield {**given, "calls": _without(given["calls"], index)}
    elif kind == "deal":
        if "taker" in given:
            yield {key: value for key, value in given.items() if key != "taker"}
    elif kind in ("score", "replay", "play"):
        yield from _fewer_declarations(given)
    elif kind == "match":
        deals = given["deals"]
        if len(deals) > 1:
            for index in reversed(range(len(deals))):
                yield {"deals": _without(deals, index)}
        for index, deal in enumerate(deals):
            for simpler in _fewer_declarations(deal):
                yield {"deals": [*deals[:index], simpler, *deals[index + 1:]]}


def simpler_rulesets(rules: Ruleset, claimed: Callable[[str, Any], bool] | None = None) -> Iterator[Ruleset]:
    """``rules`` with one parameter set back to classic's value, for each that differs and whose
    classic value is ``claimed(parameter, value)`` (None: every value is)."""
    classic = find_ruleset("classic")
    for parameter_id, value in classic.params.items():
        if claimed is not None and not claimed(parameter_id, value):
            continue  # shrinking never leaves the claims
        if not same_value(rules.params[parameter_id], value):
            simpler = compile_ruleset({**rules.params, parameter_id: value})
            if simpler is not None:
                yield simpler


def shrink(kind: str, start: Candidate, still_disagrees: Callable[[Sequence[Candidate]], int | None],
           usable: Callable[[Candidate], bool], max_steps: int = 200,
           claimed: Callable[[str, Any], bool] | None = None) -> tuple[Candidate, int]:
    """Greedy shrinking; returns the smallest candidate found and the number of steps taken.

    ``still_disagrees`` gets a batch of candidates and returns the index of the first that still
    disagrees, or None; ``usable`` says whether a candidate may be sent at all (the reference
    answers it, the adapter claims what it depends on); ``claimed(parameter, value)`` whether the
    adapter claims a value, so that no candidate ruleset takes one it does not (None: all).
    """
    current = start
    for step in range(max_steps):
        candidates = [Candidate(g, current.ruleset) for g in simpler_givens(kind, current.given)]
        candidates += [Candidate(current.given, r) for r in simpler_rulesets(current.ruleset, claimed)]
        candidates = [candidate for candidate in candidates if usable(candidate)]
        found = still_disagrees(candidates) if candidates else None
        if found is None:
            return current, step
        current = candidates[found]
    return current, max_steps


# ------------------------------------------------------------------------------------ findings


def departures_from_classic(rules: Ruleset) -> dict[str, Any]:
    """The parameters whose value in ``rules`` is not classic's."""
    classic = find_ruleset("classic")
    return {pid: value for pid, value in rules.params.items() if not same_value(value, classic.params[pid])}


def differing_fields(differences: Sequence[str]) -> list[str]:
    """The result fields named by :func:`~belote_ref.conformance.corpus.compare_results` lines."""
    fields = set()
    for line in differences:
        head, colon, _ = line.partition(":")
        fields.add(head if colon and " " not in head else "result")
    return sorted(fields)


def shape_of(kind: str, outcome: str, fields: Sequence[str], rules: Ruleset) -> str:
    """What makes two shrunk disagreements the same: the kind, the outcome, the differing fields
    and the parameters shrinking could not set back to classic's values."""
    departures = json.dumps(departures_from_classic(rules), sort_keys=True)
    return f"{kind} {outcome} {','.join(fields)} {departures}"


def _pinned(kind: str, given: Mapping[str, Any], rules: Ruleset, dependencies: Sequence[str],
            expected: Any) -> dict[str, Any]:
    """``applies_to`` for the fixture: the dependencies' values, or (when a shipped ruleset with those
    values answers otherwise, by a combination of parameters) every outcome parameter's."""
    pins = {pid: rules.params[pid] for pid in dependencies}
    for ruleset_id in shipped_rulesets():
        shipped = find_ruleset(ruleset_id)
        if all(same_value(shipped.params[pid], value) for pid, value in pins.items()) and \
                _answer_or_error(kind, given, shipped) != expected:
            registry = load_registry()
            return {pid: value for pid, value in rules.params.items() if registry[pid].outcome}
    return pins


def finding_fixture(*, kind: str, given: Mapping[str, Any], rules: Ruleset, expected: Any, outcome: str, got: Any,
                    message: str, fields: Sequence[str], adapter_name: str, seed: int, index: int,
                    shape: str) -> dict[str, Any]:
    """A fixture in the corpus format for one shrunk disagreement (``provenance: engine``,
    ``normative: false``, ``needs_review: true``), the adapter's answer beside the expected one."""
    dependencies = answer_dependencies(kind, given, rules)
    digest = hashlib.sha256(shape.encode()).hexdigest()[:10]
    if outcome == "fail":
        adapter_answer: Any = got
    else:
        adapter_answer = {"outcome": outcome, "message": message}
    what = ", ".join(fields) if outcome == "fail" else f"answers {outcome}"
    fixture = {
        "id": f"fuzz.{kind.replace('_', '-')}.{digest}",
        "kind": kind,
        "title": f"Fuzz finding: {adapter_name} disagrees with the reference engine ({what})",
        "rules": dependencies,
        "source": {"doc": "belote-ref conformance fuzz",
                   "quote": f"seed {seed}, situation {index}, shrunk; the expected result is the reference engine's"},
        "provenance": "engine",
        "normative": False,
        "needs_review": True,
        "note": (f"Found by `belote-ref conformance fuzz --seed {seed}` and shrunk to the smallest situation that "
                 "still disagrees. The expected result is the reference engine's answer, not a hand-checked one: "
                 "review it against the rules before trusting either side."),
        "applies_to": _pinned(kind, given, rules, dependencies, expected),
        "given": dict(given),
        "expect": [{"result": expected}],
        "adapter_answer": adapter_answer,
    }
    _declare_what_lint_finds(fixture, rules)
    return fixture


LINT_ROUNDS = 4
"""How many times a finding's dependencies are completed from lint's check before every outcome
parameter is pinned."""


def _declare_what_lint_finds(fixture: dict[str, Any], rules: Ruleset) -> None:
    """Complete the fixture's ``rules`` and ``applies_to`` with what lint's dependency check finds
    (:func:`~belote_ref.conformance.dependencies.undeclared_dependencies`): it tries more than one
    parameter at a time (one not in play with the one that puts it in play) under the rulesets of
    the pins, so that ``conformance run --fixtures`` never refuses a finding. Each dependency found
    is pinned at its value in the finding's ruleset; after :data:`LINT_ROUNDS` rounds, every
    outcome parameter is."""
    registry = load_registry()
    if fixture["kind"] in AUCTION_KINDS:
        # Lint's rule for these kinds: the fixture names the auction family it is written for.
        if AUCTION_PARAMETER not in fixture["rules"]:
            fixture["rules"] = [*fixture["rules"], AUCTION_PARAMETER]
        fixture["applies_to"] = {**fixture["applies_to"], AUCTION_PARAMETER: rules.params[AUCTION_PARAMETER]}
    for round_ in range(LINT_ROUNDS + 1):
        found = [pid for pid, _, _ in undeclared_dependencies(Fixture(Path("<finding>"), fixture), registry)]
        if not found:
            return
        fixture["rules"] = [*fixture["rules"], *(pid for pid in found if pid not in fixture["rules"])]
        if round_ < LINT_ROUNDS - 1:
            fixture["applies_to"] = {**fixture["applies_to"], **{pid: rules.params[pid] for pid in found}}
        else:
            fixture["applies_to"] = {pid: value for pid, value in rules.params.items() if registry[pid].outcome}
