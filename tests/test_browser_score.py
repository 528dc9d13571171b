"""The reference engine in the reader's browser: "Score a deal" / "Compter une donne" on the built site,
served from a local folder and read by headless chromium (the helpers of tests/test_site.py).

The page must show a hand fixture's expected ``deal_score`` (worked by hand in the fixture's note, not
computed by the engine here), in French and in English, from the eight tricks in the address, from a
house rule in the address, and from the cards each side won typed in the form. Loading the engine takes
seconds: each wait has a generous deadline and polls the page; none is a fixed sleep.
"""

from __future__ import annotations

import base64
import json
import os
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from test_site import REPO, WebDriver, _missing, _wait_until, browser, served, site

from belote_ref.conformance.corpus import Fixture, load_fixture
from belote_ref.rules.registry import load_registry
from belote_ref.rules.ruleset import find_ruleset, load_ruleset

__all__ = ["browser", "served", "site"]  # the fixtures, imported for pytest

pytestmark = pytest.mark.slow

#: 81 card points each, the defenders' belote: down, 162 + 20 (or 160 + 20 with a chute base of 160).
FIXTURE = REPO / "conformance" / "fixtures" / "score" / "chute" / "equal-cards-defenders-belote.yaml"
HOUSE_RULE = ("id: chute-160\nversion: 1\ntitle: Une chute à 160 — été\nextends: classic\n"
              "scoring: {chute: {base: 160}}\n")
#: Loading Python and the engine, in a cold browser on a slow machine.
LOAD_SECONDS = 240


def _fixture() -> Fixture:
    fixture, problems = load_fixture(FIXTURE)
    assert fixture is not None, problems
    return fixture


def _query(fixture: Fixture, ruleset: str) -> str:
    given = fixture.given
    return urllib.parse.urlencode({
        "ruleset": ruleset, "dealer": given["dealer"], "taker": given["taker"], "trump": given["trump"],
        "mode": "tricks", "tricks": "\n".join(" ".join(trick["cards"]) for trick in given["tricks"]),
        "belote": given["belote"] or ""})


def _house_hash(text: str) -> str:
    return "#house=" + base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def _state(driver: WebDriver) -> Any:
    return driver.js("const a = document.getElementById('bt-sad-answer');"
                     "const s = document.getElementById('bt-sad-status');"
                     "return s.dataset.state === 'failed' ? 'failed: ' + s.textContent : (a && a.dataset.state);")


def _wait_for_answer(driver: WebDriver) -> None:
    _wait_until(lambda: _state(driver) is not None, LOAD_SECONDS, "the page gave no answer")
    state = _state(driver)
    assert state == "answered", (state, driver.js("return document.getElementById('bt-sad-answer').textContent"))


def _shown(driver: WebDriver) -> dict[str, Any]:
    shown: dict[str, Any] = driver.js("""
        const score = {};
        for (const e of document.querySelectorAll('.bt-sad-deal-score [data-team]'))
          score[e.dataset.team] = Number(e.dataset.points);
        const rules = [...document.querySelectorAll('.bt-sad-sheet tr[data-rule] a[data-rule]')]
          .map(a => ({rule: a.dataset.rule, title: a.textContent, href: a.href}));
        const foreign = performance.getEntriesByType('resource').map(e => e.name)
          .filter(name => !name.startsWith(location.origin));
        return {score, rules, foreign, ms: window.beloteRef.firstAnswerMs, search: location.search,
                hash: location.hash, contract: document.querySelector('.bt-sad-contract').dataset.contract,
                teams: document.querySelector('.bt-sad-deal-score').textContent};""")
    return shown


def _engine_pages(site: Path) -> None:
    if not (site / "en" / "score-a-deal" / "index.html").is_file():
        _missing("the site was built without the interactive pages: run `bash browser/fetch` (Pyodide from the npm "
                 "registry, the pure-Python wheels from PyPI) before the tests")


