"""Scale: engine speed against its peers, streamed replays, memory, parallel jobs and start-up.

Run ``python benchmarks/scale.py [--quick] [--runs K] [--rounds R] [--no-million] [--workdir DIR]`` from the
repository root, with belote-ref and the ``peers`` extra (belote-cli, colver) installed in the
interpreter that runs it. It prints, in one run:

- random complete deals/s of belote-ref (``simulate.random_deal``, classic), of belote-cli
  (``belote.game``: random calls among those its prompt offers, random legal cards) and of
  colver's Python API (``Env.deal`` then ``step(action_random())`` to the end), measured
  side by side: in each of ``--rounds`` rounds every engine plays about ``--slice`` seconds of
  deals in turn, and a ratio is the median of the rounds' ratios, each taken between neighbours in
  time (the speed of a shared machine drifts by a fifth within minutes). Passed-out deals are not
  complete deals: their time is left out and they are not counted, for each engine alike;
- validated replays/s on one core from a streamed file: ``record.check_records`` over a
  ``.jsonl`` file written by ``belote-ref play``, the process pinned to one CPU;
- peak resident memory (``ru_maxrss`` of the child, from ``os.wait4``) of ``belote-ref replay``
  over 100,000 and 1,000,000 deals, and of the ``belote-ref play`` that wrote them;
- the speed-up of ``belote-ref replay --jobs 2`` over one job on the 100,000-deal file (only fair
  on an idle machine with two free cores);
- whole-process wall times: ``python -c pass``, ``belote-ref --help``, a ``belote-ref serve`` child
  up to its reply to ``hello``, and the README's main job ``belote-ref conformance run``.

The record files are written once into ``--workdir`` (default: a folder in the system's temporary
folder) and reused by later runs; ``--fresh`` writes them again. ``--sections`` runs only some of
the parts (``deals,replay,memory,jobs,startup``).

Rates measured in-process are per second of CPU time (``time.process_time``) and whole processes
are given both wall time and CPU time (user + system, from ``os.wait4``): on a shared machine the
wall time of a process grows with the load, its CPU time much less. The speed-up of ``--jobs 2``
can only be a wall-time figure.

Child processes run as an installed package does: with its bytecode cached (``PYTHONDONTWRITEBYTECODE``
is removed from their environment, and each command is run once before it is timed), so that a
start-up time is not the time of compiling the sources.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from belote_ref.records.record import check_records
from belote_ref.rules.ruleset import find_ruleset
from belote_ref.engine.simulate import random_deal

GOAL_CLI_RATIO = 20.0
GOAL_COLVER_RATIO = 4.0
GOAL_REPLAYS = 15_000
GOAL_MEMORY_MB = 100.0
GOAL_SPEEDUP = 1.7
GOAL_START_MS = 50.0
SECTIONS = ("deals", "replay", "memory", "jobs", "startup")
HELLO = {"cmd": "hello", "protocol": 2, "protocols": [1, 2], "suite": "0.1.0"}


def pin_to_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity on this platform)"
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {max(allowed)})
    return f"pinned to CPU {max(allowed)} (of {len(allowed)} allowed)"


def unpin() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, range(os.cpu_count() or 1))


# ---------------------------------------------------------------------------- random deals


def belote_ref_deals(count: int, seed: int) -> tuple[int, float]:
    """(complete deals, seconds spent on them) for ``count`` random deals of belote-ref."""
    rules = find_ruleset("classic")
    rng = random.Random(seed)
    clock = time.process_time
    spent, complete = 0.0, 0
    for _ in range(count):
        start = clock()
        state = random_deal(rules, rng)
        elapsed = clock() - start
        if state.score is not None:
            spent += elapsed
            complete += 1
    return complete, spent


def belote_cli_deals(count: int, seed: int) -> tuple[int, float]:
    """The same for belote-cli: a new round, random calls among the prompt's options, random legal cards."""
    from belote import game  # type: ignore[import-untyped]
    from belote.deck import Suit  # type: ignore[import-untyped]

    suits = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    rng = random.Random(seed)
    clock = time.process_time
    spent, complete = 0.0, 0
    start_state = game.new_game()
    for _ in range(count):
        start = clock()
        state = game.start_round(start_state, rng)
        while state.phase == game.Phase.BIDDING:
            if state.bidding_round == 1:
                options = [state.up_card.suit, None]
            else:
                options = [s for s in suits if s != state.up_card.suit] + [None]
            state = game.place_bid(state, rng.choice(options))
        played = state.phase == game.Phase.PLAYING
        while state.phase == game.Phase.PLAYING:
            state = game.play_card(state, rng.choice(game.legal_cards(state, state.turn)))
        elapsed = clock() - start
        if played:
            spent += elapsed
            complete += 1
    return complete, spent


