"""The one-page "how to play" of each language: the classic game from the deal to the end of the match,
in the order a beginner meets it.

Each step is a topic of the rule pages, in the site's order: a few sentences for a newcomer (the locale
files' ``how_to_play.steps``), then every rule of that topic in play in the baseline ruleset, as the
registry explains the baseline's value ("At trumps the jack is highest, then the nine..."), each with
its article number and a link to its rule. Nothing here names a number of the game: the values come
from the baseline ruleset, the words from the registry and the locales.
"""

from __future__ import annotations

from belote_ref.site.data import SiteData
from belote_ref.site.markup import _lang_switch, label_of, md, param_page, rel, ruleset_title, search_boost
from belote_ref.site.wording import phrases, t

__all__ = ["how_to_play_md", "how_to_play_page"]


def how_to_play_page(lang: str) -> str:
    return f"{lang}/how-to-play.md"


def how_to_play_md(data: SiteData, lang: str) -> str:
    path = how_to_play_page(lang)
    words = phrases(lang)["how_to_play"]
    baseline = data.classic
    baseline_link = f"[{md(ruleset_title(baseline, lang))}]({rel(path, f'{lang}/rulesets/{baseline.id}.md')})"
    out = ["---", *search_boost("rules"), "---", "", f"# {md(words['title'])}", "", _lang_switch(path, lang),
           md(words["intro"]).replace(md("{ruleset}"), baseline_link), ""]
    step = 0
    for slug, _ in data.topics:
        rules = [p for p in data.parameters_of(slug) if data.registry.applies(p.id, baseline.params)]
        text = (words["steps"].get(slug) or {})
        if not rules or not text:
            continue
        step += 1
        out += [f"## {step}. {md(text['title'])}", "", md(text["text"]), ""]
        for parameter in rules:
            value = baseline[parameter.id]
            said = parameter.explain_of(value, lang) or label_of(value, parameter, lang)
            number = f"§\u00a0{parameter.article} " if parameter.article else ""
            out.append(f"- [{number}{md(parameter.title_in(lang))}]({rel(path, param_page(data, lang, parameter.id))})"
                       f"{t(lang, 'colon')}{md(said)}")
        out.append("")
    out += [md(words["after"]), ""]
    return "\n".join(out) + "\n"
