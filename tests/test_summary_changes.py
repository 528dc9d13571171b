"""`summary --baseline`: one line per fixture whose derived variants changed the same way."""

from __future__ import annotations

from typing import Any

from belote_ref.conformance.report import summarize_changes
from belote_ref.conformance.report_file import footer_line


def _case(case_id: str, outcome: str, ruleset: str = "classic") -> dict[str, Any]:
    return {"type": "case", "id": case_id, "ruleset": ruleset, "kind": "legal_plays", "outcome": outcome}


def _report(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [*cases, footer_line(cases, len(cases))]


def test_a_fixture_and_its_derived_variants_share_one_line() -> None:
    ids = ["lp.a", "lp.a@suits=CDHS", "lp.a@suits=DCSH", "lp.a@seats+1", "lp.a@seats+2"]
    baseline = [_case(i, "pass") for i in ids] + [_case("lp.b", "pass"), _case("lp.b@seats+1", "pass")]
    current = [_case(i, "fail") for i in ids] + [_case("lp.b", "pass"), _case("lp.b@seats+1", "fail")]
    lines = summarize_changes(_report(current), _report(baseline)).splitlines()
    assert lines == ["broken   lp.a [classic] and 4 derived case(s): pass -> fail",
                     "broken   lp.b@seats+1 [classic]: pass -> fail"]


def test_variants_that_changed_differently_keep_their_own_lines() -> None:
    baseline = [_case("lp.a", "fail"), _case("lp.a@seats+1", "pass"), _case("lp.a@seats+2", "pass")]
    current = [_case("lp.a", "pass"), _case("lp.a@seats+1", "fail"), _case("lp.a@seats+2", "fail")]
    lines = summarize_changes(_report(current), _report(baseline)).splitlines()
    assert lines == ["fixed    lp.a [classic]: fail -> pass",
                     "broken   lp.a@seats+1 [classic] and 1 derived case(s): pass -> fail"]


def test_one_ruleset_per_line() -> None:
    baseline = [_case("lp.a", "pass", "classic"), _case("lp.a", "pass", "pagat")]
    current = [_case("lp.a", "fail", "classic"), _case("lp.a", "fail", "pagat")]
    assert summarize_changes(_report(current), _report(baseline)).splitlines() == [
        "broken   lp.a [classic]: pass -> fail", "broken   lp.a [pagat]: pass -> fail"]
