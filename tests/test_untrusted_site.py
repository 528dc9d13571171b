"""Untrusted text on the rules website (issue 31): a club's house rule, a fixture and an adapter's report
are other people's text, and the site shows them to everyone who opens it.

A house rule whose title, French title, description and sources carry script tags, ``onerror`` and
``onclick`` attributes, ``javascript:`` links, Markdown link and attribute syntax, backticks, pipes, quotes
and blank lines is published beside a hostile fixture and a hostile report: every generated page, read by
Markdown, must hold no element or attribute the payload asked for; the built site (MkDocs, the theme's
navigation, page titles and search index) must never hold the raw payload; and in headless Chromium no
script may run on the pages that show it (an ``alert`` is caught before any of the page's own scripts
run). The build uses a corpus of the few fixtures the hand-written pages link to: the navigation, the
ruleset pages, the sheets, the comparison and the implementations page are all built, but not a page
for each of the shipped corpus's fixtures.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_site import WebDriver, _free_port, _listening, _loaded, _require_mkdocs, _wait_until, browser

from belote_ref.cli import main
from belote_ref.conformance.corpus import Fixture, load_corpus
from belote_ref.rules.ruleset import load_ruleset
from belote_ref.site import LANGUAGES, generate_pages, load_site_data
from belote_ref.site import data as site_data
from belote_ref.site import reports as site_reports

# Slow tier (a site built from hostile input, read in a browser): left out of the quick default; see README.
pytestmark = pytest.mark.slow

__all__ = ["browser"]  # the browser fixture of tests/test_site.py, used here

REPO = Path(__file__).resolve().parents[1]


def payload(n: int) -> str:
    """Hostile text, each attack numbered ``n`` so that a leak names the field it came from."""
    return (f"Hostile <script>alert({n})</script> <img src=x onerror=alert({n})> <svg onload=alert({n})></svg> "
            f"[link](javascript:alert({n})) <a href=\"javascript:alert({n})\">a</a> "
            f"\" onmouseover=\"alert({n}) ' onfocus='alert({n}) {{: onclick=alert({n}) }} "
            f"</title><script>alert({n})</script> &lt;script&gt;alert({n})&lt;/script&gt;"
            f"\n\n<script>alert({n})</script>\n\n    <b onclick=alert({n})>indented</b>\n"
            f"`|<script>alert({n})</script>|` ``` <b onclick=alert({n})>b</b> \\`<b onclick=alert({n})>`")


#: The fields of a house rule that are text: everything but its id (a pattern), version (a number)
#: and values (checked by the registry).
HOUSE_RULE = {
    "id": "hostile-club", "version": 1, "title": {"en": payload(1), "fr": payload(2)},
    "description": {"en": payload(3), "fr": payload(4)}, "extends": "classic",
    "sources": [payload(5), "FFB-B16"], "play": {"undertrump_over_opponent": "optional"},
}


def hostile_fixtures() -> list[Fixture]:
    """Fixtures of each shape the pages draw, every text and given value of them hostile."""
    legal = {
        "id": "hostile.legal", "kind": "legal_plays", "title": payload(20), "title_fr": payload(21),
        "rules": [payload(22), "play.undertrump_partner"], "depends_on": [payload(23)],
        "source": {"doc": payload(24) + " FFB-B16", "quote": payload(25)}, "provenance": "hand",
        "note": payload(26), "note_fr": payload(27), "applies_to": {payload(28): payload(29)},
        "given": {"trump": payload(30), "seat": "S", "hand": ["AS", payload(31)],
                  "trick": {"leader": "N", "cards": [payload(32)]}, payload(33): payload(34)},
        "expect": [{"when": {payload(35): {"one_of": [payload(36)]}}, "result": {"legal": ["AS", payload(37)],
                                                                                 payload(38): payload(39)}},
                   {"result": {"rejected": {"code": payload(40), "index": payload(41)}}},
                   {"result": {payload(42): [{payload(43): payload(44)}]}}],
    }
    english_note_only = {key: value for key, value in legal.items() if key != "note_fr"}
    score = {**english_note_only, "id": "hostile.score", "kind": "score",
             "given": {"trump": "H", "dealer": payload(50), "taker": payload(51),
                       "tricks": [{"leader": "N", "cards": [payload(52), "AS"]}]}}
    replay = {**legal, "id": "hostile.replay", "kind": "replay",
              "given": {"dealer": "N", "turned": payload(60), "calls": [payload(61), "80H", "coinche:" + payload(62)],
                        "hands": {payload(63): [payload(64)]}, "plays": [payload(65)]}}
    auction = {**legal, "id": "hostile.auction", "kind": "auction",
               "given": {"dealer": "E", "turned": "JH", "calls": ["pass", payload(66)]}}
    engine = {**legal, "id": "hostile.engine", "provenance": "engine"}
    return [Fixture(Path(f"{f['id']}.yaml"), f) for f in (legal, score, replay, auction, engine)]


def write_hostile_report(folder: Path) -> None:
    """An adapter's report whose names, versions, reasons, case ids, rulesets and departures are hostile."""
    cases = [{"type": "case", "id": payload(70), "kind": payload(71), "ruleset": payload(72), "outcome": "fail",
              "rules": [payload(73)], "provenance": "hand"},
             {"type": "case", "id": "hostile.legal", "kind": "legal_plays", "ruleset": "hostile-club",
              "outcome": "n/a", "reason": payload(74), "rules": [], "provenance": "hand"},
             {"type": "case", "id": "hostile.legal@seats+1", "kind": "legal_plays", "ruleset": "classic",
              "outcome": "crash", "rules": [payload(85)], "provenance": "hand"}]
    adapter = {"name": payload(75), "version": payload(76), "language": payload(77)}
    header = {"type": "header", "runner": {"name": "belote-ref"}, "protocol": 3, "adapter": adapter,
              "suite": payload(78), "started": payload(79), "command": payload(80),
              "departures": {payload(81): {payload(82): [payload(83)]},
                             "classic": {"play.undertrump_partner": [payload(84)]}}}
    footer = {"type": "footer", "counts": {"fail": 1, "n/a": 1, "crash": 1}, "ok": False}
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hostile.jsonl").write_text("".join(json.dumps(line) + "\n" for line in [header, *cases, footer]),
                                          encoding="utf-8")


