"""A build that reuses the earlier one (issue 29): after a one-line change to a house rule or to a docs/
page, ``docs build`` renders only the pages whose source changed, and the site is byte for byte the one
a full build of the same sources makes, search indexes included; a broken anchor still fails the
build; the build tells its progress on stderr; ``docs serve`` serves at once.

The builds use a corpus of the few fixtures the hand-written pages link to (as tests/test_untrusted_files.py).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from test_site import _require_mkdocs
from test_untrusted_site import linked_fixtures

from belote_ref.cli import main
from belote_ref.site import data as site_data
from belote_ref.site import reports as site_reports
from belote_ref.site.wording import t

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]

#: Files that legitimately differ between two builds of the same sources: the gzip header of the
#: sitemap carries the time it was written.
CARRIES_A_TIME = {"sitemap.xml.gz"}

HOUSE_RULE = ("# our club\nid: our-club\nversion: 1\ntitle: Our club's belote\n"
              "extends: classic\nplay: {{undertrump_over_opponent: {value}}}\n")


@pytest.fixture
def small_corpus(tmp_path: Path) -> Iterator[None]:
    _require_mkdocs()
    corpus = linked_fixtures()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(site_data, "load_corpus", lambda: corpus)
        patch.setattr(site_reports, "REPORTS_DIR", tmp_path / "no-reports")
        yield


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name not in CARRIES_A_TIME}


def _config_with_own_docs(tmp_path: Path) -> tuple[Path, Path]:
    """A configuration whose hand-written pages are a copy of docs/ the test may change."""
    docs = tmp_path / "docs"
    shutil.copytree(REPO / "docs", docs)
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    config.update(docs_dir=str(docs))
    config["theme"]["custom_dir"] = str(REPO / "belote_ref" / "site" / "theme")
    config["hooks"] = [str(REPO / hook) for hook in config.get("hooks", [])]
    path = tmp_path / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path, docs


def _build(out: Path, config: Path, *more: str) -> int:
    return main(["docs", "build", "--out", str(out), "--config", str(config), *more])


def _pages_written(err: str) -> tuple[int, int]:
    """The last ``writing pages n/N`` the build told."""
    found = re.findall(r"writing pages (\d+)/(\d+)", err)
    assert found, err
    return int(found[-1][0]), int(found[-1][1])


def _full_build(out: Path, config: Path, *more: str) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BELOTE_REF_CACHE", "off")  # no work folder: nothing to reuse
        assert _build(out, config, *more) == 0


def test_a_reused_build_after_a_house_rule_change_is_the_full_build(tmp_path: Path, small_corpus: None,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    config, _ = _config_with_own_docs(tmp_path)
    house = tmp_path / "our-club.yaml"
    house.write_text(HOUSE_RULE.format(value="optional"), encoding="utf-8")
    out = tmp_path / "site"
    assert _build(out, config, "--ruleset", str(house)) == 0
    first = capsys.readouterr()
    assert "site built in" in first.out
    everything = _pages_written(first.err)[1]
    page = out / "en" / "rulesets" / "our-club" / "index.html"
    before = page.read_bytes()

    house.write_text(HOUSE_RULE.format(value="required"), encoding="utf-8")  # one line changed
    assert _build(out, config, "--ruleset", str(house)) == 0
    written, to_write = _pages_written(capsys.readouterr().err)
    assert written == to_write and 0 < to_write < everything / 10, (to_write, everything)

    reference = tmp_path / "reference"
    _full_build(reference, config, "--ruleset", str(house))
    assert _snapshot(out) == _snapshot(reference)
    assert page.read_bytes() != before


def test_a_reused_build_after_a_docs_page_change_is_the_full_build(tmp_path: Path, small_corpus: None,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    config, docs = _config_with_own_docs(tmp_path)
    out = tmp_path / "site"
    assert _build(out, config) == 0
    everything = _pages_written(capsys.readouterr().err)[1]

    page = docs / "house-rules.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nA line the club added.\n", encoding="utf-8")
    assert _build(out, config) == 0
    written, to_write = _pages_written(capsys.readouterr().err)
    assert 0 < to_write < everything / 10, (to_write, everything)
    unchanged = _snapshot(out)
    assert "A line the club added." in (out / "house-rules" / "index.html").read_text(encoding="utf-8")

    reference = tmp_path / "reference"
    _full_build(reference, config)
    assert unchanged == _snapshot(reference)  # the search indexes of both languages too

    assert _build(out, config) == 0  # nothing changed: nothing rendered, the same site
    assert _pages_written(capsys.readouterr().err)[1] == 0
    assert _snapshot(out) == unchanged


def test_a_reused_build_still_fails_on_an_anchor_a_changed_page_dropped(tmp_path: Path, small_corpus: None,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    config, docs = _config_with_own_docs(tmp_path)
    (docs / "linking.md").write_text("# Linking\n\n[the section](target.md#kept-here)\n", encoding="utf-8")
    (docs / "target.md").write_text("# Target\n\n## Kept here\n\nText.\n", encoding="utf-8")
    out = tmp_path / "site"
    assert _build(out, config) == 0
    capsys.readouterr()
    before = _snapshot(out)

    (docs / "target.md").write_text("# Target\n\n## Renamed\n\nText.\n", encoding="utf-8")
    assert _build(out, config) != 0  # linking.md is not rendered again, but its link is checked
    assert "kept-here" in capsys.readouterr().err
    assert _snapshot(out) == before


def test_the_build_tells_its_progress_a_line_a_tenth_when_not_on_a_terminal(tmp_path: Path, small_corpus: None,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    config, _ = _config_with_own_docs(tmp_path)
    assert _build(tmp_path / "site", config) == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith(("reading pages", "writing pages"))]
    assert 2 <= len(lines) <= 24, err
    assert lines[-1].startswith("writing pages") and _pages_written(err)[0] == _pages_written(err)[1]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_docs_serve_serves_at_once_while_it_builds(tmp_path: Path) -> None:
    _require_mkdocs()
    port = _free_port()
    env = {**os.environ, "BELOTE_REF_CACHE_DIR": str(tmp_path / "cache")}
    log = tmp_path / "serve.log"
    with open(log, "wb") as stderr:
        server = subprocess.Popen([sys.executable, "-m", "belote_ref.cli", "docs", "serve", "--dev-addr",
                                   f"127.0.0.1:{port}"], env=env, stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        deadline = time.monotonic() + 90
        page = ""
        while not page and time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
                    page = response.read().decode("utf-8")
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)  # not listening yet: poll again, up to the deadline
        assert server.poll() is None, log.read_text(encoding="utf-8")
        # No earlier build in this cache: the page that says the site is being built, in both languages,
        # which asks for the build number to reload when the site is ready.
        assert t("en", "serve_building") in page and t("fr", "serve_building") in page, page[:500]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/.belote-ref-build", timeout=10) as response:
            assert response.read() == b"0"
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_on_a_terminal_the_progress_is_one_line_that_updates_itself() -> None:
    import io

    from belote_ref.cli.docs_verbs import PageProgress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    progress = PageProgress(stream)
    for done in range(4):
        progress("reading", done, 3)
    assert stream.getvalue() == "\rreading pages 0/3\rreading pages 1/3\rreading pages 2/3\rreading pages 3/3\n"
