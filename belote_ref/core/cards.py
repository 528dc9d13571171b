"""Cards, sets of cards, seats and teams, and their notation (docs/protocol.md).

A card is a small int, ``suit * 8 + rank``, with ranks in natural order
``7 8 9 T J Q K A`` (0..7) and suits ``S H D C`` (0..3). A set of cards is a
32-bit mask. Iterating a :class:`CardSet` yields cards in the canonical output
order of the notation: suit S H D C, then rank 7 to A.

Play order is always N -> E -> S -> W -> N; whether that is clockwise at a
real table is the ruleset parameter ``table.direction`` and never matters here.

The trump of a contract is a :class:`Trump`: one of the four suits (with the values of
:class:`Suit`, so a ``Suit`` serves wherever a ``Trump`` is expected), ``SA`` (sans-atout, no
trumps) or ``TA`` (tout-atout, every suit trumps).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable, Iterator, Set
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Final, final

from belote_ref.core.build_hints import mypyc_attr
from belote_ref.core.errors import NotationError

__all__ = [
    "CARDS",
    "CARDSET_FROM_MASK",
    "DECK",
    "RANK_LETTERS",
    "SEATS",
    "SUITS",
    "SUIT_LETTERS",
    "TRUMP_TOKENS",
    "Card",
    "CardSet",
    "Rank",
    "Seat",
    "Suit",
    "Team",
    "Trump",
    "cardset_of_mask",
    "format_cards",
    "parse_card",
    "parse_cards",
    "trump_of",
]

SUIT_LETTERS: Final = "SHDC"
RANK_LETTERS: Final = "789TJQKA"
_CARD_RE: Final = re.compile(r"^(10|[789TJQKA])([SHDC])$")


@mypyc_attr(native_class=False)
class _NeverFalsy:
    """The base of the values numbered from 0: `if seat:` must not skip N, the 7 of spades or spades."""

    __slots__ = ()

    def __bool__(self) -> bool:
        return True


class Suit(_NeverFalsy, enum.IntEnum):
    """The four suits, in the canonical output order (pique, coeur, carreau, trefle)."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def letter(self) -> str:
        """The one-letter notation: ``S``, ``H``, ``D`` or ``C``."""
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        """The suit glyph used in rendered deals."""
        return "♠♥♦♣"[self]

    @classmethod
    def parse(cls, letter: object) -> Suit:
        """Return the suit for ``letter``; raise :class:`NotationError` for anything else."""
        index = SUIT_LETTERS.find(letter) if isinstance(letter, str) and len(letter) == 1 else -1
        if index < 0:
            raise NotationError(f"not a suit: {letter!r} (expected one of S H D C)")
        return cls(index)


TRUMP_TOKENS: Final = ("S", "H", "D", "C", "SA", "TA")
"""The notation of a contract's trump, indexed by :class:`Trump`: a suit letter, ``SA`` or ``TA``."""


# Deliberate copy: Trump repeats Suit's members and methods so that a Suit serves wherever a Trump is expected.
class Trump(_NeverFalsy, enum.IntEnum):
    """The trump of a contract: a suit (``S H D C``, the values of :class:`Suit`), ``SA`` or ``TA``.

    ``SA`` (sans-atout) has no trump suit; at ``TA`` (tout-atout) every suit ranks and scores as
    trumps. The compiled tables of a ruleset are indexed by this value, 0 to 5.
    """

    S = 0
    H = 1
    D = 2
    C = 3
    SA = 4
    TA = 5

    @property
    def letter(self) -> str:
        """The notation: ``S``, ``H``, ``D``, ``C``, ``SA`` or ``TA``."""
        return TRUMP_TOKENS[self]

    @property
    def suit(self) -> Suit | None:
        """The trump suit of a suit contract; ``None`` at sans-atout and tout-atout."""
        return SUITS[self] if self < 4 else None

    @classmethod
    def parse(cls, token: object) -> Trump:
        """Return the trump for ``S``, ``H``, ``D``, ``C``, ``SA`` or ``TA``; raise
        :class:`NotationError` for anything else."""
        trump = _TRUMP_BY_TOKEN.get(token) if isinstance(token, str) else None
        if trump is not None:
            return trump
        raise NotationError(f"not a contract: {token!r} (expected a suit letter S H D C, SA or TA)")


def trump_of(value: int) -> Suit | Trump:
    """The trump of ``value`` (0 to 5) as the engine reports it: a :class:`Suit` for a suit
    contract, ``Trump.SA`` or ``Trump.TA`` otherwise."""
    return SUITS[value] if value < 4 else Trump(value)


