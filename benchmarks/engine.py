"""Engine throughput: legal plays, random complete deals, validated replays of recorded deals.

Run ``python benchmarks/engine.py [--quick] [--runs K] [--seed N] [--cpu C]`` from the repository
root. Each figure is the median over ``--runs`` runs, on one core: the process is pinned to one
CPU when the platform allows it (``--cpu``, default the last CPU it may use). The targets are the
project's:

- ``legal_plays`` and ``legal_mask`` calls/s (>= 1,000,000): positions are pre-generated from a
  seeded :class:`random.Random`: a random deal of the 32 cards, a random trick of 0 to 3 cards
  taken from the other hands (any cards, not necessarily legal ones, which covers every rung), and
  the hand of the seat to play;
- random complete deals/s (>= 10,000): :func:`belote_ref.engine.simulate.random_deal` (shuffle, deal,
  random legal auction, belote and announcements, 32 random legal cards drawn in one loop by
  ``DealState.play_random``, scoring). Passed-out deals are not complete deals: their time is left out and
  they are not counted (their share is printed);
- validated replays/s (>= 20,000): a recorded deal as one JSON line, parsed
  (``records_from_json_lines``) and replayed (``replay``: every call and card checked, the deal
  scored, the recorded result compared). The parsing alone is timed too, to show its share.

The ratio replay / random deal is printed too: it cancels most of the machine's speed and noise
(a first prototype of the engine had about 2.3).

The bidding family (``ffb-contree-2016``, ``ffb-coinche-2015``): random complete deals/s (the
eight-card deal, a random auction of bids, coinche and surcoinche, 32 random legal cards, the
family's scoring) beside classic, the runs interleaved, each with its ratio to the classic ruleset
with the same announcements (contrée to ``classic``, coinche, which declares sequences and carrés,
to ``classic-annonces``); the target is a ratio of at least 0.8 (within 20%). Validated replays of contrée records too.

Contracts (``classic-sa-ta``): random complete deals/s with the auction fixed to one contract: a
suit taken in round one (eldest takes the turned card), a suit named in round two (four passes,
then eldest names hearts; the turned suit may be named, so that the call is always legal), and
sans-atout and tout-atout (four passes, then eldest names SA or TA); and ``legal_mask`` calls/s on
the same positions under each contract. The contracts' runs are interleaved. Each SA and TA figure
is printed with its ratio to the suit contract named in round two (the same five calls), and to
the round-one take; the target is a ratio of at least 0.8 (within 20%) to the former.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from belote_ref.core.cards import CARDS, CardSet, Seat, Suit, Trump  # noqa: E402
from belote_ref.engine.play import Trick, legal_mask, legal_plays  # noqa: E402
from belote_ref.records.record import records_from_json_lines, replay, write_record  # noqa: E402
from belote_ref.rules.ruleset import Ruleset, find_ruleset  # noqa: E402
from belote_ref.engine.simulate import random_deal  # noqa: E402

Position = tuple[Suit, CardSet, Trick]

TARGET_LEGAL = 1_000_000
TARGET_DEALS = 10_000
TARGET_REPLAYS = 20_000
TARGET_CONTRACT_RATIO = 0.8
DEAL_RULESETS = ("classic", "classic-annonces")
CONTRACT_RULESET = "classic-sa-ta"
#: The bidding family's rulesets, each timed beside the classic ruleset that plays the same
#: announcements (a ratio of at least 0.8, within 20%): contrée without, coinche with them.
FAMILY_RULESETS = {"ffb-contree-2016": "classic", "ffb-coinche-2015": "classic-annonces"}
#: The auction that fixes each contract: eldest takes in round one, or names SA or TA in round two.
CONTRACT_CALLS = {"suit, round 1": ["take"], "suit, round 2": ["pass"] * 4 + ["H"], "SA": ["pass"] * 4 + ["SA"],
                  "TA": ["pass"] * 4 + ["TA"]}
SUIT_BASE = "suit, round 2"


def pin_to_one_core(cpu: int | None) -> str:
    """Pin the process to ``cpu`` (default: the last CPU it may use); say which, or why not."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity on this platform)"
    allowed = os.sched_getaffinity(0)
    chosen = max(allowed) if cpu is None else cpu
    os.sched_setaffinity(0, {chosen})
    return f"pinned to CPU {chosen} (of {len(allowed)} allowed)"


# ---------------------------------------------------------------------------------- legal plays


def make_positions(count: int, seed: int = 1) -> list[Position]:
    """``count`` random positions (trump, hand of the seat to play, trick so far)."""
    rng = random.Random(seed)
    deck = list(range(32))
    positions: list[Position] = []
    for _ in range(count):
        rng.shuffle(deck)
        hands = [deck[8 * i : 8 * i + 8] for i in range(4)]
        leader = Seat(rng.randrange(4))
        played = rng.randrange(4)
        size = rng.randint(1, 8)  # cards left in the hand of the seat to play
        trick = tuple(CARDS[hands[(leader + i) & 3][0]] for i in range(played))
        hand = CardSet(hands[(leader + played) & 3][:size])
        positions.append((Suit(rng.randrange(4)), hand, Trick(leader, trick)))
    return positions


