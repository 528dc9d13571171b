"""Conformance: the corpus of fixtures, and the harness that runs any implementation against it.

Holds the corpus and its checks (``corpus``, ``branches``, ``dependencies``, ``lint``, ``fmt``,
``symmetry``, ``rounding``), the adapters of implementations (``adapter``, ``reaper``), the
runner and what it may send (``runner``, ``applicability``, ``run_jobs``, ``smoke``), the fuzzer
(``fuzz`` and its ``fuzz_*`` parts) and the reports (``report``, ``merge``).

May import: :mod:`belote_ref.protocol` and every layer below it.
"""
