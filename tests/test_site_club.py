"""For clubs: an installed belote-ref publishes a house rule's pages, and its printable rule sheet, in
any folder (the wheel ships the MkDocs configuration, the templates, the locales and docs/)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import yaml

from belote_ref.site.config import DEFAULT_CONFIG

REPO = Path(__file__).resolve().parents[1]


def _house_rule() -> str:
    """The five-line house rule of docs/house-rules.md, as the page shows it."""
    text = (REPO / "docs" / "house-rules.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(.*?)```", text, flags=re.DOTALL)
    assert block, "docs/house-rules.md shows a house rule"
    return block.group(1)


def test_the_shipped_configuration_is_the_repositorys_without_its_paths() -> None:
    ours = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    shipped = yaml.safe_load(DEFAULT_CONFIG.read_text(encoding="utf-8"))
    for key in ("docs_dir", "site_dir"):
        ours.pop(key, None)
    assert ours["theme"].pop("custom_dir") == "belote_ref/site/theme"
    assert shipped["theme"].pop("custom_dir") == "theme"
    assert ours == shipped


def _run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, **kwargs)  # type: ignore[call-overload]
    assert result.returncode == 0, f"{command}: {result.stdout[-2000:]}{result.stderr[-2000:]}"
    return result


@pytest.mark.skipif(sys.platform == "win32", reason="venv layout")
def test_an_installed_wheel_publishes_a_house_rule_in_an_empty_folder(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    wheels = tmp_path / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", str(REPO), "-w", str(wheels), "--no-deps", "-q"])
    wheel = next(wheels.glob("belote_ref-*.whl"))
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    python = venv / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)])
    # The dependencies (MkDocs, Material, PyYAML...) come from this environment's site-packages, listed
    # after the new venv's own: belote_ref itself is the wheel's (a .pth line does not run other .pth files).
    site_packages = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
                         .stdout.strip())
    (site_packages / "zz_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    club = tmp_path / "club"
    club.mkdir()
    (club / "our-club.yaml").write_text(_house_rule(), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    where = _run([str(python), "-c", "import belote_ref; print(belote_ref.__file__)"], cwd=club, env=env).stdout
    assert str(venv) in where, f"belote_ref is not the wheel's: {where}"
    built = _run([str(venv / "bin" / "belote-ref"), "docs", "build", "--ruleset", "our-club.yaml", "--out", "site"],
                 cwd=club, env=env)
    assert "site built in" in built.stdout
    site = club / "site"
    ruleset_id = yaml.safe_load(_house_rule())["id"]
    for lang, words in (("en", "Rule sheet"), ("fr", "Feuille de règles")):
        page = site / lang / "rulesets" / ruleset_id / "index.html"
        sheet = site / lang / "sheets" / ruleset_id / "index.html"
        assert page.is_file() and sheet.is_file(), lang
        text = sheet.read_text(encoding="utf-8")
        assert words in text and 'class="bt-changed"' in text and f'lang="{lang}"' in text
        assert f"sheets/{ruleset_id}/" in page.read_text(encoding="utf-8")
    assert "@media print" in (site / "stylesheets" / "extra.css").read_text(encoding="utf-8")
    assert ruleset_id in (site / "en" / "compare" / "index.html").read_text(encoding="utf-8")
