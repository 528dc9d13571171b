"""The ``belote-ref`` command line.

Exit codes: 0 success, 1 a check failed, 2 bad input or usage. Errors are printed one per line
(``path:line:col: key.path: message``); a traceback only with ``--debug``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from belote_ref import __version__

# The engine, the registry, the rulesets and even the errors and `typing` are imported where they
# are used, so that `--help` and usage errors start without loading what they do not need.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence
    from typing import IO, Any, NoReturn

    from belote_ref.rules import Ruleset

__all__ = ["main"]

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2


def resolve_ruleset(reference: str, search_path: Sequence[Path] = ()) -> Ruleset:
    """A shipped ruleset by id, or a ruleset file by path (whose ``extends`` may also name a file
    in a ``search_path`` folder).

    Raises :class:`~belote_ref.errors.UnknownRulesetError` when ``reference`` is neither.
    """
    from belote_ref.rules import find_ruleset, load_ruleset, shipped_rulesets

    if reference in shipped_rulesets():
        return find_ruleset(reference)
    path = Path(reference)
    if path.suffix in (".yaml", ".yml") or _exists(path):
        return load_ruleset(path, search_path=search_path)
    return find_ruleset(reference)


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # a name too long for the system, or with a NUL character
        return False


def _search_path(args: argparse.Namespace) -> tuple[Path, ...]:
    """The folders of ``--rules-path``, where a ruleset's ``extends`` may also name a file."""
    return tuple(Path(folder) for folder in args.rules_path or ())


def _add_rules_path_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules-path", action="append", metavar="DIR",
                        help="repeatable: a folder where `extends` may name a file (besides the extending file's own)")


def _add_impl_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--impl", metavar="CMD", help="the adapter command, or python:module:factory "
                        "(default: the reference engine, `belote-ref serve`, as a subprocess)")


def _format_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _title(ruleset: Ruleset) -> str:
    return ruleset.title.get("en") or ruleset.id


def cmd_rules_list(args: argparse.Namespace) -> int:
    from belote_ref.rules import find_ruleset, iter_changes, shipped_rulesets

    classic = find_ruleset("classic")
    rows = []
    for ruleset_id in shipped_rulesets():
        ruleset = find_ruleset(ruleset_id)
        changes = list(iter_changes(ruleset, classic))
        rows.append({"id": ruleset.id, "version": ruleset.version, "title": _title(ruleset),
                     "parent": ruleset.parent, "changes_from_classic": len(changes)})
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return EXIT_OK
    print(f"{'id':<18} {'parent':<10} {'changes':>7}  title")
    for row in rows:
        print(f"{row['id']:<18} {row['parent'] or '-':<10} {row['changes_from_classic']:>7}  {row['title']}")
    return EXIT_OK


def cmd_rules_show(args: argparse.Namespace) -> int:
    from belote_ref.registry import load_registry

    ruleset = resolve_ruleset(args.ruleset, _search_path(args))
    if args.json:
        print(json.dumps(ruleset.to_json(), ensure_ascii=False, indent=2))
        return EXIT_OK
    from belote_ref.site.wording import t as phrase  # the wording of the site's locale files

    registry = load_registry()
    title = ruleset.title.get(args.lang) or _title(ruleset)
    print(f"{ruleset.id} v{ruleset.version}: {title}")
    if ruleset.parent:
        print(phrase(args.lang, "cli_extends", parent=ruleset.parent))
    for area in registry.areas():
        print(f"\n[{area}]")
        for pid, parameter in registry.parameters.items():
            if parameter.area != area:
                continue
            marker = "*" if pid in ruleset.overrides else " "
            label = parameter.label_of(ruleset[pid], args.lang)
            idle = "" if registry.applies(pid, ruleset.params) else phrase(args.lang, "cli_not_in_play")
            print(f" {marker} {pid} = {_format_value(ruleset[pid])}" + (f"  · {label}" if label else "") + idle)
    return EXIT_OK


def cmd_rules_validate(args: argparse.Namespace) -> int:
    from belote_ref.errors import RulesetError
    from belote_ref.rules import load_ruleset

    status = EXIT_OK
    for path in args.paths:
        try:
            ruleset = load_ruleset(path, search_path=_search_path(args))
        except RulesetError as error:
            for diagnostic in error.diagnostics:
                print(diagnostic, file=sys.stderr)
            status = EXIT_BAD_INPUT
        else:
            print(f"{path}: ok ({ruleset.id} v{ruleset.version})")
    return status


