"""Dealing a deck order and the two-round auction, worked out by hand from the rule text."""

from __future__ import annotations

from typing import Any

import pytest

from belote_ref import CARDS, CardSet, IllegalCallError, Ruleset, Seat, Suit, find_ruleset, parse_card
from belote_ref.engine.deal import complete_hands, deal_first_hands, run_auction
from belote_ref.core.errors import BeloteRefError

# The deck in index order: 7S 8S 9S TS JS QS KS AS 7H ... AC (top card first).
DECK = list(CARDS)


def variant(base: str = "classic", **changes: Any) -> Ruleset:
    params = dict(find_ruleset(base).params)
    params.update({key.replace("__", "."): value for key, value in changes.items()})
    return Ruleset.from_parameters(params, id="test")


def tokens(hands: dict[Seat, CardSet]) -> dict[str, str]:
    return {seat.name: str(cards) for seat, cards in hands.items()}


class TestFirstDistribution:
    """rules.md §1.3: "Deal 5 cards to each player starting with next(dealer), in two packets:
    3 then 2, or 2 then 3"; then "turn the next card face up"."""

    def test_three_then_two(self) -> None:
        # Dealer S, eldest W. 3 each: W 0-2, N 3-5, E 6-8, S 9-11; 2 each: W 12-13, N 14-15,
        # E 16-17, S 18-19; card 20 (JD) is turned.
        hands, turned = deal_first_hands(variant(deal__first_packets=[[3, 2]]), Seat.S, DECK)
        assert tokens(hands) == {"N": "TS JS QS KH AH", "E": "KS AS 7H 7D 8D",
                                 "S": "8H 9H TH 9D TD", "W": "7S 8S 9S JH QH"}
        assert turned == parse_card("JD")

    def test_two_then_three(self) -> None:
        # 2 each: W 0-1, N 2-3, E 4-5, S 6-7; 3 each: W 8-10, N 11-13, E 14-16, S 17-19;
        # card 20 (JD) is turned.
        hands, turned = deal_first_hands(variant(deal__first_packets=[[2, 3]]), Seat.S, DECK)
        assert tokens(hands) == {"N": "9S TS TH JH QH", "E": "JS QS KH AH 7D",
                                 "S": "KS AS 8D 9D TD", "W": "7S 8S 7H 8H 9H"}
        assert turned == parse_card("JD")

    def test_first_entry_of_the_list_is_used(self) -> None:
        # classic allows [[3, 2], [2, 3]]: a given deck is dealt with the first.
        classic, _ = deal_first_hands(find_ruleset("classic"), Seat.S, DECK)
        three_two, _ = deal_first_hands(variant(deal__first_packets=[[3, 2]]), Seat.S, DECK)
        assert classic == three_two

    def test_bad_deck(self) -> None:
        with pytest.raises(BeloteRefError, match="32 distinct cards"):
            deal_first_hands(find_ruleset("classic"), Seat.S, DECK[:31] + [DECK[0]])


class TestCompletion:
    """rules.md §1.5: "The taker receives the turn-up ..., then the dealer completes hands to 8:
    2 more to the taker, 3 to each other player"; deal.completion_start says who is served first."""

    def test_eldest_first(self) -> None:
        # Dealer S, taker E. After the turned JD (20): W 21-23, N 24-26, E 27-28, S 29-31.
        hands = complete_hands(variant(deal__first_packets=[[3, 2]]), Seat.S, DECK, Seat.E)
        assert tokens(hands) == {"N": "TS JS QS KH AH 7C 8C 9C", "E": "KS AS 7H 7D 8D JD TC JC",
                                 "S": "8H 9H TH 9D TD QC KC AC", "W": "7S 8S 9S JH QH QD KD AD"}

    def test_taker_first(self) -> None:
        # Taker E first: E 21-22 (QD KD), S 23-25 (AD 7C 8C), W 26-28 (9C TC JC), N 29-31.
        hands = complete_hands(variant(deal__first_packets=[[3, 2]], deal__completion_start="taker_first"),
                               Seat.S, DECK, Seat.E)
        assert tokens(hands) == {"N": "TS JS QS KH AH QC KC AC", "E": "KS AS 7H 7D 8D JD QD KD",
                                 "S": "8H 9H TH 9D TD AD 7C 8C", "W": "7S 8S 9S JH QH 9C TC JC"}

    def test_every_card_dealt_once(self) -> None:
        hands = complete_hands(find_ruleset("classic"), Seat.N, DECK, Seat.N)
        assert all(len(cards) == 8 for cards in hands.values())
        assert CardSet().mask == 0 and sum(cards.mask for cards in hands.values()) == (1 << 32) - 1


