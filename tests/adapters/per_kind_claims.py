"""A protocol adapter whose kinds claim different values, and that records every ruleset it is sent.

    python per_kind_claims.py RECORD_FILE

Answers ``legal_plays``, ``trick_winner`` and ``score`` with belote-ref's engine, except that a
``score`` at hearts counts one card point too many for NS (whatever the rules: a mistake the
shrinker keeps under any ruleset). Its hello claims:

- in general, the values of the shipped rulesets and nothing else (``parameters: {}``), which is
  what ``trick_winner`` gets;
- for ``legal_plays``, any allowed value of every parameter (``"*"``);
- for ``score``, ``scoring.rounding.mode: [nearest_10_half_up]`` only (the other parameters at the
  values of the shipped rulesets), so that neither ``classic``'s rounding (``none``) nor
  ``complement_160`` is claimed for it.

Each ``run`` message appends one line to RECORD_FILE: ``{"kind": ..., "parameters": {...}}``, for
the fuzzer's tests to check that nothing outside a kind's claims was sent.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from _loop import answer, serve

KINDS = ["legal_plays", "trick_winner", "score"]
SCORE_ROUNDING = ["nearest_10_half_up"]


def claim(supports: dict[str, Any]) -> None:
    everything = dict(supports["parameters"])
    supports["kinds"] = list(KINDS)
    supports["parameters"] = {}
    supports["by_kind"] = {
        "legal_plays": {"parameters": everything},
        "score": {"parameters": {"scoring.rounding.mode": SCORE_ROUNDING}},
    }


def main() -> int:
    record = open(sys.argv[1], "a", encoding="utf-8")  # noqa: SIM115 - open for the adapter's whole life

    def run(message: dict[str, Any]) -> dict[str, Any] | None:
        if message.get("cmd") == "run":
            parameters = (message.get("ruleset") or {}).get("parameters")
            record.write(json.dumps({"kind": message.get("kind"), "parameters": parameters}) + "\n")
            record.flush()
        reply = answer(message)
        if message.get("kind") == "score" and reply is not None and "result" in reply:
            result = reply["result"]
            if (message.get("given") or {}).get("trump") == "H" and isinstance(result.get("card_points"), dict):
                result["card_points"]["NS"] += 1
        return reply

    return serve("per-kind-claims", claim, run)


if __name__ == "__main__":
    sys.exit(main())
