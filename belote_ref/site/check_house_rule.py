"""The answer of the "Check my house rules" page, computed in the reader's browser by the engine itself.

A house rule pasted in the page is read and checked exactly as ``belote-ref rules validate`` reads a
file (:func:`~belote_ref.rules.ruleset.load_ruleset`: the located YAML reading and its bounds, the
schema, the checks a schema cannot make), and its errors are the command's, each on one line as
``line:col: key: message``. A valid one is described as its ruleset page does: each rule it changes
from its parent, with the parent's value and its own, in the registry's words, in every language of
the site. Like :mod:`belote_ref.site.may_i_play` it imports only the engine and the wording, never
MkDocs, and returns plain JSON data.

The page runs in a browser with no files of the reader's: a house rule checked here extends a shipped
ruleset by its id (a ``.yaml`` parent is refused before anything is looked for on a disk).

The house rule travels in the address of the interactive pages as ``#house=`` followed by its YAML,
UTF-8, in base64url without padding (RFC 4648 §5): :func:`house_fragment` writes it and
:func:`house_from_fragment` reads it back (``browser/house_link.js`` does the same in the page).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NoReturn

from belote_ref.core.errors import BeloteRefError, Diagnostic, RulesetError
from belote_ref.core.yamlsource import read_yaml
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import (
    Ruleset,
    find_ruleset,
    iter_changes,
    load_ruleset,
    settings_not_in_play,
    shipped_rulesets,
)
from belote_ref.site.value_words import label_of
from belote_ref.site.wording import LANGUAGES

__all__ = [
    "HOUSE_PARAMETER",
    "MAX_HOUSE_RULE_BYTES",
    "check_house_rule",
    "file_too_large",
    "house_fragment",
    "house_from_fragment",
    "house_ruleset",
]

#: The largest house rule the page checks, in bytes of UTF-8: a house rule is a few lines, and the
#: rule travels in the page's address, which browsers and mail programs cut somewhere past 32 KiB.
MAX_HOUSE_RULE_BYTES = 16 * 1024

#: The name of the house rule in the fragment of an interactive page's address.
HOUSE_PARAMETER = "house"

# The name the rule is read under: the file name of every diagnostic, which the page does not show.
_HOUSE_FILE = "house-rule.yaml"
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
_LINE_BREAKS = re.compile(r"\s*[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]+\s*")


def house_fragment(text: str) -> str:
    """``house=<base64url of text's UTF-8, no padding>``: the fragment of an address that carries ``text``."""
    encoded = base64.urlsafe_b64encode(text.encode("utf-8")).rstrip(b"=").decode("ascii")
    return f"{HOUSE_PARAMETER}={encoded}"


