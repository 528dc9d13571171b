"""A cache of checked data on disk, keyed by the content of the files it was computed from.

Reading the registry, the shipped rulesets and the fixture corpus means parsing YAML with
positions and validating it against JSON Schemas: most of the start-up of every command. What
that work produces is plain JSON data, the same as long as the files are the same. So it is
written once, under the user's cache folder, and read back by later runs:

- the key is a SHA-256 of the files' names and bytes, of the package version and this module's
  format, and of the code's identity (:func:`code_identity`: the name, size and modification time
  of each of the package's own source files): a changed, added or removed file, data or code, is a
  new key, never a stale hit;
- a cache file is two lines, a header ``{"format", "key", "sha256"}`` and the payload as JSON;
  it is used only when the header parses, names this key and the payload's SHA-256 matches, and
  the payload parses as JSON. Anything else (a truncated write, a corrupt or foreign file) is
  ignored: the data is computed again and the file rewritten;
- an entry is read only if it is a regular file (never through a symlink, never a FIFO or a
  device) of at most :data:`MAX_ENTRY_BYTES`, and no more than that is ever read; anything else is
  a miss, replaced by a new file renamed over it (a symlink is replaced, never written through);
- writes go to a temporary file renamed into place, so that a reader never sees half a file; a
  cache folder that cannot be written only costs the time of computing again;
- nothing is unpickled or executed: the payload is JSON, and each caller checks its shape.

The folder is ``$BELOTE_REF_CACHE_DIR``, else ``$XDG_CACHE_HOME/belote-ref``, else
``~/.cache/belote-ref``. ``BELOTE_REF_CACHE=off`` turns the cache off.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Iterable
from functools import cache
from importlib import import_module
from pathlib import Path

from belote_ref.core.version import __version__

TYPE_CHECKING = False  # typing is not imported at run time: see belote_ref.core.frozen
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MAX_ENTRY_BYTES", "cache_dir", "cached_json", "cached_payload", "code_identity", "content_key"]

#: Bumped whenever the shape of a cached payload changes.
CACHE_FORMAT = 1
#: The largest cache file read (or written). The biggest entry, the shipped corpus, is under 2 MB.
MAX_ENTRY_BYTES = 64 << 20
# The package's own folder: its source files are the code that computes every payload.
_PACKAGE = Path(__file__).resolve().parents[1]


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


def _source_signature(package: Path) -> str:
    """A SHA-256 (hex) of the path, size and modification time (ns) of every ``.py`` file under
    ``package``, in a fixed order. Stat only, no read: as Python's own bytecode cache, a file edited
    or replaced changes its time or size; hashing the bytes of the 1 MB of source instead cost
    some 11 ms a process, more than the start-up that a cache hit saves elsewhere."""
    digest = _sha256()
    prefix = len(str(package))
    folders = [package]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as scan:
                entries = sorted(scan, key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        folders.append(Path(entry.path))
                elif entry.name.endswith(".py"):
                    status = entry.stat()
                    line = f"{entry.path[prefix:]}\0{status.st_size}\0{status.st_mtime_ns}\0"
                    digest.update(line.encode("utf-8", "surrogatepass"))
            except OSError:
                continue
    return str(digest.hexdigest())


@cache
def code_identity() -> str:
    """The identity of the code this process runs (:func:`_source_signature` of the package),
    computed once per process: a cache entry computed by other code is another key."""
    return _source_signature(_PACKAGE)


def content_key(kind: str, files: Iterable[Path], extra: str = "") -> str:
    """The SHA-256 (hex) of ``kind``, ``extra``, the package version, :func:`code_identity` and each
    file's name and bytes.

    Raises :class:`OSError` when a file cannot be read.
    """

    digest = _sha256(f"{CACHE_FORMAT}\0{__version__}\0{code_identity()}\0{kind}\0{extra}\0".encode())
    for path in files:
        data = path.read_bytes()
        digest.update(f"{path.name}\0{len(data)}\0".encode("utf-8", "surrogatepass"))
        digest.update(data)
    return str(digest.hexdigest())


class _UnusableEntry(Exception):
    """A cache file that is not the entry asked for, or is corrupt: ignored and rebuilt."""


def _read_entry(path: Path) -> bytes:
    """The bytes of the cache file at ``path``, at most :data:`MAX_ENTRY_BYTES` of them; raises
    :class:`_UnusableEntry` or OSError unless it is a regular file within that size.

    Opened without following a symlink and without blocking (a FIFO would wait for a writer for
    ever), then checked on the open descriptor, so that what is checked is what is read."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not hasattr(os, "O_NOFOLLOW") and path.is_symlink():
        raise _UnusableEntry("a symlink")
    descriptor = os.open(path, flags)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise _UnusableEntry("not a regular file")
        if status.st_size > MAX_ENTRY_BYTES:
            raise _UnusableEntry("larger than a cache entry can be")
        chunks = []
        left = MAX_ENTRY_BYTES + 1  # the file may grow after fstat: never read more than the cap
        while left > 0 and (chunk := os.read(descriptor, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(descriptor)
    if left <= 0:
        raise _UnusableEntry("larger than a cache entry can be")
    return b"".join(chunks)


def _read(path: Path, key: str) -> Any:
    """The payload of the cache file at ``path`` for ``key``; raises :class:`_UnusableEntry`,
    ValueError (bad JSON) or OSError when it is missing, corrupt, not a bounded regular file or for
    another key."""
    header_line, _, payload = _read_entry(path).partition(b"\n")
    header = json.loads(header_line)
    if not isinstance(header, dict) or header.get("format") != CACHE_FORMAT or header.get("key") != key:
        raise _UnusableEntry("not this cache entry")
    if header.get("sha256") != _sha256(payload).hexdigest():
        raise _UnusableEntry("corrupt cache entry")
    return json.loads(payload)


def _write(folder: Path, name: str, key: str, payload: Any) -> None:
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    header = json.dumps({"format": CACHE_FORMAT, "key": key, "sha256": _sha256(body).hexdigest()})
    if len(body) + len(header) + 1 > MAX_ENTRY_BYTES:
        return  # it could not be read back: computing again each time is all the cache can offer
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
