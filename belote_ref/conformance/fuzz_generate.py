"""Random situations of every protocol kind, for ``belote-ref conformance fuzz``.

Each situation is drawn from a :class:`random.Random` of its own, seeded by the run's seed and
the situation's index (:func:`situation_rng`), so that situation ``i`` of seed ``s`` is the same
whichever shard draws it and whatever was drawn before it: that is what lets ``--jobs J`` split
the work and still give exactly what one job gives.

Positions (``legal_plays``, ``trick_winner``) are random cards, with trumps drawn more often than
chance would (a trick holds about two trumps) so that the trump rules, where implementations go
wrong most, come up often; a ``legal_plays`` hand is sometimes all trumps. Hands for
``announcements`` are random, or built around a run of one suit or a rank held four times.
``score``, ``match`` and ``play`` come from whole random legal deals played the short way
(:class:`PlayedDeal`: four random hands, a random contract, no auction), ``replay`` from whole
random deals with their auction (:func:`belote_ref.engine.simulate.random_deal`), each played under the
situation's ruleset, so that their tricks, belote and declarations are consistent. Auctions are
random call sequences: mostly legal calls, sometimes any call at all (an illegal one, or one after
the auction ended). Decks for ``deal`` are random orders, with or without a taker. A ``score``,
``replay`` or ``play`` situation is sometimes damaged (:func:`damage`: a declaration misnamed or
changed, two plays swapped, belote credited to another seat), so that an engine's checks of a
wrong record are tested too. """

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from belote_ref.core.cards import CARDS, CardSet, Seat
from belote_ref.core.errors import BeloteRefError
from belote_ref.engine.announcements import KINDS as ANNOUNCEMENT_KINDS
from belote_ref.engine.announcements import combinations
from belote_ref.engine.bids.auction import is_bidding, run_bid_auction
from belote_ref.engine.deal import Phase, run_auction
from belote_ref.engine.play import Trick, legal_mask, trick_winner
from belote_ref.engine.simulate import BELOTE_PROBABILITY, random_deal, shuffle
from belote_ref.engine.simulate import _may_hold_combination as may_hold_combination
from belote_ref.records.record import record_of

__all__ = ["GENERATORS", "LEGAL_GENERATORS", "block_rng", "random_parameters", "score_given_of", "situation_rng"]

SUITS = "SHDC"
RANKS = "789TJQKA"
CARD_TOKENS = tuple(str(card) for card in CARDS)
SUIT_TOKENS = {suit: tuple(card for card in CARD_TOKENS if card[1] == suit) for suit in SUITS}
CALL_TOKENS = ("pass", "take", "S", "H", "D", "C")

TRUMP_BIAS = 0.4
"""The chance that a card of a random trick or hand is drawn from the trump suit (chance: 1/4)."""

ALL_TRUMPS_PROBABILITY = 0.15
"""The chance that a ``legal_plays`` hand holds trumps only (some undertrumping rules turn on it)."""

ILLEGAL_CALL_PROBABILITY = 0.12
"""The chance that a generated auction call is drawn from every call, legal or not."""

MAX_REDEALS = 20
"""How many passed-out random deals are drawn again before a deal situation gives up."""


def situation_rng(seed: int, index: int) -> random.Random:
    """The generator of situation ``index`` of the run seeded ``seed`` (a string seed is hashed
    with SHA-512, the same on every platform and Python version)."""
    return random.Random(f"belote-ref-fuzz/{seed}/{index}")


def block_rng(seed: int, block: int, group: str = "") -> random.Random:
    """The generator of the ruleset of block ``block`` (a run of situations under one ruleset) for
    the kinds of ``group`` (empty: the kinds under the adapter's general claims; else the kind with
    claims of its own)."""
    return random.Random(f"belote-ref-fuzz/{seed}/block/{block}" + (f"/{group}" if group else ""))


def _seat(rng: random.Random) -> str:
    return "NESW"[rng.randrange(4)]


def _seat_after(seat: str, steps: int) -> str:
    return "NESW"[("NESW".index(seat) + steps) % 4]