#: The attributes whose value is an address (a ``javascript:`` one runs when followed).
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "data", "xlink:href", "poster")


class Injected(HTMLParser):
    """What a payload would have put in a page: a script, an image, an SVG, an event attribute, a
    ``javascript:`` address. (Every script of the theme has a ``src`` or no ``alert``.)"""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("img", "iframe", "object", "embed"):  # the theme draws its icons as inline SVG
            self.found.append(f"<{tag} {attrs}>")
        self._in_script = tag == "script"
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}={value!r}>")
            if name in URL_ATTRIBUTES and "javascript:" in "".join((value or "").split()).lower():
                self.found.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and "alert(" in data:
            self.found.append(f"<script>{data[:80]}")


def injected(html_text: str) -> list[str]:
    parser = Injected()
    parser.feed(html_text)
    parser.close()
    return parser.found


def _markdown_extensions() -> list[str]:
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    return [e if isinstance(e, str) else next(iter(e)) for e in config["markdown_extensions"]]


def _house_rule_file(folder: Path) -> Path:
    path = folder / "hostile-club.yaml"
    path.write_text(yaml.safe_dump(HOUSE_RULE, allow_unicode=True), encoding="utf-8")
    return path


def test_the_house_rule_carries_the_payload_in_every_text_field(tmp_path: Path) -> None:
    ruleset = load_ruleset(_house_rule_file(tmp_path))
    assert ruleset.title == {"en": payload(1), "fr": payload(2)}
    assert ruleset.description == {"en": payload(3), "fr": payload(4)}
    assert payload(5) in ruleset.sources


