"""The parameter registry (``rules/registry.yaml``): what a ruleset may set and what each value means.

The registry is the single list of rule parameters. From it come the JSON Schema of rulesets
(``schema/ruleset.schema.json`` is generated here, see :func:`ruleset_schema`) and the checks of
fixtures' predicates and adapters' declared support.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from belote_ref.core.cache import cached_json
from belote_ref.core.errors import Diagnostic, InternalError, RulesetError
from belote_ref.core.located import Located
from belote_ref.core.resources import data_dir
from belote_ref.core.yamlsource import read_yaml
from belote_ref.rules.predicates import condition_holds
from belote_ref.rules.registry_data import CACHE_KIND, CLOSED_TYPES, looks_like_registry, registry_files

if TYPE_CHECKING:
    import jsonschema

__all__ = [
    "RANK_TOKENS",
    "Parameter",
    "Registry",
    "load_registry",
    "parameter_tree",
    "registry_data",
    "ruleset_schema",
]

RANK_TOKENS = ("7", "8", "9", "T", "J", "Q", "K", "A")
_AREAS_ORDER = ("cards", "table", "deal", "bidding", "auction", "play", "belote", "announcements", "scoring", "game")


@dataclass(frozen=True)
class Parameter:
    """One rule parameter of the registry."""

    id: str
    type: str
    default: Any
    values: tuple[Any, ...]
    sources: tuple[tuple[str, ...], ...]
    en: str
    fr: str
    outcome: bool = True
    protocol: bool = True
    since_protocol: int = 1
    #: Whether the parameter can change which cards may be played or which card wins a trick;
    #: every other one changes only a deal's score.
    decides_play: bool = False
    minimum: int | None = None
    maximum: int | None = None
    #: The rule's article number on the rules site ("6.12"), which a player cites: stable once released.
    article: str | None = None
    #: When the parameter is part of the game (a predicate, see :mod:`belote_ref.rules.predicates`);
    #: empty: always. Read it through :meth:`Registry.applies`, which also asks the parameters it names.
    applies_when: Mapping[str, Any] = field(default_factory=dict)
    # Reader-facing wording (``title``, and per value ``label`` and ``explain``), each a map
    # language -> text; empty when the registry gives none (the registry tests require them).
    title: Mapping[str, str] = field(default_factory=dict)
    labels: tuple[Mapping[str, str], ...] = ()
    explains: tuple[Mapping[str, str], ...] = ()
    _validator: Any = field(default=None, init=False, repr=False, compare=False)
    _verdicts: dict[object, bool] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def area(self) -> str:
        """The first part of the id (``play`` for ``play.undertrump_partner``)."""
        return self.id.split(".", 1)[0]

    @property
    def closed(self) -> bool:
        """True when ``values`` lists every allowed value (bool and enum parameters)."""
        return self.type in CLOSED_TYPES

    def allows(self, value: Any) -> bool:
        """Whether ``value`` is an allowed value (by the generated schema)."""
        if self.closed:
            return any(type(value) is type(v) and value == v for v in self.values)
        # Compiling a ruleset asks every parameter, mostly about the same few values: the verdicts
        # are remembered (a bounded number of them) and the validator is built once.
        known: dict[object, bool] = self._verdicts
        # A scalar is its own key (with its type: 1, 1.0 and True are equal); anything else, its JSON.
        key: object = (type(value), value) if isinstance(value, str | int | float) or value is None else json.dumps(
            value, sort_keys=True, default=repr)
        verdict = known.get(key)
        if verdict is None:
            if self._validator is None:
                import jsonschema  # only for a value not seen yet of an open parameter

                object.__setattr__(self, "_validator", jsonschema.Draft202012Validator(value_schema(self)))
            verdict = bool(self._validator.is_valid(value))
            if len(known) < 256:
                known[key] = verdict
        return verdict

    def _index_of(self, value: Any) -> int | None:
        for index, candidate in enumerate(self.values):
            if candidate == value and type(candidate) is type(value):
                return index
        return None

    def title_in(self, lang: str) -> str:
        """The parameter's title in ``lang`` (English when missing, else the id)."""
        return self.title.get(lang) or self.title.get("en") or self.id

    def label_of(self, value: Any, lang: str) -> str | None:
        """The short label of a documented ``value`` in ``lang`` (English when missing); None when it has none."""
        index = self._index_of(value)
        if index is None or index >= len(self.labels):
            return None
        return self.labels[index].get(lang) or self.labels[index].get("en") or None

    def explain_of(self, value: Any, lang: str) -> str | None:
        """The one-line explanation of a documented ``value`` in ``lang``; None when it has none."""
        index = self._index_of(value)
        if index is None or index >= len(self.explains):
            return None
        return self.explains[index].get(lang) or self.explains[index].get("en") or None

    def sources_of(self, value: Any) -> tuple[str, ...]:
        """The sources cited for ``value``, or an empty tuple."""
        for candidate, sources in zip(self.values, self.sources, strict=True):
            if candidate == value and type(candidate) is type(value):
                return sources
        return ()


