"""Rulesets: load a YAML ruleset, resolve ``extends``, validate it, compile it into lookup tables.

>>> from belote_ref import find_ruleset
>>> classic = find_ruleset("classic")
>>> classic["scoring.capot.mode"]
'raised_last_trick'

A ruleset file holds metadata (``id``, ``version``, ``title``, optional ``description``,
``sources`` and ``extends``) and parameter values nested by their registry id::

    id: my-club
    version: 1
    title: My club's rules
    extends: classic
    play: {undertrump_over_opponent: optional}

Resolution starts from the parent's resolved values and overrides them. A ruleset without
``extends`` must set every registry parameter. Every error is one line:
``path:line:col: key.path: what was expected, what was found``.

``extends`` names a shipped ruleset, or a ``.yaml`` file in the extending file's folder or in a
folder of the search path (subfolders included). A file whose real path (symbolic links
followed) lies outside those folders is refused unread. An error in a parent file never quotes
the values found there, only where they are and what was expected.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from belote_ref.core.cache import cached_json
from belote_ref.core.cards import RANK_LETTERS, Rank, Suit, Trump
from belote_ref.core.errors import Diagnostic, RulesetError, UnknownRulesetError
from belote_ref.core.located import KeyPath, Located
from belote_ref.core.resources import data_dir
from belote_ref.core.yamlsource import read_yaml
from belote_ref.rules.playtables import PlayTables, compile_play_tables
from belote_ref.rules.registry import Registry, load_registry, ruleset_schema
from belote_ref.rules.ruleview import RuleAreas, RuleView, view_of

if TYPE_CHECKING:
    import jsonschema

__all__ = ["Ruleset", "find_ruleset", "load_ruleset", "resolve_ruleset", "shipped_rulesets"]


METADATA_KEYS = ("id", "version", "title", "description", "extends", "sources")
_BELOTE_SUITS: dict[str, tuple[Suit, ...]] = {"none": (), "each_suit": tuple(Suit)}


@dataclass(frozen=True, eq=False)
class Ruleset(RuleAreas):
    """A resolved, validated ruleset compiled into lookup tables. Frozen and hashable.

    ``ruleset.play.undertrump_partner`` reads a resolved parameter value with its precise type
    (the typed view of :mod:`belote_ref.rules.ruleview`, generated from the registry: ``ruleset.view``);
    ``ruleset["play.undertrump_partner"]`` reads it by its dotted id, untyped. The tables are
    indexed by the contract's trump (:class:`~belote_ref.core.cards.Trump`: the suits 0 to 3, then
    ``SA`` 4 and ``TA`` 5) then, for the card tables, by card index (``suit * 8 + rank``):

    - ``strength[trump][card]``: 8..15 for a card that beats every card of another suit (a trump
      at a suit contract), 0..7 otherwise, higher is stronger; at SA and TA every card is 0..7, in
      ``sans_atout.card_order`` or ``tout_atout.card_order``, since only the suit led can win;
    - ``points[trump][card]``: card points (at TA the raw ``tout_atout.card_points``);
    - ``scale[trump]``: ``(scale_to, raw deal total, rounding)`` when the contract's card points
      are converted, the raw deal total differing from ``tout_atout.scale_to`` (converted and rounded
      by ``tout_atout.rounding``), else ``None``;
    - ``carres[trump][rank]``: the value of a carré (``announcements.values`` at a suit
      contract, ``sans_atout.carres``, ``tout_atout.carres``);
    - ``belote_suits[trump]``: the suits whose king and queen make a belote (the trump suit; none
      at SA by ``sans_atout.belote``; all four at TA by ``tout_atout.belote``);
    - ``trumps``: the contracts ``bidding.contracts`` allows (the four suits, then SA and TA).
    """

    id: str
    version: int
    title: Mapping[str, str]
    description: Mapping[str, str]
    parent: str | None
    sources: tuple[str, ...]
    path: str | None
    params: Mapping[str, Any]
    strength: tuple[tuple[int, ...], ...] = field(repr=False)
    points: tuple[tuple[int, ...], ...] = field(repr=False)
    sequence_order: tuple[Rank, ...] = field(repr=False)
    scale: tuple[tuple[int, int, str] | None, ...] = field(repr=False)
    carres: tuple[tuple[int, ...], ...] = field(repr=False)
    belote_suits: tuple[tuple[Suit, ...], ...] = field(repr=False)
    trumps: frozenset[Trump] = field(repr=False)
    view: RuleView = field(repr=False)
    _key: str = field(repr=False)
    overrides: frozenset[str] = field(default=frozenset(), repr=False)

    def __post_init__(self) -> None:
        self._take_areas()

    def __getitem__(self, parameter_id: str) -> Any:
        """The resolved value of a registry parameter; raises ``KeyError`` for an unknown id."""
        return self.params[parameter_id]

    @cached_property
    def play_tables(self) -> PlayTables:
        """The tables of the legal plays (:mod:`belote_ref.rules.playtables`), compiled on first use."""
        return compile_play_tables(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ruleset) and other._key == self._key

    def __hash__(self) -> int:
        return hash(self._key)

    def to_json(self) -> dict[str, Any]:
        """``{"id", "version", "parameters"}`` with dotted parameter ids, as the protocol sends it."""
        return {"id": self.id, "version": self.version, "parameters": dict(self.params)}

    def with_parameter(self, parameter_id: str, value: Any) -> Ruleset:
        """This ruleset with one parameter set to ``value``, checked as :meth:`from_parameters`
        checks a whole set (the other values are known good: only the new one and the rules
        between values are checked again). Its id, version and texts stay this ruleset's.

        Raises :class:`RulesetError` when the parameter is unknown, the value not allowed, or the
        values together break a rule of the registry."""
        registry = load_registry()
        if parameter_id not in registry.parameters:
            raise RulesetError([Diagnostic(None, None, None, parameter_id,
                                           f"unknown parameter{_did_you_mean(parameter_id, registry.parameters)}")])
        if not registry[parameter_id].allows(value):
            raise RulesetError([Diagnostic(None, None, None, parameter_id, f"value {value!r} is not allowed")])
        params = {**self.params, parameter_id: value}
        diagnostics = _semantic_checks(dict(params), registry, lambda pid: Diagnostic(None, None, None, pid, ""))
        if diagnostics:
            raise RulesetError(diagnostics)
        return _compile(self.id, self.version, self.title, self.description, self.parent, self.sources, self.path,
                        params)

    @classmethod
    def from_parameters(
        cls,
        parameters: Mapping[str, Any],
        *,
        id: str = "custom",
        version: int = 1,
        title: str | None = None,
    ) -> Ruleset:
        """Compile a ruleset from resolved dotted parameters (every registry parameter).

        Raises :class:`RulesetError` when a parameter is missing, unknown or not allowed.
        """
        registry = load_registry()
        diagnostics: list[Diagnostic] = []
        unknown = sorted(set(parameters) - set(registry.parameters))
        missing = [pid for pid in registry.parameters if pid not in parameters]
        for pid in unknown:
            diagnostics.append(
                Diagnostic(None, None, None, pid, f"unknown parameter{_did_you_mean(pid, registry.parameters)}")
            )
        for pid in missing:
            diagnostics.append(Diagnostic(None, None, None, pid, "missing parameter"))
        for pid, value in parameters.items():
            if pid in registry.parameters and not registry[pid].allows(value):
                diagnostics.append(Diagnostic(None, None, None, pid, f"value {value!r} is not allowed"))
        if not diagnostics:
            diagnostics = _semantic_checks(
                dict(parameters), registry, lambda pid: Diagnostic(None, None, None, pid, "")
            )
        if diagnostics:
            raise RulesetError(diagnostics)
        ordered = {pid: parameters[pid] for pid in registry.parameters}
        return _compile(id, version, {"en": title or id}, {}, None, (), None, ordered)


def _compile(
    id: str,
    version: int,
    title: Mapping[str, str],
    description: Mapping[str, str],
    parent: str | None,
    sources: tuple[str, ...],
    path: str | None,
    params: dict[str, Any],
    overrides: frozenset[str] = frozenset(),
) -> Ruleset:
    def table_of(values: Mapping[str, int]) -> dict[Rank, int]:
        return {Rank(RANK_LETTERS.index(r)): v for r, v in values.items()}

    def table(pid: str) -> dict[Rank, int]:
        return table_of(params[pid])

    def height(pid: str, top: int) -> list[int]:
        """By rank index (0 to 7): ``top`` for the first rank of the order, one less for each next."""
        by_rank = [0] * 8
        for place, letter in enumerate(params[pid]):
            by_rank[RANK_LETTERS.index(letter)] = top - place
        return by_rank

    def worth(pid: str) -> list[int]:
        """By rank index (0 to 7): the rank's points in the table ``pid``."""
        by_rank = [0] * 8
        for letter, value in params[pid].items():
            by_rank[RANK_LETTERS.index(letter)] = value
        return by_rank

    # Trumps rank 8 to 15 above every plain card (0 to 7).
    trump_height, plain_height = height("cards.trump_order", 15), height("cards.plain_order", 7)
    trump_worth, plain_worth = worth("cards.trump_points"), worth("cards.plain_points")
    strength: list[tuple[int, ...]] = []
    points: list[tuple[int, ...]] = []
    for trump in range(4):
        strength.append(tuple((trump_height if card >> 3 == trump else plain_height)[card & 7] for card in range(32)))
        points.append(tuple((trump_worth if card >> 3 == trump else plain_worth)[card & 7] for card in range(32)))
    # Sans-atout and tout-atout: one order and one point table for every suit; no card beats
    # the suit led, so every strength stays below 8.
    for area in ("sans_atout", "tout_atout"):
        ranks, values = height(f"{area}.card_order", 7), worth(f"{area}.card_points")
        strength.append(tuple(ranks[card & 7] for card in range(32)))
        points.append(tuple(values[card & 7] for card in range(32)))
    bonus = params["scoring.last_trick_bonus"]
    scale_to, raw_total = params["tout_atout.scale_to"], sum(points[Trump.TA]) + bonus
    ta_scale = (scale_to, raw_total, params["tout_atout.rounding"]) if raw_total != scale_to else None
    scale = (None, None, None, None, None, ta_scale)
    suit_carres = table_of(params["announcements.values"]["carre"])
    carres = tuple(tuple(by_rank[Rank(r)] for r in range(8))
                   for by_rank in (suit_carres,) * 4 + (table("sans_atout.carres"), table("tout_atout.carres")))
    # The values the registry allows: no belote at SA (none), one in every suit at TA (each_suit).
    belote_suits = (*((suit,) for suit in Suit),
                    _BELOTE_SUITS[params["sans_atout.belote"]], _BELOTE_SUITS[params["tout_atout.belote"]])
    allowed = {Trump(suit) for suit in Suit}
    for contract, contract_trump in (("sans_atout", Trump.SA), ("tout_atout", Trump.TA)):
        if contract in params["bidding.contracts"]:
            allowed.add(contract_trump)
    sequence = tuple(Rank(RANK_LETTERS.index(r)) for r in params["cards.sequence_order"])
    key = json.dumps([id, version, params], sort_keys=True)
    return Ruleset(
        id=id,
        version=version,
        title=MappingProxyType(dict(title)),
        description=MappingProxyType(dict(description)),
        parent=parent,
        sources=sources,
        path=path,
        params=MappingProxyType(params),
        strength=tuple(strength),
        points=tuple(points),
        sequence_order=sequence,
        scale=scale,
        carres=carres,
        belote_suits=belote_suits,
        trumps=frozenset(allowed),
        view=view_of(params),
        _key=key,
        overrides=overrides,
    )


