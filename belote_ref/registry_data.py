"""The registry's checked data, as JSON, without the typed registry built from it.

:func:`registry_data` reads ``rules/registry.yaml``'s checked data from the cache (see
:mod:`belote_ref.cache`), and checks and caches it on a miss. :mod:`belote_ref.registry` builds
its typed :class:`~belote_ref.registry.Registry` from it; :mod:`belote_ref.hello` reads the
parameters straight from it, so that a ``serve`` child answers ``hello`` without importing the
registry's classes (see :mod:`belote_ref.frozen` for why a start avoids them).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time: see belote_ref.frozen
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

__all__ = ["CLOSED_TYPES", "looks_like_registry", "registry_data"]

#: The parameter types whose ``values`` list every allowed value.
CLOSED_TYPES = ("bool", "enum")


def registry_data(path: Path | None = None) -> Any:
    """The checked data of the registry file ``path`` (the shipped one by default): the cached
    copy when the file and its schema are unchanged, else checked again (which raises
    :class:`~belote_ref.errors.RulesetError` listing every problem) and cached."""
    from belote_ref.cache import cached_json
    from belote_ref.resources import data_dir

    source = path or data_dir("rules") / "registry.yaml"
    files = [source, data_dir("schema") / "registry.schema.json"]
    return cached_json("registry", files, lambda: _checked(source), valid=looks_like_registry)


def _checked(path: Path) -> Any:
    from belote_ref.registry import checked_registry_data  # the checker, on a cache miss only

    return checked_registry_data(path)


def looks_like_registry(data: Any) -> bool:
    """The shape the registry reads (a cache file read back is checked before use)."""
    return (isinstance(data, dict) and isinstance(data.get("registry_version"), int)
            and isinstance(data.get("sources"), dict) and isinstance(data.get("parameters"), list)
            and all(isinstance(raw, dict) and isinstance(raw.get("id"), str) and isinstance(raw.get("values"), list)
                    and all(isinstance(entry, dict) and isinstance(entry.get("sources"), list) and "value" in entry
                            for entry in raw["values"])
                    and {"type", "default", "en", "fr"} <= raw.keys() for raw in data["parameters"]))