def cmd_rules_diff(args: argparse.Namespace) -> int:
    from belote_ref.registry import load_registry
    from belote_ref.rules import iter_changes

    left, right = resolve_ruleset(args.a, _search_path(args)), resolve_ruleset(args.b, _search_path(args))
    registry = load_registry()
    changed = list(iter_changes(right, left))
    if not changed:
        print(f"{left.id} and {right.id} resolve to the same parameters")
        return EXIT_OK
    colon = "\u00a0: " if args.lang == "fr" else ": "
    for pid in changed:
        parameter = registry[pid]
        print(f"{pid}")
        print(f"  {left.id}: {_format_value(left[pid])}")
        print(f"  {right.id}: {_format_value(right[pid])}")
        print(f"  {parameter.title_in(args.lang)} — {parameter.fr if args.lang == 'fr' else parameter.en}")
        for ruleset in (left, right):
            label = parameter.label_of(ruleset[pid], args.lang)
            explain = parameter.explain_of(ruleset[pid], args.lang)
            if label:
                print(f"    {ruleset.id} → {label}" + (f"{colon}{explain}" if explain else ""))
    return EXIT_OK


def cmd_rules_schema(args: argparse.Namespace) -> int:
    from belote_ref.registry import ruleset_schema

    text = json.dumps(ruleset_schema(), ensure_ascii=False, indent=2) + "\n"
    if args.check:
        path = Path(args.check)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            print(f"{path}: out of date; regenerate with `belote-ref rules schema > {path}`", file=sys.stderr)
            return EXIT_FAILED
        print(f"{path}: up to date")
        return EXIT_OK
    sys.stdout.write(text)
    return EXIT_OK


