"""Differential replay: random legal deals through belote-ref and through belote-cli, compared.

    python conformance/adapters/belote_cli/differential.py [--deals 30000] [--seed 99] [--positions 50000]

The corpus only reaches belote-cli's announcement comparison through deals where every
combination of every hand is declared (the engine declares them all itself), and few fixtures
are like that. This tool plays seeded random deals with belote-ref's simulator under the house
rule rulesets/belote-cli.yaml (every seat declares every combination, as belote-cli does),
replays each one through the reference (``belote_ref.protocol.serve.run_case``) and through this
adapter's ``kind_replay`` in the same process, and prints the deals where they disagree, grouped
by the fields that differ and by the situation behind it; then it compares ``legal_plays`` and
``trick_winner`` on random positions. Needs belote-cli and belote-ref installed. README.md
explains what it finds.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Any

from belote_ref.conformance.corpus import compare_results
from belote_ref.engine.deal import Phase
from belote_ref.protocol.serve import run_case
from belote_ref.records.record import record_of
from belote_ref.rules.ruleset import load_ruleset
from belote_ref.engine.simulate import random_deals

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("belote_cli_adapter", HERE / "adapter.py")
assert _spec is not None and _spec.loader is not None
adapter = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(adapter)

NATURAL = "789TJQKA"


def replay_given(state: Any) -> dict[str, Any]:
    record = record_of(state)
    return {"dealer": record["dealer"], "hands": record["hands"], "turned": record["turned"],
            "completion": record.get("completion"), "calls": record["calls"],
            "announcements": record.get("announcements", []), "belote": record.get("belote"),
            "plays": [card for trick in record.get("tricks", []) for card in trick["cards"]], "pot": record.get("pot", 0)}


def situation(given: dict[str, Any], want: dict[str, Any]) -> list[str]:
    """What, in the deal, the engines may read differently (labels for the README's classes)."""
    if want.get("trump") == "SA":  # every score at SA differs: README "Sans-atout and tout-atout"
        return ["sans-atout (sans_atout.card_points, sans_atout.carres)"]
    if want.get("trump") == "TA":
        return ["tout-atout (tout_atout.scale_to, tout_atout.belote)"]
    hands = {}
    for seat in "NESW":
        hand = set(given["hands"][seat]) | set(given["completion"][seat])
        if seat == want.get("taker"):
            hand.add(given["turned"])
        hands[seat] = hand
    labels = []
    for seat in "NESW":
        for rank in "78":
            if all(rank + suit in hands[seat] for suit in "SHDC"):
                labels.append("carre of 7s or 8s (worth 0) in a hand")
        for suit in "SHDC":
            run = best = 0
            for rank in NATURAL:
                run = run + 1 if rank + suit in hands[seat] else 0
                best = max(best, run)
            if best >= 6:
                labels.append("a run of 6+ cards")
    declared = given["announcements"]
    if not any(d["kind"] == "carre" and d["cards"][0][0] not in "78" for d in declared):
        def strength(d: dict[str, Any]) -> tuple[int, int, bool]:
            value = {"tierce": 20, "quarte": 50, "quinte": 100}[d["kind"]]
            return value, max(NATURAL.index(c[0]) for c in d["cards"]), d["cards"][0][1] == want["trump"]
        ns = [strength(d) for d in declared if d["kind"] != "carre" and d["seat"] in "NS"]
        ew = [strength(d) for d in declared if d["kind"] != "carre" and d["seat"] in "EW"]
        if ns and ew and max(ns) == max(ew):
            labels.append("equal best sequences (announcements.final_tie)")
    return sorted(set(labels)) or ["unexplained"]


def replays(rules_path: Path, seed: int, count: int) -> None:
    rules = load_ruleset(rules_path)
    params = dict(rules.params)
    groups: dict[tuple[Any, ...], list[Any]] = collections.defaultdict(list)
    compared = 0
    for state in random_deals(rules, seed, count):
        if state.phase is not Phase.SCORED:
            continue
        given = replay_given(state)
        want = run_case(rules, "replay", given)
        try:
            got = adapter.kind_replay(params, given)
        except adapter.CannotExpress:
            continue
        compared += 1
        differences = compare_results("replay", want, got)
        if differences:
            fields = tuple(sorted({line.split(":")[0] for line in differences}))
            groups[(tuple(situation(given, want)), fields)].append((given, differences))
    print(f"{rules.id}: {compared} scored deals replayed, {sum(len(v) for v in groups.values())} disagree")
    for (labels, fields), items in sorted(groups.items(), key=lambda item: -len(item[1])):
        print(f"\n{len(items):5}  {' + '.join(labels)}  (differ: {', '.join(fields)})")
        given, differences = items[0]
        print("       e.g. " + json.dumps(given, separators=(",", ":")))
        for line in differences:
            print("       " + line)


def play_given(state: Any) -> dict[str, Any]:
    """The deal as a ``play`` case: the 8-card hands, the contract, eldest to lead, every legal set asked."""
    record = record_of(state)
    return {"hands": {seat.name: state.full_hands[seat].tokens() for seat in state.full_hands},
            "contract": {"trump": state.trump.letter, "taker": state.taker.name},
            "leader": record["tricks"][0]["leader"], "plays": [card for trick in record["tricks"] for card in trick["cards"]],
            "belote": record.get("belote"), "announcements": record.get("announcements", []), "want_legal": True,
            "pot": record.get("pot", 0)}


def plays(rules_path: Path, seed: int, count: int) -> None:
    """Whole deals as ``play`` cases (protocol 2): trick winners and the legal set of every turn,
    then the score, compared field by field; under SA and TA as well when the ruleset bids them."""
    rules = load_ruleset(rules_path)
    params = dict(rules.params)
    compared, skipped = collections.Counter(), collections.Counter()
    bad: dict[tuple[str, str], list[Any]] = collections.defaultdict(list)
    for state in random_deals(rules, seed, count):
        if state.phase is not Phase.SCORED:
            continue
        given = play_given(state)
        contract = given["contract"]["trump"] if given["contract"]["trump"] in ("SA", "TA") else "suit"
        want = run_case(rules, "play", given)
        try:
            got = adapter.kind_play(params, given)
        except adapter.CannotExpress:
            skipped[contract] += 1
            continue
        compared[contract] += 1
        if "rejected" in want or "rejected" in got:
            differences = compare_results("play", want, got)
            if differences:
                bad[(contract, "rejection")].append((given, differences))
            continue
        for part in ("trick_winners", "legal"):
            differences = compare_results("play", {part: want.get(part)}, {part: got.get(part)})
            if differences:
                bad[(contract, part)].append((given, differences))
        differences = compare_results("score", want["score"], got["score"])
        if differences:  # grouped by the score's fields that differ
            fields = ", ".join(sorted({line.split(":")[0] for line in differences}))
            bad[(contract, f"score ({fields})")].append((given, differences))
    print(f"\n{rules.id}: whole deals (play) compared {dict(compared)}, not expressible {dict(skipped)}")
    for (contract, part), items in sorted(bad.items()):
        print(f"{len(items):5}  {contract}: {part} differs")
        given, differences = items[0]
        print("       e.g. " + json.dumps(given, separators=(",", ":")))
        for line in differences[:3]:
            print("       " + line[:300])


def positions(rules_path: Path, seed: int, count: int) -> None:
    rules = load_ruleset(rules_path)
    params = dict(rules.params)
    rng = random.Random(seed)
    deck = [rank + suit for suit in "SHDC" for rank in "789TJQKA"]
    bad = collections.Counter()
    for _ in range(count):
        rng.shuffle(deck)
        trump, leader, played = rng.choice(["S", "H", "D", "C", "SA", "TA"]), rng.choice("NESW"), rng.randrange(4)
        seat = "NESW"[("NESW".index(leader) + played) % 4]
        given = {"trump": trump, "seat": seat, "hand": deck[played:played + rng.randint(1, 8)],
                 "trick": {"leader": leader, "cards": deck[:played]}}
        if compare_results("legal_plays", run_case(rules, "legal_plays", given), adapter.kind_legal_plays(params, given)):
            bad["legal_plays"] += 1
        trick = {"trump": trump, "trick": {"leader": leader, "cards": deck[:4]}}
        want, got = run_case(rules, "trick_winner", trick), adapter.kind_trick_winner(params, trick)
        if trump == "SA":  # the points differ by sans_atout.card_points (README): the winner only
            want, got = {"winner": want["winner"]}, {"winner": got["winner"]}
        if compare_results("trick_winner", want, got):
            bad["trick_winner"] += 1
    print(f"\n{rules.id}: {count} random positions (suits, SA and TA), disagreements: {dict(bad) or 'none'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", type=Path, default=HERE / "rulesets" / "belote-cli.yaml")
    parser.add_argument("--deals", type=int, default=30000)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--positions", type=int, default=50000)
    parser.add_argument("--only", choices=["replays", "plays", "positions"], help="run one of the three checks")
    args = parser.parse_args()
    if args.only:
        {"replays": replays, "plays": plays, "positions": positions}[args.only](
            args.ruleset, args.seed, args.positions if args.only == "positions" else args.deals)
        return 0
    replays(args.ruleset, args.seed, args.deals)
    plays(args.ruleset, args.seed, args.deals)
    positions(args.ruleset, args.seed, args.positions)
    return 0


if __name__ == "__main__":
    sys.exit(main())
