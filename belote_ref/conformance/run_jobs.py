"""``conformance run --jobs N``: the cases in contiguous ranges, each run by a worker process with
its own adapter, the results put back in case order.

Cases hold compiled rulesets and fixtures, which are not sent between processes: every worker
builds the same case list from the same command-line inputs (:func:`build_run_cases`, used by
the parent too) and runs its range of it. A worker sends back each result's outcome, answer,
message, differences and time; the parent joins them to its own cases. The report is the
report of one job (the times aside).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from belote_ref.conformance.adapter import AdapterFailure, open_adapter
from belote_ref.conformance.corpus import CorpusReport, load_corpus_report
from belote_ref.conformance.runner import (
    Case,
    CaseResult,
    RunOptions,
    build_branch_cases,
    build_cases,
    run_cases,
)
from belote_ref.core.errors import InternalError
from belote_ref.records.shards import ordered_map
from belote_ref.rules.ruleset import Ruleset, resolve_ruleset

__all__ = ["CaseInputs", "RunShard", "build_run_cases", "run_sharded"]


@dataclass(frozen=True)
class CaseInputs:
    """What the case list of a run is built from (the command line's filters)."""

    references: tuple[str, ...]
    rules_path: tuple[str, ...] = ()
    fixtures: str | None = None
    kinds: tuple[str, ...] = ()
    id_prefix: str = ""
    every_branch: bool = False


def build_run_cases(inputs: CaseInputs) -> tuple[list[Ruleset], CorpusReport, list[Case]]:
    """The rulesets, the corpus and the cases of a run, in their order."""

    search_path = tuple(Path(folder) for folder in inputs.rules_path)
    rulesets = [resolve_ruleset(reference, search_path) for reference in inputs.references]
    corpus = load_corpus_report(Path(inputs.fixtures) if inputs.fixtures else None)
    cases = build_cases(corpus.fixtures, rulesets, inputs.kinds, inputs.id_prefix)
    if inputs.every_branch:
        cases += build_branch_cases(corpus.fixtures, inputs.kinds, inputs.id_prefix)
    return rulesets, corpus, cases


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
#: or ("failure", outcome, reason) when its adapter could not start.
ShardOutcome = tuple[Any, ...]


def run_shard(shard: RunShard) -> ShardOutcome:
    """Run one range of the cases with an adapter of this process."""

    _, _, cases = build_run_cases(shard.inputs)
    log = Path(shard.stderr_log) if shard.stderr_log else None
    try:
        hello, results = run_cases(lambda: open_adapter(shard.impl, shard.options.timeout, log),
                                   cases[shard.start:shard.stop], shard.options)
    except AdapterFailure as failure:
        return ("failure", failure.outcome, failure.reason)
    return ("ok", hello, [(r.outcome, r.got, r.message, r.differences, r.seconds) for r in results])


def shard_ranges(count: int, jobs: int) -> list[tuple[int, int]]:
    """``count`` cases in ``jobs`` contiguous ranges of (nearly) equal size."""
    bounds = [count * index // jobs for index in range(jobs + 1)]
    return [(start, stop) for start, stop in pairwise(bounds) if stop > start]


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
    outcomes: Iterator[ShardOutcome] = ordered_map(run_shard, shards, jobs)
    for shard, outcome in zip(shards, outcomes, strict=True):
        if outcome[0] == "failure":
            raise AdapterFailure(outcome[1], outcome[2])
        if hello is None:
            hello = outcome[1]
            if on_hello is not None:
                on_hello(hello)
        for index, (verdict, got, message, differences, seconds) in enumerate(outcome[2]):
            result = CaseResult(cases[shard.start + index], verdict, got, message, differences, seconds)
            results.append(result)
            if progress is not None:
                progress(len(results), len(cases), result)
    if not (hello is not None):
        raise InternalError("broken invariant: hello is not None")
    return hello, results
