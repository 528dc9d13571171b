"""A deliberately misbehaving protocol adapter for the runner's tests.

    python misbehave.py MODE

Answers like `belote-ref serve`, except that the second `run` request (and, for `rule-bug`,
every legal_plays request) goes wrong in the way MODE says:

    hang        never answers the 2nd run
    exit        exits with status 3 instead of answering the 2nd run
    garbage     prints a line that is not JSON for the 2nd run
    wrong-seq   answers the 2nd run with another seq
    flood       writes 1 MiB to stderr before every answer (all answers right)
    huge-line   answers the 2nd run with a 10 MB line
    rule-bug    plays as if play.partner_master_exception were always false
    ok          behaves
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

# The working tree's engine, whether or not belote-ref is installed in this interpreter.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from belote_ref.protocol import answer  # noqa: E402


def main() -> int:
    mode = sys.argv[1]
    runs = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("cmd") == "stop":
            return 0
        if message.get("cmd") == "run":
            runs += 1
            if mode == "rule-bug":
                message["ruleset"]["parameters"]["play.partner_master_exception"] = False
            if runs == 2:
                if mode == "hang":
                    time.sleep(3600)
                if mode == "exit":
                    return 3
                if mode == "garbage":
                    print("Traceback (most recent call last): oops", flush=True)
                    continue
                if mode == "huge-line":
                    print(json.dumps({"seq": message["seq"], "result": {"legal": ["7S"] * 2_000_000}}), flush=True)
                    continue
        reply = answer(message)
        if mode == "wrong-seq" and runs == 2 and reply is not None:
            reply["seq"] = message["seq"] + 100
        if mode == "flood":
            sys.stderr.write("x" * (1 << 20) + "\n")
            sys.stderr.flush()
        if message.get("cmd") == "hello" and mode == "rule-bug" and reply is not None:
            reply["implementation"]["name"] = "rule-bug"
            reply["supports"]["kinds"] = ["legal_plays"]
        print(json.dumps(reply), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
