"""Fuzz situations per second through the subprocess protocol (`belote-ref serve`), per kind and for
every kind together, and the speed-up of --jobs 2. With --check, also the self-check the issue
asks for: 20,000 situations of each kind sent to `belote-ref serve`, none of which may disagree.

Run: python benchmarks/fuzz.py [--budget N] [--check]
Target: >= 2,000 situations/s through the subprocess for the position kinds (legal_plays,
trick_winner) on this machine class; whole-deal kinds (score, replay, match) draw and play
random deals for every situation and are slower. Each figure includes the adapter's start-up,
the drawing of the situations and the reference engine's answers.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from belote_ref.conformance.fuzz import FuzzOptions, fuzz
from belote_ref.protocol import KINDS


def rate(options: FuzzOptions) -> tuple[float, int, int]:
    """Situations per second, situations sent, disagreements."""
    started = time.perf_counter()
    outcome = fuzz(options)
    elapsed = time.perf_counter() - started
    return outcome.counts["situations"] / elapsed, outcome.counts["sent"], outcome.counts["disagree"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--budget", type=int, default=5000, help="situations per measurement (default 5000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="also send 20,000 situations of each kind to serve")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}; {os.cpu_count()} CPU(s); {args.budget} situations per measurement, "
          f"seed {args.seed}; command: python benchmarks/fuzz.py --budget {args.budget}")
    for kind in KINDS:
        per_second, _, bad = rate(FuzzOptions(kinds=(kind,), budget=args.budget, seed=args.seed))
        print(f"  {kind:<14} {per_second:8.0f} situations/s  ({bad} disagreements)")
    one, _, _ = rate(FuzzOptions(budget=args.budget * 2, seed=args.seed))
    two, _, _ = rate(FuzzOptions(budget=args.budget * 2, seed=args.seed, jobs=2))
    print(f"  every kind     {one:8.0f} situations/s with 1 job, {two:.0f} with --jobs 2: "
          f"speed-up {two / one:.2f} (the adapter and the drawing thread already use two processors)")
    if args.check:
        per_kind = 20_000
        started = time.perf_counter()
        for kind in KINDS:
            _, sent, bad = rate(FuzzOptions(kinds=(kind,), budget=per_kind, seed=args.seed, jobs=2))
            print(f"  check {kind:<14} {per_kind} situations, {sent} sent, {bad} disagreements")
            assert bad == 0, f"belote-ref serve disagrees with the reference engine on {kind}"
        print(f"  check: 0 disagreements in {per_kind * len(KINDS)} situations ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
