"""Helpers for the tests that damage valid data on purpose (tests/test_fuzz.py, test_untrusted_records.py)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any


def key_paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path of keys and indexes inside ``node`` (its own root excluded)."""
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found.extend(key_paths(value, (*prefix, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.extend(key_paths(value, (*prefix, index)))
    return found


def replaced(data: Any, path: Sequence[Any], value: Any) -> Any:
    """A deep copy of JSON-like ``data`` with the item at ``path`` set to ``value``."""
    copy = json.loads(json.dumps(data))
    node = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copy
