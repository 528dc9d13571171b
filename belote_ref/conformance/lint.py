"""``belote-ref conformance lint`` and ``coverage``: is the corpus well-formed, and what does it cover?

Lint checks every fixture file: schema validity; ids unique and well-formed; every parameter named
in ``rules``, ``applies_to`` or ``when`` exists and every value named is allowed; card tokens valid
and distinct within a deal; 32 cards in a whole deal; card points adding up to the pack total plus
the last-trick bonus; every branch reachable (not shadowed by an earlier one); the ``when``
branches exhaustive unless the fixture says ``partial: true``; a fixture of a kind that depends on
the auction naming ``bidding.auction``; a dependency named but pinned nowhere holding under every
value a house rule may give it (:func:`~belote_ref.conformance.dependencies.unpinned_dependencies`);
a hand fixture's quotation labelled as the source's words, a translation or a summary
(:mod:`~belote_ref.conformance.quotations`); a hand fixture's note in French as well
(``note_fr``); canonical formatting.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from belote_ref.conformance.boundaries import Boundary, scoring_boundaries
from belote_ref.conformance.card_pairs import OrderCoverage, card_pair_coverage
from belote_ref.conformance.corpus import (
    AUCTION_KINDS,
    AUCTION_PARAMETER,
    Fixture,
    branch_ruleset,
    iter_fixture_paths,
    load_fixture,
)
from belote_ref.conformance.dependencies import dependencies_of, undeclared_dependencies, unpinned_dependencies
from belote_ref.conformance.fmt import format_fixture
from belote_ref.conformance.quotations import quotation_problems
from belote_ref.conformance.runner import build_branch_cases, build_cases
from belote_ref.core.cards import parse_card
from belote_ref.core.errors import BeloteRefError, Diagnostic, InternalError, NotationError
from belote_ref.rules.registry import Registry, load_registry
from belote_ref.rules.ruleset import find_ruleset, shipped_rulesets

__all__ = ["Coverage", "coverage", "lint"]

_CARD_LIST_KEYS = ("hand", "deck", "plays", "cards", "legal")


def _predicates(fixture: Fixture) -> Iterator[tuple[tuple[str | int, ...], Mapping[str, Any]]]:
    if fixture.data.get("applies_to"):
        yield ("applies_to",), fixture.data["applies_to"]
    for index, branch in enumerate(fixture.data["expect"]):
        if branch.get("when"):
            yield ("expect", index, "when"), branch["when"]


def _values(wanted: Any) -> list[Any]:
    return list(wanted["one_of"]) if isinstance(wanted, dict) and "one_of" in wanted else [wanted]


def _card_tokens(node: Any, path: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("hands", "completion") and isinstance(value, dict):
                for seat, cards in value.items():
                    for i, token in enumerate(cards if isinstance(cards, list) else []):
                        yield (*path, key, seat, i), token
            elif key == "turned":
                yield (*path, key), value
            elif key in _CARD_LIST_KEYS and isinstance(value, list):
                for i, token in enumerate(value):
                    yield (*path, key, i), token
            else:
                yield from _card_tokens(value, (*path, key))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _card_tokens(item, (*path, i))


def _check_fixture(fixture: Fixture, registry: Registry) -> list[Diagnostic]:
    if fixture.located is None:
        raise InternalError("broken invariant: fixture.located is not None")
    at = fixture.located.diagnostic
    problems: list[Diagnostic] = []
    for index, parameter_id in enumerate(fixture.rules):
        if parameter_id not in registry:
            problems.append(at(("rules", index), f"unknown parameter {parameter_id!r}", "lint.parameter"))
    for path, predicate in _predicates(fixture):
        for parameter_id, wanted in predicate.items():
            if parameter_id not in registry:
                problems.append(at((*path, parameter_id), f"unknown parameter {parameter_id!r}", "lint.parameter"))
                continue
            for value in _values(wanted):
                if not registry[parameter_id].allows(value):
                    problems.append(at((*path, parameter_id), f"{value!r} is not an allowed value of {parameter_id}",
                                       "lint.value"))
    # Cards: valid tokens, distinct within one deal (a match holds several deals).
    deals: list[tuple[tuple[str | int, ...], Any]] = []
    if fixture.kind == "match":
        match_deals = fixture.given.get("deals")
        if isinstance(match_deals, list):
            deals = [(("given", "deals", i), deal) for i, deal in enumerate(match_deals)]
    else:
        deals = [(("given",), fixture.given)]
    # A fixture whose every answer is a rejection may hold the very inconsistency it tests.
    rejects = all(isinstance(b["result"], dict) and "rejected" in b["result"] for b in fixture.data["expect"])
    for base, deal in deals:
        # Cards dealt (hands, deck, turned card) and cards played (tricks, plays) are two pools, each
        # without repeats; in a lone trick and hand (legal_plays) the two must not meet either.
        pools: dict[str, dict[str, tuple[str | int, ...]]] = {"dealt": {}, "played": {}}
        for path, token in _card_tokens(deal, base):
            if "announcements" in path:
                continue
            try:
                card = str(parse_card(str(token)))
            except NotationError:
                problems.append(at(path, f"not a card: {token!r}", "lint.card"))
                continue
            key = next(str(p) for p in reversed(path) if isinstance(p, str))
            pool = pools["played" if key in ("plays", "cards") else "dealt"]
            if card in pool and not rejects:
                problems.append(at(path, f"card {card} appears twice in the deal", "lint.card"))
            pool[card] = path
        if fixture.kind == "legal_plays":
            for card in set(pools["dealt"]) & set(pools["played"]):
                problems.append(
                    at(pools["dealt"][card], f"card {card} is both in the hand and in the trick", "lint.card")
                )
        seen = pools["played"] if fixture.kind in ("score", "match") else pools["dealt"]
        total = len(seen)
        if fixture.kind == "deal" and total != 32:
            problems.append(at((*base, "deck"), f"a deck holds 32 distinct cards; found {total}", "lint.deal"))
        plays = deal.get("plays") if isinstance(deal, dict) else None
        if fixture.kind == "replay" and isinstance(plays, list) and len(plays) == 32 and total != 32:
            problems.append(at(base, f"a whole deal holds 32 distinct cards; found {total}", "lint.deal"))
        # A misdeal ends the deal before any card is played: it has no tricks.
        fault = deal.get("fault") if isinstance(deal, dict) else None
        misdeal = isinstance(fault, dict) and fault.get("kind") == "misdeal"
        if fixture.kind in ("score", "match") and total != 32 and not rejects and not misdeal:
            problems.append(at((*base, "tricks"), f"8 tricks hold 32 distinct cards; found {total}", "lint.deal"))
    # Branches: reachable, card totals, exhaustiveness.
    named: dict[str, set[str]] = {}
    has_default = False
    for index, branch in enumerate(fixture.data["expect"]):
        when = branch.get("when") or {}
        has_default = has_default or not when
        for parameter_id, wanted in when.items():
            named.setdefault(parameter_id, set()).update(repr(v) for v in _values(wanted))
        try:
            ruleset = branch_ruleset(fixture, index)
        except BeloteRefError as error:
            problems.append(at(("expect", index), f"no ruleset can reach this branch: {error}", "lint.branch"))
            continue
        if fixture.expected(ruleset) is not branch["result"]:
            problems.append(at(("expect", index), "this branch is shadowed by an earlier one", "lint.branch"))
        result = branch["result"]
        points = result.get("card_points") if isinstance(result, dict) else None
        if isinstance(points, dict) and result.get("capot") is None and "rejected" not in result:
            if not all(isinstance(value, int) and not isinstance(value, bool) for value in points.values()):
                problems.append(at(("expect", index, "result", "card_points"), "card points must be integers",
                                   "lint.points"))
                continue
            expected_total = sum(ruleset.points[0]) + ruleset["scoring.last_trick_bonus"]
            if sum(points.values()) != expected_total:
                problems.append(at(("expect", index, "result", "card_points"),
                                   f"card points add up to {sum(points.values())}; expected {expected_total} "
                                   f"(the pack plus the last-trick bonus)", "lint.points"))
    if not has_default and not fixture.data.get("partial"):
        for parameter_id, values in named.items():
            parameter = registry.parameters.get(parameter_id)
            if parameter is None:
                continue
            # Open parameters (numbers, packets) count as covered when every value the registry
            # documents has a branch.
            missing = [v for v in parameter.values if repr(v) not in values]
            if missing:
                problems.append(at(("expect",), f"the branches leave {parameter_id} = {', '.join(map(str, missing))} "
                                   "uncovered: add branches, a default branch without 'when', or 'partial: true'",
                                   "lint.exhaustive"))
    problems.extend(_auction_problems(fixture))
    problems.extend(quotation_problems(fixture, registry))
    if fixture.data.get("provenance") == "hand" and fixture.data.get("note") and not fixture.data.get("note_fr"):
        problems.append(at(("note",), "a hand fixture explains itself in French too: add note_fr (the French pages "
                           "show it; without it they show the English note)", "lint.note_fr"))
    for parameter_id, value, label in undeclared_dependencies(fixture, registry):
        problems.append(at(("rules",), f"the answer depends on {parameter_id}, which the fixture does not name: it "
                           f"changes when {parameter_id} = {json.dumps(value)}"
                           f"{f' (under {label})' if label else ''}; add it to depends_on "
                           "(python conformance/declare_dependencies.py)", "lint.dependency"))
    for parameter_id, value, label in unpinned_dependencies(fixture, registry):
        problems.append(at(("applies_to",), f"the answer depends on {parameter_id}, which the fixture names but pins "
                           f"nowhere, and it is wrong when {parameter_id} = {json.dumps(value)}"
                           f"{f' (under {label})' if label else ''}: pin the values it holds under in applies_to, "
                           "or give the others a branch", "lint.unpinned"))
    text = fixture.path.read_text(encoding="utf-8")
    if text != format_fixture(fixture.data):
        problems.append(Diagnostic(str(fixture.path), 1, 1, "", "not in canonical format (run `belote-ref fmt`)",
                                   "lint.format"))
    return problems


def _auction_problems(fixture: Fixture) -> list[Diagnostic]:
    """A fixture of a kind whose answer depends on the auction (:data:`AUCTION_KINDS`: the deal, the
    auction, a score, a match, a replay, a whole deal) names the auction it is written for:
    ``bidding.auction`` in its ``rules`` or ``depends_on``, which applicability reads, so that an
    adapter of the other family is never sent it; and in its ``applies_to`` or a branch's ``when``,
    which say for which of the two families the answer holds."""
    if fixture.located is None or fixture.kind not in AUCTION_KINDS:
        return []
    at = fixture.located.diagnostic
    problems = []
    if AUCTION_PARAMETER not in dependencies_of(fixture):
        problems.append(at(("rules",), f"a {fixture.kind} fixture's answer depends on the auction: add "
                           f"{AUCTION_PARAMETER} to depends_on (or rules)", "lint.auction"))
    if not any(AUCTION_PARAMETER in predicate for _, predicate in _predicates(fixture)):
        problems.append(at(("applies_to",) if fixture.data.get("applies_to") else ("id",),
                           f"a {fixture.kind} fixture names the auction it is written for: add "
                           f"{AUCTION_PARAMETER}: turned_card (or bids) to applies_to, or branches on it",
                           "lint.auction"))
    return problems


def lint(paths: Iterable[Path] | None = None) -> tuple[int, list[Diagnostic]]:
    """Lint fixture files (the whole corpus by default); returns the number of files and every problem."""
    registry = load_registry()
    problems: list[Diagnostic] = []
    ids: dict[str, Path] = {}
    count = 0
    for path in paths if paths is not None else iter_fixture_paths():
        count += 1
        fixture, diagnostics = load_fixture(path)
        problems.extend(diagnostics)
        if fixture is None:
            continue
        if fixture.id in ids:
            if fixture.located is None:
                raise InternalError("broken invariant: fixture.located is not None")
            problems.append(
                fixture.located.diagnostic(
                    ("id",), f"duplicate id {fixture.id!r} (also in {ids[fixture.id]})", "lint.id"
                )
            )
        ids[fixture.id] = path
        try:
            problems.extend(_check_fixture(fixture, registry))
        except Exception as error:
            # A check that trips over a shape nobody foresaw must not hide the other files' problems.
            problems.append(
                Diagnostic(
                    str(path),
                    None,
                    None,
                    "",
                    f"lint could not check this file "
                    f"({type(error).__name__}: {' '.join(str(error).split())[:200]}); please report it",
                    "lint.crash",
                )
            )
    return count, problems


@dataclass
class Coverage:
    """Hand and engine fixture counts per (parameter, value), and the gaps; the pairs of ranks
    each card order's cases decide (see :mod:`~belote_ref.conformance.card_pairs`)."""

    rows: list[tuple[str, Any, int, int]]
    gaps: list[tuple[str, Any, int]]
    unexpressible: list[str]
    card_pairs: list[OrderCoverage] = field(default_factory=list)
    boundaries: list[Boundary] = field(default_factory=list)

    @property
    def undecided_pairs(self) -> int:
        """How many pairs of ranks, summed over the card orders, no case decides: gaps too."""
        return sum(len(order.undecided) for order in self.card_pairs)


