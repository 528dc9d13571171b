"""Write each fixture's ``depends_on``: the parameters its answer depends on beyond its ``rules``.

    python conformance/declare_dependencies.py [--check]

The dependencies are found with the reference engine (belote_ref.conformance.dependencies): a
parameter belongs in ``depends_on`` when another documented value of it changes the engine's
answer. ``belote-ref conformance lint`` reports any that is missing; this script adds them, in
registry order, and keeps the file canonical. ``--check`` only lists what it would add (exit 1).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from belote_ref.conformance.corpus import iter_fixture_paths, load_fixture  # noqa: E402
from belote_ref.conformance.dependencies import undeclared_dependencies  # noqa: E402
from belote_ref.conformance.fmt import format_fixture  # noqa: E402
from belote_ref.rules.registry import load_registry  # noqa: E402


def main() -> int:
    check = "--check" in sys.argv[1:]
    order = list(load_registry().parameters)
    changed = 0
    for path in iter_fixture_paths():
        fixture, _ = load_fixture(path)
        if fixture is None:
            continue
        missing = [parameter for parameter, _, _ in undeclared_dependencies(fixture)]
        if not missing:
            continue
        changed += 1
        if check:
            print(f"{path}: depends on {', '.join(missing)}")
            continue
        data = dict(fixture.data)
        declared = set(data.get("depends_on") or ()) | set(missing)
        data["depends_on"] = sorted(declared, key=order.index)
        path.write_text(format_fixture(data), encoding="utf-8")
    print(f"{changed} fixture(s) {'would change' if check else 'changed'}")
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
