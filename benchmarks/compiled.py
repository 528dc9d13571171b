"""The compiled build beside the pure one: engine speed, against the peers, and the site and lint costs.

Run from the repository root, with two installs of belote-ref: the default one (pure Python, with
the ``peers`` extra, belote-cli and colver) and the compiled one (README: ``.venv-compiled``)::

    python benchmarks/compiled.py --pure .venv/bin/python --compiled .venv-compiled/bin/python

It prints, side by side in one run:

- random complete deals/s of both builds (``simulate.random_deal``, classic) and of belote-cli and
  colver's Python API, as ratios: in each of ``--rounds`` rounds each engine plays about
  ``--slice`` seconds of deals in turn, and a ratio is the median of the rounds' ratios (taken
  between neighbours in time: the speed of a shared machine drifts);
- validated replays per second on one core from a streamed file (``record.check_records`` over a
  file written by ``belote-ref play``), and the records read and parsed per second alone
  (``records_or_errors``), which shows the share of a replay that compiling barely changes (the JSON
  decoding is C in both builds); ``legal_plays`` calls per second, the same way;
- whole processes, each build in turn: fuzz situations per CPU second (``belote-ref conformance
  fuzz``, the serve children included) and the README's main job (``belote-ref conformance run``);
- the compiled build's speed-up over the pure one on each of these;
- ``docs build`` CPU seconds, full and after one house-rule line changed (benchmarks/site_build.py),
  and the peak resident memory of ``belote-ref conformance lint``, for each build.

The in-process figures come from one worker process per build (this script with ``--worker``,
run by that build's interpreter from a temporary folder, so that it imports the installed
package, not the checkout), pinned to one CPU; rates are per second of CPU time
(``time.process_time``). The functions measured are those of benchmarks/scale.py and
benchmarks/engine.py. ``--sections`` runs only some parts.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SECTIONS = ("deals", "replays", "legal", "fuzz", "main", "docs", "lint")
GOAL_COLVER = 4.0
GOAL_CLI = 20.0
GOAL_REPLAYS = 15_000
GOAL_SPEEDUP = 2.5


# ---------------------------------------------------------------------------- the worker


def worker() -> int:
    """Answer one JSON line per task read on stdin, with the build this interpreter has installed."""
    import belote_ref  # the installed package first: benchmarks/scale.py then adds the checkout to sys.path
    from belote_ref.core import version

    sys.path.insert(0, str(HERE))
    import engine  # type: ignore[import-not-found]  # benchmarks/engine.py
    import scale  # type: ignore[import-not-found]  # benchmarks/scale.py

    pinned = scale.pin_to_one_core()
    positions: dict[tuple[int, int], Any] = {}
    rules = None
    for line in sys.stdin:
        task = json.loads(line)
        name = task["task"]
        if name == "hello":
            from belote_ref.engine import play

            # An install older than the version line of the builds says only its version.
            line = version.version_line() if hasattr(version, "version_line") else version.__version__
            answer: dict[str, Any] = {"version": line, "play": play.__file__, "pinned": pinned,
                                      "package": belote_ref.__file__}
        elif name == "deals":
            complete, spent = scale.ENGINES[task["engine"]](task["count"], task["seed"])
            answer = {"complete": complete, "cpu": spent}
        elif name == "replays":
            answer = {"rate": scale.streamed_replay_rate(Path(task["path"]), task["limit"])}
        elif name == "reading":
            answer = {"rate": streamed_reading_rate(Path(task["path"]), task["limit"])}
        elif name == "legal":
            from belote_ref.engine.play import legal_plays
            from belote_ref.rules.ruleset import find_ruleset

            rules = rules or find_ruleset("classic")
            key = (task["count"], task["seed"])
            if key not in positions:
                positions[key] = engine.make_positions(*key)
                for trump, hand, trick in positions[key][:100]:  # compile the tables outside the timing
                    legal_plays(rules, trump, hand, trick)
            clock = time.process_time
            start = clock()
            for trump, hand, trick in positions[key]:
                legal_plays(rules, trump, hand, trick)
            answer = {"rate": len(positions[key]) / (clock() - start)}
        else:
            answer = {"error": f"unknown task {name}"}
        print(json.dumps(answer), flush=True)
    return 0


def streamed_reading_rate(path: Path, limit: int) -> float:
    """Records read and parsed per CPU second (``records_or_errors``: the JSON decoding and the
    record's checks of shape, no replay) over the first ``limit`` records of ``path``."""
    from itertools import islice

    from belote_ref.records.record import DealRecord, records_or_errors

    clock = time.process_time
    start = clock()
    done = sum(1 for entry in islice(records_or_errors(path), limit) if isinstance(entry, DealRecord))
    return done / (clock() - start)


class Worker:
    """A worker process of one build."""

    def __init__(self, python: str, folder: Path) -> None:
        environment = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
        self.process = subprocess.Popen([python, str(Path(__file__).resolve()), "--worker"], cwd=folder,
                                        env=environment, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, task: str, **arguments: Any) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"task": task, **arguments}) + "\n")
        self.process.stdin.flush()
        reply = self.process.stdout.readline()
        if not reply:
            raise SystemExit(f"a worker stopped (status {self.process.wait()}) during {task}")
        answer: dict[str, Any] = json.loads(reply)
        if "error" in answer:
            raise SystemExit(answer["error"])
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


