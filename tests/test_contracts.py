"""Sans-atout (SA) and tout-atout (TA) contracts: registry, compiled tables, play, auction, scoring,
the protocol's handlers and the ``play`` kind, and random deals under ``classic-sa-ta``.

The rule values tested here are those of the registry's sources: FFB-B16 §11 (sans-atout: A 19,
T 10, K 4, Q 3, J 2, no ruffing, no belote; tout-atout: the trump order and values in every suit,
going over the best card, up to four belotes, 258 points brought back to 162), FFB-K15 and
FFB-C15 (the 13-9-6-5-3-2 tout-atout scale, the carrés), PAGAT (the 14-9-6-5-3-1 scale) and
WIKI-EN (no obligation to go over a winning partner).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_ref import CARDS, DECK, CardSet, Ruleset, Seat, Suit, Team, find_ruleset
from belote_ref.engine.announcements import Declaration, best_team, combinations, make_combination
from belote_ref.core.cards import Card, Rank, Trump, parse_cards, trump_of
from belote_ref.cli import main
from belote_ref.engine.deal import Auction, DealState, Phase, complete_hands, deal_first_hands, play_out, run_auction
from belote_ref.core.errors import BeloteRefError, IllegalCallError, IllegalPlayError, NotationError, RulesetError
from belote_ref.engine.play import (
    RULE_FOLLOW_SUIT,
    RULE_TA_MUST_HEAD,
    RULE_TA_PARTNER_RELIEF,
    Trick,
    _ladder,
    _PlayPolicy,
    _Position,
    explain_illegal,
    legal_mask,
    legal_plays,
    trick_points,
    trick_winner,
)
from belote_ref.protocol.serve import KINDS, GivenError, answer, run_case
from belote_ref.records.record import records_from_json_lines, replay, write_record
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import shipped_rulesets
from belote_ref.engine.score_sheet import convert_points as _convert
from belote_ref.engine.scoring import InconsistentDealError, deal_total, score_deal
from belote_ref.engine.simulate import random_deal

SA_TA = find_ruleset("classic-sa-ta")
CLASSIC = find_ruleset("classic")
FFB15 = {"J": 13, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 2, "8": 0, "7": 0}
PAGAT = {"J": 14, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 1, "8": 0, "7": 0}


def variant(**changes: Any) -> Ruleset:
    """classic-sa-ta with parameters changed (``tout_atout__partner_relief=True``)."""
    params = dict(SA_TA.params)
    params.update({key.replace("__", "."): value for key, value in changes.items()})
    return Ruleset.from_parameters(params, id="test-contracts")


def cards(text: str) -> CardSet:
    return CardSet.parse(text)


def trick(leader: str, text: str = "") -> Trick:
    return Trick(Seat.parse(leader), tuple(parse_cards(text)))


# ------------------------------------------------------------------------------------ registry


class TestRegistry:
    def test_contract_parameters_and_their_sources(self) -> None:
        registry = load_registry()
        contracts = registry["bidding.contracts"]
        assert contracts.values == (["suit"], ["suit", "sans_atout", "tout_atout"])
        assert "FFB-B16" in contracts.sources_of(["suit", "sans_atout", "tout_atout"])
        assert registry["sans_atout.card_points"].default == {"A": 19, "T": 10, "K": 4, "Q": 3, "J": 2,
                                                             "9": 0, "8": 0, "7": 0}
        assert registry["tout_atout.card_order"].default == ["J", "9", "A", "T", "K", "Q", "8", "7"]
        assert registry["tout_atout.partner_relief"].sources_of(True) == ("WIKI-EN",)
        assert registry["tout_atout.partner_relief"].sources_of(False) == ("FFB-B16", "FFB-K15", "FFB-C15")
        scales = registry["tout_atout.card_points"]
        assert FFB15 in scales.values and PAGAT in scales.values
        assert scales.sources_of(PAGAT) == ("PAGAT", "WIKI-FR")
        assert registry["tout_atout.scale_to"].sources_of(162)[:2] == ("FFB-B16", "FFB-C16")
        assert "WIKI-EN" in registry.sources

    def test_contract_list_needs_a_suit_and_known_contracts(self) -> None:
        contracts = load_registry()["bidding.contracts"]
        assert contracts.allows(["suit", "tout_atout"]) and contracts.allows(["suit", "sans_atout", "tout_atout"])
        assert not contracts.allows(["sans_atout"])
        assert not contracts.allows(["suit", "misere"])
        assert not contracts.allows(["suit", "suit"])

    def test_classic_sa_ta_only_adds_the_contracts(self) -> None:
        assert SA_TA.parent == "classic"
        assert {pid for pid in SA_TA.params if SA_TA[pid] != CLASSIC[pid]} == {"bidding.contracts"}
        assert SA_TA.title["fr"].startswith("Belote classique")
        assert SA_TA.trumps == frozenset(Trump)
        assert CLASSIC.trumps == frozenset({Trump.S, Trump.H, Trump.D, Trump.C})

    def test_no_other_shipped_ruleset_plays_them(self) -> None:
        # Of the classic auction; in the bidding family, FFB coinche bids SA and TA too.
        for ruleset_id in shipped_rulesets():
            rules = find_ruleset(ruleset_id)
            assert (Trump.SA in rules.trumps) == (ruleset_id in ("classic-sa-ta", "ffb-coinche-2015"))

    def test_the_pack_must_make_152_at_sans_atout(self) -> None:
        with pytest.raises(RulesetError, match="sans-atout points must total 152"):
            variant(sans_atout__card_points={"A": 19, "T": 10, "K": 4, "Q": 3, "J": 0, "9": 0, "8": 0, "7": 0})

    def test_a_tout_atout_deal_is_converted_only_when_its_table_misses_the_total(self) -> None:
        assert SA_TA.scale[Trump.TA] == (162, 258, "nearest")
        assert variant(tout_atout__card_points=FFB15).scale[Trump.TA] is None  # 4 x 38 + 10 = 162 already
        assert variant(tout_atout__scale_to=258).scale[Trump.TA] is None  # a house rule counting the raw 258
        assert deal_total(variant(tout_atout__scale_to=258), Trump.TA) == 258
        nothing = {rank: 0 for rank in "789TJQKA"}
        with pytest.raises(RulesetError, match="must hold some points"):
            variant(tout_atout__card_points=nothing, scoring__last_trick_bonus=0)
        assert not load_registry()["tout_atout.scale_to"].allows(0)


# ------------------------------------------------------------------------------ notation, tables


class TestTrumpAndTables:
    def test_trump_notation(self) -> None:
        assert [t.letter for t in Trump] == ["S", "H", "D", "C", "SA", "TA"]
        assert Trump.parse("SA") is Trump.SA and Trump.parse("H") is Trump.H
        assert Trump.H.suit is Suit.H and Trump.TA.suit is None
        assert trump_of(1) is Suit.H and trump_of(5) is Trump.TA
        assert Suit.H == Trump.H  # a Suit serves wherever a Trump is expected
        for bad in ("NT", "sa", "", "10"):
            with pytest.raises(NotationError, match="not a contract"):
                Trump.parse(bad)

    @staticmethod
    def check_every_suit(trump: Trump, order: str, suit_points: int) -> None:
        """Each suit's cards rank by ``order`` (highest first) and total ``suit_points``; none ruffs."""
        strength, points = SA_TA.strength[trump], SA_TA.points[trump]
        for suit in Suit:
            ranked = sorted(range(8 * suit, 8 * suit + 8), key=lambda c: -strength[c])
            assert [str(CARDS[c])[0] for c in ranked] == list(order)
            assert sum(points[8 * suit:8 * suit + 8]) == suit_points
        assert max(strength) < 8

    def test_sans_atout_row_is_the_plain_order_with_an_ace_of_19(self) -> None:
        self.check_every_suit(Trump.SA, "ATKQJ987", 38)
        points = SA_TA.points[Trump.SA]
        assert points[Card.of(Rank.ACE, Suit.C)] == 19 and points[Card.of(Rank.JACK, Suit.C)] == 2
        assert deal_total(SA_TA, Trump.SA) == 162

    def test_tout_atout_row_is_the_trump_order_in_every_suit(self) -> None:
        self.check_every_suit(Trump.TA, "J9ATKQ87", 62)
        assert SA_TA.scale[Trump.TA] == (162, 258, "nearest")
        assert deal_total(SA_TA, Trump.TA) == 162
        ffb = variant(tout_atout__card_points=FFB15)
        assert sum(ffb.points[Trump.TA]) == 152 and deal_total(ffb, Trump.TA) == 162

    def test_carres_and_belote_suits_per_contract(self) -> None:
        assert SA_TA.carres[Trump.SA][Rank.ACE] == 200 and SA_TA.carres[Trump.SA][Rank.TEN] == 150
        assert SA_TA.carres[Trump.SA][Rank.JACK] == 100 and SA_TA.carres[Trump.SA][Rank.EIGHT] == 0
        assert SA_TA.carres[Trump.TA] == SA_TA.carres[Trump.H]
        assert SA_TA.belote_suits[Trump.H] == (Suit.H,)
        assert SA_TA.belote_suits[Trump.SA] == ()
        assert SA_TA.belote_suits[Trump.TA] == tuple(Suit)


