"""Differential testing: random situations sent to an implementation and to the reference engine.

``belote-ref conformance fuzz`` draws situations of every kind the adapter declares
(:mod:`~belote_ref.conformance.fuzz_generate`), sends them through the conformance runner
(:func:`~belote_ref.conformance.runner.run_cases`: pipelined, restarted on a crash or a timeout,
process groups killed), compares each answer with the reference engine's
(:func:`~belote_ref.conformance.corpus.compare_results`), shrinks every disagreement to a minimal
situation (:mod:`~belote_ref.conformance.fuzz_shrink`) and writes each distinct one as a fixture.

Why a seeded generator and a greedy shrinker of our own rather than Hypothesis: Hypothesis asks for
one example at a time, so every example and every shrinking step would be a round trip to the
adapter, where the runner pipelines hundreds of requests; its shrinker works on the choice
sequence, whose reductions (a card dropped from a hand) rarely map onto the simplifications that
make a fixture readable; and its choice sequences are not promised stable across versions, while
a fuzz run must be reproducible from its seed and shardable (``--jobs``). Hypothesis is used in the
tests, to check that generated situations are valid and that shrinking keeps a disagreement.

Rulesets. Situations are drawn in blocks of :data:`BLOCK` under one ruleset, drawn for the block:
one of the rulesets given (default: every shipped ruleset whose outcome values the adapter claims,
all of them when it claims none whole) and, for an adapter that declares ``supports.parameters``,
half of the time one of them with one to eight claimed parameters set to a claimed value (for
``"*"``, a value the registry documents). A ruleset per block rather than per situation lets the
adapter and the reference compile it once per block (``serve`` keeps 16 rulesets; compiling one
costs more than answering a small situation) and keeps every batch to a few rulesets.

Which situations are sent. A situation is sent only when the adapter claims the value, in the
situation's ruleset, of every parameter its reference answer depends on. Only the parameters whose
value the adapter does not claim need checking (a claimed value is fine whatever the answer depends
on): for each, the reference answer is computed under the other values the registry documents; if
one changes the answer, the situation is not sent (``n/a``). For a ruleset the adapter claims
whole, nothing is computed. This is the rule the runner applies to fixtures, with the dependencies
found by the engine as ``conformance lint`` finds them.

Reproducing a run. Situation ``i`` of seed ``s`` is drawn from its own generator
(:func:`~belote_ref.conformance.fuzz_generate.situation_rng`), and the ruleset of block ``b`` from
:func:`~belote_ref.conformance.fuzz_generate.block_rng`, so a run is reproduced by its command
with the same ``--seed`` (printed at the start and in the report's header) and budget, against the
same adapter and version of belote-ref; ``--jobs`` does not change the result, since shard ``k``
of ``J`` draws the blocks ``k, k+J, ...``, the disagreements are shrunk in the order of their
situation, and everything is merged in that order.

Speed. The parent draws the next batch (situations and reference answers) in a thread while the
runner keeps up to 32 requests in flight to the adapter, whose ``run`` messages are encoded with
each ruleset's JSON made once (:class:`~belote_ref.conformance.fuzz_jobs.RunEncoder`). For a small
situation the costs are then of the same order on both sides (the ruleset's 3 kB of JSON is most of
what the adapter decodes); for a whole deal, drawing and answering it. ``benchmarks/fuzz.py``
prints both, per kind.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from belote_ref.conformance.adapter import AdapterFailure
from belote_ref.conformance.applicability import ANY, Claims, departures
from belote_ref.conformance.corpus import Fixture
from belote_ref.conformance.fuzz_generate import (
    GENERATORS,
    block_rng,
    random_parameters,
    situation_rng,
)
from belote_ref.conformance.fuzz_jobs import (
    KeptAdapter,
    Workers,
    close_adapter,
    keep_adapter,
    queue_report,
)
from belote_ref.conformance.fuzz_shrink import (
    Candidate,
    compile_ruleset,
    depends_on,
    differing_fields,
    finding_fixture,
    reference_answer,
    shape_of,
    shrink,
)
from belote_ref.conformance.runner import Case, CaseResult, RunOptions, run_cases
from belote_ref.core.errors import BeloteRefError, InternalError
from belote_ref.protocol.serve import KINDS
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets

__all__ = ["FuzzError", "FuzzOptions", "FuzzOutcome", "fuzz"]

BATCH = 512
"""Situations sent to the adapter in one pipelined run."""

SHRINK_LIMIT = 200
"""At most this many disagreements are shrunk per run (the first ones); the rest are counted."""

DISAGREEING = ("fail", "error", "crash", "timeout")
"""The outcomes of a case that are a disagreement with the reference engine."""

RULESETS_KEPT = 256
"""How many rulesets the plan's caches keep (a long run draws a ruleset per block)."""

