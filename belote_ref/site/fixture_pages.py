"""The worked-example pages (one per hand fixture), the examples index and the regression list."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, cast

from belote_ref.conformance.corpus import Fixture
from belote_ref.conformance.quotations import cited_sources, quote_language
from belote_ref.site.cardhtml import card_html, cards_html, is_card, is_cards, text_html, value_html
from belote_ref.site.data import SiteData
from belote_ref.site.diagrams import diagram
from belote_ref.site.markup import (
    SEARCH_EXCLUDED,
    _fence,
    _lang_switch,
    _source_links,
    code,
    fixture_page,
    in_repository,
    label_md,
    md,
    md_with_cards,
    param_page,
    rel,
    ruleset_id_link,
    search_boost,
    title_of,
)
from belote_ref.site.stories import fixture_link, fixture_title, story_md
from belote_ref.site.wording import kind_name, lbl, phrases, result_key, t, topic_title


def _rejected_item(fixture: Fixture, rejected: Mapping[str, Any], lang: str) -> str:
    """The call or card a rejection points at, when ``given`` has it."""
    given = fixture.given if isinstance(fixture.given, Mapping) else {}
    index, code_ = rejected.get("index"), str(rejected.get("code", ""))
    items = given.get("plays") if "play" in code_ else given.get("calls") if "call" in code_ else None
    if (
        not isinstance(index, int)
        or isinstance(index, bool)
        or not isinstance(items, list)
        or not 0 <= index < len(items)
    ):
        return ""
    item = items[index]
    return card_html(item, lang=lang) if is_card(item) else f"<code>{text_html(item)}</code>"


def result_html(fixture: Fixture, result: Any, lang: str) -> str:
    """An expected result as raw HTML: legal cards marked in the hand, a rejection in words, else a table."""
    if isinstance(result, Mapping) and isinstance(result.get("rejected"), Mapping):
        rejected = result["rejected"]
        text = t(lang, "rejected_text", code=text_html(rejected.get("code")), index=text_html(rejected.get("index")))
        what = _rejected_item(fixture, rejected, lang)
        if what:
            text += f" ({what})"
        return f'<div class="bt-result"><p><b>{t(lang, "rejected")}</b>{t(lang, "colon")}{text}</p></div>'
    if (fixture.kind == "legal_plays" and isinstance(result, Mapping) and is_cards(result.get("legal"))
            and isinstance(fixture.given, Mapping) and is_cards(fixture.given.get("hand"))):
        legal = set(result["legal"])
        hand = list(fixture.given["hand"])
        classes = {c: ("bt-legal" if c in legal else "bt-illegal") for c in hand}
        extra = [c for c in result["legal"] if c not in hand]
        chips = cards_html(hand + extra, classes, lang)
        return f'<div class="bt-result"><p><b>{t(lang, "legal")}</b>{t(lang, "colon")}{chips}</p></div>'
    if isinstance(result, Mapping):
        rows = "".join(f"<tr><th>{text_html(result_key(str(k), lang))}</th><td>{value_html(v, lang)}</td></tr>"
                       for k, v in result.items())
        return f'<div class="bt-result"><table class="bt-grid">{rows}</table></div>'
    return f'<div class="bt-result"><p>{value_html(result, lang)}</p></div>'


def _example_item(lang: str, path: str, fixture: Fixture) -> str:
    kind = kind_name(fixture.kind, lang)
    if fixture_title(fixture, lang).lower().startswith(kind.lower()):  # a title made from the kind says it already
        return f"- {fixture_link(fixture, lang, path)}"
    return f"- {fixture_link(fixture, lang, path)} · *{md(kind)}*"


def examples_page(data: SiteData, lang: str) -> str:
    path = f"{lang}/examples.md"
    out = [f"# {t(lang, 'examples')}", "", _lang_switch(path, lang), t(lang, "examples_intro"), ""]
    placed: set[str] = set()
    for slug, _ in data.topics:
        sections = []
        for parameter in data.parameters_of(slug):
            fixtures = data.fixtures_of(parameter.id)
            if not fixtures:
                continue
            placed.update(f.id for f in fixtures)
            sections += [f"### [{md(title_of(parameter.id, lang))}]({rel(path, param_page(data, lang, parameter.id))})",
                         ""]
            sections += [_example_item(lang, path, f) for f in fixtures] + [""]
        if sections:
            out += [f"## {md(topic_title(slug, lang))}", ""] + sections
    rest = [f for f in data.hand if f.id not in placed]
    if rest:
        out += [f"## {t(lang, 'other_examples')}", ""] + [_example_item(lang, path, f) for f in rest] + [""]
    out += [f"## {t(lang, 'regression')}", "", (f"[{t(lang, 'regression')} ({len(data.engine)})]"
            f"({rel(path, f'{lang}/regression.md')})"), ""]
    return "\n".join(out) + "\n"


def regression_page(data: SiteData, lang: str) -> str:
    path = f"{lang}/regression.md"
    out = [
        "---",
        *search_boost("regression"),
        "---",
        "",
        f"# {t(lang, 'regression')}",
        "",
        _lang_switch(path, lang),
        t(lang, "regression_intro"),
        "",
        f"| {t(lang, 'id')} | {t(lang, 'example')} | {t(lang, 'kind')} | {t(lang, 'rulesets_here')} |",
        "|---|---|---|---|",
    ]
    for fixture in data.engine:
        applies = [r.id for r in data.rulesets if data.branches[fixture.id][r.id] is not None]
        rulesets = ", ".join(f"[{rid}]({rel(path, f'{lang}/rulesets/{rid}.md')})" for rid in applies) or \
            t(lang, "no_shipped")
        out.append(
            f'| <span id="{html.escape(fixture.id)}"></span>{code(fixture.id)} | {md(fixture_title(fixture, lang))} | '
            f"{code(fixture.kind)} | {rulesets} |"
        )
    return "\n".join(out) + "\n"


def _predicate_md(data: SiteData, lang: str, path: str, predicate: Mapping[str, Any]) -> str:
    parts = []
    for pid, wanted in predicate.items():
        parameter = data.registry.parameters.get(pid)
        name = (f"[{md(title_of(pid, lang))}]({rel(path, param_page(data, lang, pid))})" if parameter
                else code(pid))
        if isinstance(wanted, Mapping) and "one_of" in wanted:
            shown = t(lang, "or").join(label_md(v, parameter, lang) for v in wanted["one_of"])
            parts.append(f"{name}{t(lang, 'colon')}{shown}")
        else:
            parts.append(f"{name}{t(lang, 'colon')}{label_md(wanted, parameter, lang)}")
    return ", ".join(parts)


# A name shaped like a fixture id, taken whole: dot-joined words, a dot that ends a sentence left out.
# Looking each such name up is much faster than one pattern of every id, and finds the same ids as
# long as every id is shaped so (``_ID_SHAPE``); else that pattern is used.
_ID_LIKE = re.compile(r"(?<![\w.-])\w[\w-]*(?:\.\w[\w-]*)*")
_ID_SHAPE = re.compile(r"\w[\w-]*(?:\.\w[\w-]*)*")


@lru_cache(maxsize=4)
def _example_ids(ids: frozenset[str]) -> re.Pattern[str] | None:
    """The pattern of the ids, when some id is not shaped as :data:`_ID_LIKE` finds them."""
    if all(_ID_SHAPE.fullmatch(i) for i in ids):
        return None
    alternatives = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    return re.compile(rf"(?<![\w.-])(?:{alternatives})(?![\w-]|\.\w)")


def _with_example_links(data: SiteData, lang: str, path: str, markdown: str) -> str:
    """A note's Markdown with the ids of the examples it names ("the deal of score.capot.x") as links to
    their pages: an id is a name to follow, not words of the page's language."""
    by_id = data.fixtures_by_id

    def link(found: re.Match[str]) -> str:
        name = found.group(0)
        fixture = by_id.get(name)
        return name if fixture is None else f"[{code(name)}]({rel(path, fixture_page(lang, fixture))})"

    return (_example_ids(frozenset(by_id)) or _ID_LIKE).sub(link, markdown)


