"""Mutation testing of the conformance corpus: how many small mistakes in the reference engine does
`belote-ref conformance run` catch, and which ones slip through?

Run: nice python benchmarks/mutants.py [--modules play.py,scoring.py] [--limit N] [--seed S]
     [--fuzz N] [--every-branch] [--timeout S] [--out FILE]

The corpus is worth the mistakes it finds in other people's engines; the nearest stand-in is a
mutant of our own: the engine with ONE small change (a comparison swapped, `and` for `or`, a
`not` dropped, an integer one off, an `if` made always or never taken, `+` for `-`). Each mutant
is written into a copy of the package `belote_ref/` in a temporary folder, and the corpus is run
against it through the protocol: the runner and its expected values come from the unmutated
package of this checkout, and only the adapter, `env PYTHONPATH=COPY python -P -m belote_ref.cli
serve`, imports the copy (`-P` keeps the runner's working folder off the adapter's path; the
script checks, before any mutant, that the adapter's `belote_ref.__file__` is the copy's, that an
unmutated copy passes, and that a mutant which breaks the engine at import is killed).

A mutant is killed when some case fails (the failing cases are counted), when the run exceeds the
per-mutant timeout (a hang counts as a kill, never as a hang of the script), and survives when
every case passes. A survivor is either equivalent (no observable behaviour changes under any
ruleset) or a gap of the corpus that a real engine's bug could slip through. `--every-branch` runs
each survivor again under every branch of every fixture; `--fuzz N` sends each survivor N random
situations (`belote-ref conformance fuzz --budget N`) and says whether the fuzzer kills it.

Mutated modules: the engine's rule modules (play, playtables, scoring, bid_scoring,
announcements, deal, dealing, bids, match, bid_deal), never the CLI, the protocol or the conformance
runner. Docstrings, strings, f-strings (notes) and whatever sits under a `raise` (error messages) or an
`if TYPE_CHECKING:` are never mutated. Each mutant is named `module:line:col:operator`.

Output: the counts (tried, killed by the corpus and how, survived), the survivors with their
one-line change, the fuzzer's verdict on each survivor, and with `--out FILE` one JSON line per
mutant with its outcome. `--list` prints the mutants; `--id ID --materialize` keeps one mutant's
copy and prints its `--impl` command, to check that a new fixture kills it.

Measured on 2026-12-01 (2,039 mutants then; `--limit 150 --seed 1 --fuzz 1000`, on a loaded
two-core machine, 935 s): the plain `conformance run` killed 89 of 150 (59.3%), every kill by failing
cases (median 87 each); the fuzzer (1,000 situations) killed 2 of the 61 survivors. Run again with
`--every-branch`, 18 more survivors die (plain + every branch: 107 of 150, 71.3%). Of the 43 left,
6 were gaps, closed by hand fixtures (a discard on a trump lead holding lower trumps, a revoke after
an opponent ruffed, a carré of nines against a carré of aces, automatic belote with the king and queen
in two hands, four sevens with card reuse allowed, a declared carré of sevens); most others are
equivalent through the protocol (violation rule names and messages, score-sheet notes and zero-point
lines, broken-invariant checks, game.count_passed_deals which protocol 1 cannot express).

Measured again on 2026-12-01 for the modules changed since (`--modules dealing.py,play.py --limit 60
--seed 11 --every-branch --fuzz 500`, 758 s with another mutation run beside it): the corpus killed
27 of 60 (45%), every branch 3 more (two of them on a trump lead under
`play.trump_lead_overtrump: except_partner_winning`, which no shipped ruleset plays), the fuzzer 1. None of the 29 left is a gap
of the corpus. 15 are in `play.run_tricks`, the engine's own fast path, which through the protocol
only checks a whole recorded deal and hands any deal it refuses to the card-by-card path (so only a
mutant that accepts an illegal card could show); `tests/test_run_tricks.py`, which holds it equal
to `legal_mask`, kills 13 of them (one by hanging), and the other two count the lowest trump as a
plain winner (`ws < 9`, `ws <= 8`), where every rung gives the same cards: equivalent. 12 are in
the readable ladder of `explain_illegal` (the rule and the words a refusal names, not part of a
result). 2 are in the deck check of `dealing.py`, which the protocol's deal kind never reaches with
a bad deck (a malformed `given` is an error of the runner's, not a case).

Measured on 2026-12-02 for the bidding family's modules (`--modules bid_scoring.py,bids.py,bid_deal.py
--limit 60 --seed 23 --every-branch --fuzz 500`, 767 s with two other jobs beside it): the corpus
killed 41 of 60 (68%), every branch 6 more (a carré of sevens that voids a deal, auction.bid_target
plus_two, the générale, and a takers' point on a chute that the shipped rulesets' rounding hides),
the fuzzer none. None of the 13 left is a gap: 5 change score-sheet notes or rule names (not part of
a result), 7 the wording or the checks of a refused call, 1 a broken-invariant check.

Measured on 2026-12-02 for scoring, announcements and the match (`--modules
scoring.py,announcements.py,match.py --limit 60 --seed 31 --every-branch --fuzz 500`, 885 s with two
other jobs beside it): the corpus killed 43 of 60 (72%), every branch 9 more, the fuzzer none. Of the 8
left, 2 were gaps, closed by hand fixtures (a tierce declared as a quarte, a run of ranks in two suits
declared as a tierce: score.announcements.tierce-declared-as-a-quarte and .tierce-of-two-suits);
the others are score-sheet notes (3), a conversion to CardSet and a lookup's None check that change
nothing, and game.count_passed_deals, which protocol 1 cannot show. The fuzzer sends only valid
situations, so a mistake in checking a malformed declaration is the corpus's to find.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import py_compile
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "belote_ref"
ENGINE_MODULES = ("engine/play.py", "rules/playtables.py", "engine/scoring.py", "engine/bids/scoring.py",
                  "engine/announcements.py", "engine/deal.py", "engine/bids/auction.py", "engine/match.py",
                  "engine/bids/deal.py", "engine/dealing.py")

COMPARISON_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
ARITHMETIC_SWAPS: dict[type[ast.operator], type[ast.operator]] = {ast.Add: ast.Sub, ast.Sub: ast.Add}


@dataclass(frozen=True)
class Mutant:
    module: str
    line: int
    col: int
    operator: str

    @property
    def ident(self) -> str:
        return f"{self.module}:{self.line}:{self.col}:{self.operator}"


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


def _skipped_subtrees(tree: ast.AST) -> set[int]:
    """The ids of nodes never mutated: error messages (under `raise`), f-strings, annotations, TYPE_CHECKING."""
    skipped: set[int] = set()

    def skip(node: ast.AST | None) -> None:
        if node is not None:
            skipped.update(id(inner) for inner in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, (ast.Raise, ast.JoinedStr)):
            skip(node)
        elif isinstance(node, (ast.AnnAssign, ast.arg)):
            skip(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            skip(node.returns)
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip(node)
    return skipped


def _sites(module: str, tree: ast.AST) -> Iterator[tuple[Mutant, ast.AST]]:
    """Every mutant of ``tree`` with the node it changes; nested nodes that start at the same column
    (``a + b + c``) get ``#2``, ``#3`` after their operator, in the order of :func:`ast.walk`."""
    seen: dict[Mutant, int] = {}
    for mutant, node in _raw_sites(module, tree):
        count = seen.get(mutant, 0) + 1
        seen[mutant] = count
        yield (mutant if count == 1 else Mutant(mutant.module, mutant.line, mutant.col,
                                                 f"{mutant.operator}#{count}")), node


