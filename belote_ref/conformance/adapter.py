"""Talking to an implementation under test: a subprocess speaking JSON lines, or a Python object.

The runner never trusts the other side. For a subprocess adapter:

- it runs in a session (process group) of its own, and the whole group is killed on a restart,
  at the end of a run, on Ctrl-C or SIGTERM, and, through the :mod:`reaper
  <belote_ref.conformance.reaper>`, even when the runner itself is killed; so is every process it
  started in a session of its own (:mod:`~belote_ref.conformance.confine`);
- an adapter that exits is seen to exit even when a process it left behind holds its output
  open: the reply it owes is then a crash, not a wait for an end of output that never comes;
- standard output is read in large chunks by a thread and split on ``\\n``; a line longer than
  :data:`MAX_LINE` is refused and the rest of it drained, never kept;
- requests are written by a thread of their own, so a adapter that stops reading can never block
  the runner: the reply it owes simply times out;
- replies are decoded with the bounds of :mod:`belote_ref.core.jsonlines` (:func:`decode_reply`);
- standard error is drained as fast as the adapter writes it; the last :data:`STDERR_TAIL` bytes
  are kept for messages and, when asked, the first :data:`STDERR_LOG_LIMIT` bytes written to a file.

Every way the adapter can go wrong ends in an :class:`AdapterFailure` naming what happened.
"""

from __future__ import annotations

import importlib
import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Literal

from belote_ref.conformance.confine import TAG_VARIABLE, become_subreaper, descendants, end_confined, new_tag
from belote_ref.core.errors import InternalError
from belote_ref.core.jsonlines import JsonLineError, decode_json_line

__all__ = [
    "MAX_LINE",
    "AdapterFailure",
    "InProcessAdapter",
    "SubprocessAdapter",
    "decode_reply",
    "open_adapter",
    "terminate_on_sigterm",
]

MAX_LINE = 4 * 1024 * 1024
STDERR_TAIL = 16 * 1024
STDERR_LOG_LIMIT = 8 * 1024 * 1024
#: How long an adapter that closed its output is given to report its exit status.
EXIT_STATUS_WAIT = 2.0
#: How long the end of an exited adapter's standard error is awaited (generous, for a loaded machine).
STDERR_END_WAIT = 5.0
# While a reply is awaited, how often the adapter is checked for having exited: its output may be
# held open by a process it left behind, so the end of output cannot be relied on to say so.
_EXIT_CHECK_EVERY = 0.1
_CHUNK = 1 << 16
_EOF = object()


class AdapterFailure(Exception):
    """The adapter broke the protocol. ``outcome`` is ``crash`` or ``timeout``; ``reason`` says what happened."""

    def __init__(self, outcome: Literal["crash", "timeout"], reason: str) -> None:
        super().__init__(reason)
        self.outcome = outcome
        self.reason = reason


# ------------------------------------------------------------------------------------- replies


def decode_reply(line: bytes) -> dict[str, Any]:
    """Decode one reply line with the bounds of :mod:`belote_ref.core.jsonlines` (UTF-8, nesting,
    number size, no duplicate key), up to :data:`MAX_LINE` bytes; it must be a JSON object.

    Raises :class:`AdapterFailure` (``crash``) saying what is wrong with it.
    """
    try:
        reply = decode_json_line(line, MAX_LINE)
    except JsonLineError as error:
        text = line[:60].decode("utf-8", "replace")
        preview = text + ("..." if len(line) > 60 else "")
        raise AdapterFailure("crash", f"the reply is {error}: {preview!r}") from None
    if not isinstance(reply, dict):
        raise AdapterFailure("crash", f"the reply is not a JSON object: {line[:60].decode('utf-8', 'replace')!r}")
    return reply


# ------------------------------------------------------------------------------------- processes


class _Reaper:
    """The one :mod:`~belote_ref.conformance.reaper` process of this runner, started on first use."""

    _lock = threading.Lock()
    _process: subprocess.Popen[bytes] | None = None

    @classmethod
    def _tell(cls, line: str) -> None:
        with cls._lock:
            if cls._process is None or cls._process.poll() is not None:
                script = Path(__file__).with_name("reaper.py")
                try:
                    cls._process = subprocess.Popen([sys.executable, "-I", "-S", str(script)], stdin=subprocess.PIPE,
                                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                                    start_new_session=True)
                except OSError:
                    cls._process = None
                    return
            if cls._process.stdin is None:
                raise InternalError("broken invariant: cls._process.stdin is not None")
            try:
                cls._process.stdin.write(line.encode("ascii"))
                cls._process.stdin.flush()
            except OSError:
                pass

    @classmethod
    def watch(cls, group: int, tag: str) -> None:
        """Kill ``group``, and every process whose environment carries ``tag``
        (:data:`~belote_ref.conformance.confine.TAG_VARIABLE`), if this runner dies before
        :meth:`release` is called."""
        cls._tell(f"+{group} {TAG_VARIABLE}={tag}\n")

    @classmethod
    def release(cls, group: int) -> None:
        """``group`` is gone: forget it."""
        cls._tell(f"-{group}\n")