# ------------------------------------------------------------------------------------- loading


@cache
def _schema_validator() -> jsonschema.Draft202012Validator:
    import jsonschema  # only when a ruleset file is read, not for the precompiled shipped ones

    return jsonschema.Draft202012Validator(ruleset_schema(load_registry()))


def shipped_rulesets() -> dict[str, Path]:
    """The shipped rulesets: id -> file, in a stable order (classic first)."""
    folder = data_dir("rules")
    found = {p.stem: p for p in sorted(folder.glob("*.yaml")) if p.stem != "registry"}
    ordered = {"classic": found.pop("classic")} if "classic" in found else {}
    ordered.update(found)
    return ordered


def find_ruleset(ruleset_id: str) -> Ruleset:
    """Return the shipped ruleset ``ruleset_id`` (cached).

    Raises :class:`UnknownRulesetError` (with a "did you mean") when no shipped ruleset has it.
    """
    return _find_ruleset(ruleset_id)


@cache
def _find_ruleset(ruleset_id: str) -> Ruleset:
    shipped = shipped_rulesets()
    if ruleset_id not in shipped:
        raise UnknownRulesetError(
            [Diagnostic(None, None, None, "", f"unknown ruleset {ruleset_id!r}{_did_you_mean(ruleset_id, shipped)}; "
                        f"shipped: {', '.join(shipped)}", "unknown_ruleset")]
        )
    entry = _precompiled_rulesets().get(ruleset_id)
    if entry is None:
        return load_ruleset(shipped[ruleset_id])
    return _compile(entry["id"], entry["version"], entry["title"], entry["description"], entry["parent"],
                    tuple(entry["sources"]), str(shipped[ruleset_id]), entry["params"], frozenset(entry["overrides"]))