@dataclass(frozen=True)
class Registry:
    """All parameters, in registry order, with the cited sources."""

    version: int
    parameters: Mapping[str, Parameter]
    sources: Mapping[str, Mapping[str, str]]

    @property
    def pack_points(self) -> int:
        """The card points of the pack (152): the trump suit's plus three plain suits', by the
        registry's default tables ``cards.trump_points`` and ``cards.plain_points``. Every ruleset's
        tables, and the four suits of ``sans_atout.card_points``, must total it."""
        trump_suit = sum(self.parameters["cards.trump_points"].default.values())
        plain_suit = sum(self.parameters["cards.plain_points"].default.values())
        return int(trump_suit + 3 * plain_suit)

    def __getitem__(self, parameter_id: str) -> Parameter:
        return self.parameters[parameter_id]

    def __contains__(self, parameter_id: object) -> bool:
        return parameter_id in self.parameters

    def applies(self, parameter_id: str, params: Mapping[str, Any]) -> bool:
        """Whether the parameter is part of the game under the values ``params``: its
        ``applies_when`` holds and so does that of every parameter it names (the litige's pot
        matters only when a tie is a litige, and the tie only in the classic auction).

        >>> registry = load_registry()
        >>> registry.applies("auction.min_bid", {**registry.defaults(), "bidding.auction": "turned_card"})
        False
        """
        return self.unmet(parameter_id, params) is None

    def unmet(self, parameter_id: str, params: Mapping[str, Any]) -> tuple[str, Any] | None:
        """Why the parameter is not part of the game under ``params``: the first entry
        ``(parameter, condition)`` of its ``applies_when``, or of a parameter it names, that does
        not hold; None when it applies (see :meth:`applies`)."""
        parameter = self.parameters[parameter_id]
        for named, wanted in parameter.applies_when.items():
            if not condition_holds(wanted, params.get(named)):
                return named, wanted
        for named in parameter.applies_when:
            found = self.unmet(named, params)
            if found is not None:
                return found
        return None

    def defaults(self) -> dict[str, Any]:
        """The default value of every parameter."""
        return {pid: p.default for pid, p in self.parameters.items()}

    def areas(self) -> list[str]:
        """Areas in display order."""
        present = {p.area for p in self.parameters.values()}
        return [a for a in _AREAS_ORDER if a in present] + sorted(present - set(_AREAS_ORDER))


def _rank_points_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {rank: {"type": "integer", "minimum": 0} for rank in RANK_TOKENS},
        "required": list(RANK_TOKENS),
        "additionalProperties": False,
    }


