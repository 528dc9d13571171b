"""Untrusted input, handled: a bad ruleset or fixture gets one clear line and exit 2 (or 1 for lint),
never an internal error, a traceback, a hang or unbounded memory.

``tests/data/invalid-rulesets/`` holds one small file per must-reject case, each with a
``.expected`` file: a fragment of the one line the CLI must print.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_ref import RulesetError, find_ruleset, load_ruleset
from belote_ref.cli import main
from belote_ref.conformance import corpus, lint
from belote_ref.conformance.corpus import fixtures_dir, load_corpus, load_corpus_report
from belote_ref.core.yamlsource import MAX_FILE_BYTES, MAX_NODES, read_yaml

INVALID = Path(__file__).parent / "data" / "invalid-rulesets"
INVALID_FILES = sorted(INVALID.glob("*.yaml"))
HOUSE = "id: house\nversion: 1\ntitle: House\nextends: classic\nplay: {undertrump_over_opponent: optional}\n"
SECRET = "s3cr3t-Content-0f-a-file"


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    """The single line on standard error (and nothing that looks like a crash)."""
    err = capsys.readouterr().err
    assert "internal error" not in err and "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


def house(**values: str) -> str:
    fields = {"id": "house", "version": "1", "title": "House", "extends": "classic", **values}
    return "".join(f"{key}: {value}\n" for key, value in fields.items())


def bomb(levels: int) -> str:
    """Anchors each referencing the previous one ten times: 10**levels strings once expanded."""
    lines = ["lol0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"lol{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, levels)]
    return "id: house\nversion: 1\nextends: classic\n" + "\n".join(lines) + f"\ntitle: *a{levels - 1}\n"


# ------------------------------------------------------------------------ the must-reject files


def test_every_invalid_file_says_what_to_expect() -> None:
    assert len(INVALID_FILES) >= 20
    assert all(path.with_suffix(".expected").is_file() for path in INVALID_FILES)


@pytest.mark.parametrize("path", INVALID_FILES, ids=[p.stem for p in INVALID_FILES])
@pytest.mark.parametrize("command", ["validate", "show"])
def test_an_invalid_ruleset_gets_one_line_and_exit_2(path: Path, command: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", command, str(path)]) == 2
    line = one_line(capsys)
    assert line.startswith(f"{path}:")
    assert path.with_suffix(".expected").read_text(encoding="utf-8").strip() in line


# ------------------------------------------------------------------------------- 1. YAML tags


@pytest.mark.parametrize(("value", "fragment"), [
    ('!!python/object/apply:os.system "id"', "YAML tag !!python/object/apply:os.system is not allowed"),
    ("!!python/name:os.system", "YAML tag !!python/name:os.system is not allowed"),
    ("!!int abc", "not a valid integer (tagged !!int)"),
    ("!!float abc", "not a valid number (tagged !!float)"),
    ("!!omap [a: 1]", "YAML tag !!omap is not allowed"),
    ("!<tag:example.com,2000:app/x> y", "YAML tag !<tag:example.com,2000:app/x> is not allowed"),
])
def test_tags_beyond_the_plain_ones_are_refused(tmp_path: Path, value: str, fragment: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(house(title=value))
    assert main(["rules", "validate", str(path)]) == 2
    line = one_line(capsys)
    assert line.startswith(f"{path}:3:8: title: ") and fragment in line


def test_plain_core_tags_are_read(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(house(version="!!int 2", title="!!str 1001",
                          play="!!map {undertrump_over_opponent: !!str optional}"))
    ruleset = load_ruleset(path)
    assert (ruleset.version, ruleset.title["en"], ruleset["play.undertrump_over_opponent"]) == (2, "1001", "optional")


def test_a_date_is_never_built_it_stays_a_string(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(house(version="2001-13-45"))
    assert main(["rules", "validate", str(path)]) == 2
    assert one_line(capsys) == f'{path}:2:1: version: expected an integer; found a string "2001-13-45"'
    located, problems = read_yaml("t.yaml", text="a: 2001-12-14\nb: 2001-12-14 21:59:43.10 -5\nc: <<\nd: =\n")
    assert located is not None and not problems
    assert located.data == {"a": "2001-12-14", "b": "2001-12-14 21:59:43.10 -5", "c": "<<", "d": "="}


# --------------------------------------------------------------------------- 2. huge integers


def test_a_5000_digit_integer_is_too_large(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(house(version="9" * 5000))
    assert main(["rules", "validate", str(path)]) == 2
    assert one_line(capsys) == f"{path}:2:10: version: number too large (more than 30 digits)"


def test_a_30_digit_integer_is_read_then_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(house(game=f"{{target_points: {'9' * 30}}}"))
    assert main(["rules", "validate", str(path)]) == 2
    assert one_line(capsys).startswith(f"{path}:5:8: game.target_points: expected an integer <= ")


# ------------------------------------------------------------------------------ 3. aliases


def test_a_recursive_alias_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(house(title="&a [*a]"))
    assert main(["rules", "validate", str(path)]) == 2
    assert one_line(capsys) == f"{path}:3:12: title[0]: recursive alias *a: the anchor contains itself"


@pytest.mark.parametrize("levels", [6, 9], ids=["a-million", "a-billion"])
def test_an_alias_bomb_stops_at_the_node_budget(tmp_path: Path, levels: int,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(bomb(levels))
    assert main(["rules", "validate", str(path)]) == 2
    line = one_line(capsys)
    assert line.startswith(f"{path}:")
    assert line.endswith(f"too many nodes after alias expansion (more than {MAX_NODES})")


def test_aliases_within_the_budget_are_expanded_with_positions() -> None:
    located, problems = read_yaml("t.yaml", text="base: &b {x: [1, 2]}\ncopy: *b\nlist: [*b]\n")
    assert located is not None and not problems
    assert located.data == {"base": {"x": [1, 2]}, "copy": {"x": [1, 2]}, "list": [{"x": [1, 2]}]}
    located.data["copy"]["x"].append(3)  # every copy is its own list, as written out in full
    assert located.data["base"]["x"] == [1, 2]
    assert located.where(("copy", "x")) == (1, 11) and located.where(("list", 0)) == (1, 7)


# --------------------------------------------------------------------- 4. nesting and size


@pytest.mark.parametrize("nesting", ["[" * 900 + "]" * 900, "{a: " * 900 + "1" + "}" * 900])
def test_900_levels_of_nesting_are_refused(tmp_path: Path, nesting: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(house(title=nesting))
    assert main(["rules", "validate", str(path)]) == 2
    line = one_line(capsys)
    assert line.startswith(f"{path}:3:") and line.endswith("nested more than 64 levels deep")


def test_a_file_over_2_mib_is_refused_unparsed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(house(description="x" * MAX_FILE_BYTES))
    assert main(["rules", "validate", str(path)]) == 2
    assert one_line(capsys) == f"{path}: the file is too large (more than 2 MiB)"


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_device_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "validate", "/dev/zero"]) == 2
    assert one_line(capsys) == "/dev/zero: the file is too large (more than 2 MiB)"


# ---------------------------------------------------------------------- 5. long extends names


@pytest.mark.parametrize("extends", ["a" * 300 + ".yaml", "a/" * 3000 + "b.yaml", "a" * 300])
def test_a_name_too_long_for_the_system_is_not_found(tmp_path: Path, extends: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(house(extends=extends))
    assert main(["rules", "validate", str(path)]) == 2
    line = one_line(capsys)
    assert line.startswith(f"{path}:4:1: extends: ")
    assert "parent file not found" in line or "unknown parent ruleset" in line
    assert len(line) < 600


def test_a_reference_too_long_for_the_system(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "a" * 300]) == 2
    assert "unknown ruleset" in one_line(capsys)


# -------------------------------------------------------------------- 6. extends confinement


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside the house rule's folder, whose content must never be shown."""
    path = tmp_path / "elsewhere" / "secret.yaml"
    path.parent.mkdir()
    path.write_text(f"{SECRET}: {SECRET}\nroot:x:0:0:{SECRET}\n")
    return path