@cache
def _precompiled_rulesets() -> dict[str, dict[str, Any]]:
    """Every shipped ruleset resolved and checked, as JSON data, from the cache when the rules
    folder and the schema are unchanged (see :mod:`belote_ref.core.cache`); read once per process.

    A shipped ruleset that does not load is left out here, so that :func:`load_ruleset` reports
    its problem when it is asked for.
    """

    shipped = shipped_rulesets()
    files = [data_dir("rules") / "registry.yaml", data_dir("schema") / "registry.schema.json", *shipped.values()]

    def compute() -> dict[str, dict[str, Any]]:
        compiled = {}
        for ruleset_id, path in shipped.items():
            try:
                ruleset = load_ruleset(path)
            except RulesetError:
                continue
            compiled[ruleset_id] = {"id": ruleset.id, "version": ruleset.version, "title": dict(ruleset.title),
                                    "description": dict(ruleset.description), "parent": ruleset.parent,
                                    "sources": list(ruleset.sources), "params": dict(ruleset.params),
                                    "overrides": sorted(ruleset.overrides)}
        return compiled

    def valid(payload: Any) -> bool:
        parameters = set(load_registry().parameters)
        return isinstance(payload, dict) and all(
            isinstance(entry, dict) and isinstance(entry.get("id"), str) and isinstance(entry.get("version"), int)
            and isinstance(entry.get("title"), dict) and isinstance(entry.get("description"), dict)
            and isinstance(entry.get("sources"), list) and isinstance(entry.get("overrides"), list)
            and isinstance(entry.get("params"), dict) and set(entry["params"]) == parameters
            for entry in payload.values())

    result: dict[str, dict[str, Any]] = cached_json("rulesets", files, compute, valid)
    return result


