"""Conformance reports: the canonical JSON Lines report, JUnit XML derived from it, and text.

A report is a header line (runner, suite and adapter versions), one line per case, and a footer
with the counts and whether the run was complete (``schema/report.schema.json``); it is written
and read by :mod:`~belote_ref.conformance.report_file`. The text rendering is a table kind x ruleset,
then each failure with the rules it exercises, a compact picture of the situation, expected vs
got, and the command that reruns that one case.
"""

from __future__ import annotations

import json
import shlex
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from belote_ref.conformance.branches import BRANCH_RULESET_ID
from belote_ref.conformance.corpus import load_corpus
from belote_ref.conformance.report_file import footer_line, incomplete_run, read_report
from belote_ref.conformance.runner import BAD_OUTCOMES, OUTCOMES, CaseResult
from belote_ref.core.version import __version__

__all__ = [
    "case_line",
    "header_line",
    "incomplete_run",
    "read_report",
    "render_departures",
    "render_failures",
    "render_not_applicable",
    "render_refused",
    "render_table",
    "report_lines",
    "rerun_command",
    "summarize_changes",
    "write_junit",
]


def header_line(hello: Mapping[str, Any], command: str, *, impl: str | None = None,
                ruleset_refs: Mapping[str, str] | None = None, warnings: Sequence[str] = (),
                departures: Mapping[str, Mapping[str, Any]] | None = None, fixtures: str | None = None,
                refused_fixtures: Sequence[Mapping[str, str]] = ()) -> dict[str, Any]:
    """The report's header line.

    It keeps what a later ``summary`` needs to print rerun commands: ``impl`` (the ``--impl`` as
    given, null for the reference engine) and ``ruleset_refs`` (ruleset id -> how the command line
    named it, a house rule's path); the hello's ``warnings``, the adapter's ``departures`` from the
    shipped rulesets, and the fixtures of ``--fixtures`` that lint refused (``refused_fixtures``,
    each a ``path`` and a ``problem``), which were not run.
    """
    header: dict[str, Any] = {
        "type": "header", "runner": {"name": "belote-ref", "version": __version__}, "suite": __version__,
        "protocol": hello.get("protocol"), "adapter": dict(hello.get("implementation") or {}), "command": command,
        "started": datetime.now(UTC).isoformat(timespec="seconds"), "impl": impl,
        "ruleset_refs": dict(ruleset_refs or {}), "warnings": list(warnings), "fixtures": fixtures,
    }
    if departures is not None:
        header["departures"] = {ruleset: dict(values) for ruleset, values in departures.items()}
    if refused_fixtures:
        header["refused_fixtures"] = [dict(entry) for entry in refused_fixtures]
    return header


def case_line(result: CaseResult) -> dict[str, Any]:
    """The report line of one graded case."""
    case = result.case
    line: dict[str, Any] = {
        "type": "case",
        "id": case.id,
        "kind": case.fixture.kind,
        "ruleset": case.ruleset.id,
        "outcome": result.outcome,
        "rules": list(case.fixture.rules),
        "provenance": case.fixture.provenance,
    }
    if result.outcome == "n/a":
        line["reason"] = result.message
    elif result.outcome == "skip":
        line["message"] = result.message
    elif result.outcome != "pass":
        line.update({"given": case.given, "expected": case.expected, "got": result.got,
                     "message": result.message, "differences": result.differences})
    if result.seconds:
        line["ms"] = round(result.seconds * 1000, 3)
    return line


def report_lines(header: Mapping[str, Any], results: Sequence[CaseResult], planned: int | None = None,
                 interrupted: str | None = None) -> list[dict[str, Any]]:
    """The report as a list of JSON objects: ``header``, one per case, the footer (see
    :func:`~belote_ref.conformance.report_file.footer_line`)."""
    cases = [case_line(result) for result in results]
    return [dict(header), *cases, footer_line(cases, len(results) if planned is None else planned, interrupted)]


