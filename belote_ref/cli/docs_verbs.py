"""``belote-ref docs``: build or serve the rules website."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from belote_ref.cli.options import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_OK,
)
from belote_ref.core.errors import BeloteRefError
from belote_ref.site import build_site, check_site, serve_site


class PageProgress:
    """Tells the pages MkDocs has read and written, on stderr: one line that updates itself on a terminal,
    else a line each tenth of the way (a log stays short)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self._last_tenth: dict[str, int] = {}

    def __call__(self, phase: str, done: int, total: int) -> None:
        line = f"{phase} pages {done}/{total}"
        if self.live:
            self.stream.write("\r" + line + ("\n" if done >= total else ""))
            self.stream.flush()
            return
        tenth = 10 if total == 0 else done * 10 // total
        if self._last_tenth.get(phase, -1) < tenth:
            self._last_tenth[phase] = tenth
            print(line, file=self.stream, flush=True)


def _site_failed(error: BeloteRefError) -> int:
    """A build that failed on the site's own grounds is one line and exit 1; anything else goes on up."""
    if getattr(error, "code", "") != "docs":
        raise error
    print(f"error: {error}", file=sys.stderr)
    return EXIT_FAILED


def cmd_docs_build(args: argparse.Namespace) -> int:
    try:
        result = build_site(args.out, config_file=args.config, verbose=args.verbose, rulesets=args.ruleset or (),
                            progress=PageProgress(sys.stderr))
    except BeloteRefError as error:
        return _site_failed(error)
    print(f"{result.pages} generated pages; site built in {result.seconds:.1f} s into {result.site_dir}")
    return EXIT_OK


def cmd_docs_check(args: argparse.Namespace) -> int:
    site = Path(args.site_dir)
    if not (site / "index.html").is_file():
        print(f"error: {site}: not a built site (no index.html): build it with `belote-ref docs build --out {site}`",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    result = check_site(site)
    print(f"pages: {result.pages}")
    for name, problems in (("broken links", result.broken_links),
                           ("French pages with English sentences", result.english_on_french_pages),
                           ("quotations without a label", result.unlabelled_quotations),
                           ("headings that skip a level", result.skipped_headings)):
        print(f"{name}: {len(problems)}")
        for problem in problems[:3]:
            print(f"  {problem}")
    sizes = ", ".join(f"{lang} {size / 1e6:.1f} MB" for lang, size in result.index_bytes.items())
    print(f"search index: {sizes or 'none'}")
    return EXIT_OK if result.ok else EXIT_FAILED


def cmd_docs_serve(args: argparse.Namespace) -> int:
    try:
        serve_site(config_file=args.config, dev_addr=args.dev_addr, rulesets=args.ruleset or (),
                   progress=PageProgress(sys.stderr))
    except BeloteRefError as error:
        return _site_failed(error)
    return EXIT_OK
