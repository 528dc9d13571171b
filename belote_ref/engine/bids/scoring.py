"""The bidding family's contract test and deal score (``bidding.auction: bids``).

:func:`~belote_ref.engine.scoring.score_deal` counts the card points, the capot, belote and the
announcements as for every deal, then hands a ruleset of the family to :func:`score_bid`, which
judges the bid and writes the deal score by the formulas of the registry (``scoring.bid.*``,
``scoring.capot_bid.*``, ``belote.on_chute``, ``belote.multiplied``). Symbols, as in the
registry's prose: the takers T (the bidder's team), the defenders D; ``c`` card points (252 and 0
on a capot), ``a`` validated announcements, ``b`` belote points; ``V`` the bid's value (a capot
bid ``auction.capot_value``, a générale ``scoring.generale.value``); ``m`` the multiplier; ``B``
``scoring.bid.base``; ``A = a_T + a_D``.

- **Made** when the takers' counted points ``P_T = c_T + b_T + a_T`` (belote by
  ``scoring.contract.count_belote``, announcements by ``scoring.contract.count_announcements``)
  reach ``t(V)`` (``auction.bid_target``) and, with ``scoring.bid.must_beat_defenders``, exceed
  ``P_D``; a capot bid when the takers win all 8 tricks; a générale when the bidder wins them
  all alone. The winner is the takers when made, the defenders when down.
- **Belotes**: the winner's own belote stays with him. The loser's: takers who fail keep theirs
  (``belote.on_chute: kept_by_holder``, never multiplied), lose it to the defenders
  (``to_defenders``) or lose it (``void``); defenders of a made contract keep theirs, never
  multiplied (``belote.defenders_on_made: kept_by_holder``), or, with ``to_takers_when_coinched``
  and ``m > 1``, lose it to the takers. The winner's belotes are multiplied by ``m`` when
  ``belote.multiplied``.
- **Scores**: see :func:`score_bid`.

The rule values are read from the ruleset's typed view (``rules.scoring.bid``...); no branch looks at a
ruleset id.
"""

from __future__ import annotations

from belote_ref.core.cards import Seat, Team
from belote_ref.core.errors import BeloteRefError
from belote_ref.engine.bids.auction import Bid
from belote_ref.engine.score_sheet import Contract, DealContext
from belote_ref.rules.ruleset import Ruleset

__all__ = ["bid_value", "score_bid"]


def bid_value(rules: Ruleset, bid: Bid) -> int:
    """``V``: the points of a bid (``auction.capot_value`` for a capot, ``scoring.generale.value``
    for a générale)."""
    if bid.value == "capot":
        return rules.auction.capot_value
    if bid.value == "generale":
        return rules.scoring.generale.value
    return bid.value


def _target(rules: Ruleset, value: int) -> int:
    """``t(V)``, the points a bid of ``value`` needs (``auction.bid_target``)."""
    target = rules.auction.bid_target
    if target == "plus_two":
        return value + 2
    if target == "lowest_is_82" and value == rules.auction.min_bid:
        return 82
    return value


def _judge(ctx: DealContext, bid: Bid, bidder: Seat, winners: tuple[Seat, ...]) -> bool:
    """Whether the bid is made, with a 0-point line saying why."""
    sheet, takers, defenders = ctx.sheet, ctx.takers, ctx.defenders
    contract = ctx.rules.scoring.contract
    if bid.value == "capot":
        made = ctx.capot is takers
        sheet.add(
            takers,
            0,
            "auction.capot_value",
            f"capot bid: the takers {'won' if made else 'did not win'} all 8 tricks: {'made' if made else 'down'}",
        )
        return made
    if bid.value == "generale":
        made = all(winner == bidder for winner in winners)
        sheet.add(takers, 0, "auction.generale",
                  f"générale: {bidder.name} {'won' if made else 'did not win'} all 8 tricks alone: "
                  f"{'made' if made else 'down'}")
        return made

    def counted(team: Team) -> tuple[int, str]:
        parts = [f"{ctx.card_points[team]} cards"]
        total = ctx.card_points[team]
        if ctx.bel[team] and (contract.count_belote == "both_sides"
                              or (contract.count_belote == "takers_only" and team is takers)):
            total += ctx.bel[team]
            parts.append(f"{ctx.bel[team]} belote")
        if contract.count_announcements and ctx.ann[team]:
            total += ctx.ann[team]
            parts.append(f"{ctx.ann[team]} announcements")
        return total, " + ".join(parts)

    taker_total, taker_text = counted(takers)
    needed = _target(ctx.rules, bid.value)
    made = taker_total >= needed
    relation = ">=" if made else "<"
    note = f"takers {taker_text} = {taker_total} {relation} {needed} needed for {bid.value} (auction.bid_target)"
    if made and ctx.rules.scoring.bid.must_beat_defenders:
        defender_total, defender_text = counted(defenders)
        made = taker_total > defender_total
        note += (f"; {'>' if made else 'not more than'} defenders {defender_text} = {defender_total} "
                 f"(scoring.bid.must_beat_defenders)")
    sheet.add(takers, 0, "scoring.bid.must_beat_defenders", f"{note}: {'made' if made else 'down'}")
    return made