def _draw_cards(rng: random.Random, count: int, trump: str, taken: set[str]) -> list[str]:
    """``count`` distinct cards not in ``taken`` (which grows), trumps drawn with :data:`TRUMP_BIAS`."""
    drawn: list[str] = []
    trumps = [card for card in SUIT_TOKENS[trump] if card not in taken]
    while len(drawn) < count:
        if trumps and rng.random() < TRUMP_BIAS:
            card = trumps.pop(rng.randrange(len(trumps)))
        else:
            card = CARD_TOKENS[rng.randrange(32)]
            if card in taken:
                continue  # drawn again: uniform over the cards left, without building their list
            if card[1] == trump:
                trumps.remove(card)
        taken.add(card)
        drawn.append(card)
    return drawn


def legal_plays_given(rng: random.Random, rules: Any) -> dict[str, Any]:
    trump = rng.choice(SUITS)
    leader = _seat(rng)
    taken: set[str] = set()
    trick = _draw_cards(rng, rng.randrange(4), trump, taken)
    if rng.random() < ALL_TRUMPS_PROBABILITY:
        trumps = [card for card in CARD_TOKENS if card[1] == trump and card not in taken]
        hand = rng.sample(trumps, rng.randint(1, len(trumps))) if trumps else _draw_cards(rng, 1, trump, taken)
    else:
        hand = _draw_cards(rng, rng.randint(1, 8), trump, taken)
    return {"trump": trump, "seat": _seat_after(leader, len(trick)), "hand": hand,
            "trick": {"leader": leader, "cards": trick}}


def trick_winner_given(rng: random.Random, rules: Any) -> dict[str, Any]:
    trump = rng.choice(SUITS)
    return {"trump": trump, "trick": {"leader": _seat(rng), "cards": _draw_cards(rng, 4, trump, set())}}


def announcements_given(rng: random.Random, rules: Any) -> dict[str, Any]:
    trump = rng.choice(SUITS)
    hand: set[str] = set()
    shape = rng.random()
    if shape < 0.4:  # a run of 3 to 8 cards of one suit
        suit, length = rng.choice(SUITS), rng.randint(3, 8)
        start = rng.randint(0, 8 - length)
        hand.update(rank + suit for rank in RANKS[start:start + length])
    elif shape < 0.6:  # a rank held four times
        rank = rng.choice(RANKS)
        hand.update(rank + suit for suit in SUITS)
    while len(hand) < 8:
        hand.add(rng.choice(CARD_TOKENS))
    return {"trump": trump, "hand": sorted(hand)}


BID_CALL_TOKENS = ("pass", "80H", "90S", "100SA", "160C", "capotH", "generaleS", "coinche", "surcoinche",
                   "coinche:N", "coinche:E", "85H")


def _bid_auction_given(rng: random.Random, rules: Any) -> dict[str, Any]:
    """A random auction of bids: mostly legal calls (pass most of the time, the next few bids, a
    coinche now and then), sometimes any call at all."""
    dealer = _seat(rng)
    calls: list[str] = []
    for _ in range(rng.randint(0, 12)):
        try:
            status = run_bid_auction(rules, Seat.parse(dealer), calls)
        except BeloteRefError:
            break
        if status.status != "open" or rng.random() < ILLEGAL_CALL_PROBABILITY:
            calls.append(rng.choice(BID_CALL_TOKENS))
            if status.status != "open":
                break
        else:
            legal = status.legal
            calls.append("pass" if rng.random() < 0.6 else rng.choice(legal[:9] + legal[-1:]))
    return {"dealer": dealer, "calls": calls}


def auction_given(rng: random.Random, rules: Any) -> dict[str, Any]:
    if is_bidding(rules):
        return _bid_auction_given(rng, rules)
    dealer = _seat(rng)
    turned = rng.choice(CARDS)
    calls: list[str] = []
    for _ in range(rng.randint(0, 12)):
        try:
            status = run_auction(rules, Seat.parse(dealer), turned, calls)
        except BeloteRefError:
            break  # an illegal call was drawn: the auction stops there
        if status.status != "open" or rng.random() < ILLEGAL_CALL_PROBABILITY:
            calls.append(rng.choice(CALL_TOKENS))
            if status.status != "open":
                break
        else:
            # Passing most of the time reaches round 2 and the end of round 2.
            calls.append("pass" if rng.random() < 0.7 else rng.choice(status.legal))
    return {"dealer": dealer, "turned": str(turned), "calls": calls}


def deal_given(rng: random.Random, rules: Any) -> dict[str, Any]:
    deck = list(CARD_TOKENS)
    shuffle(rng, deck)
    given: dict[str, Any] = {"dealer": _seat(rng), "deck": deck}
    if rng.random() < 0.5 and not is_bidding(rules):
        given["taker"] = _seat(rng)
    return given