def _match_records(rules: Ruleset, seed: int, max_deals: int, outcome: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The records of one random match, one deal at a time; ``outcome`` receives the totals."""
    import random

    from belote_ref.cards import Seat
    from belote_ref.deal import Phase
    from belote_ref.errors import BeloteRefError
    from belote_ref.match import Match
    from belote_ref.record import record_of
    from belote_ref.simulate import random_deal

    match = Match(rules)
    rng = random.Random(seed)
    dealer = Seat(rng.randrange(4))
    deals = 0
    while not match.ended and deals < max_deals:
        state = random_deal(rules, rng, dealer=dealer, pot=match.pot)
        record = record_of(state)
        if state.phase is Phase.REDEAL:
            match.pass_deal()
            if state.next_dealer is None:
                raise BeloteRefError("a redeal without a next dealer", code="internal")
            dealer = state.next_dealer
        else:
            if state.taker is None or state.trump is None:
                raise BeloteRefError("a played deal without a taker", code="internal")
            score = match.play_deal(dealer=state.dealer, taker=state.taker, trump=state.trump,
                                    tricks=state.tricks, belote=state.belote, announcements=state.declarations,
                                    bid=getattr(state, "bid", None))
            if score != state.score:
                record["final_deal"] = True
            record["result"] = score.to_json()
            dealer = dealer.next
        deals += 1
        record["match"] = {"deal": deals, "totals": {t.value: v for t, v in match.totals.items()}}
        yield record
    winner = match.winner.value if match.winner is not None else ("draw" if match.ended else "unfinished")
    outcome.update(deals=deals, totals=dict(match.totals), winner=winner)


def cmd_play(args: argparse.Namespace) -> int:
    from belote_ref.cards import Team
    from belote_ref.shards import DEALS_PER_BLOCK, ordered_map, play_block

    rules = resolve_ruleset(args.ruleset)
    outcome: dict[str, Any] = {}
    texts: Iterable[str]
    if args.match:
        if args.jobs > 1:
            raise _usage_error("play --jobs: a match is one sequence of deals and is played by one job")
        texts = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
                 for record in _match_records(rules, args.seed, args.max_deals, outcome))
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
    from itertools import chain

    from belote_ref.errors import BeloteRefError

    house_rules = {ruleset.id: ruleset for ruleset in (resolve_ruleset(reference, _search_path(args))
                                                       for reference in args.ruleset or ())}
    counts = {"good": 0, "bad": 0, "unchecked": 0}
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
                print(problem, file=sys.stderr)
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
    from belote_ref.jsonlines import binary_input
    from belote_ref.record import RecordError, check_records, describe

    if args.jobs > 1 and (path == "-" or path.endswith(".jsonl")):
        from belote_ref.shards import check_shard, load_worker_rulesets, ordered_map, record_shards

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


def cmd_conformance_lint(args: argparse.Namespace) -> int:
    from belote_ref.conformance.corpus import iter_fixture_paths
    from belote_ref.conformance.lint import lint

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
    from belote_ref.conformance.corpus import load_corpus
    from belote_ref.conformance.lint import coverage

    fixtures = load_corpus()
    report = coverage(fixtures)
    if args.json:
        print(json.dumps({"rows": [{"parameter": p, "value": v, "hand": h, "engine": e} for p, v, h, e in report.rows],
                          "gaps": [{"parameter": p, "value": v, "hand": h} for p, v, h in report.gaps]}, indent=1))
    else:
        print(f"{'parameter':<44} {'value':<28} {'hand':>5} {'engine':>6}")
        for parameter_id, value, hand, engine in report.rows:
            flag = "  <- gap" if hand < 2 else ""
            print(f"{parameter_id:<44} {_format_value(value):<28} {hand:>5} {engine:>6}{flag}")
        hand_count = sum(1 for f in fixtures if f.provenance == "hand")
        if report.unexpressible:
            print(f"\nnot expressible in protocol version 1 (no fixture possible): {', '.join(report.unexpressible)}")
        print(f"\n{len(fixtures)} fixtures ({hand_count} hand, {len(fixtures) - hand_count} engine); "
              f"{len(report.gaps)} gap(s) (values with fewer than two hand fixtures)")
    return EXIT_FAILED if report.gaps and args.strict else EXIT_OK


def _applicable(reference: str) -> tuple[Ruleset, list[tuple[Any, Any]]]:
    from belote_ref.conformance.corpus import load_corpus

    ruleset = resolve_ruleset(reference)
    cases = []
    for fixture in load_corpus():
        expected = fixture.expected(ruleset)
        if expected is not None:
            cases.append((fixture, expected))
    return ruleset, cases


def cmd_conformance_list(args: argparse.Namespace) -> int:
    ruleset, cases = _applicable(args.ruleset)
    for fixture, _ in cases:
        print(f"{fixture.id:<58} {fixture.kind:<14} {fixture.provenance:<6} {fixture.data['title']}")
    print(f"{len(cases)} case(s) apply to {ruleset.id}", file=sys.stderr)
    return EXIT_OK


def cmd_conformance_dump(args: argparse.Namespace) -> int:
    ruleset, cases = _applicable(args.ruleset)
    for fixture, expected in cases:
        line = {"id": fixture.id, "kind": fixture.kind, "ruleset": ruleset.to_json(), "given": fixture.given,
                "expected": expected, "rules": list(fixture.rules), "provenance": fixture.provenance,
                "normative": fixture.normative}
        print(json.dumps(line, ensure_ascii=False, separators=(",", ":")))
    return EXIT_OK


def cmd_fmt(args: argparse.Namespace) -> int:
    from belote_ref.conformance.corpus import iter_fixture_paths
    from belote_ref.conformance.fmt import format_fixture
    from belote_ref.yamlsource import read_yaml

    paths = [Path(p) for p in args.paths] if args.paths else list(iter_fixture_paths())
    changed = 0
    for path in paths:
        located, diagnostics = read_yaml(path)
        if located is not None and not diagnostics and not isinstance(located.data, dict):
            diagnostics = [located.diagnostic((), "expected a mapping of keys (a fixture)")]
        if located is None or diagnostics:
            for diagnostic in diagnostics:
                print(diagnostic, file=sys.stderr)
            return EXIT_BAD_INPUT
        text = format_fixture(located.data)
        if path.read_text(encoding="utf-8") != text:
            changed += 1
            if args.check:
                print(f"{path}: not in canonical format", file=sys.stderr)
            else:
                path.write_text(text, encoding="utf-8")
    verb = "would change" if args.check else "changed"
    print(f"{len(paths)} file(s), {changed} {verb}")
    return EXIT_FAILED if args.check and changed else EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    from belote_ref.hello import reply_to_first_hello
    from belote_ref.jsonlines import binary_input

    # The runner waits for the reply to hello before it sends a case: answer it before the engine
    # is imported. Any other first line goes to the protocol loop as it was read.
    source = binary_input(sys.stdin)
    reply, first = reply_to_first_hello(source)
    if reply is not None:
        sys.stdout.flush()
        sys.stdout.buffer.write(reply)
        sys.stdout.buffer.flush()
    from typing import cast

    from belote_ref.protocol import serve

    return serve(cast("IO[bytes]", _Prefixed(first, source)) if first else source)


class _Prefixed:
    """A binary stream read a line at a time whose first bytes are ``prefix`` (what was read of the
    first line), then those of ``stream``: all :func:`~belote_ref.jsonlines.read_lines` needs."""

    def __init__(self, prefix: bytes, stream: Any) -> None:
        self.prefix, self.stream = prefix, stream

    def readline(self, size: int = -1) -> bytes:
        if not self.prefix:
            return self.stream.readline(size)  # type: ignore[no-any-return]
        cut = len(self.prefix) if size < 0 else size
        line, self.prefix = self.prefix[:cut], self.prefix[cut:]
        return line


class _Progress:
    """A progress bar on a terminal; a plain line every tenth of the run otherwise."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.bad = 0
        self.last_tenth = -1

    def __call__(self, done: int, total: int, result: Any) -> None:
        from belote_ref.conformance.runner import BAD_OUTCOMES

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
    from belote_ref.errors import BeloteRefError

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


def cmd_conformance_run(args: argparse.Namespace) -> int:
    from belote_ref.conformance.adapter import AdapterFailure, open_adapter, terminate_on_sigterm
    from belote_ref.conformance.applicability import Claims, check_claims, departures
    from belote_ref.conformance.report import read_report, report_lines, summarize_changes, write_junit
    from belote_ref.conformance.run_jobs import CaseInputs, build_run_cases, run_sharded
    from belote_ref.conformance.runner import RunOptions, run_cases
    from belote_ref.protocol import KINDS
    from belote_ref.rules import shipped_rulesets

    references = args.ruleset or list(shipped_rulesets())
    fixtures_folder = _fixtures_folder(args.fixtures)
    inputs = CaseInputs(tuple(references), tuple(args.rules_path or ()),
                        str(fixtures_folder) if fixtures_folder else None, tuple(args.kind or ()), args.id or "",
                        args.every_branch)
    rulesets, corpus, cases = build_run_cases(inputs)
    ruleset_refs = {ruleset.id: reference for ruleset, reference in zip(rulesets, references, strict=True)}
    for _, diagnostics in corpus.failures:
        for diagnostic in diagnostics:
            print(diagnostic, file=sys.stderr)
    if corpus.failures:
        print(f"{len(corpus.failures)} fixture file(s) could not be loaded", file=sys.stderr)
    if not cases:
        print("no case matches the filters", file=sys.stderr)
        return EXIT_BAD_INPUT
    options = RunOptions(timeout=args.timeout, per_case=args.per_case, give_up_after=args.give_up_after,
                         expected_failures=_read_expected_failures(args.expected_failures))
    stderr_log = Path(f"{args.report}.stderr") if args.report else None
    if stderr_log is not None:
        stderr_log.unlink(missing_ok=True)
    warnings: list[str] = []

    def warn_about_claims(hello: dict[str, Any]) -> None:
        warnings.extend(check_claims(hello, KINDS))
        for warning in warnings:
            print(f"warning: hello: {warning}", file=sys.stderr)

    try:
        with terminate_on_sigterm():
            if args.jobs > 1:
                hello, results = run_sharded(inputs, cases, args.impl, options, stderr_log, args.jobs,
                                             progress=_Progress(sys.stderr), on_hello=warn_about_claims)
            else:
                hello, results = run_cases(lambda: open_adapter(args.impl, args.timeout, stderr_log), cases,
                                           options, progress=_Progress(sys.stderr), on_hello=warn_about_claims)
    except AdapterFailure as failure:
        print(f"error: the implementation could not start: {failure.reason}", file=sys.stderr)
        return EXIT_BAD_INPUT
    claims = Claims.from_hello(hello)
    declares_parameters = bool((hello.get("supports") or {}).get("parameters"))
    lines = report_lines(hello, results, _command_line(args), impl=args.impl,
                         fixtures=args.fixtures, ruleset_refs=ruleset_refs, warnings=warnings,
                         departures=departures(claims) if declares_parameters else None)
    implementation = hello.get("implementation") or {}
    print(f"{implementation.get('name')} {implementation.get('version', '')} against belote-ref's corpus "
          f"({len(cases)} cases)")
    _print_report(lines)
    if args.report:
        Path(args.report).write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines),
                                     encoding="utf-8")
    if args.junit:
        write_junit(lines, args.junit)
    if args.baseline:
        print("\nchanges since the baseline:")
        print(summarize_changes(lines, read_report(args.baseline)))
    if corpus.failures:
        # Every case may pass and still the corpus was not run whole.
        print(f"\n{len(corpus.failures)} fixture file(s) could not be loaded", file=sys.stderr)
        return EXIT_FAILED
    return _run_status(lines)