# ----------------------------------------------------------------------------- tricks and play


class TestTricks:
    def test_sans_atout_winner_is_the_highest_of_the_suit_led(self) -> None:
        assert trick_winner(SA_TA, Trump.SA, trick("N", "KH AH 7H AS")) is Seat.E
        assert trick_winner(SA_TA, Trump.SA, trick("N", "7C AS AH AD")) is Seat.N
        assert trick_winner(SA_TA, Trump.SA, trick("W", "9D TD KD JD")) is Seat.N
        assert trick_points(SA_TA, Trump.SA, parse_cards("7C AS AH AD")) == 57

    def test_tout_atout_winner_is_the_highest_of_the_suit_led(self) -> None:
        assert trick_winner(SA_TA, Trump.TA, trick("N", "AC 9C KC QC")) is Seat.E
        # other suits, jacks included, cannot win: there is no ruffing at tout-atout
        assert trick_winner(SA_TA, Trump.TA, trick("N", "7S JH 9D JC")) is Seat.N
        assert trick_points(SA_TA, Trump.TA, parse_cards("7S JH 9D JC")) == 54
        ffb = variant(tout_atout__card_points=FFB15)
        assert trick_points(ffb, Trump.TA, parse_cards("7S JH 9D JC")) == 35

    def test_the_same_trick_at_a_suit_contract_differs(self) -> None:
        assert trick_winner(SA_TA, Suit.H, trick("N", "7S JH 9D JC")) is Seat.E


