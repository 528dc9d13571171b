"""`conformance fuzz` within the claims, and a run that keeps its work (issues 31 and 32).

- Per-kind claims: an adapter whose kinds claim different values (tests/adapters/per_kind_claims.py)
  is sent, for each kind, only rulesets of values that kind claims, and its findings stay there.
- Findings written as they are made: a run stopped by SIGINT or SIGTERM keeps its findings and its
  report, says so in one line, and prints no traceback (its workers' neither).
- ``--out`` on a file is refused at the start; a finding is never written through a symlink nor
  over a file it did not write; ``--shrink-budget`` caps the shrinking.
- ``--jobs`` with a worker that dies: its shard is run again, or reported; never waited on.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from belote_ref.cli import main
from belote_ref.conformance.applicability import Claims
from belote_ref.conformance.fuzz import FuzzOptions, FuzzOutcome, fuzz
from belote_ref.rules.registry import load_registry

# Slow tier (fuzzing runs, stopped by signals, with --jobs): left out of the quick default; see README.
pytestmark = pytest.mark.slow

ADAPTERS = Path(__file__).resolve().parent / "adapters"
DEADLINE = 120.0
"""Seconds a test waits for a subprocess's finding or exit before calling it a failure."""


def per_kind_adapter(record: Path) -> str:
    return f"{sys.executable} {ADAPTERS / 'per_kind_claims.py'} {record}"


def mistake(mode: str) -> str:
    return f"{sys.executable} {ADAPTERS / 'mistakes.py'} {mode}"


def outside_claims(claims: Claims, kind: str, parameters: dict[str, Any]) -> list[str]:
    """The outcome parameters of ``parameters`` at a value ``kind``'s claims do not claim."""
    registry = load_registry()
    own = claims.for_kind(kind)
    return [f"{kind}: {pid}={value!r}" for pid, value in parameters.items()
            if registry[pid].outcome and not own.claims_value(pid, value)]


@pytest.fixture(scope="module")
def per_kind_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[FuzzOutcome, list[dict[str, Any]]]:
    record = tmp_path_factory.mktemp("claims") / "sent.jsonl"
    outcome = fuzz(FuzzOptions(impl=per_kind_adapter(record), budget=600, seed=3, shrink_budget=300))
    sent = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    return outcome, sent


def test_each_kind_is_sent_only_what_it_claims(per_kind_run: tuple[FuzzOutcome, list[dict[str, Any]]]) -> None:
    outcome, sent = per_kind_run
    claims = Claims.from_hello(outcome.hello)
    assert {line["kind"] for line in sent} == {"legal_plays", "trick_winner", "score"}
    outside = sorted({problem for line in sent for problem in outside_claims(claims, line["kind"], line["parameters"])})
    assert not outside, outside[:10]
    # score claims one rounding only, and was sent that one.
    assert {line["parameters"]["scoring.rounding.mode"] for line in sent if line["kind"] == "score"} == \
        {"nearest_10_half_up"}
    # legal_plays claims "*": it was fuzzed under values beyond the shipped rulesets' (which are all
    # that the general claims, and trick_winner, cover).
    general = Claims.from_hello({**outcome.hello, "supports": {**outcome.hello["supports"], "by_kind": {}}})
    assert any(outside_claims(general, "legal_plays", line["parameters"]) for line in sent
               if line["kind"] == "legal_plays")


def test_findings_are_shrunk_within_the_claims_of_their_kind(
        per_kind_run: tuple[FuzzOutcome, list[dict[str, Any]]]) -> None:
    outcome, _ = per_kind_run
    claims = Claims.from_hello(outcome.hello)
    assert not outcome.ok and outcome.findings
    assert {finding.disagreement.kind for finding in outcome.findings} == {"score"}
    for finding in outcome.findings:
        found = finding.disagreement
        assert not outside_claims(claims, found.kind, dict(found.params)), found.params
        assert found.params["scoring.rounding.mode"] == "nearest_10_half_up"
        # The mistake (a card point too many at hearts) is independent of the rules: shrinking set
        # back to classic every value the kind claims classic's for.
        assert finding.fixture["given"]["trump"] == "H"
        assert "card_points" in " ".join(found.differences)


