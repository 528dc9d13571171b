"""``belote-ref conformance`` and ``belote-ref fmt``: the corpus (lint, coverage, list, dump, fmt) and the
runs against an implementation (run, fuzz, smoke, summary, merge)."""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from belote_ref.cli.options import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_OK,
    command_line,
    format_value,
    nearest_ids,
    search_path,
)
from belote_ref.conformance.adapter import AdapterFailure, open_adapter, terminate_on_sigterm
from belote_ref.conformance.applicability import Claims, check_claims, departures
from belote_ref.conformance.boundaries import Boundary
from belote_ref.conformance.card_pairs import OrderCoverage, format_pair
from belote_ref.conformance.corpus import Fixture, iter_fixture_paths, load_corpus
from belote_ref.conformance.fmt import format_fixture, not_a_fixture
from belote_ref.conformance.fuzz import FuzzOptions
from belote_ref.conformance.fuzz_report import run_from_cli
from belote_ref.conformance.lint import coverage, lint
from belote_ref.conformance.merge import merge_reports
from belote_ref.conformance.report import (
    case_line,
    header_line,
    incomplete_run,
    read_report,
    render_departures,
    render_failures,
    render_not_applicable,
    render_refused,
    render_table,
    report_lines,
    summarize_changes,
    write_junit,
)
from belote_ref.conformance.report_file import ReportWriter, report_bytes
from belote_ref.conformance.run_jobs import CaseInputs, build_run_cases, run_sharded
from belote_ref.conformance.runner import BAD_OUTCOMES, CaseResult, RunOptions, run_cases
from belote_ref.conformance.smoke import smoke
from belote_ref.core.errors import BeloteRefError
from belote_ref.core.yamlsource import read_yaml
from belote_ref.protocol.serve import KINDS
from belote_ref.rules.ruleset import Ruleset, resolve_ruleset, shipped_rulesets


def cmd_conformance_lint(args: argparse.Namespace) -> int:
    paths: list[Path] | None = None
    if args.paths:
        paths = []
        for named in map(Path, args.paths):
            found = list(iter_fixture_paths(named)) if named.is_dir() else [named]
            if not found:
                print(f"{named}: no fixture file (*.yaml) in this folder", file=sys.stderr)
                return EXIT_FAILED
            paths.extend(found)
    count, problems = lint(paths)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"{count} fixture file(s): {len(problems)} problem(s)", file=sys.stderr)
        return EXIT_FAILED
    print(f"{count} fixture file(s): no problem")
    return EXIT_OK


def cmd_conformance_coverage(args: argparse.Namespace) -> int:
    fixtures = load_corpus()
    report = coverage(fixtures)
    if args.json:
        print(json.dumps({"rows": [{"parameter": p, "value": v, "hand": h, "engine": e} for p, v, h, e in report.rows],
                          "gaps": [{"parameter": p, "value": v, "hand": h} for p, v, h in report.gaps],
                          "card_pairs": [order.to_json() for order in report.card_pairs],
                          "boundaries": [{"parameter": b.parameter, "value": b.value, "edge": b.edge, "cases": b.cases}
                                         for b in report.boundaries]}, indent=1))
    else:
        print(f"{'parameter':<44} {'value':<28} {'hand':>5} {'engine':>6}")
        for parameter_id, value, hand, engine in report.rows:
            flag = "  <- gap" if hand < 2 else ""
            print(f"{parameter_id:<44} {format_value(value):<28} {hand:>5} {engine:>6}{flag}")
        hand_count = sum(1 for f in fixtures if f.provenance == "hand")
        if report.unexpressible:
            print(f"\nnot expressible in protocol version 1 (no fixture possible): {', '.join(report.unexpressible)}")
        print(f"\n{len(fixtures)} fixtures ({hand_count} hand, {len(fixtures) - hand_count} engine); "
              f"{len(report.gaps)} gap(s) (values with fewer than two hand fixtures)")
        _print_card_pairs(report.card_pairs)
        _print_boundaries(report.boundaries)
    unreached = any(not boundary.cases for boundary in report.boundaries)
    return EXIT_FAILED if (report.gaps or report.undecided_pairs or unreached) and args.strict else EXIT_OK


def _print_boundaries(boundaries: list[Boundary]) -> None:
    print(f"\n{'scoring boundary':<32} {'value':<18} {'edge':<40} {'cases':>5}")
    for boundary in boundaries:
        flag = "  <- never reached" if not boundary.cases else ""
        value = format_value(boundary.value)
        print(f"{boundary.parameter:<32} {value:<18} {boundary.edge:<40} {boundary.cases:>5}{flag}")


