"""The ruleset pages: the list, one page per shipped ruleset, and the comparison table."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

from belote_ref.conformance.corpus import Fixture
from belote_ref.rules.predicates import same_value
from belote_ref.rules.registry import Parameter
from belote_ref.rules.ruleset import Ruleset
from belote_ref.site.data import SiteData
from belote_ref.site.markup import (
    _lang_switch,
    _source_links,
    code,
    condition_md,
    description_paragraphs,
    label_md,
    label_of,
    md,
    param_page,
    prose_md,
    rel,
    ruleset_id_link,
    ruleset_title,
    search_boost,
    title_of,
)
from belote_ref.site.stories import fixture_link
from belote_ref.site.wording import kind_name, lbl, t, topic_title


def _banner(data: SiteData, lang: str, path: str, ruleset: Ruleset) -> list[str]:
    changes = data.changes(ruleset)
    if ruleset.id == data.classic.id:
        return [f'!!! note bt-banner "{t(lang, "baseline")}"', "", f"    {t(lang, 'baseline_text')}", ""]
    title = t(lang, "changes_one") if len(changes) == 1 else t(lang, "changes_many", n=len(changes))
    out = [f'!!! abstract bt-banner "{title}"', ""]
    for pid in changes:
        parameter = data.registry[pid]
        out.append(f"    - [{md(title_of(pid, lang))}]({rel(path, param_page(data, lang, pid))})"
                   f"{t(lang, 'colon')}{label_md(data.classic[pid], parameter, lang)} → "
                   f"<span class=\"bt-changed\">{label_md(ruleset[pid], parameter, lang)}</span>")
    if not changes:
        out.append(f"    {t(lang, 'baseline_text')}")
    out.append("")
    return out


def ruleset_page(data: SiteData, lang: str, ruleset: Ruleset) -> str:
    path = f"{lang}/rulesets/{ruleset.id}.md"
    out = [
        "---",
        *search_boost("ruleset"),
        "---",
        "",
        f"# {md(ruleset_title(ruleset, lang))}",
        "",
        _lang_switch(path, lang),
    ]
    out += _banner(data, lang, path, ruleset)
    paragraphs = description_paragraphs(ruleset, lang)
    if paragraphs:
        out += ["\n\n".join(paragraphs), ""]
    facts = [f"{lbl(lang, 'id')}{code(ruleset.id)} (version {ruleset.version})"]
    if ruleset.parent:
        parent = (f"[{ruleset.parent}]({rel(path, f'{lang}/rulesets/{ruleset.parent}.md')})"
                  if any(r.id == ruleset.parent for r in data.rulesets) else code(ruleset.parent))
        facts.append(f"{lbl(lang, 'extends')}{parent}")
    if ruleset.sources:
        facts.append(f"{lbl(lang, 'ruleset_sources')}{_source_links(path, lang, ruleset.sources, data)}")
    facts.append(f"{lbl(lang, 'use_it')}{code(f'belote-ref rules show {ruleset.id}')}")
    facts.append(f"[{t(lang, 'sheet_link')}]({rel(path, f'{lang}/sheets/{ruleset.id}.md')})")
    out += [f"- {fact}" for fact in facts] + [""]
    out += departures_md(data, lang, path, ruleset)
    out += [f"## {t(lang, 'the_rules')}", ""]
    changed = set(data.changes(ruleset))
    for slug, _ in data.topics:
        in_play = [p for p in data.parameters_of(slug) if data.registry.applies(p.id, ruleset.params)]
        if not in_play:
            continue
        out += [f"### {md(topic_title(slug, lang))}", ""]
        for parameter in in_play:
            pid = parameter.id
            value = label_md(ruleset[pid], parameter, lang)
            if pid in changed:
                value = (f'<span class="bt-changed">{value}</span> '
                         f"({lbl(lang, 'classic_value')}{label_md(data.classic[pid], parameter, lang)})")
            explain = parameter.explain_of(ruleset[pid], lang)
            prose = explain or (parameter.en if lang == "en" else parameter.fr)
            link = f"[{md(title_of(pid, lang))}]({rel(path, param_page(data, lang, pid))})"
            out.append(f"- **{link}**{t(lang, 'colon')}{value}. {prose_md(prose)}")
        out.append("")
    out += not_in_play_md(data, lang, path, ruleset)
    out += ruleset_fixtures(data, lang, path, ruleset)
    return "\n".join(out) + "\n"


def not_in_play_md(data: SiteData, lang: str, path: str, ruleset: Ruleset) -> list[str]:
    """The rules that change nothing in a game of ``ruleset`` (their ``applies_when`` does not
    hold: the auction of bids in classic belote), grouped by the condition that brings them in."""
    groups: dict[str, tuple[str, list[str]]] = {}
    for slug, _ in data.topics:
        for parameter in data.parameters_of(slug):
            unmet = data.registry.unmet(parameter.id, ruleset.params)
            if unmet is None:
                continue
            key = json.dumps(unmet, sort_keys=True)
            _, links = groups.setdefault(key, (condition_md(*unmet, lang), []))
            page = rel(path, param_page(data, lang, parameter.id))
            links.append(f"[{md(title_of(parameter.id, lang))}]({page})")
    if not groups:
        return []
    intro = t(lang, "not_in_play_text", ruleset=md(ruleset_title(ruleset, lang)))
    out = [f"## {t(lang, 'not_in_play')}", "", intro, ""]
    out += [f"- **{condition}**{t(lang, 'colon')}{', '.join(links)}." for condition, links in groups.values()]
    return [*out, ""]


def departures(data: SiteData, ruleset: Ruleset) -> list[str]:
    """The parameters (in play) on which ``ruleset`` takes a value its first source does not give, where
    that source gives one: a title that names the source must say the ruleset is only after it."""
    if not ruleset.sources:
        return []
    reference = ruleset.sources[0]
    return [pid for pid, parameter in data.registry.parameters.items()
            if reference not in parameter.sources_of(ruleset[pid]) and data.registry.applies(pid, ruleset.params)
            and any(reference in sources for sources in parameter.sources)]


def departures_md(data: SiteData, lang: str, path: str, ruleset: Ruleset) -> list[str]:
    """Where the baseline departs from its first source (classic from FFB-B16), and why: what that
    source says, what the ruleset takes instead and on whose authority; then the points it leaves open."""
    if ruleset.id != data.classic.id or not ruleset.sources:
        return []
    reference = ruleset.sources[0]
    departs: list[Any] = []
    silent: list[Any] = []
    for pid, parameter in data.registry.parameters.items():
        cited = parameter.sources_of(ruleset[pid])
        if reference in cited or not data.registry.applies(pid, ruleset.params):
            continue
        said = [
            value for value, sources in zip(parameter.values, parameter.sources, strict=True) if reference in sources
        ]
        (departs if said else silent).append((pid, parameter, said, cited))
    link = _source_links(path, lang, [reference], data)
    out = [f"## {t(lang, 'departs_title', source=reference)}", "", t(lang, "departs_intro", source=link), ""]
    if departs:
        out += [(f"| {t(lang, 'parameter')} | {t(lang, 'departs_says', source=reference)} | "
                 f"{t(lang, 'departs_takes', ruleset=ruleset.id)} | {t(lang, 'departs_why')} |"), "|---|---|---|---|"]
        for pid, parameter, said, cited in departs:
            out.append(f"| [{md(title_of(pid, lang))}]({rel(path, param_page(data, lang, pid))}) | "
                       + ", ".join(label_md(value, parameter, lang) for value in said)
                       + f" | {label_md(ruleset[pid], parameter, lang)} | "
                       + prose_md(parameter.fr if lang == "fr" else parameter.en) + " "
                       + t(lang, "departs_followed", sources=_source_links(path, lang, cited, data)) + " |")
        out.append("")
    else:
        out += [t(lang, "departs_none", source=reference), ""]
    if silent:
        items = [f"[{md(title_of(pid, lang))}]({rel(path, param_page(data, lang, pid))}) "
                 f"({_source_links(path, lang, cited, data)})" for pid, _, _, cited in silent]
        out += [f'??? info "{t(lang, "departs_silent", source=reference, n=len(silent))}"', ""]
        out += [f"    - {item}" for item in items] + [""]
    return out


def ruleset_fixtures(data: SiteData, lang: str, path: str, ruleset: Ruleset) -> list[str]:
    hand = [f for f in data.hand if data.branches[f.id][ruleset.id] is not None]
    engine = [f for f in data.engine if data.branches[f.id][ruleset.id] is not None]
    out = [f"## {t(lang, 'applicable')} ({len(hand)})", "",
           t(lang, "applicable_text", hand=len(hand), engine=f"[{len(engine)}]({rel(path, f'{lang}/regression.md')})"),
           ""]
    by_kind: dict[str, list[Fixture]] = {}
    for fixture in hand:
        by_kind.setdefault(fixture.kind, []).append(fixture)
    for kind, fixtures in by_kind.items():
        label = kind_name(kind, lang)
        out += [f"### {md(label[0].upper() + label[1:])} ({len(fixtures)})", ""]
        for fixture in fixtures:
            out.append(f"- {fixture_link(fixture, lang, path)}")
        out.append("")
    return out


def rulesets_page(data: SiteData, lang: str) -> str:
    path = f"{lang}/rulesets.md"
    intro = t(lang, "rulesets_intro", house=t(lang, "house_rules"),
              house_link=rel(path, "house-rules.md" if lang == "en" else f"{lang}/house-rules.md"))
    if "house-rules.md" not in data.hand_pages:
        intro = intro.split(" (")[0] + "."
    out = [f"# {t(lang, 'rulesets')}", "", _lang_switch(path, lang), intro, "",
           f"| {t(lang, 'title_col')} | {t(lang, 'id')} | {t(lang, 'changes_col')} |", "|---|---|---|"]
    for ruleset in data.rulesets:
        changes = data.changes(ruleset)
        listed = ", ".join(f"[{md(title_of(pid, lang))}]({rel(path, param_page(data, lang, pid))})"
                           for pid in changes) or "—"
        out.append(f"| [{md(ruleset_title(ruleset, lang))}]({rel(path, f'{lang}/rulesets/{ruleset.id}.md')}) | "
                   f"{code(ruleset.id)} | {len(changes)}{t(lang, 'colon')}{listed} |")
    return "\n".join(out) + "\n"


def _compare_table(data: SiteData, lang: str, path: str, parameters: Sequence[Parameter]) -> list[str]:
    head = "| " + t(lang, "parameter") + " | " + " | ".join(
        ruleset_id_link(r, lang, path) for r in data.rulesets) + " |"
    out = ['<div class="bt-compare" markdown>', "", head, "|---" * (len(data.rulesets) + 1) + "|"]
    for parameter in parameters:
        pid = parameter.id
        cells = []
        for ruleset in data.rulesets:
            value = md(label_of(ruleset[pid], parameter, lang))
            explain = parameter.explain_of(ruleset[pid], lang)
            if explain:
                value = f'<span title="{html.escape(explain)}">{value}</span>'
            if not same_value(ruleset[pid], data.classic[pid]):
                cells.append(f'<span class="bt-changed">{value}</span>')
            else:
                cells.append(f'<span class="bt-same">{value}</span>')
        link = (f"[{md(title_of(pid, lang))}]({rel(path, param_page(data, lang, pid))})"
                f'<br><small class="bt-pid">{md(pid)}</small>')
        out.append(f"| {link} | " + " | ".join(cells) + " |")
    out += ["", "</div>", ""]
    return out


def compare_page(data: SiteData, lang: str) -> str:
    path = f"{lang}/compare.md"
    out = ["---", "hide: [navigation, toc]", "---", "", f"# {t(lang, 'compare')}", "", _lang_switch(path, lang),
           t(lang, "compare_intro"), ""]
    differing = [p for p in data.registry.parameters.values()
                 if any(not same_value(r[p.id], data.classic[p.id]) for r in data.rulesets)]
    out += [f"## {t(lang, 'differ_title')}", "", t(lang, "differ_text"), ""]
    out += _compare_table(data, lang, path, differing)
    out += [f"## {t(lang, 'all_title')}", ""]
    for slug, _ in data.topics:
        out += [f"### {md(topic_title(slug, lang))}", ""]
        out += _compare_table(data, lang, path, data.parameters_of(slug))
    return "\n".join(out) + "\n"
