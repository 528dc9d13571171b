"""Build and serve the site: copy ``docs/`` and the generated pages into a temporary tree and run
MkDocs on it (strict: a broken link or anchor fails the build)."""

from __future__ import annotations

import logging
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from belote_ref.core.errors import BeloteRefError
from belote_ref.rules.ruleset import Ruleset, load_ruleset
from belote_ref.site.config import docs_dir_of, find_config
from belote_ref.site.data import SiteData, load_site_data
from belote_ref.site.pages import Site, generate_pages
from belote_ref.site.reports import find_reports_dir


def write_tree(tree: Path, docs_dir: Path, data: SiteData | None = None) -> Site:
    """Copy the hand-written ``docs_dir`` into ``tree`` and add the generated pages; returns them."""
    shutil.copytree(docs_dir, tree, dirs_exist_ok=True)
    hand_pages = [p.relative_to(tree).as_posix() for p in tree.rglob("*.md")]
    site = generate_pages(data, hand_pages)
    clash = sorted(set(site.pages) & set(hand_pages))
    if clash:
        raise BeloteRefError(f"docs/ has hand-written pages where generated pages go: {', '.join(clash)}", code="docs")
    for relative, text in site.pages.items():
        target = tree / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    for relative, content in site.files.items():
        target = tree / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    return site


def _import_mkdocs() -> Any:
    try:
        from mkdocs.config import load_config
    except ImportError:
        raise BeloteRefError("MkDocs is not installed: pip install 'belote-ref[docs]' "
                             "(mkdocs and mkdocs-material)", code="docs") from None
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
    return load_config(config_file=str(config_path), **overrides)


def _house_rules(paths: Sequence[str | os.PathLike[str]]) -> list[Ruleset]:
    return [load_ruleset(Path(path)) for path in paths]


def build_site(
    out_dir: str | os.PathLike[str] = "site",
    *,
    config_file: str | os.PathLike[str] | None = None,
    strict: bool = True,
    verbose: bool = False,
    rulesets: Sequence[str | os.PathLike[str]] = (),
) -> BuildResult:
    """Generate the pages and build the site into ``out_dir`` with MkDocs (strict by default).

    ``rulesets`` are house-rule files published beside the shipped rulesets: a page, a printable
    rule sheet and a column of the comparison each.

    Raises :class:`~belote_ref.core.errors.BeloteRefError` (code ``docs``) when the build fails, for example
    on a broken link or anchor in strict mode.
    """
    load_config = _import_mkdocs()
    from mkdocs.commands.build import build
    from mkdocs.exceptions import MkDocsException

    start = time.monotonic()
    config_path = find_config(config_file)
    out = Path(out_dir).resolve()
    house = _house_rules(rulesets)
    with tempfile.TemporaryDirectory(prefix="belote-ref-docs-") as tmp, _mkdocs_logging(verbose):
        base = _load(load_config, config_path)
        tree = Path(tmp) / "docs"
        data = load_site_data(reports_dir=find_reports_dir(config_path), extra_rulesets=house)
        site = write_tree(tree, Path(base.docs_dir), data)
        config = _load(load_config, config_path, docs_dir=str(tree), site_dir=str(out), nav=site.nav, strict=strict)
        config.plugins.on_startup(command="build", dirty=False)
        try:
            build(config)
        except MkDocsException as error:
            raise BeloteRefError(f"the site did not build: {error}", code="docs") from None
        finally:
            config.plugins.on_shutdown()
    return BuildResult(out, len(site.pages), time.monotonic() - start)


def serve_site(*, config_file: str | os.PathLike[str] | None = None, dev_addr: str | None = None,
               strict: bool = True, rulesets: Sequence[str | os.PathLike[str]] = ()) -> None:
    """Generate the pages into a temporary tree and run ``mkdocs serve`` on it (until interrupted)."""
    load_config = _import_mkdocs()
    from mkdocs.commands.serve import serve

    config_path = find_config(config_file)
    with tempfile.TemporaryDirectory(prefix="belote-ref-docs-") as tmp, _mkdocs_logging(True):
        base = _load(load_config, config_path)
        tree = Path(tmp) / "docs"
        data = load_site_data(reports_dir=find_reports_dir(config_path), extra_rulesets=_house_rules(rulesets))
        site = write_tree(tree, Path(base.docs_dir), data)
        serve(config_file=str(config_path), docs_dir=str(tree), nav=site.nav, strict=strict, dev_addr=dev_addr)