def test_no_generated_page_lets_a_payload_into_the_html(tmp_path: Path) -> None:
    import markdown

    write_hostile_report(tmp_path / "reports")
    corpus = list(load_corpus()[:3]) + hostile_fixtures()
    data = load_site_data(corpus, reports_dir=tmp_path / "reports",
                          extra_rulesets=[load_ruleset(_house_rule_file(tmp_path))])
    site = generate_pages(data, ["house-rules.md", "protocol.md"])
    for lang in LANGUAGES:  # the pages that show the payloads
        assert "hostile-club" in site.pages[f"{lang}/compare.md"]
        assert "hostile.legal" in site.pages[f"{lang}/fixtures/hostile.legal.md"]
        assert "alert(75)" in site.pages[f"{lang}/implementations.md"]
    extensions = _markdown_extensions()
    leaks, shown = {}, 0
    for path, text in site.pages.items():
        if "Hostile" not in text:
            continue  # a page that shows no payload (each starts with the word) has none to let through
        shown += 1
        found = injected(markdown.markdown(text, extensions=extensions))
        if found:
            leaks[path] = found[:3]
    assert shown > 40, shown
    assert not leaks, leaks


def test_the_navigation_titles_are_escaped(tmp_path: Path) -> None:
    data = load_site_data(list(load_corpus()[:1]), reports_dir=tmp_path / "none",
                          extra_rulesets=[load_ruleset(_house_rule_file(tmp_path))])
    nav = json.dumps(generate_pages(data, []).nav)
    assert "<script>" not in nav and "<img" not in nav
    assert json.dumps("&lt;script&gt;alert(1)&lt;/script&gt;")[1:-1] in nav  # escaped, not dropped


# ----------------------------------------------------------------------------------- the built site


