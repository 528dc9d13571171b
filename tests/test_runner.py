"""The conformance runner against the reference adapter and deliberately misbehaving ones."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from belote_ref.cli import main
from belote_ref.conformance.adapter import SubprocessAdapter, open_adapter
from belote_ref.conformance.corpus import load_corpus
from belote_ref.conformance.runner import BAD_OUTCOMES, Case, RunOptions, build_cases, run_cases
from belote_ref.protocol.serve import run_case
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets

MISBEHAVE = Path(__file__).parent / "adapters" / "misbehave.py"


def misbehaving(mode: str) -> str:
    return f"{sys.executable} {MISBEHAVE} {mode}"


def some_cases(count: int = 6) -> list[Case]:
    cases = build_cases(load_corpus(), [find_ruleset("classic")])
    assert len(cases) >= count
    return cases[:count]


def run(impl: str, cases: list[Case], timeout: float = 5.0, **options: object) -> list[str]:
    _, results = run_cases(lambda: open_adapter(impl, timeout), cases, RunOptions(timeout=timeout, **options))  # type: ignore[arg-type]
    return [result.outcome for result in results]


class TestReferenceAdapter:
    @pytest.mark.slow  # the slow tier: see README
    def test_whole_corpus_passes_through_the_subprocess(self) -> None:
        cases = build_cases(load_corpus(), [find_ruleset(r) for r in shipped_rulesets()])
        hello, results = run_cases(lambda: open_adapter(None, 10), cases, RunOptions())
        assert hello["implementation"]["name"] == "belote-ref"
        bad = [(r.case.key, r.outcome, r.message, r.differences) for r in results if r.outcome != "pass"]
        assert bad == []

    def test_in_process_mode(self) -> None:
        outcomes = run("python:belote_ref.protocol.serve:adapter", some_cases())
        assert outcomes == ["pass"] * 6

    def test_per_case_mode(self) -> None:
        assert run(misbehaving("ok"), some_cases(3), per_case=True) == ["pass"] * 3


class TestMisbehavingAdapters:
    """Each adapter goes wrong on the 2nd run request; the runner reports it, restarts, goes on."""

    @pytest.mark.slow  # the slow tier: see README
    def test_hang_times_out_and_the_run_goes_on(self) -> None:
        started = time.monotonic()
        # The restarted adapter counts runs from 1 again, so its 2nd run (case 4) hangs too.
        assert run(misbehaving("hang"), some_cases(4), timeout=3.0) == ["pass", "timeout", "pass", "timeout"]
        assert time.monotonic() - started < 15

    def test_exit_mid_run_is_a_crash(self) -> None:
        assert run(misbehaving("exit"), some_cases(4)) == ["pass", "crash", "pass", "crash"]

    def test_garbage_is_a_crash(self) -> None:
        _, results = run_cases(lambda: open_adapter(misbehaving("garbage"), 5), some_cases(3), RunOptions(timeout=5))
        assert [r.outcome for r in results] == ["pass", "crash", "pass"]
        assert "not JSON" in results[1].message

    def test_wrong_seq_is_a_crash(self) -> None:
        _, results = run_cases(lambda: open_adapter(misbehaving("wrong-seq"), 5), some_cases(3), RunOptions(timeout=5))
        assert [r.outcome for r in results] == ["pass", "crash", "pass"]
        assert "seq" in results[1].message

    def test_stderr_flood_does_not_block(self) -> None:
        started = time.monotonic()
        assert run(misbehaving("flood"), some_cases(6), timeout=5.0) == ["pass"] * 6
        assert time.monotonic() - started < 15

    def test_ten_megabyte_line_is_refused(self) -> None:
        _, results = run_cases(lambda: open_adapter(misbehaving("huge-line"), 5), some_cases(3), RunOptions(timeout=5))
        assert [r.outcome for r in results] == ["pass", "crash", "pass"]
        assert "longer than" in results[1].message

    @pytest.mark.slow  # the slow tier: see README
    def test_rule_bug_is_named_by_exactly_the_fixtures_of_that_rule(self) -> None:
        """An engine that ignores the partner-master exception fails exactly the cases whose answer
        depends on it: the legal_plays fixtures that exercise play.partner_master_exception."""
        rulesets = [find_ruleset(r) for r in shipped_rulesets()]
        cases = build_cases(load_corpus(), rulesets, kinds=["legal_plays"])
        _, results = run_cases(lambda: open_adapter(misbehaving("rule-bug"), 5), cases, RunOptions(timeout=5))
        failed = {r.case.key for r in results if r.outcome in BAD_OUTCOMES}
        assert failed, "the bug must be caught"
        for result in results:
            if result.case.key in failed:
                assert result.outcome == "fail"
                assert "play.partner_master_exception" in result.case.fixture.rules, result.case.key
        # Which cases the bug changes: those whose answer differs with the exception turned off.
        should_fail = set()
        for case in cases:
            flipped = Ruleset.from_parameters({**case.ruleset.params, "play.partner_master_exception": False})
            if run_case(flipped, "legal_plays", case.fixture.given) != run_case(case.ruleset, "legal_plays", case.fixture.given):
                should_fail.add(case.key)
        assert failed == should_fail


class TestExpectedFailures:
    def test_xfail_and_xpass(self) -> None:
        cases = some_cases(3)
        expected = frozenset({cases[1].key, cases[2].fixture.id})
        outcomes = run(misbehaving("wrong-seq"), cases, expected_failures=expected)
        assert outcomes == ["pass", "xfail", "xpass"]


class TestCli:
    def test_run_writes_reports_and_exits_0(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        report, junit = tmp_path / "r.jsonl", tmp_path / "r.xml"
        code = main(["conformance", "run", "--ruleset", "classic", "--kind", "legal_plays", "--kind", "score",
                     "--report", str(report), "--junit", str(junit)])
        out = capsys.readouterr().out
        assert code == 0
        assert "legal_plays" in out and "classic" in out
        lines = [json.loads(line) for line in report.read_text().splitlines()]
        import jsonschema

        from belote_ref.core.resources import data_dir

        schema = json.loads((data_dir("schema") / "report.schema.json").read_text())
        for line in lines:
            jsonschema.Draft202012Validator(schema).validate(line)
        assert lines[0]["type"] == "header" and lines[0]["adapter"]["name"] == "belote-ref"
        # The command as typed again, from the arguments main was given (not pytest's, no path).
        assert lines[0]["command"] == (f"belote-ref conformance run --ruleset classic --kind legal_plays --kind score "
                                       f"--report {report} --junit {junit}")
        assert lines[-1]["type"] == "footer" and lines[-1]["ok"] is True
        assert "<testsuite" in junit.read_text()

    def test_failures_are_explained_with_a_rerun_command(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        impl = misbehaving("rule-bug")
        report = tmp_path / "bug.jsonl"
        code = main(["conformance", "run", "--impl", impl, "--kind", "legal_plays", "--report", str(report)])
        out = capsys.readouterr().out
        assert code == 1
        assert "FAIL x" in out and ", rules play." in out and "situation: trump" in out
        assert "legal: missing" in out and "rerun: belote-ref conformance run --impl" in out
        # summary re-renders; against itself as a baseline nothing changed
        assert main(["conformance", "summary", str(report)]) == 1
        assert main(["conformance", "summary", str(report), "--baseline", str(report)]) == 1
        assert "no change" in capsys.readouterr().out

    def test_rerun_command_names_the_house_rule_file(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        house = tmp_path / "club.yaml"
        house.write_text("id: club\nversion: 1\ntitle: Club\nextends: classic\n")
        assert main(["conformance", "run", "--impl", misbehaving("rule-bug"), "--kind", "legal_plays",
                     "--ruleset", str(house)]) == 1
        out = capsys.readouterr().out
        assert f"--ruleset {house} --id " in out and "--ruleset club " not in out

    def test_baseline_shows_only_changes(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
        main(["conformance", "run", "--kind", "legal_plays", "--report", str(good)])
        main(["conformance", "run", "--impl", misbehaving("rule-bug"), "--kind", "legal_plays", "--report", str(bad)])
        capsys.readouterr()
        main(["conformance", "summary", str(bad), "--baseline", str(good)])
        changes = capsys.readouterr().out.splitlines()
        assert changes and all(line.startswith("broken") for line in changes)

    def test_adapter_that_cannot_start(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["conformance", "run", "--impl", "/nonexistent/adapter"]) == 2
        assert "could not start" in capsys.readouterr().err

    def test_smoke_explains_the_first_mistake(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["conformance", "smoke", "--impl", misbehaving("ok")]) == 0
        assert main(["conformance", "smoke", "--impl", misbehaving("garbage"), "--timeout", "5"]) == 1
        out = capsys.readouterr().out
        assert "smoke test passed" in out and "the reply is not JSON" in out

    def test_serve_never_dies_on_bad_messages(self) -> None:
        adapter = SubprocessAdapter([sys.executable, "-m", "belote_ref.cli", "serve"], 10)
        adapter.start()
        try:
            assert adapter.request({"cmd": "run", "seq": 1, "kind": "legal_plays", "ruleset": {}})["errored"] is True
            assert adapter.request({"cmd": "run", "seq": 2, "kind": "nope", "ruleset": find_ruleset("classic").to_json(),
                                    "given": {}})["errored"] is True
            assert adapter.request({"cmd": "jump"})["errored"] is True
            reply = adapter.request({"cmd": "run", "seq": 3, "kind": "legal_plays", "ruleset": find_ruleset("classic").to_json(),
                                     "given": {"trump": "H", "seat": "N", "hand": ["1X"], "trick": {"leader": "N", "cards": []}}})
            assert reply is not None and reply["errored"] is True and "not a card" in reply["message"]
        finally:
            adapter.stop()


class TestDocumentedAdapter:
    def test_example_adapter_in_docs_passes_its_kind(self, tmp_path: Path) -> None:
        text = (Path(__file__).parents[1] / "docs" / "protocol.md").read_text()
        code = text.split("```python\n", 1)[1].split("```", 1)[0]
        assert 30 <= len(code.strip().splitlines()) <= 50
        script = tmp_path / "adapter.py"
        script.write_text(code)
        rulesets = [find_ruleset(r) for r in shipped_rulesets()]
        cases = build_cases(load_corpus(), rulesets)
        _, results = run_cases(lambda: open_adapter(f"{sys.executable} {script}", 5), cases, RunOptions(timeout=5))
        by_kind = {(r.case.fixture.kind, r.outcome) for r in results}
        assert ("trick_winner", "pass") in by_kind
        # A version-1 adapter, unchanged: every case version 1 can express passes, the others (sans-atout
        # and tout-atout tricks) are n/a because they need protocol 2.
        tricks = [r for r in results if r.case.fixture.kind == "trick_winner"]
        assert all(r.outcome == "pass" or (r.outcome == "n/a" and r.message == "needs protocol 2") for r in tricks)
        assert any(r.message == "needs protocol 2" for r in tricks)
        assert all(r.outcome == "n/a" for r in results if r.case.fixture.kind != "trick_winner")


class TestProtocolSchemas:
    def test_reference_messages_match_the_schemas(self) -> None:
        import jsonschema
        from referencing import Registry, Resource

        from belote_ref.protocol.serve import answer, hello
        from belote_ref.core.resources import data_dir

        folder = data_dir("schema") / "protocol"
        schemas = {p.name: json.loads(p.read_text()) for p in folder.glob("*.schema.json")}
        registry = Registry().with_resources(
            (schema["$id"], Resource.from_contents(schema)) for schema in schemas.values())

        def validator(name: str) -> jsonschema.Draft202012Validator:
            jsonschema.Draft202012Validator.check_schema(schemas[name])
            return jsonschema.Draft202012Validator(schemas[name], registry=registry)

        validator("hello-reply.schema.json").validate(hello())
        run_schema, reply_schema = validator("run.schema.json"), validator("run-reply.schema.json")
        for case in build_cases(load_corpus(), [find_ruleset("classic-annonces")]):
            message = {"cmd": "run", "seq": 1, "kind": case.fixture.kind, "ruleset": case.ruleset.to_json(),
                       "given": case.fixture.given}
            run_schema.validate(message)
            reply_schema.validate(answer(message))
