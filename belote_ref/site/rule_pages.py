"""The pages about the rules themselves: the landing page, each language's home, one page per topic
(a section per parameter) and the sources."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from belote_ref.rules.predicates import same_value
from belote_ref.rules.registry import Parameter
from belote_ref.rules.ruleset import Ruleset
from belote_ref.site.cardhtml import card_html
from belote_ref.site.data import SiteData
from belote_ref.site.markup import (
    _lang_switch,
    _source_links,
    code,
    condition_md,
    label_md,
    label_of,
    md,
    param_page,
    prose_md,
    rel,
    ruleset_id_link,
    ruleset_title,
    search_boost,
    source_title,
    title_of,
    value_md,
)
from belote_ref.site.stories import fixture_link
from belote_ref.site.wording import (
    LANGUAGES,
    group_title,
    hand_page,
    lbl,
    phrases,
    t,
    topic_intro,
    topic_title,
    type_name,
)

# The root page is built in the theme's language (mkdocs.yml: theme.language).
ROOT_LANGUAGE = "en"


def landing_page(data: SiteData) -> str:
    lines = ["---", "hide: [navigation, toc]", "---", "", "# belote-ref", ""]
    lines.append('<div class="grid cards" markdown>')
    lines.append("")
    for lang in LANGUAGES:
        home = phrases(lang)["home"]
        title, intro = home["title"], home["intro"]
        # The page is English; each paragraph of another language says so, for screen readers.
        marked = "" if lang == ROOT_LANGUAGE else f'\n    {{: lang="{lang}" }}'
        lines.append(f"-   **[{md(title)}]({lang}/index.md)** ({t(lang, 'lang_name')}){marked}")
        lines.append("")
        lines.append(f"    {md(intro)}{marked}")
        lines.append("")
        links = " · ".join(f"[{md(topic_title(s, lang))}]({lang}/rules/{s}.md)" for s, _ in data.topics)
        lines.append(f"    {links}{marked}")
        lines.append("")
        lines.append(
            f"    [{t(lang, 'rulesets')}]({lang}/rulesets.md) · [{t(lang, 'compare_short')}]({lang}/compare.md)"
            f" · [{t(lang, 'examples')}]({lang}/examples.md)"
            f" · [{t(lang, 'implementations')}]({lang}/implementations.md){marked}"
        )
        lines.append("")
    lines.append("-   **belote-ref**")
    lines.append("")
    for name, key in (("house-rules.md", "landing_club"), ("protocol.md", "landing_dev")):
        if name in data.hand_pages:
            links = " · ".join(
                (f"{t(lang, key)}{t(lang, 'colon')}[{md((hand_page(name, lang) or {}).get('title', name))}]"
                 f"({name})") if lang == ROOT_LANGUAGE else
                (f'<span lang="{lang}">{t(lang, key)}{t(lang, "colon")}'
                 f"[{md((hand_page(name, lang) or {}).get('title', name))}]({lang}/{name})</span>")
                for lang in LANGUAGES
            )
            lines += [f"    {links}", ""]
    for lang in LANGUAGES:
        marked = "" if lang == ROOT_LANGUAGE else f'\n    {{: lang="{lang}" }}'
        lines.append("    " + md(t(lang, "landing_counts", parameters=len(data.registry.parameters),
                                   rulesets=len(data.rulesets), hand=len(data.hand), engine=len(data.engine)))
                     + marked)
        lines.append("")
    lines.append(
        '    <p class="bt-fan">' + "".join(card_html(c) for c in ("JH", "9H", "AS", "TD", "KC", "QH")) + "</p>"
    )
    lines.append("")
    lines.append("</div>")
    return "\n".join(lines) + "\n"


def home_page(data: SiteData, lang: str) -> str:
    path = f"{lang}/index.md"
    home = phrases(lang)["home"]
    title, intro, terms = home["title"], home["intro"], home["terms"]
    out = [f"# {md(title)}", "", _lang_switch(path, lang), md(intro), "", md(terms), ""]
    out += [f"**[{md(phrases(lang)['how_to_play']['title'])}]({rel(path, f'{lang}/how-to-play.md')})**", ""]
    out += faq_section(data, lang, path)
    out += [f"## {t(lang, 'where')}", ""]
    for slug, _ in data.topics:
        count = len(data.family_parameters(slug) if slug in data.families else data.parameters_of(slug))
        out.append(f"- [{md(topic_title(slug, lang))}]({rel(path, f'{lang}/rules/{slug}.md')})"
                   f" ({t(lang, 'rules_count', n=count)})")
    out.append("")
    out.append(f"- [{t(lang, 'rulesets')}]({rel(path, f'{lang}/rulesets.md')}){t(lang, 'colon')}"
               + ", ".join(_ruleset_title_link(r, lang, path) for r in data.rulesets))
    out.append(f"- [{t(lang, 'compare')}]({rel(path, f'{lang}/compare.md')})")
    out.append(f"- [{t(lang, 'examples')}]({rel(path, f'{lang}/examples.md')}) ({len(data.hand)})")
    developers: list[str] = []
    for name in sorted(data.hand_pages):
        summary = hand_page(name, lang)
        if summary and summary.get("summary"):  # a page with a title only is in the nav, not listed here
            target = name if lang == "en" else f"{lang}/{name}"
            item = f"- [{md(summary['title'])}]({rel(path, target)})"
            (developers if summary.get("audience") == "developers" else out).append(item)
    out.append(f"- [{t(lang, 'sources')}]({rel(path, f'{lang}/sources.md')})")
    out += ["", f"### {t(lang, 'for_developers')}", ""] + developers
    checked = ", ".join(md(f"{r.name} {r.version}".strip()) for r in data.reports)
    out.append(f"- [{t(lang, 'impl_title')}]({rel(path, f'{lang}/implementations.md')})"
               + (f"{t(lang, 'colon')}{checked}" if checked else ""))
    out.append(f"- [{t(lang, 'regression')}]({rel(path, f'{lang}/regression.md')}) ({len(data.engine)})")
    out.append(f"- [{t(lang, 'downloads')}]({rel(path, f'{lang}/downloads.md')})")
    out.append(f"- [{t(lang, 'deps_title')}]({rel(path, f'{lang}/dependencies.md')})")
    out += ["", f"## {t(lang, 'glossary')}", "", f"| {t(lang, 'term')} | {t(lang, 'meaning')} |", "|---|---|"]
    for entry in phrases(lang)["glossary"]:
        out.append(f"| *{md(entry['term'])}* | {md(entry['meaning'])} |")
    return "\n".join(out) + "\n"


def _ruleset_title_link(ruleset: Ruleset, lang: str, path: str) -> str:
    return f"[{md(ruleset_title(ruleset, lang))}]({rel(path, f'{lang}/rulesets/{ruleset.id}.md')})"


def faq_section(data: SiteData, lang: str, path: str) -> list[str]:
    """The questions players ask at the table, each answered by the classic ruleset's value (or by the
    locale's own answer) and linked to the rule that settles it."""
    home = phrases(lang)["home"]
    out = [f"## {md(home['faq_title'])}", "", md(home["faq_intro"]), ""]
    for entry in phrases(lang).get("faq") or ():
        pid = entry.get("parameter")
        if pid and pid in data.registry.parameters:
            body = _faq_answer(data, lang, path, data.registry[pid])
        else:
            links = [_ruleset_title_link(r, lang, path) for r in data.rulesets if r.id in (entry.get("rulesets") or ())]
            topic = entry.get("topic")
            if topic:
                links.append(f"[{md(topic_title(topic, lang))}]({rel(path, f'{lang}/rules/{topic}.md')})")
            body = [md(entry.get("answer", ""))] + ([f"{lbl(lang, 'faq_see')}{', '.join(links)}"] if links else [])
        question = html.escape(entry["question"], quote=False).replace('"', "&quot;")
        out += [f'??? question "{question}"', ""]
        out += [f"    {line}\n" for line in body]
    return out


