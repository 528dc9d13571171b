"""Differential check: colver against belote-ref on random positions (legal plays, trick winners).

    python conformance/adapters/colver/differential.py [--positions 50000] [--seed 5]

Random trumps, leaders, partial tricks and hands; each position is answered by the reference
(``belote_ref.protocol.run_case``) under the house rule rulesets/colver-play.yaml and by this
adapter in the same process. Prints the number of disagreements and the first one of each kind.
Needs colver and belote-ref installed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
from pathlib import Path

from belote_ref.conformance.corpus import compare_results
from belote_ref.protocol import run_case
from belote_ref.rules import load_ruleset

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("colver_adapter", HERE / "adapter.py")
assert _spec is not None and _spec.loader is not None
adapter = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(adapter)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", type=Path, default=HERE / "rulesets" / "colver-play.yaml")
    parser.add_argument("--positions", type=int, default=50000)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rules = load_ruleset(args.ruleset)
    rng = random.Random(args.seed)
    deck = [rank + suit for suit in "SHDC" for rank in "789TJQKA"]
    bad: dict[str, list[object]] = {"legal_plays": [], "trick_winner": []}
    for _ in range(args.positions):
        rng.shuffle(deck)
        trump, leader, played = rng.choice("SHDC"), rng.choice("NESW"), rng.randrange(4)
        seat = "NESW"[("NESW".index(leader) + played) % 4]
        given = {"trump": trump, "seat": seat, "hand": deck[played:played + rng.randint(1, 8)],
                 "trick": {"leader": leader, "cards": deck[:played]}}
        differences = compare_results("legal_plays", run_case(rules, "legal_plays", given), adapter.kind_legal_plays(given))
        if differences:
            bad["legal_plays"].append((given, differences))
        trick = {"trump": trump, "trick": {"leader": leader, "cards": deck[:4]}}
        differences = compare_results("trick_winner", run_case(rules, "trick_winner", trick), adapter.kind_trick_winner(trick))
        if differences:
            bad["trick_winner"].append((trick, differences))
    print(f"{rules.id}: {args.positions} random positions; disagreements: "
          + ", ".join(f"{kind} {len(items)}" for kind, items in bad.items()))
    for kind, items in bad.items():
        if items:
            print(kind, json.dumps(items[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