# ------------------------------------------------------------------------------- data loss


def run_cli(arguments: list[str]) -> int:
    try:
        return main(arguments)
    except SystemExit as exit_:
        return int(exit_.code or 0)


@pytest.mark.parametrize("where", ["file", "under-a-file"])
def test_out_on_a_file_is_refused_at_the_start(where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    existing = tmp_path / "notes.txt"
    existing.write_text("mine\n", encoding="utf-8")
    out = existing if where == "file" else existing / "found"
    started = time.monotonic()
    # A budget of some seconds: the refusal comes before any situation is drawn, not after them.
    status = run_cli(["conformance", "fuzz", "--impl", mistake("discard-wins"), "--kind", "trick_winner",
                      "--budget", "20000", "--seed", "1", "--out", str(out)])
    assert status == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--out" in err and "not a folder" in err and "Traceback" not in err
    assert time.monotonic() - started < 20
    assert existing.read_text(encoding="utf-8") == "mine\n"


@pytest.fixture(scope="module")
def discard_wins() -> FuzzOutcome:
    return fuzz(FuzzOptions(impl=mistake("discard-wins"), kinds=("trick_winner",), budget=200, seed=1))


@pytest.mark.parametrize("in_the_way", ["symlink", "dangling-symlink", "edited", "fifo"])
def test_a_finding_is_never_written_through_a_symlink_nor_over_a_file_it_did_not_write(
        discard_wins: FuzzOutcome, in_the_way: str, tmp_path: Path) -> None:
    from belote_ref.conformance.fuzz_report import write_findings

    finding = discard_wins.findings[0]
    name = f"{finding.fixture['id']}.yaml"
    out = tmp_path / "found"
    out.mkdir()
    victim = tmp_path / "outside.txt"
    victim.write_text("not a fixture\n", encoding="utf-8")
    path = out / name
    if in_the_way == "symlink":
        path.symlink_to(victim)
    elif in_the_way == "dangling-symlink":
        path.symlink_to(tmp_path / "nowhere.txt")
    elif in_the_way == "edited":
        path.write_text("# reviewed by hand\nid: x\n", encoding="utf-8")
    else:
        os.mkfifo(path)
    files = write_findings(discard_wins, out)
    assert victim.read_text(encoding="utf-8") == "not a fixture\n"
    assert not (tmp_path / "nowhere.txt").exists()
    if in_the_way == "edited":
        assert path.read_text(encoding="utf-8") == "# reviewed by hand\nid: x\n"
    # The finding went to a name of its own, its id renamed with it.
    assert finding.path == out / f"{finding.fixture['id']}.yaml" and finding.fixture["id"].endswith("-2")
    assert not finding.path.is_symlink()
    assert yaml.safe_load(finding.path.read_text(encoding="utf-8"))["id"] == finding.fixture["id"]
    assert not files.refused
    # The same findings again: the files already hold them, nothing new is written.
    before = sorted(entry.name for entry in out.iterdir())
    write_findings(discard_wins, out)
    assert sorted(entry.name for entry in out.iterdir()) == before


def test_shrink_budget_caps_the_situations_sent_to_shrink_one_disagreement() -> None:
    options = FuzzOptions(impl=mistake("belote-not-counted"), kinds=("score",), budget=300, seed=7)
    free = fuzz(options)
    capped = fuzz(FuzzOptions(**{**options.__dict__, "shrink_budget": 5}))
    assert free.findings and capped.findings
    assert max(finding.disagreement.shrink_calls for finding in free.findings) > 5
    assert all(finding.disagreement.shrink_calls <= 5 for finding in capped.findings)


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_shrink_budget_is_a_positive_whole_number(value: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["conformance", "fuzz", "--shrink-budget", value, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--shrink-budget" in err[0] and "expected a whole number" in err[0]


# --------------------------------------------------------------------- interrupted runs


def start_fuzz(arguments: list[str], cwd: Path) -> subprocess.Popen[str]:
    # A session of its own: a signal to its group reaches it and its workers, as a Ctrl-C does.
    return subprocess.Popen([sys.executable, "-m", "belote_ref.cli", "conformance", "fuzz", *arguments], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def wait_for_a_finding(process: subprocess.Popen[str], out: Path) -> None:
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        if out.is_dir() and any(out.glob("*.yaml")):
            return
        if process.poll() is not None:
            break
        time.sleep(0.1)  # polling the folder, not synchronising
    os.killpg(process.pid, signal.SIGKILL)
    output, errors = process.communicate()
    pytest.fail(f"no finding written while the run went on (exit {process.returncode}): {errors[-2000:]}")


@pytest.mark.parametrize("signum, jobs", [(signal.SIGINT, 1), (signal.SIGTERM, 1), (signal.SIGINT, 2)])
def test_a_stopped_run_keeps_its_findings_and_its_report(signum: int, jobs: int, tmp_path: Path) -> None:
    out, report = tmp_path / "found", tmp_path / "fuzz.jsonl"
    # Budget enough for an hour: the findings must come while it runs, not at its end.
    process = start_fuzz(["--impl", mistake("discard-wins"), "--kind", "trick_winner", "--budget", "5000000",
                          "--seed", "1", "--jobs", str(jobs), "--out", str(out), "--report", str(report)], tmp_path)
    wait_for_a_finding(process, out)
    if signum == signal.SIGINT:
        os.killpg(process.pid, signum)  # every process of the group, as a Ctrl-C
    else:
        process.send_signal(signum)  # the fuzzer alone, as a CI timeout does
    try:
        _, errors = process.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail("the stopped run did not end")
    assert process.returncode == 128 + signum
    assert "Traceback" not in errors, errors[-3000:]
    interrupted = [line for line in errors.splitlines() if line.startswith("interrupted")]
    assert len(interrupted) == 1 and str(out) in interrupted[0] and str(report) in interrupted[0], errors[-2000:]
    files = sorted(out.glob("*.yaml"))
    assert files
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "footer"
    assert lines[-1]["status"] == "interrupted" and lines[-1]["ok"] is False
    findings = [line for line in lines if line["type"] == "disagreement"]
    assert {Path(line["fixture"]).name for line in findings} == {path.name for path in files}
    for path in files:
        assert yaml.safe_load(path.read_text(encoding="utf-8"))["kind"] == "trick_winner"


# ------------------------------------------------------------------------------- --jobs


@pytest.mark.parametrize("deaths", [1, 10])
def test_a_dead_worker_is_run_again_or_reported_never_waited_on(deaths: int, tmp_path: Path) -> None:
    marker = tmp_path / "deaths"
    command = f"{sys.executable} {ADAPTERS / 'kills_its_worker.py'} {marker} {deaths}"
    arguments = ["--impl", command, "--kind", "trick_winner", "--budget", "256", "--seed", "4", "--jobs", "2",
                 "--out", str(tmp_path / "found"), "--report", str(tmp_path / "fuzz.jsonl")]
    process = start_fuzz(arguments, tmp_path)
    try:
        output, errors = process.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail("fuzz --jobs 2 waited for a dead worker")
    footer = json.loads(tmp_path.joinpath("fuzz.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert "Traceback" not in errors, errors[-3000:]
    if deaths == 1:
        # The shard whose worker died was run again: the run is whole, as without the death.
        assert process.returncode == 0, errors[-2000:]
        assert footer["counts"]["situations"] == 256 and footer["counts"]["agree"] == 256 and not footer["lost"]
    else:
        assert process.returncode == 1
        assert footer["lost"] and "died twice" in footer["lost"][0] and footer["ok"] is False
        assert "died twice" in output
