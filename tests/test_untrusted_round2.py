"""Untrusted input, second round (issue 31): the quadratic reader, the cache's entries and its key,
adapters that leave their process group, and ``legal_plays``'s ``given.seat``.

Each test is a named must-reject or must-survive case of one defect, and fails on the code before
its fix (said in each test). Deadlines are generous (the machine may be loaded): each is missed by
the old code by orders of magnitude, never approached by the new.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from belote_ref.conformance.adapter import open_adapter
from belote_ref.conformance.corpus import load_corpus
from belote_ref.conformance.runner import Case, RunOptions, build_cases, run_cases, run_message
from belote_ref.core import cache as cache_module
from belote_ref.core.cache import cached_json
from belote_ref.core.jsonlines import MAX_DEPTH, MAX_LINE_BYTES, JsonLineError, decode_json_line
from belote_ref.protocol.serve import answer
from belote_ref.rules.ruleset import find_ruleset

REPO = Path(__file__).resolve().parents[1]
PATIENT = 30.0  # a timeout for adapters that answer: never reached unless something is broken


def quadratic_line(escaped_quotes: int, opened: int = MAX_DEPTH + 1) -> bytes:
    """The line of issue 31: ``opened`` ``[`` then an unterminated string of escaped quotes. The old
    depth check rescanned the rest of the line from each quote: 2.7 s for 12,000 of them here."""
    return b"[" * opened + b'"' + b'\\"' * escaped_quotes


def decided_within(line: bytes, seconds: float) -> str:
    """What :func:`decode_json_line` says of ``line``, decided in a child process killed after
    ``seconds`` (so that the old, quadratic reader fails the test instead of hanging it)."""
    script = ("import sys\nfrom belote_ref.core.jsonlines import JsonLineError, decode_json_line\n"
              "try:\n    decode_json_line(sys.stdin.buffer.read())\n    print('accepted')\n"
              "except JsonLineError as error:\n    print(error.code)\n")
    done = subprocess.run([sys.executable, "-c", script], input=line, capture_output=True, timeout=seconds,
                          cwd=REPO, check=True)
    return done.stdout.decode().strip()


# ------------------------------------------------------------------------------------- the reader


@pytest.mark.parametrize("escaped_quotes", [12_000, 120_000, (MAX_LINE_BYTES - 100) // 2])
def test_the_quadratic_line_is_refused_in_linear_time(escaped_quotes: int) -> None:
    # Old code: 2.7 s at 12,000 quotes (the line, within this deadline: must survive), so
    # some 270 s at 120,000 and over an hour at 500,000 (the 1 MB line); a linear check takes
    # milliseconds. The child's start-up is most of the 20 s.
    assert decided_within(quadratic_line(escaped_quotes), 20.0) == "too_deep"


def test_the_quadratic_line_within_the_depth_is_refused_as_not_json_in_linear_time() -> None:
    # At the depth limit the check lets the line through to the decoder, which scans it once.
    assert decided_within(quadratic_line(500_000, opened=MAX_DEPTH), 20.0) == "bad_json"


@pytest.mark.parametrize(
    ("line", "code"),
    [
        # Brackets inside strings, escaped quotes and backslashes included, do not count.
        (b"[" * MAX_DEPTH + b'"\\"[[[[\\\\", "' + b"[" * 100 + b'"' + b"]" * MAX_DEPTH, "accepted"),
        # A string ending in an escaped backslash ends there: the brackets after it count.
        (b"[" * (MAX_DEPTH - 1) + b'"\\\\",' + b"[[" + b"]]" + b"]" * (MAX_DEPTH - 1), "too_deep"),
        (b"[" * (MAX_DEPTH - 1) + b'"\\\\",' + b"[" + b"]" + b"]" * (MAX_DEPTH - 1), "accepted"),
        # Objects count as arrays do; keys are strings.
        (b'{"[[": ' * (MAX_DEPTH + 1) + b"1" + b"}" * (MAX_DEPTH + 1), "too_deep"),
        (b'{"[[": ' * MAX_DEPTH + b"1" + b"}" * MAX_DEPTH, "accepted"),
        # An unterminated string hides nothing that the decoder would reach (old code: "too deep"
        # for the second, whose brackets are all inside the string).
        (b"[" * (MAX_DEPTH + 1) + b'"abc', "too_deep"),
        (b'"' + b"[" * 1000, "bad_json"),
    ],
)
def test_the_depth_check_still_counts_what_the_decoder_would_nest(line: bytes, code: str) -> None:
    try:
        decode_json_line(line)
        outcome = "accepted"
    except JsonLineError as error:
        outcome = error.code
    assert outcome == code


def test_serve_answers_the_quadratic_line_with_an_error_and_goes_on() -> None:
    # Old code: over 30 s for this line's 24 KB cousin; this one is ten times longer.
    line = quadratic_line(120_000) + b"\n" + b'{"cmd": "stop"}\n'
    done = subprocess.run([sys.executable, "-m", "belote_ref.cli", "serve"], input=line, capture_output=True,
                          timeout=30.0, cwd=REPO, check=True)
    [reply] = [json.loads(text) for text in done.stdout.splitlines()]
    assert reply["errored"] is True and "nested more than 64 levels" in reply["message"]


def test_replay_reports_the_quadratic_line_and_goes_on(tmp_path: Path) -> None:
    # Old code: 28 s for the 24 KB line; this one is ten times longer.
    records = tmp_path / "records.jsonl"
    records.write_bytes(quadratic_line(120_000) + b"\n" + b"[" * 65 + b"\n")
    done = subprocess.run([sys.executable, "-m", "belote_ref.cli", "replay", str(records)], capture_output=True,
                          text=True, timeout=30.0, cwd=REPO, check=False)
    assert done.returncode == 2
    assert f"{records}:1: nested more than 64 levels deep" in done.stdout + done.stderr
    assert f"{records}:2: nested more than 64 levels deep" in done.stdout + done.stderr


def quadratic_adapter(tmp_path: Path, escaped_quotes: int) -> Path:
    """An adapter that answers hello as the reference does, and every run with the quadratic line."""
    script = tmp_path / "quadratic_adapter.py"
    script.write_text(textwrap.dedent(f"""\
        import json, sys
        sys.path.insert(0, {str(REPO)!r})
        from belote_ref.protocol.serve import answer
        for line in sys.stdin:
            message = json.loads(line)
            if message.get("cmd") == "stop":
                break
            if message.get("cmd") == "run":
                sys.stdout.buffer.write(b"[" * 65 + b'"' + b'\\\\"' * {escaped_quotes} + b"\\n")
            else:
                sys.stdout.buffer.write(json.dumps(answer(message)).encode() + b"\\n")
            sys.stdout.flush()
        """))
    return script


def test_the_runner_grades_a_quadratic_reply_within_its_timeout(tmp_path: Path) -> None:
    # Old code: the runner decodes the reply on its main thread after the timeout's wait, some 270 s
    # for each of these replies whatever --timeout says; now each is graded at once.
    script = quadratic_adapter(tmp_path, 120_000)
    fixture = next(f for f in load_corpus() if f.kind == "trick_winner")
    report = tmp_path / "report.jsonl"
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "belote_ref.cli", "conformance", "run", "--impl",
                    f"{sys.executable} {script}", "--timeout", "2", "--ruleset", "classic", "--kind", "trick_winner",
                    "--id", fixture.id, "--report", str(report)],
                   capture_output=True, timeout=90.0, cwd=REPO, check=False)
    elapsed = time.monotonic() - started
    graded = [json.loads(text) for text in report.read_text().splitlines()]
    cases = [line for line in graded if "outcome" in line]
    assert cases and all(line["outcome"] == "crash" for line in cases), cases
    assert all("nested more than 64 levels" in line["message"] for line in cases)
    # Each case costs an adapter's restart (a Python start-up), never a reading of the line.
    assert elapsed < 10.0 * len(cases), (elapsed, len(cases))


# ------------------------------------------------------------------------------------- the cache


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("BELOTE_REF_CACHE_DIR", str(cache))
    monkeypatch.delenv("BELOTE_REF_CACHE", raising=False)
    return cache


class Counter:
    def __init__(self, payload: Any) -> None:
        self.payload = payload
        self.calls = 0

    def __call__(self) -> Any:
        self.calls += 1
        return self.payload


def one_entry(folder: Path, source: Path, compute: Counter) -> Path:
    """Cache ``compute`` for ``source`` and return the one entry written."""
    assert cached_json("thing", [source], compute) == compute.payload
    [entry] = folder.glob("thing-*.json")
    return entry


def test_a_cache_entry_that_is_a_symlink_to_dev_zero_is_a_miss(tmp_path: Path) -> None:
    # Old code: readline() on /dev/zero grows until MemoryError (here, under a 1 GiB address space).
    script = textwrap.dedent("""\
        import os, sys
        from pathlib import Path
        from belote_ref.core.cache import cached_json
        folder = Path(os.environ["BELOTE_REF_CACHE_DIR"])
        source = folder.parent / "a.yaml"
        source.write_text("x: 1\\n")
        cached_json("thing", [source], lambda: {"x": 1})
        [entry] = folder.glob("thing-*.json")
        entry.unlink()
        entry.symlink_to("/dev/zero")
        print(cached_json("thing", [source], lambda: {"x": 2}))
        print(entry.is_symlink())
        """)
    cap = 1 << 30

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60.0, cwd=REPO,
                          env={**os.environ, "BELOTE_REF_CACHE_DIR": str(tmp_path / "cache"), "BELOTE_REF_CACHE": "on"},
                          preexec_fn=limit_memory, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["{'x':", "2}", "False"]  # recomputed, and the link replaced


def test_a_cache_entry_that_is_a_fifo_is_a_miss(folder: Path, tmp_path: Path) -> None:
    # Old code: open() of a FIFO waits for a writer for ever.
    source = tmp_path / "a.yaml"
    source.write_text("x: 1\n")
    entry = one_entry(folder, source, Counter({"x": 1}))
    entry.unlink()
    os.mkfifo(entry)
    compute = Counter({"x": 2})
    results: list[Any] = []
    reader = threading.Thread(target=lambda: results.append(cached_json("thing", [source], compute)), daemon=True)
    reader.start()
    reader.join(PATIENT)
    if reader.is_alive():  # set the old reader free before failing
        os.close(os.open(entry, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("reading a FIFO as a cache entry hangs")
    assert results == [{"x": 2}] and compute.calls == 1
    assert entry.is_file() and not entry.is_symlink()  # replaced by a regular entry
    assert cached_json("thing", [source], compute) == {"x": 2} and compute.calls == 1


def test_a_cache_entry_is_never_written_through_a_symlink(folder: Path, tmp_path: Path) -> None:
    # Old code: read through the link, so the entry it points to was served. Now the link is a
    # miss, replaced by a regular entry, and its target is left alone.
    source = tmp_path / "a.yaml"
    source.write_text("x: 1\n")
    entry = one_entry(folder, source, Counter({"x": 1}))
    precious = tmp_path / "precious.txt"
    precious.write_text(entry.read_text())  # even a valid entry is not read through a link
    entry.unlink()
    entry.symlink_to(precious)
    compute = Counter({"x": 2})
    assert cached_json("thing", [source], compute) == {"x": 2} and compute.calls == 1
    assert not entry.is_symlink() and precious.read_text().endswith('{"x":1}')


def test_a_cache_entry_over_the_size_cap_is_a_miss_and_is_not_written(folder: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # Old code: no cap (the attribute does not exist), so any size was read whole.
    source = tmp_path / "a.yaml"
    source.write_text("x: 1\n")
    entry = one_entry(folder, source, Counter({"x": "a" * 500}))
    monkeypatch.setattr(cache_module, "MAX_ENTRY_BYTES", 400)
    compute = Counter({"x": "b" * 500})
    assert cached_json("thing", [source], compute) == {"x": "b" * 500} and compute.calls == 1
    assert '"a' in entry.read_text()  # the new payload, over the cap, was not written
    assert cached_json("thing", [source], compute) == {"x": "b" * 500} and compute.calls == 2


def test_a_changed_source_file_of_the_package_is_a_new_cache_key(tmp_path: Path) -> None:
    # Old code: the key was the data and the version only, so the edited code was served the
    # payload the old code computed. A copy of the package is edited, as a checkout would be.
    copy = tmp_path / "checkout"
    shutil.copytree(REPO / "belote_ref", copy / "belote_ref", ignore=shutil.ignore_patterns("__pycache__"))
    ruleset_py = copy / "belote_ref" / "rules" / "ruleset.py"
    ruleset_py.write_text(ruleset_py.read_text() + "\nPROBE = 1\n")
    source = tmp_path / "a.yaml"
    source.write_text("x: 1\n")
    script = ("import sys\nfrom pathlib import Path\nfrom belote_ref.core.cache import cached_json\n"
              "from belote_ref.rules import ruleset\n"
              "print(cached_json('probe', [Path(sys.argv[1])], lambda: {'probe': ruleset.PROBE})['probe'])\n")
    env = {**os.environ, "PYTHONPATH": str(copy), "BELOTE_REF_CACHE_DIR": str(tmp_path / "cache"),
           "BELOTE_REF_CACHE": "on"}

    def probe() -> str:
        done = subprocess.run([sys.executable, "-c", script, str(source)], capture_output=True, text=True,
                              timeout=120.0, cwd=tmp_path, env=env, check=True)
        return done.stdout.strip()

    assert probe() == "1"
    assert probe() == "1"  # a hit: the same code
    before = ruleset_py.stat().st_mtime_ns
    ruleset_py.write_text(ruleset_py.read_text().replace("PROBE = 1", "PROBE = 2"))  # the same size
    if ruleset_py.stat().st_mtime_ns == before:  # a coarse clock: an edit a moment later
        os.utime(ruleset_py, ns=(before + 1_000_000, before + 1_000_000))
    assert probe() == "2"
    assert len(list((tmp_path / "cache").glob("probe-*.json"))) == 2


# ------------------------------------------------------------------------------------- adapters


def tagged_processes(tag: str) -> list[int]:
    """Live (not zombie) processes whose command line holds ``tag``, other than this one."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if tag.encode() in cmdline and state != "Z" and int(entry.name) != os.getpid():
            found.append(int(entry.name))
    return found


def wait_until(condition: Any, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def kill_tagged(tag: str) -> None:
    for pid in tagged_processes(tag):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def escaping_adapter(tmp_path: Path) -> Path:
    """An adapter that answers as the reference does and, on every run request, leaves a sleeper
    holding its pipes in a session of its own: ``setsid`` (a child in a new session) or ``orphan``
    (that child's own child, the child exiting at once). Then, with ``exit:N``, it exits (status 3)
    instead of answering every N-th run request; with ``hang:N`` it never answers the N-th; with
    ``ok`` it answers every one."""
    script = tmp_path / "escaping_adapter.py"
    script.write_text(textwrap.dedent(f"""\
        import json, os, subprocess, sys
        sys.path.insert(0, {str(REPO)!r})
        from belote_ref.protocol.serve import answer
        how, tag, (then, _, nth) = sys.argv[1], sys.argv[2], sys.argv[3].partition(":")
        sleeper = [sys.executable, "-c", "import time; time.sleep(600)", tag]
        runs = 0
        for line in sys.stdin:
            message = json.loads(line)
            if message.get("cmd") == "stop":
                break
            if message.get("cmd") == "run":
                runs += 1
                if how == "setsid":
                    subprocess.Popen(sleeper, start_new_session=True)
                else:
                    subprocess.Popen([sys.executable, "-c", "import os, subprocess, sys; "
                                      "subprocess.Popen(sys.argv[1:], start_new_session=True); os._exit(0)",
                                      *sleeper]).wait()
                if then == "exit" and runs % int(nth) == 0:
                    sys.exit(3)
                if then == "hang" and runs == int(nth):
                    sys.stdin.read()
            print(json.dumps(answer(message)), flush=True)
        """))
    return script


def some_cases(count: int) -> list[Case]:
    cases = build_cases(load_corpus(), [find_ruleset("classic")], kinds=["trick_winner"])
    assert len(cases) >= count
    return cases[:count]


@pytest.mark.parametrize("how", ["setsid", "orphan"])
def test_an_adapter_that_exits_leaving_a_session_holding_its_pipes_is_a_crash_at_once(tmp_path: Path,
                                                                                       how: str) -> None:
    # Old code: the sleeper held the output open, so each exit was a wait of the whole timeout
    # (graded "timeout", at 30 s each), and every sleeper outlived the run.
    tag = f"escape-{uuid.uuid4().hex}"
    impl = f"{sys.executable} {escaping_adapter(tmp_path)} {how} {tag} exit:2"
    try:
        started = time.monotonic()
        _, results = run_cases(lambda: open_adapter(impl, PATIENT), some_cases(4), RunOptions(timeout=PATIENT))
        elapsed = time.monotonic() - started
        assert [r.outcome for r in results] == ["pass", "crash", "pass", "crash"]
        assert "exited (exit code 3)" in results[1].message
        assert elapsed < PATIENT, elapsed  # not one timeout for the two exits together
        assert wait_until(lambda: not tagged_processes(tag)), tagged_processes(tag)
    finally:
        kill_tagged(tag)


@pytest.mark.parametrize("how", ["setsid", "orphan"])
def test_no_process_an_adapter_started_in_another_session_survives_the_run(tmp_path: Path, how: str) -> None:
    # Old code: the group was killed, the sleepers in sessions of their own were not.
    tag = f"escape-{uuid.uuid4().hex}"
    impl = f"{sys.executable} {escaping_adapter(tmp_path)} {how} {tag} ok"
    try:
        started = time.monotonic()
        _, results = run_cases(lambda: open_adapter(impl, PATIENT), some_cases(4),
                               RunOptions(timeout=PATIENT, per_case=True))
        assert [r.outcome for r in results] == ["pass"] * 4
        assert time.monotonic() - started < PATIENT
        assert wait_until(lambda: not tagged_processes(tag)), tagged_processes(tag)
    finally:
        kill_tagged(tag)


def test_killing_the_runner_kills_what_its_adapter_started_in_another_session(tmp_path: Path) -> None:
    # Old code: the reaper killed the adapter's group only.
    tag = f"escape-{uuid.uuid4().hex}"
    impl = f"{sys.executable} {escaping_adapter(tmp_path)} setsid {tag} hang:3"
    runner = subprocess.Popen([sys.executable, "-m", "belote_ref.cli", "conformance", "run", "--impl", impl,
                               "--timeout", "600", "--kind", "trick_winner", "--ruleset", "classic"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO)
    try:
        # The adapter hanging on its third case, and the three sleepers it started.
        assert wait_until(lambda: len(tagged_processes(tag)) >= 4), "the adapter never started"
        runner.send_signal(signal.SIGKILL)
        runner.wait(timeout=60)
        assert wait_until(lambda: not tagged_processes(tag)), tagged_processes(tag)
    finally:
        runner.kill()
        runner.wait(timeout=60)
        kill_tagged(tag)


# ------------------------------------------------------------------------------------- given.seat


def legal_plays_message(**given: Any) -> dict[str, Any]:
    case = next(c for c in build_cases(load_corpus(), [find_ruleset("classic")], kinds=["legal_plays"])
                if c.fixture.id == "play.lead.any-card")
    message = run_message(1, case)
    message["given"] = {**message["given"], **given}
    return message


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"seat": "Z"}, "not a seat: 'Z'"),
        ({"seat": 3.0}, "expected a seat"),
        ({"seat": None}, "expected a seat"),
        ({"seat": "N"}, "given.seat N is not the seat to play"),  # W leads an empty trick
        ({"seat": "E", "trick": {"leader": "S", "cards": ["7H"]}}, "given.seat E is not the seat to play"),
        ({"seat": "S", "trick": {"leader": "E", "cards": ["7H", "8H", "9H"]}}, "it is N"),
    ],
)
def test_legal_plays_refuses_a_seat_that_is_not_to_play(change: dict[str, Any], says: str) -> None:
    # Old code: given.seat was never read, so each was answered with the legal cards.
    reply = answer(legal_plays_message(**change))
    assert reply is not None and reply.get("errored") is True and says in reply["message"], reply
    assert "result" not in reply and reply["seq"] == 1


def test_legal_plays_refuses_a_missing_seat() -> None:
    message = legal_plays_message()
    del message["given"]["seat"]
    reply = answer(message)
    assert reply is not None and reply.get("errored") is True and "missing 'seat'" in reply["message"], reply


def test_legal_plays_answers_the_seat_to_play() -> None:
    reply = answer(legal_plays_message(seat="W", hand=["7S", "AH"], trick={"leader": "S", "cards": ["7H"]}))
    assert reply == {"seq": 1, "result": {"legal": ["AH"]}}


def test_serve_answers_a_wrong_seat_with_an_error_reply() -> None:
    lines = (json.dumps(legal_plays_message(seat="Z")) + "\n" + json.dumps(legal_plays_message()) + "\n").encode()
    done = subprocess.run([sys.executable, "-m", "belote_ref.cli", "serve"], input=lines, capture_output=True,
                          timeout=120.0, cwd=REPO, check=True)
    wrong, right = (json.loads(text) for text in done.stdout.splitlines())
    assert wrong["errored"] is True and "not a seat" in wrong["message"]
    assert set(right["result"]["legal"]) == {"7S", "AH", "JD", "9C", "TC"}
