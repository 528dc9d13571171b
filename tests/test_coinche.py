"""The bidding family (coinche, contrée): the auction of bids, the eight-card deal, the scoring
formulas, whole deals and matches. Expected values are worked out by hand from the registry's
prose of ``scoring.bid.formula`` and friends, the arithmetic in the comments."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_ref.engine.bids.deal import BidDeal
from belote_ref.engine.bids.auction import BidAuction, legal_calls, run_bid_auction, why_illegal
from belote_ref.core.cards import CARDS, Seat
from belote_ref.engine.deal import Phase
from belote_ref.core.errors import IllegalCallError, RulesetError
from belote_ref.protocol.serve import run_case
from belote_ref.rules.ruleset import Ruleset, find_ruleset

CONTREE = find_ruleset("ffb-contree-2016")
COINCHE = find_ruleset("ffb-coinche-2015")
PAGAT = find_ruleset("pagat-coinche")
FAMILY = (CONTREE, COINCHE, PAGAT)


def variant(base: Ruleset, **changes: Any) -> Ruleset:
    return Ruleset.from_parameters({**base.params, **{k.replace("__", "."): v for k, v in changes.items()}})


def status(rules: Ruleset, dealer: str, calls: list[str]) -> dict[str, Any]:
    return run_case(rules, "auction", {"dealer": dealer, "calls": calls})


# ----------------------------------------------------------------------------- the auction


class TestAuction:
    def test_eldest_speaks_first_and_every_bid_is_offered_in_order(self) -> None:
        # Dealer S: eldest is W. 80 to 160 by 10 is 9 values x 4 suits, then 4 capot bids.
        result = status(CONTREE, "S", [])
        assert result["status"] == "open" and result["next"] == "W"
        legal = result["legal"]
        assert legal[:5] == ["pass", "80S", "80H", "80D", "80C"]
        assert legal[-4:] == ["capotS", "capotH", "capotD", "capotC"]
        assert len(legal) == 1 + 9 * 4 + 4
        assert "round" not in result

    def test_sans_atout_and_tout_atout_follow_the_suits_where_allowed(self) -> None:
        # FFB coinche allows SA and TA: after 150H, W (dealer S: W N E S; the fifth call is W's)...
        result = status(COINCHE, "S", ["150H"])
        assert result["next"] == "N"
        assert result["legal"] == ["pass", "160S", "160H", "160D", "160C", "160SA", "160TA",
                                   "capotS", "capotH", "capotD", "capotC", "capotSA", "capotTA", "coinche"]

    def test_three_passes_after_a_bid_end_it(self) -> None:
        assert status(CONTREE, "S", ["pass", "90H", "pass", "pass", "pass"]) == {
            "status": "taken", "taker": "N", "trump": "H", "bid": 90, "multiplier": 1}

    def test_a_player_may_outbid_his_partner_and_bid_after_passing(self) -> None:
        # W pass, N 80S, E pass, S 90H (over his partner), W 100D (he had passed), N E S pass.
        assert status(CONTREE, "S", ["pass", "80S", "pass", "90H", "100D", "pass", "pass", "pass"])["taker"] == "W"

    def test_four_passes_redeal(self) -> None:
        assert status(CONTREE, "S", ["pass"] * 4) == {"status": "redeal", "next_dealer": "W"}
        same = variant(CONTREE, bidding__all_pass="redeal_same_dealer")
        assert status(same, "S", ["pass"] * 4) == {"status": "redeal", "next_dealer": "S"}

    def test_a_bid_must_be_higher(self) -> None:
        assert status(CONTREE, "S", ["90H", "90S"]) == {"rejected": {"code": "illegal_call", "index": 1}}
        auction = BidAuction(CONTREE, Seat.S)
        auction.call("90H")
        reason = why_illegal(auction, "90S")
        assert reason is not None and "higher than the last bid 90H (by W)" in reason

    def test_coinche_only_on_an_opponents_bid_then_surcoinche_ends_it(self) -> None:
        # W 80H, N coinche (x2), E surcoinche (W's partner): over at once, x4.
        assert status(CONTREE, "S", ["80H", "coinche", "surcoinche"]) == {
            "status": "taken", "taker": "W", "trump": "H", "bid": 80, "multiplier": 4}
        # W 80H, N pass, E coinche: E is W's partner.
        assert status(CONTREE, "S", ["80H", "pass", "coinche"]) == {"rejected": {"code": "illegal_call", "index": 2}}
        three = variant(CONTREE, auction__surcoinche_multiplier=3)
        assert status(three, "S", ["80H", "coinche", "surcoinche"])["multiplier"] == 3

    def test_a_coinche_freezes_the_bidding(self) -> None:
        # W 80H, N coinche: E may pass or surcoinche; S (the coincher's partner) only pass.
        assert status(CONTREE, "S", ["80H", "coinche"])["legal"] == ["pass", "surcoinche"]
        assert status(CONTREE, "S", ["80H", "coinche", "pass"])["legal"] == ["pass"]
        assert status(CONTREE, "S", ["80H", "coinche", "pass", "pass", "pass"]) == {
            "status": "taken", "taker": "W", "trump": "H", "bid": 80, "multiplier": 2}

    def test_without_freezing_a_higher_bid_cancels_the_coinche(self) -> None:
        loose = variant(CONTREE, auction__coinche_freezes=False)
        # W 80H, N coinche, E 90S (cancels it), S coinche again, then three passes: x2 on 90S.
        assert status(loose, "S", ["80H", "coinche", "90S", "pass", "pass", "pass"]) == {
            "status": "taken", "taker": "E", "trump": "S", "bid": 90, "multiplier": 1}
        assert status(loose, "S", ["80H", "coinche", "90S", "coinche", "pass", "pass", "pass"])["multiplier"] == 2

    def test_coinche_out_of_turn(self) -> None:
        assert status(CONTREE, "S", ["80H", "coinche:E"]) == {"rejected": {"code": "illegal_call", "index": 1}}
        volee = variant(CONTREE, auction__coinche_out_of_turn=True)
        # W 80H; S (not N, whose turn it is) coinches out of turn: the turn passes to W, after S.
        assert status(volee, "S", ["80H", "coinche:S"])["next"] == "W"
        assert status(volee, "S", ["80H", "coinche:E"]) == {"rejected": {"code": "illegal_call", "index": 1}}

    def test_a_capot_bid_is_coinched_only_where_allowed(self) -> None:
        assert "coinche" in status(CONTREE, "S", ["capotH"])["legal"]
        assert status(PAGAT, "S", ["capotH"])["legal"] == ["pass"]

    def test_the_generale_is_above_the_capot(self) -> None:
        generale = variant(CONTREE, auction__generale=True)
        assert status(generale, "S", ["capotH"])["legal"][1:5] == ["generaleS", "generaleH", "generaleD", "generaleC"]
        assert status(CONTREE, "S", ["generaleH"]) == {"rejected": {"code": "illegal_call", "index": 0}}

    def test_reasons_name_the_rule(self) -> None:
        auction = BidAuction(CONTREE, Seat.S)
        assert "bidding.contracts" in (why_illegal(auction, "90SA") or "")
        assert "auction.step" in (why_illegal(auction, "85H") or "")
        assert "auction.coinche_out_of_turn" in (why_illegal(auction, "coinche:N") or "")
        assert "no bid to coinche" in (why_illegal(auction, "coinche") or "")
        auction.call("80H")
        auction.call("coinche")
        assert "auction.coinche_freezes" in (why_illegal(auction, "90H") or "")
        assert why_illegal(auction, "surcoinche") is None
        with pytest.raises(IllegalCallError, match="legal: pass surcoinche"):
            auction.call("100S")
        assert legal_calls(auction) == ("pass", "surcoinche")

    def test_a_call_after_the_end_is_illegal(self) -> None:
        with pytest.raises(IllegalCallError) as caught:
            run_bid_auction(CONTREE, Seat.S, ["80H", "coinche", "surcoinche", "pass"])
        assert caught.value.index == 3 and "over" in str(caught.value)

    def test_a_bids_ruleset_may_not_force_a_third_round(self) -> None:
        with pytest.raises(RulesetError, match="forced_third_round"):
            variant(CONTREE, bidding__all_pass="forced_third_round")


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), ruleset=st.sampled_from(FAMILY), loose=st.booleans(), volee=st.booleans())
def test_a_random_legal_auction_always_ends(seed: int, ruleset: Ruleset, loose: bool, volee: bool) -> None:
    rules = variant(ruleset, auction__coinche_freezes=not loose, auction__coinche_out_of_turn=volee)
    rng = random.Random(seed)
    auction = BidAuction(rules, Seat(rng.randrange(4)))
    # Each bid raises the level (at most 9 values + capot) and each coinche follows a bid or
    # cancels one: the auction is bounded.
    for _ in range(200):
        if auction.status.status != "open":
            break
        legal = legal_calls(auction)
        assert legal[0] == "pass" and all(why_illegal(auction, call) is None for call in legal)
        token = rng.choice(legal) if rng.random() < 0.4 else "pass"
        auction.call(token)
    final = auction.status
    assert final.status in ("taken", "redeal")
    if final.status == "taken":
        assert final.bid is not None and final.bid.multiplier in (1, 2, rules["auction.surcoinche_multiplier"])


# ----------------------------------------------------------------------------- the deal


DECK = [str(card) for card in CARDS]  # 7S 8S ... AS 7H ... AC, in index order


def test_the_eight_cards_are_dealt_in_the_first_packet_pattern() -> None:
    # Dealer S, eldest W. 3-2-3: W 7S 8S 9S, N TS JS QS, E KS AS 7H, S 8H 9H TH; then two each:
    # W JH QH, N KH AH, E 7D 8D, S 9D TD; then three each: W JD QD KD, N AD 7C 8C, E 9C TC JC, S QC KC AC.
    hands = run_case(CONTREE, "deal", {"dealer": "S", "deck": DECK})["hands"]
    assert hands == {"N": ["TS", "JS", "QS", "KH", "AH", "AD", "7C", "8C"],
                     "E": ["KS", "AS", "7H", "7D", "8D", "9C", "TC", "JC"],
                     "S": ["8H", "9H", "TH", "9D", "TD", "QC", "KC", "AC"],
                     "W": ["7S", "8S", "9S", "JH", "QH", "JD", "QD", "KD"]}
    # Pagat 3-3-2: W 7S 8S 9S, N TS JS QS, E KS AS 7H, S 8H 9H TH (cards 0-11); three each again:
    # W JH QH KH, N AH 7D 8D, E 9D TD JD, S QD KD AD (12-23); then two each: W 7C 8C, N 9C TC, ...
    assert run_case(PAGAT, "deal", {"dealer": "S", "deck": DECK})["hands"]["W"] == \
        ["7S", "8S", "9S", "JH", "QH", "KH", "7C", "8C"]


# ----------------------------------------------------------------------------- the score

# Trumps clubs, dealer S, N bids. EW win 3 tricks: 28 + 38 + 5 = 71; NS the other five and the dix
# de der: 2 + 25 + 28 + 2 + 24 + 10 = 91. E holds belote (KC in trick 2, QC in trick 8).
SPLIT = {"dealer": "S", "taker": "N", "trump": "C", "belote": "E", "announcements": [], "tricks": [
    {"leader": "W", "cards": ["AH", "QH", "KH", "TH"]}, {"leader": "W", "cards": ["JC", "7C", "KC", "9C"]},
    {"leader": "W", "cards": ["QS", "8S", "JS", "9S"]}, {"leader": "W", "cards": ["7H", "JH", "8H", "9H"]},
    {"leader": "N", "cards": ["AS", "7S", "TS", "KS"]}, {"leader": "N", "cards": ["AD", "QD", "KD", "TD"]},
    {"leader": "N", "cards": ["JD", "7D", "8D", "9D"]}, {"leader": "N", "cards": ["AC", "QC", "TC", "8C"]}]}

# Trumps hearts, dealer S: N holds the eight hearts, ruffs W's ace of spades and leads trumps to
# the end: NS capot, 252 card points; N has belote (KH trick 6, QH trick 7).
SWEEP = {"dealer": "S", "taker": "N", "trump": "H", "belote": "N", "announcements": [], "tricks": [
    {"leader": "W", "cards": ["AS", "7H", "7S", "8S"]}, {"leader": "N", "cards": ["JH", "9S", "TS", "JS"]},
    {"leader": "N", "cards": ["9H", "QS", "KS", "7D"]}, {"leader": "N", "cards": ["AH", "8D", "9D", "TD"]},
    {"leader": "N", "cards": ["TH", "JD", "QD", "KD"]}, {"leader": "N", "cards": ["KH", "AD", "7C", "8C"]},
    {"leader": "N", "cards": ["QH", "9C", "TC", "JC"]}, {"leader": "N", "cards": ["8H", "QC", "KC", "AC"]}]}


def score(rules: Ruleset, deal: dict[str, Any], value: int | str, multiplier: int = 1, **changes: Any) -> dict[str, Any]:
    given = {**deal, **changes, "bid": {"value": value, "multiplier": multiplier}}
    return run_case(rules, "score", given)


def totals(result: dict[str, Any]) -> tuple[str, int, int]:
    return result["contract"], result["deal_score"]["NS"], result["deal_score"]["EW"]


class TestContree:
    def test_made_without_beating_the_defenders_leaves_them_their_belote(self) -> None:
        # 91 >= 90: made (EW's 71 + 20 = 91 need not be beaten). NS 91 + 90 = 181 -> 180; EW 71 + their
        # own belote 20 = 91 -> 90: the prenable belote is the takers' when they fail (FFB-C16 §7).
        result = score(CONTREE, SPLIT, 90)
        assert totals(result) == ("made", 180, 90)
        assert result["card_points"] == {"NS": 91, "EW": 71} and result["belote"] == "EW" and result["pot"] == 0

    def test_down(self) -> None:
        # 91 < 100: EW 160 + 100 + their belote 20 = 280; NS 0.
        assert totals(score(CONTREE, SPLIT, 100)) == ("down", 0, 280)

    def test_coinched_everything_is_multiplied_but_belote(self) -> None:
        # Made x2: (160 + 90) x 2 = 500; EW keep their belote, 20 (belote.defenders_on_made kept_by_holder).
        assert totals(score(CONTREE, SPLIT, 90, 2)) == ("made", 500, 20)
        # Down x4: (160 + 100) x 4 = 1040 + 20 = 1060.
        assert totals(score(CONTREE, SPLIT, 100, 4)) == ("down", 0, 1060)

    def test_capot_bid(self) -> None:
        # Made: 252 + 250 + belote 20 = 522 -> 520. Bid by E and down: NS 160 + 250 + 20 = 430.
        assert totals(score(CONTREE, SWEEP, "capot")) == ("made", 520, 0)
        assert totals(score(CONTREE, SWEEP, "capot", taker="E")) == ("down", 430, 0)
        # 80 coinched, made with a capot: everything keeps the base: (160 + 80) x 2 + 20 = 500.
        assert totals(score(CONTREE, SWEEP, 80, 2)) == ("made", 500, 0)

    def test_other_formulas(self) -> None:
        # base_plus_bid, base 162: NS 162 + 90 = 252 -> 250, EW their own belote 20.
        base = variant(CONTREE, scoring__bid__formula="base_plus_bid", scoring__bid__base=162)
        assert totals(score(base, SPLIT, 90)) == ("made", 250, 20)
        # bid_only: NS 90, EW 20.
        announced = variant(CONTREE, scoring__bid__formula="bid_only")
        assert totals(score(announced, SPLIT, 90)) == ("made", 90, 20)
        # flat_forfeits, down coinched: EW 160 x 2 = 320 + 20 = 340.
        forfeits = variant(CONTREE, scoring__bid__formula="flat_forfeits")
        assert totals(score(forfeits, SPLIT, 100, 2)) == ("down", 0, 340)
        # bid_only multiplier: 160 + 90 x 2 = 340; EW 20.
        bid_only = variant(CONTREE, scoring__bid__multiplier_applies_to="bid_only")
        assert totals(score(bid_only, SPLIT, 90, 2)) == ("made", 340, 20)

    def test_bid_targets(self) -> None:
        # plus_two: 90 needs 92; 91 falls short: down, EW 160 + 90 + 20 = 270.
        assert totals(score(variant(CONTREE, auction__bid_target="plus_two"), SPLIT, 90))[0] == "down"
        assert totals(score(variant(CONTREE, auction__bid_target="plus_two"), SPLIT, 80))[0] == "made"

    def test_a_score_needs_its_bid(self) -> None:
        from belote_ref.core.errors import BeloteRefError

        with pytest.raises(BeloteRefError, match="bid is required"):
            run_case(CONTREE, "score", SPLIT)


class TestCoinche:
    def test_the_takers_must_beat_the_defenders(self) -> None:
        # 91 >= 90 but not > 71 + 20 = 91: down. EW 160 + 90 + their own belote 20 = 270.
        assert totals(score(COINCHE, SPLIT, 90)) == ("down", 0, 270)
        # Coinched 80, down: (160 + 80) x 2 = 480, + belote 20 x 2 (multiplied) = 520.
        assert totals(score(COINCHE, SPLIT, 80, 2)) == ("down", 0, 520)

    def test_the_bracket_uses_the_capot_points(self) -> None:
        # (250 + 80) x 2 = 660 (FFB-K15's capot base, scoring.bid.capot_base), + belote 20 x 2 = 700.
        assert totals(score(COINCHE, SWEEP, 80, 2)) == ("made", 700, 0)


class TestPagat:
    def test_the_lowest_bid_needs_82(self) -> None:
        # 91 >= 82: NS 91 + 80 = 171 -> 170; EW 71 + their belote 20 (kept) = 91 -> 90.
        assert totals(score(PAGAT, SPLIT, 80)) == ("made", 170, 90)
        # Coinched: the bid only is doubled: 160 + 80 x 2 = 320; EW keep their belote, 20.
        assert totals(score(PAGAT, SPLIT, 80, 2)) == ("made", 320, 20)

    def test_a_capot_bid_is_a_flat_500(self) -> None:
        # Made: 500 + N's belote 20 = 520. Bid by E and down: NS win the deal, 500 + 20 = 520.
        assert totals(score(PAGAT, SWEEP, "capot")) == ("made", 520, 0)
        assert totals(score(PAGAT, SWEEP, "capot", taker="E")) == ("down", 520, 0)


def test_the_generale_needs_the_bidder_alone() -> None:
    generale = variant(CONTREE, auction__generale=True)
    # N won all 8 tricks himself: 252 + 500 + 20 = 772 -> 770.
    assert totals(score(generale, SWEEP, "generale")) == ("made", 770, 0)
    # Bid by S, swept by his partner N: down. EW 160 + 500 + NS's belote 20 (prenable) = 680.
    assert totals(score(generale, SWEEP, "generale", taker="S")) == ("down", 0, 680)


def test_rounding_never_decides_the_contract() -> None:
    # 91 for a bid of 90 with rounding: made, though 91 rounds to 90 and 89 would round to 90 too.
    assert score(CONTREE, SPLIT, 90)["contract"] == "made"


# ----------------------------------------------------------------------------- matches and whole deals


def test_a_match_of_the_family() -> None:
    # Deal 1: 90 made, NS 180, EW 90. Deal 2: 100 x4 down, EW 1060: EW 1150 >= 1000 wins.
    deal_1 = {**SPLIT, "bid": {"value": 90, "multiplier": 1}}
    deal_2 = {**SPLIT, "bid": {"value": 100, "multiplier": 4}}
    result = run_case(CONTREE, "match", {"deals": [deal_1, deal_2, deal_1]})
    assert result == {"totals": [{"NS": 180, "EW": 90}, {"NS": 180, "EW": 1150}], "winner": "EW", "ended_after": 2}


def _random_bid_deal(rules: Ruleset, rng: random.Random) -> BidDeal:
    deck = list(CARDS)
    rng.shuffle(deck)
    state = BidDeal.from_bid_deck(rules, Seat(rng.randrange(4)), deck)
    while state.phase is Phase.AUCTION:
        legal = state.status.legal
        state.call(rng.choice(legal) if rng.random() < 0.3 else "pass")
    if state.phase is Phase.PLAY:
        for _ in range(32):
            state.play(rng.choice(list(state.legal_plays())))
    return state


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), ruleset=st.sampled_from(FAMILY))
def test_random_deals_score_made_or_down_and_never_negative(seed: int, ruleset: Ruleset) -> None:
    state = _random_bid_deal(ruleset, random.Random(seed))
    if state.phase is Phase.REDEAL:
        return
    assert state.phase is Phase.SCORED and state.score is not None and state.bid is not None
    result = state.score
    assert result.contract in ("made", "down") and result.pot == 0
    assert all(points >= 0 for points in result.deal_score.values())
    winner = state.taker.team if result.contract == "made" else state.taker.team.other  # type: ignore[union-attr]
    # The winner of the deal always scores at least the bid (or the capot's flat value).
    assert result.deal_score[winner] >= min(ruleset["auction.min_bid"], ruleset["scoring.capot_bid.value"]) - 5


# ----------------------------------------------------------------------------- records


def test_random_family_records_replay_and_match_the_record_schema() -> None:
    import json

    import jsonschema

    from belote_ref.records.record import check_records, record_of, records_from_json_lines
    from belote_ref.core.resources import data_dir
    from belote_ref.engine.simulate import random_deals

    schema = json.loads((data_dir("schema") / "record.schema.json").read_text())
    # The schema checked once and its validator made once (jsonschema.validate does both for every record).
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    lines = []
    for rules in FAMILY:
        for state in random_deals(rules, seed=11, count=40):
            record = record_of(state)
            validator.validate(record)
            assert "turned" not in record and "completion" not in record
            assert all(len(cards) == 8 for cards in record["hands"].values())
            lines.append(json.dumps(record))
    assert len(records_from_json_lines(lines)) == len(lines)
    path = records_file(lines)
    verdicts = [check.verdict for check in check_records(path)]
    assert verdicts == ["good"] * len(lines)


def test_a_tampered_family_record_is_bad() -> None:
    import json

    from belote_ref.records.record import check_records, record_of
    from belote_ref.engine.simulate import random_deals

    played = next(state for state in random_deals(CONTREE, seed=4, count=20) if state.score is not None)
    record = record_of(played)
    record["result"]["deal_score"]["NS"] += 10
    (check,) = list(check_records(records_file([json.dumps(record)])))
    assert check.verdict == "bad" and any("result.deal_score" in problem for problem in check.problems)
    record = record_of(played)
    record["calls"] = ["coinche", *record["calls"][1:]]
    (check,) = list(check_records(records_file([json.dumps(record)])))
    assert check.verdict == "bad" and any("no bid to coinche" in problem for problem in check.problems)


def records_file(lines: list[str]) -> Any:
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp(prefix="coinche-records-"))
    path = folder / "deals.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_documented_contree_club_validates(tmp_path: Any) -> None:
    from pathlib import Path

    from belote_ref.rules.ruleset import load_ruleset

    text = (Path(__file__).parents[1] / "docs" / "house-rules.md").read_text()
    block = text.split("## A contrée club", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    assert len(block.strip().splitlines()) == 5
    path = tmp_path / "club-contree.yaml"
    path.write_text(block)
    club = load_ruleset(path)
    assert club["bidding.auction"] == "bids" and club["scoring.capot_bid.mode"] == "flat"
    # The capot bid of SWEEP: 500 + N's belote 20 = 520, no rounding.
    assert totals(score(club, SWEEP, "capot")) == ("made", 520, 0)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), ruleset=st.sampled_from(FAMILY))
def test_renamed_suits_and_rotated_seats_rename_a_family_score(seed: int, ruleset: Ruleset) -> None:
    from belote_ref.conformance.fuzz_generate import score_given
    from belote_ref.conformance.symmetry import variants

    situation = score_given(random.Random(seed), ruleset)
    if situation is None or situation["trump"] in ("SA", "TA"):
        return
    assert "bid" in situation and "pot" not in situation
    result = run_case(ruleset, "score", situation)
    derived = list(variants("score", situation, result))
    assert len(derived) == 4  # three other suits as trumps, and the seats one place on
    for label, renamed, expected in derived:
        assert run_case(ruleset, "score", renamed) == expected, label


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), ruleset=st.sampled_from(FAMILY), at=st.integers(0, 12))
def test_a_copy_of_a_deal_of_bids_goes_on_by_itself(seed: int, ruleset: Ruleset, at: int) -> None:
    """A copy taken in the auction or in the play: what is then called or played on one never shows
    in the other, and the copy, played on with the same choices, ends as the original does."""
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    state = BidDeal.from_bid_deck(ruleset, Seat(rng.randrange(4)), deck)
    choices = random.Random(seed + 1)
    moves: list[str | int] = []

    def step(deal: BidDeal, move: str | int | None = None) -> str | int:
        if deal.phase is Phase.AUCTION:
            legal = deal.status.legal
            call = move if isinstance(move, str) else (choices.choice(legal) if choices.random() < 0.3 else "pass")
            deal.call(call)
            return call
        card = move if isinstance(move, int) else choices.choice(list(deal.legal_plays()))
        deal.play(CARDS[card])
        return card

    while len(moves) < at and state.phase in (Phase.AUCTION, Phase.PLAY):
        moves.append(step(state))
    twin = state.copy()
    calls, plays, phase = list(state.bids.calls), list(state.plays), state.phase
    later: list[str | int] = []
    while state.phase in (Phase.AUCTION, Phase.PLAY):
        later.append(step(state))
    assert (twin.bids.calls, twin.plays, twin.phase) == (calls, plays, phase)
    for move in later:
        step(twin, move)
    assert (twin.phase, twin.score, twin.bid, twin.bids.calls) == (state.phase, state.score, state.bid, state.bids.calls)
