"""The implementations page: the committed conformance reports as matrices kind x ruleset."""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from belote_ref.conformance.runner import BAD_OUTCOMES, OUTCOMES
from belote_ref.site.data import SiteData
from belote_ref.site.markup import (
    _lang_switch,
    _rule_links,
    _ruleset_link,
    code,
    fixture_page,
    label_md,
    md,
    param_page,
    rel,
    title_of,
)
from belote_ref.site.reports import Report, _adapter_readme, _outcome_counts, _passed_sent
from belote_ref.site.stories import fixture_title
from belote_ref.site.wording import kind_name, kind_order, lbl, t


def _name(text: Any) -> str:
    """A proper name (a programming language, a product) as it is written, in any language."""
    return f'<span class="bt-name" translate="no">{md(text)}</span>'


def _matrix_cell(cases: Sequence[Mapping[str, Any]]) -> str:
    """One kind x ruleset cell: passed / sent, then the other outcomes; highlighted when something failed."""
    if not cases:
        return '<span class="bt-cell bt-empty-cell">—</span>'
    counts = _outcome_counts(cases)
    passed, sent = _passed_sent(counts)
    bad = sum(counts[o] for o in BAD_OUTCOMES)
    state = "bt-fail" if bad else "bt-pass" if sent and passed == sent else "bt-partial" if sent else "bt-none-sent"
    extra = " · ".join(f"{outcome} {counts[outcome]}" for outcome in OUTCOMES
                       if outcome not in ("pass", "xfail") and counts[outcome])
    main = f"<b>{passed}/{sent}</b>" if sent else "<b>—</b>"
    return f'<span class="bt-cell {state}">{main}' + (f"<br><small>{extra}</small>" if extra else "") + "</span>"


def _kind_label(kind: str, lang: str) -> str:
    label = kind_name(kind, lang)
    return md(label[0].upper() + label[1:])


def _report_matrix(data: SiteData, lang: str, path: str, report: Report) -> list[str]:
    shipped = [r.id for r in data.rulesets]
    seen = list(dict.fromkeys(case["ruleset"] for case in report.cases))
    ordered = [r for r in shipped if r in seen] + [r for r in seen if r not in shipped]
    sent = {case["ruleset"] for case in report.cases if case["outcome"] != "n/a"}
    # the rulesets the implementation was actually run under first, those it supports none of after
    rulesets = [r for r in ordered if r in sent] + [r for r in ordered if r not in sent]
    kinds = list(dict.fromkeys(case["kind"] for case in report.cases))
    kinds = [k for k in kind_order() if k in kinds] + [k for k in kinds if k not in kind_order()]
    cells: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for case in report.cases:
        cells.setdefault((case["kind"], case["ruleset"]), []).append(case)
    out = ['<div class="bt-compare bt-matrix" markdown>', "",
           f"| {t(lang, 'kind')} | " + " | ".join(_ruleset_link(data, lang, path, r) for r in rulesets) + " |",
           "|---" * (len(rulesets) + 1) + "|"]
    for kind in kinds:
        out.append(f"| {_kind_label(kind, lang)}<br><small class=\"bt-pid\">{md(kind)}</small> | "
                   + " | ".join(_matrix_cell(cells.get((kind, r), [])) for r in rulesets) + " |")
    out.append(f"| **{t(lang, 'all_kinds')}** | "
               + " | ".join(_matrix_cell([c for c in report.cases if c["ruleset"] == r]) for r in rulesets) + " |")
    out += ["", "</div>", ""]
    own = [r for r in rulesets if r not in shipped]
    if own:
        out += [f"{lbl(lang, 'adapter_rulesets')}{', '.join(code(r) for r in own)}.", ""]
    return out


def _overview(data: SiteData, lang: str, path: str) -> list[str]:
    """Engine x ruleset, every kind together (the kinds are in each engine's own matrix below)."""
    shipped = [r.id for r in data.rulesets]
    seen = list(dict.fromkeys(case["ruleset"] for report in data.reports for case in report.cases))
    rulesets = [r for r in shipped if r in seen] + [r for r in seen if r not in shipped]
    out = [
        f"## {t(lang, 'overview')}",
        "",
        t(lang, "overview_text"),
        "",
        '<div class="bt-compare bt-matrix" markdown>',
        "",
        f"| {t(lang, 'implementation')} | " + " | ".join(_ruleset_link(data, lang, path, r) for r in rulesets) + " |",
        "|---" * (len(rulesets) + 1) + "|",
    ]
    for report in data.reports:
        by_ruleset: dict[str, list[Mapping[str, Any]]] = {}
        for case in report.cases:
            by_ruleset.setdefault(case["ruleset"], []).append(case)
        out.append(f"| [{md(f'{report.name} {report.version}'.strip())}](#{report.anchor}) | "
                   + " | ".join(_matrix_cell(by_ruleset.get(r, [])) for r in rulesets) + " |")
    return out + ["", "</div>", ""]