def fixture_md(data: SiteData, lang: str, fixture: Fixture) -> str:
    """The worked-example page of one hand fixture."""
    path = fixture_page(lang, fixture)
    fx = fixture.data
    out = [
        "---",
        "hide: [navigation]",
        *search_boost("fixture"),
        "---",
        "",
        f"# {md(fixture_title(fixture, lang))}",
        "",
        _lang_switch(path, lang),
    ]
    rules = [pid for pid in fixture.rules]
    rule_links = []
    for pid in rules:
        if pid in data.registry.parameters:
            rule_links.append(f"[{md(title_of(pid, lang))}]({rel(path, param_page(data, lang, pid))}) ({code(pid)})")
        else:
            rule_links.append(code(pid))
    kind = kind_name(fixture.kind, lang)
    facts = [f"{lbl(lang, 'kind')}{md(kind)} ({code(fixture.kind)})"]
    if rule_links:
        facts.append(lbl(lang, 'rules' if len(rule_links) > 1 else 'rule') + ", ".join(rule_links))
    facts.append(f"{lbl(lang, 'provenance')}{t(lang, 'provenance_hand')}")
    if not fixture.normative:
        facts.append(f"**{t(lang, 'normative_no')}**")
    if fx.get("applies_to"):
        facts.append(f"{lbl(lang, 'applies_only')}{_predicate_md(data, lang, path, fx['applies_to'])}")
    facts.append(f"{lbl(lang, 'id')}{code(fixture.id)}")
    out += [f"- {fact}" for fact in facts] + [""]

    # The diagrams, the answers, the story and the raw data stay out of the search index: a reader searches
    # for a rule or an example by its title, its facts, its note and its source, and the index stays small.
    out += [SEARCH_EXCLUDED, "", '<div class="bt-example" markdown>', "", '<div class="bt-left" markdown>', "",
            # h2: the page's h1 is the example's title, and a heading level must not be skipped.
            f"## {t(lang, 'situation')}", "", diagram(fixture, lang), "", "</div>", "",
            '<div class="bt-right" markdown>', "", f"## {t(lang, 'answers')}", ""]
    branches = data.branches[fixture.id]
    for index, branch in enumerate(fx["expect"]):
        when = branch.get("when") or {}
        heading = (f"**{t(lang, 'when')}** {_predicate_md(data, lang, path, when)}" if when
                   else f"**{t(lang, 'always')}**")
        chosen = [r for r in data.rulesets if branches.get(r.id) == index]
        rulesets = ", ".join(ruleset_id_link(r, lang, path) for r in chosen) or \
            f"*{t(lang, 'no_shipped')}*"
        out += ['<div class="bt-branch" markdown>', "", heading, "", result_html(fixture, branch.get("result"), lang),
                "", f"{lbl(lang, 'rulesets_here')}{rulesets}", "", "</div>", ""]
    missing = [r for r in data.rulesets if branches.get(r.id) is None]
    if missing:
        out += [f"{lbl(lang, 'not_applicable')}"
                + ", ".join(ruleset_id_link(r, lang, path) for r in missing), ""]
    out += ["</div>", "", "</div>", ""]

    story = story_md(data, lang, path, fixture)
    if story:
        out += [f"## {t(lang, 'story')}", ""] + story + [""]
    out += ["</section>", ""]
    note = fx.get(f"note_{lang}") if lang != "en" else fx.get("note")
    if note:
        out += [f"## {t(lang, 'author_note')}", "",
                _with_example_links(data, lang, path, md_with_cards(in_repository(note), lang)), ""]
    elif fx.get("note"):
        # The author's English note, kept for the record and marked as English for readers and tools.
        english = _with_example_links(data, lang, path, md_with_cards(in_repository(fx["note"])))
        out += [f'??? note "{t(lang, "author_note_other")}"', "", '    <div lang="en" markdown>', "",
                "    " + english.replace("\n", "\n    "), "", "    </div>", ""]
    source = fx.get("source") or {}
    if source:
        out += [f"## {t(lang, 'source')}", ""]
        if source.get("quote"):
            out += _quotation_md(data, lang, source)
        out += [f"— {_doc_md(data, lang, path, str(source.get('doc', '')))}", ""]
    out += [SEARCH_EXCLUDED, "", f'??? note "{t(lang, "raw")}"', "", _raw_block(data, fixture), "", "</section>", ""]
    return "\n".join(out) + "\n"


