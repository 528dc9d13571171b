"""The site's wording: the two locale files have the same keys, the same {fields} in each phrase, and
the site's Python modules hold no prose."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import yaml

from belote_ref.site import wording

SITE = Path(wording.__file__).resolve().parent


def _load(lang: str) -> dict[str, Any]:
    return yaml.safe_load((SITE / "locales" / f"{lang}.yaml").read_text(encoding="utf-8"))


def _flatten(node: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for key, value in node.items():
            out.update(_flatten(value, f"{prefix}{key}."))
        return out
    if isinstance(node, list):
        out = {}
        for index, value in enumerate(node):
            out.update(_flatten(value, f"{prefix}{index}."))
        return out
    return {prefix.rstrip("."): node}


def test_the_locale_files_have_the_same_keys() -> None:
    # Each language has its own words for search (search_synonyms): the groups are not translations.
    raw_en, raw_fr = _load("en"), _load("fr")
    assert raw_en.pop("search_synonyms") and raw_fr.pop("search_synonyms")
    en, fr = _flatten(raw_en), _flatten(raw_fr)
    assert sorted(set(en) - set(fr)) == [], "keys only in en.yaml"
    assert sorted(set(fr) - set(en)) == [], "keys only in fr.yaml"


def test_each_phrase_has_the_same_fields_in_both_languages() -> None:
    raw_en, raw_fr = _load("en"), _load("fr")
    raw_en.pop("search_synonyms"), raw_fr.pop("search_synonyms")
    en, fr = _flatten(raw_en), _flatten(raw_fr)
    for key, text in en.items():
        fields = set(re.findall(r"\{(\w+)\}", str(text)))
        assert fields == set(re.findall(r"\{(\w+)\}", str(fr[key]))), key


def test_the_site_modules_hold_no_prose() -> None:
    """No string constant of the site's code reads like a sentence (error messages aside): wording belongs
    in the locale files."""
    for path in sorted(SITE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
                      and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
        # Error messages (raised) speak to the person running the build, in English like every CLI message.
        errors = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.Raise) for inner in ast.walk(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings | errors:
                words = re.findall(r"(?<![\w{.#/-])[A-Za-zÀ-ÿ]{2,}(?![\w}(=/-])", re.sub(r"<[^>]+>|\{[^}]*\}", " ", node.value))
                assert len(words) < 5, f"{path.name}:{node.lineno}: prose in Python: {node.value!r}"


def test_no_site_module_is_over_500_lines() -> None:
    for path in SITE.glob("*.py"):
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 500, path.name
