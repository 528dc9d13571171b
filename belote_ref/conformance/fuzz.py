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

Claims, per kind. Every kind is fuzzed under the claims the adapter makes for that kind
(``supports.by_kind.K`` where it gives them, the general ``rulesets`` and ``parameters`` otherwise:
:meth:`Claims.for_kind`); kinds of the same claims form one group (:class:`ClaimGroup`). A value
claimed as ``"*"`` is any allowed value; a parameter the claims do not list takes the values of the
claimed rulesets.

Rulesets. Situations are drawn in blocks of :data:`BLOCK` under one ruleset per group, drawn for
the block: one of the group's bases and, for claims that list parameters, half of the time one of
them with one to eight listed parameters set to a claimed value (for ``"*"``, a value the registry
documents). The bases are the rulesets given, as given; by default every shipped ruleset brought
within the group's claims (:func:`within_claims`: each value the group does not claim replaced by
one it does), so that what is drawn is what the adapter claims for that kind. A ruleset per block
rather than per situation lets the adapter and the reference compile it once per block (``serve``
keeps 16 rulesets; compiling one costs more than answering a small situation) and keeps every
batch to a few rulesets.

Which situations are sent. A situation is sent only when the adapter claims, for its kind, the
value in the situation's ruleset of every parameter its reference answer depends on. Drawn by
default, every value is claimed, but for a parameter with no claimed value at all and the rulesets
the user gives; for each value that is not claimed, the reference answer is computed under the
other values the registry documents; if one changes the answer, the situation is not sent
(``n/a``). This is the rule the runner applies to fixtures, with the dependencies found by the
engine as ``conformance lint`` finds them. Shrinking never leaves the claims: a parameter is set
back to ``classic``'s value only where the kind claims that value.

Findings as they are made. A shard shrinks its disagreements as soon as a batch's replies are in,
with the adapter it fuzzes with, and hands each shrunk one over at once
(:mod:`~belote_ref.conformance.fuzz_findings` writes its fixture): a run that is stopped keeps
what it found. In each block, at most :data:`SHRINKS_PER_BLOCK` disagreements of each kind are
shrunk (the first ones), a rule of the block alone, so that ``--jobs`` shrinks the same ones; and
each job shrinks at most ``shrink_limit`` in all. ``shrink_budget`` caps the situations sent to
shrink one disagreement.

