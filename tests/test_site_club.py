"""For clubs: an installed belote-ref publishes a house rule's pages, and its printable rule sheet, in
any folder (the wheel ships the MkDocs configuration, the templates, the locales and docs/)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import InstalledClubSite

from belote_ref.site.config import DEFAULT_CONFIG

REPO = Path(__file__).resolve().parents[1]


def test_the_shipped_configuration_is_the_repositorys_without_its_paths() -> None:
    ours = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    shipped = yaml.safe_load(DEFAULT_CONFIG.read_text(encoding="utf-8"))
    for key in ("docs_dir", "site_dir"):
        ours.pop(key, None)
    assert ours["theme"].pop("custom_dir") == "belote_ref/site/theme"
    assert shipped["theme"].pop("custom_dir") == "theme"
    assert ours.pop("hooks") == ["belote_ref/site/search_hook.py", "belote_ref/site/nav_hook.py"]
    assert shipped.pop("hooks") == ["search_hook.py", "nav_hook.py"]
    assert ours == shipped


@pytest.mark.slow  # the slow tier: see README
def test_an_installed_wheel_publishes_a_house_rule_in_an_empty_folder(installed_club_site: InstalledClubSite) -> None:
    # The wheel, its venv and the CLI's build are the session fixture's (tests/conftest.py), shared with
    # the browser test of tests/test_site.py.
    venv, where, built = installed_club_site.venv, installed_club_site.where, installed_club_site.built
    assert str(venv) in where, f"belote_ref is not the wheel's: {where}"
    assert "site built in" in built
    site = installed_club_site.site
    ruleset_id = yaml.safe_load(installed_club_site.house_rule)["id"]
    for lang, words in (("en", "Rule sheet"), ("fr", "Feuille de règles")):
        page = site / lang / "rulesets" / ruleset_id / "index.html"
        sheet = site / lang / "sheets" / ruleset_id / "index.html"
        assert page.is_file() and sheet.is_file(), lang
        text = sheet.read_text(encoding="utf-8")
        assert words in text and 'class="bt-changed"' in text and f'lang="{lang}"' in text
        assert f"sheets/{ruleset_id}/" in page.read_text(encoding="utf-8")
    assert "@media print" in (site / "stylesheets" / "extra.css").read_text(encoding="utf-8")
    assert ruleset_id in (site / "en" / "compare" / "index.html").read_text(encoding="utf-8")


def test_the_french_house_rule_page_shows_the_rules_of_the_english_one(tmp_path: Path) -> None:
    """docs/fr/house-rules.md is a translation: each house rule it shows is valid and sets the same
    values as the English page's, under its own id and titles."""
    from belote_ref.rules.ruleset import load_ruleset

    def rulesets(name: str) -> list[dict[str, object]]:
        text = (REPO / "docs" / name).read_text(encoding="utf-8")
        found = []
        for index, block in enumerate(text.split("```yaml\n")[1:]):
            path = tmp_path / f"{name.replace('/', '-')}-{index}.yaml"
            path.write_text(block.split("```", 1)[0], encoding="utf-8")
            found.append(dict(load_ruleset(path).params))
        return found

    english, french = rulesets("house-rules.md"), rulesets("fr/house-rules.md")
    assert len(english) == len(french) == 2
    assert english == french