class TestLegalPlays:
    def test_sans_atout_follow_suit_else_any_card(self) -> None:
        assert legal_plays(SA_TA, Trump.SA, cards("7H AH 9S JD"), trick("N", "KH")) == cards("7H AH")
        assert legal_plays(SA_TA, Trump.SA, cards("7H 8D 9C"), trick("N", "AS 7S 8S")) == cards("7H 8D 9C")
        assert legal_plays(SA_TA, Trump.SA, cards("7H 8D 9C"), trick("N")) == cards("7H 8D 9C")

    def test_sans_atout_heads_only_under_must_head_plain_suit(self) -> None:
        head = variant(play__must_head_plain_suit=True)
        assert legal_plays(head, Trump.SA, cards("JS KS AH"), trick("E", "QS 9S 7S")) == cards("KS")
        assert legal_plays(head, Trump.SA, cards("8C KC TS"), trick("W", "QC 7C")) == cards("8C KC")
        violation = explain_illegal(head, Trump.SA, cards("JS KS AH"), trick("E", "QS 9S 7S"), parse_cards("JS")[0])
        assert violation is not None and violation.rule == "play.must_head_plain_suit"

    def test_sans_atout_ignores_the_trump_parameters(self) -> None:
        hand, position = cards("7S AH TC JC"), trick("S", "9D")
        for name, values in (("play__partner_master_exception", (True, False)),
                             ("play__undertrump_over_opponent", ("required", "optional"))):
            for value in values:
                assert legal_plays(variant(**{name: value}), Trump.SA, hand, position) == hand

    def test_tout_atout_must_go_over(self) -> None:
        assert legal_plays(SA_TA, Trump.TA, cards("7H JH AS"), trick("N", "9H")) == cards("JH")
        assert legal_plays(SA_TA, Trump.TA, cards("7H 9H AS"), trick("N", "JH")) == cards("7H 9H")
        assert legal_plays(SA_TA, Trump.TA, cards("8D TD QD 9D 8S"), trick("S", "7D KD AD")) == cards("9D")
        violation = explain_illegal(SA_TA, Trump.TA, cards("7H JH AS"), trick("N", "9H"), parse_cards("7H")[0])
        assert violation is not None and violation.rule == RULE_TA_MUST_HEAD and "JH" in violation.message

    def test_tout_atout_void_discards_any_card(self) -> None:
        assert legal_plays(SA_TA, Trump.TA, cards("7S AH 9D"), trick("N", "8C JC")) == cards("7S AH 9D")

    def test_tout_atout_partner_relief(self) -> None:
        hand, position = cards("8H JH AS"), trick("N", "9H 7H")
        assert legal_plays(SA_TA, Trump.TA, hand, position) == cards("JH")
        violation = explain_illegal(SA_TA, Trump.TA, hand, position, parse_cards("8H")[0])
        assert violation is not None and violation.rule == RULE_TA_PARTNER_RELIEF
        relieved = variant(tout_atout__partner_relief=True)
        assert legal_plays(relieved, Trump.TA, hand, position) == cards("8H JH")
        # relief is about the partner only: an opponent's winning card must still be beaten
        assert legal_plays(relieved, Trump.TA, cards("8S KS TH"), trick("N", "7S QS")) == cards("KS")

    def test_following_suit_is_the_first_rule_at_every_contract(self) -> None:
        for trump in (Trump.SA, Trump.TA):
            violation = explain_illegal(SA_TA, trump, cards("7S JS 7H"), trick("N", "AS"), parse_cards("7H")[0])
            assert violation is not None and violation.rule == RULE_FOLLOW_SUIT


