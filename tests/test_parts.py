"""A whole deal checked in parts (issue 32): a ``play`` case on its tricks alone where the adapter
does not claim its score, and a ``score`` that does not validate its deals."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import pytest

from belote_ref.conformance.adapter import InProcessAdapter
from belote_ref.conformance.applicability import Claims, check_claims
from belote_ref.conformance.corpus import load_corpus
from belote_ref.conformance.dependencies import dependencies_of
from belote_ref.conformance.parts import TRICKS_VARIANT, tricks_given, tricks_part
from belote_ref.conformance.runner import RunOptions, build_cases, run_cases
from belote_ref.core.errors import BeloteRefError
from belote_ref.protocol.kinds import KINDS
from belote_ref.protocol.serve import run_case
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets

Handler = Callable[[dict[str, Any]], dict[str, Any] | None]


class _Adapter(InProcessAdapter):
    """An in-process adapter around a plain function, for the test to watch what it is sent."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.description = "test"
        self.timeout = 0.0
        self._replies = deque()


def _engine(supports: dict[str, Any], sent: list[dict[str, Any]],
            answer: Callable[[dict[str, Any]], dict[str, Any]]) -> Handler:
    def handle(message: dict[str, Any]) -> dict[str, Any] | None:
        if message["cmd"] == "hello":
            return {"protocol": 3, "implementation": {"name": "parts-test"}, "supports": supports}
        if message["cmd"] == "stop":
            return None
        sent.append(message)
        rules = Ruleset.from_parameters(message["ruleset"]["parameters"], id=message["ruleset"]["id"])
        return {"seq": message["seq"], "result": answer(run_case(rules, message["kind"], message["given"]))}
    return handle


def _scores_otherwise(result: dict[str, Any]) -> dict[str, Any]:
    """The reference's tricks and a score of its own: an engine whose scoring follows no registry value."""
    if "score" in result:
        return {**result, "score": {**result["score"], "deal_score": {"NS": -1, "EW": -1}}}
    return result


def _plays_otherwise(result: dict[str, Any]) -> dict[str, Any]:
    """An engine whose trick winners are wrong."""
    if "trick_winners" in result:
        return {**result, "trick_winners": list(reversed(result["trick_winners"]))}
    return result


SA_TA = "classic-sa-ta"
# The engine plays classic-sa-ta's cards, but claims no value of the last trick's bonus that any
# ruleset uses: every score depends on it, so no whole play case can be sent.
TRICKS_ONLY = {"kinds": ["play"], "rulesets": [SA_TA],
               "by_kind": {"play": {"tricks_alone": True, "parameters": {"scoring.last_trick_bonus": [0]}}}}


def _run(supports: dict[str, Any], answer: Callable[[dict[str, Any]], dict[str, Any]]) -> tuple[list[Any], list[Any]]:
    cases = build_cases(load_corpus(), [find_ruleset(SA_TA)], kinds=["play"])
    sent: list[dict[str, Any]] = []
    _, results = run_cases(lambda: _Adapter(_engine(supports, sent, answer)), cases, RunOptions())
    return results, sent


def test_a_play_case_whose_score_is_not_claimed_is_checked_on_its_tricks() -> None:
    results, sent = _run(TRICKS_ONLY, _scores_otherwise)
    apart = [r for r in results if r.case.id.endswith(TRICKS_VARIANT)]
    assert apart and all(r.outcome == "pass" for r in apart), [(r.case.id, r.differences) for r in apart]
    # A whole case was sent only where its answer does not depend on the unclaimed bonus.
    whole = [r for r in results if r.outcome != "n/a" and not r.case.id.endswith(TRICKS_VARIANT)]
    assert all("scoring.last_trick_bonus" not in dependencies_of(r.case.fixture) for r in whole)
    # The cases apart asked for their tricks only, and what only the score reads was left out.
    asked = [message for message in sent if "parts" in message]
    assert len(asked) == len(apart) and all(message["parts"] == ["tricks"] for message in asked)
    assert not any({"belote", "announcements", "pot"} & set(message["given"]) for message in asked)
    # A case whose answer is a rejection of the score has no tricks part: it stays n/a.
    for result in results:
        if result.outcome == "n/a":
            assert tricks_part(result.case.expected) is None or result.message


def test_the_tricks_of_a_case_checked_apart_are_really_compared() -> None:
    results, _ = _run(TRICKS_ONLY, _plays_otherwise)
    apart = [r for r in results if r.case.id.endswith(TRICKS_VARIANT)
             and r.case.expected.get("trick_winners", []) != list(reversed(r.case.expected.get("trick_winners", [])))]
    assert apart and all(r.outcome == "fail" and r.differences[0].startswith("trick_winners") for r in apart)


def test_without_the_claim_those_cases_stay_n_a() -> None:
    supports = {**TRICKS_ONLY, "by_kind": {"play": {"parameters": {"scoring.last_trick_bonus": [0]}}}}
    results, sent = _run(supports, _scores_otherwise)
    assert results and not any(r.case.id.endswith(TRICKS_VARIANT) for r in results)
    assert not any("parts" in message for message in sent)
    assert all(r.outcome == "n/a" for r in results if "scoring.last_trick_bonus" in dependencies_of(r.case.fixture))


