"""Which of the site's two languages a text is written in, by its function words.

The corpus and the site check this in two places: a quotation labelled as the source's own words must
be in the source's language (``conformance lint``), and a French page must hold no English sentence
outside a block marked ``lang="en"`` (``docs check``). Function words (articles, prepositions,
auxiliaries) say the language of a sentence without a dictionary: a French sentence has "le", "des",
"est", an English one "the", "of", "is", and the game's own words (belote, capot, dix de der), which
English texts use too, are in neither list.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import yaml

__all__ = ["function_words", "language_of"]

_WORD = re.compile(r"[a-zàâäçéèêëîïôöûùüÿœæ]+(?:'[a-zàâäçéèêëîïôöûùüÿœæ]+)?")


@cache
def function_words() -> dict[str, frozenset[str]]:
    """The word lists of ``function_words.yaml`` beside this module: ``en``, ``fr`` and ``fr_elided``."""
    with (Path(__file__).with_name("function_words.yaml")).open(encoding="utf-8") as handle:
        return {key: frozenset(str(word) for word in words) for key, words in yaml.safe_load(handle).items()}


def language_of(text: str, *, minimum: int = 3) -> str | None:
    """``"en"`` or ``"fr"`` when one language's function words outnumber the other's at least two to one
    and number at least ``minimum``; ``None`` when the text is too short or mixed to say."""
    lists = function_words()
    words = _WORD.findall(text.lower().replace("’", "'"))
    english = sum(word in lists["en"] for word in words)
    french = sum(word in lists["fr"] or ("'" in word and word.split("'")[0] in lists["fr_elided"]) for word in words)
    if english >= minimum and english >= 2 * french:
        return "en"
    if french >= minimum and french >= 2 * english:
        return "fr"
    return None