def load_ruleset(
    path: str | os.PathLike[str],
    text: str | None = None,
    *,
    search_path: Sequence[str | os.PathLike[str]] = (),
) -> Ruleset:
    """Load, resolve, validate and compile the ruleset file at ``path``.

    ``text`` may give the file's content. ``extends`` may name a file in the folder of the file
    that extends, or in one of the ``search_path`` folders (looked at in order, after it).
    Raises :class:`RulesetError` whose ``diagnostics`` name the file, line, column and key path of
    every problem found.
    """
    resolved = _resolve(Path(path), (), text, tuple(Path(folder) for folder in search_path))
    registry = load_registry()
    params = {pid: resolved.params[pid] for pid in registry.parameters}

    def locate(pid: str) -> Diagnostic:
        located, key_path = resolved.origins[pid]
        return located.diagnostic(key_path, "")

    diagnostics = _semantic_checks(params, registry, locate)
    if diagnostics:
        raise RulesetError(diagnostics)
    data = resolved.located.data
    return _compile(
        data["id"],
        data["version"],
        _localized(data["title"]),
        _localized(data.get("description", "")),
        resolved.parent,
        tuple(data.get("sources", ())),
        str(path),
        params,
        resolved.overrides,
    )


def settings_not_in_play(
    path: str | os.PathLike[str], text: str | None = None, *, search_path: Sequence[str | os.PathLike[str]] = ()
) -> list[Diagnostic]:
    """A warning for each value the file at ``path`` sets that changes nothing under its resolved
    values, such as ``scoring.capot.value`` when ``scoring.capot.mode`` is not ``flat``: a club
    that writes "capot 250" must not believe it is in force. A ruleset without ``extends`` sets
    every parameter, so only a file that extends one is looked at. The file must be valid
    (:func:`load_ruleset` first); ``text`` may give its content, as there."""
    resolved = _resolve(Path(path), (), text, tuple(Path(folder) for folder in search_path))
    registry = load_registry()
    warnings: list[Diagnostic] = []
    if "extends" not in resolved.located.data:
        return warnings
    for pid, (located, key_path) in resolved.origins.items():
        if located is not resolved.located:
            continue
        unmet = registry.unmet(pid, resolved.params)
        if unmet is not None:
            named, wanted = unmet
            warnings.append(located.diagnostic(
                key_path, f"warning: not in play here: it applies only when {named} is {_wanted(wanted)}, "
                          f"and this ruleset has {_plain(resolved.params.get(named))}"))
    return sorted(warnings, key=lambda d: (d.line or 0, d.column or 0))