def house_from_fragment(fragment: str) -> str:
    """The house rule an address's fragment carries (with or without its ``#``); raises
    :class:`~belote_ref.core.errors.BeloteRefError` when it carries none or not a readable one."""
    fragment = fragment.removeprefix("#")
    name, equals, value = fragment.partition("=")
    if name != HOUSE_PARAMETER or not equals:
        raise BeloteRefError(f"the address carries no house rule: expected #{HOUSE_PARAMETER}=...")
    if not _BASE64URL.fullmatch(value) or len(value) % 4 == 1:
        raise BeloteRefError("the house rule in the address is not base64url")
    if len(value) * 3 // 4 > MAX_HOUSE_RULE_BYTES:
        _refuse_size(len(value) * 3 // 4)
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise BeloteRefError("the house rule in the address is not UTF-8 text") from None


def check_house_rule(text: str, pages: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``{"errors": [line]}`` when ``text`` is not a valid house rule, each line
    ``line:col: key: message``; else what it is and what it changes::

        {"id", "version", "title": {lang: text}, "parent",
         "changes": {lang: [{"rule", "title", "parent_value", "value", "explain", "in_play"}]},
         "warnings": [line], "house": "<base64url>", "links": {name: address#house=...}}

    ``pages``: the addresses of the pages that can be opened under the house rule, by name; each
    comes back in ``links`` with the rule in its fragment."""
    try:
        return _check(text, pages or {})
    except RulesetError as error:
        return {"errors": [_line(diagnostic) for diagnostic in error.diagnostics] or [_one_line(str(error))]}
    except BeloteRefError as error:
        return {"errors": [_one_line(str(error))]}


def file_too_large(size: int) -> dict[str, Any]:
    """The answer for a file of ``size`` bytes, larger than :data:`MAX_HOUSE_RULE_BYTES`, that the page
    does not read."""
    try:
        _refuse_size(size)
    except BeloteRefError as error:
        return {"errors": [str(error)]}
    return {"errors": []}


def house_ruleset(text: str) -> Ruleset:
    """The house rule ``text`` resolved and compiled, for the pages that run under it; raises
    :class:`~belote_ref.core.errors.BeloteRefError` saying its first error in one line."""
    try:
        return _house_ruleset(text)
    except RulesetError as error:
        first = [_line(diagnostic) for diagnostic in error.diagnostics] or [_one_line(str(error))]
        raise BeloteRefError(first[0]) from None


@lru_cache(maxsize=4)  # the page asks again for every situation under the same rule
def _house_ruleset(text: str) -> Ruleset:
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise BeloteRefError("the house rule is not valid Unicode text") from None
    if size > MAX_HOUSE_RULE_BYTES:
        _refuse_size(size)
    _refuse_other_parents(text)
    return load_ruleset(_HOUSE_FILE, text)


def _check(text: str, pages: Mapping[str, str]) -> dict[str, Any]:
    house = _house_ruleset(text)
    parent = find_ruleset(house.parent or "")
    registry = load_registry()
    changes: dict[str, list[dict[str, Any]]] = {}
    for lang in LANGUAGES:
        changes[lang] = []
        for pid in iter_changes(house, parent):
            parameter = registry[pid]
            changes[lang].append({
                "rule": pid,
                "title": parameter.title_in(lang),
                "parent_value": label_of(parent[pid], parameter, lang),
                "value": label_of(house[pid], parameter, lang),
                "explain": parameter.explain_of(house[pid], lang),
                "in_play": registry.applies(pid, house.params),
            })
    fragment = house_fragment(text)
    return {
        "id": house.id,
        "version": house.version,
        "title": {lang: house.title.get(lang) or house.title.get("en") or house.id for lang in LANGUAGES},
        "parent": parent.id,
        "changes": changes,
        "warnings": [_line(warning) for warning in settings_not_in_play(_HOUSE_FILE, text)],
        "house": fragment.partition("=")[2],
        "links": {name: f"{address}#{fragment}" for name, address in pages.items()},
    }


def _refuse_other_parents(text: str) -> None:
    """A house rule checked here must extend a shipped ruleset by its id: the browser has no other file.
    The text is read (and its own errors found) by the same reader as :func:`load_ruleset`'s."""
    located, diagnostics = read_yaml(_HOUSE_FILE, text)
    if located is None or diagnostics or not isinstance(located.data, dict):
        return  # load_ruleset says what is wrong, in the same words as the command line
    extends = located.data.get("extends")
    shipped = ", ".join(shipped_rulesets())
    if extends is None:
        raise RulesetError([located.diagnostic(
            (), f"missing required key 'extends': a house rule extends a shipped ruleset ({shipped})")])
    # The names load_ruleset would look for as a file (an unknown plain name is its own error there).
    if isinstance(extends, str) and extends not in shipped_rulesets() and (
            extends.endswith((".yaml", ".yml")) or "/" in extends):
        raise RulesetError([located.diagnostic(
            ("extends",), f"a house rule checked here extends a shipped ruleset ({shipped}), not a file")])


def _line(diagnostic: Diagnostic) -> str:
    """``line:col: key: message``: the command line's diagnostic without the file's name."""
    text = str(diagnostic)
    if diagnostic.file is not None:
        text = text.removeprefix(diagnostic.file + ":")
    return _one_line(text)


def _one_line(text: str) -> str:
    """``text`` on one line; the spaces inside a line are the message's own (an indentation it shows)."""
    return _LINE_BREAKS.sub(" ", text).strip()


def _refuse_size(size: int) -> NoReturn:
    raise BeloteRefError(f"the house rule is too large: {size} bytes; a house rule checked here holds at most "
                         f"{MAX_HOUSE_RULE_BYTES} bytes ({MAX_HOUSE_RULE_BYTES // 1024} KiB)")
