"""The conformance runner: send every applicable case to an implementation and judge its answers.

Cases are (fixture, ruleset) pairs. A case is sent only when the adapter's claims cover it (see
:mod:`~belote_ref.conformance.applicability`); otherwise it is ``n/a``, with the reason.
Expectations are never sent. Outcomes: ``pass``, ``fail`` (a wrong result), ``error``
(the adapter answered ``errored``), ``crash`` and ``timeout`` (the adapter is restarted and the
run goes on), ``skip`` (the adapter answered ``skipped``), ``n/a``, and against an
expected-failures file ``xfail`` / ``xpass`` (an unexpected pass counts as an error).
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from belote_ref.conformance.adapter import AdapterFailure, InProcessAdapter, SubprocessAdapter
from belote_ref.conformance.applicability import FAULT_FIELD, Claims, must_be_listed
from belote_ref.conformance.branches import branch_cases_of
from belote_ref.conformance.corpus import AUCTION_KINDS, AUCTION_PARAMETER, Fixture, compare_results
from belote_ref.conformance.dependencies import dependencies_of
from belote_ref.conformance.parts import TRICKS_VARIANT, play_dependencies, tricks_given, tricks_part
from belote_ref.conformance.rounding import rounded_expectation
from belote_ref.conformance.settled import unsettled_reason
from belote_ref.conformance.symmetry import variants
from belote_ref.core.version import __version__
from belote_ref.rules.predicates import same_value
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import Ruleset

__all__ = [
    "BAD_OUTCOMES",
    "OUTCOMES",
    "Case",
    "CaseResult",
    "RunOptions",
    "build_branch_cases",
    "build_cases",
    "not_applicable_reason",
    "run_cases",
]

OUTCOMES = ("pass", "fail", "error", "crash", "timeout", "skip", "n/a", "xfail", "xpass")
BAD_OUTCOMES = frozenset({"fail", "error", "crash", "timeout", "xpass"})

Adapter = SubprocessAdapter | InProcessAdapter


@dataclass(frozen=True)
class Case:
    """One fixture under one ruleset, with its expected result.

    A derived case carries its own ``expected`` (and ``given``) and a ``variant`` appended to the
    fixture id: ``@trump=S`` for the fixture with its suits renamed or its seats rotated (see
    :mod:`~belote_ref.conformance.symmetry`), ``@rounding=nearest_10_half_up`` for an unrounded
    fixture under a ruleset that rounds (see :mod:`~belote_ref.conformance.rounding`),
    ``#play.undertrump_partner=never`` for one branch of
    the fixture under a generated ruleset (see :mod:`~belote_ref.conformance.branches`).
    """

    fixture: Fixture
    ruleset: Ruleset
    expected: Mapping[str, Any]
    variant: str = ""
    derived_given: Mapping[str, Any] | None = None
    #: The parts of the result compared; empty: the whole result. ``("tricks",)`` for a play case
    #: checked on its tricks alone (:mod:`~belote_ref.conformance.parts`).
    parts: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        """The fixture id, followed by the variant of a derived case."""
        return self.fixture.id + self.variant

    @property
    def given(self) -> Mapping[str, Any]:
        """The situation sent to the adapter."""
        return self.derived_given if self.derived_given is not None else self.fixture.given

    @property
    def key(self) -> str:
        """``<case id> <ruleset id>``: how expected-failure files and baselines name a case."""
        return f"{self.id} {self.ruleset.id}"


@dataclass
class CaseResult:
    """What happened to one case; for ``n/a``, ``message`` says why it was not sent."""

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
    give_up_after: int = 25
    """Failures (crash or timeout) in a row after which the cases left are not sent; 0: never."""
    settle_with_reference: bool = True
    """Under a ruleset not shipped as-is, a case whose expected answer the reference engine does not
    give is n/a (:mod:`~belote_ref.conformance.settled`), not a failure."""


def not_applicable_reason(claims: Claims, case: Case) -> str | None:
    """None when the adapter's claims cover ``case``; otherwise why not."""
    # An adapter of the newest version can express every case: the search of the case's JSON for
    # a version-2 name, done for every case of a run, is needed only for an older one.
    needed = protocol_needed(case) if claims.protocol < SUPPORTED_PROTOCOLS[-1] else claims.protocol
    depends_on = dependencies_of(case.fixture)
    return (claims.reason_not_applicable(case.fixture.kind, case.ruleset, depends_on, needed,
                                         must_be_listed(case.given, depends_on))
            or claims.rejection_reason(case.fixture.kind, case.expected))


