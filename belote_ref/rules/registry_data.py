"""The registry's checked data as it was cached, read without the typed registry or its checker.

:func:`belote_ref.rules.registry.registry_data` checks ``rules/registry.yaml`` and caches the
checked data (see :mod:`belote_ref.core.cache`); :func:`cached_registry_data` reads that copy back
and nothing else, so that a ``serve`` child answers ``hello`` from it without importing the
registry's classes (see :mod:`belote_ref.core.frozen` for why a start avoids them). On a cache
miss it answers None and the caller takes the long way.
"""

from __future__ import annotations

from belote_ref.core.cache import cached_payload
from belote_ref.core.resources import data_dir

TYPE_CHECKING = False  # typing is not imported at run time: see belote_ref.core.frozen
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

__all__ = ["CACHE_KIND", "CLOSED_TYPES", "cached_registry_data", "looks_like_registry", "registry_files"]

#: The parameter types whose ``values`` list every allowed value.
CLOSED_TYPES = ("bool", "enum")

#: The cache entry's kind (see :func:`belote_ref.core.cache.cached_json`).
CACHE_KIND = "registry"


def registry_files(path: Path | None = None) -> list[Path]:
    """The files the checked data is computed from: the registry file (the shipped one by
    default), then its schema."""
    return [path or data_dir("rules") / "registry.yaml", data_dir("schema") / "registry.schema.json"]


def cached_registry_data(path: Path | None = None) -> Any:
    """The checked data of the registry file ``path`` (the shipped one by default) as cached by
    :func:`belote_ref.rules.registry.registry_data`, or None when the cache holds no valid copy."""
    return cached_payload(CACHE_KIND, registry_files(path), valid=looks_like_registry)


def looks_like_registry(data: Any) -> bool:
    """The shape the registry reads (a cache file read back is checked before use)."""
    return (isinstance(data, dict) and isinstance(data.get("registry_version"), int)
            and isinstance(data.get("sources"), dict) and isinstance(data.get("parameters"), list)
            and all(isinstance(raw, dict) and isinstance(raw.get("id"), str) and isinstance(raw.get("values"), list)
                    and all(isinstance(entry, dict) and isinstance(entry.get("sources"), list) and "value" in entry
                            for entry in raw["values"])
                    and {"type", "default", "en", "fr"} <= raw.keys() for raw in data["parameters"]))
