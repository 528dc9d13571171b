"""Random matches as records: the deals of one match played out at random, one record at a time,
each with the match's running totals (``belote-ref play --match``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from belote_ref.core.cards import Seat
from belote_ref.core.errors import BeloteRefError
from belote_ref.engine.deal import Phase
from belote_ref.engine.match import Match
from belote_ref.engine.simulate import random_deal
from belote_ref.records.record import record_of
from belote_ref.rules.ruleset import Ruleset

__all__ = ["match_records"]


def match_records(rules: Ruleset, seed: int, max_deals: int, outcome: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The records of one random match, one deal at a time; ``outcome`` receives the totals."""
    match = Match(rules)
    rng = random.Random(seed)
    dealer = Seat(rng.randrange(4))
    deals = 0
    while not match.ended and deals < max_deals:
        state = random_deal(rules, rng, dealer=dealer, pot=match.pot)
        record = record_of(state)
        if state.phase is Phase.REDEAL:
            match.pass_deal()
            if state.next_dealer is None:
                raise BeloteRefError("a redeal without a next dealer", code="internal")
            dealer = state.next_dealer
        else:
            if state.taker is None or state.trump is None:
                raise BeloteRefError("a played deal without a taker", code="internal")
            score = match.play_deal(dealer=state.dealer, taker=state.taker, trump=state.trump,
                                    tricks=state.tricks, belote=state.belote, announcements=state.declarations,
                                    bid=getattr(state, "bid", None))
            if score != state.score:
                record["final_deal"] = True
            record["result"] = score.to_json()
            dealer = dealer.next
        deals += 1
        record["match"] = {"deal": deals, "totals": {t.value: v for t, v in match.totals.items()}}
        yield record
    winner = match.winner.value if match.winner is not None else ("draw" if match.ended else "unfinished")
    outcome.update(deals=deals, totals=dict(match.totals), winner=winner)

