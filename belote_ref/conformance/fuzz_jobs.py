"""The machinery of a fuzz run: one adapter kept across batches, and the worker processes of ``--jobs``."""

from __future__ import annotations

import multiprocessing
import queue
from collections.abc import Callable, Mapping
from typing import Any

from belote_ref.conformance.adapter import InProcessAdapter, SubprocessAdapter, open_adapter

__all__ = ["KeptAdapter", "Workers", "queue_report"]


class KeptAdapter:
    """One adapter process kept across :func:`run_cases` calls.

    ``run_cases`` starts its adapter and stops it at the end; a fuzz run calls it for every batch
    and every shrinking step, and restarting ``belote-ref serve`` each time would cost more than
    the cases. ``start`` starts the process only when none is running, ``stop`` leaves it running
    (:meth:`close` ends it), ``kill`` (after a crash or a timeout) really kills it, so the next
    ``start`` is a restart as ``run_cases`` expects.
    """

    def __init__(self, impl: str | None, timeout: float) -> None:
        self.inner: SubprocessAdapter | InProcessAdapter = open_adapter(impl, timeout)
        self.running = False

    def start(self) -> None:
        if not self.running:
            self.inner.start()
            self.running = True

    def request(self, message: Mapping[str, Any], timeout: float | None = None) -> Any:
        return self.inner.request(message, timeout)

    def send(self, message: Mapping[str, Any]) -> int:
        return self.inner.send(message)

    def receive(self, timeout: float | None = None) -> dict[str, Any]:
        return self.inner.receive(timeout)

    def stderr_tail(self, lines: int = 5, limit: int = 500) -> str:
        return self.inner.stderr_tail(lines, limit)

    def stop(self) -> None:
        """Kept running for the next call; see :meth:`close`."""

    def kill(self) -> None:
        self.inner.kill()
        self.running = False

    def close(self) -> None:
        if self.running:
            self.inner.stop()
            self.running = False


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