def coverage(fixtures: Iterable[Fixture]) -> Coverage:
    """Count, for every outcome parameter value with an alternative, the fixtures that run it.

    A fixture counts for (parameter, value) when some case of it actually runs with the parameter
    at that value: under a shipped ruleset (the default run) or under a generated one (``run
    --every-branch``); a hand fixture counts only for the parameters in its ``rules``. Values with
    fewer than two hand fixtures are gaps.
    """

    registry = load_registry()
    fixtures = list(fixtures)
    hand: Counter[tuple[str, str]] = Counter()
    engine: Counter[tuple[str, str]] = Counter()
    rulesets = [find_ruleset(r) for r in shipped_rulesets()]
    run: dict[str, set[tuple[str, str]]] = {}
    for case in [*build_cases(fixtures, rulesets, symmetric=False), *build_branch_cases(fixtures, symmetric=False)]:
        exercised = case.fixture.rules if case.fixture.provenance == "hand" else case.ruleset.params
        run.setdefault(case.fixture.id, set()).update(
            (parameter_id, repr(case.ruleset.params[parameter_id])) for parameter_id in exercised
            if parameter_id in case.ruleset.params)
    for fixture in fixtures:
        seen = run.get(fixture.id, set())
        if fixture.provenance != "hand":
            # An engine fixture counts for the values its applies_to pins, as before.
            pinned = {(pid, repr(v)) for _, predicate in _predicates(fixture) for pid, wanted in predicate.items()
                      for v in _values(wanted)}
            seen = seen & pinned
        (hand if fixture.provenance == "hand" else engine).update(seen)
    rows, gaps = [], []
    unexpressible: list[str] = []
    for parameter_id, parameter in registry.parameters.items():
        if not parameter.outcome or len(parameter.values) < 2:
            continue
        if not parameter.protocol:
            unexpressible.append(parameter_id)
            continue
        for value in parameter.values:
            key = (parameter_id, repr(value))
            rows.append((parameter_id, value, hand[key], engine[key]))
            if hand[key] < 2:
                gaps.append((parameter_id, value, hand[key]))
    return Coverage(rows, gaps, unexpressible, card_pair_coverage(fixtures, rulesets),
                    scoring_boundaries(fixtures, rulesets))
