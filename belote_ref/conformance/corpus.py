"""The conformance corpus: loading fixtures, deciding where they apply, comparing results.

A fixture applies to a ruleset when its ``applies_to`` predicate holds and one of its ``expect``
branches matches (the first that matches gives the expected result). Predicates name registry
parameters, never ruleset ids, so a house rule picks up every fixture that fits it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from belote_ref.core.cache import cached_json
from belote_ref.core.cards import parse_card
from belote_ref.core.errors import BeloteRefError, Diagnostic
from belote_ref.core.jsonlines import same_json
from belote_ref.core.located import Located
from belote_ref.core.resources import data_dir
from belote_ref.core.yamlsource import read_yaml
from belote_ref.engine.bids.auction import Bid, impossible_bid, parse_bid
from belote_ref.rules.predicates import predicate_holds
from belote_ref.rules.ruleset import Ruleset, find_ruleset

if TYPE_CHECKING:
    import jsonschema

__all__ = [
    "CorpusReport",
    "Fixture",
    "branch_ruleset",
    "canonical_result",
    "compare_results",
    "fixtures_dir",
    "load_corpus",
    "load_corpus_report",
    "load_fixture",
    "predicate_holds",
]


#: The parameter that picks the auction: the classic turned card, or the bidding family's bids.
AUCTION_PARAMETER = "bidding.auction"
#: The kinds whose answer depends on the auction (see :attr:`Fixture.auction_family`).
AUCTION_KINDS = frozenset({"deal", "auction", "score", "match", "replay", "play"})


def fixtures_dir() -> Path:
    """The folder of the shipped fixtures."""
    return data_dir("conformance") / "fixtures"


@dataclass(frozen=True)
class Fixture:
    """One fixture file. ``located`` (the positions of its keys, for messages) is None for a
    fixture of the cached corpus: :func:`load_fixture` reads them when a problem is reported."""

    path: Path
    data: Mapping[str, Any]
    located: Located | None = None

    @property
    def id(self) -> str:
        return str(self.data["id"])

    @property
    def kind(self) -> str:
        return str(self.data["kind"])

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(self.data.get("rules", ()))

    @property
    def provenance(self) -> str:
        return str(self.data["provenance"])

    @property
    def normative(self) -> bool:
        return bool(self.data.get("normative", True))

    @property
    def given(self) -> Mapping[str, Any]:
        return self.data["given"]  # type: ignore[no-any-return]

    @property
    def auction_family(self) -> str | None:
        """The ``bidding.auction`` value the fixture is written for, when no predicate names it.

        A fixture of a kind whose answer depends on the auction (the deal, the auction, a score, a
        match, a whole deal) that names ``bidding.auction`` in no predicate was written for the
        classic auction and applies only to ``turned_card`` rulesets; a fixture of the bidding
        family says ``bidding.auction: bids`` in its ``applies_to``. Tricks, legal plays and
        announcements in a hand are the same in both, so those fixtures apply to both.
        """
        if self.kind not in AUCTION_KINDS:
            return None
        predicates = [self.data.get("applies_to") or {}, *(b.get("when") or {} for b in self.data["expect"])]
        if any(AUCTION_PARAMETER in predicate for predicate in predicates):
            return None
        return "turned_card"

    def fits_auction(self, params: Mapping[str, Any]) -> bool:
        """Whether ``params`` play the auction the fixture is written for (see :attr:`auction_family`)."""
        family = self.auction_family
        return family is None or params.get(AUCTION_PARAMETER) == family

    @cached_property
    def given_bids(self) -> tuple[Bid, ...]:
        """The contracts the situation gives, in the bidding family's kinds that carry one (a
        score's ``bid``, each match deal's, a whole deal's ``contract.bid``); one that does not
        parse is left out (the adapter is to answer it with ``errored``)."""
        given = self.data.get("given")
        if not isinstance(given, Mapping):
            return ()
        if self.kind == "score":
            raw = [given.get("bid")]
        elif self.kind == "match":
            deals = given.get("deals")
            raw = [deal.get("bid") for deal in deals if isinstance(deal, Mapping)] if isinstance(deals, list) else []
        elif self.kind == "play" and isinstance(given.get("contract"), Mapping):
            raw = [given["contract"].get("bid")]
        else:
            raw = []
        bids = []
        for data in raw:
            try:
                bids.append(parse_bid(data))
            except BeloteRefError:
                continue
        return tuple(bids)

    def fits_bids(self, params: Mapping[str, Any], result: Mapping[str, Any]) -> bool:
        """Whether ``result`` is the answer under ``params`` as far as the given contracts go: a
        ``bad_bid`` rejection exactly where some given contract is one no auction of ``params`` can
        end on (a value off the ladder, a multiplier the surcoinche does not make...). So a case of
        a 110 coinched is not sent under a house rule whose bids stop at 100, nor a case that
        expects 110 x 3 to be refused under a surcoinche of 3."""
        if params.get(AUCTION_PARAMETER) != "bids" or not self.given_bids:
            return True
        impossible = any(impossible_bid(params, bid) is not None for bid in self.given_bids)
        rejection = result.get("rejected")
        return impossible == (isinstance(rejection, Mapping) and rejection.get("code") == "bad_bid")

    def expected(self, ruleset: Ruleset) -> Mapping[str, Any] | None:
        """The expected result under ``ruleset``, or None when the fixture does not apply."""
        return self.expected_under(ruleset.params)

    def expected_under(self, params: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The expected result under the parameter values ``params``, or None when the fixture
        does not apply (its ``applies_to``, its auction, its given contracts: :meth:`fits_bids`)."""
        if not predicate_holds(self.data.get("applies_to") or {}, params) or not self.fits_auction(params):
            return None
        for branch in self.data["expect"]:
            if predicate_holds(branch.get("when") or {}, params):
                result: Mapping[str, Any] = branch["result"]
                return result if self.fits_bids(params, result) else None
        return None