POLICIES = [variant(play__must_head_plain_suit=head, tout_atout__partner_relief=relief)
            for head in (False, True) for relief in (False, True)]


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_fast_and_readable_ladders_agree_at_sa_and_ta(data: st.DataObject) -> None:
    """legal_mask (the fast path) and the readable ladder give the same set, and explain_illegal
    names a rule for every card left out, at SA and TA under each heading policy."""
    rules = data.draw(st.sampled_from(POLICIES), label="rules")
    trump = data.draw(st.sampled_from([Trump.SA, Trump.TA]), label="trump")
    deck = data.draw(st.permutations(list(CARDS)), label="deck")
    played = data.draw(st.integers(1, 3), label="played")
    size = data.draw(st.integers(1, 8), label="hand size")
    leader = data.draw(st.sampled_from(list(Seat)), label="leader")
    position = Trick(leader, tuple(deck[:played]))
    hand = CardSet(deck[4:4 + size])
    mask = legal_mask(rules, trump, hand.mask, leader, position.cards)
    ladder, _ = _ladder(_PlayPolicy.of(rules), _Position.of(rules, trump, hand.mask, position.cards))
    assert ladder == mask and mask and mask & ~hand.mask == 0
    led = hand.of_suit(position.cards[0].suit)
    assert not led or CardSet(mask) - led == CardSet()
    for card in hand - CardSet(mask):
        violation = explain_illegal(rules, trump, hand, position, card)
        assert violation is not None and violation.code == "illegal_play"


# ------------------------------------------------------------------------------------ auction


class TestAuction:
    turned = parse_cards("QH")[0]

    def test_round_two_offers_sa_and_ta_where_allowed(self) -> None:
        status = run_auction(SA_TA, Seat.W, self.turned, ["pass"] * 4)
        assert status.legal == ("pass", "S", "D", "C", "SA", "TA")
        assert run_auction(CLASSIC, Seat.W, self.turned, ["pass"] * 4).legal == ("pass", "S", "D", "C")
        only_ta = variant(bidding__contracts=["suit", "tout_atout"])
        assert run_auction(only_ta, Seat.W, self.turned, ["pass"] * 4).legal[-1] == "TA"

    def test_naming_sa_or_ta_takes(self) -> None:
        for call, trump in (("SA", Trump.SA), ("TA", Trump.TA)):
            status = run_auction(SA_TA, Seat.W, self.turned, ["pass"] * 5 + [call])
            assert status.status == "taken" and status.trump is trump and status.taker is Seat.E and status.round == 2
            assert status.to_json() == {"status": "taken", "taker": "E", "trump": call, "round": 2}

    def test_sa_is_illegal_in_round_one_and_where_not_allowed(self) -> None:
        with pytest.raises(IllegalCallError, match="round 1"):
            run_auction(SA_TA, Seat.W, self.turned, ["SA"])
        with pytest.raises(IllegalCallError, match="bidding.contracts") as caught:
            run_auction(CLASSIC, Seat.W, self.turned, ["pass"] * 4 + ["TA"])
        assert caught.value.index == 4

    def test_the_forced_third_round_names_a_suit(self) -> None:
        third = variant(bidding__all_pass="forced_third_round")
        assert run_auction(third, Seat.W, self.turned, ["pass"] * 8).legal == ("S", "H", "D", "C")

    def test_the_turned_card_goes_to_a_round_two_taker(self) -> None:
        deck = list(CARDS)
        random.Random(4).shuffle(deck)
        first, turned = deal_first_hands(SA_TA, Seat.S, deck)
        state = DealState.from_deck(SA_TA, Seat.S, deck)
        for call in ["pass"] * 4 + ["pass", "TA"]:
            state.call(call)
        assert state.taker is Seat.N and state.trump is Trump.TA and state.phase is Phase.PLAY
        assert turned in state.full_hands[Seat.N] and len(state.full_hands[Seat.N]) == 8
        assert state.full_hands == complete_hands(SA_TA, Seat.S, deck, Seat.N)
        assert first[Seat.N].mask & ~state.full_hands[Seat.N].mask == 0