def _fixtures_folder(folder: str | None) -> Path | None:
    """The folder of ``--fixtures`` (None: the shipped corpus); a usage error when it is not a folder."""
    from belote_ref.errors import BeloteRefError

    if folder is None:
        return None
    path = Path(folder)
    if not path.is_dir():
        raise BeloteRefError(f"--fixtures {folder}: not a folder", code="usage")
    return path.resolve()


def cmd_conformance_fuzz(args: argparse.Namespace) -> int:
    import random

    from belote_ref.conformance.adapter import terminate_on_sigterm
    from belote_ref.conformance.fuzz import FuzzOptions
    from belote_ref.conformance.fuzz_report import run_from_cli

    rulesets = tuple(
        (r.id, dict(r.params)) for r in (resolve_ruleset(ref, _search_path(args)) for ref in args.ruleset or ())
    )
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    options = FuzzOptions(impl=args.impl, rulesets=rulesets, kinds=tuple(args.kind or ()),
                          budget=None if args.time else (args.budget or 2000), seconds=args.time, seed=seed,
                          jobs=args.jobs, timeout=args.timeout)
    with terminate_on_sigterm():
        return run_from_cli(options, Path(args.out), Path(args.report) if args.report else None,
                            _command_line(args))


def _kind(text: str) -> str:
    """A protocol kind."""
    from belote_ref.protocol import KINDS

    if text not in KINDS:
        raise argparse.ArgumentTypeError(f"unknown kind {text!r}; expected one of {', '.join(KINDS)}")
    return text


