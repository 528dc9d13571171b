"""The site's wording, read from ``locales/<lang>.yaml``: fixed phrases, topic and group titles,
kinds, seats, suits, the home page and the glossary. Python holds no prose; this module only
looks phrases up and fills in their ``{name}`` fields.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

__all__ = [
    "LANGUAGES",
    "given_key",
    "group_title",
    "hand_page",
    "kind_name",
    "kind_order",
    "lbl",
    "phrases",
    "result_key",
    "seat_name",
    "suit_name",
    "t",
    "topic_intro",
    "topic_title",
    "type_name",
]

LANGUAGES = ("en", "fr")
LOCALES = Path(__file__).resolve().parent / "locales"


@cache
def phrases(lang: str) -> dict[str, Any]:
    """The whole locale file of ``lang``."""
    with (LOCALES / f"{lang}.yaml").open(encoding="utf-8") as handle:
        return dict(yaml.safe_load(handle))


def t(lang: str, key: str, **values: Any) -> str:
    """A fixed phrase of the site in ``lang``, its ``{name}`` fields filled in."""
    text = str(phrases(lang)["text"][key])
    return text.format(**values) if values else text


def lbl(lang: str, key: str) -> str:
    """A fixed phrase followed by a colon, spaced as the language wants."""
    return t(lang, key) + t(lang, "colon")


def _section(lang: str, section: str, key: str, default: str) -> str:
    found = phrases(lang).get(section, {}).get(key)
    return str(found) if found else default


def topic_title(slug: str, lang: str) -> str:
    topic = phrases(lang)["topics"].get(slug) or {}
    return str(topic.get("title") or slug)


def topic_intro(slug: str, lang: str) -> str:
    topic = phrases(lang)["topics"].get(slug) or {}
    return str(topic.get("intro") or "")


def group_title(key: str, lang: str) -> str:
    return _section(lang, "groups", key, key)


def kind_name(kind: str, lang: str) -> str:
    return _section(lang, "kinds", kind, kind)


def kind_order() -> list[str]:
    """The kinds of case in the order the site lists them."""
    return list(phrases("en")["kinds"])


def type_name(kind: str, lang: str) -> str:
    return _section(lang, "types", kind, kind)


def hand_page(name: str, lang: str) -> dict[str, str] | None:
    """The title and summary of a hand-written page of ``docs/`` in ``lang``; None when it has none."""
    found = phrases(lang).get("hand_pages", {}).get(name)
    return dict(found) if found else None


def result_key(key: str, lang: str) -> str:
    """The name of a field of an expected result (``winner``, ``deal_score``) in ``lang``."""
    return _section(lang, "result_keys", key, key)


def given_key(key: str, lang: str) -> str:
    """The name of a field of a fixture's situation (``dealer``, ``pot``) in ``lang``."""
    return _section(lang, "given_keys", key, key)


def seat_name(letter: str, lang: str) -> str:
    return _section(lang, "seats", letter, letter)


def suit_name(letter: str, lang: str) -> str:
    return _section(lang, "suits", letter, letter)
