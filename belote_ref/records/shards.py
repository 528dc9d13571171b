"""``--jobs N``: work split into shards, run by worker processes, results taken in input order.

Every command that takes ``--jobs`` runs the same code for one job and for many: the work is cut
into shards by a rule that does not depend on the number of jobs (a fixed number of records, a
block of deals, a range of cases), each shard is computed by one function of its inputs alone,
and the results are consumed in the order of the shards. So the output of ``--jobs 4`` is the
output of ``--jobs 1``, byte for byte.

Workers are started with ``spawn`` (a fresh interpreter: no thread nor open adapter of the
parent is copied) by :func:`~belote_ref.records.workers.ordered_map`. At most ``2 x jobs`` shards
are in flight, so that memory stays bounded however long the input; a shard whose worker dies is
run again on a new worker; with one job nothing is started and the shards run in this process.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from belote_ref.core.jsonlines import JsonLineError, read_lines
from belote_ref.engine.simulate import random_deals
from belote_ref.records.record import check_record, describe, entry_of_line, record_of
from belote_ref.records.workers import ordered_map
from belote_ref.rules.ruleset import resolve_ruleset

__all__ = ["RECORDS_PER_SHARD", "block_seed", "check_shard", "ordered_map", "play_block", "record_shards"]

#: Records of a JSON Lines input per shard of ``replay --jobs``.
RECORDS_PER_SHARD = 2000


# ------------------------------------------------------------------------------ replay --jobs

#: One line of JSON Lines input as a shard carries it: its number, and its bytes or the
#: (message, code) of the reason it was refused while reading (a line too long).
ShardLine = tuple[int, bytes | tuple[str, str]]
#: The verdict on one record, as a worker returns it: (verdict, readable, problems, the deal as
#: text or None).
Verdict = tuple[str, bool, list[str], str | None]

_WORKER_RULESETS: dict[str, Any] = {}


def record_shards(stream: Any, size: int = RECORDS_PER_SHARD) -> Iterator[list[ShardLine]]:
    """The lines of a binary JSON Lines ``stream`` in shards of ``size`` lines, read lazily,
    within the limits of :mod:`belote_ref.core.jsonlines`."""

    shard: list[ShardLine] = []
    for number, line in read_lines(stream):
        shard.append((number, (str(line), line.code) if isinstance(line, JsonLineError) else line))
        if len(shard) >= size:
            yield shard
            shard = []
    if shard:
        yield shard


def load_worker_rulesets(references: Sequence[str], search_path: Sequence[str]) -> None:
    """Worker initializer: the house rules of ``replay --ruleset``, by id (a ruleset is rebuilt
    from its reference in each worker rather than sent)."""

    _WORKER_RULESETS.clear()
    for reference in references:
        ruleset = resolve_ruleset(reference, tuple(Path(folder) for folder in search_path))
        _WORKER_RULESETS[ruleset.id] = ruleset


def check_shard(task: tuple[str, list[ShardLine], bool]) -> list[Verdict]:
    """The verdict on every record of one shard of JSON Lines input ``name``, each deal told
    trick by trick too with ``show``. The first record of a shard is always told: when it is the
    only record of the input, ``replay`` shows it, as it does with one job."""

    name, lines, show = task
    verdicts: list[Verdict] = []
    rulesets: Mapping[str, Any] = _WORKER_RULESETS
    for number, raw in lines:
        line = JsonLineError(raw[0], code=raw[1]) if isinstance(raw, tuple) else raw
        entry = entry_of_line(name, number, line)
        if entry is None:
            continue
        check = check_record(entry, rulesets)
        told = show or not verdicts
        text = describe(check.report) if told and check.report is not None else None
        verdicts.append((check.verdict, check.readable, check.problems, text))
    return verdicts


# -------------------------------------------------------------------------------- play --jobs

#: Deals per block of ``play --count``: block 0 is the deals of ``--seed`` itself.
DEALS_PER_BLOCK = 2000


def block_seed(seed: int, block: int) -> int:
    """The seed of block ``block`` of ``play --seed seed``: ``seed`` itself for block 0, so that
    the first :data:`DEALS_PER_BLOCK` deals are those of :func:`~belote_ref.engine.simulate.random_deals`."""
    if block == 0:
        return seed
    digest = hashlib.sha256(f"belote-ref play seed {seed} block {block}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def play_block(task: tuple[str, Sequence[str], int, int, int]) -> str:
    """The JSON lines of one block of ``play``: ``count`` consecutive random deals of
    :func:`~belote_ref.engine.simulate.random_deals` seeded by :func:`block_seed`."""
    import json


    reference, search_path, seed, block, count = task
    rules = resolve_ruleset(reference, tuple(Path(folder) for folder in search_path))
    return "".join(json.dumps(record_of(state), ensure_ascii=False, separators=(",", ":")) + "\n"
                   for state in random_deals(rules, block_seed(seed, block), count))