def _shard_count(text: str) -> int:
    """A number of jobs, 1 to 64."""
    value = _count(text)
    if value > 64:
        raise argparse.ArgumentTypeError(f"expected at most 64 jobs; found {text!r}")
    return value


def _print_report(lines: list[dict[str, Any]]) -> None:
    from belote_ref.conformance.report import (
        render_departures,
        render_failures,
        render_not_applicable,
        render_table,
    )

    print(render_table(lines))
    for section in (render_not_applicable(lines), render_departures(lines[0]), render_failures(lines)):
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
    from belote_ref.conformance.report import read_report, summarize_changes

    lines = read_report(args.report)
    if args.baseline:
        print(summarize_changes(lines, read_report(args.baseline)))
    else:
        adapter = lines[0].get("adapter") or {}
        print(f"{adapter.get('name')} {adapter.get('version', '')}: {lines[0].get('command', '')}")
        _print_report(lines)
    return _run_status(lines)


def cmd_conformance_merge(args: argparse.Namespace) -> int:
    from belote_ref.conformance.merge import merge_reports
    from belote_ref.conformance.report import read_report

    lines = merge_reports([(path, read_report(path)) for path in args.reports])
    Path(args.out).write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    adapter = lines[0].get("adapter") or {}
    print(f"{adapter.get('name')} {adapter.get('version', '')}: {len(args.reports)} report(s) merged into {args.out} "
          f"({len(lines) - 2} cases)")
    _print_report(lines)
    return _run_status(lines)


def cmd_conformance_smoke(args: argparse.Namespace) -> int:
    from belote_ref.conformance.smoke import smoke

    ok, lines = smoke(args.impl, args.timeout)
    for line in lines:
        print(line)
    return EXIT_OK if ok else EXIT_FAILED


def cmd_docs_build(args: argparse.Namespace) -> int:
    from belote_ref.errors import BeloteRefError
    from belote_ref.site import build_site

    try:
        result = build_site(args.out, config_file=args.config, verbose=args.verbose, rulesets=args.ruleset or ())
    except BeloteRefError as error:
        if getattr(error, "code", "") != "docs":
            raise
        print(f"error: {error}", file=sys.stderr)
        return EXIT_FAILED
    print(f"{result.pages} generated pages; site built in {result.seconds:.1f} s into {result.site_dir}")
    return EXIT_OK


def cmd_docs_serve(args: argparse.Namespace) -> int:
    from belote_ref.site import serve_site

    serve_site(config_file=args.config, dev_addr=args.dev_addr, rulesets=args.ruleset or ())
    return EXIT_OK


