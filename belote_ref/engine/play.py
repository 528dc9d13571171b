"""Playing a card: tricks, the trick winner, card points, and the legal plays.

Pure functions driven only by the compiled :class:`~belote_ref.rules.ruleset.Ruleset`.

The legal plays follow the obligation ladder R0-R5 of FFB-B16 §5.2, switched by the five
``play.*`` registry parameters. :func:`legal_plays` is the public entry point;
:func:`legal_mask` is the same computation on int masks for simulations, and
:func:`explain_illegal` says which rule forbids a card.

Every function takes the contract's trump: a :class:`~belote_ref.core.cards.Suit`, or
:class:`~belote_ref.core.cards.Trump` ``SA`` (sans-atout) or ``TA`` (tout-atout). At SA and TA no card
is a trump over the other suits (FFB-B16 §11: "il est impossible de couper"): a trick goes to the
highest card of the suit led, in ``sans_atout.card_order`` or ``tout_atout.card_order``, and a
player must follow suit, else discard any card. At SA a follower heads the trick only under
``play.must_head_plain_suit``, as in a plain suit; at TA he must beat the best card on the table
when he can (``tout_atout.must_head``), even over his partner unless ``tout_atout.partner_relief``.

>>> from belote_ref import CardSet, Seat, Suit, find_ruleset, parse_cards
>>> classic = find_ruleset("classic")
>>> trick = Trick(Seat.N, tuple(parse_cards("AS 9H")))
>>> legal_plays(classic, Suit.H, CardSet.parse("7H QH KD 8C"), trick)
CardSet('7H QH')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from belote_ref.core.cards import CARDS, CARDSET_FROM_MASK, SEATS, SUIT_LETTERS, Card, CardSet, Seat, Suit, Trump
from belote_ref.core.errors import InternalError, TrickError
from belote_ref.rules.playtables import RULE_TA_MUST_HEAD, trump_mask
from belote_ref.rules.playtables import PlayPolicy as _PlayPolicy
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import Ruleset

__all__ = [
    "RULE_CARD_IN_HAND",
    "RULE_FOLLOW_SUIT",
    "RULE_MUST_OVERTRUMP",
    "RULE_MUST_TRUMP",
    "RULE_TA_MUST_HEAD",
    "RULE_TA_PARTNER_RELIEF",
    "Trick",
    "Violation",
    "explain_illegal",
    "legal_mask",
    "legal_plays",
    "run_tricks",
    "trick_points",
    "trick_winner",
]


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick: the seat that led it and the cards played so far, in play order."""

    leader: Seat
    cards: tuple[Card, ...] = ()

    def __init__(self, leader: Seat, cards: tuple[Card, ...] = ()) -> None:
        # Written out: the compiled build compiles this __init__, not the one dataclasses generates
        # (interpreted); tests/test_build.py checks it takes the fields in order with their defaults.
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "cards", cards)

    def seat_of(self, index: int) -> Seat:
        """The seat that played (or will play) the ``index``-th card of the trick."""
        return SEATS[(self.leader + index) & 3]

    @property
    def next_seat(self) -> Seat:
        """The seat to play next."""
        return SEATS[(self.leader + len(self.cards)) & 3]


def _winning_index(strength: tuple[int, ...], cards: tuple[Card, ...] | list[Card]) -> int:
    """Index of the winning card: trumps (strength 8..15) beat every plain card (0..7)."""
    led_suit = cards[0] >> 3
    best = 0
    best_value = strength[cards[0]]
    for index in range(1, len(cards)):
        card = cards[index]
        value = strength[card]
        if value > best_value and (value >= 8 or card >> 3 == led_suit):
            best, best_value = index, value
    return best


def trick_winner(rules: Ruleset, trump: Suit | Trump, trick: Trick) -> Seat:
    """The seat whose card wins ``trick`` so far: the highest trump, else the highest card of the led suit.

    At sans-atout and tout-atout: the highest card of the led suit in the contract's card order.

    Raises :class:`~belote_ref.core.errors.TrickError` if the trick has no card.
    """
    if not trick.cards:
        raise TrickError("an empty trick has no winner")
    return trick.seat_of(_winning_index(rules.strength[trump], trick.cards))