# Deliberate copy: the notation enums (Suit, Rank, Seat) are alike in shape only, each read from its own letters.
class Rank(_NeverFalsy, enum.IntEnum):
    """Ranks in natural (sequence) order, 7 lowest. Trump and plain orders come from the ruleset."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def letter(self) -> str:
        """The one-letter notation: ``7 8 9 T J Q K A``."""
        return RANK_LETTERS[self]

    @classmethod
    def parse(cls, letter: object) -> Rank:
        """Return the rank for ``letter`` (``10`` is accepted for ``T``); raise :class:`NotationError`
        for anything else."""
        if letter == "10":
            return cls.TEN
        index = RANK_LETTERS.find(letter) if isinstance(letter, str) and len(letter) == 1 else -1
        if index < 0:
            raise NotationError(f"not a rank: {letter!r} (expected one of 7 8 9 T J Q K A)")
        return cls(index)


@final
@mypyc_attr(native_class=False)
class Card(_NeverFalsy, int):
    """A card: an int from 0 to 31 equal to ``suit * 8 + rank``.

    ``Card('JH')`` parses a token (as :meth:`parse`) and ``Card(12)`` takes the index; both return
    one of the 32 shared instances of :data:`CARDS`, and ``repr`` gives back the first form.
    Raises :class:`NotationError` for a bad token or an index outside 0 to 31.
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return parse_card(value)
        if not isinstance(value, int) or not 0 <= value < 32:
            raise NotationError(f"not a card index: {value!r} (expected an int from 0 to 31 or a token like 'JH')")
        return CARDS[value]

    @property
    def suit(self) -> Suit:
        """The suit of the card."""
        return SUITS[self >> 3]

    @property
    def rank(self) -> Rank:
        """The rank of the card."""
        return _RANKS[self & 7]

    @property
    def mask(self) -> int:
        """The card's bit in a :class:`CardSet` mask."""
        return 1 << self

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        """Return the card of ``rank`` in ``suit``."""
        return CARDS[suit * 8 + rank]

    @classmethod
    def parse(cls, token: object) -> Card:
        """Parse ``9H``, ``TH`` or ``10H``; raise :class:`NotationError` on anything else."""
        return parse_card(token)

    def __str__(self) -> str:
        return RANK_LETTERS[self & 7] + SUIT_LETTERS[self >> 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, i) for i in range(32))
_BY_TOKEN: Final[dict[str, Card]] = {str(card): card for card in CARDS}
_BY_TOKEN.update({"10" + str(card)[1]: card for card in CARDS if card & 7 == Rank.TEN})


def parse_card(token: object) -> Card:
    """Parse one card token (``JH``, ``TH``, ``10H``).

    Raises :class:`NotationError` naming the token when it is not a card.
    """
    card = _BY_TOKEN.get(token) if isinstance(token, str) else None
    if card is None:
        raise NotationError(
            f"not a card: {token!r} (expected rank 7 8 9 T J Q K A then suit S H D C, e.g. 'JH')"
        )
    return card


def parse_cards(tokens: str | Iterable[object]) -> list[Card]:
    """Parse a space-separated string or a list of tokens, keeping their order.

    Raises :class:`NotationError` naming the first token that is not a card."""
    if isinstance(tokens, str):
        tokens = tokens.split()
    elif not isinstance(tokens, list | tuple):
        tokens = list(tokens)  # read twice when a token is bad
    try:
        return list(map(_BY_TOKEN.__getitem__, tokens))
    except (KeyError, TypeError):  # the token-by-token path names the bad one
        return [parse_card(token) for token in tokens]


def format_cards(cards: Iterable[int]) -> list[str]:
    """Return the canonical tokens of ``cards`` in the order given."""
    return [str(CARDS[card]) for card in cards]


