"""Markdown helpers shared by every page: escaping, code spans, relative links, values and their labels."""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from belote_ref.conformance.corpus import Fixture
from belote_ref.rules.registry import Parameter, load_registry
from belote_ref.rules.ruleset import Ruleset
from belote_ref.site.cardhtml import card_html, text_html
from belote_ref.site.data import SiteData

# Re-exported: the pages have always imported them from here.
from belote_ref.site.value_words import format_value as format_value
from belote_ref.site.value_words import label_of as label_of
from belote_ref.site.value_words import title_of as title_of
from belote_ref.site.wording import phrases, t


def md(text: Any) -> str:
    """Plain text made safe for Markdown: HTML escaped, Markdown punctuation backslash-escaped."""
    escaped = html.escape(" ".join(str(text).split()), quote=False)
    return re.sub(r"([\\`*_\[\]{}#|!])", r"\\\1", escaped)


def md_paragraphs(text: Any) -> str:
    """Plain text with blank-line paragraphs, made safe for Markdown."""
    return "\n\n".join(md(p) for p in re.split(r"\n\s*\n", str(text)) if p.strip())


_CARD_IN_TEXT = re.compile(r"(?<![\w\\])(?:10|[789TJQKA])[SHDC](?!\w)")


def md_with_cards(text: Any, lang: str = "en") -> str:
    """Like :func:`md_paragraphs`, with card tokens (``JD``, ``10H``) drawn as cards."""
    return _CARD_IN_TEXT.sub(lambda m: card_html(m.group(0), lang=lang), md_paragraphs(text))


# A line break ends a table row, a list item or a heading: inside a code span it would let the rest of
# the text out of the span, as raw HTML on a line of its own.
_LINE_BREAKS = re.compile(r"[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]+")


