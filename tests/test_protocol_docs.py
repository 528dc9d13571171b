"""docs/protocol.md: complete, true to the corpus, self-contained; and its JavaScript adapter passes."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from belote_ref.conformance.adapter import open_adapter
from belote_ref.conformance.corpus import load_corpus
from belote_ref.conformance.runner import RunOptions, build_cases, run_cases
from belote_ref.protocol.serve import KINDS
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets

# Slow tier (the documented adapters run against the corpus): left out of the quick default; see README.
pytestmark = pytest.mark.slow

REPO = Path(__file__).parents[1]
DOC = REPO / "docs" / "protocol.md"
JS_ADAPTER = REPO / "docs" / "examples" / "adapter.js"
JS_KINDS = ("trick_winner", "legal_plays")


def _text() -> str:
    return DOC.read_text(encoding="utf-8")


def _blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", text, flags=re.DOTALL | re.MULTILINE)


def _sections(text: str) -> dict[str, str]:
    """Each ``### title`` section's text, up to the next heading of level 2 or 3."""
    parts = re.split(r"^(#{2,3} .*)$", text, flags=re.MULTILINE)
    return {parts[i].lstrip("#").strip(): parts[i + 1] for i in range(1, len(parts), 2) if parts[i].startswith("### ")}


def _examples(text: str) -> list[dict[str, Any]]:
    return [item for item in (json.loads(b) for b in _blocks(text, "json")) if "fixture" in item]


def _fixtures() -> dict[str, Any]:
    return {fixture.id: fixture for fixture in load_corpus()}


# ------------------------------------------------------------------------------------ the text


def test_every_json_block_parses() -> None:
    blocks = _blocks(_text(), "json")
    assert len(blocks) >= len(KINDS)
    for block in blocks:
        json.loads(block)


def test_every_kind_has_a_section_with_a_given_and_a_result_example() -> None:
    sections = _sections(_text())
    for kind in KINDS:
        assert kind in sections, f"no '### {kind}' section"
        examples = [json.loads(b) for b in _blocks(sections[kind], "json")]
        assert any("given" in e and "result" in e for e in examples), f"{kind}: no example with a given and a result"
        for example in examples:
            if "fixture" in example:
                assert _fixtures()[example["fixture"]].kind == kind, f"{example['fixture']} is shown under {kind}"


def test_each_example_is_its_fixture_given_and_expected_result() -> None:
    fixtures = _fixtures()
    examples = _examples(_text())
    assert len({e["fixture"] for e in examples}) >= len(KINDS)
    for example in examples:
        assert set(example) == {"fixture", "ruleset", "given", "result"}, example["fixture"]
        fixture = fixtures.get(example["fixture"])
        assert fixture is not None, f"no fixture {example['fixture']!r}"
        assert example["given"] == fixture.given, f"{fixture.id}: the given differs from the fixture's"
        expected = fixture.expected(find_ruleset(example["ruleset"]))
        assert expected is not None, f"{fixture.id} does not apply to {example['ruleset']}"
        assert example["result"] == expected, f"{fixture.id}: the result differs from the expected one"


def test_each_kind_section_names_every_field_its_fixtures_use() -> None:
    sections = _sections(_text())
    for fixture in load_corpus():
        section = sections[fixture.kind]
        for key in fixture.given:
            assert f"`{key}`" in section, f"{fixture.kind}: given field {key!r} ({fixture.id}) is not described"
        for branch in fixture.data["expect"]:
            result = branch["result"]
            for key in result if "rejected" not in result else ():
                assert f"`{key}`" in section, f"{fixture.kind}: result field {key!r} ({fixture.id}) is not described"


def test_the_rejection_table_lists_every_code_of_the_corpus() -> None:
    table = _text().split("## Rejections", 1)[1].split("\n## ", 1)[0]
    codes = {branch["result"]["rejected"]["code"] for fixture in load_corpus() for branch in fixture.data["expect"]
             if "rejected" in branch["result"]}
    assert codes
    for code in codes:
        assert f"| `{code}` |" in table, f"rejection code {code} is not in the table"


def test_no_reference_to_a_file_outside_the_repository() -> None:
    text = _text()
    for pattern in (r"PROTOCOL\.md", r"(?<![\w-])rules\.md", r"ARCHITECTURE\.md", r"\.\./", r"\bshared/"):
        assert not re.search(pattern, text), f"docs/protocol.md refers to {pattern}"


def test_relative_links_point_into_the_site() -> None:
    from belote_ref.site import generate_pages

    hand = [p.relative_to(DOC.parent).as_posix() for p in DOC.parent.rglob("*.md")]
    pages = set(generate_pages(None, hand).pages) | set(hand)
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", _text()):
        if re.match(r"^[a-z]+://", target):
            continue
        assert target in pages or (DOC.parent / target).is_file(), f"broken link {target}"


def test_the_javascript_shown_is_the_example_file() -> None:
    shown = _blocks(_text(), "js")
    assert len(shown) == 1, "the doc shows the JavaScript adapter once"
    assert shown[0] == JS_ADAPTER.read_text(encoding="utf-8"), "docs/protocol.md and docs/examples/adapter.js differ"


# ------------------------------------------------------------------------------ the JS adapter


def _play_variants() -> list[Ruleset]:
    """classic with each value of each play.* parameter: the obligations the adapter reads."""
    classic = find_ruleset("classic")
    variants = []
    for parameter_id, parameter in load_registry().parameters.items():
        if parameter_id.startswith("play."):
            for value in parameter.values:
                if value != classic[parameter_id]:
                    variants.append(Ruleset.from_parameters({**classic.params, parameter_id: value},
                                                            id=f"classic+{parameter_id}={value}"))
    return variants


@pytest.mark.skipif(shutil.which("node") is None,
                    reason="node not found on PATH: the JavaScript example adapter (docs/examples/adapter.js) needs Node.js")
def test_javascript_adapter_passes_its_kinds_under_every_shipped_ruleset() -> None:
    rulesets = [find_ruleset(r) for r in shipped_rulesets()] + _play_variants()
    cases = build_cases(load_corpus(), rulesets)
    hello, results = run_cases(lambda: open_adapter(f"node {JS_ADAPTER}", 10), cases, RunOptions(timeout=10))
    assert sorted(hello["supports"]["kinds"]) == sorted(JS_KINDS)
    mine = [r for r in results if r.case.fixture.kind in JS_KINDS]
    assert {r.case.fixture.kind for r in mine} == set(JS_KINDS)
    assert {r.case.ruleset.id for r in mine} == {r.id for r in rulesets}
    bad = [(r.case.key, r.outcome, r.message, r.differences) for r in mine if r.outcome != "pass"]
    assert not bad, bad
    assert all(r.outcome == "n/a" for r in results if r.case.fixture.kind not in JS_KINDS)