def _not_sent(lang: str, report: Report) -> list[str]:
    """The cases not sent (n/a), counted by the reason the runner gave, with the rulesets concerned."""
    reasons: dict[str, list[Mapping[str, Any]]] = {}
    for case in report.cases:
        if case["outcome"] == "n/a":
            reasons.setdefault(str(case.get("reason") or ""), []).append(case)
    if not reasons:
        return []
    out = [f"### {t(lang, 'not_sent')} ({sum(len(c) for c in reasons.values())})", "", t(lang, "not_sent_text"), "",
           f"| {t(lang, 'reason')} | {t(lang, 'cases')} | {t(lang, 'rulesets')} |", "|---|--:|---|"]
    for reason, cases in sorted(reasons.items(), key=lambda item: -len(item[1])):
        # The reason is the runner's own message, in English: marked so, for readers and tools.
        shown = f'<span lang="en">{md(reason)}</span>' if reason else f"*{t(lang, 'no_reason')}*"
        rulesets = ", ".join(code(r) for r in dict.fromkeys(c["ruleset"] for c in cases))
        out.append(f"| {shown} | {len(cases)} | {rulesets} |")
    return out + [""]


def _departures(data: SiteData, lang: str, path: str, report: Report) -> list[str]:
    """Where the adapter says the implementation departs from a shipped ruleset: what the ruleset sets
    and what the implementation plays instead (the report header's ``departures``)."""
    departures = report.header.get("departures")
    if not isinstance(departures, Mapping) or not any(departures.values()):
        return []
    rows: dict[tuple[str, str], list[str]] = {}
    for ruleset_id, values in departures.items():
        for pid, claimed in (values or {}).items():
            rows.setdefault((pid, json.dumps(claimed, sort_keys=True)), []).append(ruleset_id)
    out = [
        f"### {t(lang, 'departures')}",
        "",
        t(lang, "departures_text"),
        "",
        f"| {t(lang, 'parameter')} | {t(lang, 'departures_ruleset')} | {t(lang, 'departures_plays')} |",
        "|---|---|---|",
    ]
    rulesets = {r.id: r for r in data.rulesets}
    for (pid, claimed_json), ruleset_ids in rows.items():
        parameter = data.registry.parameters.get(pid)
        claimed = json.loads(claimed_json)
        name = (f"[{md(title_of(pid, lang))}]({rel(path, param_page(data, lang, pid))})<br><small class=\"bt-pid\">"
                f"{md(pid)}</small>" if parameter else code(pid))
        theirs = ", ".join(f"{_ruleset_link(data, lang, path, r)}{t(lang, 'colon')}"
                           + (label_md(rulesets[r][pid], parameter, lang) if r in rulesets and parameter else "—")
                           for r in ruleset_ids)
        plays = (t(lang, "departures_any") if claimed == "*" else
                 ", ".join(label_md(value, parameter, lang) for value in claimed) or t(lang, "departures_none"))
        out.append(f"| {name} | {theirs} | {plays} |")
    return out + [""]