# ------------------------------------------------------------------------------------ scoring


def played_deal(spec: list[tuple[str, str]]) -> list[Trick]:
    return [trick(leader, text) for leader, text in spec]


TA_BELOTES = played_deal([("N", "7S 8S QS KS"), ("W", "TS JS 9S AS"), ("N", "QH JH 8H TH"), ("E", "7H 9H AH KH"),
                          ("S", "7D TD AD QD"), ("N", "8D KD JD 9D"), ("S", "KC JC TC 8C"), ("W", "QC 9C AC 7C")])


class TestScoring:
    def test_the_ffb_conversion_example(self) -> None:
        assert _convert(198, (162, 258, "nearest")) == 124  # FFB-B16 §11.3: 198 x 162 / 258 -> 124

    def test_converted_sides_always_make_162(self) -> None:
        for raw in range(259):
            assert _convert(raw, (162, 258, "nearest")) + _convert(258 - raw, (162, 258, "nearest")) == 162

    def test_two_belotes_at_tout_atout(self) -> None:
        score = score_deal(SA_TA, dealer=Seat.W, taker=Seat.N, trump=Trump.TA, tricks=TA_BELOTES,
                           belote={Suit.H: Seat.N, Suit.D: Seat.E})
        assert score.card_points == {Team.NS: 116, Team.EW: 46}
        assert score.belote == {Suit.H: Team.NS, Suit.D: Team.EW}
        assert score.deal_score == {Team.NS: 136, Team.EW: 66}
        assert score.to_json()["belote"] == {"H": "NS", "D": "EW"}
        lines = {line.rule for line in score.lines}
        assert "tout_atout.scale_to" in lines and "cards.trump_points" not in lines

    def test_automatic_belote_credits_every_suit(self) -> None:
        automatic = variant(belote__announcement="automatic")
        score = score_deal(automatic, dealer=Seat.W, taker=Seat.N, trump=Trump.TA, tricks=TA_BELOTES, belote=None)
        assert score.belote == {Suit.H: Team.NS, Suit.D: Team.EW}

    @pytest.mark.parametrize("belote, message", [
        (Seat.N, "without a suit"),
        ({Suit.H: Seat.E}, "did not play both the king and the queen of H"),
        ({Suit.S: Seat.W}, "did not play both"),
    ])
    def test_inconsistent_belotes_at_tout_atout(self, belote: Any, message: str) -> None:
        with pytest.raises(InconsistentDealError, match=message) as caught:
            score_deal(SA_TA, dealer=Seat.W, taker=Seat.N, trump=Trump.TA, tricks=TA_BELOTES, belote=belote)
        assert caught.value.code == "bad_belote" and caught.value.index == 0

    def test_no_belote_at_sans_atout(self) -> None:
        tricks = [Trick(t.leader, t.cards) for t in TA_BELOTES]
        with pytest.raises(InconsistentDealError, match="no belote"):
            score_deal(SA_TA, dealer=Seat.W, taker=Seat.N, trump=Trump.SA, tricks=_consistent(tricks, Trump.SA),
                       belote=Seat.N)

    def test_the_scale_changes_the_card_points_not_the_rules(self) -> None:
        ffb = variant(tout_atout__card_points=FFB15)
        converted = score_deal(SA_TA, dealer=Seat.W, taker=Seat.N, trump=Trump.TA, tricks=TA_BELOTES, belote=None)
        unconverted = score_deal(ffb, dealer=Seat.W, taker=Seat.N, trump=Trump.TA, tricks=TA_BELOTES, belote=None)
        assert converted.card_points == unconverted.card_points == {Team.NS: 116, Team.EW: 46}
        assert {line.rule for line in unconverted.lines} >= {"tout_atout.card_points", "scoring.last_trick_bonus"}


def _consistent(tricks: list[Trick], trump: Trump) -> list[Trick]:
    """The same cards with each trick led by the winner of the previous one under ``trump``."""
    out, leader = [], tricks[0].leader
    for t in tricks:
        rotated = Trick(leader, t.cards)
        out.append(rotated)
        leader = trick_winner(SA_TA, trump, rotated)
    return out


# ---------------------------------------------------------------------------- protocol, play kind


