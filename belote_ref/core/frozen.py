"""A read-only value class without :mod:`dataclasses`, for the modules a process imports first.

``belote-ref serve`` answers ``hello`` before it loads the engine, and the modules that answer it
(:mod:`belote_ref.core.errors`, :mod:`belote_ref.core.jsonlines`, the registry's data) import neither
:mod:`dataclasses` nor :mod:`typing` at run time: the two cost some 15 ms of a start of 50.
:class:`Frozen` gives a class with ``__slots__`` and its own typed ``__init__`` what a frozen
dataclass gives: fields that cannot be set again, equality and hashing by value, a repr naming
every field, and copies and pickles rebuilt through the constructor.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Frozen"]


class Frozen:
    """Base of a read-only value class: its ``__slots__`` are its fields, in constructor order, and
    its ``__init__`` sets each once with :meth:`_set`."""

    __slots__: tuple[str, ...] = ()

    def _set(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name!r}")

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, Frozen):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), self._values()