def trick_points(rules: Ruleset, trump: Suit | Trump, cards: Iterable[int]) -> int:
    """The card points of ``cards`` with ``trump`` as trumps (no last-trick bonus).

    At tout-atout these are the raw ``tout_atout.card_points``, before any conversion of the deal's
    total (``tout_atout.scale_to``, applied to a whole deal by the scoring)."""
    table = rules.points[trump]
    return sum(table[card] for card in cards)


# ------------------------------------------------------------------------------- legal plays
#
# Two implementations of one ladder (FFB-B16 §5.2, with the registry's ``play.*`` variants):
#
# - ``legal_mask``: the fast path, on int masks with per-ruleset tables compiled once;
# - ``_ladder``: the readable reference, used by ``explain_illegal`` to name the rung and the
#   rule. The tests check that both agree on random positions under every parameter combination.

_PLAY_PARAMETERS: Final = (
    "play.partner_master_exception",
    "play.trump_lead_overtrump",
    "play.undertrump_over_opponent",
    "play.undertrump_partner",
    "play.must_head_plain_suit",
    "play.undertrump_partner_no_exception",
)

RULE_CARD_IN_HAND: Final = "play.card_in_hand"
"""Base rule: the card played must be in the player's hand (code ``card_not_in_hand``)."""
RULE_FOLLOW_SUIT: Final = "play.follow_suit"
"""Base rule: follow the led suit when you hold it (trumps included when trumps are led)."""
RULE_MUST_TRUMP: Final = "play.must_trump"
"""Base rule: void in the led suit, play a trump when you hold one (couper)."""
RULE_MUST_OVERTRUMP: Final = "play.must_overtrump"
"""Base rule: play a trump higher than the best trump on the table when you hold one (monter, surcouper)."""
# RULE_TA_MUST_HEAD (from belote_ref.rules.playtables): at tout-atout, beat the best card of the suit led.
RULE_TA_PARTNER_RELIEF: Final = "tout_atout.partner_relief"
"""At tout-atout: the heading obligation also holds over the partner (the registry parameter)."""


def legal_mask(rules: Ruleset, trump: int, hand_mask: int, leader: int, cards: tuple[int, ...]) -> int:
    """The legal plays as a 32-bit card mask: the fast form of :func:`legal_plays`.

    ``trump`` is the contract's trump (``Suit``, ``Trump`` or its int, 0 to 5), ``hand_mask`` the player's
    :attr:`CardSet.mask <belote_ref.core.cards.CardSet.mask>`, ``cards`` the cards of the trick so far in
    play order (0 to 3 cards). ``leader`` is the seat that led; it is accepted for symmetry with
    :class:`Trick` but the result does not depend on it: the partner of the seat to play is the one
    who played the card two places before it, so "partner is master" is "the winning card is
    ``cards[-2]``".

    Returns ``hand_mask`` itself when the trick is empty, and 0 for an empty hand; otherwise a
    non-empty subset of ``hand_mask``.

    .. warning:: Nothing is validated: a complete trick (4 cards), cards out of range, or a hand
       overlapping the trick give unspecified results. :func:`legal_plays` checks the trick size.
    """
    n = len(cards)
    if not n:
        return hand_mask
    effs, above, tmask, head, relief, pme, tlo_relaxed, opp_optional, up_mode, partner_optional = (
        rules.play_tables.per_trump[trump]
    )
    w = cards[0]
    led = w >> 3
    eff = effs[led]
    ws = eff[w]
    wi = 0
    if n > 1:
        c = cards[1]
        s = eff[c]
        if s > ws:
            w, ws, wi = c, s, 1
        if n > 2:
            c = cards[2]
            s = eff[c]
            if s > ws:
                w, ws, wi = c, s, 2
    # R1: trump led
    if led == trump:
        same = hand_mask & tmask
        if not same:
            return hand_mask
        over = same & above[w]
        if over and not (tlo_relaxed and wi == n - 2):
            return over
        return same
    # R2: plain suit led (every suit at SA and TA), player holds it
    same = hand_mask & (0xFF << (led << 3))
    if same:
        if head and ws < 8 and not (relief and wi == n - 2):
            beat = same & above[w]
            if beat:
                return beat
        return same
    # R3: void in the led suit and in trumps
    trumps = hand_mask & tmask
    if not trumps:
        return hand_mask
    # R4: partner is master and the exception applies
    if pme and wi == n - 2:
        if ws < 8 or up_mode == 0:  # plain winner, or undertrump_partner == allowed
            return hand_mask
        over = trumps & above[w]
        others_over = (hand_mask ^ trumps) | over
        if up_mode == 1:  # only_if_hand_is_all_trumps
            return others_over if hand_mask != trumps else trumps
        if up_mode == 3:  # unless_holding_higher: the lower trumps only while no higher one is held
            return others_over if over else hand_mask
        return others_over or trumps  # only_if_forced: under (= all trumps, over is empty)
    # R5
    if ws >= 8:
        over = trumps & above[w]
        if over:
            return over
        if wi == n - 2:  # the partner ruffed and the exception is off
            return hand_mask if partner_optional else trumps
        return hand_mask if opp_optional else trumps
    return trumps