def _report_failures(data: SiteData, lang: str, path: str, report: Report) -> list[str]:
    failing = report.failing
    out = [f"### {t(lang, 'failing')} ({len(failing)})", ""]
    if not failing:
        return out + [t(lang, "no_failing"), ""]
    fixtures = {f.id: f for f in data.fixtures}
    grouped: dict[str, list[Mapping[str, Any]]] = {}
    for case in failing:
        # A derived case (suits renamed, seats rotated, a generated branch) fails with its fixture.
        grouped.setdefault(case["id"].split("@", 1)[0].split("#", 1)[0], []).append(case)
    out += [f"| {t(lang, 'fixture')} | {t(lang, 'kind')} | {t(lang, 'failing_under')} | {t(lang, 'rules')} |",
            "|---|---|---|---|"]
    for fixture_id, cases in grouped.items():
        fixture = fixtures.get(fixture_id)
        if fixture is not None:
            cell = (f'<span id="{html.escape(report.anchor + "--" + fixture_id)}"></span>'
                    f"[{code(fixture_id)}]({rel(path, fixture_page(lang, fixture))})"
                    f"<br><small>{md(fixture_title(fixture, lang))}</small>")
            rules: Iterable[str] = fixture.rules
        else:
            cell = f"{code(fixture_id)}<br><small>{t(lang, 'not_in_corpus')}</small>"
            rules = dict.fromkeys(r for case in cases for r in case.get("rules") or ())
        outcomes: dict[str, list[str]] = {}
        for case in cases:
            outcomes.setdefault(case["ruleset"], []).append(case["outcome"])
        under = ", ".join(f"{_ruleset_link(data, lang, path, ruleset)} "
                          f"({code(', '.join(dict.fromkeys(found)))}{' x' + str(len(found)) if len(found) > 1 else ''})"
                          for ruleset, found in outcomes.items())
        kind = _kind_label(cases[0]["kind"], lang)
        out.append(f"| {cell} | {kind} | {under} | {_rule_links(data, lang, path, rules)} |")
    return out + [""]


def implementations_page(data: SiteData, lang: str) -> str:
    """The implementations checked against the suite, from the committed conformance reports."""
    path = f"{lang}/implementations.md"
    out = ["---", "hide: [navigation]", "---", "", f"# {t(lang, 'impl_title')}", "", _lang_switch(path, lang),
           t(lang, "impl_intro"), ""]
    if not data.reports:
        out += [f'!!! info "{t(lang, "implementations")}"', "", f"    {t(lang, 'impl_none')}", ""]
        if "protocol.md" in data.hand_pages:
            target = "protocol.md" if lang == "en" else f"{lang}/protocol.md"
            out += [t(lang, "impl_none_how", protocol=t(lang, "protocol"), link=rel(path, target)), ""]
        return "\n".join(out) + "\n"
    head = (f"| {t(lang, 'implementation')} | {t(lang, 'version')} | {t(lang, 'language')} | "
            f"{t(lang, 'passed_sent')} | `fail` | `skip` | `n/a` | {t(lang, 'result')} |")
    out += [f"## {t(lang, 'summary')}", "", head, "|---|---|---|---|---|---|---|---|"]
    for report in data.reports:
        counts = _outcome_counts(report.cases)
        passed, sent = _passed_sent(counts)
        bad = len(report.failing)
        result = (f'<span class="bt-cell bt-fail">{t(lang, "result_bad", n=bad)}</span>' if bad
                  else f'<span class="bt-cell bt-pass">{t(lang, "result_ok")}</span>')
        language = report.adapter.get("language")
        out.append(f"| [{md(report.name)}](#{report.anchor}) | {code(report.version) if report.version else '—'} | "
                   f"{_name(language) if language else '—'} | {passed}/{sent} | {bad} | {counts['skip']} | "
                   f"{counts['n/a']} | {result} |")
    out.append("")
    out += _overview(data, lang, path)
    for report in data.reports:
        title = f"{report.name} {report.version}".strip()
        out += [f"## {md(title)} {{#{report.anchor}}}", ""]
        facts = []
        if report.adapter.get("language"):
            facts.append(f"{lbl(lang, 'language')}{_name(report.adapter['language'])}")
        suite = report.header.get("suite")
        if suite:
            facts.append(f"{lbl(lang, 'suite')}belote-ref {code(suite)}")
        started = str(report.header.get("started") or "")
        if started:
            facts.append(f"{lbl(lang, 'run_on')}{md(started[:10])}")
        facts.append(f"{lbl(lang, 'report_file')}{code(report.shown_path)}")
        readme = _adapter_readme(report)
        if readme and report.failing:
            facts.append(f"{t(lang, 'explained')} {code(readme)}")
        out += [f"- {fact}" for fact in facts] + [""]
        out += [f"### {t(lang, 'matrix')}", ""] + _report_matrix(data, lang, path, report)
        out += _departures(data, lang, path, report)
        out += _not_sent(lang, report)
        out += _report_failures(data, lang, path, report)
    return "\n".join(out) + "\n"
