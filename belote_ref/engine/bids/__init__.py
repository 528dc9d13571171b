"""The bidding family (``bidding.auction: bids``: coinche and contrée), beside the turned-card family.

Each module pairs with the turned-card module of the same name one folder up:
:mod:`~belote_ref.engine.bids.auction` (bids, coinche, surcoinche; the turned-card auction is in
:mod:`belote_ref.engine.deal`), :mod:`~belote_ref.engine.bids.deal` (the eight-card deal after
the auction, beside :mod:`belote_ref.engine.deal`) and :mod:`~belote_ref.engine.bids.scoring` (the
contract test and the deal score by the ``scoring.bid.*`` formulas, beside
:mod:`belote_ref.engine.scoring`, which hands a deal of this family to it).

May import: the rest of :mod:`belote_ref.engine`, :mod:`belote_ref.rules`, :mod:`belote_ref.core`.
"""
