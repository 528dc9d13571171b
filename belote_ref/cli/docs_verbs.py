"""``belote-ref docs``: build or serve the rules website."""

from __future__ import annotations

import argparse
import sys

from belote_ref.cli.options import (
    EXIT_FAILED,
    EXIT_OK,
)
from belote_ref.core.errors import BeloteRefError
from belote_ref.site import build_site, serve_site


def cmd_docs_build(args: argparse.Namespace) -> int:
    try:
        result = build_site(args.out, config_file=args.config, verbose=args.verbose, rulesets=args.ruleset or ())
    except BeloteRefError as error:
        if getattr(error, "code", "") != "docs":
            raise
        print(f"error: {error}", file=sys.stderr)
        return EXIT_FAILED
    print(f"{result.pages} generated pages; site built in {result.seconds:.1f} s into {result.site_dir}")
    return EXIT_OK


def cmd_docs_serve(args: argparse.Namespace) -> int:
    serve_site(config_file=args.config, dev_addr=args.dev_addr, rulesets=args.ruleset or ())
    return EXIT_OK
