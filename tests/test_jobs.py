"""--jobs N: the output of several worker processes is the output of one job, in the same order."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from belote_ref.cli import main
from belote_ref.records.record import write_record
from belote_ref.rules.ruleset import find_ruleset
from belote_ref.records.shards import DEALS_PER_BLOCK, RECORDS_PER_SHARD
from belote_ref.engine.simulate import random_deals

# Slow tier (runs split over worker processes): left out of the quick default; see README.
pytestmark = pytest.mark.slow


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_play_with_two_jobs_writes_the_deals_of_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    count = DEALS_PER_BLOCK + 300  # two blocks, the second one short
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert run(capsys, ["play", "--ruleset", "pagat", "--count", str(count), "--seed", "5", "--out", str(one)])[0] == 0
    assert run(capsys, ["play", "--ruleset", "pagat", "--count", str(count), "--seed", "5", "--out", str(two),
                        "--jobs", "2"])[0] == 0
    assert one.read_bytes() == two.read_bytes()
    lines = one.read_text(encoding="utf-8").splitlines()
    assert len(lines) == count
    # The first block is the seed's own sequence of deals; the second is another one.
    first_block = [write_record(state) for state in random_deals(find_ruleset("pagat"), 5, DEALS_PER_BLOCK)]
    assert lines[:DEALS_PER_BLOCK] == first_block
    assert lines[DEALS_PER_BLOCK] != write_record(next(random_deals(find_ruleset("pagat"), 5, 1)))


def test_a_match_is_one_job(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, ["play", "--ruleset", "classic", "--match", "--jobs", "2"])
    assert status == 2
    assert err.strip() == "error: play --jobs: a match is one sequence of deals and is played by one job"


def mixed_records(path: Path, source: Path) -> None:
    """The records of ``source`` with, among them, lines that are not records and a wrong result."""
    lines = source.read_text(encoding="utf-8").splitlines()
    wrong = json.loads(lines[RECORDS_PER_SHARD + 7])
    wrong["result"] = {**wrong["result"], "deal_score": {"NS": 1, "EW": 2}}
    lines[RECORDS_PER_SHARD + 7] = json.dumps(wrong)
    lines.insert(3, "not json")
    lines.insert(RECORDS_PER_SHARD - 1, "")
    lines.insert(RECORDS_PER_SHARD + 1, '{"record": 1}')
    lines.insert(RECORDS_PER_SHARD + 40, "x" * (1 << 20))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_replay_with_two_jobs_says_what_one_job_says(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deals = tmp_path / "deals.jsonl"
    assert run(capsys, ["play", "--ruleset", "classic", "--count", str(RECORDS_PER_SHARD + 200), "--seed", "9",
                        "--out", str(deals)])[0] == 0
    mixed = tmp_path / "mixed.jsonl"
    mixed_records(mixed, deals)
    one = run(capsys, ["replay", str(mixed)])
    two = run(capsys, ["replay", "--jobs", "2", str(mixed)])
    assert two == one
    status, out, err = one
    assert status == 2  # lines that are not records
    assert out.strip() == f"{RECORDS_PER_SHARD + 203} record(s): {RECORDS_PER_SHARD + 199} good, 4 bad, 0 unchecked " \
                          "(no result recorded)"
    assert len(err.splitlines()) == 4 and "result.deal_score: recorded" in err
    # --show tells every deal, in order, with the same words.
    assert run(capsys, ["replay", "--show", "--jobs", "2", str(deals)]) == run(capsys, ["replay", "--show", str(deals)])


def test_replay_jobs_reads_standard_input_and_shows_a_single_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    deal = tmp_path / "one.jsonl"
    assert run(capsys, ["play", "--ruleset", "classic", "--seed", "4", "--out", str(deal)])[0] == 0
    one = run(capsys, ["replay", str(deal)])
    assert "trick 8:" in one[1]
    assert run(capsys, ["replay", "--jobs", "2", str(deal)]) == one
    with deal.open("rb") as stream:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(stream, encoding="utf-8"))
        assert run(capsys, ["replay", "--jobs", "2", "-"]) == one


def test_conformance_run_with_two_jobs_reports_what_one_job_reports(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    reports = []
    for jobs in ("1", "2"):
        report = tmp_path / f"report-{jobs}.jsonl"
        status, out, _ = run(capsys, ["conformance", "run", "--id", "play.", "--ruleset", "classic",
                                      "--ruleset", "pagat", "--jobs", jobs, "--report", str(report)])
        assert status == 0
        lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
        for line in lines:
            for varying in ("ms", "started", "command"):
                line.pop(varying, None)
        reports.append((lines, out))
    (one, one_out), (two, two_out) = reports
    assert len(one) > 20 and one == two
    assert one_out == two_out