def _faq_answer(data: SiteData, lang: str, path: str, parameter: Parameter) -> list[str]:
    classic = data.classic
    value = classic[parameter.id]
    explain = parameter.explain_of(value, lang) or ""
    label = md(label_of(value, parameter, lang))
    lines = [f"{md(ruleset_title(classic, lang))}{t(lang, 'colon')}**{label}**. {md(explain)}"]
    others = []
    for other in parameter.values:
        if same_value(other, value):
            continue
        chosen = [r for r in data.rulesets if same_value(r[parameter.id], other)]
        if chosen:
            names = ", ".join(_ruleset_title_link(r, lang, path) for r in chosen)
            others.append(f"**{md(label_of(other, parameter, lang))}** ({names})")
    if others:
        lines.append(f"{lbl(lang, 'faq_others')}{t(lang, 'faq_separator').join(others)}.")
    lines.append(f"[{t(lang, 'faq_rule')} →]({rel(path, param_page(data, lang, parameter.id))})")
    return lines


def _groups(parameters: Sequence[Parameter]) -> list[tuple[str, list[Parameter]]]:
    groups: dict[str, list[Parameter]] = {}
    for parameter in parameters:
        parts = parameter.id.split(".")
        key = ".".join(parts[:2]) if len(parts) > 2 else parts[0]
        groups.setdefault(key, []).append(parameter)
    return list(groups.items())


def article_anchor(article: str) -> str:
    """The anchor of a rule's article on its topic page ("article-6.1"), beside the parameter id's."""
    return f"article-{article}"


