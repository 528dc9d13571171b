"""Matches to the target: totals, the litige pot between deals, and every game.* end rule.

The deals below were built by hand; the card points of every trick are written beside it
(trump hearts: J 20, 9 14, A 11, T 10, K 4, Q 3; plain: A 11, T 10, K 4, Q 3, J 2).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_ref import Ruleset, Seat, Suit, Team, find_ruleset, parse_cards
from belote_ref.engine.match import Match
from belote_ref.engine.play import Trick
from belote_ref.engine.scoring import final_deal_matters, score_deal
from belote_ref.engine.simulate import random_deal


@dataclass(frozen=True)
class Deal:
    dealer: Seat
    taker: Seat
    tricks: tuple[Trick, ...]
    belote: Seat | None = None

    def rotated(self) -> Deal:
        """Every seat moved one place on: the NS and EW results swap."""
        return Deal(self.dealer.next, self.taker.next,
                    tuple(Trick(t.leader.next, t.cards) for t in self.tricks),
                    self.belote.next if self.belote is not None else None)

    def taken_by(self, taker: Seat) -> Deal:
        return Deal(self.dealer, taker, self.tricks, self.belote)


def tricks(*rows: str) -> tuple[Trick, ...]:
    return tuple(Trick(Seat.parse(row[0]), tuple(parse_cards(row[2:]))) for row in rows)


# Deal B: N takes hearts and makes it, NS 132 - EW 30 (dealer W, eldest N leads).
B = Deal(Seat.W, Seat.N, tricks(
    "N AS TS KS QS",  # N wins 28
    "N JS 9S 8S 7S",  # N 2
    "N AD TD KD QD",  # N 28
    "N JD 9D 8D 7D",  # N 2
    "N 7C AC TC KC",  # E wins 25
    "E QC JC 9C 8C",  # E 5
    "E 7H JH 9H AH",  # S wins 45
    "S TH KH QH 8H",  # S 17 + 10 dix de der = 27   -> NS 132, EW 30
))
# Deal C: NS sweep all eight tricks while W holds and announces belote (KH, QH).
C = Deal(Seat.W, Seat.N, tricks(
    "N JH 7S 7D KH",  # 24
    "N 9H 8S 8D QH",  # 17
    "N AH 9S 9D 7C",  # 11
    "N TH JS JD 8C",  # 14
    "N AS QS KS 9C",  # 18
    "N TS QD 7H JC",  # S ruffs: 15
    "S 8H QC AD KD",  # 18
    "S TD KC AC TC",  # 35: 152 card points, capot: 152 + 100 = 252
), belote=Seat.W)
# Deal L: 81 - 81, no belote (NS 71 + 10 dix de der; EW 28 + 28 + 25).
L = Deal(Seat.W, Seat.N, tricks(
    "N JS 7S 9S 8S",  # N 2
    "N JC 7C 9C 8C",  # N 2
    "N QD 9D JD 8D",  # N 5
    "N 7H 8H JH 9H",  # S 34
    "S KC AC QC TC",  # W 28
    "W AS KS QS TS",  # W 28
    "W AD TD KD 7D",  # W 25
    "W KH AH QH TH",  # N 28 + 10
))


def variant(**changes: Any) -> Ruleset:
    params = dict(find_ruleset("classic").params)
    params.update({key.replace("__", "."): value for key, value in changes.items()})
    return Ruleset.from_parameters(params, id="test")


def play(rules: Ruleset, *deals: Deal) -> Match:
    match = Match(rules)
    for deal in deals:
        if match.ended:
            break
        match.play_deal(dealer=deal.dealer, taker=deal.taker, trump=Suit.H, tricks=deal.tricks, belote=deal.belote)
    return match


def totals(match: Match) -> list[tuple[int, int]]:
    return [(row[Team.NS], row[Team.EW]) for row in match.history]


class TestTheDeals:
    def test_hand_computed_scores(self) -> None:
        classic = find_ruleset("classic")
        assert totals(play(classic, B)) == [(132, 30)]
        assert totals(play(classic, B.rotated())) == [(30, 132)]
        # E takes deal B's cards: 30 < 132, chute: NS score the base 162 (rules.md §1.10).
        assert totals(play(classic, B.taken_by(Seat.E))) == [(162, 0)]
        # Capot 252 for NS; W's belote is imprenable (seed 003: "excepté la belote qui est imprenable").
        assert totals(play(classic, C)) == [(252, 20)]
        # E takes deal C and is swept: the defenders' capot 252, EW keep their belote.
        assert totals(play(classic, C.taken_by(Seat.E))) == [(252, 20)]


class TestTarget:
    def test_first_to_reach_the_target_wins(self) -> None:
        # 1000 points: 252, 504, 756, 1008.
        match = play(find_ruleset("classic"), C, C, C, C, C)
        assert totals(match) == [(252, 20), (504, 40), (756, 60), (1008, 80)]
        assert (match.ended, match.winner, len(match.history)) == (True, Team.NS, 4)

    @pytest.mark.parametrize(("win_when", "deals"), [("reach", 2), ("exceed", 3)])
    def test_reach_or_exceed(self, win_when: str, deals: int) -> None:
        # Target 264 = 2 x 132: reaching it is enough under `reach` (FFB), not under `exceed`.
        match = play(variant(game__target_points=264, game__win_when=win_when), B, B, B)
        assert (match.winner, len(match.history)) == (Team.NS, deals)

    def test_not_ended(self) -> None:
        match = play(find_ruleset("classic"), B, B)
        assert (match.ended, match.winner, totals(match)) == (False, None, [(132, 30), (264, 60)])


class TestBothCross:
    # After B.rotated(): EW 132, NS 30. Then E takes deal C and is swept: NS 282, EW 152.
    DEALS = (B.rotated(), C.taken_by(Seat.E))

    @pytest.mark.parametrize(("rule", "winner"), [("higher_total", Team.NS), ("draw", None), ("last_taker", Team.EW)])
    def test_simultaneous_finish(self, rule: str, winner: Team | None) -> None:
        match = play(variant(game__target_points=150, game__simultaneous_finish=rule), *self.DEALS)
        assert totals(match) == [(30, 132), (282, 152)]
        assert (match.ended, match.winner) == (True, winner)

    @pytest.mark.parametrize(("no_win", "winner"), [(False, Team.EW), (True, Team.NS)])
    def test_no_win_on_capot_with_belote(self, no_win: bool, winner: Team) -> None:
        # FFB web: a team that was capot cannot win on that deal through its belote alone; EW
        # reached 152 only with their belote while swept, so only NS's crossing counts.
        match = play(variant(game__target_points=150, game__simultaneous_finish="last_taker",
                             game__no_win_on_capot_with_belote=no_win), *self.DEALS)
        assert match.winner is winner

    @pytest.mark.parametrize(("no_win", "ended"), [(False, True), (True, False)])
    def test_swept_team_alone_crossing_on_its_belote(self, no_win: bool, ended: bool) -> None:
        # Capot worth a plain 162 here, target 280: EW 264 then +20 belote while swept = 284;
        # NS 60 + 162 = 222 < 280.
        rules = variant(game__target_points=280, scoring__capot__last_trick_bonus=10,
                        game__no_win_on_capot_with_belote=no_win)
        match = play(rules, B.rotated(), B.rotated(), C)
        assert totals(match) == [(30, 132), (60, 264), (222, 284)]
        assert (match.ended, match.winner) == (ended, Team.EW if ended else None)


class TestExactTie:
    @pytest.mark.parametrize(("rule", "expected"), [("extra_deals", (Team.NS, 3)), ("draw", (None, 2))])
    def test_exact_tie(self, rule: str, expected: tuple[Team | None, int]) -> None:
        # Target 150: 132-30, then 162-162 (both past, level), then B again: 294-192.
        match = play(variant(game__target_points=150, game__exact_tie=rule), B, B.rotated(), B)
        assert match.ended
        assert (match.winner, len(match.history)) == expected
        assert totals(match)[:2] == [(132, 30), (162, 162)]


class TestDealLimit:
    def test_limit_reached(self) -> None:
        match = play(variant(game__end="deals", game__deal_limit=2), B, B, B)
        assert (totals(match), match.winner) == ([(132, 30), (264, 60)], Team.NS)

    @pytest.mark.parametrize(("rule", "expected"), [("extra_deals", (Team.NS, 3)), ("draw", (None, 2))])
    def test_tie_at_the_limit(self, rule: str, expected: tuple[Team | None, int]) -> None:
        match = play(variant(game__end="deals", game__deal_limit=2, game__exact_tie=rule), B, B.rotated(), B)
        assert (match.winner, len(match.history)) == expected

    @pytest.mark.parametrize(("counted", "ended_after_pass"), [(True, True), (False, False)])
    def test_passed_deals(self, counted: bool, ended_after_pass: bool) -> None:
        # FFB-B16 §10.4.1: in deal-limited games the void deal does not count.
        match = Match(variant(game__end="deals", game__deal_limit=2, game__count_passed_deals=counted))
        match.play_deal(dealer=B.dealer, taker=B.taker, trump=Suit.H, tricks=B.tricks, belote=None)
        match.pass_deal()
        assert (match.ended, match.winner) == (ended_after_pass, Team.NS if ended_after_pass else None)


class TestLitigePot:
    """FFB-B16 §10.1.3: the takers' 81 wait and go to the team that wins the next deal."""

    def test_pot_paid_to_the_takers_who_make_the_next_deal(self) -> None:
        match = play(find_ruleset("classic"), L, B)
        assert totals(match) == [(0, 81), (132 + 81, 30 + 81)]
        assert match.pot == 0

    def test_pot_paid_to_the_defenders_when_the_next_deal_fails(self) -> None:
        match = play(find_ruleset("classic"), L, B.taken_by(Seat.E))
        assert totals(match) == [(0, 81), (162 + 81, 81)]

    def test_two_litiges_add_up(self) -> None:
        match = play(find_ruleset("classic"), L, L, B)
        assert totals(match) == [(0, 81), (0, 162), (132 + 162, 162 + 30)]

    @pytest.mark.parametrize(("on_tie", "first"), [("takers_fail", (0, 162)), ("takers_succeed", (81, 81))])
    def test_without_litige(self, on_tie: str, first: tuple[int, int]) -> None:
        match = play(variant(scoring__contract__on_tie=on_tie), L)
        assert totals(match) == [first] and match.pot == 0


