"""A deliberately misbehaving protocol adapter for the runner's tests.

    python misbehave.py MODE[:N] [TAG]

Answers like `belote-ref serve`, except that the N-th `run` request (the 2nd by default; for
`rule-bug`, every legal_plays request) goes wrong in the way MODE says:

    hang          never answers
    exit          exits with status 3 instead of answering
    garbage       prints a line that is not JSON
    wrong-seq     answers with another seq
    huge-line     answers with a 10 MB line
    big-reply     answers with a 5 MiB line (over the 4 MiB limit)
    no-newline    writes the reply without its newline, then hangs
    half-reply    writes half a reply, then exits
    close-stdout  closes its standard output and keeps running
    deaf          stops reading its input (requests pile up in the pipe) and hangs
    big-number    answers with a 5,001-digit number in the result
    deep          answers with 100,000 levels of nesting
    bad-utf8      answers with a byte that is not UTF-8
    exit-hello    exits right after answering hello (N is ignored)
    spawn         starts a long-lived child on every run request (all answers right)
    flood         writes 1 MiB to stderr before every answer (all answers right)
    stderr-story  writes five numbered lines to stderr, then exits
    fractions     answers right, but with every integer of the result written as 20.0
    rule-bug      plays as if play.partner_master_exception were always false
    ok            behaves

With TAG, every run request (in any mode) starts a long-lived child whose command line holds TAG,
so that a test can find them; `spawn` without TAG uses the tag `misbehave-child`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

# The working tree's engine, whether or not belote-ref is installed in this interpreter.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from belote_ref.protocol.serve import answer


def reply(data: object) -> None:
    print(json.dumps(data), flush=True)


def raw(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def as_fractions(value: object) -> object:
    """``value`` with each integer (not a boolean) as the float of the same number."""
    if isinstance(value, dict):
        return {key: as_fractions(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_fractions(item) for item in value]
    return float(value) if type(value) is int else value


# Deliberate copy: this loop is where the adapter misbehaves (hangs, exits, bad bytes), so not _loop.serve.
def main() -> int:
    mode, _, nth = sys.argv[1].partition(":")
    bad_run = int(nth) if nth else 2
    tag = sys.argv[2] if len(sys.argv) > 2 else ("misbehave-child" if mode == "spawn" else "")
    runs = 0
    for line in sys.stdin:
        message = json.loads(line)
        command = message.get("cmd")
        if command == "stop":
            return 0
        if command == "run":
            runs += 1
            if tag:
                subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", tag])
            if mode == "rule-bug":
                message["ruleset"]["parameters"]["play.partner_master_exception"] = False
            if runs == bad_run:
                seq = message["seq"]
                if mode == "hang":
                    time.sleep(3600)
                if mode == "exit":
                    return 3
                if mode == "garbage":
                    print("Traceback (most recent call last): oops", flush=True)
                    continue
                if mode == "huge-line":
                    reply({"seq": seq, "result": {"legal": ["7S"] * 2_000_000}})
                    continue
                if mode == "big-reply":
                    reply({"seq": seq, "result": {"legal": ["7S" * 1024] * 5 * 1024}})
                    continue
                if mode == "no-newline":
                    raw(json.dumps(answer(message)).encode())
                    time.sleep(3600)
                if mode == "half-reply":
                    text = json.dumps(answer(message)).encode()
                    raw(text[: len(text) // 2])
                    return 0
                if mode == "close-stdout":
                    sys.stdout.flush()
                    os.close(1)
                    time.sleep(3600)
                if mode == "deaf":
                    time.sleep(3600)
                if mode == "big-number":
                    raw(b'{"seq": %d, "result": {"winner": "N", "points": %s}}\n' % (seq, b"9" * 5001))
                    continue
                if mode == "deep":
                    raw(b'{"seq": %d, "result": %s%s}\n' % (seq, b"[" * 100_000, b"]" * 100_000))
                    continue
                if mode == "bad-utf8":
                    raw(b'{"seq": %d, "result": {"winner": "\xff"}}\n' % seq)
                    continue
                if mode == "fractions":
                    out = answer(message)
                    reply({**out, "result": as_fractions(out["result"])})
                    continue
                if mode == "stderr-story":
                    for number in range(1, 21):
                        print(f"stderr line {number}", file=sys.stderr, flush=True)
                    return 4
        out = answer(message)
        if mode == "wrong-seq" and runs == bad_run and out is not None:
            out["seq"] = message["seq"] + 100
        if mode == "flood":
            sys.stderr.write("x" * (1 << 20) + "\n")
            sys.stderr.flush()
        if command == "hello" and mode == "rule-bug" and out is not None:
            out["implementation"]["name"] = "rule-bug"
            out["supports"]["kinds"] = ["legal_plays"]
        reply(out)
        if command == "hello" and mode == "exit-hello":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
