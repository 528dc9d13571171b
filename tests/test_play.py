"""Legal plays (the obligation ladder R0-R5 of rules.md §1.6), explain_illegal and trick_winner.

Positions are written as: trump suit, hand of the seat to play, leader and cards of the trick
so far. Play order is N -> E -> S -> W, partners are N-S and E-W. Classic orders: trumps
J 9 A T K Q 8 7, plain suits A T K Q J 9 8 7.

Quotes: "rules.md" is rules/sources/rules.md §1.6; seeds 000, 001 and 003 are the seed
pages in rules/sources/; "registry" is the parameter text of rules/registry.yaml.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_ref import CARDS, CardSet, Seat, Suit, find_ruleset, parse_cards, shipped_rulesets
from belote_ref.engine.play import (
    RULE_CARD_IN_HAND,
    RULE_FOLLOW_SUIT,
    RULE_MUST_OVERTRUMP,
    RULE_MUST_TRUMP,
    Trick,
    Violation,
    _ladder,
    _PlayPolicy,
    _Position,
    explain_illegal,
    legal_mask,
    legal_plays,
    trick_winner,
)
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import Ruleset

CLASSIC = find_ruleset("classic")
PLAY_PARAMETERS = [pid for pid in load_registry().parameters if pid.startswith("play.")]


def variant(**changes: Any) -> Ruleset:
    """Classic with some ``play.*`` parameters changed: ``variant(undertrump_partner="only_if_forced")``."""
    return Ruleset.from_parameters({**CLASSIC.params, **{f"play.{key}": value for key, value in changes.items()}})


def trick(leader: str, cards: str = "") -> Trick:
    return Trick(Seat[leader], tuple(parse_cards(cards)))


def legal(rules: Ruleset, trump: Suit, hand: str, leader: str, cards: str = "") -> CardSet:
    """legal_plays on a position in notation, checking the invariants every result must keep."""
    hand_set = CardSet.parse(hand)
    the_trick = trick(leader, cards)
    result = legal_plays(rules, trump, hand_set, the_trick)
    assert result - hand_set == CardSet(), "legal plays must be cards of the hand"
    assert bool(result) == bool(hand_set), "a non-empty hand always has a legal play"
    assert result.mask == legal_mask(rules, trump, hand_set.mask, the_trick.leader, the_trick.cards)
    return result


def cs(tokens: str) -> CardSet:
    return CardSet.parse(tokens)


H, S, D, C = Suit.H, Suit.S, Suit.D, Suit.C

# --------------------------------------------------------------------------------------- R0


class TestR0Leading:
    """rules.md: "R0  leading: any card"; seed 003: "Le joueur situé à gauche du donneur entame le
    jeu avec une carte de son choix." """

    def test_any_card_when_leading(self) -> None:
        assert legal(CLASSIC, H, "7H QH KD 8C", "N") == cs("7H QH KD 8C")

    def test_empty_hand_gives_empty_set(self) -> None:
        assert legal(CLASSIC, H, "", "N") == CardSet()
        assert legal(CLASSIC, H, "", "N", "AS 9H") == CardSet()
        assert legal(CLASSIC, H, "", "N", "JH") == CardSet()

    def test_complete_trick_raises(self) -> None:
        with pytest.raises(ValueError, match="complete"):
            legal_plays(CLASSIC, H, cs("7D"), trick("N", "AS KS QS JS"))


# --------------------------------------------------------------------------------------- R1


class TestR1TrumpLed:
    """rules.md R1: "L == T (trump led): same empty -> any card; else if some card of `same` beats
    w -> those cards; else -> same". Seed 000: "Quand un atout est joué, les suivants doivent
    monter, c’est-à-dire jouer un atout plus fort s’ils le peuvent." """

    def test_must_overtrump_when_able(self) -> None:
        # TH led; E holds AH, which beats TH (J 9 A T ...): only AH.
        assert legal(CLASSIC, H, "7H AH KD 8C", "N", "TH") == cs("AH")

    def test_every_higher_trump_is_allowed(self) -> None:
        # KH led; JH 9H AH all beat it, 7H does not.
        assert legal(CLASSIC, H, "7H 9H AH JH KD", "N", "KH") == cs("9H AH JH")

    def test_any_trump_when_unable_to_overtrump(self) -> None:
        # "else -> same  # any trump": JH is the master trump.
        assert legal(CLASSIC, H, "7H AH KD", "N", "JH") == cs("7H AH")

    def test_void_in_trumps_any_card(self) -> None:
        # "same empty -> any card"
        assert legal(CLASSIC, H, "KD 8C AS", "N", "JH") == cs("KD 8C AS")

    def test_overtrump_the_best_trump_not_the_led_one(self) -> None:
        # N leads 7H, E plays AH: S must beat AH, not 7H.
        assert legal(CLASSIC, H, "8H TH 9H KD", "N", "7H AH") == cs("9H")

    def test_plain_card_after_trump_lead_does_not_count(self) -> None:
        # N leads QH, E (void) discards AS: the best trump is still QH.
        assert legal(CLASSIC, H, "7H KH AD", "N", "QH AS") == cs("KH")

    def test_partner_master_must_still_overtrump_under_always(self) -> None:
        """The classic trap. rules.md R1: "those cards  # "monter", even over partner"; registry:
        "each player must play a higher trump than the best one on the table if he can, even over
        his partner"."""
        # N leads AH, E plays 7H, S (partner N is master) holds JH: must play it.
        assert legal(CLASSIC, H, "JH 8H KD", "N", "AH 7H") == cs("JH")


