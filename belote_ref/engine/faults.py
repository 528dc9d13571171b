"""Scoring a deal that ended on a fault: a revoke found at the end of the deal, or a misdeal.

::

    from belote_ref.engine.faults import Fault, score_misdeal, score_revoke

    fault = Fault("revoke", by=Seat.E, trick=3)
    score_revoke(rules, fault, dealer=Seat.W, taker=Seat.N, trump=Suit.H, tricks=tricks, belote=None)
    score_misdeal(rules, Fault("misdeal", by=Seat.W, attempt=3))   # dealer W's third misdeal in a row

The fault is taken as the players agreed it happened: which seat, at which trick (the engine does
not search the tricks for it, as a table does not replay a deal to find who revoked). What it costs
is read from the ruleset's ``penalties.*`` values (registry articles 9.x), never from
a ruleset's name:

- ``penalties.revoke.found_at_end``: ``deal_lost`` gives the innocent side
  ``penalties.forfeit_value`` and the offenders nothing, the announcements going per
  ``penalties.revoke.announcements`` and the offenders' belote per ``penalties.revoke.belote`` (the
  innocent side's own belote is always theirs); ``innocent_choice`` is the innocent side's choice to
  stop the deal (had it chosen to correct the card, there would be no fault to score): the
  offenders keep the tricks won before the fault's trick, the innocent side wins that one and all
  the rest, and the deal is scored as usual from there; ``contract_to_opponents`` cancels the deal
  and the innocent side scores the contract's points (the bid's value times its multiplier in the
  bidding family; without a bid, belote-ref's choice: the forfeit).
- ``penalties.misdeal.repeat`` says whether a dealer's ``attempt``-th misdeal in a row is dealt
  again, bars the dealer's team from taking on the redeal, or gives the opponents the forfeit.
- ``penalties.misdeal.late`` says what a misdeal found ``late`` costs (once trumps are fixed; in the
  bidding family once an opponent has bid): as any misdeal (``same_as_early``), the forfeit
  (``forfeit_after_trump``), or the forfeit plus the contract's points, the bid's value times its
  multiplier (``forfeit_plus_contract``; without a bid, the classic family, the forfeit alone).

A forfeit is a fixed number of the rule texts and is written as it stands: it is never rounded.
A litige pot carried in stays in the pot (no source says whether a forfeit wins it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from belote_ref.core.cards import Seat, Suit, Team, Trump
from belote_ref.core.errors import BeloteRefError
from belote_ref.engine.announcements import Declaration
from belote_ref.engine.bids.auction import Bid
from belote_ref.engine.bids.scoring import bid_value
from belote_ref.engine.play import Trick
from belote_ref.engine.score_sheet import Contract, DealScore, Sheet
from belote_ref.engine.scoring import Belote, score_deal
from belote_ref.rules.ruleset import Ruleset

__all__ = ["FAULT_KINDS", "Fault", "FaultError", "FaultKind", "MisdealScore", "score_misdeal", "score_revoke"]

FaultKind = Literal["revoke", "misdeal"]
#: The faults the engine scores; the other penalties.* parameters are documentary for now.
FAULT_KINDS: tuple[FaultKind, ...] = ("revoke", "misdeal")
TRICKS_PER_DEAL = 8


class FaultError(BeloteRefError):
    """A fault that cannot have happened where it is said to (a redeal by another dealer, a misdeal
    counted wrong, a barred team that takes, a "revoke" that was a legal card): a situation, answered
    as a rejection with its ``code`` (docs/protocol.md, "Rejections")."""

    code = "impossible_fault"


@dataclass(frozen=True)
class Fault:
    """A fault that ended a deal: its ``kind``, the seat that made it (``by``; for a misdeal, the
    dealer), the 1-based ``trick`` of a revoke, and for a misdeal how many misdeals in a row this
    dealer has made, this one included (``attempt``), and whether it was found ``late``, once
    trumps were fixed (in the bidding family, once an opponent had bid)."""

    kind: FaultKind
    by: Seat
    trick: int = 0
    attempt: int = 1
    late: bool = False

    def to_json(self) -> dict[str, Any]:
        if self.kind == "revoke":
            return {"kind": self.kind, "by": self.by.name, "trick": self.trick}
        found = {"late": True} if self.late else {}
        return {"kind": self.kind, "by": self.by.name, "attempt": self.attempt, **found}


MisdealOutcome = Literal["redeal", "redeal_barred", "forfeit"]


@dataclass(frozen=True)
class MisdealScore:
    """What a misdeal costs: dealt again (by the same dealer), dealt again with the dealer's team
    ``barred`` from taking, or the forfeit to the opponents (the deal then counts, and passes on)."""

    outcome: MisdealOutcome
    barred: Team | None
    deal_score: dict[Team, int]
    next_dealer: Seat

    def to_json(self) -> dict[str, Any]:
        """The protocol's ``score`` result for a misdeal (docs/protocol.md, "A deal ended on a fault")."""
        return {
            "misdeal": self.outcome,
            "barred": self.barred.value if self.barred is not None else None,
            "deal_score": {"NS": self.deal_score[Team.NS], "EW": self.deal_score[Team.EW]},
            "next_dealer": self.next_dealer.name,
        }


