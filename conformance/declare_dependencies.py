"""Write each fixture's ``depends_on``: the parameters its answer depends on beyond its ``rules``.

    python conformance/declare_dependencies.py [--check] [FILE ...]

The dependencies are found with the reference engine (belote_ref.conformance.dependencies): a
parameter belongs in ``depends_on`` when another value of it (documented, an integer across its
range, an alternative table, or together with the parameter that puts it in play) changes the
engine's answer. ``belote-ref conformance lint`` reports any that is missing; this script adds
them, in registry order. Only the ``depends_on`` line of a file is rewritten (inserted after
``rules`` when there is none), the file read again just before it is written, so that the rest of
the text, and edits made meanwhile by others, stay as they are. ``--check`` only lists what it
would add (exit 1).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from belote_ref.conformance.corpus import iter_fixture_paths, load_fixture  # noqa: E402
from belote_ref.conformance.dependencies import undeclared_dependencies  # noqa: E402
from belote_ref.conformance.fmt import format_fixture  # noqa: E402
from belote_ref.rules.registry import load_registry  # noqa: E402


def with_depends_on(text: str, depends_on: list[str]) -> str:
    """``text`` with its ``depends_on`` block replaced by ``depends_on`` (canonically wrapped), or
    the block inserted after the ``rules`` block when the file has none."""
    block = format_fixture({"depends_on": depends_on}).splitlines(keepends=True)
    lines = text.splitlines(keepends=True)

    def block_end(start: int) -> int:
        end = start + 1
        while end < len(lines) and lines[end].startswith("  "):
            end += 1
        return end

    for index, line in enumerate(lines):
        if line.startswith("depends_on:"):
            return "".join(lines[:index] + block + lines[block_end(index):])
    for index, line in enumerate(lines):
        if line.startswith("rules:"):
            end = block_end(index)
            return "".join(lines[:end] + block + lines[end:])
    raise ValueError("no rules line to put depends_on after")


def main() -> int:
    arguments = [argument for argument in sys.argv[1:] if argument != "--check"]
    check = "--check" in sys.argv[1:]
    order = list(load_registry().parameters)
    changed = 0
    paths = [Path(argument) for argument in arguments] if arguments else iter_fixture_paths()
    for path in paths:
        fixture, _ = load_fixture(path)
        if fixture is None:
            continue
        missing = [parameter for parameter, _, _ in undeclared_dependencies(fixture)]
        if not missing:
            continue
        changed += 1
        if check:
            print(f"{path}: depends on {', '.join(missing)}", flush=True)
            continue
        current, _ = load_fixture(path)  # read again: another edit may have landed meanwhile
        if current is None:
            continue
        declared = set(current.data.get("depends_on") or ()) | set(missing)
        text = with_depends_on(path.read_text(encoding="utf-8"), sorted(declared, key=order.index))
        path.write_text(text, encoding="utf-8")
        print(f"{path}: + {', '.join(missing)}", flush=True)
    print(f"{changed} fixture(s) {'would change' if check else 'changed'}")
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
