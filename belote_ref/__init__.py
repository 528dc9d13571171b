"""belote-ref: the reference specification, engine and conformance suite for Belote.

>>> from belote_ref import find_ruleset, legal_plays, CardSet, Trick, Seat, Suit, parse_cards
>>> rules = find_ruleset("classic")
>>> legal_plays(rules, Suit.H, CardSet.parse("7H QH KD 8C"), Trick(Seat.N, tuple(parse_cards("AS 9H"))))
CardSet('7H QH')

The package's folders are its layers, each importing only from those below it (checked by
import-linter, ``lint-imports``, with the contracts in ``pyproject.toml``):

- ``cli``: the command line, a module per group of verbs;
- ``site``: the rules website;
- ``conformance``: the corpus, the runner, the fuzzer, the reports;
- ``protocol``: ``belote-ref serve``, the engine behind the JSON-lines protocol;
- ``records``: deal records, their replay, their shards;
- ``engine``: play, announcements, deals, auctions and scoring of both families, matches;
- ``rules``: the registry, the rulesets and their compiled tables;
- ``core``: card notation, errors, bounded readers, data files, cache.

This module is the public face: the names below are imported on first use (PEP 562). Code is
loaded lazily in three other places only, each for start-up speed and each saying so: the
command line's verb table (:data:`belote_ref.cli.main.VERBS`), the serve verb's engine, loaded
once ``hello`` is answered, and the site's face (MkDocs is an optional extra).
"""

from __future__ import annotations

from belote_ref.core.version import __version__

TYPE_CHECKING = False  # typing is not imported at run time: see belote_ref.core.frozen
if TYPE_CHECKING:
    from typing import Any

    from belote_ref.core.cards import (
        CARDS,
        DECK,
        Card,
        CardSet,
        Rank,
        Seat,
        Suit,
        Team,
        format_cards,
        parse_card,
        parse_cards,
    )
    from belote_ref.core.errors import (
        BeloteRefError,
        Diagnostic,
        IllegalActionError,
        IllegalCallError,
        IllegalPlayError,
        InconsistentDealError,
        InternalError,
        MatchOverError,
        NotationError,
        RulesetError,
        TrickError,
        UnknownRulesetError,
    )
    from belote_ref.engine.announcements import (
        Combination,
        Declaration,
        announcement_points,
        combinations,
        make_combination,
    )
    from belote_ref.engine.deal import (
        Auction,
        AuctionStatus,
        DealState,
        Phase,
        complete_hands,
        deal_first_hands,
        run_auction,
    )
    from belote_ref.engine.match import Match
    from belote_ref.engine.play import (
        Trick,
        Violation,
        explain_illegal,
        legal_mask,
        legal_plays,
        trick_points,
        trick_winner,
    )
    from belote_ref.engine.scoring import DealScore, ScoreLine, score_deal
    from belote_ref.records.record import DealRecord, RecordError, ReplayReport, read_records, replay, write_record
    from belote_ref.rules.registry import Parameter, Registry, load_registry
    from belote_ref.rules.ruleset import Ruleset, find_ruleset, load_ruleset, shipped_rulesets


