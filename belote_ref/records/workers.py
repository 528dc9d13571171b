"""The worker processes of ``--jobs``: tasks run in spawned processes, results taken in input
order, a dead worker's task run again once, and quiet interrupts.

Each worker holds at most one task at a time, sent on a pipe of its own, so the parent always
knows which task a worker held: when a worker dies (killed, out of memory, a crash of the
interpreter), that task is given to a fresh worker once more, and if it is lost again it is
settled by the caller's ``on_lost`` or raised as :class:`WorkerLostError`. Nothing is ever awaited
from a process that is gone: the parent waits on the pipes and the processes' sentinels together.

Workers ignore SIGINT (a Ctrl-C reaches the terminal's whole process group, and the parent ends
its workers itself) and leave on SIGTERM through :class:`SystemExit`, so that the ``finally``
clauses of a task (an adapter's process group killed) run and no traceback is printed.
"""

from __future__ import annotations

import multiprocessing
import pickle
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from belote_ref.core.errors import BeloteRefError, InternalError

__all__ = ["RETRIES", "WorkerLostError", "ordered_map"]

Item = TypeVar("Item")
Result = TypeVar("Result")

#: How many times a task whose worker died is given to another worker before it is lost.
RETRIES = 1
# How long a worker told to stop (or terminated) may take to leave before it is killed.
_LEAVE_SECONDS = 10.0


class WorkerLostError(BeloteRefError):
    """A task's worker process died on each of its tries."""

    code = "worker_lost"


def _leave_on_sigterm(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def _portable(error: Exception) -> Exception:
    """``error`` if it survives the pipe, else its type and message in an error that does."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        if isinstance(error, BeloteRefError):
            return BeloteRefError(str(error), code=error.code)
        return InternalError(f"a worker failed: {type(error).__name__}: {error}")
    return error


def _worker_main(conn: Connection, task: Callable[[Any], Any], initializer: Callable[..., None] | None,
                 initargs: Sequence[Any]) -> None:
    """A worker's loop: ``(number, item)`` in, ``(number, ok, result or error)`` out, until None."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _leave_on_sigterm)
    broken: Exception | None = None
    if initializer is not None:
        try:
            initializer(*initargs)
        except Exception as error:  # every task is answered with it, rather than a dying worker
            broken = _portable(error)
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        number, item = message
        try:
            if broken is not None:
                raise broken
            answer = (number, True, task(item))
        except Exception as error:
            answer = (number, False, _portable(error))
        try:
            conn.send(answer)
        except OSError:  # the parent is gone
            return


def _ending(exitcode: int | None) -> str:
    if exitcode is None:
        return "its pipe closed, the process still running"
    if exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"


class _Worker:
    """One worker process, its end of the pipe, and the number of the task it holds."""

    def __init__(self, context: Any, task: Callable[[Any], Any], initializer: Callable[..., None] | None,
                 initargs: Sequence[Any]) -> None:
        self.conn, child = multiprocessing.Pipe()
        self.process = context.Process(target=_worker_main, args=(child, task, initializer, tuple(initargs)),
                                       daemon=True)
        self.process.start()
        child.close()
        self.holding: int | None = None

    def end(self, *, force: bool) -> None:
        """Stop the worker: told to leave when idle, terminated (SIGTERM) when ``force`` or busy;
        killed if it has not left in time."""
        if self.process.is_alive() and self.holding is None and not force:
            try:
                self.conn.send(None)
            except OSError:
                pass
        else:
            self.process.terminate()
        self.process.join(_LEAVE_SECONDS)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def ordered_map(task: Callable[[Item], Result], items: Iterable[Item], jobs: int,
                initializer: Callable[..., None] | None = None, initargs: Sequence[Any] = (),
                on_lost: Callable[[Item, str], Result] | None = None) -> Iterator[Result]:
    """``task(item)`` for each item, in the order of ``items``, on ``jobs`` worker processes.

    ``items`` is read lazily, at most ``2 x jobs`` tasks ahead of the results taken. With
    ``jobs == 1`` the tasks run here, one after the other (``initializer`` first). A task's
    exception is raised here, in its turn. A task whose worker died is run again on a new worker
    (:data:`RETRIES` times); lost again, it is ``on_lost(item, why)``, or without ``on_lost`` a
    :class:`WorkerLostError`. The workers are ended when the iterator is closed or this process is
    interrupted.
    """
    if jobs <= 1:
        if initializer is not None:
            initializer(*initargs)
        yield from map(task, items)
        return
    context = multiprocessing.get_context("spawn")

    def start() -> _Worker:
        return _Worker(context, task, initializer, initargs)

    workers = [start() for _ in range(jobs)]
    source = iter(items)
    read = taken = 0
    exhausted = False
    held: dict[int, Item] = {}  # sent to a worker, not answered
    retry: deque[int] = deque()
    answers: dict[int, tuple[bool, Any]] = {}
    tries: dict[int, int] = {}
    interrupted = True

    def lose(index: int, number: int) -> None:
        worker = workers[index]
        worker.process.join(_LEAVE_SECONDS)  # its pipe may close a moment before it is reaped
        why = f"worker process {worker.process.pid} died ({_ending(worker.process.exitcode)})"
        worker.end(force=True)
        workers[index] = start()
        tries[number] = tries.get(number, 0) + 1
        if tries[number] <= RETRIES:
            retry.appendleft(number)
        elif on_lost is not None:
            answers[number] = (True, on_lost(held.pop(number), why))
        else:
            held.pop(number)
            answers[number] = (False, WorkerLostError(f"--jobs: task {number + 1} was lost: {why}, "
                                                      f"{tries[number]} times"))

    try:
        while True:
            for index, worker in enumerate(workers):
                if worker.holding is not None:
                    continue
                if retry:
                    number = retry.popleft()
                elif not exhausted and len(held) + len(answers) < 2 * jobs:
                    try:
                        held[read] = next(source)
                    except StopIteration:
                        exhausted = True
                        continue
                    number, read = read, read + 1
                else:
                    continue
                try:
                    worker.conn.send((number, held[number]))
                except OSError:  # it died idle: the task goes to its successor, no try counted
                    retry.appendleft(number)
                    worker.end(force=True)
                    workers[index] = start()
                    continue
                worker.holding = number
            while taken in answers:
                ok, value = answers.pop(taken)
                taken += 1
                if not ok:
                    raise value
                yield value
            busy = [index for index, worker in enumerate(workers) if worker.holding is not None]
            if not busy:
                if exhausted and not retry and not held:
                    interrupted = False
                    return
                continue
            ready = set(wait([handle for index in busy
                              for handle in (workers[index].conn, workers[index].process.sentinel)]))
            for index in busy:
                worker = workers[index]
                if worker.holding is None:
                    continue
                number = worker.holding
                if worker.conn in ready or worker.conn.poll():
                    try:
                        answered, ok, value = worker.conn.recv()
                    except (EOFError, OSError):
                        lose(index, number)
                        continue
                    if answered != number:
                        raise InternalError(f"broken invariant: worker answered task {answered}, not {number}")
                    worker.holding = None
                    held.pop(number)
                    answers[number] = (ok, value)
                elif worker.process.sentinel in ready:
                    lose(index, number)
    finally:
        for worker in workers:
            worker.end(force=interrupted)
