"""belote-ref: the reference specification, engine and conformance suite for Belote.

>>> from belote_ref import find_ruleset, legal_plays, CardSet, Trick, Seat, Suit, parse_cards
>>> rules = find_ruleset("classic")
>>> legal_plays(rules, Suit.H, CardSet.parse("7H QH KD 8C"), Trick(Seat.N, tuple(parse_cards("AS 9H"))))
CardSet('7H QH')
"""

from belote_ref.announcements import Combination, Declaration, announcement_points, combinations, make_combination
from belote_ref.cards import CARDS, DECK, Card, CardSet, Rank, Seat, Suit, Team, format_cards, parse_card, parse_cards
from belote_ref.deal import Auction, AuctionStatus, DealState, Phase, complete_hands, deal_first_hands, run_auction
from belote_ref.errors import (  # the errors again, as errors.py lists them: all importable from the top
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