def _cases(lines: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [line for line in lines if line.get("type") == "case"]


def render_table(lines: Sequence[Mapping[str, Any]]) -> str:
    """Kind x ruleset: passed / sent, with the bad outcomes spelled out."""
    cases = _cases(lines)
    rulesets = list(dict.fromkeys(c["ruleset"] for c in cases))
    kinds = list(dict.fromkeys(c["kind"] for c in cases))
    cells: dict[tuple[str, str], Counter[str]] = {}
    for case in cases:
        cells.setdefault((case["kind"], case["ruleset"]), Counter())[case["outcome"]] += 1
    width = max([13, *(len(r) for r in rulesets)])
    out = [f"{'kind':<14}" + "".join(f"{r:>{width + 2}}" for r in rulesets)]
    for kind in kinds:
        row = f"{kind:<14}"
        for ruleset in rulesets:
            counter = cells.get((kind, ruleset), Counter())
            sent = sum(v for k, v in counter.items() if k != "n/a")
            if not sent:
                cell = "n/a" if counter else "-"
            else:
                cell = f"{counter['pass'] + counter['xfail']}/{sent}"
                bad = sum(counter[o] for o in BAD_OUTCOMES)
                if bad:
                    cell += f" ({bad}!)"
            row += f"{cell:>{width + 2}}"
        out.append(row)
    totals = Counter(c["outcome"] for c in cases)
    out.append("")
    out.append("  ".join(f"{outcome} {totals[outcome]}" for outcome in OUTCOMES if totals[outcome]) or "no case")
    return "\n".join(out)


def _picture(given: Mapping[str, Any], kind: str) -> str:
    """A compact, one- or two-line picture of the situation; its JSON when it has not the shape
    of its kind (a report read from outside may hold anything where a trick or a hand belongs)."""
    try:
        return _picture_of_kind(given, kind)
    except (AttributeError, TypeError):
        return json.dumps(given)[:100]


def _picture_of_kind(given: Mapping[str, Any], kind: str) -> str:
    if kind == "legal_plays":
        trick = given.get("trick", {})
        return (f"trump {given.get('trump')}; {trick.get('leader')} led {' '.join(trick.get('cards', [])) or '-'}; "
                f"{given.get('seat')} holds {' '.join(given.get('hand', []))}")
    if kind == "trick_winner":
        trick = given.get("trick", {})
        return f"trump {given.get('trump')}; {trick.get('leader')} led {' '.join(trick.get('cards', []))}"
    if kind in ("score", "replay"):
        extra = f", belote {given.get('belote')}" if given.get("belote") else ""
        taker = given.get("taker") or "(auction)"
        trump = given.get("trump", "?")
        return f"dealer {given.get('dealer')}, taker {taker}, trump {trump}{extra}, pot {given.get('pot', 0)}"
    if kind == "auction":
        return f"dealer {given.get('dealer')}, turned {given.get('turned')}, calls {' '.join(given.get('calls', []))}"
    if kind == "match":
        return f"{len(given.get('deals', []))} deal(s)"
    if kind == "announcements":
        return f"trump {given.get('trump')}; hand {' '.join(given.get('hand', []))}"
    return json.dumps(given)[:100]


def rerun_command(header: Mapping[str, Any]) -> str:
    """``belote-ref conformance run`` with the ``--impl`` (and ``--fixtures``) of the run the header describes."""
    impl, fixtures = header.get("impl"), header.get("fixtures")
    return ("belote-ref conformance run" + (f" --impl {shlex.quote(impl)}" if isinstance(impl, str) else "")
            + (f" --fixtures {shlex.quote(fixtures)}" if isinstance(fixtures, str) else ""))


def _differing_fields(case: Mapping[str, Any]) -> tuple[str, ...]:
    fields = {str(difference).split(":", 1)[0] for difference in case.get("differences") or []}
    return tuple(sorted(fields))


def _cause(case: Mapping[str, Any]) -> tuple[Any, ...]:
    """Failures with the same cause share a kind, an outcome, the rules they exercise and the
    fields that differ (or, for a crash or an error, the start of the message)."""
    message = str(case.get("message") or "")
    detail = _differing_fields(case) if case["outcome"] == "fail" else (message.split(";", 1)[0][:60],)
    return case["kind"], case["outcome"], tuple(case.get("rules") or ()), detail


def render_failures(lines: Sequence[Mapping[str, Any]], rerun: str | None = None,
                    ruleset_refs: Mapping[str, str] | None = None, shown_per_group: int = 8) -> str:
    """The bad cases grouped by cause: for each group, its size, one example in full (rules,
    picture, expected vs got, the command that reruns it) and the ids of the others.

    ``rerun`` and ``ruleset_refs`` default to what the report's header recorded.
    """
    header = lines[0] if lines else {}
    rerun = rerun or rerun_command(header)
    ruleset_refs = {**(header.get("ruleset_refs") or {}), **(ruleset_refs or {})}
    groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for case in _cases(lines):
        if case["outcome"] in BAD_OUTCOMES:
            groups.setdefault(_cause(case), []).append(case)
    out: list[str] = []
    for (kind, outcome, rules, detail), members in sorted(groups.items(), key=lambda item: -len(item[1])):
        example = members[0]
        if out:
            out.append("")
        what = f"field {', '.join(detail)}" if outcome == "fail" and detail else ", ".join(d for d in detail if d)
        out.append(f"{outcome.upper()} x{len(members)}: {kind}" + (f", rules {', '.join(rules)}" if rules else "")
                   + (f"; {what}" if what else ""))
        out.append(f"  example {example['id']} [{example['ruleset']}]")
        given = _given_of(example, header)
        if given is not None:
            out.append(f"  situation: {_picture(given, kind)}")
        for difference in example.get("differences") or []:
            out.append(f"  {difference}")
        if example.get("message"):
            out.append(f"  {example['message']}")
        if outcome == "fail" and not example.get("differences"):
            out.append(f"  expected {json.dumps(example.get('expected'))}")
            out.append(f"  got      {json.dumps(example.get('got'))}")
        out.append(f"  rerun: {rerun} {_scope_option(example, ruleset_refs)} --id {shlex.quote(example['id'])}")
        others = [f"{m['id']} [{m['ruleset']}]" for m in members[1:]]
        if others:
            listed = others[:shown_per_group]
            more = f", and {len(others) - len(listed)} more" if len(others) > len(listed) else ""
            out.append(f"  also: {', '.join(listed)}{more}")
    return "\n".join(out)


def _scope_option(case: Mapping[str, Any], ruleset_refs: Mapping[str, str]) -> str:
    if case["ruleset"] == BRANCH_RULESET_ID:
        return "--every-branch --ruleset classic"
    return f"--ruleset {shlex.quote(ruleset_refs.get(case['ruleset'], case['ruleset']))}"


def render_not_applicable(lines: Sequence[Mapping[str, Any]]) -> str:
    """The cases not sent, counted by reason (empty when every case was sent)."""
    reasons = Counter(str(c.get("reason") or "not applicable") for c in _cases(lines) if c["outcome"] == "n/a")
    if not reasons:
        return ""
    out = [f"not applicable: {sum(reasons.values())} case(s)"]
    out.extend(f"  {count:>6}  {reason}" for reason, count in reasons.most_common())
    return "\n".join(out)


def render_refused(header: Mapping[str, Any]) -> str:
    """The fixtures of ``--fixtures`` that were not run because lint refuses them, with why."""
    refused = header.get("refused_fixtures") or []
    if not refused:
        return ""
    out = [f"not run: {len(refused)} fixture(s) that lint refuses"]
    out.extend(f"  {entry['problem']}" for entry in refused)
    return "\n".join(out)


def render_departures(header: Mapping[str, Any]) -> str:
    """Which shipped rulesets the adapter's claims match, and where it departs from the others."""
    departures = header.get("departures")
    if not departures:
        return ""
    matching = [ruleset for ruleset, values in departures.items() if not values]
    out = [f"matches the shipped ruleset(s): {', '.join(matching) if matching else 'none'}"]
    for ruleset, values in departures.items():
        for parameter_id, claimed in values.items():
            shown = (
                claimed if claimed == "*" else " | ".join(json.dumps(v, ensure_ascii=False).strip('"') for v in claimed)
            )
            out.append(f"departs from {ruleset} on {parameter_id}: {shown or 'no value claimed'}")
    return "\n".join(out)


_GIVEN_LOOKUP: dict[str, Mapping[str, Any]] = {}


def _given_of(case: Mapping[str, Any], header: Mapping[str, Any]) -> Mapping[str, Any] | None:
    if isinstance(case.get("given"), Mapping):
        return case["given"]  # type: ignore[no-any-return]
    if not _GIVEN_LOOKUP:
        _GIVEN_LOOKUP.update({fixture.id: fixture.given for fixture in load_corpus()})
    return _GIVEN_LOOKUP.get(case["id"])


def summarize_changes(current: Sequence[Mapping[str, Any]], baseline: Sequence[Mapping[str, Any]]) -> str:
    """Only what changed between two reports: cases whose outcome differs, new and removed cases.

    When the two runs had another scope (different rulesets, kinds or id filters), the cases
    present in only one of them are reported in one line each, not one per case.
    """
    before = {(c["id"], c["ruleset"]): c["outcome"] for c in _cases(baseline)}
    after = {(c["id"], c["ruleset"]): c["outcome"] for c in _cases(current)}
    only_before, only_after = set(before) - set(after), set(after) - set(before)
    other_scope = len(only_before) > 10 or len(only_after) > 10
    # A fixture's derived variants (``<id>@<label>``) that changed as it did share its line.
    changes: dict[tuple[str, str, str | None, str | None], list[str]] = {}
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        if old == new or (other_scope and (old is None or new is None)):
            continue
        changes.setdefault((key[0].split("@", 1)[0], key[1], old, new), []).append(key[0])
    out = []
    for (fixture_id, ruleset, old, new), ids in changes.items():
        shown = ids[0] if len(ids) == 1 else fixture_id if fixture_id in ids else ids[0]
        derived = len(ids) - 1
        label = f"{shown} [{ruleset}]" + (f" and {derived} derived case(s)" if derived else "")
        if old is None:
            out.append(f"new      {label}: {new}")
        elif new is None:
            out.append(f"removed  {label}: was {old}")
        else:
            direction = "fixed   " if new in ("pass", "xfail") and old in BAD_OUTCOMES else (
                "broken  " if new in BAD_OUTCOMES else "changed ")
            out.append(f"{direction} {label}: {old} -> {new}")
    if other_scope:
        scope = (f"the baseline has another scope: {len(only_before)} of its case(s) are not in this run and "
                 f"{len(only_after)} case(s) of this run are not in it; compared the {len(set(before) & set(after))} "
                 f"case(s) in both")
        out.insert(0, scope)
    # A case missing from an interrupted run was not graded: say so before the cases it "removed".
    notes = [f"{which}: {note}" for which, lines in (("this report", current), ("the baseline", baseline))
             if (note := incomplete_run(lines)) is not None]
    out[:0] = notes
    return "\n".join(out) if out else "no change"


def write_junit(lines: Sequence[Mapping[str, Any]], path: str | Path) -> None:
    """JUnit XML derived from the report: one test case per case; an n/a case is a skipped one
    whose message gives the reason."""
    cases = list(_cases(lines))
    failures = sum(1 for c in cases if c["outcome"] == "fail")
    errors = sum(1 for c in cases if c["outcome"] in ("error", "crash", "timeout", "xpass"))
    skipped = sum(1 for c in cases if c["outcome"] in ("skip", "xfail", "n/a"))
    adapter = (lines[0].get("adapter") or {}).get("name", "implementation") if lines else "implementation"
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           (f'<testsuite name={quoteattr("belote-ref conformance: " + str(adapter))} tests="{len(cases)}" '
            f'failures="{failures}" errors="{errors}" skipped="{skipped}">')]
    for case in cases:
        seconds = (case.get("ms") or 0) / 1000
        out.append(f'  <testcase classname={quoteattr(case["kind"] + "." + case["ruleset"])} '
                   f'name={quoteattr(case["id"])} time="{seconds:.4f}">')
        detail = escape("\n".join([*(case.get("differences") or []), case.get("message") or ""]).strip())
        if case["outcome"] == "fail":
            out.append(f'    <failure message="wrong result">{detail}</failure>')
        elif case["outcome"] in ("error", "crash", "timeout", "xpass"):
            out.append(f'    <error message={quoteattr(case["outcome"])}>{detail}</error>')
        elif case["outcome"] in ("skip", "xfail"):
            out.append(f'    <skipped message={quoteattr(case["outcome"] + ": " + (case.get("message") or ""))}/>')
        elif case["outcome"] == "n/a":
            out.append(f'    <skipped message={quoteattr("n/a: " + (case.get("reason") or ""))}/>')
        out.append("  </testcase>")
    out.append("</testsuite>")
    # An adapter's message may hold a lone surrogate, which has no UTF-8 form.
    Path(path).write_text("\n".join(out) + "\n", encoding="utf-8", errors="backslashreplace")
