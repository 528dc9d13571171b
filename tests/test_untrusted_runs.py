"""Runs that keep their results, reports read safely, workers that may die (issue 31).

Each test is a defect of the second fault sweep kept as a must-survive or must-reject case:
an interrupted ``conformance run`` leaves its report with a footer saying so; ``--report`` never
writes over its own ``--baseline``; the report reader refuses bad input as ``FILE:LINE:`` (exit 2)
and reads what the runner wrote; a ``--jobs`` worker that dies is replaced, its shard run again;
an interrupted ``--jobs`` run prints one line; ``--fixtures`` runs only what ``lint`` accepts.

Signals are sent once the report file shows graded cases (polled, with generous deadlines), so
the tests hold on a loaded machine.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from belote_ref.cli import main
from belote_ref.conformance.corpus import fixtures_dir
from belote_ref.conformance.fmt import format_fixture
from belote_ref.conformance.report_file import ReportWriter, read_report, report_bytes
from belote_ref.core.resources import data_dir
from belote_ref.core.yamlsource import read_yaml
from belote_ref.protocol.serve import adapter as reference_adapter
from belote_ref.records.shards import ordered_map
from belote_ref.records.workers import WorkerLostError

DEADLINE = 120.0  # seconds: only a failure waits this long
COMMAND = [sys.executable, "-m", "belote_ref.cli", "conformance", "run"]


def poll(condition: Callable[[], Any], what: str, deadline: float = DEADLINE) -> Any:
    """``condition()`` once it is true; fails after ``deadline`` seconds."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)  # polling interval, not synchronisation: the condition decides
    pytest.fail(f"timed out waiting for {what}")


def case_lines(path: Path) -> int:
    """How many whole case lines the report at ``path`` holds so far."""
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return 0
    return sum(1 for line in text.split(b"\n")[:-1] if line.startswith(b'{"type": "case"'))


