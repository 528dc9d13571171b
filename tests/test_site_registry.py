"""Every parameter of the registry has a title, and every value a label and a one-line explanation,
in English and in French; `rules show` and `rules diff` speak them."""

from __future__ import annotations

import json

import pytest

from belote_ref.cli import main
from belote_ref.rules.registry import load_registry

LANGS = ("en", "fr")


def test_every_parameter_has_a_title_in_both_languages() -> None:
    missing = [f"{pid} ({lang})" for pid, parameter in load_registry().parameters.items()
               for lang in LANGS if not parameter.title.get(lang, "").strip()]
    assert not missing, "parameters without a title: " + ", ".join(missing)


def test_every_value_has_a_label_and_an_explanation_in_both_languages() -> None:
    missing = []
    for pid, parameter in load_registry().parameters.items():
        for index, value in enumerate(parameter.values):
            for lang in LANGS:
                for what, texts in (("label", parameter.labels), ("explain", parameter.explains)):
                    text = texts[index].get(lang, "") if index < len(texts) else ""
                    if not text.strip():
                        missing.append(f"{pid} = {json.dumps(value)}: {what}.{lang}")
    assert not missing, "values without wording:\n" + "\n".join(missing)


def test_labels_are_short_and_explanations_one_line() -> None:
    for pid, parameter in load_registry().parameters.items():
        for labels, explains in zip(parameter.labels, parameter.explains, strict=True):
            for lang in LANGS:
                assert len(labels.get(lang, "")) <= 40, (pid, labels)
                assert "\n" not in explains.get(lang, "") and len(explains.get(lang, "")) <= 160, (pid, explains)


def test_the_labels_of_one_parameter_differ() -> None:
    for pid, parameter in load_registry().parameters.items():
        for lang in LANGS:
            labels = [entry.get(lang) for entry in parameter.labels]
            assert len(set(labels)) == len(labels), (pid, lang, labels)


@pytest.mark.parametrize("lang, label", [("en", "Flat value"), ("fr", "Valeur forfaitaire")])
def test_rules_show_gives_the_labels(lang: str, label: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "cafe-250", "--lang", lang]) == 0
    assert f" * scoring.capot.mode = flat  · {label}" in capsys.readouterr().out


def test_rules_diff_gives_titles_and_labels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "diff", "classic", "strict-1001", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "play.partner_master_exception\n  classic: true\n  strict-1001: false\n" in out
    assert "  Couper quand son partenaire est maître — " in out
    assert "    strict-1001 → Toujours couper\u00a0: " in out


def test_rules_show_json_is_unchanged_by_lang(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "pagat", "--json"]) == 0
    plain = capsys.readouterr().out
    assert main(["rules", "show", "pagat", "--json", "--lang", "fr"]) == 0
    assert capsys.readouterr().out == plain


def test_a_ruleset_that_departs_from_its_source_says_it_is_only_after_it() -> None:
    """A title such as "Belote classique (FFB 2016)" reads as the federation's rules: where the ruleset
    takes another value than its first source on a rule that source settles, the title says "after"."""
    from belote_ref.site import load_site_data
    from belote_ref.site.ruleset_pages import departures

    data = load_site_data()
    checked = []
    for ruleset in data.rulesets:
        names_its_source = ruleset.sources[0].split("-")[0].lower() in ruleset.title["en"].lower()  # FFB, Pagat
        if names_its_source and departures(data, ruleset):
            checked.append(ruleset.id)
            assert "after" in ruleset.title["en"] and "d'après" in ruleset.title["fr"], (ruleset.id, ruleset.title)
    assert {"classic", "classic-sa-ta", "classic-annonces", "pagat"} <= set(checked)
    assert departures(data, data.classic) == ["bidding.round2_allow_turnup_suit", "bidding.contracts",
                                              "scoring.rounding.mode"]


def test_every_rule_has_an_article_number_of_its_topic_and_no_two_share_one() -> None:
    """A player cites "§ 6.1" at the table: each rule has a number, its first part the topic's place on
    the site, and no number is given twice (a new rule takes the next free number of its topic)."""
    from belote_ref.site import load_site_data

    data = load_site_data()
    seen: dict[str, str] = {}
    for place, (slug, _) in enumerate(data.topics, 1):
        for parameter in data.parameters_of(slug):
            assert parameter.article, f"{parameter.id} has no article number"
            topic, _, _ = parameter.article.partition(".")
            assert int(topic) == place, (parameter.id, parameter.article, slug)
            assert parameter.article not in seen, (parameter.id, seen.get(parameter.article))
            seen[parameter.article] = parameter.id
    assert len(seen) == len(data.registry.parameters)
    assert data.registry.parameters["scoring.last_trick_bonus"].article == "6.1"