class TestTrumpLeadOvertrumpAlways:
    """play.trump_lead_overtrump = always. rules.md: "R1 applies to everyone, partner included, in
    FFB (all texts), Pagat, WIKI-FR and seed 000"."""

    def test_over_partner(self) -> None:
        assert legal(CLASSIC, H, "JH 8H KD", "N", "AH 7H") == cs("JH")

    def test_over_partner_fourth_seat(self) -> None:
        # N leads 7H, E plays AH, S plays 8H: W's partner E is master, W must still beat AH.
        assert legal(CLASSIC, H, "9H QH 7C", "N", "7H AH 8H") == cs("9H")


class TestTrumpLeadOvertrumpExceptPartnerWinning:
    """play.trump_lead_overtrump = except_partner_winning. rules.md R1: "(except:
    play.trump_lead_overtrump == except_partner_winning and pm -> same)"; registry: "the relaxed
    reading frees him when his partner is winning"."""

    RULES = variant(trump_lead_overtrump="except_partner_winning")

    def test_partner_master_any_trump(self) -> None:
        assert legal(self.RULES, H, "JH 8H KD", "N", "AH 7H") == cs("JH 8H")

    def test_partner_master_still_follows_trumps(self) -> None:
        # Relaxed overtrumping, not following: KD stays illegal.
        assert legal(self.RULES, H, "8H KD", "N", "AH 7H") == cs("8H")

    def test_opponent_master_must_overtrump(self) -> None:
        # N leads 7H, E plays AH: S's opponent is master.
        assert legal(self.RULES, H, "JH 8H KD", "N", "7H AH") == cs("JH")

    def test_second_seat_partner_not_master(self) -> None:
        # rules.md: "If your partner has not played yet (you are 2nd to play), he is not master."
        assert legal(self.RULES, H, "AH 7H", "N", "KH") == cs("AH")


# --------------------------------------------------------------------------------------- R2


class TestR2FollowSuit:
    """rules.md R2: "L != T and same non-empty -> same  # no need to head the trick"; seed 003:
    "Les autres joueurs doivent alors fournir une carte dans la couleur proposée." """

    def test_follow_with_any_card_of_the_suit(self) -> None:
        assert legal(CLASSIC, H, "7S KS 9H 8C", "N", "AS") == cs("7S KS")

    def test_no_trumping_when_holding_the_suit(self) -> None:
        assert legal(CLASSIC, H, "7S JH 9H", "N", "AS") == cs("7S")

    def test_follow_suit_after_a_ruff(self) -> None:
        # KS led, E ruffs 7H, S holds spades: following with any spade is enough.
        assert legal(CLASSIC, H, "7S AS 9H", "N", "KS 7H") == cs("7S AS")


class TestMustHeadPlainSuitFalse:
    """play.must_head_plain_suit = false (FFB-B16, PARLETT): "no need to head the trick"."""

    def test_may_play_low_under_opponent(self) -> None:
        assert legal(CLASSIC, H, "QS AS 7S 9H", "N", "KS") == cs("QS AS 7S")


