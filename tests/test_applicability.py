"""Every case counts and every n/a says why.

Adapters that differ from the reference engine in one point each (tests/adapters/one_point.py)
passed the old default run; each must now fail, in the default run or with --every-branch, on the
cases that exercise that point and on no other.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from belote_ref.cli import main
from belote_ref.conformance.adapter import open_adapter
from belote_ref.conformance.applicability import Claims, check_claims, departures
from belote_ref.conformance.corpus import load_corpus
from belote_ref.conformance.runner import BAD_OUTCOMES, CaseResult, RunOptions, build_branch_cases, build_cases, run_cases
from belote_ref.protocol.serve import KINDS, hello, run_case
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets

# Slow tier (whole runs of the corpus against mutants of the engine): left out of the quick default; see README.
pytestmark = pytest.mark.slow

ONE_POINT = Path(__file__).parent / "adapters" / "one_point.py"


def one_point(mode: str) -> str:
    return f"{sys.executable} {ONE_POINT} {mode}"


def shipped() -> list[Ruleset]:
    return [find_ruleset(r) for r in shipped_rulesets()]


def run(mode: str, every_branch: bool = False, kinds: tuple[str, ...] = ()) -> list[CaseResult]:
    cases = build_cases(load_corpus(), shipped(), kinds)
    if every_branch:
        cases += build_branch_cases(load_corpus(), kinds)
    _, results = run_cases(lambda: open_adapter(one_point(mode), 30), cases, RunOptions(timeout=30))
    assert not [r for r in results if r.outcome in ("crash", "timeout", "error")]
    return results


def default_part(results: list[CaseResult], kinds: tuple[str, ...] = ()) -> list[CaseResult]:
    """The results of the default run's cases within an every-branch run, which starts with them in
    the same order (the adapters of one_point.py answer each message alone, so they are the default
    run's results; one run of the adapter instead of two)."""
    default_cases = build_cases(load_corpus(), shipped(), kinds)
    part = results[:len(default_cases)]
    assert [r.case.key for r in part] == [case.key for case in default_cases]
    return part


def failed(results: list[CaseResult]) -> set[str]:
    return {r.case.key for r in results if r.outcome in BAD_OUTCOMES}


def _misread_differs(results: list[CaseResult]) -> set[str]:
    """The cases whose answer changes when only_if_hand_is_all_trumps is read as only_if_forced."""
    should_fail = set()
    for result in results:
        case = result.case
        if result.outcome == "n/a" or case.ruleset.params["play.undertrump_partner"] != "only_if_hand_is_all_trumps":
            continue
        misread = Ruleset.from_parameters({**case.ruleset.params, "play.undertrump_partner": "only_if_forced"})
        if run_case(misread, case.fixture.kind, case.given) != run_case(case.ruleset, case.fixture.kind, case.given):
            should_fail.add(case.key)
    return should_fail


def test_undertrump_all_trumps_read_as_forced_fails_exactly_its_branch() -> None:
    # The default run fails only under the shipped rulesets that play the value (ffb-coinche-2015).
    results = run("all-trumps-as-forced", every_branch=True)
    should_fail = _misread_differs(results)
    default = default_part(results)
    assert failed(default) == _misread_differs(default)
    assert all(key.endswith(" ffb-coinche-2015") for key in failed(default))
    assert should_fail and failed(results) == should_fail
    assert all("play.undertrump_partner" in r.case.fixture.rules for r in results if r.case.key in should_fail)


def test_eight_of_trumps_as_the_seven_outside_hearts_is_caught_by_renamed_suits() -> None:
    results = run("eight-as-seven", kinds=("trick_winner",))
    bad = [r for r in results if r.outcome in BAD_OUTCOMES]
    assert bad
    for result in bad:
        trump, cards = result.case.given["trump"], result.case.given["trick"]["cards"]
        assert trump in "SDC" and f"7{trump}" in cards and f"8{trump}" in cards, result.case.key
    # Every fixture about the eight against the seven has hearts as trumps: only derived cases catch it.
    assert all("@trump=" in r.case.id for r in bad)
    hearts = [r for r in results if r.case.given["trump"] == "H"]
    assert hearts and all(r.outcome == "pass" for r in hearts)


def test_a_claim_of_every_value_is_held_to_account_by_every_branch() -> None:
    results = run("star-one-value", every_branch=True)
    assert not failed(default_part(results)), "every shipped ruleset plays must_head_plain_suit: false"
    bad = [r for r in results if r.outcome in BAD_OUTCOMES]
    assert bad
    for result in bad:
        assert result.case.ruleset.params["play.must_head_plain_suit"] is True, result.case.key
        assert "play.must_head_plain_suit" in result.case.fixture.rules, result.case.key


def test_classic_cards_with_another_belote_count_get_their_play_cases(capsys: pytest.CaptureFixture[str]) -> None:
    results = run("count-belote-none")
    by_kind: dict[str, set[str]] = {}
    for result in results:
        if result.case.ruleset.id == "classic":
            by_kind.setdefault(result.case.fixture.kind, set()).add(result.outcome)
    assert by_kind["legal_plays"] == {"pass"} and by_kind["trick_winner"] == {"pass"}
    assert not failed(results)
    reasons = {r.message for r in results if r.outcome == "n/a"}
    assert 'parameter scoring.contract.count_belote at value "both_sides" not supported' in reasons
    code = main(["conformance", "run", "--impl", one_point("count-belote-none"), "--kind", "legal_plays"])
    out = capsys.readouterr().out
    assert code == 0
    assert "departs from classic on scoring.contract.count_belote: none" in out


def test_a_misspelt_parameter_fails_smoke_and_warns_in_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "smoke", "--impl", one_point("misspelt")]) == 1
    out = capsys.readouterr().out
    assert "unknown parameter 'play.undertrump_partnr'; did you mean 'play.undertrump_partner'?" in out
    main(["conformance", "run", "--impl", one_point("misspelt"), "--kind", "trick_winner"])
    err = capsys.readouterr().err
    assert "warning: hello: supports.parameters: unknown parameter 'play.undertrump_partnr'" in err