# ---------------------------------------------------------------------------- whole processes


def whole_process(command: list[str], runs_env: dict[str, str], cwd: Path) -> tuple[float, float, int, float]:
    """(wall s, peak resident MB, status, CPU s of the process and its children) of ``command``."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env=runs_env, cwd=cwd)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    # The CPU of the grandchildren (serve adapters) is in ru_*time once they were waited for by
    # the child; ru_maxrss is the largest of the child and its waited-for descendants.
    return wall, usage.ru_maxrss / 1024, child.returncode, usage.ru_utime + usage.ru_stime


def tool(python: str) -> str:
    return str(Path(python).with_name("belote-ref"))


# ---------------------------------------------------------------------------- output


def row(label: str, pure: str, compiled: str, note: str = "") -> None:
    print(f"{label:<52}{pure:>16}{compiled:>16}  {note}".rstrip())


def verdict(ok: bool) -> str:
    return "ok" if ok else "BELOW GOAL"


def interleaved(runs: int, pure: Any, compiled: Any) -> tuple[float, float, float]:
    """(median of pure, median of compiled, median of the runs' ratios compiled / pure) over
    ``runs`` runs of ``pure()`` then ``compiled()`` (A B A B)."""
    pures, compileds = [], []
    for _ in range(runs):
        pures.append(pure())
        compileds.append(compiled())
    ratios = [c / p for p, c in zip(pures, compileds, strict=True)]
    return statistics.median(pures), statistics.median(compileds), statistics.median(ratios)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--pure", default=".venv/bin/python", help="the pure build's interpreter (with the peers)")
    parser.add_argument("--compiled", default=".venv-compiled/bin/python", help="the compiled build's interpreter")
    parser.add_argument("--quick", action="store_true", help="small samples (a smoke run of the script)")
    parser.add_argument("--rounds", type=int, default=None, help="rounds of random deals (default 15, quick 3)")
    parser.add_argument("--slice", type=float, default=0.5, help="CPU seconds of deals per engine per round")
    parser.add_argument("--runs", type=int, default=None,
                        help="interleaved runs of the other figures (default 5, quick 2)")
    parser.add_argument("--replays", type=int, default=None, help="records replayed per run (default 20000)")
    parser.add_argument("--calls", type=int, default=None, help="legal_plays positions per run (default 100000)")
    parser.add_argument("--fuzz-budget", type=int, default=None, help="fuzz situations per run (default 3000)")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "belote-ref-compiled")
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help=f"comma-separated parts to run (default: all of {','.join(SECTIONS)})")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker()
    sections = set(args.sections.split(","))
    if not sections <= set(SECTIONS):
        parser.error(f"--sections: expected some of {','.join(SECTIONS)}")
    rounds = args.rounds or (3 if args.quick else 15)
    runs = args.runs or (2 if args.quick else 5)
    replays = args.replays or (2_000 if args.quick else 20_000)
    calls = args.calls or (10_000 if args.quick else 100_000)
    budget = args.fuzz_budget or (300 if args.quick else 3_000)
    builds = {"pure": str(Path(args.pure).absolute()), "compiled": str(Path(args.compiled).absolute())}
    args.workdir.mkdir(parents=True, exist_ok=True)
    env = {name: value for name, value in os.environ.items() if name not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}

    print("command:", " ".join([Path(sys.executable).name, *sys.argv]))
    print(f"{os.cpu_count()} CPU(s), load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          "(a machine shared with other work: CPU-time rates, interleaved runs, medians)")
    workers = {build: Worker(python, args.workdir) for build, python in builds.items()}
    for build, worker_process in workers.items():
        hello = worker_process.ask("hello")
        print(f"{build:<9} {builds[build]}: {hello['version']}; {hello['pinned']}")
        if (build == "compiled") == hello["play"].endswith(".py"):
            raise SystemExit(f"the {build} interpreter does not run the {build} build ({hello['play']})")
    print()
    row("", "pure", "compiled", "compiled / pure, and goals")

    if "deals" in sections:
        entries = [("pure", "belote-ref"), ("compiled", "belote-ref"), ("pure", "belote-cli"), ("pure", "colver")]
        counts: dict[tuple[str, str], int] = {}
        for build, engine_name in entries:
            workers[build].ask("deals", engine=engine_name, count=20, seed=1)  # warm up
            sample = workers[build].ask("deals", engine=engine_name, count=50, seed=2)
            counts[build, engine_name] = max(10, int(args.slice * sample["complete"] / sample["cpu"]))
        samples: dict[tuple[str, str], list[float]] = {entry: [] for entry in entries}
        for number in range(rounds):
            for build, engine_name in entries:
                answer = workers[build].ask("deals", engine=engine_name, count=counts[build, engine_name],
                                            seed=100 + number)
                samples[build, engine_name].append(answer["complete"] / answer["cpu"])

        def ratio(mine: tuple[str, str], theirs: tuple[str, str]) -> float:
            return statistics.median(a / b for a, b in zip(samples[mine], samples[theirs], strict=True))

        rate = {entry: statistics.median(values) for entry, values in samples.items()}
        pure, compiled = ("pure", "belote-ref"), ("compiled", "belote-ref")
        print(f"\n== random complete deals, classic ({rounds} rounds of about {args.slice:g} CPU s per engine)")
        row("belote-ref deals/s", f"{rate[pure]:,.0f}", f"{rate[compiled]:,.0f}",
            f"x{ratio(compiled, pure):.2f} (goal >= x{GOAL_SPEEDUP}: {verdict(ratio(compiled, pure) >= GOAL_SPEEDUP)})")
        for peer, goal in ((("pure", "colver"), GOAL_COLVER), (("pure", "belote-cli"), GOAL_CLI)):
            row(f"  against {peer[1]} ({rate[peer]:,.0f} deals/s)", f"x{ratio(pure, peer):.1f}",
                f"x{ratio(compiled, peer):.1f}", f"goal >= x{goal:g}: {verdict(ratio(compiled, peer) >= goal)}")

    if "replays" in sections:
        path = args.workdir / "classic-20000-seed1.jsonl"
        if not path.exists():
            partial = path.with_suffix(".partial")
            subprocess.run([tool(builds["pure"]), "play", "--ruleset", "classic", "--count", "20000", "--seed", "1",
                            "--out", str(partial)], check=True, env=env, cwd=args.workdir, stdout=subprocess.DEVNULL)
            partial.replace(path)
        for worker_process in workers.values():
            worker_process.ask("replays", path=str(path), limit=min(replays, 2000))  # warm up
        pure_rate, compiled_rate, speedup = interleaved(
            runs, lambda: workers["pure"].ask("replays", path=str(path), limit=replays)["rate"],
            lambda: workers["compiled"].ask("replays", path=str(path), limit=replays)["rate"])
        print(f"\n== validated replays from a streamed file (check_records, {replays:,} records, one core)")
        row("replays/s", f"{pure_rate:,.0f}", f"{compiled_rate:,.0f}",
            f"x{speedup:.2f} (goal >= x{GOAL_SPEEDUP}: {verdict(speedup >= GOAL_SPEEDUP)}); "
            f"compiled goal >= {GOAL_REPLAYS:,}: {verdict(compiled_rate >= GOAL_REPLAYS)}")
        # The share of a replay that reading takes: JSON decoding (C in both builds) and the record's
        # shape, which compiling barely changes, bound the speed-up of the whole.
        pure_read, compiled_read, read_speedup = interleaved(
            runs, lambda: workers["pure"].ask("reading", path=str(path), limit=replays)["rate"],
            lambda: workers["compiled"].ask("reading", path=str(path), limit=replays)["rate"])
        row("  of which reading alone (records read and parsed/s)", f"{pure_read:,.0f}", f"{compiled_read:,.0f}",
            f"x{read_speedup:.2f}")
        pure_us, compiled_us = 1e6 / pure_rate, 1e6 / compiled_rate
        row("  microseconds a record: reading + replaying",
            f"{1e6 / pure_read:.1f} + {pure_us - 1e6 / pure_read:.1f}",
            f"{1e6 / compiled_read:.1f} + {compiled_us - 1e6 / compiled_read:.1f}",
            f"the speed-up if replaying cost nothing: x{pure_us / (1e6 / compiled_read):.2f}")

    if "legal" in sections:
        pure_rate, compiled_rate, speedup = interleaved(
            runs, lambda: workers["pure"].ask("legal", count=calls, seed=1)["rate"],
            lambda: workers["compiled"].ask("legal", count=calls, seed=1)["rate"])
        print(f"\n== legal_plays (classic, {calls:,} random positions, one core)")
        row("legal_plays calls/s", f"{pure_rate:,.0f}", f"{compiled_rate:,.0f}", f"x{speedup:.2f}")
    for worker_process in workers.values():
        worker_process.close()

    if "fuzz" in sections:
        out = args.workdir / "fuzz-findings"

        def fuzz_rate(build: str) -> float:
            _, _, status, cpu = whole_process([tool(builds[build]), "conformance", "fuzz", "--budget", str(budget),
                                               "--seed", "1", "--out", str(out)], env, args.workdir)
            if status != 0:
                raise SystemExit(f"conformance fuzz of the {build} build exited {status}")
            return budget / cpu

        pure_rate, compiled_rate, speedup = interleaved(runs, lambda: fuzz_rate("pure"), lambda: fuzz_rate("compiled"))
        print(f"\n== fuzz situations (belote-ref conformance fuzz --budget {budget:,}, "
              "whole process and serve children)")
        row("situations per CPU s", f"{pure_rate:,.0f}", f"{compiled_rate:,.0f}", f"x{speedup:.2f}")

    if "main" in sections:
        walls: dict[str, list[float]] = {"pure": [], "compiled": []}

        def main_cpu(build: str) -> float:
            wall, _, status, cpu = whole_process([tool(builds[build]), "conformance", "run"], env, args.workdir)
            if status != 0:
                raise SystemExit(f"conformance run of the {build} build exited {status}")
            walls[build].append(wall)
            return cpu

        main_runs = max(1, runs - 2)
        pure_cpu, compiled_cpu, ratio_cpu = interleaved(main_runs, lambda: main_cpu("pure"),
                                                        lambda: main_cpu("compiled"))
        print(f"\n== the README's main job (belote-ref conformance run, median of {main_runs}; "
              "runner and serve children)")
        row("CPU s", f"{pure_cpu:,.2f}", f"{compiled_cpu:,.2f}",
            f"x{1 / ratio_cpu:.2f} (speed-up: the median of the runs' pure / compiled CPU times)")
        row("wall s", f"{statistics.median(walls['pure']):,.2f}", f"{statistics.median(walls['compiled']):,.2f}")

    if "docs" in sections:
        print("\n== docs build (benchmarks/site_build.py: a full build, then after one house-rule line changed)")
        figures: dict[str, dict[str, float]] = {}
        for build, python in builds.items():
            done = subprocess.run([python, str(HERE / "site_build.py"), "--exe", tool(python)], check=False,
                                  capture_output=True, text=True, env=env, timeout=3600)
            if done.returncode != 0:
                raise SystemExit(f"site_build.py for the {build} build failed:\n"
                                 f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
            figures[build] = {match.group(1).strip(): float(match.group(2)) for match in
                              re.finditer(r"^(\S.*?)\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+[\d.]+$", done.stdout, re.M)}
        for label in ("full build", "rebuild, one house-rule line changed"):
            pure_cpu = figures["pure"].get(label, float("nan"))
            compiled_cpu = figures["compiled"].get(label, float("nan"))
            row(f"{label}, CPU s", f"{pure_cpu:,.1f}", f"{compiled_cpu:,.1f}", f"x{pure_cpu / compiled_cpu:.2f}")

    if "lint" in sections:
        peaks = {}
        for build, python in builds.items():
            _, peak, status, cpu = whole_process([tool(python), "conformance", "lint"], env, args.workdir)
            peaks[build] = (peak, status, cpu)
        print("\n== belote-ref conformance lint (the whole corpus)")
        row("peak resident MB", f"{peaks['pure'][0]:,.0f}", f"{peaks['compiled'][0]:,.0f}",
            f"exit {peaks['pure'][1]} / {peaks['compiled'][1]}; "
            f"CPU {peaks['pure'][2]:,.1f} s / {peaks['compiled'][2]:,.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
