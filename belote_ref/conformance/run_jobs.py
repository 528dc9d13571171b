"""``conformance run --jobs N``: the cases in contiguous ranges, each run by a worker process with
its own adapter, the results put back in case order.

Cases hold compiled rulesets and fixtures, which are not sent between processes: every worker
builds the same case list from the same command-line inputs (:func:`build_run_cases`, used by
the parent too, once per process) and runs its range of it. A worker sends back each result's
outcome, answer, message, differences and time; the parent joins them to its own cases. The
report is the report of one job (the times aside).

A range holds at most :data:`CASES_PER_SHARD` cases, so that the report of an interrupted run
keeps the ranges finished so far, and a range whose worker dies costs only its own cases: it is
run again once on a new worker, and lost again its cases are ``crash``, saying why.

The fixtures of ``--fixtures DIR`` are linted first: a fixture that ``conformance lint``
refuses is not run, and the run says which and why (the shipped corpus is linted by its tests).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from belote_ref.conformance.adapter import AdapterFailure, open_adapter
from belote_ref.conformance.corpus import CorpusReport, Fixture, iter_fixture_paths, load_corpus_report
from belote_ref.conformance.lint import lint
from belote_ref.conformance.runner import (
    Case,
    CaseResult,
    RunOptions,
    build_branch_cases,
    build_cases,
    run_cases,
)
from belote_ref.core.errors import BeloteRefError
from belote_ref.records.shards import ordered_map
from belote_ref.rules.ruleset import Ruleset, resolve_ruleset

__all__ = ["CASES_PER_SHARD", "CaseInputs", "RunCases", "RunShard", "build_run_cases", "run_sharded"]

#: The most cases a worker runs with one adapter before it sends their results back.
CASES_PER_SHARD = 1000


@dataclass(frozen=True)
class CaseInputs:
    """What the case list of a run is built from (the command line's filters)."""

    references: tuple[str, ...]
    rules_path: tuple[str, ...] = ()
    fixtures: str | None = None
    kinds: tuple[str, ...] = ()
    id_prefix: str = ""
    every_branch: bool = False
    refused: tuple[tuple[str, str], ...] | None = None
    """The fixtures of ``fixtures`` that lint refuses (path, problem), once the parent has linted
    them; None: lint them (linting a large folder takes minutes, so the workers are told)."""


@dataclass(frozen=True)
class RunCases:
    """What a run is made of: its rulesets, the corpus, the cases in their order, and the fixtures
    of ``--fixtures`` not run because lint refuses them (each its path and its first problem)."""

    rulesets: list[Ruleset]
    corpus: CorpusReport
    cases: list[Case]
    refused: tuple[tuple[str, str], ...] = ()


def build_run_cases(inputs: CaseInputs) -> RunCases:
    """The rulesets, the corpus and the cases of a run, in their order."""

    search_path = tuple(Path(folder) for folder in inputs.rules_path)
    rulesets = [resolve_ruleset(reference, search_path) for reference in inputs.references]
    corpus = load_corpus_report(Path(inputs.fixtures) if inputs.fixtures else None)
    fixtures: tuple[Fixture, ...] = corpus.fixtures
    refused: tuple[tuple[str, str], ...] = ()
    if inputs.fixtures:
        fixtures, refused = _lint_refusals(Path(inputs.fixtures), corpus.fixtures, inputs.refused)
    cases = build_cases(fixtures, rulesets, inputs.kinds, inputs.id_prefix)
    if inputs.every_branch:
        cases += build_branch_cases(fixtures, inputs.kinds, inputs.id_prefix)
    return RunCases(rulesets, corpus, cases, refused)


def _lint_refusals(root: Path, fixtures: Sequence[Fixture], known: tuple[tuple[str, str], ...] | None
                   ) -> tuple[tuple[Fixture, ...], tuple[tuple[str, str], ...]]:
    """The fixtures lint accepts, and for each one it refuses its path and first problem (the
    files that did not load are the corpus's failures, reported apart); ``known`` is what an
    earlier lint of the folder found, if any."""
    by_file: dict[Path, list[str]] = {}
    if known is not None:
        by_file = {Path(path): [problem] for path, problem in known}
    else:
        for problem in lint(iter_fixture_paths(root))[1]:
            if problem.file is not None:
                by_file.setdefault(Path(problem.file), []).append(str(problem))
    kept: list[Fixture] = []
    refused: list[tuple[str, str]] = []
    for fixture in fixtures:
        found = by_file.get(fixture.path)
        if not found:
            kept.append(fixture)
            continue
        more = f" (and {len(found) - 1} more problem(s))" if len(found) > 1 else ""
        refused.append((str(fixture.path), found[0] + more))
    return tuple(kept), tuple(refused)


#: Each worker builds the case list of its inputs once, not once per range it runs.
_run_cases_of = cache(build_run_cases)


@dataclass(frozen=True)
class RunShard:
    """One worker's part of a run: cases ``start`` to ``stop`` (excluded) of the case list."""

    inputs: CaseInputs
    impl: str | None
    options: RunOptions
    stderr_log: str | None
    start: int
    stop: int


#: What a worker sends back: ("ok", hello, [(outcome, got, message, differences, seconds), ...])
#: or ("failure", outcome, reason) when its adapter could not start; ("lost", reason) stands for
#: a range whose worker died on each try.
ShardOutcome = tuple[Any, ...]


def run_shard(shard: RunShard) -> ShardOutcome:
    """Run one range of the cases with an adapter of this process."""

    cases = _run_cases_of(shard.inputs).cases
    log = Path(shard.stderr_log) if shard.stderr_log else None
    try:
        hello, results = run_cases(lambda: open_adapter(shard.impl, shard.options.timeout, log),
                                   cases[shard.start:shard.stop], shard.options)
    except AdapterFailure as failure:
        return ("failure", failure.outcome, failure.reason)
    return ("ok", hello, [(r.outcome, r.got, r.message, r.differences, r.seconds) for r in results])


def shard_ranges(count: int, jobs: int, most: int = CASES_PER_SHARD) -> list[tuple[int, int]]:
    """``count`` cases in contiguous ranges of (nearly) equal size: at least ``jobs`` of them, and
    none longer than ``most``."""
    parts = max(jobs, -(-count // most))
    bounds = [count * index // parts for index in range(parts + 1)]
    return [(start, stop) for start, stop in pairwise(bounds) if stop > start]


def _lost_shard(shard: RunShard, why: str) -> ShardOutcome:
    """What a range whose worker died on each try is: its cases not graded, each saying why."""
    return ("lost", f"not graded: the {why} while running cases {shard.start + 1} to {shard.stop}, twice")


def run_sharded(inputs: CaseInputs, cases: Sequence[Case], impl: str | None, options: RunOptions,
                stderr_log: Path | None, jobs: int,
                progress: Callable[[int, int, CaseResult], None] | None = None,
                on_hello: Callable[[dict[str, Any]], None] | None = None) -> tuple[dict[str, Any], list[CaseResult]]:
    """:func:`~belote_ref.conformance.runner.run_cases` over ``jobs`` worker processes.

    Raises :class:`~belote_ref.conformance.adapter.AdapterFailure` when an adapter cannot start.
    """

    shards = [RunShard(inputs, impl, options, str(stderr_log) if stderr_log else None, start, stop)
              for start, stop in shard_ranges(len(cases), jobs)]
    hello: dict[str, Any] | None = None
    results: list[CaseResult] = []
    lost: list[tuple[RunShard, str]] = []

    def add(result: CaseResult) -> None:
        results.append(result)
        if progress is not None:
            progress(len(results), len(cases), result)

    outcomes: Iterator[ShardOutcome] = ordered_map(run_shard, shards, jobs, on_lost=_lost_shard)
    for shard, outcome in zip(shards, outcomes, strict=True):
        if outcome[0] == "failure":
            raise AdapterFailure(outcome[1], outcome[2])
        if outcome[0] == "lost":
            if hello is None:  # the cases wait for the hello (the report's header) of a range that ran
                lost.append((shard, outcome[1]))
                continue
            for index in range(shard.start, shard.stop):
                add(CaseResult(cases[index], "crash", message=outcome[1]))
            continue
        if hello is None:
            hello = outcome[1]
            if on_hello is not None:
                on_hello(hello)
            for earlier, why in lost:
                for index in range(earlier.start, earlier.stop):
                    add(CaseResult(cases[index], "crash", message=why))
        for index, (verdict, got, message, differences, seconds) in enumerate(outcome[2]):
            add(CaseResult(cases[shard.start + index], verdict, got, message, differences, seconds))
    if hello is None:
        raise BeloteRefError(f"--jobs: no range of cases could be run: {lost[0][1] if lost else 'no case'}",
                             code="worker_lost")
    return hello, results