def _print_card_pairs(orders: list[OrderCoverage]) -> None:
    print(f"\n{'card order':<24} {'value':<18} {'decided':>9}  never decided")
    for order in orders:
        decided = f"{len(order.decided)}/{len(order.pairs)}"
        undecided = " ".join(format_pair(pair) for pair in order.undecided) or "-"
        print(f"{order.order:<24} {' '.join(order.value):<18} {decided:>9}  {undecided}")
        for label, tally in (("higher", order.higher_first), ("lower", order.lower_first)):
            # A pair met in one play order only: an engine that breaks a tie the other way passes.
            never = [format_pair(pair) for pair in order.one_way if not tally.get(pair)]
            if never:
                print(f"{'':<44}never with the {label} card played first: {' '.join(never)}")
    total = sum(len(order.undecided) for order in orders)
    print(f"\n{total} undecided pair(s) of ranks (never the two best cards of a trick whose winner a case expects)")


def _applicable(args: argparse.Namespace) -> tuple[Ruleset, list[tuple[Any, Any]]]:
    ruleset = resolve_ruleset(args.ruleset, search_path(args))
    cases = []
    for fixture in load_corpus():
        if (args.kind and fixture.kind not in args.kind) or (args.id and not fixture.id.startswith(args.id)):
            continue
        expected = fixture.expected(ruleset)
        if expected is not None:
            cases.append((fixture, expected))
    return ruleset, cases


def cmd_conformance_list(args: argparse.Namespace) -> int:
    ruleset, cases = _applicable(args)
    for fixture, _ in cases:
        print(f"{fixture.id:<58} {fixture.kind:<14} {fixture.provenance:<6} {fixture.data['title']}")
    print(f"{len(cases)} case(s) apply to {ruleset.id}", file=sys.stderr)
    return EXIT_OK


def cmd_conformance_dump(args: argparse.Namespace) -> int:
    ruleset, cases = _applicable(args)
    for fixture, expected in cases:
        line = {"id": fixture.id, "kind": fixture.kind, "ruleset": ruleset.to_json(), "given": fixture.given,
                "expected": expected, "rules": list(fixture.rules), "provenance": fixture.provenance,
                "normative": fixture.normative}
        print(json.dumps(line, ensure_ascii=False, separators=(",", ":")))
    return EXIT_OK


def cmd_fmt(args: argparse.Namespace) -> int:
    paths = [Path(p) for p in args.paths] if args.paths else list(iter_fixture_paths())
    # Every file is read and judged before any is written: one that is not a fixture (a ruleset, a
    # configuration) is refused and left as it is, and so is every other file of the command.
    canonical: list[tuple[Path, str]] = []
    refused = False
    for path in paths:
        located, diagnostics = read_yaml(path)
        problem = not_a_fixture(located.data) if located is not None and not diagnostics else None
        if located is None or diagnostics or problem:
            for diagnostic in diagnostics:
                print(diagnostic, file=sys.stderr)
            if problem:
                print(f"{path}: {problem}", file=sys.stderr)
            refused = True
            continue
        canonical.append((path, format_fixture(located.data)))
    if refused:
        return EXIT_BAD_INPUT
    changed = 0
    for path, text in canonical:
        if path.read_text(encoding="utf-8") != text:
            changed += 1
            if args.check:
                print(f"{path}: not in canonical format", file=sys.stderr)
            else:
                path.write_text(text, encoding="utf-8")
    verb = "would change" if args.check else "changed"
    print(f"{len(paths)} file(s), {changed} {verb}")
    return EXIT_FAILED if args.check and changed else EXIT_OK