Reproducing a run. Situation ``i`` of seed ``s`` is drawn from its own generator
(:func:`~belote_ref.conformance.fuzz_generate.situation_rng`), and the ruleset of block ``b`` from
:func:`~belote_ref.conformance.fuzz_generate.block_rng`, so a run is reproduced by its command
with the same ``--seed`` (printed at the start and in the report's header) and budget, against the
same adapter and version of belote-ref; ``--jobs`` does not change the result, since shard ``k``
of ``J`` draws the blocks ``k, k+J, ...``, which disagreements are shrunk is decided block by block,
and the findings are merged in the order of their situations (unless a job reaches its
``shrink_limit``).

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
from belote_ref.conformance.applicability import ANY, Claims
from belote_ref.conformance.corpus import Fixture
from belote_ref.conformance.fuzz_findings import Disagreement, Finding, Findings
from belote_ref.conformance.fuzz_generate import (
    GENERATORS,
    block_rng,
    random_parameters,
    situation_rng,
)
from belote_ref.conformance.fuzz_jobs import (
    KeptAdapter,
    WorkerLost,
    Workers,
    close_adapter,
    keep_adapter,
    report_event,
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

__all__ = ["Disagreement", "Finding", "FuzzError", "FuzzOptions", "FuzzOutcome", "FuzzRun", "fuzz", "within_claims"]

BATCH = 512
"""Situations sent to the adapter in one pipelined run."""

SHRINK_LIMIT = 200
"""At most this many disagreements are shrunk per job (the first ones); the rest are counted."""

SHRINKS_PER_BLOCK = 2
"""At most this many disagreements of each kind are shrunk in each block (the first ones): most
disagreements of one kind in one block shrink to the same finding, and a rule of the block alone
shrinks the same ones whatever the number of jobs."""

SHRINK_BUDGET = 1000
"""The situations sent to the adapter to shrink one disagreement, by default (``--shrink-budget``)."""

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

COUNT_KEYS = ("situations", "sent", "agree", "disagree", "n/a", "skip", "unshrunk")
"""The counts of a run, in the order of its report."""


class FuzzError(BeloteRefError):
    """Fuzzing cannot start: a bad option, or an adapter that cannot start or claims nothing to fuzz."""

    code = "usage"


@dataclass(frozen=True)
class FuzzOptions:
    """What to fuzz. ``rulesets``: ``(id, parameters)`` pairs, empty for the default;
    ``shrink_budget``: the situations sent to shrink one disagreement."""

    impl: str | None = None
    rulesets: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    kinds: tuple[str, ...] = ()
    budget: int | None = 2000
    seconds: float | None = None
    seed: int = 0
    jobs: int = 1
    timeout: float = 10.0
    shrink_limit: int = SHRINK_LIMIT
    shrink_budget: int = SHRINK_BUDGET


def _zero_counts() -> dict[str, int]:
    return dict.fromkeys(COUNT_KEYS, 0)


@dataclass
class ShardResult:
    """What one shard did: counts of situations by outcome, its adapter's hello, or why it could not run."""

    counts: dict[str, int] = field(default_factory=_zero_counts)
    hello: dict[str, Any] = field(default_factory=dict)
    failure: str = ""


@dataclass
class FuzzOutcome:
    """The result of a run: the adapter's hello, the counts, the distinct findings; ``lost``: one
    line per shard that could not be run to its end; ``interrupted``: the run was stopped."""

    hello: dict[str, Any]
    counts: dict[str, int]
    findings: list[Finding]
    kinds: list[str]
    ruleset_ids: list[str]
    unshrunk: int
    seconds: float
    shrink_limit: int = SHRINK_LIMIT
    lost: list[str] = field(default_factory=list)
    interrupted: bool = False

    @property
    def ok(self) -> bool:
        return self.counts.get("disagree", 0) == 0 and not self.lost and not self.interrupted


# ------------------------------------------------------------------------------------- the plan


def within_claims(rules: Ruleset, claims: Claims) -> Ruleset | None:
    """``rules`` with each outcome value that ``claims`` does not claim replaced by the first value
    it claims (a parameter with no claimed value keeps its own), or None when the registry refuses
    the result; ``rules`` itself when it is within the claims already. The values of the parameters
    not in play are replaced too where the registry allows it, else only those in play."""
    registry = load_registry()
    replaced: dict[str, Any] = {}
    for parameter_id, value in rules.params.items():
        parameter = registry[parameter_id]
        if not parameter.outcome or claims.claims_value(parameter_id, value):
            continue
        values = claims.values_of(parameter_id)
        allowed = [v for v in values if parameter.allows(v)] if isinstance(values, list) else []
        if allowed:
            replaced[parameter_id] = allowed[0]
    if not replaced:
        return rules
    ruleset_id = f"{rules.id}-claimed"
    projected = compile_ruleset({**rules.params, **replaced}, ruleset_id)
    if projected is None:
        in_play = {pid: value for pid, value in replaced.items() if registry.applies(pid, rules.params)}
        projected = compile_ruleset({**rules.params, **in_play}, ruleset_id) if in_play else None
    return projected


@dataclass
class ClaimGroup:
    """The kinds fuzzed under one set of claims: their bases, and the parameters that may vary.
    ``key``: empty for the general claims, else the kind whose own claims these are (it seeds the
    group's rulesets)."""

    key: str
    claims: Claims
    bases: list[Ruleset]
    choices: list[tuple[str, list[Any]]]


class Plan:
    """What the adapter's hello allows: the kinds, and for each its claims, rulesets and the
    parameters that may vary (:class:`ClaimGroup`)."""

    def __init__(self, hello: Mapping[str, Any], options: FuzzOptions) -> None:
        self.claims = Claims.from_hello(hello)
        wanted = options.kinds or KINDS
        self.kinds = [kind for kind in wanted if kind in self.claims.kinds]
        if not self.kinds:
            raise FuzzError(f"the adapter supports none of the kinds asked ({', '.join(wanted)}); "
                            f"it declares: {', '.join(sorted(self.claims.kinds)) or 'none'}")
        given: list[Ruleset] = []
        if options.rulesets:
            compiled = [compile_ruleset(params, ruleset_id) for ruleset_id, params in options.rulesets]
            given = [rules for rules in compiled if rules is not None]
            if not given:
                raise FuzzError("none of the rulesets asked can be compiled")
        self.groups: dict[str, ClaimGroup] = {}
        self._group_of: dict[str, ClaimGroup] = {}
        for kind in self.kinds:
            claims = self.claims.for_kind(kind)
            key = "" if claims is self.claims else kind
            if key not in self.groups:
                self.groups[key] = ClaimGroup(key, claims, given or self._bases(claims), self._choices(claims))
            self._group_of[kind] = self.groups[key]
        self._unclaimed: dict[tuple[str, int], tuple[Ruleset, list[str]]] = {}
        self._announcing: dict[int, tuple[Ruleset, Ruleset | None]] = {}
        self._block: dict[str, tuple[int, int, Ruleset]] = {}

    @staticmethod
    def _bases(claims: Claims) -> list[Ruleset]:
        """Every shipped ruleset within ``claims`` (:func:`within_claims`), each once; all of them
        as they are when none can be brought within."""
        bases: list[Ruleset] = []
        seen: set[str] = set()
        for ruleset_id in shipped_rulesets():
            rules = within_claims(find_ruleset(ruleset_id), claims)
            if rules is None:
                continue
            key = repr(sorted(rules.params.items()))
            if key not in seen:
                seen.add(key)
                bases.append(rules)
        return bases or [find_ruleset(ruleset_id) for ruleset_id in shipped_rulesets()]

    @staticmethod
    def _choices(claims: Claims) -> list[tuple[str, list[Any]]]:
        """The outcome parameters ``claims`` lists, each with the values it claims."""
        registry = load_registry()
        choices = []
        for parameter_id in claims.parameters:
            parameter = registry.parameters.get(parameter_id)
            if parameter is None or not parameter.outcome:
                continue
            values = claims.values_of(parameter_id)
            values = list(parameter.values) if values == ANY else [v for v in values if parameter.allows(v)]
            if values:
                choices.append((parameter_id, values))
        return choices

    @property
    def ruleset_ids(self) -> list[str]:
        ids: list[str] = []
        for group in self.groups.values():
            ids.extend(rules.id for rules in group.bases if rules.id not in ids)
        return ids

    def claims_for(self, kind: str) -> Claims:
        """The claims ``kind`` is fuzzed under."""
        return self._group_of[kind].claims if kind in self._group_of else self.claims.for_kind(kind)

    def block_ruleset(self, seed: int, block: int, kind: str | None = None) -> Ruleset:
        """The ruleset of ``block`` for the group of ``kind`` (None: the first group): a base
        ruleset, or (half of the time, when the claims list parameters) a base with one to eight
        listed parameters set to random claimed values (its id ``fuzz-<block>``), drawn from the
        seed, the block and the group alone."""
        group = self._group_of[kind] if kind is not None else next(iter(self.groups.values()))
        cached = self._block.get(group.key)
        if cached is not None and cached[:2] == (seed, block):
            return cached[2]
        rng = block_rng(seed, block, group.key)
        rules = rng.choice(group.bases)
        if group.choices and rng.random() < VARY_PROBABILITY:
            for _ in range(8):  # a combination the registry refuses is drawn again
                varied = compile_ruleset(random_parameters(rng, rules.params, group.choices, most=8), f"fuzz-{block}")
                if varied is not None:
                    rules = varied
                    break
        self._block[group.key] = (seed, block, rules)
        return rules

    def ruleset_for(self, kind: str, seed: int, index: int) -> Ruleset | None:
        """The ruleset of situation ``index``: its block's, with announcements played for that kind."""
        rules = self.block_ruleset(seed, index // BLOCK, kind)
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

    def unclaimed(self, kind: str, rules: Ruleset) -> list[str]:
        """The outcome parameters whose value in ``rules`` the adapter does not claim for ``kind``
        (cached by ruleset object: a block uses one, shrinking a few more)."""
        claims = self.claims_for(kind)
        key = (self._group_of[kind].key if kind in self._group_of else kind, id(rules))
        found = self._unclaimed.get(key)
        if found is None:
            registry = load_registry()
            missing = [pid for pid, value in rules.params.items()
                       if registry[pid].outcome and not claims.claims_value(pid, value)]
            if len(self._unclaimed) > RULESETS_KEPT:
                self._unclaimed.clear()
            found = self._unclaimed[key] = (rules, missing)  # the ruleset is kept so its id is not reused
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
        for parameter_id in self.unclaimed(kind, rules):
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

Report = Callable[..., None]
"""How a shard reports as it goes: ``report(event, *payload)`` with the events ``hello`` (the
adapter's hello), ``counts`` (the increments of a batch), ``shrunk`` (a shrunk disagreement and its
fixture, or None when the shard has made a finding of its shape already)."""


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


@dataclass
class _Drawn:
    """A batch of cases to send, and the situations drawn for it (sendable or not)."""

    cases: list[Case]
    situations: int
    not_applicable: int


class _Shrinker:
    """A shard's shrinking: which disagreements are shrunk (:data:`SHRINKS_PER_BLOCK`, the job's
    ``shrink_limit``), each shrunk with the shard's adapter and reported with its fixture."""

    def __init__(self, plan: Plan, adapter: KeptAdapter, options: FuzzOptions, hello: Mapping[str, Any],
                 report: Report) -> None:
        self.plan, self.adapter, self.options, self.report = plan, adapter, options, report
        self.adapter_name = str((hello.get("implementation") or {}).get("name", "the implementation"))
        self.per_block: dict[tuple[int, str], int] = {}
        self.shrunk = 0
        self.shapes: set[str] = set()

    def take(self, found: Disagreement) -> bool:
        """Shrink ``found`` and report it, if the rules allow; False when it is left unshrunk."""
        key = (found.index // BLOCK, found.kind)
        if self.per_block.get(key, 0) >= SHRINKS_PER_BLOCK or self.shrunk >= self.options.shrink_limit:
            return False
        self.per_block[key] = self.per_block.get(key, 0) + 1
        self.shrunk += 1
        final = _shrink_one(self.plan, self.adapter, self.options, found)
        fixture = None
        if final.shape not in self.shapes:
            self.shapes.add(final.shape)
            fixture = _fixture_of(final, self.adapter_name, self.options.seed)
        self.report("shrunk", final, fixture)
        return True


def run_shard(options: FuzzOptions, shard: int, jobs: int, report: Report | None = None) -> ShardResult:
    """Draw and send this shard's situations (blocks ``shard``, ``shard + jobs``, ...), shrink its
    disagreements as they are found, and report as it goes (see :data:`Report`)."""
    emit: Report = report if report is not None else (lambda *event: None)
    result = ShardResult()
    adapter = keep_adapter(options.impl, options.timeout)
    try:
        result.hello, _ = run_cases(lambda: adapter, [], RunOptions(timeout=options.timeout))
        emit("hello", result.hello)
        plan = Plan(result.hello, options)
        shrinker = _Shrinker(plan, adapter, options, result.hello, emit)
        for drawn in _drawn_ahead(plan, options.seed, _indices(shard, jobs, options)):
            counts = _zero_counts()
            counts["situations"], counts["n/a"] = drawn.situations, drawn.not_applicable
            found = []
            for case_result in _send(adapter, drawn.cases, options.timeout) if drawn.cases else []:
                disagreement = _count(counts, case_result)
                if disagreement is not None:
                    found.append(disagreement)
            _add(result.counts, counts)
            emit("counts", counts)  # before shrinking: the progress line shows what was sent
            unshrunk = _zero_counts()
            for disagreement in sorted(found, key=lambda d: d.index):
                if not shrinker.take(disagreement):
                    unshrunk["unshrunk"] += 1
            if unshrunk["unshrunk"]:
                _add(result.counts, unshrunk)
                emit("counts", unshrunk)
    except AdapterFailure as failure:
        result.failure = f"the implementation could not start: {failure.reason}"
    except FuzzError as error:
        result.failure = str(error)
    finally:
        close_adapter(adapter)
    return result


def _add(totals: dict[str, int], counts: Mapping[str, int]) -> None:
    for key, value in counts.items():
        totals[key] += value


DRAWER_TURN = 0.0005
"""Seconds a thread of a fuzz run holds the interpreter before another may run (see _drawn_ahead)."""


def _drawn_ahead(plan: Plan, seed: int, indices: Iterator[int]) -> Iterator[_Drawn]:
    """The batches of cases to send, drawn by a thread of their own one or two batches ahead: while
    this thread waits for the adapter's replies, the next situations and their reference answers
    are computed (the adapter and the engine work at the same time)."""
    ready: queue.Queue[_Drawn | BaseException | None] = queue.Queue(maxsize=2)
    stopping = threading.Event()

    def hand_over(item: _Drawn | BaseException | None) -> None:
        while not stopping.is_set():
            try:
                ready.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def draw() -> None:
        try:
            while not stopping.is_set():
                batch = _draw_batch(plan, seed, indices)
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
            item.cases.sort(key=lambda case: case.ruleset.id)
            yield item
    finally:
        stopping.set()
        drawer.join()
        sys.setswitchinterval(switch_interval)


def _index_of(case: Case) -> int:
    return int(case.fixture.id.rpartition(".")[2])


def _draw_batch(plan: Plan, seed: int, indices: Iterator[int]) -> _Drawn | None:
    """The next batch: up to :data:`BATCH` sendable situations; None when no situation is left."""
    drawn = _Drawn([], 0, 0)
    for index in indices:
        drawn.situations += 1
        kind = plan.kinds[index % len(plan.kinds)]
        rules = plan.ruleset_for(kind, seed, index)
        rng = situation_rng(seed, index)
        given = GENERATORS[kind](rng, rules) if rules is not None else None
        sendable, expected = (False, None)
        if given is not None and rules is not None:
            sendable, expected = plan.answer_if_sendable(kind, given, rules)
        if not sendable or given is None or rules is None:
            drawn.not_applicable += 1
            continue
        drawn.cases.append(_case(index, kind, given, rules, expected))
        if len(drawn.cases) >= BATCH:
            break
    return drawn if drawn.situations else None


def _count(counts: dict[str, int], case_result: CaseResult) -> Disagreement | None:
    """Count one result; the disagreement it is, if it is one."""
    case = case_result.case
    outcome = case_result.outcome
    if outcome == "skip":
        counts["skip"] += 1
        return None
    counts["sent"] += 1
    if outcome not in DISAGREEING:
        counts["agree"] += 1
        return None
    counts["disagree"] += 1
    return Disagreement(_index_of(case), case.fixture.kind, case.given, case.ruleset.id, dict(case.ruleset.params),
                        case.expected, outcome, case_result.got, case_result.message, list(case_result.differences))


def _shrink_one(plan: Plan, adapter: KeptAdapter, options: FuzzOptions, found: Disagreement) -> Disagreement:
    kind = found.kind
    rules = compile_ruleset(found.params, found.ruleset_id)
    if not (rules is not None):
        raise InternalError("broken invariant: rules is not None")
    claims = plan.claims_for(kind)
    expected_of: dict[int, Any] = {}
    spent = 0

    def usable(candidate: Candidate) -> bool:
        sendable, answer = plan.answer_if_sendable(kind, candidate.given, candidate.ruleset)
        if sendable:
            expected_of[id(candidate)] = answer
        return sendable

    def still_disagrees(candidates: Sequence[Candidate]) -> int | None:
        nonlocal spent
        cases = [_case(position, kind, c.given, c.ruleset, expected_of[id(c)]) for position, c in enumerate(candidates)]
        cases = cases[:max(0, options.shrink_budget - spent)]  # the budget: situations sent to shrink
        # A wrong answer costs nothing: the whole batch is pipelined. A crash costs a restart, so
        # the candidates go one at a time and the first that crashes is taken.
        chunk = 1 if found.outcome == "crash" else max(1, len(cases))
        for first in range(0, len(cases), chunk):
            sent = cases[first:first + chunk]
            spent += len(sent)
            for position, result in enumerate(_send(adapter, sent, options.timeout), first):
                if result.outcome == found.outcome:
                    return position
        return None

    start = Candidate(found.given, rules)
    if found.outcome == "timeout":
        # Not shrunk: every try would wait for the timeout.
        smallest, steps = start, 0
    else:
        smallest, steps = shrink(kind, start, still_disagrees, usable, claimed=claims.claims_value)
    if smallest is start:
        final = found
    else:
        expected = reference_answer(kind, smallest.given, smallest.ruleset)
        result = _send(adapter, [_case(0, kind, smallest.given, smallest.ruleset, expected)], options.timeout)[0]
        final = Disagreement(found.index, kind, smallest.given, smallest.ruleset.id, dict(smallest.ruleset.params),
                             expected, result.outcome, result.got, result.message, list(result.differences))
        if result.outcome not in DISAGREEING:  # a flaky adapter: keep what was seen
            final = found
    final.steps, final.shrink_calls = steps, spent
    fields = differing_fields(final.differences) if final.outcome == "fail" else []
    if final.outcome == "timeout":
        final.shape = f"{kind} timeout"  # not shrunk: the timeouts of one kind are one finding
    else:
        final.shape = shape_of(kind, final.outcome, fields, compile_ruleset(final.params, final.ruleset_id) or rules)
    return final


def _fixture_of(disagreement: Disagreement, adapter_name: str, seed: int) -> dict[str, Any]:
    """The fixture of a shrunk disagreement (its dependencies found with the reference engine)."""
    rules = compile_ruleset(disagreement.params, disagreement.ruleset_id)
    if not (rules is not None):
        raise InternalError("broken invariant: rules is not None")
    fields = differing_fields(disagreement.differences) if disagreement.outcome == "fail" else []
    return finding_fixture(kind=disagreement.kind, given=disagreement.given, rules=rules,
                           expected=disagreement.expected, outcome=disagreement.outcome, got=disagreement.got,
                           message=disagreement.message, fields=fields, adapter_name=adapter_name, seed=seed,
                           index=disagreement.index, shape=disagreement.shape)


# ------------------------------------------------------------------------------------- jobs

def _run_shard_task(options: FuzzOptions, shard: int, jobs: int) -> ShardResult:
    return run_shard(options, shard, jobs, report_event)


# ------------------------------------------------------------------------------------- the run


class FuzzRun:
    """A run's state as it goes, filled by :func:`fuzz` from the shards' reports: readable at any
    time, so that a stopped run still reports what it did (:meth:`outcome`).

    ``on_finding(finding)`` is called when a finding is made or shows another disagreement;
    ``progress(phase, situations, disagreements)`` gets increments (``phase``: ``"send"`` or
    ``"shrink"``)."""

    def __init__(self, options: FuzzOptions, on_finding: Callable[[Finding], None] | None = None,
                 progress: Callable[[str, int, int], None] | None = None) -> None:
        self.options = options
        self.progress = progress
        self.findings = Findings(on_finding)
        self.hello: dict[str, Any] = {}
        self.plan: Plan | None = None
        self.counts: dict[int, dict[str, int]] = {}
        self.lost: list[str] = []
        self.started = time.monotonic()

    def event(self, event: str, shard: int, *payload: Any) -> None:
        """One report of shard ``shard`` (see :data:`Report`)."""
        if event == "hello":
            if self.plan is None:
                self.hello = payload[0]
                try:
                    self.plan = Plan(self.hello, self.options)
                except FuzzError:
                    pass  # the shard says so in its result
        elif event == "counts":
            mine = self.counts.setdefault(shard, _zero_counts())
            for key, value in payload[0].items():
                mine[key] += value
            if self.progress is not None:
                self.progress("send", payload[0]["sent"] + payload[0]["skip"], payload[0]["disagree"])
        elif event == "shrunk":
            self.findings.add(payload[0], payload[1])
            if self.progress is not None:
                self.progress("shrink", 1, 0)

    def restart(self, shard: int) -> None:
        """Shard ``shard`` is run again from the start: its counts so far are forgotten."""
        self.counts.pop(shard, None)

    def outcome(self, interrupted: bool = False) -> FuzzOutcome:
        """What the run did so far."""
        counts = _zero_counts()
        for shard_counts in self.counts.values():
            for key, value in shard_counts.items():
                counts[key] += value
        unshrunk = counts.pop("unshrunk")
        plan = self.plan
        return FuzzOutcome(self.hello, counts, self.findings.ordered(), plan.kinds if plan else [],
                           plan.ruleset_ids if plan else [], unshrunk, time.monotonic() - self.started,
                           self.options.shrink_limit, list(self.lost), interrupted)


def fuzz(options: FuzzOptions, progress: Callable[[str, int, int], None] | None = None,
         run: FuzzRun | None = None) -> FuzzOutcome:
    """Run the fuzzer; ``progress(phase, situations, disagreements)`` gets increments. ``run``: the
    state to fill as the run goes (its ``on_finding`` writes each finding as it is made). Raises
    :class:`FuzzError` when nothing can run."""
    run = run if run is not None else FuzzRun(options, progress=progress)
    jobs = max(1, options.jobs)
    if jobs == 1:
        shards: list[ShardResult | WorkerLost] = [
            run_shard(options, 0, 1, lambda event, *payload: run.event(event, 0, *payload))]
    else:
        workers = Workers(jobs)
        try:
            shards = workers.run(_run_shard_task, [(options, shard, jobs) for shard in range(jobs)],
                                 lambda event: run.event(*event), on_retry=run.restart)
        finally:
            workers.close()
    for position, shard in enumerate(shards):
        if isinstance(shard, WorkerLost):
            run.lost.append(f"shard {position + 1} of {jobs} not run to its end: {shard}")
        elif shard.failure:
            raise FuzzError(shard.failure)
    if run.plan is None:
        raise FuzzError(run.lost[0] if run.lost else "no shard could run")
    return run.outcome()
