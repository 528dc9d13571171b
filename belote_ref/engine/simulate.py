"""Random complete deals, for property tests, fuzzing and benchmarks.

:func:`random_deal` plays one whole deal with random legal choices: the shuffle, the auction,
belote, announcements and the 32 cards. :func:`random_deals` plays a seeded sequence of them, the
dealer passing on as the auction says. Everything is drawn from the :class:`random.Random` given,
so one seed gives one deal (as RLCard's ``is_deterministic`` test demands).

>>> import random
>>> from belote_ref import find_ruleset
>>> state = random_deal(find_ruleset("classic"), random.Random(7), dealer=Seat.S)
>>> state.phase.value in ("scored", "redeal")
True
>>> [state.phase.value for state in random_deals(find_ruleset("classic"), seed=1, count=3)]
['redeal', 'scored', 'scored']

The choices are random, not sensible: a seat takes in round 1 with probability
:data:`TAKE_PROBABILITY` and names a contract in round 2 with the same probability (a suit, or
sans-atout and tout-atout where ``bidding.contracts`` allows them, all alike), so that round 2,
redeals and (under ``bidding.all_pass: forced_third_round``) third rounds all happen often
(about one deal in ten is passed out). ``calls`` may fix the auction instead. The holder of the
king and queen of trumps announces belote with probability :data:`BELOTE_PROBABILITY` (a
forgotten belote happens too); at tout-atout, each suit's belote likewise. When
``announcements.enabled``, every seat declares every combination of its 8-card hand
(:func:`~belote_ref.engine.announcements.combinations`) before the first card is led. Each card is drawn
uniformly from the legal plays.

Under a ruleset of the bidding family (``bidding.auction: bids``) the eight cards are dealt at once
and the auction is one of bids (:func:`_bid_auction`); the deal is a :class:`~belote_ref.engine.bids.deal.BidDeal`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any, Final

from belote_ref.core.cards import CARDS, SEATS, Card, Seat
from belote_ref.core.errors import InternalError
from belote_ref.engine.announcements import Declaration, combinations
from belote_ref.engine.bids.auction import BidStatus, is_bidding
from belote_ref.engine.bids.deal import BidDeal
from belote_ref.engine.deal import AuctionStatus, DealState, Phase
from belote_ref.engine.play import legal_mask
from belote_ref.rules.ruleset import Ruleset

__all__ = ["BELOTE_PROBABILITY", "TAKE_PROBABILITY", "random_deal", "random_deals", "shuffle"]

TAKE_PROBABILITY: Final = 0.25
"""The chance that a seat takes in round 1, or names a suit in round 2, instead of passing."""

BELOTE_PROBABILITY: Final = 0.9
"""The chance that the holder of the king and queen of trumps announces belote-rebelote."""

_KQ: Final = tuple((1 << (suit * 8 + 5)) | (1 << (suit * 8 + 6)) for suit in range(4))  # QS KS ... QC KC

# Per sequence order (a tuple of ranks, highest first): for each 8-bit suit pattern (bit r = rank r
# held), whether it holds three cards in a row in that order. Filled on first use.
_RUN_TABLES: dict[tuple[int, ...], tuple[bool, ...]] = {}


def _run_table(order: tuple[int, ...]) -> tuple[bool, ...]:
    table = _RUN_TABLES.get(order)
    if table is None:
        rows = []
        for pattern in range(256):
            positions = 0
            for position, rank in enumerate(order):
                if pattern >> rank & 1:
                    positions |= 1 << position
            rows.append(bool(positions & positions >> 1 & positions >> 2))
        table = _RUN_TABLES[order] = tuple(rows)
    return table


def _may_hold_combination(rules: Ruleset, hand: int) -> bool:
    """False only when the hand mask ``hand`` holds no carré and no three cards in sequence.

    A cheap filter in front of :func:`~belote_ref.engine.announcements.combinations` (which then returns
    an empty list): most hands hold nothing to declare.
    """
    if hand & hand >> 8 & hand >> 16 & hand >> 24 & 0xFF:  # some rank in all four suits
        return True
    runs = _run_table(tuple(rules.sequence_order))
    return runs[hand & 0xFF] or runs[hand >> 8 & 0xFF] or runs[hand >> 16 & 0xFF] or runs[hand >> 24]


def _auction(state: DealState, rng: random.Random, calls: Sequence[str] | None = None) -> None:
    """Make random legal calls until someone takes or the deal is passed out (or make ``calls``)."""
    if calls is not None:
        for token in calls:
            state.call(token)
        return
    status: AuctionStatus | BidStatus = state.auction.status
    while status.status == "open":
        legal = status.legal
        if status.round == 1:
            token = "take" if rng.random() < TAKE_PROBABILITY else "pass"
        elif status.round == 2:
            token = legal[1 + int(rng.random() * (len(legal) - 1))] if rng.random() < TAKE_PROBABILITY else "pass"
        else:  # the forced third round: eldest must name a suit
            token = legal[int(rng.random() * len(legal))]
        status = state.call(token)


BID_LEVELS: Final = 3
"""In a random auction of bids, how many levels above the last bid a bidder may jump (uniformly)."""
COINCHE_PROBABILITY: Final = 0.1
"""The chance that a seat allowed to coinche (or to surcoinche) does so."""


def _bid_auction(state: BidDeal, rng: random.Random, calls: Sequence[str] | None = None) -> None:
    """Random legal calls of the bidding family until the auction ends (or make ``calls``): a seat
    bids with probability :data:`TAKE_PROBABILITY`, one of the bids of the next :data:`BID_LEVELS`
    levels, and coinches or surcoinches when allowed with probability :data:`COINCHE_PROBABILITY`."""
    if calls is not None:
        for token in calls:
            state.call(token)
        return
    width = len(state.bids.table.trumps) * BID_LEVELS
    status = state.status
    while status.status == "open":
        legal = status.legal
        # legal is pass, the bids, then coinche or surcoinche (never both) when allowed.
        double = legal[-1] if legal[-1] in ("coinche", "surcoinche") else None
        bids = len(legal) - 1 - (double is not None)
        if double is not None and rng.random() < COINCHE_PROBABILITY:
            token = double
        elif bids and rng.random() < TAKE_PROBABILITY:
            token = legal[1 + int(rng.random() * min(width, bids))]
        else:
            token = "pass"
        status = state.call(token)


def _declare(state: DealState, rng: random.Random) -> None:
    """Belote and announcements, made before the first card is led."""
    trump = state.trump
    taker = state.taker
    if trump is None or taker is None:
        raise InternalError("broken invariant: trump is not None and taker is not None")
    hands = state.hands
    suits = state.rules.belote_suits[trump]
    several = len(suits) > 1
    for suit in suits:
        kq = _KQ[suit]
        for seat in SEATS:
            if hands[seat] & kq == kq:
                if rng.random() < BELOTE_PROBABILITY:
                    state.declare_belote(seat, suit if several else None)
                break
    if state.rules.announcements.enabled:
        rules = state.rules
        eldest = state.dealer.next
        for offset in range(4):
            seat = SEATS[(eldest + offset) & 3]
            if not _may_hold_combination(rules, hands[seat]):
                continue
            for combination in combinations(rules, trump, state.full_hands[seat]):
                state.declare(Declaration(seat, combination))


def _play(state: DealState, rng: random.Random, checked: bool) -> None:
    """Play the 32 cards, each drawn uniformly from the legal plays."""
    if not checked:
        state.play_random(rng.random)
        return
    rules = state.rules
    trump = state.trump
    if trump is None:
        raise InternalError("broken invariant: trump is not None")
    hands = state.hands  # DealState updates this list in place
    random_ = rng.random
    for _ in range(32):
        cards = state.trick_cards
        leader = state.leader
        seat = (leader + len(cards)) & 3
        # A lead may be any card (legal_mask's own first answer), without the call.
        mask = legal_mask(rules, trump, hands[seat], leader, tuple(cards)) if cards else hands[seat]
        for _ in range(int(random_() * mask.bit_count())):  # keep the k-th legal card, k uniform
            mask &= mask - 1
        state.play(CARDS[(mask & -mask).bit_length() - 1])


#: For each swap of a shuffle of 32 items: the position, how many items it draws among, the bits drawn.
_SWAPS: Final = tuple((i, i + 1, (i + 1).bit_length()) for i in range(31, 0, -1))


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle 32 ``items`` in place into exactly the order ``rng.shuffle(items)`` gives.

    The same Fisher-Yates swaps over ``getrandbits`` as :meth:`random.Random.shuffle`, the draws
    written inline: its 31 calls of ``_randbelow`` were a tenth of a random deal. Any other
    generator (a subclass, another length) is handed to ``rng.shuffle`` itself;
    ``tests/test_simulate_shuffle.py`` checks the two agree, so a Python that shuffles otherwise is
    seen at once.
    """
    if type(rng) is not random.Random or len(items) != 32:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i, n, bits in _SWAPS:
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def random_deal(
    rules: Ruleset,
    rng: random.Random,
    *,
    dealer: Seat | None = None,
    pot: int = 0,
    checked: bool = False,
    calls: Sequence[str] | None = None,
) -> DealState:
    """Play one whole random deal under ``rules`` and return its final state.

    The 32 cards are shuffled with ``rng`` (``dealer`` is drawn from ``rng`` too when not given)
    and dealt by :meth:`DealState.from_deck <belote_ref.engine.deal.DealState.from_deck>` with the litige
    ``pot`` carried in. The auction is random and legal. A redeal (everybody passed, or four
    sevens under ``announcements.carre_of_sevens: redeal``) is returned as it stands, in phase
    :attr:`~belote_ref.engine.deal.Phase.REDEAL`; otherwise belote and the
    announcements are declared (see the module docstring) and 32 random legal cards are played, so
    the state comes back in phase :attr:`~belote_ref.engine.deal.Phase.SCORED` with
    :attr:`~belote_ref.engine.deal.DealState.score` set.

    With ``checked=False`` (the default, the fast path) the 32 cards are drawn and played in one
    loop by :meth:`~belote_ref.engine.deal.DealState.play_random`; with ``checked=True`` one at a time through
    :meth:`~belote_ref.engine.deal.DealState.play`, which validates each one again and raises
    :class:`~belote_ref.core.errors.IllegalPlayError` if the engine disagrees with itself.

    ``calls`` replaces the random auction by these calls (for instance ``["pass"] * 4 + ["TA"]``
    for a tout-atout taken by eldest); an illegal one raises
    :class:`~belote_ref.core.errors.IllegalCallError`.

    The same ``rng`` state always gives the same deal.
    """
    deck: list[Card] = list(CARDS)
    shuffle(rng, deck)
    if dealer is None:
        dealer = SEATS[int(rng.random() * 4)]
    state: DealState
    if is_bidding(rules):
        # The bidding family: eight cards each, then an auction of bids (bid_deal.BidDeal).
        bidding = BidDeal.from_bid_deck(rules, dealer, deck)
        _bid_auction(bidding, rng, calls)
        state = bidding
    else:
        state = DealState.from_deck(rules, dealer, deck, pot=pot)
        _auction(state, rng, calls)
    if state.phase is not Phase.PLAY:
        return state
    _declare(state, rng)
    _play(state, rng, checked)
    return state