@cache
def _validator() -> jsonschema.Draft202012Validator:
    import jsonschema

    schema = json.loads((data_dir("schema") / "fixture.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def load_fixture(path: Path) -> tuple[Fixture | None, list[Diagnostic]]:
    """Read and schema-check one fixture file; returns it (or None) and its diagnostics."""

    located, diagnostics = read_yaml(path)
    if located is None or diagnostics:
        return None, diagnostics
    for error in _validator().iter_errors(located.data):
        diagnostics.append(located.diagnostic(tuple(error.absolute_path), _shortened(error.message), "schema"))
    if diagnostics:
        return None, diagnostics
    return Fixture(path, located.data, located), []


def _shortened(message: str, limit: int = 200) -> str:
    # jsonschema's messages start with the value found, which may be a whole 'given'.
    return message if len(message) <= limit else message[:limit - 3] + "..."


def iter_fixture_paths(root: Path | None = None) -> Iterator[Path]:
    """Every ``*.yaml`` under the fixtures folder, in a stable order."""
    yield from sorted((root or fixtures_dir()).rglob("*.yaml"))


@dataclass(frozen=True)
class CorpusReport:
    """The fixtures of a folder that loaded, and the files that did not with why."""

    fixtures: tuple[Fixture, ...]
    failures: tuple[tuple[Path, tuple[Diagnostic, ...]], ...]


def load_corpus_report(root: Path | None = None) -> CorpusReport:
    """Every fixture under ``root`` (the shipped fixtures by default), and the files that failed to
    load with their diagnostics (cached by folder in the process, and on disk keyed by the files'
    content: see :mod:`belote_ref.core.cache`). The fixtures read back from the disk cache carry no
    positions (``located`` is None)."""
    return _load_corpus_report(root or fixtures_dir())


@cache
def _load_corpus_report(root: Path) -> CorpusReport:

    paths = list(iter_fixture_paths(root))
    names = [path.relative_to(root).as_posix() for path in paths]
    schema = data_dir("schema") / "fixture.schema.json"
    fixtures: list[Fixture] = []
    failures: list[tuple[Path, tuple[Diagnostic, ...]]] = []

    def compute() -> dict[str, Any]:
        for path in paths:
            fixture, diagnostics = load_fixture(path)
            if fixture is not None:
                fixtures.append(fixture)
            else:
                failures.append((path, tuple(diagnostics)))
        by_path = {fixture.path: fixture for fixture in fixtures}
        return {"fixtures": [[name, by_path[path].data] for path, name in zip(paths, names, strict=True)
                             if path in by_path],
                "failures": [[path.relative_to(root).as_posix(), [_diagnostic_json(d) for d in diagnostics]]
                             for path, diagnostics in failures]}

    payload = cached_json("corpus", [schema, *paths], compute, _looks_like_corpus,
                          extra="\0".join([str(root), *names]))
    if fixtures or failures:  # computed in this process: the fixtures keep their positions
        return CorpusReport(tuple(fixtures), tuple(failures))
    return CorpusReport(
        tuple(Fixture(root / name, data) for name, data in payload["fixtures"]),
        tuple((root / name, tuple(Diagnostic(*fields) for fields in diagnostics))
              for name, diagnostics in payload["failures"]))


def _diagnostic_json(diagnostic: Diagnostic) -> list[Any]:
    return [diagnostic.file, diagnostic.line, diagnostic.column, diagnostic.key_path, diagnostic.message,
            diagnostic.code]


def _looks_like_corpus(payload: Any) -> bool:
    """The shape a cached corpus must have before it is used (fixtures as the schema checked them)."""
    if not isinstance(payload, dict) or not isinstance(payload.get("fixtures"), list) \
            or not isinstance(payload.get("failures"), list):
        return False
    for entry in payload["fixtures"]:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)
                and isinstance(data := entry[1], dict) and isinstance(data.get("id"), str)
                and isinstance(data.get("kind"), str) and isinstance(data.get("provenance"), str)
                and isinstance(data.get("given"), dict) and isinstance(data.get("expect"), list)
                and all(isinstance(branch, dict) and "result" in branch for branch in data["expect"])):
            return False
    return all(isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str) and isinstance(entry[1], list)
               and all(isinstance(fields, list) and len(fields) == 6 for fields in entry[1])
               for entry in payload["failures"])