def _played_deal(rng: random.Random, rules: Any, allow_redeal: bool = False) -> Any:
    for _ in range(MAX_REDEALS):
        state = random_deal(rules, rng)
        if state.phase is Phase.SCORED or allow_redeal:
            return state
    return None


def _belote_of(state: Any) -> Any:
    """A seat, None, or at tout-atout a mapping suit -> seat."""
    if isinstance(state.belote, dict):
        return {suit.letter: seat.name for suit, seat in state.belote.items()} or None
    return state.belote.name if state.belote is not None else None


def score_given_of(state: Any) -> dict[str, Any]:
    """The ``score`` given of a played deal (as tests/test_symmetry.py builds it); in the bidding
    family with the contract's ``bid``."""
    given = {
        "dealer": state.dealer.name, "taker": state.taker.name, "trump": state.trump.letter,
        "tricks": [{"leader": t.leader.name, "cards": [str(c) for c in t.cards]} for t in state.tricks],
        "belote": _belote_of(state),
        "announcements": [{"seat": d.seat.name, "kind": d.combination.kind, "cards": d.combination.cards.tokens()}
                          for d in state.declarations],
    }
    if getattr(state, "bid", None) is not None:
        given["bid"] = state.bid.to_json()
    return given


_KQ = tuple((1 << (suit * 8 + 5)) | (1 << (suit * 8 + 6)) for suit in range(4))  # the queen and king of each suit
_SEVENS = sum(1 << (suit * 8) for suit in range(4))


class PlayedDeal:
    """A whole random legal deal, played the short way: for the kinds whose given holds no auction
    (``score``, ``match``, ``play``), the deck is shuffled into four hands of 8 and a random seat
    takes a random contract of ``rules.trumps`` (the suits, and SA and TA where
    ``bidding.contracts`` allows them), without the deal in packets, the auction and the scoring
    that :func:`~belote_ref.engine.simulate.random_deal` does and that the reference answer does again;
    the cards are then played as :func:`~belote_ref.engine.simulate.random_deal` plays them (each drawn
    uniformly from :func:`~belote_ref.engine.play.legal_mask`), belote is announced by its holder with
    :data:`~belote_ref.engine.simulate.BELOTE_PROBABILITY`, and under ``announcements.enabled`` every seat
    declares every combination it holds. It takes a half (``classic``) to a third
    (``classic-annonces``) of the time of ``random_deal``, for situations drawn alike: nothing in
    these givens shows how the hands were dealt or how the auction went."""

    __slots__ = ("announcements", "belote", "dealer", "hands", "taker", "tricks", "trump")

    def __init__(self, rng: random.Random, rules: Any) -> None:
        deck = list(range(32))
        shuffle(rng, deck)
        dealer = rng.randrange(4)
        taker = rng.randrange(4)
        trump = rng.choice(sorted(rules.trumps))
        hands = [sum(1 << card for card in deck[8 * seat:8 * seat + 8]) for seat in range(4)]
        self.dealer, self.taker, self.trump = Seat(dealer), Seat(taker), trump
        self.hands = tuple(hands)
        self.belote = self._belote(rng, rules, hands)
        self.announcements: list[dict[str, Any]] = []
        if rules["announcements.enabled"]:
            for offset in range(1, 5):
                seat = Seat((dealer + offset) & 3)
                if not may_hold_combination(rules, hands[seat]):  # most hands hold none: skip the search
                    continue
                for combination in combinations(rules, trump, CardSet(hands[seat])):
                    self.announcements.append({"seat": seat.name, "kind": combination.kind,
                                               "cards": combination.cards.tokens()})
        self.tricks = self._play(rng, rules, hands, (dealer + 1) & 3)

    def _belote(self, rng: random.Random, rules: Any, hands: list[int]) -> Any:
        suits = rules.belote_suits[self.trump]
        found: dict[str, str] = {}
        for suit in suits:
            for seat in range(4):
                if hands[seat] & _KQ[suit] == _KQ[suit]:
                    if rng.random() < BELOTE_PROBABILITY:
                        found[suit.letter] = Seat(seat).name
                    break
        if len(suits) > 1:
            return found or None
        return next(iter(found.values()), None)

    def _play(self, rng: random.Random, rules: Any, hands: list[int], leader: int) -> list[tuple[int, list[int]]]:
        trump, random_ = self.trump, rng.random
        tricks = []
        for _ in range(8):
            cards: list[int] = []
            for position in range(4):
                seat = (leader + position) & 3
                mask = legal_mask(rules, trump, hands[seat], leader, tuple(cards)) if position else hands[seat]
                for _ in range(int(random_() * mask.bit_count())):  # keep the k-th legal card, k uniform
                    mask &= mask - 1
                card = (mask & -mask).bit_length() - 1
                hands[seat] &= ~(1 << card)
                cards.append(card)
            tricks.append((leader, cards))
            leader = trick_winner(rules, trump, Trick(Seat(leader), tuple(CARDS[card] for card in cards)))
        return tricks

    def redeals(self, rules: Any) -> bool:
        """Whether the deal would have been dealt again (four sevens in a hand, where that redeals)."""
        return rules["announcements.carre_of_sevens"] == "redeal" and any(h & _SEVENS == _SEVENS for h in self.hands)

    def score_given(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer.name, "taker": self.taker.name, "trump": self.trump.letter,
            "tricks": [{"leader": "NESW"[leader], "cards": [CARD_TOKENS[card] for card in cards]}
                       for leader, cards in self.tricks],
            "belote": self.belote, "announcements": self.announcements,
        }