class _Progress:
    """A progress bar on a terminal; a plain line every tenth of the run otherwise."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.bad = 0
        self.last_tenth = -1

    def __call__(self, done: int, total: int, result: Any) -> None:
        self.bad += result.outcome in BAD_OUTCOMES
        if self.tty:
            filled = int(30 * done / total)
            self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} cases, {self.bad} bad")
            if done == total:
                self.stream.write("\n")
            self.stream.flush()
            return
        tenth = 10 * done // total
        if tenth != self.last_tenth and (tenth > self.last_tenth or done == total):
            self.last_tenth = tenth
            print(f"{done}/{total} cases, {self.bad} bad", file=self.stream, flush=True)


def _read_expected_failures(path: str | None) -> frozenset[str]:
    if not path:
        return frozenset()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise BeloteRefError(f"{path}: cannot read: {error.strerror}", code="io") from None
    keys = set()
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            keys.add(" ".join(line.split()))
    return frozenset(keys)


def _why_no_case(args: argparse.Namespace, fixtures: Sequence[Fixture]) -> str:
    """What of the filters left nothing: an id no fixture starts with (and the nearest ids), else the
    filters themselves."""
    if args.id and not any(fixture.id.startswith(args.id) for fixture in fixtures):
        return f": no fixture id starts with {args.id!r}{nearest_ids(args.id, (f.id for f in fixtures))}"
    named = [f"--kind {' '.join(args.kind)}" if args.kind else "", f"--id {args.id}" if args.id else ""]
    return f" ({', '.join(n for n in named if n)})" if any(named) else ""


def cmd_conformance_run(args: argparse.Namespace) -> int:
    references = args.ruleset or list(shipped_rulesets())
    fixtures_folder = _fixtures_folder(args.fixtures)
    _refuse_writing_over_inputs(args)
    # Read before anything is written, so that a bad baseline costs no run and is never overwritten.
    baseline = read_report(args.baseline) if args.baseline else None
    inputs = CaseInputs(tuple(references), tuple(args.rules_path or ()),
                        str(fixtures_folder) if fixtures_folder else None, tuple(args.kind or ()), args.id or "",
                        args.every_branch)
    run = build_run_cases(inputs)
    inputs = replace(inputs, refused=run.refused)  # the workers of --jobs need not lint again
    rulesets, corpus, cases = run.rulesets, run.corpus, run.cases
    ruleset_refs = {ruleset.id: reference for ruleset, reference in zip(rulesets, references, strict=True)}
    for _, diagnostics in corpus.failures:
        for diagnostic in diagnostics:
            print(diagnostic, file=sys.stderr)
    if corpus.failures:
        print(f"{len(corpus.failures)} fixture file(s) could not be loaded", file=sys.stderr)
    for _, problem in run.refused:
        print(problem, file=sys.stderr)
    if run.refused:
        print(f"{len(run.refused)} fixture(s) not run: lint refuses them", file=sys.stderr)
    if not cases:
        print(f"no case matches the filters{_why_no_case(args, corpus.fixtures)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    options = RunOptions(timeout=args.timeout, per_case=args.per_case, give_up_after=args.give_up_after,
                         expected_failures=_read_expected_failures(args.expected_failures))
    stderr_log = Path(f"{args.report}.stderr") if args.report else None
    if stderr_log is not None:
        stderr_log.unlink(missing_ok=True)
    warnings: list[str] = []
    writer = ReportWriter(Path(args.report), len(cases)) if args.report else None
    header: dict[str, Any] = {}
    refused = [{"path": path, "problem": problem} for path, problem in run.refused]

    def start_report(hello: dict[str, Any]) -> None:
        warnings.extend(check_claims(hello, KINDS))
        for warning in warnings:
            print(f"warning: hello: {warning}", file=sys.stderr)
        declares_parameters = bool((hello.get("supports") or {}).get("parameters"))
        header.update(header_line(hello, command_line(args), impl=args.impl, fixtures=args.fixtures,
                                  ruleset_refs=ruleset_refs, warnings=warnings, refused_fixtures=refused,
                                  departures=departures(Claims.from_hello(hello)) if declares_parameters else None))
        if writer is not None:
            writer.header(header)

    index_of = {id(case): index for index, case in enumerate(cases)}
    bar = _Progress(sys.stderr)

    def progress(done: int, total: int, result: CaseResult) -> None:
        bar(done, total, result)
        if writer is not None:
            writer.case(index_of[id(result.case)], case_line(result))

    try:
        with terminate_on_sigterm():
            if args.jobs > 1:
                hello, results = run_sharded(inputs, cases, args.impl, options, stderr_log, args.jobs,
                                             progress=progress, on_hello=start_report)
            else:
                hello, results = run_cases(lambda: open_adapter(args.impl, args.timeout, stderr_log), cases,
                                           options, progress=progress, on_hello=start_report)
    except AdapterFailure as failure:
        print(f"error: the implementation could not start: {failure.reason}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (KeyboardInterrupt, SystemExit) as stop:
        if bar.tty:  # the bar's line is left unfinished
            sys.stderr.write("\n")
        return _interrupted(stop, writer, len(cases))
    lines = writer.finish() if writer is not None else report_lines(header, results)
    implementation = hello.get("implementation") or {}
    print(f"{implementation.get('name')} {implementation.get('version', '')} against belote-ref's corpus "
          f"({len(cases)} cases)")
    _print_report(lines)
    if args.junit:
        write_junit(lines, args.junit)
    if baseline is not None:
        print("\nchanges since the baseline:")
        print(summarize_changes(lines, baseline))
    if corpus.failures or run.refused:
        # Every case may pass and still the corpus was not run whole.
        untold = [f"{len(corpus.failures)} fixture file(s) could not be loaded"] if corpus.failures else []
        untold += [f"{len(run.refused)} fixture(s) not run: lint refuses them"] if run.refused else []
        print("\n" + "; ".join(untold), file=sys.stderr)
        return EXIT_FAILED
    return _run_status(lines)


def _interrupted(stop: KeyboardInterrupt | SystemExit, writer: ReportWriter | None, planned: int) -> int:
    """End an interrupted run in one line: the report keeps the cases graded, its footer says why."""
    code = stop.code if isinstance(stop, SystemExit) else 128 + signal.SIGINT
    if not isinstance(code, int) or not 128 < code < 128 + signal.NSIG:
        raise stop
    why = signal.Signals(code - 128).name
    kept = ""
    if writer is not None and writer.started:
        graded = sum(1 for line in writer.finish(interrupted=why) if line.get("type") == "case")
        kept = f"; {writer.path} keeps the {graded} of {planned} case(s) graded"
    print(f"interrupted ({why}){kept}", file=sys.stderr)
    return code


def _same_file(first: str, second: str) -> bool:
    """Whether two paths name one file: the same path once resolved, or the same inode (a hard link)."""
    if Path(first).resolve() == Path(second).resolve():
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def _refuse_writing_over_inputs(args: argparse.Namespace) -> None:
    """A usage error when a file the run writes is a file it reads, or two outputs are one file."""
    outputs = [("--report", args.report), ("--junit", args.junit)]
    if args.report:
        outputs.append(("the adapter's stderr log", f"{args.report}.stderr"))
    inputs = [("--baseline", args.baseline), ("--expected-failures", args.expected_failures)]
    named = [(option, path) for option, path in outputs if path]
    for index, (option, path) in enumerate(named):
        for other, read in [*inputs, *named[index + 1:]]:
            if read and _same_file(path, read):
                raise BeloteRefError(f"{option} {path} is the file of {other}: the run would write over it; "
                                     "name another file", code="usage")


def _fixtures_folder(folder: str | None) -> Path | None:
    """The folder of ``--fixtures`` (None: the shipped corpus); a usage error when it is not a folder."""

    if folder is None:
        return None
    path = Path(folder)
    if not path.is_dir():
        raise BeloteRefError(f"--fixtures {folder}: not a folder", code="usage")
    return path.resolve()


def cmd_conformance_fuzz(args: argparse.Namespace) -> int:
    rulesets = tuple(
        (r.id, dict(r.params)) for r in (resolve_ruleset(ref, search_path(args)) for ref in args.ruleset or ())
    )
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    options = FuzzOptions(impl=args.impl, rulesets=rulesets, kinds=tuple(args.kind or ()),
                          budget=None if args.time else (args.budget or 2000), seconds=args.time, seed=seed,
                          jobs=args.jobs, timeout=args.timeout, shrink_budget=args.shrink_budget)
    with terminate_on_sigterm():
        return run_from_cli(options, Path(args.out), Path(args.report) if args.report else None,
                            command_line(args))


def _print_report(lines: list[dict[str, Any]]) -> None:
    print(render_table(lines))
    for section in (render_not_applicable(lines), render_refused(lines[0]), render_departures(lines[0]),
                    render_failures(lines)):
        if section:
            print()
            print(section)


def _run_status(lines: list[dict[str, Any]]) -> int:
    footer: dict[str, Any] = lines[-1] if lines and lines[-1].get("type") == "footer" else {"ok": False}
    sent = sum(count for outcome, count in (footer.get("counts") or {}).items() if outcome != "n/a")
    if footer.get("ok") and not sent:
        print("no case was sent: the adapter's hello claims none of them (see the reasons above)", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK if footer.get("ok") else EXIT_FAILED


def cmd_conformance_summary(args: argparse.Namespace) -> int:
    lines = read_report(args.report)
    if args.baseline:
        print(summarize_changes(lines, read_report(args.baseline)))
    else:
        adapter = lines[0].get("adapter") or {}
        print(f"{adapter.get('name')} {adapter.get('version', '')}: {lines[0].get('command', '')}")
        note = incomplete_run(lines)
        if note is not None:
            print(note)
        _print_report(lines)
    return _run_status(lines)


def cmd_conformance_merge(args: argparse.Namespace) -> int:
    reports = [(path, read_report(path)) for path in args.reports]
    lines = merge_reports(reports)
    for path, shard in reports:
        note = incomplete_run(shard)
        if note is not None:
            print(f"warning: {path}: {note}", file=sys.stderr)
    try:
        with Path(args.out).open("wb") as out:
            out.writelines(report_bytes(line) for line in lines)
    except OSError as error:
        raise BeloteRefError(f"--out {args.out}: cannot write: {error.strerror}", code="io") from None
    adapter = lines[0].get("adapter") or {}
    print(f"{adapter.get('name')} {adapter.get('version', '')}: {len(args.reports)} report(s) merged into {args.out} "
          f"({len(lines) - 2} cases)")
    _print_report(lines)
    return _run_status(lines)


def cmd_conformance_smoke(args: argparse.Namespace) -> int:
    ok, lines = smoke(args.impl, args.timeout)
    for line in lines:
        print(line)
    return EXIT_OK if ok else EXIT_FAILED
