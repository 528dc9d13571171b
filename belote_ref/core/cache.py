"""A cache of checked data on disk, keyed by the content of the files it was computed from.

Reading the registry, the shipped rulesets and the fixture corpus means parsing YAML with
positions and validating it against JSON Schemas: most of the start-up of every command. What
that work produces is plain JSON data, the same as long as the files are the same. So it is
written once, under the user's cache folder, and read back by later runs:

- the key is a SHA-256 of the files' names and bytes (and of the package version and this
  module's format): a changed, added or removed file is a new key, never a stale hit;
- a cache file is two lines, a header ``{"format", "key", "sha256"}`` and the payload as JSON;
  it is used only when the header parses, names this key and the payload's SHA-256 matches, and
  the payload parses as JSON. Anything else (a truncated write, a corrupt or foreign file) is
  ignored: the data is computed again and the file rewritten;
- writes go to a temporary file renamed into place, so that a reader never sees half a file; a
  cache folder that cannot be written only costs the time of computing again;
- nothing is unpickled or executed: the payload is JSON, and each caller checks its shape.

The folder is ``$BELOTE_REF_CACHE_DIR``, else ``$XDG_CACHE_HOME/belote-ref``, else
``~/.cache/belote-ref``. ``BELOTE_REF_CACHE=off`` turns the cache off.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from importlib import import_module
from pathlib import Path

from belote_ref.core.version import __version__

TYPE_CHECKING = False  # typing is not imported at run time: see belote_ref.core.frozen
if TYPE_CHECKING:
    from typing import Any

__all__ = ["cache_dir", "cached_json", "cached_payload", "content_key"]

#: Bumped whenever the shape of a cached payload changes.
CACHE_FORMAT = 1


def _find_sha256() -> Callable[..., Any]:
    # CPython's own SHA-256 module imports in a fraction of a millisecond; hashlib loads the OpenSSL
    # binding first (about 10 ms), a tenth of the start-up this cache saves.
    for name in ("_sha2", "_sha256"):
        try:
            return import_module(name).sha256  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            continue
    from hashlib import sha256

    return sha256


_sha256 = _find_sha256()


def cache_dir() -> Path | None:
    """The cache folder, or None when the cache is turned off."""
    if os.environ.get("BELOTE_REF_CACHE", "").lower() in ("off", "0", "no", "false"):
        return None
    explicit = os.environ.get("BELOTE_REF_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "belote-ref"
    try:
        return Path.home() / ".cache" / "belote-ref"
    except (RuntimeError, KeyError, OSError):  # no home folder to be found: no cache
        return None


def content_key(kind: str, files: Iterable[Path], extra: str = "") -> str:
    """The SHA-256 (hex) of ``kind``, ``extra``, the package version and each file's name and bytes.

    Raises :class:`OSError` when a file cannot be read.
    """

    digest = _sha256(f"{CACHE_FORMAT}\0{__version__}\0{kind}\0{extra}\0".encode())
    for path in files:
        data = path.read_bytes()
        digest.update(f"{path.name}\0{len(data)}\0".encode("utf-8", "surrogatepass"))
        digest.update(data)
    return str(digest.hexdigest())


class _UnusableEntry(Exception):
    """A cache file that is not the entry asked for, or is corrupt: ignored and rebuilt."""


def _read(path: Path, key: str) -> Any:
    """The payload of the cache file at ``path`` for ``key``; raises :class:`_UnusableEntry`,
    ValueError (bad JSON) or OSError when it is missing, corrupt or for another key."""
    with path.open("rb") as stream:
        header = json.loads(stream.readline())
        payload = stream.read()
    if not isinstance(header, dict) or header.get("format") != CACHE_FORMAT or header.get("key") != key:
        raise _UnusableEntry("not this cache entry")
    if header.get("sha256") != _sha256(payload).hexdigest():
        raise _UnusableEntry("corrupt cache entry")
    return json.loads(payload)


def _write(folder: Path, name: str, key: str, payload: Any) -> None:
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    header = json.dumps({"format": CACHE_FORMAT, "key": key, "sha256": _sha256(body).hexdigest()})
    import tempfile  # only when writing: it imports shutil and random, which a cache hit does not need

    folder.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(header.encode() + b"\n" + body)
        os.replace(temporary, folder / name)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _lookup(kind: str, files: list[Path], valid: Callable[[Any], bool], extra: str) -> tuple[Path | None, str, Any]:
    """(the cache folder, the entry's key, its payload or None): the folder is None when the cache is
    off or a file cannot be read, so that nothing is written either."""
    folder = cache_dir()
    if folder is None:
        return None, "", None
    try:
        key = content_key(kind, files, extra)
    except OSError:
        return None, "", None  # a file cannot be read: let the caller's compute() say so
    try:
        payload = _read(folder / f"{kind}-{key[:24]}.json", key)
    except (OSError, ValueError, UnicodeDecodeError, RecursionError, _UnusableEntry):
        return folder, key, None
    return folder, key, payload if valid(payload) else None


def cached_payload(kind: str, files: Iterable[Path], valid: Callable[[Any], bool] = lambda payload: True,
                   extra: str = "") -> Any:
    """The payload cached for ``kind`` and the contents of ``files``, or None when there is none
    that reads back intact and satisfies ``valid`` (the cache is off, missing, stale or corrupt)."""
    return _lookup(kind, list(files), valid, extra)[2]


def cached_json(kind: str, files: Iterable[Path], compute: Callable[[], Any],
                valid: Callable[[Any], bool] = lambda payload: True, extra: str = "") -> Any:
    """``compute()`` (JSON data), or the copy cached for the same ``kind`` and file contents.

    A cached payload is used only if it reads back intact and ``valid(payload)`` holds; otherwise
    ``compute()`` runs and its result replaces the cache file. ``compute`` may raise: nothing is
    cached then. A few files per ``kind`` are kept (``kind-KEY.json``), the most recently written.
    """
    folder, key, payload = _lookup(kind, list(files), valid, extra)
    if payload is not None:
        return payload
    payload = compute()
    if folder is not None:
        try:
            _write(folder, f"{kind}-{key[:24]}.json", key, payload)
            _prune(folder, kind)
        except (OSError, TypeError, ValueError):
            pass  # an unwritable folder or data that is not JSON: the result stands, uncached
    return payload


#: Cache files kept per kind (several checkouts, or corpora run with ``--fixtures``, may share the folder).
KEPT_PER_KIND = 8


def _prune(folder: Path, kind: str) -> None:
    entries = sorted(folder.glob(f"{kind}-*.json"), key=lambda entry: entry.stat().st_mtime, reverse=True)
    for stale in entries[KEPT_PER_KIND:]:
        stale.unlink(missing_ok=True)