def _short_deal(rng: random.Random, rules: Any) -> PlayedDeal | None:
    for _ in range(MAX_REDEALS):
        deal = PlayedDeal(rng, rules)
        if not deal.redeals(rules):
            return deal
    return None


def score_given(rng: random.Random, rules: Any) -> dict[str, Any] | None:
    if is_bidding(rules):  # the contract of the family carries a bid: only a real auction makes one
        state = _played_deal(rng, rules)
        return score_given_of(state) if state is not None else None
    deal = _short_deal(rng, rules)
    if deal is None:
        return None
    given = deal.score_given()
    given["pot"] = rng.choice((0, 0, 0, 81, 162))
    return given


def replay_given(rng: random.Random, rules: Any) -> dict[str, Any] | None:

    state = _played_deal(rng, rules, allow_redeal=rng.random() < 0.1)
    if state is None:
        return None
    record = record_of(state)
    if is_bidding(rules):  # eight-card hands and calls of bids; no turned card, no completion
        return {"dealer": record["dealer"], "hands": record["hands"], "calls": record["calls"],
                "announcements": record["announcements"], "belote": record["belote"],
                "plays": [card for trick in record["tricks"] for card in trick["cards"]]}
    # The replay given of conformance/make_regression.py: the record's events, the plays in order.
    return {
        "dealer": record["dealer"], "hands": record["hands"], "turned": record["turned"],
        "completion": record["completion"], "calls": record["calls"],
        "announcements": record["announcements"], "belote": record["belote"],
        "plays": [card for trick in record["tricks"] for card in trick["cards"]], "pot": record["pot"],
    }


def match_given(rng: random.Random, rules: Any) -> dict[str, Any] | None:
    deals = []
    for _ in range(rng.randint(1, 6)):
        if is_bidding(rules):  # a deal of the family needs its bid: score_given plays its auction
            given = score_given(rng, rules)
            if given is not None:
                deals.append(given)
            continue
        deal = _short_deal(rng, rules)
        if deal is not None:
            deals.append(deal.score_given())
    return {"deals": deals} if deals else None


def _bid_play_given(rng: random.Random, rules: Any) -> dict[str, Any] | None:
    state = _played_deal(rng, rules)
    if state is None:
        return None
    return {
        "hands": {seat.name: state.full_hands[seat].tokens() for seat in state.full_hands},
        "contract": {"trump": state.trump.letter, "taker": state.taker.name, "bid": state.bid.to_json()},
        "leader": state.dealer.next.name,
        "plays": [str(card) for trick in state.tricks for card in trick.cards],
        "belote": _belote_of(state),
        "announcements": [{"seat": d.seat.name, "kind": d.combination.kind, "cards": d.combination.cards.tokens()}
                          for d in state.declarations],
        "want_legal": rng.random() < 0.5,
    }