def _raw_sites(module: str, tree: ast.AST) -> Iterator[tuple[Mutant, ast.AST]]:
    skipped = _skipped_subtrees(tree)
    for node in ast.walk(tree):
        if id(node) in skipped or not hasattr(node, "lineno"):
            continue
        here = (module, node.lineno, node.col_offset)
        if isinstance(node, ast.Compare):
            for index, op in enumerate(node.ops):
                if type(op) in COMPARISON_SWAPS:
                    suffix = f"{index}" if len(node.ops) > 1 else ""
                    name = f"{type(op).__name__}->{COMPARISON_SWAPS[type(op)].__name__}{suffix}"
                    yield Mutant(*here, name), node
        elif isinstance(node, ast.BoolOp):
            yield Mutant(*here, "and->or" if isinstance(node.op, ast.And) else "or->and"), node
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield Mutant(*here, "drop-not"), node
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            yield Mutant(*here, "int+1"), node
            yield Mutant(*here, "int-1"), node
        elif isinstance(node, (ast.If, ast.IfExp)):
            yield Mutant(*here, "if-true"), node
            yield Mutant(*here, "if-false"), node
        elif isinstance(node, ast.BinOp) and type(node.op) in ARITHMETIC_SWAPS:
            if not (_is_text(node.left) or _is_text(node.right)):
                yield Mutant(*here, "add->sub" if isinstance(node.op, ast.Add) else "sub->add"), node
        elif isinstance(node, ast.AugAssign) and type(node.op) in ARITHMETIC_SWAPS and not _is_text(node.value):
            yield Mutant(*here, "add->sub" if isinstance(node.op, ast.Add) else "sub->add"), node


