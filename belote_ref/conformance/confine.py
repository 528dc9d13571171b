"""Finding and ending every process an adapter started, even one that left its process group.

Killing an adapter's process group ends what stays in it, but a child that calls ``setsid`` (or is
started in a new session) is in a group of its own: it outlives the run and, holding the adapter's
pipes open, keeps the runner waiting for an end of output that never comes. So, on Linux:

- the runner makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): a process
  orphaned below it is reparented to the runner rather than to init, where it can be found;
- each adapter is started with :data:`TAG_VARIABLE` in its environment, a value of its own, which
  its descendants inherit;
- :func:`end_confined` ends the adapter's descendants still attached to it (``/proc/PID/task/*/
  children``, walked down) and the runner's own children whose environment carries the adapter's
  tag (the orphans), and reaps what it killed: being the subreaper, the runner inherits every
  orphan of the adapter, dead ones too, and must collect them or keep them as zombies.

A descendant that both clears its environment and leaves its parent escapes, as it would any
runner; elsewhere than Linux only the process group is killed. Nothing here raises: a process that
is already gone, or a ``/proc`` that cannot be read, is simply not found.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from itertools import count

__all__ = ["TAG_VARIABLE", "become_subreaper", "descendants", "end_confined", "new_tag"]

#: The environment variable that marks an adapter's processes; its value names one adapter start.
TAG_VARIABLE = "BELOTE_REF_ADAPTER_TAG"
# prctl option from <linux/prctl.h>.
_PR_SET_CHILD_SUBREAPER = 36
# Rounds of looking again for orphans: a process being killed may have forked just before.
_ROUNDS = 4
# How long the exit of the processes killed is awaited, in the background, to reap them; and how
# often they are looked at meanwhile. A SIGKILLed process dies in milliseconds unless stuck in the
# kernel; the generous bound is for a loaded machine.
_REAP_WITHIN = 30.0
_REAP_EVERY = 0.05

_serial = count(1)
_subreaper_lock = threading.Lock()
_subreaper: list[bool] = []  # empty until tried; then [whether it worked]


def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux only; tried once). Whether it is."""
    with _subreaper_lock:
        if not _subreaper:
            _subreaper.append(_set_subreaper())
        return _subreaper[0]


def _set_subreaper() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def new_tag() -> str:
    """A value of :data:`TAG_VARIABLE` for one adapter start: unique to this process and start."""
    return f"{os.getpid()}-{next(_serial)}-{os.urandom(4).hex()}"


def _children(pid: int) -> list[int]:
    """The live children of ``pid`` (of each of its threads), from ``/proc``; [] when unreadable."""
    found: list[int] = []
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for thread in threads:
        try:
            with open(f"/proc/{pid}/task/{thread}/children", "rb") as stream:
                found.extend(int(token) for token in stream.read().split())
        except (OSError, ValueError):
            continue
    return found


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children, their children ...), as ``/proc`` shows them now."""
    found: list[int] = []
    seen = {pid}
    frontier = [pid]
    while frontier:
        for child in _children(frontier.pop()):
            if child not in seen:
                seen.add(child)
                found.append(child)
                frontier.append(child)
    return found


def _carries(pid: int, marker: bytes) -> bool:
    """Whether the environment ``pid`` was started with holds ``marker`` (a whole ``NAME=value``)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as stream:
            environment = stream.read()
    except OSError:
        return False
    return environment.startswith(marker) or b"\0" + marker in environment


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def _reap(pids: set[int]) -> None:
    """Collect, in the background, the exit status of each of ``pids`` that becomes a child of this
    process (an orphan of a killed adapter, reparented here): killed processes take a moment to die
    and to be reparented, and the runner need not wait for them. A pid is given up when it no longer
    exists (its live parent reaped it) or after :data:`_REAP_WITHIN` seconds."""
    def collect() -> None:
        waiting = set(pids)
        deadline = time.monotonic() + _REAP_WITHIN
        while waiting and time.monotonic() < deadline:
            for pid in list(waiting):
                try:
                    if os.waitpid(pid, os.WNOHANG)[0] == pid:
                        waiting.discard(pid)
                except ChildProcessError:  # not (yet) this process's child
                    if not os.path.exists(f"/proc/{pid}"):
                        waiting.discard(pid)
                except OSError:
                    waiting.discard(pid)
            if waiting:
                time.sleep(_REAP_EVERY)

    if pids:
        threading.Thread(target=collect, name="reap-orphans", daemon=True).start()


def end_confined(adapter: int, tag: str, attached: list[int]) -> None:
    """SIGKILL ``attached`` (the descendants of the process ``adapter``, listed before its group was
    killed) and every orphan carrying ``tag`` reparented to this process, with their descendants;
    then reap them all as they become this process's children. The ``adapter`` itself is left to
    its :class:`subprocess.Popen`, which reaps it and reports its exit status."""
    killed = set(attached)
    killed.discard(adapter)
    for pid in attached:
        _kill(pid)
    marker = f"{TAG_VARIABLE}={tag}".encode()
    for _ in range(_ROUNDS if tag else 0):
        orphans = [pid for pid in _children(os.getpid())
                   if pid != adapter and pid not in killed and _carries(pid, marker)]
        if not orphans:
            break
        for orphan in orphans:
            below = descendants(orphan)
            _kill(orphan)
            for pid in below:
                _kill(pid)
            killed.add(orphan)
            killed.update(below)
    _reap(killed)
