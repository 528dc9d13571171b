"""belote-ref serve answers hello before it loads the engine, with the reply the engine would give."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

from belote_ref.protocol.hello import KINDS
from belote_ref.protocol.serve import hello
from belote_ref.protocol.serve import reply_to_line
from belote_ref.protocol.serve import serve as protocol_serve
from belote_ref.rules.ruleset import shipped_rulesets

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
    from belote_ref.rules.ruleset import find_ruleset

    return dict(find_ruleset("classic").params)


def test_the_early_hello_claims_every_registry_parameter() -> None:
    """hello reads the registry's data, not the typed registry: the two must say the same."""
    from belote_ref.rules.registry import load_registry

    expected = {pid: list(p.values) if p.closed else "*" for pid, p in load_registry().parameters.items()}
    assert hello()["supports"]["parameters"] == expected
    assert list(hello()["supports"]["parameters"]) == list(load_registry().parameters)


# The modules a serve child must not have imported when it writes its reply to hello: the engine,
# and typing and dataclasses (with inspect), a third of a start (belote_ref/core/frozen.py says why).
SPY = r"""
import io, os, sys
WATCHED = ("typing", "dataclasses", "inspect", "belote_ref.rules.registry", "belote_ref.protocol.serve", "yaml", "jsonschema")

class Spy(io.RawIOBase):
    def writable(self):
        return True

    def write(self, data):
        loaded = [name for name in WATCHED if name in sys.modules]
        os.write(2, ("loaded: " + " ".join(loaded) + "\n").encode())
        os.write(2, bytes(data))
        os._exit(0)

sys.stdout = io.TextIOWrapper(io.BufferedWriter(Spy()))
sys.stdin = io.TextIOWrapper(io.BytesIO(HELLO))
from belote_ref.cli import main
main(["serve"])
"""


def test_serve_answers_hello_before_it_imports_the_engine_typing_or_dataclasses(tmp_path: object) -> None:
    script = f"HELLO = {HELLO!r}\n" + SPY
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120, check=True,
                            cwd=str(tmp_path))
    first, _, reply = result.stderr.partition(b"\n")
    assert first == b"loaded: ", result.stderr[:500]
    assert reply.startswith(b'{"protocol":') and b'"implementation"' in reply
