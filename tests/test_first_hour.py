"""The small traps a new user met in the first hour, each kept as a case that must not come back."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from belote_ref.cli import main
from belote_ref.cli.main import build_parser

HEADER = "version: 1\ntitle: {en: Our club, fr: Notre club}\n"


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_value_that_is_not_in_play_is_a_warning_with_its_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The club wrote "capot 250" and believed it in force; under classic a capot is not flat.
    path = _write(tmp_path, "club.yaml", "id: our-club\n" + HEADER + "extends: classic\nscoring:\n  capot: {value: 250}\n")
    assert main(["rules", "validate", str(path)]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"{path}:6:11: scoring.capot.value: warning: not in play here: it applies only when "
                   'scoring.capot.mode is "flat", and this ruleset has "raised_last_trick"']


def test_a_value_in_play_gives_no_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "club.yaml",
                  "id: our-club\n" + HEADER + "extends: classic\nscoring:\n  capot: {mode: flat, value: 250}\n")
    assert main(["rules", "validate", str(path)]) == 0
    assert capsys.readouterr().err == ""


def test_a_mistyped_parent_is_reported_with_the_other_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "club.yaml", "id: our-club\n" + HEADER + "extends: clasic\nscoring:\n  capot: {valu: 250}\n")
    assert main(["rules", "validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:4:1: extends: unknown parent ruleset 'clasic'; did you mean 'classic'?" in err
    assert f"{path}:6:11: scoring.capot.valu: unknown parameter" in err


def test_a_house_rule_may_not_take_a_shipped_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "club.yaml", "id: classic\n" + HEADER + "extends: classic\n")
    assert main(["rules", "validate", str(path)]) == 2
    assert "id: 'classic' is the id of a shipped ruleset" in capsys.readouterr().err


def test_a_copy_of_a_shipped_ruleset_keeps_its_id(tmp_path: Path) -> None:
    # The repository's rules/ beside an installed package are the same files.
    from belote_ref.rules.ruleset import shipped_rulesets

    copy = tmp_path / "classic.yaml"
    copy.write_bytes(shipped_rulesets()["classic"].read_bytes())
    assert main(["rules", "validate", str(copy)]) == 0


def test_replaying_house_rule_records_without_the_file_says_what_to_pass(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = _write(tmp_path, "club.yaml",
                   "id: our-club\n" + HEADER + "extends: classic\nplay: {undertrump_over_opponent: optional}\n")
    records = tmp_path / "club.jsonl"
    assert main(["play", "--ruleset", str(rules), "--count", "5", "--seed", "3", "--out", str(records)]) == 0
    capsys.readouterr()
    assert main(["replay", str(records)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"{records}:1: unknown ruleset 'our-club': if it is a house rule, pass its file (replay --ruleset FILE)",
        "... and 4 more entries with the same problem: unknown ruleset 'our-club': if it is a house rule, pass its "
        "file (replay --ruleset FILE)",
    ]
    assert main(["replay", "--ruleset", str(rules), str(records)]) == 0


def test_the_help_names_every_conformance_subcommand() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    conformance = commands.choices["conformance"]
    subcommands = next(a for a in conformance._actions if isinstance(a, argparse._SubParsersAction))
    summary = next(action.help for action in commands._choices_actions if action.dest == "conformance")
    assert summary is not None
    missing = [name for name in subcommands.choices if name not in summary]
    assert missing == []


def test_a_mistyped_kind_is_refused_with_the_nearest_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["conformance", "run", "--kind", "legal_play"])
    assert stop.value.code == 2
    assert "unknown kind 'legal_play'; did you mean 'legal_plays'?" in capsys.readouterr().err


def test_dump_and_list_take_the_filters_of_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "dump", "--ruleset", "classic", "--kind", "trick_winner", "--id", "trick.order."]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines and all(line["kind"] == "trick_winner" and line["id"].startswith("trick.order.") for line in lines)
    assert main(["conformance", "list", "--ruleset", "classic", "--kind", "score"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed and all(line.split()[1] == "score" for line in listed)


@pytest.mark.parametrize(("argv", "nearest"), [(["conformance", "rnu"], "'run'"), (["rulez", "list"], "'rules'"),
                                               (["rules", "shwo", "classic"], "'show'")])
def test_a_mistyped_verb_is_refused_with_the_nearest_name(argv: list[str], nearest: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"did you mean {nearest}?" in err, err


def test_an_id_no_fixture_starts_with_names_the_nearest_ids(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "run", "--id", "play.lead.any-crd"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "no case matches the filters: no fixture id starts with 'play.lead.any-crd'; " \
                  "did you mean 'play.lead.any-card'?"
    # Filters that name real fixtures but leave nothing together are repeated as given.
    assert main(["conformance", "run", "--id", "play.lead.any-card", "--kind", "score"]) == 2
    assert capsys.readouterr().err.strip() == "no case matches the filters (--kind score, --id play.lead.any-card)"


def test_the_install_instructions_name_what_exists() -> None:
    """belote-ref is not on a package index: the pages install it from a clone, with extras it defines."""
    import re
    import tomllib

    root = Path(__file__).resolve().parents[1]
    extras = set(tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"])
    pages = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
    named = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"pip install\s+['\"]?belote-ref", text), page
        named += [(page.name, extra) for extra in re.findall(r"pip install\s+['\"]?\.\[([a-z,]+)\]", text)]
    assert named, "no page says how to install the extras"
    for page, extra_list in named:
        assert set(extra_list.split(",")) <= extras, (page, extra_list)