def topic_page(data: SiteData, lang: str, slug: str) -> str:
    if slug in data.families:
        return family_page(data, lang, slug)
    path = f"{lang}/rules/{slug}.md"
    intro = topic_intro(slug, lang)
    out = [
        "---",
        *search_boost("rules"),
        "---",
        "",
        f"# {md(topic_title(slug, lang))}",
        "",
        _lang_switch(path, lang),
        md(intro),
        "",
    ]
    families = data.families_of(slug)
    if families:
        links = " · ".join(f"[{md(topic_title(family, lang))}]({rel(path, f'{lang}/rules/{family}.md')})"
                           for family in families)
        out += [f"{lbl(lang, 'family_pages')}{links}", ""]
    groups = _groups(data.parameters_of(slug))
    level = "###" if len(groups) > 1 else "##"
    for key, parameters in groups:
        if len(groups) > 1:
            out += [f"## {md(group_title(key, lang))}", ""]
        for parameter in parameters:
            out += parameter_section(data, lang, path, parameter, level)
    return "\n".join(out) + "\n"


def family_page(data: SiteData, lang: str, slug: str) -> str:
    """A family of faults in players' words: for each rule it gathers, what a table of the usual game
    does and what the other tables do, linked to the rule's own section (its article, sources and
    worked examples); then what no text we read settles (the locale's ``open`` list)."""
    path = f"{lang}/rules/{slug}.md"
    parent, _ = data.families[slug]
    topic = phrases(lang)["topics"].get(slug) or {}
    out = ["---", *search_boost("rules"), "---", "", f"# {md(topic_title(slug, lang))}", "",
           _lang_switch(path, lang), md(topic_intro(slug, lang)), ""]
    for parameter in data.family_parameters(slug):
        out += [f"## {md(title_of(parameter.id, lang))} {{#{parameter.id}}}", ""]
        out += [f"{line}\n" for line in _in_players_words(data, lang, path, parameter)]
    unsettled = topic.get("open") or ()
    if unsettled:
        out += [f"## {md(t(lang, 'family_open'))}", "", *(f"- {md(item)}" for item in unsettled), ""]
    out += [f"[{t(lang, 'family_all')} →]({rel(path, f'{lang}/rules/{parent}.md')})", ""]
    return "\n".join(out) + "\n"


def _in_players_words(data: SiteData, lang: str, path: str, parameter: Parameter) -> list[str]:
    """One rule told at the table: the value of the usual game where the rule is in play (classic,
    else the first shipped ruleset that plays it), then every other value the sources give."""
    pid = parameter.id
    baseline = next((r for r in [data.classic, *data.rulesets] if data.registry.applies(pid, r.params)),
                    data.classic)
    value = baseline[pid]
    label = md(label_of(value, parameter, lang))
    explain = md(parameter.explain_of(value, lang) or "")
    lines = [f"{md(ruleset_title(baseline, lang))}{t(lang, 'colon')}**{label}**. {explain}"]
    others = []
    for other in parameter.values:
        if same_value(other, value):
            continue
        chosen = [r for r in data.rulesets if same_value(r[pid], other)]
        names = f" ({', '.join(_ruleset_title_link(r, lang, path) for r in chosen)})" if chosen else ""
        others.append(f"- **{md(label_of(other, parameter, lang))}**{names}{t(lang, 'colon')}"
                      f"{md(parameter.explain_of(other, lang) or '')}")
    if others:
        lines.append(lbl(lang, "family_elsewhere").rstrip() + "\n\n" + "\n".join(others))
    lines.append(f"[{t(lang, 'faq_rule')} →]({rel(path, param_page(data, lang, pid))})")
    return lines