# The public names are imported on first use (PEP 562), so that `import belote_ref` (and the
# command line's start) costs nothing until the engine is used.
_EXPORTS = {
    "Combination": "belote_ref.engine.announcements",
    "Declaration": "belote_ref.engine.announcements",
    "announcement_points": "belote_ref.engine.announcements",
    "combinations": "belote_ref.engine.announcements",
    "make_combination": "belote_ref.engine.announcements",
    "CARDS": "belote_ref.core.cards",
    "Card": "belote_ref.core.cards",
    "CardSet": "belote_ref.core.cards",
    "DECK": "belote_ref.core.cards",
    "Rank": "belote_ref.core.cards",
    "Seat": "belote_ref.core.cards",
    "Suit": "belote_ref.core.cards",
    "Team": "belote_ref.core.cards",
    "format_cards": "belote_ref.core.cards",
    "parse_card": "belote_ref.core.cards",
    "parse_cards": "belote_ref.core.cards",
    "Auction": "belote_ref.engine.deal",
    "AuctionStatus": "belote_ref.engine.deal",
    "DealState": "belote_ref.engine.deal",
    "Phase": "belote_ref.engine.deal",
    "complete_hands": "belote_ref.engine.deal",
    "deal_first_hands": "belote_ref.engine.deal",
    "run_auction": "belote_ref.engine.deal",
    "BeloteRefError": "belote_ref.core.errors",
    "Diagnostic": "belote_ref.core.errors",
    "IllegalActionError": "belote_ref.core.errors",
    "IllegalCallError": "belote_ref.core.errors",
    "IllegalPlayError": "belote_ref.core.errors",
    "InconsistentDealError": "belote_ref.core.errors",
    "InternalError": "belote_ref.core.errors",
    "MatchOverError": "belote_ref.core.errors",
    "TrickError": "belote_ref.core.errors",
    "NotationError": "belote_ref.core.errors",
    "RulesetError": "belote_ref.core.errors",
    "UnknownRulesetError": "belote_ref.core.errors",
    "Match": "belote_ref.engine.match",
    "Trick": "belote_ref.engine.play",
    "Violation": "belote_ref.engine.play",
    "explain_illegal": "belote_ref.engine.play",
    "legal_mask": "belote_ref.engine.play",
    "legal_plays": "belote_ref.engine.play",
    "trick_points": "belote_ref.engine.play",
    "trick_winner": "belote_ref.engine.play",
    "DealRecord": "belote_ref.records.record",
    "RecordError": "belote_ref.records.record",
    "ReplayReport": "belote_ref.records.record",
    "read_records": "belote_ref.records.record",
    "replay": "belote_ref.records.record",
    "write_record": "belote_ref.records.record",
    "Parameter": "belote_ref.rules.registry",
    "Registry": "belote_ref.rules.registry",
    "load_registry": "belote_ref.rules.registry",
    "Ruleset": "belote_ref.rules.ruleset",
    "find_ruleset": "belote_ref.rules.ruleset",
    "load_ruleset": "belote_ref.rules.ruleset",
    "shipped_rulesets": "belote_ref.rules.ruleset",
    "DealScore": "belote_ref.engine.scoring",
    "ScoreLine": "belote_ref.engine.scoring",
    "score_deal": "belote_ref.engine.scoring",
}

# Deliberate copy: type checkers read the public names only from a literal list, so each module's names stand again.
__all__ = [
    "CARDS",
    "DECK",
    "Auction",
    "AuctionStatus",
    "BeloteRefError",
    "Card",
    "CardSet",
    "Combination",
    "DealRecord",
    "DealScore",
    "DealState",
    "Declaration",
    "Diagnostic",
    "IllegalActionError",
    "IllegalCallError",
    "IllegalPlayError",
    "InconsistentDealError",
    "InternalError",
    "Match",
    "MatchOverError",
    "NotationError",
    "Parameter",
    "Phase",
    "Rank",
    "RecordError",
    "Registry",
    "ReplayReport",
    "Ruleset",
    "RulesetError",
    "ScoreLine",
    "Seat",
    "Suit",
    "Team",
    "Trick",
    "TrickError",
    "UnknownRulesetError",
    "Violation",
    "__version__",
    "announcement_points",
    "combinations",
    "complete_hands",
    "deal_first_hands",
    "explain_illegal",
    "find_ruleset",
    "format_cards",
    "legal_mask",
    "legal_plays",
    "load_registry",
    "load_ruleset",
    "make_combination",
    "parse_card",
    "parse_cards",
    "read_records",
    "replay",
    "run_auction",
    "score_deal",
    "shipped_rulesets",
    "trick_points",
    "trick_winner",
    "write_record",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'belote_ref' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