def value_schema(parameter: Parameter) -> dict[str, Any]:
    """The JSON Schema of one parameter's value."""
    kind = parameter.type
    if kind == "bool":
        return {"type": "boolean", "enum": list(parameter.values)}
    if kind == "enum":
        return {"type": "string", "enum": list(parameter.values)}
    if kind == "int":
        schema: dict[str, Any] = {"type": "integer"}
        if parameter.minimum is not None:
            schema["minimum"] = parameter.minimum
        if parameter.maximum is not None:
            schema["maximum"] = parameter.maximum
        return schema
    if kind == "rank_order":
        return {
            "type": "array",
            "items": {"enum": list(RANK_TOKENS)},
            "minItems": 8,
            "maxItems": 8,
            "uniqueItems": True,
        }
    if kind == "rank_points":
        return _rank_points_schema()
    if kind == "packets":
        return {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "array",
                "items": {"type": "integer", "minimum": 1, "maximum": 5},
                "minItems": 1,
            },
        }
    if kind == "contract_list":
        # Any set of the contracts the documented values name, a suit contract always among them
        # (the first round of the auction takes the turned card's suit).
        kinds = list(dict.fromkeys(item for value in parameter.values for item in value))
        return {"type": "array", "minItems": 1, "uniqueItems": True, "items": {"enum": kinds},
                "contains": {"const": "suit"}}
    if kind == "announcement_values":
        return {
            "type": "object",
            "required": ["tierce", "quarte", "quinte", "carre"],
            "additionalProperties": False,
            "properties": {
                "tierce": {"type": "integer", "minimum": 0},
                "quarte": {"type": "integer", "minimum": 0},
                "quinte": {"type": "integer", "minimum": 0},
                "carre": _rank_points_schema(),
            },
        }
    raise InternalError(f"unhandled parameter type {kind}")


def parameter_tree(registry: Registry) -> dict[str, Any]:
    """The parameters nested by the parts of their id: ``{"scoring": {"capot": {"mode": parameter}}}``."""
    tree: dict[str, Any] = {}
    for parameter in registry.parameters.values():
        *parents, leaf = parameter.id.split(".")
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = parameter
    return tree


def ruleset_schema(registry: Registry | None = None) -> dict[str, Any]:
    """The JSON Schema of a ruleset file, generated from the registry.

    Parameters nest by their dotted id: ``scoring.capot.mode`` is ``scoring: {capot: {mode: ...}}``.
    """
    registry = registry or load_registry()
    tree = parameter_tree(registry)

    def to_schema(node: dict[str, Any], prefix: str) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        for key, child in node.items():
            if isinstance(child, Parameter):
                properties[key] = {"description": child.en, **value_schema(child)}
            else:
                properties[key] = to_schema(child, f"{prefix}{key}.")
        return {"type": "object", "additionalProperties": False, "properties": properties}

    localized = {
        "oneOf": [
            {"type": "string", "minLength": 1},
            {
                "type": "object",
                "required": ["en"],
                "additionalProperties": False,
                "properties": {"en": {"type": "string"}, "fr": {"type": "string"}},
            },
        ]
    }
    properties: dict[str, Any] = {
        "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9.-]*$"},
        "version": {"type": "integer", "minimum": 1},
        "title": localized,
        "description": localized,
        "extends": {"type": "string", "minLength": 1},
        "sources": {"type": "array", "items": {"type": "string"}},
    }
    for area in registry.areas():
        properties[area] = to_schema(tree[area], f"{area}.")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://belote-ref.invalid/schema/ruleset.schema.json",
        "title": "belote-ref ruleset",
        "description": "A Belote ruleset: metadata, an optional parent, and rule parameters from the "
        "registry (generated from rules/registry.yaml; do not edit by hand).",
        "type": "object",
        "required": ["id", "version", "title"],
        "additionalProperties": False,
        "properties": properties,
    }


@cache
def _registry_validator() -> jsonschema.Draft202012Validator:
    import jsonschema

    path = data_dir("schema") / "registry.schema.json"
    return jsonschema.Draft202012Validator(json.loads(path.read_text(encoding="utf-8")))


@cache
def load_registry(path: Path | None = None) -> Registry:
    """Load and check ``rules/registry.yaml`` (cached; the checked data also on disk, keyed by the
    file's content: see :mod:`belote_ref.core.cache`).

    Raises :class:`RulesetError` listing every problem: schema violations, duplicate ids,
    unknown source ids, defaults that are not allowed.
    """
    return _registry_of(registry_data(path))


def registry_data(path: Path | None = None) -> Any:
    """The checked data of the registry file ``path`` (the shipped one by default): the cached
    copy when the file and its schema are unchanged, else checked again (which raises
    :class:`~belote_ref.core.errors.RulesetError` listing every problem) and cached."""
    files = registry_files(path)
    return cached_json(CACHE_KIND, files, lambda: checked_registry_data(files[0]), valid=looks_like_registry)


