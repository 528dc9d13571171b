"""Scoring a deal (belote_ref.engine.scoring): rules.md §1.7, §1.8, §1.10, §1.11 and the seeds.

Every deal below is written by hand as 8 tricks ("N: 7S 8S 9S TS" = the leader, then the cards in
play order) with hearts as trumps, and its card points are worked out in the comments:
trump J 20, 9 14, A 11, T 10, K 4, Q 3, 8 and 7 0; plain A 11, T 10, K 4, Q 3, J 2, 9 8 7 0.
Unless a test says otherwise W deals, so N (eldest) leads trick 1, and N takes (NS are the takers).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest

from belote_ref import BeloteRefError, CardSet, Rank, Ruleset, Seat, Suit, Team, find_ruleset, load_registry, parse_cards
from belote_ref.engine.announcements import Combination, Declaration, make_combination
from belote_ref.engine.play import Trick
from belote_ref.engine.scoring import DealScore, InconsistentDealError, ScoreLine, deal_total, score_deal

NS, EW = Team.NS, Team.EW

# ------------------------------------------------------------------------------------ deals

# B0: 81-81, no belote (S plays KH, W plays QH).
B0 = (
    "N: JH 7H 8H 9H",  # N wins (JH): 20 + 0 + 0 + 14 = 34 NS
    "N: AS 7S 8S KD",  # N (AS): 11 + 0 + 0 + 4 = 15 NS
    "N: TS 9S JS QS",  # N (TS): 10 + 0 + 2 + 3 = 15 NS
    "N: 7C AC 8C 9C",  # E (AC): 11 EW
    "E: TC JC QC KC",  # E (TC): 10 + 2 + 3 + 4 = 19 EW
    "E: AD 7D JD 8D",  # E (AD): 11 + 0 + 2 + 0 = 13 EW
    "E: 9D TD QD KS",  # S (TD): 0 + 10 + 3 + 4 = 17 NS
    "S: KH QH TH AH",  # S KH, W QH, N TH, E AH -> E (AH): 4 + 3 + 10 + 11 = 28, + 10 dix de der EW
)  # NS 34 + 15 + 15 + 17 = 81; EW 11 + 19 + 13 + 28 + 10 = 81
# W holds the tierce K-Q-J of diamonds (KD trick 2, JD trick 6, QD trick 7).

# Deliberate copy: each variant of B0 is written out whole, so that its hand arithmetic can be checked line by line.
B0_PLUS = (  # B0 with W's QS (trick 3) and N's KC (trick 5) exchanged
    "N: JH 7H 8H 9H",  # 34 NS
    "N: AS 7S 8S KD",  # 15 NS
    "N: TS 9S JS KC",  # N (TS; KC a discard): 10 + 0 + 2 + 4 = 16 NS
    "N: 7C AC 8C 9C",  # 11 EW
    "E: TC JC QC QS",  # E (TC): 10 + 2 + 3 + 3 = 18 EW
    "E: AD 7D JD 8D",  # 13 EW
    "E: 9D TD QD KS",  # 17 NS
    "S: KH QH TH AH",  # 28 + 10 EW
)  # NS 34 + 15 + 16 + 17 = 82; EW 11 + 18 + 13 + 38 = 80

B0_MINUS = (  # B0 with W's QS (trick 3) and W's JD (trick 6) exchanged
    "N: JH 7H 8H 9H",  # 34 NS
    "N: AS 7S 8S KD",  # 15 NS
    "N: TS 9S JS JD",  # N (TS): 10 + 0 + 2 + 2 = 14 NS
    "N: 7C AC 8C 9C",  # 11 EW
    "E: TC JC QC KC",  # 19 EW
    "E: AD 7D QS 8D",  # E (AD): 11 + 0 + 3 + 0 = 14 EW
    "E: 9D TD QD KS",  # 17 NS
    "S: KH QH TH AH",  # 28 + 10 EW
)  # NS 34 + 15 + 14 + 17 = 80; EW 11 + 19 + 14 + 38 = 82

B0_83 = (  # B0 with S's 8S (trick 2) and S's JC (trick 5) exchanged
    "N: JH 7H 8H 9H",  # 34 NS
    "N: AS 7S JC KD",  # N (AS): 11 + 0 + 2 + 4 = 17 NS
    "N: TS 9S JS QS",  # 15 NS
    "N: 7C AC 8C 9C",  # 11 EW
    "E: TC 8S QC KC",  # E (TC): 10 + 0 + 3 + 4 = 17 EW
    "E: AD 7D JD 8D",  # 13 EW
    "E: 9D TD QD KS",  # 17 NS
    "S: KH QH TH AH",  # 28 + 10 EW
)  # NS 34 + 17 + 15 + 17 = 83; EW 11 + 17 + 13 + 38 = 79

R84 = (  # B0 with E's 7S (trick 2) and W's QC (trick 5) exchanged
    "N: JH 7H 8H 9H",  # 34 NS
    "N: AS QC 8S KD",  # N (AS): 11 + 3 + 0 + 4 = 18 NS
    "N: TS 9S JS QS",  # 15 NS
    "N: 7C AC 8C 9C",  # 11 EW
    "E: TC JC 7S KC",  # E (TC): 10 + 2 + 0 + 4 = 16 EW
    "E: AD 7D JD 8D",  # 13 EW
    "E: 9D TD QD KS",  # 17 NS
    "S: KH QH TH AH",  # 28 + 10 EW
)  # NS 34 + 18 + 15 + 17 = 84; EW 11 + 16 + 13 + 38 = 78

R85 = (  # B0 with E's 7S (trick 2) and N's KC (trick 5) exchanged
    "N: JH 7H 8H 9H",  # 34 NS
    "N: AS KC 8S KD",  # N (AS): 11 + 4 + 0 + 4 = 19 NS
    "N: TS 9S JS QS",  # 15 NS
    "N: 7C AC 8C 9C",  # 11 EW
    "E: TC JC QC 7S",  # E (TC): 10 + 2 + 3 + 0 = 15 EW
    "E: AD 7D JD 8D",  # 13 EW
    "E: 9D TD QD KS",  # 17 NS
    "S: KH QH TH AH",  # 28 + 10 EW
)  # NS 34 + 19 + 15 + 17 = 85; EW 11 + 15 + 13 + 38 = 77

R86 = (  # R84 with S's 8S (trick 2) and S's JC (trick 5) also exchanged
    "N: JH 7H 8H 9H",  # 34 NS
    "N: AS QC JC KD",  # N (AS): 11 + 3 + 2 + 4 = 20 NS
    "N: TS 9S JS QS",  # 15 NS
    "N: 7C AC 8C 9C",  # 11 EW
    "E: TC 8S 7S KC",  # E (TC): 10 + 0 + 0 + 4 = 14 EW
    "E: AD 7D JD 8D",  # 13 EW
    "E: 9D TD QD KS",  # 17 NS
    "S: KH QH TH AH",  # 28 + 10 EW
)  # NS 34 + 20 + 15 + 17 = 86; EW 11 + 14 + 13 + 38 = 76

# B1: N plays QH (trick 1) and KH (trick 8): N holds belote, queen first. 71-91 in card points.
B1 = (
    "N: QH 7H JH 9H",  # S (JH): 3 + 0 + 20 + 14 = 37 NS
    "S: KS KD AS 7S",  # S KS, W KD, N AS, E 7S -> N (AS): 4 + 4 + 11 + 0 = 19 NS
    "N: TS 9S JS QS",  # N (TS): 10 + 0 + 2 + 3 = 15 NS
    "N: 7C AC 8C 9C",  # E (AC): 11 EW
    "E: TC JC QC KC",  # E (TC): 19 EW
    "E: AD 7D QD 8D",  # E (AD): 11 + 0 + 3 + 0 = 14 EW
    "E: TD 9D JD 8S",  # E (TD): 10 + 0 + 2 + 0 = 12 EW
    "E: AH 8H TH KH",  # E AH, S 8H, W TH, N KH -> E (AH): 11 + 0 + 10 + 4 = 25, + 10 EW
)  # NS 37 + 19 + 15 = 71; EW 11 + 19 + 14 + 12 + 25 + 10 = 91

B1_PLUS = (  # B1 with W's QS (trick 3) and N's KC (trick 5) exchanged
    "N: QH 7H JH 9H",  # 37 NS
    "S: KS KD AS 7S",  # 19 NS
    "N: TS 9S JS KC",  # N (TS): 10 + 0 + 2 + 4 = 16 NS
    "N: 7C AC 8C 9C",  # 11 EW
    "E: TC JC QC QS",  # E (TC): 10 + 2 + 3 + 3 = 18 EW
    "E: AD 7D QD 8D",  # 14 EW
    "E: TD 9D JD 8S",  # 12 EW
    "E: AH 8H TH KH",  # 25 + 10 EW
)  # NS 37 + 19 + 16 = 72; EW 11 + 18 + 14 + 12 + 35 = 90

B1_MINUS = (  # B1 with W's KD (trick 2) and W's QD (trick 6) exchanged
    "N: QH 7H JH 9H",  # 37 NS
    "S: KS QD AS 7S",  # N (AS): 4 + 3 + 11 + 0 = 18 NS
    "N: TS 9S JS QS",  # 15 NS
    "N: 7C AC 8C 9C",  # 11 EW
    "E: TC JC QC KC",  # 19 EW
    "E: AD 7D KD 8D",  # E (AD): 11 + 0 + 4 + 0 = 15 EW
    "E: TD 9D JD 8S",  # 12 EW
    "E: AH 8H TH KH",  # 25 + 10 EW
)  # NS 37 + 18 + 15 = 70; EW 11 + 19 + 15 + 12 + 35 = 92

B1_KING_FIRST = (  # B1 with N's QH (trick 1) and N's KH (trick 8) exchanged: the king comes first
    "N: KH 7H JH 9H",  # S (JH): 4 + 0 + 20 + 14 = 38 NS
    "S: KS KD AS 7S",  # 19 NS
    "N: TS 9S JS QS",  # 15 NS
    "N: 7C AC 8C 9C",  # 11 EW
    "E: TC JC QC KC",  # 19 EW
    "E: AD 7D QD 8D",  # 14 EW
    "E: TD 9D JD 8S",  # 12 EW
    "E: AH 8H TH QH",  # E (AH): 11 + 0 + 10 + 3 = 24, + 10 EW
)  # NS 38 + 19 + 15 = 72; EW 11 + 19 + 14 + 12 + 24 + 10 = 90

# CAPOT_NS: N wins all eight tricks. E plays KH, QH (belote) and 7D 8D 9D (a tierce).
CAPOT_NS = (
    "N: JH KH 7H 8H",  # N: 20 + 4 + 0 + 0 = 24
    "N: 9H QH TH AH",  # N (9H beats AH): 14 + 3 + 10 + 11 = 38
    "N: AD 7D 7S 8S",  # N: 11
    "N: TD 8D 9S JS",  # N: 10 + 0 + 0 + 2 = 12
    "N: KD 9D QD JD",  # N: 4 + 0 + 3 + 2 = 9
    "N: AS JC QS KS",  # N: 11 + 2 + 3 + 4 = 20
    "N: TS 7C 8C 9C",  # N: 10
    "N: AC QC TC KC",  # N: 11 + 3 + 10 + 4 = 28
)  # NS 24 + 38 + 11 + 12 + 9 + 20 + 10 + 28 = 152, the whole pack

# CAPOT_EW: the same tricks one seat round, N dealing so that E leads: E wins all eight tricks.
# S (a taker when N takes) plays KH, QH (belote) and 7D 8D 9D (a tierce).
CAPOT_EW = tuple("E" + trick[1:] for trick in CAPOT_NS)  # EW 152

# DOWN_ANN: N deals, E leads; EW win seven tricks, S the last. S plays KH, QH and 7D 8D 9D.
DOWN_ANN = (
    "E: JH KH 7H 8H",  # E: 24
    "E: 9H QH TH AH",  # E: 38
    "E: AD 7D 7S 8S",  # E: 11
    "E: TD 8D 9S JS",  # E: 12
    "E: KD 9D QD JD",  # E: 9
    "E: AS JC QS KS",  # E: 20
    "E: TS 7C 8C AC",  # E TS, S 7C, W 8C, N AC -> E (spades led): 10 + 0 + 0 + 11 = 21
    "E: 9C TC QC KC",  # E 9C, S TC, W QC, N KC -> S (TC): 0 + 10 + 3 + 4 = 17, + 10
)  # EW 24 + 38 + 11 + 12 + 9 + 20 + 21 = 135; NS 17 + 10 = 27


# ANN2: B0 with N's 8D (trick 3) and W's QS (trick 6) exchanged. N plays AS, KS, QS (a tierce to
# the ace); W plays KD, JD, QD (a tierce to the king).
ANN2 = (
    "N: JH 7H 8H 9H",  # 34 NS
    "N: AS 7S 8S KD",  # 15 NS
    "N: TS 9S JS 8D",  # N (TS): 10 + 0 + 2 + 0 = 12 NS
    "N: 7C AC 8C 9C",  # 11 EW
    "E: TC JC QC KC",  # 19 EW
    "E: AD 7D JD QS",  # E (AD): 11 + 0 + 2 + 3 = 16 EW
    "E: 9D TD QD KS",  # 17 NS
    "S: KH QH TH AH",  # 28 + 10 EW
)  # NS 34 + 15 + 12 + 17 = 78; EW 11 + 19 + 16 + 38 = 84


# ---------------------------------------------------------------------------------- helpers


def tricks(deal: Sequence[str]) -> list[Trick]:
    """Build Trick objects from "N: 7S 8S 9S TS" strings (leader, then the cards in play order)."""
    built = []
    for text in deal:
        leader, cards = text.split(":")
        built.append(Trick(Seat.parse(leader.strip()), tuple(parse_cards(cards))))
    return built


@cache
def ruleset(base: str = "classic", **changes: Any) -> Ruleset:
    """A shipped ruleset with some parameters changed (``scoring__contract__on_tie="takers_fail"``)."""
    params = dict(find_ruleset(base).params)
    if not changes:
        return find_ruleset(base)
    params.update({key.replace("__", "."): value for key, value in changes.items()})
    return Ruleset.from_parameters(params)


CLASSIC = find_ruleset("classic")
ANNONCES = find_ruleset("classic-annonces")
REGISTRY = load_registry()


def score(
    rules: Ruleset,
    deal: Sequence[str],
    *,
    dealer: Seat = Seat.W,
    taker: Seat = Seat.N,
    belote: Seat | None = None,
    announcements: Sequence[Declaration] = (),
    pot: int = 0,
    final_deal: bool = False,
) -> DealScore:
    """score_deal with hearts trumps, checking that the lines itemise the deal score."""
    result = score_deal(
        rules,
        dealer=dealer,
        taker=taker,
        trump=Suit.H,
        tricks=tricks(deal),
        belote=belote,
        announcements=announcements,
        pot=pot,
        final_deal=final_deal,
    )
    for team in Team:
        assert sum(line.points for line in result.lines_for(team)) == result.deal_score[team], result.lines
    for line in result.lines:
        assert isinstance(line, ScoreLine)
        assert line.rule in REGISTRY, line
    return result


def scores(ns: int, ew: int) -> dict[Team, int]:
    return {NS: ns, EW: ew}


def declare(seat: Seat, kind: str, cards: str, rules: Ruleset = ANNONCES) -> Declaration:
    return Declaration(seat, make_combination(rules, Suit.H, kind, CardSet.parse(cards)))


def rules_of(result: DealScore) -> set[str]:
    return {line.rule for line in result.lines}


# ------------------------------------------------------------------------- card points, capot


class TestCardPoints:
    def test_deal_total_is_computed_from_the_tables(self) -> None:
        # rules.md §1.2: "pack 62 + 3×30 = 152; last trick (dix de der) +10 → 162 per deal".
        assert deal_total(CLASSIC, Suit.H) == 162
        assert deal_total(ruleset(scoring__last_trick_bonus=20), Suit.S) == 172

    def test_trick_winners_card_points_and_dix_de_der(self) -> None:
        # rules.md §1.7: "Dix de der: +10 to the team that wins trick 8".
        result = score(CLASSIC, B0_PLUS)
        assert result.trick_winners == (Seat.N, Seat.N, Seat.N, Seat.E, Seat.E, Seat.E, Seat.S, Seat.E)
        assert result.card_points == scores(82, 80)
        assert result.capot is None
        bonus = [line for line in result.lines if line.rule == "scoring.last_trick_bonus"]
        assert bonus == [ScoreLine(EW, 10, "scoring.last_trick_bonus", bonus[0].note)]

    def test_a_score_line_is_immutable_and_its_note_written_when_read(self) -> None:
        line = ScoreLine(EW, 10, "scoring.last_trick_bonus", "dix de der: trick 8 won by {0.name}", Seat.E)
        for name in ("team", "points", "rule", "note", "other"):
            with pytest.raises(AttributeError):
                setattr(line, name, None)
        assert (line.team, line.points, line.rule) == (EW, 10, "scoring.last_trick_bonus")
        assert line == ScoreLine(EW, 10, "scoring.last_trick_bonus", "dix de der: trick 8 won by E")
        assert hash(line) == hash(ScoreLine(EW, 10, "scoring.last_trick_bonus", "dix de der: trick 8 won by E"))
        assert eval(repr(line), {"ScoreLine": ScoreLine, "Team": Team}) == line

    def test_capot_raised_last_trick_252(self) -> None:
        # Seed 003: "En cas de capot ... Leurs adversaires marquent 252 points de capot";
        # rules.md §1.7: "the sweeping team's card total is 152 + 100 = 252".
        result = score(CLASSIC, CAPOT_NS)
        assert result.capot is NS
        assert result.contract == "made"
        assert result.card_points == scores(252, 0)  # 152 + 100
        assert result.deal_score == scores(252, 0)
        assert "scoring.capot.mode" in rules_of(result)

    def test_capot_flat_250(self) -> None:
        # Seed 000: "Une équipe qui remporte tous les plis réalise un capot et marque 250 points."
        result = score(find_ruleset("cafe-250"), CAPOT_NS)
        assert result.card_points == scores(250, 0)
        assert result.deal_score == scores(250, 0)

    def test_capot_as_a_plain_162(self) -> None:
        # rules.md §1.7: "Two Alsatian/Gard concours score a capot as a plain 162"
        # (scoring.capot.last_trick_bonus 10: "10 gives a plain 162").
        result = score(ruleset(scoring__capot__last_trick_bonus=10), CAPOT_NS)
        assert result.card_points == scores(162, 0)  # 152 + 10

    def test_capot_by_the_takers_with_the_defenders_belote(self) -> None:
        # Seed 003: "le camp perdant ne marque rien, excepté la belote qui est imprenable".
        result = score(CLASSIC, CAPOT_NS, belote=Seat.E)
        assert result.belote is EW
        assert result.deal_score == scores(252, 20)
        # belote.on_capot_against_holder lost: "Whether a team that won no trick still scores its belote."
        lost = score(ruleset(belote__on_capot_against_holder="lost"), CAPOT_NS, belote=Seat.E)
        assert lost.belote is EW
        assert lost.deal_score == scores(252, 0)
        assert "belote.on_capot_against_holder" in rules_of(lost)

    @pytest.mark.parametrize(
        ("mode", "expected"),
        [
            # Seed 003: the sweepers score "252 points de capot, leurs annonces ainsi que les annonces
            # de l'autre camp": 252 + E's tierce 20 = 272; E keeps its belote 20.
            ("transfer_to_winner", scores(272, 20)),
            # rules.md §1.10: "or are simply void (Pagat ...: a side with no trick counts no declarations)".
            ("void", scores(252, 20)),
            # scoring.capot.loser_announcements keep: the swept side keeps them: 20 belote + 20 tierce.
            ("keep", scores(252, 40)),
        ],
    )
    def test_capot_by_the_takers_with_the_defenders_announcements(self, mode: str, expected: dict[Team, int]) -> None:
        rules = ruleset("classic-annonces", scoring__capot__loser_announcements=mode)
        tierce = declare(Seat.E, "tierce", "7D 8D 9D", rules)
        result = score(rules, CAPOT_NS, belote=Seat.E, announcements=[tierce])
        assert result.announcements == scores(0, 20)  # E's tierce wins the comparison (NS declared nothing)
        assert result.contract == "made"  # a capot by the takers is always made
        assert result.deal_score == expected
        assert "scoring.capot.loser_announcements" in rules_of(result)


class TestCapotByTheDefenders:
    def test_defenders_earn_the_capot_bonus(self) -> None:
        # rules.md §1.10: "If the defenders won all 8 tricks, FFB-B16 gives them 252".
        result = score(CLASSIC, CAPOT_EW, dealer=Seat.N, taker=Seat.N)
        assert result.trick_winners == (Seat.E,) * 8
        assert result.capot is EW
        assert result.contract == "down"
        assert result.card_points == scores(0, 252)
        assert result.deal_score == scores(0, 252)
        assert "scoring.capot.defenders_earn_bonus" in rules_of(result)

    def test_defenders_without_the_capot_bonus(self) -> None:
        # rules.md §1.10: "Pagat (per card-game-dsl) only the ordinary dedans award" = chute base 162.
        result = score(ruleset(scoring__capot__defenders_earn_bonus=False), CAPOT_EW, dealer=Seat.N)
        assert result.card_points == scores(0, 252)
        assert result.deal_score == scores(0, 162)
        assert "scoring.chute.base" in rules_of(result)

    def test_defenders_capot_flat(self) -> None:
        # scoring.capot.mode flat: "the sweeping team's card points are a flat value (250)".
        result = score(find_ruleset("cafe-250"), CAPOT_EW, dealer=Seat.N)
        assert result.deal_score == scores(0, 250)

    @pytest.mark.parametrize(
        ("changes", "expected"),
        [
            # belote imprenable, kept even when swept (FFB-B16; seed 003 "excepté la belote qui est imprenable").
            ({}, scores(20, 252)),
            # on_chute kept_by_holder, then on_capot_against_holder lost: the swept takers lose it.
            ({"belote__on_capot_against_holder": "lost"}, scores(0, 252)),
            # on_chute to_defenders ("prenable", seed 001): 252 + 20.
            ({"belote__on_chute": "to_defenders"}, scores(0, 272)),
            # on_chute void: lost.
            ({"belote__on_chute": "void"}, scores(0, 252)),
        ],
    )
    def test_the_swept_takers_belote(self, changes: dict[str, str], expected: dict[Team, int]) -> None:
        result = score(ruleset(**changes), CAPOT_EW, dealer=Seat.N, taker=Seat.N, belote=Seat.S)
        assert result.belote is NS
        assert result.deal_score == expected

    @pytest.mark.parametrize(
        ("changes", "expected"),
        [
            # "as on a chute": all_to_defenders gives the defenders the takers' tierce: 252 + 20.
            ({"scoring__capot__loser_announcements": "transfer_to_winner"}, scores(20, 272)),
            ({"scoring__capot__loser_announcements": "keep"}, scores(20, 272)),
            # loser_announcements void: the swept takers' announcements are lost.
            ({"scoring__capot__loser_announcements": "void"}, scores(20, 252)),
            # chute.announcements defenders_own_only: the takers' tierce is lost.
            ({"scoring__chute__announcements": "defenders_own_only"}, scores(20, 252)),
        ],
    )
    def test_the_swept_takers_announcements(self, changes: dict[str, str], expected: dict[Team, int]) -> None:
        rules = ruleset("classic-annonces", **changes)
        tierce = declare(Seat.S, "tierce", "7D 8D 9D", rules)
        result = score(rules, CAPOT_EW, dealer=Seat.N, taker=Seat.N, belote=Seat.S, announcements=[tierce])
        assert result.announcements == scores(20, 0)
        assert result.deal_score == expected  # NS keep their belote 20 in every case

    def test_pagat_defenders_sweep(self) -> None:
        # Pagat: no capot bonus for the defenders (162), swept side's announcements void, belote kept.
        rules = find_ruleset("pagat")
        tierce = declare(Seat.S, "tierce", "7D 8D 9D", rules)
        result = score(rules, CAPOT_EW, dealer=Seat.N, belote=Seat.S, announcements=[tierce])
        assert result.deal_score == scores(20, 162)


# --------------------------------------------------------------------------- contract test


class TestContractThresholds:
    """rules.md §1.10 "Where 82 and 92 come from": derived numbers, never parameters."""

    def test_82_without_belote(self) -> None:
        # "No extras: P = 162 → 82": 82 vs 80 made; 80 vs 82 down.
        made = score(CLASSIC, B0_PLUS)
        assert made.contract == "made"
        assert made.deal_score == scores(82, 80)  # "each team scores its own total"
        down = score(CLASSIC, B0_MINUS)
        assert down.contract == "down"
        assert down.deal_score == scores(0, 162)  # "Defenders score the base 162"

    def test_92_with_the_takers_belote(self) -> None:
        # "if the takers hold belote they need 72 card points (72 + 20 = 92)".
        made = score(CLASSIC, B1_PLUS, belote=Seat.N)
        assert made.belote is NS
        assert made.contract == "made"  # 72 + 20 = 92 vs 90
        assert made.deal_score == scores(92, 90)
        # 70 + 20 = 90 vs 92: down; the belote is imprenable (belote.on_chute kept_by_holder).
        down = score(CLASSIC, B1_MINUS, belote=Seat.N)
        assert down.contract == "down"
        assert down.deal_score == scores(20, 162)

    def test_92_with_the_defenders_belote(self) -> None:
        # "if the defenders hold it the takers need 92 card points". E takes; N (defender) has belote.
        made = score(CLASSIC, B1_MINUS, taker=Seat.E, belote=Seat.N)
        assert made.contract == "made"  # EW 92 vs NS 70 + 20 = 90
        assert made.deal_score == scores(90, 92)
        down = score(CLASSIC, B1_PLUS, taker=Seat.E, belote=Seat.N)
        assert down.contract == "down"  # EW 90 vs NS 72 + 20 = 92
        assert down.deal_score == scores(162 + 20, 0)  # chute base + the defenders' own belote

    @pytest.mark.parametrize(
        ("on_tie", "contract", "expected", "pot"),
        [
            # FFB-B16 litige: "Defenders score their own total now (81 ...)"; the takers' 81 wait in the pot.
            ("litige", "litige", scores(0, 81), 81),
            # seed 001 "must score more": a tie is a chute, 162 to the defenders.
            ("takers_fail", "down", scores(0, 162), 0),
            # Pagat, seed 003 "plus ou autant de points que la défense": success, each its own total.
            ("takers_succeed", "made", scores(81, 81), 0),
            # one coinche championship: the deal is replayed.
            ("replay_deal", "replay", scores(0, 0), 0),
        ],
    )
    def test_81_81_without_belote(self, on_tie: str, contract: str, expected: dict[Team, int], pot: int) -> None:
        result = score(ruleset(scoring__contract__on_tie=on_tie), B0)
        assert result.card_points == scores(81, 81)
        assert result.contract == contract
        assert result.deal_score == expected
        assert result.pot == pot
        assert "scoring.contract.on_tie" in rules_of(result)

    @pytest.mark.parametrize(
        ("on_tie", "contract", "expected", "pot"),
        [
            # "FFB's 91-91 treats the 20 as part of the totals": the defenders score 91, the pot holds 71 + 20.
            ("litige", "litige", scores(0, 91), 91),
            ("takers_fail", "down", scores(20, 162), 0),  # belote imprenable
            ("takers_succeed", "made", scores(91, 91), 0),  # 71 + 20 and 91
            ("replay_deal", "replay", scores(0, 0), 0),
        ],
    )
    def test_91_91_with_the_takers_belote(self, on_tie: str, contract: str, expected: dict[Team, int], pot: int) -> None:
        result = score(ruleset(scoring__contract__on_tie=on_tie), B1, belote=Seat.N)
        assert result.card_points == scores(71, 91)
        assert result.contract == contract
        assert result.deal_score == expected
        assert result.pot == pot

    def test_91_91_with_the_defenders_belote(self) -> None:
        # E takes with 91 card points; NS defend with 71 + belote 20 = 91: a litige. The defenders
        # score "their own total now (81, or 91 when belote is involved)"; the takers' 91 go to the pot.
        result = score(CLASSIC, B1, taker=Seat.E, belote=Seat.N)
        assert result.contract == "litige"
        assert result.deal_score == scores(91, 0)
        assert result.pot == 91

    def test_count_belote_none(self) -> None:
        # "count_belote: none ... 82 card points whoever holds belote".
        rules = ruleset(scoring__contract__count_belote="none")
        down = score(rules, B1, belote=Seat.N)  # 71 vs 91: down although 71 + 20 = 91 would tie
        assert down.contract == "down"
        assert down.deal_score == scores(20, 162)
        made = score(rules, B1, taker=Seat.E, belote=Seat.N)  # EW 91 vs NS 71: made, NS still score 71 + 20
        assert made.contract == "made"
        assert made.deal_score == scores(91, 91)

    def test_count_belote_takers_only(self) -> None:
        # "takers_only (92 including their own belote only when the takers hold it, 82 card points
        # when the defenders hold it)".
        rules = ruleset(scoring__contract__count_belote="takers_only")
        assert score(rules, B1, belote=Seat.N).contract == "litige"  # 71 + 20 vs 91
        made = score(rules, B1_PLUS, taker=Seat.E, belote=Seat.N)  # EW 90 vs NS 72 (belote not counted)
        assert made.contract == "made"
        assert made.deal_score == scores(92, 90)  # NS still score their belote: 72 + 20

    def test_card_threshold(self) -> None:
        # Seed 000: "L'équipe qui a pris doit réunir plus de la moitié des points, soit au moins 82 sur 162."
        rules = find_ruleset("cafe-250")
        assert score(rules, B0_PLUS).contract == "made"  # 82 >= 82
        tie = score(rules, B0)  # 81 < 82: down, no tie under card_threshold
        assert tie.contract == "down"
        assert tie.deal_score == scores(0, 162)
        # "whatever the belote or announcements": 72 + 20 = 92 vs 90 would succeed on totals, not here.
        belote = score(rules, B1_PLUS, belote=Seat.N)
        assert belote.contract == "down"
        assert belote.deal_score == scores(20, 162)
        assert "scoring.contract.card_threshold" in rules_of(belote)
        assert score(rules, B1_MINUS, taker=Seat.E, belote=Seat.N).contract == "made"  # EW 92 >= 82

    def test_count_announcements(self) -> None:
        # rules.md §1.9 step 6: "Announcement points count toward the contract test".
        tierce = declare(Seat.W, "tierce", "KD QD JD")
        counted = score(ANNONCES, B0, announcements=[tierce])  # 81 vs 81 + 20: down
        assert counted.contract == "down"
        assert counted.deal_score == scores(0, 182)
        rules = ruleset("classic-annonces", scoring__contract__count_announcements=False)
        uncounted = score(rules, B0, announcements=[declare(Seat.W, "tierce", "KD QD JD", rules)])
        assert uncounted.contract == "litige"  # 81 vs 81; the defenders score 81 + 20 now
        assert uncounted.deal_score == scores(0, 101)
        assert uncounted.pot == 81


# -------------------------------------------------------------------------------------- belote


class TestBelote:
    def test_announced_belote_is_credited(self) -> None:
        # rules.md §1.8: "A player holding both K and Q of trumps may claim 20 points".
        result = score(CLASSIC, B1_PLUS, belote=Seat.N)
        assert result.belote is NS
        assert any(line.rule == "belote.value" and line.points == 20 and line.team is NS for line in result.lines)

    def test_unannounced_belote_scores_nothing(self) -> None:
        # FFB-B16: "if either word is omitted, the 20 are lost": 72 vs 90, down.
        result = score(CLASSIC, B1_PLUS)
        assert result.belote is None
        assert result.deal_score == scores(0, 162)

    @pytest.mark.parametrize("mode", ["rebelote_tolerance_once_per_team_per_game", "tolerance_unlimited"])
    def test_tolerance_modes_read_the_given_belote(self, mode: str) -> None:
        # A single deal cannot express a forgotten word: these modes act like both_words_strict.
        rules = ruleset(belote__announcement=mode)
        assert score(rules, B1_PLUS).belote is None
        assert score(rules, B1_PLUS, belote=Seat.N).belote is NS

    def test_automatic_belote(self) -> None:
        # OpenSpiel: "credited automatically to the holder of K and Q of trumps".
        rules = ruleset(belote__announcement="automatic")
        result = score(rules, B1_PLUS)  # belote not given: credited to N anyway
        assert result.belote is NS
        assert result.deal_score == scores(92, 90)
        assert score(rules, B1_PLUS, belote=Seat.N).deal_score == scores(92, 90)
        assert score(rules, B0_PLUS).belote is None  # K and Q of trumps split between S and W

    def test_king_first(self) -> None:
        # rules.md §1.8: "King-first is compulsory in a Belgian club and some French concours".
        rules = ruleset(belote__king_first=True)
        queen_first = score(rules, B1_PLUS, belote=Seat.N)  # N played QH in trick 1, KH in trick 8
        assert queen_first.belote is None
        assert queen_first.contract == "down"  # 72 vs 90
        assert queen_first.deal_score == scores(0, 162)
        assert "belote.king_first" in rules_of(queen_first)
        king_first = score(rules, B1_KING_FIRST, belote=Seat.N)  # KH in trick 1, QH in trick 8
        assert king_first.belote is NS
        assert king_first.deal_score == scores(92, 90)  # 72 + 20 vs 90
        # FFB-B16 "in either order": the default does not care.
        assert score(CLASSIC, B1_PLUS, belote=Seat.N).belote is NS

    def test_king_first_applies_to_automatic_belote(self) -> None:
        rules = ruleset(belote__announcement="automatic", belote__king_first=True)
        assert score(rules, B1_PLUS).belote is None
        assert score(rules, B1_KING_FIRST).belote is NS

    @pytest.mark.parametrize(
        ("on_chute", "expected"),
        [
            # FFB-B16 imprenable; seed 003 "les preneurs ne marquent rien, excepté la belote qui est imprenable".
            ("kept_by_holder", scores(20, 162)),
            # seed 001 "tous leurs points de cette manche ... sont attribués à l'équipe adverse" (prenable).
            ("to_defenders", scores(0, 182)),
            ("void", scores(0, 162)),
        ],
    )
    def test_takers_belote_on_a_chute(self, on_chute: str, expected: dict[Team, int]) -> None:
        result = score(ruleset(belote__on_chute=on_chute), B1_MINUS, belote=Seat.N)  # 70 + 20 vs 92
        assert result.contract == "down"
        assert result.belote is NS
        assert result.deal_score == expected
        if on_chute != "kept_by_holder":
            assert "belote.on_chute" in rules_of(result)


# ------------------------------------------------------------------------------ announcements


class TestAnnouncements:
    def test_made_with_announcements(self) -> None:
        # rules.md §1.10 "Success: each team scores its own total" = cards + ann + bel.
        tierce = declare(Seat.W, "tierce", "KD QD JD")
        result = score(ANNONCES, B0_PLUS, taker=Seat.E, announcements=[tierce])  # EW 80 + 20 vs 82
        assert result.announcements == scores(0, 20)
        assert result.contract == "made"
        assert result.deal_score == scores(82, 100)

    def test_chute_gives_162_plus_announcements(self) -> None:
        # rules.md §1.10: "Defenders score the base 162 ... plus ... every validated announcement of both sides".
        tierce = declare(Seat.W, "tierce", "KD QD JD")
        result = score(ANNONCES, B0_MINUS, announcements=[tierce])  # 80 vs 82 + 20
        assert result.contract == "down"
        assert result.deal_score == scores(0, 182)  # 162 + 20

    @pytest.mark.parametrize(
        ("base", "changes", "expected"),
        [
            # all_to_defenders (FFB-WEB, Pagat, seed 001): 162 + S's tierce 20; S keeps the belote.
            ("classic-annonces", {}, scores(20, 182)),
            # defenders_own_only: the takers' tierce is lost.
            ("classic-annonces", {"scoring__chute__announcements": "defenders_own_only"}, scores(20, 162)),
            # strict-1001 (seed 001): "tous leurs points de cette manche (y compris leurs annonces) sont
            # attribués à l'équipe adverse": 162 + 20 tierce + 20 belote.
            ("strict-1001", {}, scores(0, 202)),
        ],
    )
    def test_takers_announcements_on_a_chute(self, base: str, changes: dict[str, str], expected: dict[Team, int]) -> None:
        rules = ruleset(base, **changes)
        tierce = declare(Seat.S, "tierce", "7D 8D 9D", rules)
        # N deals, N takes: NS 27 + tierce 20 + belote 20 = 67 vs EW 135.
        result = score(rules, DOWN_ANN, dealer=Seat.N, taker=Seat.N, belote=Seat.S, announcements=[tierce])
        assert result.card_points == scores(27, 135)
        assert result.announcements == scores(20, 0)
        assert result.contract == "down"
        assert result.deal_score == expected

    def test_only_the_comparison_winner_scores(self) -> None:
        # rules.md §1.9 step 2-3: "higher point value first; ... between equal kinds, the one with the
        # higher top card"; "Only the winning team scores". N's tierce A-K-Q of spades beats W's
        # tierce K-Q-J of diamonds; the 20 turn N's 78 card points into a made contract (98 vs 84).
        result = score(ANNONCES, ANN2, announcements=[declare(Seat.W, "tierce", "KD QD JD"), declare(Seat.N, "tierce", "AS KS QS")])
        assert result.card_points == scores(78, 84)
        assert result.announcements == scores(20, 0)
        assert result.contract == "made"
        assert result.deal_score == scores(98, 84)
        assert score(ANNONCES, ANN2).deal_score == scores(0, 162)  # without them: 78 vs 84, down


# ------------------------------------------------------------------------------- litige, pot


class TestLitige:
    def test_pot_paid_to_the_takers_when_the_next_deal_is_made(self) -> None:
        # rules.md §1.10: the pot "goes to the team that wins the next deal ... the takers if the next
        # contract is made".
        first = score(CLASSIC, B0)
        assert (first.contract, first.deal_score, first.pot) == ("litige", scores(0, 81), 81)
        second = score(CLASSIC, B0_PLUS, pot=first.pot)
        assert second.contract == "made"
        assert second.deal_score == scores(82 + 81, 80)
        assert second.pot == 0
        assert "scoring.litige.pot_to" in rules_of(second)
        # the other team may take the next deal: E takes and makes (EW 82 vs NS 80) and collects the pot.
        other = score(CLASSIC, B0_MINUS, taker=Seat.E, pot=81)
        assert other.deal_score == scores(80, 82 + 81)

    def test_pot_paid_to_the_defenders_when_the_next_deal_is_down(self) -> None:
        # "the defenders if it fails".
        result = score(CLASSIC, B0_MINUS, pot=81)
        assert result.contract == "down"
        assert result.deal_score == scores(0, 162 + 81)
        assert result.pot == 0

    def test_two_litiges_in_a_row_add_up(self) -> None:
        # "a second litige before the pot is paid (we suggest the pots add up)".
        first = score(CLASSIC, B0)
        second = score(CLASSIC, B0, pot=first.pot)
        assert second.deal_score == scores(0, 81)
        assert second.pot == 81 + 81
        third = score(CLASSIC, B0_PLUS, pot=second.pot)
        assert third.deal_score == scores(82 + 162, 80)
        assert third.pot == 0

    def test_litige_belote_excluded_kept_by_holder(self) -> None:
        # "one concours family (cdfcasson, per COLVER) ignores belote for the tie and lets its holder keep 20".
        result = score(ruleset(scoring__litige__belote="excluded_kept_by_holder"), B1, belote=Seat.N)
        assert result.contract == "litige"
        assert result.deal_score == scores(20, 91)
        assert result.pot == 71  # 91 - 20
        assert "scoring.litige.belote" in rules_of(result)

    def test_replay_leaves_the_pot(self) -> None:
        result = score(ruleset(scoring__contract__on_tie="replay_deal"), B0, pot=81)
        assert result.contract == "replay"
        assert result.deal_score == scores(0, 0)
        assert result.pot == 81

    def test_litige_on_the_final_deal(self) -> None:
        # ASCEE 79 (per COLVER): "on the last deal of a deal-limited game, each side simply scores its 81".
        own = score(CLASSIC, B0, final_deal=True)
        assert own.contract == "litige"
        assert own.deal_score == scores(81, 81)
        assert own.pot == 0
        assert "scoring.litige.on_final_deal" in rules_of(own)
        unpaid = score(ruleset(scoring__litige__on_final_deal="pot_unpaid"), B0, final_deal=True)
        assert unpaid.deal_score == scores(0, 81)
        assert unpaid.pot == 81


# ------------------------------------------------------------------------------------ rounding


class TestRounding:
    @pytest.mark.parametrize(
        ("mode", "deal", "expected"),
        [
            ("none", R84, scores(84, 78)),
            # FFB-B16 §10.3, PARLETT: "84→80, 85→90".
            ("nearest_10_half_up", R84, scores(80, 80)),
            ("nearest_10_half_up", R85, scores(90, 80)),  # 77 -> 80
            ("nearest_10_half_up", R86, scores(90, 80)),  # 76 -> 80
            # FFB contrée "Équipe Ludique": "85→80, 86→90".
            ("nearest_10_six_up", R84, scores(80, 80)),
            ("nearest_10_six_up", R85, scores(80, 80)),
            ("nearest_10_six_up", R86, scores(90, 80)),
            # WIKI-FR "round to 5": 2 down, 3 up within each 5.
            ("nearest_5", B0_PLUS, scores(80, 80)),  # 82 -> 80, 80
            ("nearest_5", B0_83, scores(85, 80)),  # 83 -> 85, 79 -> 80
            ("nearest_5", R84, scores(85, 80)),  # 84 -> 85, 78 -> 80
            ("nearest_5", R86, scores(85, 75)),  # 86 -> 85, 76 -> 75
            # WIKI-FR "round one side, give the other the complement to 160".
            ("complement_160", R84, scores(80, 80)),  # 84 -> 80, 160 - 80
            ("complement_160", R85, scores(90, 70)),  # 85 -> 90, 160 - 90
            ("complement_160", R86, scores(90, 70)),
            ("complement_160", B0_83, scores(80, 80)),
        ],
    )
    def test_rounding_modes(self, mode: str, deal: Sequence[str], expected: dict[Team, int]) -> None:
        result = score(ruleset(scoring__rounding__mode=mode), deal)
        assert result.contract == "made"
        assert result.deal_score == expected
        if mode != "none":
            assert "scoring.rounding.mode" in rules_of(result)

    def test_complement_160_with_belote(self) -> None:
        # takers 72 + 20 = 92 -> 90; defenders round(92 + 90 = 182) - 90 = 180 - 90 = 90.
        result = score(ruleset(scoring__rounding__mode="complement_160"), B1_PLUS, belote=Seat.N)
        assert result.deal_score == scores(90, 90)

    def test_complement_160_outside_a_made_deal_rounds_each_side(self) -> None:
        rules = ruleset(scoring__rounding__mode="complement_160")
        assert score(rules, B1_MINUS, belote=Seat.N).deal_score == scores(20, 160)  # down: 20, 162 -> 160
        assert score(rules, CAPOT_NS).deal_score == scores(250, 0)  # capot: 252 -> 250

    def test_rounding_never_decides_the_contract(self) -> None:
        # rules.md §1.11: "Never used to decide the contract (unanimous where addressed)".
        result = score(ruleset(scoring__rounding__mode="nearest_10_half_up"), B0_PLUS)
        assert result.contract == "made"  # 82 vs 80, though both write 80
        assert result.deal_score == scores(80, 80)

    def test_final_deal_exact(self) -> None:
        # rules.md §1.11: "Some round everything except the final deal".
        exact = ruleset(scoring__rounding__mode="nearest_10_half_up", scoring__rounding__final_deal_exact=True)
        assert score(exact, R85, final_deal=True).deal_score == scores(85, 77)
        assert score(exact, R85).deal_score == scores(90, 80)
        rounded = ruleset(scoring__rounding__mode="nearest_10_half_up")
        assert score(rounded, R85, final_deal=True).deal_score == scores(90, 80)

    def test_pot_is_held_and_paid_unrounded(self) -> None:
        rules = ruleset(scoring__rounding__mode="nearest_10_half_up")
        first = score(rules, B0)
        assert first.deal_score == scores(0, 80)  # 81 -> 80
        assert first.pot == 81
        second = score(rules, B0_PLUS, pot=first.pot)
        assert second.deal_score == scores(160, 80)  # 82 + 81 = 163 -> 160


# ----------------------------------------------------------------------------------- invariant


INVARIANT_RULESETS = [
    CLASSIC,
    ANNONCES,
    find_ruleset("online-92"),
    find_ruleset("pagat"),
    find_ruleset("strict-1001"),
    find_ruleset("cafe-250"),
    ruleset(scoring__contract__count_belote="none"),
    ruleset(scoring__contract__count_belote="takers_only"),
    ruleset(scoring__contract__on_tie="takers_fail"),
    ruleset(scoring__contract__count_announcements=False, base="classic-annonces"),
]
INVARIANT_DEALS = [
    # (deal, dealer, belote holder, declarations as (seat, kind, cards))
    (B0, Seat.W, None, [(Seat.W, "tierce", "KD QD JD")]),
    (B0_PLUS, Seat.W, None, [(Seat.W, "tierce", "KD QD JD")]),
    (B0_MINUS, Seat.W, None, [(Seat.W, "tierce", "KD QD JD")]),
    (B0_83, Seat.W, None, []),
    (R84, Seat.W, None, []),
    (ANN2, Seat.W, None, [(Seat.W, "tierce", "KD QD JD"), (Seat.N, "tierce", "AS KS QS")]),
    (B1, Seat.W, Seat.N, [(Seat.W, "tierce", "KD QD JD")]),
    (B1_PLUS, Seat.W, Seat.N, []),
    (B1_MINUS, Seat.W, Seat.N, []),
    (DOWN_ANN, Seat.N, Seat.S, [(Seat.S, "tierce", "7D 8D 9D")]),
]


@pytest.mark.parametrize("rules", INVARIANT_RULESETS, ids=lambda r: r.id + str(hash(r) % 1000))
@pytest.mark.parametrize("taker", [Seat.N, Seat.E])
def test_the_deal_scores_add_up_to_162_plus_extras(rules: Ruleset, taker: Seat) -> None:
    # rules.md §1.10: "outside capot and litige, score[takers] + score[defenders] equals 162 + all
    # counted extras". Extras that a ruleset drops (belote.on_chute void, chute.announcements
    # defenders_own_only) or that count_belote none leaves out of the test are excluded here.
    checked = 0
    for deal, dealer, holder, declared in INVARIANT_DEALS:
        announcements = (
            [declare(seat, kind, cards, rules) for seat, kind, cards in declared] if rules["announcements.enabled"] else []
        )
        result = score(rules, deal, dealer=dealer, taker=taker, belote=holder, announcements=announcements)
        if result.contract not in ("made", "down") or result.capot is not None:
            continue
        assert rules["scoring.chute.base"] == deal_total(rules, Suit.H)
        assert rules["belote.on_chute"] != "void" and rules["scoring.chute.announcements"] == "all_to_defenders"
        belote = rules["belote.value"] if result.belote is not None else 0
        total = deal_total(rules, Suit.H) + belote + sum(result.announcements.values())
        assert sum(result.deal_score.values()) == total, (deal, result)
        checked += 1
    assert checked >= 5


# -------------------------------------------------------------------------------------- rejections


def rejected(rules: Ruleset, deal: Sequence[str], **kwargs: Any) -> InconsistentDealError:
    with pytest.raises(InconsistentDealError) as info:
        score(rules, deal, **kwargs)
    assert isinstance(info.value, BeloteRefError)
    assert isinstance(info.value, ValueError)
    return info.value


class TestRejections:
    def test_wrong_trick_count(self) -> None:
        error = rejected(CLASSIC, B0[:7])
        assert (error.code, error.index) == ("wrong_trick_count", 7)
        error = rejected(CLASSIC, (*B0, "E: JH 7H 8H 9H"))
        assert (error.code, error.index) == ("wrong_trick_count", 8)
        short = list(B0)
        short[2] = "N: TS 9S JS"
        error = rejected(CLASSIC, short)
        assert (error.code, error.index) == ("wrong_trick_count", 2)

    def test_duplicate_card(self) -> None:
        twice = list(B0)
        twice[4] = "E: TC JC QC 7C"  # 7C was played in trick 4 (index 3)
        error = rejected(CLASSIC, twice)
        assert (error.code, error.index) == ("duplicate_card", 4)
        within = list(B0)
        within[0] = "N: JH 7H 7H 9H"
        error = rejected(CLASSIC, within)
        assert (error.code, error.index) == ("duplicate_card", 0)

    def test_wrong_leader(self) -> None:
        # rules.md §1.1: "eldest = next(dealer)": with N dealing, E must lead trick 1.
        error = rejected(CLASSIC, B0, dealer=Seat.N)
        assert (error.code, error.index) == ("wrong_leader", 0)
        led = list(B0)
        led[2] = "E: TS 9S JS QS"  # N won trick 2 and must lead trick 3
        error = rejected(CLASSIC, led)
        assert (error.code, error.index) == ("wrong_leader", 2)

    def test_bad_belote(self) -> None:
        error = rejected(CLASSIC, B0, belote=Seat.S)  # S played KH, W played QH
        assert (error.code, error.index) == ("bad_belote", 0)
        error = rejected(CLASSIC, B1, belote=Seat.E)  # N played both
        assert (error.code, error.index) == ("bad_belote", 0)
        error = rejected(ruleset(belote__announcement="automatic"), B1, belote=Seat.E)
        assert error.code == "bad_belote"

    def test_announcements_when_not_enabled(self) -> None:
        error = rejected(CLASSIC, B0, announcements=[declare(Seat.W, "tierce", "KD QD JD")])
        assert (error.code, error.index) == ("bad_announcement", 0)

    def test_cards_not_played_by_the_declarer(self) -> None:
        good = declare(Seat.W, "tierce", "KD QD JD")
        stolen = declare(Seat.E, "tierce", "KD QD JD")
        error = rejected(ANNONCES, B0, announcements=[good, stolen])
        assert (error.code, error.index) == ("bad_announcement", 1)

    def test_not_a_combination(self) -> None:
        broken = Declaration(Seat.E, Combination("tierce", CardSet.parse("7S 9S AS"), 20, Rank.ACE))
        error = rejected(ANNONCES, B0, announcements=[broken])
        assert (error.code, error.index) == ("bad_announcement", 0)

    def test_wrong_points(self) -> None:
        inflated = Declaration(Seat.W, Combination("tierce", CardSet.parse("KD QD JD"), 50, Rank.KING))
        error = rejected(ANNONCES, B0, announcements=[inflated])
        assert (error.code, error.index) == ("bad_announcement", 0)

    def test_card_used_twice(self) -> None:
        # CAPOT_NS: N played AD TD KD AS TS AC and JH 9H; no sequence overlap is possible twice, so use
        # the same declaration twice.
        tierce = declare(Seat.E, "tierce", "7D 8D 9D")
        error = rejected(ANNONCES, CAPOT_NS, announcements=[tierce, tierce])
        assert (error.code, error.index) == ("bad_announcement", 1)


# ------------------------------------------------------------------------------------ protocol


class TestToJson:
    def test_made_deal(self) -> None:
        assert score(CLASSIC, B0_PLUS).to_json() == {
            "trick_winners": ["N", "N", "N", "E", "E", "E", "S", "E"],
            "card_points": {"NS": 82, "EW": 80},
            "announcements": {"NS": 0, "EW": 0},
            "belote": None,
            "contract": "made",
            "capot": None,
            "deal_score": {"NS": 82, "EW": 80},
            "pot": 0,
        }

    def test_capot_with_belote_and_pot(self) -> None:
        assert score(CLASSIC, CAPOT_EW, dealer=Seat.N, belote=Seat.S, pot=40).to_json() == {
            "trick_winners": ["E"] * 8,
            "card_points": {"NS": 0, "EW": 252},
            "announcements": {"NS": 0, "EW": 0},
            "belote": "NS",
            "contract": "down",
            "capot": "EW",
            "deal_score": {"NS": 20, "EW": 252 + 40},
            "pot": 0,
        }

    def test_litige(self) -> None:
        data = score(CLASSIC, B0, pot=10).to_json()
        assert (data["contract"], data["deal_score"], data["pot"]) == ("litige", {"NS": 0, "EW": 81}, 91)
