"""The files the interactive pages run the engine from, put beside the pages by the site build.

The pages run belote_ref itself, not a port: CPython compiled for the browser (Pyodide, from the npm
registry) loads the same package from a zip the build makes of the installed belote_ref, with the
pure-Python dependencies Pyodide's npm package does not carry. ``bash browser/fetch`` (in a checkout)
puts them in ``browser/``: ``node_modules/pyodide`` at the version pinned in ``browser/package.json``,
and ``wheels/`` (``browser/requirements.txt`` and PyYAML's sdist). ``$BELOTE_REF_BROWSER_DIR`` names
another folder laid out the same way. Nothing is fetched here: without that folder the build goes on
without the interactive pages, and :func:`browser_assets` raises saying why in one line.
"""

from __future__ import annotations

import io
import json
import os
import tarfile
import zipfile
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.resources import files
from pathlib import Path

from belote_ref.core.errors import BeloteRefError
from belote_ref.core.resources import data_dir

__all__ = ["ENGINE_FOLDER", "PYODIDE_FILES", "BrowserAssets", "browser_assets", "browser_dir", "browser_scripts",
           "script_path"]

#: The site folder the engine's files go to, shared by both languages.
ENGINE_FOLDER = "engine"

#: The files of Pyodide's core the pages load; the rest of the npm package (types, source maps, the
#: console pages) is not needed at run time.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")

_PACKAGE_DIR = Path(__file__).resolve().parents[1]  # belote_ref/
_EXTENSION_SUFFIXES = tuple(EXTENSION_SUFFIXES)

# The data folders the engine reads (rulesets, schemas); the corpus and the hand-written pages are
# the site's and the conformance runner's, not the engine's, and would double the download.
_ENGINE_DATA = ("rules", "schema")


@dataclass(frozen=True)
class BrowserAssets:
    """The files to put in the site (path in the site -> bytes) and the Pyodide version they hold."""

    files: dict[str, bytes]
    pyodide_version: str


def browser_dir() -> Path:
    """Where ``browser/fetch`` put Pyodide and the wheels: ``$BELOTE_REF_BROWSER_DIR``, else the
    checkout's ``browser/`` beside the package."""
    explicit = os.environ.get("BELOTE_REF_BROWSER_DIR")
    return Path(explicit) if explicit else _PACKAGE_DIR.parent / "browser"


def browser_assets(folder: Path | None = None) -> BrowserAssets:
    """The engine's files for the site. Raises :class:`~belote_ref.core.errors.BeloteRefError` (code
    ``no_browser_engine``) saying in one line why they cannot be made."""
    folder = browser_dir() if folder is None else folder
    pinned = _pinned_version(folder)
    pyodide = folder / "node_modules" / "pyodide"
    installed = _package_version(pyodide / "package.json")
    if pinned is None:
        raise _missing(f"no {folder / 'package.json'} pinning pyodide")
    if installed is None:
        raise _missing(f"Pyodide is not installed in {folder} (bash browser/fetch)")
    if installed != pinned:
        raise _missing(f"{pyodide} is Pyodide {installed}, not the pinned {pinned} (bash browser/fetch)")
    missing = [name for name in PYODIDE_FILES if not (pyodide / name).is_file()]
    if missing:
        raise _missing(f"{pyodide} lacks {', '.join(missing)}")
    try:
        packages = _site_packages_zip(folder / "wheels")
    except (OSError, zipfile.BadZipFile, tarfile.TarError) as error:
        raise _missing(f"the browser's Python packages cannot be made from {folder / 'wheels'}: {error}") from None
    files = {f"{ENGINE_FOLDER}/pyodide/{name}": (pyodide / name).read_bytes() for name in PYODIDE_FILES}
    files[f"{ENGINE_FOLDER}/site-packages.zip"] = packages
    return BrowserAssets(files, pinned)


def script_path(module: str) -> str:
    """Where the site puts the pages' script ``browser/<module>``: ``may_i_play.js`` ->
    ``engine/may-i-play.js`` (the scripts import each other by these names)."""
    return f"{ENGINE_FOLDER}/{module.replace('_', '-')}"


def browser_scripts() -> dict[str, bytes]:
    """The interactive pages' scripts (every ``browser/*.js`` shipped in the package beside this
    module: each page's own, the engine's loader, the ``#house=`` link), by path in the site."""
    folder = files("belote_ref.site").joinpath("browser")
    return {script_path(entry.name): entry.read_bytes()
            for entry in sorted(folder.iterdir(), key=lambda entry: entry.name) if entry.name.endswith(".js")}


def _missing(reason: str) -> BeloteRefError:
    return BeloteRefError(f"no interactive pages: {reason}", code="no_browser_engine")


def _pinned_version(folder: Path) -> str | None:
    try:
        manifest = json.loads((folder / "package.json").read_text(encoding="utf-8"))
        version = manifest["dependencies"]["pyodide"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return version if isinstance(version, str) else None


def _package_version(path: Path) -> str | None:
    try:
        version = json.loads(path.read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return version if isinstance(version, str) else None


def _site_packages_zip(wheels: Path) -> bytes:
    """One zip to unpack into the browser's ``site-packages``: belote_ref with the engine's data, the
    pure-Python wheels, and the ``yaml`` package of PyYAML's sdist. Entries in a fixed order with a
    fixed date, so that the same inputs make the same bytes (the build's reuse compares them)."""
    entries: dict[str, bytes] = {}
    for path in sorted(_PACKAGE_DIR.rglob("*")):
        relative = path.relative_to(_PACKAGE_DIR)
        # Without the compiled build's extension modules: the browser runs the pure-Python source.
        if (path.is_file() and "__pycache__" not in relative.parts and relative.parts[0] != "_data"
                and not path.name.endswith(_EXTENSION_SUFFIXES)):
            entries[f"belote_ref/{relative.as_posix()}"] = path.read_bytes()
    for name in _ENGINE_DATA:
        root = data_dir(name)
        for path in sorted(root.rglob("*")):
            if path.is_file():
                entries[f"belote_ref/_data/{name}/{path.relative_to(root).as_posix()}"] = path.read_bytes()
    wheel_files = sorted(wheels.glob("*.whl"))
    sdists = sorted(wheels.glob("pyyaml-*.tar.gz")) + sorted(wheels.glob("PyYAML-*.tar.gz"))
    if not wheel_files or not sdists:
        raise _missing(f"no wheels or no PyYAML sdist in {wheels} (bash browser/fetch)")
    for wheel in wheel_files:
        if not wheel.name.endswith("-none-any.whl"):
            raise _missing(f"{wheel} is not pure Python")
        with zipfile.ZipFile(wheel) as archive:
            for info in archive.infolist():
                if not info.is_dir():
                    entries[info.filename] = archive.read(info)
    with tarfile.open(sdists[-1]) as archive:
        for member in archive.getmembers():
            parts = member.name.split("/")
            # <name>/lib/yaml/*.py: the pure-Python parser (the libyaml binding lives beside it, not in it)
            if member.isfile() and len(parts) == 4 and parts[1:3] == ["lib", "yaml"]:
                handle = archive.extractfile(member)
                if handle is not None:
                    entries[f"yaml/{parts[3]}"] = handle.read()
    if not any(name.startswith("yaml/") for name in entries):
        raise _missing(f"{sdists[-1]} has no lib/yaml")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for name in sorted(entries):
            out.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), entries[name], zipfile.ZIP_DEFLATED)
    return buffer.getvalue()