def load_corpus(root: Path | None = None) -> tuple[Fixture, ...]:
    """Every valid fixture (cached). :func:`load_corpus_report` also gives the files that failed."""
    return load_corpus_report(root).fixtures


# ------------------------------------------------------------------------------------- results


def _sorted_cards(tokens: Any) -> Any:
    if not isinstance(tokens, list):
        return tokens
    try:
        return sorted((str(t) for t in tokens), key=lambda t: int(parse_card(t)))
    except Exception:
        return tokens


def canonical_result(kind: str, result: Any) -> Any:
    """``result`` with set-like parts in a canonical order, so that values compare as the protocol says.

    Card sets (legal plays, hands, a combination's cards) are sorted; combinations are a multiset.
    """
    if not isinstance(result, dict) or "rejected" in result or kind not in ("legal_plays", "deal", "announcements"):
        return result
    result = dict(result)
    if kind == "legal_plays" and "legal" in result:
        result["legal"] = _sorted_cards(result["legal"])
    elif kind == "deal" and isinstance(result.get("hands"), dict):
        result["hands"] = {seat: _sorted_cards(cards) for seat, cards in result["hands"].items()}
    elif kind == "announcements" and isinstance(result.get("combinations"), list):
        combos = []
        for combo in result["combinations"]:
            if isinstance(combo, dict):
                combo = {**combo, "cards": _sorted_cards(combo.get("cards"))}
            combos.append(combo)
        result["combinations"] = sorted(combos, key=lambda c: json.dumps(c, sort_keys=True))
    return result


def compare_results(kind: str, expected: Any, got: Any) -> list[str]:
    """The differences between an expected and an actual result, in words (empty when equal).

    Values compare as JSON (:func:`~belote_ref.core.jsonlines.same_json`): ``81.0`` or ``true`` where
    the protocol's integer ``81`` or ``1`` is expected is a difference, though Python's ``==``
    would take them as equal.
    """
    if same_json(expected, got):  # the usual answer, in the same order: nothing to put in order
        return []
    want, have = canonical_result(kind, expected), canonical_result(kind, got)
    if same_json(want, have):
        return []
    if not isinstance(want, dict) or not isinstance(have, dict):
        return [f"expected {json.dumps(want)}, got {json.dumps(have)}"]
    lines = []
    for key in sorted(set(want) | set(have)):
        if key not in have:
            lines.append(f"{key}: missing (expected {json.dumps(want[key])})")
        elif key not in want:
            lines.append(f"{key}: unexpected {json.dumps(have[key])}")
        elif not same_json(want[key], have[key]):
            a, b = want[key], have[key]
            if kind in ("legal_plays", "deal") and isinstance(a, list) and isinstance(b, list):
                missing = _words(c for c in a if not any(same_json(c, other) for other in b))
                extra = _words(c for c in b if not any(same_json(c, other) for other in a))
                lines.append(f"{key}: missing {missing}; extra {extra}")
            else:
                lines.append(f"{key}: expected {json.dumps(a)}, got {json.dumps(b)}")
    return lines


def _words(tokens: Iterator[Any]) -> str:
    """Card tokens as the protocol writes them, anything else an engine sent as JSON; ``-`` for none."""
    return " ".join(token if isinstance(token, str) else json.dumps(token) for token in tokens) or "-"


def branch_ruleset(fixture: Fixture, index: int, base: Ruleset | None = None) -> Ruleset:
    """A ruleset under which ``expect[index]`` of ``fixture`` applies: ``base`` (classic by default)
    with the values of ``applies_to`` and of the branch's ``when`` (the first ``one_of`` option).

    Raises :class:`~belote_ref.core.errors.RulesetError` when those values are not allowed.
    """

    base = base or find_ruleset("classic")
    params = dict(base.params)
    for predicate in (fixture.data.get("applies_to") or {}, fixture.data["expect"][index].get("when") or {}):
        for parameter_id, wanted in predicate.items():
            params[parameter_id] = wanted["one_of"][0] if isinstance(wanted, dict) and "one_of" in wanted else wanted
    return Ruleset.from_parameters(params, id=f"{fixture.id}#{index}")
