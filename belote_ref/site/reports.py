"""The committed conformance reports of real implementations, read with the engine's
:func:`belote_ref.conformance.report.read_report` and checked line by line for the site."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from belote_ref.conformance.report import read_report
from belote_ref.conformance.runner import BAD_OUTCOMES, OUTCOMES
from belote_ref.core.errors import BeloteRefError
from belote_ref.site.config import find_config

# The committed conformance reports of real implementations (``*.jsonl``), shown on the
# implementations page: this folder of the checkout, that is beside the site's mkdocs.yml (an
# absolute path is taken as it is). With no such folder the page says there is none yet.
REPORTS_DIR = Path("conformance", "reports")


@dataclass(frozen=True)
class Report:
    """One committed conformance report (``schema/report.schema.json``), checked line by line."""

    path: Path
    header: Mapping[str, Any]
    cases: list[Mapping[str, Any]]
    footer: Mapping[str, Any]
    root: Path | None = None  # the checkout the report is committed in, when it is in one

    @property
    def shown_path(self) -> str:
        """The report's path as the page shows it: from the checkout (``conformance/reports/...``)."""
        if self.root is not None:
            try:
                return self.path.resolve().relative_to(self.root).as_posix()
            except ValueError:
                pass
        return self.path.name

    @property
    def adapter(self) -> Mapping[str, Any]:
        adapter: Mapping[str, Any] = self.header["adapter"]
        return adapter

    @property
    def name(self) -> str:
        return str(self.adapter["name"])

    @property
    def version(self) -> str:
        version = self.adapter.get("version")
        return "" if version is None else str(version)

    @property
    def anchor(self) -> str:
        """The id of the report's section: its file name without ``.jsonl``, made safe for an anchor."""
        return "impl-" + (re.sub(r"[^A-Za-z0-9_.-]+", "-", self.path.stem).strip("-") or "report")

    @property
    def failing(self) -> list[Mapping[str, Any]]:
        return [case for case in self.cases if case["outcome"] in BAD_OUTCOMES]


def _bad_report(path: Path, number: int, what: str) -> BeloteRefError:
    return BeloteRefError(f"malformed conformance report {path}:{number}: {what}", code="docs")


def _check_case(path: Path, number: int, line: Mapping[str, Any]) -> None:
    for key in ("id", "kind", "ruleset"):
        if not isinstance(line.get(key), str) or not line[key].strip():
            raise _bad_report(path, number, f"a case line needs a non-empty string {key!r}")
    if line.get("outcome") not in OUTCOMES:
        raise _bad_report(path, number, f"unknown outcome {line.get('outcome')!r} (one of {', '.join(OUTCOMES)})")
    rules = line.get("rules", [])
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise _bad_report(path, number, "'rules' must be a list of parameter ids")
    if line.get("provenance", "hand") not in ("hand", "engine"):
        raise _bad_report(path, number, f"unknown provenance {line.get('provenance')!r} (hand or engine)")