def _wanted(wanted: Any) -> str:
    if isinstance(wanted, dict) and "one_of" in wanted:
        return " or ".join(_plain(option) for option in wanted["one_of"])
    if isinstance(wanted, dict) and "includes" in wanted:
        return f"a list holding {_plain(wanted['includes'])}"
    return _plain(wanted)


def _plain(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _is_shipped_copy(path: Path, ruleset_id: str, text: str | None) -> bool:
    """Whether ``path`` is the shipped ruleset ``ruleset_id`` itself or a byte-identical copy of it
    (the repository's ``rules/`` beside an installed package)."""
    shipped = shipped_rulesets()[ruleset_id]
    try:
        if text is None and shipped.resolve() == path.resolve():
            return True
        own = text.encode("utf-8") if text is not None else path.read_bytes()
        return own == shipped.read_bytes()
    except (OSError, ValueError):
        return False


def shipped_parent_id(path: Path) -> str | None:
    """The id of a shipped ruleset file, or None."""
    for ruleset_id, shipped_path in shipped_rulesets().items():
        if shipped_path.resolve() == path.resolve():
            return ruleset_id
    return None


@dataclass
class _Resolved:
    located: Located
    params: dict[str, Any]
    origins: dict[str, tuple[Located, KeyPath]]
    overrides: frozenset[str]
    parent: str | None


# (real path, modification time, size, search path) -> the resolved file
_RESOLVE_CACHE: dict[tuple[str, int, int, tuple[str, ...]], _Resolved] = {}


def _resolve(path: Path, chain: tuple[Path, ...], text: str | None, search_path: tuple[Path, ...]) -> _Resolved:
    cache_key = None
    if text is None:
        try:
            stat = path.stat()
            cache_key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size, tuple(map(str, search_path)))
        except (OSError, ValueError):
            pass
        if cache_key in _RESOLVE_CACHE:
            return _RESOLVE_CACHE[cache_key]

    located, diagnostics = read_yaml(path, text)
    if located is None or diagnostics:
        raise RulesetError(diagnostics)
    registry = load_registry()
    data = located.data
    # A parent is a file the user may not have looked at: say what is wrong, never what is there.
    quote_found = not chain
    if not isinstance(data, dict):
        found = _describe(data, quote_found)
        raise RulesetError([located.diagnostic((), f"expected a mapping of keys, found {found}")])
    _normalize_ranks(data, registry)
    errors = sorted(_schema_validator().iter_errors(data), key=lambda e: e.validator != "type")
    by_path: dict[tuple[Any, ...], Diagnostic] = {}
    # A mistyped parent is found with the other errors, not only once they are fixed.
    parent_found: tuple[Path, str | None] | None = None
    if isinstance(data.get("extends"), str):
        try:
            parent_found = _parent_path(located, data["extends"], path, search_path)
        except RulesetError as unknown_parent:
            by_path[("extends",)] = unknown_parent.diagnostics[0]
    for error in errors:
        by_path.setdefault(tuple(error.absolute_path), _schema_diagnostic(located, error, registry, quote_found))
    if by_path:
        raise RulesetError(sorted(by_path.values(), key=lambda d: (d.line or 0, d.column or 0)))
    if not chain and data["id"] in shipped_rulesets() and not _is_shipped_copy(path, data["id"], text):
        raise RulesetError([located.diagnostic(("id",), f"{_shown(data['id'])} is the id of a shipped ruleset; "
                                               "a house rule needs an id of its own")])
    own: dict[str, tuple[Any, KeyPath]] = {}
    _flatten(data, (), registry, own)
    parent_id: str | None = None
    if parent_found is not None:
        parent_path, parent_id = parent_found
        if any(parent_path.resolve() == seen.resolve() for seen in (*chain, path)):
            cycle = " -> ".join(p.name for p in (*chain, path, parent_path))
            raise RulesetError([located.diagnostic(("extends",), f"extends cycle: {cycle}")])
        parent = _resolve(parent_path, (*chain, path), None, search_path)
        params = dict(parent.params)
        origins = dict(parent.origins)
        overrides = frozenset(pid for pid, (value, _) in own.items() if params[pid] != value)
    else:
        missing = [pid for pid in registry.parameters if pid not in own]
        if missing:
            raise RulesetError(
                [
                    located.diagnostic(
                        (), f"a ruleset without 'extends' must set every parameter; missing: {', '.join(missing)}"
                    )
                ]
            )
        params, origins = {}, {}
        overrides = frozenset()
    for pid, (value, key_path) in own.items():
        params[pid] = value
        origins[pid] = (located, key_path)
    resolved = _Resolved(located, params, origins, overrides, parent_id)
    if cache_key is not None:
        _RESOLVE_CACHE[cache_key] = resolved
    return resolved