@final
class CardSet:
    """An immutable set of cards over a 32-bit mask: a :class:`collections.abc.Set` of :class:`Card`
    (registered as one, so ``isinstance(cards, Set)`` holds; a type checker knows it by its methods).

    ``CardSet('7H QH')`` parses tokens (as :meth:`parse`); ``CardSet([card, ...])`` takes cards
    or tokens; ``CardSet(mask)`` takes a 32-bit mask. ``repr`` gives back the first form.
    Iteration yields cards in canonical order (suit S H D C, then rank 7..A).

    The operations of a set: ``len``, ``in``, iteration, ``<=``, ``<``, ``>=``, ``>``,
    :meth:`isdisjoint`, ``|``, ``&``, ``-`` and ``^`` (on masks when both sides are card sets,
    else by the elements of any other :class:`~collections.abc.Set`). The set is immutable, like
    :class:`frozenset` (python-chess's ``SquareSet`` is mutable instead): there is no ``add`` or
    ``discard``, every operation returns a new set, and a card set is hashable. It is therefore
    equal only to another :class:`CardSet` with the same cards (its hash is that of its mask, not a
    frozenset's): compare with another kind of set by ``set(cards) == other`` or ``<=`` both ways.

    Raises :class:`NotationError` for a bad token, a card index outside 0 to 31 or a mask outside
    32 bits.
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: Iterable[int | str] | int | str = 0) -> None:
        if isinstance(cards, int):
            mask = cards
        elif isinstance(cards, str):
            mask = 0
            for parsed in parse_cards(cards):
                mask |= 1 << parsed
        else:
            mask = 0
            for item in cards:
                # A Card is always in range: only other items need a look (the engine passes Cards).
                mask |= 1 << (item if item.__class__ is Card else _card_of(item))
        if not 0 <= mask < 1 << 32:
            raise NotationError(f"card mask out of range: {mask:#x}", code="bad_card_mask")
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        return CardSet, (self.mask,)

    @classmethod
    def _from_iterable(cls, cards: Iterable[object]) -> CardSet:
        # The result of an operation with another kind of Set: its elements must be cards.
        return cls(cards)  # type: ignore[arg-type]

    @classmethod
    def parse(cls, tokens: str | Iterable[object]) -> CardSet:
        """Parse ``"7H QH KD"`` or ``["7H", "QH"]``; raise :class:`NotationError` on a bad token."""
        mask = 0
        for card in parse_cards(tokens):
            mask |= 1 << card
        return cardset_of_mask(mask)

    @classmethod
    def suit(cls, suit: Suit | int) -> CardSet:
        """All eight cards of ``suit``."""
        return cls(0xFF << (8 * suit))

    def __iter__(self) -> Iterator[Card]:
        mask = self.mask
        while mask:
            low = mask & -mask
            yield CARDS[low.bit_length() - 1]
            mask ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 32 and bool(self.mask >> card & 1)

    # The operators take any other Set (else NotImplemented, as the Set mixins do), on masks
    # when it is a CardSet; the result is always a CardSet, so the other set must hold cards.
    def __or__(self, other: object) -> CardSet:
        if isinstance(other, CardSet):
            return cardset_of_mask(self.mask | other.mask)
        if not isinstance(other, Set):
            return NotImplemented
        return self._from_iterable([*self, *other])

    def __and__(self, other: object) -> CardSet:
        if isinstance(other, CardSet):
            return cardset_of_mask(self.mask & other.mask)
        if not isinstance(other, Set):
            return NotImplemented
        return self._from_iterable(card for card in self if card in other)

    def __sub__(self, other: object) -> CardSet:
        if isinstance(other, CardSet):
            return cardset_of_mask(self.mask & ~other.mask)
        if not isinstance(other, Set):
            return NotImplemented
        return self._from_iterable(card for card in self if card not in other)

    def __xor__(self, other: object) -> CardSet:
        if isinstance(other, CardSet):
            return cardset_of_mask(self.mask ^ other.mask)
        if not isinstance(other, Set):
            return NotImplemented
        return self._from_iterable([*(card for card in self if card not in other),
                                    *(card for card in other if card not in self)])

    # Methods rather than class-body aliases (``__ror__ = __or__``): the compiled build's class
    # cannot hold an alias of a method.
    def __ror__(self, other: object) -> CardSet:
        return self.__or__(other)

    def __rand__(self, other: object) -> CardSet:
        return self.__and__(other)

    def __rxor__(self, other: object) -> CardSet:
        return self.__xor__(other)

    def __rsub__(self, other: object) -> CardSet:
        if not isinstance(other, Set):
            return NotImplemented
        return self._from_iterable(card for card in other if card not in self)

    def __le__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask & ~other.mask == 0
        if not isinstance(other, Set):
            return NotImplemented
        return all(card in other for card in self)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Set):
            return NotImplemented
        return len(self) < len(other) and self <= other

    def __ge__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return other.mask & ~self.mask == 0
        if not isinstance(other, Set):
            return NotImplemented
        return all(card in self for card in other)

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Set):
            return NotImplemented
        return len(self) > len(other) and self >= other

    def isdisjoint(self, other: Iterable[object]) -> bool:
        """True when the two sets have no card in common."""
        if isinstance(other, CardSet):
            return not self.mask & other.mask
        return not any(card in self for card in other)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.mask)

    def of_suit(self, suit: Suit | int) -> CardSet:
        """The cards of this set in ``suit``."""
        return cardset_of_mask(self.mask & (0xFF << (8 * suit)))

    def tokens(self) -> list[str]:
        """Canonical tokens in canonical order."""
        mask = self.mask
        spades, hearts, diamonds, clubs = _SUIT_TOKENS
        return [*spades[mask & 0xFF], *hearts[mask >> 8 & 0xFF], *diamonds[mask >> 16 & 0xFF], *clubs[mask >> 24]]

    def __str__(self) -> str:
        return " ".join(self.tokens())

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"


def _card_of(item: object) -> int:
    """The card index of a token or an int; :class:`NotationError` for anything else."""
    card = parse_card(item) if isinstance(item, str) else item
    if not isinstance(card, int) or not 0 <= card < 32:
        raise NotationError(f"not a card: {card!r} (expected an int from 0 to 31 or a token like 'JH')")
    return card


# Registered, not inherited: the compiled build's CardSet is a native class, and one that inherits
# from a Python class cannot refuse assignment (hatch_build.py).
Set.register(CardSet)


# object.__new__ in the pure build; in the compiled one the native constructor, which sets an empty
# mask first. Read with getattr: mypyc refuses an instance attribute read through the class.
_new_object: Callable[[type[CardSet]], CardSet] = getattr(CardSet, "__new__")  # noqa: B009
_set_mask = getattr(CardSet, "mask").__set__  # noqa: B009


#: Whether this module runs compiled (hatch_build.py): the compiled card set is made fastest by its
#: own constructor, the pure one by the two steps below.
_COMPILED: Final = __file__.endswith(tuple(EXTENSION_SUFFIXES))

#: The two steps of :func:`cardset_of_mask`, for a hot path that cannot afford the call: a new
#: CardSet object, then its mask set.
CARDSET_FROM_MASK: Final = (_new_object, _set_mask)

#: ``_SUIT_TOKENS[suit][byte]``: the tokens of the cards of ``suit`` whose ranks are the bits of
#: ``byte``, in rank order (what :meth:`CardSet.tokens` reads a suit at a time).
_SUIT_TOKENS: Final = tuple(
    tuple(tuple(str(CARDS[suit * 8 + rank]) for rank in range(8) if byte >> rank & 1) for byte in range(256))
    for suit in range(4)
)


def cardset_of_mask(mask: int) -> CardSet:
    """The card set of a mask the engine computed from other card sets' masks (unchecked).

    The engine's hot paths build their results with it: it skips the constructor's checks, so a
    mask outside 32 bits gives an invalid set. Use ``CardSet(mask)`` for any other mask.
    """
    if _COMPILED:
        return CardSet(mask)
    result = _new_object(CardSet)
    _set_mask(result, mask)
    return result


DECK: Final = CardSet((1 << 32) - 1)




class Team(enum.Enum):
    """The two partnerships."""

    NS = "NS"
    EW = "EW"

    # Members are singletons: hash by identity in C, not by name in Python (enum.Enum.__hash__).
    __hash__ = object.__hash__


    @property
    def other(self) -> Team:
        """The opposing team."""
        return Team.EW if self is Team.NS else Team.NS


class Seat(_NeverFalsy, enum.IntEnum):
    """Seats in play order: the seat after N is E, then S, then W."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def next(self) -> Seat:
        """The next seat in play order (also the next dealer)."""
        return SEATS[(self + 1) & 3]

    @property
    def partner(self) -> Seat:
        """The seat opposite."""
        return SEATS[self ^ 2]

    @property
    def team(self) -> Team:
        """``Team.NS`` for N and S, ``Team.EW`` for E and W."""
        return _TEAM_OF[self]

    @classmethod
    def parse(cls, letter: object) -> Seat:
        """Return the seat for ``N``, ``E``, ``S`` or ``W``; raise :class:`NotationError` for anything else."""
        try:
            return cls[letter] if isinstance(letter, str) else cls[""]
        except KeyError:
            raise NotationError(f"not a seat: {letter!r} (expected one of N E S W)") from None


#: The suits in canonical order, indexable by int.
SUITS: Final = (Suit.S, Suit.H, Suit.D, Suit.C)
_RANKS: Final = tuple(Rank)
_TRUMP_BY_TOKEN: Final = {trump.letter: trump for trump in Trump}
#: The seats in play order, indexable by int: enum look-ups by value are slow on the hot path.
SEATS: Final = (Seat.N, Seat.E, Seat.S, Seat.W)
_TEAM_OF: Final = (Team.NS, Team.EW, Team.NS, Team.EW)