def linked_fixtures() -> tuple[Fixture, ...]:
    """The shipped fixtures the hand-written pages of ``docs/`` link to (a strict build needs their pages)."""
    linked = {match for page in (REPO / "docs").rglob("*.md")
              for match in re.findall(r"fixtures/([a-z0-9.-]+)\.md", page.read_text(encoding="utf-8"))}
    return tuple(fixture for fixture in load_corpus() if fixture.id in linked)


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built by ``belote-ref docs build --ruleset hostile-club.yaml`` (strict), over a corpus of
    a few shipped fixtures and the hostile ones, with the hostile report as the committed reports."""
    _require_mkdocs()
    folder = tmp_path_factory.mktemp("hostile-site")
    write_hostile_report(folder / "reports")
    corpus = linked_fixtures() + tuple(hostile_fixtures())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(site_data, "load_corpus", lambda: corpus)
        patch.setattr(site_reports, "REPORTS_DIR", folder / "reports")
        status = main(["docs", "build", "--ruleset", str(_house_rule_file(folder)), "--out", str(folder / "site"),
                       "--config", str(REPO / "mkdocs.yml")])
    assert status == 0
    return folder / "site"


#: The pages that show the house rule's title in their body (every page shows it in the navigation).
TITLE_PAGES = ("{lang}/rulesets/hostile-club/", "{lang}/sheets/hostile-club/", "{lang}/compare/", "{lang}/rulesets/",
               "{lang}/index.html", "{lang}/fixtures/hostile.legal/", "{lang}/fixtures/hostile.score/",
               "{lang}/fixtures/hostile.replay/", "{lang}/fixtures/hostile.auction/", "{lang}/implementations/",
               "{lang}/regression/", "{lang}/examples/", "{lang}/rules/play/")


def test_the_built_site_never_holds_the_raw_payload(hostile_site: Path) -> None:
    pages = sorted(hostile_site.rglob("*.html"))
    assert len(pages) > 50
    leaks = {}
    for page in pages:
        text = page.read_text(encoding="utf-8")
        found = injected(text)
        for raw in ("<script>alert(", "</title><script>", "<img src=x", "<svg onload", '<a href="javascript:'):
            if raw in text:
                found.append(raw)
        if found:
            leaks[page.relative_to(hostile_site).as_posix()] = found[:3]
    assert not leaks, leaks
    ruleset_page = (hostile_site / "en" / "rulesets" / "hostile-club" / "index.html").read_text(encoding="utf-8")
    title = ruleset_page.split("<title>", 1)[1].split("</title>", 1)[0]
    assert "&lt;/title&gt;&lt;script&gt;alert(1)" in title, title  # the title shown as text, not lost


def test_the_search_index_holds_the_payload_only_as_text(hostile_site: Path) -> None:
    index = json.loads((hostile_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    entries = [doc for doc in index["docs"] if "alert(" in doc.get("title", "") + doc.get("text", "")]
    assert entries, "the payloads are searchable"
    leaks = [(doc["location"], found) for doc in entries
             for found in [injected(doc.get("title", "")) + injected(doc.get("text", ""))] if found]
    assert not leaks, leaks[:5]


#: Run in each page before its own scripts: an alert, a prompt or a confirm is written down, not shown.
CATCH_ALERTS = """
window.__alerts = [];
for (const name of ["alert", "confirm", "prompt"]) {
  window[name] = (message) => { window.__alerts.push(name + ": " + String(message)); };
}
"""

#: The elements and attributes a payload asks for, found in the live page (after its scripts ran).
INJECTED_IN_DOM = f"const URL_ATTRIBUTES = {json.dumps(list(URL_ATTRIBUTES))};" + """
const found = [];
for (const el of document.querySelectorAll("*")) {
  for (const attr of el.attributes) {
    if (attr.name.startsWith("on")) found.push(el.tagName + " " + attr.name);
    if (URL_ATTRIBUTES.includes(attr.name) && /javascript:/i.test(attr.value.replace(/\\s/g, ""))) {
      found.push(el.tagName + " " + attr.name);
    }
  }
  if (["IMG", "IFRAME", "OBJECT", "EMBED"].includes(el.tagName)) found.push(el.tagName);
  if (el.tagName === "SCRIPT" && el.textContent.includes("alert(")) found.push("SCRIPT " + el.textContent.slice(0, 60));
}
return {found: found, alerts: window.__alerts || null, title: document.title, text: document.body.innerText};
"""


@pytest.fixture
def served_hostile(hostile_site: Path) -> Iterator[str]:
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", str(hostile_site)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_until(lambda: _listening(port), 30, "the local http.server did not start")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(10)


def _page_state(browser: WebDriver, url: str) -> dict[str, Any]:
    _loaded(browser, url)
    state: dict[str, Any] = browser.js(INJECTED_IN_DOM)
    assert state["alerts"] is not None, f"{url}: the alert catcher did not run"
    return state


def test_no_script_runs_in_a_browser_on_the_pages_that_show_the_payloads(served_hostile: str,
                                                                         browser: WebDriver) -> None:
    browser.call("POST", f"/session/{browser.session}/goog/cdp/execute",
                 {"cmd": "Page.addScriptToEvaluateOnNewDocument", "params": {"source": CATCH_ALERTS}})
    for lang in LANGUAGES:
        for page in TITLE_PAGES:
            url = f"{served_hostile}/{page.format(lang=lang)}"
            state = _page_state(browser, url)
            assert state["alerts"] == [], (url, state["alerts"])
            assert state["found"] == [], (url, state["found"][:5])
        # The title is shown, as the club wrote it, in the navigation and the browser's tab.
        state = _page_state(browser, f"{served_hostile}/{lang}/rulesets/hostile-club/")
        title = HOUSE_RULE["title"][lang]  # type: ignore[index]
        assert " ".join(title.split()).split(" [link]")[0] in state["title"], state["title"]  # Hostile <script>...
        assert "<script>alert(" in state["text"]


def test_no_script_runs_in_a_browser_from_the_search_results(served_hostile: str, browser: WebDriver) -> None:
    browser.call("POST", f"/session/{browser.session}/goog/cdp/execute",
                 {"cmd": "Page.addScriptToEvaluateOnNewDocument", "params": {"source": CATCH_ALERTS}})
    _loaded(browser, f"{served_hostile}/en/")
    search = browser.find("input.md-search__input")  # in the header at the window's 1280 px
    browser.call("POST", f"/session/{browser.session}/element/{search}/value", {"text": "hostile"})
    _wait_until(lambda: browser.js("return document.querySelectorAll('.md-search-result__item').length") > 0, 60,
                "the search found no page of the payloads")
    state = browser.js(INJECTED_IN_DOM)
    assert state["alerts"] == [], state["alerts"]
    assert state["found"] == [], state["found"][:5]