@pytest.fixture
def club(tmp_path: Path) -> Path:
    folder = tmp_path / "club"
    folder.mkdir()
    return folder


def test_an_absolute_path_outside_is_refused_unread(club: Path, secret: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = club / "house.yaml"
    path.write_text(house(extends=str(secret)))
    assert main(["rules", "validate", str(path)]) == 2
    line = one_line(capsys)
    assert line == (f"{path}:4:1: extends: {str(secret)!r} is outside the allowed folders (the extending file's "
                    f"folder {os.path.realpath(club)}); use a shipped id or a file beside it")
    assert SECRET not in line


def test_etc_passwd_is_refused_unread(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = club / "house.yaml"
    path.write_text(house(extends="/etc/passwd"))
    assert main(["rules", "show", str(path)]) == 2
    line = one_line(capsys)
    assert "'/etc/passwd' is outside the allowed folders" in line and "root:" not in line


def test_dot_dot_may_not_leave_the_folder(club: Path, secret: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = club / "house.yaml"
    path.write_text(house(extends="../elsewhere/secret.yaml"))
    assert main(["rules", "validate", str(path)]) == 2
    line = one_line(capsys)
    assert "'../elsewhere/secret.yaml' is outside the allowed folders" in line and SECRET not in line


def test_a_symlink_may_not_leave_the_folder(club: Path, secret: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (club / "base.yaml").symlink_to(secret)
    path = club / "house.yaml"
    path.write_text(house(extends="base.yaml"))
    assert main(["rules", "validate", str(path)]) == 2
    line = one_line(capsys)
    assert "'base.yaml' is outside the allowed folders" in line and SECRET not in line


def test_a_parent_that_is_no_ruleset_is_not_quoted(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (club / "notes.yaml").write_text(f"{SECRET} and more\n")
    (club / "config.yaml").write_text(f"id: {SECRET}\nversion: {SECRET}\ntitle: [{SECRET}]\n")
    for parent in ("notes.yaml", "config.yaml"):
        path = club / "house.yaml"
        path.write_text(house(extends=parent))
        assert main(["rules", "validate", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(str(club / parent)) and SECRET not in err and "internal error" not in err, err
    (club / "house.yaml").write_text(house(extends="notes.yaml"))
    assert main(["rules", "validate", str(club / "house.yaml")]) == 2
    assert one_line(capsys) == f"{club / 'notes.yaml'}:1:1: expected a mapping of keys, found a string"


def test_the_extending_files_own_values_are_still_quoted(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = club / "house.yaml"
    path.write_text(house(version="many"))
    assert main(["rules", "validate", str(path)]) == 2
    assert one_line(capsys).endswith('version: expected an integer; found a string "many"')


def test_a_file_beside_or_below_is_allowed(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (club / "sub").mkdir()
    (club / "sub" / "base.yaml").write_text(house(id="base", game="{target_points: 501}"))
    (club / "base.yaml").write_text(house(id="top", extends="sub/base.yaml"))
    (club / "house.yaml").write_text(house(extends="base.yaml"))
    assert load_ruleset(club / "house.yaml")["game.target_points"] == 501
    (club / "link.yaml").symlink_to(club / "sub" / "base.yaml")
    (club / "house.yaml").write_text(house(extends="link.yaml"))
    assert main(["rules", "validate", str(club / "house.yaml")]) == 0


def test_rules_path_names_more_folders(tmp_path: Path, club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "base.yaml").write_text(house(id="base", game="{target_points: 501}"))
    path = club / "house.yaml"
    path.write_text(house(extends="base.yaml"))
    assert main(["rules", "validate", str(path)]) == 2
    assert "parent file not found: 'base.yaml'" in one_line(capsys)
    assert main(["rules", "validate", "--rules-path", str(shared), str(path)]) == 0
    assert main(["rules", "show", "--json", "--rules-path", str(shared), str(path)]) == 0
    assert '"game.target_points": 501' in capsys.readouterr().out
    assert main(["rules", "diff", "--rules-path", str(shared), "classic", str(path)]) == 0
    assert "game.target_points" in capsys.readouterr().out
    assert load_ruleset(path, search_path=[shared])["game.target_points"] == 501
    # `..` may reach a folder of the search path, and no further.
    (club / "up.yaml").write_text(house(extends="../shared/base.yaml"))
    assert load_ruleset(club / "up.yaml", search_path=[shared])["game.target_points"] == 501
    with pytest.raises(RulesetError, match="is outside the allowed folders"):
        load_ruleset(club / "up.yaml", search_path=[tmp_path / "nowhere"])


def test_conformance_run_takes_rules_path(tmp_path: Path, club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "base.yaml").write_text(house(id="base"))
    path = club / "house.yaml"
    path.write_text(house(extends="base.yaml"))
    command = ["conformance", "run", "--impl", "python:belote_ref.protocol.serve:adapter", "--id", _classic_fixture().id,
               "--ruleset", str(path)]
    assert main(command) == 2
    assert "parent file not found: 'base.yaml'" in one_line(capsys)
    assert main([*command, "--rules-path", str(shared)]) == 0


# ----------------------------------------------------------------------------------- 7. fixtures


def _classic_fixture() -> corpus.Fixture:
    """A shipped fixture with a case under the classic rules."""
    classic = find_ruleset("classic")
    return next(fixture for fixture in load_corpus() if fixture.expected(classic) is not None)


def _bad_fixture(folder: Path) -> tuple[Path, Path]:
    """A copy of a shipped score fixture, and a broken copy whose card points are not numbers."""
    shipped = next(path for path in sorted((fixtures_dir() / "score").rglob("*.yaml"))
                   if "card_points: {NS: " in path.read_text())
    good = folder / "good.yaml"
    shutil.copy(shipped, good)
    data = yaml.safe_load(shipped.read_text())
    data["id"] += "-broken"
    data["expect"][0]["result"]["card_points"]["NS"] = None
    bad = folder / "bad.yaml"
    bad.write_text(yaml.safe_dump(data, sort_keys=False))
    return good, bad


def test_lint_reports_a_bad_fixture_and_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, bad = _bad_fixture(tmp_path)
    unreadable = tmp_path / "unreadable.yaml"
    unreadable.write_text("id: !!python/name:os.system x\n")
    assert main(["conformance", "lint", str(unreadable), str(bad), str(good)]) == 1
    err = capsys.readouterr().err
    assert "internal error" not in err and "Traceback" not in err
    assert f"{unreadable}:1:5: id: YAML tag !!python/name:os.system is not allowed" in err
    assert f"{bad}:" in err and "expect[0].result.card_points: card points must be integers" in err
    assert err.splitlines()[-1].startswith("3 fixture file(s): ")


def test_lint_survives_a_check_that_trips(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    good, _ = _bad_fixture(tmp_path)

    def trip(fixture: corpus.Fixture, registry: object) -> list[object]:
        raise TypeError("unsupported operand")

    monkeypatch.setattr(lint, "_check_fixture", trip)
    assert main(["conformance", "lint", str(good), str(good)]) == 1
    err = capsys.readouterr().err
    assert err.count(f"{good}: lint could not check this file (TypeError: unsupported operand)") == 2


def test_load_corpus_report_names_the_files_that_failed(tmp_path: Path) -> None:
    good, _ = _bad_fixture(tmp_path)
    (tmp_path / "sub").mkdir()
    broken = tmp_path / "sub" / "broken.yaml"
    broken.write_text("id: x\nkind: [\n")
    report = load_corpus_report(tmp_path)
    assert [fixture.path for fixture in report.fixtures] == [tmp_path / "bad.yaml", good]
    assert [(path, [d.line for d in diagnostics]) for path, diagnostics in report.failures] == [(broken, [3])]
    assert load_corpus(tmp_path) == report.fixtures
    assert not load_corpus_report().failures  # the shipped corpus loads whole


def test_conformance_run_fails_when_a_fixture_did_not_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    clean, dirty = tmp_path / "clean", tmp_path / "dirty"
    for folder in (clean, dirty):
        folder.mkdir()
        shutil.copy(_classic_fixture().path, folder / "good.yaml")
    broken = dirty / "broken.yaml"
    broken.write_text(house(title='!!python/object/apply:os.system "id"'))
    command = ["conformance", "run", "--impl", "python:belote_ref.protocol.serve:adapter", "--ruleset", "classic"]
    monkeypatch.setattr(corpus, "fixtures_dir", lambda: clean)
    assert main(command) == 0
    monkeypatch.setattr(corpus, "fixtures_dir", lambda: dirty)
    assert main(command) == 1  # though every case passed
    captured = capsys.readouterr()
    assert "internal error" not in captured.err
    assert f"{broken}:3:8: title: YAML tag !!python/object/apply:os.system is not allowed" in captured.err
    assert captured.err.count("1 fixture file(s) could not be loaded") == 2  # before the run and after
    assert "pass" in captured.out


def test_fmt_refuses_a_file_that_is_no_mapping(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "list.yaml"
    path.write_text("- a\n- b\n")
    assert main(["fmt", "--check", str(path)]) == 2
    assert one_line(capsys) == f"{path}: not a fixture (a fixture is a mapping of keys): fmt rewrites only fixture files"


# ------------------------------------------------------------------------ property: any damage

FRAGMENTS = st.sampled_from([
    "!!python/object/apply:os.system [id]", "!!python/name:os.system", "!!int abc", "!!bool 5", "!!float x",
    "!!binary aGk=", "!!timestamp 2001-01-01", "!!set {a}", "!local x", "!<tag:x,2000:y> z", "!a%0Ab x",
    "2001-13-45", "2001-12-14t21:59:43.10-05:00", "<<", "=", "0b_", "0x_", "1:2:3", ".nan", "-.inf", "~",
    "9" * 31, "9" * 5000, "-" + "1" * 4400, "1e99999", "&a [*a]", "&b {k: *b}", "*undefined", "&c x", "*c",
    "[" * 100 + "]" * 100, "{a: " * 70 + "1" + "}" * 70, "[[[[", "}}", "'unclosed", '"\\0"', '"\\ud800"',
    "/etc/passwd", "../x.yaml", "a" * 300 + ".yaml", "a/" * 2000 + "b.yaml", "house.yaml", "classic", "",
    "? [a]\n: b", "--- \n", "...\n", "\t", "%YAML 1.1\n---\n", "%TAG !e! tag:e.com,2000:\n---\n", "\x00", "\x85",
    bomb(4).split("title:")[0], "lol: &z [" + ", ".join(["x"] * 50) + "]\nlols: [" + ", ".join(["*z"] * 50) + "]",
])
KEYS = st.sampled_from(["id", "version", "title", "extends", "description", "sources", "play",
                        "undertrump_over_opponent", "cards", "trump_points", "game", "target_points", "<<", "9"])


@st.composite
def damaged_house_rules(draw: st.DrawFn) -> str:
    text = HOUSE
    for _ in range(draw(st.integers(1, 4))):
        action = draw(st.sampled_from(["value", "insert", "text", "line", "cut"]))
        if action == "value":
            key = draw(KEYS)
            text += f"{key}: {draw(FRAGMENTS)}\n" if key not in text else ""
            text = text.replace(f"{key}: ", f"{key}: {draw(FRAGMENTS)} ", 1) if draw(st.booleans()) else text
        elif action == "insert":
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(FRAGMENTS) + text[at:]
        elif action == "text":
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.text(max_size=12)) + text[at:]
        elif action == "line":
            text += f"{draw(KEYS)}:\n  {draw(KEYS)}: {draw(FRAGMENTS)}\n"
        else:
            text = text[:draw(st.integers(0, len(text)))]
    return text


@pytest.mark.slow  # the slow tier: see README
@settings(max_examples=2000, deadline=None, database=None)
@given(text=damaged_house_rules())
def test_a_damaged_house_rule_loads_or_says_why_in_one_line_each(tmp_path_factory: pytest.TempPathFactory,
                                                                  text: str) -> None:
    path = tmp_path_factory.getbasetemp() / "damaged" / "house.yaml"
    path.parent.mkdir(exist_ok=True)
    try:
        load_ruleset(path, text=text)
    except RulesetError as error:
        assert error.diagnostics
        for diagnostic in error.diagnostics:
            line = str(diagnostic)
            assert "\n" not in line and "\r" not in line and len(line) < 2000, line