def load_report(path: str | os.PathLike[str], root: Path | None = None) -> Report:
    """Read and check one JSON Lines report; a malformed one raises :class:`BeloteRefError` naming the line.

    Besides the schema's shape, the header must come first and name its adapter, the footer must
    come last, and the footer's counts must be those of the case lines.
    """
    path = Path(path)
    try:
        lines = read_report(path)
        # Numbered as read_report reads them: split on line feeds only (U+2028 is no line break).
        numbers = [n for n, raw in enumerate(path.read_bytes().split(b"\n"), 1) if raw.strip()]
    except UnicodeDecodeError:
        raise BeloteRefError(f"conformance report {path}: cannot read: not UTF-8 text", code="docs") from None
    except BeloteRefError as error:
        # The engine's reader names the line (path:N: ...); a report without a header is refused at line 1.
        message = str(error)
        if message.startswith(f"{path}: ") and error.code == "bad_report":
            message = f"{path}:1:" + message[len(str(path)) + 1:]
        raise BeloteRefError(f"malformed conformance report {message}", code="docs") from None
    header: Mapping[str, Any] | None = None
    footer: Mapping[str, Any] | None = None
    cases: list[Mapping[str, Any]] = []
    number = 0
    for number, line in zip(numbers, lines, strict=True):
        kind = line["type"]
        if footer is not None:
            raise _bad_report(path, number, "a line after the footer")
        if kind == "header":
            if header is not None:
                raise _bad_report(path, number, "a second header line")
            adapter = line.get("adapter")
            if not isinstance(adapter, dict) or not isinstance(adapter.get("name"), str) or not adapter["name"].strip():
                raise _bad_report(path, number, "the header's adapter has no name")
            if not isinstance(adapter.get("version", ""), (str, int, float)):
                raise _bad_report(path, number, "the header's adapter version is not a string")
            header = line
        elif kind == "case":
            _check_case(path, number, line)
            cases.append(line)
        else:
            counts = line.get("counts")
            if not isinstance(counts, dict) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                       for v in counts.values()):
                raise _bad_report(path, number, "the footer's counts must be an object of whole numbers")
            for outcome in OUTCOMES:
                found = sum(1 for case in cases if case["outcome"] == outcome)
                if counts.get(outcome, 0) != found:
                    raise _bad_report(path, number, f"the footer counts {counts.get(outcome, 0)} {outcome} "
                                                    f"but the report has {found} such case lines")
            if line.get("ok") is not (not any(case["outcome"] in BAD_OUTCOMES for case in cases)):
                raise _bad_report(path, number, f"the footer's ok is {json.dumps(line.get('ok'))} but the "
                                                "case lines say otherwise")
            footer = line
    if header is None:
        raise _bad_report(path, max(number, 1), "empty: a report starts with its header line")
    if footer is None:
        raise _bad_report(path, number, "the report ends without its footer line (an interrupted run?)")
    return Report(path, header, cases, footer, root)


def find_reports_dir(config_file: str | os.PathLike[str] | None = None) -> Path:
    """The folder of the committed reports: :data:`REPORTS_DIR` beside the site's ``mkdocs.yml``
    (:func:`find_config`), else beside the package."""
    try:
        base = find_config(config_file).parent
    except BeloteRefError:
        base = Path(__file__).resolve().parents[2]
    return base / REPORTS_DIR


def load_reports(reports_dir: str | os.PathLike[str] | None = None) -> list[Report]:
    """Every ``*.jsonl`` report in ``reports_dir`` (default :func:`find_reports_dir`), by file name.

    No folder, no report: the implementations page then says there is none yet.
    """
    folder = Path(reports_dir) if reports_dir is not None else find_reports_dir()
    if not folder.is_dir():
        return []
    resolved = folder.resolve()
    root = resolved.parents[1] if resolved.parts[-2:] == ("conformance", "reports") else None
    return [load_report(path, root) for path in sorted(folder.glob("*.jsonl"))]


def _adapter_readme(report: Report) -> str | None:
    """The README of the report's adapter in the checkout (it explains every failure), found from the command."""
    match = re.search(r"conformance/adapters/([A-Za-z0-9_.-]+)/", str(report.header.get("command") or ""))
    if match and report.root is not None and \
            (report.root / "conformance" / "adapters" / match.group(1) / "README.md").is_file():
        return f"conformance/adapters/{match.group(1)}/README.md"
    return None


def _outcome_counts(cases: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    counts = dict.fromkeys(OUTCOMES, 0)
    for case in cases:
        counts[case["outcome"]] += 1
    return counts


def _passed_sent(counts: Mapping[str, int]) -> tuple[int, int]:
    """Cases passed (an expected failure counts as passed, as in the text report) and cases sent (all but n/a)."""
    return counts["pass"] + counts["xfail"], sum(n for outcome, n in counts.items() if outcome != "n/a")
