"""What a fuzz run leaves: the findings as fixture files, the JSON Lines report, the progress line
and the summary of ``belote-ref conformance fuzz``."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from belote_ref.conformance.applicability import check_claims
from belote_ref.conformance.fuzz import (
    BLOCK,
    SHRINKS_PER_BLOCK,
    FuzzError,
    FuzzOptions,
    FuzzOutcome,
    FuzzRun,
    fuzz,
)
from belote_ref.conformance.fuzz_findings import Finding, FindingFiles, check_out_folder
from belote_ref.conformance.fuzz_shrink import compile_ruleset, departures_from_classic
from belote_ref.core.errors import BeloteRefError
from belote_ref.core.version import __version__
from belote_ref.protocol.serve import KINDS

__all__ = ["FuzzProgress", "check_report_path", "report_lines", "run_from_cli", "summary_lines", "write_findings",
           "write_report"]


def write_findings(outcome: FuzzOutcome, folder: Path) -> FindingFiles:
    """Write each finding's fixture in ``folder`` (see :class:`FindingFiles`); the writer, with the
    findings it refused."""

    files = FindingFiles(folder)
    for finding in outcome.findings:
        files.write(finding)
    return files


def check_report_path(report: Path | None) -> None:
    """Refuse (a usage error) a ``--report`` that cannot be written, before the run."""
    if report is None:
        return
    if report.is_dir():
        raise FuzzError(f"--report {report}: is a folder")
    if not report.parent.is_dir():
        raise FuzzError(f"--report {report}: no folder {report.parent}")


def write_report(path: Path, lines: list[dict[str, Any]]) -> None:
    """Write the report whole: a new file renamed over ``path`` (never written through a link, and
    never half written when the run is stopped while writing)."""
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise BeloteRefError(f"--report {path}: cannot write: {error.strerror}", code="io") from None


def report_lines(outcome: FuzzOutcome, options: FuzzOptions, command: str,
                 status: str = "complete") -> list[dict[str, Any]]:
    """The JSON Lines report: a header, one line per distinct disagreement, a footer with the counts
    and the run's ``status``: ``complete``, ``running`` (written after each finding) or
    ``interrupted``."""
    implementation = outcome.hello.get("implementation") or {}
    lines: list[dict[str, Any]] = [{
        "type": "header", "tool": "belote-ref conformance fuzz", "suite": __version__, "command": command,
        "seed": options.seed, "budget": options.budget, "time": options.seconds, "jobs": options.jobs,
        "shrink_budget": options.shrink_budget,
        "kinds": outcome.kinds, "rulesets": outcome.ruleset_ids,
        "adapter": {key: implementation.get(key) for key in ("name", "version", "language") if key in implementation},
    }]
    for finding in outcome.findings:
        found = finding.disagreement
        rules = compile_ruleset(found.params, found.ruleset_id)
        lines.append({
            "type": "disagreement", "id": finding.fixture["id"], "kind": found.kind, "outcome": found.outcome,
            "count": finding.count, "situation": found.index, "shrink_steps": found.steps,
            "shrink_calls": found.shrink_calls,
            "fixture": str(finding.path) if finding.path else None,
            "rules": finding.fixture["rules"], "departures": departures_from_classic(rules) if rules else {},
            "differences": found.differences, "message": found.message, "given": found.given,
            "expected": found.expected, "got": found.got,
        })
    lines.append({"type": "footer", "counts": {**outcome.counts, "unshrunk": outcome.unshrunk},
                  "distinct": len(outcome.findings), "ok": outcome.ok and status == "complete", "status": status,
                  "lost": outcome.lost, "seconds": round(outcome.seconds, 3)})
    return lines


class FuzzProgress:
    """A progress line on standard error: rewritten in place on a terminal, else a line every tenth
    of the budget (or every 10 s under ``--time``)."""

    def __init__(self, stream: Any, budget: int | None) -> None:
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.budget = budget
        self.totals = {"send": [0, 0], "shrink": [0, 0]}
        self.last_step = -1
        self.last_time = time.monotonic()

    def __call__(self, phase: str, situations: int, disagreements: int) -> None:
        total = self.totals[phase]
        total[0] += situations
        total[1] += disagreements
        sent, disagreeing = self.totals["send"]
        text = f"{sent} situations sent, {disagreeing} disagreements"
        if self.totals["shrink"][0]:
            text += f", {self.totals['shrink'][0]} shrunk"
        if self.tty:
            self.stream.write(f"\r{text}   ")
            self.stream.flush()
            return
        step = 10 * sent // self.budget if self.budget else -1
        now = time.monotonic()
        if (self.budget and step > self.last_step) or (not self.budget and now - self.last_time >= 10) \
                or (phase == "shrink" and now - self.last_time >= 10):
            self.last_step, self.last_time = step, now
            print(text, file=self.stream, flush=True)

    def finish(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def summary_lines(outcome: FuzzOutcome) -> list[str]:
    """The lines printed at the end of a run."""
    counts = outcome.counts
    lines = [(f"{counts['situations']} situations: {counts['sent']} sent, {counts['agree']} agree, "
              f"{counts['disagree']} disagree, {counts['n/a']} not applicable, {counts['skip']} skipped")]
    for finding in outcome.findings:
        found = finding.disagreement
        what = "; ".join(found.differences) if found.outcome == "fail" else f"{found.outcome}: {found.message}"
        where = f" -> {finding.path}" if finding.path else ""
        lines.append(f"  {finding.fixture['id']} ({found.kind}, x{finding.count}): {what}{where}")
    if outcome.unshrunk:
        lines.append(f"  {outcome.unshrunk} more disagreement(s) not shrunk (at most {SHRINKS_PER_BLOCK} of each kind "
                     f"in a block of {BLOCK} situations are, and {outcome.shrink_limit} a job)")
    lines.extend(f"  {lost}" for lost in outcome.lost)
    return lines


def run_from_cli(options: FuzzOptions, out: Path, report: Path | None, command: str) -> int:
    """What ``belote-ref conformance fuzz`` does; returns the exit status (0 agree, 1 disagree,
    130 or 143 when stopped by SIGINT or SIGTERM). Each finding is written as it is made, and the
    report after each finding and at the end, interrupted or not."""
    check_out_folder(out)
    check_report_path(report)
    print(f"fuzzing with seed {options.seed} (rerun with --seed {options.seed} to reproduce)", file=sys.stderr)
    progress = FuzzProgress(sys.stderr, options.budget)
    files = FindingFiles(out)

    def on_finding(finding: Finding) -> None:
        files.write(finding)
        if report is not None:
            write_report(report, report_lines(state.outcome(), options, command, "running"))

    state = FuzzRun(options, on_finding, progress)
    stopped: int | None = None
    try:
        outcome = fuzz(options, progress, state)
    except KeyboardInterrupt:
        stopped = 130
    except SystemExit as exit_:  # SIGTERM (terminate_on_sigterm)
        stopped = exit_.code if isinstance(exit_.code, int) else 143
    progress.finish()
    if stopped is not None:
        outcome = state.outcome(interrupted=True)
    for warning in check_claims(outcome.hello, KINDS):
        print(f"warning: hello: {warning}", file=sys.stderr)
    for refused in files.refused:
        print(f"warning: {refused}", file=sys.stderr)
    implementation = outcome.hello.get("implementation") or {}
    print(f"{implementation.get('name')} {implementation.get('version', '')} against the reference engine, "
          f"seed {options.seed}, kinds {' '.join(outcome.kinds)}")
    for line in summary_lines(outcome):
        print(line)
    if report is not None:
        write_report(report, report_lines(outcome, options, command, "interrupted" if stopped else "complete"))
    if stopped is not None:
        kept = sum(1 for finding in outcome.findings if finding.path)
        print(f"interrupted after {outcome.counts['situations']} situations: {kept} finding(s) kept in {out}"
              + (f", the report in {report}" if report is not None else ""), file=sys.stderr)
        return stopped
    if outcome.counts["sent"] == 0:
        print("no situation was sent: the adapter's hello claims none of them, or it skipped them all",
              file=sys.stderr)
        return 1
    return 0 if outcome.ok else 1
