"""MkDocs hooks that give each language of the site its own search index.

Material writes one index for the whole site (``search/search_index.json``): a French reader's search
would load both languages and rank English pages among French ones. After the build this module splits
it: ``search/search_index.json`` keeps the English pages (and the bilingual root), ``fr/search/search_index.json``
the French ones, each with its own language's word pipeline. A French page then points Material's
``base`` at ``fr/`` (its own index is read from there, and the result addresses, written relative to
``fr/``, resolve from there too).

Each rule's section is tagged with the game's words for it (the locale files' ``search_synonyms``: a
group any of whose words its title holds), so that "der" finds the dix de der rule and "pisser" the
undertrump. Tags are the field Material ranks highest, and the rule pages alone carry them: a player's
word finds the rule before the worked examples that mention it. (Synonyms added to every entry's text
would make the game's common words common in the index too, and rank the rules lower, not higher.)
MkDocs loads this file by its path (``hooks:`` in mkdocs.yml), in ``docs build`` and ``docs serve`` alike.

The search plugin's index reads each page with :class:`~belote_ref.site.search_parser.FastParser`
(``on_config``): the same entries, made faster.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from belote_ref.site.wording import LANGUAGES, phrases

__all__ = ["index_path", "on_config", "on_post_build", "on_post_page", "rule_tags", "split_index", "synonym_groups"]

_CONFIG_SCRIPT = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.DOTALL)


def _page_lang(url: str) -> str:
    """The language whose index holds the page at ``url`` (the site's root and English pages: ``en``)."""
    first = url.split("/", 1)[0]
    return first if first in LANGUAGES and first != "en" else "en"


def synonym_groups(lang: str) -> list[list[str]]:
    """The locale's groups of words a player uses for the same thing, each lower-cased."""
    return [[str(word).lower() for word in group] for group in phrases(lang).get("search_synonyms") or []]


def rule_tags(title: str, groups: Sequence[Sequence[str]]) -> list[str]:
    """The words of each synonym group one of whose words the rule's ``title`` holds (as whole words: the
    "couper" of "sous-couper" is not the word "couper")."""
    words = " " + " ".join(re.split(r"[\s,;:.()«»\"]+", title.lower())) + " "
    found: list[str] = []
    for group in groups:
        if any(f" {term} " in words for term in group):
            found += [term for term in group if term not in found]
    return found


def _without_empty_sections(entries: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Drop a section left with no words (its heading sits in a block kept out of the search), which
    Material titles with the page's own title: it would list the page twice."""
    kept: list[dict[str, Any]] = []
    page_titles: dict[str, str] = {}
    for entry in entries:
        page, _, anchor = str(entry["location"]).partition("#")
        page_titles.setdefault(page, str(entry.get("title", "")))
        if anchor and not str(entry.get("text", "")).strip() and entry.get("title") == page_titles[page]:
            continue
        kept.append(entry)
    return kept


def split_index(index: Mapping[str, Any], groups: Mapping[str, Sequence[Sequence[str]]]) -> dict[str, dict[str, Any]]:
    """Material's whole-site index as one index per language (``{"en": ..., "fr": ...}``), each entry's
    location relative to its language's folder (the root's for English), each rule tagged with its synonyms."""
    by_lang: dict[str, list[dict[str, Any]]] = {lang: [] for lang in LANGUAGES}
    for entry in index["docs"]:
        location = str(entry["location"])
        lang = _page_lang(location)
        moved = dict(entry)
        if lang != "en":
            moved["location"] = location[len(lang) + 1:]
        page, _, anchor = location.partition("#")
        if page.startswith(f"{lang}/rules/") and anchor:
            tags = rule_tags(str(moved.get("title", "")), groups.get(lang, ()))
            if tags:
                moved["tags"] = tags
        by_lang[lang].append(moved)
    return {lang: {"config": {**index["config"], "lang": [lang]},
                   "docs": _without_empty_sections(entries)}
            for lang, entries in by_lang.items()}


def index_path(site_dir: Path, lang: str) -> Path:
    """Where the search index of ``lang`` is written in a built site."""
    return (site_dir if lang == "en" else site_dir / lang) / "search" / "search_index.json"


def on_config(config: Any, **_: Any) -> Any:
    # Hooks run after the plugins: the search plugin has made its index, which is swapped for the same
    # index reading pages faster (only Material's own, not one another plugin put in its place).
    for plugin in config.plugins.values():
        index = getattr(plugin, "search_index", None)
        if index is not None and type(index).__name__ == "SearchIndex" and type(index).__module__ == _MATERIAL_SEARCH:
            from belote_ref.site.search_parser import FastSearchIndex

            plugin.search_index = FastSearchIndex(**index.config)
    return config


_MATERIAL_SEARCH = "material.plugins.search.plugin"


def on_post_build(config: Any, **_: Any) -> None:
    site_dir = Path(config["site_dir"])
    whole = index_path(site_dir, "en")
    if not whole.is_file():
        return  # the search plugin is off
    index = json.loads(whole.read_text(encoding="utf-8"))
    for lang, part in split_index(index, {lang: synonym_groups(lang) for lang in LANGUAGES}).items():
        target = index_path(site_dir, lang)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(part, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def _tojson(value: Any) -> str:
    # As Jinja's ``tojson`` writes it: the characters that could end the script element are escaped.
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").replace("'", "\\u0027")


def on_post_page(output: str, page: Any, config: Any, **_: Any) -> str:
    lang = _page_lang(str(page.url))
    if lang == "en":
        return output

    def rebase(found: re.Match[str]) -> str:
        settings = json.loads(found.group(2))
        settings["base"] = f"{str(settings['base']).rstrip('/')}/{lang}/"
        return found.group(1) + _tojson(settings) + found.group(3)

    return _CONFIG_SCRIPT.sub(rebase, output, count=1)
