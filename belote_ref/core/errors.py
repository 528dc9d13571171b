"""Errors raised by belote-ref.

Every error raised on bad input derives from :class:`BeloteRefError`, a :class:`ValueError`,
and carries a stable machine ``code`` and a human message. Errors that come from a
file carry :class:`Diagnostic` items giving ``file:line:col`` and the key path::

    BeloteRefError
    ├── NotationError          a card, suit, rank or seat token (or a card mask) is malformed
    ├── RulesetError           a ruleset or the registry could not be loaded
    │   └── UnknownRulesetError   no shipped ruleset has that id
    ├── TrickError             a trick given to a function has no card, or four already
    ├── InconsistentDealError  the deal given to the scoring cannot have happened
    └── IllegalActionError     a call or a play is not allowed in this state
        ├── IllegalCallError
        ├── IllegalPlayError      carries the Violation (rule, allowed cards)
        └── MatchOverError        a deal is added to a match that has ended

Modules add their own subclasses of :class:`BeloteRefError` for their inputs (``RecordError``,
``JsonLineError``, ``GivenError``, ``FuzzError``). :class:`InternalError` stands apart: it is
never bad input but a broken invariant of the engine (a bug to report), raised where an
``assert`` would vanish under ``python -O``.
"""

from __future__ import annotations

from belote_ref.core.frozen import Frozen

TYPE_CHECKING = False  # typing is not imported at run time: see belote_ref.core.frozen
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

__all__ = [
    "BeloteRefError",
    "Diagnostic",
    "IllegalActionError",
    "IllegalCallError",
    "IllegalPlayError",
    "InconsistentDealError",
    "InternalError",
    "MatchOverError",
    "NotationError",
    "RulesetError",
    "TrickError",
    "UnknownRulesetError",
]


class Diagnostic(Frozen):
    """One problem found in a file: where it is and what was expected. Read-only, compared by value."""

    __slots__ = ("file", "line", "column", "key_path", "message", "code")  # noqa: RUF023 (constructor order)
    file: str | None
    line: int | None
    column: int | None
    key_path: str
    message: str
    code: str

    def __init__(self, file: str | None, line: int | None, column: int | None, key_path: str, message: str,
                 code: str = "error") -> None:
        self._set("file", file)
        self._set("line", line)
        self._set("column", column)
        self._set("key_path", key_path)
        self._set("message", message)
        self._set("code", code)

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        key = f"{_shortened(self.key_path, 200)}: " if self.key_path else ""
        return f"{where}: {key}{_shortened(self.message, 500)}"


def _shortened(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters: a key or value from hostile input can be any length."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


class BeloteRefError(ValueError):
    """Base of every error belote-ref raises on bad input."""

    code: str = "error"
    #: For errors about one item of a sequence (a call, a play, a trick): its 0-based index.
    index: int | None = None

    def __init__(self, message: str, *, code: str | None = None, index: int | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.index = index


class NotationError(BeloteRefError):
    """A card, suit, rank or seat token does not follow the notation."""

    code = "bad_notation"


class RulesetError(BeloteRefError):
    """A ruleset, or the registry, is invalid. ``diagnostics`` lists every problem found."""

    code = "bad_ruleset"

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


class UnknownRulesetError(RulesetError):
    """No shipped ruleset has the requested id."""

    code = "unknown_ruleset"


class IllegalActionError(BeloteRefError):
    """A call or a play is not allowed in the current state."""

    code = "illegal_action"


class IllegalCallError(IllegalActionError):
    """A call of the auction is not allowed."""

    code = "illegal_call"


class IllegalPlayError(IllegalActionError):
    """A card may not be played; ``violation`` says which rule forbids it."""

    code = "illegal_play"

    def __init__(self, message: str, *, violation: Any = None, code: str | None = None,
                 index: int | None = None) -> None:
        super().__init__(message, code=code, index=index)
        self.violation = violation


class MatchOverError(IllegalActionError):
    """A deal is added to a match that has already ended."""

    code = "match_over"


class TrickError(BeloteRefError):
    """A trick given to a function cannot be used there: empty where a winner is asked, or
    already complete (four cards) where a card is to be played to it."""

    code = "bad_trick"


class InconsistentDealError(BeloteRefError):
    """The deal given to :func:`~belote_ref.engine.scoring.score_deal` cannot have happened.

    ``code`` is one of ``wrong_trick_count``, ``duplicate_card``, ``wrong_leader``,
    ``bad_belote``, ``bad_announcement``; ``index`` is the 0-based index of the offending trick
    (or declaration, for ``bad_announcement``; 0 for ``bad_belote``), the protocol's
    ``{"rejected": {"code": ..., "index": i}}``.
    """

    code = "inconsistent_deal"

    def __init__(self, message: str, *, code: str, index: int) -> None:
        super().__init__(message, code=code)
        self.index = index


class InternalError(RuntimeError):
    """A broken invariant of the engine: a bug in belote-ref, never a fault of the input.

    Raised instead of ``assert`` so that the check survives ``python -O``.
    """

