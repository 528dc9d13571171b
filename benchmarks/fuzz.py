"""Fuzz situations per second through the subprocess protocol (`belote-ref serve`), per kind and for
every kind together (the mixed stream a plain `belote-ref conformance fuzz` sends), and the
speed-up of --jobs 2.

Run: python benchmarks/fuzz.py [--budget N] [--seed S] [--check]

Target: >= 2,000 situations/s through the subprocess. Each figure is wall-clock time for the
whole run: the adapter's start-up and hello, the drawing of the situations, the reference
engine's answers, the JSON lines both ways, the adapter's answers and the comparison. Beside it,
the processor time per situation of this process (drawing, reference answers, runner) and of the
adapter (`serve`: decoding, answering, encoding); on a machine shared with other work the wall
figure falls while these stay, and 1e6 / the larger of the two is what the run would reach with
a processor for each side.

What a situation is: one question of the protocol. For `match` it is a match of 1 to 6 whole
deals (3.5 on average), so the deals per second are printed too; `score`, `replay` and `play`
are one whole deal each.

--check: the issue's self-check, 20,000 situations of each kind sent to `belote-ref serve`, none
of which may disagree, as one run of the mixed stream (`belote-ref conformance fuzz --budget N`
with N = 20,000 times the number of kinds: kinds take turns, so each gets exactly 20,000).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

from belote_ref.conformance.fuzz import FuzzOptions, Plan, fuzz
from belote_ref.conformance.fuzz_generate import GENERATORS, situation_rng
from belote_ref.protocol.serve import KINDS, hello


def processor_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def measure(options: FuzzOptions) -> tuple[float, float, float, dict[str, int]]:
    """Situations per second (wall), processor microseconds per situation of this process and of
    the adapters (their start-up included), and the run's counts."""
    own, adapters = processor_seconds(resource.RUSAGE_SELF), processor_seconds(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    outcome = fuzz(options)
    elapsed = time.perf_counter() - started
    situations = outcome.counts["situations"]
    own = processor_seconds(resource.RUSAGE_SELF) - own
    adapters = processor_seconds(resource.RUSAGE_CHILDREN) - adapters
    return situations / elapsed, own / situations * 1e6, adapters / situations * 1e6, outcome.counts


def deals_in_matches(options: FuzzOptions) -> int:
    """The number of deals in the match situations of ``options`` (drawn again, outside the timing)."""
    plan = Plan(hello(), options)
    deals = 0
    for index in range(options.budget or 0):
        rules = plan.ruleset_for("match", options.seed, index)
        given = GENERATORS["match"](situation_rng(options.seed, index), rules) if rules is not None else None
        deals += len(given["deals"]) if given else 0
    return deals


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--budget", type=int, default=10_000, help="situations per measurement (default 10,000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="also send 20,000 situations of each kind to serve")
    args = parser.parse_args()
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"python {sys.version.split()[0]}; {os.cpu_count()} processors, shared with other work "
          f"(load average {load}); {args.budget} situations per measurement, seed {args.seed}")
    print(f"command: python benchmarks/fuzz.py --budget {args.budget} --seed {args.seed}")
    print(f"  {'kind':<14} {'wall':>13}   {'processor per situation':>36}")
    for kind in KINDS:
        options = FuzzOptions(kinds=(kind,), budget=args.budget, seed=args.seed)
        per_second, own, adapter, counts = measure(options)
        extra = ""
        if kind == "match":
            deals = deals_in_matches(options)
            extra = f"  = {per_second * deals / counts['situations']:.0f} deals/s ({deals / counts['situations']:.1f} " \
                    f"deals a match)"
        print(f"  {kind:<14} {per_second:7.0f} sit/s   fuzzer {own:5.0f} us, serve {adapter:5.0f} us, "
              f"limit {1e6 / max(own, adapter):5.0f}/s{extra}")
    mixed = FuzzOptions(budget=args.budget * 2, seed=args.seed)
    one, own, adapter, _ = measure(mixed)
    print(f"  {'every kind':<14} {one:7.0f} sit/s   fuzzer {own:5.0f} us, serve {adapter:5.0f} us, "
          f"limit {1e6 / max(own, adapter):5.0f}/s  (mixed stream, {args.budget * 2} situations)")
    one_total = own + adapter
    two, own, adapter, _ = measure(FuzzOptions(budget=args.budget * 2, seed=args.seed, jobs=2))
    # With --jobs the fuzzers are worker processes: their time is counted with the adapters'.
    print(f"  --jobs 2       {two:7.0f} sit/s   all processes {own + adapter:5.0f} us (one job: {one_total:.0f} us): "
          f"speed-up x{two / one:.2f}, two fuzzers and two adapters on {os.cpu_count()} shared processors")
    if args.check:
        budget = 20_000 * len(KINDS)
        started = time.perf_counter()
        outcome = fuzz(FuzzOptions(budget=budget, seed=args.seed, jobs=2))
        counts = outcome.counts
        print(f"check: belote-ref conformance fuzz --budget {budget} --seed {args.seed} --jobs 2: "
              f"{counts['situations']} situations ({budget // len(KINDS)} of each kind), {counts['sent']} sent, "
              f"{counts['disagree']} disagreements, {counts['n/a']} not applicable, "
              f"{time.perf_counter() - started:.0f} s")
        assert outcome.ok, "belote-ref serve disagrees with the reference engine"


if __name__ == "__main__":
    main()
