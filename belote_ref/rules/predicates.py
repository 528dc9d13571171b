"""Predicates on rule values: the ``applies_to`` and ``when`` of a fixture, and the
``applies_when`` of a registry parameter.

A predicate maps parameter ids to what each must be: a value (``bidding.auction: bids``), one of
several (``{one_of: [...]}``) or, for a list-valued parameter, a value the list holds
(``{includes: sans_atout}``, registry only). It holds when every entry holds. Values compare by
JSON type as well as by value, so that ``true`` never matches ``1``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["condition_holds", "predicate_holds", "same_value"]


def same_value(a: Any, b: Any) -> bool:
    """Whether two rule values are the same, type included (``True`` is not ``1``)."""
    return type(a) is type(b) and a == b


def condition_holds(wanted: Any, value: Any) -> bool:
    """Whether ``value`` meets one entry of a predicate."""
    if isinstance(wanted, dict) and "one_of" in wanted:
        return any(same_value(value, option) for option in wanted["one_of"])
    if isinstance(wanted, dict) and "includes" in wanted:
        return isinstance(value, list) and any(same_value(item, wanted["includes"]) for item in value)
    return same_value(value, wanted)


def predicate_holds(predicate: Mapping[str, Any], params: Mapping[str, Any]) -> bool:
    """Whether every ``parameter: condition`` entry of ``predicate`` holds for ``params``."""
    return all(condition_holds(wanted, params.get(parameter_id)) for parameter_id, wanted in predicate.items())