class TestMustHeadPlainSuitTrue:
    """play.must_head_plain_suit = true. rules.md R2: "(rare: play.must_head_plain_suit -> if an
    opponent is winning with a card of L, the cards of `same` that beat it, if any)"; registry:
    "whether the player must beat it if he can"."""

    RULES = variant(must_head_plain_suit=True)

    def test_must_beat_opponent(self) -> None:
        assert legal(self.RULES, H, "QS AS 7S 9H", "N", "KS") == cs("AS")

    def test_plain_order_decides_who_beats(self) -> None:
        # KS beaten by TS and AS (A T K Q J 9 8 7), not by JS.
        assert legal(self.RULES, H, "TS AS JS 7S", "N", "QS KS") == cs("TS AS")

    def test_cannot_beat_any_card_of_the_suit(self) -> None:
        assert legal(self.RULES, H, "QS 7S 9H", "N", "AS") == cs("QS 7S")

    def test_partner_winning_no_need_to_head(self) -> None:
        # N leads KS, E plays 7S: S's partner N is winning.
        assert legal(self.RULES, H, "QS AS 8S", "N", "KS 7S") == cs("QS AS 8S")

    def test_trumped_lead_any_card_of_the_suit(self) -> None:
        # A trump has been played on the plain lead: following with any card of the suit is enough.
        assert legal(self.RULES, H, "AS 7S 9H", "N", "QS 7H") == cs("AS 7S")

    def test_off_suit_discard_does_not_count(self) -> None:
        # N leads QS, E discards AD (off-suit, never wins), S plays 8S: W must beat N's QS.
        assert legal(self.RULES, H, "KS 7S", "N", "QS AD 8S") == cs("KS")


# --------------------------------------------------------------------------------------- R3


class TestR3VoidNoTrump:
    """rules.md R3: "L != T, void in L, no trump -> any card"; seed 003: "S’il ne peut non plus
    fournir une couleur d’atout, il peut défausser, ou pisser"."""

    def test_any_card(self) -> None:
        assert legal(CLASSIC, H, "7D KC AC", "N", "AS") == cs("7D KC AC")

    def test_any_card_over_a_ruff(self) -> None:
        assert legal(CLASSIC, H, "7D KC", "N", "AS 9H") == cs("7D KC")


# --------------------------------------------------------------------------------------- R4


class TestR4PartnerMaster:
    """rules.md R4: "L != T, void in L, pm and play.partner_master_exception: w is a plain card ->
    any card"; seed 003: "quand une couleur (hors atout) est demandé, un joueur n’est pas obligé de
    couper si c’est la carte de son partenaire qui est la plus forte sur la table." """

    def test_partner_winning_with_plain_card_any_card(self) -> None:
        # N leads AS, E plays 7S, S is void in spades.
        assert legal(CLASSIC, H, "7H KD 8C", "N", "AS 7S") == cs("7H KD 8C")

    def test_partner_winning_fourth_seat(self) -> None:
        # N leads 7S, E plays AS (W's partner), S plays 8S: W void, may discard.
        assert legal(CLASSIC, H, "8H QD", "N", "7S AS 8S") == cs("8H QD")

    def test_opponent_winning_must_trump(self) -> None:
        # N leads KS, E beats it with AS: S's opponent is master.
        assert legal(CLASSIC, H, "7H KD", "N", "KS AS") == cs("7H")

    def test_partner_not_played_yet_is_not_master(self) -> None:
        # rules.md: "If your partner has not played yet (you are 2nd to play), he is not master."
        assert legal(CLASSIC, H, "7H KD", "N", "AS") == cs("7H")

    def test_partner_master_even_if_a_later_opponent_may_beat_him(self) -> None:
        # rules.md: "Whether a later opponent could still beat him is irrelevant."
        # N leads 8S, E plays 7S: N is master though W may still beat him.
        assert legal(CLASSIC, H, "7H KD", "N", "8S 7S") == cs("7H KD")


class TestPartnerMasterExceptionTrue:
    """play.partner_master_exception = true (FFB-B16, FFB-WEB, PAGAT, seeds 000, 003). Seed 000:
    "Une exception est très répandue : si votre partenaire tient déjà le pli, vous n’êtes pas
    obligé de couper." """

    def test_may_discard(self) -> None:
        assert legal(CLASSIC, H, "7H JH KD", "N", "AS 7S") == cs("7H JH KD")

    def test_may_still_trump(self) -> None:
        assert cs("7H JH") - legal(CLASSIC, H, "7H JH KD", "N", "AS 7S") == CardSet()


class TestPartnerMasterExceptionFalse:
    """play.partner_master_exception = false (seed 001, PARLETT). Seed 001: "Si un joueur n'a pas la
    couleur demandée, il doit jouer un atout (pour "couper")."; rules.md: "R4 off (no partner
    exception) is what seed 001 and PARLETT's summary literally say: a void player must always ruff
    and overruff, partner or not." """

    RULES = variant(partner_master_exception=False)

    def test_must_trump_over_partner_plain_card(self) -> None:
        assert legal(self.RULES, H, "7H JH KD", "N", "AS 7S") == cs("7H JH")

    def test_must_overtrump_partner_ruff(self) -> None:
        # N leads AS, E ruffs 9H, S plays 7S; W (partner E master) must overruff with JH.
        assert legal(self.RULES, H, "7H JH KD", "N", "AS 9H 7S") == cs("JH")

    def test_partner_ruff_cannot_overtrump_required(self) -> None:
        assert legal(self.RULES, H, "7H QH KD", "N", "AS 9H 7S") == cs("7H QH")

    def test_partner_ruff_cannot_overtrump_optional(self) -> None:
        rules = variant(partner_master_exception=False, undertrump_over_opponent="optional")
        assert legal(rules, H, "7H QH KD", "N", "AS 9H 7S") == cs("7H QH KD")

    def test_strict_1001_ruleset(self) -> None:
        assert legal(find_ruleset("strict-1001"), H, "7H JH KD", "N", "AS 7S") == cs("7H JH")


