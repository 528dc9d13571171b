"""The self-consistency sweep: the reference engine against its whole corpus under random valid
rulesets extending each shipped ruleset (belote_ref.conformance.sweep).

Run: python benchmarks/sweep.py [--rulesets N] [--seed S] [--max-changes K] [--default-only]
     [--cases-per-ruleset C] [--base ID ...]

N rulesets are drawn per shipped ruleset (K parameters changed at most, each among its documented
values, an integer anywhere in its range too); drawn rulesets the validation refuses are skipped
and counted. Each is run on the default run's cases (derived variants included) and, unless
--default-only, every branch assignment of every fixture on that base. Prints the rulesets and
cases run, the failures with the runner's safety net off (the fixtures' own declarations; the goal
is 0) and on (unsettled cases n/a; must be 0), each minimal set of changes that fails with one
example case, and the processor time. Exit 1 when any case fails with the net on.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from belote_ref.conformance.corpus import load_corpus
from belote_ref.conformance.sweep import draw_rulesets, sweep
from belote_ref.rules.ruleset import find_ruleset, shipped_rulesets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", type=int, default=20, help="rulesets drawn per shipped ruleset")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-changes", type=int, default=4)
    parser.add_argument("--default-only", action="store_true", help="no --every-branch assignments")
    parser.add_argument("--cases-per-ruleset", type=int, default=None, help="a random sample of the cases")
    parser.add_argument("--base", action="append", default=None, help="only these shipped rulesets")
    args = parser.parse_args()
    started = time.process_time()
    bases = [find_ruleset(r) for r in (args.base or shipped_rulesets())]
    draws, refused = draw_rulesets(bases, args.rulesets, args.seed, args.max_changes)

    def progress(index: int, draw: object, failures: int) -> None:
        if (index + 1) % 10 == 0:
            print(f"... {index + 1}/{len(draws)} rulesets, {failures} failures", file=sys.stderr, flush=True)

    report = sweep(load_corpus(), draws, every_branch=not args.default_only,
                   case_limit=args.cases_per_ruleset, rng=random.Random(args.seed), progress=progress)
    report.refused = refused
    for line in report.lines():
        print(line)
    print(f"processor time: {time.process_time() - started:.1f} s")
    return 1 if report.failures_with_net else 0


if __name__ == "__main__":
    sys.exit(main())
