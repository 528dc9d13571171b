"""The ``belote-ref`` command line: the parser, the verb table and the error handling of every verb.

Exit codes: 0 success, 1 a check failed, 2 bad input or usage, 3 an internal error. Errors are
printed one per line (``path:line:col: key.path: message``); a traceback only with ``--debug``.

Start-up stays fast because the parser is built from :mod:`belote_ref.cli.options` alone and a
verb's module, with the engine it imports, is loaded only when that verb runs: :data:`VERBS` is
the one place where the command line loads code lazily."""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

from belote_ref.cli.options import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    Parser,
    VersionAction,
    add_case_filters,
    add_impl_option,
    add_rules_path_option,
    count,
    count_or_zero,
    kind,
    seconds,
    shard_count,
)
from belote_ref.core.errors import BeloteRefError, RulesetError

TYPE_CHECKING = False  # `typing` is not imported at run time, for the start-up of `--help`
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = ["VERBS", "build_parser", "main"]

# Each verb's handler and the module of belote_ref.cli that holds it, imported when the verb runs.
VERBS = {
    "cmd_rules_list": "rules_verbs",
    "cmd_rules_show": "rules_verbs",
    "cmd_rules_validate": "rules_verbs",
    "cmd_rules_diff": "rules_verbs",
    "cmd_rules_schema": "rules_verbs",
    "cmd_play": "play_verbs",
    "cmd_replay": "play_verbs",
    "cmd_conformance_lint": "conformance_verbs",
    "cmd_conformance_coverage": "conformance_verbs",
    "cmd_conformance_list": "conformance_verbs",
    "cmd_conformance_dump": "conformance_verbs",
    "cmd_conformance_run": "conformance_verbs",
    "cmd_conformance_fuzz": "conformance_verbs",
    "cmd_conformance_summary": "conformance_verbs",
    "cmd_conformance_merge": "conformance_verbs",
    "cmd_conformance_smoke": "conformance_verbs",
    "cmd_fmt": "conformance_verbs",
    "cmd_serve": "serve_verb",
    "cmd_docs_build": "docs_verbs",
    "cmd_docs_check": "docs_verbs",
    "cmd_docs_serve": "docs_verbs",
}