class TestRounding:
    def test_rounded_deal_scores(self) -> None:
        # FFB-B16 §10.3 half up: 132 -> 130, 30 -> 30.
        match = play(variant(scoring__rounding__mode="nearest_10_half_up"), B)
        assert totals(match) == [(130, 30)]

    @pytest.mark.parametrize(("exact", "first"), [(True, (132, 30)), (False, (130, 30))])
    def test_final_deal_exact(self, exact: bool, first: tuple[int, int]) -> None:
        rules = variant(scoring__rounding__mode="nearest_10_half_up", scoring__rounding__final_deal_exact=exact,
                        game__end="deals", game__deal_limit=1)
        assert totals(play(rules, B)) == [first]


# ----------------------------------------------------------------- scored once when final changes nothing


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), choice=st.integers(min_value=0, max_value=11))
def test_a_deal_final_deal_matters_leaves_alone_scores_the_same_final_or_not(seed: int, choice: int) -> None:
    """Match.play_deal scores a deal a second time (not as the final deal) only when
    final_deal_matters says the final scoring could differ; elsewhere the two must be equal."""
    rounding = ("none", "nearest_10_half_up", "complement_160")[choice % 3]
    rules = Ruleset.from_parameters({**find_ruleset("classic").params, "scoring.rounding.mode": rounding,
                                     "scoring.rounding.final_deal_exact": bool(choice & 4),
                                     "scoring.litige.on_final_deal": ("each_scores_own", "pot_unpaid")[choice >> 3 & 1],
                                     "scoring.contract.on_tie": "litige"})
    rng = random.Random(seed)
    checked = 0
    for _ in range(40):
        state = random_deal(rules, rng, pot=rng.choice((0, 0, 81)))
        if state.score is None:
            continue
        arguments = {"dealer": state.dealer, "taker": state.taker, "trump": state.trump, "tricks": state.tricks,
                     "belote": state.belote, "announcements": state.declarations, "pot": state.pot}
        final, other = score_deal(rules, final_deal=True, **arguments), score_deal(rules, final_deal=False, **arguments)
        if not final_deal_matters(rules, final):
            assert (final.to_json(), final.lines) == (other.to_json(), other.lines)
            checked += 1
    assert checked or (rounding != "none" and choice & 4)