VARY_PROBABILITY = 0.5
"""The chance that a block's ruleset has claimed parameters set to random claimed values rather
than being a base one."""

BLOCK = 64
"""Situations drawn under one ruleset: situations ``64 b`` to ``64 b + 63`` form block ``b``, whose
ruleset is drawn once from the seed and ``b``. Runs of one ruleset let the adapter and the engine
compile it once per block instead of once per situation, and a shard draws whole blocks."""


class FuzzError(BeloteRefError):
    """Fuzzing cannot start: a bad option, or an adapter that cannot start or claims nothing to fuzz."""

    code = "usage"


@dataclass(frozen=True)
class FuzzOptions:
    """What to fuzz. ``rulesets``: ``(id, parameters)`` pairs, empty for the default."""

    impl: str | None = None
    rulesets: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    kinds: tuple[str, ...] = ()
    budget: int | None = 2000
    seconds: float | None = None
    seed: int = 0
    jobs: int = 1
    timeout: float = 10.0
    shrink_limit: int = SHRINK_LIMIT


@dataclass
class Disagreement:
    """One situation whose answer differs from the reference engine's, before or after shrinking."""

    index: int
    kind: str
    given: Mapping[str, Any]
    ruleset_id: str
    params: Mapping[str, Any]
    expected: Any
    outcome: str
    got: Any
    message: str
    differences: list[str]
    steps: int = 0
    shape: str = ""


@dataclass
class ShardResult:
    """What one shard did: counts of situations by outcome, its disagreements, or why it could not run."""

    counts: dict[str, int] = field(default_factory=dict)
    disagreements: list[Disagreement] = field(default_factory=list)
    hello: dict[str, Any] = field(default_factory=dict)
    failure: str = ""


@dataclass
class Finding:
    """A distinct shrunk disagreement: the first of its shape, how many shrank to it, its fixture."""

    disagreement: Disagreement
    count: int
    fixture: dict[str, Any]
    path: Path | None = None


@dataclass
class FuzzOutcome:
    """The result of a run: the adapter's hello, the counts, the distinct findings."""

    hello: dict[str, Any]
    counts: dict[str, int]
    findings: list[Finding]
    kinds: list[str]
    ruleset_ids: list[str]
    unshrunk: int
    seconds: float
    shrink_limit: int = SHRINK_LIMIT

    @property
    def ok(self) -> bool:
        return self.counts.get("disagree", 0) == 0


# ------------------------------------------------------------------------------------- adapter


# ------------------------------------------------------------------------------------- the plan


