"""Where the shipped data lives: inside the wheel, or at the repository root for editable installs."""

from __future__ import annotations

from functools import cache
from pathlib import Path

__all__ = ["data_dir"]

_PACKAGE_DIR = Path(__file__).resolve().parent.parent  # belote_ref/


@cache
def data_dir(name: str) -> Path:
    """Return the folder of shipped data ``name`` (``rules``, ``schema`` or ``conformance``).

    A wheel carries them under ``belote_ref/_data/``; an editable install or a checkout reads them
    from the repository root, beside the package.
    """
    for candidate in (_PACKAGE_DIR / "_data" / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"belote-ref data folder {name!r} not found; the installation is incomplete")
