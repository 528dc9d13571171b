"""A conformance report on disk: written a line at a time as the run grades its cases, read back
with the bounded JSON Lines reader and every line's shape checked.

A report is a header line, one line per case, and a footer (``schema/report.schema.json``). The
writer flushes every case line as soon as it is in case order, so a run that is interrupted
(Ctrl-C, SIGTERM, a CI timeout) leaves the cases it graded; its footer then says
``"complete": false`` with the reason, and a run killed outright leaves a report without a
footer, which the reader accepts and :func:`incomplete_run` describes.

A report is read from outside (a baseline, the shards of a merge, a CI artefact), so reading is
bounded: the lines are split on ``\\n`` only, each decoded by
:func:`~belote_ref.core.jsonlines.decode_json_line` (strict UTF-8, bounded length and depth), and
a line whose shape would trip the renderers is refused as ``FILE:LINE: message``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from belote_ref.conformance.runner import BAD_OUTCOMES, OUTCOMES
from belote_ref.core.errors import BeloteRefError
from belote_ref.core.jsonlines import one_line, read_json_lines

__all__ = ["ReportWriter", "footer_line", "incomplete_run", "read_report", "report_bytes"]


def report_bytes(line: Mapping[str, Any]) -> bytes:
    """One report line as UTF-8 JSON and its line break.

    Non-ASCII text is written as it is; a line holding a lone surrogate (an adapter's reply may
    decode to one) is written with ASCII escapes instead, since it has no UTF-8 form.
    """
    text = json.dumps(line, ensure_ascii=False)
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(line).encode("ascii") + b"\n"


def footer_line(cases: Iterable[Mapping[str, Any]], planned: int | None, interrupted: str | None = None
                ) -> dict[str, Any]:
    """The footer of a report whose case lines are ``cases``: the count of each outcome, the
    reasons of the n/a cases, ``graded`` (the case lines) out of ``planned`` (the cases the run
    had to grade, None when unknown), and ``complete``; an interrupted run (``interrupted`` says
    why) is never ``ok``."""
    counts: Counter[str] = Counter()
    not_applicable: Counter[str] = Counter()
    graded = 0
    for case in cases:
        graded += 1
        counts[str(case.get("outcome"))] += 1
        if case.get("outcome") == "n/a":
            not_applicable[str(case.get("reason", ""))] += 1
    footer: dict[str, Any] = {
        "type": "footer", "counts": {outcome: counts.get(outcome, 0) for outcome in OUTCOMES},
        "not_applicable": dict(not_applicable.most_common()),
        "ok": interrupted is None and not any(counts.get(outcome) for outcome in BAD_OUTCOMES),
        "complete": interrupted is None, "graded": graded,
    }
    if planned is not None:
        footer["cases"] = planned
    if interrupted is not None:
        footer["interrupted"] = interrupted
    return footer


class ReportWriter:
    """Writes a report to ``path`` as the run goes: :meth:`header` once, :meth:`case` for each
    result as it comes (in any order; each line is written, and flushed, once the lines before it
    in case order are), :meth:`finish` at the end or on an interruption.

    The file is created by :meth:`header`, so a run whose adapter never greets leaves the path as
    it was.
    """

    def __init__(self, path: Path, planned: int) -> None:
        self.path = path
        self.planned = planned
        self._stream: IO[bytes] | None = None
        self._header: dict[str, Any] | None = None
        self._waiting: dict[int, dict[str, Any]] = {}
        self._next = 0
        self._written: list[dict[str, Any]] = []
        # The lines of the write in progress, how many lines were counted and where the file
        # ended before it: what finish() needs to count exactly after an interruption.
        self._pending: list[dict[str, Any]] = []
        self._pending_base = 0
        self._pending_offset = 0
        self._end = 0

    @property
    def started(self) -> bool:
        """Whether the header is written (the file exists)."""
        return self._stream is not None

    def header(self, line: dict[str, Any]) -> None:
        """Create the file with its header line."""
        try:
            self._stream = self.path.open("wb")
        except OSError as error:
            raise BeloteRefError(f"--report {self.path}: cannot write: {error.strerror}", code="io") from None
        self._header = line
        self._write([line])

    def case(self, index: int, line: dict[str, Any]) -> None:
        """The line of case ``index`` (0-based, in case order); written with every line it frees."""
        self._waiting[index] = line
        ready: list[dict[str, Any]] = []
        while self._next in self._waiting:
            ready.append(self._waiting.pop(self._next))
            self._next += 1
        if ready:
            # An interruption may come between any two steps here: finish() reads the file's end
            # to count exactly the lines that reached it.
            self._pending_base, self._pending_offset = len(self._written), self._end
            self._pending = ready
            self._write(ready)
            self._written.extend(ready)
            self._pending = []

    def finish(self, interrupted: str | None = None) -> list[dict[str, Any]]:
        """Write the lines still waiting (an interrupted run leaves gaps) and the footer; close the
        file. Returns the report's lines."""
        if self._stream is None or self._header is None:
            return []
        self._count_pending()
        left = [self._waiting.pop(index) for index in sorted(self._waiting)]
        if left and interrupted is None:
            interrupted = f"{len(left)} case(s) came without the ones before them"
        self._written.extend(left)
        footer = footer_line(self._written, self.planned, interrupted)
        self._write([*left, footer])
        self._stream.close()
        self._stream = None
        return [self._header, *self._written, footer]

    def _write(self, lines: list[dict[str, Any]]) -> None:
        if self._stream is None:
            return
        self._stream.write(b"".join(report_bytes(line) for line in lines))
        self._stream.flush()
        self._end = self._stream.tell()

    def _count_pending(self) -> None:
        """The lines of a write that an interruption cut short of being counted: those the file
        holds (its end is past where the counted lines end) are counted, the others dropped."""
        if not self._pending or self._stream is None:
            return
        self._stream.flush()
        reached, offset = self._stream.tell(), self._pending_offset
        del self._written[self._pending_base:]
        for line in self._pending:
            offset += len(report_bytes(line))
            if offset > reached:
                break
            self._written.append(line)
        self._pending = []


