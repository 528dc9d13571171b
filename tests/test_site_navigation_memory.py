"""The navigation written once for the pages outside it of one folder (belote_ref/site/nav_hook.py and
the theme's partials/nav.html) is the navigation Material writes for each page: a small site built
with the hook and without it gives the same pages."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
THEME = REPO / "belote_ref" / "site" / "theme"

PAGES = {
    "index.md": "# Home\n",
    "en/rules/play.md": "# Play\n\n## Trumps\n",
    "en/rules/score.md": "# Score\n",
    "fr/rules/play.md": "# Jeu\n",
    # Outside the navigation: two of one folder, one of another, a French one, one below a page of the
    # navigation, and one whose own address holds a page of the navigation (its links are its own).
    "en/fixtures/one.md": "# One\n",
    "en/fixtures/two.md": "# Two\n",
    "en/sheets/classic.md": "# Sheet\n",
    "fr/fixtures/un.md": "# Un\n",
    "en/rules/play/more.md": "# More\n",
    "en/fixtures/three.md": "# Three\n",
    "en/fixtures/three/deeper.md": "# Deeper\n",
}
NAV = [
    {"Home": "index.md"},
    {"Rules": [{"Play": "en/rules/play.md"}, {"Score": "en/rules/score.md"},
               {"Deeper": "en/fixtures/three/deeper.md"}]},
    {"Règles": [{"Jeu": "fr/rules/play.md"}]},
    {"Elsewhere": "https://example.org/"},
]


def _build(folder: Path, *, with_memory: bool) -> dict[str, bytes]:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    docs = folder / "docs"
    for relative, text in PAGES.items():
        (docs / relative).parent.mkdir(parents=True, exist_ok=True)
        (docs / relative).write_text(text, encoding="utf-8")
    theme = folder / "theme"
    shutil.copytree(THEME, theme)
    if not with_memory:
        (theme / "partials" / "nav.html").unlink()
    config = {
        "site_name": "memory", "docs_dir": str(docs), "site_dir": str(folder / "site"), "nav": NAV,
        "theme": {"name": "material", "custom_dir": str(theme), "features": ["navigation.tabs", "navigation.sections"]},
        "hooks": [str(REPO / "belote_ref" / "site" / "nav_hook.py")] if with_memory else [],
        "plugins": [],
    }
    (folder / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    build(load_config(config_file=str(folder / "mkdocs.yml")))
    site = folder / "site"
    return {path.relative_to(site).as_posix(): path.read_bytes() for path in sorted(site.rglob("*.html"))}


def test_the_navigation_written_once_per_folder_is_materials_for_every_page(tmp_path: Path) -> None:
    pytest.importorskip("material")
    remembered = _build(tmp_path / "with", with_memory=True)
    written = _build(tmp_path / "without", with_memory=False)
    assert sorted(remembered) == sorted(written)
    for page, html in written.items():
        assert remembered[page] == html, page


def test_only_a_page_outside_the_navigation_whose_address_holds_none_of_it_shares_its_folders() -> None:
    from belote_ref.site.nav_hook import NavigationMemory

    play, deeper = SimpleNamespace(url="en/rules/play/"), SimpleNamespace(url="en/fixtures/three/deeper/")
    rules = SimpleNamespace(url=None, children=[play, deeper])
    nav = SimpleNamespace(pages=[play, deeper], items=[rules, SimpleNamespace(url="https://example.org/")])
    memory = NavigationMemory()
    assert memory.key(play, nav) is None  # in the navigation: its link is marked
    assert memory.key(SimpleNamespace(url="en/fixtures/three/"), nav) is None  # holds a page of it
    assert memory.key(SimpleNamespace(url="en/fixtures/one/"), nav) == "en/fixtures"
    assert memory.key(SimpleNamespace(url="en/rules/play/more/"), nav) == "en/rules/play"
    assert memory.key(SimpleNamespace(url="fr/fixtures/un/"), nav) == "fr/fixtures"
    assert memory.key(SimpleNamespace(url="en/fixtures/one.html"), nav) is None  # not a folder's address
