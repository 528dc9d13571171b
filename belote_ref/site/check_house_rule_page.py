"""The page "Check my house rules" / "Vérifier ma règle maison" of each language: a house rule's YAML,
pasted or chosen as a file, checked by the reference engine in the reader's browser (see
:mod:`belote_ref.site.check_house_rule` for the answer, ``browser/check_house_rule.js`` for the page).

The page is static HTML; its words (the locale files), the rules' addresses and the addresses of the
interactive pages that open under a house rule are written into it as JSON for the script.
"""

from __future__ import annotations

import html
import posixpath
from collections.abc import Collection

from belote_ref.site.browser_assets import script_path
from belote_ref.site.check_house_rule import MAX_HOUSE_RULE_BYTES
from belote_ref.site.data import SiteData
from belote_ref.site.interactive import interactive_md, served_link, served_url
from belote_ref.site.markup import _lang_switch, md, rel
from belote_ref.site.may_i_play_page import play_rule_links
from belote_ref.site.wording import phrases, t

__all__ = ["OPENED_UNDER", "SCRIPT", "check_house_rule_md", "check_house_rule_page"]

#: The page's script, in the site beside the engine's files.
SCRIPT = script_path("check_house_rule.js")

#: The interactive pages that read a house rule from their address (``#house=``), by their name in
#: the page's words and their page in the site (``{lang}/<slug>.md``).
OPENED_UNDER = {"may_i_play": "may-i-play", "score_a_deal": "score-a-deal"}

# The engine's loading is said in the same words on every interactive page.
_LOADER_WORDS = ("loading", "loading_python", "loading_engine", "ready", "failed", "no_script")


def check_house_rule_page(lang: str) -> str:
    return f"{lang}/check-house-rule.md"


def check_house_rule_md(data: SiteData, lang: str, megabytes: int, pages: Collection[str]) -> str:
    """The page's Markdown; ``megabytes``: what the reader's browser downloads the first time; ``pages``:
    the site's pages, of which those of :data:`OPENED_UNDER` are linked under the checked house rule."""
    path = check_house_rule_page(lang)
    words = phrases(lang)["check_house_rule"]
    loader = {key: phrases(lang)["may_i_play"][key] for key in _LOADER_WORDS}
    strings = {key: value for key, value in words.items() if isinstance(value, str)}
    links = {name: served_link(path, f"{lang}/{slug}.md") for name, slug in OPENED_UNDER.items()
             if f"{lang}/{slug}.md" in pages}
    config = {"words": strings | loader | {"colon": t(lang, "colon"), "pages": words["pages"]},
              "lang": lang, "megabytes": megabytes, "max_bytes": MAX_HOUSE_RULE_BYTES,
              "links": links, "rules": play_rule_links(data, lang, path)}
    script = posixpath.relpath(SCRIPT, posixpath.dirname(served_url(path)))
    guide = "house-rules.md" if lang == "en" else f"{lang}/house-rules.md"
    intro = [md(words["intro"]), ""]
    if guide in data.hand_pages:
        intro += [f"[{md(words['guide'])}]({rel(path, guide)})", ""]
    form = f"""<form id="bt-chr" class="bt-chr" hidden>
<p><label for="bt-chr-text">{html.escape(words["text"])}</label><br>
<textarea id="bt-chr-text" name="text" rows="10" cols="72" spellcheck="false" autocomplete="off"
placeholder="{html.escape(words["placeholder"]).replace(chr(10), "&#10;")}"></textarea></p>
<p><label for="bt-chr-file">{html.escape(words["file"])}</label>
<input id="bt-chr-file" name="file" type="file" accept=".yaml,.yml,text/yaml,text/plain"></p>
<p><button id="bt-chr-submit" type="submit" disabled>{html.escape(words["submit"])}</button></p>
</form>"""
    heading = [f"# {md(words['title'])}", "", _lang_switch(path, lang), *intro]
    return interactive_md("bt-chr", heading, form, loader["no_script"], config, script)
