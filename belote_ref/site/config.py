"""Where the site's MkDocs configuration is: the one given, the checkout's, or the current folder's."""

from __future__ import annotations

import os
from pathlib import Path

from belote_ref.errors import BeloteRefError


def find_config(config_file: str | os.PathLike[str] | None = None) -> Path:
    """The site's ``mkdocs.yml``: the one given, else the checkout's (beside the package), else the current folder's.

    ``mkdocs.yml`` and ``docs/`` live in the repository, not in the wheel: build from a checkout.
    """
    if config_file is not None:
        path = Path(config_file)
        if not path.is_file():
            raise BeloteRefError(f"{path}: no such MkDocs configuration file", code="io")
        return path.resolve()
    for candidate in (Path(__file__).resolve().parents[2] / "mkdocs.yml", Path.cwd() / "mkdocs.yml"):
        if candidate.is_file():
            return candidate
    raise BeloteRefError("mkdocs.yml not found: run from the belote-ref repository (mkdocs.yml and docs/ are "
                         "not part of the installed package) or pass --config", code="io")
