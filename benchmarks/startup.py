"""Start-up: the wall time of `belote-ref --help`, and of a `serve` child from its start to its reply to hello.

Run: python benchmarks/startup.py [--runs N] [--exe PATH] [--vs PATH]

``--exe`` is the ``belote-ref`` script to time (default: the one beside this Python); ``--vs`` a
second one (another checkout's install, say), timed in turn with the first, A B A B, so that the
ratio holds on a busy machine. Prints the median of each figure in milliseconds, and the ratios.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

HELLO = b'{"cmd":"hello","protocols":[1,2,3]}\n'


def help_time(exe: str) -> float:
    started = time.perf_counter()
    subprocess.run([exe, "--help"], capture_output=True, check=True, timeout=120)
    return time.perf_counter() - started


def hello_time(exe: str) -> float:
    started = time.perf_counter()
    child = subprocess.Popen([exe, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(HELLO)
    child.stdin.flush()
    reply = child.stdout.readline()
    elapsed = time.perf_counter() - started
    child.stdin.close()
    child.wait(timeout=120)
    assert reply.startswith(b'{"protocol":'), reply[:200]
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--exe", default=str(Path(sys.executable).with_name("belote-ref")))
    parser.add_argument("--vs", default=None)
    args = parser.parse_args()
    commands = [args.exe] + ([args.vs] if args.vs else [])
    figures: dict[tuple[str, str], list[float]] = {}
    for exe in commands:  # a warm-up each, which also fills the cache
        help_time(exe)
        hello_time(exe)
    for _ in range(args.runs):
        for exe in commands:
            figures.setdefault((exe, "help"), []).append(help_time(exe))
            figures.setdefault((exe, "hello"), []).append(hello_time(exe))
    for figure in ("help", "hello"):
        medians = [statistics.median(figures[exe, figure]) * 1000 for exe in commands]
        line = f"{figure:<6} " + "  ".join(f"{exe}: {median:.1f} ms" for exe, median in zip(commands, medians, strict=True))
        if args.vs:
            ratios = [a / b for a, b in zip(figures[args.exe, figure], figures[args.vs, figure], strict=True)]
            line += f"  ratio A/B (median of pairs) {statistics.median(ratios):.3f}"
        print(line)


if __name__ == "__main__":
    main()