def test_a_fully_claimed_case_is_sent_whole() -> None:
    results, sent = _run({"kinds": ["play"], "rulesets": [SA_TA], "by_kind": {"play": {"tricks_alone": True}}},
                         lambda result: result)
    assert sent and all("parts" not in message for message in sent)
    assert not any(r.case.id.endswith(TRICKS_VARIANT) for r in results)
    # A case with a fault needs its penalties.* named (docs/protocol.md, applicability rule 4).
    with_fault = [r for r in results if "fault" in r.case.given]
    assert with_fault and all(r.outcome == "n/a" and "needs penalties." in r.message for r in with_fault)
    assert all(r.outcome == "pass" for r in results if r not in with_fault)


def test_a_score_that_does_not_validate_gets_no_rejection_case() -> None:
    cases = build_cases(load_corpus(), [find_ruleset("classic")], kinds=["score"])
    rejecting = {c.id for c in cases if "rejected" in c.expected}
    assert rejecting
    supports = {"kinds": ["score"], "rulesets": ["classic"], "by_kind": {"score": {"validates": False}}}
    sent: list[dict[str, Any]] = []
    _, results = run_cases(lambda: _Adapter(_engine(supports, sent, lambda result: result)), cases, RunOptions())
    by_id = {r.case.id: r for r in results}
    assert all(by_id[i].outcome == "n/a" and "does not validate" in by_id[i].message for i in rejecting)
    # A deal ended on a fault goes only to an adapter that lists the penalties.* it depends on.
    faults = {r.case.id for r in results if "fault" in r.case.given}
    assert faults and all(by_id[i].outcome == "n/a" and "a case with a fault" in by_id[i].message for i in faults)
    assert all(r.outcome == "pass" for r in results if r.case.id not in rejecting | faults)


def test_the_claims_of_one_kind_are_checked() -> None:
    hello = {"supports": {"kinds": ["play", "score"], "by_kind": {"score": {"tricks_alone": True},
                                                                  "play": {"validates": "no"}}}}
    assert check_claims(hello, KINDS) == [
        "supports.by_kind.score.tricks_alone: a boolean of by_kind.play only",
        "supports.by_kind.play.validates: a boolean of by_kind.score only",
    ]
    claims = Claims.from_hello({"protocol": 3, "supports": TRICKS_ONLY})
    assert claims.for_kind("play").tricks_alone and not claims.tricks_alone


@pytest.mark.parametrize("ruleset_id", list(shipped_rulesets()))
def test_only_the_parameters_marked_decides_play_change_a_deal_s_tricks(ruleset_id: str) -> None:
    """The registry's ``decides_play`` is a fact: under every shipped ruleset, every documented value
    of every other parameter leaves the tricks of every play fixture as they are."""
    registry = load_registry()
    base = find_ruleset(ruleset_id)
    checked = 0
    # A case with a fault has no tricks part (which card is let through is the fault's).
    plays = [f for f in load_corpus() if f.kind == "play" and "fault" not in f.given and f.expected(base) is not None]
    for fixture in plays:
        given = {**tricks_given(fixture.given), "want_legal": True}
        reference = tricks_part(run_case(base, "play", given))
        if reference is None:
            continue
        for parameter_id, parameter in registry.parameters.items():
            if parameter.decides_play:
                continue
            for value in parameter.values:
                try:
                    other = base.with_parameter(parameter_id, value)
                except BeloteRefError:
                    continue
                try:
                    got = tricks_part(run_case(other, "play", given))
                except BeloteRefError as error:
                    got = {"error": error.code}
                assert got == reference, f"{fixture.id}: {parameter_id}={value!r} changes the tricks"
                checked += 1
    assert checked or not plays


def test_a_run_message_in_parts_and_the_claims_follow_the_protocol_schemas() -> None:
    import json

    import jsonschema
    from referencing import Registry, Resource

    from belote_ref.conformance.runner import run_message, tricks_alone_case
    from belote_ref.core.resources import data_dir

    schemas = {path.name: json.loads(path.read_text(encoding="utf-8"))
               for path in (data_dir("schema") / "protocol").glob("*.json")}
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    hello = {"protocol": 3, "implementation": {"name": "parts-test"}, "supports": TRICKS_ONLY}
    jsonschema.Draft202012Validator(schemas["hello-reply.schema.json"], registry=registry).validate(hello)
    claims = Claims.from_hello(hello)
    apart = [c for c in (tricks_alone_case(claims, case) for case in
                         build_cases(load_corpus(), [find_ruleset(SA_TA)], kinds=["play"])) if c is not None]
    assert apart
    validator = jsonschema.Draft202012Validator(schemas["run.schema.json"], registry=registry)
    for case in apart:
        validator.validate(run_message(1, case))
