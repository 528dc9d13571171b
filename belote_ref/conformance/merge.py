"""``conformance merge``: the reports of shards of one run, joined into the report of the whole.

A record set or a corpus larger than one machine is cut into shards, each run on its own machine
(``conformance run --id ...``, ``--ruleset ...``, or ``replay`` of a part of the records); each
shard writes its JSON Lines report. The merge checks that the reports come from the same run
(the same runner, suite, protocol version, implementation and fixtures), keeps every case line in
the order of the reports given, refuses a case that two reports both ran, and computes the footer
again from the cases, as one run would have. A shard whose run was interrupted (or cut off
without a footer) is merged with the cases it graded, and the merged footer says that the whole
is not complete, naming that shard.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from belote_ref.conformance.report_file import footer_line, incomplete_run
from belote_ref.core.errors import BeloteRefError

__all__ = ["SAME_RUN_KEYS", "merge_reports"]

#: The header fields that must agree for reports to be shards of one run.
SAME_RUN_KEYS = ("runner", "suite", "protocol", "adapter", "impl", "fixtures")


def merge_reports(reports: Sequence[tuple[str, Sequence[Mapping[str, Any]]]]) -> list[dict[str, Any]]:
    """The report of the whole run from ``(name, lines)`` of each shard's report (as
    :func:`~belote_ref.conformance.report.read_report` reads them).

    Raises :class:`~belote_ref.core.errors.BeloteRefError` (code ``bad_report``) when the reports are
    not shards of one run, or when a case (``id`` and ``ruleset``) is in two of them.
    """
    if not reports:
        raise BeloteRefError("nothing to merge: give the reports of the shards", code="usage")
    first_name, first_lines = reports[0]
    first = first_lines[0]
    header: dict[str, Any] = {key: value for key, value in first.items() if key not in ("command", "started")}
    header["ruleset_refs"] = {}
    header["warnings"] = []
    header["merged_from"] = []
    departures: dict[str, Any] | None = None
    cases: list[dict[str, Any]] = []
    seen: dict[tuple[str, str], str] = {}
    for name, lines in reports:
        own = lines[0]
        for key in SAME_RUN_KEYS:
            if own.get(key) != first.get(key):
                raise BeloteRefError(f"{name}: not a shard of the run of {first_name}: its header's {key!r} differs "
                                     f"({own.get(key)!r}, not {first.get(key)!r})", code="bad_report")
        for ruleset_id, reference in (own.get("ruleset_refs") or {}).items():
            known = header["ruleset_refs"].setdefault(ruleset_id, reference)
            if known != reference:
                raise BeloteRefError(f"{name}: ruleset {ruleset_id} is {reference!r} here but {known!r} in an "
                                     "earlier report", code="bad_report")
        header["warnings"].extend(w for w in own.get("warnings") or () if w not in header["warnings"])
        if own.get("departures") is not None:
            departures = {**(departures or {}), **own["departures"]}
        header["merged_from"].append({"report": name, "command": own.get("command", ""),
                                      "started": own.get("started", "")})
        for line in lines[1:]:
            if line.get("type") != "case":
                continue
            case_key = (str(line.get("id")), str(line.get("ruleset")))
            if case_key in seen:
                raise BeloteRefError(f"{name}: case {case_key[0]} [{case_key[1]}] is also in {seen[case_key]}: "
                                     "shards must not overlap", code="bad_report")
            seen[case_key] = name
            cases.append(dict(line))
    if departures is not None:
        header["departures"] = departures
    header["command"] = "belote-ref conformance merge " + " ".join(name for name, _ in reports)
    header["started"] = min((str(own[0].get("started", "")) for _, own in reports), default="")
    incomplete = [f"{name}: {note}" for name, lines in reports if (note := incomplete_run(lines)) is not None]
    planned = [count for _, lines in reports if isinstance(count := lines[-1].get("cases"), int)]
    total = sum(planned) if len(planned) == len(reports) else None
    footer = footer_line(cases, total, "; ".join(incomplete) if incomplete else None)
    return [header, *cases, footer]
