"""Talking to an implementation under test: a subprocess speaking JSON lines, or a Python object.

The runner never trusts the other side: every reply is awaited with a timeout, lines longer than
:data:`MAX_LINE` are refused, standard error is drained continuously (an adapter that floods it
cannot block), and any protocol mistake is reported as an :class:`AdapterFailure` naming what was
wrong, after which the runner restarts the adapter.
"""

from __future__ import annotations

import importlib
import json
import os
import queue
import shlex
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, Literal

__all__ = ["MAX_LINE", "AdapterFailure", "InProcessAdapter", "SubprocessAdapter", "open_adapter"]

MAX_LINE = 4 * 1024 * 1024
_EOF = object()


class AdapterFailure(Exception):
    """The adapter broke the protocol. ``outcome`` is ``crash`` or ``timeout``; ``reason`` says what happened."""

    def __init__(self, outcome: Literal["crash", "timeout"], reason: str) -> None:
        super().__init__(reason)
        self.outcome = outcome
        self.reason = reason


class SubprocessAdapter:
    """An implementation's adapter started as a subprocess (``command`` is split like a shell would)."""

    def __init__(self, command: str | list[str], timeout: float) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.timeout = timeout
        self.process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=50)
        self.description = " ".join(shlex.quote(a) for a in self.argv)

    def start(self) -> None:
        """Start the process and the threads that read its output."""
        try:
            self.process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        except OSError as error:
            raise AdapterFailure("crash", f"cannot start {self.description}: {error.strerror}") from None
        self._lines = queue.Queue()
        threading.Thread(target=self._read_stdout, args=(self.process, self._lines), daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(self.process,), daemon=True).start()

    @staticmethod
    def _read_stdout(process: subprocess.Popen[bytes], lines: queue.Queue[object]) -> None:
        assert process.stdout is not None
        stream = process.stdout
        try:
            while True:
                line = stream.readline(MAX_LINE + 1)
                if not line:
                    break
                if len(line) > MAX_LINE and not line.endswith(b"\n"):
                    lines.put(AdapterFailure("crash", f"a line longer than {MAX_LINE // (1024 * 1024)} MiB"))
                    return
                lines.put(line)
        except (OSError, ValueError):
            pass
        lines.put(_EOF)

    def _read_stderr(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stderr is not None
        try:
            for line in iter(lambda: process.stderr.readline(65536), b""):  # type: ignore[union-attr]
                self._stderr.append(line.decode("utf-8", "replace").rstrip("\n"))
        except (OSError, ValueError):
            pass

    def stderr_tail(self) -> str:
        """The last lines the adapter wrote to standard error."""
        return "\n".join(self._stderr)

    def request(self, message: Mapping[str, Any], timeout: float | None = None) -> dict[str, Any] | None:
        """Send ``message`` and return the decoded reply.

        Raises :class:`AdapterFailure` on a timeout, end of output, a non-JSON or over-long line.
        """
        self.send(message)
        return self.receive(timeout)

    def send(self, message: Mapping[str, Any]) -> int:
        """Write one message; return its size in bytes. Raises :class:`AdapterFailure` if the adapter is gone."""
        if self.process is None or self.process.poll() is not None:
            code = self.process.returncode if self.process else None
            raise AdapterFailure("crash", f"the adapter is not running (exit code {code})")
        assert self.process.stdin is not None
        data = (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
        try:
            self.process.stdin.write(data)
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise AdapterFailure("crash", f"the adapter closed its input (exit code {self.process.poll()})") from None
        return len(data)

    def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next reply line, decoded. Raises :class:`AdapterFailure` as :meth:`request` does."""
        assert self.process is not None
        try:
            item = self._lines.get(timeout=timeout if timeout is not None else self.timeout)
        except queue.Empty:
            raise AdapterFailure("timeout", f"no reply within {timeout or self.timeout:g} s") from None
        if item is _EOF:
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            raise AdapterFailure("crash", f"the adapter exited (exit code {self.process.returncode}) without replying")
        if isinstance(item, AdapterFailure):
            raise item
        assert isinstance(item, bytes)
        text = item.decode("utf-8", "replace").strip()
        try:
            reply = json.loads(text)
        except json.JSONDecodeError:
            preview = text[:60] + ("..." if len(text) > 60 else "")
            raise AdapterFailure("crash", f"the reply is not JSON: {preview!r}") from None
        if not isinstance(reply, dict):
            raise AdapterFailure("crash", f"the reply is not a JSON object: {text[:60]!r}")
        return reply

    def stop(self) -> None:
        """Send ``stop``, then make sure the process is gone."""
        process = self.process
        if process is None:
            return
        try:
            if process.poll() is None and process.stdin is not None:
                process.stdin.write(b'{"cmd":"stop"}\n')
                process.stdin.flush()
                process.stdin.close()
                process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.kill()

    def kill(self) -> None:
        """End the process at once."""
        process = self.process
        if process is not None and process.poll() is None:
            process.kill()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        for stream in (process.stdin, process.stdout, process.stderr) if process else ():
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self.process = None


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
        except (ImportError, AttributeError, TypeError) as error:
            raise AdapterFailure("crash", f"cannot load python:{spec}: {error}") from None
        self.description = f"python:{spec}"
        self.timeout = 0.0
        self._replies: deque[dict[str, Any] | None | AdapterFailure] = deque()

    def start(self) -> None:
        """Nothing to start."""

    def request(self, message: Mapping[str, Any], timeout: float | None = None) -> dict[str, Any] | None:
        """Call the handler with a copy of the message (it must not see the runner's objects)."""
        try:
            reply = self.handler(json.loads(json.dumps(message)))
        except Exception as error:  # noqa: BLE001 - an implementation's exception is a crash of the case
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
        """Nothing to kill."""

    def stderr_tail(self) -> str:
        return ""


def open_adapter(impl: str | None, timeout: float) -> SubprocessAdapter | InProcessAdapter:
    """The adapter for ``--impl``: ``python:mod:factory`` in-process, a command line, or (None) the
    reference engine's ``belote-ref serve`` run as a subprocess."""
    if impl is None:
        return SubprocessAdapter([sys.executable, "-m", "belote_ref.cli", "serve"], timeout)
    if impl.startswith("python:"):
        return InProcessAdapter(impl[len("python:"):])
    return SubprocessAdapter(impl, timeout)