def mask_calls_per_second(rules: Ruleset, positions: list[Position], trump: int, runs: int) -> float:
    """The median ``legal_mask`` calls per second over ``runs`` passes on ``positions``, all under ``trump``."""
    masks = [(hand.mask, trick.leader, trick.cards) for _, hand, trick in positions]
    legal_mask(rules, trump, 1, Seat.N, (CARDS[8],))
    rates: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        for hand_mask, leader, cards in masks:
            legal_mask(rules, trump, hand_mask, leader, cards)
        rates.append(len(positions) / (time.perf_counter() - start))
    return statistics.median(rates)


def legal_calls_per_second(rules: Ruleset, positions: list[Position], runs: int) -> tuple[float, float]:
    """The median calls per second of (legal_plays, legal_mask) over ``runs`` passes on ``positions``."""
    masks = [(trump, hand.mask, trick.leader, trick.cards) for trump, hand, trick in positions]
    legal_mask(rules, Suit.S, 0, Seat.N, ())  # compile the ruleset's tables outside the timing
    legal_mask(rules, Suit.S, 1, Seat.N, (CARDS[8],))
    plays: list[float] = []
    fast: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        for trump, hand, trick in positions:
            legal_plays(rules, trump, hand, trick)
        plays.append(len(positions) / (time.perf_counter() - start))
        start = time.perf_counter()
        for trump, hand_mask, leader, cards in masks:
            legal_mask(rules, trump, hand_mask, leader, cards)
        fast.append(len(positions) / (time.perf_counter() - start))
    return statistics.median(plays), statistics.median(fast)


# ---------------------------------------------------------------------------------- whole deals


def random_deal_rate(rules: Ruleset, deals: int, seed: int, calls: list[str] | None = None) -> tuple[float, float]:
    """(complete deals per second, share of passed-out deals) for ``deals`` calls of random_deal
    (with the auction fixed to ``calls`` when given)."""
    rng = random.Random(seed)
    clock = time.perf_counter
    spent = 0.0
    complete = 0
    for _ in range(deals):
        start = clock()
        state = random_deal(rules, rng, calls=calls)
        elapsed = clock() - start
        if state.score is not None:
            spent += elapsed
            complete += 1
    return complete / spent, 1 - complete / deals


def recorded_lines(rules: Ruleset, count: int, seed: int) -> list[str]:
    """``count`` complete random deals as JSON lines (``write_record``), result included."""
    rng = random.Random(seed)
    lines: list[str] = []
    while len(lines) < count:
        state = random_deal(rules, rng)
        if state.score is not None:
            lines.append(write_record(state))
    return lines


def replay_rate(rules: Ruleset, lines: list[str]) -> float:
    """Validated replays per second: parse each line, replay it with every check, score it."""
    start = time.perf_counter()
    for line in lines:
        [record] = records_from_json_lines([line])
        report = replay(record)
        if not report.ok:
            raise AssertionError(f"a recorded random deal does not replay: {report.error} {report.mismatches}")
    return len(lines) / (time.perf_counter() - start)


def parse_rate(lines: list[str]) -> float:
    """Records parsed per second (``records_from_json_lines``, one line at a time), no replay."""
    start = time.perf_counter()
    for line in lines:
        records_from_json_lines([line])
    return len(lines) / (time.perf_counter() - start)


def median_of(runs: int, measure: Callable[[int], float]) -> float:
    """The median of ``measure(run)`` over ``runs`` runs."""
    return statistics.median(measure(run) for run in range(runs))


def verdict(value: float, target: float) -> str:
    return f"target >= {target:,.0f}: {'ok' if value >= target else 'BELOW TARGET'}"


