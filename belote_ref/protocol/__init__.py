"""The protocol: the reference engine as an adapter speaking JSON lines (``belote-ref serve``).

Holds :mod:`~belote_ref.protocol.hello` (the reply to ``hello``, answered from the cache before
the engine loads) and :mod:`~belote_ref.protocol.serve` (every kind of case answered by the
engine, and the message loop).

May import: :mod:`belote_ref.records`, :mod:`belote_ref.engine`, :mod:`belote_ref.rules`,
:mod:`belote_ref.core`.
"""