def play_given(rng: random.Random, rules: Any) -> dict[str, Any] | None:
    """A whole deal under a random contract, its 32 cards in play order."""
    if is_bidding(rules):  # the contract of the family carries a bid: only a real auction makes one
        return _bid_play_given(rng, rules)
    deal = _short_deal(rng, rules)
    if deal is None:
        return None
    return {
        "hands": {seat.name: CardSet(deal.hands[seat]).tokens() for seat in Seat},
        "contract": {"trump": deal.trump.letter, "taker": deal.taker.name},
        "leader": deal.dealer.next.name,
        "plays": [CARD_TOKENS[card] for _, cards in deal.tricks for card in cards],
        "belote": deal.belote,
        "announcements": deal.announcements,
        "want_legal": rng.random() < 0.5,
    }


DAMAGE_PROBABILITY = 0.2
"""The chance that a ``score``, ``replay`` or ``play`` situation is damaged by :func:`damage`."""

def damage(rng: random.Random, given: dict[str, Any]) -> dict[str, Any]:
    """``given`` with one thing made wrong, as a careless record or a cheat would: a declaration
    named as another kind, one of its cards changed or dropped; two plays swapped (a card played
    out of turn, or by a seat that did not hold it); or belote credited to another seat. Whatever
    the reference engine answers is the expected result, a refusal most often; a given it rejects
    as malformed is not sent at all."""
    declarations = given.get("announcements") or []
    plays = given.get("plays")
    tricks = given.get("tricks")
    choices = []
    if declarations:
        choices += ["kind", "kind", "card", "drop"]  # a misnamed kind is the likeliest slip
    if plays or tricks:
        choices.append("swap")
    if isinstance(given.get("belote"), str):  # one belote, held by that seat (no mapping: tout-atout's)
        choices.append("belote")
    if not choices:
        return given
    what = rng.choice(choices)
    if what == "belote":
        given["belote"] = rng.choice([seat for seat in "NESW" if seat != given["belote"]])
        return given
    if what == "swap":
        if plays:
            first, second = rng.sample(range(len(plays)), 2)
            plays[first], plays[second] = plays[second], plays[first]
        elif tricks:
            first, second = rng.sample(range(len(tricks) * 4), 2)
            a, b = tricks[first // 4]["cards"], tricks[second // 4]["cards"]
            a[first % 4], b[second % 4] = b[second % 4], a[first % 4]
        return given
    declaration = rng.choice(declarations)
    cards = declaration["cards"]
    if what == "kind":
        kinds = [kind for kind in ANNOUNCEMENT_KINDS if kind != declaration["kind"]]
        declaration["kind"] = rng.choice(kinds)
    elif what == "card":
        cards[rng.randrange(len(cards))] = rng.choice([card for card in CARD_TOKENS if card not in cards])
    elif len(cards) > 1:
        del cards[rng.randrange(len(cards))]
    return given


def _sometimes_damaged(
    generate: Callable[[random.Random, Any], dict[str, Any] | None],
) -> Callable[[random.Random, Any], dict[str, Any] | None]:
    def generate_or_damage(rng: random.Random, rules: Any) -> dict[str, Any] | None:
        given = generate(rng, rules)
        if given is not None and rng.random() < DAMAGE_PROBABILITY:
            return damage(rng, given)
        return given

    return generate_or_damage


LEGAL_GENERATORS: Mapping[str, Callable[[random.Random, Any], dict[str, Any] | None]] = {
    "deal": deal_given,
    "auction": auction_given,
    "legal_plays": legal_plays_given,
    "trick_winner": trick_winner_given,
    "announcements": announcements_given,
    "score": score_given,
    "replay": replay_given,
    "match": match_given,
    "play": play_given,
}
"""One generator per kind, never damaged: whole deals are legal deals."""

GENERATORS: Mapping[str, Callable[[random.Random, Any], Mapping[str, Any] | None]] = {
    kind: _sometimes_damaged(generate) if kind in ("score", "replay", "play") else generate
    for kind, generate in LEGAL_GENERATORS.items()
}
"""One generator per kind: ``(rng, ruleset) -> given``, or None when none could be drawn."""


def random_parameters(rng: random.Random, base: Mapping[str, Any],
                      choices: Sequence[tuple[str, Sequence[Any]]], most: int = 3) -> dict[str, Any]:
    """``base`` with 1 to ``most`` of the ``(parameter, values)`` of ``choices`` set to a random value."""
    params = dict(base)
    for parameter_id, values in rng.sample(list(choices), min(len(choices), rng.randint(1, most))):
        params[parameter_id] = rng.choice(list(values))
    return params

