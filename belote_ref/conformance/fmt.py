"""The canonical text of a fixture file (``belote-ref fmt`` writes it, ``--check`` verifies it).

Keys in a fixed order, lists of scalars (cards, calls, rule ids) and small mappings on one line,
long prose folded, no anchors or aliases, a final newline.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from belote_ref.core.cards import parse_card
from belote_ref.core.errors import NotationError

__all__ = ["FIXTURE_KEYS", "HEADER_ORDER", "format_fixture", "not_a_fixture"]

HEADER_ORDER = ("id", "kind", "title", "title_fr", "rules", "depends_on", "source", "provenance", "normative",
                "needs_review", "partial", "note", "note_fr", "applies_to", "given", "expect", "adapter_answer")


#: The keys of every fixture (``schema/fixture.schema.json`` requires them): ``fmt`` rewrites no file
#: that lacks one (a ruleset, a configuration), since it would write it back as a fixture.
FIXTURE_KEYS = ("id", "kind", "given", "expect")


def not_a_fixture(data: Any) -> str | None:
    """Why a YAML file holding ``data`` is not a fixture that ``fmt`` may rewrite; None when it is one."""
    if not isinstance(data, Mapping):
        return "not a fixture (a fixture is a mapping of keys): fmt rewrites only fixture files"
    missing = [key for key in FIXTURE_KEYS if key not in data]
    if missing:
        return f"not a fixture (no {', '.join(missing)}): fmt rewrites only fixture files"
    if not isinstance(data["id"], str) or not isinstance(data["kind"], str) \
            or not isinstance(data["given"], Mapping) or not isinstance(data["expect"], list):
        return ("not a fixture (its id and kind are strings, its given a mapping, its expect a list): "
                "fmt rewrites only fixture files")
    return None


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flow = all(_is_scalar(item) for item in data) or all(
        isinstance(item, list) and all(_is_scalar(x) for x in item) for item in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


def _represent_dict(dumper: yaml.SafeDumper, data: Mapping[str, Any]) -> yaml.Node:
    small = len(data) <= 6 and all(_is_scalar(v) or (isinstance(v, list) and all(_is_scalar(x) for x in v))
                                   for v in data.values())
    flow = small and len(repr(data)) < 80
    return dumper.represent_mapping("tag:yaml.org,2002:map", list(data.items()), flow_style=flow)


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    style = ">" if len(data) > 90 and "\n" not in data.rstrip("\n") else None
    if "\n" in data.rstrip("\n"):
        style = "|"
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


class _Block(dict):  # type: ignore[type-arg]
    """A mapping always written in block style (the fixture's top level)."""


def _represent_block(dumper: yaml.SafeDumper, data: Mapping[str, Any]) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", list(data.items()), flow_style=False)


_Dumper.add_representer(_Block, _represent_block)
_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(dict, _represent_dict)
_Dumper.add_representer(str, _represent_str)


def _card_key(token: Any) -> Any:

    try:
        return (0, int(parse_card(str(token))))
    except NotationError:
        return (1, str(token))


def _sort_cards(value: Any) -> Any:
    """Sort a list of card tokens; leave anything else (an auction's legal calls) in its order."""
    if not isinstance(value, list) or not all(_card_key(token)[0] == 0 for token in value):
        return value
    return sorted(value, key=_card_key)


def _canonical_cards(node: Any) -> Any:
    """Sort the card lists that are sets (hands, legal plays, a combination's cards); keep play order."""
    if isinstance(node, list):
        return [_canonical_cards(item) for item in node]
    if not isinstance(node, dict):
        return node
    result = {}
    for key, value in node.items():
        if key in ("hand", "legal"):
            result[key] = _sort_cards(value)
        elif key in ("hands", "completion") and isinstance(value, dict):
            result[key] = {seat: _sort_cards(cards) for seat, cards in value.items()}
        elif key in ("combinations", "announcements") and isinstance(value, list):
            result[key] = [
                {**item, "cards": _sort_cards(item.get("cards"))}
                if isinstance(item, dict) and "cards" in item
                else item
                for item in value
            ]
        else:
            result[key] = _canonical_cards(value)
    return result


def format_fixture(data: Mapping[str, Any]) -> str:
    """The canonical YAML text of a fixture's data (card sets sorted, header keys in order)."""
    data = _canonical_cards(dict(data))
    ordered = {key: data[key] for key in HEADER_ORDER if key in data}
    ordered.update({key: value for key, value in data.items() if key not in ordered})
    return yaml.dump(_Block(ordered), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
