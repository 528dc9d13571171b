"""A match: running totals over deals, the litige pot carried between deals, and the end rules.

The end of a match follows the ``game.*`` parameters:

- ``game.end: points``: after each deal, a team whose total reaches (``game.win_when: reach``)
  or passes (``exceed``) ``game.target_points`` wins. When both do on the same deal,
  ``game.simultaneous_finish`` decides (the higher total, a draw, or the team that took that
  deal); equal totals then follow ``game.exact_tie`` (play on, or a draw). With
  ``game.no_win_on_capot_with_belote`` a team swept on a deal cannot win on that deal (its
  only points were its belote).
- ``game.end: deals``: after ``game.deal_limit`` deals (passed-out deals count only with
  ``game.count_passed_deals``) the higher total wins; equal totals follow ``game.exact_tie``.

A deal may end on a fault (:mod:`belote_ref.engine.faults`, the ``penalties.*`` parameters):

- a revoke found at the end (:meth:`Match.play_deal` with ``fault``) is scored by
  :func:`~belote_ref.engine.faults.score_revoke` and counts as a deal like any other;
- a misdeal (:meth:`Match.misdeal`) dealt again adds no score, does not count as a deal, and the
  same dealer deals again (``wrong_dealer`` otherwise), his next misdeal being the next
  ``attempt`` (``wrong_attempt`` otherwise); dealt again with a team barred, that team may not
  take on the redeal (``barred_taker``); a forfeit is added to the totals, counts as a deal, and
  the next seat deals (``wrong_dealer`` otherwise).

The final deal is scored with ``final_deal=True`` (``scoring.rounding.final_deal_exact``,
``scoring.litige.on_final_deal``): in a match to points, a deal is final when, scored so, it
ends the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from belote_ref.core.cards import Seat, Suit, Team, Trump
from belote_ref.core.errors import MatchOverError
from belote_ref.engine.announcements import Declaration
from belote_ref.engine.bids.auction import Bid
from belote_ref.engine.faults import Fault, FaultError, MisdealScore, score_misdeal, score_revoke
from belote_ref.engine.play import Trick
from belote_ref.engine.scoring import Belote, DealScore, final_deal_matters, score_deal
from belote_ref.rules.ruleset import Ruleset

__all__ = ["Match"]

_TEAMS = (Team.NS, Team.EW)


@dataclass
class Match:
    """Running totals of a match under ``rules``. Feed it deals with :meth:`play_deal`."""

    rules: Ruleset
    totals: dict[Team, int] = field(default_factory=lambda: {Team.NS: 0, Team.EW: 0})
    pot: int = 0
    deals_counted: int = 0
    history: list[dict[Team, int]] = field(default_factory=list)
    scores: list[DealScore] = field(default_factory=list)
    ended: bool = False
    winner: Team | None = None
    #: The dealer's last misdeal while he deals again (None once a deal is played or forfeited).
    redealing: Fault | None = None
    #: Who must deal the deal after a misdeal: the same dealer, or after a forfeit the next seat.
    next_dealer: Seat | None = None
    #: The team that may not take on the redeal (``penalties.misdeal.repeat: bar_then_forfeit``).
    barred: Team | None = None

    # Deliberate copy: score_deal's keywords, which it passes on, minus those the match supplies (pot, final_deal).
    def play_deal(
        self,
        *,
        dealer: Seat,
        taker: Seat,
        trump: Suit | Trump,
        tricks: Sequence[Trick],
        belote: Belote,
        announcements: Sequence[Declaration] = (),
        bid: Bid | None = None,
        fault: Fault | None = None,
    ) -> DealScore:
        """Score one played deal with the pot carried in, add it to the totals, apply the end rules.

        ``trump`` and ``belote`` are as for :func:`~belote_ref.engine.scoring.score_deal` (a suit, SA or
        TA; at TA a mapping suit -> seat of the belotes). Returns the deal's
        :class:`~belote_ref.engine.scoring.DealScore`. Raises
        :class:`~belote_ref.core.errors.MatchOverError` when the match is over, and
        :class:`~belote_ref.core.errors.InconsistentDealError` when the deal is inconsistent (see
        :func:`~belote_ref.engine.scoring.score_deal`). In the bidding family (``bidding.auction: bids``)
        ``bid`` is the deal's contract value and multiplier. ``fault``: a revoke found at the end of
        the deal (:func:`~belote_ref.engine.faults.score_revoke`). Raises
        :class:`~belote_ref.engine.faults.FaultError` (``wrong_dealer``, ``barred_taker``) when the
        deal follows a misdeal and another seat deals it than the one due, or the barred team takes.
        """
        if self.ended:
            raise MatchOverError("the match is over")
        self._check_dealer(dealer)
        if self.barred is not None and taker.team is self.barred:
            raise FaultError(f"{taker.name} takes on the redeal, but {self.barred.value} are barred from taking "
                             f"after {dealer.name}'s misdeal (penalties.misdeal.repeat)", code="barred_taker")

        def score(final: bool) -> DealScore:
            if fault is not None:
                return score_revoke(self.rules, fault, dealer=dealer, taker=taker, trump=trump, tricks=tricks,
                                    belote=belote, announcements=announcements, pot=self.pot, bid=bid,
                                    final_deal=final)
            return score_deal(self.rules, dealer=dealer, taker=taker, trump=trump, tricks=tricks, belote=belote,
                              announcements=announcements, pot=self.pot, final_deal=final, bid=bid)

        counted = self.deals_counted + 1
        if self.rules.game.end == "deals":
            result = score(counted >= self.rules.game.deal_limit)
            ended, winner = self._outcome(result.deal_score, result.capot, taker.team, counted)
        else:
            # The deal is final when, scored as the final deal, it ends the match.
            result = score(True)
            ended, winner = self._outcome(result.deal_score, result.capot, taker.team, counted)
            if not ended and final_deal_matters(self.rules, result):
                result = score(False)
                ended, winner = self._outcome(result.deal_score, result.capot, taker.team, counted)
        self.deals_counted = counted
        for team in _TEAMS:
            self.totals[team] += result.deal_score[team]
        self.pot = result.pot
        self.history.append(dict(self.totals))
        self.scores.append(result)
        self.ended, self.winner = ended, winner
        self.redealing, self.barred, self.next_dealer = None, None, None
        return result

    def misdeal(self, fault: Fault, bid: Bid | None = None) -> MisdealScore:
        """A misdeal by ``fault.by``, the dealer, his ``fault.attempt``-th in a row
        (:func:`~belote_ref.engine.faults.score_misdeal`; ``bid``: the contract bid when a misdeal
        found late was found). Dealt again, it adds a row of unchanged
        totals to :attr:`history` and does not count as a deal; a forfeit is added to the totals,
        counts as a deal and may end the match.

        Raises :class:`~belote_ref.core.errors.MatchOverError` when the match is over, and
        :class:`~belote_ref.engine.faults.FaultError` when another seat deals than the one due
        after a misdeal (``wrong_dealer``) or ``fault.attempt`` is not one more than the dealer's misdeals in a row
        (``wrong_attempt``)."""
        if self.ended:
            raise MatchOverError("the match is over")
        self._check_dealer(fault.by)
        expected = self.redealing.attempt + 1 if self.redealing is not None else 1
        if fault.attempt != expected:
            raise FaultError(f"{fault.by.name}'s misdeal is his misdeal number {expected} in a row in this match; "
                             f"found attempt {fault.attempt}", code="wrong_attempt")
        result = score_misdeal(self.rules, fault, bid)
        if result.outcome == "forfeit":
            self.deals_counted += 1
            self.ended, self.winner = self._outcome(result.deal_score, None, None, self.deals_counted)
            for team in _TEAMS:
                self.totals[team] += result.deal_score[team]
            self.redealing, self.barred = None, None
        else:
            self.redealing, self.barred = fault, result.barred
        self.next_dealer = result.next_dealer
        self.history.append(dict(self.totals))
        return result

    def _check_dealer(self, dealer: Seat) -> None:
        """Right after a misdeal, the deal is the redeal by the same dealer, or after its forfeit the
        next seat's (``penalties.misdeal.repeat``); elsewhere the match does not check who deals."""
        if self.next_dealer is not None and dealer is not self.next_dealer:
            raise FaultError(f"after the misdeal {self.next_dealer.name} deals; found {dealer.name} dealing",
                             code="wrong_dealer")

    def pass_deal(self) -> None:
        """A deal passed out by everyone: it counts toward ``game.deal_limit`` only with
        ``game.count_passed_deals``, and may then end a match played to a number of deals.

        Raises :class:`~belote_ref.core.errors.MatchOverError` when the match is over."""
        if self.ended:
            raise MatchOverError("the match is over")
        if self.rules.game.count_passed_deals:
            self.deals_counted += 1
            if self.rules.game.end == "deals" and self.deals_counted >= self.rules.game.deal_limit:
                self.ended, self.winner = self._by_totals(self.totals)

    def _by_totals(self, totals: dict[Team, int]) -> tuple[bool, Team | None]:
        if totals[Team.NS] != totals[Team.EW]:
            return True, max(_TEAMS, key=lambda team: totals[team])
        if self.rules.game.exact_tie == "draw":
            return True, None
        return False, None

    def _outcome(self, deal_score: dict[Team, int], capot: Team | None, takers: Team | None,
                 counted: int) -> tuple[bool, Team | None]:
        """Whether the match ends after ``deal_score`` is added (the deal's ``capot`` team; its
        ``takers``, None for a misdeal's forfeit), and who wins (None: a draw)."""
        totals = {team: self.totals[team] + deal_score[team] for team in _TEAMS}
        if self.rules.game.end == "deals":
            if counted < self.rules.game.deal_limit:
                return False, None
            return self._by_totals(totals)
        target = self.rules.game.target_points
        if self.rules.game.win_when == "reach":
            reached = [team for team in _TEAMS if totals[team] >= target]
        else:
            reached = [team for team in _TEAMS if totals[team] > target]
        if self.rules.game.no_win_on_capot_with_belote and capot is not None:
            reached = [team for team in reached if team is capot]
        if not reached:
            return False, None
        if len(reached) == 1:
            return True, reached[0]
        rule = self.rules.game.simultaneous_finish
        if rule == "draw":
            return True, None
        if rule == "last_taker" and takers is not None:
            return True, takers
        return self._by_totals(totals)
