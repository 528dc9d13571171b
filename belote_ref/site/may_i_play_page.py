"""The page "May I play this card?" / "Est-ce jouable ?" of each language: a form whose answer the
reference engine computes in the reader's browser (see :mod:`belote_ref.site.browser_assets` for the
engine's files and :mod:`belote_ref.site.may_i_play` for the answer).

The page is static HTML; its words (the locale files), the shipped rulesets and where each rule's
section is are written into it as JSON for the script, which loads the engine only on this page.
"""

from __future__ import annotations

import html
import posixpath
from typing import Any

from belote_ref.engine.play import RULE_CARD_IN_HAND, RULE_FOLLOW_SUIT, RULE_MUST_OVERTRUMP, RULE_MUST_TRUMP
from belote_ref.rules.ruleset import shipped_rulesets
from belote_ref.site.browser_assets import script_path
from belote_ref.site.cardhtml import SUIT_SYMBOLS
from belote_ref.site.check_house_rule import MAX_HOUSE_RULE_BYTES
from belote_ref.site.data import SiteData
from belote_ref.site.interactive import interactive_md, rule_links, served_link, served_url
from belote_ref.site.markup import _lang_switch, md, ruleset_title
from belote_ref.site.may_i_play import HOUSE_CHOICE, contract_choices
from belote_ref.site.wording import phrases, t

__all__ = ["SCRIPT", "may_i_play_md", "may_i_play_page", "play_rule_links"]

#: The page's script, in the site beside the engine's files.
SCRIPT = script_path("may_i_play.js")

_BASE_RULES = (RULE_FOLLOW_SUIT, RULE_MUST_TRUMP, RULE_MUST_OVERTRUMP, RULE_CARD_IN_HAND)
_TRUMPS = ("H", "S", "D", "C", "SA", "TA")
_RANKS = ("7", "8", "9", "T", "J", "Q", "K", "A")


def may_i_play_page(lang: str) -> str:
    return f"{lang}/may-i-play.md"


def play_rule_links(data: SiteData, lang: str, path: str) -> dict[str, dict[str, str]]:
    """Every rule the engine may name for an illegal card: its title in ``lang`` and its section's address."""
    words = phrases(lang)["may_i_play"]["base_rules"]
    rules = rule_links(data, lang, path)
    for rule in _BASE_RULES:
        rules[rule] = {"title": words[rule], "href": served_link(path, f"{lang}/rules/{data.topic_of(rule)}.md")}
    return rules


def _house_box(words: dict[str, Any]) -> str:
    """A house rule to play under: pasted, or chosen as a file (the address may carry it, ``#house=``)."""
    legend = html.escape(words["house_legend"])
    return f"""<details id="bt-mip-house-box" class="bt-mip-house"><summary>{legend}</summary>
<p><label for="bt-mip-house">{html.escape(words["house_text"])}</label>
<textarea id="bt-mip-house" rows="6" cols="60" spellcheck="false" autocomplete="off"></textarea></p>
<p><label for="bt-mip-house-file">{html.escape(words["house_file"])}</label>
<input id="bt-mip-house-file" type="file" accept=".yaml,.yml,text/yaml,text/plain"></p>
<p><button id="bt-mip-house-use" type="button" disabled>{html.escape(words["house_use"])}</button></p>
<p id="bt-mip-house-status" aria-live="polite"></p>
</details>"""


def _card_grid(words: dict[str, Any], lang: str) -> str:
    """The 32 cards, one button each: a click puts the card in the trick or the hand (the radio
    buttons say which), or takes it out; the fields stay typed text."""
    ranks, rank_names, suits = phrases(lang)["ranks"], phrases(lang)["rank_names"], phrases(lang)["suits"]
    rows = []
    for suit in ("S", "H", "D", "C"):
        names = {rank: words["card_name"].format(rank=rank_names[rank], suit=suits[suit]) for rank in _RANKS}
        buttons = "".join(
            f'<button type="button" class="bt-mip-card" data-card="{rank}{suit}" data-suit="{suit}" '
            f'aria-pressed="false" aria-label="{html.escape(names[rank])}">'
            f'{html.escape(ranks[rank])}{SUIT_SYMBOLS[suit]}</button>' for rank in _RANKS)
        rows.append(f'<span class="bt-mip-suit">{buttons}</span>')
    targets = "".join(
        f'<label class="bt-mip-target"><input type="radio" name="grid_target" value="{target}"'
        f'{" checked" if target == "hand" else ""}> {html.escape(words[f"grid_{target}"])}</label>'
        for target in ("trick", "hand"))
    return (f'<fieldset id="bt-mip-grid" class="bt-mip-grid"><legend>{html.escape(words["grid"])}</legend>\n'
            f'<p>{html.escape(words["grid_to"])} {targets}</p>\n<p>{"<br>".join(rows)}</p>\n</fieldset>')


def may_i_play_md(data: SiteData, lang: str, megabytes: int) -> str:
    """The page's Markdown; ``megabytes``: what the reader's browser downloads the first time."""
    path = may_i_play_page(lang)
    words = phrases(lang)["may_i_play"]
    shipped = set(shipped_rulesets())
    options = "".join(f'<option value="{html.escape(r.id)}">{html.escape(ruleset_title(r, lang))}</option>'
                      for r in data.rulesets if r.id in shipped)
    options += (f'<option value="{HOUSE_CHOICE}" id="bt-mip-house-option" hidden disabled>'
                f'{html.escape(words["house"])}</option>')
    trumps = "".join(f'<option value="{token}">{html.escape(words["trumps"][token])}</option>' for token in _TRUMPS)
    strings = {key: value for key, value in words.items() if isinstance(value, str)}
    contracts = {r.id: contract_choices(r) for r in data.rulesets if r.id in shipped}
    config = {"words": strings | {"colon": t(lang, "colon")}, "lang": lang, "max_bytes": MAX_HOUSE_RULE_BYTES,
              "megabytes": megabytes, "rules": play_rule_links(data, lang, path), "contracts": contracts}
    script = posixpath.relpath(SCRIPT, posixpath.dirname(served_url(path)))
    form = f"""<form id="bt-mip" class="bt-mip" hidden>
<p><label for="bt-mip-ruleset">{html.escape(words["ruleset"])}</label>
<select id="bt-mip-ruleset" name="ruleset">{options}</select></p>
{_house_box(words)}
<p><label for="bt-mip-trump">{html.escape(words["trump"])}</label>
<select id="bt-mip-trump" name="trump">{trumps}</select></p>
<p><label for="bt-mip-trick">{html.escape(words["trick"])}</label>
<input id="bt-mip-trick" name="trick" placeholder="8D AD" autocomplete="off" spellcheck="false"></p>
<p><label for="bt-mip-hand">{html.escape(words["hand"])}</label>
<input id="bt-mip-hand" name="hand" placeholder="TS 9H QH 7C" autocomplete="off" spellcheck="false"></p>
{_card_grid(words, lang)}
<p><button id="bt-mip-submit" type="submit" disabled>{html.escape(words["submit"])}</button></p>
</form>"""
    heading = [f"# {md(words['title'])}", "", _lang_switch(path, lang), md(words["intro"]), ""]
    return interactive_md("bt-mip", heading, form, words["no_script"], config, script)