BELOTE_HANDS = {"N": "JS 7S KH QH AD 8D 9C TC", "E": "9S 8S JH 7H KD QD AC 8C",
                "S": "AS QS 9H 8H JD 7D KC 7C", "W": "TS KS AH TH 9D TD JC QC"}


def play_given(**changes: Any) -> dict[str, Any]:
    given: dict[str, Any] = {
        "hands": {seat: hand.split() for seat, hand in BELOTE_HANDS.items()},
        "contract": {"trump": "TA", "taker": "N"}, "leader": "N",
        "plays": [str(card) for t in TA_BELOTES for card in t.cards],
        "belote": {"H": "N", "D": "E"}, "announcements": [],
    }
    given.update(changes)
    return given


class TestProtocol:
    def test_play_is_a_kind(self) -> None:
        assert "play" in KINDS

    def test_trump_tokens_in_every_handler(self) -> None:
        given = {"trump": "TA", "seat": "E", "hand": ["7H", "JH", "AS"], "trick": {"leader": "N", "cards": ["9H"]}}
        assert run_case(SA_TA, "legal_plays", given) == {"legal": ["JH"]}
        assert run_case(SA_TA, "trick_winner", {"trump": "SA", "trick": {"leader": "N", "cards": ["KH", "AH", "7H", "AS"]}}) \
            == {"winner": "E", "points": 42}
        found = run_case(SA_TA, "announcements", {"trump": "SA", "hand": "AS AH AD AC 7S 9H JD QC".split()})
        assert found == {"combinations": [{"kind": "carre", "cards": ["AS", "AH", "AD", "AC"], "points": 200}]}

    def test_a_contract_the_ruleset_does_not_play_is_bad_input(self) -> None:
        given = {"trump": "SA", "trick": {"leader": "N", "cards": ["KH", "AH", "7H", "AS"]}}
        with pytest.raises(GivenError, match="bidding.contracts"):
            run_case(CLASSIC, "trick_winner", given)
        with pytest.raises(BeloteRefError, match="not a contract"):
            run_case(SA_TA, "trick_winner", {**given, "trump": "NT"})
        reply = answer({"cmd": "run", "seq": 1, "kind": "trick_winner", "ruleset": CLASSIC.to_json(), "given": given})
        assert reply is not None and reply["errored"] is True

    def test_play_kind_whole_deal(self) -> None:
        result = run_case(SA_TA, "play", play_given())
        assert result["trick_winners"] == ["W", "N", "E", "S", "N", "S", "W", "N"]
        assert "legal" not in result
        assert result["score"]["deal_score"] == {"NS": 136, "EW": 66}
        assert result["score"]["belote"] == {"H": "NS", "D": "EW"}
        with_legal = run_case(SA_TA, "play", play_given(want_legal=True))
        assert len(with_legal["legal"]) == 32 and with_legal["legal"][9] == ["JH"]
        assert with_legal["legal"][0] == CardSet.parse(BELOTE_HANDS["N"]).tokens()

    def test_play_kind_rejects_at_the_right_index(self) -> None:
        plays = play_given()["plays"]
        plays[9], plays[12] = plays[12], plays[9]  # E plays 7H under the queen while holding JH
        assert run_case(SA_TA, "play", play_given(plays=plays)) == {"rejected": {"code": "illegal_play", "index": 9}}
        plays = play_given()["plays"]
        plays[1] = "JH"  # not E's turn to play it: E holds it, but it is not a spade
        assert run_case(SA_TA, "play", play_given(plays=plays))["rejected"]["index"] == 1
        plays = play_given()["plays"]
        plays[0] = "8S"  # E's card, N leads
        assert run_case(SA_TA, "play", play_given(plays=plays)) == {"rejected": {"code": "card_not_in_hand", "index": 0}}

    def test_play_kind_inconsistencies(self) -> None:
        hands = play_given()["hands"]
        hands["N"] = hands["N"][:7] + ["9S"]  # 9S twice
        assert run_case(SA_TA, "play", play_given(hands=hands)) == {"rejected": {"code": "bad_deal", "index": 0}}
        assert run_case(SA_TA, "play", play_given(belote={"H": "E"})) == {"rejected": {"code": "bad_belote", "index": 0}}

    @pytest.mark.parametrize("changes", [
        {"plays": ["7S"] * 31}, {"want_legal": "yes"}, {"contract": "TA"}, {"contract": {"trump": "TA"}},
        {"belote": "N"}, {"belote": {"HX": "N"}}, {"leader": "X"},
    ])
    def test_play_kind_bad_given(self, changes: dict[str, Any]) -> None:
        with pytest.raises(BeloteRefError):
            run_case(SA_TA, "play", play_given(**changes))

    def test_deal_kind_gives_the_turned_card_to_a_round_two_taker(self) -> None:
        deck = [str(card) for card in CARDS]
        result = run_case(SA_TA, "deal", {"dealer": "W", "deck": deck, "taker": "S"})
        turned = run_case(SA_TA, "deal", {"dealer": "W", "deck": deck})["turned"]
        assert turned in result["hands"]["S"] and len(result["hands"]["S"]) == 8

    def test_replay_reports_the_contract(self) -> None:
        state = random_deal(SA_TA, random.Random(2), dealer=Seat.W, calls=["pass"] * 4 + ["SA"])
        record = json.loads(write_record(state))
        given = {key: record[key] for key in ("dealer", "hands", "turned", "calls", "completion", "belote")}
        given["plays"] = [card for t in record["tricks"] for card in t["cards"]]
        result = run_case(SA_TA, "replay", given)
        assert result["trump"] == "SA" and result["taker"] == "N"
        assert result["deal_score"] == record["result"]["deal_score"]