def _parent_path(located: Located, extends: str, path: Path, search_path: tuple[Path, ...]) -> tuple[Path, str | None]:
    if extends.endswith((".yaml", ".yml")) or "/" in extends:
        parent_path = _parent_file(located, extends, (path.parent, *search_path))
        return parent_path, shipped_parent_id(parent_path) or extends
    shipped = shipped_rulesets()
    if extends not in shipped:
        raise RulesetError(
            [located.diagnostic(("extends",), f"unknown parent ruleset {_shown(extends)}"
                                f"{_did_you_mean(extends, shipped)}; "
                                f"expected a shipped id ({', '.join(shipped)}) or a relative .yaml path")]
        )
    return shipped[extends], extends


def _parent_file(located: Located, extends: str, folders: tuple[Path, ...]) -> Path:
    """The real path of the file ``extends`` names, relative to the first of ``folders`` where it is.

    The file must lie inside one of ``folders`` once every symbolic link is followed: neither an
    absolute path elsewhere, nor ``..``, nor a link may lead out of them.
    """
    reference = Path(extends)
    real_folders = [os.path.realpath(folder) for folder in folders]
    outside_of_every_folder = True
    for folder in folders:
        candidate = reference if reference.is_absolute() else folder / reference
        try:
            real = Path(os.path.realpath(candidate))
            if not any(real.is_relative_to(allowed) for allowed in real_folders):
                continue
            outside_of_every_folder = False
            if real.is_file():
                return real
        except (OSError, ValueError):
            # A name too long for the system, or with a NUL character, names no file.
            outside_of_every_folder = False
    allowed = f"the extending file's folder {real_folders[0]}"
    if len(folders) > 1:
        allowed += f" and the search path {', '.join(real_folders[1:])}"
    if outside_of_every_folder:
        message = f"{_shown(extends)} is outside the allowed folders ({allowed}); use a shipped id or a file beside it"
    else:
        message = f"parent file not found: {_shown(extends)} (looked in {allowed})"
    raise RulesetError([located.diagnostic(("extends",), message)])


