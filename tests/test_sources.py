"""The texts the project cites are in the repository, and nothing sends a reader outside it."""

from __future__ import annotations

import re
from pathlib import Path

from belote_ref.rules.registry import load_registry

ROOT = Path(__file__).parent.parent
#: Where readers read: the package (docstrings, comments), the rulesets, the fixtures, the docs.
READ_BY_READERS = ("belote_ref", "rules", "conformance/fixtures", "docs", "benchmarks", "README.md", "conformance/README.md")
OUTSIDE = re.compile(r"rules\.md §|/work/|engine_style\.md|anchors\.md|ARCHITECTURE\.md")


def test_every_source_file_of_the_registry_is_in_the_repository() -> None:
    files = [source["file"] for source in load_registry().sources.values() if "file" in source]
    assert files, "the registry names no source file"
    for name in files:
        assert (ROOT / name).is_file(), f"the registry cites {name}, which is not in the repository"


def test_no_citation_of_a_file_outside_the_repository() -> None:
    found = []
    for top in READ_BY_READERS:
        base = ROOT / top
        paths = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.suffix in (".py", ".yaml", ".md"))
        for path in paths:
            if "sources" in path.relative_to(ROOT).parts:
                continue  # the cited texts themselves
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                # The site strips such citations from notes written before they were banned.
                if OUTSIDE.search(line) and "Older notes cite" not in line:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "\n".join(found)