def code(text: Any) -> str:
    """A Markdown code span for ``text`` (on one line: its line breaks become spaces)."""
    text = _LINE_BREAKS.sub(" ", str(text))
    fence = "`" * (max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def rel(src: str, dst: str) -> str:
    """The relative link from page ``src`` to ``dst`` (both paths from the docs root, ``#anchor`` kept)."""
    path, _, anchor = dst.partition("#")
    link = _relpath(path, posixpath.dirname(src) or ".") if path else ""
    return link + (f"#{anchor}" if anchor else "")


# The pages link among a few thousand pages from a few dozen folders: the same pairs come back often,
# and posixpath.relpath (which makes both paths absolute) was a tenth of the pages' making.
_relpath = lru_cache(maxsize=1 << 16)(posixpath.relpath)


def label_md(value: Any, parameter: Parameter | None, lang: str) -> str:
    """A value's label (Markdown) with the value itself in code after it; the explanation as a tooltip."""
    label = parameter.label_of(value, lang) if parameter is not None else None
    if not label:
        return value_md(value, parameter, lang)
    explain = parameter.explain_of(value, lang) if parameter is not None else None
    tip = f' title="{html.escape(explain)}"' if explain else ""
    return f'<span class="bt-label-value"{tip}>{md(label)}</span> <small>{value_md(value, parameter, lang)}</small>'


def condition_md(parameter_id: str, wanted: Any, lang: str) -> str:
    """One entry of a parameter's ``applies_when`` in words: "When “Kind of auction” is Bids",
    or the locale's phrase for a list that holds a value ("When sans-atout is played")."""
    if isinstance(wanted, dict) and "includes" in wanted:
        return md(phrases(lang)["applies_includes"][f"{parameter_id}.{wanted['includes']}"])
    parameter = load_registry()[parameter_id]
    options = wanted["one_of"] if isinstance(wanted, dict) else [wanted]
    labels = t(lang, "or").join(f"*{md(label_of(option, parameter, lang))}*" for option in options)
    return t(lang, "applies_if_value", title=md(title_of(parameter_id, lang)), labels=labels)


def ruleset_title(ruleset: Ruleset, lang: str) -> str:
    return ruleset.title.get(lang) or ruleset.title.get("en") or ruleset.id


def ruleset_description(ruleset: Ruleset, lang: str) -> str:
    return ruleset.description.get(lang) or ruleset.description.get("en") or ""


def description_paragraphs(ruleset: Ruleset, lang: str) -> list[str]:
    """A ruleset's description as Markdown paragraphs (the club's text, escaped), none if it has none."""
    description = in_repository(ruleset_description(ruleset, lang))
    return [prose_md(p) for p in re.split(r"\n\s*\n", description) if p.strip()]


def param_page(data: SiteData, lang: str, parameter_id: str) -> str:
    return f"{lang}/rules/{data.topic_of(parameter_id)}.md#{parameter_id}"


def fixture_page(lang: str, fixture: Fixture) -> str:
    if fixture.provenance == "engine":
        return f"{lang}/regression.md#{fixture.id}"
    return f"{lang}/fixtures/{fixture.id}.md"


def value_md(value: Any, parameter: Parameter | None, lang: str) -> str:
    return code(format_value(value, parameter, lang))


def source_title(info: Mapping[str, str], lang: str) -> str:
    """A cited source's title in ``lang``: its ``title_<lang>`` where the registry gives one."""
    return str(info.get(f"title_{lang}") or info.get("title") or "")


def _source_links(path: str, lang: str, sources: Iterable[str], data: SiteData) -> str:
    links = []
    for source in sources:
        info = data.registry.sources.get(source)
        if info is not None:
            title = text_html(source_title(info, lang) or source)
            link = f'[{md(source)}]({rel(path, f"{lang}/sources.md#{source}")} "{title}")'
            if info.get("url"):
                link += f' <a class="bt-ext" href="{html.escape(info["url"])}" title="{title}">↗</a>'
            links.append(link)
        else:
            links.append(md(source))
    return ", ".join(links) or f"*{t(lang, 'no_source')}*"


def _lang_switch(path: str, lang: str) -> str:
    other = "fr" if lang == "en" else "en"
    target = other + path[len(lang):]
    return f'<p class="bt-lang" markdown>[{t(lang, "other_lang")}]({rel(path, target)})</p>\n\n'


def _ruleset_link(data: SiteData, lang: str, path: str, ruleset_id: str) -> str:
    for ruleset in data.rulesets:
        if ruleset.id == ruleset_id:
            return ruleset_id_link(ruleset, lang, path)
    return code(ruleset_id)


def ruleset_id_link(ruleset: Ruleset, lang: str, path: str) -> str:
    """A link to a ruleset's page by its short id, its full title shown on hover (where tables are narrow)."""
    # The title is the club's text: inside the link's quotes, Markdown must find no quote, backtick or pipe.
    title = text_html(ruleset_title(ruleset, lang))
    return f'[{md(ruleset.id)}]({rel(path, f"{lang}/rulesets/{ruleset.id}.md")} "{title}")'


def _rule_links(data: SiteData, lang: str, path: str, rules: Iterable[str]) -> str:
    links = [f"[{code(pid)}]({rel(path, param_page(data, lang, pid))})" if pid in data.registry.parameters
             else code(pid) for pid in rules]
    return ", ".join(links) or "—"


def _fence(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`{3,}", text)), default=2)
    return "`" * (longest + 1)


# Older notes cite a rules write-up that is not part of the repository ("rules.md §6: ..."); the pages
# cite the registry's sources instead and leave that pointer out.
OUTSIDE_REFERENCE = re.compile(r"\(?rules\.md(?: §[\d.]+)?\)?:?\s*")


def in_repository(text: str) -> str:
    """``text`` without pointers to documents outside the repository."""
    return OUTSIDE_REFERENCE.sub("", text)


def _identifiers() -> re.Pattern[str]:
    registry = load_registry()
    values = sorted({str(v) for p in registry.parameters.values() if p.closed for v in p.values if isinstance(v, str)},
                    key=len, reverse=True)
    ids = sorted(registry.parameters, key=len, reverse=True)
    id_part = "|".join(re.escape(pid) for pid in ids)
    value_part = "|".join(re.escape(v) for v in values)
    return re.compile(
        rf"(?<![\w.])(?:(?:{id_part})(?: (?:{value_part}|\d+))?|[a-z]+(?:_[a-z0-9]+)+|true|false)(?![\w.])"
    )


_IDENTIFIER: list[re.Pattern[str]] = []


def prose_md(text: Any) -> str:
    """Prose (the registry's explanations, a ruleset's description) made safe for Markdown, with the
    parameter ids and values in it as code: they are names, not words of the language."""
    if not _IDENTIFIER:
        _IDENTIFIER.append(_identifiers())
    parts, last = [], 0
    source = " ".join(str(text).split())
    for match in _IDENTIFIER[0].finditer(source):
        parts += [_md_spaced(source[last:match.start()]), code(match.group(0))]
        last = match.end()
    parts.append(_md_spaced(source[last:]))
    return "".join(parts)


def _md_spaced(piece: str) -> str:
    """:func:`md` of a piece of a sentence, keeping the spaces at its ends that part it from a code span."""
    if not piece.strip():
        return " " if piece else ""
    return (" " if piece[0] == " " else "") + md(piece) + (" " if piece[-1] == " " else "")


# How Material's search ranks a page family (front matter ``search.boost``): the rules first, the
# worked examples and the regression list after them. The gap is wide because Material scores a page's
# own entry 2.5 times a section's: an example page (an entry of its own) must still come after a rule,
# which is a section of its topic's page.
SEARCH_BOOST = {"rules": 6.0, "ruleset": 2.0, "sheet": 0.5, "fixture": 0.1, "regression": 0.05}


# A block the site's search leaves out (Material skips an element with this attribute). A <section>, because
# the search's parser matches an excluded element by its tag name: nested <div>s would end it too early.
SEARCH_EXCLUDED = '<section data-search-exclude markdown>'


def search_boost(family: str) -> list[str]:
    """The front matter lines that rank a page of ``family`` in the site's search."""
    return ["search:", f"  boost: {SEARCH_BOOST[family]}"]
