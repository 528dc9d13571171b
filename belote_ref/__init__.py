"""belote-ref: the reference specification, engine and conformance suite for Belote."""

from belote_ref.cards import CARDS, DECK, Card, CardSet, Rank, Seat, Suit, Team, format_cards, parse_card, parse_cards
from belote_ref.errors import (
    BeloteRefError,
    Diagnostic,
    IllegalActionError,
    IllegalCallError,
    IllegalPlayError,
    NotationError,
    RulesetError,
    UnknownRulesetError,
)
from belote_ref.registry import Parameter, Registry, load_registry
from belote_ref.rules import Ruleset, find_ruleset, load_ruleset, shipped_rulesets

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "DECK",
    "BeloteRefError",
    "Card",
    "CardSet",
    "Diagnostic",
    "IllegalActionError",
    "IllegalCallError",
    "IllegalPlayError",
    "NotationError",
    "Parameter",
    "Rank",
    "Registry",
    "Ruleset",
    "RulesetError",
    "Seat",
    "Suit",
    "Team",
    "UnknownRulesetError",
    "__version__",
    "find_ruleset",
    "format_cards",
    "load_registry",
    "load_ruleset",
    "parse_card",
    "parse_cards",
    "shipped_rulesets",
]