def _shown(text: str, limit: int = 200) -> str:
    """``text`` quoted for a message, cut when long."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def _flatten(node: dict[str, Any], prefix: KeyPath, registry: Registry, out: dict[str, tuple[Any, KeyPath]]) -> None:
    for key, value in node.items():
        if not prefix and key in METADATA_KEYS:
            continue
        key_path = (*prefix, key)
        pid = ".".join(str(p) for p in key_path)
        if pid in registry:
            out[pid] = (value, key_path)
        elif isinstance(value, dict):
            _flatten(value, key_path, registry, out)


def _normalize_ranks(data: dict[str, Any], registry: Registry) -> None:
    """Read unquoted ranks as ranks: ``9`` is ``"9"`` and ``10`` is ``"T"`` in orders."""
    for pid, parameter in registry.parameters.items():
        if parameter.type != "rank_order":
            continue
        node: Any = data
        for part in pid.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, list):
            node[:] = [
                ("T" if item == 10 else str(item)) if isinstance(item, int) and not isinstance(item, bool) else item
                for item in node
            ]


def _semantic_checks(params: dict[str, Any], registry: Registry, locate: Any) -> list[Diagnostic]:
    """Checks a schema cannot express: the pack's points at every contract and the deal packets."""
    diagnostics: list[Diagnostic] = []

    def at(pid: str, message: str) -> Diagnostic:
        base = locate(pid)
        return Diagnostic(base.file, base.line, base.column, base.key_path or pid, message, "semantic")

    trump_total = sum(params["cards.trump_points"].values())
    plain_total = sum(params["cards.plain_points"].values())
    pack = trump_total + 3 * plain_total
    if pack != registry.pack_points:
        culprit = "cards.trump_points" if "cards.trump_points" in params else "cards.plain_points"
        diagnostics.append(
            at(culprit, f"the point tables must total {registry.pack_points} for the pack "
                        f"(trump suit + 3 plain suits); found {trump_total} + 3 x {plain_total} = {pack}")
        )
    sans_atout = 4 * sum(params["sans_atout.card_points"].values())
    if sans_atout != registry.pack_points:
        diagnostics.append(
            at(
                "sans_atout.card_points",
                f"the sans-atout points must total {registry.pack_points} for "
                f"the pack (4 suits); found 4 x {sans_atout // 4} = {sans_atout}",
            )
        )
    if not sum(params["tout_atout.card_points"].values()) + params["scoring.last_trick_bonus"]:
        diagnostics.append(at("tout_atout.card_points", "a tout-atout deal must hold some points to be converted to "
                                                        "tout_atout.scale_to; found none"))
    for index, packet in enumerate(params["deal.first_packets"]):
        if sum(packet) != 5:
            diagnostics.append(
                at("deal.first_packets", f"packet {index + 1} {packet} deals {sum(packet)} cards; expected 5")
            )
    for index, packet in enumerate(params["deal.bid_packets"]):
        if sum(packet) != 8:
            diagnostics.append(
                at("deal.bid_packets", f"packet {index + 1} {packet} deals {sum(packet)} cards; expected 8")
            )
    if params["bidding.auction"] == "bids" and params["bidding.all_pass"] == "forced_third_round":
        diagnostics.append(at("bidding.all_pass", "forced_third_round needs a turned card; a bids auction "
                                                  "(bidding.auction) allows redeal_next_dealer or redeal_same_dealer"))
    if params["auction.max_bid"] < params["auction.min_bid"]:
        diagnostics.append(at("auction.max_bid", f"the highest bid {params['auction.max_bid']} is below the lowest "
                                                 f"bid {params['auction.min_bid']} (auction.min_bid)"))
    return diagnostics


def _did_you_mean(word: str, candidates: Any) -> str:
    match = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f"; did you mean {match[0]!r}?" if match else ""


def _describe(value: Any, quote: bool = True) -> str:
    """What ``value`` is (a string, a list...), followed by the start of its text when ``quote``."""
    kinds = {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "a mapping",
    }
    if value is None:
        return "nothing (null)"
    kind = kinds.get(type(value), type(value).__name__)
    if not quote:
        return kind
    text = json.dumps(value, ensure_ascii=False, default=str)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{kind} {text}"


_TYPE_NAMES = {
    "boolean": "true or false",
    "integer": "an integer",
    "string": "a string",
    "array": "a list",
    "object": "a mapping",
}