# Partner ruffed: N leads AS, E ruffs with 9H, S plays 7S, W (partner E master with 9H) is void
# in spades. Over 9H: only JH.
PARTNER_RUFFED = ("N", "AS 9H 7S")


class TestUndertrumpPartnerAllowed:
    """play.undertrump_partner = allowed. rules.md R4: "allowed -> any card  # FFB-B16 §5.2,
    WIKI-FR"."""

    RULES = CLASSIC

    def test_mixed_hand_any_card(self) -> None:
        assert legal(self.RULES, H, "7H JH KD 8C", *PARTNER_RUFFED) == cs("7H JH KD 8C")

    def test_all_trump_hand_any_card(self) -> None:
        assert legal(self.RULES, H, "7H JH", *PARTNER_RUFFED) == cs("7H JH")

    def test_all_trump_hand_all_under(self) -> None:
        assert legal(self.RULES, H, "7H 8H QH", *PARTNER_RUFFED) == cs("7H 8H QH")


class TestUndertrumpPartnerOnlyIfHandIsAllTrumps:
    """play.undertrump_partner = only_if_hand_is_all_trumps. rules.md R4: "others ∪ over  if others
    non-empty, else all trumps  # FFB-C15/K15 rule 4"; registry: "only when his hand holds nothing
    but trumps"."""

    RULES = variant(undertrump_partner="only_if_hand_is_all_trumps")

    def test_mixed_hand_no_undertrump(self) -> None:
        assert legal(self.RULES, H, "7H JH KD 8C", *PARTNER_RUFFED) == cs("JH KD 8C")

    def test_mixed_hand_without_over(self) -> None:
        assert legal(self.RULES, H, "7H QH KD", *PARTNER_RUFFED) == cs("KD")

    def test_all_trump_hand_may_undertrump(self) -> None:
        # Holding JH (over) and 7H: the hand is all trumps, so both are legal.
        assert legal(self.RULES, H, "7H JH", *PARTNER_RUFFED) == cs("7H JH")

    def test_all_trump_hand_all_under(self) -> None:
        assert legal(self.RULES, H, "7H 8H QH", *PARTNER_RUFFED) == cs("7H 8H QH")

    def test_partner_plain_winner_unaffected(self) -> None:
        assert legal(self.RULES, H, "7H KD", "N", "AS 7S") == cs("7H KD")


class TestUndertrumpPartnerOnlyIfForced:
    """play.undertrump_partner = only_if_forced. rules.md R4: "others ∪ over  if that is non-empty,
    else under  # PAGAT, casimirdehauteclocque"; registry: "only when he has no other card (no
    other suit and no higher trump)"."""

    RULES = variant(undertrump_partner="only_if_forced")

    def test_mixed_hand_no_undertrump(self) -> None:
        assert legal(self.RULES, H, "7H JH KD 8C", *PARTNER_RUFFED) == cs("JH KD 8C")

    def test_mixed_hand_without_over(self) -> None:
        assert legal(self.RULES, H, "7H QH KD", *PARTNER_RUFFED) == cs("KD")

    def test_all_trump_hand_with_over_must_overtrump(self) -> None:
        # The trap: the hand is all trumps but JH is "another card", so 7H is not forced.
        assert legal(self.RULES, H, "7H JH", *PARTNER_RUFFED) == cs("JH")

    def test_all_trump_hand_all_under_is_forced(self) -> None:
        assert legal(self.RULES, H, "7H 8H QH", *PARTNER_RUFFED) == cs("7H 8H QH")

    def test_pagat_ruleset(self) -> None:
        assert legal(find_ruleset("pagat"), H, "7H JH", *PARTNER_RUFFED) == cs("JH")


# --------------------------------------------------------------------------------------- R5


