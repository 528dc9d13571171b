"""Announcements: combinations in a hand, their check, and the comparison between teams (rules.md §1.9).

Every test is decorated with ``@cites(source, quote)``: the quote is the rule text it checks,
copied verbatim (up to line breaks) from rules.md §1.9, seed page 001 (both in rules/sources/) or the registry;
``test_citations_are_verbatim`` checks the quotes against the files.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_ref import BeloteRefError, CardSet, NotationError, Rank, Seat, Suit, Team, find_ruleset
from belote_ref.engine.announcements import (
    Combination,
    Declaration,
    announcement_points,
    best_team,
    combinations,
    compare_combinations,
    make_combination,
)
from belote_ref.rules.ruleset import Ruleset, shipped_rulesets

F = TypeVar("F", bound=Callable[..., Any])

RULES_MD = "rules.md"
SEED_001 = "001_9fa9b499d762b880.txt"
REGISTRY = "rules/registry.yaml"
CITED: list[tuple[str, str]] = []


def cites(source: str, quote: str) -> Callable[[F], F]:
    """Record the rule text a test checks (verified by ``test_citations_are_verbatim``)."""
    CITED.append((source, quote))

    def mark(test: F) -> F:
        return test

    return mark


CLASSIC_ANNONCES = find_ruleset("classic-annonces")


def variant(**overrides: Any) -> Ruleset:
    """classic-annonces with some parameters changed (dotted ids given with ``__`` for ``.``)."""
    params = {**CLASSIC_ANNONCES.params, **{key.replace("__", "."): value for key, value in overrides.items()}}
    return Ruleset.from_parameters(params)


REUSE_ALLOWED = variant(announcements__card_reuse="allowed")


def hand(text: str) -> CardSet:
    return CardSet.parse(text)


def found(rules: Ruleset, text: str, trump: Suit = Suit.H) -> list[tuple[str, str, int]]:
    return [(c.kind, str(c.cards), c.points) for c in combinations(rules, trump, hand(text))]


def combo(kind: str, text: str, rules: Ruleset = CLASSIC_ANNONCES, trump: Suit = Suit.H) -> Combination:
    return make_combination(rules, trump, kind, hand(text))


def declare(seat: str, kind: str, text: str, rules: Ruleset = CLASSIC_ANNONCES) -> Declaration:
    return Declaration(Seat.parse(seat), combo(kind, text, rules))


# ------------------------------------------------------------------------------ sequences


class TestSequences:
    @cites(SEED_001, "Tierce (20 points) : Trois cartes consécutives de la même couleur (ex. 7, 8, 9).")
    @cites(RULES_MD, "| *tierce* — 3 in sequence | 20 |")
    def test_tierce(self) -> None:
        assert found(CLASSIC_ANNONCES, "7C 8C 9C JS QH KD AS 7D") == [("tierce", "7C 8C 9C", 20)]

    @cites(RULES_MD, "| *quarte* / *cinquante* — 4 in sequence | 50 |")
    def test_quarte(self) -> None:
        assert found(CLASSIC_ANNONCES, "JD QD KD AD 7S 9H JC KC") == [("quarte", "JD QD KD AD", 50)]

    @cites(RULES_MD, "Combinations (formed in the natural order A K Q J 10 9 8 7, same suit for sequences)")
    def test_natural_order_not_play_order(self) -> None:
        # 9 T J is a run in the natural order although T ranks above K in play; Q K A is too.
        assert found(CLASSIC_ANNONCES, "9S TS JS QH KH AH 7D 9C") == [
            ("tierce", "9S TS JS", 20),
            ("tierce", "QH KH AH", 20),
        ]
        # A and 7 are the two ends: no wrapping round; mixed suits are no sequence.
        assert found(CLASSIC_ANNONCES, "KS AS 7S 8S JH QH KD 9C") == []

    @cites(SEED_001, "Quinte (100 points) : Cinq cartes consécutives ou plus de la même couleur.")
    @cites(RULES_MD, "| *quinte* / *cent* — 5 in sequence (6–8 in sequence: still one 100 per seed 001, CyberFoxar, card-game-dsl) | 100 |")
    def test_quinte_and_long_runs_are_one_quinte_of_the_top_five(self) -> None:
        assert found(CLASSIC_ANNONCES, "7D 8D 9D TD JD AS KC 9H") == [("quinte", "7D 8D 9D TD JD", 100)]
        assert found(CLASSIC_ANNONCES, "8S 9S TS JS QS KS 7H 7C") == [("quinte", "9S TS JS QS KS", 100)]
        assert found(CLASSIC_ANNONCES, "7H 8H 9H TH JH QH KH AH") == [("quinte", "TH JH QH KH AH", 100)]
        (whole,) = combinations(CLASSIC_ANNONCES, Suit.S, hand("7H 8H 9H TH JH QH KH AH"))
        assert whole.top is Rank.ACE and whole.suit is Suit.H

    @cites(RULES_MD, "Combinations (formed in the natural order A K Q J 10 9 8 7, same suit for sequences)")
    def test_two_runs_in_one_suit(self) -> None:
        assert found(CLASSIC_ANNONCES, "7C 8C 9C JC QC KC AC 7S") == [
            ("quarte", "JC QC KC AC", 50),
            ("tierce", "7C 8C 9C", 20),
        ]


# --------------------------------------------------------------------------------- carrés


class TestCarres:
    @cites(SEED_001, "Carré de Valets (200 points) : Quatre Valets.")
    @cites(SEED_001, "Carré de Neufs (150 points) : Quatre Neufs.")
    @cites(SEED_001, "Carré (100 points) : Quatre cartes identiques (Dix, Dames, Rois, As).")
    @cites(RULES_MD, "| *carré* of J | 200 |")
    @cites(RULES_MD, "| *carré* of 9 | 150 |")
    @cites(RULES_MD, "| *carré* of A, 10, K or Q | 100 |")
    @pytest.mark.parametrize(("rank", "points"), [("J", 200), ("9", 150), ("A", 100), ("T", 100), ("K", 100), ("Q", 100)])
    def test_carre_values(self, rank: str, points: int) -> None:
        cards = f"{rank}S {rank}H {rank}D {rank}C 8D 7C 8S 7H"
        result = combinations(CLASSIC_ANNONCES, Suit.D, hand(cards))
        assert [(c.kind, c.points, c.top.letter) for c in result] == [("carre", points, rank)]
        assert result[0].suit is None
        assert result[0].to_json() == {"kind": "carre", "cards": [f"{rank}{s}" for s in "SHDC"], "points": points}

    @cites(RULES_MD, "| *carré* of 8 or 7 | nothing |")
    @pytest.mark.parametrize("rank", ["8", "7"])
    def test_carre_of_eights_or_sevens_is_nothing(self, rank: str) -> None:
        assert found(CLASSIC_ANNONCES, f"{rank}S {rank}H {rank}D {rank}C JS QH KD AC") == []
        with pytest.raises(BeloteRefError, match="not a combination") as raised:
            combo("carre", f"{rank}S {rank}H {rank}D {rank}C")
        assert raised.value.code == "bad_announcement"

    @cites(RULES_MD, "| *carré* of J | 200 |")
    def test_two_carres_and_result_order(self) -> None:
        assert found(CLASSIC_ANNONCES, "AS AH AD AC JS JH JD JC") == [
            ("carre", "JS JH JD JC", 200),
            ("carre", "AS AH AD AC", 100),
        ]


# ----------------------------------------------------------------------------- card reuse


class TestCardReuse:
    @cites(RULES_MD, "One card may serve in one combination only (FFB-K15); CyberFoxar, Coinche Stéphanoise and contree.org allow a card in a carré and a sequence ⟨`announcements.card_reuse`⟩.")
    def test_forbidden_cuts_the_run_allowed_keeps_it(self) -> None:
        cards = "7H 8H 9H TH TS TD TC AS"
        assert found(CLASSIC_ANNONCES, cards) == [("carre", "TS TH TD TC", 100), ("tierce", "7H 8H 9H", 20)]
        assert found(REUSE_ALLOWED, cards) == [("carre", "TS TH TD TC", 100), ("quarte", "7H 8H 9H TH", 50)]

    @cites(RULES_MD, "One card may serve in one combination only (FFB-K15)")
    def test_forbidden_equal_points_keeps_the_carre(self) -> None:
        # A quinte 8-Q with the four tens: the carre (100) or the quinte (100), never both.
        cards = "8H 9H TH JH QH TS TD TC"
        assert found(CLASSIC_ANNONCES, cards) == [("carre", "TS TH TD TC", 100)]
        assert found(REUSE_ALLOWED, cards) == [("carre", "TS TH TD TC", 100), ("quinte", "8H 9H TH JH QH", 100)]

    @cites(RULES_MD, "One card may serve in one combination only (FFB-K15)")
    def test_forbidden_takes_the_most_points_not_always_the_carre(self) -> None:
        rich_quinte = variant(announcements__values={**CLASSIC_ANNONCES["announcements.values"], "quinte": 500})
        assert found(rich_quinte, "8H 9H TH JH QH TS TD TC") == [("quinte", "8H 9H TH JH QH", 500)]

    @cites(RULES_MD, "One card may serve in one combination only (FFB-K15)")
    def test_forbidden_cut_at_the_top_leaves_a_quarte(self) -> None:
        cards = "9D TD JD QD KD KS KH KC"
        assert found(CLASSIC_ANNONCES, cards) == [("carre", "KS KH KD KC", 100), ("quarte", "9D TD JD QD", 50)]
        assert found(REUSE_ALLOWED, cards) == [("carre", "KS KH KD KC", 100), ("quinte", "9D TD JD QD KD", 100)]


# ------------------------------------------------------------------------ make_combination


class TestMakeCombination:
    @cites(RULES_MD, "Combinations (formed in the natural order A K Q J 10 9 8 7, same suit for sequences)")
    def test_valid_combinations(self) -> None:
        tierce = combo("tierce", "QH KH AH")
        assert (tierce.points, tierce.top, tierce.suit, tierce.is_sequence) == (20, Rank.ACE, Suit.H, True)
        assert combo("quarte", "7S 8S 9S TS").top is Rank.TEN
        assert combo("quinte", "9C TC JC QC KC").points == 100
        assert combo("carre", "QS QH QD QC").top is Rank.QUEEN
        assert combo("tierce", "7C 8C 9C").to_json() == {"kind": "tierce", "cards": ["7C", "8C", "9C"], "points": 20}

    @cites(RULES_MD, "Combinations (formed in the natural order A K Q J 10 9 8 7, same suit for sequences)")
    @pytest.mark.parametrize(
        ("kind", "cards", "message"),
        [
            ("tierce", "7H 8H 9H TH", "3 cards in sequence"),
            ("quarte", "7H 8H 9H", "4 cards in sequence"),
            ("quinte", "7H 8H 9H TH JH QH", "5 cards in sequence"),
            ("tierce", "7H 8S 9H", "of one suit"),
            ("tierce", "7H 9H TH", "consecutive"),
            ("tierce", "KH AH 7H", "consecutive"),
            ("carre", "QS QH QD KC", "four cards of one rank"),
            ("carre", "QS QH QD", "four cards of one rank"),
            ("cent", "9C TC JC QC KC", "unknown announcement kind"),
            ("tierce", "", "no cards"),
        ],
    )
    def test_rejects_with_bad_announcement(self, kind: str, cards: str, message: str) -> None:
        with pytest.raises(BeloteRefError, match=message) as raised:
            combo(kind, cards)
        assert raised.value.code == "bad_announcement"

    @cites(RULES_MD, "| *tierce* — 3 in sequence | 20 |")
    def test_declaration_json_round_trip(self) -> None:
        data = {"seat": "E", "kind": "tierce", "cards": ["7C", "8C", "9C"]}
        declaration = Declaration.from_json(CLASSIC_ANNONCES, Suit.H, data)
        assert declaration == declare("E", "tierce", "7C 8C 9C")
        assert declaration.team is Team.EW
        assert declaration.to_json() == {**data, "points": 20}
        with pytest.raises(BeloteRefError, match="not 50") as raised:
            Declaration.from_json(CLASSIC_ANNONCES, Suit.H, {**data, "points": 50})
        assert raised.value.code == "bad_announcement"
        with pytest.raises(BeloteRefError, match="twice"):
            Declaration.from_json(CLASSIC_ANNONCES, Suit.H, {**data, "cards": ["7C", "8C", "8C", "9C"]})
        with pytest.raises(NotationError):
            Declaration.from_json(CLASSIC_ANNONCES, Suit.H, {**data, "seat": "X"})


# ------------------------------------------------------------------------------ comparison


class TestComparison:
    @cites(RULES_MD, "**Compare** the best combination of each team: higher point value first")
    def test_by_value(self) -> None:
        declarations = [declare("N", "tierce", "QS KS AS"), declare("E", "quarte", "7D 8D 9D TD")]
        assert best_team(CLASSIC_ANNONCES, Suit.H, declarations, Seat.N) is Team.EW

    @cites(SEED_001, "Une séquence plus longue est plus forte qu'une séquence plus courte.")
    def test_longer_sequence_wins_on_equal_value(self) -> None:
        flat = variant(announcements__values={**CLASSIC_ANNONCES["announcements.values"], "quarte": 20})
        a, b = combo("quarte", "7D 8D 9D TD", flat), combo("tierce", "QS KS AS", flat)
        assert compare_combinations(flat, Suit.H, a, b) == 1

    @cites(RULES_MD, "between equal kinds, the one with the higher top card")
    @cites(SEED_001, "Si elles sont de la même longueur, la séquence commençant par une carte plus haute est plus forte.")
    def test_by_height(self) -> None:
        declarations = [declare("N", "tierce", "JS QS KS"), declare("W", "tierce", "QD KD AD")]
        assert best_team(CLASSIC_ANNONCES, Suit.S, declarations, Seat.N) is Team.EW
        # height in the natural order: a J-high quarte beats a T-high one though T beats J in play
        declarations = [declare("N", "quarte", "8S 9S TS JS"), declare("E", "quarte", "7D 8D 9D TD")]
        assert best_team(CLASSIC_ANNONCES, Suit.D, declarations, Seat.E) is Team.NS

    @cites(RULES_MD, "still equal, the one in trumps wins")
    @cites(SEED_001, "Si elles sont identiques, une séquence d'atout est plus forte.")
    def test_by_trump(self) -> None:
        declarations = [declare("N", "tierce", "9S TS JS"), declare("E", "tierce", "9C TC JC")]
        assert best_team(CLASSIC_ANNONCES, Suit.C, declarations, Seat.N) is Team.EW
        assert best_team(CLASSIC_ANNONCES, Suit.S, declarations, Seat.E) is Team.NS

    @cites(RULES_MD, "a 100-point carré beats a *cent* (FFB-K15)")
    @cites(REGISTRY, "Whether a 100-point carré beats a quinte of equal value; if not, the two are compared like sequences (height, then trump).")
    def test_carre_against_quinte_both_settings(self) -> None:
        # Compared as two values: in a real deal the quinte (which always holds a T and a J) cannot
        # share the carré's rank, and the carré's rank is always above such a quinte's top card.
        quinte, carre = combo("quinte", "TS JS QS KS AS"), combo("carre", "QS QH QD QC")
        assert compare_combinations(CLASSIC_ANNONCES, Suit.H, carre, quinte) == 1
        assert compare_combinations(CLASSIC_ANNONCES, Suit.H, quinte, carre) == -1
        like_sequences = variant(announcements__carre_beats_equal_sequence=False)
        assert compare_combinations(like_sequences, Suit.H, carre, quinte) == -1  # A-high beats Q
        low = combo("quinte", "7D 8D 9D TD JD")
        assert compare_combinations(like_sequences, Suit.D, carre, low) == 1  # Q beats J-high, even in trumps
        equal = combo("quinte", "8C 9C TC JC QC")
        assert compare_combinations(like_sequences, Suit.H, carre, equal) == 0
        assert compare_combinations(like_sequences, Suit.C, carre, equal) == -1  # then the trump sequence
        # a real deal: the carré of K against a quinte 8-Q is won by the carré under both settings
        declarations = [declare("N", "carre", "KS KH KD KC"), declare("E", "quinte", "8D 9D TD JD QD")]
        for rules in (CLASSIC_ANNONCES, like_sequences):
            assert best_team(rules, Suit.D, declarations, Seat.E) is Team.NS

    @cites(RULES_MD, "Equal carrés are ordered by rank; the sources do not fix whether 10 ranks above K (play order) or below (natural order) ⟨`announcements.carre_order`⟩.")
    def test_carre_order(self) -> None:
        declarations = [declare("S", "carre", "TS TH TD TC"), declare("W", "carre", "KS KH KD KC")]
        assert CLASSIC_ANNONCES["announcements.carre_order"] == "play_order"
        assert best_team(CLASSIC_ANNONCES, Suit.H, declarations, Seat.N) is Team.NS
        natural = variant(announcements__carre_order="natural")
        assert best_team(natural, Suit.H, declarations, Seat.N) is Team.EW
        # A stays above both, and a higher value still comes first (J 200 over A 100)
        aces, jacks = combo("carre", "AS AH AD AC"), combo("carre", "JS JH JD JC")
        for rules in (CLASSIC_ANNONCES, natural):
            assert compare_combinations(rules, Suit.H, aces, combo("carre", "TS TH TD TC", rules)) == 1
            assert compare_combinations(rules, Suit.H, jacks, aces) == 1

    @cites(RULES_MD, "still equal: FFB-K15 — **nobody** scores any announcement; Pagat (per card-game-dsl) and belotegame.fr — the earlier declarer in rotation wins ⟨`announcements.final_tie`⟩.")
    def test_final_tie(self) -> None:
        declarations = [declare("N", "tierce", "9S TS JS"), declare("E", "tierce", "9D TD JD")]
        assert CLASSIC_ANNONCES["announcements.final_tie"] == "annul_all"
        assert best_team(CLASSIC_ANNONCES, Suit.H, declarations, Seat.N) is None
        assert announcement_points(CLASSIC_ANNONCES, Suit.H, declarations, Seat.N) == {Team.NS: 0, Team.EW: 0}
        earlier = variant(announcements__final_tie="earlier_declarer")
        assert best_team(earlier, Suit.H, declarations, Seat.N) is Team.NS
        assert best_team(earlier, Suit.H, declarations, Seat.E) is Team.EW
        assert best_team(earlier, Suit.H, declarations, Seat.S) is Team.NS  # S, W, N, E
        assert best_team(earlier, Suit.H, declarations, Seat.W) is Team.NS  # W, N, E, S
        # the declaring seat is one that holds the team's best, not any declarer of the team
        with_lower = [*declarations, declare("W", "tierce", "7C 8C 9C")]
        assert best_team(earlier, Suit.H, with_lower, Seat.W) is Team.NS
        assert best_team(earlier, Suit.H, with_lower, Seat.E) is Team.EW
        assert announcement_points(earlier, Suit.H, with_lower, Seat.E) == {Team.NS: 0, Team.EW: 40}

    @cites(RULES_MD, "still equal: FFB-K15 — **nobody** scores any announcement; Pagat (per card-game-dsl) and belotegame.fr — the earlier declarer in rotation wins ⟨`announcements.final_tie`⟩.")
    def test_pagat_ships_earlier_declarer(self) -> None:
        pagat = find_ruleset("pagat")
        declarations = [declare("S", "quarte", "TS JS QS KS"), declare("W", "quarte", "TC JC QC KC")]
        assert best_team(pagat, Suit.H, declarations, Seat.W) is Team.EW
        assert announcement_points(pagat, Suit.H, declarations, Seat.S) == {Team.NS: 50, Team.EW: 0}


# ---------------------------------------------------------------------------------- scoring


class TestAnnouncementPoints:
    @cites(RULES_MD, "**Only the winning team scores**, and it scores **all** its combinations, both partners', including ones lower than the losers' best (FFB-K15, Pagat, seed 001).")
    @cites(SEED_001, "Seule l'équipe avec l'annonce la plus forte (à l'exception de la Belote) obtient les points des annonces.")
    def test_only_the_winner_scores_all_its_combinations(self) -> None:
        declarations = [
            declare("N", "quinte", "7C 8C 9C TC JC"),
            declare("E", "quarte", "TD JD QD KD"),
            declare("S", "tierce", "7S 8S 9S"),  # lower than E's quarte, still scored
            declare("W", "tierce", "QH KH AH"),
        ]
        assert best_team(CLASSIC_ANNONCES, Suit.H, declarations, Seat.E) is Team.NS
        assert announcement_points(CLASSIC_ANNONCES, Suit.H, declarations, Seat.E) == {Team.NS: 120, Team.EW: 0}

    @cites(RULES_MD, "**Only the winning team scores**, and it scores **all** its combinations, both partners', including ones lower than the losers' best (FFB-K15, Pagat, seed 001).")
    def test_one_player_several_combinations(self) -> None:
        rules = CLASSIC_ANNONCES
        combos = combinations(rules, Suit.S, hand("JS JH JD JC 7C 8C 9C AH"))
        assert [c.kind for c in combos] == ["carre", "tierce"]
        declarations = [Declaration(Seat.W, c) for c in combos] + [declare("N", "quinte", "TD JD QD KD AD")]
        assert announcement_points(rules, Suit.S, declarations, Seat.N) == {Team.NS: 0, Team.EW: 220}

    @cites(RULES_MD, "**Compare** the best combination of each team: higher point value first")
    def test_a_team_without_declaration_cannot_win(self) -> None:
        assert best_team(CLASSIC_ANNONCES, Suit.H, [], Seat.N) is None
        assert announcement_points(CLASSIC_ANNONCES, Suit.H, [], Seat.N) == {Team.NS: 0, Team.EW: 0}
        only_east = [declare("E", "tierce", "7S 8S 9S")]
        assert best_team(CLASSIC_ANNONCES, Suit.H, only_east, Seat.N) is Team.EW
        assert announcement_points(CLASSIC_ANNONCES, Suit.H, only_east, Seat.N) == {Team.NS: 0, Team.EW: 20}

    @cites(RULES_MD, "FFB-B16 plays **without** announcements (§8)")
    def test_disabled_scores_nothing(self) -> None:
        classic = find_ruleset("classic")
        assert classic["announcements.enabled"] is False
        declarations = [Declaration(Seat.N, make_combination(classic, Suit.H, "tierce", hand("7S 8S 9S")))]
        assert best_team(classic, Suit.H, declarations, Seat.N) is None
        assert announcement_points(classic, Suit.H, declarations, Seat.N) == {Team.NS: 0, Team.EW: 0}


# -------------------------------------------------------------------------------- properties

ENABLED = [find_ruleset(rid) for rid in shipped_rulesets() if find_ruleset(rid)["announcements.enabled"]]
PROPERTY_RULESETS = [*ENABLED, REUSE_ALLOWED]


@cites(RULES_MD, "One card may serve in one combination only (FFB-K15)")
def test_shipped_rulesets_with_announcements() -> None:
    assert {r.id for r in ENABLED} == {"classic-annonces", "pagat", "strict-1001", "ffb-coinche-2015", "pagat-coinche"}


@st.composite
def hands(draw: st.DrawFn) -> set[int]:
    """Eight distinct cards; half the time built around a carré so that reuse conflicts occur."""
    cards: set[int] = set()
    if draw(st.booleans()):
        rank = draw(st.integers(0, 7))
        cards = {suit * 8 + rank for suit in range(4)}
    rest = draw(st.lists(st.integers(0, 31).filter(lambda c: c not in cards), min_size=8, max_size=8, unique=True))
    return cards | set(rest[: 8 - len(cards)])


@cites(RULES_MD, "One card may serve in one combination only (FFB-K15)")
@settings(max_examples=400, deadline=None)
@given(rules=st.sampled_from(PROPERTY_RULESETS), cards=hands(), trump=st.sampled_from(list(Suit)))
def test_combinations_are_valid_and_disjoint_when_reuse_is_forbidden(rules: Ruleset, cards: set[int], trump: Suit) -> None:
    held = CardSet(cards)
    assert len(held) == 8
    result = combinations(rules, trump, held)
    for c in result:
        assert make_combination(rules, trump, c.kind, c.cards) == c
        assert c.cards & held == c.cards
        assert c.points > 0
    assert all(a.points >= b.points for a, b in zip(result, result[1:], strict=False))
    assert combinations(rules, trump, held) == result  # deterministic
    if rules["announcements.card_reuse"] == "forbidden":
        seen = CardSet()
        for c in result:
            assert not (seen & c.cards), f"{c} reuses a card"
            seen = seen | c.cards
        # never worse than keeping any single combination the hand holds
        reuse = Ruleset.from_parameters({**rules.params, "announcements.card_reuse": "allowed"})
        everything = combinations(reuse, trump, held)
        total = sum(c.points for c in result)
        assert total <= sum(c.points for c in everything)
        assert all(total >= c.points for c in everything)


def _reference_files() -> dict[str, Path]:
    root = Path(__file__).parent.parent
    sources = root / "rules" / "sources"
    return {RULES_MD: sources / RULES_MD, SEED_001: sources / SEED_001, REGISTRY: root / REGISTRY}


def test_citations_are_verbatim() -> None:
    files = _reference_files()
    assert CITED, "no quote was recorded"
    texts = {name: " ".join(path.read_text(encoding="utf-8").split()) for name, path in files.items()}
    for source, quote in CITED:
        assert " ".join(quote.split()) in texts[source], f"not found in {source}: {quote!r}"
