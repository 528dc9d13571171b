"""What the verbs share: exit codes, the one-line usage errors, option types and option groups.

Light on purpose: :mod:`belote_ref.cli.main` builds the whole parser from these before any verb
module (and the engine behind it) is imported."""

from __future__ import annotations

import argparse
import difflib
import json
import re
import shlex
from collections.abc import Iterable
from pathlib import Path

from belote_ref.core.errors import BeloteRefError
from belote_ref.core.version import version_line
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


class VersionAction(argparse.Action):
    """``--version``: the version and the build that runs (pure Python, or compiled with mypyc),
    looked up only when asked for, so that building the parser stays cheap."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help=help or "show the version and the build (pure Python or compiled) and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print(version_line())
        parser.exit()


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line: ``belote-ref run: error: ...``, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {_with_nearest_choice(message)} (see {self.prog} --help)\n")


_INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from ((?:'[^']*'(?:, )?)+)\)")


def _with_nearest_choice(message: str) -> str:
    """argparse's "invalid choice" message with the nearest choice named (``rnu``: did you mean 'run'?)."""
    found = _INVALID_CHOICE.search(message)
    if found is None:
        return message
    near = difflib.get_close_matches(found.group(1), re.findall(r"'([^']*)'", found.group(2)), n=1)
    return f"{message}; did you mean {near[0]!r}?" if near else message


def nearest_ids(wanted: str, ids: Iterable[str]) -> str:
    """``"; did you mean 'a.b' or 'a.c'?"`` for an id filter that matches nothing, or ``""``. The
    filter is a prefix (``play.lead.``), so each id is also compared cut to the filter's length."""

    def likeness(candidate: str) -> float:
        return max(difflib.SequenceMatcher(None, wanted, text).ratio() for text in (candidate, candidate[:len(wanted)]))

    scored = sorted(((likeness(i), i) for i in set(ids)), key=lambda pair: (-pair[0], pair[1]))
    near = [candidate for score, candidate in scored[:2] if score >= 0.75]
    return f"; did you mean {' or '.join(repr(i) for i in near)}?" if near else ""


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