def run_tricks(
    rules: Ruleset,
    trump: int,
    hands: list[int],
    leader: int,
    plays: Sequence[int] | None = None,
    random_: Callable[[], float] | None = None,
) -> tuple[list[int], list[int], int]:
    """Play the 8 tricks of a deal from its first card, on int masks: the engine's hot loop.

    ``hands`` are the four 8-card masks indexed by seat (emptied in place as the cards are played),
    ``leader`` leads trick 1. Each card is ``plays[i]`` when ``plays`` is given, checked against
    the legal plays of its turn; otherwise it is drawn uniformly from them: the k-th legal card in
    card order, k = ``int(random_() * count)``, the draw :func:`belote_ref.engine.simulate.random_deal`
    has always made.

    Returns ``(cards, leaders, bad)``: the cards played, the leader of each trick followed by the
    winner of the last one (9 seats), and -1, or the index of the first card that may not be
    played (then ``hands`` are part-played and ``cards`` stop before it). A ``plays`` of another
    length than 32 is never checked here: ``bad`` is its length, or 32 when it is longer.

    .. note:: Deliberate copy: the follower's rungs R1-R5 are :func:`legal_mask`'s, written inline
       because a call per card was a tenth of a random deal. ``tests/test_run_tricks.py`` holds the
       two equal under every combination of the ``play.*`` parameters, at every contract.
    """
    if plays is not None and len(plays) != 32:
        return [], [leader], min(len(plays), 32)
    effs, above, tmask, head, relief, pme, tlo_relaxed, opp_optional, up_mode, partner_optional = (
        rules.play_tables.per_trump[trump]
    )
    cards: list[int] = []
    leaders = [leader]
    index = 0
    for _trick in range(8):
        hand = hands[leader]
        if plays is None:
            mask = hand
            skip = int(random_() * mask.bit_count())  # type: ignore[misc]
            while skip > 0:  # drop the lowest card ``skip`` times: keep the skip-th legal card
                mask &= mask - 1
                skip -= 1
            w = (mask & -mask).bit_length() - 1
        else:
            w = plays[index]
            if not hand >> w & 1:
                return cards, leaders, index
        hands[leader] = hand & ~(1 << w)
        cards.append(w)
        index += 1
        led = w >> 3
        eff = effs[led]
        ws = eff[w]
        wi = 0
        suit_mask = 0xFF << (led << 3)
        for n in (1, 2, 3):
            seat = (leader + n) & 3
            hand = hands[seat]
            partner_wins = wi == n - 2
            if led == trump:  # R1
                mask = hand & tmask
                if not mask:
                    mask = hand
                else:
                    over = mask & above[w]
                    if over and not (tlo_relaxed and partner_wins):
                        mask = over
            else:
                mask = hand & suit_mask
                if mask:  # R2
                    if head and ws < 8 and not (relief and partner_wins):
                        beat = mask & above[w]
                        if beat:
                            mask = beat
                else:
                    trumps = hand & tmask
                    if not trumps:  # R3
                        mask = hand
                    elif pme and partner_wins:  # R4
                        if ws < 8 or up_mode == 0:
                            mask = hand
                        else:
                            over = trumps & above[w]
                            others_over = (hand ^ trumps) | over
                            if up_mode == 1:
                                mask = others_over if hand != trumps else trumps
                            elif up_mode == 3:
                                mask = others_over if over else hand
                            else:
                                mask = others_over or trumps
                    elif ws >= 8:  # R5
                        over = trumps & above[w]
                        if over:
                            mask = over
                        elif partner_wins:
                            mask = hand if partner_optional else trumps
                        else:
                            mask = hand if opp_optional else trumps
                    else:
                        mask = trumps
            if plays is None:
                skip = int(random_() * mask.bit_count())  # type: ignore[misc]
                while skip > 0:
                    mask &= mask - 1
                    skip -= 1
                card = (mask & -mask).bit_length() - 1
            else:
                card = plays[index]
                if not mask >> card & 1:
                    return cards, leaders, index
            hands[seat] = hand & ~(1 << card)
            cards.append(card)
            index += 1
            strength = eff[card]
            if strength > ws:
                w, ws, wi = card, strength, n
        leader = (leader + wi) & 3
        leaders.append(leader)
    return cards, leaders, -1