def score_misdeal(rules: Ruleset, fault: Fault, bid: Bid | None = None) -> MisdealScore:
    """The cost of ``fault.by``'s ``fault.attempt``-th misdeal in a row (``penalties.misdeal.repeat``),
    or of one found late (``penalties.misdeal.late``; ``bid``: the contract bid when it was found)."""
    dealers, opponents = fault.by.team, fault.by.team.other
    late = rules["penalties.misdeal.late"]
    if fault.late and late != "same_as_early":
        points = rules["penalties.forfeit_value"]
        if late == "forfeit_plus_contract" and bid is not None:
            points += bid_value(rules, bid) * bid.multiplier
        return MisdealScore("forfeit", None, {dealers: 0, opponents: points}, fault.by.next)
    repeat = rules["penalties.misdeal.repeat"]
    forfeit_from = {"bar_then_forfeit": 3, "forfeit_at_second": 2, "forfeit_at_third": 3}.get(repeat)
    nothing = {Team.NS: 0, Team.EW: 0}
    if forfeit_from is not None and fault.attempt >= forfeit_from:
        # The forfeit ends the deal: it counts as played, so the next player deals.
        return MisdealScore("forfeit", None, {dealers: 0, opponents: rules["penalties.forfeit_value"]},
                            fault.by.next)
    if repeat == "bar_then_forfeit" and fault.attempt == 2:
        return MisdealScore("redeal_barred", dealers, nothing, fault.by)
    # redeal_only, and referee_then_exclusion (a referee's sanction, not points), redeal the deal.
    return MisdealScore("redeal", None, nothing, fault.by)


def score_revoke(
    rules: Ruleset,
    fault: Fault,
    *,
    dealer: Seat,
    taker: Seat,
    trump: Suit | Trump,
    tricks: Sequence[Trick],
    belote: Belote,
    announcements: Sequence[Declaration] = (),
    pot: int = 0,
    bid: Bid | None = None,
    final_deal: bool = False,
) -> DealScore:
    """The score of a deal in which ``fault.by`` revoked at trick ``fault.trick``, found at the end
    of the deal (``penalties.revoke.found_at_end``). The tricks are checked as for any deal;
    ``final_deal`` marks the last deal of a match, as for :func:`~belote_ref.engine.scoring.score_deal`
    (it matters only where the deal is scored as usual, ``innocent_choice``)."""
    played = score_deal(rules, dealer=dealer, taker=taker, trump=trump, tricks=tricks, belote=belote,
                        announcements=announcements, pot=pot, bid=bid, final_deal=final_deal)
    found_at_end = rules["penalties.revoke.found_at_end"]
    if found_at_end == "innocent_choice":
        winners = tuple(winner if index < fault.trick - 1 else fault.by.next
                        for index, winner in enumerate(played.trick_winners))
        return score_deal(rules, dealer=dealer, taker=taker, trump=trump, tricks=tricks, belote=belote,
                          announcements=announcements, pot=pot, bid=bid, validate=False, trick_winners=winners,
                          final_deal=final_deal)
    offenders, innocent = fault.by.team, fault.by.team.other
    sheet = Sheet()
    if found_at_end == "contract_to_opponents":
        points = (bid_value(rules, bid) * bid.multiplier if bid is not None
                  else rules["penalties.forfeit_value"])
        sheet.add(innocent, points, "penalties.revoke.found_at_end",
                  f"revoke by {fault.by.name} at trick {fault.trick}: the deal is cancelled, the contract's "
                  f"{points} to {innocent.value}")
        sheet.add(offenders, 0, "penalties.revoke.found_at_end", "the offenders score nothing")
    else:
        _deal_lost(rules, sheet, fault, played)
    takers = taker.team
    contract: Contract = "made" if innocent is takers else "down"
    return DealScore(trick_winners=played.trick_winners, card_points=played.card_points,
                     announcements=played.announcements, belote=played.belote, contract=contract,
                     capot=played.capot, deal_score=dict(sheet.score), pot=pot, lines=tuple(sheet.lines))


def _deal_lost(rules: Ruleset, sheet: Sheet, fault: Fault, played: DealScore) -> None:
    """``deal_lost``: the forfeit to the innocent side, then the announcements and the belotes."""
    offenders, innocent = fault.by.team, fault.by.team.other
    sheet.add(innocent, rules["penalties.forfeit_value"], "penalties.forfeit_value",
              f"revoke by {fault.by.name} at trick {fault.trick}: the deal is lost by {offenders.value}")
    sheet.add(offenders, 0, "penalties.revoke.found_at_end", "the offenders score no card points")
    if rules["announcements.enabled"]:
        innocent_gets = played.announcements[innocent]
        if rules["penalties.revoke.announcements"] == "all_to_innocent":
            innocent_gets += played.announcements[offenders]
        if innocent_gets:
            sheet.add(innocent, innocent_gets, "penalties.revoke.announcements",
                      f"announcements to the innocent side ({rules['penalties.revoke.announcements']})")
    for team in _belote_teams(played):
        if team is innocent:
            sheet.add(innocent, rules.belote.value, "belote.value", "the innocent side's own belote")
            continue
        keeper = {"kept_by_holder": offenders, "to_innocent": innocent}.get(rules["penalties.revoke.belote"])
        if keeper is None:
            sheet.add(offenders, 0, "penalties.revoke.belote", "the offenders' belote is lost")
        else:
            sheet.add(keeper, rules.belote.value, "penalties.revoke.belote",
                      f"the offenders' belote, to {keeper.value} ({rules['penalties.revoke.belote']})")


def _belote_teams(played: DealScore) -> list[Team]:
    """The team of each belote credited in the deal (one per belote suit at tout-atout)."""
    if isinstance(played.belote, Team):
        return [played.belote]
    if played.belote:
        return [team for _suit, team in sorted(played.belote.items())]
    return []
