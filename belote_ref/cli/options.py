"""What the verbs share: exit codes, the one-line usage errors, option types and option groups.

Light on purpose: :mod:`belote_ref.cli.main` builds the whole parser from these before any verb
module (and the engine behind it) is imported."""

from __future__ import annotations

import argparse
import difflib
import json
import shlex
from pathlib import Path

from belote_ref.core.errors import BeloteRefError
from belote_ref.protocol.kinds import KINDS

TYPE_CHECKING = False  # `typing` is not imported at run time, for the start-up of `--help`
if TYPE_CHECKING:
    from typing import Any, NoReturn

    from belote_ref.rules.ruleset import Ruleset

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2


def search_path(args: argparse.Namespace) -> tuple[Path, ...]:
    """The folders of ``--rules-path``, where a ruleset's ``extends`` may also name a file."""
    return tuple(Path(folder) for folder in args.rules_path or ())


def add_rules_path_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules-path", action="append", metavar="DIR",
                        help="repeatable: a folder where `extends` may name a file (besides the extending file's own)")


def add_impl_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--impl", metavar="CMD", help="the adapter command, or python:module:factory "
                        "(default: the reference engine, `belote-ref serve`, as a subprocess)")


def add_case_filters(parser: argparse.ArgumentParser) -> None:
    """``--kind`` (repeatable), ``--id PREFIX`` and ``--rules-path``, which ``list`` and ``dump``
    share with ``run``."""
    add_rules_path_option(parser)
    parser.add_argument("--kind", action="append", type=kind, metavar="KIND", help="repeatable; default: every kind")
    parser.add_argument("--id", metavar="PREFIX", help="only cases whose id starts with PREFIX")


def format_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def english_title(ruleset: Ruleset) -> str:
    return ruleset.title.get("en") or ruleset.id


def usage_error(message: str) -> Exception:
    return BeloteRefError(message, code="usage")


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line: ``belote-ref run: error: ...``, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def seconds(text: str) -> float:
    """A positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds; found {text!r}") from None
    if not 0 < value < 1e6:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0; found {text!r}")
    return value


def whole_number(text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number; found {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"expected a whole number >= {minimum}; found {text!r}")
    return value


def count(text: str) -> int:
    """A whole number >= 1."""
    return whole_number(text, 1)


def count_or_zero(text: str) -> int:
    """A whole number >= 0."""
    return whole_number(text, 0)


def kind(text: str) -> str:
    """A protocol kind."""

    if text not in KINDS:
        near = difflib.get_close_matches(text, KINDS, n=1)
        hint = f"did you mean {near[0]!r}? " if near else ""
        raise argparse.ArgumentTypeError(f"unknown kind {text!r}; {hint}expected one of {', '.join(KINDS)}")
    return text


def shard_count(text: str) -> int:
    """A number of jobs, 1 to 64."""
    value = count(text)
    if value > 64:
        raise argparse.ArgumentTypeError(f"expected at most 64 jobs; found {text!r}")
    return value


def command_line(args: argparse.Namespace) -> str:
    """The command as a user would type it again: the program's name, not the path it was run from."""

    return shlex.join(["belote-ref", *args.argv])
