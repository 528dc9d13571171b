"""Where the site's MkDocs configuration and hand-written pages are: the configuration given, else the
checkout's ``mkdocs.yml``, else the current folder's, else the one shipped in the package (so that an
installed belote-ref builds a club's pages in any folder)."""

from __future__ import annotations

import os
from pathlib import Path

from belote_ref.core.errors import BeloteRefError
from belote_ref.core.resources import data_dir

__all__ = ["DEFAULT_CONFIG", "docs_dir_of", "find_config"]

DEFAULT_CONFIG = Path(__file__).resolve().parent / "mkdocs.yml"


def find_config(config_file: str | os.PathLike[str] | None = None) -> Path:
    """The site's ``mkdocs.yml``: the one given, else the checkout's (beside the package), else the
    current folder's, else :data:`DEFAULT_CONFIG`."""
    if config_file is not None:
        path = Path(config_file)
        if not path.is_file():
            raise BeloteRefError(f"{path}: no such MkDocs configuration file", code="io")
        return path.resolve()
    for candidate in (Path(__file__).resolve().parents[2] / "mkdocs.yml", Path.cwd() / "mkdocs.yml"):
        if candidate.is_file():
            return candidate
    return DEFAULT_CONFIG


def docs_dir_of(config_path: Path) -> Path | None:
    """The hand-written pages of the shipped configuration (the wheel's docs, or the checkout's);
    None for any other configuration, whose own ``docs_dir`` is used."""
    return data_dir("docs") if config_path == DEFAULT_CONFIG else None
