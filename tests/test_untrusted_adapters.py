"""A third-party adapter is untrusted input: every way it can misbehave ends in a graded outcome.

Each misbehaving adapter (tests/adapters/misbehave.py) goes wrong on one run request; the runner
must grade that case, restart the adapter, finish the others, and leave no process behind.
Timeouts here are generous (the machine may be loaded); only the modes that hang use a short one,
since waiting for it is the point.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from conftest import FUZZ_FAMILIES, FUZZ_FAMILIES_MEMORY_CAP
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_ref.cli import main
from belote_ref.conformance.adapter import AdapterFailure, InProcessAdapter, decode_reply, open_adapter
from belote_ref.conformance.corpus import load_corpus
from belote_ref.conformance.runner import Case, RunOptions, build_cases, hello_message, run_cases
from belote_ref.rules.ruleset import find_ruleset

# Slow tier (misbehaving adapters started as processes, with their timeouts): left out of the quick default; see README.
pytestmark = pytest.mark.slow

MISBEHAVE = Path(__file__).parent / "adapters" / "misbehave.py"
PATIENT = 30.0  # for adapters that answer: never reached unless something is broken
HANG = 2.0  # for adapters that hang: the timeout is what is tested


def misbehaving(mode: str, tag: str = "") -> str:
    return f"{sys.executable} {MISBEHAVE} {mode} {tag}".rstrip()


def some_cases(count: int) -> list[Case]:
    cases = build_cases(load_corpus(), [find_ruleset("classic")], kinds=["trick_winner"])
    assert len(cases) >= count
    return cases[:count]


def outcomes(impl: str, count: int, timeout: float = PATIENT) -> tuple[list[str], list[str]]:
    _, results = run_cases(lambda: open_adapter(impl, timeout), some_cases(count), RunOptions(timeout=timeout))
    return [r.outcome for r in results], [r.message for r in results]


def tagged_processes(tag: str, runner: int | None = None) -> list[int]:
    """Live (not zombie) processes whose command line holds ``tag``, other than ``runner``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if tag.encode() in cmdline and state != "Z" and int(entry.name) not in (os.getpid(), runner):
            found.append(int(entry.name))
    return found


