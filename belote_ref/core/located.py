"""Data read from a file, with the position of each key path (for messages); no YAML parser needed.

:mod:`belote_ref.core.yamlsource` builds these from YAML; records read from JSON Lines and data read
back from the cache carry them too, without importing PyYAML.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from belote_ref.core.errors import Diagnostic

__all__ = ["KeyPath", "Located", "format_path"]

KeyPath = tuple[str | int, ...]


def format_path(path: KeyPath) -> str:
    """Render a key path as ``scoring.capot.mode`` or ``deal.first_packets[1]``.

    A key that is not printable text (a newline, a control character) is shown quoted, so that a
    diagnostic stays on one line.
    """
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            shown = part if part.isprintable() else repr(part)
            text += ("." if text else "") + shown
    return text


@dataclass
class Located:
    """A parsed YAML document and the position (1-based line, column) of each key path."""

    file: str
    data: Any
    positions: dict[KeyPath, tuple[int, int]]

    def __init__(self, file: str, data: Any, positions: dict[KeyPath, tuple[int, int]]) -> None:
        # Written out: the compiled build compiles this __init__, not the one dataclasses generates
        # (interpreted); tests/test_build.py checks it takes the fields in order with their defaults.
        self.file = file
        self.data = data
        self.positions = positions

    def where(self, path: KeyPath) -> tuple[int | None, int | None]:
        """The position of ``path``, or of its nearest ancestor that has one."""
        while path:
            if path in self.positions:
                return self.positions[path]
            path = path[:-1]
        return self.positions.get((), (None, None))

    def diagnostic(self, path: KeyPath, message: str, code: str = "error") -> Diagnostic:
        """A diagnostic pointing at ``path`` in this file."""
        line, column = self.where(path)
        return Diagnostic(self.file, line, column, format_path(path), message, code)
