"""What an adapter claims in its ``hello``, and which cases that makes applicable, with the reason.

A case applies to an adapter when its kind is declared and, for every parameter the case's result
depends on (the fixture's ``rules``, a set that ``conformance lint`` checks with the reference
engine), the value in the case's ruleset is one the adapter claims: listed in
``supports.parameters[P]`` (``"*"``: any allowed value) or, for a parameter it does not list, the
value that parameter has in one of the rulesets of ``supports.rulesets``. An adapter that lists
only rulesets thus gets every case of those rulesets, and every case of another ruleset whose
result depends only on values those rulesets share.

Every case that does not apply gets a reason in words (``kind trick_winner not supported``,
``parameter play.undertrump_partner at value "never" not supported``), counted in the summary.
:func:`check_claims` names every unknown kind, parameter, value or ruleset of a hello, with the
nearest valid name, for ``smoke`` (an error) and ``run`` (a warning).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from belote_ref.rules.predicates import same_value
from belote_ref.rules.registry import Registry, load_registry
from belote_ref.rules.ruleset import Ruleset, find_ruleset, shipped_rulesets

__all__ = ["ANY", "FAULT_FIELD", "Claims", "check_claims", "departures", "must_be_listed"]

ANY = "*"


def _format(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class Claims:
    """An adapter's declared support, compiled once per run.

    ``by_kind`` holds the claims an adapter of protocol 2 may give per kind
    (``supports.by_kind.score: {rulesets, parameters}``); a kind without its own entry uses the
    general ``rulesets`` and ``parameters``.
    """

    kinds: frozenset[str]
    rulesets: tuple[Ruleset, ...]
    parameters: Mapping[str, Any]
    protocol: int = 1
    by_kind: Mapping[str, Claims] = field(default_factory=dict)
    #: ``by_kind.play.tricks_alone``: a play case whose score is not claimed is still checked on
    #: its tricks (:mod:`~belote_ref.conformance.parts`).
    tricks_alone: bool = False
    #: ``by_kind.score.validates: false``: the adapter's ``score`` does not check the deal it is
    #: given, so the cases whose answer is a rejection are n/a.
    validates: bool = True

    @classmethod
    def from_hello(cls, hello: Mapping[str, Any]) -> Claims:
        """Read ``hello["supports"]``; unknown names are ignored here (see :func:`check_claims`)."""
        supports = hello.get("supports") or {}
        if not isinstance(supports, Mapping):
            supports = {}
        declared = hello.get("protocol")
        protocol = declared if isinstance(declared, int) and not isinstance(declared, bool) else 1
        general = cls._from_supports(supports, protocol)
        by_kind = supports.get("by_kind") if protocol >= 2 else None
        own = {kind: cls._from_supports({**supports, **entry}, protocol)
               for kind, entry in (by_kind or {}).items() if isinstance(entry, Mapping)} \
            if isinstance(by_kind, Mapping) else {}
        return cls(general.kinds, general.rulesets, general.parameters, protocol, own)

    @classmethod
    def _from_supports(cls, supports: Mapping[str, Any], protocol: int) -> Claims:
        shipped = shipped_rulesets()
        rulesets = tuple(find_ruleset(r) for r in _strings(supports.get("rulesets")) if r in shipped)
        parameters = supports.get("parameters")
        return cls(frozenset(_strings(supports.get("kinds"))), rulesets,
                   dict(parameters) if isinstance(parameters, Mapping) else {}, protocol,
                   tricks_alone=supports.get("tricks_alone") is True, validates=supports.get("validates") is not False)

    def for_kind(self, kind: str) -> Claims:
        """The claims that hold for ``kind``."""
        return self.by_kind.get(kind, self)

    def values_of(self, parameter_id: str) -> Any:
        """The values claimed for a parameter: a list, or :data:`ANY`.

        A parameter newer than the adapter's protocol is never sent to it: its game is the one its
        version describes, the parameter at its default (``bidding.auction: turned_card`` for an
        adapter of version 1 or 2), which it claims whatever its hello says.
        """
        registry = load_registry()
        if parameter_id in registry and registry[parameter_id].since_protocol > self.protocol:
            return [registry[parameter_id].default]
        declared = self.parameters.get(parameter_id)
        if declared == ANY:
            return ANY
        if isinstance(declared, list):
            return declared
        values: list[Any] = []
        for ruleset in self.rulesets:
            value = ruleset.params.get(parameter_id)
            if not any(same_value(value, v) for v in values):
                values.append(value)
        return values

    def claims_value(self, parameter_id: str, value: Any) -> bool:
        """Whether the adapter claims ``value`` for ``parameter_id``."""
        values = self.values_of(parameter_id)
        return values == ANY or any(same_value(value, v) for v in values)

    def reason_not_applicable(self, kind: str, ruleset: Ruleset, depends_on: Iterable[str],
                              needs_protocol: int = 1, listed: Iterable[str] = ()) -> str | None:
        """None when the case applies; otherwise why not, in words. Each parameter of ``listed``
        must be claimed in the adapter's own ``supports.parameters``, not through a ruleset (see
        :func:`must_be_listed`)."""
        if needs_protocol > self.protocol:
            return f"needs protocol {needs_protocol}"
        if kind not in self.kinds:
            return f"kind {kind} not supported"
        claims = self.for_kind(kind)
        if not claims.rulesets and not claims.parameters:
            return "no ruleset and no parameter declared"
        for parameter_id in listed:
            if parameter_id not in claims.parameters:
                return f"a case with a fault needs {parameter_id} listed in supports.parameters"
        for parameter_id in depends_on:
            value = ruleset.params.get(parameter_id)
            if not claims.claims_value(parameter_id, value):
                return f"parameter {parameter_id} at value {_format(value)} not supported"
        return None

    def rejection_reason(self, kind: str, expected: Any) -> str | None:
        """Why a case whose expected answer is a rejection is not sent: the adapter said its
        ``kind`` does not validate the situations it is given (``by_kind.score.validates: false``)."""
        if isinstance(expected, Mapping) and "rejected" in expected and not self.for_kind(kind).validates:
            return f"{kind} does not validate its situations (supports.by_kind.{kind}.validates: false)"
        return None


#: The field that says a deal ended on a fault (docs/protocol.md): in the ``given`` of a ``score``
#: or ``play`` case, in each deal of a ``match``'s ``given.deals``.
FAULT_FIELD = "fault"
#: The area of the parameters that say what a fault costs.
PENALTIES_AREA = "penalties."


def must_be_listed(given: Any, depends_on: Iterable[str]) -> list[str]:
    """The parameters a case needs claimed by name: for a case whose ``given`` carries a fault,
    the ``penalties.*`` it depends on. An adapter written before faults were in the protocol claims
    their defaults through its rulesets without knowing the field, and would score the deal as if
    it had been played out; naming the parameters is how an adapter says it reads the field."""
    if not _has_fault(given):
        return []
    return [parameter_id for parameter_id in depends_on if parameter_id.startswith(PENALTIES_AREA)]


def _has_fault(given: Any) -> bool:
    """Whether ``given`` carries a fault: its own, or one of its ``deals`` (a match)."""
    if not isinstance(given, Mapping):
        return False
    deals = given.get("deals")
    return given.get(FAULT_FIELD) is not None or (
        isinstance(deals, list) and any(isinstance(deal, Mapping) and deal.get(FAULT_FIELD) is not None
                                        for deal in deals))


#: The claims of one kind's own: ``by_kind.play.tricks_alone`` and ``by_kind.score.validates``.
_KIND_FLAGS = {"tricks_alone": "play", "validates": "score"}


def _strings(items: Any) -> list[str]:
    return [item for item in items if isinstance(item, str)] if isinstance(items, list) else []


def _nearest(word: str, candidates: Iterable[str]) -> str:
    match = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.5)
    return f"; did you mean {match[0]!r}?" if match else ""


def check_claims(hello: Mapping[str, Any], kinds: Sequence[str], registry: Registry | None = None) -> list[str]:
    """Every name in ``hello["supports"]`` that the suite does not know, with the nearest valid one."""
    registry = registry or load_registry()
    supports = hello.get("supports") or {}
    if not isinstance(supports, Mapping):
        return ["supports must be an object"]
    problems = []
    declared_kinds = supports.get("kinds")
    for kind in _strings(declared_kinds):
        if kind not in kinds:
            problems.append(f"supports.kinds: unknown kind {kind!r}{_nearest(kind, kinds)}")
    if isinstance(declared_kinds, list) and len(_strings(declared_kinds)) != len(declared_kinds):
        problems.append("supports.kinds: every kind is a string")
    shipped = shipped_rulesets()
    rulesets = supports.get("rulesets")
    if rulesets is not None and not isinstance(rulesets, list):
        problems.append("supports.rulesets must be a list of ruleset ids")
    for ruleset_id in _strings(rulesets):
        if ruleset_id not in shipped:
            problems.append(f"supports.rulesets: unknown ruleset {ruleset_id!r}{_nearest(ruleset_id, shipped)}")
    parameters = supports.get("parameters")
    if parameters is not None and not isinstance(parameters, Mapping):
        problems.append("supports.parameters must be an object of parameter id -> list of values or \"*\"")
        parameters = {}
    for parameter_id, values in (parameters or {}).items():
        if parameter_id not in registry:
            problems.append(f"supports.parameters: unknown parameter {parameter_id!r}"
                            f"{_nearest(parameter_id, registry.parameters)}")
            continue
        if values == ANY:
            continue
        if not isinstance(values, list):
            problems.append(f"supports.parameters.{parameter_id}: expected a list of values or \"*\"; "
                            f"found {_format(values)}")
            continue
        parameter = registry[parameter_id]
        for value in values:
            if not parameter.allows(value):
                allowed = [_format(v) for v in parameter.values]
                hint = _nearest(_format(value), allowed) if parameter.closed else ""
                problems.append(
                    f"supports.parameters.{parameter_id}: value {_format(value)} is not allowed"
                    f"{hint}" + (f" (allowed: {', '.join(allowed)})" if parameter.closed and not hint else "")
                )
    by_kind = supports.get("by_kind")
    if isinstance(by_kind, Mapping):
        for kind, entry in by_kind.items():
            if kind not in kinds:
                problems.append(f"supports.by_kind: unknown kind {kind!r}{_nearest(str(kind), kinds)}")
            if isinstance(entry, Mapping):
                own = check_claims({"supports": {"kinds": [], **entry}}, kinds, registry)
                problems.extend(f"supports.by_kind.{kind}: {problem.removeprefix('supports.')}" for problem in own)
                for flag, its_kind in _KIND_FLAGS.items():
                    if flag in entry and (kind != its_kind or not isinstance(entry[flag], bool)):
                        problems.append(f"supports.by_kind.{kind}.{flag}: a boolean of by_kind.{its_kind} only")
    elif by_kind is not None:
        problems.append("supports.by_kind must be an object of kind -> {rulesets, parameters}")
    return problems


def departures(claims: Claims, registry: Registry | None = None) -> dict[str, dict[str, Any]]:
    """For each shipped ruleset, the parameters whose value there the adapter does not claim,
    mapped to what it claims instead. An empty mapping: the adapter can play that ruleset.

    Only the outcome parameters in play in the ruleset count (:meth:`Registry.applies`):
    documentary ones never change a result, nor do the auction of bids in a classic game.
    """
    registry = registry or load_registry()
    result: dict[str, dict[str, Any]] = {}
    for ruleset_id in shipped_rulesets():
        ruleset = find_ruleset(ruleset_id)
        differing = {}
        for parameter_id, parameter in registry.parameters.items():
            if (parameter.outcome and registry.applies(parameter_id, ruleset.params)
                    and not claims.claims_value(parameter_id, ruleset.params[parameter_id])):
                differing[parameter_id] = claims.values_of(parameter_id)
        result[ruleset_id] = differing
    return result
