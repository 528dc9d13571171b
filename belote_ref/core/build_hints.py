"""What the compiled build (``hatch_build.py``, mypyc) reads in the source and the pure build ignores.

``@mypyc_attr(native_class=False)`` keeps a class of a compiled module a plain Python class (its
methods are compiled all the same): mypyc knows the decorator by its name in ``mypy_extensions``,
which mypy, and so mypyc, always has. At run time the decorator changes nothing, and where
``mypy_extensions`` is not installed (it is no dependency of belote_ref) a stand-in that returns
the class as it is takes its place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

_Class = TypeVar("_Class")

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # the pure install, and the compiled one, run without it

    def mypyc_attr(*attrs: str, **settings: object) -> Callable[[_Class], _Class]:
        """Return the class unchanged."""
        return lambda cls: cls


__all__ = ["mypyc_attr"]