def tricks_alone_case(claims: Claims, case: Case) -> Case | None:
    """``case`` checked on its tricks alone (:mod:`~belote_ref.conformance.parts`), when the adapter
    claims ``by_kind.play.tricks_alone`` and every parameter the tricks depend on; else None."""
    if case.fixture.kind != "play" or case.parts or not claims.for_kind("play").tricks_alone:
        return None
    if isinstance(case.given, Mapping) and case.given.get(FAULT_FIELD) is not None:
        return None  # which card is let through is the fault's, a penalties.* reading: no tricks part
    expected = tricks_part(case.expected)
    if expected is None:
        return None
    needed = protocol_needed(case) if claims.protocol < SUPPORTED_PROTOCOLS[-1] else claims.protocol
    if claims.reason_not_applicable("play", case.ruleset, play_dependencies(dependencies_of(case.fixture)), needed):
        return None
    return Case(case.fixture, case.ruleset, expected, case.variant + TRICKS_VARIANT, tricks_given(case.given),
                parts=("tricks",))


#: The protocol versions this runner speaks; it talks to each adapter in the version it answers.
SUPPORTED_PROTOCOLS = (1, 2, 3)
#: The kinds of protocol version 1; a kind added later needs a later version.
VERSION_1_KINDS = ("deal", "auction", "legal_plays", "trick_winner", "announcements", "score", "replay", "match")
_VERSION_2_NAMES = ('"SA"', '"TA"')


def protocol_needed(case: Case) -> int:
    """The oldest protocol version that can express ``case``: 2 for a kind, a contract (sans-atout,
    tout-atout) or a parameter that version 1 does not have; 3 for a case of the bidding family (a
    ``bids`` ruleset and a kind whose answer depends on the auction) or a parameter of version 3."""
    registry = load_registry()
    named = [*dependencies_of(case.fixture), *(case.fixture.data.get("applies_to") or {})]
    # A newer parameter at its default is the game of the older versions (bidding.auction at
    # turned_card in every classic deal): it needs no newer version.
    needed = max((registry[p].since_protocol for p in named if p in registry
                  and not same_value(case.ruleset.params.get(p), registry[p].default)), default=1)
    if case.fixture.kind in AUCTION_KINDS and case.ruleset.params.get(AUCTION_PARAMETER) == "bids":
        needed = max(needed, 3)
    if case.fixture.kind not in VERSION_1_KINDS:
        needed = max(needed, 2)
    if needed < 2:
        text = json.dumps([case.given, case.expected])
        if any(name in text for name in _VERSION_2_NAMES):
            needed = 2
    return needed


def check_hello(reply: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validate the reply to ``hello``; raise :class:`AdapterFailure` with the mistake in words."""
    if reply is None or not isinstance(reply, Mapping):
        raise AdapterFailure("crash", "no reply to hello")
    if reply.get("protocol") not in SUPPORTED_PROTOCOLS:
        versions = " or ".join(str(v) for v in SUPPORTED_PROTOCOLS)
        raise AdapterFailure("crash", f"hello: 'protocol' must be {versions}; found {reply.get('protocol')!r}")
    supports = reply.get("supports")
    if not isinstance(supports, Mapping) or not isinstance(supports.get("kinds"), list):
        raise AdapterFailure("crash", "hello: 'supports' must be an object with a 'kinds' list")
    implementation = reply.get("implementation")
    if not isinstance(implementation, Mapping) or not isinstance(implementation.get("name"), str):
        raise AdapterFailure("crash", "hello: 'implementation' must be an object with a 'name'")
    return dict(reply)


HELLO_TIMEOUT_FLOOR = 30.0


def hello_timeout(options: RunOptions) -> float:
    """How long a reply to ``hello`` is awaited: the per-message timeout, but at least
    :data:`HELLO_TIMEOUT_FLOOR` seconds, because an adapter's start (an interpreter, an engine, a
    model to load) is slow on a loaded machine and is not what ``--timeout`` grades."""
    return max(options.timeout, HELLO_TIMEOUT_FLOOR) if options.timeout > 0 else options.timeout


def hello_message() -> dict[str, Any]:
    """The runner's greeting: the newest version it speaks, and every version it accepts."""
    return {"cmd": "hello", "protocol": SUPPORTED_PROTOCOLS[-1], "protocols": list(SUPPORTED_PROTOCOLS),
            "suite": __version__}


