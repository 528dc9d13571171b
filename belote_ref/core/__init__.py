"""The core: what every layer uses, and nothing of Belote's rules.

Holds the card notation (:mod:`~belote_ref.core.cards`: cards, suits, seats, teams, card sets),
the errors and their one-line diagnostics (``errors``, ``located``), the immutable records
(``frozen``), the bounded readers of YAML and JSON Lines (``yamlsource``, ``jsonlines``), the
shipped data folders (``resources``), the on-disk cache of checked data (``cache``), the
package's version and build (``version``) and the compiled build's hints (``build_hints``).

May import: the standard library and PyYAML only; no other layer.
"""
