"""belote-ref serve answers hello before it loads the engine, with the reply the engine would give."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

from belote_ref.hello import KINDS, hello
from belote_ref.protocol import reply_to_line
from belote_ref.protocol import serve as protocol_serve
from belote_ref.rules import shipped_rulesets

HELLO = b'{"cmd": "hello", "protocol": 2, "protocols": [1, 2], "suite": "0.1.0"}\n'
RUN = {"cmd": "run", "seq": 7, "kind": "trick_winner", "ruleset": None,
       "given": {"trump": "H", "trick": {"leader": "N", "cards": ["AS", "9H", "7S", "8S"]}}}


def serve(stdin: bytes) -> list[bytes]:
    result = subprocess.run([sys.executable, "-m", "belote_ref.cli", "serve"], input=stdin, capture_output=True,
                            timeout=120, check=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    return result.stdout.splitlines(keepends=True)


def test_the_early_hello_is_the_protocol_s() -> None:
    assert hello()["supports"]["rulesets"] == list(shipped_rulesets())
    assert hello()["supports"]["kinds"] == list(KINDS)
    run = json.dumps({**RUN, "ruleset": {"id": "classic", "version": 1, "parameters": _classic()}}).encode() + b"\n"
    replies = serve(HELLO + run + b'{"cmd": "stop"}\n')
    assert replies[0] == reply_to_line(HELLO)
    # The ace of spades led, the nine of trumps (hearts) wins: 11 + 14 card points.
    assert json.loads(replies[1]) == {"seq": 7, "result": {"winner": "E", "points": 25}}
    assert len(replies) == 2


def in_process(stdin: bytes) -> list[bytes]:
    out = io.BytesIO()
    protocol_serve(io.BytesIO(stdin), out)
    return out.getvalue().splitlines(keepends=True)


def test_a_first_line_that_is_not_hello_goes_to_the_protocol_loop() -> None:
    for first in (b"garbage\n", b"\n", b'{"cmd": "stop"}\n', b'{"cmd": "hello"', b"[1, 2]\n", b"x" * (1 << 20) + b"\n"):
        replies = serve(first + HELLO)
        assert replies == in_process(first + HELLO), first[:40]
    assert serve(b'{"cmd": "stop"}\n' + HELLO) == []


def _classic() -> dict[str, object]:
    from belote_ref.rules import find_ruleset

    return dict(find_ruleset("classic").params)