class TestR5OpponentMaster:
    """rules.md R5: "w is a trump (already ruffed): over non-empty -> over  # must overtrump ...
    w is a plain card -> trumps  # must ruff, any trump will do". Seed 003: "Si un joueur ne peut
    pas fournir une carte dans la couleur proposée, il doit obligatoirement couper" and "Quand un
    atout a déjà été joué dans le tour, les autres joueurs doit obligatoirement fournir un atout
    plus fort que celui qui est déjà sur la table ("surcoupe")." """

    def test_must_ruff_with_any_trump(self) -> None:
        assert legal(CLASSIC, H, "7H JH KD", "N", "AS") == cs("7H JH")

    def test_must_overtrump_an_opponent_ruff(self) -> None:
        # N leads AS, E ruffs 9H: S must overtrump with JH.
        assert legal(CLASSIC, H, "JH 7H KD", "N", "AS 9H") == cs("JH")

    def test_overtrump_the_best_ruff(self) -> None:
        # N leads AS, E ruffs QH, S overruffs AH; W (opponent S master) holds TH 9H 7H 8D: only 9H.
        assert legal(CLASSIC, H, "TH 9H 7H 8D", "N", "AS QH AH") == cs("9H")

    def test_second_seat_must_trump(self) -> None:
        assert legal(CLASSIC, H, "8H KD", "E", "QS") == cs("8H")


class TestUndertrumpOverOpponentRequired:
    """play.undertrump_over_opponent = required. Seed 003: "S’il ne peut pas fournir un atout plus
    fort, il doit quand même fournir un atout s’il en a. On dit qu’il sous-coupe."; rules.md R5:
    "required -> trumps  # "pisser": FFB-B16, FFB-WEB, PAGAT"."""

    RULES = CLASSIC

    def test_cannot_overruff_must_undertrump(self) -> None:
        # N leads AS, E ruffs 9H; S holds 7H QH (below 9H).
        assert legal(self.RULES, H, "7H QH KD 8C", "N", "AS 9H") == cs("7H QH")

    def test_fourth_seat_below_master_ruff(self) -> None:
        # N leads AS, E ruffs 8H, S overruffs JH: W cannot beat JH.
        assert legal(self.RULES, H, "9H 7H KD", "N", "AS 8H JH") == cs("9H 7H")


class TestUndertrumpOverOpponentOptional:
    """play.undertrump_over_opponent = optional. rules.md: "Under R5 "optional", FFB
    contrée/coinche allow a discard **or** an undertrump"; R5: "optional -> any card"."""

    RULES = variant(undertrump_over_opponent="optional")

    def test_cannot_overruff_any_card(self) -> None:
        assert legal(self.RULES, H, "7H QH KD 8C", "N", "AS 9H") == cs("7H QH KD 8C")

    def test_can_overruff_must(self) -> None:
        assert legal(self.RULES, H, "7H JH KD 8C", "N", "AS 9H") == cs("JH")

    def test_unruffed_trick_must_still_trump(self) -> None:
        assert legal(self.RULES, H, "7H KD", "N", "AS") == cs("7H")


# ------------------------------------------------------------------------------ trick_winner


class TestTrickWinner:
    """rules.md: "Trick winner: the highest trump played, otherwise the highest card of the suit
    led (plain order). Plain cards of other suits never win." """

    def test_trump_beats_plain(self) -> None:
        assert trick_winner(CLASSIC, H, trick("N", "AS 7H")) == Seat.E

    def test_off_suit_never_wins(self) -> None:
        assert trick_winner(CLASSIC, H, trick("N", "7S AD AC KD")) == Seat.N

    def test_highest_trump_wins(self) -> None:
        assert trick_winner(CLASSIC, H, trick("N", "AS 9H JH AH")) == Seat.S

    def test_trump_lead(self) -> None:
        assert trick_winner(CLASSIC, H, trick("W", "8H AS 7H")) == Seat.W

    @pytest.mark.parametrize(("high", "low"), list(itertools.combinations("A T K Q J 9 8 7".split(), 2)))
    def test_plain_order(self, high: str, low: str) -> None:
        # Led suit, plain order A T K Q J 9 8 7.
        assert trick_winner(CLASSIC, H, trick("E", f"{low}S {high}S")) == Seat.S
        assert trick_winner(CLASSIC, H, trick("E", f"{high}S {low}S")) == Seat.E

    @pytest.mark.parametrize(("high", "low"), list(itertools.combinations("J 9 A T K Q 8 7".split(), 2)))
    def test_trump_order(self, high: str, low: str) -> None:
        assert trick_winner(CLASSIC, H, trick("E", f"AS {low}H {high}H")) == Seat.W

    def test_empty_trick_raises(self) -> None:
        with pytest.raises(ValueError):
            trick_winner(CLASSIC, H, trick("N"))


# --------------------------------------------------------------------------- explain_illegal