def _schema_diagnostic(
    located: Located, error: jsonschema.ValidationError, registry: Registry, quote_found: bool
) -> Diagnostic:
    """The diagnostic for one schema error; the value found is quoted only when ``quote_found``."""
    path: KeyPath = tuple(error.absolute_path)
    instance: Any = error.instance
    schema: Any = error.schema
    expected: Any = error.validator_value
    found = _describe(instance, quote_found)
    validator = error.validator
    if validator == "additionalProperties":
        allowed = list(schema.get("properties", {}))
        extras = [key for key in instance if key not in allowed]
        key = extras[0]
        full = ".".join(str(p) for p in (*path, key))
        if not path and "." in key and key in registry:
            head, _, tail = key.partition(".")
            message = f"parameters are nested, not dotted: write '{head}:' then '  {tail}: ...'"
        elif path or key in registry.areas():
            candidates = [".".join(str(p) for p in (*path, a)) for a in allowed]
            message = f"unknown parameter {full!r}{_did_you_mean(full, candidates)}"
        else:
            message = (f"unknown key {key!r}{_did_you_mean(key, allowed)}; expected metadata "
                       f"({', '.join(METADATA_KEYS)}) or a parameter area ({', '.join(registry.areas())})")
        return located.diagnostic((*path, key), message, "schema.unknown")
    if validator == "required":
        missing = [key for key in expected if key not in instance]
        return located.diagnostic(path, f"missing required key {missing[0]!r}", "schema.required")
    if validator == "enum":
        choices = ", ".join(json.dumps(v) if not isinstance(v, str) else v for v in expected)
        return located.diagnostic(path, f"expected one of {choices}; found {found}", "schema.enum")
    if validator == "type":
        names = [expected] if isinstance(expected, str) else expected
        return located.diagnostic(
            path, f"expected {' or '.join(_TYPE_NAMES.get(n, n) for n in names)}; found {found}", "schema.type"
        )
    if validator in ("minimum", "maximum"):
        sign = ">=" if validator == "minimum" else "<="
        found_number = f"; found {instance}" if quote_found else ""
        return located.diagnostic(path, f"expected an integer {sign} {expected}{found_number}", "schema.range")
    if validator in ("minItems", "maxItems"):
        return located.diagnostic(
            path,
            f"expected {'at least' if validator == 'minItems' else 'at most'} {expected} items; found {len(instance)}",
            "schema.items",
        )
    if validator == "uniqueItems":
        return located.diagnostic(path, f"expected every item once (a permutation); found {found}", "schema.unique")
    if validator == "pattern":
        return located.diagnostic(path, f"expected text matching {expected}; found {found}", "schema.pattern")
    if validator == "oneOf" and path and path[0] in ("title", "description"):
        return located.diagnostic(
            path, f"expected a string or a mapping {{en: ..., fr: ...}}; found {found}", "schema.type"
        )
    # jsonschema's own message starts with the value found.
    message = error.message if quote_found else f"not allowed by the ruleset schema ({validator})"
    return located.diagnostic(path, message, f"schema.{validator}")


def _localized(value: Any) -> dict[str, str]:
    if isinstance(value, str):
        return {"en": value} if value else {}
    return dict(value)


def iter_changes(child: Ruleset, parent: Ruleset) -> Iterator[str]:
    """Parameter ids whose resolved value differs between two rulesets, in registry order."""
    for pid, value in child.params.items():
        if parent.params[pid] != value:
            yield pid


def resolve_ruleset(reference: str, search_path: Sequence[Path] = ()) -> Ruleset:
    """A shipped ruleset by id, or a ruleset file by path (whose ``extends`` may also name a file
    in a ``search_path`` folder).

    Raises :class:`~belote_ref.core.errors.UnknownRulesetError` when ``reference`` is neither.
    """
    if reference in shipped_rulesets():
        return find_ruleset(reference)
    path = Path(reference)
    if path.suffix in (".yaml", ".yml") or _exists(path):
        return load_ruleset(path, search_path=search_path)
    return find_ruleset(reference)


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # a name too long for the system, or with a NUL character
        return False