class Plan:
    """What the adapter's hello allows: the kinds, the rulesets, the parameters that may vary."""

    def __init__(self, hello: Mapping[str, Any], options: FuzzOptions) -> None:
        self.claims = Claims.from_hello(hello)
        wanted = options.kinds or KINDS
        self.kinds = [kind for kind in wanted if kind in self.claims.kinds]
        if not self.kinds:
            raise FuzzError(f"the adapter supports none of the kinds asked ({', '.join(wanted)}); "
                            f"it declares: {', '.join(sorted(self.claims.kinds)) or 'none'}")
        self.bases: list[Ruleset]
        if options.rulesets:
            compiled = [compile_ruleset(params, ruleset_id) for ruleset_id, params in options.rulesets]
            self.bases = [rules for rules in compiled if rules is not None]
            if not self.bases:
                raise FuzzError("none of the rulesets asked can be compiled")
        else:
            covered = [rid for rid, missing in departures(self.claims).items() if not missing]
            self.bases = [find_ruleset(rid) for rid in covered or shipped_rulesets()]
        registry = load_registry()
        declared = (hello.get("supports") or {}).get("parameters")
        self.choices: list[tuple[str, list[Any]]] = []
        if isinstance(declared, Mapping):
            for parameter_id in declared:
                parameter = registry.parameters.get(parameter_id)
                if parameter is None or not parameter.outcome:
                    continue
                values = self.claims.values_of(parameter_id)
                values = list(parameter.values) if values == ANY else [v for v in values if parameter.allows(v)]
                if values:
                    self.choices.append((parameter_id, values))
        self._unclaimed: dict[int, tuple[Ruleset, list[str]]] = {}
        self._announcing: dict[int, tuple[Ruleset, Ruleset | None]] = {}
        self._block: tuple[int, int, Ruleset | None] = (-1, -1, None)

    @property
    def ruleset_ids(self) -> list[str]:
        return [ruleset.id for ruleset in self.bases]

    def block_ruleset(self, seed: int, block: int) -> Ruleset:
        """The ruleset of ``block``: a base ruleset, or (half of the time, when the adapter declares
        parameters) a base with one to eight claimed parameters set to random claimed values
        (its id ``fuzz-<block>``), drawn from the seed and the block alone."""
        if self._block[:2] == (seed, block) and self._block[2] is not None:
            return self._block[2]
        rng = block_rng(seed, block)
        rules = rng.choice(self.bases)
        if self.choices and rng.random() < VARY_PROBABILITY:
            for _ in range(8):  # a combination the registry refuses is drawn again
                varied = compile_ruleset(random_parameters(rng, rules.params, self.choices, most=8), f"fuzz-{block}")
                if varied is not None:
                    rules = varied
                    break
        self._block = (seed, block, rules)
        return rules

    def ruleset_for(self, kind: str, seed: int, index: int) -> Ruleset | None:
        """The ruleset of situation ``index``: its block's, with announcements played for that kind."""
        rules = self.block_ruleset(seed, index // BLOCK)
        if kind == "announcements" and not rules.params["announcements.enabled"]:
            return self._with_announcements(rules)
        return rules

    def _with_announcements(self, rules: Ruleset) -> Ruleset | None:
        # The kind is defined for rulesets that play announcements only.
        found = self._announcing.get(id(rules))
        if found is None:
            if len(self._announcing) > RULESETS_KEPT:  # bounded: every block may have a ruleset of its own
                self._announcing.clear()
            found = self._announcing[id(rules)] = (
                rules,
                compile_ruleset({**rules.params, "announcements.enabled": True}, rules.id),
            )
        return found[1]

    def unclaimed(self, rules: Ruleset) -> list[str]:
        """The outcome parameters whose value in ``rules`` the adapter does not claim (cached by
        ruleset object: a block uses one, shrinking a few more)."""
        found = self._unclaimed.get(id(rules))
        if found is None:
            registry = load_registry()
            missing = [pid for pid, value in rules.params.items()
                       if registry[pid].outcome and not self.claims.claims_value(pid, value)]
            if len(self._unclaimed) > RULESETS_KEPT:
                self._unclaimed.clear()
            found = self._unclaimed[id(rules)] = (rules, missing)  # the ruleset is kept so its id is not reused
        return found[1]

    def answer_if_sendable(self, kind: str, given: Mapping[str, Any], rules: Ruleset) -> tuple[bool, Any]:
        """``(True, reference answer)`` when the situation may be sent; ``(False, None)`` when the
        reference refuses the given or the answer depends on a value the adapter does not claim."""
        if kind not in self.claims.kinds:
            return False, None
        try:
            answer = reference_answer(kind, given, rules)
        except BeloteRefError:
            return False, None
        for parameter_id in self.unclaimed(rules):
            if depends_on(kind, given, rules, parameter_id, answer):
                return False, None
        return True, answer


_NO_FILE = Path("<fuzz>")


def _case(index: int, kind: str, given: Mapping[str, Any], rules: Ruleset, expected: Any) -> Case:
    """A runner case around a synthetic fixture (its ``rules`` empty: applicability is settled here)."""
    data = {"id": f"fuzz.{index}", "kind": kind, "title": "fuzz situation", "rules": [], "provenance": "engine",
            "given": given, "expect": [{"result": expected}]}
    return Case(Fixture(_NO_FILE, data), rules, expected)


# ------------------------------------------------------------------------------------- shards


def _send(adapter: KeptAdapter, cases: Sequence[Case], timeout: float) -> list[CaseResult]:
    _, results = run_cases(lambda: adapter, cases, RunOptions(timeout=timeout))
    return results


def _indices(shard: int, jobs: int, options: FuzzOptions) -> Iterator[int]:
    """The situations of shard ``shard`` of ``jobs``: those of blocks ``shard``, ``shard + jobs``, ..."""
    block = shard
    deadline = time.monotonic() + options.seconds if options.seconds else None
    while options.budget is None or block * BLOCK < options.budget:
        for index in range(block * BLOCK, block * BLOCK + BLOCK):
            if options.budget is not None and index >= options.budget:
                return
            if deadline is not None and time.monotonic() >= deadline:
                return
            yield index
        block += jobs


def run_shard(options: FuzzOptions, shard: int, jobs: int,
              report: Callable[[int, int], None] | None = None) -> ShardResult:
    """Draw and send this shard's situations (``shard``, ``shard + jobs``, ...) and collect the
    disagreements. ``report(situations, disagreements)`` is called after each batch with the increments."""
    result = ShardResult(counts={"situations": 0, "sent": 0, "agree": 0, "disagree": 0, "n/a": 0, "skip": 0})
    adapter = keep_adapter(options.impl, options.timeout)
    drawn = {"situations": 0, "n/a": 0}
    try:
        result.hello, _ = run_cases(lambda: adapter, [], RunOptions(timeout=options.timeout))
        plan = Plan(result.hello, options)
        for batch in _drawn_ahead(plan, options.seed, _indices(shard, jobs, options), drawn):
            before, situations_before = result.counts["disagree"], result.counts["sent"] + result.counts["skip"]
            for case_result in _send(adapter, batch, options.timeout):
                _count(result, case_result)
            if report is not None:
                sent = result.counts["sent"] + result.counts["skip"] - situations_before
                report(sent, result.counts["disagree"] - before)
    except AdapterFailure as failure:
        result.failure = f"the implementation could not start: {failure.reason}"
    except FuzzError as error:
        result.failure = str(error)
    finally:
        close_adapter(adapter)
    result.counts.update(drawn)
    return result


DRAWER_TURN = 0.0005
"""Seconds a thread of a fuzz run holds the interpreter before another may run (see _drawn_ahead)."""


def _drawn_ahead(plan: Plan, seed: int, indices: Iterator[int], counts: dict[str, int]) -> Iterator[list[Case]]:
    """The batches of cases to send, drawn by a thread of their own one or two batches ahead: while
    this thread waits for the adapter's replies, the next situations and their reference answers
    are computed (the adapter and the engine work at the same time)."""
    ready: queue.Queue[list[Case] | BaseException | None] = queue.Queue(maxsize=2)
    stopping = threading.Event()

    def hand_over(item: list[Case] | BaseException | None) -> None:
        while not stopping.is_set():
            try:
                ready.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def draw() -> None:
        try:
            while not stopping.is_set():
                batch = _draw_batch(plan, seed, indices, counts)
                hand_over(batch)
                if batch is None:
                    return
        except BaseException as error:
            hand_over(error)

    # The drawer computes while this thread feeds the adapter and reads its replies: with the
    # interpreter's 5 ms turns the adapter sat waiting for the next requests; 0.5 ms turns kept it
    # fed, some 15 to 20% more situations per second (benchmarks/fuzz.py).
    switch_interval = sys.getswitchinterval()
    sys.setswitchinterval(min(switch_interval, DRAWER_TURN))
    drawer = threading.Thread(target=draw, daemon=True)
    drawer.start()
    try:
        while (item := ready.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            # Runs of one ruleset let the adapter reuse its compiled ruleset; order does not matter,
            # every result is kept under its situation's index.
            yield sorted(item, key=lambda case: case.ruleset.id)
    finally:
        stopping.set()
        drawer.join()
        sys.setswitchinterval(switch_interval)


def _index_of(case: Case) -> int:
    return int(case.fixture.id.rpartition(".")[2])


def _draw_batch(plan: Plan, seed: int, indices: Iterator[int], counts: dict[str, int]) -> list[Case] | None:
    batch: list[Case] = []
    for index in indices:
        counts["situations"] += 1
        kind = plan.kinds[index % len(plan.kinds)]
        rules = plan.ruleset_for(kind, seed, index)
        rng = situation_rng(seed, index)
        given = GENERATORS[kind](rng, rules) if rules is not None else None
        sendable, expected = (False, None)
        if given is not None and rules is not None:
            sendable, expected = plan.answer_if_sendable(kind, given, rules)
        if not sendable or given is None or rules is None:
            counts["n/a"] += 1
            continue
        batch.append(_case(index, kind, given, rules, expected))
        if len(batch) >= BATCH:
            break
    return batch or None


def _count(result: ShardResult, case_result: CaseResult) -> None:
    case = case_result.case
    counts = result.counts
    outcome = case_result.outcome
    if outcome == "skip":
        counts["skip"] += 1
        return
    counts["sent"] += 1
    if outcome not in DISAGREEING:
        counts["agree"] += 1
        return
    counts["disagree"] += 1
    result.disagreements.append(Disagreement(
        _index_of(case), case.fixture.kind, case.given, case.ruleset.id, dict(case.ruleset.params), case.expected,
        outcome, case_result.got, case_result.message, list(case_result.differences)))


def shrink_shard(options: FuzzOptions, disagreements: Sequence[Disagreement],
                 report: Callable[[int, int], None] | None = None) -> list[Disagreement]:
    """Shrink each disagreement (in order) with one adapter; ``report(1, 0)`` after each."""
    adapter = keep_adapter(options.impl, options.timeout)
    shrunk = []
    try:
        try:
            hello, _ = run_cases(lambda: adapter, [], RunOptions(timeout=options.timeout))
        except AdapterFailure as failure:
            raise FuzzError(f"the implementation could not start again to shrink: {failure.reason}") from None
        plan = Plan(hello, options)
        for disagreement in disagreements:
            shrunk.append(_shrink_one(plan, adapter, options, disagreement))
            if report is not None:
                report(1, 0)
    finally:
        close_adapter(adapter)
    return shrunk


def _shrink_one(plan: Plan, adapter: KeptAdapter, options: FuzzOptions, found: Disagreement) -> Disagreement:
    kind = found.kind
    rules = compile_ruleset(found.params, found.ruleset_id)
    if not (rules is not None):
        raise InternalError("broken invariant: rules is not None")
    expected_of: dict[int, Any] = {}

    def usable(candidate: Candidate) -> bool:
        sendable, answer = plan.answer_if_sendable(kind, candidate.given, candidate.ruleset)
        if sendable:
            expected_of[id(candidate)] = answer
        return sendable

    def still_disagrees(candidates: Sequence[Candidate]) -> int | None:
        cases = [_case(position, kind, c.given, c.ruleset, expected_of[id(c)]) for position, c in enumerate(candidates)]
        # A wrong answer costs nothing: the whole batch is pipelined. A crash costs a restart, so
        # the candidates go one at a time and the first that crashes is taken.
        chunk = 1 if found.outcome == "crash" else len(cases)
        for first in range(0, len(cases), chunk):
            for position, result in enumerate(_send(adapter, cases[first:first + chunk], options.timeout), first):
                if result.outcome == found.outcome:
                    return position
        return None

    start = Candidate(found.given, rules)
    if found.outcome == "timeout":
        # Not shrunk: every try would wait for the timeout.
        smallest, steps = start, 0
    else:
        smallest, steps = shrink(kind, start, still_disagrees, usable)
    if smallest is start:
        final = found
    else:
        expected = reference_answer(kind, smallest.given, smallest.ruleset)
        result = _send(adapter, [_case(0, kind, smallest.given, smallest.ruleset, expected)], options.timeout)[0]
        final = Disagreement(found.index, kind, smallest.given, smallest.ruleset.id, dict(smallest.ruleset.params),
                             expected, result.outcome, result.got, result.message, list(result.differences))
        if result.outcome not in DISAGREEING:  # a flaky adapter: keep what was seen
            final = found
    final.steps = steps
    fields = differing_fields(final.differences) if final.outcome == "fail" else []
    if final.outcome == "timeout":
        final.shape = f"{kind} timeout"  # not shrunk: the timeouts of one kind are one finding
    else:
        final.shape = shape_of(kind, final.outcome, fields, compile_ruleset(final.params, final.ruleset_id) or rules)
    return final


# ------------------------------------------------------------------------------------- jobs

def _run_shard_task(options: FuzzOptions, shard: int, jobs: int) -> ShardResult:
    return run_shard(options, shard, jobs, queue_report)


def _shrink_task(options: FuzzOptions, disagreements: list[Disagreement]) -> list[Disagreement]:
    return shrink_shard(options, disagreements, queue_report)


# ------------------------------------------------------------------------------------- the run


def fuzz(options: FuzzOptions, progress: Callable[[str, int, int], None] | None = None) -> FuzzOutcome:
    """Run the fuzzer; ``progress(phase, situations, disagreements)`` gets increments
    (``phase``: ``"send"`` then ``"shrink"``). Raises :class:`FuzzError` when nothing can run."""
    started = time.monotonic()
    jobs = max(1, options.jobs)

    def sending(situations: int, disagreements: int) -> None:
        if progress is not None:
            progress("send", situations, disagreements)

    def shrinking(situations: int, disagreements: int) -> None:
        if progress is not None:
            progress("shrink", situations, disagreements)

    workers = Workers(jobs) if jobs > 1 else None
    try:
        if workers is None:
            shards = [run_shard(options, 0, 1, sending)]
        else:
            shards = workers.map(_run_shard_task, [(options, shard, jobs) for shard in range(jobs)], sending)
        for shard in shards:
            if shard.failure:
                raise FuzzError(shard.failure)
        hello = shards[0].hello
        plan = Plan(hello, options)
        counts = {key: sum(shard.counts[key] for shard in shards) for key in shards[0].counts}
        found = sorted((d for shard in shards for d in shard.disagreements), key=lambda d: d.index)
        to_shrink, unshrunk = found[:options.shrink_limit], len(found) - min(len(found), options.shrink_limit)
        if not to_shrink:
            shrunk: list[Disagreement] = []
        elif workers is None:
            shrunk = shrink_shard(options, to_shrink, shrinking)
        else:
            # Disagreement k is shrunk by worker k % jobs; the results are put back in order.
            parts = workers.map(_shrink_task, [(options, to_shrink[k::jobs]) for k in range(jobs)], shrinking)
            shrunk = [parts[position % jobs][position // jobs] for position in range(len(to_shrink))]
    finally:
        if workers is not None:
            workers.close()
    findings = _distinct(shrunk, hello, options.seed)
    return FuzzOutcome(hello, counts, findings, plan.kinds, plan.ruleset_ids, unshrunk, time.monotonic() - started,
                       options.shrink_limit)


def _distinct(shrunk: Sequence[Disagreement], hello: Mapping[str, Any], seed: int) -> list[Finding]:
    """One finding per shape, in the order of the first situation of each, with its count."""
    by_shape: dict[str, Finding] = {}
    name = str((hello.get("implementation") or {}).get("name", "the implementation"))
    for disagreement in shrunk:
        finding = by_shape.get(disagreement.shape)
        if finding is not None:
            finding.count += 1
            continue
        rules = compile_ruleset(disagreement.params, disagreement.ruleset_id)
        if not (rules is not None):
            raise InternalError("broken invariant: rules is not None")
        fields = differing_fields(disagreement.differences) if disagreement.outcome == "fail" else []
        fixture = finding_fixture(kind=disagreement.kind, given=disagreement.given, rules=rules,
                                  expected=disagreement.expected, outcome=disagreement.outcome, got=disagreement.got,
                                  message=disagreement.message, fields=fields, adapter_name=name, seed=seed,
                                  index=disagreement.index, shape=disagreement.shape)
        by_shape[disagreement.shape] = Finding(disagreement, 1, fixture)
    return list(by_shape.values())


