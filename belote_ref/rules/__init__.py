"""The rules as data: the registry of parameters, the rulesets, and what they compile to.

Holds the registry (:mod:`~belote_ref.rules.registry`, read through the cache by
``registry_data``), the predicates of ``applies_when`` and of fixtures (``predicates``), the
rulesets and their compilation into lookup tables (:mod:`~belote_ref.rules.ruleset`, with
``resolve_ruleset`` for an id or a house rule's file), the legal-play tables (``playtables``) and
the typed view of every parameter (``ruleview``, generated from the registry by
``ruleview_generator``).

A rule's code is found from its registry key: the area before the dot names the engine module
that plays it (``play.*`` in :mod:`belote_ref.engine.play`, ``announcements.*`` and ``belote.*``
in ``engine.announcements``, ``scoring.*`` in ``engine.scoring``, ``auction.*`` and
``scoring.bid.*`` in ``engine.bids``, ``deal.*`` in ``engine.dealing``, ``game.*`` in
``engine.match``).

May import: :mod:`belote_ref.core`.
"""
