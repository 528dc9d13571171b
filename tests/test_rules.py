"""Rules as data: the registry, the shipped rulesets, the loader's errors and the `rules` CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from belote_ref import RulesetError, UnknownRulesetError, find_ruleset, load_registry, load_ruleset
from belote_ref.cli import main
from belote_ref.rules.registry import ruleset_schema
from belote_ref.core.resources import data_dir
from belote_ref.rules.ruleset import Ruleset, iter_changes, shipped_rulesets

BROKEN = Path(__file__).parent / "data" / "broken"
SHIPPED = ["classic", "classic-annonces", "pagat", "cafe-250", "strict-1001", "online-92", "classic-sa-ta",
           "ffb-coinche-2015", "ffb-contree-2016", "pagat-coinche"]


class TestRegistry:
    def test_registry_matches_its_schema(self) -> None:
        schema = json.loads((data_dir("schema") / "registry.schema.json").read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        data = yaml.safe_load((data_dir("rules") / "registry.yaml").read_text())
        jsonschema.Draft202012Validator(schema).validate(data)

    def test_every_parameter_has_prose_in_both_languages_and_sources(self) -> None:
        registry = load_registry()
        for parameter in registry.parameters.values():
            assert parameter.en and parameter.fr, parameter.id
            assert all(parameter.sources), parameter.id
            assert parameter.allows(parameter.default), parameter.id

    def test_closed_parameters_list_every_allowed_value(self) -> None:
        registry = load_registry()
        assert registry["play.undertrump_partner"].values == (
            "allowed", "only_if_hand_is_all_trumps", "only_if_forced", "unless_holding_higher")
        assert not registry["play.undertrump_partner"].allows("sometimes")

    def test_generated_schema_is_committed(self) -> None:
        committed = json.loads((data_dir("schema") / "ruleset.schema.json").read_text())
        assert committed == ruleset_schema(), "regenerate: belote-ref rules schema > schema/ruleset.schema.json"
        jsonschema.Draft202012Validator.check_schema(committed)


class TestShippedRulesets:
    def test_the_ten_rulesets_are_shipped(self) -> None:
        assert sorted(shipped_rulesets()) == sorted(SHIPPED)

    @pytest.mark.parametrize("ruleset_id", SHIPPED)
    def test_loads_with_metadata(self, ruleset_id: str) -> None:
        ruleset = find_ruleset(ruleset_id)
        assert ruleset.id == ruleset_id
        assert ruleset.version == 1
        assert ruleset.title["en"] and ruleset.title["fr"]
        assert ruleset.description["en"] and ruleset.description["fr"]
        assert ruleset.sources
        assert set(ruleset.params) == set(load_registry().parameters)
        if ruleset_id != "classic":
            assert ruleset.parent == "classic"

    def test_classic_sets_every_parameter_explicitly(self) -> None:
        text = (data_dir("rules") / "classic.yaml").read_text()
        data = yaml.safe_load(text)
        for parameter_id in load_registry().parameters:
            node: Any = data
            for part in parameter_id.split("."):
                assert isinstance(node, dict) and part in node, f"classic.yaml does not set {parameter_id}"
                node = node[part]

    def test_seed_values(self) -> None:
        cafe, strict, online = find_ruleset("cafe-250"), find_ruleset("strict-1001"), find_ruleset("online-92")
        # seed 000: "marque 250 points", "au moins 82 sur 162", "en 1 000 points"
        assert (cafe["scoring.capot.mode"], cafe["scoring.capot.value"]) == ("flat", 250)
        assert (cafe["scoring.contract.test"], cafe["scoring.contract.card_threshold"]) == ("card_threshold", 82)
        assert cafe["table.direction"] == "clockwise" and cafe["game.target_points"] == 1000
        # seed 001: "doit marquer plus de points que l'équipe adverse", "(généralement 1001)"
        assert strict["play.partner_master_exception"] is False
        assert strict["scoring.contract.on_tie"] == "takers_fail" and strict["game.target_points"] == 1001
        assert strict["announcements.enabled"] is True and strict["belote.on_chute"] == "to_defenders"
        # seed 003: "ce bonus est de 100 points", "92 points", "sous-coupe", "belote qui est imprenable"
        assert online["scoring.capot.mode"] == "raised_last_trick" and online["scoring.capot.last_trick_bonus"] == 100
        assert online["scoring.contract.count_belote"] == "both_sides"
        assert online["play.undertrump_over_opponent"] == "required"
        assert online["belote.on_chute"] == "kept_by_holder" and online["game.target_points"] == 600

    def test_compiled_tables(self) -> None:
        classic = find_ruleset("classic")
        for trump in range(4):
            assert sum(classic.points[trump]) == 152
            trump_cards = range(8 * trump, 8 * trump + 8)
            assert sorted(classic.strength[trump][c] for c in trump_cards) == list(range(8, 16))
        # Jack of hearts is the highest trump in hearts, the ace the highest plain card.
        assert classic.strength[1][8 + 4] == 15 and classic.strength[1][7] == 7

    def test_rulesets_are_hashable_and_equal_by_content(self) -> None:
        classic = find_ruleset("classic")
        copy = Ruleset.from_parameters(dict(classic.params), id="classic", version=1)
        assert copy == classic and hash(copy) == hash(classic)
        assert len({classic, copy, find_ruleset("pagat")}) == 2

    def test_unknown_ruleset_suggests(self) -> None:
        with pytest.raises(UnknownRulesetError, match="did you mean 'classic'"):
            find_ruleset("clasic")


# (file, line, column, key path, message fragment)
BROKEN_CASES = [
    ("yaml_syntax.yaml", 7, 1, "", "YAML syntax error: did not find expected ',' or ']'"),
    ("duplicate_key.yaml", 7, 3, "play.partner_master_exception", "duplicate key 'partner_master_exception' (first at line 6)"),
    ("unknown_parameter.yaml", 6, 3, "play.undertrump_partnr", "did you mean 'play.undertrump_partner'?"),
    ("wrong_type.yaml", 6, 3, "play.partner_master_exception", 'expected true or false; found a string "yes please"'),
    ("value_not_allowed.yaml", 6, 3, "play.undertrump_over_opponent", 'expected one of required, optional; found a string "sometimes"'),
    # The cycle is reported in the file whose `extends` closes it.
    ("cycle_a.yaml", 4, 1, "extends", "extends cycle: cycle_a.yaml -> cycle_b.yaml -> cycle_a.yaml"),
    ("missing_parent.yaml", 4, 1, "extends", "unknown parent ruleset 'clasic'; did you mean 'classic'?"),
    ("points_not_152.yaml", 6, 3, "cards.trump_points", "must total 152 for the pack (trump suit + 3 plain suits); found 67 + 3 x 30 = 157"),
    ("order_not_permutation.yaml", 6, 3, "cards.trump_order", "expected every item once (a permutation)"),
    ("missing_version.yaml", 1, 1, "", "missing required key 'version'"),
    ("int_out_of_range.yaml", 6, 3, "game.target_points", "expected an integer >= 1; found 0"),
    ("dotted_key.yaml", 5, 1, "play.undertrump_partner", "parameters are nested, not dotted"),
    ("packets_not_five.yaml", 6, 3, "deal.first_packets", "packet 1 [3, 3] deals 6 cards; expected 5"),
    ("bids_forced_third_round.yaml", 6, 3, "bidding.all_pass", "forced_third_round needs a turned card"),
    ("bid_packets_not_eight.yaml", 6, 3, "deal.bid_packets", "packet 1 [3, 3, 3] deals 9 cards; expected 8"),
    ("max_below_min.yaml", 6, 3, "auction.max_bid", "the highest bid 70 is below the lowest bid 80"),
    ("root_incomplete.yaml", 1, 1, "", "a ruleset without 'extends' must set every parameter; missing: cards.trump_order"),
    ("not_a_mapping.yaml", 1, 1, "", "expected a mapping of keys, found a list"),
    ("unknown_area.yaml", 5, 1, "playy", "unknown key 'playy'; did you mean 'play'?"),
    ("empty.yaml", 1, 1, "", "the file is empty; expected a mapping"),
]


class TestBrokenFiles:
    @pytest.mark.parametrize(("name", "line", "column", "key", "fragment"), BROKEN_CASES, ids=[c[0] for c in BROKEN_CASES])
    def test_error_names_file_line_and_key(self, name: str, line: int, column: int, key: str, fragment: str) -> None:
        with pytest.raises(RulesetError) as caught:
            load_ruleset(BROKEN / name)
        path = BROKEN / ("cycle_b.yaml" if name == "cycle_a.yaml" else name)
        first = caught.value.diagnostics[0]
        assert (first.file, first.line, first.column, first.key_path) == (str(path), line, column, key)
        assert fragment in first.message
        expected_prefix = f"{path}:{line}:{column}: " + (f"{key}: " if key else "")
        assert str(first).startswith(expected_prefix)

    @pytest.mark.parametrize("name", [c[0] for c in BROKEN_CASES])
    def test_cli_validate_exits_2_with_one_line_per_error(self, name: str, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["rules", "validate", str(BROKEN / name)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(str(BROKEN))
        assert "Traceback" not in err
        assert all(line.startswith(f"{BROKEN}/") and line.count(":") >= 3 for line in err.splitlines())

    def test_validate_reports_every_file(self, capsys: pytest.CaptureFixture[str]) -> None:
        good = data_dir("rules") / "pagat.yaml"
        assert main(["rules", "validate", str(good), str(BROKEN / "wrong_type.yaml"), str(BROKEN / "empty.yaml")]) == 2
        captured = capsys.readouterr()
        assert "pagat.yaml: ok (pagat v1)" in captured.out
        assert "wrong_type.yaml:6:3" in captured.err and "empty.yaml:1:1" in captured.err

    def test_missing_file(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["rules", "validate", str(tmp_path / "nope.yaml")]) == 2
        assert "no such file" in capsys.readouterr().err

    def test_error_in_a_parent_names_the_parent(self, tmp_path: Path) -> None:
        (tmp_path / "parent.yaml").write_text("id: p\nversion: 1\ntitle: P\nextends: classic\nplay:\n  undertrump_partner: never\n")
        (tmp_path / "child.yaml").write_text("id: c\nversion: 1\ntitle: C\nextends: parent.yaml\n")
        with pytest.raises(RulesetError) as caught:
            load_ruleset(tmp_path / "child.yaml")
        assert str(caught.value).startswith(f"{tmp_path / 'parent.yaml'}:6:3: play.undertrump_partner:")


class TestHouseRules:
    def test_five_line_house_rule(self, tmp_path: Path) -> None:
        path = tmp_path / "club.yaml"
        path.write_text("id: club\nversion: 1\ntitle: Our club\nextends: classic\nplay: {undertrump_over_opponent: optional}\n")
        ruleset = load_ruleset(path)
        assert ruleset["play.undertrump_over_opponent"] == "optional"
        assert list(iter_changes(ruleset, find_ruleset("classic"))) == ["play.undertrump_over_opponent"]
        assert ruleset.overrides == {"play.undertrump_over_opponent"}

    def test_extends_by_relative_path_and_unquoted_ranks(self, tmp_path: Path) -> None:
        # `..` may not leave the extending file's folder: the parent's folder is on the search path.
        (tmp_path / "base.yaml").write_text("id: base\nversion: 1\ntitle: Base\nextends: classic\ngame: {target_points: 501}\n")
        (tmp_path / "sub").mkdir()
        (tmp_path / "sub" / "child.yaml").write_text(
            "id: child\nversion: 2\ntitle: Child\nextends: ../base.yaml\n"
            "cards:\n  trump_order: [J, 9, A, 10, K, Q, 8, 7]\n  trump_points: {J: 20, 9: 14, A: 11, T: 10, K: 4, Q: 3, 8: 0, 7: 0}\n"
        )
        ruleset = load_ruleset(tmp_path / "sub" / "child.yaml", search_path=[tmp_path])
        assert ruleset["game.target_points"] == 501
        assert ruleset["cards.trump_order"] == ["J", "9", "A", "T", "K", "Q", "8", "7"]
        assert ruleset == Ruleset.from_parameters(dict(ruleset.params), id="child", version=2)

    def test_documented_house_rule_file_validates(self, tmp_path: Path) -> None:
        text = (Path(__file__).parents[1] / "docs" / "house-rules.md").read_text()
        block = text.split("```yaml\n", 1)[1].split("```", 1)[0]
        assert len(block.strip().splitlines()) == 5
        path = tmp_path / "house.yaml"
        path.write_text(block)
        assert load_ruleset(path)["play.undertrump_over_opponent"] == "optional"


def _house_rule_values() -> st.SearchStrategy[dict[str, Any]]:
    registry = load_registry()
    choices: dict[str, st.SearchStrategy[Any]] = {}
    for pid, parameter in registry.parameters.items():
        if parameter.closed:
            choices[pid] = st.sampled_from(parameter.values)
        elif parameter.type == "int":
            choices[pid] = st.integers(parameter.minimum or 0, parameter.maximum or 10_000)
    return st.fixed_dictionaries({}, optional=choices)


def _nest(values: dict[str, Any]) -> dict[str, Any]:
    tree: dict[str, Any] = {}
    for pid, value in values.items():
        *parents, leaf = pid.split(".")
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return tree


@settings(max_examples=60, deadline=None)
@given(values=_house_rule_values(), parent=st.sampled_from(SHIPPED))
def test_random_house_rules_load_and_resolve(tmp_path_factory: pytest.TempPathFactory, values: dict[str, Any], parent: str) -> None:
    resolved = {**find_ruleset(parent).params, **values}
    # The two cross-parameter checks of the loader (tested in TestSemanticChecks).
    assume(not (resolved["bidding.auction"] == "bids" and resolved["bidding.all_pass"] == "forced_third_round"))
    assume(resolved["auction.max_bid"] >= resolved["auction.min_bid"])
    document = {"id": "house", "version": 1, "title": "House", "extends": parent, **_nest(values)}
    path = tmp_path_factory.mktemp("house") / "house.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    ruleset = load_ruleset(path)
    base = find_ruleset(parent)
    for pid, expected in base.params.items():
        assert ruleset[pid] == values.get(pid, expected)


class TestCli:
    def test_list(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["rules", "list", "--json"]) == 0
        rows = json.loads(capsys.readouterr().out)
        assert [row["id"] for row in rows][0] == "classic"
        by_id = {row["id"]: row for row in rows}
        assert set(by_id) == set(SHIPPED)
        assert by_id["classic-annonces"]["changes_from_classic"] == 1
        assert by_id["pagat"]["parent"] == "classic"

    def test_show_json_prints_every_parameter(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["rules", "show", "online-92", "--json"]) == 0
        shown = json.loads(capsys.readouterr().out)
        assert shown["id"] == "online-92" and shown["version"] == 1
        assert list(shown["parameters"]) == list(load_registry().parameters)

    def test_show_marks_changes(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["rules", "show", "cafe-250"]) == 0
        out = capsys.readouterr().out
        assert " * scoring.capot.mode = flat" in out
        assert "   scoring.chute.base = 162" in out

    def test_diff(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["rules", "diff", "classic", "strict-1001"]) == 0
        out = capsys.readouterr().out
        assert "play.partner_master_exception\n  classic: true\n  strict-1001: false\n" in out
        assert "game.target_points\n  classic: 1000\n  strict-1001: 1001\n" in out

    def test_unknown_ruleset_exit_2(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["rules", "show", "nope"]) == 2
        assert "unknown ruleset 'nope'" in capsys.readouterr().err


def test_with_parameter_is_from_parameters_with_one_value_changed() -> None:
    """Every documented value of every parameter, set on every shipped ruleset: the same compiled
    ruleset as a whole compile of the changed set, or the same refusal."""
    registry = load_registry()
    compared = refused = 0
    for ruleset_id in sorted(shipped_rulesets()):
        base = find_ruleset(ruleset_id)
        for parameter_id, parameter in registry.parameters.items():
            for value in parameter.values[:4]:
                whole: Ruleset | RulesetError
                try:
                    whole = Ruleset.from_parameters({**base.params, parameter_id: value}, id=base.id,
                                                    version=base.version)
                except RulesetError as error:
                    whole = error
                try:
                    one = base.with_parameter(parameter_id, value)
                except RulesetError as error:
                    assert isinstance(whole, RulesetError), (ruleset_id, parameter_id, value)
                    assert str(error) == str(whole)
                    refused += 1
                    continue
                assert isinstance(whole, Ruleset), (ruleset_id, parameter_id, value, whole)
                assert (one.params, one.strength, one.points, one.scale, one.carres, one.belote_suits, one.trumps,
                        one.sequence_order, one.play_tables.per_trump) == (
                    whole.params, whole.strength, whole.points, whole.scale, whole.carres, whole.belote_suits,
                    whole.trumps, whole.sequence_order, whole.play_tables.per_trump)
                assert (one.id, one.version, one.title) == (base.id, base.version, base.title)
                compared += 1
    assert compared > 1000 and refused > 0
    with pytest.raises(RulesetError, match="not allowed"):
        find_ruleset("classic").with_parameter("scoring.chute.base", "lots")
    with pytest.raises(RulesetError, match="unknown parameter"):
        find_ruleset("classic").with_parameter("scoring.chute.bas", 160)
