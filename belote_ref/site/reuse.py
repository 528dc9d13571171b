"""What lets a build of the site reuse an earlier one: a work folder per output folder, MkDocs' ``dirty``
build, and a plugin that remembers what the pages it skips would have given.

A site build is two steps: write the Markdown tree (about a tenth of the time) and have MkDocs read and
render every page (the rest). Each output folder (``--out``) gets a work folder under the user's cache
folder (:func:`belote_ref.core.cache.cache_dir`), keyed by the output folder and the configuration. Its
``docs/`` is the Markdown tree, written file by file only where the bytes changed (:func:`sync_tree`),
so that an unchanged page keeps its modification time; MkDocs' dirty build then renders only the pages
whose source is newer than their HTML in a copy of the earlier build.

A dirty build alone is not the same as a full one, and the rest of this module makes it so:

- a page's HTML holds the navigation (titles, previous and next page), links resolved against the set
  of files, and the theme's and the code's output. All of that is in :func:`build_key`, with the
  configuration and the versions of MkDocs and its extensions: when the key differs from the earlier
  build's, the build is a full one. House-rule pages stay in the navigation, as before, rather than
  being moved out of it to spare a full build: the site a club publishes keeps the navigation it had,
  and adding or renaming a house rule is rare next to editing one. So a new house rule, or a renamed
  one, changes the navigation, hence the key, and the build is full; a change inside a house rule
  changes its pages only.
- the search index is written from the pages MkDocs rendered: :class:`SiteMemory` keeps each page's
  entries and gives back those of the pages it skipped, in the order of a full build;
- links to anchors are checked against every page's anchors: the plugin gives the skipped pages their
  anchors and links back, so that a changed page that drops an anchor another page links to fails
  the strict build as a full build would.

The earlier build is reused only when it is the output folder's own (its :data:`SITE_MARKER` file is
the one the work folder recorded); anything else, or no cache folder, is a full build.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import Any

from belote_ref.core.cache import cache_dir, code_identity

__all__ = ["SiteMemory", "build_key", "earlier_build", "marker_identity", "pages_of", "save_memory",
           "sync_tree", "work_dir"]

#: Bumped whenever the shape of the work folder's memory changes.
MEMORY_FORMAT = 1
#: The largest memory file read: the search entries of every page, some 6 MB for the shipped site.
MAX_MEMORY_BYTES = 256 << 20
_MEMORY = "memory.json"
_OUT_NAME = "out.txt"
_PACKAGES = ("mkdocs", "mkdocs-material", "Markdown", "pymdown-extensions", "Jinja2", "MarkupSafe", "Pygments")

#: What a progress callback is told: the phase ("reading" or "writing"), pages done, pages in all.
Progress = Callable[[str, int, int], None]


def work_dir(out: Path, config_path: Path) -> Path | None:
    """The work folder of builds into ``out`` with ``config_path``; None when the cache is off."""
    root = cache_dir()
    if root is None:
        return None
    digest = hashlib.sha256(f"{out}\0{config_path}".encode("utf-8", "surrogatepass")).hexdigest()
    return root / "site-builds" / str(digest)[:24]


def forget_other_outputs(work: Path, site_marker: str) -> None:
    """Remove the work folders beside ``work`` whose output folder is gone or no longer a build: each
    output folder a test or a user ever built into would otherwise keep a Markdown tree in the cache.
    A folder whose lock is held (a build at work in it) is left alone."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no way to tell a folder in use, none is removed
        return
    for other in sorted(work.parent.iterdir()) if work.parent.is_dir() else ():
        if other == work or not (other / "lock").is_file():
            continue  # a folder being made has no lock yet
        try:
            out = Path((other / _OUT_NAME).read_text(encoding="utf-8").strip())
            if (out / site_marker).is_file():
                continue
        except (OSError, UnicodeDecodeError):
            pass  # no build of its own was ever finished
        try:
            with open(other / "lock", "a", encoding="utf-8") as handle:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                shutil.rmtree(other, ignore_errors=True)
        except OSError:
            continue  # in use


