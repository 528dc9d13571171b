"""A printable one-page rule sheet per ruleset, in each language: every rule in play in it, in
plain words (the registry's labels), topic by topic, the values that differ from classic marked;
the print style sheet (``docs/stylesheets/extra.css``, ``@media print``) fits it on one A4 page."""

from __future__ import annotations

from belote_ref.rules.predicates import same_value
from belote_ref.rules.registry import Parameter
from belote_ref.rules.ruleset import Ruleset
from belote_ref.site.cardhtml import rank_text
from belote_ref.site.data import SiteData
from belote_ref.site.markup import (
    description_paragraphs,
    label_of,
    md,
    rel,
    ruleset_title,
    search_boost,
)
from belote_ref.site.wording import t, topic_title

__all__ = ["sheet_md", "sheet_page"]


def _in_numbers(value: object, lang: str) -> str:
    """A card order or a card-points table written out, so the paper needs no other page: a label
    such as "usual trump points" settles nothing at a table that does not know the usual."""
    if isinstance(value, dict) and value and all(isinstance(v, int) for v in value.values()):
        return ", ".join(f"{rank_text(rank, lang)} {points}" for rank, points in value.items())
    if isinstance(value, list) and len(value) == 8 and all(isinstance(rank, str) for rank in value):
        return " > ".join(rank_text(rank, lang) for rank in value)
    return ""


def _one_line(lang: str, slug: str, parameters: list[Parameter], ruleset: Ruleset, parent: Ruleset) -> list[str]:
    """A topic told in one line of the sheet (the faults and penalties, whose family pages tell the
    rest): each rule's short title and its value, a value the club changed marked."""
    items = []
    for parameter in parameters:
        value = md(label_of(ruleset[parameter.id], parameter, lang))
        if not same_value(ruleset[parameter.id], parent[parameter.id]):
            value = f'<span class="bt-changed">{value}</span>'
        items.append(f"{md(parameter.title_in(lang))}{t(lang, 'colon')}{value}")
    return [f"## {md(topic_title(slug, lang))}", "", f"{t(lang, 'faq_separator').join(items)}.", ""]


def sheet_page(lang: str, ruleset: Ruleset) -> str:
    return f"{lang}/sheets/{ruleset.id}.md"


def sheet_md(data: SiteData, lang: str, ruleset: Ruleset) -> str:
    path = sheet_page(lang, ruleset)
    out = ["---", "hide: [navigation, toc]", *search_boost("sheet"), "---", "",
           f"# {md(t(lang, 'sheet_title', ruleset=ruleset_title(ruleset, lang)))}", "",
           (f'{md(t(lang, "sheet_meta", id=ruleset.id, version=ruleset.version))} · '
            f'[{md(t(lang, "sheet_full"))}]({rel(path, f"{lang}/rulesets/{ruleset.id}.md")}){{: .bt-address }}'
            # The separator belongs to the hint, which print hides, so no "·" dangles on paper.
            f'<span class="bt-print-hint"> · {md(t(lang, "sheet_print"))}</span>'), "{: .bt-sheet-meta }", "",
           ]
    # A club's sheet is read at its table: its own words about its rules come first.
    paragraphs = description_paragraphs(ruleset, lang)
    if paragraphs:
        out += ['<div class="bt-sheet-description" markdown>', "", *(p + "\n" for p in paragraphs), "</div>", ""]
    out += ['<div class="bt-sheet" markdown>', ""]
    # A club's sheet marks what the club changed: its departures from the ruleset it extends (classic's for
    # classic itself, which marks nothing).
    parent = next((r for r in data.rulesets if r.id == ruleset.parent), data.classic)
    for slug, _ in data.topics:
        parameters = [p for p in data.parameters_of(slug)
                      if p.outcome and data.registry.applies(p.id, ruleset.params)]
        if not parameters:
            continue
        if data.families_of(slug):
            out += _one_line(lang, slug, parameters, ruleset, parent)
            continue
        out += [f"## {md(topic_title(slug, lang))}", "", '<dl class="bt-sheet-list">']
        for parameter in parameters:
            value = ruleset[parameter.id]
            changed = "" if same_value(value, parent[parameter.id]) else ' class="bt-changed"'
            detail = _in_numbers(value, lang)
            shown = md(label_of(value, parameter, lang)) + (t(lang, "colon") + md(detail) if detail else "")
            article = f'<span class="bt-article">§\u00a0{parameter.article}</span> ' if parameter.article else ""
            out.append(f"<dt>{article}{md(parameter.title_in(lang))}</dt><dd{changed}>{shown}</dd>")
        out += ["</dl>", ""]
    foot = t(lang, "sheet_foot", parent=ruleset_title(parent, lang))
    out += ["</div>", "", f'<p class="bt-sheet-foot">{md(foot)}</p>', ""]
    return "\n".join(out) + "\n"
