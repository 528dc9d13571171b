"""Every generated page of the site and its navigation."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from belote_ref.site.api_page import api_page
from belote_ref.site.browser_assets import BrowserAssets, browser_scripts
from belote_ref.site.check_house_rule_page import check_house_rule_md, check_house_rule_page
from belote_ref.site.data import SiteData, load_site_data
from belote_ref.site.dependencies_page import dependencies_md, dependencies_page
from belote_ref.site.downloads import download_files, downloads_page
from belote_ref.site.fixture_pages import examples_page, fixture_md, regression_page
from belote_ref.site.how_to_play import how_to_play_md, how_to_play_page
from belote_ref.site.implementations import implementations_page
from belote_ref.site.markup import md, rel, ruleset_title
from belote_ref.site.may_i_play_page import may_i_play_md, may_i_play_page
from belote_ref.site.rule_pages import home_page, landing_page, sources_page, topic_page
from belote_ref.site.ruleset_pages import compare_page, ruleset_page, rulesets_page
from belote_ref.site.score_a_deal_page import score_a_deal_md, score_a_deal_page
from belote_ref.site.sheets import sheet_md, sheet_page
from belote_ref.site.wording import LANGUAGES, hand_page, phrases, t, topic_title


@dataclass
class Site:
    """The generated pages (docs path -> Markdown) and the navigation."""

    pages: dict[str, str]
    nav: list[Any]
    files: dict[str, bytes] = field(default_factory=dict)  # downloadable files, by path in the site


def generate_pages(data: SiteData | None = None, hand_pages: Iterable[str] = (),
                   engine: BrowserAssets | None = None) -> Site:
    """Every generated page and the nav (``hand_pages``: the hand-written pages found in ``docs/``); with
    ``engine`` (the files the browser runs the engine from), the interactive pages and those files."""
    data = data or load_site_data()
    hand_pages = sorted(hand_pages)
    data.hand_pages = frozenset(hand_pages)
    pages: dict[str, str] = {"index.md": landing_page(data)}
    files = download_files(data)
    if engine is not None:
        files.update(engine.files)
        files.update(browser_scripts())
        megabytes = round(sum(len(content) for content in engine.files.values()) / 1e6)
    for lang in LANGUAGES:
        pages[f"{lang}/index.md"] = home_page(data, lang)
        pages[how_to_play_page(lang)] = how_to_play_md(data, lang)
        if engine is not None:
            pages[may_i_play_page(lang)] = may_i_play_md(data, lang, megabytes)
            pages[score_a_deal_page(lang)] = score_a_deal_md(data, lang, megabytes)
        for slug, _ in data.topics:
            pages[f"{lang}/rules/{slug}.md"] = topic_page(data, lang, slug)
        pages[f"{lang}/rulesets.md"] = rulesets_page(data, lang)
        for ruleset in data.rulesets:
            pages[f"{lang}/rulesets/{ruleset.id}.md"] = ruleset_page(data, lang, ruleset)
            pages[sheet_page(lang, ruleset)] = sheet_md(data, lang, ruleset)
        pages[f"{lang}/compare.md"] = compare_page(data, lang)
        pages[f"{lang}/examples.md"] = examples_page(data, lang)
        pages[f"{lang}/regression.md"] = regression_page(data, lang)
        pages[f"{lang}/sources.md"] = sources_page(data, lang)
        pages[f"{lang}/implementations.md"] = implementations_page(data, lang)
        pages[f"{lang}/downloads.md"] = downloads_page(data, lang, files)
        pages[dependencies_page(lang)] = dependencies_md(data, lang)
        for fixture in data.hand:
            pages[f"{lang}/fixtures/{fixture.id}.md"] = fixture_md(data, lang, fixture)
    if engine is not None:  # after the pages it links to under the checked house rule
        for lang in LANGUAGES:
            pages[check_house_rule_page(lang)] = check_house_rule_md(data, lang, megabytes, pages)
    pages["en/api.md"] = api_page("en")
    for name in hand_pages:
        summary = hand_page(name, "fr")
        if summary and summary.get("summary") and f"fr/{name}" not in data.hand_pages:  # else translated by hand
            pages[f"fr/{name}"] = (f"# {md(summary['title'])}\n\n{summary['summary']}\n\n"
                                   f"[{t('fr', 'other_lang')} →]({rel('fr/' + name, name)})\n")
    return Site(pages, site_nav(data, pages, hand_pages), files)


def nav_titles_escaped(nav: list[Any]) -> list[Any]:
    """``nav`` with every title HTML-escaped: the theme writes a nav title into the page as it is, and a
    ruleset's title is a club's text."""
    return [_titles_escaped(item) for item in nav]


def _titles_escaped(item: Any) -> Any:
    if isinstance(item, list):
        return nav_titles_escaped(item)
    if isinstance(item, dict):
        return {html.escape(str(title), quote=False): _titles_escaped(target) for title, target in item.items()}
    return item


def site_nav(data: SiteData, pages: Mapping[str, str], hand_pages: Sequence[str]) -> list[Any]:
    nav: list[Any] = [{"belote-ref": "index.md"}]
    for lang in LANGUAGES:
        section: list[Any] = [{t(lang, "home"): f"{lang}/index.md"},
                              {phrases(lang)["how_to_play"]["title"]: how_to_play_page(lang)}]
        if may_i_play_page(lang) in pages:
            section.append({phrases(lang)["may_i_play"]["title"]: may_i_play_page(lang)})
        if score_a_deal_page(lang) in pages:
            section.append({phrases(lang)["score_a_deal"]["title"]: score_a_deal_page(lang)})
        if check_house_rule_page(lang) in pages:
            section.append({phrases(lang)["check_house_rule"]["title"]: check_house_rule_page(lang)})
        section.append({t(lang, "topics"): [{topic_title(s, lang): f"{lang}/rules/{s}.md"}
                                            for s, _ in data.topics]})
        section.append({t(lang, "rulesets"): [{t(lang, "rulesets"): f"{lang}/rulesets.md"}]
                        + [{ruleset_title(r, lang): f"{lang}/rulesets/{r.id}.md"} for r in data.rulesets]})
        section.append({t(lang, "compare_short"): f"{lang}/compare.md"})
        section.append({t(lang, "examples"): [{t(lang, "examples"): f"{lang}/examples.md"},
                                              {t(lang, "regression"): f"{lang}/regression.md"}]})
        for name in sorted(hand_pages, key=lambda page: (not (hand_page(page, "en") or {}).get("summary"), page)):
            if name.split("/", 1)[0] in LANGUAGES:
                continue  # a translation, listed in its language's section under the page it translates
            title = (hand_page(name, lang) or {}).get("title") or name.removesuffix(".md")
            if lang == "en":
                section.append({title: name})
            elif f"{lang}/{name}" in pages or f"{lang}/{name}" in hand_pages:
                section.append({title: f"{lang}/{name}"})
        section.append({t(lang, "implementations"): f"{lang}/implementations.md"})
        section.append({t(lang, "sources"): f"{lang}/sources.md"})
        section.append({t(lang, "downloads"): f"{lang}/downloads.md"})
        section.append({t(lang, "deps_title"): dependencies_page(lang)})
        if f"{lang}/api.md" in pages:
            section.append({t(lang, "api"): f"{lang}/api.md"})
        nav.append({t(lang, "lang_name"): section})
    return nav_titles_escaped(nav)
