"""The typed view of a ruleset (belote_ref/rules/ruleview.py) and the registry never drift apart."""

from __future__ import annotations

import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from belote_ref.rules import ruleview
from belote_ref.rules.registry import load_registry
from belote_ref.core.resources import data_dir
from belote_ref.rules.ruleset import find_ruleset, shipped_rulesets
from belote_ref.rules.ruleview_generator import generate, main, stale_lines

RENAMED = ("play.undertrump_over_opponent", "play.undertrump_over_an_opponent")


def _through_the_view(view: object, parameter_id: str) -> Any:
    node = view
    for part in parameter_id.split("."):
        node = getattr(node, part)
    return node


def _plain(value: Any) -> Any:
    """A view value as the ruleset's params hold it (lists and dicts)."""
    if isinstance(value, ruleview.AnnouncementValues):
        return {"tierce": value.tierce, "quarte": value.quarte, "quinte": value.quinte, "carre": dict(value.carre)}
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    if isinstance(value, Mapping):
        return dict(value)
    return value


def _renamed_registry(tmp_path: Path) -> Path:
    old, new = RENAMED
    text = (data_dir("rules") / "registry.yaml").read_text(encoding="utf-8")
    assert text.count(f"- id: {old}\n") == 1
    path = tmp_path / "registry.yaml"
    path.write_text(text.replace(f"- id: {old}\n", f"- id: {new}\n"), encoding="utf-8")
    return path


def test_the_view_is_generated_from_the_shipped_registry() -> None:
    diff = stale_lines()
    assert not diff, "belote_ref/rules/ruleview.py is out of date; run python -m belote_ref.rules.ruleview_generator\n" + "\n".join(diff[:20])
    assert list(ruleview.PARAMETER_IDS) == list(load_registry().parameters)
    assert main(["--check"]) == 0


def test_renaming_a_parameter_in_the_registry_without_the_view_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = RENAMED
    renamed = load_registry(_renamed_registry(tmp_path))
    diff = stale_lines(renamed)
    assert any(line.startswith("-    undertrump_over_opponent:") for line in diff), diff
    assert any(line.startswith("+    undertrump_over_an_opponent:") for line in diff), diff
    # A ruleset resolved by the renamed registry cannot be viewed: the view still reads the old id.
    params = {new if pid == old else pid: value for pid, value in find_ruleset("classic").params.items()}
    with pytest.raises(KeyError, match=old):
        ruleview.view_of(params)
    # The check says so, in one line, with exit status 1.
    assert main(["--check", "--registry", str(tmp_path / "registry.yaml")]) == 1
    message = capsys.readouterr().err
    assert message.count("\n") == 1 and "out of date" in message and "undertrump_over" in message
    generated = tmp_path / "ruleview.py"
    generated.write_text(generate(renamed), encoding="utf-8")
    assert stale_lines(renamed, generated) == []
    assert stale_lines(None, generated), "the renamed view must differ from the shipped one"


def test_changing_the_values_of_an_enum_changes_the_view(tmp_path: Path) -> None:
    text = (data_dir("rules") / "registry.yaml").read_text(encoding="utf-8")
    path = tmp_path / "registry.yaml"
    path.write_text(text.replace("value: only_if_forced", "value: only_when_forced").replace(
        "default: only_if_forced", "default: only_when_forced"), encoding="utf-8")
    diff = stale_lines(load_registry(path))
    assert any('"only_when_forced"' in line for line in diff if line.startswith("+")), diff


@pytest.mark.parametrize("ruleset_id", list(shipped_rulesets()))
def test_every_parameter_reads_the_same_through_the_view(ruleset_id: str) -> None:
    rules = find_ruleset(ruleset_id)
    for parameter_id, value in rules.params.items():
        assert _plain(_through_the_view(rules.view, parameter_id)) == value, parameter_id
        assert _through_the_view(rules, parameter_id) == _through_the_view(rules.view, parameter_id)


def test_the_types_are_precise() -> None:
    hints = typing.get_type_hints(ruleview.Play)
    assert hints["undertrump_partner"] == typing.Literal[
        "allowed", "only_if_hand_is_all_trumps", "only_if_forced", "unless_holding_higher"
    ]
    assert hints["partner_master_exception"] is bool
    assert typing.get_type_hints(ruleview.ScoringCapot)["value"] is int
    registry = load_registry()
    for parameter in registry.parameters.values():
        if parameter.type == "enum":
            *areas, leaf = parameter.id.split(".")
            owner = getattr(ruleview, "".join(part.title().replace("_", "") for part in areas))
            assert typing.get_args(typing.get_type_hints(owner)[leaf]) == parameter.values, parameter.id


def test_the_view_is_frozen_and_compared_by_value() -> None:
    """The view's classes behave as frozen dataclasses: read-only, equal and hashed by their
    values, built only from all their fields by name."""
    classic, pagat = find_ruleset("classic").view, find_ruleset("pagat").view
    assert classic.table == pagat.table and hash(classic.table) == hash(pagat.table)
    assert classic.scoring != pagat.scoring and classic.table != "counterclockwise"
    assert repr(classic.table) == "Table(direction='counterclockwise')"
    with pytest.raises(AttributeError, match="frozen"):
        classic.table.direction = "clockwise"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="frozen"):
        del classic.table.direction  # type: ignore[misc]
    with pytest.raises(AttributeError):
        classic.table.other = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="lacks the field 'direction'"):
        ruleview.Table()
    with pytest.raises(TypeError, match="has no field 'other'"):
        ruleview.Table(direction="clockwise", other=1)
    assert ruleview.Table(direction="clockwise").direction == "clockwise"