def _raw_block(data: SiteData, fixture: Fixture) -> str:
    """The fixture's data as an indented fenced block: the same in every language, so made once."""
    key = ("raw", fixture.id)
    if key not in data.shared_parts:
        data.shared_parts[key] = _raw_block_of(fixture)
    return data.shared_parts[key]


def _raw_block_of(fixture: Fixture) -> str:
    text = in_repository(json.dumps(fixture.data, ensure_ascii=False, indent=2, default=str))
    fence = _fence(text)
    lines = [f"    {fence}text"] + [f"    {line}" if line else "" for line in text.splitlines()] + [f"    {fence}"]
    return "\n".join(lines)


def _quotation_md(data: SiteData, lang: str, source: Mapping[str, Any]) -> list[str]:
    """A fixture's quotation, marked with its language, and what it is: the source's words, or belote-ref's
    translation or summary, with how the source was read (a transcription, a survey's quotations)."""
    written = quote_language(source, data.registry)
    names = phrases(lang)["language_names"]
    cited = cited_sources(str(source.get("doc", "")), data.registry)
    source_lang = next((str(data.registry.sources[sid]["lang"]) for sid in cited
                        if data.registry.sources[sid].get("lang")), written)
    marked = f' lang="{written}"' if written else ""
    out = [f'<blockquote{marked} markdown="1">', "", md(source["quote"]), "", "</blockquote>", ""]
    kind = source.get("quote_is")
    label = []
    if kind in {"words", "translation", "summary"} and written:
        label.append(t(lang, f"quote_{kind}", language=names.get(written, written),
                       source_lang=names.get(source_lang or "", source_lang or "")))
    how: Mapping[str, str] | None = next((cast(Mapping[str, str], data.registry.sources[sid]["read_through"])
                                         for sid in cited if data.registry.sources[sid].get("read_through")), None)
    if how:
        label.append(t(lang, "quote_read_through", how=_with_paths_as_code(how.get(lang) or how["en"])))
    if label:
        out += [" ".join(label), "{: .bt-quote-label }", ""]
    return out