def row(label: str, value: float, unit: str, note: str = "") -> None:
    figure = f"{value:,.2f}" if unit == "" else f"{value:,.0f}"
    print(f"{label:<46}{figure:>11} {unit:<8}  {note}".rstrip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a fast smoke run (small samples, 3 runs)")
    parser.add_argument("--runs", type=int, default=None, help="runs per figure; the median is printed (default 5, quick 3)")
    parser.add_argument("--calls", type=int, default=None, help="legal-play positions per run (default 200000, quick 20000)")
    parser.add_argument("--deals", type=int, default=None, help="random deals per run (default 5000, quick 500)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", type=int, default=None, help="CPU to pin the process to (default: the last allowed)")
    args = parser.parse_args(argv)
    runs = args.runs or (3 if args.quick else 5)
    calls = args.calls or (20_000 if args.quick else 200_000)
    deals = args.deals or (500 if args.quick else 5_000)

    print("command:", " ".join([Path(sys.executable).name, *sys.argv]))
    print(f"python {platform.python_version()} ({platform.python_implementation()}), {platform.machine()}, "
          f"{pin_to_one_core(args.cpu)}")
    print(f"medians of {runs} runs; {calls:,} positions, {deals:,} deals per run")
    print()

    classic = find_ruleset("classic")
    positions = make_positions(calls, args.seed)
    plays, fast = legal_calls_per_second(classic, positions, runs)
    row("legal_plays (classic)", plays, "calls/s", verdict(plays, TARGET_LEGAL))
    row("legal_mask (classic)", fast, "calls/s", verdict(fast, TARGET_LEGAL))

    for ruleset_id in DEAL_RULESETS:
        rules = find_ruleset(ruleset_id)
        random_deal(rules, random.Random(0))  # warm the compiled tables
        passed_out: list[float] = []

        def deal_run(run: int, rules: Ruleset = rules, passed_out: list[float] = passed_out) -> float:
            rate, share = random_deal_rate(rules, deals, args.seed + run)
            passed_out.append(share)
            return rate

        deal_rate = median_of(runs, deal_run)
        lines = recorded_lines(rules, deals, args.seed)
        replays = median_of(runs, lambda run, rules=rules, lines=lines: replay_rate(rules, lines))  # type: ignore[misc]
        parsed = median_of(runs, lambda run, lines=lines: parse_rate(lines))  # type: ignore[misc]
        print()
        row(f"random complete deals ({ruleset_id})", deal_rate, "deals/s",
            f"{verdict(deal_rate, TARGET_DEALS)} ({statistics.mean(passed_out):.0%} passed out, not counted)")
        row(f"validated replays ({ruleset_id})", replays, "deals/s", verdict(replays, TARGET_REPLAYS))
        row("  of which parsing alone", parsed, "records/s",
            f"({1e6 / parsed:.0f} us of the {1e6 / replays:.0f} us of a validated replay)")
        row(f"ratio replay / random deal ({ruleset_id})", replays / deal_rate, "")

    # The bidding family beside classic, runs interleaved as for the contracts below.
    family = {ruleset_id: find_ruleset(ruleset_id)
              for pair in FAMILY_RULESETS.items() for ruleset_id in pair}
    family_samples: dict[str, list[float]] = {ruleset_id: [] for ruleset_id in family}
    for rules in family.values():
        random_deal(rules, random.Random(0))  # warm the compiled tables
    for run in range(runs):
        for ruleset_id, rules in family.items():
            family_samples[ruleset_id].append(random_deal_rate(rules, deals, args.seed + run)[0])
    family_rates = {ruleset_id: statistics.median(values) for ruleset_id, values in family_samples.items()}
    print()
    print("the bidding family (coinche, contrée) beside classic, runs interleaved:")
    for ruleset_id, classic_id in FAMILY_RULESETS.items():
        ratio = family_rates[ruleset_id] / family_rates[classic_id]
        row(f"random complete deals ({ruleset_id})", family_rates[ruleset_id], "deals/s",
            f"x{ratio:.2f} of {classic_id} ({family_rates[classic_id]:,.0f}), target >= {TARGET_CONTRACT_RATIO}: "
            f"{'ok' if ratio >= TARGET_CONTRACT_RATIO else 'BELOW TARGET'}")
    contree = family["ffb-contree-2016"]
    lines = recorded_lines(contree, deals, args.seed)
    replays = median_of(runs, lambda run: replay_rate(contree, lines))
    row(f"validated replays ({contree.id})", replays, "deals/s", verdict(replays, TARGET_REPLAYS))

    contracts = Ruleset.from_parameters({**find_ruleset(CONTRACT_RULESET).params,
                                         "bidding.round2_allow_turnup_suit": True}, id=CONTRACT_RULESET)
    print()
    print(f"contracts under {CONTRACT_RULESET} (the auction fixed to each contract; any suit may be named in round 2):")
    mask_rates = {label: mask_calls_per_second(contracts, positions, trump, runs)
                  for label, trump in (("suit", Suit.H), ("SA", Trump.SA), ("TA", Trump.TA))}
    # The contracts' runs are interleaved (suit, SA, TA, suit, ...) so that a slow spell of the
    # machine weighs on each of them alike; the median of each contract's runs is printed.
    samples: dict[str, list[float]] = {label: [] for label in CONTRACT_CALLS}
    for label, calls in CONTRACT_CALLS.items():
        random_deal(contracts, random.Random(0), calls=calls)  # warm the compiled tables
    for run in range(runs):
        for label, calls in CONTRACT_CALLS.items():
            samples[label].append(random_deal_rate(contracts, deals, args.seed + run, calls)[0])
    deal_rates = {label: statistics.median(values) for label, values in samples.items()}
    base, take = deal_rates[SUIT_BASE], deal_rates["suit, round 1"]
    for label in CONTRACT_CALLS:
        note = "" if label.startswith("suit") else (
            f"x{deal_rates[label] / base:.2f} of the suit named in round 2 (x{deal_rates[label] / take:.2f} of the "
            f"round-1 take), target >= {TARGET_CONTRACT_RATIO}: "
            f"{'ok' if deal_rates[label] >= TARGET_CONTRACT_RATIO * base else 'BELOW TARGET'}")
        row(f"random complete deals ({label})", deal_rates[label], "deals/s", note)
    for label in mask_rates:
        note = "" if label == "suit" else f"x{mask_rates[label] / mask_rates['suit']:.2f} of suit"
        row(f"legal_mask ({label})", mask_rates[label], "calls/s", note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
