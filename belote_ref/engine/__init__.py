"""The engine: Belote played and scored under a compiled ruleset, never under a ruleset's name.

Holds the play of a trick (:mod:`~belote_ref.engine.play`), announcements and belote
(``announcements``), the deal's cutting and packets (``dealing``), the deal of the turned-card
family with its auction (``deal``), its scoring (``scoring``, writing on the ``score_sheet``
both families share), matches (``match``) and random deals (``simulate``). The bidding family
(``bidding.auction: bids``: coinche, contrée) is the subpackage :mod:`belote_ref.engine.bids`,
whose modules pair with these by name.

May import: :mod:`belote_ref.rules` and :mod:`belote_ref.core`; never conformance, the site or
the command line (an import-linter contract in ``pyproject.toml``).
"""