def kill_group(group: int) -> None:
    """SIGKILL every process of ``group``; no error if it is already gone."""
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass


_LIVE_GROUPS: set[int] = set()


@contextmanager
def terminate_on_sigterm() -> Iterator[None]:
    """Within this block SIGTERM raises :class:`SystemExit` (status 143), so that the ``finally``
    clauses that kill the adapters' groups run when the runner is told to terminate."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def raise_exit(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, raise_exit)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
        for group in list(_LIVE_GROUPS):
            kill_group(group)


class SubprocessAdapter:
    """An implementation's adapter started as a subprocess (``command`` is split like a shell would).

    ``stderr_log``: a file to which the adapter's standard error is appended (bounded at
    :data:`STDERR_LOG_LIMIT` bytes per adapter process).
    """

    def __init__(self, command: str | list[str], timeout: float, stderr_log: Path | None = None) -> None:
        if isinstance(command, str):
            try:
                self.argv = shlex.split(command)
            except ValueError as error:
                raise AdapterFailure("crash", f"cannot split the command {command!r}: {error}") from None
        else:
            self.argv = list(command)
        if not self.argv:
            raise AdapterFailure("crash", "the adapter command is empty")
        self.timeout = timeout
        self.stderr_log = stderr_log
        self.process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._stderr = bytearray()
        self._stderr_lock = threading.Lock()
        self._stderr_done = threading.Event()  # set while no drainer runs: nothing to await
        self._stderr_done.set()
        self._closing = threading.Event()
        self._tag = ""
        self.description = " ".join(shlex.quote(a) for a in self.argv)

    def start(self) -> None:
        """Start the process in its own session and the threads that read and write its pipes."""
        become_subreaper()  # before the start: an orphan of the adapter then comes to this process
        self._tag = new_tag()
        try:
            self.process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                env={**os.environ, "PYTHONUNBUFFERED": "1", TAG_VARIABLE: self._tag}, start_new_session=True,
            )
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            raise AdapterFailure("crash", f"cannot start {self.description}: {reason}") from None
        _LIVE_GROUPS.add(self.process.pid)
        _Reaper.watch(self.process.pid, self._tag)
        self._lines = queue.Queue()
        self._outbox = queue.Queue()
        self._closing = threading.Event()
        with self._stderr_lock:
            self._stderr = bytearray()
        if self.process.stdout is None or self.process.stderr is None or self.process.stdin is None:
            raise InternalError("broken invariant: the adapter process has no pipes")
        threading.Thread(
            target=_read_lines, args=(self.process.stdout, self._lines, self._closing), daemon=True
        ).start()
        self._stderr_done = threading.Event()  # set by the drainer at the pipe's end
        threading.Thread(target=self._drain_stderr, args=(self.process.stderr,), daemon=True).start()
        threading.Thread(target=_write_messages, args=(self.process.stdin, self._outbox), daemon=True).start()

    def _open_log(self) -> IO[bytes] | None:
        """The stderr log, opened for appending when the adapter first writes to standard error."""
        if self.stderr_log is None:
            return None
        try:
            log = open(self.stderr_log, "ab")  # noqa: SIM115 - closed by the draining thread
        except OSError:
            return None
        log.write(f"--- {self.description} (pid {self.process.pid if self.process else '?'})\n".encode())
        return log

    def _drain_stderr(self, stream: IO[bytes]) -> None:
        log: IO[bytes] | None = None
        written = 0
        try:
            while chunk := os.read(stream.fileno(), _CHUNK):
                with self._stderr_lock:
                    self._stderr += chunk
                    if len(self._stderr) > 2 * STDERR_TAIL:
                        del self._stderr[:-STDERR_TAIL]
                if written == 0 and log is None:
                    log = self._open_log()
                if log is not None and written < STDERR_LOG_LIMIT:
                    piece = chunk[: STDERR_LOG_LIMIT - written]
                    log.write(piece)
                    written += len(piece)
                    if written >= STDERR_LOG_LIMIT:
                        log.write(f"\n--- truncated after {STDERR_LOG_LIMIT} bytes\n".encode())
        except (OSError, ValueError):
            pass
        finally:
            stream.close()
            if log is not None:
                log.close()
            self._stderr_done.set()

    def stderr_tail(self, lines: int = 5, limit: int = 500) -> str:
        """The last ``lines`` lines the adapter wrote to standard error, joined by `` | `` so that a
        message quoting them stays on one line, at most ``limit`` characters.

        When the adapter has exited or was killed, its last words may still be in the pipe: they
        are awaited until the pipe's end, for at most :data:`STDERR_END_WAIT` seconds (a child of
        the adapter may hold the pipe open)."""
        if self.process is None or self.process.poll() is not None:
            self._stderr_done.wait(STDERR_END_WAIT)
        with self._stderr_lock:
            data = bytes(self._stderr[-STDERR_TAIL:])
        text = data.decode("utf-8", "replace").rstrip()
        tail = " | ".join(line.strip() for line in text.splitlines()[-lines:] if line.strip())
        return tail if len(tail) <= limit else "..." + tail[-limit:]

    def request(self, message: Mapping[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Send ``message`` and return the decoded reply.

        Raises :class:`AdapterFailure` on a timeout, end of output, a non-JSON or over-long line.
        """
        self.send(message)
        return self.receive(timeout)

    def send(self, message: Mapping[str, Any]) -> int:
        """Queue one message for the writer thread; return its size in bytes.

        Never blocks. Raises :class:`AdapterFailure` if the adapter has already exited.
        """
        if self.process is None or self.process.poll() is not None:
            code = self.process.returncode if self.process else None
            raise AdapterFailure("crash", f"the adapter exited (exit code {code}) before this request")
        data = (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
        self._outbox.put(data)
        return len(data)

    def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next reply line, decoded. Raises :class:`AdapterFailure` as :meth:`request` does."""
        if self.process is None:
            raise InternalError("broken invariant: self.process is not None")
        wait = timeout if timeout is not None else self.timeout
        item = self._next_line(wait)
        if item is _EOF:
            try:
                # The output is closed; give an exiting process time to report its status (a
                # loaded machine may take a while to reap it).
                self.process.wait(timeout=min(wait, EXIT_STATUS_WAIT))
            except subprocess.TimeoutExpired:
                pass
            code = self.process.returncode
            how = f"exited (exit code {code})" if code is not None else "closed its output"
            raise AdapterFailure("crash", f"the adapter {how} without replying")
        if isinstance(item, AdapterFailure):
            raise item
        if not isinstance(item, bytes):
            raise InternalError("broken invariant: isinstance(item, bytes)")
        return decode_reply(item)

    def _next_line(self, wait: float) -> object:
        """The next item from the output reader within ``wait`` seconds, or :data:`_EOF` once the
        adapter has exited and what it wrote has had :data:`EXIT_STATUS_WAIT` seconds to arrive.

        Raises :class:`AdapterFailure` (``timeout``) when nothing came in time from an adapter that
        is still running."""
        if self.process is None:
            raise InternalError("broken invariant: self.process is not None")
        now = time.monotonic()
        deadline = now + wait
        exited_by: float | None = None  # once it has exited: when to stop waiting for its last words
        while True:
            until = exited_by if exited_by is not None else min(deadline, now + _EXIT_CHECK_EVERY)
            try:
                return self._lines.get(timeout=max(0.0, until - now))
            except queue.Empty:
                pass
            now = time.monotonic()
            if exited_by is not None:
                return _EOF
            if self.process.poll() is not None:
                # What it wrote is in the pipe already; a process it left behind may keep the pipe
                # open: end those, and give the reader a moment for the last lines.
                end_confined(self.process.pid, self._tag, [])
                exited_by = now + EXIT_STATUS_WAIT
            elif now >= deadline:
                raise AdapterFailure("timeout", f"no reply within {wait:g} s")

    def stop(self) -> None:
        """Send ``stop``, give the adapter a moment to exit, then kill its whole group."""
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            self._outbox.put(b'{"cmd":"stop"}\n')
            self._outbox.put(None)
            try:
                process.wait(timeout=min(self.timeout, 2.0) if self.timeout > 0 else 2.0)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def kill(self) -> None:
        """End the adapter and every process of its group at once."""
        process = self.process
        if process is None:
            return
        self._closing.set()
        self._outbox.put(None)
        attached = descendants(process.pid)  # before the kill: then they are orphans, in no tree of it
        kill_group(process.pid)
        end_confined(process.pid, self._tag, attached)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        _LIVE_GROUPS.discard(process.pid)
        _Reaper.release(process.pid)
        # The pipes are closed by the threads that use them: closing a descriptor under a thread
        # blocked on it would let the number be reused by the next adapter's pipe.
        self.process = None


def _read_lines(stream: IO[bytes], lines: queue.Queue[object], closing: threading.Event) -> None:
    """Split the adapter's output into lines; refuse (and drain) a line over :data:`MAX_LINE`."""
    buffer = bytearray()
    refusing = False
    fd = stream.fileno()
    try:
        while not closing.is_set():
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            start = 0
            while True:
                end = chunk.find(b"\n", start)
                if end < 0:
                    break
                if refusing:
                    refusing = False
                else:
                    buffer += chunk[start:end]
                    lines.put(bytes(buffer))
                buffer.clear()
                start = end + 1
            if not refusing:
                buffer += chunk[start:]
                if len(buffer) > MAX_LINE:
                    lines.put(AdapterFailure("crash", f"a line longer than {MAX_LINE // (1024 * 1024)} MiB"))
                    buffer.clear()
                    refusing = True
    except (OSError, ValueError):
        pass
    finally:
        stream.close()
    if buffer and not refusing:
        lines.put(AdapterFailure("crash", f"the adapter ended with half a line ({len(buffer)} bytes, no newline)"))
    lines.put(_EOF)


def _write_messages(stream: IO[bytes], outbox: queue.Queue[bytes | None]) -> None:
    """Write queued messages until ``None``; a blocked or broken pipe stalls only this thread."""
    fd = stream.fileno()
    try:
        while (data := outbox.get()) is not None:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
    except (OSError, ValueError):
        pass
    finally:
        stream.close()


class InProcessAdapter:
    """A Python implementation called in-process: ``python:package.module:factory``.

    ``factory()`` returns a callable taking a decoded message and returning the reply (or None
    for ``stop``), exactly as a subprocess adapter would answer.
    """

    def __init__(self, spec: str) -> None:
        module_name, _, attribute = spec.partition(":")
        try:
            factory = getattr(importlib.import_module(module_name), attribute)
            self.handler: Callable[[dict[str, Any]], dict[str, Any] | None] = factory()
        except Exception as error:
            raise AdapterFailure("crash", f"cannot load python:{spec}: {type(error).__name__}: {error}") from None
        self.description = f"python:{spec}"
        self.timeout = 0.0
        self._replies: deque[dict[str, Any] | AdapterFailure | None] = deque()

    def start(self) -> None:
        """Nothing to start."""

    def request(self, message: Mapping[str, Any], timeout: float | None = None) -> dict[str, Any] | None:
        """Call the handler with a copy of the message (it must not see the runner's objects)."""
        try:
            reply = self.handler(json.loads(json.dumps(message)))
        except Exception as error:
            raise AdapterFailure("crash", f"the implementation raised {type(error).__name__}: {error}") from None
        if reply is not None and not isinstance(reply, dict):
            raise AdapterFailure("crash", "the reply is not a mapping")
        return reply

    def send(self, message: Mapping[str, Any]) -> int:
        """Answer at once; the reply waits for :meth:`receive`."""
        try:
            self._replies.append(self.request(message))
        except AdapterFailure as failure:
            self._replies.append(failure)
        return 0

    def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The reply to the oldest message sent."""
        reply = self._replies.popleft()
        if isinstance(reply, AdapterFailure):
            raise reply
        if reply is None:
            raise AdapterFailure("crash", "no reply")
        return reply

    def stop(self) -> None:
        """Nothing to stop."""

    def kill(self) -> None:
        """Forget the replies not yet received."""
        self._replies.clear()

    def stderr_tail(self, lines: int = 5, limit: int = 500) -> str:
        """An in-process implementation has no standard error of its own."""
        return ""


def open_adapter(impl: str | None, timeout: float,
                 stderr_log: Path | None = None) -> SubprocessAdapter | InProcessAdapter:
    """The adapter for ``--impl``: ``python:mod:factory`` in-process, a command line, or (None) the
    reference engine's ``belote-ref serve`` run as a subprocess.

    Raises :class:`AdapterFailure` for a command that is empty or cannot be split like a shell would.
    """
    if impl is None:
        return SubprocessAdapter([sys.executable, "-m", "belote_ref.cli", "serve"], timeout, stderr_log)
    if impl.startswith("python:"):
        return InProcessAdapter(impl[len("python:"):])
    return SubprocessAdapter(impl, timeout, stderr_log)