# ------------------------------------------------------------------------------ random deals


def random_contract_deal(seed: int, call: str) -> DealState:
    return random_deal(SA_TA, random.Random(seed), calls=["pass"] * 4 + [call])


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), call=st.sampled_from(["SA", "TA"]))
def test_random_sa_ta_deals_conserve_162_and_replay(seed: int, call: str) -> None:
    """Random deals under classic-sa-ta naming SA or TA: every card checked on the way (checked
    path), 32 distinct cards, card points 162 outside capot (at TA: 258 converted, and each side
    rounded to the nearest point, still 162 since no side's product is a half), 252 on a capot;
    no belote at SA, a belote only where one seat played a suit's king and queen at TA; the record
    replays to the same result."""
    state = random_deal(SA_TA, random.Random(seed), checked=True, calls=["pass"] * 4 + [call])
    assert state.phase is Phase.SCORED and state.score is not None and state.trump is Trump.parse(call)
    played = [card for t in state.tricks for card in t.cards]
    assert CardSet(played) == DECK and len(played) == 32
    score = state.score
    if score.capot is None:
        assert sum(score.card_points.values()) == 162
    else:
        assert score.card_points[score.capot] == 252 and score.card_points[score.capot.other] == 0
    if state.trump is Trump.SA:
        assert state.belote is None and score.belote is None
    elif score.belote is not None:
        assert isinstance(score.belote, dict)
        for suit, team in score.belote.items():
            king, queen = Card.of(Rank.KING, suit), Card.of(Rank.QUEEN, suit)
            holders = {seat for seat in Seat if king in state.full_hands[seat] and queen in state.full_hands[seat]}
            assert len(holders) == 1 and holders.pop().team is team
    [record] = records_from_json_lines([write_record(state)])
    report = replay(record)
    assert report.ok, (report.error, report.mismatches)
    assert state.taker is state.dealer.next
    assert report.result() == {**score.to_json(), "taker": state.taker.name, "trump": call}


def test_random_auctions_reach_sa_and_ta() -> None:
    """simulate.random_deal names SA and TA in round two under classic-sa-ta, never under classic."""
    seen: dict[str, set[str]] = {"classic-sa-ta": set(), "classic": set()}
    for name in seen:
        rng = random.Random(9)
        for _ in range(600):
            state = random_deal(find_ruleset(name), rng)
            if state.trump is not None:
                seen[name].add(state.trump.letter)
    assert seen["classic-sa-ta"] == {"S", "H", "D", "C", "SA", "TA"}
    assert seen["classic"] == {"S", "H", "D", "C"}


def test_play_out_matches_the_deal_state() -> None:
    """The play kind's engine function and DealState agree on random SA and TA deals."""
    for seed in range(40):
        state = random_contract_deal(seed, "TA" if seed % 2 else "SA")
        assert state.score is not None and state.taker is not None and state.trump is not None
        played = play_out(SA_TA, hands=state.full_hands, trump=state.trump, taker=state.taker,
                          leader=state.dealer.next, plays=state.plays, belote=state.belote, legal=True)
        assert played.score.to_json() == state.score.to_json()
        assert played.legal is not None and all(card in legal for card, legal in zip(state.plays, played.legal))