# The hottest call of a simulation: it builds its result as cards.cardset_of_mask does, without the
# extra call (5% of legal_plays).
_new_cardset, _set_cardset_mask = CARDSET_FROM_MASK


def legal_plays(rules: Ruleset, trump: Suit | Trump, hand: CardSet, trick: Trick) -> CardSet:
    """The cards of ``hand`` that may be played to ``trick``, by the ladder of FFB-B16 §5.2.

    The first rung whose condition holds decides:

    - R0: leading: any card;
    - R1: trumps led: the trumps that beat the best trump, even over the partner (unless
      ``play.trump_lead_overtrump`` is ``except_partner_winning`` and the partner is master);
      else any trump; void in trumps: any card;
    - R2: plain suit led and held: any card of it (``play.must_head_plain_suit``: the cards of
      it that beat an opponent's winning card of that suit, if any); at SA every suit is plain;
      at TA the cards that beat the best card on the table, if any (``tout_atout.must_head``),
      over the partner too unless ``tout_atout.partner_relief``;
    - R3: void in the led suit and in trumps: any card (always so at SA and TA);
    - R4: partner is master and ``play.partner_master_exception``: any card, except that when
      the partner has ruffed, ``play.undertrump_partner`` may forbid trumps below his
      (``unless_holding_higher``: only while a higher trump is held);
    - R5: otherwise, if the trick is ruffed, the higher trumps, else by
      ``play.undertrump_over_opponent`` any trump (``required``) or any card (``optional``); if
      the trick is not ruffed, any trump. When the ruff is the partner's (the exception is off),
      ``play.undertrump_partner_no_exception`` sets that last choice apart (``same_as_opponent``
      keeps the opponent's rule).

    "Partner is master" means the card now winning the trick was played by
    ``trick.next_seat.partner``.

    Returns the empty set for an empty hand and a non-empty subset of ``hand`` otherwise.

    :raises ~belote_ref.core.errors.TrickError: if the trick already holds four cards.
    """
    cards = trick.cards
    if len(cards) > 3:
        raise TrickError(f"the trick is complete: {' '.join(str(c) for c in cards)}")
    result = _new_cardset(CardSet)
    _set_cardset_mask(result, legal_mask(rules, trump, hand.mask, trick.leader, cards))
    return result