def explain(rules: Ruleset, trump: Suit, hand: str, leader: str, cards: str, card: str) -> Violation | None:
    return explain_illegal(rules, trump, CardSet.parse(hand), trick(leader, cards), CARDS[parse_cards(card)[0]])


class TestExplainIllegal:
    """Each forbidden case reports the rule id that an app author broke (see the docstring of
    explain_illegal)."""

    def test_legal_card_is_none(self) -> None:
        assert explain(CLASSIC, H, "7H QH KD", "N", "AS 9H", "QH") is None
        assert explain(CLASSIC, H, "7H QH KD", "N", "", "KD") is None

    def test_card_not_in_hand(self) -> None:
        violation = explain(CLASSIC, H, "7H QH KD", "N", "AS 9H", "AD")
        assert violation is not None
        assert (violation.code, violation.rule) == ("card_not_in_hand", RULE_CARD_IN_HAND)
        assert violation.allowed == cs("7H QH")

    def test_follow_suit_plain(self) -> None:
        # Seed 003: "Les autres joueurs doivent alors fournir une carte dans la couleur proposée."
        violation = explain(CLASSIC, H, "7S 9H", "N", "AS", "9H")
        assert violation is not None
        assert (violation.code, violation.rule, violation.card, violation.allowed) == (
            "illegal_play", RULE_FOLLOW_SUIT, parse_cards("9H")[0], cs("7S"))
        assert violation.message == "E must follow suit S: holds 7S"
        assert isinstance(violation, Violation)

    def test_follow_suit_trump_lead(self) -> None:
        violation = explain(CLASSIC, H, "7H KD", "N", "JH", "KD")
        assert violation is not None and violation.rule == RULE_FOLLOW_SUIT
        assert violation.allowed == cs("7H")

    def test_follow_suit_under_must_head(self) -> None:
        violation = explain(variant(must_head_plain_suit=True), H, "AS 7S 9H", "N", "KS", "9H")
        assert violation is not None and violation.rule == RULE_FOLLOW_SUIT

    def test_must_overtrump_on_trump_lead_over_opponent(self) -> None:
        # Seed 000: "les suivants doivent monter"
        violation = explain(CLASSIC, H, "JH 8H", "N", "7H AH", "8H")
        assert violation is not None and violation.rule == RULE_MUST_OVERTRUMP
        assert violation.allowed == cs("JH")
        assert "overtrump AH" in violation.message

    def test_must_overtrump_opponent_ruff(self) -> None:
        # Seed 003: "doit obligatoirement fournir un atout plus fort que celui qui est déjà sur la table"
        for card in ("7H", "KD"):
            violation = explain(CLASSIC, H, "JH 7H KD", "N", "AS 9H", card)
            assert violation is not None and violation.rule == RULE_MUST_OVERTRUMP, card
            assert violation.allowed == cs("JH")

    def test_must_trump(self) -> None:
        # Seed 003: "il doit obligatoirement couper"
        violation = explain(CLASSIC, H, "7H KD", "N", "AS", "KD")
        assert violation is not None and violation.rule == RULE_MUST_TRUMP
        assert violation.allowed == cs("7H")

    def test_trump_lead_overtrump_over_partner(self) -> None:
        violation = explain(CLASSIC, H, "JH 8H KD", "N", "AH 7H", "8H")
        assert violation is not None and violation.rule == "play.trump_lead_overtrump"
        assert violation.allowed == cs("JH")
        # Under the relaxed value the same card is legal.
        assert explain(variant(trump_lead_overtrump="except_partner_winning"), H, "JH 8H KD", "N", "AH 7H", "8H") is None

    def test_must_head_plain_suit(self) -> None:
        violation = explain(variant(must_head_plain_suit=True), H, "QS AS 7S", "N", "KS", "7S")
        assert violation is not None and violation.rule == "play.must_head_plain_suit"
        assert violation.allowed == cs("AS")

    def test_partner_master_exception_off_discard(self) -> None:
        violation = explain(variant(partner_master_exception=False), H, "7H KD", "N", "AS 7S", "KD")
        assert violation is not None and violation.rule == "play.partner_master_exception"
        assert violation.allowed == cs("7H")

    def test_partner_master_exception_off_under_partner_ruff(self) -> None:
        rules = variant(partner_master_exception=False)
        for card in ("7H", "KD"):
            violation = explain(rules, H, "7H JH KD", *PARTNER_RUFFED, card)
            assert violation is not None and violation.rule == "play.partner_master_exception", card
            assert violation.allowed == cs("JH")

    def test_partner_master_exception_off_overtrump_still_required_by_base_rule(self) -> None:
        # With the exception on, only_if_forced would still forbid 7H (JH and KD are other cards):
        # the exception made no difference, so the base rule is reported.
        rules = variant(partner_master_exception=False, undertrump_partner="only_if_forced")
        violation = explain(rules, H, "7H JH KD", *PARTNER_RUFFED, "7H")
        assert violation is not None and violation.rule == RULE_MUST_OVERTRUMP

    @pytest.mark.parametrize("value", ["only_if_hand_is_all_trumps", "only_if_forced"])
    def test_undertrump_partner(self, value: str) -> None:
        violation = explain(variant(undertrump_partner=value), H, "7H QH KD", *PARTNER_RUFFED, "7H")
        assert violation is not None and violation.rule == "play.undertrump_partner"
        assert violation.allowed == cs("KD")
        assert value in violation.message

    def test_undertrump_partner_unless_holding_higher(self) -> None:
        rules = variant(undertrump_partner="unless_holding_higher")
        violation = explain(rules, H, "7H JH KD", *PARTNER_RUFFED, "7H")
        assert violation is not None and violation.rule == "play.undertrump_partner"
        assert violation.allowed == cs("JH KD") and "unless_holding_higher" in violation.message
        # Without a trump above the partner's nine, the seven under it is free.
        assert explain(rules, H, "7H QH KD", *PARTNER_RUFFED, "7H") is None

    def test_partner_undertrump_required_apart_from_the_opponents(self) -> None:
        rules = variant(partner_master_exception=False, undertrump_over_opponent="optional",
                        undertrump_partner_no_exception="required")
        violation = explain(rules, H, "7H QH KD", *PARTNER_RUFFED, "KD")
        assert violation is not None and violation.rule == "play.undertrump_partner_no_exception"
        assert violation.allowed == cs("7H QH") and "required" in violation.message
        # Over an opponent's ruff the same hand may discard (undertrump_over_opponent optional).
        assert explain(rules, H, "7H QH KD", "N", "AS 9H", "KD") is None

    def test_partner_undertrump_optional_apart_from_the_opponents(self) -> None:
        rules = variant(partner_master_exception=False, undertrump_partner_no_exception="optional")
        assert explain(rules, H, "7H QH KD", *PARTNER_RUFFED, "KD") is None
        violation = explain(rules, H, "7H QH KD", "N", "AS 9H", "KD")  # an opponent ruffed: required still
        assert violation is not None and violation.rule == "play.undertrump_over_opponent"

    def test_undertrump_partner_forced_with_over(self) -> None:
        violation = explain(variant(undertrump_partner="only_if_forced"), H, "7H JH", *PARTNER_RUFFED, "7H")
        assert violation is not None and violation.rule == "play.undertrump_partner"
        assert violation.allowed == cs("JH")

    def test_undertrump_over_opponent_required(self) -> None:
        # Seed 003: "il doit quand même fournir un atout s’il en a. On dit qu’il sous-coupe."
        violation = explain(CLASSIC, H, "7H QH KD", "N", "AS 9H", "KD")
        assert violation is not None and violation.rule == "play.undertrump_over_opponent"
        assert violation.allowed == cs("7H QH")
        assert "required" in violation.message

    def test_complete_trick_raises(self) -> None:
        with pytest.raises(ValueError):
            explain(CLASSIC, H, "7D", "N", "AS KS QS JS", "7D")