def test_nothing_declared_is_not_a_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report, junit = tmp_path / "r.jsonl", tmp_path / "r.xml"
    code = main(["conformance", "run", "--impl", one_point("nothing-declared"), "--kind", "trick_winner",
                 "--report", str(report), "--junit", str(junit)])
    captured = capsys.readouterr()
    assert code == 1
    assert "no ruleset and no parameter declared" in captured.out
    assert "no case was sent" in captured.err
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    assert {line["reason"] for line in lines if line.get("type") == "case"} == {"no ruleset and no parameter declared"}
    assert lines[-1]["not_applicable"] == {"no ruleset and no parameter declared": len(lines) - 2}
    assert 'message="n/a: no ruleset and no parameter declared"' in junit.read_text()


def test_every_na_reason_is_counted_in_the_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "r.jsonl"
    assert main(["conformance", "run", "--impl", one_point("eight-as-seven"), "--ruleset", "classic",
                 "--report", str(report)]) == 1
    capsys.readouterr()
    main(["conformance", "summary", str(report)])
    out = capsys.readouterr().out
    assert "not applicable:" in out and "kind score not supported" in out
    assert f"rerun: belote-ref conformance run --impl '{one_point('eight-as-seven')}' --ruleset classic --id " in out


class TestClaims:
    def test_the_reference_hello_has_no_problem(self) -> None:
        assert check_claims(hello(), KINDS) == []

    @pytest.mark.parametrize(
        ("supports", "says"),
        [
            ({"kinds": ["trick_winer"]}, "unknown kind 'trick_winer'; did you mean 'trick_winner'?"),
            ({"kinds": [], "rulesets": ["clasic"]}, "unknown ruleset 'clasic'; did you mean 'classic'?"),
            ({"kinds": [], "parameters": {"play.undertrump_partner": ["alowed"]}},
             "value \"alowed\" is not allowed; did you mean '\"allowed\"'?"),
            ({"kinds": [], "parameters": {"play.undertrump_partner": "all"}}, "expected a list of values or \"*\""),
        ],
    )
    def test_unknown_names_are_named_with_the_nearest(self, supports: dict[str, object], says: str) -> None:
        problems = check_claims({"supports": supports}, KINDS)
        assert any(says in problem for problem in problems), problems

    def test_parameters_absent_take_the_values_of_the_declared_rulesets(self) -> None:
        claims = Claims.from_hello({"supports": {"kinds": ["score"], "rulesets": ["classic", "pagat"],
                                                 "parameters": {"scoring.capot.value": [300]}}})
        assert claims.values_of("play.undertrump_partner") == ["allowed", "only_if_forced"]
        assert claims.values_of("scoring.capot.value") == [300]
        found = departures(claims)
        # classic and pagat raise the last trick of a capot; a flat capot value is not in play
        # there, so claiming another one departs from neither. cafe-250 plays a flat 250.
        assert found["classic"] == {} and found["pagat"] == {}
        assert found["cafe-250"]["scoring.capot.value"] == [300]


def test_lint_reports_a_dependency_the_fixture_does_not_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    source = next(f for f in load_corpus() if f.id == "score.litige.91-91-defenders-belote")
    assert "scoring.contract.count_belote" in source.data["depends_on"]
    data = dict(source.data)
    data["depends_on"] = [p for p in data["depends_on"] if p != "scoring.contract.count_belote"]
    # Its applies_to pins the value too: a pinned parameter's other values never reach the case.
    data["applies_to"] = {p: v for p, v in data["applies_to"].items() if p != "scoring.contract.count_belote"}
    from belote_ref.conformance.fmt import format_fixture

    path = tmp_path / "fixture.yaml"
    path.write_text(format_fixture(data), encoding="utf-8")
    assert yaml.safe_load(path.read_text())["id"] == source.id
    assert main(["conformance", "lint", str(path)]) == 1
    err = capsys.readouterr().err
    assert "the answer depends on scoring.contract.count_belote, which the fixture does not name" in err


@pytest.mark.parametrize(("mode", "kind"), [("keeps-played-cards", "play"), ("turned-to-dealer", "deal")])
def test_a_whole_deal_or_deal_mistake_fails_its_kind_only(mode: str, kind: str) -> None:
    results = run(mode)
    bad = [r for r in results if r.outcome in BAD_OUTCOMES]
    assert bad, f"{mode} must be caught"
    assert {r.case.fixture.kind for r in bad} == {kind}


def test_claims_per_kind_are_checked_too() -> None:
    problems = check_claims({"supports": {"kinds": ["score"], "by_kind": {
        "score": {"parameters": {"scoring.capot.valu": [250]}}, "scor": {}}}}, KINDS)
    assert "supports.by_kind.score: parameters: unknown parameter 'scoring.capot.valu'; did you mean " \
           "'scoring.capot.value'?" in problems
    assert "supports.by_kind: unknown kind 'scor'; did you mean 'score'?" in problems
