"""The machinery of a fuzz run: one adapter kept across batches, the encoding of its ``run``
messages, and the worker processes of ``--jobs``."""

from __future__ import annotations

import json
import multiprocessing
import operator
import queue
import signal
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from belote_ref.conformance.adapter import (
    InProcessAdapter,
    SubprocessAdapter,
    open_adapter,
    terminate_on_sigterm,
)
from belote_ref.core.errors import InternalError

__all__ = ["KeptAdapter", "KeptSubprocessAdapter", "RunEncoder", "WorkerLost", "Workers", "close_adapter",
           "keep_adapter", "report_event"]

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


_EVENTS: Any = None
_SHARD = -1


def report_event(*event: Any) -> None:
    """In a worker: hand ``(kind, shard, *event)`` to the parent (see :meth:`Workers.run`)."""
    if _EVENTS is not None:
        _EVENTS.put((event[0], _SHARD, *event[1:]))


def _worker_main(events: Any, position: int, task: Callable[..., Any], arguments: tuple[Any, ...]) -> None:
    """A worker's life: one task, its events and its result put on ``events``.

    Interrupts are the parent's business: a Ctrl-C reaches every process of the terminal's group,
    and the parent ends its workers itself, so a worker ignores SIGINT (no traceback of its own);
    SIGTERM from the parent ends it through ``finally`` clauses that close its adapter."""
    global _EVENTS, _SHARD  # the task's reports find the queue this way
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _EVENTS, _SHARD = events, position
    try:
        with terminate_on_sigterm():
            result = task(*arguments)
    except SystemExit:
        events.cancel_join_thread()  # told to stop: nobody reads the queue any more
        raise
    except BaseException as error:  # handed to the parent, which raises it
        events.put(("error", position, f"{type(error).__name__}: {error}"))
        return
    events.put(("result", position, result))


@dataclass(frozen=True)
class WorkerLost:
    """The result of a task whose worker died twice: what is known of its death."""

    exitcode: int | None

    def __str__(self) -> str:
        code = self.exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit status {code}"
        return f"its worker died twice ({how})"


RETRIES = 1
"""How many times a task whose worker died is run again before it is reported lost."""

POLL = 0.2
"""Seconds between two looks at the workers while no event arrives."""

STOP_GRACE = 10.0
"""Seconds a worker told to stop (SIGTERM) has to close its adapter before it is killed."""


class Workers:
    """Worker processes for the shards of ``--jobs``: one process per task, watched.

    Workers are started with ``spawn`` (a fresh interpreter: the runner's threads and adapters are
    not copied into them). A worker that dies without a result (killed, out of memory) is never
    waited on: its task is run again once in a new worker, then reported as :class:`WorkerLost`.
    :meth:`close` ends the workers still running (SIGTERM, then SIGKILL after a grace period).
    """

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.context = multiprocessing.get_context("spawn")
        self.events = self.context.Queue()
        self.processes: dict[int, Any] = {}

    def run(self, task: Callable[..., Any], arguments: list[tuple[Any, ...]],
            on_event: Callable[[tuple[Any, ...]], None],
            on_retry: Callable[[int], None] | None = None) -> list[Any]:
        """``task(*arguments[k])`` in worker ``k``; the results in argument order (a
        :class:`WorkerLost` for a task whose worker died twice). Every event a task reports
        (:func:`report_event`) is passed to ``on_event`` as it comes; ``on_retry(k)`` is called
        before task ``k`` is run again. A task's exception is raised here as an InternalError."""
        results: dict[int, Any] = {}
        attempts = dict.fromkeys(range(len(arguments)), 0)
        for position in range(len(arguments)):
            self._start(position, task, arguments[position])
        while len(results) < len(arguments):
            self._take(self._next_event(POLL), results, on_event)
            for position, process in list(self.processes.items()):
                if position in results or process.exitcode is None:
                    continue
                # Its last events may still be in the pipe: read them before calling it dead.
                while position not in results and (event := self._next_event(1.0)) is not None:
                    self._take(event, results, on_event)
                if position in results:
                    continue
                attempts[position] += 1
                if attempts[position] > RETRIES:
                    results[position] = WorkerLost(process.exitcode)
                    continue
                if on_retry is not None:
                    on_retry(position)
                self._start(position, task, arguments[position])
        return [results[position] for position in range(len(arguments))]

    def _start(self, position: int, task: Callable[..., Any], arguments: tuple[Any, ...]) -> None:
        process = self.context.Process(target=_worker_main, args=(self.events, position, task, arguments),
                                       daemon=True)
        process.start()
        self.processes[position] = process

    def _next_event(self, wait: float) -> tuple[Any, ...] | None:
        try:
            event: tuple[Any, ...] = self.events.get(timeout=wait)
            return event
        except queue.Empty:
            return None

    @staticmethod
    def _take(event: tuple[Any, ...] | None, results: dict[int, Any],
              on_event: Callable[[tuple[Any, ...]], None]) -> None:
        if event is None:
            return
        if event[0] == "result":
            results[event[1]] = event[2]
        elif event[0] == "error":
            raise InternalError(f"a fuzz worker failed: {event[2]}")
        else:
            on_event(event)

    def close(self) -> None:
        """End every worker still running and wait for them (bounded)."""
        live = [process for process in self.processes.values() if process.exitcode is None]
        for process in live:
            process.terminate()
        deadline = time.monotonic() + STOP_GRACE
        for process in live:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.exitcode is None:
                process.kill()
                process.join(STOP_GRACE)
        self.events.cancel_join_thread()
        self.events.close()