def handler_of(name: str) -> Callable[[argparse.Namespace], int]:
    """The function that runs the verb ``name`` (a key of :data:`VERBS`), its module imported now."""
    handler: Callable[[argparse.Namespace], int] = getattr(import_module(f"belote_ref.cli.{VERBS[name]}"), name)
    return handler


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="belote-ref", description="Belote rules as data, a reference engine and a conformance suite.")
    parser.add_argument("--version", action=VersionAction)
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser)

    rules = commands.add_parser("rules", help="list, show, validate and compare rulesets")
    rules_commands = rules.add_subparsers(dest="rules_command", required=True, metavar="SUBCOMMAND")
    listing = rules_commands.add_parser("list", help="the shipped rulesets")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(handler="cmd_rules_list")
    show = rules_commands.add_parser("show", help="a ruleset's resolved parameters")
    show.add_argument("ruleset", metavar="ID|PATH")
    show.add_argument("--json", action="store_true", help='print {"id","version","parameters"} with dotted keys')
    show.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the values' labels (default en)")
    add_rules_path_option(show)
    show.set_defaults(handler="cmd_rules_show")
    validate = rules_commands.add_parser("validate", help="check ruleset files (exit 2 on any error)")
    validate.add_argument("paths", nargs="+", metavar="PATH")
    add_rules_path_option(validate)
    validate.set_defaults(handler="cmd_rules_validate")
    diff = rules_commands.add_parser("diff", help="the parameters that differ between two rulesets")
    diff.add_argument("a", metavar="A")
    diff.add_argument("b", metavar="B")
    diff.add_argument("--lang", choices=("en", "fr"), default="en",
                      help="language of the titles and the values' labels (default en)")
    add_rules_path_option(diff)
    diff.set_defaults(handler="cmd_rules_diff")
    schema = rules_commands.add_parser("schema", help="print the ruleset JSON Schema generated from the registry")
    schema.add_argument("--check", metavar="FILE", help="compare with FILE instead of printing")
    schema.set_defaults(handler="cmd_rules_schema")
    play = commands.add_parser("play", help="play random legal deals (or a match) and write their records")
    play.add_argument("--ruleset", required=True, metavar="ID|PATH")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--count", type=count, default=1, help="number of deals (default 1)")
    play.add_argument("--match", action="store_true", help="play a match to its end instead of --count deals")
    play.add_argument("--max-deals", type=count, default=500, help="stop an unfinished match after this many deals")
    play.add_argument("--out", metavar="FILE", help="write JSON Lines here (default: standard output)")
    play.add_argument("--jobs", type=shard_count, default=1, metavar="N",
                      help="play --count in N worker processes (blocks of 2,000 deals, each seeded from --seed "
                           "and its number, the first by --seed itself: the same deals as one job)")
    play.set_defaults(handler="cmd_play")

    # Deliberate copy: the commands' argparse declarations are alike in shape only; a shared option has a helper.
    replay = commands.add_parser(
        "replay", help="check every event of recorded deals and print them",
        description="Replay recorded deals: check every call, declaration and card, and compare each recorded "
                    "result with the computed one. A record is good (every event legal, its result agrees), bad "
                    "(not a record, an illegal event, or a result that disagrees or cannot be checked: empty, an "
                    "unknown key, a deal not over) or unchecked (every event legal, no result recorded, e.g. a "
                    "partial deal). Each problem is one line, file:line: message; a bad line never stops the rest. "
                    "Exit 0 when no record is bad, 1 when a record fails its check, 2 when an entry cannot be read "
                    "as a record of a shipped ruleset (or of a --ruleset).")
    replay.add_argument("files", nargs="+", metavar="FILE",
                        help="a .jsonl file (one record per line), a YAML/JSON file, or - for JSON Lines on "
                             "standard input")
    replay.add_argument(
        "--show", action="store_true", help="print every deal trick by trick (default: only a single deal)"
    )
    replay.add_argument("--jobs", type=shard_count, default=1, metavar="N",
                        help="check a JSON Lines input in N worker processes (shards of "
                             "2,000 lines; the same output, in the same order, as one job)")
    replay.add_argument("--ruleset", action="append", metavar="ID|PATH",
                        help="repeatable: a ruleset (a house rule's file) that records may name by its id and "
                             "version, besides the shipped ones")
    add_rules_path_option(replay)
    replay.set_defaults(handler="cmd_replay")
    conformance = commands.add_parser(
        "conformance", help="check an implementation (run, smoke, fuzz, summary, merge) and the corpus (lint, "
                            "coverage, list, dump)")
    conformance_commands = conformance.add_subparsers(dest="conformance_command", required=True, metavar="SUBCOMMAND")
    lint_parser = conformance_commands.add_parser("lint", help="check fixture files (exit 1 on any problem)")
    lint_parser.add_argument("paths", nargs="*", metavar="PATH")
    lint_parser.set_defaults(handler="cmd_conformance_lint")
    coverage_parser = conformance_commands.add_parser("coverage", help="fixtures per parameter value, and the gaps")
    coverage_parser.add_argument("--json", action="store_true")
    coverage_parser.add_argument("--strict", action="store_true", help="exit 1 when there is a gap")
    coverage_parser.set_defaults(handler="cmd_conformance_coverage")
    list_parser = conformance_commands.add_parser("list", help="the cases that apply to a ruleset")
    list_parser.add_argument("--ruleset", required=True, metavar="ID|PATH")
    add_case_filters(list_parser)
    list_parser.set_defaults(handler="cmd_conformance_list")
    dump_parser = conformance_commands.add_parser(
        "dump", help="the applicable cases as JSON lines, expectations included"
    )
    dump_parser.add_argument("--ruleset", required=True, metavar="ID|PATH")
    dump_parser.add_argument("--format", choices=["jsonl"], default="jsonl")
    add_case_filters(dump_parser)
    dump_parser.set_defaults(handler="cmd_conformance_dump")

    run = conformance_commands.add_parser("run", help="run an implementation against the corpus")
    add_impl_option(run)
    run.add_argument("--ruleset", action="append", metavar="ID|PATH", help="repeatable; default: every shipped ruleset")
    add_rules_path_option(run)
    run.add_argument("--kind", action="append", type=kind, metavar="KIND", help="repeatable; default: every kind")
    run.add_argument("--id", metavar="PREFIX", help="only cases whose id starts with PREFIX")
    run.add_argument("--every-branch", action="store_true",
                     help="also run every fixture under every branch of its expectations, each under a ruleset "
                          "generated to reach it (classic with the branch's values), where the adapter claims them")
    run.add_argument("--per-case", action="store_true", help="a fresh adapter for every case")
    run.add_argument("--timeout", type=seconds, default=10.0, metavar="S", help="per-message timeout (default 10)")
    run.add_argument("--give-up-after", type=count_or_zero, default=25, metavar="N",
                     help="after N crashes or timeouts in a row, settle the cases left unsent (default 25; 0: never)")
    run.add_argument("--jobs", type=shard_count, default=1, metavar="N",
                     help="run the cases in N worker processes, each with its own adapter, in contiguous ranges "
                          "(the same report as one job, times aside)")
    run.add_argument("--expected-failures", metavar="FILE", help="lines 'fixture-id [ruleset-id]' expected to fail")
    run.add_argument("--report", metavar="FILE", help="write the JSON Lines report")
    run.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    run.add_argument("--baseline", metavar="FILE", help="print what changed since this report")
    run.add_argument("--fixtures", metavar="DIR", help="run the fixtures of DIR (such as fuzz findings) instead "
                     "of the shipped corpus")
    run.set_defaults(handler="cmd_conformance_run")
    fuzz = conformance_commands.add_parser(
        "fuzz", help="differential testing: random situations, shrunk disagreements written as fixtures",
        description="Send random situations of every kind the adapter declares to it and to the reference engine, "
                    "shrink each disagreement to a minimal situation and write it as a fixture in --out. Exit 0 "
                    "when nothing disagreed, 1 when something did, 2 on bad usage or an adapter that cannot start.")
    add_impl_option(fuzz)
    fuzz.add_argument("--ruleset", action="append", metavar="ID|PATH",
                      help="repeatable; default: every shipped ruleset the adapter's claims cover")
    add_rules_path_option(fuzz)
    fuzz.add_argument("--kind", action="append", type=kind, metavar="KIND",
                      help="repeatable; default: every kind the adapter declares")
    budget = fuzz.add_mutually_exclusive_group()
    budget.add_argument("--budget", type=count, metavar="N", help="how many situations to draw (default 2000)")
    budget.add_argument("--time", type=seconds, metavar="S", help="draw situations for S seconds instead")
    fuzz.add_argument("--seed", type=int, metavar="S", help="the run's seed (default: a random one, printed)")
    fuzz.add_argument("--jobs", type=shard_count, default=1, metavar="J",
                      help="shards in separate processes, each with its own adapter (same result as one job)")
    fuzz.add_argument("--out", default="fuzz-findings", metavar="DIR",
                      help="where to write the findings as fixtures (default: fuzz-findings/)")
    fuzz.add_argument("--report", metavar="FILE", help="write the JSON Lines report")
    fuzz.add_argument("--timeout", type=seconds, default=10.0, metavar="S", help="per-message timeout (default 10)")
    fuzz.add_argument("--shrink-budget", type=count, default=1000, metavar="N",
                      help="at most N situations sent to the adapter to shrink one disagreement (default 1000)")
    fuzz.set_defaults(handler="cmd_conformance_fuzz")
    summary = conformance_commands.add_parser("summary", help="re-render a report, or what changed since a baseline")
    summary.add_argument("report", metavar="REPORT")
    summary.add_argument("--baseline", metavar="FILE")
    summary.set_defaults(handler="cmd_conformance_summary")
    merge = conformance_commands.add_parser(
        "merge", help="join the reports of shards of one run into one report",
        description="Join the JSON Lines reports of shards of one run (the same implementation, suite and "
                    "fixtures; cases split by --id, --ruleset or machine) into the report of the whole run: the "
                    "cases in the order given, the footer counted again. A case in two reports, or reports of "
                    "different runs, is an error (exit 2). Exit 0 when no case is bad, 1 otherwise.")
    merge.add_argument("reports", nargs="+", metavar="REPORT")
    merge.add_argument("-o", "--out", required=True, metavar="FILE", help="where to write the merged report")
    merge.set_defaults(handler="cmd_conformance_merge")
    smoke_parser = conformance_commands.add_parser(
        "smoke", help="hello and three simple cases; explain the first mistake"
    )
    smoke_parser.add_argument("--impl", required=True, metavar="CMD")
    smoke_parser.add_argument("--timeout", type=seconds, default=10.0, metavar="S")
    smoke_parser.set_defaults(handler="cmd_conformance_smoke")

    serve = commands.add_parser("serve", help="the reference engine as a protocol adapter (JSON lines on stdin/stdout)")
    serve.set_defaults(handler="cmd_serve")

    fmt = commands.add_parser("fmt", help="write fixture files in canonical format")
    fmt.add_argument("paths", nargs="*", metavar="PATH")
    fmt.add_argument("--check", action="store_true", help="only report files that are not canonical (exit 1)")
    fmt.set_defaults(handler="cmd_fmt")

    docs = commands.add_parser("docs", help="the rules website: build or serve it (needs the 'docs' extra)")
    docs_commands = docs.add_subparsers(dest="docs_command", required=True, metavar="SUBCOMMAND")
    docs_build = docs_commands.add_parser("build", help="generate the pages and build the site (strict)")
    docs_build.add_argument("--out", default="site", metavar="DIR", help="where to write the site (default: site/)")
    config_help = "the mkdocs.yml (default: the checkout's, else ./mkdocs.yml, else the package's)"
    docs_build.add_argument("--config", metavar="FILE", help=config_help)
    docs_build.add_argument("--verbose", action="store_true", help="show MkDocs' progress messages")
    docs_build.add_argument(
        "--ruleset",
        action="append",
        metavar="FILE",
        help="repeatable: a house-rule file to publish beside the shipped rulesets (its page and rule sheet)",
    )
    docs_build.set_defaults(handler="cmd_docs_build")
    docs_check = docs_commands.add_parser(
        "check", help="read a built site: broken links, English on French pages, unlabelled quotations, "
                      "skipped heading levels, search index sizes (exit 1 on any problem)")
    docs_check.add_argument("site_dir", nargs="?", default="site", metavar="DIR",
                            help="the built site (default: site/)")
    docs_check.set_defaults(handler="cmd_docs_check")
    docs_serve = docs_commands.add_parser("serve", help="serve the site at once, build it in the background")
    docs_serve.add_argument("--config", metavar="FILE", help=config_help)
    docs_serve.add_argument("--dev-addr", metavar="HOST:PORT", help="address to serve on (default 127.0.0.1:8000)")
    docs_serve.add_argument(
        "--ruleset", action="append", metavar="FILE", help="repeatable: a house-rule file to publish"
    )
    docs_serve.set_defaults(handler="cmd_docs_serve")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)

    try:
        result: int = handler_of(args.handler)(args)
        return result
    except RulesetError as error:
        if args.debug:
            raise
        for diagnostic in error.diagnostics:
            print(diagnostic, file=sys.stderr)
        return EXIT_BAD_INPUT
    except BeloteRefError as error:
        if args.debug:
            raise
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as error:
        if args.debug:
            raise
        print(f"internal error, please report it (rerun with --debug for details): {type(error).__name__}: {error}",
              file=sys.stderr)
        return 3
