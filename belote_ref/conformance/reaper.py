"""The reaper: kills the adapters' process groups when the runner dies without cleaning up.

The runner starts each adapter in a session of its own and kills the whole group itself on a
restart, at the end, on Ctrl-C and on SIGTERM. Only SIGKILL (or a crash of the interpreter) leaves
no chance to do so; for that case the runner starts this script once, as a separate process, and
tells it on standard input which groups are alive (``+PGID NAME=VALUE`` / ``-PGID`` lines, where
``NAME=VALUE`` is the environment entry that marks every process of that adapter). When its input
ends, which happens however the runner died, it kills every group still listed, and every process
whose environment carries the mark of one of them (a child that left the group with ``setsid``).

It is run by path with ``python -I -S``, so it imports nothing from belote-ref and starts fast.
"""

from __future__ import annotations

import os
import signal
import sys

# Rounds of looking for marked processes: one being killed may have forked just before.
_ROUNDS = 4


def _marked(markers: set[bytes]) -> list[int]:
    """The processes (other than this one) whose starting environment holds one of ``markers``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as stream:
                environment = b"\0" + stream.read()
        except OSError:
            continue
        if any(b"\0" + marker + b"\0" in environment + b"\0" for marker in markers):
            found.append(int(entry))
    return found


def main() -> int:
    """Track process groups from standard input; kill the remaining ones at end of input."""
    # The runner's Ctrl-C reaches this process's terminal group too; the reaper must outlive it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    alive: dict[int, bytes] = {}
    for line in sys.stdin:
        group_text, _, marker = line.strip().partition(" ")
        if len(group_text) < 2 or not group_text[1:].isdigit():
            continue
        group = int(group_text[1:])
        if group_text[0] == "+":
            alive[group] = marker.encode("ascii", "replace")
        elif group_text[0] == "-":
            alive.pop(group, None)
    for group in alive:
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass
    markers = {marker for marker in alive.values() if b"=" in marker}
    for _ in range(_ROUNDS if markers and os.path.isdir("/proc") else 0):
        strays = _marked(markers)
        if not strays:
            break
        for pid in strays:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
