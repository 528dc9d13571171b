"""Records of deals: written, read as JSON Lines, checked event by event, and split into shards.

Holds :mod:`~belote_ref.records.record` (the deal record, its reading and replay),
:mod:`~belote_ref.records.random_match` (the records of a random match) and
:mod:`~belote_ref.records.shards` (blocks of records for ``--jobs`` worker processes).

May import: :mod:`belote_ref.engine`, :mod:`belote_ref.rules`, :mod:`belote_ref.core`.
"""
