"""Untrusted input, handled: record files (``belote-ref replay``) and protocol lines (``belote-ref serve``).

Bad input gets a one-line error naming its line and a non-zero exit, never an internal error, a
traceback, a hang or unbounded memory; the lines after a bad one are still read. No test here
measures time: streaming is asserted by what has been read when (see CountingStream).
"""

from __future__ import annotations

import ast
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from damage import key_paths, replaced
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_ref import find_ruleset
from belote_ref.cli import main
from belote_ref.core.jsonlines import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_LINE_BYTES,
    MAX_MESSAGE_CHARS,
    JsonLineError,
    read_lines,
)
from belote_ref.protocol.serve import reply_to_line
from belote_ref.records.record import check_records, describe, record_of
from belote_ref.engine.simulate import random_deal

# A whole deal with its result, as `belote-ref play` writes it.
BASE: dict[str, Any] = record_of(random_deal(find_ruleset("classic"), random.Random(1)))
assert "deal_score" in BASE["result"] and len(BASE["tricks"]) == 8


def encode(data: Any) -> bytes:
    """One JSON line as `belote-ref play` writes it (non-ASCII kept)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def changed(**changes: Any) -> dict[str, Any]:
    """BASE with some keys replaced (a deep copy)."""
    data: dict[str, Any] = json.loads(json.dumps(BASE))
    data.update(changes)
    return data


GOOD = encode(BASE)
PARTIAL = encode({key: value for key, value in changed(tricks=BASE["tricks"][:3]).items() if key != "result"})


def run_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[bytes],
               end: bytes = b"\n") -> tuple[int, Path, list[str], list[str]]:
    """``belote-ref replay`` on a file of ``lines``: the status, the path, stdout and stderr lines."""
    path = tmp_path / "records.jsonl"
    path.write_bytes(b"\n".join(lines) + end)
    status = main(["replay", str(path)])
    out, err = capsys.readouterr()
    return status, path, out.splitlines(), err.splitlines()


def summary(total: int, good: int, bad: int, unchecked: int = 0) -> str:
    return f"{total} record(s): {good} good, {bad} bad, {unchecked} unchecked (no result recorded)"


class TestUnreadableLines:
    """Item 1: a line that cannot be decoded is an error of that line; the others are checked."""

    @pytest.mark.parametrize(("line", "message"), [
        (GOOD[:20] + b"\xff" + GOOD[20:], "not UTF-8: invalid start byte (byte 21)"),
        (b'{"pot": ' + b"7" * 5000 + b"}", f"not accepted: an integer with more than {MAX_INT_DIGITS} digits"),
        (b"[" * 1000, f"nested more than {MAX_DEPTH} levels deep"),
        (b'{"a": ' * 1000 + b"1" + b"}" * 1000, f"nested more than {MAX_DEPTH} levels deep"),
        (b'{"pot": NaN}', "not accepted: NaN is not a JSON number"),
        (b'{"pot": -Infinity}', "not accepted: -Infinity is not a JSON number"),
        (b'{"pot": 1e999}', "not accepted: a number out of range (1e999)"),
        (GOOD[:-1], "not JSON: Expecting ',' delimiter (column"),
        (b'"\xed\xa0\x80"', "not UTF-8: invalid continuation byte (byte 2)"),  # a surrogate in UTF-8 bytes
    ])
    def test_one_line_error_and_the_rest_checked(self, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                line: bytes, message: str) -> None:
        status, path, out, err = run_replay(tmp_path, capsys, [GOOD, line, GOOD])
        assert status == 2
        assert len(err) == 1 and err[0].startswith(f"{path}:2: {message}"), err
        assert out == [summary(3, 2, 1)]

    def test_brackets_inside_strings_are_not_nesting(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        status, _, out, err = run_replay(tmp_path, capsys, [encode(changed(comment="[{" * 500)), GOOD])
        assert (status, err) == (0, [])
        assert out == ["2 deal(s) replayed: every event legal, every recorded result agrees"]

    def test_nesting_at_the_limit_is_read(self) -> None:
        from belote_ref.core.jsonlines import decode_json_line

        assert decode_json_line(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH) is not None
        with pytest.raises(JsonLineError, match="nested more than"):
            decode_json_line(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))
        assert decode_json_line(b"-" + b"9" * MAX_INT_DIGITS) == -int("9" * MAX_INT_DIGITS)


class CountingStream(io.BytesIO):
    """A binary stream that remembers the size of every read asked of it."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.sizes: list[int | None] = []

    def readline(self, size: int | None = -1) -> bytes:
        self.sizes.append(size)
        return super().readline(size)

    def read(self, size: int | None = -1) -> bytes:
        raise AssertionError("the whole stream must never be read at once")


