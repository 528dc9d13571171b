"""The tables of the legal plays, compiled once per ruleset (``Ruleset.play_tables``).

Both implementations of the obligation ladder in :mod:`belote_ref.engine.play` read them: the fast
:func:`~belote_ref.engine.play.legal_mask` and the readable ladder behind
:func:`~belote_ref.engine.play.explain_illegal`. A :class:`~belote_ref.rules.ruleset.Ruleset` compiles them on
first use and keeps them (``functools.cached_property``), so nothing is keyed by the identity of a
ruleset and nothing is rebuilt per call.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Protocol

from belote_ref.core.cards import Trump
from belote_ref.rules.ruleview import Play, ToutAtout

__all__ = [
    "RULE_TA_MUST_HEAD",
    "UP_HIGHER",
    "PerTrump",
    "PlayPolicy",
    "PlayRules",
    "PlayTables",
    "above_table",
    "compile_play_tables",
    "trump_mask",
]

#: The rule a heading obligation comes from, by contract: the registry parameter ids.
RULE_MUST_HEAD_PLAIN_SUIT: Final = "play.must_head_plain_suit"
RULE_TA_MUST_HEAD: Final = "tout_atout.must_head"
"""At tout-atout: beat the best card of the suit led when you can (the registry parameter)."""

#: The trumps a contract can have, as table indices: the four suits, then SA and TA.
CONTRACTS: Final = range(6)

# undertrump_partner modes in the compiled tables
UP_ALLOWED: Final = 0
UP_ALL_TRUMPS: Final = 1
UP_FORCED: Final = 2
UP_HIGHER: Final = 3
_UP_MODES: Final = {
    "allowed": UP_ALLOWED,
    "only_if_hand_is_all_trumps": UP_ALL_TRUMPS,
    "only_if_forced": UP_FORCED,
    "unless_holding_higher": UP_HIGHER,
}

class PlayRules(Protocol):
    """What the tables are compiled from: a :class:`~belote_ref.rules.ruleset.Ruleset`'s play
    obligations, its tout-atout obligations and its card strengths (``Ruleset.strength``)."""

    @property
    def play(self) -> Play: ...

    @property
    def tout_atout(self) -> ToutAtout: ...

    @property
    def strength(self) -> tuple[tuple[int, ...], ...]: ...


PerTrump = tuple[
    tuple[tuple[int, ...], ...],  # eff[led][card]: strength if trump or of the led suit, else -1
    tuple[int, ...],  # above[card]: mask of the cards of the same suit that beat card
    int,  # mask of the trump suit (0 at SA and TA)
    bool,  # heading a suit led: play.must_head_plain_suit (tout_atout.must_head at TA)
    bool,  # heading is waived while the partner wins (tout_atout.partner_relief at TA, else true)
    bool,  # play.partner_master_exception
    bool,  # play.trump_lead_overtrump == except_partner_winning
    bool,  # play.undertrump_over_opponent == optional
    int,  # play.undertrump_partner mode (UP_*)
    bool,  # without the exception, a discard allowed under the partner's ruff (play.undertrump_partner_no_exception)
]
"""What :func:`~belote_ref.engine.play.legal_mask` unpacks for one contract, in this order."""


@dataclass(frozen=True, slots=True)
class PlayPolicy:
    """The five ``play.*`` parameter values and the two tout-atout ones, as the readable ladder reads them."""

    partner_master_exception: bool
    trump_lead_overtrump: str
    undertrump_over_opponent: str
    undertrump_partner: str
    must_head_plain_suit: bool
    ta_must_head: bool = True
    ta_partner_relief: bool = False
    undertrump_partner_no_exception: str = "same_as_opponent"

    @classmethod
    def of(cls, rules: PlayRules) -> PlayPolicy:
        """The policy of ``rules`` (the one its :attr:`~belote_ref.rules.ruleset.Ruleset.play_tables` keep)."""
        play = rules.play
        return cls(
            partner_master_exception=play.partner_master_exception,
            trump_lead_overtrump=play.trump_lead_overtrump,
            undertrump_over_opponent=play.undertrump_over_opponent,
            undertrump_partner=play.undertrump_partner,
            must_head_plain_suit=play.must_head_plain_suit,
            ta_must_head=rules.tout_atout.must_head,
            ta_partner_relief=rules.tout_atout.partner_relief,
            undertrump_partner_no_exception=play.undertrump_partner_no_exception,
        )

    def partner_undertrump_optional(self) -> bool:
        """Without the exception, unable to overtrump the partner's ruff: may the player discard?"""
        mode = self.undertrump_partner_no_exception
        if mode == "same_as_opponent":
            return self.undertrump_over_opponent == "optional"
        return mode == "optional"

    def value(self, parameter_id: str) -> object:
        """The value of the ``play.*`` parameter ``parameter_id``."""
        return getattr(self, parameter_id.partition(".")[2])

    def heading(self, trump: int) -> tuple[bool, bool, str]:
        """(must head the suit led, waived while the partner wins, the rule) under ``trump``."""
        if trump == Trump.TA:
            return self.ta_must_head, self.ta_partner_relief, RULE_TA_MUST_HEAD
        return self.must_head_plain_suit, True, RULE_MUST_HEAD_PLAIN_SUIT


@dataclass(frozen=True, slots=True)
class PlayTables:
    """The compiled tables of one ruleset, indexed by the contract's trump (0 to 5)."""

    policy: PlayPolicy
    per_trump: tuple[PerTrump, ...]
    above: tuple[tuple[int, ...], ...]
    """``above[trump][card]``: mask of the cards of ``card``'s suit that beat it under ``trump``."""


def trump_mask(trump: int) -> int:
    """The cards that are trumps over the other suits: the trump suit, none at SA and TA."""
    return 0xFF << (8 * trump) if trump < 4 else 0


def above_table(strength: tuple[int, ...]) -> tuple[int, ...]:
    """``above[card]``: mask of the cards of ``card``'s suit whose strength is higher."""
    table = []
    for card in range(32):
        suit = card >> 3
        mask = 0
        for other in range(suit * 8, suit * 8 + 8):
            if strength[other] > strength[card]:
                mask |= 1 << other
        table.append(mask)
    return tuple(table)


def compile_play_tables(rules: PlayRules) -> PlayTables:
    """Compile the tables and flags of :func:`~belote_ref.engine.play.legal_mask` for ``rules``.

    Rulesets that play alike share their tables: they depend on the play policy and the card
    strengths alone, and a scoring variant (lint and the sweep compile tens of thousands) would
    otherwise compile and keep its own copy."""
    return _tables_of(PlayPolicy.of(rules), rules.strength)


@lru_cache(maxsize=256)
def _tables_of(policy: PlayPolicy, strengths: tuple[tuple[int, ...], ...]) -> PlayTables:
    flags = (
        policy.partner_master_exception,
        policy.trump_lead_overtrump == "except_partner_winning",
        policy.undertrump_over_opponent == "optional",
        _UP_MODES[policy.undertrump_partner],
        policy.partner_undertrump_optional(),
    )
    per_trump: list[PerTrump] = []
    above: list[tuple[int, ...]] = []
    for trump in CONTRACTS:
        strength = strengths[trump]
        eff = tuple(
            tuple(strength[card] if card >> 3 in (trump, led) else -1 for card in range(32)) for led in range(4)
        )
        head, relief, _ = policy.heading(trump)
        above.append(above_table(strength))
        per_trump.append((eff, above[-1], trump_mask(trump), head, relief, *flags))
    return PlayTables(policy, tuple(per_trump), tuple(above))