TURNED = parse_card("JH")


class TestAuction:
    """rules.md §1.4: round 1 take the turned suit or pass; round 2 name a suit or pass."""

    def test_round_one_open(self) -> None:
        status = run_auction(find_ruleset("classic"), Seat.S, TURNED, ["pass"])
        assert status.to_json() == {"status": "open", "next": "N", "round": 1, "legal": ["pass", "take"]}

    def test_take_in_round_one(self) -> None:
        # Dealer S: W passes, N takes -> trump is the turned card's suit.
        status = run_auction(find_ruleset("classic"), Seat.S, TURNED, ["pass", "take"])
        assert status.to_json() == {"status": "taken", "taker": "N", "trump": "H", "round": 1}

    def test_round_two_excludes_turned_suit(self) -> None:
        # Seed 003: "choisir une couleur d'atout différente de la retourne".
        status = run_auction(find_ruleset("classic"), Seat.S, TURNED, ["pass"] * 4)
        assert status.to_json() == {"status": "open", "next": "W", "round": 2, "legal": ["pass", "S", "D", "C"]}
        with pytest.raises(IllegalCallError, match="round2_allow_turnup_suit") as caught:
            run_auction(find_ruleset("classic"), Seat.S, TURNED, ["pass"] * 4 + ["H"])
        assert caught.value.index == 4

    def test_round_two_may_name_turned_suit_when_allowed(self) -> None:
        # FFB-B16: "la couleur de son choix".
        rules = variant(bidding__round2_allow_turnup_suit=True)
        status = run_auction(rules, Seat.S, TURNED, ["pass"] * 5 + ["H"])
        assert status.to_json() == {"status": "taken", "taker": "N", "trump": "H", "round": 2}

    def test_take_in_round_two(self) -> None:
        status = run_auction(find_ruleset("classic"), Seat.E, TURNED, ["pass"] * 6 + ["C"])
        # Dealer E, eldest S; round 2: S pass, W pass, N names clubs.
        assert status.to_json() == {"status": "taken", "taker": "N", "trump": "C", "round": 2}

    @pytest.mark.parametrize(("rule", "next_dealer"), [("redeal_next_dealer", "W"), ("redeal_same_dealer", "S")])
    def test_all_pass_redeal(self, rule: str, next_dealer: str) -> None:
        # FFB-B16 §4.2: the next player deals; Lions/Géraudot: the same dealer redeals.
        status = run_auction(variant(bidding__all_pass=rule), Seat.S, TURNED, ["pass"] * 8)
        assert status.to_json() == {"status": "redeal", "next_dealer": next_dealer}

    def test_forced_third_round(self) -> None:
        # rjcv.be: "a forced third round in which eldest must choose any suit".
        rules = variant(bidding__all_pass="forced_third_round")
        status = run_auction(rules, Seat.S, TURNED, ["pass"] * 8)
        assert status.to_json() == {"status": "open", "next": "W", "round": 3, "legal": ["S", "H", "D", "C"]}
        with pytest.raises(IllegalCallError):
            run_auction(rules, Seat.S, TURNED, ["pass"] * 9)
        taken = run_auction(rules, Seat.S, TURNED, ["pass"] * 8 + ["H"])
        assert taken.to_json() == {"status": "taken", "taker": "W", "trump": "H", "round": 3}

    def test_calls_after_the_end_are_illegal(self) -> None:
        with pytest.raises(IllegalCallError, match="after the auction ended") as caught:
            run_auction(find_ruleset("classic"), Seat.S, TURNED, ["take", "pass"])
        assert caught.value.index == 1

    def test_unknown_call(self) -> None:
        with pytest.raises(IllegalCallError, match="legal: pass take") as caught:
            run_auction(find_ruleset("classic"), Seat.S, TURNED, ["pass", "double"])
        assert caught.value.index == 1
        assert Suit.H == TURNED.suit