def test_play_out_rejects_a_wrong_card() -> None:
    state = random_contract_deal(3, "TA")
    assert state.taker is not None and state.trump is not None
    plays = list(state.plays)
    plays[0] = next(iter(DECK - state.full_hands[state.dealer.next]))
    with pytest.raises(IllegalPlayError) as caught:
        play_out(SA_TA, hands=state.full_hands, trump=state.trump, taker=state.taker, leader=state.dealer.next,
                 plays=plays)
    assert caught.value.code == "card_not_in_hand" and caught.value.index == 0


def test_play_then_replay_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "deals.jsonl"
    assert main(["play", "--ruleset", "classic-sa-ta", "--count", "300", "--seed", "5", "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {"SA", "TA"} <= {call for record in records for call in record["calls"]}
    assert any(isinstance(record["belote"], dict) for record in records)  # a tout-atout belote, by suit
    capsys.readouterr()
    assert main(["replay", str(out)]) == 0
    assert "300 deal(s) replayed" in capsys.readouterr().out


def test_match_with_sa_and_ta_deals(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "match.jsonl"
    assert main(["play", "--ruleset", "classic-sa-ta", "--match", "--seed", "11", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", str(out)]) == 0


def test_declarations_at_sa_and_ta_use_the_contract_carres() -> None:
    annonces = variant(announcements__enabled=True)
    sa = make_combination(annonces, Trump.SA, "carre", cards("TS TH TD TC"))
    ta = make_combination(annonces, Trump.TA, "carre", cards("TS TH TD TC"))
    assert (sa.points, ta.points) == (150, 100)
    assert [c.points for c in combinations(annonces, Trump.SA, cards("9S 9H 9D 9C TS TH TD TC"))] == [150, 100]
    with pytest.raises(BeloteRefError, match="not a combination"):
        make_combination(annonces, Trump.SA, "carre", cards("8S 8H 8D 8C"))


@pytest.mark.parametrize("trump, final_tie, winner", [
    (Trump.SA, "annul_all", None), (Trump.TA, "annul_all", None), (Suit.H, "annul_all", Team.NS),
    (Trump.TA, "earlier_declarer", Team.NS),
])
def test_equal_tierces_need_the_final_tie_at_sa_and_ta(trump: Any, final_tie: str, winner: Team | None) -> None:
    rules = variant(announcements__enabled=True, announcements__final_tie=final_tie)
    hearts = Declaration(Seat.N, make_combination(rules, trump, "tierce", cards("7H 8H 9H")))
    diamonds = Declaration(Seat.E, make_combination(rules, trump, "tierce", cards("7D 8D 9D")))
    assert best_team(rules, trump, [hearts, diamonds], Seat.N) == winner



FUZZ_TOKENS = st.sampled_from(["7S", "AH", "TD", "10C", "JH", "XX", "", "SA", "TA", "H", "N", "E", None, 3, -1, True,
                               "pass", "take"])
FUZZ_VALUES = st.recursive(FUZZ_TOKENS, lambda children: st.lists(children, max_size=6) | st.dictionaries(
    st.sampled_from(["trump", "taker", "H", "D", "N", "leader", "cards"]), children, max_size=4), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(changes=st.dictionaries(st.sampled_from(["hands", "contract", "leader", "plays", "belote", "announcements",
                                                "want_legal", "pot"]), FUZZ_VALUES, max_size=4))
def test_any_play_given_gets_an_answer(changes: dict[str, Any]) -> None:
    """A damaged ``play`` case is answered with a result or a one-line error, never an internal error."""
    message = {"cmd": "run", "seq": 5, "kind": "play", "ruleset": SA_TA.to_json(), "given": play_given(**changes)}
    reply = answer(message)
    assert reply is not None and reply["seq"] == 5
    assert "result" in reply or reply.get("errored") is True
    assert not reply.get("message", "").startswith("internal error"), reply


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(["legal_plays", "trick_winner", "announcements", "score", "match"]), trump=FUZZ_VALUES,
       belote=FUZZ_VALUES)
def test_any_contract_token_gets_an_answer(kind: str, trump: Any, belote: Any) -> None:
    given_: dict[str, Any] = {"trump": trump, "seat": "E", "hand": ["7H", "JH"], "trick": {"leader": "N", "cards": ["9H"]},
                              "dealer": "W", "taker": "N", "tricks": [], "belote": belote}
    if kind == "match":
        given_ = {"deals": [given_]}
    reply = answer({"cmd": "run", "seq": 6, "kind": kind, "ruleset": SA_TA.to_json(), "given": given_})
    assert reply is not None and ("result" in reply or reply.get("errored") is True)
    assert not reply.get("message", "").startswith("internal error"), reply
