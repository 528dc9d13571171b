"""The one-page "how to play" (belote_ref/site/how_to_play.py): in each language, the classic game in
the site's topic order, each rule of the baseline in play listed once, with the baseline's own value."""

from __future__ import annotations

import re

from belote_ref.site import LANGUAGES, generate_pages, load_site_data
from belote_ref.site.how_to_play import how_to_play_md


def test_each_language_has_a_linear_page_with_every_rule_of_the_baseline_game() -> None:
    data = load_site_data()
    in_play = [p.id for slug, _ in data.topics for p in data.parameters_of(slug)
               if data.registry.applies(p.id, data.classic.params)]
    for lang in LANGUAGES:
        page = how_to_play_md(data, lang)
        linked = re.findall(r"\]\(rules/[a-z-]+\.md#([a-z_.0-9]+)\)", page)
        assert linked == in_play, lang  # each once, in the order of the rule pages
        steps = re.findall(r"^## (\d+)\. ", page, flags=re.M)
        assert steps == [str(n) for n in range(1, len(steps) + 1)] and len(steps) >= 6, steps
    french = how_to_play_md(data, "fr")
    # The baseline's values, in the registry's words: trumps' order, the 1000-point match.
    assert "le valet est la plus forte carte, puis le 9" in french
    target = data.registry.parameters["game.target_points"]
    assert target.explain_of(data.classic["game.target_points"], "fr") in french
    assert "§\u00a06.1 Dix de der" in french


def test_the_page_is_in_the_nav_and_on_the_home_page() -> None:
    site = generate_pages(load_site_data(), [])
    for lang in LANGUAGES:
        assert f"{lang}/how-to-play.md" in site.pages
        assert "(how-to-play.md)" in site.pages[f"{lang}/index.md"]
        assert f"'{lang}/how-to-play.md'" in str(site.nav)