def _usage_error(message: str) -> Exception:
    from belote_ref.errors import BeloteRefError

    return BeloteRefError(message, code="usage")


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line: ``belote-ref run: error: ...``, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _seconds(text: str) -> float:
    """A positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds; found {text!r}") from None
    if not 0 < value < 1e6:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0; found {text!r}")
    return value


def _whole_number(text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number; found {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"expected a whole number >= {minimum}; found {text!r}")
    return value


def _count(text: str) -> int:
    """A whole number >= 1."""
    return _whole_number(text, 1)


def _count_or_zero(text: str) -> int:
    """A whole number >= 0."""
    return _whole_number(text, 0)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="belote-ref", description="Belote rules as data, a reference engine and a conformance suite.")
    parser.add_argument("--version", action="version", version=f"belote-ref {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    rules = commands.add_parser("rules", help="list, show, validate and compare rulesets")
    rules_commands = rules.add_subparsers(dest="rules_command", required=True, metavar="SUBCOMMAND")
    listing = rules_commands.add_parser("list", help="the shipped rulesets")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(handler=cmd_rules_list)
    show = rules_commands.add_parser("show", help="a ruleset's resolved parameters")
    show.add_argument("ruleset", metavar="ID|PATH")
    show.add_argument("--json", action="store_true", help='print {"id","version","parameters"} with dotted keys')
    show.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the values' labels (default en)")
    _add_rules_path_option(show)
    show.set_defaults(handler=cmd_rules_show)
    validate = rules_commands.add_parser("validate", help="check ruleset files (exit 2 on any error)")
    validate.add_argument("paths", nargs="+", metavar="PATH")
    _add_rules_path_option(validate)
    validate.set_defaults(handler=cmd_rules_validate)
    diff = rules_commands.add_parser("diff", help="the parameters that differ between two rulesets")
    diff.add_argument("a", metavar="A")
    diff.add_argument("b", metavar="B")
    diff.add_argument("--lang", choices=("en", "fr"), default="en",
                      help="language of the titles and the values' labels (default en)")
    _add_rules_path_option(diff)
    diff.set_defaults(handler=cmd_rules_diff)
    schema = rules_commands.add_parser("schema", help="print the ruleset JSON Schema generated from the registry")
    schema.add_argument("--check", metavar="FILE", help="compare with FILE instead of printing")
    schema.set_defaults(handler=cmd_rules_schema)
    play = commands.add_parser("play", help="play random legal deals (or a match) and write their records")
    play.add_argument("--ruleset", required=True, metavar="ID|PATH")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--count", type=_count, default=1, help="number of deals (default 1)")
    play.add_argument("--match", action="store_true", help="play a match to its end instead of --count deals")
    play.add_argument("--max-deals", type=_count, default=500, help="stop an unfinished match after this many deals")
    play.add_argument("--out", metavar="FILE", help="write JSON Lines here (default: standard output)")
    play.add_argument("--jobs", type=_shard_count, default=1, metavar="N",
                      help="play --count in N worker processes (blocks of 2,000 deals, each seeded from --seed "
                           "and its number, the first by --seed itself: the same deals as one job)")
    play.set_defaults(handler=cmd_play)

    # Deliberate copy: the commands' argparse declarations are alike in shape only; a shared option has a helper.
    replay = commands.add_parser(
        "replay", help="check every event of recorded deals and print them",
        description="Replay recorded deals: check every call, declaration and card, and compare each recorded "
                    "result with the computed one. A record is good (every event legal, its result agrees), bad "
                    "(not a record, an illegal event, or a result that disagrees or cannot be checked: empty, an "
                    "unknown key, a deal not over) or unchecked (every event legal, no result recorded, e.g. a "
                    "partial deal). Each problem is one line, file:line: message; a bad line never stops the rest. "
                    "Exit 0 when no record is bad, 1 when a record fails its check, 2 when an entry cannot be read "
                    "as a record of a shipped ruleset (or of a --ruleset).")
    replay.add_argument("files", nargs="+", metavar="FILE",
                        help="a .jsonl file (one record per line), a YAML/JSON file, or - for JSON Lines on "
                             "standard input")
    replay.add_argument(
        "--show", action="store_true", help="print every deal trick by trick (default: only a single deal)"
    )
    replay.add_argument("--jobs", type=_shard_count, default=1, metavar="N",
                        help="check a JSON Lines input in N worker processes (shards of "
                             "2,000 lines; the same output, in the same order, as one job)")
    replay.add_argument("--ruleset", action="append", metavar="ID|PATH",
                        help="repeatable: a ruleset (a house rule's file) that records may name by its id and "
                             "version, besides the shipped ones")
    _add_rules_path_option(replay)
    replay.set_defaults(handler=cmd_replay)
    conformance = commands.add_parser("conformance", help="the fixture corpus: lint, coverage, list, dump")
    conformance_commands = conformance.add_subparsers(dest="conformance_command", required=True, metavar="SUBCOMMAND")
    lint_parser = conformance_commands.add_parser("lint", help="check fixture files (exit 1 on any problem)")
    lint_parser.add_argument("paths", nargs="*", metavar="PATH")
    lint_parser.set_defaults(handler=cmd_conformance_lint)
    coverage_parser = conformance_commands.add_parser("coverage", help="fixtures per parameter value, and the gaps")
    coverage_parser.add_argument("--json", action="store_true")
    coverage_parser.add_argument("--strict", action="store_true", help="exit 1 when there is a gap")
    coverage_parser.set_defaults(handler=cmd_conformance_coverage)
    list_parser = conformance_commands.add_parser("list", help="the cases that apply to a ruleset")
    list_parser.add_argument("--ruleset", required=True, metavar="ID|PATH")
    list_parser.set_defaults(handler=cmd_conformance_list)
    dump_parser = conformance_commands.add_parser(
        "dump", help="the applicable cases as JSON lines, expectations included"
    )
    dump_parser.add_argument("--ruleset", required=True, metavar="ID|PATH")
    dump_parser.add_argument("--format", choices=["jsonl"], default="jsonl")
    dump_parser.set_defaults(handler=cmd_conformance_dump)

    run = conformance_commands.add_parser("run", help="run an implementation against the corpus")
    _add_impl_option(run)
    run.add_argument("--ruleset", action="append", metavar="ID|PATH", help="repeatable; default: every shipped ruleset")
    _add_rules_path_option(run)
    run.add_argument("--kind", action="append", metavar="KIND", help="repeatable; default: every kind")
    run.add_argument("--id", metavar="PREFIX", help="only cases whose id starts with PREFIX")
    run.add_argument("--every-branch", action="store_true",
                     help="also run every fixture under every branch of its expectations, each under a ruleset "
                          "generated to reach it (classic with the branch's values), where the adapter claims them")
    run.add_argument("--per-case", action="store_true", help="a fresh adapter for every case")
    run.add_argument("--timeout", type=_seconds, default=10.0, metavar="S", help="per-message timeout (default 10)")
    run.add_argument("--give-up-after", type=_count_or_zero, default=25, metavar="N",
                     help="after N crashes or timeouts in a row, settle the cases left unsent (default 25; 0: never)")
    run.add_argument("--jobs", type=_shard_count, default=1, metavar="N",
                     help="run the cases in N worker processes, each with its own adapter, in contiguous ranges "
                          "(the same report as one job, times aside)")
    run.add_argument("--expected-failures", metavar="FILE", help="lines 'fixture-id [ruleset-id]' expected to fail")
    run.add_argument("--report", metavar="FILE", help="write the JSON Lines report")
    run.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    run.add_argument("--baseline", metavar="FILE", help="print what changed since this report")
    run.add_argument("--fixtures", metavar="DIR", help="run the fixtures of DIR (such as fuzz findings) instead "
                     "of the shipped corpus")
    run.set_defaults(handler=cmd_conformance_run)
    fuzz = conformance_commands.add_parser(
        "fuzz", help="differential testing: random situations, shrunk disagreements written as fixtures",
        description="Send random situations of every kind the adapter declares to it and to the reference engine, "
                    "shrink each disagreement to a minimal situation and write it as a fixture in --out. Exit 0 "
                    "when nothing disagreed, 1 when something did, 2 on bad usage or an adapter that cannot start.")
    _add_impl_option(fuzz)
    fuzz.add_argument("--ruleset", action="append", metavar="ID|PATH",
                      help="repeatable; default: every shipped ruleset the adapter's claims cover")
    _add_rules_path_option(fuzz)
    fuzz.add_argument("--kind", action="append", type=_kind, metavar="KIND",
                      help="repeatable; default: every kind the adapter declares")
    budget = fuzz.add_mutually_exclusive_group()
    budget.add_argument("--budget", type=_count, metavar="N", help="how many situations to draw (default 2000)")
    budget.add_argument("--time", type=_seconds, metavar="S", help="draw situations for S seconds instead")
    fuzz.add_argument("--seed", type=int, metavar="S", help="the run's seed (default: a random one, printed)")
    fuzz.add_argument("--jobs", type=_shard_count, default=1, metavar="J",
                      help="shards in separate processes, each with its own adapter (same result as one job)")
    fuzz.add_argument("--out", default="fuzz-findings", metavar="DIR",
                      help="where to write the findings as fixtures (default: fuzz-findings/)")
    fuzz.add_argument("--report", metavar="FILE", help="write the JSON Lines report")
    fuzz.add_argument("--timeout", type=_seconds, default=10.0, metavar="S", help="per-message timeout (default 10)")
    fuzz.set_defaults(handler=cmd_conformance_fuzz)
    summary = conformance_commands.add_parser("summary", help="re-render a report, or what changed since a baseline")
    summary.add_argument("report", metavar="REPORT")
    summary.add_argument("--baseline", metavar="FILE")
    summary.set_defaults(handler=cmd_conformance_summary)
    merge = conformance_commands.add_parser(
        "merge", help="join the reports of shards of one run into one report",
        description="Join the JSON Lines reports of shards of one run (the same implementation, suite and "
                    "fixtures; cases split by --id, --ruleset or machine) into the report of the whole run: the "
                    "cases in the order given, the footer counted again. A case in two reports, or reports of "
                    "different runs, is an error (exit 2). Exit 0 when no case is bad, 1 otherwise.")
    merge.add_argument("reports", nargs="+", metavar="REPORT")
    merge.add_argument("-o", "--out", required=True, metavar="FILE", help="where to write the merged report")
    merge.set_defaults(handler=cmd_conformance_merge)
    smoke_parser = conformance_commands.add_parser(
        "smoke", help="hello and three simple cases; explain the first mistake"
    )
    smoke_parser.add_argument("--impl", required=True, metavar="CMD")
    smoke_parser.add_argument("--timeout", type=_seconds, default=10.0, metavar="S")
    smoke_parser.set_defaults(handler=cmd_conformance_smoke)

    serve = commands.add_parser("serve", help="the reference engine as a protocol adapter (JSON lines on stdin/stdout)")
    serve.set_defaults(handler=cmd_serve)

    fmt = commands.add_parser("fmt", help="write fixture files in canonical format")
    fmt.add_argument("paths", nargs="*", metavar="PATH")
    fmt.add_argument("--check", action="store_true", help="only report files that are not canonical (exit 1)")
    fmt.set_defaults(handler=cmd_fmt)

    docs = commands.add_parser("docs", help="the rules website: build or serve it (needs the 'docs' extra)")
    docs_commands = docs.add_subparsers(dest="docs_command", required=True, metavar="SUBCOMMAND")
    docs_build = docs_commands.add_parser("build", help="generate the pages and build the site (strict)")
    docs_build.add_argument("--out", default="site", metavar="DIR", help="where to write the site (default: site/)")
    config_help = "the mkdocs.yml (default: the checkout's, else ./mkdocs.yml, else the package's)"
    docs_build.add_argument("--config", metavar="FILE", help=config_help)
    docs_build.add_argument("--verbose", action="store_true", help="show MkDocs' progress messages")
    docs_build.add_argument(
        "--ruleset",
        action="append",
        metavar="FILE",
        help="repeatable: a house-rule file to publish beside the shipped rulesets (its page and rule sheet)",
    )
    docs_build.set_defaults(handler=cmd_docs_build)
    docs_serve = docs_commands.add_parser("serve", help="generate the pages and run mkdocs serve on them")
    docs_serve.add_argument("--config", metavar="FILE", help=config_help)
    docs_serve.add_argument("--dev-addr", metavar="HOST:PORT", help="address to serve on (default 127.0.0.1:8000)")
    docs_serve.add_argument(
        "--ruleset", action="append", metavar="FILE", help="repeatable: a house-rule file to publish"
    )
    docs_serve.set_defaults(handler=cmd_docs_serve)
    return parser


def _command_line(args: argparse.Namespace) -> str:
    """The command as a user would type it again: the program's name, not the path it was run from."""
    import shlex

    return shlex.join(["belote-ref", *args.argv])


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    from belote_ref.errors import BeloteRefError, RulesetError

    try:
        result: int = args.handler(args)
        return result
    except RulesetError as error:
        if args.debug:
            raise
        for diagnostic in error.diagnostics:
            print(diagnostic, file=sys.stderr)
        return EXIT_BAD_INPUT
    except BeloteRefError as error:
        if args.debug:
            raise
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as error:
        if args.debug:
            raise
        print(f"internal error, please report it (rerun with --debug for details): {type(error).__name__}: {error}",
              file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