def parameter_section(data: SiteData, lang: str, path: str, parameter: Parameter, level: str) -> list[str]:
    pid = parameter.id
    kind = type_name(parameter.type, lang)
    if parameter.type == "int" and parameter.minimum is not None and parameter.maximum is not None:
        kind += " " + t(lang, "range", minimum=parameter.minimum, maximum=parameter.maximum)
    default_label = parameter.label_of(parameter.default, lang)
    default = f"**{md(default_label)}**" if default_label else value_md(parameter.default, parameter, lang)
    # A player reads the rule in words; the id and the values as a house-rule file writes them are in a
    # folded detail after the table, for the club writing its file and the engine's author.
    meta = f"{lbl(lang, 'default_is')}{default}"
    if not parameter.outcome:
        meta += f" · *{md(t(lang, 'documentary'))}*"
    prose = parameter.en if lang == "en" else parameter.fr
    # The article number is what a player cites at the table ("§ 6.1"); its anchor stays as stable as the number.
    number = f'<span class="bt-article">§\u00a0{parameter.article}</span> ' if parameter.article else ""
    anchor = [f'<a id="{article_anchor(parameter.article)}"></a>', ""] if parameter.article else []
    out = [*anchor, f"{level} {number}{md(title_of(pid, lang))} {{#{pid}}}", "", meta, "", prose_md(prose), ""]
    if parameter.applies_when:
        conditions = "; ".join(condition_md(named, wanted, lang) for named, wanted in parameter.applies_when.items())
        # The colon stays outside the bold: Markdown does not close a bold run after a space.
        out += [f"**{t(lang, 'in_play_only')}**{t(lang, 'colon')}{conditions}.", ""]
    out += [f"| {t(lang, 'value')} | {t(lang, 'meaning')} | {t(lang, 'sources_col')} | {t(lang, 'rulesets_col')} |",
            "|---|---|---|---|"]
    values = list(zip(parameter.values, parameter.sources, strict=True))
    for ruleset in data.rulesets:
        if not any(same_value(ruleset[pid], v) for v, _ in values):
            values.append((ruleset[pid], ()))
    for value, sources in values:
        chosen = [r for r in data.rulesets if same_value(r[pid], value)]
        rulesets = ", ".join(ruleset_id_link(r, lang, path) for r in chosen) or "—"
        label = parameter.label_of(value, lang)
        shown = f"**{md(label)}**" if label else value_md(value, parameter, lang)
        if same_value(value, parameter.default):
            shown += f" ({t(lang, 'default')})"
        explain = md(parameter.explain_of(value, lang) or "")
        out.append(f"| {shown} | {explain} | {_source_links(path, lang, sources, data)} | {rulesets} |")
    out.append("")
    out += _developers_detail(lang, pid, kind, parameter, [value for value, _ in values])
    fixtures = data.fixtures_of(pid)
    if fixtures:
        items = [f"- {fixture_link(fixture, lang, path)}" for fixture in fixtures]
        if len(fixtures) > 6:
            out += [f'??? example "{t(lang, "fixtures_for")} ({len(fixtures)})"', ""] + [f"    {i}" for i in items]
        else:
            out += [f"**{t(lang, 'fixtures_for')}** ({len(fixtures)})", ""] + items
    else:
        out.append(f"*{t(lang, 'no_fixture')}*")
    out.append("")
    return out


def _developers_detail(lang: str, pid: str, kind: str, parameter: Parameter, values: list[Any]) -> list[str]:
    """The rule as a house-rule file and the protocol write it: its id, its type, each value's code."""
    rows = [f"| {md(parameter.label_of(value, lang) or '')} | {value_md(value, parameter, lang)} |" for value in values
            if parameter.label_of(value, lang)]
    out = [f'??? info "{t(lang, "for_developers")}"', "",
           f"    {lbl(lang, 'param_id')}{code(pid)} ({md(kind)})", ""]
    if rows:
        out += [f"    | {t(lang, 'value')} | {t(lang, 'in_the_file')} |", "    |---|---|",
                *(f"    {row}" for row in rows)]
    return out + [""]


def _title_html(info: Mapping[str, Any], lang: str, source_id: str) -> str:
    """A source's title, the published work it names marked as a name in the source's language."""
    title = html.escape(source_title(info, lang) or source_id)
    work = info.get("work")
    if not work or lang == info.get("lang"):
        return title
    return title.replace(html.escape(str(work)),
                         f'<i lang="{html.escape(str(info["lang"]))}" translate="no">{html.escape(str(work))}</i>')


def sources_page(data: SiteData, lang: str) -> str:
    path = f"{lang}/sources.md"
    out = [f"# {t(lang, 'sources')}", "", _lang_switch(path, lang), t(lang, "sources_intro"), ""]
    cited: dict[str, list[tuple[str, Any]]] = {}
    for parameter in data.registry.parameters.values():
        for value, sources in zip(parameter.values, parameter.sources, strict=True):
            for source in sources:
                cited.setdefault(source, []).append((parameter.id, value))
    for source_id, info in data.registry.sources.items():
        # A title left in its own language is a name, not prose to translate.
        kept = "" if info.get(f"title_{lang}") else ' class="bt-name" translate="no"'
        out += [
            f"## {md(source_id)} {{#{source_id}}}",
            "",
            f"<p{kept}><b>{_title_html(info, lang, source_id)}</b></p>",
            "",
        ]
        if info.get("url"):
            out += [f"<{info['url']}>", ""]
        uses = cited.get(source_id, [])
        if uses:
            items = ", ".join(
                f"[{md(title_of(pid, lang))}]({rel(path, param_page(data, lang, pid))}): "
                f"{label_md(value, data.registry[pid], lang)}" for pid, value in uses)
            out += [f"{lbl(lang, 'cited_for')}{items}", ""]
    return "\n".join(out) + "\n"