def _parameter_of(raw: Mapping[str, Any]) -> Parameter:
    return Parameter(
        id=raw["id"],
        type=raw["type"],
        default=raw["default"],
        values=tuple(entry["value"] for entry in raw["values"]),
        sources=tuple(tuple(entry["sources"]) for entry in raw["values"]),
        en=raw["en"],
        fr=raw["fr"],
        outcome=raw.get("outcome", True),
        protocol=raw.get("protocol", True),
        since_protocol=raw.get("since_protocol", 1),
        decides_play=raw.get("decides_play", False),
        minimum=raw.get("minimum"),
        maximum=raw.get("maximum"),
        article=raw.get("article"),
        applies_when=dict(raw.get("applies_when") or {}),
        title=dict(raw.get("title") or {}),
        labels=tuple(dict(entry.get("label") or {}) for entry in raw["values"]),
        explains=tuple(dict(entry.get("explain") or {}) for entry in raw["values"]),
    )


def _registry_of(data: Mapping[str, Any]) -> Registry:
    """The registry of checked data (from :func:`checked_registry_data`)."""
    parameters = {raw["id"]: _parameter_of(raw) for raw in data["parameters"]}
    return Registry(version=data["registry_version"], parameters=parameters, sources=data["sources"])


def checked_registry_data(path: Path) -> Any:
    """The data of the registry file, checked; raises :class:`RulesetError` listing every problem
    (what :func:`registry_data` caches)."""

    located, diagnostics = read_yaml(path)
    if located is None or diagnostics:
        raise RulesetError(diagnostics)
    for error in _registry_validator().iter_errors(located.data):
        diagnostics.append(located.diagnostic(tuple(error.absolute_path), error.message, "schema"))
    if diagnostics:
        raise RulesetError(diagnostics)
    data = located.data
    source_ids = set(data["sources"])
    seen: set[str] = set()
    for index, raw in enumerate(data["parameters"]):
        where = ("parameters", index)
        if raw["id"] in seen:
            diagnostics.append(located.diagnostic((*where, "id"), f"duplicate parameter id {raw['id']!r}"))
            continue
        seen.add(raw["id"])
        for value_index, entry in enumerate(raw["values"]):
            for source in entry["sources"]:
                if source not in source_ids:
                    diagnostics.append(
                        located.diagnostic(
                            (*where, "values", value_index, "sources"),
                            f"unknown source id {source!r}; expected one of the 'sources' keys",
                        )
                    )
        parameter = _parameter_of(raw)
        if not parameter.allows(parameter.default):
            diagnostics.append(
                located.diagnostic((*where, "default"), f"default {parameter.default!r} is not an allowed value")
            )
    diagnostics += _applies_when_problems(located, data["parameters"])
    if diagnostics:
        raise RulesetError(diagnostics)
    return data


def _applies_when_problems(located: Located, raws: list[Mapping[str, Any]]) -> list[Diagnostic]:
    """What is wrong with the ``applies_when`` of the parameters: an unknown parameter, a value
    it does not allow, ``includes`` of a value that no documented list holds, or a cycle."""
    parameters = {raw["id"]: _parameter_of(raw) for raw in raws}
    problems = []
    for index, raw in enumerate(raws):
        for named, wanted in (raw.get("applies_when") or {}).items():
            where = ("parameters", index, "applies_when", named)
            other = parameters.get(named)
            if other is None:
                problems.append(located.diagnostic(where, f"applies_when names an unknown parameter {named!r}"))
            elif isinstance(wanted, dict) and "includes" in wanted:
                if not any(isinstance(v, list) and wanted["includes"] in v for v in other.values):
                    problems.append(located.diagnostic(
                        where, f"no documented value of {named} includes {wanted['includes']!r}"))
            else:
                for option in wanted["one_of"] if isinstance(wanted, dict) else [wanted]:
                    if not other.allows(option):
                        problems.append(located.diagnostic(where, f"{option!r} is not a value of {named}"))

    def reaches(start: str, target: str, seen: set[str]) -> bool:
        for named in parameters[start].applies_when:
            if named == target or (named in parameters and named not in seen
                                   and reaches(named, target, seen | {named})):
                return True
        return False

    for index, raw in enumerate(raws):
        if reaches(raw["id"], raw["id"], set()):
            problems.append(located.diagnostic(("parameters", index, "applies_when"),
                                               f"applies_when of {raw['id']} comes back to itself"))
    return problems