# -------------------------------------------------------------------------- the readable ladder


@dataclass(frozen=True, slots=True)
class _Position:
    """The sets the ladder reads, for one player about to play to a non-empty trick."""

    trump: int
    led: int
    winner: int  # the card now winning the trick
    winner_is_trump: bool
    partner_master: bool
    hand: int
    same: int  # cards of the led suit in hand
    trumps: int  # trumps in hand
    others: int  # hand minus trumps
    over: int  # trumps in hand that beat the winner (0 unless the winner is a trump)
    beat: int  # cards of the led suit in hand that beat the winner (0 unless it is a plain card)

    @classmethod
    def of(cls, rules: Ruleset, trump: int, hand_mask: int, cards: tuple[int, ...]) -> _Position:
        strength = rules.strength[trump]
        index = _winning_index(strength, cards)  # type: ignore[arg-type]
        winner = cards[index]
        led = cards[0] >> 3
        tmask = trump_mask(trump)
        above = rules.play_tables.above[trump][winner]
        winner_is_trump = bool(tmask >> winner & 1)
        same = hand_mask & (0xFF << (8 * led))
        trumps = hand_mask & tmask
        return cls(
            trump=trump,
            led=led,
            winner=winner,
            winner_is_trump=winner_is_trump,
            partner_master=index == len(cards) - 2,
            hand=hand_mask,
            same=same,
            trumps=trumps,
            others=hand_mask & ~tmask,
            over=trumps & above if winner_is_trump else 0,
            beat=same & above if not winner_is_trump else 0,
        )


def _ladder(policy: _PlayPolicy, p: _Position) -> tuple[int, str]:
    """The legal mask and the rung that decided it (``"R1.over"`` ...): the rungs as :func:`legal_plays` lists them."""
    if p.led == p.trump:
        if not p.same:
            return p.hand, "R1.void"
        if p.over and not (policy.trump_lead_overtrump == "except_partner_winning" and p.partner_master):
            return p.over, "R1.over"
        return p.same, "R1.same"
    if p.same:
        head, relief, _ = policy.heading(p.trump)
        if head and not (relief and p.partner_master) and not p.winner_is_trump and p.beat:
            return p.beat, "R2.head"
        return p.same, "R2.follow"
    if not p.trumps:
        return p.hand, "R3"
    if p.partner_master and policy.partner_master_exception:
        if not p.winner_is_trump:
            return p.hand, "R4.plain"
        if policy.undertrump_partner == "allowed":
            return p.hand, "R4.allowed"
        if policy.undertrump_partner == "only_if_hand_is_all_trumps":
            return (p.others | p.over, "R4.all_trumps") if p.others else (p.trumps, "R4.all_trumps")
        if policy.undertrump_partner == "unless_holding_higher":
            return (p.others | p.over, "R4.higher") if p.over else (p.hand, "R4.higher")
        if p.others | p.over:
            return p.others | p.over, "R4.forced"
        return p.trumps & ~p.over, "R4.forced"
    if p.winner_is_trump:
        if p.over:
            return p.over, "R5.over"
        if p.partner_master:
            if policy.partner_undertrump_optional():
                return p.hand, "R5.partner_optional"
            return p.trumps, "R5.partner_required"
        if policy.undertrump_over_opponent == "required":
            return p.trumps, "R5.required"
        return p.hand, "R5.optional"
    return p.trumps, "R5.ruff"


# ------------------------------------------------------------------------------ explaining


@dataclass(frozen=True, slots=True)
class Violation:
    """Why a card may not be played: see :func:`explain_illegal`."""

    code: str
    """``"illegal_play"`` or ``"card_not_in_hand"``."""
    rule: str
    """The rule that forbids the card: a ``play.*`` registry parameter id, or a base rule id
    (:data:`RULE_FOLLOW_SUIT`, :data:`RULE_MUST_TRUMP`, :data:`RULE_MUST_OVERTRUMP`,
    :data:`RULE_CARD_IN_HAND`)."""
    card: Card
    """The card that was played."""
    allowed: CardSet
    """The cards that were legal."""
    message: str
    """A human explanation (not graded), e.g. ``"must overtrump 9H: holds JH"``."""


