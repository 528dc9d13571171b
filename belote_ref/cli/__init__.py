"""The command line, one module per verb group.

Holds: :mod:`~belote_ref.cli.main` (the parser, the verb table :data:`~belote_ref.cli.main.VERBS`
and the error handling), :mod:`~belote_ref.cli.options` (what the verbs share) and a module per
group of verbs (``rules_verbs``, ``play_verbs``, ``conformance_verbs``, ``serve_verb``,
``docs_verbs``).

May import: every other layer. Nothing imports it but the ``belote-ref`` script.
"""

from belote_ref.cli.main import main

__all__ = ["main"]