def test_the_build_puts_the_score_page_beside_the_engine(site: Path) -> None:
    _engine_pages(site)
    assert (site / "engine" / "score-a-deal.js").is_file()
    for lang in ("en", "fr"):
        html = (site / lang / "score-a-deal" / "index.html").read_text(encoding="utf-8")
        assert 'src="../../engine/score-a-deal.js"' in html
        assert "https://" not in html.split('id="bt-sad-config"')[0].split('id="bt-sad"')[1]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_page_scores_the_fixture_as_worked_by_hand(lang: str, site: Path, served: str, browser: WebDriver) -> None:
    _engine_pages(site)
    fixture = _fixture()
    expected = fixture.expected(find_ruleset("classic"))
    assert expected is not None
    address = f"{served}/{lang}/score-a-deal/?{_query(fixture, 'classic')}"
    browser.get(address)
    _wait_for_answer(browser)
    cold = _shown(browser)
    assert cold["score"] == expected["deal_score"] == {"NS": 182, "EW": 0}
    assert cold["contract"] == expected["contract"]
    assert cold["foreign"] == [], "the page fetched from outside the site"
    assert ("EO" if lang == "fr" else "EW") in cold["teams"]
    chute = next(item for item in cold["rules"] if item["rule"] == "scoring.chute.base")
    assert chute["title"] == load_registry().parameters["scoring.chute.base"].title_in(lang)
    with urllib.request.urlopen(chute["href"].split("#")[0], timeout=30) as response:
        assert response.status == 200
        assert f'id="{chute["rule"]}"' in response.read().decode("utf-8")
    # The deal is in the address; loaded again from the browser's cache (warm).
    browser.get(address)
    _wait_for_answer(browser)
    warm = _shown(browser)
    assert warm["score"] == expected["deal_score"]
    times = {"page": "score-a-deal", "lang": lang, "cold_ms": round(cold["ms"]), "warm_ms": round(warm["ms"])}
    print(f"\nscore-a-deal {lang}: first answer {times['cold_ms']} ms cold, {times['warm_ms']} ms warm")
    artifacts = os.environ.get("BELOTE_REF_ARTIFACTS")
    if artifacts:
        Path(artifacts).mkdir(parents=True, exist_ok=True)
        with (Path(artifacts) / "browser-engine-times.jsonl").open("a", encoding="utf-8") as out:
            out.write(json.dumps(times) + "\n")
        browser.screenshot(Path(artifacts) / f"score-a-deal-{lang}.png")


def test_a_house_rule_in_the_address_is_scored_by_its_values(site: Path, served: str, browser: WebDriver) -> None:
    _engine_pages(site)
    fixture = _fixture()
    house = load_ruleset("/house-rule/house-rule.yaml", HOUSE_RULE)
    expected = fixture.expected(house)  # the fixture's branch for a chute base of 160
    assert expected is not None and expected["deal_score"] == {"NS": 180, "EW": 0}
    browser.get(f"{served}/fr/score-a-deal/?{_query(fixture, 'classic')}{_house_hash(HOUSE_RULE)}")
    _wait_for_answer(browser)
    shown = _shown(browser)
    assert shown["score"] == expected["deal_score"]
    assert browser.js("return document.getElementById('bt-sad-house').value") == HOUSE_RULE
    assert shown["hash"] == _house_hash(HOUSE_RULE)  # written back as it came: the link can be passed on


def test_the_cards_each_side_won_typed_in_the_form_are_scored(site: Path, served: str, browser: WebDriver) -> None:
    _engine_pages(site)
    fixture = _fixture()
    expected = fixture.expected(find_ruleset("classic"))
    assert expected is not None
    ns = " ".join(card for trick, winner in zip(fixture.given["tricks"], expected["trick_winners"], strict=True)
                  if winner in "NS" for card in trick["cards"])
    browser.get(f"{served}/en/score-a-deal/")
    _wait_until(lambda: browser.js("return !document.getElementById('bt-sad-submit').disabled"
                                   " || document.getElementById('bt-sad-status').dataset.state === 'failed'"),
                LOAD_SECONDS, "the engine did not load")
    browser.js("for (const [name, value] of Object.entries({dealer: 'E', taker: 'E', trump: 'C', last: 'E'}))"
               "  document.getElementById('bt-sad-' + name).value = value;"
               "document.querySelector('input[name=mode][value=piles]').click();")
    browser.type(browser.find("#bt-sad-ns_won"), ns)
    browser.type(browser.find("#bt-sad-belote"), "S")
    browser.click(browser.find("#bt-sad-submit"))
    _wait_for_answer(browser)
    shown = _shown(browser)
    assert shown["score"] == expected["deal_score"]
    query = urllib.parse.parse_qs(shown["search"].lstrip("?"))
    assert query["mode"] == ["piles"] and query["ns_won"] == [ns]
    # Text typed into the form is shown as text, never read as HTML.
    browser.type(browser.find("#bt-sad-belote"), "<img src=x onerror=alert(1)>")
    browser.click(browser.find("#bt-sad-submit"))
    _wait_until(lambda: _state(browser) == "error", 60, "a bad belote gave no error")
    assert browser.js("return document.querySelectorAll('#bt-sad-answer img').length") == 0
