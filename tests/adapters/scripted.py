"""A protocol adapter whose answers follow a script, for the runner's fuzz test.

    python scripted.py BEHAVIOUR,BEHAVIOUR,...

Each `run` request takes the next behaviour of the script (the last one repeats):

    ok         the reference engine's answer
    garbage    a line that is not JSON
    wrong-seq  the answer with another seq
    exit       exits with status 5 without answering
    half       half of the answer, then exits
    hang       never answers
    bad-utf8   a line holding a byte that is not UTF-8
    huge       a 5 MiB line
    spawn      starts a long-lived child (its command line holds "scripted-child"), then answers
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from belote_ref.protocol.serve import answer


def write(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def main() -> int:
    script = sys.argv[1].split(",")
    tag = sys.argv[2] if len(sys.argv) > 2 else "scripted-child"
    runs = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("cmd") == "stop":
            return 0
        if message.get("cmd") != "run":
            write((json.dumps(answer(message)) + "\n").encode())
            continue
        behaviour = script[min(runs, len(script) - 1)]
        runs += 1
        reply = json.dumps(answer(message)).encode()
        if behaviour == "garbage":
            write(b"oops\n")
        elif behaviour == "wrong-seq":
            write(reply.replace(b'"seq": ', b'"seq": 9', 1) + b"\n")
        elif behaviour == "exit":
            return 5
        elif behaviour == "half":
            write(reply[: len(reply) // 2])
            return 0
        elif behaviour == "hang":
            time.sleep(3600)
        elif behaviour == "bad-utf8":
            write(b'{"seq": 1, "result": "\xff"}\n')
        elif behaviour == "huge":
            write(b'{"x": "' + b"a" * (5 << 20) + b'"}\n')
        else:
            if behaviour == "spawn":
                subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", tag])
            write(reply + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
