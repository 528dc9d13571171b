"""A protocol adapter that kills the process that started it, for the tests of ``fuzz --jobs``.

    python kills_its_worker.py MARKER DEATHS

Answers with belote-ref's engine; at its first ``run`` message, while MARKER holds fewer than
DEATHS lines, it adds a line to it and kills its parent (a worker of ``--jobs``) with SIGKILL, as
the system does to a process out of memory.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

from _loop import answer, serve


def main() -> int:
    marker, deaths = Path(sys.argv[1]), int(sys.argv[2])
    runs = 0

    def run(message: dict[str, Any]) -> dict[str, Any] | None:
        nonlocal runs
        runs += 1
        if runs == 1:
            killed = len(marker.read_text(encoding="utf-8").splitlines()) if marker.exists() else 0
            if killed < deaths:
                with marker.open("a", encoding="utf-8") as stream:
                    stream.write(f"{os.getppid()}\n")
                os.kill(os.getppid(), signal.SIGKILL)
        return answer(message)

    return serve("kills-its-worker", lambda supports: None, run)


if __name__ == "__main__":
    sys.exit(main())
