"""`belote-ref conformance lint`, `coverage`, `list`, `dump` and `fmt`: broken fixtures are caught."""

from __future__ import annotations

import copy
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from belote_ref.cli import main
from belote_ref.conformance.corpus import Fixture, fixtures_dir, iter_fixture_paths, load_corpus
from belote_ref.conformance.dependencies import unpinned_dependencies
from belote_ref.conformance.fmt import format_fixture
from belote_ref.conformance.lint import coverage, lint

LEGAL = yaml.safe_load((fixtures_dir() / "legal_plays/undertrump/cannot-overtrump-opponent.yaml").read_text())
SCORE = yaml.safe_load((fixtures_dir() / "score/litige/81-81-without-belote.yaml").read_text())
DEAL = yaml.safe_load((fixtures_dir() / "deal/packets/index-order-deck.yaml").read_text())


def write(folder: Path, name: str, data: dict[str, Any]) -> Path:
    path = folder / name
    path.write_text(format_fixture(data))
    return path


def messages(paths: list[Path]) -> list[str]:
    _, problems = lint(paths)
    return [str(problem) for problem in problems]


def mutate(base: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = copy.deepcopy(base)
    change(data)
    return data


# (name, base fixture, change, expected message fragment)
BROKEN: list[tuple[str, dict[str, Any], Callable[[dict[str, Any]], None], str]] = [
    ("missing-expect", LEGAL, lambda d: d.pop("expect"), "'expect' is a required property"),
    ("bad-id", LEGAL, lambda d: d.update(id="Play.Bad_Id"), "does not match '^[a-z0-9.-]+$'"),
    ("unknown-rule", LEGAL, lambda d: d.update(rules=["play.undertrump_over_oponent"]),
     "rules[0]: unknown parameter 'play.undertrump_over_oponent'"),
    ("value-not-allowed", LEGAL, lambda d: d["expect"][1].update(when={"play.undertrump_over_opponent": "sometimes"}),
     "'sometimes' is not an allowed value of play.undertrump_over_opponent"),
    ("bad-card", LEGAL, lambda d: d["given"].update(hand=["QH", "7H", "KD", "1C"]), "given.hand[3]: not a card: '1C'"),
    ("card-twice", SCORE, lambda d: d["given"]["tricks"][1]["cards"].__setitem__(0, "JS"),
     "card JS appears twice in the deal"),
    ("hand-meets-trick", LEGAL, lambda d: d["given"].update(hand=["AS", "7H", "KD", "8C"]),
     "card AS is both in the hand and in the trick"),
    ("short-deck", DEAL, lambda d: d["given"]["deck"].pop(), "a deck holds 32 distinct cards; found 31"),
    ("points-not-162", SCORE, lambda d: d["expect"][1]["result"]["card_points"].update(NS=80),
     "card points add up to 161; expected 162"),
    ("shadowed", LEGAL, lambda d: d["expect"].insert(0, {"result": {"legal": ["7H"]}}),
     "this branch is shadowed by an earlier one"),
    ("not-exhaustive", LEGAL, lambda d: d["expect"].pop(), "the branches leave play.undertrump_over_opponent = optional uncovered"),
    ("unknown-predicate", LEGAL, lambda d: d.update(applies_to={"play.no_such_rule": True}),
     "applies_to.play.no_such_rule: unknown parameter"),
]


@pytest.mark.parametrize(("name", "base", "change", "fragment"), BROKEN, ids=[b[0] for b in BROKEN])
def test_lint_catches(tmp_path: Path, name: str, base: dict[str, Any], change: Callable[[dict[str, Any]], None],
                      fragment: str) -> None:
    path = write(tmp_path, f"{name}.yaml", mutate(base, change))
    found = messages([path])
    assert any(fragment in message for message in found), found
    assert all(message.startswith(str(path)) for message in found)


def test_duplicate_ids(tmp_path: Path) -> None:
    first, second = write(tmp_path, "a.yaml", LEGAL), write(tmp_path, "b.yaml", LEGAL)
    found = messages([first, second])
    assert any(f"duplicate id 'play.undertrump.cannot-overtrump-opponent' (also in {first})" in m for m in found)


def test_non_canonical_format(tmp_path: Path) -> None:
    path = tmp_path / "messy.yaml"
    path.write_text(json.dumps(LEGAL))
    assert any("not in canonical format (run `belote-ref fmt`)" in m for m in messages([path]))
    assert main(["fmt", "--check", str(path)]) == 1
    assert main(["fmt", str(path)]) == 0
    assert messages([path]) == []


def test_a_folder_is_linted_file_by_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub", "a.yaml", LEGAL)
    write(tmp_path, "b.yaml", LEGAL)
    assert main(["conformance", "lint", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "duplicate id 'play.undertrump.cannot-overtrump-opponent'" in err
    assert "2 fixture file(s): 1 problem(s)" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["conformance", "lint", str(empty)]) == 1
    assert f"{empty}: no fixture file (*.yaml) in this folder" in capsys.readouterr().err


def test_yaml_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("id: x\nkind: [legal_plays\n")
    assert any("YAML syntax error" in m for m in messages([path]))


@pytest.mark.slow  # the slow tier: see README
def test_shipped_corpus_is_clean(shipped_corpus_lint: subprocess.CompletedProcess[str],
                                 capsys: pytest.CaptureFixture[str]) -> None:
    # `conformance lint` runs in the background from the start of the session (tests/conftest.py).
    lint_run = shipped_corpus_lint
    assert lint_run.returncode == 0, lint_run.stdout[-3000:] + lint_run.stderr[-3000:]
    assert f"{len(list(iter_fixture_paths()))} fixture file(s): no problem" in lint_run.stdout
    assert main(["fmt", "--check"]) == 0


def test_corpus_size_and_kinds() -> None:
    fixtures = load_corpus()
    hand = [f for f in fixtures if f.provenance == "hand"]
    assert len(fixtures) >= 300 and len(hand) >= 200
    assert {f.kind for f in hand} == {"deal", "auction", "legal_plays", "trick_winner", "announcements", "score",
                                      "replay", "match", "play"}


def test_coverage_has_no_gap() -> None:
    report = coverage(load_corpus())
    assert report.gaps == []


def test_list_and_dump(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("id: house\nversion: 1\ntitle: House\nextends: classic\nplay: {undertrump_over_opponent: optional}\n")
    assert main(["conformance", "list", "--ruleset", str(house)]) == 0
    listed = capsys.readouterr().out
    assert "play.undertrump.cannot-overtrump-opponent" in listed
    assert main(["conformance", "dump", "--ruleset", str(house), "--format", "jsonl"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    case = next(line for line in lines if line["id"] == "play.undertrump.cannot-overtrump-opponent")
    assert case["expected"] == {"legal": ["7H", "QH", "KD", "8C"]}
    assert case["ruleset"]["id"] == "house" and case["ruleset"]["parameters"]["play.undertrump_over_opponent"] == "optional"
    assert {"id", "kind", "ruleset", "given", "expected"} <= set(case)


TAKERS = yaml.safe_load((fixtures_dir() / "score/belote/no-belote-takers-king-and-queen.yaml").read_text())


def test_dependency_on_two_parameters_together(tmp_path: Path) -> None:
    """announcements.declared is not in play where announcements are off, and
    announcements.enabled alone changes nothing where no combination is declared: the answer depends
    on the two together, and lint tries them together (the takers' fixture before its automatic
    branches)."""

    def strip(data: dict[str, Any]) -> None:
        data["expect"] = [b for b in data["expect"] if "announcements.declared" not in (b.get("when") or {})]
        data["depends_on"] = [p for p in data["depends_on"] if not p.startswith("announcements.")]
        del data["partial"]

    found = messages([write(tmp_path, "takers.yaml", mutate(TAKERS, strip))])
    assert any("depends on announcements.declared" in m and "with announcements.enabled=true" in m for m in found)
    assert messages([write(tmp_path, "whole.yaml", TAKERS)]) == []


def test_trial_values_reach_across_an_integer_range_and_past_a_single_value() -> None:
    from belote_ref.conformance.dependencies import trial_values
    from belote_ref.rules.registry import load_registry

    registry = load_registry()
    capot = trial_values(registry["scoring.capot.value"])
    assert {250, 0, 10000, 5000, 249, 251} <= set(capot)
    for parameter_id in ("cards.plain_order", "cards.trump_points", "scoring.last_trick_bonus"):
        values = trial_values(registry[parameter_id])
        assert len(values) > 1, parameter_id
        assert all(registry[parameter_id].allows(value) for value in values), parameter_id


def _quoted(quote: str, doc: str = "FFB-B16 §4", **label: str) -> dict[str, Any]:
    return mutate(LEGAL, lambda d: d.__setitem__("source", {"doc": doc, "quote": quote, **label}))


FRENCH_WORDS = "Il est interdit de sous-couper son partenaire quand il est maître du pli."
ENGLISH_TEXT = "A player who cannot overtrump may not undertrump the opponent who is winning the trick."


@pytest.mark.parametrize(("data", "problem"), [
    (_quoted(FRENCH_WORDS), "the quotation has no label: add quote_is"),
    (_quoted(ENGLISH_TEXT, quote_is="words"), "the quotation reads as en but FFB-B16 is written in fr: label it "
                                              "translation or summary"),
    (_quoted(ENGLISH_TEXT, quote_is="summary"), "a summary names its language: add quote_lang"),
    (_quoted(ENGLISH_TEXT, quote_is="translation", quote_lang="fr"), "the quotation reads as en but quote_lang "
                                                                    "says fr"),
    (_quoted(FRENCH_WORDS, quote_is="words", quote_lang="fr"), "quote_lang is for a translation or a summary"),
    (_quoted("| *carré* of 8 or 7 | nothing |", quote_is="summary", quote_lang="en"), "a quotation is plain text"),
])
def test_a_quotation_says_what_it_is(tmp_path: Path, data: dict[str, Any], problem: str) -> None:
    found = messages([write(tmp_path, "quoted.yaml", data)])
    assert any(problem in message for message in found), found


def test_a_labelled_quotation_passes(tmp_path: Path) -> None:
    for data in (_quoted(FRENCH_WORDS, quote_is="words"), _quoted(ENGLISH_TEXT, quote_is="summary", quote_lang="en"),
                 _quoted(ENGLISH_TEXT, doc="PAGAT", quote_is="words")):
        assert messages([write(tmp_path, "quoted.yaml", data)]) == []


def test_a_hand_fixture_explains_itself_in_french_too(tmp_path: Path) -> None:
    without = mutate(LEGAL, lambda d: d.pop("note_fr"))
    assert any("add note_fr" in message for message in messages([write(tmp_path, "note.yaml", without)]))
    assert not any("note_fr" in message for message in messages([write(tmp_path, "note.yaml", LEGAL)]))


CHUTE = yaml.safe_load((fixtures_dir() / "score/chute/takers-short-of-the-defenders.yaml").read_text())


def test_a_dependency_named_but_pinned_nowhere_must_hold_for_every_value() -> None:
    """The chute names scoring.contract.card_threshold: unpinned, it claims to hold under a threshold of
    0 too, where every contract is made (the sweep's cafe-250 + card_threshold=0 found it)."""
    assert CHUTE["applies_to"]["scoring.contract.card_threshold"] == 82
    unpinned = mutate(CHUTE, lambda d: d["applies_to"].pop("scoring.contract.card_threshold"))
    found = list(unpinned_dependencies(Fixture(Path("unpinned.yaml"), unpinned)))
    assert [(parameter_id, value) for parameter_id, value, _ in found] == [("scoring.contract.card_threshold", 0)]
    assert "with scoring.contract.test=\"card_threshold\"" in found[0][2]
    assert list(unpinned_dependencies(Fixture(Path("pinned.yaml"), CHUTE))) == []


def test_lint_names_the_unpinned_dependency(tmp_path: Path) -> None:
    unpinned = mutate(CHUTE, lambda d: d["applies_to"].pop("scoring.contract.card_threshold"))
    found = messages([write(tmp_path, "chute.yaml", unpinned)])
    assert any("pins nowhere" in m and "scoring.contract.card_threshold = 0" in m for m in found), found
