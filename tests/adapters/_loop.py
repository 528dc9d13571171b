"""The JSON-lines loop of the test adapters that answer with belote-ref's engine but for one mistake.

mistakes.py and one_point.py import it: they run as ``python tests/adapters/NAME.py``, so that this
folder comes first on ``sys.path``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

# The working tree's engine, whether or not belote-ref is installed in this interpreter.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from belote_ref.protocol.serve import answer, hello

__all__ = ["answer", "serve"]


def serve(name: str, claim: Callable[[dict[str, Any]], None],
          run: Callable[[dict[str, Any]], dict[str, Any] | None]) -> int:
    """Answer messages until ``stop`` or end of input: ``hello`` as the engine's, named ``name``,
    its ``supports`` changed by ``claim``; every other message by ``run``. The exit status."""
    for line in sys.stdin:
        message = json.loads(line)
        command = message.get("cmd")
        if command == "stop":
            return 0
        if command == "hello":
            reply = hello()
            reply["implementation"]["name"] = name
            claim(reply["supports"])
            print(json.dumps(reply), flush=True)
            continue
        print(json.dumps(run(message)), flush=True)
    return 0
