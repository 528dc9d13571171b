"""The user's files (issue 31): no command deletes or rewrites a file it was not made for.

``docs build --out DIR`` refuses a folder that holds anything but an earlier build (MkDocs would empty
it), replaces an earlier build only once the new one is built, and leaves it as it was when the build
fails; ``fmt`` rewrites only fixtures, and refuses a ruleset or any other YAML file, byte for byte intact.
The builds here use a corpus of the few fixtures the hand-written pages link to.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from test_site import _require_mkdocs
from test_untrusted_site import linked_fixtures

from belote_ref.cli import main
from belote_ref.conformance.corpus import iter_fixture_paths
from belote_ref.conformance.fmt import format_fixture
from belote_ref.site import data as site_data
from belote_ref.site import reports as site_reports
from belote_ref.site.build import SITE_MARKER

# Slow tier (site builds into folders of every kind): left out of the quick default; see README.
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]


def _snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (its path from there) with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.fixture
def small_corpus(tmp_path: Path) -> Iterator[None]:
    """Builds over a corpus of the linked fixtures, with no committed reports."""
    _require_mkdocs()
    corpus = linked_fixtures()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(site_data, "load_corpus", lambda: corpus)
        patch.setattr(site_reports, "REPORTS_DIR", tmp_path / "no-reports")
        yield


def _build(out: str | Path, *more: str) -> int:
    return main(["docs", "build", "--out", str(out), "--config", str(REPO / "mkdocs.yml"), *more])


# ---------------------------------------------------------------------------------- docs build --out


def test_a_build_into_a_folder_of_the_users_refuses_and_keeps_every_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _require_mkdocs()
    out = tmp_path / "mine"
    (out / "drafts").mkdir(parents=True)
    (out / "notes.txt").write_text("the club's minutes\n", encoding="utf-8")
    (out / "drafts" / "rules.md").write_text("# our rules\n", encoding="utf-8")
    before = _snapshot(out)
    assert _build(out) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert str(out) in line and SITE_MARKER in line, line
    assert _snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]  # nothing built beside it either


def test_a_build_into_the_project_folder_refuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    _require_mkdocs()
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'club'\n", encoding="utf-8")
    (project / "src" / "club.py").write_text("print('belote')\n", encoding="utf-8")
    before = _snapshot(project)
    monkeypatch.chdir(project)
    assert _build(".") == 2
    assert str(project) in _one_error_line(capsys.readouterr().err)
    assert _snapshot(project) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["project"]


def test_a_file_in_the_way_of_the_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _require_mkdocs()
    out = tmp_path / "site"
    out.write_text("not a folder\n", encoding="utf-8")
    assert _build(out) == 2
    assert "not a folder" in _one_error_line(capsys.readouterr().err)
    assert out.read_text(encoding="utf-8") == "not a folder\n"


def test_a_build_replaces_an_earlier_build(tmp_path: Path, small_corpus: None,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "site"
    out.mkdir()
    (out / SITE_MARKER).write_text("an earlier build\n", encoding="utf-8")
    (out / "stale-page.html").write_text("<p>gone from the site</p>\n", encoding="utf-8")
    assert _build(out) == 0, capsys.readouterr().err
    assert "site built in" in capsys.readouterr().out
    assert (out / "index.html").is_file() and (out / "en" / "rulesets" / "classic" / "index.html").is_file()
    assert not (out / "stale-page.html").exists()
    assert (out / SITE_MARKER).is_file()  # so that the next build may replace it in turn
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no half-built or earlier folder left


def test_a_build_into_an_empty_folder_keeps_the_folder(tmp_path: Path, small_corpus: None) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    inode = out.stat().st_ino
    assert _build(out) == 0
    assert out.stat().st_ino == inode and (out / "index.html").is_file() and (out / SITE_MARKER).is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]


def test_a_failed_build_leaves_the_earlier_build_as_it_was(tmp_path: Path, small_corpus: None,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    # A configuration whose docs hold a broken link: the strict build fails once every page is written.
    docs = tmp_path / "docs"
    shutil.copytree(REPO / "docs", docs)
    (docs / "broken.md").write_text("# Broken\n\n[a rule](house-rules.md#no.such.anchor)\n", encoding="utf-8")
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    config.update(docs_dir=str(docs), not_in_nav="")
    config["theme"]["custom_dir"] = str(REPO / "belote_ref" / "site" / "theme")
    config["hooks"] = [str(REPO / hook) for hook in config.get("hooks", [])]
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    out = tmp_path / "site"
    out.mkdir()
    (out / SITE_MARKER).write_text("an earlier build\n", encoding="utf-8")
    (out / "index.html").write_text("<p>the earlier site</p>\n", encoding="utf-8")
    before = _snapshot(out)
    status = main(["docs", "build", "--out", str(out), "--config", str(tmp_path / "mkdocs.yml")])
    assert status != 0
    assert "did not build" in capsys.readouterr().err
    assert _snapshot(out) == before
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")]  # no half-built folder left


def test_a_configuration_mkdocs_refuses_is_one_line_and_leaves_the_earlier_build(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # MkDocs logs what is wrong, then raises Abort: that was printed as an internal error.
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    config.update(docs_dir=str(REPO / "docs"), hooks=[str(tmp_path / "no-such-hook.py")])
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    out = tmp_path / "site"
    out.mkdir()
    (out / SITE_MARKER).write_text("an earlier build\n", encoding="utf-8")
    before = _snapshot(out)
    assert main(["docs", "build", "--out", str(out), "--config", str(tmp_path / "mkdocs.yml")]) != 0
    err = capsys.readouterr().err
    assert "the configuration is not valid" in err and "internal error" not in err, err
    assert _snapshot(out) == before


# --------------------------------------------------------------------------------------------- fmt


RANDOM_YAML = """\
# The club's settings: kept by hand, commented.
name: our club   # the name on the sheet
players: [Ana, Ben, Chloé, Dev]
scores:
  # last season
  Ana: 1001