# ------------------------------------------------------------------------------------ reading

_Check = Callable[[Any], bool]


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_dict(value: Any) -> bool:
    return isinstance(value, dict)


def _str_or_null(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _dict_of(check: _Check) -> _Check:
    return lambda value: isinstance(value, dict) and all(check(item) for item in value.values())


def _claimed(value: Any) -> bool:
    return value == "*" or isinstance(value, list)


def _merged_entry(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("report"), str)


def _refused_entry(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(value.get(key), str) for key in ("path", "problem"))


#: For each line type: its required fields, then every field the renderers read, with the shape
#: each must have and the words that say it.
_FIELDS: dict[str, tuple[tuple[str, ...], dict[str, tuple[_Check, str]]]] = {
    "header": (("runner", "suite", "protocol", "adapter"), {
        "runner": (_is_dict, "an object"), "suite": (_is_str, "a string"), "protocol": (_is_int, "an integer"),
        "adapter": (_is_dict, "an object"), "command": (_is_str, "a string"), "started": (_is_str, "a string"),
        "impl": (_str_or_null, "a string or null"), "fixtures": (_str_or_null, "a string or null"),
        "ruleset_refs": (_dict_of(_is_str), "an object of strings"),
        "warnings": (_strings, "a list of strings"),
        "departures": (_dict_of(_dict_of(_claimed)), 'an object of objects of "*" or lists'),
        "merged_from": (lambda v: isinstance(v, list) and all(map(_merged_entry, v)),
                        "a list of objects with a 'report'"),
        "refused_fixtures": (lambda v: isinstance(v, list) and all(map(_refused_entry, v)),
                             "a list of objects with a 'path' and a 'problem'"),
    }),
    "case": (("id", "kind", "ruleset", "outcome"), {
        "id": (_is_str, "a string"), "kind": (_is_str, "a string"), "ruleset": (_is_str, "a string"),
        "outcome": (lambda v: v in OUTCOMES, "one of " + ", ".join(OUTCOMES)),
        "rules": (_strings, "a list of strings"), "provenance": (_is_str, "a string"),
        "reason": (_is_str, "a string"), "message": (_is_str, "a string"), "given": (_is_dict, "an object"),
        "differences": (_strings, "a list of strings"), "ms": (_is_number, "a number"),
    }),
    "footer": (("counts", "ok"), {
        "counts": (_dict_of(_is_int), "an object of integers"), "ok": (lambda v: isinstance(v, bool), "true or false"),
        "not_applicable": (_dict_of(_is_int), "an object of integers"),
        "complete": (lambda v: isinstance(v, bool), "true or false"), "graded": (_is_int, "an integer"),
        "cases": (_is_int, "an integer"), "interrupted": (_is_str, "a string"),
    }),
}


def _shape_problem(item: Any) -> str | None:
    """Why ``item`` is not a report line of its type, or None."""
    if not isinstance(item, dict) or item.get("type") not in _FIELDS:
        return "not a report line (an object whose type is header, case or footer)"
    required, fields = _FIELDS[item["type"]]
    for name in required:
        if name not in item:
            return f"a {item['type']} line needs {name!r}"
    for name, (check, words) in fields.items():
        if name in item and not check(item[name]):
            if name == "outcome":
                return f"unknown outcome {one_line(repr(item[name]), 60)} ({words})"
            return f"the {item['type']}'s {name!r} must be {words}"
    return None


def read_report(path: str | Path) -> list[dict[str, Any]]:
    """The lines of the JSON Lines report at ``path`` (blank lines skipped), each checked.

    Raises :class:`BeloteRefError` (code ``bad_report``, or ``io``) as ``FILE:LINE: message`` for
    a line that is not strict UTF-8, not JSON within the reader's limits, or not the shape of a
    report line; and for a report that does not start with its header, has a second header, or
    has a line after its footer. A report without a footer (a run killed outright) is read.
    """
    lines: list[dict[str, Any]] = []
    try:
        with Path(path).open("rb") as stream:
            for line in read_json_lines(stream):
                if line.error is not None:
                    raise BeloteRefError(f"{path}:{line.number}: {line.error}", code="bad_report")
                problem = _shape_problem(line.value)
                if problem is None:
                    problem = _order_problem(lines, line.value["type"])
                if problem is not None:
                    raise BeloteRefError(f"{path}:{line.number}: {problem}", code="bad_report")
                lines.append(line.value)
    except OSError as error:
        raise BeloteRefError(f"{path}: cannot read: {error.strerror}", code="io") from None
    if not lines:
        raise BeloteRefError(f"{path}: a report starts with its header line; this one is empty", code="bad_report")
    return lines


def _order_problem(before: list[dict[str, Any]], kind: str) -> str | None:
    if not before:
        return None if kind == "header" else "a report starts with its header line"
    if before[-1]["type"] == "footer":
        return "a line after the footer"
    if kind == "header":
        return "a second header"
    return None


def incomplete_run(lines: Sequence[Mapping[str, Any]]) -> str | None:
    """None for the report of a complete run; otherwise one line saying how it ended: interrupted
    (why, and how many cases were graded out of how many) or cut off without a footer."""
    footer = lines[-1] if lines and lines[-1].get("type") == "footer" else None
    graded = sum(1 for line in lines if line.get("type") == "case")
    if footer is None:
        return f"the run was cut off: the report has no footer, {graded} case(s) graded"
    if footer.get("complete", True):
        return None
    planned = footer.get("cases")
    of = f" of {planned}" if planned is not None else ""
    return f"the run was interrupted ({footer.get('interrupted', 'no reason given')}): {graded}{of} case(s) graded"
