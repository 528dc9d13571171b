"""The machinery of a fuzz run: one adapter kept across batches, the encoding of its ``run``
messages, and the worker processes of ``--jobs``."""

from __future__ import annotations

import json
import multiprocessing
import operator
import queue
import sys
from collections.abc import Callable, Mapping
from typing import Any

from belote_ref.conformance.adapter import (
    InProcessAdapter,
    SubprocessAdapter,
    open_adapter,
)
from belote_ref.core.errors import InternalError

__all__ = ["KeptAdapter", "KeptSubprocessAdapter", "RunEncoder", "Workers", "close_adapter", "keep_adapter",
           "queue_report"]

_RUN_KEYS = ["cmd", "seq", "kind", "ruleset", "given"]


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class RunEncoder:
    """``run`` messages encoded as :meth:`SubprocessAdapter.send` encodes them, byte for byte, with
    the ruleset's JSON (some 3 kB, every parameter) encoded once per ruleset instead of once per
    message: for a small situation it was most of the parent's work.

    A ruleset is recognised by its id, version and parameter values, the values compared by
    identity (a case's ruleset dict is a fresh copy of the same parameter values), so a ruleset
    of the same id with another value is always encoded anew.
    """

    LIMIT = 256

    def __init__(self) -> None:
        self._rulesets: dict[tuple[Any, Any], tuple[Mapping[str, Any], str]] = {}

    def encode(self, message: Mapping[str, Any]) -> bytes | None:
        """The line for ``message``, or None for a message that is not a plain ``run`` message."""
        if list(message) != _RUN_KEYS or message["cmd"] != "run":
            return None
        seq, ruleset = message["seq"], message["ruleset"]
        if type(seq) is not int or not isinstance(ruleset, Mapping) or list(ruleset) != ["id", "version", "parameters"]:
            return None
        parameters = ruleset["parameters"]
        key = (ruleset["id"], ruleset["version"])
        known = self._rulesets.get(key)
        if known is None or not self._same_values(known[0], parameters):
            if len(self._rulesets) >= self.LIMIT:
                self._rulesets.clear()
            known = self._rulesets[key] = (parameters, _dumps(ruleset))
        return (f'{{"cmd":"run","seq":{seq},"kind":{_dumps(message["kind"])},"ruleset":{known[1]},'
                f'"given":{_dumps(message["given"])}}}\n').encode()

    @staticmethod
    def _same_values(known: Mapping[str, Any], parameters: Any) -> bool:
        return (isinstance(parameters, Mapping) and parameters.keys() == known.keys()
                and all(map(operator.is_, parameters.values(), known.values())))


class KeptSubprocessAdapter(SubprocessAdapter):
    """One adapter process kept across :func:`~belote_ref.conformance.runner.run_cases` calls, its
    ``run`` messages encoded by a :class:`RunEncoder`.

    ``run_cases`` starts its adapter and stops it at the end; a fuzz run calls it for every batch
    and every shrinking step, and restarting ``belote-ref serve`` each time would cost more than
    the cases. ``start`` starts the process only when none is running, ``stop`` leaves it running
    (:meth:`close` ends it), ``kill`` (after a crash or a timeout) really kills it, so the next
    ``start`` is a restart as ``run_cases`` expects.
    """

    def __init__(self, command: str | list[str], timeout: float) -> None:
        super().__init__(command, timeout)
        self.encoder = RunEncoder()
        self.running = False

    def start(self) -> None:
        if not self.running:
            super().start()
            self.running = True

    def stop(self) -> None:
        """Kept running for the next call; see :meth:`close`."""

    def kill(self) -> None:
        super().kill()
        self.running = False

    def close(self) -> None:
        """Stop the process for good (``stop``, then its group killed)."""
        if self.running:
            super().stop()

    def send(self, message: Mapping[str, Any]) -> int:
        data = self.encoder.encode(message)
        # The general path also says why a dead adapter cannot be sent to. An exit not yet seen here
        # (no poll: a system call per message) is seen by the reader, and the reply owed is a crash.
        if data is None or self.process is None or self.process.returncode is not None:
            return super().send(message)
        self._outbox.put(data)
        return len(data)


KeptAdapter = KeptSubprocessAdapter | InProcessAdapter
"""What a fuzz run talks to: a kept subprocess, or an in-process implementation (nothing to keep)."""


def keep_adapter(impl: str | None, timeout: float) -> KeptAdapter:
    """The adapter of ``--impl`` as :func:`~belote_ref.conformance.adapter.open_adapter` makes it
    (None: ``belote-ref serve``), a subprocess one kept running across runs."""
    if impl is not None and impl.startswith("python:"):
        adapter = open_adapter(impl, timeout)
        if not (isinstance(adapter, InProcessAdapter)):
            raise InternalError("broken invariant: isinstance(adapter, InProcessAdapter)")
        return adapter
    return KeptSubprocessAdapter([sys.executable, "-m", "belote_ref.cli", "serve"] if impl is None else impl, timeout)


def close_adapter(adapter: KeptAdapter) -> None:
    """End a kept adapter for good."""
    if isinstance(adapter, KeptSubprocessAdapter):
        adapter.close()
    else:
        adapter.stop()


_PROGRESS_QUEUE: Any = None


def _init_worker(progress_queue: Any) -> None:
    global _PROGRESS_QUEUE  # noqa: PLW0603 - a pool worker's initializer hands it the queue this way
    _PROGRESS_QUEUE = progress_queue


def queue_report(situations: int, disagreements: int) -> None:
    if _PROGRESS_QUEUE is not None:
        _PROGRESS_QUEUE.put((situations, disagreements))


class Workers:
    """A pool of ``jobs`` worker processes, used for both phases of a run (sending, shrinking).

    Workers are started with ``spawn`` (a fresh interpreter: the runner's threads and adapters are
    not copied into them). If this process is interrupted, the pool is terminated, and the
    adapters' process groups are killed by the reaper.
    """

    def __init__(self, jobs: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.progress_queue = context.Queue()
        self.pool = context.Pool(jobs, initializer=_init_worker, initargs=(self.progress_queue,))

    def map(self, task: Callable[..., Any], arguments: list[tuple[Any, ...]],
            progress: Callable[[int, int], None]) -> list[Any]:
        """``task`` on each argument tuple, results in argument order; progress passed on meanwhile."""
        pending = [self.pool.apply_async(task, args) for args in arguments]
        while not all(p.ready() for p in pending):
            self._relay(progress, 0.2)
        results = [p.get() for p in pending]
        self._relay(progress, 0)
        return results

    def _relay(self, progress: Callable[[int, int], None], wait: float) -> None:
        try:
            progress(*(self.progress_queue.get(timeout=wait) if wait else self.progress_queue.get_nowait()))
            while True:
                progress(*self.progress_queue.get_nowait())
        except queue.Empty:
            pass

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()
