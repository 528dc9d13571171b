"""`belote-ref conformance fuzz`: differential testing against the reference engine, with shrinking.

Each adapter of tests/adapters/mistakes.py makes one mistake; the fuzzer must find it within 2,000
situations of a fixed seed, shrink it (a trick mistake to one trick), and write a fixture that,
run by `conformance run --fixtures`, fails that adapter and passes the reference engine. The
reference engine itself (`belote-ref serve`) must never disagree with itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import SELF_FUZZ_PER_KIND, SELF_FUZZ_SEED
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_ref.cli import main
from belote_ref.conformance.fuzz import FuzzOptions, FuzzOutcome, fuzz
from belote_ref.conformance.fuzz_generate import GENERATORS, LEGAL_GENERATORS, situation_rng
from belote_ref.conformance.fuzz_report import report_lines, write_findings
from belote_ref.conformance.fuzz_shrink import (
    Candidate,
    reference_answer,
    shrink,
    simpler_givens,
)
from belote_ref.protocol.serve import KINDS
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets

# Slow tier (fuzzing runs against buggy adapters, shrinking included): left out of the quick default; see README.
pytestmark = pytest.mark.slow

ADAPTERS = Path(__file__).resolve().parent / "adapters"
SEED = 2026
BUDGET = 2000


def mistake(mode: str) -> str:
    return f"{sys.executable} {ADAPTERS / 'mistakes.py'} {mode}"


def total_cards(given: dict[str, Any]) -> int:
    return len(given.get("hand", ())) + len(given["trick"]["cards"])


@pytest.fixture(scope="module")
def outcomes() -> dict[str, FuzzOutcome]:
    return {mode: fuzz(FuzzOptions(impl=mistake(mode), budget=BUDGET, seed=SEED))
            for mode in ("eight-as-seven", "discard-wins", "led-beats-trump", "belote-not-counted",
                         "named-kind-trusted")}


@pytest.mark.parametrize("mode", ["eight-as-seven", "discard-wins", "led-beats-trump"])
def test_a_trick_mistake_is_found_and_shrunk_to_one_trick(outcomes: dict[str, FuzzOutcome], mode: str) -> None:
    outcome = outcomes[mode]
    assert not outcome.ok and outcome.counts["disagree"] > 0
    assert outcome.counts["situations"] == BUDGET
    assert outcome.findings
    for finding in outcome.findings:
        found = finding.disagreement
        assert found.kind in ("trick_winner", "legal_plays"), found.kind
        assert found.outcome == "fail"
        if found.kind == "trick_winner":
            assert finding.fixture["given"]["trick"]["cards"].__len__() == 4
            assert "winner" in " ".join(found.differences)
        else:
            # One partial trick and the fewest cards that still show the mistake.
            assert total_cards(found.given) <= 3, found.given
        # The simplest ruleset: every parameter back to classic's value.
        assert found.params == dict(find_ruleset("classic").params)
    if mode == "eight-as-seven":
        kinds = {finding.disagreement.kind for finding in outcome.findings}
        assert kinds == {"trick_winner", "legal_plays"}
        for finding in outcome.findings:
            trump = finding.fixture["given"]["trump"]
            assert trump in "SDC"
            cards = finding.fixture["given"]["trick"]["cards"] + finding.fixture["given"].get("hand", [])
            assert {"7" + trump, "8" + trump} <= set(cards)


def test_belote_not_counted_is_found_and_pinned_to_the_claimed_value(outcomes: dict[str, FuzzOutcome]) -> None:
    outcome = outcomes["belote-not-counted"]
    assert not outcome.ok
    kinds = {finding.disagreement.kind for finding in outcome.findings}
    assert "score" in kinds
    for finding in outcome.findings:
        fixture = finding.fixture
        assert "scoring.contract.count_belote" in fixture["rules"]
        assert fixture["applies_to"]["scoring.contract.count_belote"] == "both_sides"
        deals = fixture["given"]["deals"] if fixture["kind"] == "match" else [fixture["given"]]
        # Shrunk: no pot left, the belote that the mistake is about stays (announced, or counted by
        # itself under belote.announcement: automatic; a declaration may stay too, when the takers
        # need its points to come near the contract).
        assert all(not deal.get("pot") for deal in deals)
        automatic = fixture["applies_to"].get("belote.announcement") == "automatic"
        assert automatic or any(deal.get("belote") for deal in deals)
        if fixture["kind"] == "match":
            assert len(deals) == 1
    assert any(not finding.fixture["given"].get("announcements") for finding in outcome.findings
               if finding.fixture["kind"] == "score")


def test_a_declaration_misnamed_is_found_by_damaging_valid_situations(outcomes: dict[str, FuzzOutcome]) -> None:
    # Random deals declare only what the hands hold: only a damaged situation (fuzz_generate.damage)
    # names three cards in sequence a quarte, which the engine must refuse and this adapter scores.
    outcome = outcomes["named-kind-trusted"]
    assert not outcome.ok and outcome.findings
    lengths = {"tierce": 3, "quarte": 4, "quinte": 5}
    for finding in outcome.findings:
        assert finding.disagreement.kind in ("score", "replay", "play", "match")
        assert finding.disagreement.expected["rejected"]["code"] == "bad_announcement"
        declared = finding.fixture["given"]["announcements"]
        assert any(d["kind"] in lengths and len(d["cards"]) != lengths[d["kind"]] for d in declared), declared


@pytest.mark.parametrize("mode", ["eight-as-seven", "discard-wins", "led-beats-trump", "belote-not-counted",
                                  "named-kind-trusted"])
def test_the_written_fixtures_fail_the_adapter_and_pass_the_reference(
        outcomes: dict[str, FuzzOutcome], mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outcome = outcomes[mode]
    write_findings(outcome, tmp_path)
    files = sorted(tmp_path.glob("*.yaml"))
    assert len(files) == len(outcome.findings)
    text = files[0].read_text(encoding="utf-8")
    assert "provenance: engine" in text and "normative: false" in text and "needs_review: true" in text
    assert "adapter_answer:" in text
    assert main(["fmt", "--check", *map(str, files)]) == 0
    assert main(["conformance", "run", "--fixtures", str(tmp_path), "--every-branch", "--impl", mistake(mode)]) == 1
    assert main(["conformance", "run", "--fixtures", str(tmp_path), "--every-branch"]) == 0
    capsys.readouterr()


def test_the_reference_engine_agrees_with_itself_on_every_kind(
        reference_self_fuzz: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    # `conformance fuzz` of `belote-ref serve` runs in the background from the start of the session
    # (tests/conftest.py), 2,000 situations of each kind.
    done, report = reference_self_fuzz
    per_kind = SELF_FUZZ_PER_KIND
    assert per_kind == 2000 and SELF_FUZZ_SEED == SEED
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    header, footer = lines[0], lines[-1]
    assert header["type"] == "header" and footer["type"] == "footer" and len(lines) == 2
    assert header["seed"] == SEED and header["budget"] == per_kind * len(KINDS)
    assert header["adapter"]["name"] == "belote-ref"
    assert header["kinds"] == list(KINDS)
    assert footer["counts"]["disagree"] == 0 and footer["ok"]
    assert footer["counts"]["sent"] + footer["counts"]["n/a"] == per_kind * len(KINDS)
    assert footer["counts"]["sent"] >= 0.99 * per_kind * len(KINDS)


def test_jobs_give_the_same_result_as_one_job() -> None:
    options = FuzzOptions(impl=mistake("led-beats-trump"), budget=600, seed=7, kinds=("trick_winner", "score"))
    one = fuzz(options)
    two = fuzz(FuzzOptions(**{**options.__dict__, "jobs": 2}))
    assert one.counts == two.counts and one.counts["disagree"] > 0

    def comparable(outcome: FuzzOutcome) -> list[dict[str, Any]]:
        lines = report_lines(outcome, options, "")
        for line in lines:
            line.pop("seconds", None)
        return lines

    assert comparable(one) == comparable(two)


def test_the_report_has_a_header_one_line_per_distinct_disagreement_and_a_footer(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "fuzz.jsonl"
    status = main(["conformance", "fuzz", "--impl", mistake("discard-wins"), "--kind", "trick_winner", "--budget", "400",
                   "--seed", "1", "--out", str(tmp_path / "found"), "--report", str(report)])
    assert status == 1
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["seed"] == 1 and lines[0]["kinds"] == ["trick_winner"]
    assert lines[-1]["type"] == "footer" and lines[-1]["ok"] is False
    middle = lines[1:-1]
    assert middle and all(line["type"] == "disagreement" for line in middle)
    # Each disagreement is a finding's, or counted as not shrunk (at most 2 a kind in a block are).
    footer = lines[-1]
    assert sum(line["count"] for line in middle) + footer["counts"]["unshrunk"] == footer["counts"]["disagree"]
    assert footer["status"] == "complete"
    assert all(Path(line["fixture"]).is_file() for line in middle)
    assert "seed 1" in capsys.readouterr().err


def test_nothing_disagreeing_exits_0_and_writes_no_finding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "found"
    assert main(["conformance", "fuzz", "--kind", "auction", "--budget", "300", "--seed", "4", "--out", str(out)]) == 0
    assert not out.exists()
    assert "300 situations: 300 sent, 300 agree, 0 disagree" in capsys.readouterr().out


def test_a_crashing_adapter_is_restarted_and_its_crashes_are_findings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command = f"{sys.executable} {ADAPTERS / 'misbehave.py'} exit:3"
    status = main(["conformance", "fuzz", "--impl", command, "--kind", "trick_winner", "--ruleset", "classic",
                   "--budget", "8", "--seed", "2", "--out", str(tmp_path)])
    assert status == 1
    assert "crash: " in capsys.readouterr().out  # the summary quotes the outcome and the adapter's message
    written = [yaml.safe_load(path.read_text(encoding="utf-8")) for path in tmp_path.glob("*.yaml")]
    assert written and all(fixture["adapter_answer"]["outcome"] == "crash" for fixture in written)


def run_cli(arguments: list[str]) -> int:
    """The exit status of the command line (argparse exits on a usage error)."""
    try:
        return main(arguments)
    except SystemExit as exit_:
        return int(exit_.code or 0)


def test_a_stalling_adapter_times_out_is_restarted_and_its_timeouts_are_one_finding(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command = f"{sys.executable} {ADAPTERS / 'misbehave.py'} hang:3"
    status = main(["conformance", "fuzz", "--impl", command, "--kind", "trick_winner", "--budget", "6", "--seed", "1",
                   "--timeout", "4", "--out", str(tmp_path)])
    assert status == 1
    out = capsys.readouterr().out
    assert "6 situations: 6 sent, 4 agree, 2 disagree" in out
    assert "(trick_winner, x2): timeout: no reply within 4 s" in out
    assert len(list(tmp_path.glob("*.yaml"))) == 1


@pytest.mark.parametrize("arguments, message", [
    (["--budget", "0"], "expected a whole number >= 1"),
    (["--budget", "5", "--time", "2"], "not allowed with argument"),
    (["--kind", "tricks"], "unknown kind 'tricks'"),
    (["--jobs", "0"], "expected a whole number >= 1"),
    (["--timeout", "-1"], "expected a number of seconds above 0"),
    (["--ruleset", "no-such-ruleset"], "no-such-ruleset"),
    (["--impl", "/nonexistent/adapter"], "could not start"),
    (["--impl", f"{sys.executable} {ADAPTERS / 'misbehave.py'} rule-bug", "--kind", "auction"],
     "supports none of the kinds"),
])
def test_bad_usage_is_one_line_and_exit_2(arguments: list[str], message: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["conformance", "fuzz", "--out", str(tmp_path), "--seed", "5", *arguments]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err
    assert "Traceback" not in err
    assert len([line for line in err.splitlines() if not line.startswith("fuzzing with seed")]) == 1


def test_run_fixtures_refuses_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "run", "--fixtures", str(tmp_path / "missing")]) == 2
    assert "not a folder" in capsys.readouterr().err


# ----------------------------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None, database=None)
@given(seed=st.integers(0, 10**9), index=st.integers(0, 10**6), kind=st.sampled_from(KINDS),
       ruleset_id=st.sampled_from(list(shipped_rulesets())))
def test_every_generated_situation_is_answered_by_the_reference(seed: int, index: int, kind: str,
                                                                ruleset_id: str) -> None:
    rules = find_ruleset(ruleset_id)
    legal = LEGAL_GENERATORS[kind](situation_rng(seed, index), rules)
    if legal is not None and kind in ("score", "replay", "match", "play"):
        # Whole deals are legal deals, played the short way or not: the reference never rejects one.
        assert "rejected" not in json.dumps(reference_answer(kind, legal, rules)), legal
    situation = GENERATORS[kind](situation_rng(seed, index), rules)
    if situation is None:
        return
    # A damaged one (fuzz_generate.damage) is still answered: refused, never an error.
    answer = reference_answer(kind, situation, rules)
    assert isinstance(answer, dict)
    # The same seed and index draw the same situation.
    assert GENERATORS[kind](situation_rng(seed, index), rules) == situation
    for simpler in simpler_givens(kind, situation):
        assert isinstance(reference_answer(kind, simpler, rules), dict)


@settings(max_examples=100, deadline=None, database=None)
@given(seed=st.integers(0, 10**9), card=st.sampled_from([r + s for s in "SHDC" for r in "789TJQKA"]))
def test_shrinking_keeps_the_disagreement_and_drops_everything_else(seed: int, card: str) -> None:
    rules = find_ruleset("classic")
    situation = GENERATORS["legal_plays"](situation_rng(seed, 0), rules)
    assert situation is not None
    if card in situation["trick"]["cards"]:
        return
    situation = {**situation, "hand": sorted({*situation["hand"], card})}

    def still_disagrees(candidates: list[Candidate]) -> int | None:
        # A pretend implementation that goes wrong whenever the card is in the hand.
        return next((i for i, c in enumerate(candidates) if card in c.given["hand"]), None)

    smallest, steps = shrink("legal_plays", Candidate(situation, rules), still_disagrees, lambda c: True)
    assert smallest.given["hand"] == [card]
    assert smallest.given["trick"]["cards"] == []
    assert steps == len(situation["hand"]) - 1 + len(situation["trick"]["cards"])


def test_run_messages_are_encoded_as_the_adapter_encodes_them() -> None:
    from belote_ref.conformance.corpus import Fixture
    from belote_ref.conformance.fuzz_jobs import RunEncoder
    from belote_ref.conformance.runner import Case, run_message

    encoder = RunEncoder()
    classic, sa_ta = find_ruleset("classic"), find_ruleset("classic-sa-ta")
    changed = Ruleset.from_parameters({**classic.params, "play.undertrump_partner": "only_if_hand_is_all_trumps"},
                                      id="classic")
    givens = [{"trump": "S", "trick": {"leader": "N", "cards": ["7S", "8S", "9S", "TS"]}},
              {"note": "é ü \u2028 \"quoted\"", "deals": [{"pot": 81}]}]
    for seq, (rules, situation) in enumerate([(classic, givens[0]), (sa_ta, givens[1]), (changed, givens[0]),
                                          (classic, givens[1])], start=1):
        case = Case(Fixture(Path("<test>"), {"id": "t", "kind": "trick_winner", "given": situation}), rules, {})
        for protocol in (1, 2):
            message = run_message(seq, case, protocol)
            plain = (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
            assert encoder.encode(message) == plain
    # A ruleset of the same id with another value is encoded anew, never taken from the cache.
    assert b'"play.undertrump_partner":"only_if_hand_is_all_trumps"' in encoder.encode(run_message(9, Case(
        Fixture(Path("<test>"), {"id": "t", "kind": "trick_winner", "given": givens[0]}), changed, {})))
    assert encoder.encode({"cmd": "hello", "protocol": 2}) is None