def _fmt(mask: int) -> str:
    return str(CardSet(mask)) or "-"


def explain_illegal(rules: Ruleset, trump: Suit | Trump, hand: CardSet, trick: Trick, card: Card) -> Violation | None:
    """Say why ``card`` may not be played from ``hand`` to ``trick``; None when it is legal.

    ``Violation.rule`` names the rule an app author broke:

    ====================================  ==========================================================
    rule                                  when
    ====================================  ==========================================================
    ``play.card_in_hand``                 the card is not in the hand (code ``card_not_in_hand``)
    ``play.follow_suit``                  the led suit (trumps, if trumps were led) is held and the
                                          card is not of it (R1, R2)
    ``play.must_overtrump``               a higher trump than the winning one was required and the
                                          card is not one (R1 over an opponent, R5)
    ``play.must_trump``                   void in the led suit, a trump was required (R5), and no
                                          parameter value made the difference
    ``play.trump_lead_overtrump``         trumps led, partner master, a higher trump held: the value
                                          ``always`` requires it
    ``play.must_head_plain_suit``         the card follows suit but does not beat the opponent's
                                          winning card of that suit (R2; at SA too)
    ``tout_atout.must_head``              at TA, the card follows suit but does not beat the best
                                          card on the table, held by an opponent (R2)
    ``tout_atout.partner_relief``         at TA, the same when the partner is winning: the value
                                          ``false`` makes him go over his partner
    ``play.partner_master_exception``     partner is master and the exception is off: the card (a
                                          discard, or a lower trump) would be legal with it on
    ``play.undertrump_partner``           the card is a trump under the partner's ruff and the value
                                          (``only_if_hand_is_all_trumps`` / ``only_if_forced``)
                                          forbids it (R4)
    ``play.undertrump_over_opponent``     an opponent ruffed, no higher trump is held, and the value
                                          ``required`` demands a trump (the card is a discard)
    ``play.undertrump_partner_no_exception``  without the exception, the partner ruffed, no higher
                                          trump is held, and its value ``required`` demands a trump
    ====================================  ==========================================================

    The rule is found thus: a card that fails to follow suit is ``play.follow_suit``; a card
    forbidden by a rung that only exists through a parameter (R2 heading, R4 restrictions) names that
    parameter; otherwise, if changing the value of one ``play.*`` parameter (tried in the order
    ``trump_lead_overtrump``, ``partner_master_exception``, ``undertrump_over_opponent``) would make
    the card legal, that parameter is named; else the base rule of the rung
    (``play.must_overtrump`` or ``play.must_trump``).

    :raises ~belote_ref.core.errors.TrickError: if the trick already holds four cards.
    """
    cards = trick.cards
    if len(cards) > 3:
        raise TrickError(f"the trick is complete: {' '.join(str(c) for c in cards)}")
    card = CARDS[card]
    hand_mask = hand.mask
    allowed_mask = legal_mask(rules, trump, hand_mask, trick.leader, cards)
    allowed = CardSet(allowed_mask)
    if not hand_mask >> card & 1:
        return Violation(
            "card_not_in_hand", RULE_CARD_IN_HAND, card, allowed, f"{card} is not in the hand ({_fmt(hand_mask)})"
        )
    if allowed_mask >> card & 1:
        return None
    position = _Position.of(rules, int(trump), hand_mask, cards)
    policy = rules.play_tables.policy
    mask, rung = _ladder(policy, position)
    if mask != allowed_mask:
        raise InternalError(f"ladder {rung} disagrees with legal_mask: {_fmt(mask)} != {_fmt(allowed_mask)}")
    rule = _rule_of(policy, position, rung, card)
    return Violation("illegal_play", rule, card, allowed, _message(rule, policy, position, trick))


