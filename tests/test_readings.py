"""Two readings fixed from their sources, and a score that checks the contract it is given (issue 32).

- **Belote prenable** (``belote.on_chute: to_defenders``) takes the belote of takers who fail, and
  nothing else: FFB-C16 §7, "En cas de chute du contrat, la belote est perdue par les preneurs";
  the tournoi international, art. 7, the belote "est toujours marquée par l'équipe l'ayant annoncée
  sauf si celle-ci chute". On a made contract the defenders keep theirs
  (``belote.defenders_on_made: kept_by_holder``), unless, as kydos does, a coinched deal's winner
  takes every belote (``to_takers_when_coinched``).
- **FFB-K15's contested capot base is 250** ("160 points, ou 250 points si capot réalisé, même non
  demandé"): ``scoring.bid.capot_base``, 250 in ``ffb-coinche-2015``, 252 (Cannes) by default.
- **score refuses a contract the ruleset cannot produce**: ``{"rejected": {"code": "bad_bid"}}``,
  and the corpus sends a case only where its given contract is (``Fixture.fits_bids``).

The deals are worked out by hand in the comments; rounding is off unless said.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from belote_ref.conformance.corpus import load_corpus
from belote_ref.protocol.serve import answer, run_case
from belote_ref.rules.ruleset import Ruleset, find_ruleset

CONTREE = find_ruleset("ffb-contree-2016")
COINCHE = find_ruleset("ffb-coinche-2015")
PAGAT = find_ruleset("pagat-coinche")


def variant(base: Ruleset, **changes: Any) -> Ruleset:
    return Ruleset.from_parameters({**base.params, **{k.replace("__", "."): v for k, v in changes.items()}})


# Trumps clubs, dealer S (W leads): EW win tricks 1-3, 28 + 38 + 5 = 71; NS the other five and the
# dix de der, 91. E holds belote (KC, QC).
SPLIT = {"dealer": "S", "trump": "C", "belote": "E", "announcements": [], "tricks": [
    {"leader": "W", "cards": ["AH", "QH", "KH", "TH"]}, {"leader": "W", "cards": ["JC", "7C", "KC", "9C"]},
    {"leader": "W", "cards": ["QS", "8S", "JS", "9S"]}, {"leader": "W", "cards": ["7H", "JH", "8H", "9H"]},
    {"leader": "N", "cards": ["AS", "7S", "TS", "KS"]}, {"leader": "N", "cards": ["AD", "QD", "KD", "TD"]},
    {"leader": "N", "cards": ["JD", "7D", "8D", "9D"]}, {"leader": "N", "cards": ["AC", "QC", "TC", "8C"]}]}

# Trumps hearts, dealer S: N ruffs W's ace of spades and leads trumps to the end: NS capot, 152 +
# 100 = 252 card points; N has belote (KH trick 6, QH trick 7).
SWEEP = {"dealer": "S", "trump": "H", "belote": "N", "announcements": [], "tricks": [
    {"leader": "W", "cards": ["AS", "7H", "7S", "8S"]}, {"leader": "N", "cards": ["JH", "9S", "TS", "JS"]},
    {"leader": "N", "cards": ["9H", "QS", "KS", "7D"]}, {"leader": "N", "cards": ["AH", "8D", "9D", "TD"]},
    {"leader": "N", "cards": ["TH", "JD", "QD", "KD"]}, {"leader": "N", "cards": ["KH", "AD", "7C", "8C"]},
    {"leader": "N", "cards": ["QH", "9C", "TC", "JC"]}, {"leader": "N", "cards": ["8H", "QC", "KC", "AC"]}]}


def score(rules: Ruleset, deal: dict[str, Any], taker: str, value: int | str, multiplier: int = 1) -> dict[str, Any]:
    return run_case(rules, "score", {**deal, "taker": taker, "bid": {"value": value, "multiplier": multiplier}})


def deal_score(result: dict[str, Any]) -> tuple[str, int, int]:
    return result["contract"], result["deal_score"]["NS"], result["deal_score"]["EW"]


UNROUNDED_CONTREE = variant(CONTREE, scoring__rounding__mode="none")


# ----------------------------------------------------------------------------- belote prenable


@pytest.mark.parametrize("on_chute", ["kept_by_holder", "to_defenders", "void"])
def test_defenders_keep_their_belote_when_the_takers_make_it(on_chute: str) -> None:
    # N bids 90: 91 >= 90, made (contrée: the defenders need not be beaten). NS 91 + 90 = 181; EW
    # 71 + their own belote 20 = 91, whatever belote.on_chute (the old reading gave NS 201, EW 71
    # under to_defenders and EW 71 under void).
    rules = variant(UNROUNDED_CONTREE, belote__on_chute=on_chute)
    assert deal_score(score(rules, SPLIT, "N", 90)) == ("made", 181, 91)


@pytest.mark.parametrize(("on_chute", "expected"), [
    ("kept_by_holder", ("down", 260, 20)), ("to_defenders", ("down", 280, 0)), ("void", ("down", 260, 0))])
def test_the_takers_belote_on_a_chute_still_follows_on_chute(on_chute: str, expected: tuple[str, int, int]) -> None:
    # E takes at 100 with E's belote: 71 + 20 = 91 < 100, down. NS 160 + 100 = 260, + EW's belote
    # when prenable; EW keep it when imprenable; nobody when void.
    rules = variant(UNROUNDED_CONTREE, belote__on_chute=on_chute)
    assert deal_score(score(rules, SPLIT, "E", 100)) == expected


def test_the_winner_of_a_coinched_deal_takes_the_defenders_belote_only_with_to_takers_when_coinched() -> None:
    # N's 90 coinched (x 2), made: everything, (160 + 90) x 2 = 500.
    kept = UNROUNDED_CONTREE
    taken = variant(UNROUNDED_CONTREE, belote__defenders_on_made="to_takers_when_coinched")
    assert deal_score(score(kept, SPLIT, "N", 90, 2)) == ("made", 500, 20)
    # kydos: the belote of a coinched deal ends with its winner: 500 + 20 (not multiplied).
    assert deal_score(score(taken, SPLIT, "N", 90, 2)) == ("made", 520, 0)
    # Multiplied with belote.multiplied, as the winner's belotes are: 500 + 20 x 2 = 540.
    assert deal_score(score(variant(taken, belote__multiplied=True), SPLIT, "N", 90, 2)) == ("made", 540, 0)
    # Not coinched: each side keeps its own, NS 181, EW 91.
    assert deal_score(score(taken, SPLIT, "N", 90)) == ("made", 181, 91)


# ----------------------------------------------------------------------------- the capot base


def test_ffb_k15_counts_250_for_a_contested_capot() -> None:
    assert COINCHE["scoring.bid.capot_base"] == 250 and CONTREE["scoring.bid.capot_base"] == 252
    unrounded = variant(COINCHE, scoring__rounding__mode="none")
    # N's 80 coinched, made with a capot: (250 + 80) x 2 = 660, + N's belote 20 x 2 (inside the
    # bracket) = 700; with the capot's card points as the base, (252 + 80) x 2 + 40 = 704.
    assert deal_score(score(unrounded, SWEEP, "N", 80, 2)) == ("made", 700, 0)
    assert deal_score(score(variant(unrounded, scoring__bid__capot_base=252), SWEEP, "N", 80, 2)) == ("made", 704, 0)
    # Not coinched, the card points themselves: 252 + 80 + 20 = 352.
    assert deal_score(score(unrounded, SWEEP, "N", 80)) == ("made", 352, 0)


# ----------------------------------------------------------------------------- a contract the ruleset cannot produce

BAD_BIDS = [
    (CONTREE, 110, 3),  # a contract is 1, 2 or 4 (auction.surcoinche_multiplier)
    (CONTREE, 85, 1),  # 80, 90, ... 160
    (CONTREE, 170, 1),  # above auction.max_bid
    (CONTREE, "generale", 1),  # auction.generale false
    (PAGAT, "capot", 2),  # auction.capot_can_be_doubled false
]


@pytest.mark.parametrize(("rules", "value", "multiplier"), BAD_BIDS)
def test_score_refuses_a_contract_no_auction_can_end_on(rules: Ruleset, value: int | str, multiplier: int) -> None:
    assert score(rules, SPLIT, "N", value, multiplier) == {"rejected": {"code": "bad_bid", "index": 0}}


def test_the_refusal_is_a_protocol_rejection_and_a_producible_bid_still_scores() -> None:
    message = {"cmd": "run", "seq": 7, "kind": "score",
               "ruleset": {"id": "x", "version": 1, "parameters": dict(UNROUNDED_CONTREE.params)},
               "given": {**SPLIT, "taker": "N", "bid": {"value": 90, "multiplier": 3}}}
    assert answer(message) == {"seq": 7, "result": {"rejected": {"code": "bad_bid", "index": 0}}}
    message["given"] = {**SPLIT, "taker": "N", "bid": {"value": 90, "multiplier": 4}}
    reply = answer(message)
    # Surcoinched (x 4), made: (160 + 90) x 4 = 1000; EW keep their belote.
    assert reply is not None and reply["result"]["deal_score"] == {"NS": 1000, "EW": 20}


def test_the_serve_process_refuses_it_with_one_reply_line() -> None:
    message = {"cmd": "run", "seq": 1, "kind": "score",
               "ruleset": {"id": "x", "version": 1, "parameters": dict(CONTREE.params)},
               "given": {**SPLIT, "taker": "N", "bid": {"value": 95, "multiplier": 1}}}
    lines = [json.dumps({"cmd": "hello", "protocols": [1, 2, 3]}), json.dumps(message), json.dumps({"cmd": "stop"})]
    done = subprocess.run([sys.executable, "-m", "belote_ref.cli", "serve"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=120, check=True)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert replies[1] == {"seq": 1, "result": {"rejected": {"code": "bad_bid", "index": 0}}}


def test_match_and_play_refuse_it_at_its_deal() -> None:
    good = {**SPLIT, "taker": "N", "bid": {"value": 90, "multiplier": 1}}
    bad = {**SPLIT, "taker": "N", "bid": {"value": 90, "multiplier": 3}}
    assert run_case(CONTREE, "match", {"deals": [good, bad]}) == {"rejected": {"code": "bad_bid", "index": 1}}
    # The same deal played out card by card: each trick's cards go round from its leader.
    order = ["N", "E", "S", "W"]
    hands: dict[str, list[str]] = {seat: [] for seat in order}
    for trick in SPLIT["tricks"]:
        first = order.index(trick["leader"])
        for offset, card in enumerate(trick["cards"]):
            hands[order[(first + offset) % 4]].append(card)
    plays = [card for trick in SPLIT["tricks"] for card in trick["cards"]]
    play = {"hands": hands, "leader": "W", "plays": plays, "belote": "E",
            "contract": {"trump": "C", "taker": "N", "bid": {"value": 90, "multiplier": 1}}}
    assert run_case(UNROUNDED_CONTREE, "play", play)["score"]["deal_score"] == {"NS": 181, "EW": 91}
    play["contract"] = {"trump": "C", "taker": "N", "bid": {"value": 90, "multiplier": 3}}
    assert run_case(CONTREE, "play", play) == {"rejected": {"code": "bad_bid", "index": 0}}


# ----------------------------------------------------------------------------- the corpus sends what applies


def _fixture(fixture_id: str) -> Any:
    return next(f for f in load_corpus() if f.id == fixture_id)


def test_a_case_is_not_sent_where_its_contract_is_off_the_ladder() -> None:
    made = _fixture("score.bids.belote.defenders-belote-on-a-made-contract")  # N bids 110
    assert made.expected(variant(CONTREE, scoring__rounding__mode="none")) is not None
    assert made.expected(variant(CONTREE, scoring__rounding__mode="none", auction__max_bid=100)) is None
    refused = _fixture("score.bids.bad-bid.value-off-the-ladder")  # 115
    assert refused.expected(CONTREE) == {"rejected": {"code": "bad_bid", "index": 0}}
    assert refused.expected(variant(CONTREE, auction__step=5)) is None


def test_rules_show_names_the_new_parameters_and_their_sources() -> None:
    done = subprocess.run([sys.executable, "-m", "belote_ref.cli", "rules", "show", "ffb-coinche-2015"],
                          capture_output=True, text=True, timeout=120, check=True)
    for needle in ("scoring.bid.capot_base", "250", "belote.defenders_on_made", "FFB-K15"):
        assert needle in done.stdout, needle
