"""Throughput of :func:`~belote_ref.play.legal_plays` and :func:`~belote_ref.play.legal_mask`.

Run ``python benchmarks/bench_legal.py [--calls N] [--runs K] [--ruleset ID]``. Positions are
pre-generated from a seeded :class:`random.Random`: a random deal of the 32 cards, a random trick
of 0 to 3 cards played from the other hands (any cards, not necessarily legal ones, which covers
every rung), and the hand of the seat to play. Prints the median calls per second over the runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from belote_ref.cards import CARDS, CardSet, Seat, Suit  # noqa: E402
from belote_ref.play import Trick, legal_mask, legal_plays  # noqa: E402
from belote_ref.rules import Ruleset, find_ruleset  # noqa: E402

Position = tuple[Suit, CardSet, Trick]


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


def calls_per_second(rules: Ruleset, positions: list[Position], runs: int = 5) -> tuple[float, float]:
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--calls", type=int, default=200_000, help="positions per run (default 200000)")
    parser.add_argument("--runs", type=int, default=5, help="runs; the median is printed (default 5)")
    parser.add_argument("--ruleset", default="classic", help="shipped ruleset id (default classic)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rules = find_ruleset(args.ruleset)
    positions = make_positions(args.calls, args.seed)
    plays, fast = calls_per_second(rules, positions, args.runs)
    print(f"ruleset {rules.id}: {args.calls} positions, median of {args.runs} runs")
    print(f"legal_plays: {plays:12,.0f} calls/s")
    print(f"legal_mask:  {fast:12,.0f} calls/s")


if __name__ == "__main__":
    main()