def start_run(argv: list[str], **popen: Any) -> subprocess.Popen[str]:
    return subprocess.Popen([*COMMAND, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            **popen)


def finish(process: subprocess.Popen[str]) -> tuple[int, str]:
    try:
        _, err = process.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
        pytest.fail(f"the run did not end; stderr: {err[-2000:]}")
    return process.returncode, err


def run_cli(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# --------------------------------------------------------------------- interrupted runs keep

@pytest.mark.parametrize(("sent", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupted_run_keeps_the_cases_it_graded(tmp_path: Path, sent: signal.Signals, status: int,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "run.jsonl"
    process = start_run(["--report", str(report)])  # the whole corpus: minutes, interrupted early
    poll(lambda: case_lines(report) >= 40 or process.poll() is not None, "graded cases in the report")
    process.send_signal(sent)
    returncode, err = finish(process)
    assert returncode == status, err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"interrupted ({sent.name}); {report} keeps the "), err
    assert "Traceback" not in err
    lines = read_report(report)
    footer = lines[-1]
    graded = [line for line in lines if line["type"] == "case"]
    assert footer["type"] == "footer" and footer["complete"] is False and footer["ok"] is False
    assert footer["interrupted"] == sent.name
    assert footer["graded"] == len(graded) >= 40 and footer["cases"] > len(graded)
    assert sum(footer["counts"].values()) == len(graded)
    validator = jsonschema.Draft202012Validator(json.loads((data_dir("schema") / "report.schema.json").read_text()))
    for line in (lines[0], graded[0], footer):
        validator.validate(line)
    # summary reads it and says so; the run was not complete, so it is not a success.
    code, out, _ = run_cli(capsys, ["conformance", "summary", str(report)])
    assert code == 1
    assert f"the run was interrupted ({sent.name}): {len(graded)} of {footer['cases']} case(s) graded" in out


def test_a_report_cut_off_without_footer_is_read_and_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "run.jsonl"
    assert run_cli(capsys, ["conformance", "run", "--id", "play.follow.", "--ruleset", "classic",
                            "--report", str(report)])[0] == 0
    lines = report.read_bytes().split(b"\n")
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(lines[:4]) + b"\n")  # header and three cases: a run killed outright
    code, out, err = run_cli(capsys, ["conformance", "summary", str(cut)])
    assert code == 1, err
    assert "the run was cut off: the report has no footer, 3 case(s) graded" in out


def test_merge_says_a_shard_was_interrupted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole, part = tmp_path / "classic.jsonl", tmp_path / "pagat.jsonl"
    for path, ruleset in ((whole, "classic"), (part, "pagat")):
        assert run_cli(capsys, ["conformance", "run", "--id", "play.follow.", "--ruleset", ruleset,
                                "--report", str(path)])[0] == 0
    lines = read_report(part)
    interrupted = tmp_path / "interrupted.jsonl"
    writer = ReportWriter(interrupted, len(lines) - 2)
    writer.header(lines[0])
    writer.case(0, lines[1])
    writer.finish(interrupted="SIGTERM")
    merged = tmp_path / "merged.jsonl"
    code, _, err = run_cli(capsys, ["conformance", "merge", str(whole), str(interrupted), "-o", str(merged)])
    assert code == 1
    assert f"warning: {interrupted}: the run was interrupted (SIGTERM): 1 of {len(lines) - 2} case(s) graded" in err
    footer = read_report(merged)[-1]
    assert footer["complete"] is False and footer["ok"] is False and str(interrupted) in footer["interrupted"]


def test_the_writer_puts_lines_in_case_order_and_an_interruption_keeps_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    writer = ReportWriter(path, 4)
    writer.header({"type": "header", "runner": {}, "suite": "x", "protocol": 3, "adapter": {"name": "a"}})
    case = {"type": "case", "kind": "deal", "ruleset": "classic", "outcome": "pass"}
    writer.case(2, {**case, "id": "c"})
    assert case_lines(path) == 0  # case 2 waits for cases 0 and 1
    writer.case(0, {**case, "id": "a"})
    assert case_lines(path) == 1  # written and flushed at once
    lines = writer.finish(interrupted="SIGINT")
    assert [line.get("id") for line in read_report(path)] == [None, "a", "c", None]
    assert lines[-1]["graded"] == 2 and lines[-1]["cases"] == 4


def test_a_lone_surrogate_is_written_as_an_escape(tmp_path: Path) -> None:
    line = report_bytes({"type": "case", "message": "bad \ud800 é"})
    assert b"\\ud800" in line and json.loads(line)["message"] == "bad \ud800 é"


# ------------------------------------------------------------------- never over the baseline

def test_the_report_is_never_written_over_its_baseline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    baseline = tmp_path / "base.jsonl"
    assert run_cli(capsys, ["conformance", "run", "--id", "play.follow.", "--ruleset", "classic",
                            "--report", str(baseline)])[0] == 0
    kept = baseline.read_bytes()
    link, hard = tmp_path / "link.jsonl", tmp_path / "hard.jsonl"
    link.symlink_to(baseline)
    os.link(baseline, hard)
    for same in (baseline, tmp_path / "." / "base.jsonl", link, hard):
        code, _, err = run_cli(capsys, ["conformance", "run", "--id", "play.follow.", "--ruleset", "classic",
                                        "--report", str(same), "--baseline", str(baseline)])
        assert code == 2
        assert err.count("\n") == 1 and f"--report {same} is the file of --baseline" in err
        assert baseline.read_bytes() == kept
    code, _, err = run_cli(capsys, ["conformance", "run", "--id", "play.follow.", "--ruleset", "classic",
                                    "--junit", str(baseline), "--baseline", str(baseline)])
    assert code == 2 and "--junit" in err and baseline.read_bytes() == kept


def test_the_baseline_is_read_before_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    baseline, report = tmp_path / "base.jsonl", tmp_path / "new.jsonl"
    baseline.write_bytes(b'{"type": "case"}\n')
    code, _, err = run_cli(capsys, ["conformance", "run", "--id", "play.follow.", "--ruleset", "classic",
                                    "--report", str(report), "--baseline", str(baseline)])
    assert code == 2 and err.startswith(f"error: {baseline}:1: ")
    assert not report.exists()


# ------------------------------------------------------------------------- the report reader

HEADER = {"type": "header", "runner": {"name": "belote-ref"}, "suite": "0", "protocol": 3,
          "adapter": {"name": "x"}, "impl": None}
CASE = {"type": "case", "id": "play.x", "kind": "legal_plays", "ruleset": "classic", "outcome": "pass"}
FOOTER = {"type": "footer", "counts": {"pass": 1}, "ok": True}


def dumped(*lines: Any) -> bytes:
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


BAD_REPORTS = {
    "invalid UTF-8": (dumped(HEADER) + b'{"type": "case", "id": "\xff"}\n', 2, "not UTF-8"),
    "deep JSON": (dumped(HEADER) + b"[" * 5000 + b"]" * 5000 + b"\n", 2, "nested more than"),
    "a case without a ruleset": (dumped(HEADER, {k: v for k, v in CASE.items() if k != "ruleset"}), 2,
                                 "a case line needs 'ruleset'"),
    "a list for the adapter": (dumped({**HEADER, "adapter": []}, CASE), 1, "the header's 'adapter' must be an object"),
    "a list for a case's rules": (dumped(HEADER, {**CASE, "rules": {"a": 1}}), 2, "the case's 'rules' must be a list"),
    "a list for a line": (dumped(HEADER, [CASE]), 2, "not a report line"),
    "a string for the differences": (dumped(HEADER, {**CASE, "outcome": "fail", "differences": "x"}), 2,
                                     "the case's 'differences' must be a list of strings"),
    "no header": (dumped(CASE, FOOTER), 1, "a report starts with its header line"),
    "a line after the footer": (dumped(HEADER, CASE, FOOTER, CASE), 4, "a line after the footer"),
    "an unknown outcome": (dumped(HEADER, {**CASE, "outcome": "great"}), 2, "unknown outcome 'great' (one of pass,"),
    "empty": (b"", None, "a report starts with its header line; this one is empty"),
}


@pytest.mark.parametrize("name", BAD_REPORTS)
@pytest.mark.parametrize("verb", ["summary", "merge", "baseline"])
def test_a_bad_report_is_refused_by_its_line(name: str, verb: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    content, line, words = BAD_REPORTS[name]
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(content)
    good = tmp_path / "good.jsonl"
    good.write_bytes(dumped(HEADER, CASE, FOOTER))
    argv = {"summary": ["conformance", "summary", str(bad)],
            "merge": ["conformance", "merge", str(bad), "-o", str(tmp_path / "m.jsonl")],
            "baseline": ["conformance", "summary", str(good), "--baseline", str(bad)]}[verb]
    code, _, err = run_cli(capsys, argv)
    assert code == 2, err
    where = f"{bad}:{line}: " if line is not None else f"{bad}: "
    assert err.startswith(f"error: {where}") and words in err and err.count("\n") == 1, err


def test_a_malformed_situation_in_a_report_is_shown_as_json(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "r.jsonl"
    failing = {**CASE, "outcome": "fail", "given": {"trick": [1, 2], "hand": 5}, "expected": {}, "got": {},
               "message": "", "differences": ["legal: expected 7H, got 8H"]}
    report.write_bytes(dumped(HEADER, failing, {**FOOTER, "ok": False}))
    code, out, err = run_cli(capsys, ["conformance", "summary", str(report)])
    assert code == 1, err
    assert 'situation: {"trick": [1, 2], "hand": 5}' in out


def u2028_adapter() -> Callable[[dict[str, Any]], dict[str, Any] | None]:
    """The reference engine, except that every case is answered ``errored`` with a message that
    holds U+2028, a line separator for ``str.splitlines`` but not for JSON Lines."""
    answer = reference_adapter()

    def handler(message: dict[str, Any]) -> dict[str, Any] | None:
        if message.get("cmd") == "run":
            return {"seq": message["seq"], "errored": True, "message": "one\u2028two"}
        return answer(message)

    return handler


def test_the_runners_own_report_with_a_line_separator_reads_back(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "r.jsonl"
    code, _, _ = run_cli(capsys, ["conformance", "run", "--impl", f"python:{__name__}:u2028_adapter",
                                  "--id", "play.follow.", "--ruleset", "classic", "--report", str(report)])
    assert code == 1
    assert "\u2028".encode() in report.read_bytes()
    code, out, err = run_cli(capsys, ["conformance", "summary", str(report)])
    assert code == 1 and "not JSON" not in err and "one\u2028two" in out
    assert run_cli(capsys, ["conformance", "summary", str(report), "--baseline", str(report)])[1].strip() == "no change"


# ----------------------------------------------------------------------- workers that may die

def die_on_two(item: int) -> int:
    """A task that kills its own worker on item 2, every time."""
    if item == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return item * 10


def die_once_on_three(item: tuple[int, str]) -> int:
    """A task that kills its worker the first time it sees item 3 (a marker file remembers)."""
    number, marker = item
    if number == 3 and not os.path.exists(marker):
        Path(marker).write_text("died", encoding="utf-8")
        os.kill(os.getpid(), signal.SIGKILL)
    return number * 10


def within_deadline(work: Callable[[], Any]) -> Any:
    """``work()``, run in a thread so that a hang fails the test instead of blocking it."""
    outcome: list[Any] = []

    def target() -> None:
        try:
            outcome.append(("value", work()))
        except BaseException as error:  # handed to the test's thread
            outcome.append(("error", error))

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(DEADLINE)
    if thread.is_alive():
        pytest.fail("ordered_map hung: a dead worker's task was awaited for ever")
    kind, value = outcome[0]
    if kind == "error":
        raise value
    return value


def test_a_task_whose_worker_dies_is_run_again(tmp_path: Path) -> None:
    marker = str(tmp_path / "died-once")
    tasks = [(n, marker) for n in range(6)]
    assert within_deadline(lambda: list(ordered_map(die_once_on_three, tasks, 2))) == [0, 10, 20, 30, 40, 50]
    assert os.path.exists(marker)


def test_a_task_lost_twice_is_settled_or_raised() -> None:
    settled = within_deadline(lambda: list(ordered_map(die_on_two, range(5), 2, on_lost=lambda item, why: -1)))
    assert settled == [0, 10, -1, 30, 40]
    results: Iterator[int] = ordered_map(die_on_two, range(5), 2)
    assert within_deadline(lambda: [next(results), next(results)]) == [0, 10]
    with pytest.raises(WorkerLostError, match=r"task 3 was lost: worker process [0-9]+ died \(killed by SIGKILL\)"):
        within_deadline(lambda: next(results))


def children(pid: int) -> list[tuple[int, str]]:
    """The (pid, command line) of the live children of ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append((int(entry.name), command))
    return found


def busy_worker(pid: int) -> int | None:
    """A worker process of ``pid`` that is running a shard (its adapter, a ``serve``, is started)."""
    for child, command in children(pid):
        if "spawn_main" in command and any(" serve" in grandchild for _, grandchild in children(child)):
            return child
    return None


def test_a_killed_worker_does_not_hang_the_run(tmp_path: Path) -> None:
    report = tmp_path / "jobs.jsonl"
    argv = ["--id", "play.", "--ruleset", "classic", "--ruleset", "pagat", "--jobs", "2", "--report", str(report)]
    process = start_run(argv)
    worker = poll(lambda: busy_worker(process.pid), "a worker running a shard")
    os.kill(worker, signal.SIGKILL)
    returncode, err = finish(process)
    assert returncode == 0, err  # the shard was run again: every case graded, and passed
    lines = read_report(report)
    assert lines[-1]["complete"] is True and lines[-1]["graded"] == lines[-1]["cases"] > 100
    assert {line["outcome"] for line in lines if line["type"] == "case"} == {"pass"}


def test_an_interrupted_jobs_run_prints_one_line(tmp_path: Path) -> None:
    report = tmp_path / "jobs.jsonl"
    # A session of its own, so that the interrupt goes to the whole group, as a Ctrl-C does.
    process = start_run(["--jobs", "2", "--report", str(report)], start_new_session=True)
    worker = poll(lambda: busy_worker(process.pid), "a worker running a shard")
    # A worker ignores SIGINT (its parent ends it), so it cannot die printing a traceback before
    # the parent has acted on the same Ctrl-C: the kernel's record of its ignored signals says so.
    ignored = int(next(line for line in Path(f"/proc/{worker}/status").read_text().splitlines()
                       if line.startswith("SigIgn:")).split()[1], 16)
    if not ignored & (1 << (signal.SIGINT - 1)):
        os.killpg(process.pid, signal.SIGKILL)
        finish(process)
        pytest.fail("a --jobs worker must ignore SIGINT")
    os.killpg(process.pid, signal.SIGINT)
    returncode, err = finish(process)
    assert returncode == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert [line for line in err.splitlines() if "interrupted" in line] == [err.strip().splitlines()[-1]]
    poll(lambda: not any(Path(f"/proc/{pid}").exists() and (Path(f"/proc/{pid}") / "stat").read_text().split()[2] != "Z"
                         for pid in session_members(process.pid)), "the workers to end")


def session_members(session: int) -> list[int]:
    """The processes of session ``session`` (the run's workers stay in the run's session)."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == session:
                members.append(int(entry.name))
    return members


# ------------------------------------------------------------------ --fixtures linted first

def test_fixtures_that_lint_refuses_are_not_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = fixtures_dir() / "legal_plays" / "follow" / "cannot-ruff-while-holding-suit.yaml"
    located, _ = read_yaml(source)
    assert located is not None
    good = dict(located.data)
    bad = {**good, "id": "play.follow.refused-by-lint", "rules": [*good["rules"], "play.no_such_rule"]}
    (tmp_path / "good.yaml").write_text(format_fixture(good), encoding="utf-8")
    (tmp_path / "bad.yaml").write_text(format_fixture(bad), encoding="utf-8")
    report = tmp_path / "r.jsonl"
    code, out, err = run_cli(capsys, ["conformance", "run", "--fixtures", str(tmp_path), "--ruleset", "classic",
                                      "--report", str(report)])
    assert code == 1, err  # the folder was not run whole
    assert "unknown parameter 'play.no_such_rule'" in err and "1 fixture(s) not run: lint refuses them" in err
    lines = read_report(report)
    assert {line["id"].split("@")[0] for line in lines if line["type"] == "case"} == {good["id"]}
    assert [entry["path"] for entry in lines[0]["refused_fixtures"]] == [str((tmp_path / "bad.yaml").resolve())]
    assert "not run: 1 fixture(s) that lint refuses" in out
    summary = run_cli(capsys, ["conformance", "summary", str(report)])
    assert "play.no_such_rule" in summary[1]
    # With --jobs, the workers run the cases the parent's lint kept (told, not linting again).
    jobs = tmp_path / "jobs.jsonl"
    assert run_cli(capsys, ["conformance", "run", "--fixtures", str(tmp_path), "--ruleset", "classic", "--jobs", "2",
                            "--report", str(jobs)])[0] == 1
    assert [line.get("id") for line in read_report(jobs)] == [line.get("id") for line in lines]


def test_a_range_lost_twice_is_graded_crash_saying_why(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parent's side of a lost range: its cases are ``crash`` with the reason, in their place,
    even when the lost range is the first (whose hello the report's header would have used)."""
    from belote_ref.conformance import run_jobs
    from belote_ref.conformance.runner import RunOptions

    def first_range_lost(task: Callable[[Any], Any], items: Any, jobs: int, on_lost: Any) -> Iterator[Any]:
        for number, item in enumerate(items):
            yield on_lost(item, "worker process 7 died (killed by SIGKILL)") if number == 0 else task(item)

    monkeypatch.setattr(run_jobs, "ordered_map", first_range_lost)
    inputs = run_jobs.CaseInputs(("classic",), id_prefix="play.follow.")
    cases = run_jobs.build_run_cases(inputs).cases
    hellos: list[dict[str, Any]] = []
    hello, results = run_jobs.run_sharded(inputs, cases, None, RunOptions(), None, 2, on_hello=hellos.append)
    half = len(cases) // 2
    assert hellos == [hello] and [result.case for result in results] == cases
    assert {result.outcome for result in results[:half]} == {"crash"}
    assert results[0].message == ("not graded: the worker process 7 died (killed by SIGKILL) while running cases "
                                  f"1 to {half}, twice")
    assert {result.outcome for result in results[half:]} == {"pass"}


def test_the_site_reads_a_report_holding_a_line_separator(tmp_path: Path) -> None:
    from belote_ref.site.reports import load_report

    report = tmp_path / "r.jsonl"
    failing = {**CASE, "outcome": "error", "message": "one\u2028two"}
    report.write_bytes(b"".join(report_bytes(line) for line in
                                (HEADER, failing, {**FOOTER, "counts": {"error": 1}, "ok": False})))
    assert load_report(report).cases[0]["message"] == "one\u2028two"
