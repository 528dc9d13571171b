"""Shared test set-up: belote-ref's disk cache lives in a folder of this test session, and the slowest
read-only work (the site builds, the lint of the shipped corpus) is done once, in the background.

That work is subprocesses of the CLI, run one after the other in a thread from the start of the session
(the work that a selected test asks for by its fixture): they run while the other tests do, since the
suite itself keeps one core busy. The tests that read their results run last, and their fixture waits
for the result; each result is the one the same command gives in the foreground.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session", autouse=True)
def _session_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    # The user's cache is neither read nor written by the tests; subprocesses inherit the folder.
    previous = os.environ.get("BELOTE_REF_CACHE_DIR")
    os.environ["BELOTE_REF_CACHE_DIR"] = str(tmp_path_factory.mktemp("belote-ref-cache"))
    yield
    if previous is None:
        os.environ.pop("BELOTE_REF_CACHE_DIR", None)
    else:
        os.environ["BELOTE_REF_CACHE_DIR"] = previous


#: The subprocesses of the background work, killed at the end of the session if still running.
_CHILDREN: list[subprocess.Popen[str]] = []
_CHILDREN_LOCK = threading.Lock()
_STOPPING = threading.Event()
#: Generous: a result never depends on the machine's speed, only a hung command is stopped.
SUBPROCESS_TIMEOUT = 1800


def run_command(command: list[str], *, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``subprocess.run`` whose process the session can kill when it ends. The folder and the
    environment are always given: a test running meanwhile may change the process's own."""
    with _CHILDREN_LOCK:
        if _STOPPING.is_set():
            raise RuntimeError("the test session is ending")
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd, env=env)
        _CHILDREN.append(child)
    try:
        stdout, stderr = child.communicate(timeout=SUBPROCESS_TIMEOUT)
    except BaseException:
        child.kill()
        child.communicate()
        raise
    return subprocess.CompletedProcess(command, child.returncode, stdout, stderr)


