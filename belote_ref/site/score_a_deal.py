"""The answer of the "Score a deal" page, computed in the reader's browser by the engine itself.

The page's script (``browser/score_a_deal.js``) runs this module under Pyodide and passes the form as
plain strings (:class:`DealForm`); :func:`answer` returns plain JSON data: the engine's score sheet
(:func:`belote_ref.engine.scoring.score_deal`), each line with the registry parameter it comes from.
It imports only the engine, never MkDocs: the browser has the package without the ``docs`` extra.

The deal is given in one of two ways:

- ``tricks``: the eight tricks, one a line, each in the order its cards were played. Trick 1 is led by
  eldest (the seat after the dealer), every other by the winner of the one before, as at the table,
  so no leader is typed; the engine checks the tricks as it checks a ``score`` case.
- ``piles``: the cards each side won and who won the last trick, as counted at the end of a deal.
  The engine scores tricks, so the cards are laid out into tricks each side won, the belote's king and
  queen and each announced combination in the hand of the seat that announced them (the king before
  the queen), and the engine is told who won each trick (``score_deal(..., validate=False,
  trick_winners=...)``): card points, last trick, capot, belote and announcements then come out as
  for the real tricks. Where the ruleset finds the announcements in each hand by itself
  (``announcements.declared: automatic``), or for a générale (won by one player alone), who held
  which card matters: the page asks for the tricks.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from belote_ref.core.cards import SEATS, Card, Rank, Seat, Suit, Team, Trump, parse_cards, trump_of
from belote_ref.core.errors import BeloteRefError, RulesetError
from belote_ref.engine.announcements import CARRE, KINDS, SEQUENCE_KINDS, Declaration, make_combination
from belote_ref.engine.bids.auction import Bid, BidValue, impossible_bid, is_bidding
from belote_ref.engine.play import Trick, trick_winner
from belote_ref.engine.scoring import score_deal
from belote_ref.rules.ruleset import Ruleset, find_ruleset, load_ruleset, shipped_rulesets

__all__ = ["DealForm", "answer", "answer_json", "form_of", "ruleset_choices", "ruleset_needs"]

_CARDS_PER_TRICK = 4
_TRICKS = 8
#: Where a pasted house rule is said to live: a folder with nothing in it, so that its ``extends``
#: names a shipped ruleset (a file beside it is found nowhere, and the message says so).
_HOUSE_PATH = "/house-rule/house-rule.yaml"
_MULTIPLIERS = ("", "coinche", "surcoinche")
_SEPARATORS = re.compile(r"[\n;/|]+")
_BELOTE_ITEM = re.compile(r"^([SHDC])\s*[:=]?\s*([NESWO])$")
_FRENCH_WEST = "W"  # the French page names West O (Ouest)


@dataclass(frozen=True)
class DealForm:
    """The page's form, as typed (every field a string; blank where not used).

    ``mode`` is ``tricks`` or ``piles``; ``belote`` a seat, or at tout-atout ``H:N S:E``;
    ``announcements`` one a line, ``N tierce 7H 8H 9H`` (the kind may be left out: it follows from
    the cards); ``bid`` a number, ``capot`` or ``generale``; ``multiplier`` blank, ``coinche`` or
    ``surcoinche``; ``pot`` the litige points carried in.
    """

    ruleset: str = "classic"
    house: str = ""
    dealer: str = "N"
    taker: str = "N"
    trump: str = "H"
    mode: str = "tricks"
    tricks: str = ""
    ns_won: str = ""
    ew_won: str = ""
    last: str = ""
    belote: str = ""
    announcements: str = ""
    bid: str = ""
    multiplier: str = ""
    pot: str = ""


def ruleset_choices() -> list[str]:
    """The ids of the shipped rulesets, classic first."""
    return list(shipped_rulesets())


def ruleset_needs(ruleset: str, house: str = "") -> dict[str, Any]:
    """What the form asks under the ruleset: ``{"id", "bids", "trumps", "surcoinche", "announcements"}``
    (``bids``: the bidding family's bid and coinche; ``trumps``: the contracts it plays), or
    ``{"error": one line}``."""
    try:
        rules = _ruleset(ruleset, house)
    except BeloteRefError as error:
        return {"error": _one_line(error)}
    return {"id": rules.id, "bids": is_bidding(rules), "trumps": [trump.letter for trump in sorted(rules.trumps)],
            "surcoinche": rules["auction.surcoinche_multiplier"],
            "announcements": bool(rules["announcements.enabled"])}


def answer(form: DealForm) -> dict[str, Any]:
    """The itemised score sheet of the deal: the protocol's ``score`` result with ``lines`` (``team``,
    ``points``, ``rule``: the registry parameter, ``note``: the engine's words) and ``ruleset``; or
    ``{"error": one line}`` when the form cannot be read or the deal is not consistent."""
    try:
        return _answer(form)
    except BeloteRefError as error:
        return {"error": _one_line(error)}


def form_of(fields: Mapping[str, Any]) -> DealForm:
    """The form from the page's fields (name -> text); a field the form does not have is refused."""
    names = {field.name for field in dataclasses.fields(DealForm)}
    unknown = sorted(set(fields) - names)
    if unknown:
        raise BeloteRefError(f"unknown field(s) {', '.join(unknown)}; the form has {', '.join(sorted(names))}")
    return DealForm(**{name: str(value) for name, value in fields.items()})


def answer_json(fields: str) -> str:
    """:func:`answer` of the page's fields given as a JSON object of strings, as JSON text: only text
    crosses between the page's script and Python."""
    try:
        data = json.loads(fields)
        if not isinstance(data, dict):
            raise BeloteRefError("the form is a JSON object of field -> text")
        result = answer(form_of(data))
    except ValueError as error:  # a BeloteRefError is one, and so is bad JSON
        result = {"error": " ".join(str(error).split())}
    return json.dumps(result, ensure_ascii=False)


def _one_line(error: BeloteRefError) -> str:
    if isinstance(error, RulesetError) and error.diagnostics:
        text = "; ".join(str(diagnostic) for diagnostic in error.diagnostics[:3])
    else:
        text = str(error)
    return " ".join(text.split())


def _ruleset(ruleset: str, house: str) -> Ruleset:
    if house.strip():
        return load_ruleset(_HOUSE_PATH, house)
    return find_ruleset(ruleset.strip())


def _seat(token: str, what: str) -> Seat:
    token = token.strip().upper()
    token = _FRENCH_WEST if token == "O" else token
    if token not in {seat.name for seat in SEATS}:
        raise BeloteRefError(f"{what}: expected a seat, N, E, S or W; found {token or 'nothing'!r}")
    return Seat.parse(token)


def _answer(form: DealForm) -> dict[str, Any]:
    rules = _ruleset(form.ruleset, form.house)
    trump_token = form.trump.strip().upper()
    contract = Trump.parse(trump_token)
    if contract not in rules.trumps:
        raise BeloteRefError(f"this ruleset does not play the contract {trump_token} (bidding.contracts: "
                             f"{', '.join(rules['bidding.contracts'])})")
    trump = trump_of(contract)
    dealer, taker = _seat(form.dealer, "dealer"), _seat(form.taker, "taker")
    belote = _belote(rules, trump, form.belote)
    declarations = _declarations(rules, trump, form.announcements)
    bid = _bid(rules, form)
    pot = _pot(form.pot) if bid is None else 0
    common: dict[str, Any] = {"dealer": dealer, "taker": taker, "trump": trump, "belote": belote,
                              "announcements": declarations, "pot": pot, "bid": bid}
    mode = form.mode.strip()
    if mode == "tricks":
        tricks = _tricks(rules, dealer, trump, form.tricks)
        score = score_deal(rules, tricks=tricks, **common)
    elif mode == "piles":
        if bid is not None and bid.value == "generale":
            raise BeloteRefError("a générale is won by one player alone: give the eight tricks, who won each matters")
        if rules["announcements.enabled"] and rules["announcements.declared"] == "automatic":
            raise BeloteRefError("this ruleset finds the announcements in each hand itself "
                                 "(announcements.declared automatic): give the eight tricks")
        tricks, winners = _tricks_of_piles(rules, trump, form, belote, declarations)
        score = score_deal(rules, tricks=tricks, validate=False, trick_winners=winners, **common)
    else:
        raise BeloteRefError(f"mode must be tricks or piles; found {mode!r}")
    result = score.to_json()
    if mode == "piles":
        del result["trick_winners"]  # made up with the tricks: only the sides and the last trick are the reader's
    result["lines"] = [{"team": line.team.value, "points": line.points, "rule": line.rule, "note": line.note}
                       for line in score.lines]
    result["ruleset"] = rules.id
    return result


def _tricks(rules: Ruleset, dealer: Seat, trump: Suit | Trump, text: str) -> list[Trick]:
    """The tricks typed one a line, each led by eldest or the winner of the one before."""
    lines = [line for line in _SEPARATORS.split(text.upper()) if line.strip()]
    if len(lines) != _TRICKS:
        raise BeloteRefError(f"give the {_TRICKS} tricks, one a line, 4 cards each in the order played; "
                             f"found {len(lines)}")
    tricks: list[Trick] = []
    leader = dealer.next
    for number, line in enumerate(lines, 1):
        cards = tuple(parse_cards(line))
        if len(cards) != _CARDS_PER_TRICK:
            raise BeloteRefError(f"trick {number} has {len(cards)} cards; a trick has {_CARDS_PER_TRICK}")
        trick = Trick(leader, cards)
        tricks.append(trick)
        leader = trick_winner(rules, trump, trick)
    return tricks


def _belote(rules: Ruleset, trump: Suit | Trump, text: str) -> Seat | dict[Suit, Seat] | None:
    items = text.upper().replace(",", " ").split()
    if not items:
        return None
    if len(rules.belote_suits[trump]) > 1:
        belotes: dict[Suit, Seat] = {}
        for item in " ".join(items).replace(": ", ":").replace("= ", "=").split():
            match = _BELOTE_ITEM.match(item)
            if match is None:
                raise BeloteRefError(f"belote at this contract: one per suit, as H:N (suit:seat); found {item!r}")
            belotes[Suit.parse(match[1])] = _seat(match[2], "belote")
        return belotes
    if len(items) != 1:
        raise BeloteRefError(f"belote: the seat that announced it, N, E, S or W; found {text.strip()!r}")
    return _seat(items[0], "belote")


def _declarations(rules: Ruleset, trump: Suit | Trump, text: str) -> list[Declaration]:
    declarations = []
    for line in _SEPARATORS.split(text):
        words = line.replace(",", " ").split()
        if not words:
            continue
        seat = _seat(words[0].rstrip(":"), f"announcement {line.strip()!r}")
        kind = words[1].lower() if len(words) > 1 and words[1].lower() in KINDS else None
        cards = parse_cards(" ".join(words[2 if kind else 1:]).upper())
        if not cards:
            raise BeloteRefError(f"announcement {line.strip()!r}: give its cards, e.g. N 7H 8H 9H")
        if kind is None:
            ranks = {card.rank for card in cards}
            kind = CARRE if len(cards) == 4 and len(ranks) == 1 else SEQUENCE_KINDS[min(len(cards), 5) - 3] \
                if len(cards) >= 3 else SEQUENCE_KINDS[0]
        try:
            declarations.append(Declaration(seat, make_combination(rules, trump, kind, cards)))
        except BeloteRefError as error:
            raise BeloteRefError(f"announcement of {seat.name}: {error}") from None
    return declarations


def _bid(rules: Ruleset, form: DealForm) -> Bid | None:
    """The contract's bid and multiplier in the bidding family; nothing elsewhere (a bid given there
    is refused rather than ignored)."""
    token = form.bid.strip().lower()
    multiplier_token = form.multiplier.strip().lower()
    if not is_bidding(rules):
        if token or multiplier_token:
            raise BeloteRefError("this ruleset has no bids (bidding.auction turned_card): leave the bid blank")
        return None
    if not token:
        raise BeloteRefError("this ruleset scores a bid (bidding.auction bids): give the bid, e.g. 80, capot")
    value: BidValue
    if token in ("capot", "generale", "générale"):
        value = "generale" if token.startswith("g") else "capot"
    elif token.isdigit():
        value = int(token)
    else:
        raise BeloteRefError(f"bid: a number of points, capot or generale; found {form.bid.strip()!r}")
    if multiplier_token not in _MULTIPLIERS:
        raise BeloteRefError(f"coinche: none, coinche or surcoinche; found {form.multiplier.strip()!r}")
    multiplier = (1, 2, int(rules["auction.surcoinche_multiplier"]))[_MULTIPLIERS.index(multiplier_token)]
    bid = Bid(value, multiplier)
    fault = impossible_bid(rules.params, bid)
    if fault is not None:
        raise BeloteRefError(f"bid {value}: {fault}")
    return bid


def _pot(text: str) -> int:
    text = text.strip()
    if not text:
        return 0
    if not text.isdigit():
        raise BeloteRefError(f"litige pot: a whole number of points, 0 or more; found {text!r}")
    return int(text)


# ------------------------------------------------------------------ the cards each side won


def _tricks_of_piles(rules: Ruleset, trump: Suit | Trump, form: DealForm, belote: Seat | Mapping[Suit, Seat] | None,
                     declarations: list[Declaration]) -> tuple[list[Trick], tuple[Seat, ...]]:
    """Tricks each side won made of its pile, and who won each, the last one by ``form.last``."""
    piles = _piles(form.ns_won, form.ew_won)
    last = _seat(form.last, "last trick")
    if not piles[last.team]:
        raise BeloteRefError(f"{last.name} won the last trick, but {last.team.value} won no cards")
    pinned = _pinned(rules, trump, belote, declarations)
    apart = _kept_apart(rules, trump, belote)
    tricks: list[tuple[Team, list[Card]]] = []
    placed: dict[Card, int] = {}  # the seat of each card laid out so far, over both sides' piles
    suits = rules.belote_suits[trump]

    def belote_order(card: Card) -> int:
        return {Rank.KING: -1, Rank.QUEEN: 1}.get(card.rank, 0) if card.suit in suits else 0

    for team in (Team.NS, Team.EW):
        hands = _share(team, piles[team], pinned, apart, placed)
        kings_first = [sorted(cards, key=belote_order) for cards in hands]
        tricks += [(team, [kings_first[seat][index] for seat in range(4)]) for index in range(len(piles[team]) // 4)]
    # Belote kings early, queens late (belote.king_first), and the last trick one of the last side's.
    tricks.sort(key=lambda trick: sum(belote_order(card) for card in trick[1]))
    final = max(index for index, (team, _) in enumerate(tricks) if team is last.team)
    tricks.append(tricks.pop(final))
    winners = tuple(last if team is last.team else SEATS[team is Team.EW] for team, _ in tricks)
    return [Trick(Seat.N, tuple(cards)) for _, cards in tricks], winners


def _piles(ns_text: str, ew_text: str) -> dict[Team, list[Card]]:
    """The cards each side won; one side left blank has the cards the other did not win."""
    ns, ew = parse_cards(ns_text.upper()), parse_cards(ew_text.upper())
    everything = [Card(index) for index in range(32)]
    if not ns and not ew:
        raise BeloteRefError("give the cards each side won (one side left blank has the rest)")
    for team, cards in ((Team.NS, ns), (Team.EW, ew)):
        twice = sorted({str(card) for card in cards if cards.count(card) > 1})
        if twice:
            raise BeloteRefError(f"{team.value} won {', '.join(twice)} twice")
    if not ew_text.strip():
        ew = [card for card in everything if card not in ns]
    elif not ns_text.strip():
        ns = [card for card in everything if card not in ew]
    both = sorted(str(card) for card in set(ns) & set(ew))
    if both:
        raise BeloteRefError(f"both sides won {', '.join(both)}")
    missing = [str(card) for card in everything if card not in ns and card not in ew]
    if missing:
        raise BeloteRefError(f"no side won {', '.join(missing)}: the two sides' cards make the 32 of the pack")
    for team, cards in ((Team.NS, ns), (Team.EW, ew)):
        if len(cards) % _CARDS_PER_TRICK:
            raise BeloteRefError(f"{team.value} won {len(cards)} cards: a side wins whole tricks of 4")
    return {Team.NS: ns, Team.EW: ew}


def _pinned(rules: Ruleset, trump: Suit | Trump, belote: Seat | Mapping[Suit, Seat] | None,
            declarations: list[Declaration]) -> dict[Card, Seat]:
    """The cards a seat must have held: its belote's king and queen, its announced combinations."""
    pinned: dict[Card, Seat] = {}
    claims: list[tuple[Card, Seat]] = []
    suits = rules.belote_suits[trump]
    announced = {suits[0]: belote} if isinstance(belote, Seat) and len(suits) == 1 else \
        dict(belote) if isinstance(belote, Mapping) else {}
    for suit, seat in announced.items():
        claims += [(Card.of(Rank.KING, suit), seat), (Card.of(Rank.QUEEN, suit), seat)]
    for declaration in declarations:
        claims += [(card, declaration.seat) for card in declaration.combination.cards]
    for card, seat in claims:
        holder = pinned.setdefault(card, seat)
        if holder is not seat:
            raise BeloteRefError(f"{card} cannot have been held by both {holder.name} and {seat.name}")
    return pinned


def _kept_apart(rules: Ruleset, trump: Suit | Trump, belote: Seat | Mapping[Suit, Seat] | None) -> set[Card]:
    """Kings and queens of a belote nobody announced, to be held by two seats where the ruleset
    credits a belote to whoever held both (``belote.announcement: automatic``)."""
    if rules["belote.announcement"] != "automatic":
        return set()
    announced = set(belote) if isinstance(belote, Mapping) else set(rules.belote_suits[trump]) if belote else set()
    return {Card.of(rank, suit) for suit in rules.belote_suits[trump] if suit not in announced
            for rank in (Rank.KING, Rank.QUEEN)}


def _share(team: Team, pile: list[Card], pinned: Mapping[Card, Seat], apart: set[Card],
           placed: dict[Card, int]) -> list[list[Card]]:
    """The pile shared among the four seats, as many cards each as the side won tricks: the pinned
    cards to their seat, a king and queen kept apart in two hands, the rest in turn. ``placed`` (card
    -> seat, the other side's pile included) is kept up to date."""
    per_seat = len(pile) // _CARDS_PER_TRICK
    hands: list[list[Card]] = [[], [], [], []]
    for card in pile:
        if card in pinned:
            hands[pinned[card]].append(card)
    for seat, cards in enumerate(hands):
        if len(cards) > per_seat:
            raise BeloteRefError(f"{SEATS[seat].name} held {len(cards)} of the cards {team.value} won "
                                 f"({', '.join(map(str, cards))}), in only {per_seat} trick(s) of theirs")
    free = sorted((card for card in pile if card not in pinned), key=lambda card: card not in apart)
    for card in free:
        partner = Card.of(Rank.QUEEN if card.rank is Rank.KING else Rank.KING, card.suit)
        holder = placed.get(partner, pinned.get(partner)) if card in apart else None
        open_seats = [seat for seat in range(4) if len(hands[seat]) < per_seat and seat != holder] or \
            [seat for seat in range(4) if len(hands[seat]) < per_seat]
        seat = min(open_seats, key=lambda seat: len(hands[seat]))
        hands[seat].append(card)
        placed[card] = seat
    for card in pile:
        if card in pinned:
            placed[card] = pinned[card]
    return hands