def score_bid(ctx: DealContext, bid: Bid | None, bidder: Seat, winners: tuple[Seat, ...]) -> Contract:
    """Judge the bid, write every deal-score line on ``ctx.sheet`` and return ``made`` or ``down``.

    The formulas (registry ``scoring.bid.formula``), W the winner of the deal, L the loser:

    - a capot or générale bid with ``scoring.capot_bid.mode: flat``: W ``scoring.capot_bid.value``
      (a générale ``scoring.generale.value``) x m + belotes; L his belote if kept;
    - ``points_plus_bid``, m = 1: made, T ``c_T + a_T + V`` + belotes, D ``c_D + a_D`` (a swept
      D's announcements by ``scoring.capot.loser_announcements``) + his belote if kept; down, D
      ``B + a_D + a_T`` (``a_T`` with ``scoring.chute.announcements: all_to_defenders``) ``+ V`` +
      belotes, T his belote if kept. m > 1: W by ``scoring.bid.multiplier_applies_to``,
      ``bid_only`` ``B + A + V x m``, ``everything`` ``(B + A + V) x m``, ``ffb_coinche_bracket``
      ``(B + A + V) x m``, + belotes, B ``scoring.bid.capot_base`` when W swept (not with
      ``everything``); L his belote if kept;
    - ``base_plus_bid``: W ``B + V x m + A`` + belotes (B ``scoring.bid.capot_base`` when W swept);
    - ``bid_only``: W ``V x m`` + belotes;
    - ``flat_forfeits``: made as ``points_plus_bid``; down, D ``scoring.bid.flat_forfeit x m`` + belotes.
    """
    rules, sheet, takers, defenders = ctx.rules, ctx.sheet, ctx.takers, ctx.defenders
    if bid is None:
        raise BeloteRefError("a deal of the bidding family (bidding.auction: bids) needs its bid "
                             "{value, multiplier}", code="bad_bid")
    scoring, belote_rules = rules.scoring, rules.belote
    bid_rules = scoring.bid
    m = bid.multiplier
    value = bid_value(rules, bid)
    made = _judge(ctx, bid, bidder, winners)
    winner, loser = (takers, defenders) if made else (defenders, takers)
    swept = ctx.capot is winner
    times = f" x {m}" if m > 1 else ""

    # The loser's belote: belote.on_chute speaks of the takers who fail and of no one else (FFB-C16
    # §7, the tournoi international art. 7); the defenders' belote on a made contract has its own rule.
    loser_value: str
    if made:
        loser_rule, loser_value = "belote.defenders_on_made", belote_rules.defenders_on_made
        loser_fate = "to_winner" if loser_value == "to_takers_when_coinched" and m > 1 else "kept"
    else:
        loser_rule, loser_value = "belote.on_chute", belote_rules.on_chute
        loser_fate = {"kept_by_holder": "kept", "to_defenders": "to_winner", "void": "void"}[loser_value]

    def belotes() -> None:
        """The winner's belotes (his own, and the loser's when it goes to him), then the loser's."""
        own, lost = ctx.bel[winner], ctx.bel[loser]
        factor = m if belote_rules.multiplied else 1
        if own:
            sheet.add(winner, own * factor, "belote.multiplied" if factor > 1 else "belote.value",
                      f"{ctx.belote_note}: the winner's own belote {own}{times if factor > 1 else ''}")
        if lost and loser_fate == "to_winner":
            sheet.add(winner, lost * factor, loser_rule,
                      f"{ctx.belote_note}: the loser's belote {lost} goes to the winner ({loser_rule} {loser_value})"
                      f"{times if factor > 1 else ''}")
        elif lost and loser_fate == "kept":
            sheet.add(loser, lost, loser_rule,
                      f"{ctx.belote_note}: kept by the loser ({loser_rule} {loser_value}), never multiplied")
        elif lost:
            sheet.add(loser, 0, loser_rule, f"{ctx.belote_note}: the loser's belote is lost ({loser_rule} void)")

    def base() -> tuple[int, str]:
        if swept and not (bid_rules.formula in ("points_plus_bid", "flat_forfeits")
                          and bid_rules.multiplier_applies_to == "everything"):
            return bid_rules.capot_base, f"the winner swept: scoring.bid.capot_base {bid_rules.capot_base}"
        return bid_rules.base, f"scoring.bid.base {bid_rules.base}"

    all_announcements = ctx.ann[takers] + ctx.ann[defenders]
    if bid.value in ("capot", "generale") and scoring.capot_bid.mode == "flat":
        flat = scoring.capot_bid.value if bid.value == "capot" else scoring.generale.value
        sheet.add(winner, flat * m, "scoring.capot_bid.value",
                  f"{bid.value} bid {'made' if made else 'down'}: the winner scores {flat}{times} = {flat * m} "
                  f"(scoring.capot_bid.mode flat)")
        belotes()
        return "made" if made else "down"

    formula = bid_rules.formula
    if formula == "flat_forfeits" and not made:
        forfeit = bid_rules.flat_forfeit
        sheet.add(winner, forfeit * m, "scoring.bid.flat_forfeit",
                  f"flat_forfeits, down: the defenders score scoring.bid.flat_forfeit {forfeit}{times} = {forfeit * m}")
        belotes()
        return "down"
    if formula in ("points_plus_bid", "flat_forfeits") and m == 1:
        if made:
            ctx.cards(takers)
            ctx.announcements(takers)
            sheet.add(takers, value, "scoring.bid.formula", f"points_plus_bid, made: the takers add their bid {value}")
            ctx.cards(defenders)
            loser_ann = ctx.ann[defenders]
            if loser_ann and ctx.capot is takers and scoring.capot.loser_announcements == "transfer_to_winner":
                sheet.add(takers, loser_ann, "scoring.capot.loser_announcements",
                          f"the swept defenders' announcements ({loser_ann}) pass to the takers")
            elif loser_ann and ctx.capot is takers and scoring.capot.loser_announcements == "void":
                sheet.add(defenders, 0, "scoring.capot.loser_announcements",
                          f"the swept defenders' announcements ({loser_ann}) are void")
            else:
                ctx.announcements(defenders)
        else:
            sheet.add(takers, 0, "scoring.bid.formula", "points_plus_bid, down: the takers score no card points")
            sheet.add(defenders, bid_rules.base, "scoring.bid.base",
                      f"down: the defenders score scoring.bid.base {bid_rules.base}")
            ctx.announcements(defenders)
            if ctx.ann[takers]:
                if scoring.chute.announcements == "all_to_defenders":
                    sheet.add(defenders, ctx.ann[takers], "scoring.chute.announcements",
                              f"the takers' announcements ({ctx.ann[takers]}) go to the defenders")
                else:
                    sheet.add(takers, 0, "scoring.chute.announcements",
                              f"the takers' announcements ({ctx.ann[takers]}) are lost (defenders_own_only)")
            sheet.add(
                defenders, value, "scoring.bid.formula", f"points_plus_bid, down: the defenders add the bid {value}"
            )
        belotes()
        return "made" if made else "down"

    start, start_text = base()
    if formula in ("points_plus_bid", "flat_forfeits"):
        applies_to = bid_rules.multiplier_applies_to
        if applies_to == "bid_only":
            points = start + all_announcements + value * m
            text = f"{start_text} + announcements {all_announcements} + bid {value}{times}"
        else:
            points = (start + all_announcements + value) * m
            text = f"({start_text} + announcements {all_announcements} + bid {value}){times}"
        rule = "scoring.bid.multiplier_applies_to"
        text = f"{applies_to}: {text} = {points}"
    elif formula == "base_plus_bid":
        points = start + value * m + all_announcements
        rule, text = "scoring.bid.formula", (f"base_plus_bid: {start_text} + bid {value}{times} + announcements "
                                             f"{all_announcements} = {points}")
    else:
        points = value * m
        rule, text = (
            "scoring.bid.formula",
            f"bid_only: bid {value}{times} = {points} (cards and announcements not scored)",
        )
    sheet.add(winner, points, rule, f"{'made' if made else 'down'}, the winner scores {text}")
    sheet.add(loser, 0, "scoring.bid.formula", "the loser of the deal scores no card points")
    belotes()
    return "made" if made else "down"