def run_message(seq: int, case: Case, protocol: int = SUPPORTED_PROTOCOLS[-1]) -> dict[str, Any]:
    """The ``run`` request for a case: the resolved ruleset and the ``given``, never the expectation.

    An adapter of an older ``protocol`` is sent only the parameters its version knows.
    """
    ruleset = case.ruleset.to_json()
    if protocol < SUPPORTED_PROTOCOLS[-1]:
        registry = load_registry()
        ruleset["parameters"] = {p: v for p, v in ruleset["parameters"].items()
                                 if p not in registry or registry[p].since_protocol <= protocol}
    message = {"cmd": "run", "seq": seq, "kind": case.fixture.kind, "ruleset": ruleset, "given": case.given}
    if case.parts:
        message["parts"] = list(case.parts)
    return message


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
    compared = tricks_part(got) if case.parts else got
    differences = compare_results(case.fixture.kind, case.expected, got if compared is None else compared)
    return CaseResult(case, "fail" if differences else "pass", got=got, differences=differences)


def _apply_expectations(result: CaseResult, expected_failures: frozenset[str]) -> CaseResult:
    if result.case.key in expected_failures or result.case.id in expected_failures:
        if result.outcome == "pass":
            result.outcome = "xpass"
            result.message = "passed, but listed as an expected failure"
        elif result.outcome in ("fail", "error", "crash", "timeout"):
            result.message = f"{result.outcome}: {result.message}".rstrip(": ")
            result.outcome = "xfail"
    return result


WINDOW_CASES = 32  # requests in flight; the writer thread means a full pipe never blocks the runner