def _rule_of(policy: _PlayPolicy, p: _Position, rung: str, card: int) -> str:
    """The rule id for an illegal ``card`` (in hand) forbidden at ``rung``."""
    if rung in ("R1.over", "R1.same", "R2.follow", "R2.head") and not (p.same >> card & 1):
        return RULE_FOLLOW_SUIT
    if rung == "R2.head":
        _, _, rule = policy.heading(p.trump)
        if rule == RULE_TA_MUST_HEAD and p.partner_master and not policy.ta_partner_relief:
            return RULE_TA_PARTNER_RELIEF
        return rule
    if rung.startswith("R4."):
        return "play.undertrump_partner"
    if rung == "R5.partner_required" and policy.undertrump_partner_no_exception == "required":
        return "play.undertrump_partner_no_exception"  # set apart from the opponents' rule on purpose
    registry = load_registry()
    for parameter_id in ("play.trump_lead_overtrump", "play.partner_master_exception", "play.undertrump_over_opponent"):
        current = policy.value(parameter_id)
        for value in registry[parameter_id].values:
            if value == current:
                continue
            changed = replace(policy, **{parameter_id.partition(".")[2]: value})
            if _ladder(changed, p)[0] >> card & 1:
                return parameter_id
    return RULE_MUST_OVERTRUMP if rung in ("R1.over", "R5.over") else RULE_MUST_TRUMP


def _message(rule: str, policy: _PlayPolicy, p: _Position, trick: Trick) -> str:
    seat = trick.next_seat.name
    winner = str(CARDS[p.winner])
    if rule == RULE_FOLLOW_SUIT:
        suit = "trumps" if p.led == p.trump else f"suit {SUIT_LETTERS[p.led]}"
        return f"{seat} must follow {suit}: holds {_fmt(p.same)}"
    if rule == RULE_MUST_OVERTRUMP:
        return f"{seat} must overtrump {winner}: holds {_fmt(p.over)}"
    if rule == RULE_MUST_TRUMP:
        return f"{seat} must trump: void in {SUIT_LETTERS[p.led]}, holds {_fmt(p.trumps)}"
    if rule == "play.trump_lead_overtrump":
        return (f"{seat} must overtrump {winner} even over the partner when trumps are led "
                f"(play.trump_lead_overtrump: {policy.trump_lead_overtrump}): holds {_fmt(p.over)}")
    if rule == "play.must_head_plain_suit":
        return f"{seat} must beat the opponent's {winner} (play.must_head_plain_suit): holds {_fmt(p.beat)}"
    if rule == RULE_TA_MUST_HEAD:
        return f"{seat} must go over {winner} at tout-atout (tout_atout.must_head): holds {_fmt(p.beat)}"
    if rule == RULE_TA_PARTNER_RELIEF:
        return (f"{seat} must go over the partner's {winner} at tout-atout "
                f"(tout_atout.partner_relief: false): holds {_fmt(p.beat)}")
    if rule == "play.partner_master_exception":
        return (f"{seat} must trump even though the partner is master "
                f"(play.partner_master_exception: false): holds {_fmt(p.trumps)}")
    if rule == "play.undertrump_partner":
        return (f"{seat} may not undertrump the partner's {winner} "
                f"(play.undertrump_partner: {policy.undertrump_partner})")
    if rule == "play.undertrump_partner_no_exception":
        return (f"{seat} must play a trump, even below the partner's {winner}, when unable to overtrump it "
                f"(play.undertrump_partner_no_exception: {policy.undertrump_partner_no_exception}): "
                f"holds {_fmt(p.trumps)}")
    # play.undertrump_over_opponent
    return (f"{seat} must play a trump, even below {winner}, when unable to overtrump "
            f"(play.undertrump_over_opponent: {policy.undertrump_over_opponent}): holds {_fmt(p.trumps)}")
