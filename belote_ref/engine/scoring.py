"""Scoring one deal: card points, capot, belote, announcements, the contract test, litige, rounding.

::

    from belote_ref import Seat, Suit, find_ruleset
    from belote_ref.engine.scoring import score_deal

    result = score_deal(find_ruleset("classic"), dealer=Seat.W, taker=Seat.N, trump=Suit.H,
                        tricks=tricks, belote=Seat.N)      # tricks: 8 play.Trick, in order
    result.contract                                        # 'made'
    result.deal_score                                      # {Team.NS: 92, Team.EW: 90}
    result.to_json()                                       # the protocol's ``score`` result

:func:`score_deal` follows FFB-B16 §7, §9.2 and §10 and the sources the registry cites for each
``scoring.*`` and ``belote.*`` value, driven only by the compiled
:class:`~belote_ref.rules.ruleset.Ruleset`: every number (the 162 of a deal, 82, 92, 250, 252, 160) is
read from the ruleset (``rules.scoring...``) or derived from the point tables, never written in this module, and no
branch looks at a ruleset id.

The result is itemised: :attr:`DealScore.lines` lists every amount written on the score sheet
with the registry parameter it comes from, so that for each team the points of its lines add up
to its :attr:`DealScore.deal_score` (lines worth 0 explain a decision or a loss).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from belote_ref.core.cards import SEATS, Card, CardSet, Rank, Seat, Suit, Team, Trump
from belote_ref.core.errors import BeloteRefError, InconsistentDealError, InternalError
from belote_ref.engine.announcements import Declaration, announcement_points, combinations, make_combination
from belote_ref.engine.bids.auction import Bid
from belote_ref.engine.bids.scoring import score_bid
from belote_ref.engine.play import Trick, _winning_index
from belote_ref.engine.score_sheet import (
    Contract,
    DealContext,
    DealScore,
    ScoreLine,
    Sheet,
    Words,
    convert_points,
)
from belote_ref.rules.ruleset import Ruleset

__all__ = [
    "Contract",
    "DealScore",
    "InconsistentDealError",
    "ScoreLine",
    "deal_total",
    "final_deal_matters",
    "score_deal",
]


_ON_TIE: dict[str, Contract] = {
    "litige": "litige",
    "takers_fail": "down",
    "takers_succeed": "made",
    "replay_deal": "replay",
}
TRICKS_PER_DEAL = 8
CARDS_PER_TRICK = 4
_TEAMS = (Team.NS, Team.EW)
_TEAM_OF_PARITY = _TEAMS  # a seat's team by its number's parity: N and S are even


#: A belote as given to :func:`score_deal`: the announcing seat (the trump suit's king and queen),
#: or at a contract with several belote suits (tout-atout) a mapping suit -> announcing seat.
Belote = Seat | Mapping[Suit, Seat] | None


def deal_total(rules: Ruleset, trump: Suit | Trump) -> int:
    """The card points of a deal outside capot: the pack's points plus the last-trick bonus, or
    the converted total when the contract's points are converted (``tout_atout.scale_to``).

    162 in every shipped ruleset (152 + 10, or 258 converted to 162), but always computed from
    ``rules``.
    """
    scale = rules.scale[trump]
    if scale is not None:
        return scale[0]
    return sum(rules.points[trump]) + int(rules.scoring.last_trick_bonus)


# ---------------------------------------------------------------------------- validation


class _Play:
    """Who played a card, and when (0..31 in play order). A plain class, not a NamedTuple: the
    faster to build in both builds, and compiled by mypyc with the module."""

    __slots__ = ("position", "seat")

    def __init__(self, seat: Seat, position: int) -> None:
        self.seat = seat
        self.position = position


def _check_tricks(
    rules: Ruleset, dealer: Seat, trump: Suit | Trump, tricks: Sequence[Trick]
) -> tuple[tuple[Seat, ...], _TrustedPlays]:
    """Check the tricks in deal order and return (trick winners, who played each card and when).

    For each trick in turn: it must hold 4 cards (``wrong_trick_count``), no card seen before
    (``duplicate_card``), and the right leader (``wrong_leader``: eldest for trick 1, the previous
    trick's winner afterwards). Then there must be exactly 8 tricks (``wrong_trick_count`` with
    the index of the first missing or extra trick). The first inconsistency in deal order is
    reported.
    """
    winners: list[Seat] = []
    leader = dealer.next
    strength = rules.strength[trump]
    seen = 0
    for index, trick in enumerate(tricks[:TRICKS_PER_DEAL]):
        if len(trick.cards) != CARDS_PER_TRICK:
            raise InconsistentDealError(
                f"trick {index + 1} has {len(trick.cards)} cards; expected {CARDS_PER_TRICK}",
                code="wrong_trick_count",
                index=index,
            )
        trick_mask = 0
        for card in trick.cards:
            trick_mask |= 1 << card
        if trick_mask & seen or trick_mask.bit_count() != CARDS_PER_TRICK:
            card = next(c for offset, c in enumerate(trick.cards) if seen >> c & 1 or c in trick.cards[:offset])
            raise InconsistentDealError(
                f"card {card} is played twice (again in trick {index + 1})",
                code="duplicate_card",
                index=index,
            )
        if trick.leader != leader:
            expected = "eldest (the seat after the dealer)" if index == 0 else "the winner of the previous trick"
            raise InconsistentDealError(
                f"trick {index + 1} is led by {trick.leader.name}; expected {leader.name}, {expected}",
                code="wrong_leader",
                index=index,
            )
        seen |= trick_mask
        leader = SEATS[(leader + _winning_index(strength, trick.cards)) & 3]
        winners.append(leader)
    if len(tricks) != TRICKS_PER_DEAL:
        raise InconsistentDealError(
            f"a deal has {TRICKS_PER_DEAL} tricks; found {len(tricks)}",
            code="wrong_trick_count",
            index=min(len(tricks), TRICKS_PER_DEAL),
        )
    # Checked, the tricks hold each card once: who played it is read off them when asked.
    return tuple(winners), _TrustedPlays(tricks)


class _TrustedPlays:
    """Who played each card, read off consistent tricks on demand (a few look-ups per deal)."""

    __slots__ = ("_tricks",)

    def __init__(self, tricks: Sequence[Trick]) -> None:
        self._tricks = tricks

    def get(self, card: int) -> _Play | None:
        for number, trick in enumerate(self._tricks):
            cards = trick.cards
            if card in cards:
                offset = cards.index(card)
                return _Play(SEATS[(trick.leader + offset) & 3], number * CARDS_PER_TRICK + offset)
        return None

    def __getitem__(self, card: int) -> _Play:
        play = self.get(card)
        if play is None:
            raise KeyError(card)
        return play

    def seat_masks(self) -> list[int]:
        """The cards each seat played, as masks indexed by seat (one pass over the tricks)."""
        masks = [0, 0, 0, 0]
        for trick in self._tricks:
            leader = trick.leader
            for offset, card in enumerate(trick.cards):
                masks[(leader + offset) & 3] |= 1 << card
        return masks


def _trusted_tricks(
    rules: Ruleset, trump: Suit | Trump, tricks: Sequence[Trick], winners: tuple[Seat, ...] | None = None
) -> tuple[tuple[Seat, ...], _TrustedPlays]:
    """Trick winners (``winners`` when the caller knows them) and who played each card, for tricks
    already known to be consistent."""
    if winners is None:
        strength = rules.strength[trump]
        winners = tuple(SEATS[(trick.leader + _winning_index(strength, trick.cards)) & 3] for trick in tricks)
    return winners, _TrustedPlays(tricks)


def _belote_holders(rules: Ruleset, trump: Suit | Trump,
                    plays: _TrustedPlays) -> dict[Suit, Seat]:
    """For each belote suit of the contract (``rules.belote_suits``), the seat that played both its
    king and its queen, when one did."""
    suits = rules.belote_suits[trump]
    holders: dict[Suit, Seat] = {}
    if len(suits) == 1:  # a suit contract: two look-ups
        suit = suits[0]
        king, queen = plays[_KING_OF[suit]], plays[_QUEEN_OF[suit]]
        if king.seat == queen.seat:
            holders[suit] = king.seat
        return holders
    if not suits:
        return holders
    masks = plays.seat_masks()
    for suit in suits:
        pair = _KING_QUEEN[suit]
        for seat in SEATS:
            if masks[seat] & pair == pair:
                holders[suit] = seat
                break
    return holders


#: The king and queen of each suit, as a card mask.
_KING_QUEEN = tuple((1 << Card.of(Rank.KING, suit)) | (1 << Card.of(Rank.QUEEN, suit)) for suit in Suit)
#: The king and the queen of each suit.
_KING_OF = tuple(Card.of(Rank.KING, suit) for suit in Suit)
_QUEEN_OF = tuple(Card.of(Rank.QUEEN, suit) for suit in Suit)


def _announced_belotes(rules: Ruleset, trump: Suit | Trump, belote: Belote,
                       plays: _TrustedPlays) -> dict[Suit, Seat]:
    """The belotes announced, as suit -> seat, each checked against who played the king and queen.

    A seat names the belote of the contract's only belote suit (the trump suit); a mapping names
    each suit (tout-atout). Raises ``bad_belote`` (index 0) when a seat did not play both cards,
    when the contract has no belote (sans-atout) or no such belote suit, or when a lone seat is given
    where the contract has several belote suits.
    """
    suits = rules.belote_suits[trump]
    if belote is None:
        return {}
    if isinstance(belote, Seat):
        if not suits:
            raise InconsistentDealError(
                f"belote announced by {belote.name}, but this contract has no belote (sans_atout.belote none)",
                code="bad_belote", index=0)
        if len(suits) > 1:
            raise InconsistentDealError(
                f"belote announced by {belote.name} without a suit: at this contract every suit may hold a "
                f"belote (tout_atout.belote), so name each one as suit -> seat", code="bad_belote", index=0)
        announced = {suits[0]: belote}
    else:
        announced = dict(belote)
    for suit, seat in announced.items():
        if suit not in suits:
            raise InconsistentDealError(
                f"belote announced by {seat.name} in {suit.letter}, which holds no belote at this contract",
                code="bad_belote", index=0)
        if plays[_KING_OF[suit]].seat != seat or plays[_QUEEN_OF[suit]].seat != seat:
            what = "of trumps" if len(suits) == 1 else f"of {suit.letter}"
            raise InconsistentDealError(
                f"belote announced by {seat.name}, who did not play both the king and the queen {what}",
                code="bad_belote", index=0)
    return announced


def _check_declarations(
    rules: Ruleset, trump: Suit | Trump, declarations: Sequence[Declaration], plays: _TrustedPlays
) -> list[Declaration]:
    """Re-derive every declaration from the cards its seat played; return the rebuilt declarations.

    Raises ``bad_announcement`` (index = declaration index) when announcements are not enabled,
    when a declared card was not played by the declaring seat, when the cards do not form the
    declared kind, when the declared points differ from the ruleset's value of the combination,
    or when a card already serves in an earlier declaration (never allowed between two sequences
    or two carrés; between a carré and a sequence only with ``announcements.card_reuse:
    allowed``).
    """
    if declarations and not rules.announcements.enabled:
        raise InconsistentDealError(
            "announcements are not played in this ruleset (announcements.enabled is false)",
            code="bad_announcement",
            index=0,
        )
    rebuilt: list[Declaration] = []
    for index, declaration in enumerate(declarations):
        combination = declaration.combination
        for card in combination.cards:
            play = plays.get(card)
            if play is None or play.seat != declaration.seat:
                who = f"played by {play.seat.name}" if play is not None else "not played"
                raise InconsistentDealError(
                    f"declaration {index + 1} ({combination.kind} of {declaration.seat.name}): "
                    f"card {card} was {who}",
                    code="bad_announcement",
                    index=index,
                )
        try:
            checked = make_combination(rules, trump, combination.kind, combination.cards)
        except BeloteRefError as error:
            raise InconsistentDealError(
                f"declaration {index + 1} ({combination.kind} of {declaration.seat.name}): {error}",
                code="bad_announcement",
                index=index,
            ) from error
        if checked.points != combination.points:
            raise InconsistentDealError(
                f"declaration {index + 1} ({combination.kind} of {declaration.seat.name}) claims "
                f"{combination.points} points; the ruleset values it at {checked.points}",
                code="bad_announcement",
                index=index,
            )
        for earlier in rebuilt:
            shared = earlier.combination.cards & checked.cards
            if not shared:
                continue
            reuse_allowed = (
                rules.announcements.card_reuse == "allowed"
                and earlier.combination.is_sequence != checked.is_sequence
            )
            if not reuse_allowed:
                raise InconsistentDealError(
                    f"declaration {index + 1} ({checked.kind} {checked.cards}) reuses {shared} of an earlier "
                    f"declaration ({earlier.combination.kind} {earlier.combination.cards}); "
                    f"announcements.card_reuse is {rules.announcements.card_reuse}",
                    code="bad_announcement",
                    index=index,
                )
        rebuilt.append(Declaration(declaration.seat, checked))
    return rebuilt


# ---------------------------------------------------------------------------- rounding


def _round_10_half_up(value: int) -> int:
    return (value + 5) // 10 * 10


def _round_10_six_up(value: int) -> int:
    return (value + 4) // 10 * 10


def _round_5(value: int) -> int:
    return (value + 2) // 5 * 5


_ROUNDERS: dict[str, Callable[[int], int]] = {
    "none": lambda value: value,
    "nearest_10_half_up": _round_10_half_up,
    "nearest_10_six_up": _round_10_six_up,
    "nearest_5": _round_5,
    "complement_160": _round_10_half_up,
}


# ---------------------------------------------------------------------------- scoring


def score_deal(
    rules: Ruleset,
    *,
    dealer: Seat,
    taker: Seat,
    trump: Suit | Trump,
    tricks: Sequence[Trick],
    belote: Belote,
    announcements: Sequence[Declaration] = (),
    pot: int = 0,
    final_deal: bool = False,
    validate: bool = True,
    bid: Bid | None = None,
    trick_winners: tuple[Seat, ...] | None = None,
) -> DealScore:
    """Score one played deal and return the itemised :class:`DealScore`.

    ``trump`` is the contract's trump: a :class:`~belote_ref.core.cards.Suit`, ``Trump.SA`` or
    ``Trump.TA``. ``tricks`` are the 8 tricks in order; ``belote`` is the seat that announced
    belote-rebelote (or ``None``), at tout-atout a mapping suit -> announcing seat (up to four
    belotes, ``tout_atout.belote``; none at sans-atout, ``sans_atout.belote``);
    ``announcements`` the declarations made and shown;
    ``pot`` the litige points carried in from earlier deals; ``final_deal`` marks the last deal
    of a match (``scoring.rounding.final_deal_exact``, ``scoring.litige.on_final_deal``).

    The steps, each driven by the parameters named:

    1. **Card points** (FFB-B16; capot §9.2): each trick's points (``rules.points[trump]``) go to
       its winner's team, and ``scoring.last_trick_bonus`` to the winner of trick 8. A team that
       wins all 8 tricks makes **capot** (``scoring.capot.mode``): ``raised_last_trick`` replaces
       the bonus by ``scoring.capot.last_trick_bonus`` (152 + 100 = 252); ``flat`` gives the
       sweeping team ``scoring.capot.value`` card points (250). The swept team has 0. When the
       contract's points are converted (tout-atout with ``tout_atout.scale_to``: 258 to 162), each
       team's card points, last-trick bonus included, are converted and rounded
       (``tout_atout.rounding``); a capot counts from the converted whole deal, its bonus raised
       as above (162 - 10 + 100 = 252). Everything after this step sees only converted points.
    2. **Belote** (§1.8): credited to the team of ``belote`` (checked: that seat played both
       the king and the queen of trumps). With ``belote.announcement: automatic`` it is credited
       to whoever played both, whatever ``belote`` says (a ``None`` there is a forgotten word the
       ruleset forgives). The other announcement modes read ``belote`` as given: one deal cannot
       express a forgotten "rebelote" or a per-game tolerance, so they act like
       ``both_words_strict``. With ``belote.king_first`` a queen played before the king scores
       nothing (``belote`` is then ``None`` and a ``belote.king_first`` line says why). At
       tout-atout each suit's belote is checked, credited and worth ``belote.value`` on its own;
       the team's belote points are the sum. A ``belote.value`` of 0 is no belote: nobody is
       credited (a 0-point line says so), and ``belote`` is ``None`` in the result.
    3. **Announcements** (§1.9): when ``announcements.enabled``, every declaration is re-derived
       from the cards its seat played, then compared by
       :func:`~belote_ref.engine.announcements.announcement_points` with eldest = the seat after the
       dealer; only the comparison's winner is credited. With ``announcements.declared:
       automatic`` the declarations, once checked, are replaced by every combination of each
       seat's 8 cards (:func:`~belote_ref.engine.announcements.combinations`).
    4. **Contract test** (§1.10). Capot by the takers is always made, capot by the defenders
       always down. Otherwise ``scoring.contract.test``: ``compare_totals`` sets the takers'
       card points plus their counted extras against the defenders' likewise (belote counted by
       ``scoring.contract.count_belote``: ``both_sides``, ``none``, ``takers_only``; announcements
       by ``scoring.contract.count_announcements``); more is made, less is down, equal follows
       ``scoring.contract.on_tie`` (``litige``, ``takers_fail``, ``takers_succeed``,
       ``replay_deal``). ``card_threshold`` compares the takers' card points (last-trick bonus
       included, extras never) with ``scoring.contract.card_threshold``; there is no tie. The 82
       and 92 of the sources are not parameters: they are the strict majority of 162 and 182.
    5. **Deal scores** (§1.10). Made: each team scores its own total, cards + own
       announcements + own belote. Capot by the takers: the capot value + their announcements +
       their belote; the swept defenders keep their belote per
       ``belote.on_capot_against_holder`` and their announcements go per
       ``scoring.capot.loser_announcements``. Down: the takers score 0 (their belote per
       ``belote.on_chute``); the defenders ``scoring.chute.base`` + the announcements of
       ``scoring.chute.announcements`` + their belote. Capot by the defenders: as down, with the
       capot value when ``scoring.capot.defenders_earn_bonus``. Litige: the defenders score
       their own total, the takers' total goes into the pot (``scoring.litige.belote`` may keep
       their belote out of it; ``scoring.litige.on_final_deal`` on the last deal). Replay: 0 each.
    6. **Pot** (``scoring.litige.pot_to: winner_of_next_deal``): a pot carried in is paid, whole
       and unrounded, to the takers of a made deal or the defenders of a down deal; a litige
       adds to it and a replayed deal leaves it alone.
    7. **Rounding** (§1.11, ``scoring.rounding.mode``), after the pot payout and never for the
       contract test, skipped on the final deal with ``scoring.rounding.final_deal_exact``.

    Raises :class:`InconsistentDealError` (a :class:`~belote_ref.core.errors.BeloteRefError`) with
    ``code`` and ``index`` when the deal is inconsistent: ``wrong_trick_count`` (a trick without
    4 cards; or not 8 tricks, index = the first missing or extra trick), ``duplicate_card``,
    ``wrong_leader`` (index = trick index, the first problem in deal order; within a trick the
    card count, then duplicates, then the leader are checked), ``bad_belote`` (``belote`` names a
    seat that did not play both the king and the queen of trumps, in every ``belote.announcement``
    mode; index 0), ``bad_announcement`` (index = declaration index). ``validate=False`` skips
    the checks of the tricks (count,
    repeated cards, leaders) for tricks a :class:`~belote_ref.engine.deal.DealState` built and so
    guarantees; the belote and the declarations are still checked. With ``validate=False`` the
    caller that already knows the winner of each trick may pass them as ``trick_winners``; they are
    trusted too.

    Under ``bidding.auction: bids`` (the coinche family) ``bid`` is the contract's value and
    multiplier, and steps 4 to 6 are :func:`belote_ref.engine.bids.scoring.score_bid` (no litige, pot 0).
    """
    winners, plays = (_check_tricks(rules, dealer, trump, tricks) if validate
                      else _trusted_tricks(rules, trump, tricks, trick_winners))
    announced = _announced_belotes(rules, trump, belote, plays)
    declarations = _check_declarations(rules, trump, announcements, plays)
    eldest = SEATS[(dealer + 1) & 3]
    takers, defenders = _TEAM_OF_PARITY[taker & 1], _TEAM_OF_PARITY[(taker & 1) ^ 1]
    sheet = Sheet()

    # 1. Card points and capot (converted to the contract's scale, if it has one).
    table = rules.points[trump]
    by_parity = [0, 0]  # seats 0 and 2 are NS, 1 and 3 EW
    tricks_won_by_ew = 0
    if len(winners) != len(tricks):
        raise InternalError("broken invariant: one winner per trick")
    # By index rather than zip(): the faster in both builds.
    for number in range(len(winners)):
        first, second, third, fourth = tricks[number].cards
        parity = winners[number] & 1
        by_parity[parity] += table[first] + table[second] + table[third] + table[fourth]
        tricks_won_by_ew += parity
    raw = {Team.NS: by_parity[0], Team.EW: by_parity[1]}
    last_team = _TEAM_OF_PARITY[winners[-1] & 1]
    capot = Team.NS if not tricks_won_by_ew else Team.EW if tricks_won_by_ew == len(winners) else None
    bonus = rules.scoring.last_trick_bonus
    scale = rules.scale[trump]
    card_points = dict(raw)
    if capot is None:
        card_points[last_team] += bonus
        if scale is not None:
            card_points = {team: convert_points(card_points[team], scale) for team in _TEAMS}
    elif rules.scoring.capot.mode == "raised_last_trick":
        # Converted, the sweeping team holds the whole converted deal; the capot then raises its
        # last-trick bonus as at a suit contract (162 - 10 + 100 = 252).
        whole = raw[capot] + bonus if scale is None else convert_points(raw[capot] + bonus, scale)
        card_points[capot] = whole - bonus + rules.scoring.capot.last_trick_bonus
    else:
        card_points[capot] = rules.scoring.capot.value
        card_points[capot.other] = 0

    # 2. Belote (one per belote suit of the contract: the trump suit, none at SA, each suit at TA).
    credited = _belote_holders(rules, trump, plays) if rules.belote.announcement == "automatic" else announced
    if rules.belote.value == 0:  # a belote worth nothing is no belote, as a carré worth 0 is none
        for _suit, seat in sorted(credited.items()):
            sheet.add(seat.team, 0, "belote.value",
                      f"belote of {seat.name} scores nothing: belote is not played (belote.value 0)")
        credited = {}
    several = len(rules.belote_suits[trump]) > 1
    belote_teams: dict[Suit, Team] = {}
    notes = []
    for suit, seat in sorted(credited.items()):
        where = f" in {suit.letter}" if several else ""
        notes.append(f"{seat.name}{where}")
        if rules.belote.king_first and (
                plays[_QUEEN_OF[suit]].position < plays[_KING_OF[suit]].position):
            what = "trumps" if not several else suit.letter
            sheet.add(seat.team, 0, "belote.king_first",
                      f"belote of {seat.name}{where} not credited: the queen of {what} was played before the king")
        else:
            belote_teams[suit] = seat.team
    bel = {Team.NS: 0, Team.EW: 0}
    for team in belote_teams.values():
        bel[team] += rules.belote.value
    belote_note = ""
    if credited:
        belote_note = f"belote-rebelote of {', '.join(notes)}"
        if rules.belote.announcement == "automatic":
            belote_note += " (credited automatically, belote.announcement automatic)"
    belote_result: Team | dict[Suit, Team] | None
    if several:
        belote_result = belote_teams or None
    else:
        belote_result = next(iter(belote_teams.values()), None)

    # 3. Announcements (every combination of every hand with announcements.declared automatic).
    if rules.announcements.enabled and rules.announcements.declared == "automatic":
        masks = plays.seat_masks()
        declarations = [Declaration(seat, combination) for seat in (SEATS[(eldest + i) & 3] for i in range(4))
                        for combination in combinations(rules, trump, CardSet(masks[seat]))]
    ann = {Team.NS: 0, Team.EW: 0}
    if rules.announcements.enabled and declarations:
        scored = announcement_points(rules, trump, declarations, eldest)
        for team in _TEAMS:
            ann[team] = scored.get(team, 0)

    ctx = DealContext(rules, sheet, takers, defenders, capot, raw, card_points, bel, ann, belote_note, last_team,
                   winners[-1], trump)
    pot_in, pot_out = pot, pot
    contract: Contract
    if rules.bidding.auction == "bids":
        # 4-5. The bidding family judges its bid and scores it by its own formulas (bid_scoring);
        # it has no litige, so no pot.
        contract = score_bid(ctx, bid, taker, winners)
        pot_in = pot_out = 0
    else:
        # 4. Contract test.
        contract = _contract(rules, sheet, takers, capot, card_points, bel, ann)

    # 5. Deal scores.
    if rules.bidding.auction == "bids":
        pass  # written by score_bid
    elif contract == "made":
        if capot is takers:
            _score_capot_by_takers(ctx)
        else:
            _score_made(ctx)
    elif contract == "down":
        if capot is defenders:
            _score_capot_by_defenders(ctx)
        else:
            _score_down(ctx)
    elif contract == "litige":
        pot_out = _score_litige(ctx, pot_in, final_deal)
    else:
        sheet.add(
            takers, 0, "scoring.contract.on_tie", "tie with on_tie replay_deal: the deal is replayed, nobody scores"
        )

    # 6. Pot payout.
    if pot_in > 0 and contract in ("made", "down"):
        receiver = takers if contract == "made" else defenders
        sheet.add(receiver, pot_in, "scoring.litige.pot_to",
                  "litige pot of {0} paid to the {1} ({2.value}), who win this deal ({3})",
                  pot_in, "takers" if contract == "made" else "defenders", receiver, contract)
        pot_out = 0

    # 7. Rounding.
    _round(rules, sheet, takers, contract, capot, final_deal)

    return DealScore(
        trick_winners=winners,
        card_points=card_points,
        announcements=ann,
        belote=belote_result,
        contract=contract,
        capot=capot,
        deal_score=dict(sheet.score),
        pot=pot_out,
        lines=tuple(sheet.lines),
    )


def final_deal_matters(rules: Ruleset, score: DealScore) -> bool:
    """Whether ``score``, a deal scored as the final deal of a match, would differ scored as any
    other deal: only a litige (``scoring.litige.on_final_deal``) and the rounding skipped on the
    final deal (``scoring.rounding.final_deal_exact``) look at ``final_deal``. A match then scores
    most deals once instead of twice."""
    rounding = rules.scoring.rounding
    return score.contract == "litige" or (rounding.final_deal_exact and rounding.mode != "none")


def _contract(
    rules: Ruleset,
    sheet: Sheet,
    takers: Team,
    capot: Team | None,
    card_points: dict[Team, int],
    bel: dict[Team, int],
    ann: dict[Team, int],
) -> Contract:
    """Decide the contract (FFB-B16 §10.1, ``scoring.contract.*``) and add a 0-point line saying why.

    A capot decides alone: the sweeping side wins the deal. Otherwise ``scoring.contract.test``
    decides; the belote counted is ``bel`` filtered by ``scoring.contract.count_belote``, the
    announcements are counted when ``scoring.contract.count_announcements``.
    """
    defenders = takers.other
    if capot is not None:
        made = capot is takers
        sheet.add(
            takers,
            0,
            "scoring.contract.test",
            f"capot by the {'takers' if made else 'defenders'} ({capot.value}): contract {'made' if made else 'down'}",
        )
        return "made" if made else "down"
    if rules.scoring.contract.test == "card_threshold":
        threshold = rules.scoring.contract.card_threshold
        made = card_points[takers] >= threshold
        sheet.add(takers, 0, "scoring.contract.card_threshold",
                  f"takers' card points {card_points[takers]} {'>=' if made else '<'} {threshold}: "
                  f"contract {'made' if made else 'down'}")
        return "made" if made else "down"
    count_belote = rules.scoring.contract.count_belote
    count_ann = rules.scoring.contract.count_announcements
    # Each side's card points, and the belote and announcement points counted with them.
    taker_parts = (card_points[takers], bel[takers] if count_belote != "none" else 0,
                   ann[takers] if count_ann else 0)
    defender_parts = (card_points[defenders], bel[defenders] if count_belote == "both_sides" else 0,
                      ann[defenders] if count_ann else 0)
    taker_total, defender_total = sum(taker_parts), sum(defender_parts)
    comparison = Words(_comparison_words, taker_parts, defender_parts)
    if taker_total != defender_total:
        made = taker_total > defender_total
        sheet.add(takers, 0, "scoring.contract.test", "compare_totals: {0}: contract {1}",
                  comparison, "made" if made else "down")
        return "made" if made else "down"
    on_tie = rules.scoring.contract.on_tie
    outcome = _ON_TIE[on_tie]
    sheet.add(takers, 0, "scoring.contract.on_tie", "compare_totals tie: {0}: on_tie {1} -> {2}",
              comparison, on_tie, outcome)
    return outcome


def _comparison_words(takers: tuple[int, int, int], defenders: tuple[int, int, int]) -> str:
    """``takers 81 cards + 20 belote = 101 vs defenders 81 cards = 81``: what each side counted."""

    def words(parts: tuple[int, int, int]) -> str:
        cards, belote, announcements = parts
        said = [f"{cards} cards"]
        if belote:
            said.append(f"{belote} belote")
        if announcements:
            said.append(f"{announcements} announcements")
        return f"{' + '.join(said)} = {sum(parts)}"

    return f"takers {words(takers)} vs defenders {words(defenders)}"


def _score_made(ctx: DealContext) -> None:
    """Made, no capot: each team scores its own total, cards + own announcements + own belote.

    Each team scores its own total (FFB-B16 §10.2; PAGAT; seed 003
    "les deux équipes marquent respectivement leur total de points").
    """
    ctx.total(ctx.takers)
    ctx.total(ctx.defenders)


def _score_capot_by_takers(ctx: DealContext) -> None:
    """Capot by the takers: they score the capot value + own announcements + own belote.

    The swept defenders score their belote only when ``belote.on_capot_against_holder`` is
    ``kept`` (seed 003: "le camp perdant ne marque rien, excepté la belote qui est imprenable").
    Their validated announcements follow ``scoring.capot.loser_announcements``:
    ``transfer_to_winner`` adds them to the takers (seed 003: "leurs annonces ainsi que les
    annonces de l'autre camp"), ``void`` loses them, ``keep`` lets the defenders score them.
    """
    rules, sheet, takers, defenders = ctx.rules, ctx.sheet, ctx.takers, ctx.defenders
    ctx.total(takers)
    loser_ann = ctx.ann[defenders]
    if loser_ann:
        mode = rules.scoring.capot.loser_announcements
        if mode == "transfer_to_winner":
            sheet.add(takers, loser_ann, "scoring.capot.loser_announcements",
                      f"the swept defenders' announcements ({loser_ann}) pass to the takers")
        elif mode == "keep":
            sheet.add(defenders, loser_ann, "scoring.capot.loser_announcements",
                      "the swept defenders keep their validated announcements")
        else:
            sheet.add(defenders, 0, "scoring.capot.loser_announcements",
                      f"the swept defenders' announcements ({loser_ann}) are void")
    if ctx.bel[defenders]:
        if rules.belote.on_capot_against_holder == "kept":
            ctx.belote(defenders, "kept by the swept holder (belote.on_capot_against_holder kept)")
        else:
            sheet.add(defenders, 0, "belote.on_capot_against_holder",
                      f"{ctx.belote_note}: lost by the swept holder")


def _chute_announcements(ctx: DealContext, *, takers_lost_by_capot: bool) -> None:
    """The defenders' announcement lines on a chute (``scoring.chute.announcements``).

    ``all_to_defenders`` gives them both teams' validated announcements (FFB-WEB;
    seed 001 "tous leurs points de cette manche (y compris
    leurs annonces) sont attribués à l'équipe adverse"); ``defenders_own_only`` only their own;
    ``kept_by_holder`` leaves the takers theirs.
    ``takers_lost_by_capot`` marks a takers' capot under ``scoring.capot.loser_announcements:
    void``: the swept takers' announcements are lost instead.
    """
    rules, sheet, takers, defenders = ctx.rules, ctx.sheet, ctx.takers, ctx.defenders
    ctx.announcements(defenders)
    taker_ann = ctx.ann[takers]
    if not taker_ann:
        return
    if takers_lost_by_capot:
        sheet.add(takers, 0, "scoring.capot.loser_announcements",
                  f"the swept takers' announcements ({taker_ann}) are void")
    elif rules.scoring.chute.announcements == "all_to_defenders":
        sheet.add(defenders, taker_ann, "scoring.chute.announcements",
                  f"the takers' announcements ({taker_ann}) go to the defenders on a chute")
    elif rules.scoring.chute.announcements == "kept_by_holder":
        sheet.add(takers, taker_ann, "scoring.chute.announcements",
                  f"the takers keep their announcements ({taker_ann}) on a chute (kept_by_holder)")
    else:
        sheet.add(takers, 0, "scoring.chute.announcements",
                  f"the takers' announcements ({taker_ann}) are lost on a chute (defenders_own_only)")


def _takers_belote_on_chute(ctx: DealContext, *, swept: bool) -> None:
    """The takers' belote on a chute (``belote.on_chute``), then, when swept, the capot rule.

    ``kept_by_holder``: the takers keep it (imprenable, FFB-B16; seed 003 "excepté la belote
    qui est imprenable"); ``to_defenders``: it passes to the defenders (prenable, seed 001);
    ``void``: lost. When the defenders swept the takers and the belote is kept by its holder,
    ``belote.on_capot_against_holder`` then decides ``kept`` or ``lost``.
    """
    rules, sheet, takers, defenders = ctx.rules, ctx.sheet, ctx.takers, ctx.defenders
    points = ctx.bel[takers]
    if not points:
        return
    mode = rules.belote.on_chute
    if mode == "to_defenders":
        sheet.add(
            defenders, points, "belote.on_chute", f"{ctx.belote_note}: passes to the defenders on a chute (prenable)"
        )
    elif mode == "void":
        sheet.add(takers, 0, "belote.on_chute", f"{ctx.belote_note}: lost on a chute")
    elif swept and rules.belote.on_capot_against_holder == "lost":
        sheet.add(takers, 0, "belote.on_capot_against_holder", f"{ctx.belote_note}: lost by the swept holder")
    else:
        ctx.belote(takers, "kept by its holder on a chute (belote.on_chute kept_by_holder)")


def _score_down(ctx: DealContext) -> None:
    """Down (chute, *dedans*), no capot.

    The takers score 0, plus their belote if ``belote.on_chute`` is ``kept_by_holder``. The
    defenders score ``scoring.chute.base`` (FFB-B16 §10.2; seed 003 "Leurs
    adversaires marquent 162 points de chute") + the announcements of
    ``scoring.chute.announcements`` + their own belote + the takers' belote when
    ``belote.on_chute`` is ``to_defenders``.
    """
    rules, sheet, takers, defenders = ctx.rules, ctx.sheet, ctx.takers, ctx.defenders
    sheet.add(takers, 0, "scoring.chute.base", "the takers are down (dedans): no card points")
    sheet.add(defenders, rules.scoring.chute.base, "scoring.chute.base", "chute: the defenders score the base")
    _chute_announcements(ctx, takers_lost_by_capot=False)
    ctx.belote(defenders)
    _takers_belote_on_chute(ctx, swept=False)


def _score_capot_by_defenders(ctx: DealContext) -> None:
    """Capot by the defenders: the takers are down and swept.

    The defenders score the capot card value when ``scoring.capot.defenders_earn_bonus`` (FFB-B16:
    252), else ``scoring.chute.base`` (Pagat: the ordinary dedans award); + announcements as on a
    chute, except that under ``scoring.capot.loser_announcements: void`` the swept takers'
    announcements are lost (``transfer_to_winner`` and ``keep`` both leave the chute rule in
    charge); + their own belote. The takers' belote follows ``belote.on_chute`` first; when that
    keeps it with its holder, ``belote.on_capot_against_holder`` decides kept or lost.
    """
    rules, sheet, defenders = ctx.rules, ctx.sheet, ctx.defenders
    if rules.scoring.capot.defenders_earn_bonus:
        sheet.add(defenders, ctx.card_points[defenders], "scoring.capot.defenders_earn_bonus",
                  f"the defenders sweep the takers and score the capot value {ctx.card_points[defenders]} "
                  f"(scoring.capot.mode {rules.scoring.capot.mode})")
    else:
        sheet.add(defenders, rules.scoring.chute.base, "scoring.chute.base",
                  "the defenders sweep the takers but score only the chute base "
                  "(scoring.capot.defenders_earn_bonus false)")
    _chute_announcements(
        ctx, takers_lost_by_capot=rules.scoring.capot.loser_announcements == "void"
    )
    ctx.belote(defenders)
    _takers_belote_on_chute(ctx, swept=True)


def _score_litige(ctx: DealContext, pot_in: int, final_deal: bool) -> int:
    """Litige (tie with ``on_tie: litige``); returns the pot after this deal.

    Litige (FFB-B16 §10.1.3): the defenders score their own total now (cards + own announcements
    + own belote); the takers' total (cards + own announcements + own belote) waits in the pot
    for the next played deal, and a second litige adds to it. With ``scoring.litige.belote:
    excluded_kept_by_holder`` the takers' belote is scored by them at once and stays out of the
    pot. On the final deal of a match, ``scoring.litige.on_final_deal: each_scores_own`` makes
    the takers score their own total at once (nothing is added to the pot, which stays unpaid);
    ``pot_unpaid`` keeps the ordinary litige, whose pot is then never paid.
    """
    rules, sheet, takers, defenders = ctx.rules, ctx.sheet, ctx.takers, ctx.defenders
    ctx.total(defenders)
    if final_deal and rules.scoring.litige.on_final_deal == "each_scores_own":
        sheet.add(takers, 0, "scoring.litige.on_final_deal",
                  "litige on the final deal: each side scores its own total, nothing goes into the pot")
        ctx.total(takers)
        return pot_in
    held = ctx.card_points[takers] + ctx.ann[takers] + ctx.bel[takers]
    if ctx.bel[takers] and rules.scoring.litige.belote == "excluded_kept_by_holder":
        held -= ctx.bel[takers]
        sheet.add(takers, ctx.bel[takers], "scoring.litige.belote",
                  f"{ctx.belote_note}: scored by the takers at once, not put in the pot (excluded_kept_by_holder)")
    note = f"litige: the takers' total {held} goes into the pot ({pot_in} -> {pot_in + held})"
    if final_deal:
        note += "; final deal: the pot is never paid (scoring.litige.on_final_deal pot_unpaid)"
    sheet.add(takers, 0, "scoring.litige.pot_to", note)
    return pot_in + held


def _round(
    rules: Ruleset, sheet: Sheet, takers: Team, contract: Contract, capot: Team | None, final_deal: bool
) -> None:
    """Round each team's deal score (FFB-B16 §10.3 and the other sources of ``scoring.rounding.mode``).

    ``nearest_10_half_up`` 84 -> 80, 85 -> 90; ``nearest_10_six_up`` 85 -> 80, 86 -> 90;
    ``nearest_5`` 82 -> 80, 83 -> 85; ``complement_160`` on a made deal without capot rounds the
    takers half-up to 10 and gives the defenders the rounded sum minus that (162 -> 160), and
    otherwise rounds each side half-up. Skipped on the final deal when
    ``scoring.rounding.final_deal_exact``. Each change is a ``scoring.rounding.mode`` line.
    """
    mode = rules.scoring.rounding.mode
    if mode == "none":
        return
    if final_deal and rules.scoring.rounding.final_deal_exact:
        sheet.add(takers, 0, "scoring.rounding.final_deal_exact", "final deal of the match: scored without rounding")
        return
    score = sheet.score
    if mode == "complement_160" and contract == "made" and capot is None:
        defenders = takers.other
        taker_rounded = _round_10_half_up(score[takers])
        rounded = {
            takers: taker_rounded,
            defenders: _round_10_half_up(score[takers] + score[defenders]) - taker_rounded,
        }
    else:
        rounded = {team: _ROUNDERS[mode](score[team]) for team in _TEAMS}
    for team in _TEAMS:
        if rounded[team] != score[team]:
            sheet.add(team, rounded[team] - score[team], "scoring.rounding.mode", "{0}: {1} -> {2}",
                      mode, score[team], rounded[team])
