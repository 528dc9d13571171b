"""``belote-ref serve`` serves old runners: each hello is answered in the highest version offered.

A runner written against protocol 1 sends ``"protocol": 1`` alone, one against protocol 2
``"protocols": [1, 2]``; each must get its own version back, with only that version's kinds and
parameters, and then have its cases answered.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from belote_ref.protocol.hello import negotiated_version
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import find_ruleset

GIVEN = {"trump": "H", "seat": "S", "hand": ["7H", "QH", "KD", "8C"], "trick": {"leader": "N", "cards": ["AS", "9H"]}}


def _case(version: int) -> dict[str, object]:
    """A legal_plays case under classic as a runner of ``version`` sends it: only that version's parameters."""
    registry = load_registry()
    parameters = {pid: value for pid, value in find_ruleset("classic").params.items()
                  if registry[pid].since_protocol <= version}
    return {"cmd": "run", "seq": 1, "kind": "legal_plays", "ruleset": {"id": "classic", "parameters": parameters},
            "given": GIVEN}


def _serve(*messages: dict[str, object]) -> list[dict[str, object]]:
    text = "".join(json.dumps(message) + "\n" for message in messages)
    done = subprocess.run([sys.executable, "-m", "belote_ref.cli", "serve"], input=text, capture_output=True,
                          text=True, timeout=300, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize(("hello", "version"), [
    ({"cmd": "hello", "protocol": 1, "suite": "0.1.0"}, 1),
    ({"cmd": "hello", "protocol": 2, "protocols": [1, 2], "suite": "0.1.0"}, 2),
    ({"cmd": "hello", "protocol": 3, "protocols": [1, 2, 3], "suite": "0.1.0"}, 3),
])
def test_serve_answers_each_runner_in_its_own_version_and_then_its_case(hello: dict[str, object],
                                                                         version: int) -> None:
    reply, answer = _serve(hello, _case(version), {"cmd": "stop"})
    assert reply["protocol"] == version
    supports = reply["supports"]
    assert isinstance(supports, dict)
    registry = load_registry()
    assert list(supports["parameters"]) == [pid for pid, parameter in registry.parameters.items()
                                            if parameter.since_protocol <= version]
    assert ("play" in supports["kinds"]) is (version >= 2)
    assert answer == {"seq": 1, "result": {"legal": ["7H", "QH"]}}


def test_the_version_is_the_highest_in_common_and_the_newest_otherwise() -> None:
    assert negotiated_version({"cmd": "hello", "protocols": [2, 1]}) == 2
    assert negotiated_version({"cmd": "hello", "protocols": [1, 3, 9]}) == 3
    assert negotiated_version({"cmd": "hello", "protocol": 2}) == 2
    assert negotiated_version({"cmd": "hello", "protocols": [True, 9]}) == 3
    assert negotiated_version({"cmd": "hello"}) == 3