# A repository or a file inside one (vareversat/carg, assets/rules/coinche_belote_rules.md): a name, not prose.
_PATH = re.compile(r"[\w.-]+(?:/[\w.-]+)+")


def _with_paths_as_code(text: str) -> str:
    """Plain text made safe for Markdown, its paths as code spans (a reader does not read them as words)."""
    pieces = _PATH.split(text)
    paths = _PATH.findall(text)
    out = []
    for index, piece in enumerate(pieces):
        # md() collapses the spaces at a piece's edges: they part the words from the paths.
        before = " " if piece[:1].isspace() else ""
        after = " " if piece[-1:].isspace() and piece.strip() else ""
        out.append(before + md(piece) + after)
        if index < len(paths):
            out.append(code(paths[index]))
    return "".join(out)


def _doc_md(data: SiteData, lang: str, path: str, doc: str) -> str:
    """A fixture's ``source.doc``, with the registry's source ids in it linked to the sources page."""
    linked = [sid for sid in data.registry.sources if re.search(rf"(?<![\w-]){re.escape(sid)}(?![\w-])", doc)]
    text = f'<span class="bt-name" translate="no">{md(in_repository(doc))}</span>'
    if linked:
        items = [
            f"- {_source_links(path, lang, [sid], data)}{t(lang, 'colon')}"
            f'<span class="bt-name" translate="no">'
            f'{html.escape(str(data.registry.sources[sid].get("title", sid)))}</span>'
            for sid in linked
        ]
        return text + "\n\n" + "\n".join(items)
    return text

