"""Bad input never escapes as anything but a BeloteRefError: records, protocol messages, rulesets."""

from __future__ import annotations

import random
from typing import Any

from damage import key_paths, replaced
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_ref import BeloteRefError, find_ruleset
from belote_ref.protocol.serve import answer
from belote_ref.records.record import parse_record, record_of, replay
from belote_ref.engine.simulate import random_deal

BASE = record_of(random_deal(find_ruleset("classic-annonces"), random.Random(11)))
TOKENS = st.sampled_from(["7S", "AH", "TD", "10C", "JH", "XX", "", "pass", "take", "H", "N", "Q", None, 3, -1, True,
                          [], {}, "E", "W", "S"])
VALUES = st.recursive(TOKENS, lambda children: st.lists(children, max_size=6) | st.dictionaries(
    st.sampled_from(["N", "E", "S", "W", "leader", "cards", "seat", "kind", "id", "version"]), children, max_size=4),
    max_leaves=12)


ALL_PATHS = [list(path) for path in key_paths(BASE)]


@settings(max_examples=300, deadline=None)
@given(path=st.sampled_from(ALL_PATHS), value=VALUES)
def test_a_damaged_record_is_reported_never_raised(path: list[Any], value: Any) -> None:
    data = replaced(BASE, path, value)
    try:
        report = replay(parse_record(data))
    except BeloteRefError:
        return
    repr(report)
    report.result()


@settings(max_examples=300, deadline=None)
@given(path=st.sampled_from(ALL_PATHS), value=VALUES)
def test_a_damaged_protocol_message_gets_an_answer(path: list[Any], value: Any) -> None:
    record = replaced(BASE, path, value)
    given_ = {key: record.get(key) for key in ("dealer", "hands", "turned", "completion", "calls", "announcements",
                                                "belote", "pot")}
    tricks = record.get("tricks") if isinstance(record.get("tricks"), list) else []
    given_["plays"] = [card for trick in tricks if isinstance(trick, dict) and isinstance(trick.get("cards"), list)
                       for card in trick["cards"]]
    message = {"cmd": "run", "seq": 1, "kind": "replay", "ruleset": find_ruleset("classic-annonces").to_json(),
               "given": given_}
    reply = answer(message)
    assert reply is not None and reply["seq"] == 1
    assert "result" in reply or reply.get("errored") is True
    assert not reply.get("message", "").startswith("internal error"), reply


KINDS = ["deal", "auction", "legal_plays", "trick_winner", "announcements", "score", "replay", "match"]
FIELDS = ["dealer", "deck", "taker", "turned", "calls", "trump", "seat", "hand", "trick", "tricks", "belote",
          "announcements", "pot", "hands", "completion", "plays", "deals"]


@settings(max_examples=400, deadline=None)
@given(kind=st.sampled_from(KINDS), given_=st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=8))
def test_any_given_of_any_kind_gets_an_answer(kind: str, given_: dict[str, Any]) -> None:
    message = {"cmd": "run", "seq": 7, "kind": kind, "ruleset": find_ruleset("classic").to_json(), "given": given_}
    reply = answer(message)
    assert reply is not None and reply["seq"] == 7
    assert "result" in reply or reply.get("errored") is True
    assert not reply.get("message", "").startswith("internal error"), reply


RULESET_KEYS = st.sampled_from(["id", "version", "title", "extends", "play", "scoring", "capot", "mode", "cards",
                                "trump_points", "undertrump_partner", "game", "target_points", "J", "9", "sources"])
DOCUMENTS = st.recursive(TOKENS | st.integers(-5, 2000) | st.sampled_from(["classic", "x.yaml", "../classic.yaml"]),
                         lambda children: st.lists(children, max_size=4) | st.dictionaries(RULESET_KEYS, children,
                                                                                         max_size=5), max_leaves=15)


@settings(max_examples=300, deadline=None)
@given(document=DOCUMENTS)
def test_any_yaml_document_loads_or_says_why(tmp_path_factory: Any, document: Any) -> None:
    import yaml

    from belote_ref import RulesetError, load_ruleset

    path = tmp_path_factory.mktemp("fuzz") / "house.yaml"
    path.write_text(yaml.safe_dump(document))
    try:
        load_ruleset(path)
    except RulesetError as error:
        assert error.diagnostics and all(str(d).startswith(str(path)) or "classic" in str(d) for d in error.diagnostics)