def random_deals(rules: Ruleset, seed: int, count: int) -> Iterator[DealState]:
    """Yield ``count`` consecutive random deals under ``rules``, deterministic for ``seed``.

    The first dealer is drawn from the seed. After a played deal the deal passes to the next seat;
    after a redeal, to :attr:`DealState.next_dealer <belote_ref.engine.deal.DealState.next_dealer>`
    (``bidding.all_pass``, or the same dealer after four sevens under
    ``announcements.carre_of_sevens: redeal``). The litige
    pot is carried from deal to deal (:attr:`DealScore.pot <belote_ref.engine.scoring.DealScore.pot>`).
    Redeals are yielded too (phase :attr:`~belote_ref.engine.deal.Phase.REDEAL`) and count.

    Raises :class:`~belote_ref.core.errors.InternalError` only on a broken invariant (a bug).
    """
    rng = random.Random(seed)
    dealer = SEATS[int(rng.random() * 4)]
    pot = 0
    for _ in range(count):
        state = random_deal(rules, rng, dealer=dealer, pot=pot)
        if state.score is not None:
            pot = state.score.pot
            dealer = dealer.next
        else:
            if state.next_dealer is None:
                raise InternalError("broken invariant: state.next_dealer is not None")
            dealer = state.next_dealer
        yield state
