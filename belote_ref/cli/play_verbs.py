"""``belote-ref play`` and ``belote-ref replay``: random deals written as records, records checked."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any

from belote_ref.cli.options import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_OK,
    search_path,
    usage_error,
)
from belote_ref.core.cards import Team
from belote_ref.core.errors import BeloteRefError
from belote_ref.core.jsonlines import binary_input
from belote_ref.records.random_match import match_records
from belote_ref.records.record import UNKNOWN_RULESET_PROBLEM, RecordError, check_records, describe
from belote_ref.records.shards import (
    DEALS_PER_BLOCK,
    check_shard,
    load_worker_rulesets,
    ordered_map,
    play_block,
    record_shards,
)
from belote_ref.rules.ruleset import Ruleset, resolve_ruleset


def cmd_play(args: argparse.Namespace) -> int:
    rules = resolve_ruleset(args.ruleset)
    outcome: dict[str, Any] = {}
    texts: Iterable[str]
    if args.match:
        if args.jobs > 1:
            raise usage_error("play --jobs: a match is one sequence of deals and is played by one job")
        texts = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
                 for record in match_records(rules, args.seed, args.max_deals, outcome))
    else:
        # Blocks of consecutive deals, each from its own seed (the first from --seed itself), so
        # that they can be played by several jobs and still be the deals of one job.
        blocks: Iterable[tuple[str, list[str], int, int, int]] = (
            (args.ruleset, [], args.seed, block, min(DEALS_PER_BLOCK, args.count - start))
            for block, start in enumerate(range(0, args.count, DEALS_PER_BLOCK))
        )
        texts = ordered_map(play_block, blocks, args.jobs)
    # A block at a time, so that memory stays flat however many deals are played.
    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout  # noqa: SIM115 - closed below
    written = 0
    try:
        for text in texts:
            out.write(text)
            written += text.count("\n")
    finally:
        if args.out:
            out.close()
    if args.match:
        totals = outcome["totals"]
        summary = (f"a match of {outcome['deals']} deal(s) under {rules.id} v{rules.version}, seed {args.seed}: "
                   f"NS {totals[Team.NS]}, EW {totals[Team.EW]}, winner {outcome['winner']}")
    else:
        summary = f"{written} deal(s) under {rules.id} v{rules.version}, seed {args.seed}"
    if args.out:
        print(f"{summary}; written to {args.out}")
    else:
        print(summary, file=sys.stderr)
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    house_rules = {ruleset.id: ruleset for ruleset in (resolve_ruleset(reference, search_path(args))
                                                       for reference in args.ruleset or ())}
    counts = {"good": 0, "bad": 0, "unchecked": 0}
    repeated: dict[str, int] = {}
    unreadable = False
    for path in args.files:
        if path == "-" and sys.stdin is None:
            raise BeloteRefError("-: there is no standard input to read", code="io")
        verdicts = _replay_verdicts(path, args, house_rules)
        # A file of one deal is shown trick by trick: hold the first verdict until the second
        # entry is read (or the file ends). Entries are still read and checked one at a time.
        first, second = next(verdicts, None), next(verdicts, None)
        verbose = args.show or second is None
        for entry in chain((first, second), verdicts):
            if entry is None:
                continue
            verdict, readable, problems, text = entry
            counts[verdict] += 1
            unreadable = unreadable or not readable
            if verbose:
                shown = text()
                if shown is not None:
                    print(shown)
            for problem in problems:
                said = problem.split(": ", 1)[-1]
                if not said.startswith(UNKNOWN_RULESET_PROBLEM):
                    print(problem, file=sys.stderr)
                    continue
                if said not in repeated:
                    print(problem, file=sys.stderr)
                repeated[said] = repeated.get(said, -1) + 1
    for said, times in repeated.items():
        if times:
            print(f"... and {times} more entr{'y' if times == 1 else 'ies'} with the same problem: {said}",
                  file=sys.stderr)
    total = sum(counts.values())
    if counts["bad"] == counts["unchecked"] == 0:
        print(f"{total} deal(s) replayed: every event legal, every recorded result agrees")
    else:
        print(f"{total} record(s): {counts['good']} good, {counts['bad']} bad, {counts['unchecked']} unchecked "
              "(no result recorded)")
    if counts["bad"]:
        return EXIT_BAD_INPUT if unreadable else EXIT_FAILED
    return EXIT_OK


def _replay_verdicts(path: str, args: argparse.Namespace,
                     house_rules: dict[str, Ruleset]) -> Iterator[tuple[str, bool, list[str], Any]]:
    """(verdict, readable, problems, a function giving the deal as text) for each record of
    ``path``: checked here one at a time, or with ``--jobs`` over shards of a JSON Lines input
    in worker processes (the same verdicts in the same order)."""

    if args.jobs > 1 and (path == "-" or path.endswith(".jsonl")):
        name = "<stdin>" if path == "-" else path
        try:
            stream = binary_input(sys.stdin) if path == "-" else open(path, "rb")  # noqa: SIM115 - closed below
        except OSError as error:
            raise RecordError(f"cannot read: {error.strerror}", location=name, code="io") from None
        try:
            tasks = ((name, shard, args.show) for shard in record_shards(stream))
            for verdicts in ordered_map(check_shard, tasks, args.jobs, load_worker_rulesets,
                                        (list(args.ruleset or ()), list(args.rules_path or ()))):
                for verdict, readable, problems, text in verdicts:
                    yield verdict, readable, problems, lambda text=text: text
        finally:
            if path != "-":
                stream.close()
        return
    checks = (check_records(binary_input(sys.stdin), "<stdin>", house_rules) if path == "-"
              else check_records(path, rulesets=house_rules))
    for check in checks:
        report = check.report
        yield check.verdict, check.readable, check.problems, lambda report=report: (
            describe(report) if report is not None else None)
