"""Build the site: write ``docs/`` and the generated pages into a Markdown tree and run
MkDocs on it (strict: a broken link or anchor fails the build)."""

from __future__ import annotations

import json
import logging
import os
import posixpath
import shutil
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from belote_ref.core.errors import BeloteRefError
from belote_ref.rules.ruleset import Ruleset, load_ruleset
from belote_ref.site import reuse as memory
from belote_ref.site.browser_assets import BrowserAssets, browser_assets
from belote_ref.site.config import docs_dir_of, find_config
from belote_ref.site.data import SiteData, load_site_data
from belote_ref.site.pages import Site, generate_pages
from belote_ref.site.reports import find_reports_dir
from belote_ref.site.reuse import Progress, sync_tree
from belote_ref.site.wording import LANGUAGES, t


def tree_contents(docs_dir: Path, data: SiteData | None = None,
                  engine: BrowserAssets | None = None) -> tuple[Site, dict[str, bytes]]:
    """The generated pages, and every file of the tree MkDocs reads (relative path -> bytes): the
    hand-written ``docs_dir`` and the generated pages, each page with its other-language link; with
    ``engine``, the interactive pages and the files they run the engine from."""
    hand_files = {path.relative_to(docs_dir).as_posix(): path for path in sorted(docs_dir.rglob("*")) if path.is_file()}
    hand_pages = [relative for relative in hand_files if relative.endswith(".md")]
    site = generate_pages(data, hand_pages, engine)
    clash = sorted(set(site.pages) & set(hand_pages))
    if clash:
        raise BeloteRefError(f"docs/ has hand-written pages where generated pages go: {', '.join(clash)}", code="docs")
    every_page = set(site.pages) | set(hand_pages)
    contents: dict[str, bytes] = {}
    for relative, path in hand_files.items():
        other = counterpart(relative, every_page) if relative.endswith(".md") else None
        if other is None:
            contents[relative] = path.read_bytes()
        else:
            contents[relative] = with_alternate(path.read_text(encoding="utf-8"), relative, other).encode("utf-8")
    for relative, text in site.pages.items():
        other = counterpart(relative, every_page)
        contents[relative] = (text if other is None else with_alternate(text, relative, other)).encode("utf-8")
    contents.update(site.files)
    return site, contents


def write_tree(tree: Path, docs_dir: Path, data: SiteData | None = None) -> Site:
    """Make ``tree`` hold the hand-written ``docs_dir`` and the generated pages; returns them. Only the
    files whose bytes changed are written (:func:`~belote_ref.site.reuse.sync_tree`)."""
    site, contents = tree_contents(docs_dir, data)
    sync_tree(tree, contents)
    return site


def counterpart(page: str, pages: set[str]) -> str | None:
    """The same page in the other language, if the site has it: ``en/x`` and ``fr/x`` for the
    generated pages, ``x`` and ``fr/x`` for the hand-written ones (English at the root)."""
    if page.startswith("fr/"):
        candidates = ["en/" + page[3:], page[3:]]
    elif page.startswith("en/"):
        candidates = ["fr/" + page[3:]]
    else:
        candidates = ["fr/" + page]
    return next((c for c in candidates if c in pages and c != "index.md"), None) if page != "index.md" else None


def _url_of(page: str) -> str:
    """The folder a page is served from (MkDocs' directory URLs): ``fr/rules/play.md`` -> ``fr/rules/play``."""
    stem = page[: -len(".md")]
    return posixpath.dirname(stem) or "." if posixpath.basename(stem) == "index" else stem


def with_alternate(text: str, page: str, other: str) -> str:
    """``text`` with front matter naming its other-language page, which the theme turns into
    ``<link rel="alternate" hreflang>`` (search engines and screen readers find the translation)."""
    other_lang = "fr" if other.startswith("fr/") else "en"
    target = posixpath.relpath(_url_of(other), _url_of(page)) + "/"
    fields = f"alternate: {json.dumps(target)}\nalternate_lang: {other_lang}\n"
    if text.startswith("---\n"):
        return "---\n" + fields + text[4:]
    return "---\n" + fields + "---\n\n" + text