def colver_deals(count: int, seed: int) -> tuple[int, float]:
    """The same for colver's Python API: ``Env.deal`` then random legal actions to the end."""
    import colver

    clock = time.process_time
    spent, complete = 0.0, 0
    for index in range(count):
        start = clock()
        env = colver.Env.deal(seed=seed * 1_000_003 + index)
        while not env.is_terminal():
            env.step(env.action_random())
        elapsed = clock() - start
        if env.get_contract():
            spent += elapsed
            complete += 1
    return complete, spent


ENGINES: dict[str, Callable[[int, int], tuple[int, float]]] = {
    "belote-ref": belote_ref_deals, "belote-cli": belote_cli_deals, "colver": colver_deals}


def deal_rates(rounds: int, slice_seconds: float, seed: int) -> tuple[dict[str, float | None], dict[str, float]]:
    """(median complete deals/s of each engine, None for an engine not installed; the median over
    the rounds of belote-ref's rate over each peer's in the same round).

    In each round every engine plays in turn about ``slice_seconds`` of deals, so that the engines
    compared share the state of a machine whose speed drifts: the ratio of a round is taken between
    neighbours in time, and the median of the rounds' ratios is what is printed."""
    available: dict[str, Callable[[int, int], tuple[int, float]]] = {}
    counts: dict[str, int] = {}
    for name, measure in ENGINES.items():
        try:
            measure(20, seed)  # warm up (and fail here when the peer is missing)
        except ImportError:
            continue
        complete, spent = measure(50, seed)
        available[name] = measure
        counts[name] = max(10, int(slice_seconds * complete / spent))
    samples: dict[str, list[float]] = {name: [] for name in available}
    for number in range(rounds):
        for name, measure in available.items():
            complete, spent = measure(counts[name], seed + number)
            samples[name].append(complete / spent)
    ours = samples["belote-ref"]
    ratios = {name: statistics.median(mine / theirs for mine, theirs in zip(ours, values, strict=True))
              for name, values in samples.items() if name != "belote-ref"}
    rates = {name: statistics.median(samples[name]) if name in samples else None for name in ENGINES}
    return rates, ratios


# ---------------------------------------------------------------------------- records


def belote_ref_command() -> list[str]:
    """``belote-ref`` next to this interpreter (the venv's), else on the PATH."""
    beside = Path(sys.executable).with_name("belote-ref")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("belote-ref")
    if found is None:
        raise SystemExit("belote-ref is not installed next to this interpreter nor on the PATH")
    return [found]


#: The environment of the children: bytecode written and read, as for an installed package.
CHILD_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def run_measured(command: Sequence[str], stdin: Path | None = None) -> tuple[float, float, int, float]:
    """(wall seconds, peak resident MB, exit status, CPU seconds) of one child process, its output
    discarded."""
    started = time.perf_counter()
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as source:
        child = subprocess.Popen(command, stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 env=CHILD_ENV)
        _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.perf_counter() - started
    # ru_maxrss is in kilobytes on Linux, in bytes on macOS.
    peak = usage.ru_maxrss / (1 << 20 if sys.platform == "darwin" else 1 << 10)
    return elapsed, peak, child.returncode, usage.ru_utime + usage.ru_stime


def records_file(workdir: Path, count: int, seed: int, fresh: bool) -> tuple[Path, tuple[float, float] | None]:
    """A file of ``count`` random classic deals written by ``belote-ref play``; (path, (seconds,
    peak MB) of the play when it was written by this run)."""
    path = workdir / f"classic-{count}-seed{seed}.jsonl"
    if path.exists() and not fresh:
        return path, None
    partial = path.with_suffix(".partial")
    seconds, peak, status, _ = run_measured(
        [*belote_ref_command(), "play", "--ruleset", "classic", "--count", str(count), "--seed", str(seed),
         "--out", str(partial)])
    if status != 0:
        raise SystemExit(f"belote-ref play --count {count} failed with status {status}")
    partial.replace(path)
    return path, (seconds, peak)


def streamed_replay_rate(path: Path, limit: int) -> float:
    """Validated replays per CPU second of ``check_records`` over the first ``limit`` records of ``path``."""
    clock = time.process_time
    start = clock()
    done = 0
    for check in check_records(path):
        if check.verdict != "good":
            raise AssertionError(f"a recorded random deal does not replay: {check.problems}")
        done += 1
        if done >= limit:
            break
    return done / (clock() - start)


def replay_supports_jobs() -> bool:
    result = subprocess.run([*belote_ref_command(), "replay", "--help"], capture_output=True, text=True, check=False,
                            env=CHILD_ENV)
    return "--jobs" in result.stdout


# ---------------------------------------------------------------------------- start-up


