"""The reaper: kills the adapters' process groups when the runner dies without cleaning up.

The runner starts each adapter in a session of its own and kills the whole group itself on a
restart, at the end, on Ctrl-C and on SIGTERM. Only SIGKILL (or a crash of the interpreter) leaves
no chance to do so; for that case the runner starts this script once, as a separate process, and
tells it on standard input which groups are alive (``+PGID`` / ``-PGID`` lines). When its input
ends, which happens however the runner died, it kills every group still listed.

It is run by path with ``python -I -S``, so it imports nothing from belote-ref and starts fast.
"""

from __future__ import annotations

import os
import signal
import sys


def main() -> int:
    """Track process groups from standard input; kill the remaining ones at end of input."""
    # The runner's Ctrl-C reaches this process's terminal group too; the reaper must outlive it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    alive: set[int] = set()
    for line in sys.stdin:
        text = line.strip()
        if len(text) < 2 or not text[1:].isdigit():
            continue
        group = int(text[1:])
        if text[0] == "+":
            alive.add(group)
        elif text[0] == "-":
            alive.discard(group)
    for group in alive:
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
