"""The page "Score a deal" / "Compter une donne" of each language: a form whose itemised score sheet the
reference engine computes in the reader's browser (see :mod:`belote_ref.site.browser_assets` for the
engine's files and :mod:`belote_ref.site.score_a_deal` for the answer).

The page is static HTML; its words (the locale files), the shipped rulesets and where each rule's
section is are written into it as JSON for the script, which loads the engine only on this page.
"""

from __future__ import annotations

import html
import posixpath

from belote_ref.core.cards import SEATS
from belote_ref.rules.ruleset import shipped_rulesets
from belote_ref.site.browser_assets import script_path
from belote_ref.site.data import SiteData
from belote_ref.site.interactive import interactive_md, rule_links, served_url
from belote_ref.site.markup import _lang_switch, md, ruleset_title
from belote_ref.site.wording import phrases, t

__all__ = ["SCORE_SCRIPT", "score_a_deal_md", "score_a_deal_page"]

#: The page's script, in the site beside the engine's files.
SCORE_SCRIPT = script_path("score_a_deal.js")

_TRUMPS = ("H", "S", "D", "C", "SA", "TA")


def score_a_deal_page(lang: str) -> str:
    return f"{lang}/score-a-deal.md"


def _options(choices: dict[str, str]) -> str:
    return "".join(f'<option value="{html.escape(value)}">{html.escape(label)}</option>'
                   for value, label in choices.items())


def _field(name: str, label: str, control: str) -> str:
    # A text area goes under its label, which may be long; a select or a line beside it.
    between = "<br>" if control.startswith("<textarea") else ""
    return f'<p><label for="bt-sad-{name}">{html.escape(label)}</label>{between}\n{control}</p>'


def _input(name: str, placeholder: str) -> str:
    return (f'<input id="bt-sad-{name}" name="{name}" placeholder="{html.escape(placeholder)}" '
            'autocomplete="off" spellcheck="false">')


def score_a_deal_md(data: SiteData, lang: str, megabytes: int) -> str:
    """The page's Markdown; ``megabytes``: what the reader's browser downloads the first time."""
    path = score_a_deal_page(lang)
    words = phrases(lang)["score_a_deal"]
    seats = {seat.name: phrases(lang)["seat_letters"][seat.name] for seat in SEATS}
    shipped = set(shipped_rulesets())
    rulesets = _options({r.id: ruleset_title(r, lang) for r in data.rulesets if r.id in shipped})
    trumps = _options({token: phrases(lang)["may_i_play"]["trumps"][token] for token in _TRUMPS})
    modes = "".join(f'<label><input type="radio" name="mode" value="{mode}"{" checked" if mode == "tricks" else ""}> '
                    f'{html.escape(words["modes"][mode])}</label> ' for mode in ("tricks", "piles"))
    strings = {key: value for key, value in words.items() if isinstance(value, str)}
    config = {"words": strings | {"colon": t(lang, "colon")}, "teams": phrases(lang)["teams"],
              "contracts": phrases(lang)["result_values"], "megabytes": megabytes,
              "rules": rule_links(data, lang, path)}
    script = posixpath.relpath(SCORE_SCRIPT, posixpath.dirname(served_url(path)))
    tricks = "&#10;".join(["JH 7H AH 8H", "9H TH QH KH", "…"])  # a line break inside the attribute
    multipliers = _options({"": words["multipliers"]["none"], "coinche": words["multipliers"]["coinche"],
                            "surcoinche": words["multipliers"]["surcoinche"]})
    selects = {name: f'<select id="bt-sad-{name}" name="{name}">{choices}</select>' for name, choices in
               (("ruleset", rulesets), ("dealer", _options(seats)), ("taker", _options(seats)), ("trump", trumps),
                ("multiplier", multipliers), ("last", _options(seats)))}
    areas = {name: f'<textarea id="bt-sad-{name}" name="{name}" rows="{rows}" cols="{cols}" spellcheck="false" '
                   f'placeholder="{placeholder}"></textarea>' for name, rows, cols, placeholder in
             (("tricks", 8, 24, tricks), ("announcements", 2, 40, "N tierce 7S 8S 9S"),
              ("house", 6, 60, html.escape(words["house_placeholder"]).replace("\n", "&#10;")))}
    form = f"""<form id="bt-sad" class="bt-sad" hidden>
{_field("ruleset", words["ruleset"], selects["ruleset"])}
<details id="bt-sad-house-box"><summary>{html.escape(words["house"])}</summary>
<p>{areas["house"]}</p></details>
{_field("dealer", words["dealer"], selects["dealer"])}
{_field("taker", words["taker"], selects["taker"])}
{_field("trump", words["trump"], selects["trump"])}
<fieldset id="bt-sad-bids" hidden><legend>{html.escape(words["bid_legend"])}</legend>
{_field("bid", words["bid"], _input("bid", "80"))}
{_field("multiplier", words["multiplier"], selects["multiplier"])}
</fieldset>
<fieldset><legend>{html.escape(words["mode"])}</legend><p>{modes}</p>
<div id="bt-sad-tricks-box">{_field("tricks", words["tricks"], areas["tricks"])}</div>
<div id="bt-sad-piles-box" hidden>
{_field("ns_won", words["ns_won"], _input("ns_won", "JH 9H AH 7H …"))}
{_field("ew_won", words["ew_won"], _input("ew_won", words["rest"]))}
{_field("last", words["last"], selects["last"])}
</div></fieldset>
{_field("belote", words["belote"], _input("belote", "S"))}
{_field("announcements", words["announcements"], areas["announcements"])}
<p id="bt-sad-pot-box"><label for="bt-sad-pot">{html.escape(words["pot"])}</label>
<input id="bt-sad-pot" name="pot" inputmode="numeric" placeholder="0" autocomplete="off"></p>
<p><button id="bt-sad-submit" type="submit" disabled>{html.escape(words["submit"])}</button></p>
</form>"""
    heading = [f"# {md(words['title'])}", "", _lang_switch(path, lang), md(words["intro"]), ""]
    return interactive_md("bt-sad", heading, form, words["no_script"], config, script)
