"""``belote-ref conformance smoke``: greet an adapter, send three simple cases, explain the first mistake.

Meant for the first hour of writing an adapter: instead of a report, one plain sentence about
what is wrong (no reply, not JSON, a missing or misspelt field, a card written in another
notation) and what was expected.
"""

from __future__ import annotations

import re
from typing import Any

from belote_ref.conformance.adapter import AdapterFailure, open_adapter
from belote_ref.conformance.applicability import check_claims
from belote_ref.conformance.corpus import compare_results
from belote_ref.conformance.runner import check_hello, hello_message
from belote_ref.protocol.serve import KINDS
from belote_ref.rules.ruleset import find_ruleset

__all__ = ["smoke"]

_CARD = re.compile(r"^[789TJQKA][SHDC]$")

_CASES: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
    ("trick_winner", "the seven of trumps beats the ace of the led suit",
     {"trump": "H", "trick": {"leader": "N", "cards": ["AS", "7H", "TS", "KS"]}}, {"winner": "E", "points": 25}),
    ("legal_plays", "follow the led suit",
     {"trump": "H", "seat": "E", "hand": ["7S", "KS", "AD", "JH"], "trick": {"leader": "N", "cards": ["AS"]}},
     {"legal": ["7S", "KS"]}),
    ("auction", "eldest takes the turned card",
     {"dealer": "S", "turned": "JH", "calls": ["take"]}, {"status": "taken", "taker": "W", "trump": "H", "round": 1}),
]


def _notation_problem(value: Any, path: str) -> str | None:
    """A card-looking string in another notation, named with where it is."""
    if (isinstance(value, str) and len(value) in (2, 3) and not _CARD.match(value)
            and re.match(r"^(10|[789tjqka])[shdc♠♥♦♣]$", value, re.IGNORECASE)):
        return (f"{path} is {value!r}: cards are written rank then suit in capitals, "
                "ranks 7 8 9 T J Q K A and suits S H D C (the ten is T), e.g. 'TH'")
    if isinstance(value, list):
        for index, item in enumerate(value):
            problem = _notation_problem(item, f"{path}[{index}]")
            if problem:
                return problem
    if isinstance(value, dict):
        for key, item in value.items():
            problem = _notation_problem(item, f"{path}.{key}")
            if problem:
                return problem
    return None


def smoke(impl: str, timeout: float) -> tuple[bool, list[str]]:
    """Run the smoke test; return whether it passed and the lines to print."""
    lines: list[str] = []
    try:
        adapter = open_adapter(impl, timeout)
    except AdapterFailure as failure:
        return False, [f"the adapter could not start: {failure.reason}"]
    try:
        adapter.start()
        try:
            hello = check_hello(adapter.request(hello_message()))
        except AdapterFailure as failure:
            return False, [(f"hello: {failure.reason}. The first reply must be one JSON object on one line, like "
                            '{"protocol": 1, "implementation": {"name": ...}, "supports": {"kinds": [...], ...}}')]
        name = (hello.get("implementation") or {}).get("name")
        problems = check_claims(hello, KINDS)
        if problems:
            lines.extend(f"hello: {problem}" for problem in problems)
            lines.append("hello: every kind, parameter id, value and ruleset id must be one the suite knows "
                         "(`belote-ref rules show classic --json` lists the parameters)")
            return False, lines
        lines.append(f"hello: ok ({name}; kinds {', '.join(hello['supports']['kinds'])})")
        ruleset = find_ruleset("classic").to_json()
        for seq, (kind, title, given, expected) in enumerate(_CASES, 1):
            if kind not in hello["supports"]["kinds"]:
                lines.append(f"{kind}: not declared in supports.kinds, not sent")
                continue
            message = {"cmd": "run", "seq": seq, "kind": kind, "ruleset": ruleset, "given": given}
            try:
                reply = adapter.request(message)
            except AdapterFailure as failure:
                lines.append(f"{kind} ({title}): {failure.reason}; each request gets exactly one reply line")
                return False, lines
            if reply is None or "seq" not in reply:
                lines.append(f"{kind}: the reply has no 'seq'; echo the request's seq ({seq}) in every reply")
                return False, lines
            if reply["seq"] != seq:
                lines.append(f"{kind}: the reply's seq is {reply['seq']!r}; it must echo the request's seq {seq}")
                return False, lines
            if reply.get("errored"):
                lines.append(f"{kind}: the adapter answered errored: {reply.get('message')}")
                return False, lines
            if reply.get("skipped"):
                lines.append(f"{kind}: skipped ({reply.get('reason')}); fine, but nothing was checked")
                continue
            if "result" not in reply:
                lines.append(f"{kind}: the reply needs a 'result' object (or skipped / errored); found keys "
                             f"{', '.join(sorted(reply))}")
                return False, lines
            result = reply["result"]
            if not isinstance(result, dict):
                lines.append(f"{kind}: 'result' must be a JSON object like {expected}")
                return False, lines
            missing = [key for key in expected if key not in result]
            if missing:
                lines.append(f"{kind}: the result lacks {', '.join(repr(m) for m in missing)}; "
                             f"expected a result shaped like {expected}")
                return False, lines
            problem = _notation_problem(result, "result")
            if problem:
                lines.append(f"{kind}: {problem}")
                return False, lines

            differences = compare_results(kind, expected, result)
            if differences:
                lines.append(f"{kind} ({title}): wrong answer: {'; '.join(differences)}")
                return False, lines
            lines.append(f"{kind} ({title}): ok")
        lines.append("smoke test passed: now run `belote-ref conformance run --impl ...`")
        return True, lines
    except AdapterFailure as failure:
        return False, [*lines, f"the adapter could not start: {failure.reason}"]
    finally:
        adapter.stop()