def run_cases(
    make_adapter: Callable[[], Adapter],
    cases: Sequence[Case],
    options: RunOptions,
    progress: Callable[[int, int, CaseResult], None] | None = None,
    on_hello: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[dict[str, Any], list[CaseResult]]:
    """Run ``cases`` against adapters made by ``make_adapter``; return the hello reply and the results.

    ``on_hello`` is called with the first adapter's hello before any case is sent.

    Requests are pipelined (the protocol answers in order). When the adapter crashes, stalls or
    breaks the protocol, the oldest unanswered case takes the outcome (``crash`` or ``timeout``),
    the adapter's whole process group is killed, a new adapter is started and the other unanswered
    requests are sent to it again; every failure settles one case, so the run always ends. The
    adapter is killed however this function exits (an exception, Ctrl-C, SIGTERM). Raises
    :class:`AdapterFailure` when the very first adapter cannot start or greet.
    """
    adapter = make_adapter()
    live: Adapter | None = adapter
    try:
        adapter.start()
        try:
            hello = check_hello(adapter.request(hello_message(), timeout=hello_timeout(options)))
        except AdapterFailure as failure:
            tail = adapter.stderr_tail()
            if tail:
                raise AdapterFailure(failure.outcome, f"{failure.reason}; stderr ends: {tail}") from None
            raise
        if on_hello is not None:
            on_hello(hello)
        results = _run_with(adapter, hello, make_adapter, cases, options, progress)
        live = None
        return hello, results
    finally:
        if live is not None:
            live.kill()


def _run_with(
    adapter: Adapter,
    hello: Mapping[str, Any],
    make_adapter: Callable[[], Adapter],
    cases: Sequence[Case],
    options: RunOptions,
    progress: Callable[[int, int, CaseResult], None] | None,
) -> list[CaseResult]:
    results: list[CaseResult | None] = [None] * len(cases)
    done = 0

    def record(index: int, result: CaseResult) -> None:
        nonlocal done
        results[index] = _apply_expectations(result, options.expected_failures)
        done += 1
        if progress is not None:
            progress(done, len(cases), results[index])  # type: ignore[arg-type]

    claims = Claims.from_hello(hello)
    cases = list(cases)
    to_send: deque[int] = deque()
    for index, case in enumerate(cases):
        reason = not_applicable_reason(claims, case)
        apart = tricks_alone_case(claims, case) if reason is not None else None
        if apart is not None:
            cases[index], case, reason = apart, apart, None
        if reason is None and options.settle_with_reference:
            reason = unsettled_reason(case.ruleset, case.fixture.kind, case.given, case.expected,
                                      part=tricks_part if case.parts else None)
        if reason is None:
            to_send.append(index)
        else:
            record(index, CaseResult(case, "n/a", message=reason))
    live: Adapter | None = adapter
    window = 1 if options.per_case else WINDOW_CASES
    pending: deque[tuple[int, int, float]] = deque()  # case index, seq, time sent
    seq = 0
    failures_in_a_row = 0

    def fail_oldest(failure: AdapterFailure, when: str = "") -> None:
        """The adapter is unusable: the oldest unanswered case takes the failure, the rest are resent."""
        nonlocal live, failures_in_a_row
        tail = ""
        if live is not None:
            live.kill()  # first: its whole group ends, so the end of its stderr comes at once
            tail = live.stderr_tail()
        live = None
        if pending:
            index, _, started = pending.popleft()
        else:
            index, started = to_send.popleft(), time.perf_counter()
        to_send.extendleft(reversed([p[0] for p in pending]))
        pending.clear()
        message = when + failure.reason + (f"; stderr ends: {tail}" if tail else "")
        result = CaseResult(cases[index], failure.outcome, message=message)
        result.seconds = time.perf_counter() - started
        record(index, result)
        failures_in_a_row += 1
        if options.give_up_after and failures_in_a_row >= options.give_up_after:
            # An adapter that fails every case would be restarted for each one: minutes or hours
            # of the same failure. The rest is settled at once, and says why.
            left = f"not sent: the adapter failed the {failures_in_a_row} cases before in a row (last: {message})"
            while to_send:
                unsent = to_send.popleft()
                record(unsent, CaseResult(cases[unsent], failure.outcome, message=left))

    try:
        while to_send or pending:
            if live is None:
                try:
                    live = make_adapter()
                    live.start()
                    check_hello(live.request(hello_message(), timeout=hello_timeout(options)))
                except AdapterFailure as failure:
                    fail_oldest(failure, "on restart: ")
                    continue
            try:
                while to_send and len(pending) < window:
                    seq += 1
                    live.send(run_message(seq, cases[to_send[0]], claims.protocol))
                    pending.append((to_send.popleft(), seq, time.perf_counter()))
                index, sent_seq, started = pending[0]
                result = judge(cases[index], live.receive(), sent_seq)
            except AdapterFailure as failure:
                fail_oldest(failure)
                continue
            pending.popleft()
            result.seconds = time.perf_counter() - started
            record(index, result)
            failures_in_a_row = 0
            if options.per_case:
                live.stop()
                live = None
    finally:
        if live is not None:
            live.stop()
    return [result for result in results if result is not None]


def build_cases(fixtures: Iterable[Fixture], rulesets: Sequence[Ruleset], kinds: Sequence[str] = (),
                id_prefix: str = "", symmetric: bool = True) -> list[Case]:
    """Every (fixture, ruleset) pair where the fixture applies, filtered by kind and case id prefix.

    With ``symmetric`` (the default), each hand fixture of a kind the rules treat symmetrically
    is followed by its derived cases: suits renamed, seats rotated (see
    :mod:`~belote_ref.conformance.symmetry`); and a hand fixture worked out without rounding is
    sent to a ruleset that rounds, its scores rounded (see :mod:`~belote_ref.conformance.rounding`).
    """
    cases: list[Case] = []
    for ruleset in rulesets:
        for fixture in fixtures:
            if kinds and fixture.kind not in kinds:
                continue
            if id_prefix and not fixture.id.startswith(id_prefix.split("@", 1)[0].split("#", 1)[0]):
                continue
            expected, variant = fixture.expected(ruleset), ""
            if expected is None and symmetric:
                derived = rounded_expectation(fixture, ruleset)
                if derived is not None:
                    variant, expected = derived
            if expected is None:
                continue
            cases.extend(_with_variants(Case(fixture, ruleset, expected, variant), symmetric, id_prefix))
    return cases


def _with_variants(case: Case, symmetric: bool, id_prefix: str) -> Iterator[Case]:
    candidates = [case]
    if symmetric and case.fixture.provenance == "hand":
        candidates += [Case(case.fixture, case.ruleset, result, f"{case.variant}@{label}", given)
                       for label, given, result in variants(case.fixture.kind, case.given, case.expected)]
    yield from (candidate for candidate in candidates if candidate.id.startswith(id_prefix))


def build_branch_cases(fixtures: Iterable[Fixture], kinds: Sequence[str] = (), id_prefix: str = "",
                       symmetric: bool = True) -> list[Case]:
    """Every fixture under every assignment of the values its predicates name, each under a
    generated ruleset (see :mod:`~belote_ref.conformance.branches`), with the symmetric variants."""
    cases: list[Case] = []
    for fixture, assignment, expected in branch_cases_of(fixtures, kinds, id_prefix.split("@", 1)[0]):
        if not assignment.values or assignment.ruleset is None:
            continue
        base = Case(fixture, assignment.ruleset, expected, f"#{assignment.label}")
        cases.extend(_with_variants(base, symmetric, id_prefix))
    return cases