class TestStreaming:
    """Item 2: one line at a time, bounded, every bad line reported, the rest checked."""

    def test_a_truncated_last_line_leaves_the_others_checked(self, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
        status, path, out, err = run_replay(tmp_path, capsys, [GOOD] * 49 + [GOOD[: len(GOOD) // 2]], end=b"")
        assert status == 2
        assert len(err) == 1 and err[0].startswith(f"{path}:50: not JSON: ")
        assert out == [summary(50, 49, 1)]

    def test_every_bad_line_is_reported_with_its_number(self, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
        lines = [GOOD, b"{", GOOD, b"", b"\xff", GOOD, b"[" * 100]
        status, path, out, err = run_replay(tmp_path, capsys, lines)
        assert status == 2
        assert [line.split(": ")[0] for line in err] == [f"{path}:2", f"{path}:5", f"{path}:7"]
        assert out == [summary(6, 3, 3)]  # the blank line 4 is no record

    def test_an_over_long_line_is_refused_and_the_next_one_read(self, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
        long_line = b'{"comment": "' + b"x" * (2 * MAX_LINE_BYTES) + b'"}'
        status, path, out, err = run_replay(tmp_path, capsys, [GOOD, long_line, GOOD, long_line], end=b"")
        assert status == 2
        assert err == [f"{path}:2: line longer than {MAX_LINE_BYTES} bytes; skipped",
                       f"{path}:4: line longer than {MAX_LINE_BYTES} bytes; skipped"]
        assert out == [summary(4, 2, 2)]

    def test_an_over_long_line_is_drained_in_bounded_reads(self) -> None:
        stream = CountingStream(b"x" * 10_000 + b"\n" + b"ok\n" + b"y" * 500)
        lines = list(read_lines(stream, max_bytes=100))
        assert [number for number, _ in lines] == [1, 2, 3]
        assert isinstance(lines[0][1], JsonLineError) and lines[1][1] == b"ok\n"
        assert isinstance(lines[2][1], JsonLineError)
        assert all(size is not None and 0 < size <= 101 for size in stream.sizes)

    def test_records_are_checked_as_they_are_read(self) -> None:
        data = b"\n".join([GOOD, GOOD, b"{not json", GOOD]) + b"\n"
        stream = CountingStream(data)
        checks = check_records(stream, "stream")
        first = next(checks)
        # The first record is replayed before anything past its line is read.
        assert first.verdict == "good" and first.report is not None and first.report.state is not None
        assert stream.tell() == len(GOOD) + 1
        rest = list(checks)
        assert [check.verdict for check in rest] == ["good", "bad", "good"]
        assert rest[1].problems[0].startswith("stream:3: not JSON")
        assert all(size is not None and 0 < size <= MAX_LINE_BYTES + 1 for size in stream.sizes)

    def test_replay_reads_standard_input(self, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
        data = b"\n".join([GOOD, b"\xff", PARTIAL]) + b"\n"
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="strict"))
        assert main(["replay", "-"]) == 2
        out, err = capsys.readouterr()
        assert err.splitlines() == ["<stdin>:2: not UTF-8: invalid start byte (byte 1)"]
        assert out.splitlines() == [summary(3, 1, 1, 1)]


class TestLineBreaks:
    """Item 3: lines end at b"\\n" only; U+2028, U+2029 and U+0085 inside a string are text."""

    def test_line_separators_inside_strings(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        line = encode(changed(comment="one\u2028two\u2029three\x85four"))
        assert "\u2028".encode() in line
        status, _, out, err = run_replay(tmp_path, capsys, [line, GOOD])
        assert (status, err) == (0, [])
        assert out == ["2 deal(s) replayed: every event legal, every recorded result agrees"]

    def test_crlf_line_ends(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        status, _, out, err = run_replay(tmp_path, capsys, [GOOD + b"\r", GOOD + b"\r"])
        assert (status, err) == (0, [])
        assert out == ["2 deal(s) replayed: every event legal, every recorded result agrees"]


class TestResultsThatCannotBeChecked:
    """Item 4: a recorded result is never taken as agreeing when it was not compared."""

    def test_a_result_on_a_deal_not_over(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        line = encode(changed(tricks=BASE["tricks"][:7], result={"deal_score": {"NS": 999, "EW": -5}}))
        status, path, out, err = run_replay(tmp_path, capsys, [line, GOOD])
        assert status == 1
        assert err == [f"{path}:1: result recorded but the deal is not over after 28 of 32 cards"]
        assert out == [summary(2, 1, 1)]

    def test_a_result_on_an_auction_not_over(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        assert BASE["calls"][0] == "pass"
        line = encode(changed(calls=BASE["calls"][:1], tricks=[], completion=None))
        status, path, out, err = run_replay(tmp_path, capsys, [line, GOOD])
        assert status == 1
        assert err == [f"{path}:1: result recorded but the auction is not over after 1 call(s)"]
        assert out == [summary(2, 1, 1)]

    def test_an_empty_result(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        status, path, out, err = run_replay(tmp_path, capsys, [GOOD, encode(changed(result={}))])
        assert status == 1
        assert err == [f"{path}:2: result: empty; nothing to check (leave 'result' out of a record without one)"]
        assert out == [summary(2, 1, 1)]

    def test_an_unknown_result_key(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        status, path, out, err = run_replay(tmp_path, capsys, [encode(changed(result={**BASE["result"], "bonus": 5})),
                                                               GOOD])
        assert status == 1
        assert len(err) == 1 and err[0].startswith(f"{path}:1: result.bonus: unknown result key; the computed "
                                                   "result has trick_winners, card_points")
        assert out == [summary(2, 1, 1)]

    def test_a_duplicate_key(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        line = GOOD[:-1] + b',"dealer":"N"}'
        status, path, out, err = run_replay(tmp_path, capsys, [GOOD, line])
        assert status == 2
        assert err == [f"{path}:2: not accepted: duplicate key 'dealer' in an object"]
        assert out == [summary(2, 1, 1)]

    def test_a_result_that_disagrees_is_still_reported(self, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
        result = {**BASE["result"], "deal_score": {"NS": 1, "EW": 2}}
        status, path, out, err = run_replay(tmp_path, capsys, [GOOD, encode(changed(result=result))])
        assert status == 1
        assert len(err) == 1 and err[0].startswith(f'{path}:2: result.deal_score: recorded {{"NS": 1, "EW": 2}}')
        assert out == [summary(2, 1, 1)]

    @pytest.mark.parametrize("key", ["deal_score", "card_points"])
    def test_a_result_of_the_same_numbers_in_other_json_types_disagrees(
            self, tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str) -> None:
        # Python holds 81 == 81.0 == ... and 1 == True; the protocol's numbers are integers.
        scores = BASE["result"][key]
        as_fractions = {team: float(points) for team, points in scores.items()}
        result = {**BASE["result"], key: as_fractions}
        status, path, out, err = run_replay(tmp_path, capsys, [GOOD, encode(changed(result=result))])
        assert status == 1
        assert err == [f"{path}:2: result.{key}: recorded {json.dumps(as_fractions)}, computed {json.dumps(scores)}"]
        assert out == [summary(2, 1, 1)]

    def test_a_boolean_for_an_integer_disagrees(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        computed = BASE["result"]["pot"]
        assert computed in (0, 1)  # so that the boolean is == to it in Python
        result = {**BASE["result"], "pot": bool(computed)}
        status, path, out, err = run_replay(tmp_path, capsys, [GOOD, encode(changed(result=result))])
        assert status == 1
        assert err == [f"{path}:2: result.pot: recorded {json.dumps(bool(computed))}, computed {computed}"]

    def test_an_unknown_ruleset_is_an_error_of_its_line(self, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
        line = encode(changed(ruleset={"id": "nope", "version": 1}))
        status, path, out, err = run_replay(tmp_path, capsys, [line, GOOD])
        assert status == 2
        assert len(err) == 1 and err[0].startswith(f"{path}:1: unknown ruleset 'nope'")
        assert out == [summary(2, 1, 1)]


class TestSummary:
    """Item 5: the summary counts good, bad and unchecked records; exit 0 only when none is bad."""

    def test_good_bad_and_unchecked(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        bad = encode(changed(result={**BASE["result"], "pot": 7}))
        status, _, out, err = run_replay(tmp_path, capsys, [GOOD, PARTIAL, bad, GOOD])
        assert status == 1 and len(err) == 1
        assert out == [summary(4, 2, 1, 1)]

    def test_unchecked_records_alone_exit_0(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        status, _, out, err = run_replay(tmp_path, capsys, [PARTIAL, PARTIAL])
        assert (status, err) == (0, [])
        assert out == [summary(2, 0, 0, 2)]

    def test_a_single_record_is_still_shown(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        status, _, out, err = run_replay(tmp_path, capsys, [GOOD])
        assert (status, err) == (0, [])
        assert out[0].startswith("ruleset classic v1, dealer") and out[-1] == (
            "1 deal(s) replayed: every event legal, every recorded result agrees")

    def test_unchecked_is_documented(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit):
            main(["replay", "--help"])
        help_text = " ".join(capsys.readouterr().out.split())
        assert "unchecked (every event legal, no result recorded" in help_text
        assert "standard input" in help_text
        # The module's docstring read from its source: a module of the compiled build keeps none.
        source = Path(__file__).resolve().parent.parent / "belote_ref" / "records" / "record.py"
        docstring = ast.get_docstring(ast.parse(source.read_text(encoding="utf-8"))) or ""
        assert "**unchecked**: every event is legal but there is no ``result``" in docstring


# --------------------------------------------------------------------------------------------- serve

MARK = "@@HERE@@"  # replaced by raw JSON text that no Python value serialises to
CLASSIC = find_ruleset("classic").to_json()
GOOD_RUN: dict[str, Any] = {"cmd": "run", "seq": 0, "kind": "legal_plays", "ruleset": CLASSIC,
            "given": {"trump": "H", "seat": "E", "hand": ["7S", "AH"], "trick": {"leader": "N", "cards": ["KS"]}}}

BAD_MESSAGES = [
    b'{"cmd":"run","seq":"\\ud800"}',  # a lone surrogate: cannot be echoed as UTF-8
    b'{"cmd":"run","seq":' + b"1" * 5000 + b"}",
    b"[" * 1000,
    b"\xff",
    b'{"cmd":"run","seq":"\xff"}',  # raw: must not come back in the reply
    b'{"cmd":"run","seq":NaN}',
    b'{"cmd":"run","seq":1e999}',
    b'{"cmd":"run","cmd":"hello"}',
    b'{"cmd":"run","ruleset":{"id":"x","version":"' + b"9" * 5000 + b'","parameters":{}}}',
    b'{"cmd":"run","ruleset":{"id":["x"],"version":1,"parameters":{}}}',
    b'"' + b"x" * (MAX_LINE_BYTES + 10) + b'"',
    b"{",
    b"\x00\x01\x02",
]


def test_serve_answers_every_bad_line_and_goes_on() -> None:
    lines = []
    for number in range(len(BAD_MESSAGES)):
        lines += [BAD_MESSAGES[number], encode({"cmd": "hello", "protocol": 1}),
                  encode({**GOOD_RUN, "seq": number + 1})]
    data = b"\n".join(lines) + b"\n" + encode({"cmd": "stop"}) + b"\n"
    # The timeout guards against a hang; it is no assertion on speed.
    done = subprocess.run([sys.executable, "-m", "belote_ref.cli", "serve"], input=data, capture_output=True,
                          timeout=120, env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"}, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    replies = [json.loads(line) for line in done.stdout.decode("utf-8", "strict").splitlines()]
    assert len(replies) == 3 * len(BAD_MESSAGES)
    for number in range(len(BAD_MESSAGES)):
        bad, hello, run = replies[3 * number: 3 * number + 3]
        assert bad.get("errored") is True and "seq" not in bad, (BAD_MESSAGES[number][:80], bad)
        assert "\n" not in bad["message"] and not bad["message"].startswith("internal error"), bad
        assert hello["protocol"] == 1  # the only version this hello offers (tests/test_negotiation.py)
        assert run == {"seq": number + 1, "result": {"legal": ["7S"]}}


def test_serve_never_echoes_what_utf8_cannot_carry() -> None:
    # A run whose seq is a lone surrogate is answered, without seq: its reply stays valid UTF-8.
    reply = reply_to_line(json.dumps({**GOOD_RUN, "seq": "\ud800"}).encode("ascii"))
    assert reply is not None
    assert json.loads(reply.decode("utf-8", "strict")) == {"result": {"legal": ["7S"]}}
    # A lone surrogate in a value quoted by an error message is escaped in the message.
    bad_card = encode({**GOOD_RUN, "given": {**GOOD_RUN["given"], "hand": [MARK]}}).replace(f'"{MARK}"'.encode(),
                                                                                          b'"\\udc80"')
    reply = reply_to_line(bad_card)
    assert reply is not None
    decoded = json.loads(reply.decode("utf-8", "strict"))
    assert decoded["seq"] == 0 and decoded["errored"] is True and "\\udc80" in decoded["message"]


def test_serve_takes_text_streams() -> None:
    from belote_ref.protocol.serve import serve

    stdin = io.StringIO(json.dumps({**GOOD_RUN, "seq": "é"}) + "\n\n{\n" + json.dumps({"cmd": "stop"}) + "\n")
    stdout = io.StringIO()
    assert serve(stdin, stdout) == 0
    replies = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert replies[0] == {"seq": "é", "result": {"legal": ["7S"]}}
    assert replies[1]["errored"] is True and replies[1]["message"].startswith("not JSON")
    assert len(replies) == 2


# --------------------------------------------------------------------------------------------- properties

# Values that may replace any part of a record or message.
TOKENS: st.SearchStrategy[Any] = st.sampled_from(["7S", "AH", "TD", "10C", "JH", "XX", "", "pass", "take", "H", "N", "Q", None, 3, -1, True,
                          [], {}, "E", "W", "S", "\ud800", "\udcff", "a\u2028b", "\x00", "\n", 2**62, -2**62, 1.5])
VALUES = st.recursive(TOKENS, lambda children: st.lists(children, max_size=5) | st.dictionaries(
    st.sampled_from(["N", "E", "S", "W", "leader", "cards", "seat", "kind", "id", "version", "deal_score", "NS"]),
    children, max_size=4), max_leaves=10)
# JSON text that no Python value serialises to: huge or non-finite numbers, deep nesting, bad bytes.
RAW_VALUES = st.one_of(
    st.sampled_from([b"NaN", b"Infinity", b"-Infinity", b"1e999", b"-1e400", b'"\xff"', b'"\xed\xa0\x80"',
                     b'"\\ud800"', b'{"a":1,"a":2}', b'"\xc3"', b"\x80", b"[", b"}", b'"', b"\r", b"\\"]),
    st.integers(MAX_INT_DIGITS + 1, 6000).map(lambda n: b"9" * n),
    st.integers(MAX_DEPTH - 8, 3000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(MAX_DEPTH - 8, 1500).map(lambda n: b'{"a":' * n + b"0" + b"}" * n),
)


@st.composite
def damaged(draw: st.DrawFn, base: dict[str, Any]) -> bytes:
    """A JSON line of ``base`` damaged: a part replaced by a value or raw JSON text, then perhaps
    bytes changed; or raw garbage."""
    kind = draw(st.sampled_from(["value", "raw", "bytes", "garbage"]))
    if kind == "garbage":
        return draw(st.binary(max_size=300) | st.text(max_size=100).map(lambda t: t.encode("utf-8", "surrogatepass")))
    path = draw(st.sampled_from(key_paths(base)))
    if kind == "raw":
        line = json.dumps(replaced(base, path, MARK)).encode().replace(f'"{MARK}"'.encode(), draw(RAW_VALUES))
    else:
        line = json.dumps(replaced(base, path, draw(VALUES)), ensure_ascii=draw(st.booleans())).encode(
            "utf-8", "surrogatepass")
    if kind == "bytes":
        at = draw(st.integers(0, len(line)))
        cut = draw(st.integers(0, 8))
        line = line[:at] + draw(st.binary(max_size=8)) + line[at + cut:]
    return line


@pytest.mark.slow  # the slow tier: see README
@settings(max_examples=2000, deadline=None, database=None)
@given(bad=damaged(BASE))
def test_any_damaged_record_is_one_line_of_error_and_the_rest_is_checked(bad: bytes) -> None:
    data = GOOD + b"\n" + bad + b"\n" + GOOD + b"\n"
    checks = list(check_records(io.BytesIO(data), "<fuzz>"))
    numbers = [number for number, line in enumerate(data.split(b"\n"), 1) if line.strip()]
    assert len(checks) == len(numbers)
    assert checks[0].verdict == "good" and checks[-1].verdict == "good"
    for number, check in zip(numbers, checks, strict=True):
        assert check.verdict in ("good", "bad", "unchecked")
        for problem in check.problems:
            assert problem.startswith(f"<fuzz>:{number}: ") and "\n" not in problem and problem.isprintable()
            assert len(problem) <= MAX_MESSAGE_CHARS + 3
        if check.report is not None:
            assert "\n" in describe(check.report)  # what `replay` prints for a file of one deal


RUN = {"cmd": "run", "seq": 1, "kind": "replay", "ruleset": find_ruleset("classic-annonces").to_json(),
       "given": {**{key: BASE.get(key) for key in ("dealer", "hands", "turned", "completion", "calls", "announcements",
                                                    "belote", "pot")},
                 "plays": [card for trick in BASE["tricks"] for card in trick["cards"]]}}


@pytest.mark.slow  # the slow tier: see README
@settings(max_examples=2000, deadline=None, database=None)
@given(bad=damaged(RUN))
def test_any_damaged_message_gets_one_valid_utf8_json_reply(bad: bytes) -> None:
    reply = reply_to_line(bad)
    if reply is None:  # only a stop message has no reply
        assert json.loads(bad)["cmd"] == "stop"
        return
    text = reply.decode("utf-8", "strict")
    assert text.endswith("\n") and text.count("\n") == 1
    decoded = json.loads(text)
    assert isinstance(decoded, dict)
    assert "result" in decoded or decoded.get("errored") is True or "protocol" in decoded
    if "seq" in decoded:
        assert isinstance(decoded["seq"], (int, str)) and not isinstance(decoded["seq"], bool)
    if decoded.get("errored"):
        assert len(decoded["message"]) <= MAX_MESSAGE_CHARS + 3
        assert not decoded["message"].startswith("internal error"), decoded


def test_a_yaml_record_with_a_huge_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.yaml"
    path.write_text("pot: " + "9" * 5000 + "\n")
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert err.splitlines() == [f"{path}:1:6: pot: number too large (more than 30 digits)"]
    assert out.splitlines() == [summary(1, 0, 1)]
