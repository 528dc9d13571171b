"""``belote-ref serve``: the reference engine as a protocol adapter on standard input and output."""

from __future__ import annotations

import argparse
import sys

from belote_ref.core.jsonlines import binary_input
from belote_ref.protocol.hello import reply_to_first_hello

TYPE_CHECKING = False  # `typing` is not imported before hello is answered (belote_ref/core/frozen.py says why)
if TYPE_CHECKING:
    from typing import IO, Any


def cmd_serve(args: argparse.Namespace) -> int:
    # The runner waits for the reply to hello before it sends a case: answer it before the engine
    # is imported. Any other first line goes to the protocol loop as it was read.
    source = binary_input(sys.stdin)
    reply, first = reply_to_first_hello(source)
    if reply is not None:
        sys.stdout.flush()
        sys.stdout.buffer.write(reply)
        sys.stdout.buffer.flush()
    from typing import cast

    from belote_ref.protocol.serve import serve

    return serve(cast("IO[bytes]", _Prefixed(first, source)) if first else source)


class _Prefixed:
    """A binary stream read a line at a time whose first bytes are ``prefix`` (what was read of the
    first line), then those of ``stream``: all :func:`~belote_ref.core.jsonlines.read_lines` needs."""

    def __init__(self, prefix: bytes, stream: Any) -> None:
        self.prefix, self.stream = prefix, stream

    def readline(self, size: int = -1) -> bytes:
        if not self.prefix:
            return self.stream.readline(size)  # type: ignore[no-any-return]
        cut = len(self.prefix) if size < 0 else size
        line, self.prefix = self.prefix[:cut], self.prefix[cut:]
        return line
