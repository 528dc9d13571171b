"""Differential check: colver against belote-ref on random positions and on random whole deals.

    python conformance/adapters/colver/differential.py [--positions 50000] [--deals 20000] [--family-deals 5000] [--seed 5]

Random trumps, leaders, partial tricks and hands; each position is answered by the reference
(``belote_ref.protocol.serve.run_case``) under the house rule rulesets/colver-play.yaml and by this
adapter in the same process. Then random legal deals of belote-ref's simulator under the same
house rule are played through colver card by card (the adapter's ``play_through``, as the
``play`` kind does), and compared with the reference's ``play`` result: every turn's legal set,
every trick's winner, and colver's card points (``Env.get_points``, dix de der included) with the
reference's ``card_points``. colver's score itself is a contrée score and is not compared there.
Last, random deals of the bidding family (protocol 3) under rulesets/colver-contree.yaml: every
prefix of each auction (``auction``), and each deal played out as ``play`` and scored as
``score``, colver's whole answer against the reference's.
Prints the number of disagreements and the first one of each kind. Needs colver and belote-ref.
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
from belote_ref.rules.ruleset import Ruleset, load_ruleset
from belote_ref.engine.simulate import random_deals

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("colver_adapter", HERE / "adapter.py")
assert _spec is not None and _spec.loader is not None
adapter = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(adapter)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", type=Path, default=HERE / "rulesets" / "colver-play.yaml")
    parser.add_argument("--positions", type=int, default=50000)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--family-ruleset", type=Path, default=HERE / "rulesets" / "colver-contree.yaml")
    parser.add_argument("--family-deals", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rules = load_ruleset(args.ruleset)
    positions(rules, args.positions, args.seed)
    deals(rules, args.deals, args.seed)
    family(load_ruleset(args.family_ruleset), args.family_deals, args.seed)
    return 0


def family(rules: Ruleset, count: int, seed: int) -> None:
    """Random deals of the bidding family (protocol 3) under rulesets/colver-contree.yaml: every
    prefix of each auction, then the deal as a ``play`` case and as a ``score`` case, colver's
    answers against the reference's, grouped by the fields that differ."""
    counts: collections.Counter[str] = collections.Counter()
    groups: dict[tuple[str, str], list[object]] = collections.defaultdict(list)
    for state in random_deals(rules, seed, count):
        record = record_of(state)
        calls = record["calls"]
        for end in range(len(calls) + 1):
            given = {"dealer": record["dealer"], "calls": calls[:end]}
            want = run_case(rules, "auction", given)
            try:
                got = adapter.kind_auction(given)
            except adapter.CannotExpress:
                counts["auction skipped (four passes: no next dealer)"] += 1
                assert want.get("status") == "redeal", (given, want)
                continue
            counts["auction"] += 1
            if got != want:
                groups[("auction", ", ".join(sorted(set(want) ^ set(got)) or ["status"]))].append((given, want, got))
        if state.phase is not Phase.SCORED:
            continue
        plays = [card for trick in record["tricks"] for card in trick["cards"]]
        replayed = run_case(rules, "replay", {"dealer": record["dealer"], "hands": record["hands"], "calls": calls,
                                              "belote": record["belote"], "announcements": [], "plays": plays})
        contract = {"trump": replayed["trump"], "taker": replayed["taker"], "bid": replayed["bid"]}
        cases = {
            "play": {"hands": record["hands"], "contract": contract, "leader": record["tricks"][0]["leader"],
                     "plays": plays, "belote": record["belote"], "want_legal": True},
            "score": {"dealer": record["dealer"], "taker": replayed["taker"], "trump": replayed["trump"],
                      "bid": replayed["bid"], "tricks": record["tricks"], "belote": record["belote"]},
        }
        for kind, given in cases.items():
            want = run_case(rules, kind, given)
            try:
                got = getattr(adapter, f"kind_{kind}")(given, family=True)
            except adapter.CannotExpress:
                counts[f"{kind} skipped"] += 1
                continue
            counts[kind] += 1
            score_want, score_got = (want.get("score", want), got.get("score", got))
            differing = sorted(k for k in set(score_want) | set(score_got) if score_want.get(k) != score_got.get(k))
            differing += [k for k in ("trick_winners", "legal") if kind == "play" and want.get(k) != got.get(k)]
            if differing:
                groups[(kind, ", ".join(differing))].append((given, score_want, score_got))
    print(f"{rules.id}: " + ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items()))
          + f"; disagreements: {sum(len(v) for v in groups.values())}")
    for (kind, fields), items in sorted(groups.items(), key=lambda item: -len(item[1])):
        given, want, got = items[0]
        print(f"{len(items):6}  {kind}: {fields} differ; e.g. {json.dumps(given, separators=(',', ':'))}")
        for field in fields.split(", "):
            print(f"        {field}: expected {json.dumps(want.get(field))}, got {json.dumps(got.get(field))}")


