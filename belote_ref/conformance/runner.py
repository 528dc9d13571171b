"""The conformance runner: send every applicable case to an implementation and judge its answers.

Cases are (fixture, ruleset) pairs. A case is sent only when the adapter declared its kind and
either the ruleset id or every resolved parameter value (``"*"``: any value); otherwise it is
``n/a``. Expectations are never sent. Outcomes: ``pass``, ``fail`` (a wrong result), ``error``
(the adapter answered ``errored``), ``crash`` and ``timeout`` (the adapter is restarted and the
run goes on), ``skip`` (the adapter answered ``skipped``), ``n/a``, and against an
expected-failures file ``xfail`` / ``xpass`` (an unexpected pass counts as an error).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from belote_ref import __version__
from belote_ref.conformance.adapter import AdapterFailure, InProcessAdapter, SubprocessAdapter
from belote_ref.conformance.corpus import Fixture, compare_results
from belote_ref.protocol import PROTOCOL_VERSION
from belote_ref.rules import Ruleset

__all__ = ["OUTCOMES", "BAD_OUTCOMES", "Case", "CaseResult", "RunOptions", "run_cases", "supported"]

OUTCOMES = ("pass", "fail", "error", "crash", "timeout", "skip", "n/a", "xfail", "xpass")
BAD_OUTCOMES = frozenset({"fail", "error", "crash", "timeout", "xpass"})

Adapter = SubprocessAdapter | InProcessAdapter


@dataclass(frozen=True)
class Case:
    """One fixture under one ruleset, with its expected result."""

    fixture: Fixture
    ruleset: Ruleset
    expected: Mapping[str, Any]

    @property
    def key(self) -> str:
        """``<fixture id> <ruleset id>``: how expected-failure files and baselines name a case."""
        return f"{self.fixture.id} {self.ruleset.id}"


@dataclass
class CaseResult:
    """What happened to one case."""

    case: Case
    outcome: str
    got: Any = None
    message: str = ""
    differences: list[str] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class RunOptions:
    """How to run: per-message timeout, one adapter per case, expected failures."""

    timeout: float = 10.0
    per_case: bool = False
    expected_failures: frozenset[str] = frozenset()


def supported(hello: Mapping[str, Any], case: Case) -> bool:
    """Whether the adapter's ``hello`` declares support for ``case``."""
    supports = hello.get("supports") or {}
    if case.fixture.kind not in (supports.get("kinds") or ()):
        return False
    if case.ruleset.id in (supports.get("rulesets") or ()):
        return True
    parameters = supports.get("parameters") or {}
    if not isinstance(parameters, Mapping):
        return False
    for parameter_id, value in case.ruleset.params.items():
        declared = parameters.get(parameter_id)
        if declared == "*":
            continue
        if not isinstance(declared, list) or not any(type(v) is type(value) and v == value for v in declared):
            return False
    return True


