"""The adapters the project ships negotiate: each answers the highest version it speaks among those
the runner offers (``protocols``, or ``protocol`` alone from a version-1 runner), claims only that
version's kinds and parameters, answers a case in it, and answers an error line when no version is
in common.

The peers (belote-cli, colver) need their engines (``pip install '.[peers]'``), the JavaScript
example Node.js; each test says so when it is skipped.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from belote_ref.conformance.corpus import compare_results
from belote_ref.protocol.serve import run_case
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import find_ruleset

ROOT = Path(__file__).resolve().parent.parent
HELLOS = {
    1: {"cmd": "hello", "protocol": 1, "suite": "0.1.0"},
    2: {"cmd": "hello", "protocol": 2, "protocols": [1, 2], "suite": "0.1.0"},
    3: {"cmd": "hello", "protocol": 3, "protocols": [1, 2, 3], "suite": "0.1.0"},
}
NO_COMMON_VERSION = {"cmd": "hello", "protocol": 9, "protocols": [9], "suite": "9.0.0"}
TRICK = {"trump": "H", "trick": {"leader": "N", "cards": ["AS", "9H", "KS", "7S"]}}
LEGAL = {"trump": "D", "seat": "E", "hand": ["TS", "8S", "9D", "AC"], "trick": {"leader": "W", "cards": ["KS", "7S"]}}


def _installed(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _python_example(tmp_path: Path) -> list[str]:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    script = tmp_path / "adapter.py"
    script.write_text(text.split("```python\n", 1)[1].split("```", 1)[0], encoding="utf-8")
    return [sys.executable, str(script)]


needs_belote_cli = pytest.mark.skipif(_installed("belote-cli") != "4.9.6",
                                      reason="belote-cli==4.9.6 is not installed; pip install '.[peers]'")
needs_colver = pytest.mark.skipif(_installed("colver") != "0.11.1",
                                  reason="colver==0.11.1 is not installed; pip install '.[peers]'")
needs_node = pytest.mark.skipif(shutil.which("node") is None,
                                reason="node not found on PATH: docs/examples/adapter.js needs Node.js")

# adapter: (how to start it, the version it answers to each hello, the kind of the case sent, the kinds per version)
ADAPTERS: dict[str, Any] = {
    "belote_cli": pytest.param(
        lambda _: [sys.executable, str(ROOT / "conformance" / "adapters" / "belote_cli" / "adapter.py")],
        {1: 1, 2: 2, 3: 2}, "legal_plays",
        {1: {"deal", "auction", "legal_plays", "trick_winner", "announcements", "score", "replay", "match"},
         2: {"deal", "auction", "legal_plays", "trick_winner", "announcements", "score", "replay", "match", "play"}},
        marks=needs_belote_cli, id="belote_cli"),
    "colver": pytest.param(
        lambda _: [sys.executable, str(ROOT / "conformance" / "adapters" / "colver" / "adapter.py")],
        {1: 1, 2: 2, 3: 3}, "legal_plays",
        {1: {"legal_plays", "trick_winner"}, 2: {"legal_plays", "trick_winner", "play"},
         3: {"legal_plays", "trick_winner", "play", "auction", "score"}},
        marks=needs_colver, id="colver"),
    "python_example": pytest.param(_python_example, {1: 1, 2: 1, 3: 1}, "trick_winner", {1: {"trick_winner"}},
                                   id="python_example"),
    "javascript_example": pytest.param(
        lambda _: ["node", str(ROOT / "docs" / "examples" / "adapter.js")], {1: 1, 2: 2, 3: 2}, "legal_plays",
        {1: {"trick_winner", "legal_plays"}, 2: {"trick_winner", "legal_plays"}},
        marks=needs_node, id="javascript_example"),
}


def _talk(command: list[str], *messages: dict[str, Any]) -> list[dict[str, Any]]:
    """Every message to a fresh adapter, then ``stop``; its reply lines."""
    text = "".join(json.dumps(message) + "\n" for message in (*messages, {"cmd": "stop"}))
    done = subprocess.run(command, input=text, capture_output=True, text=True, timeout=120, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def _case(version: int, kind: str) -> dict[str, Any]:
    """A case under classic as a runner of ``version`` sends it: only that version's parameters."""
    registry = load_registry()
    parameters = {pid: value for pid, value in find_ruleset("classic").params.items()
                  if registry[pid].since_protocol <= version}
    return {"cmd": "run", "seq": 7, "kind": kind, "ruleset": {"id": "classic", "version": 1, "parameters": parameters},
            "given": TRICK if kind == "trick_winner" else LEGAL}


@pytest.mark.parametrize(("start", "answers", "kind", "kinds"), list(ADAPTERS.values()))
@pytest.mark.parametrize("offered", [1, 2, 3])
def test_each_adapter_answers_the_highest_common_version_and_then_a_case(
        tmp_path: Path, start: Any, answers: dict[int, int], kind: str, kinds: dict[int, set[str]],
        offered: int) -> None:
    command = start(tmp_path)
    version = answers[offered]
    reply, answer = _talk(command, HELLOS[offered], _case(version, kind))
    assert reply["protocol"] == version
    assert set(reply["supports"]["kinds"]) == kinds[version]
    registry = load_registry()
    newer = [pid for pid in reply["supports"].get("parameters", {}) if registry[pid].since_protocol > version]
    assert not newer, f"claims parameters newer than version {version}: {newer}"
    assert version >= 2 or "by_kind" not in reply["supports"]
    expected = run_case(find_ruleset("classic"), kind, TRICK if kind == "trick_winner" else LEGAL)
    assert answer["seq"] == 7 and not compare_results(kind, expected, answer["result"]), answer


@pytest.mark.parametrize(("start", "answers", "kind", "kinds"), list(ADAPTERS.values()))
def test_each_adapter_answers_an_error_line_when_no_version_is_in_common(
        tmp_path: Path, start: Any, answers: dict[int, int], kind: str, kinds: dict[int, set[str]]) -> None:
    (reply,) = _talk(start(tmp_path), NO_COMMON_VERSION)
    assert reply.get("errored") is True and "protocol" not in reply
    assert "9" in reply["message"]