def _import_mkdocs() -> Any:
    try:
        from mkdocs.config import load_config
    except ImportError:
        raise BeloteRefError("MkDocs is not installed: pip install 'mkdocs>=1.6,<2' 'mkdocs-material>=9.5,<10' "
                             "(or, in a clone of belote-ref, pip install '.[docs]')", code="docs") from None
    return load_config


@contextmanager
def _mkdocs_logging(verbose: bool) -> Iterator[None]:
    logger = logging.getLogger("mkdocs")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    handler.setLevel(logging.INFO if verbose else logging.WARNING)
    previous = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO if verbose else logging.WARNING)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous)
        logger.propagate = True


@dataclass(frozen=True)
class BuildResult:
    """What a build produced."""

    site_dir: Path
    pages: int
    seconds: float


def _load(load_config: Any, config_path: Path, **overrides: Any) -> Any:
    docs = docs_dir_of(config_path)
    if docs is not None and "docs_dir" not in overrides:
        overrides["docs_dir"] = str(docs)
    from mkdocs.exceptions import MkDocsException

    try:
        return load_config(config_file=str(config_path), **overrides)
    except MkDocsException as error:
        # MkDocs has logged what is wrong; its Abort says only that it stopped.
        raise BeloteRefError(f"the site did not build: {config_path}: the configuration is not valid ({error})",
                             code="docs") from None


def _engine_or_none() -> BrowserAssets | None:
    """The files the interactive pages run the engine from; without them (``bash browser/fetch`` not
    run) the site is built without those pages, and the build says so in one line."""
    try:
        return browser_assets()
    except BeloteRefError as error:
        print(f"docs build: {error}", file=sys.stderr)
        return None


def _house_rules(paths: Sequence[str | os.PathLike[str]]) -> list[Ruleset]:
    return [load_ruleset(Path(path)) for path in paths]


#: The file every build leaves in its folder: a folder that holds it is an earlier build, which the next
#: build may replace; any other folder that is not empty is the user's, and a build never writes there.
SITE_MARKER = ".belote-ref-site"


def check_out_dir(out: Path) -> None:
    """Refuse (:class:`BeloteRefError`, code ``out_dir``) a build into ``out`` when ``out`` is not a folder,
    or is a folder that holds anything but an earlier build (:data:`SITE_MARKER`)."""
    if not out.exists():
        return
    if not out.is_dir():
        raise BeloteRefError(f"{out}: not a folder: give --out a new folder, an empty one, or an earlier build's",
                             code="out_dir")
    try:
        if (out / SITE_MARKER).is_file() or next(out.iterdir(), None) is None:
            return
    except OSError as error:
        raise BeloteRefError(f"{out}: cannot read the folder: {error.strerror}", code="out_dir") from None
    raise BeloteRefError(f"{out}: the folder holds files that no belote-ref build made (no {SITE_MARKER}), "
                         "which a build would delete: give --out a new folder, an empty one, or an earlier build's",
                         code="out_dir")


@contextmanager
def _staging_dir(out: Path) -> Iterator[Path]:
    """A new folder beside ``out`` to build into; removed on the way out unless it became ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = out.parent / f".{out.name}.building-{uuid.uuid4().hex[:12]}"
    staging.mkdir()  # with the user's umask, as the site folder it becomes
    try:
        yield staging
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def _move_into_place(staging: Path, out: Path) -> None:
    """Make the finished build ``staging`` the folder ``out``: a new folder, an empty one (its entries
    moved in, the folder itself kept) or an earlier build (swapped, then deleted)."""
    check_out_dir(out)  # again: the folder may have changed while the site was built
    if not out.exists():
        staging.rename(out)
    elif next(out.iterdir(), None) is None:
        for entry in staging.iterdir():
            entry.rename(out / entry.name)
    else:
        earlier = out.parent / f".{out.name}.earlier-{uuid.uuid4().hex[:12]}"
        out.rename(earlier)
        staging.rename(out)
        shutil.rmtree(earlier, ignore_errors=True)


class _WithoutDirtyWarning(logging.Filter):
    """Drops MkDocs' warning that a dirty build may be inaccurate: :mod:`belote_ref.site.reuse` makes it
    exact, and in strict mode the warning would fail the build."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "'dirty' build" not in record.getMessage()