def run_checked(command: list[str], *, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    result = run_command(command, cwd=cwd, env=env)
    assert result.returncode == 0, f"{command}: {result.stdout[-2000:]}{result.stderr[-2000:]}"
    return result


class _Job:
    """One piece of background work, ``work(folder, environment)``; ``result()`` waits for it and
    returns its value or raises what it raised (a failed assertion, a skip)."""

    def __init__(self, work: Callable[[Path, dict[str, str]], Any], folder: Path) -> None:
        self.work, self.folder = work, folder
        self._done = threading.Event()
        self._value: Any = None
        self._error: BaseException | None = None

    def run(self, env: dict[str, str]) -> None:
        try:
            self._value = self.work(self.folder, env)
        except BaseException as error:  # re-raised in the test that waits for it
            self._error = error
        finally:
            self._done.set()

    def result(self) -> Any:
        assert self._done.wait(SUBPROCESS_TIMEOUT * 4), "the background work did not end"
        if self._error is not None:
            raise self._error
        return self._value


class _Worker:
    """The jobs, run one after the other in one thread (one core for the background work, one for the
    tests: never more processes busy than CI's two cores), with the environment of the session's start."""

    def __init__(self, jobs: list[_Job]) -> None:
        self._jobs = jobs
        self._thread = threading.Thread(target=self._run, args=(dict(os.environ),), daemon=True)
        self._thread.start()

    def _run(self, env: dict[str, str]) -> None:
        for job in self._jobs:
            job.run(env)


@dataclass(frozen=True)
class InstalledClubSite:
    """The site a club publishes with an installed wheel: its house rule, what the CLI printed, where
    belote_ref was imported from, and the built folder."""

    house_rule: str
    venv: Path
    where: str
    built: str
    site: Path


def _house_rule() -> str:
    """The five-line house rule of docs/house-rules.md, as the page shows it."""
    text = (REPO / "docs" / "house-rules.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(.*?)```", text, flags=re.DOTALL)
    assert block, "docs/house-rules.md shows a house rule"
    return block.group(1)


def _installed_club_site(tmp_path: Path, env: dict[str, str]) -> InstalledClubSite:
    """A wheel of the repository installed in a new venv, whose CLI builds the house rule's site in an
    empty folder."""
    if sys.platform == "win32":
        pytest.skip("venv layout")
    pytest.importorskip("mkdocs")
    wheels = tmp_path / "wheels"
    run_checked([sys.executable, "-m", "pip", "wheel", str(REPO), "-w", str(wheels), "--no-deps", "-q"],
                cwd=tmp_path, env=env)
    wheel = next(wheels.glob("belote_ref-*.whl"))
    venv = tmp_path / "venv"
    run_checked([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path, env=env)
    python = venv / "bin" / "python"
    run_checked([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                cwd=tmp_path, env=env)
    # The dependencies (MkDocs, Material, PyYAML...) come from this environment's site-packages, listed
    # after the new venv's own: belote_ref itself is the wheel's (a .pth line does not run other .pth files).
    purelib = [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
    site_packages = Path(run_checked(purelib, cwd=tmp_path, env=env).stdout.strip())
    (site_packages / "zz_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    club = tmp_path / "club"
    club.mkdir()
    house_rule = _house_rule()
    (club / "our-club.yaml").write_text(house_rule, encoding="utf-8")
    env = {k: v for k, v in env.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    where = run_checked([str(python), "-c", "import belote_ref; print(belote_ref.__file__)"], cwd=club, env=env).stdout
    build = [str(venv / "bin" / "belote-ref"), "docs", "build", "--ruleset", "our-club.yaml", "--out", "site"]
    built = run_checked(build, cwd=club, env=env).stdout
    return InstalledClubSite(house_rule, venv, where, built, club / "site")


def _default_site(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The site built by the CLI, strict, with the repository's configuration, into ``tmp_path/site``."""
    return run_command([sys.executable, "-m", "belote_ref.cli", "docs", "build", "--out", str(tmp_path / "site"),
                        "--config", str(REPO / "mkdocs.yml")], cwd=tmp_path, env=env)


def _shipped_corpus_lint(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`belote-ref conformance lint` of the shipped corpus (its dependency check runs the engine some
    270,000 times: the slowest test of the suite when run in the foreground)."""
    return run_command([sys.executable, "-m", "belote_ref.cli", "conformance", "lint"], cwd=tmp_path, env=env)


#: The property tests of the three untrusted-input families, 2,000 inputs each (issue 11).
FUZZ_FAMILIES = (
    "tests/test_untrusted_yaml.py::test_a_damaged_house_rule_loads_or_says_why_in_one_line_each",
    "tests/test_untrusted_records.py::test_any_damaged_record_is_one_line_of_error_and_the_rest_is_checked",
    "tests/test_untrusted_records.py::test_any_damaged_message_gets_one_valid_utf8_json_reply",
)
#: Address space of the process that runs them: an unbounded expansion would fail them.
FUZZ_FAMILIES_MEMORY_CAP = 2 << 30


def _capped_fuzz_families(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Pytest of ``FUZZ_FAMILIES`` in a process whose address space is capped (set before exec by a
    launcher: a ``preexec_fn`` is not safe in a process with threads)."""
    launcher = ("import os, resource, sys; cap = int(sys.argv[1]); resource.setrlimit(resource.RLIMIT_AS, (cap, cap)); "
                "os.execv(sys.executable, [sys.executable, '-m', 'pytest', *sys.argv[2:]])")
    return run_command([sys.executable, "-c", launcher, str(FUZZ_FAMILIES_MEMORY_CAP), "-q", "-p", "no:cacheprovider",
                        "-m", "slow or not slow",  # two of the families are of the slow tier
                        *FUZZ_FAMILIES], cwd=REPO, env=env)


#: The reference engine's self-agreement fuzz: this many situations of each kind, this seed.
SELF_FUZZ_PER_KIND = 2000
SELF_FUZZ_SEED = 2026


def _reference_self_fuzz(tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], Path]:
    """`belote-ref conformance fuzz` of the reference engine (`belote-ref serve`) against itself."""
    from belote_ref.protocol.serve import KINDS

    report = tmp_path / "fuzz.jsonl"
    done = run_command([sys.executable, "-m", "belote_ref.cli", "conformance", "fuzz",
                        "--budget", str(SELF_FUZZ_PER_KIND * len(KINDS)), "--seed", str(SELF_FUZZ_SEED),
                        "--out", str(tmp_path / "found"), "--report", str(report)], cwd=tmp_path, env=env)
    return done, report


_BACKGROUND: dict[str, Callable[[Path, dict[str, str]], Any]] = {
    "installed_club_site": _installed_club_site,
    "default_site_build": _default_site,
    "shipped_corpus_lint": _shipped_corpus_lint,
    "capped_fuzz_families": _capped_fuzz_families,
    "reference_self_fuzz": _reference_self_fuzz,
}


def _background_names(item: pytest.Item) -> list[str]:
    return [name for name in getattr(item, "fixturenames", ()) if name in _BACKGROUND]


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests that wait for background work run last (in their order), so that the work is done
    while the others run."""
    items[:] = [item for item in items if not _background_names(item)] + \
        [item for item in items if _background_names(item)]


@pytest.fixture(scope="session", autouse=True)
def _background_jobs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                     _session_cache_dir: None) -> Iterator[dict[str, _Job]]:
    """The background work that the selected tests ask for, started now in the order they need it
    (after the cache folder is set, so that the subprocesses inherit it)."""
    names = list(dict.fromkeys(name for item in request.session.items for name in _background_names(item)))
    jobs = {name: _Job(_BACKGROUND[name], tmp_path_factory.mktemp(name)) for name in names}
    _Worker(list(jobs.values()))
    yield jobs
    _STOPPING.set()
    with _CHILDREN_LOCK:
        for child in _CHILDREN:
            if child.poll() is None:
                child.kill()
                child.wait()


def _background(jobs: dict[str, _Job], name: str, tmp_path_factory: pytest.TempPathFactory) -> Any:
    if name not in jobs:  # asked for by a test that was not selected at the start: done now
        jobs[name] = _Job(_BACKGROUND[name], tmp_path_factory.mktemp(name))
        jobs[name].run(dict(os.environ))
    return jobs[name].result()


@pytest.fixture(scope="session")
def installed_club_site(_background_jobs: dict[str, _Job],
                        tmp_path_factory: pytest.TempPathFactory) -> InstalledClubSite:
    """The house rule's site as a club publishes it with an installed wheel (see ``_installed_club_site``)."""
    return _background(_background_jobs, "installed_club_site", tmp_path_factory)


@pytest.fixture(scope="session")
def default_site_build(_background_jobs: dict[str, _Job],
                       tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    """What ``belote-ref docs build`` of the repository printed, and the built folder."""
    done = _background(_background_jobs, "default_site_build", tmp_path_factory)
    return done, Path(done.args[done.args.index("--out") + 1])


@pytest.fixture(scope="session")
def shipped_corpus_lint(_background_jobs: dict[str, _Job],
                        tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess[str]:
    """What ``belote-ref conformance lint`` printed about the shipped corpus, and its exit status."""
    return _background(_background_jobs, "shipped_corpus_lint", tmp_path_factory)


@pytest.fixture(scope="session")
def capped_fuzz_families(_background_jobs: dict[str, _Job],
                         tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess[str]:
    """What pytest of ``FUZZ_FAMILIES`` under ``FUZZ_FAMILIES_MEMORY_CAP`` printed, and its exit status."""
    return _background(_background_jobs, "capped_fuzz_families", tmp_path_factory)


@pytest.fixture(scope="session")
def reference_self_fuzz(_background_jobs: dict[str, _Job],
                        tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    """What the reference engine's self-fuzz printed, its exit status, and its JSON Lines report."""
    return _background(_background_jobs, "reference_self_fuzz", tmp_path_factory)