def process_ms(command: Sequence[str], runs: int, stdin: bytes = b"") -> tuple[float, float]:
    """The median (wall, CPU) milliseconds of ``command`` over ``runs`` runs, after one run to warm
    the caches; ``stdin`` is written to it."""
    walls, cpus = [], []
    for _ in range(runs + 1):
        start = time.perf_counter()
        child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 env=CHILD_ENV)
        assert child.stdin is not None
        child.stdin.write(stdin)
        child.stdin.close()
        _, _, usage = os.wait4(child.pid, 0)
        walls.append(time.perf_counter() - start)
        cpus.append(usage.ru_utime + usage.ru_stime)
    return 1000 * statistics.median(walls[1:]), 1000 * statistics.median(cpus[1:])


def serve_hello_ms(runs: int) -> tuple[float, float]:
    """The median (wall, CPU) milliseconds of a ``belote-ref serve`` child from its start to its
    reply to ``hello``: the child is killed as soon as the reply is read, and its CPU time taken."""
    walls, cpus = [], []
    for _ in range(runs + 1):
        start = time.perf_counter()
        child = subprocess.Popen([*belote_ref_command(), "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, env=CHILD_ENV)
        # The child at the lowest priority, so that on a busy machine this process, which kills it
        # once the reply is read, runs first: what the child does after its reply is not counted.
        if hasattr(os, "setpriority"):
            os.setpriority(os.PRIO_PROCESS, child.pid, 19)
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write((json.dumps(HELLO) + "\n").encode())
        child.stdin.flush()
        reply = child.stdout.readline()
        child.kill()
        walls.append(time.perf_counter() - start)
        _, _, usage = os.wait4(child.pid, 0)
        child.returncode = -9
        cpus.append(usage.ru_utime + usage.ru_stime)
        child.stdin.close()
        child.stdout.close()
        if b'"implementation"' not in reply:
            raise AssertionError(f"serve did not answer hello: {reply[:200]!r}")
    return 1000 * statistics.median(walls[1:]), 1000 * statistics.median(cpus[1:])


# ---------------------------------------------------------------------------- output


def row(label: str, figure: str, note: str = "") -> None:
    print(f"{label:<58}{figure:>14}  {note}".rstrip())


def goal(ok: bool) -> str:
    return "ok" if ok else "BELOW GOAL"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="small samples (a smoke run of the script)")
    parser.add_argument("--runs", type=int, default=None, help="runs per figure, the median printed (default 5, quick 2)")
    parser.add_argument("--rounds", type=int, default=None,
                        help="rounds of random deals, each engine in turn in each (default 30, quick 4)")
    parser.add_argument("--slice", type=float, default=0.2,
                        help="seconds of random deals per engine per round (default 0.2)")
    parser.add_argument("--replays", type=int, default=None, help="records replayed in-process (default 20000)")
    parser.add_argument("--no-million", action="store_true", help="leave out the 1,000,000-deal file")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "belote-ref-scale")
    parser.add_argument("--fresh", action="store_true", help="write the record files again")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help=f"comma-separated parts to run (default: all of {','.join(SECTIONS)})")
    args = parser.parse_args(argv)
    sections = set(args.sections.split(","))
    if not sections <= set(SECTIONS):
        parser.error(f"--sections: expected some of {','.join(SECTIONS)}")
    runs = args.runs or (2 if args.quick else 5)
    rounds = args.rounds or (4 if args.quick else 30)
    replays = args.replays or (2000 if args.quick else 20_000)
    sizes = (2_000, 20_000) if args.quick else ((100_000,) if args.no_million else (100_000, 1_000_000))
    args.workdir.mkdir(parents=True, exist_ok=True)
    command = belote_ref_command()

    print("command:", " ".join([Path(sys.executable).name, *sys.argv]))
    print(f"python {platform.python_version()} ({platform.python_implementation()}), {platform.machine()}, "
          f"{os.cpu_count()} CPU(s), load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"medians of {runs} runs; record files in {args.workdir}")

    if "deals" in sections:
        print("\n== random complete deals (one core, engines in turn in each round)")
        pinned = pin_to_one_core()
        rates, ratios = deal_rates(rounds, args.slice, args.seed)
        ours = rates["belote-ref"]
        assert ours is not None
        row("belote-ref (classic)", f"{ours:,.0f} deals/s", f"{pinned}; {rounds} rounds of about {args.slice:g} s each")
        for name, target in (("belote-cli", GOAL_CLI_RATIO), ("colver", GOAL_COLVER_RATIO)):
            theirs = rates[name]
            if theirs is None:
                row(name, "not installed", "(pip install '.[peers]')")
                continue
            ratio = ratios[name]
            row(name, f"{theirs:,.0f} deals/s",
                f"belote-ref x{ratio:.1f} (median of the rounds' ratios): goal >= x{target:g}: {goal(ratio >= target)}")
        unpin()

    files: dict[int, Path] = {}
    if sections & {"replay", "memory", "jobs"}:
        print("\n== record files (belote-ref play)")
        for size in sizes if sections & {"memory", "jobs"} else sizes[:1]:
            path, made = records_file(args.workdir, size, args.seed, args.fresh)
            files[size] = path
            if made is None:
                row(f"{size:,} deals", "reused", str(path))
            else:
                seconds, peak = made
                row(f"play --count {size:,}", f"{size / seconds:,.0f} deals/s",
                    f"peak {peak:,.0f} MB resident, {path}")

    if "replay" in sections:
        print("\n== validated replays from a streamed file (in-process, one core)")
        pinned = pin_to_one_core()
        rate = statistics.median(streamed_replay_rate(files[sizes[0]], replays) for _ in range(runs))
        row(f"check_records over {min(replays, sizes[0]):,} records", f"{rate:,.0f} deals/s",
            f"goal >= {GOAL_REPLAYS:,}: {goal(rate >= GOAL_REPLAYS)}; {pinned}")
        unpin()

    one_job: dict[int, float] = {}
    if sections & {"memory", "jobs"}:
        print("\n== belote-ref replay as a whole process: peak memory and time")
        for size, path in files.items():
            seconds, peak, status, cpu = run_measured([*command, "replay", str(path)])
            one_job[size] = seconds
            row(f"replay {size:,} deals (status {status})", f"{peak:,.0f} MB",
                f"goal flat, < {GOAL_MEMORY_MB:.0f} MB: {goal(peak < GOAL_MEMORY_MB)}; {size / cpu:,.0f} deals per CPU s, "
                f"{size / seconds:,.0f} per wall s")
        if "memory" in sections and not args.quick:
            seconds, peak, status, cpu = run_measured([*command, "replay", "-"], stdin=files[sizes[0]])
            row(f"replay - < {sizes[0]:,} deals (status {status})", f"{peak:,.0f} MB",
                f"{sizes[0] / cpu:,.0f} deals per CPU s, {sizes[0] / seconds:,.0f} per wall s")

    if "jobs" in sections:
        print("\n== --jobs 2 (two processes over shards; wall time)")
        if replay_supports_jobs():
            size = sizes[0]
            seconds, peak, status, cpu = run_measured([*command, "replay", "--jobs", "2", str(files[size])])
            speedup = one_job[size] / seconds
            load = os.getloadavg()[0]
            row(f"replay --jobs 2, {size:,} deals (status {status})", f"x{speedup:.2f}",
                f"goal >= x{GOAL_SPEEDUP} on an idle machine: {goal(speedup >= GOAL_SPEEDUP)}; load average "
                f"{load:.2f} on {os.cpu_count()} CPU(s) (not idle: not a fair figure); {cpu:,.1f} CPU s")
        else:
            row("replay --jobs 2", "n/a", "this belote-ref has no `replay --jobs`")

    if "startup" in sections:
        print("\n== whole processes (median wall and CPU time; bytecode cached)")
        start_runs = max(runs, 5) * 2
        bare_wall, bare_cpu = process_ms([sys.executable, "-c", "pass"], start_runs)
        row("python -c pass", f"{bare_wall:,.0f} ms", f"CPU {bare_cpu:,.0f} ms")
        for label, arguments, stdin in (
                ("belote-ref --help", ["--help"], b""),
                ("belote-ref serve: hello, then stop", ["serve"],
                 (json.dumps(HELLO) + '\n{"cmd": "stop"}\n').encode())):
            wall, cpu = process_ms([*command, *arguments], start_runs, stdin)
            row(label, f"{wall:,.0f} ms",
                f"CPU {cpu:,.0f} ms: +{cpu - bare_cpu:,.0f} ms over python (wall +{wall - bare_wall:,.0f})"
                + (f"; goal <= +{GOAL_START_MS:.0f}: {goal(cpu - bare_cpu <= GOAL_START_MS)}" if arguments == ["--help"] else ""))
        wall, cpu = serve_hello_ms(start_runs)
        row("belote-ref serve, start to its hello reply", f"{wall:,.0f} ms",
            f"CPU {cpu:,.0f} ms: +{cpu - bare_cpu:,.0f} ms over python (wall +{wall - bare_wall:,.0f}); goal <= "
            f"+{GOAL_START_MS:.0f}: {goal(cpu - bare_cpu <= GOAL_START_MS)}")
        main_runs = 1 if args.quick else 3
        wall, cpu = process_ms([*command, "conformance", "run"], main_runs)
        row("belote-ref conformance run (the README's main job)", f"{wall / 1000:,.2f} s",
            f"median of {main_runs}; CPU {cpu / 1000:,.2f} s (the runner and its serve children)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
