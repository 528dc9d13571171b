"""Published engines under test: the adapters of conformance/adapters/ run through the runner.

Each engine is an optional dependency (``pip install .[peers]``); its tests skip, saying why,
when it is not installed. The known failures are the exact fixture ids that the committed report
(conformance/reports/<name>-<version>.jsonl) lists and the adapter's README explains: a change in
the engine, the adapter or those fixtures shows up here as a changed set.
"""

from __future__ import annotations

import json
import sys
from importlib import metadata
from pathlib import Path

import pytest

from belote_ref.conformance.adapter import open_adapter
from belote_ref.conformance.corpus import load_corpus
from belote_ref.conformance.runner import RunOptions, build_cases, hello_message, run_cases
from belote_ref.engine.deal import Phase
from belote_ref.engine.simulate import random_deals
from belote_ref.protocol.serve import run_case
from belote_ref.records.record import record_of
from belote_ref.rules.ruleset import Ruleset, find_ruleset, load_ruleset, shipped_rulesets

ROOT = Path(__file__).resolve().parent.parent
ADAPTERS = ROOT / "conformance" / "adapters"
REPORTS = ROOT / "conformance" / "reports"


def installed(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


PEERS = {
    # adapter folder: (PyPI distribution, pinned version, house rulesets, known failures as (fixture id, a ruleset
    # id where it fails)); the fixture's derived cases and the other rulesets that reach it fail the same way.
    "belote_cli": ("belote-cli", "4.9.6", ["belote-cli", "belote-cli-no-announcements"], {
        # Dealt one card at a time, always from SOUTH (belote.deck.deal); README "deal".
        *((fixture, ruleset) for ruleset in ("belote-cli", "belote-cli-no-announcements") for fixture in (
            "deal.bids-engine.index-order-deck",
            "deal.bids.dealer-e-index-order-deck",
            "deal.bids.dealer-n-index-order-deck",
            "deal.bids.dealer-s-index-order-deck",
            "deal.bids.dealer-w-index-order-deck",
            "deal.completion.dealer-takes",
            "deal.completion.dealer-takes-in-round-2-by-the-calls",
            "deal.completion.eldest-takes",
            "deal.completion.index-deck-dealer-takes",
            "deal.completion.seat-before-dealer-takes",
            "deal.completion.second-speaker-takes",
            "deal.packets.dealer-e-shuffled-deck",
            "deal.packets.dealer-n-shuffled-deck",
            "deal.packets.dealer-s-shuffled-deck",
            "deal.packets.dealer-w-shuffled-deck",
            "deal.packets.index-order-deck",
            "deal.completion.dealer-takes-round2-one-card-at-a-time",
            "deal.completion.eldest-takes-tout-atout-one-card-at-a-time",
            "deal.completion.round2-taker-one-card-at-a-time",
        )),
        # Carrés of 7s and 8s detected as combinations worth 0 (belote.scoring.detect_carres).
        ("announcements.carres.four-eights-are-nothing", "belote-cli"),
        ("announcements.carres.four-eights-leave-the-tierce-whole", "belote-cli"),
        ("announcements.carres.four-sevens-are-nothing", "belote-cli"),
        ("announcements.carres.four-sevens-never-listed-even-with-reuse", "belote-cli"),
        ("announcements.tout-atout.four-eights-nothing-a-quarte-stays", "belote-cli"),
        # Equal best sequences: the tie goes to the first declarer counted from the taker, not from
        # eldest (belote.scoring.resolve_declarations, seat_order = (taker, ...)).
        ("score.announcements.equal-tierces-first-declarer-from-eldest", "belote-cli"),
        # One card in a carré and a sequence: detect_sequences and detect_carres run apart on the
        # same hand, against the federation's rule (announcements.card_reuse: forbidden); README 4.
        ("announcements.reuse.carre-of-kings-and-quarte", "belote-cli"),
        ("announcements.reuse.carre-of-tens-cuts-the-run", "belote-cli"),
        ("announcements.reuse.equal-points-keep-the-carre", "belote-cli"),
        ("announcements.tout-atout.four-aces-100-and-the-spade-tierce", "belote-cli"),
        ("announcements.tout-atout.four-jacks-200-cut-a-quinte", "belote-cli"),
        ("announcements.tout-atout.four-nines-150-and-a-diamond-run", "belote-cli"),
        # place_bid accepts a suit other than the turned card's in round 1 and the turned suit in
        # round 2, against its own docstring and rules text; README 5.
        *((fixture, ruleset) for ruleset in ("belote-cli", "classic") for fixture in (
            "auction.illegal.suit-in-round-1",
            "auction.illegal.take-in-round-2",
            "auction.round2.dealer-names-turned-suit",
            "auction.round2.turned-suit",
        )),
        # Belote left out of the contract test (scoring.py comp_taker = taker_card_pts +
        # taker_declarations), against its rules text and the federation's count_belote both_sides;
        # where it makes a litige, the belote left out of the pot too. README 6.
        ("replay.regression.classic-annonces.04", "classic-annonces"),
        ("replay.regression.strict-1001.19", "strict-1001"),
        ("score.announcements.belote-is-not-an-announcement", "belote-cli"),
        ("score.belote.81-81-with-defenders-belote", "belote-cli"),
        ("score.belote.automatic-unannounced-defenders-belote", "belote-cli"),
        ("score.belote.count-belote-defenders-belote-takers-90", "belote-cli"),
        ("score.belote.defenders-belote-untouched-by-on-chute", "belote-cli"),
        ("score.belote.king-first-decides-the-contract", "belote-cli"),
        ("score.belote.no-belote-takers-king-and-queen", "belote-cli-no-announcements"),
        ("score.contract.72-with-belote-makes-92", "belote-cli"),
        ("score.contract.82-made-against-defenders-belote", "belote-cli"),
        ("score.contract.90-down-against-defenders-belote", "belote-cli"),
        ("score.litige.91-91-defenders-belote", "belote-cli"),
        ("score.litige.91-91-takers-belote", "belote-cli"),
        ("score.litige.91-91-takers-belote-kept-out-of-pot", "belote-cli"),
        ("score.litige.pot-follows-the-contract-test", "belote-cli"),
        ("score.litige.second-litige-takers-belote", "belote-cli"),
        ("score.rounding.95-87-with-belote", "belote-cli"),
    }),
    "colver": ("colver", "0.11.1", ["colver-contree", "colver-play"], set()),
}


def house_rulesets(folder: str) -> dict[str, Ruleset]:
    return {path.stem: load_ruleset(path) for path in sorted((ADAPTERS / folder / "rulesets").glob("*.yaml"))}


def command(folder: str) -> str:
    return f"{sys.executable} {ADAPTERS / folder / 'adapter.py'}"


def report_path(folder: str) -> Path:
    distribution, version, _, _ = PEERS[folder]
    return REPORTS / f"{distribution}-{version}.jsonl"


def needs(folder: str) -> pytest.MarkDecorator:
    distribution, version, _, _ = PEERS[folder]
    found = installed(distribution)
    return pytest.mark.skipif(
        found != version,
        reason=f"{distribution}=={version} is not installed (found {found}); pip install '.[peers]'",
    )


@pytest.mark.parametrize("folder", sorted(PEERS))
def test_committed_report_names_the_engine_and_its_known_failures(folder: str) -> None:
    """The committed report is the one the README explains: its header names the implementation
    and version, and its failures are exactly the known ones (no package needed)."""
    distribution, version, _, known = PEERS[folder]
    lines = [json.loads(line) for line in report_path(folder).read_text(encoding="utf-8").splitlines() if line.strip()]
    header = lines[0]
    assert header["type"] == "header"
    assert header["adapter"]["name"] == distribution and header["adapter"]["version"] == version
    failed = {fixture_of(line["id"]) for line in lines if line.get("type") == "case"
              and line["outcome"] in ("fail", "error", "crash", "timeout")}
    assert failed == {fixture for fixture, _ in known}


def fixture_of(case_id: str) -> str:
    """The fixture a case comes from: a derived case (``@trump=S``, ``#...``) fails with its fixture."""
    return case_id.split("@", 1)[0].split("#", 1)[0]


def _subset(folder: str, controls_per_kind: int = 3) -> list:
    """The known failures, and a few passing cases of every kind as controls."""
    _, _, house, known = PEERS[folder]
    rulesets = [find_ruleset(r) for r in shipped_rulesets()] + list(house_rulesets(folder).values())
    assert {r.id for r in rulesets} >= set(house)
    cases = build_cases(load_corpus(), rulesets)
    passed = {}
    for line in report_path(folder).read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        if item.get("type") == "case" and item["outcome"] == "pass":
            passed.setdefault(item["kind"], []).append((item["id"], item["ruleset"]))
    controls = {key for keys in passed.values() for key in keys[:controls_per_kind]}
    chosen = [case for case in cases if (case.id, case.ruleset.id) in controls
              or (case.fixture.id, case.ruleset.id) in known]
    missing = (known | controls) - {(case.id, case.ruleset.id) for case in chosen}
    assert not missing, f"fixtures of the committed report are gone from the corpus: {sorted(missing)}"
    return chosen


def _run(folder: str) -> dict[tuple[str, str], str]:
    cases = _subset(folder)
    hello, results = run_cases(lambda: open_adapter(command(folder), 20), cases, RunOptions(timeout=20))
    distribution, version, _, _ = PEERS[folder]
    assert hello["implementation"]["name"] == distribution and hello["implementation"]["version"] == version
    return {(r.case.id, r.case.ruleset.id): r.outcome for r in results}


def failing_fixtures(outcomes: dict[tuple[str, str], str]) -> set[str]:
    """The fixtures with a bad outcome (a control that a later dependency makes n/a is not one)."""
    return {fixture_of(case_id) for (case_id, _), outcome in outcomes.items()
            if outcome in ("fail", "error", "crash", "timeout")}


@needs("belote_cli")
def test_belote_cli_known_failures_are_still_the_ones_found() -> None:
    outcomes = _run("belote_cli")
    known = PEERS["belote_cli"][3]
    assert failing_fixtures(outcomes) == {fixture for fixture, _ in known}
    assert {outcome for (case_id, ruleset), outcome in outcomes.items()
            if (fixture_of(case_id), ruleset) in known and "@" not in case_id} == {"fail"}


@needs("colver")
def test_colver_known_failures_are_still_the_ones_found() -> None:
    outcomes = _run("colver")
    assert outcomes and failing_fixtures(outcomes) == {fixture for fixture, _ in PEERS["colver"][3]}


@needs("belote_cli")
def test_belote_cli_claims_the_rules_its_documentation_promises() -> None:
    """belote-cli's README promises the federation's rules and its own texts name no other value of
    these parameters: the adapter claims the federation's values (those of classic-annonces), so
    that the report shows the engine's departures from them as failures, not hidden by claims."""
    adapter = open_adapter(command("belote_cli"), 20)
    adapter.start()
    try:
        parameters = adapter.request(hello_message())["supports"]["parameters"]
    finally:
        adapter.stop()
    federation = find_ruleset("classic-annonces")
    for parameter_id in ("scoring.contract.count_belote", "announcements.card_reuse", "announcements.carre_order",
                         "scoring.litige.belote", "scoring.litige.on_final_deal"):
        assert parameters[parameter_id] == [federation[parameter_id]], parameter_id


@needs("belote_cli")
def test_belote_cli_declines_what_it_cannot_express() -> None:
    """An inconsistent deal (a card played twice): belote-cli has no rejection, so the case is skipped, saying why."""
    cases = [case for case in build_cases(load_corpus(), list(house_rulesets("belote_cli").values()))
             if case.fixture.id == "score.cards.duplicate-card-within-a-trick"]
    assert cases
    _, results = run_cases(lambda: open_adapter(command("belote_cli"), 20), cases, RunOptions(timeout=20))
    assert {r.outcome for r in results} == {"skip"}
    assert all("no rejection" in r.message for r in results)


def play_cases(rules: Ruleset, seed: int, count: int) -> list[dict]:
    """Whole deals of belote-ref's simulator as ``play`` givens (every legal set asked)."""
    givens = []
    for state in random_deals(rules, seed, count):
        if state.phase is not Phase.SCORED:
            continue
        record = record_of(state)
        givens.append({"hands": {seat.name: state.full_hands[seat].tokens() for seat in state.full_hands},
                       "contract": {"trump": state.trump.letter, "taker": state.taker.name},
                       "leader": record["tricks"][0]["leader"],
                       "plays": [card for trick in record["tricks"] for card in trick["cards"]],
                       "belote": record["belote"], "announcements": record["announcements"], "want_legal": True,
                       "pot": record["pot"]})
    return givens


def ask(folder: str, rules: Ruleset, givens: list[dict]) -> list[dict]:
    """Each given sent as a ``play`` run message to the adapter, after its hello; the replies."""
    adapter = open_adapter(command(folder), 60)
    adapter.start()
    try:
        hello = adapter.request(hello_message())
        assert hello["protocol"] in (2, 3) and "play" in hello["supports"]["kinds"]
        return [adapter.request({"cmd": "run", "seq": seq, "kind": "play", "ruleset": rules.to_json(), "given": given})
                for seq, given in enumerate(givens)]
    finally:
        adapter.stop()


@needs("belote_cli")
def test_belote_cli_plays_whole_deals_at_every_contract() -> None:
    """The play kind through belote-cli agrees with the reference on every trick winner and every
    legal set at suit, SA and TA contracts; its score departs only at SA and TA, by the variant
    choices its README names: the plain card points at SA (a deal of 130) and TA's raw 258."""
    rules = house_rulesets("belote_cli")["belote-cli"]
    givens = play_cases(rules, seed=7, count=400)
    replies = ask("belote_cli", rules, givens)
    seen = set()
    for given, reply in zip(givens, replies, strict=True):
        trump = given["contract"]["trump"]
        if "skipped" in reply:
            # A belote at TA, which belote-cli does not have; or a hand whose card serves in two
            # combinations, which belote-cli declares twice (README, failure 4).
            assert (trump == "TA" and given["belote"] and "no belote" in reply["reason"]) or \
                "declares every combination of every hand automatically" in reply["reason"], reply
            continue
        want, got = run_case(rules, "play", given), reply["result"]
        assert (got["trick_winners"], got["legal"]) == (want["trick_winners"], want["legal"])
        contract = trump if trump in ("SA", "TA") else "suit"
        seen.add(contract)
        if contract != "suit" and got["score"]["capot"] is None:
            assert sum(got["score"]["card_points"].values()) == {"SA": 130, "TA": 258}[contract]
    assert seen == {"suit", "SA", "TA"}


@needs("colver")
def test_colver_play_rejects_what_it_refuses_and_skips_the_score() -> None:
    """colver plays whole deals: a deal damaged at one turn is rejected exactly as the reference
    rejects it (code and index); a deal played out is skipped, its score being contrée's."""
    rules = house_rulesets("colver")["colver-play"]
    givens = [dict(given, announcements=[]) for given in play_cases(rules, seed=11, count=30)]
    damaged = []
    for index, given in enumerate(givens):
        plays = list(given["plays"])
        turn = 5 + index % 20
        plays[turn] = plays[turn - 4] if index % 2 else next(  # a card played already, or one the rules forbid
            (card for card in given["hands"][seat_of(given, turn)] if card not in
             run_case(rules, "play", given)["legal"][turn]), plays[turn - 4])
        damaged.append(dict(given, plays=plays, want_legal=False))
    replies = ask("colver", rules, givens + damaged)
    for reply in replies[:len(givens)]:
        assert reply.get("skipped") is True and "contrée" in reply["reason"]
    codes = set()
    for given, reply in zip(damaged, replies[len(givens):], strict=True):
        assert reply["result"] == run_case(rules, "play", given)
        codes.add(reply["result"]["rejected"]["code"])
    assert codes == {"card_not_in_hand", "illegal_play"}


def seat_of(given: dict, turn: int) -> str:
    return next(seat for seat, cards in given["hands"].items() if given["plays"][turn] in cards)


@needs("colver")
def test_colver_scores_contree_deals_as_the_reference_but_for_the_losers_belote() -> None:
    """Whole deals of the bidding family (protocol 3) through colver's play kind: every trick
    winner, legal set, card point count and contract outcome is the reference's; the deal scores
    differ only by the two choices colver's README names: the defenders of a made contract keep
    their belote (colver-contree's belote.on_chute, to_defenders, is undeclared), and a coinched
    contract down counts 162, not 252, when the defenders won every trick."""
    rules = house_rulesets("colver")["colver-contree"]
    givens = []
    for state in random_deals(rules, 3, 120):
        if state.phase is not Phase.SCORED:
            continue
        record = record_of(state)
        plays = [card for trick in record["tricks"] for card in trick["cards"]]
        replayed = run_case(rules, "replay", {"dealer": record["dealer"], "hands": record["hands"],
                                              "calls": record["calls"], "belote": record["belote"],
                                              "announcements": [], "plays": plays})
        givens.append({"hands": record["hands"], "leader": record["tricks"][0]["leader"], "plays": plays,
                       "contract": {"trump": replayed["trump"], "taker": replayed["taker"], "bid": replayed["bid"]},
                       "belote": record["belote"], "want_legal": True})
    replies = ask("colver", rules, givens)
    differing = 0
    for given, reply in zip(givens, replies, strict=True):
        want, got = run_case(rules, "play", given), reply["result"]
        assert (got["trick_winners"], got["legal"]) == (want["trick_winners"], want["legal"])
        same = ("card_points", "announcements", "belote", "contract", "capot", "pot")
        assert {k: got["score"][k] for k in same} == {k: want["score"][k] for k in same}
        if got["score"]["deal_score"] != want["score"]["deal_score"]:
            differing += 1
            takers = "NS" if given["contract"]["taker"] in "NS" else "EW"
            defenders_belote = want["score"]["contract"] == "made" and want["score"]["belote"] not in (None, takers)
            coinched_defenders_capot = (want["score"]["contract"] == "down"
                                        and want["score"]["capot"] not in (None, takers)
                                        and given["contract"]["bid"]["multiplier"] > 1)
            assert defenders_belote or coinched_defenders_capot
    assert givens and differing < len(givens)
