"""The disk cache of checked data: keyed by content, never trusted when it does not read back intact."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from belote_ref.core.cache import cache_dir, cached_json
from belote_ref.conformance.corpus import (
    _load_corpus_report,
    fixtures_dir,
    load_corpus_report,
)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("BELOTE_REF_CACHE_DIR", str(cache))
    monkeypatch.delenv("BELOTE_REF_CACHE", raising=False)
    return cache


class Counter:
    def __init__(self, payload: Any) -> None:
        self.payload = payload
        self.calls = 0

    def __call__(self) -> Any:
        self.calls += 1
        return self.payload


def test_a_second_call_reads_the_cache(folder: Path, tmp_path: Path) -> None:
    source = tmp_path / "a.yaml"
    source.write_text("x: 1\n")
    compute = Counter({"x": [1, 2.5, None, True, "é"]})
    assert cached_json("thing", [source], compute) == compute.payload
    assert cached_json("thing", [source], compute) == compute.payload
    assert compute.calls == 1
    assert len(list(folder.glob("thing-*.json"))) == 1


def test_a_changed_file_is_a_new_key(folder: Path, tmp_path: Path) -> None:
    source = tmp_path / "a.yaml"
    source.write_text("x: 1\n")
    first, second = Counter({"x": 1}), Counter({"x": 2})
    assert cached_json("thing", [source], first) == {"x": 1}
    source.write_text("x: 2\n")
    assert cached_json("thing", [source], second) == {"x": 2}
    assert second.calls == 1


@pytest.mark.parametrize("damage", [
    lambda text: text[: len(text) // 2],                          # a truncated write
    lambda text: text.replace('"x":1', '"x":9'),                  # the payload changed, not its digest
    lambda text: "not json at all\n",
    lambda text: "",
    lambda text: text.split("\n", 1)[0] + "\n\xff\xfe",           # bytes that are not UTF-8
    lambda text: json.dumps({"format": 1, "key": "other", "sha256": ""}) + "\n{}",
])
def test_a_damaged_cache_file_is_ignored_and_rebuilt(folder: Path, tmp_path: Path, damage: Any) -> None:
    source = tmp_path / "a.yaml"
    source.write_text("x: 1\n")
    compute = Counter({"x": 1})
    cached_json("thing", [source], compute)
    [entry] = folder.glob("thing-*.json")
    entry.write_bytes(damage(entry.read_text(encoding="utf-8")).encode("utf-8", "surrogateescape"))
    assert cached_json("thing", [source], compute) == {"x": 1}
    assert compute.calls == 2
    assert cached_json("thing", [source], compute) == {"x": 1}  # rewritten whole
    assert compute.calls == 2


def test_a_payload_of_the_wrong_shape_is_recomputed(folder: Path, tmp_path: Path) -> None:
    source = tmp_path / "a.yaml"
    source.write_text("x: 1\n")
    cached_json("thing", [source], Counter(["a", "list"]))
    compute = Counter({"x": 1})
    assert cached_json("thing", [source], compute, valid=lambda payload: isinstance(payload, dict)) == {"x": 1}
    assert compute.calls == 1


def test_an_unwritable_cache_folder_costs_only_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("BELOTE_REF_CACHE_DIR", str(blocker / "cache"))  # below a file: cannot be created
    source = tmp_path / "a.yaml"
    source.write_text("x: 1\n")
    compute = Counter({"x": 1})
    assert cached_json("thing", [source], compute) == {"x": 1}
    assert cached_json("thing", [source], compute) == {"x": 1}
    assert compute.calls == 2


def test_the_cache_can_be_turned_off(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELOTE_REF_CACHE", "off")
    assert cache_dir() is None
    source = tmp_path / "a.yaml"
    source.write_text("x: 1\n")
    compute = Counter({"x": 1})
    cached_json("thing", [source], compute)
    cached_json("thing", [source], compute)
    assert compute.calls == 2
    assert not folder.exists()


def test_the_cached_corpus_is_the_corpus(folder: Path, tmp_path: Path) -> None:
    root = tmp_path / "fixtures"
    shutil.copytree(fixtures_dir() / "legal_plays", root / "legal_plays")
    (root / "broken.yaml").write_text("id: [unclosed\n")
    fresh = load_corpus_report(root)
    assert fresh.fixtures and all(fixture.located is not None for fixture in fresh.fixtures)
    _load_corpus_report.cache_clear()  # as a later process would
    cached = load_corpus_report(root)
    assert all(fixture.located is None for fixture in cached.fixtures)
    assert [(f.path, f.data) for f in cached.fixtures] == [(f.path, f.data) for f in fresh.fixtures]
    assert cached.failures == fresh.failures
    # A corrupt corpus cache is ignored: the files are read again, with their positions.
    [entry] = folder.glob("corpus-*.json")
    entry.write_bytes(entry.read_bytes()[:-100])
    _load_corpus_report.cache_clear()
    again = load_corpus_report(root)
    assert [(f.path, f.data) for f in again.fixtures] == [(f.path, f.data) for f in fresh.fixtures]
    assert all(fixture.located is not None for fixture in again.fixtures)
    # An edited fixture is read again.
    edited = min((root / "legal_plays").rglob("*.yaml"))
    data = yaml.safe_load(edited.read_text(encoding="utf-8"))
    edited.write_text(yaml.safe_dump({**data, "title": "edited"}, allow_unicode=True), encoding="utf-8")
    _load_corpus_report.cache_clear()
    assert [f.data["title"] for f in load_corpus_report(root).fixtures if f.path == edited] == ["edited"]
    _load_corpus_report.cache_clear()