# ------------------------------------------------------------------------------- properties

SHIPPED = [find_ruleset(ruleset_id) for ruleset_id in shipped_rulesets()]
COMBINATIONS = [
    variant(**{pid.partition(".")[2]: value for pid, value in zip(PLAY_PARAMETERS, values, strict=True)})
    for values in itertools.product(*(load_registry()[pid].values for pid in PLAY_PARAMETERS))
]
ALL_RULE_IDS = {RULE_CARD_IN_HAND, RULE_FOLLOW_SUIT, RULE_MUST_TRUMP, RULE_MUST_OVERTRUMP, *PLAY_PARAMETERS}


@st.composite
def positions(draw: st.DrawFn) -> tuple[Suit, CardSet, Trick]:
    """A trump, a hand and a trick of distinct cards (trick cards need not be legal plays).

    Biased towards the rare rungs: half the time a later card of the trick is a trump (a ruff, or
    an overtrump on a trump lead), and half the time the hand is void in the led suit.
    """
    deck = list(draw(st.permutations(range(32))))
    played = draw(st.integers(0, 3))
    size = draw(st.integers(0, 8))
    leader = draw(st.sampled_from(list(Seat)))
    trump = draw(st.sampled_from(list(Suit)))
    cards, rest = deck[:played], deck[played:]
    if played >= 2 and draw(st.booleans()):
        index = draw(st.integers(1, played - 1))
        spare = next(card for card in rest if card >> 3 == trump)
        rest[rest.index(spare)] = cards[index]
        cards[index] = spare
    if played and draw(st.booleans()):
        rest = [card for card in rest if card >> 3 != cards[0] >> 3]
    return trump, CardSet(rest[:size]), Trick(leader, tuple(CARDS[c] for c in cards))


