"""belote-ref: the reference specification, engine and conformance suite for Belote.

>>> from belote_ref import find_ruleset, legal_plays, CardSet, Trick, Seat, Suit, parse_cards
>>> rules = find_ruleset("classic")
>>> legal_plays(rules, Suit.H, CardSet.parse("7H QH KD 8C"), Trick(Seat.N, tuple(parse_cards("AS 9H"))))
CardSet('7H QH')
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time: see belote_ref.frozen
if TYPE_CHECKING:
    from typing import Any

    from belote_ref.announcements import Combination, Declaration, announcement_points, combinations, make_combination
    from belote_ref.cards import (
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
    from belote_ref.deal import Auction, AuctionStatus, DealState, Phase, complete_hands, deal_first_hands, run_auction
    from belote_ref.errors import (
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
    from belote_ref.match import Match
    from belote_ref.play import Trick, Violation, explain_illegal, legal_mask, legal_plays, trick_points, trick_winner
    from belote_ref.record import DealRecord, RecordError, ReplayReport, read_records, replay, write_record
    from belote_ref.registry import Parameter, Registry, load_registry
    from belote_ref.rules import Ruleset, find_ruleset, load_ruleset, shipped_rulesets
    from belote_ref.scoring import DealScore, ScoreLine, score_deal

__version__ = "0.1.0"

# The public names are imported on first use (PEP 562), so that `import belote_ref` (and the
# command line's start) costs nothing until the engine is used.
_EXPORTS = {
    "Combination": "belote_ref.announcements",
    "Declaration": "belote_ref.announcements",
    "announcement_points": "belote_ref.announcements",
    "combinations": "belote_ref.announcements",
    "make_combination": "belote_ref.announcements",
    "CARDS": "belote_ref.cards",
    "Card": "belote_ref.cards",
    "CardSet": "belote_ref.cards",
    "DECK": "belote_ref.cards",
    "Rank": "belote_ref.cards",
    "Seat": "belote_ref.cards",
    "Suit": "belote_ref.cards",
    "Team": "belote_ref.cards",
    "format_cards": "belote_ref.cards",
    "parse_card": "belote_ref.cards",
    "parse_cards": "belote_ref.cards",
    "Auction": "belote_ref.deal",
    "AuctionStatus": "belote_ref.deal",
    "DealState": "belote_ref.deal",
    "Phase": "belote_ref.deal",
    "complete_hands": "belote_ref.deal",
    "deal_first_hands": "belote_ref.deal",
    "run_auction": "belote_ref.deal",
    "BeloteRefError": "belote_ref.errors",
    "Diagnostic": "belote_ref.errors",
    "IllegalActionError": "belote_ref.errors",
    "IllegalCallError": "belote_ref.errors",
    "IllegalPlayError": "belote_ref.errors",
    "InconsistentDealError": "belote_ref.errors",
    "InternalError": "belote_ref.errors",
    "MatchOverError": "belote_ref.errors",
    "TrickError": "belote_ref.errors",
    "NotationError": "belote_ref.errors",
    "RulesetError": "belote_ref.errors",
    "UnknownRulesetError": "belote_ref.errors",
    "Match": "belote_ref.match",
    "Trick": "belote_ref.play",
    "Violation": "belote_ref.play",
    "explain_illegal": "belote_ref.play",
    "legal_mask": "belote_ref.play",
    "legal_plays": "belote_ref.play",
    "trick_points": "belote_ref.play",
    "trick_winner": "belote_ref.play",
    "DealRecord": "belote_ref.record",
    "RecordError": "belote_ref.record",
    "ReplayReport": "belote_ref.record",
    "read_records": "belote_ref.record",
    "replay": "belote_ref.record",
    "write_record": "belote_ref.record",
    "Parameter": "belote_ref.registry",
    "Registry": "belote_ref.registry",
    "load_registry": "belote_ref.registry",
    "Ruleset": "belote_ref.rules",
    "find_ruleset": "belote_ref.rules",
    "load_ruleset": "belote_ref.rules",
    "shipped_rulesets": "belote_ref.rules",
    "DealScore": "belote_ref.scoring",
    "ScoreLine": "belote_ref.scoring",
    "score_deal": "belote_ref.scoring",
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
