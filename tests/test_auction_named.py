"""Fixtures name the auction they need: applicability, not the adapter, keeps a fixture of the classic
auction from an engine of the bidding family (issue 32), and lint refuses one that does not say.

Every fixture of a kind whose answer depends on the auction names ``bidding.auction`` in its
``rules`` or ``depends_on`` (what applicability reads) and in a predicate (for which family its
answer holds). An adapter of version 1 or 2 is never sent ``bidding.auction``: it plays the turned
card, and gets those fixtures as before.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from belote_ref.conformance.applicability import Claims
from belote_ref.conformance.corpus import AUCTION_KINDS, AUCTION_PARAMETER, fixtures_dir, load_corpus
from belote_ref.conformance.dependencies import dependencies_of
from belote_ref.conformance.fmt import format_fixture
from belote_ref.conformance.lint import lint
from belote_ref.conformance.runner import build_cases, not_applicable_reason
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import find_ruleset

SCORE = fixtures_dir() / "score" / "litige" / "81-81-without-belote.yaml"
AUCTION = fixtures_dir() / "auction" / "round1" / "eldest-takes.yaml"


def _lint_messages(tmp_path: Path, data: dict[str, Any]) -> list[str]:
    path = tmp_path / "fixture.yaml"
    path.write_text(format_fixture(data), encoding="utf-8")
    _, problems = lint([path])
    return [str(problem) for problem in problems]


def test_every_fixture_of_an_auction_kind_names_its_auction() -> None:
    missing = [fixture.id for fixture in load_corpus() if fixture.kind in AUCTION_KINDS and (
        AUCTION_PARAMETER not in dependencies_of(fixture)
        or not any(AUCTION_PARAMETER in (predicate or {}) for predicate in
                   [fixture.data.get("applies_to"), *(b.get("when") for b in fixture.data["expect"])]))]
    assert not missing, missing


@pytest.mark.parametrize("source", [SCORE, AUCTION], ids=["score", "auction"])
def test_lint_refuses_a_fixture_that_does_not_name_its_auction(tmp_path: Path, source: Path) -> None:
    named = yaml.safe_load(source.read_text(encoding="utf-8"))
    assert not [m for m in _lint_messages(tmp_path, named) if "lint.auction" in m or "auction it" in m]
    unnamed = copy.deepcopy(named)
    unnamed["depends_on"] = [p for p in unnamed.get("depends_on", []) if p != AUCTION_PARAMETER] or None
    if unnamed["depends_on"] is None:
        del unnamed["depends_on"]
    found = _lint_messages(tmp_path, unnamed)
    assert any(f"add {AUCTION_PARAMETER} to depends_on" in message for message in found), found
    unpinned = copy.deepcopy(named)
    unpinned["applies_to"].pop(AUCTION_PARAMETER)
    if not unpinned["applies_to"]:
        del unpinned["applies_to"]
    found = _lint_messages(tmp_path, unpinned)
    assert any(f"add {AUCTION_PARAMETER}: turned_card (or bids) to applies_to" in message for message in found), found


def _hello(protocol: int, parameters: dict[str, Any], by_kind: dict[str, Any] | None = None) -> Claims:
    supports: dict[str, Any] = {"kinds": ["auction", "score"], "rulesets": [], "parameters": parameters}
    if by_kind:
        supports["by_kind"] = by_kind
    return Claims.from_hello({"protocol": protocol, "supports": supports})


def _classic_cases() -> list[Any]:
    corpus = [f for f in load_corpus() if f.path in (SCORE, AUCTION)]
    return build_cases(corpus, [find_ruleset("classic")], symmetric=False)


def test_an_adapter_of_the_bidding_family_is_not_sent_a_classic_auction_or_score() -> None:
    everything = {pid: "*" for pid in load_registry().parameters}
    family = {**everything, AUCTION_PARAMETER: ["bids"]}
    claims = _hello(3, everything, {"auction": {"parameters": family}, "score": {"parameters": family}})
    cases = _classic_cases()
    assert {case.fixture.kind for case in cases} == {"auction", "score"}
    for case in cases:
        assert not_applicable_reason(claims, case) == \
            f'parameter {AUCTION_PARAMETER} at value "turned_card" not supported'


@pytest.mark.parametrize("protocol", [1, 2])
def test_an_adapter_of_version_1_or_2_plays_the_turned_card_and_gets_them(protocol: int) -> None:
    older = {pid: "*" for pid, parameter in load_registry().parameters.items() if parameter.since_protocol <= protocol}
    claims = _hello(protocol, older)
    for case in _classic_cases():
        assert not_applicable_reason(claims, case) is None, case.id
