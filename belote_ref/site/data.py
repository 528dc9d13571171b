"""What the pages are made from: the registry, the shipped rulesets, the corpus and the reports."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from belote_ref.conformance.corpus import Fixture, load_corpus, predicate_holds
from belote_ref.core.errors import BeloteRefError
from belote_ref.rules.registry import Parameter, Registry, load_registry
from belote_ref.rules.ruleset import Ruleset, find_ruleset, iter_changes, shipped_rulesets
from belote_ref.site.reports import Report, load_reports

# Topics group the registry's areas (their titles and introductions are in the locale files); an
# area that no topic names goes to the last topic, "other".
TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("cards", ("cards",)),
    ("deal", ("table", "deal")),
    ("auction", ("bidding", "auction")),
    ("play", ("play",)),
    ("announcements", ("belote", "announcements")),
    ("score", ("scoring",)),
    ("sa-ta", ("sans_atout", "tout_atout")),
    ("match", ("game",)),
    ("faults", ("penalties",)),
)
OTHER_TOPIC: tuple[str, tuple[str, ...]] = ("other", ())

# Family pages gather, in players' words, the rules of one family of faults: each is a page of the
# rules with no rule of its own (every rule keeps its article and its section on its topic's page),
# after the topics. Each names its topic and the parameter ids, or id prefixes, it gathers.
FAMILIES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("faults-misdeal", "faults", ("penalties.misdeal", "penalties.forfeit_value")),
    ("faults-revoke", "faults", ("penalties.revoke", "penalties.forfeit_value")),
    ("faults-table", "faults", ("penalties.exposed_card", "penalties.out_of_turn", "penalties.signals")),
    ("faults-announcements", "faults", ("penalties.announcement", "belote.announcement")),
)


@dataclass
class SiteData:
    """Everything the pages are made from."""

    registry: Registry
    rulesets: list[Ruleset]
    fixtures: list[Fixture]
    topics: list[tuple[str, tuple[str, ...]]]
    branches: dict[str, dict[str, int | None]] = field(default_factory=dict)
    hand_pages: frozenset[str] = frozenset()
    reports: list[Report] = field(default_factory=list)
    #: Family slug -> (its topic, the parameter ids or id prefixes it gathers): :data:`FAMILIES`.
    families: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    #: Pieces of pages that are the same in every language, made once per build (by a key of their maker's).
    shared_parts: dict[tuple[str, str], str] = field(default_factory=dict)

    @property
    def classic(self) -> Ruleset:
        return next((r for r in self.rulesets if r.id == "classic"), self.rulesets[0])

    @property
    def hand(self) -> list[Fixture]:
        return [f for f in self.fixtures if f.provenance != "engine"]

    @property
    def engine(self) -> list[Fixture]:
        return [f for f in self.fixtures if f.provenance == "engine"]

    def topic_of(self, parameter_id: str) -> str:
        area = parameter_id.split(".", 1)[0]
        for slug, areas in self.topics:
            if area in areas:
                return slug
        return OTHER_TOPIC[0]

    def parameters_of(self, topic: str) -> list[Parameter]:
        return [p for p in self.registry.parameters.values() if self.topic_of(p.id) == topic]

    def family_parameters(self, family: str) -> list[Parameter]:
        """The rules a family page gathers, in the order of its prefixes, then the registry's."""
        _, prefixes = self.families[family]
        return [p for prefix in prefixes for p in self.registry.parameters.values()
                if p.id == prefix or p.id.startswith(prefix + ".")]

    def families_of(self, topic: str) -> list[str]:
        """The family pages of ``topic``, in the site's order."""
        return [slug for slug, (parent, _) in self.families.items() if parent == topic]

    def fixtures_of(self, parameter_id: str) -> list[Fixture]:
        """Hand fixtures that test ``parameter_id`` (named in ``rules`` or in a branch's ``when``)."""
        return list(self._hand_by_parameter.get(parameter_id, ()))

    @cached_property
    def _hand_by_parameter(self) -> dict[str, list[Fixture]]:
        # Indexed once: every rule section and the examples index ask, and scanning the corpus for each
        # parameter was a tenth of the pages' making.
        index: dict[str, list[Fixture]] = {}
        for fixture in self.hand:
            for parameter_id in _tested(fixture):
                index.setdefault(parameter_id, []).append(fixture)
        return index

    @cached_property
    def fixtures_by_id(self) -> dict[str, Fixture]:
        """Each fixture by its id (the corpus is loaded first of each id)."""
        return {fixture.id: fixture for fixture in self.fixtures}

    def changes(self, ruleset: Ruleset) -> list[str]:
        return list(iter_changes(ruleset, self.classic))


def _tested(fixture: Fixture) -> list[str]:
    tested = list(fixture.rules)
    for branch in fixture.data.get("expect") or ():
        for parameter_id in (branch.get("when") or {}):
            if parameter_id not in tested:
                tested.append(parameter_id)
    return tested


def branch_index(fixture: Fixture, params: Mapping[str, Any]) -> int | None:
    """The index of the first ``expect`` branch that holds under ``params``; None when not applicable."""
    if not predicate_holds(fixture.data.get("applies_to") or {}, params) or not fixture.fits_auction(params):
        return None
    for index, branch in enumerate(fixture.data["expect"]):
        if predicate_holds(branch.get("when") or {}, params):
            return index
    return None


def load_site_data(
    fixtures: Iterable[Fixture] | None = None,
    reports_dir: str | os.PathLike[str] | None = None,
    extra_rulesets: Iterable[Ruleset] = (),
) -> SiteData:
    """Load the registry, the shipped rulesets, the corpus (valid fixtures, first of each id) and the reports.

    ``extra_rulesets`` (a club's house rules) get pages of their own beside the shipped rulesets.
    ``reports_dir`` holds the conformance reports (default: :func:`find_reports_dir`); a malformed
    report raises :class:`~belote_ref.core.errors.BeloteRefError` (code ``docs``) naming its file and line.
    """
    registry = load_registry()
    rulesets = [find_ruleset(ruleset_id) for ruleset_id in shipped_rulesets()]
    for extra in extra_rulesets:  # a club's house rules, published beside the shipped rulesets
        if any(r.id == extra.id for r in rulesets):
            raise BeloteRefError(
                f"ruleset id {extra.id!r} is already taken: give the house rule another id", code="docs"
            )
        rulesets.append(extra)
    seen: set[str] = set()
    unique = []
    for fixture in load_corpus() if fixtures is None else fixtures:
        if fixture.id not in seen:
            seen.add(fixture.id)
            unique.append(fixture)
    areas = {p.area for p in registry.parameters.values()}
    known = {a for _, topic_areas in TOPICS for a in topic_areas}
    # The family pages come last, so that a topic's place (the first part of its rules' articles) stays.
    topics = list(TOPICS) + ([OTHER_TOPIC] if areas - known else []) + [(slug, ()) for slug, _, _ in FAMILIES]
    data = SiteData(registry, rulesets, unique, topics, reports=load_reports(reports_dir),
                    families={slug: (parent, prefixes) for slug, parent, prefixes in FAMILIES})
    for fixture in unique:
        data.branches[fixture.id] = {r.id: branch_index(fixture, r.params) for r in rulesets}
    return data
