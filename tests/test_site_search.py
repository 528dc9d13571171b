"""The site's search, one index per language (belote_ref/site/search_hook.py), on a small index made
here: the split, the addresses, the rule tags, and the French pages pointed at their own index. The
whole built site's indexes and a search in a real browser are in tests/test_site.py."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from belote_ref.site.search_hook import on_post_build, on_post_page, rule_tags, split_index, synonym_groups

WHOLE: dict[str, Any] = {
    "config": {"lang": ["en", "fr"], "separator": "[\\s\\-]+", "pipeline": ["stopWordFilter"],
               "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}, "tags": {"boost": 1e6}}},
    "docs": [
        {"location": "", "title": "belote-ref", "text": "The rules of Belote / Les règles de la belote"},
        {"location": "en/rules/score/#scoring.last_trick_bonus", "title": "Dix de der", "text": "10 points", "boost": 6},
        {"location": "fr/rules/score/#scoring.last_trick_bonus", "title": "Dix de der", "text": "10 points", "boost": 6},
        {"location": "fr/rules/score/#scoring.litige.on_final_deal", "title": "Litige à la dernière donne",
         "text": "Chacun marque ses points."},
        {"location": "fr/fixtures/score.x/", "title": "Le dix de der décide", "text": "dix de der", "boost": 0.1},
        {"location": "fr/fixtures/score.x/#la-situation", "title": "Le dix de der décide", "text": ""},
        {"location": "protocol/", "title": "The protocol", "text": "JSON lines"},
    ],
}
GROUPS = {"en": [["last trick", "dix de der", "der"]], "fr": [["dix de der", "der", "dernier pli"]]}


def test_each_language_gets_its_own_entries_with_addresses_from_its_folder() -> None:
    parts = split_index(WHOLE, GROUPS)
    assert sorted(parts) == ["en", "fr"]
    assert [d["location"] for d in parts["en"]["docs"]] == ["", "en/rules/score/#scoring.last_trick_bonus", "protocol/"]
    assert [d["location"] for d in parts["fr"]["docs"]] == [
        "rules/score/#scoring.last_trick_bonus", "rules/score/#scoring.litige.on_final_deal", "fixtures/score.x/"]
    assert parts["fr"]["config"]["lang"] == ["fr"] and parts["en"]["config"]["lang"] == ["en"]
    assert parts["fr"]["config"]["fields"] == WHOLE["config"]["fields"]


def test_a_rule_is_tagged_with_the_words_of_its_title_and_an_example_is_not() -> None:
    parts = split_index(WHOLE, GROUPS)
    tags = {d["location"]: d.get("tags") for d in parts["fr"]["docs"]}
    assert tags["rules/score/#scoring.last_trick_bonus"] == ["dix de der", "der", "dernier pli"]
    assert tags["rules/score/#scoring.litige.on_final_deal"] is None  # "dernière" is not the word "der"
    assert tags["fixtures/score.x/"] is None
    assert rule_tags("Sous-couper un adversaire", [["sous-couper", "pisser à l'atout"]]) == ["sous-couper",
                                                                                            "pisser à l'atout"]
    assert rule_tags("Couper", [["sous-couper"]]) == []


def test_a_section_left_with_no_words_is_dropped() -> None:
    locations = [d["location"] for d in split_index(WHOLE, GROUPS)["fr"]["docs"]]
    assert "fixtures/score.x/#la-situation" not in locations and "fixtures/score.x/" in locations


def test_the_locales_synonyms_tag_the_rules_a_player_names() -> None:
    french = synonym_groups("fr")
    assert "pisser à l'atout" in rule_tags("Sous-couper un adversaire", french)
    assert "couper" not in rule_tags("Sous-couper un adversaire", french)
    assert "der" in rule_tags("Dix de der", french)
    assert "rebelote" in rule_tags("Belote et rebelote", french)
    assert "last trick" in rule_tags("Dix de der", synonym_groups("en"))
    for lang in ("en", "fr"):
        assert all(group and all(word == word.lower() for word in group) for group in synonym_groups(lang))


def test_a_french_page_reads_the_french_index_and_an_english_page_its_own(tmp_path: Any) -> None:
    page = ('<html><script id="__config" type="application/json">{"base": "../../..", "search": "x.js"}</script>'
            '<script id="__config" type="application/json">{"base": "untouched"}</script></html>')
    french = on_post_page(page, SimpleNamespace(url="fr/rules/play/"), {})
    assert '{"base": "../../../fr/", "search": "x.js"}' in french and '{"base": "untouched"}' in french
    assert on_post_page(page, SimpleNamespace(url="en/rules/play/"), {}) == page
    assert on_post_page(page, SimpleNamespace(url=""), {}) == page
    # The JSON is written back escaped as Jinja's tojson wrote it: a "</script>" in a value stays escaped.
    hostile = page.replace('"x.js"', '"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)"')
    assert "</script><script>alert" not in on_post_page(hostile, SimpleNamespace(url="fr/"), {})

    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "search_index.json").write_text(json.dumps(WHOLE), encoding="utf-8")
    on_post_build({"site_dir": str(tmp_path)})
    english = json.loads((tmp_path / "search" / "search_index.json").read_text(encoding="utf-8"))
    french_index = json.loads((tmp_path / "fr" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert english["config"]["lang"] == ["en"] and french_index["config"]["lang"] == ["fr"]
    assert len(english["docs"]) == 3 and len(french_index["docs"]) == 3
