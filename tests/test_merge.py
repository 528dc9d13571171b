"""conformance merge: the reports of shards of one run join into the report of the whole run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from belote_ref.cli import main
from belote_ref.core.resources import data_dir


def report(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def without_times(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{key: value for key, value in line.items() if key != "ms"} for line in lines if line["type"] != "header"]


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("shards")
    paths = {name: folder / f"{name}.jsonl" for name in ("whole", "classic", "pagat")}
    rulesets = {"whole": ["classic", "pagat"], "classic": ["classic"], "pagat": ["pagat"]}
    for name, path in paths.items():
        argv = ["conformance", "run", "--id", "score.", "--report", str(path)]
        for ruleset in rulesets[name]:
            argv += ["--ruleset", ruleset]
        assert main(argv) == 0
    return paths


def test_merged_shards_are_the_whole_run(shards: dict[str, Path], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    merged = tmp_path / "merged.jsonl"
    capsys.readouterr()
    assert main(["conformance", "merge", str(shards["classic"]), str(shards["pagat"]), "-o", str(merged)]) == 0
    assert "2 report(s) merged" in capsys.readouterr().out
    lines = report(merged)
    assert without_times(lines) == without_times(report(shards["whole"]))
    header = lines[0]
    assert [entry["report"] for entry in header["merged_from"]] == [str(shards["classic"]), str(shards["pagat"])]
    assert header["ruleset_refs"] == {"classic": "classic", "pagat": "pagat"}
    schema = json.loads((data_dir("schema") / "report.schema.json").read_text(encoding="utf-8"))
    # The schema checked once and its validator made once (jsonschema.validate does both for every line).
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    for line in lines:
        validator.validate(line)
    # A merged report reads back like any other.
    assert main(["conformance", "summary", str(merged)]) == 0


def test_overlapping_shards_are_refused(shards: dict[str, Path], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    status = main(["conformance", "merge", str(shards["whole"]), str(shards["pagat"]), "-o", str(tmp_path / "m.jsonl")])
    assert status == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {shards['pagat']}: case score.") and err.endswith("shards must not overlap")
    assert not (tmp_path / "m.jsonl").exists()


def test_reports_of_other_runs_are_refused(shards: dict[str, Path], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.jsonl"
    lines = report(shards["pagat"])
    lines[0]["adapter"] = {**lines[0]["adapter"], "name": "another-engine"}
    other.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    capsys.readouterr()
    assert main(["conformance", "merge", str(shards["classic"]), str(other), "-o", str(tmp_path / "m.jsonl")]) == 2
    assert "not a shard of the run of" in capsys.readouterr().err