def build_site(
    out_dir: str | os.PathLike[str] = "site",
    *,
    config_file: str | os.PathLike[str] | None = None,
    strict: bool = True,
    verbose: bool = False,
    rulesets: Sequence[str | os.PathLike[str]] = (),
    progress: Progress | None = None,
    reuse: bool = True,
) -> BuildResult:
    """Generate the pages and build the site into ``out_dir`` with MkDocs (strict by default).

    ``rulesets`` are house-rule files published beside the shipped rulesets: a page, a printable
    rule sheet and a column of the comparison each.

    ``out_dir`` must be new, empty or an earlier build's (it holds :data:`SITE_MARKER`): the site is
    built in a folder beside it and moved into place only when the build succeeded, so a failed build
    leaves the earlier one as it was, and a folder of the user's is never emptied.

    With ``reuse`` (and the cache folder on), the build renders again only the pages whose source
    changed since the earlier build into ``out_dir``, when nothing else changed (:mod:`belote_ref.site.reuse`);
    the site is the same as a full build's. ``progress`` is told the pages read and written.

    Raises :class:`~belote_ref.core.errors.BeloteRefError` (code ``docs``) when the build fails, for example
    on a broken link or anchor in strict mode.
    """
    load_config = _import_mkdocs()
    start = time.monotonic()
    config_path = find_config(config_file)
    out = Path(out_dir).resolve()
    check_out_dir(out)
    house = _house_rules(rulesets)
    work = memory.work_dir(out, config_path) if reuse else None
    if work is None:
        with tempfile.TemporaryDirectory(prefix="belote-ref-docs-") as tmp:
            pages = _build_in(Path(tmp), None, out, load_config, config_path, house, strict, verbose, progress)
    else:
        with memory.locked(work):
            memory.forget_other_outputs(work, SITE_MARKER)
            pages = _build_in(work, work, out, load_config, config_path, house, strict, verbose, progress)
    return BuildResult(out, pages, time.monotonic() - start)


def _build_in(folder: Path, work: Path | None, out: Path, load_config: Any, config_path: Path, house: list[Ruleset],
              strict: bool, verbose: bool, progress: Progress | None) -> int:
    """Build into ``out`` with the Markdown tree in ``folder``; reuse the earlier build when ``work``
    (the same folder, kept between builds) remembers it. Returns the number of generated pages."""
    from mkdocs.commands.build import build
    from mkdocs.exceptions import MkDocsException

    dirty_warning = _WithoutDirtyWarning()
    build_logger = logging.getLogger("mkdocs.commands.build")
    with _mkdocs_logging(verbose):
        base = _load(load_config, config_path)
        tree = folder / "docs"
        data = load_site_data(reports_dir=find_reports_dir(config_path), extra_rulesets=house)
        site, contents = tree_contents(Path(base.docs_dir), data, _engine_or_none())
        memory.sync_tree(tree, contents)
        with _staging_dir(out) as staging:
            # MkDocs empties its site_dir first: it is given a folder of its own.
            config = _load(load_config, config_path, docs_dir=str(tree), site_dir=str(staging), nav=site.nav,
                           strict=strict)
            key = memory.build_key(config, site.nav, contents, strict=strict)
            earlier = None
            if work is not None and (out / SITE_MARKER).is_file():
                earlier = memory.earlier_build(work, key, out / SITE_MARKER)
            # With the earlier site's unchanged outputs linked in, MkDocs renders a page again only if its
            # source is newer than its HTML.
            plugin = memory.SiteMemory(earlier, progress, out if earlier is not None else None)
            config.plugins["belote-ref/memory"] = plugin
            config.plugins.on_startup(command="build", dirty=False)
            build_logger.addFilter(dirty_warning)
            try:
                build(config, dirty=earlier is not None)
            except MkDocsException as error:
                raise BeloteRefError(f"the site did not build: {error}", code="docs") from None
            finally:
                build_logger.removeFilter(dirty_warning)
                config.plugins.on_shutdown()
            (staging / SITE_MARKER).write_text("".join(t(lang, "site_marker") + "\n" for lang in LANGUAGES),
                                               encoding="utf-8")
            if work is not None:
                memory.forget(work)  # until the new build is in place and recorded
            _move_into_place(staging, out)
            if work is not None:
                memory.save_memory(work, out, key, out / SITE_MARKER, plugin.pages)
    return len(site.pages)