def all_mutants(modules: list[str]) -> list[Mutant]:
    found: list[Mutant] = []
    for module in modules:
        tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
        found.extend(mutant for mutant, _ in _sites(module, tree))
    return found


def _change(node: ast.AST, operator: str) -> None:
    """Apply ``operator`` to ``node`` in place."""
    operator = operator.partition("#")[0]
    if isinstance(node, ast.Compare):
        index = int(operator[-1]) if operator[-1].isdigit() else 0
        node.ops[index] = COMPARISON_SWAPS[type(node.ops[index])]()
    elif isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif isinstance(node, ast.Constant):
        node.value = node.value + (1 if operator == "int+1" else -1)
    elif isinstance(node, (ast.If, ast.IfExp)):
        node.test = ast.Constant(operator == "if-true")
    elif isinstance(node, (ast.BinOp, ast.AugAssign)):
        node.op = ARITHMETIC_SWAPS[type(node.op)]()
    else:
        raise SystemExit(f"mutants: cannot apply {operator} to {type(node).__name__}")


def _shown(node: ast.AST) -> str:
    return _clipped(ast.unparse(node))


def _clipped(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 100 else text[:97] + "..."


def mutated_source(mutant: Mutant) -> tuple[str, str]:
    """The mutated module's source and the one-line change (``module:line: before  ->  after``)."""
    original = (PACKAGE / mutant.module).read_text(encoding="utf-8")
    tree = ast.parse(original)
    for candidate, node in _sites(mutant.module, tree):
        if candidate == mutant:
            shown = node.test if isinstance(node, (ast.If, ast.IfExp)) else node
            segment = ast.get_source_segment(original, shown)
            if isinstance(node, ast.UnaryOp):
                # Dropping a `not`: the operand takes the place of the `not` in its parent.
                _replace(_parent(tree, node), node, node.operand)
                replacement = ast.unparse(node.operand)
            else:
                _change(node, mutant.operator)
                replacement = ast.unparse(node.test if isinstance(node, (ast.If, ast.IfExp)) else node)
            line = original.splitlines()[shown.lineno - 1]
            if segment is not None and "\n" not in segment and line[shown.col_offset:].startswith(segment):
                after = line[:shown.col_offset] + replacement + line[shown.col_offset + len(segment):]
                change = f"{line.strip()}  ->  {after.strip()}"
            else:
                change = f"{_shown(shown)}  ->  {_clipped(replacement)}"
            return ast.unparse(tree) + "\n", f"{mutant.module}:{mutant.line}: {change}"
    raise SystemExit(f"mutants: no such mutant {mutant.ident}")


def _parent(tree: ast.AST, target: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            if child is target:
                return node
    raise SystemExit("mutants: a node without parent")


def _replace(parent: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for field, value in ast.iter_fields(parent):
        if value is old:
            setattr(parent, field, new)
            return
        if isinstance(value, list):
            for index, item in enumerate(value):
                if item is old:
                    value[index] = new
                    return
    raise SystemExit("mutants: cannot replace a node")


class Workspace:
    """A copy of the package in a temporary folder, one module of which holds the current mutant."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="belote-mutants-"))
        shutil.copytree(PACKAGE, self.folder / "belote_ref", ignore=shutil.ignore_patterns("__pycache__"))
        for data in ("rules", "schema", "conformance"):
            (self.folder / data).symlink_to(ROOT / data)
        for source in (self.folder / "belote_ref").rglob("*.py"):
            self._compile(source)

    @staticmethod
    def _compile(path: Path) -> None:
        # Hash-checked byte code: a mutant the same size as the original, written in the same
        # second, must never run the original's cached byte code.
        py_compile.compile(str(path), doraise=True, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)

    def write(self, module: str, source: str) -> None:
        path = self.folder / "belote_ref" / module
        path.write_text(source, encoding="utf-8")
        self._compile(path)

    def restore(self, module: str) -> None:
        self.write(module, (PACKAGE / module).read_text(encoding="utf-8"))

    def adapter(self) -> str:
        return shlex.join(["env", f"PYTHONPATH={self.folder}", sys.executable, "-P", "-m", "belote_ref.cli", "serve"])

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


PROGRESS = re.compile(r"(\d+)/(\d+) cases, (\d+) bad")


@dataclass
class Finished:
    code: int | None  # None: stopped by the script (timeout, or early once cases failed)
    output: str
    bad_so_far: int = 0
    timed_out: bool = False


def _stop(process: subprocess.Popen[str]) -> None:
    # SIGTERM first: the runner then kills its adapters' groups itself (its reaper covers SIGKILL).
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _run(argv: list[str], timeout: float, early: float | None = None) -> Finished:
    """Run ``argv`` in a session of its own, stopped after ``timeout`` seconds, or after ``early``
    seconds once its progress lines count a bad case (a mutant whose every case crashes costs a
    restart of the adapter per case: waiting for all of them tells nothing more)."""
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True, text=True)
    lines: list[str] = []
    def read() -> None:
        for line in process.stdout or ():
            lines.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    started = time.monotonic()
    while process.poll() is None:
        elapsed = time.monotonic() - started
        bad = max((int(m.group(3)) for line in lines[-3:] if (m := PROGRESS.search(line))), default=0)
        if elapsed > timeout:
            _stop(process)
            return Finished(None, "".join(lines), bad, timed_out=True)
        if early is not None and elapsed > early and bad:
            _stop(process)
            return Finished(None, "".join(lines), bad)
        time.sleep(0.2)
    reader.join(timeout=10)
    return Finished(process.returncode, "".join(lines))


def _read_counts(report: Path) -> tuple[dict[str, int], list[str]]:
    counts: dict[str, int] = {}
    failing: list[str] = []
    if not report.exists():
        return counts, failing
    for line in report.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("type") == "footer":
            counts = record.get("counts", {})
        elif record.get("type") == "case" and record.get("outcome") not in ("pass", "n/a", "skip", "xfail"):
            failing.append(record["id"])
    return counts, failing


def corpus_verdict(workspace: Workspace, timeout: float, every_branch: bool = False,
                   early: float | None = None) -> dict[str, Any]:
    """Run the corpus against the workspace's adapter: killed or survived, and by which cases."""
    report = workspace.folder / "report.jsonl"
    report.unlink(missing_ok=True)
    argv = [sys.executable, "-m", "belote_ref.cli", "conformance", "run", "--impl", workspace.adapter(),
            "--timeout", "5", "--report", str(report)]
    if every_branch:
        argv.append("--every-branch")
    started = time.monotonic()
    finished = _run(argv, timeout, early)
    code, output = finished.code, finished.output
    seconds = round(time.monotonic() - started, 1)
    if finished.timed_out:
        return {"outcome": "killed", "how": "timeout", "failing": finished.bad_so_far, "seconds": seconds}
    if code is None:
        return {"outcome": "killed", "how": "cases", "failing": finished.bad_so_far, "stopped_early": True,
                "seconds": seconds}
    counts, failing = _read_counts(report)
    bad = sum(counts.get(name, 0) for name in ("fail", "error", "crash", "timeout", "xpass"))
    if code == 0 and bad == 0:
        return {"outcome": "survived", "seconds": seconds}
    how = "cases" if failing else "runner exit " + str(code)
    return {"outcome": "killed", "how": how, "failing": len(failing), "first": failing[:3],
            "counts": {k: v for k, v in counts.items() if v}, "seconds": seconds,
            **({} if failing else {"output": output[-300:]})}


def fuzz_verdict(workspace: Workspace, budget: int, seed: int, timeout: float) -> dict[str, Any]:
    out = workspace.folder / "fuzz-findings"
    shutil.rmtree(out, ignore_errors=True)
    argv = [sys.executable, "-m", "belote_ref.cli", "conformance", "fuzz", "--impl", workspace.adapter(),
            "--budget", str(budget), "--seed", str(seed), "--timeout", "5", "--out", str(out)]
    finished = _run(argv, timeout)
    code, output = finished.code, finished.output
    if code is None:
        return {"fuzz": "killed", "fuzz_how": "timeout"}
    if code == 0:
        return {"fuzz": "survived"}
    findings = sorted(path.name for path in out.rglob("*.yaml")) if out.exists() else []
    return {"fuzz": "killed" if code == 1 else f"error (exit {code})", "fuzz_findings": len(findings),
            "fuzz_first": findings[:2], **({} if code == 1 else {"fuzz_output": output[-300:]})}


def self_check(workspace: Workspace, timeout: float) -> None:
    """The adapter imports the copy; an unmutated copy passes; a mutant broken at import is killed."""
    env = {**os.environ, "PYTHONPATH": str(workspace.folder)}
    probe = subprocess.run([sys.executable, "-P", "-c", "import belote_ref; print(belote_ref.__file__)"],
                           cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    imported = probe.stdout.strip()
    print(f"self-check: the adapter imports {imported}")
    if not imported.startswith(str(workspace.folder)):
        raise SystemExit(f"mutants: the adapter would import {imported!r}, not the copy in {workspace.folder}")
    for module in ENGINE_MODULES:
        workspace.write(module, ast.unparse(ast.parse((PACKAGE / module).read_text(encoding="utf-8"))) + "\n")
    unmutated = corpus_verdict(workspace, timeout)
    for module in ENGINE_MODULES:
        workspace.restore(module)
    print(f"self-check: the unparsed, unmutated copy {unmutated['outcome']} ({unmutated['seconds']} s)")
    if unmutated["outcome"] != "survived":
        raise SystemExit(f"mutants: the unmutated copy fails the corpus: {unmutated}")
    original = (PACKAGE / "engine/play.py").read_text(encoding="utf-8")
    workspace.write("engine/play.py", original + "\nraise SystemExit('a mutant that breaks everything')\n")
    broken = corpus_verdict(workspace, timeout, early=1.0)
    workspace.restore("engine/play.py")
    print(f"self-check: a mutant that breaks the engine at import is {broken['outcome']} ({broken.get('how')})")
    if broken["outcome"] != "killed":
        raise SystemExit("mutants: a broken engine was not killed: the adapter does not run the copy")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modules", default=",".join(ENGINE_MODULES),
                        help="comma-separated engine modules to mutate (default: all of them)")
    parser.add_argument("--limit", type=int, default=None, help="a random sample of N mutants")
    parser.add_argument("--seed", type=int, default=1, help="the sample's seed, also the fuzzer's")
    parser.add_argument("--timeout", type=float, default=120.0, help="per-mutant seconds (a hang is a kill)")
    parser.add_argument("--early", type=float, default=30.0,
                        help="stop a run after S seconds once a case failed (its count is then a lower bound)")
    parser.add_argument("--fuzz", type=int, default=0, metavar="N", help="fuzz each survivor with N situations")
    parser.add_argument("--every-branch", action="store_true", help="run each survivor again with --every-branch")
    parser.add_argument("--id", action="append", default=[], help="only this mutant (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--out", type=Path, help="write one JSON line per mutant")
    parser.add_argument("--no-self-check", action="store_true")
    parser.add_argument("--materialize", action="store_true",
                        help="write the one mutant given by --id into a kept copy and print its --impl command")
    args = parser.parse_args()
    if os.nice(0) < 10:
        os.nice(10 - os.nice(0))
    modules = [name.strip() for name in args.modules.split(",") if name.strip()]
    unknown = [name for name in modules if name not in ENGINE_MODULES]
    if unknown:
        parser.error(f"not an engine module: {', '.join(unknown)} (choose from {', '.join(ENGINE_MODULES)})")
    mutants = all_mutants(modules)
    print(f"{len(mutants)} mutants in {', '.join(modules)}")
    if args.id:
        wanted = set(args.id)
        mutants = [mutant for mutant in mutants if mutant.ident in wanted]
        missing = wanted - {mutant.ident for mutant in mutants}
        if missing:
            parser.error(f"no such mutant: {', '.join(sorted(missing))}")
    elif args.limit is not None and args.limit < len(mutants):
        mutants = random.Random(args.seed).sample(mutants, args.limit)
        mutants.sort(key=lambda m: (m.module, m.line, m.col, m.operator))
    if args.list:
        for mutant in mutants:
            print(mutant.ident, "  ", mutated_source(mutant)[1])
        return 0
    if args.materialize:
        if len(mutants) != 1:
            parser.error("--materialize needs exactly one --id")
        kept = Workspace()
        source, change = mutated_source(mutants[0])
        kept.write(mutants[0].module, source)
        print(change)
        print(f"--impl {shlex.quote(kept.adapter())}")
        return 0
    workspace = Workspace()
    out = args.out.open("w", encoding="utf-8") if args.out else None
    results: list[dict[str, Any]] = []
    try:
        if not args.no_self_check:
            self_check(workspace, args.timeout)
        started = time.monotonic()
        for number, mutant in enumerate(mutants, 1):
            source, change = mutated_source(mutant)
            workspace.write(mutant.module, source)
            result: dict[str, Any] = {"mutant": mutant.ident, "change": change,
                                      **corpus_verdict(workspace, args.timeout, early=args.early)}
            if result["outcome"] == "survived" and args.every_branch:
                branch = corpus_verdict(workspace, args.timeout * 2, every_branch=True)
                result["every_branch"] = branch["outcome"]
                result["every_branch_failing"] = branch.get("failing", 0)
            if result["outcome"] == "survived" and args.fuzz:
                result.update(fuzz_verdict(workspace, args.fuzz, args.seed, args.timeout))
            workspace.restore(mutant.module)
            results.append(result)
            plus = "+" if result.get("stopped_early") else ""
            shown = result["outcome"] + (f" ({result['how']}, {result.get('failing', 0)}{plus} cases)"
                                         if result["outcome"] == "killed" else "")
            extra = "".join(f", {key} {result[key]}" for key in ("every_branch", "fuzz") if key in result)
            print(f"[{number}/{len(mutants)}] {mutant.ident}: {shown}{extra}  [{result['seconds']} s]", flush=True)
            if out:
                out.write(json.dumps(result) + "\n")
                out.flush()
        elapsed = time.monotonic() - started
    finally:
        if out:
            out.close()
        workspace.remove()
    summarize(results, elapsed, args)
    return 0


def summarize(results: list[dict[str, Any]], elapsed: float, args: argparse.Namespace) -> None:
    killed = [r for r in results if r["outcome"] == "killed"]
    survivors = [r for r in results if r["outcome"] == "survived"]
    by_cases = [r for r in killed if r["how"] == "cases"]
    timeouts = [r for r in killed if r["how"] == "timeout"]
    other = len(killed) - len(by_cases) - len(timeouts)
    tried = len(results)
    print()
    print(f"mutants tried: {tried} in {elapsed:.0f} s")
    if not tried:
        return
    print(f"killed by the corpus: {len(killed)} ({100 * len(killed) / tried:.1f}%): {len(by_cases)} by failing cases"
          f" (median {_median([r['failing'] for r in by_cases])} cases each), {len(timeouts)} by the timeout,"
          f" {other} by the runner's exit")
    print(f"survived: {len(survivors)}")
    if args.every_branch and survivors:
        branch = [r for r in survivors if r.get("every_branch") == "killed"]
        print(f"survivors killed by --every-branch: {len(branch)} of {len(survivors)}")
    if args.fuzz and survivors:
        fuzzed = [r for r in survivors if r.get("fuzz") == "killed"]
        print(f"survivors killed by the fuzzer (--budget {args.fuzz}): {len(fuzzed)} of {len(survivors)}")
    for result in survivors:
        marks = "".join(f" [{key} {result[key]}]" for key in ("every_branch", "fuzz") if key in result)
        print(f"  {result['mutant']}{marks}\n      {result['change']}")


def _median(values: list[int]) -> int:
    return sorted(values)[len(values) // 2] if values else 0


if __name__ == "__main__":
    sys.exit(main())