def wait_until(condition: object, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize(
    ("mode", "expected", "says"),
    [
        ("exit", "crash", "exited (exit code 3)"),
        ("garbage", "crash", "not JSON"),
        ("wrong-seq", "crash", "seq"),
        ("huge-line", "crash", "longer than 4 MiB"),
        ("big-reply", "crash", "longer than 4 MiB"),
        ("half-reply", "crash", "half a line"),
        ("close-stdout", "crash", "closed its output"),
        ("big-number", "crash", "more than 30 digits"),
        ("deep", "crash", "nested more than 64 levels"),
        ("bad-utf8", "crash", "not UTF-8"),
    ],
)
def test_a_broken_reply_is_a_crash_of_that_case_only(mode: str, expected: str, says: str) -> None:
    graded, messages = outcomes(misbehaving(mode), 6)
    assert graded == ["pass", expected, "pass", expected, "pass", expected]
    assert says in messages[1]


def test_the_right_numbers_as_fractions_fail_that_case() -> None:
    # Python holds 20 == 20.0, JSON and the protocol do not: an engine that divides is caught.
    _, results = run_cases(lambda: open_adapter(misbehaving("fractions"), PATIENT), some_cases(3),
                           RunOptions(timeout=PATIENT))
    assert [r.outcome for r in results] == ["pass", "fail", "pass"]
    expected = results[1].case.expected
    assert results[1].differences == [f"points: expected {expected['points']}, got {float(expected['points'])}"]


@pytest.mark.parametrize("mode", ["hang", "no-newline", "deaf"])
def test_a_stalled_adapter_times_out_and_the_run_goes_on(mode: str) -> None:
    graded, messages = outcomes(misbehaving(mode), 4, timeout=HANG)
    assert graded == ["pass", "timeout", "pass", "timeout"]
    assert f"no reply within {HANG:g} s" in messages[1]


def test_an_adapter_that_exits_after_five_answers() -> None:
    graded, _ = outcomes(misbehaving("exit:6"), 12)
    assert graded == ["pass"] * 5 + ["crash"] + ["pass"] * 5 + ["crash"]


def test_an_adapter_that_exits_right_after_hello() -> None:
    graded, messages = outcomes(misbehaving("exit-hello"), 3)
    assert graded == ["crash", "crash", "crash"]
    assert all("exited" in message for message in messages)


def test_a_request_to_an_adapter_already_gone_says_it_exited() -> None:
    # Whether the exit is seen before the request is sent or after, the message says the same.
    adapter = open_adapter(misbehaving("exit-hello"), PATIENT)
    assert not isinstance(adapter, InProcessAdapter)
    try:
        adapter.start()
        adapter.request(hello_message())
        assert adapter.process is not None
        adapter.process.wait(timeout=PATIENT)
        with pytest.raises(AdapterFailure, match=r"exited \(exit code 0\) before this request"):
            adapter.send({"type": "run", "seq": 1})
    finally:
        adapter.stop()


def test_an_adapter_that_fails_every_case_is_given_up_after_so_many_in_a_row() -> None:
    cases = some_cases(12)
    _, results = run_cases(lambda: open_adapter(misbehaving("exit-hello"), PATIENT), cases,
                           RunOptions(timeout=PATIENT, give_up_after=4))
    assert [r.outcome for r in results] == ["crash"] * 12
    assert all("exited" in r.message for r in results[:4])
    assert all(r.message.startswith("not sent: the adapter failed the 4 cases before in a row (last: ")
               for r in results[4:])
    assert [r.case.id for r in results] == [case.id for case in cases]


def test_a_failure_between_answers_does_not_count_toward_giving_up() -> None:
    _, results = run_cases(lambda: open_adapter(misbehaving("exit:2"), PATIENT), some_cases(8),
                           RunOptions(timeout=PATIENT, give_up_after=2))
    assert [r.outcome for r in results] == ["pass", "crash"] * 4


def test_an_adapter_that_stalls_through_sh_is_killed_with_its_shell(tmp_path: Path) -> None:
    tag = f"sh-{uuid.uuid4().hex}"
    impl = f"sh -c '{sys.executable} {MISBEHAVE} hang {tag}'"
    graded, _ = outcomes(impl, 4, timeout=HANG)
    assert graded == ["pass", "timeout", "pass", "timeout"]
    assert wait_until(lambda: not tagged_processes(tag)), tagged_processes(tag)


def test_flooded_stderr_is_drained_and_its_tail_kept() -> None:
    graded, _ = outcomes(misbehaving("flood"), 6)
    assert graded == ["pass"] * 6


def test_a_crash_quotes_the_last_lines_of_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "r.jsonl"
    code = main(["conformance", "run", "--impl", misbehaving("stderr-story:1"), "--ruleset", "classic",
                 "--kind", "trick_winner", "--id", some_cases(3)[1].fixture.id, "--report", str(report)])
    assert code == 1
    _ = capsys.readouterr()
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    message = next(line["message"] for line in lines if line.get("outcome") == "crash")
    assert "stderr line 20" in message and "stderr line 16" in message and "stderr line 15" not in message
    log = Path(f"{report}.stderr").read_text()
    assert "stderr line 1\n" in log and "stderr line 20" in log


def test_every_child_of_the_adapter_is_gone_after_the_run() -> None:
    tag = f"spawn-{uuid.uuid4().hex}"
    graded, _ = outcomes(misbehaving("spawn", tag), 8)
    assert graded == ["pass"] * 8
    assert wait_until(lambda: not tagged_processes(tag)), tagged_processes(tag)


def test_children_are_gone_after_each_restart() -> None:
    tag = f"restart-{uuid.uuid4().hex}"
    impl = f"{sys.executable} {MISBEHAVE} spawn {tag}"
    _, results = run_cases(lambda: open_adapter(impl, PATIENT), some_cases(4),
                           RunOptions(timeout=PATIENT, per_case=True))
    assert [r.outcome for r in results] == ["pass"] * 4
    assert wait_until(lambda: not tagged_processes(tag)), tagged_processes(tag)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_killing_the_runner_kills_the_adapter_group(how: signal.Signals) -> None:
    tag = f"killed-{uuid.uuid4().hex}"
    impl = misbehaving("hang:3", tag)
    runner = subprocess.Popen([sys.executable, "-m", "belote_ref.cli", "conformance", "run", "--impl", impl,
                               "--timeout", "600", "--kind", "trick_winner", "--ruleset", "classic"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # The adapter hanging on its third case, and the three children it started.
        assert wait_until(lambda: len(tagged_processes(tag, runner.pid)) >= 4), "the adapter never started"
        runner.send_signal(how)
        runner.wait(timeout=60)
        assert wait_until(lambda: not tagged_processes(tag)), tagged_processes(tag)
    finally:
        runner.kill()
        for pid in tagged_processes(tag):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize(
    ("line", "says"),
    [
        (b'{"seq": 1, "result": 1' + b"0" * 5000 + b"}", "digits"),
        (b"[" * 100_000 + b"]" * 100_000, "nested more than 64 levels"),
        (b'{"seq": NaN}', "not a JSON number"),
        (b'{"seq": 1, "seq": 2}', "duplicate key"),
        (b'{"seq": 1, "result": "\xff"}', "not UTF-8"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"seq": 1', "not JSON"),
    ],
)
def test_decode_reply_refuses(line: bytes, says: str) -> None:
    with pytest.raises(AdapterFailure) as caught:
        decode_reply(line)
    assert says in caught.value.reason


@pytest.mark.parametrize(
    ("impl", "says"),
    [
        ("", "the adapter command is empty"),
        ("'x", "cannot split the command"),
        ("/nonexistent/adapter", "cannot start"),
        (f"{sys.executable} -c pass", "exit code 0"),
    ],
)
def test_an_adapter_that_cannot_start_is_one_line_and_exit_2(impl: str, says: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "run", "--impl", impl, "--ruleset", "classic", "--kind", "trick_winner"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0] and "internal error" not in err[0]


@pytest.mark.parametrize("impl", ["", "'x", "/nonexistent/adapter"])
def test_smoke_with_an_adapter_that_cannot_start(impl: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "smoke", "--impl", impl]) == 1
    assert "could not start" in capsys.readouterr().out


def test_the_fuzz_families_run_within_a_memory_bound(capped_fuzz_families: subprocess.CompletedProcess[str]) -> None:
    """The 2,000-input property tests of each family (ruleset, record, protocol message), run in a
    process whose address space is capped at 2 GiB: an unbounded expansion would fail them. (The run is
    started in the background at the start of the session: tests/conftest.py.)"""
    done = capped_fuzz_families
    assert FUZZ_FAMILIES_MEMORY_CAP == 2 << 30 and len(FUZZ_FAMILIES) == 3
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "3 passed" in done.stdout


def test_an_adapter_that_dies_at_start_shows_the_end_of_its_stderr(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "dies.py"
    script.write_text("import sys\nfor n in range(30):\n    print(f'frame {n}', file=sys.stderr)\n"
                      "print('Error: cannot find module missing.js', file=sys.stderr)\nsys.exit(1)\n")
    assert main(["conformance", "run", "--impl", f"{sys.executable} {script}", "--kind", "trick_winner"]) == 2
    err = capsys.readouterr().err
    assert "could not start" in err and "Error: cannot find module missing.js" in err
    assert "frame 29" in err and "frame 25" not in err
    assert len(err.strip().splitlines()) == 1


BEHAVIOURS = ["ok", "garbage", "wrong-seq", "exit", "half", "bad-utf8", "huge", "spawn"]


@settings(max_examples=8, deadline=None, database=None)
@given(script=st.lists(st.sampled_from(BEHAVIOURS), min_size=1, max_size=6), hang_at=st.integers(1, 15))
def test_any_script_of_misbehaviour_ends_with_every_case_graded(script: list[str], hang_at: int) -> None:
    """Whatever the adapter does, request after request, the run ends, every case is graded once,
    and nothing the adapter started is left running."""
    if hang_at < len(script):
        script = [*script[:hang_at], "hang", *script[hang_at + 1:]]
    tag = f"scripted-{uuid.uuid4().hex}"
    impl = f"{sys.executable} {Path(__file__).parent / 'adapters' / 'scripted.py'} {','.join(script)} {tag}"
    cases = some_cases(5)
    # A short timeout: a hang is one of the behaviours, and the grading, not the speed, is tested.
    _, results = run_cases(lambda: open_adapter(impl, 1.0), cases, RunOptions(timeout=1.0))
    assert [r.case.key for r in results] == [c.key for c in cases]
    assert {r.outcome for r in results} <= {"pass", "crash", "timeout"}
    assert all(r.message for r in results if r.outcome != "pass")
    assert wait_until(lambda: not tagged_processes(tag)), tagged_processes(tag)