def deals(rules: Ruleset, count: int, seed: int) -> None:
    compared = damaged_count = 0
    rng = random.Random(seed)
    bad: dict[str, list[object]] = {"legal": [], "trick_winners": [], "card_points": [], "rejected": [], "damaged": []}
    # A simulated deal is legal for the reference: a rejection by colver is a disagreement.
    for state in random_deals(rules, seed, count):
        if state.phase is not Phase.SCORED:
            continue
        record = record_of(state)
        given = {"hands": {seat.name: state.full_hands[seat].tokens() for seat in state.full_hands},
                 "contract": {"trump": state.trump.letter, "taker": state.taker.name},
                 "leader": record["tricks"][0]["leader"],
                 "plays": [card for trick in record["tricks"] for card in trick["cards"]],
                 "belote": record.get("belote"), "want_legal": True, "pot": record.get("pot", 0)}
        want = run_case(rules, "play", given)
        env, rejected, legal, winners = adapter.play_through(given)
        compared += 1
        if rejected is not None:
            bad["rejected"].append((given, rejected))
            continue
        ns, ew = env.get_points()
        got = {"legal": legal, "trick_winners": winners, "card_points": {"NS": ns, "EW": ew}}
        for part in bad:
            expected = want["score"]["card_points"] if part == "card_points" else want.get(part)
            if part in got and got[part] != expected:
                bad[part].append((given, {"expected": expected, "got": got[part]}))
        # The same deal damaged at one turn: a card the rules forbid there, or one the seat does not
        # hold; the play kind's rejection (code and index) must be the reference's.
        turn = rng.randrange(32)
        seat = "NESW".index(_seat_of(given, turn))
        allowed = set(legal[turn])
        forbidden = [card for card in given["hands"]["NESW"[seat]] if card not in allowed]
        damaged = dict(given, want_legal=False, plays=list(given["plays"]))
        if forbidden and rng.random() < 0.5:
            damaged["plays"][turn] = rng.choice(forbidden)
        else:
            damaged["plays"][turn] = rng.choice([c for c in given["plays"][:turn] or given["hands"]["NESW"[(seat + 1) % 4]]])
        damaged_count += 1
        expected_rejection = run_case(rules, "play", damaged)
        try:
            got_rejection = adapter.kind_play(damaged)
        except adapter.CannotExpress as error:
            got_rejection = {"skipped": str(error)}
        if got_rejection != expected_rejection:
            bad["damaged"].append((damaged, {"expected": expected_rejection, "got": got_rejection}))
    print(f"{rules.id}: {compared} random whole deals played through colver, {damaged_count} damaged at one "
          "turn (play kind's rejections); disagreements: "
          + ", ".join(f"{part} {len(items)}" for part, items in bad.items()))
    for part, items in bad.items():
        if items:
            print(part, json.dumps(items[0]))


def _seat_of(given: dict[str, Any], turn: int) -> str:
    """The seat that played ``plays[turn]``: the hand that held it."""
    card = given["plays"][turn]
    return next(seat for seat, cards in given["hands"].items() if card in cards)


def positions(rules: Ruleset, count: int, seed: int) -> None:
    rng = random.Random(seed)
    deck = [rank + suit for suit in "SHDC" for rank in "789TJQKA"]
    bad: dict[str, list[object]] = {"legal_plays": [], "trick_winner": []}
    for _ in range(count):
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
    print(f"{rules.id}: {count} random positions; disagreements: "
          + ", ".join(f"{kind} {len(items)}" for kind, items in bad.items()))
    for kind, items in bad.items():
        if items:
            print(kind, json.dumps(items[0]))


if __name__ == "__main__":
    sys.exit(main())