def oracle(rules: Ruleset, trump: Suit, hand: CardSet, the_trick: Trick) -> CardSet:
    """rules.md §1.6 restated through trick_winner: "over" = the trumps that would win the trick."""
    if not the_trick.cards or not hand:
        return hand
    me = the_trick.next_seat
    winner_seat = trick_winner(rules, trump, the_trick)
    winner = the_trick.cards[(winner_seat - the_trick.leader) & 3]
    pm = winner_seat == me.partner
    led = the_trick.cards[0].suit
    same, trumps = hand.of_suit(led), hand.of_suit(trump)
    others = hand - trumps

    def wins(card: int) -> bool:
        return trick_winner(rules, trump, Trick(the_trick.leader, (*the_trick.cards, CARDS[card]))) == me

    over = CardSet(c for c in trumps if wins(c)) if winner.suit == trump else CardSet()
    if led == trump:
        if not same:
            return hand
        if over and not (rules["play.trump_lead_overtrump"] == "except_partner_winning" and pm):
            return over
        return same
    if same:
        if rules["play.must_head_plain_suit"] and not pm and winner.suit == led:
            beat = CardSet(c for c in same if wins(c))
            return beat or same
        return same
    if not trumps:
        return hand
    if pm and rules["play.partner_master_exception"]:
        mode = rules["play.undertrump_partner"]
        if winner.suit != trump or mode == "allowed":
            return hand
        if mode == "only_if_hand_is_all_trumps":
            return others | over if others else trumps
        if mode == "unless_holding_higher":
            return others | over if over else hand
        return (others | over) or (trumps - over)
    if winner.suit == trump:
        if over:
            return over
        obligation = rules["play.undertrump_over_opponent"]
        if pm and rules["play.undertrump_partner_no_exception"] != "same_as_opponent":
            obligation = rules["play.undertrump_partner_no_exception"]
        return trumps if obligation == "required" else hand
    return trumps


class TestProperties:
    @settings(max_examples=400, deadline=None)
    @given(st.sampled_from(SHIPPED), positions())
    def test_shipped_rulesets(self, rules: Ruleset, position: tuple[Suit, CardSet, Trick]) -> None:
        trump, hand, the_trick = position
        result = legal_plays(rules, trump, hand, the_trick)
        assert bool(result) == bool(hand), "legal plays are never empty for a non-empty hand"
        assert result - hand == CardSet(), "legal plays are a subset of the hand"
        if the_trick.cards and hand.of_suit(the_trick.cards[0].suit):
            led = the_trick.cards[0].suit
            assert result - CardSet.suit(led) == CardSet(), "holding the led suit, only it may be played"
        assert legal_mask(rules, trump, hand.mask, the_trick.leader, the_trick.cards) == result.mask
        assert result == oracle(rules, trump, hand, the_trick)
        for card in hand:
            violation = explain_illegal(rules, trump, hand, the_trick, card)
            assert (violation is None) == (card in result)
            if violation is not None:
                assert violation.code == "illegal_play" and violation.allowed == result
                assert violation.rule in ALL_RULE_IDS

    @settings(max_examples=1500, deadline=None)
    @given(st.sampled_from(COMBINATIONS), positions())
    def test_every_parameter_combination(self, rules: Ruleset, position: tuple[Suit, CardSet, Trick]) -> None:
        trump, hand, the_trick = position
        mask = legal_mask(rules, trump, hand.mask, the_trick.leader, the_trick.cards)
        assert bool(mask) == bool(hand) and mask & ~hand.mask == 0
        assert CardSet(mask) == oracle(rules, trump, hand, the_trick)
        if the_trick.cards:
            ladder_mask, _ = _ladder(_PlayPolicy.of(rules), _Position.of(rules, trump, hand.mask, the_trick.cards))
            assert ladder_mask == mask
        for card in hand:
            violation = explain_illegal(rules, trump, hand, the_trick, card)
            assert (violation is None) == bool(mask >> card & 1)
            if violation is not None:
                assert violation.rule in ALL_RULE_IDS and violation.message

    def test_combinations_cover_every_value(self) -> None:
        assert len(COMBINATIONS) == 2 * 2 * 2 * 4 * 2 * 3
