"""Conformance cases per second: through the subprocess protocol (`belote-ref serve`) and in-process.

Run: python benchmarks/protocol.py [--repeat N]
Target: >= 3,000 cases/s through the subprocess on this machine class.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from belote_ref.conformance.adapter import open_adapter
from belote_ref.conformance.corpus import load_corpus
from belote_ref.conformance.runner import RunOptions, build_cases, run_cases
from belote_ref.rules.ruleset import find_ruleset, shipped_rulesets


def cases_per_second(impl: str | None, cases: list, runs: int) -> list[float]:
    rates = []
    for _ in range(runs):
        started = time.perf_counter()
        _, results = run_cases(lambda: open_adapter(impl, 10), cases, RunOptions())
        elapsed = time.perf_counter() - started
        assert all(r.outcome == "pass" for r in results), "the reference engine must pass its own corpus"
        rates.append(len(cases) / elapsed)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=10, help="copies of the corpus per run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    base = build_cases(load_corpus(), [find_ruleset(r) for r in shipped_rulesets()])
    cases = base * args.repeat
    print(f"python {sys.version.split()[0]}; {len(cases)} cases per run ({len(base)} distinct), "
          f"median of {args.runs} runs; command: python benchmarks/protocol.py --repeat {args.repeat}")
    sub = cases_per_second(None, cases, args.runs)
    inproc = cases_per_second("python:belote_ref.protocol.serve:adapter", cases, args.runs)
    print(f"  subprocess (belote-ref serve): {statistics.median(sub):8.0f} cases/s  (target >= 3,000; "
          f"includes adapter start-up)")
    print(f"  in-process:                    {statistics.median(inproc):8.0f} cases/s")
    print(f"  ratio in-process / subprocess: {statistics.median(inproc) / statistics.median(sub):.2f}")


if __name__ == "__main__":
    main()