def check_hello(reply: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validate the reply to ``hello``; raise :class:`AdapterFailure` with the mistake in words."""
    if reply is None or not isinstance(reply, Mapping):
        raise AdapterFailure("crash", "no reply to hello")
    if reply.get("protocol") != PROTOCOL_VERSION:
        raise AdapterFailure("crash", f"hello: 'protocol' must be {PROTOCOL_VERSION}; found {reply.get('protocol')!r}")
    supports = reply.get("supports")
    if not isinstance(supports, Mapping) or not isinstance(supports.get("kinds"), list):
        raise AdapterFailure("crash", "hello: 'supports' must be an object with a 'kinds' list")
    implementation = reply.get("implementation")
    if not isinstance(implementation, Mapping) or not isinstance(implementation.get("name"), str):
        raise AdapterFailure("crash", "hello: 'implementation' must be an object with a 'name'")
    return dict(reply)


def hello_message() -> dict[str, Any]:
    """The runner's greeting."""
    return {"cmd": "hello", "protocol": PROTOCOL_VERSION, "suite": __version__}


def run_message(seq: int, case: Case) -> dict[str, Any]:
    """The ``run`` request for a case: the resolved ruleset and the ``given``, never the expectation."""
    return {"cmd": "run", "seq": seq, "kind": case.fixture.kind, "ruleset": case.ruleset.to_json(),
            "given": case.fixture.given}


def judge(case: Case, reply: Mapping[str, Any], seq: int) -> CaseResult:
    """The outcome of one reply. Raises :class:`AdapterFailure` on a wrong ``seq`` or shape."""
    if reply.get("seq") != seq:
        raise AdapterFailure("crash", f"the reply's seq is {reply.get('seq')!r}; expected {seq}")
    if reply.get("skipped") is True:
        return CaseResult(case, "skip", message=str(reply.get("reason", "")))
    if reply.get("errored") is True:
        return CaseResult(case, "error", message=str(reply.get("message", "")))
    if "result" not in reply:
        raise AdapterFailure("crash", "the reply has none of 'result', 'skipped', 'errored'")
    got = reply["result"]
    differences = compare_results(case.fixture.kind, case.expected, got)
    return CaseResult(case, "fail" if differences else "pass", got=got, differences=differences)


def _apply_expectations(result: CaseResult, expected_failures: frozenset[str]) -> CaseResult:
    if result.case.key in expected_failures or result.case.fixture.id in expected_failures:
        if result.outcome == "pass":
            result.outcome = "xpass"
            result.message = "passed, but listed as an expected failure"
        elif result.outcome in ("fail", "error", "crash", "timeout"):
            result.message = f"{result.outcome}: {result.message}".rstrip(": ")
            result.outcome = "xfail"
    return result


def run_cases(
    make_adapter: Callable[[], Adapter],
    cases: Sequence[Case],
    options: RunOptions,
    progress: Callable[[int, int, CaseResult], None] | None = None,
) -> tuple[dict[str, Any], list[CaseResult]]:
    """Run ``cases`` against adapters made by ``make_adapter``; return the hello reply and the results.

    Raises :class:`AdapterFailure` when the very first adapter cannot start or greet.
    """
    adapter = make_adapter()
    adapter.start()
    try:
        hello = check_hello(adapter.request(hello_message()))
    except AdapterFailure:
        adapter.kill()
        raise
    results: list[CaseResult] = []
    live: Adapter | None = adapter
    seq = 0
    for index, case in enumerate(cases):
        if not supported(hello, case):
            result = CaseResult(case, "n/a")
        else:
            seq += 1
            started = time.perf_counter()
            try:
                if live is None:
                    live = make_adapter()
                    live.start()
                    check_hello(live.request(hello_message()))
                reply = live.request(run_message(seq, case))
                if reply is None:
                    raise AdapterFailure("crash", "no reply")
                result = judge(case, reply, seq)
            except AdapterFailure as failure:
                tail = live.stderr_tail() if live is not None else ""
                result = CaseResult(case, failure.outcome, message=failure.reason + (f"; stderr: {tail[-300:]}" if tail else ""))
                if live is not None:
                    live.kill()
                live = None
            result.seconds = time.perf_counter() - started
            if options.per_case and live is not None:
                live.stop()
                live = None
        results.append(_apply_expectations(result, options.expected_failures))
        if progress is not None:
            progress(index + 1, len(cases), results[-1])
    if live is not None:
        live.stop()
    return hello, results


def build_cases(fixtures: Iterable[Fixture], rulesets: Sequence[Ruleset], kinds: Sequence[str] = (),
                id_prefix: str = "") -> list[Case]:
    """Every (fixture, ruleset) pair where the fixture applies, filtered by kind and id prefix."""
    cases = []
    for ruleset in rulesets:
        for fixture in fixtures:
            if kinds and fixture.kind not in kinds:
                continue
            if id_prefix and not fixture.id.startswith(id_prefix):
                continue
            expected = fixture.expected(ruleset)
            if expected is not None:
                cases.append(Case(fixture, ruleset, expected))
    return cases