@contextmanager
def locked(work: Path) -> Iterator[None]:
    """Hold the work folder's lock: two builds into the same folder at once take turns."""
    work.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # not POSIX: builds into one folder at once are the user's to avoid
        yield
        return
    with open(work / "lock", "a", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def sync_tree(tree: Path, wanted: Mapping[str, bytes]) -> int:
    """Make the folder ``tree`` hold exactly ``wanted`` (relative path -> bytes), writing only the files
    whose bytes differ (the others keep their modification time); returns how many were written."""
    tree.mkdir(parents=True, exist_ok=True)
    written = 0
    for path in sorted(tree.rglob("*"), reverse=True):  # children before their folder
        relative = path.relative_to(tree).as_posix()
        if path.is_symlink() or (path.is_file() and relative not in wanted):
            path.unlink()
        elif path.is_dir() and relative not in wanted and next(path.iterdir(), None) is None:
            path.rmdir()
    for relative, content in wanted.items():
        target = tree / relative
        try:
            if target.is_file() and target.stat().st_size == len(content) and target.read_bytes() == content:
                continue
        except OSError:
            pass
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_dir():
            shutil.rmtree(target)
        target.write_bytes(content)
        written += 1
    return written


def _files_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
        if path.is_file():
            digest.update(f"{path.relative_to(folder).as_posix()}\0".encode("utf-8", "surrogatepass"))
            digest.update(path.read_bytes())
    return str(digest.hexdigest())


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "-"


def build_key(config: Any, nav: Any, tree_files: Iterable[str], *, strict: bool) -> str:
    """What every page's HTML depends on besides its own source: the configuration (its file, its
    theme folder and hooks), the navigation, the set of files, the code and the versions that render.
    Two builds with the same key differ only in the pages whose source differs."""
    parts: list[str] = [str(MEMORY_FORMAT), code_identity(), f"strict={strict}", json.dumps(nav, sort_keys=True)]
    parts += [f"{name}={_version(name)}" for name in _PACKAGES]
    config_file = Path(str(config["config_file_path"]))
    parts.append(str(hashlib.sha256(config_file.read_bytes()).hexdigest()))
    custom_dir = getattr(config["theme"], "custom_dir", None)
    if custom_dir:
        parts.append(_files_digest(Path(custom_dir)))
    for hook in (config.get("hooks") or {}).values():
        source = getattr(hook, "__file__", None)
        if source:
            parts.append(str(hashlib.sha256(Path(source).read_bytes()).hexdigest()))
    parts += sorted(tree_files)
    return str(hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest())


def marker_identity(marker: Path) -> list[int]:
    """Which build an output folder holds: its marker file's inode, modification time and size."""
    status = marker.stat()
    return [status.st_ino, status.st_mtime_ns, status.st_size]


def earlier_build(work: Path, key: str, marker: Path) -> dict[str, Any] | None:
    """The memory of the earlier build into the output folder whose marker is ``marker``, if it was
    built with the same key (else None: the build must be a full one)."""
    path = work / _MEMORY
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_MEMORY_BYTES:
            return None
        memory = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(memory, dict) or memory.get("format") != MEMORY_FORMAT or memory.get("key") != key:
            return None
        if memory.get("marker") != marker_identity(marker) or not isinstance(memory.get("pages"), dict):
            return None
        return memory["pages"]  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return None


def save_memory(work: Path, out: Path, key: str, marker: Path, pages: Mapping[str, Any]) -> None:
    """Record the build just moved into ``out``, for the next build to reuse (written whole, then renamed)."""
    memory = {"format": MEMORY_FORMAT, "key": key, "marker": marker_identity(marker), "pages": pages}
    temporary = work / f"{_MEMORY}.{os.getpid()}"
    temporary.write_text(json.dumps(memory, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    temporary.replace(work / _MEMORY)
    (work / _OUT_NAME).write_text(str(out), encoding="utf-8")


def forget(work: Path) -> None:
    """Drop the memory (the next build is a full one): called before anything changes the output folder."""
    try:
        (work / _MEMORY).unlink()
    except FileNotFoundError:
        pass


def pages_of(files: Any) -> list[Any]:
    """The documentation pages MkDocs builds, in its order."""
    return list(files.documentation_pages())


def _link_unchanged(files: Any, earlier_site: Path) -> None:
    """Bring into the new site, as hard links, the earlier site's outputs of the files MkDocs' dirty build
    will skip (their source is not newer: :meth:`File.is_modified`), and nothing else.

    A skipped output is never opened for writing, so the earlier site's file is never written through its
    link (a failed build leaves it as it was); an output that will be written, and whatever the build
    writes besides its files (the search index, the sitemap, 404.html), is not brought over and is made
    anew, as in a full build. Linking instead of copying the earlier site saves writing its 100 MB again."""
    for file in files:
        source = file.abs_src_path
        if source is None or file._content is not None:  # generated by a plugin: always written
            continue
        earlier = earlier_site / file.dest_uri
        target = Path(file.abs_dest_path)
        try:
            if earlier.is_symlink() or not earlier.is_file() or earlier.stat().st_mtime < os.path.getmtime(source):
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(earlier, target)
            except OSError:  # a file system without hard links
                shutil.copy2(earlier, target)
        except OSError:
            continue  # not brought over: MkDocs writes it


def event_priority(priority: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """MkDocs' ``event_priority``, without importing MkDocs (this module is imported by the build's
    module, which must load without the ``docs`` extra): MkDocs reads the same attribute."""

    def mark(method: Callable[..., Any]) -> Callable[..., Any]:
        method.mkdocs_priority = priority  # type: ignore[attr-defined]
        return method

    return mark


def _search_entries(config: Any) -> list[dict[str, Any]] | None:
    for plugin in config.plugins.values():
        index = getattr(plugin, "search_index", None)
        if index is not None and isinstance(getattr(index, "entries", None), list):
            return index.entries  # type: ignore[no-any-return]
    return None


class SiteMemory:
    """Counts the pages as MkDocs reads and writes them, remembers what each page gives the search
    index and the anchor check, and, in a dirty build, gives back what the skipped pages gave before."""

    def __init__(self, earlier: Mapping[str, Any] | None, progress: Progress | None,
                 earlier_site: Path | None = None) -> None:
        self.earlier = dict(earlier or {})
        self.dirty = earlier is not None
        self.earlier_site = earlier_site
        self.progress = progress
        self.pages: dict[str, Any] = {}
        self._order: list[str] = []
        self._to_render = 0
        self._read = 0
        self._written = 0
        self._search_start = 0

    def _tell(self, phase: str, done: int) -> None:
        if self.progress is not None:
            self.progress(phase, done, self._to_render)

    def on_files(self, files: Any, *, config: Any) -> Any:
        if self.dirty and self.earlier_site is not None:
            _link_unchanged(files, self.earlier_site)
        pages = pages_of(files)
        self._order = [page.src_uri for page in pages]
        # MkDocs' own test of a dirty build, made before it writes anything.
        self._to_render = sum(1 for page in pages if not self.dirty or page.is_modified())
        return files

    def on_page_markdown(self, markdown: str, *, page: Any, config: Any, files: Any) -> str:
        self._read += 1
        self._tell("reading", self._read)
        return markdown

    def on_env(self, env: Any, *, config: Any, files: Any) -> Any:
        if self._read == 0:
            self._tell("reading", 0)
        if not self.dirty:
            return env
        for file in pages_of(files):
            page = file.page
            if page is None or page.present_anchor_ids is not None:
                continue
            record = self.earlier[file.src_uri]
            page.present_anchor_ids = set(record["anchors"])
            links: dict[Any, dict[str, str]] = {}
            for target, anchors in record["links"].items():
                target_file = files.get_file_from_path(target)
                if target_file is not None:
                    links[target_file] = dict(anchors)
            page.links_to_anchors = links
        return env

    @event_priority(100)  # before the search plugin indexes the page
    def on_page_context(self, context: Any, *, page: Any, config: Any, nav: Any) -> Any:
        entries = _search_entries(config)
        self._search_start = len(entries) if entries is not None else 0
        return context

    @event_priority(-100)  # after every other plugin has seen the page
    def on_post_page(self, output: str, *, page: Any, config: Any) -> str:
        entries = _search_entries(config)
        links = {target.src_uri: dict(anchors) for target, anchors in (page.links_to_anchors or {}).items()}
        self.pages[page.file.src_uri] = {
            "search": entries[self._search_start:] if entries is not None else [],
            "anchors": sorted(page.present_anchor_ids or ()),
            "links": links,
        }
        self._written += 1
        self._tell("writing", self._written)
        return output

    @event_priority(100)  # before the search plugin writes its index
    def on_post_build(self, *, config: Any) -> None:
        if self._written == 0:
            self._tell("writing", 0)
        for src_uri in self._order:
            if src_uri not in self.pages:
                self.pages[src_uri] = self.earlier[src_uri]
        entries = _search_entries(config)
        if entries is not None:
            entries[:] = [entry for src_uri in self._order for entry in self.pages[src_uri]["search"]]