"""


def test_fmt_refuses_a_ruleset_and_leaves_it_byte_identical(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    ruleset = tmp_path / "our-club.yaml"
    ruleset.write_text("# our club\nid: our-club\nversion: 1\ntitle: Our club's belote  # shown on the site\n"
                       "extends: classic\nplay: {undertrump_over_opponent: optional}\n", encoding="utf-8")
    shipped = tmp_path / "pagat.yaml"
    shutil.copyfile(REPO / "rules" / "pagat.yaml", shipped)
    for path in (ruleset, shipped):
        before = path.read_bytes()
        for check in ([], ["--check"]):
            assert main(["fmt", *check, str(path)]) == 2
            line = _one_error_line(capsys.readouterr().err)
            assert line.startswith(f"{path}: not a fixture"), line
            assert path.read_bytes() == before


def test_fmt_refuses_any_yaml_mapping_that_is_not_a_fixture(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    settings = tmp_path / "settings.yaml"
    settings.write_text(RANDOM_YAML, encoding="utf-8")
    almost = tmp_path / "almost.yaml"  # a fixture's id and kind, but no given or expect
    almost.write_text("id: x.y\nkind: score\n# todo: the deal\n", encoding="utf-8")
    for path in (settings, almost):
        before = path.read_bytes()
        assert main(["fmt", str(path)]) == 2
        assert str(path) in _one_error_line(capsys.readouterr().err)
        assert path.read_bytes() == before


def test_fmt_writes_a_fixture_in_canonical_form(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = next(iter(iter_fixture_paths()))
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    fixture = tmp_path / "fixture.yaml"
    # The same fixture with its keys in reverse order, as a hand may write it.
    fixture.write_text(yaml.safe_dump(dict(reversed(list(data.items()))), sort_keys=False), encoding="utf-8")
    assert main(["fmt", str(fixture)]) == 0
    assert "1 changed" in capsys.readouterr().out
    assert fixture.read_text(encoding="utf-8") == format_fixture(data)
    assert main(["fmt", "--check", str(fixture)]) == 0


def test_fmt_writes_nothing_when_one_of_its_files_is_not_a_fixture(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    source = next(iter(iter_fixture_paths()))
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    fixture = tmp_path / "fixture.yaml"
    fixture.write_text(yaml.safe_dump(dict(reversed(list(data.items()))), sort_keys=False), encoding="utf-8")
    settings = tmp_path / "settings.yaml"
    settings.write_text(RANDOM_YAML, encoding="utf-8")
    before = _snapshot(tmp_path)
    assert main(["fmt", str(fixture), str(settings)]) == 2
    assert str(settings) in _one_error_line(capsys.readouterr().err)
    assert _snapshot(tmp_path) == before
