"""The reference engine in the reader's browser: "May I play this card?" / "Est-ce jouable ?" and "Check my
house rules" / "Vérifier ma règle maison" on the built site, served from a local folder and read by
headless chromium (the helpers of tests/test_site.py).

The engine (CPython under Pyodide, then belote_ref) takes seconds to load: each wait has a generous
deadline and polls the page; none is a fixed sleep. The times measured are printed (``-s``) and kept
in ``$BELOTE_REF_ARTIFACTS/browser-engine-times.json`` when that folder is set.
"""

from __future__ import annotations

import json
import os
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_site import REPO, WebDriver, _missing, _wait_until, browser, served, site

from belote_ref.site.check_house_rule import check_house_rule, house_fragment, house_from_fragment
from belote_ref.site.may_i_play import answer

__all__ = ["browser", "served", "site"]  # the fixtures, imported for pytest

pytestmark = pytest.mark.slow

FIXTURE = REPO / "conformance" / "fixtures" / "legal_plays" / "ruff" / "third-seat-opponent-over-partner.yaml"
#: Loading Python and the engine, in a cold browser on a slow machine.
LOAD_SECONDS = 240


def _fixture() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))
    return data


def _address(base: str, lang: str, given: dict[str, Any]) -> str:
    query = urllib.parse.urlencode({"ruleset": "classic", "trump": given["trump"],
                                    "trick": " ".join(given["trick"]["cards"]), "hand": " ".join(given["hand"])})
    return f"{base}/{lang}/may-i-play/?{query}"


def _state(driver: WebDriver) -> Any:
    return driver.js("const a = document.getElementById('bt-mip-answer');"
                     "const s = document.getElementById('bt-mip-status');"
                     "return s.dataset.state === 'failed' ? 'failed: ' + s.textContent : (a && a.dataset.state);")


def _wait_for_answer(driver: WebDriver) -> None:
    _wait_until(lambda: _state(driver) is not None, LOAD_SECONDS, "the page gave no answer")
    state = _state(driver)
    assert state == "answered", state


def _answer_shown(driver: WebDriver) -> dict[str, Any]:
    shown: dict[str, Any] = driver.js("""
        const legal = [...document.querySelectorAll('.bt-mip-legal code[data-card]')].map(e => e.dataset.card);
        const illegal = {};
        for (const li of document.querySelectorAll('.bt-mip-illegal li')) {
          const a = li.querySelector('a[data-rule]');
          illegal[li.dataset.card] = {rule: a.dataset.rule, title: a.textContent, href: a.href};
        }
        const foreign = performance.getEntriesByType('resource').map(e => e.name)
          .filter(name => !name.startsWith(location.origin));
        return {legal, illegal, foreign, ms: window.beloteRef.firstAnswerMs, search: location.search};""")
    return shown


def _engine_pages(site: Path) -> None:
    if not (site / "en" / "may-i-play" / "index.html").is_file():
        _missing("the site was built without the interactive pages: run `bash browser/fetch` (Pyodide from the npm "
                 "registry, the pure-Python wheels from PyPI) before the tests")


def test_the_build_puts_the_engine_beside_the_pages_and_nothing_outside_is_named(site: Path) -> None:
    _engine_pages(site)
    engine = site / "engine"
    size = sum(path.stat().st_size for path in engine.rglob("*") if path.is_file())
    pages = sum((site / lang / "may-i-play" / "index.html").stat().st_size for lang in ("en", "fr"))
    print(f"\nthe interactive page adds {size / 1e6:.1f} MB of engine and {pages / 1e3:.0f} kB of pages")
    assert size < 20e6, "Pyodide's core and belote_ref's zip should stay under 20 MB"
    for lang in ("en", "fr"):
        html = (site / lang / "may-i-play" / "index.html").read_text(encoding="utf-8")
        assert 'src="../../engine/may-i-play.js"' in html
        assert "cdn.jsdelivr" not in html and "https://cdn" not in html


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_page_answers_the_fixture_with_its_legal_cards_and_a_rule_for_each_other(
        lang: str, site: Path, served: str, browser: WebDriver) -> None:
    _engine_pages(site)
    given = _fixture()["given"]
    expected = _fixture()["expect"][0]["result"]["legal"]
    reference = answer("classic", given["trump"], " ".join(given["trick"]["cards"]), " ".join(given["hand"]))
    browser.get(_address(served, lang, given))
    _wait_for_answer(browser)
    cold = _answer_shown(browser)
    assert cold["legal"] == expected
    assert cold["foreign"] == [], "the page fetched from outside the site"
    illegal = {item["card"]: item["rule"] for item in reference["illegal"]}
    assert set(cold["illegal"]) == set(illegal) == set(given["hand"]) - set(expected)
    for card, rule in illegal.items():
        assert cold["illegal"][card]["rule"] == rule
    # The rule is named in the page's language and links to its section on the site.
    ts = cold["illegal"]["TS"]
    words = yaml.safe_load((REPO / "belote_ref" / "site" / "locales" / f"{lang}.yaml").read_text(encoding="utf-8"))
    assert ts["title"] == words["may_i_play"]["base_rules"][ts["rule"]]
    with urllib.request.urlopen(ts["href"].split("#")[0], timeout=30) as response:
        assert response.status == 200
    # The situation is in the address; loaded again from the browser's cache (warm).
    browser.get(_address(served, lang, given))
    _wait_for_answer(browser)
    warm = _answer_shown(browser)
    assert warm["legal"] == expected
    times = {"lang": lang, "cold_ms": round(cold["ms"]), "warm_ms": round(warm["ms"])}
    print(f"\n{lang}: first answer {times['cold_ms']} ms cold, {times['warm_ms']} ms warm")
    artifacts = os.environ.get("BELOTE_REF_ARTIFACTS")
    if artifacts:
        Path(artifacts).mkdir(parents=True, exist_ok=True)
        with (Path(artifacts) / "browser-engine-times.jsonl").open("a", encoding="utf-8") as out:
            out.write(json.dumps(times) + "\n")
        browser.screenshot(Path(artifacts) / f"may-i-play-{lang}.png")


def test_a_situation_typed_in_the_form_is_answered_and_kept_in_the_address(
        site: Path, served: str, browser: WebDriver) -> None:
    _engine_pages(site)
    browser.get(f"{served}/fr/may-i-play/")
    _wait_until(lambda: browser.js("return !document.getElementById('bt-mip-submit').disabled"
                                   " || document.getElementById('bt-mip-status').dataset.state === 'failed'"),
                LOAD_SECONDS, "the engine did not load")
    browser.js("document.getElementById('bt-mip-trump').value = 'H'")
    browser.type(browser.find("#bt-mip-trick"), "AS 9H")
    browser.type(browser.find("#bt-mip-hand"), "7H QH KD 8C")
    browser.click(browser.find("#bt-mip-submit"))
    _wait_for_answer(browser)
    shown = _answer_shown(browser)
    assert shown["legal"] == ["7H", "QH"]  # the README's example: S must undertrump
    assert urllib.parse.parse_qs(shown["search"].lstrip("?"))["hand"] == ["7H QH KD 8C"]
    browser.type(browser.find("#bt-mip-hand"), " ZZ")
    browser.click(browser.find("#bt-mip-submit"))
    _wait_until(lambda: _state(browser) == "error", 60, "a card that is not one gave no error")
    assert "ZZ" in browser.js("return document.querySelector('.bt-mip-error').textContent")


def test_a_browser_that_cannot_run_the_engine_is_told_so(site: Path, browser: WebDriver) -> None:
    # Opened from a file, the browser refuses the page's module script: the page says what it needs.
    _engine_pages(site)
    browser.get((site / "fr" / "may-i-play" / "index.html").as_uri())
    _wait_until(lambda: browser.js("return document.readyState") == "complete", 60, "the page did not load")
    words = yaml.safe_load((REPO / "belote_ref" / "site" / "locales" / "fr.yaml").read_text(encoding="utf-8"))
    status = browser.js("return document.getElementById('bt-mip-status').textContent")
    assert status == words["may_i_play"]["no_script"] or status.startswith(words["may_i_play"]["failed"][:20])
    assert browser.js("return document.getElementById('bt-mip-submit').disabled")


# ------------------------------------------------------------------------- "Check my house rules"

#: A known bad file: its error is the command line's (`belote-ref rules validate`), line 6, column 3.
BAD_HOUSE_RULE = REPO / "tests" / "data" / "broken" / "unknown_parameter.yaml"
#: A good house rule (docs/house-rules.md's first example) with HTML in its title: shown as text, never run.
GOOD_HOUSE_RULE = ("id: our-club\nversion: 1\ntitle: \"Our club <img src=x onerror=window.beloteRefPwned=1>\"\n"
                   "extends: classic\nplay: {undertrump_over_opponent: optional}\n")


def _house_state(driver: WebDriver) -> Any:
    return driver.js("const a = document.getElementById('bt-chr-answer');"
                     "const s = document.getElementById('bt-chr-status');"
                     "return s.dataset.state === 'failed' ? 'failed: ' + s.textContent : (a && a.dataset.state);")


def _engine_ready(driver: WebDriver, submit: str, status: str) -> None:
    _wait_until(lambda: driver.js(f"return !document.getElementById('{submit}').disabled"
                                  f" || document.getElementById('{status}').dataset.state === 'failed'"),
                LOAD_SECONDS, "the engine did not load")
    assert driver.js(f"return document.getElementById('{status}').dataset.state") != "failed"


def test_the_house_rule_page_reports_a_bad_file_s_error_with_its_line_and_column(
        site: Path, served: str, browser: WebDriver) -> None:
    _engine_pages(site)
    text = BAD_HOUSE_RULE.read_text(encoding="utf-8")
    expected = check_house_rule(text)["errors"]
    assert expected == [("6:3: play.undertrump_partnr: unknown parameter 'play.undertrump_partnr'; "
                        "did you mean 'play.undertrump_partner'?")]
    # Opened with the rule in its address (#house=, as the other pages link to it), it checks it at once.
    browser.get(f"{served}/fr/check-house-rule/#{house_fragment(text)}")
    _wait_until(lambda: _house_state(browser) is not None, LOAD_SECONDS, "the page gave no answer")
    assert _house_state(browser) == "error"
    shown = browser.js("return [...document.querySelectorAll('.bt-chr-errors li')].map(li => li.textContent)")
    assert shown == expected
    assert browser.js("return document.getElementById('bt-chr-text').value") == text


def test_the_house_rule_page_lists_a_good_file_s_changes_and_opens_may_i_play_under_it(
        site: Path, served: str, browser: WebDriver) -> None:
    _engine_pages(site)
    browser.get(f"{served}/en/check-house-rule/")
    _engine_ready(browser, "bt-chr-submit", "bt-chr-status")
    browser.type(browser.find("#bt-chr-text"), GOOD_HOUSE_RULE)
    browser.click(browser.find("#bt-chr-submit"))
    _wait_until(lambda: _house_state(browser) is not None, 60, "the page gave no answer")
    assert _house_state(browser) == "answered"
    shown = browser.js("""
        const changes = [...document.querySelectorAll('.bt-chr-changes li')].map(li => ({
          rule: li.dataset.rule, text: li.textContent, href: li.querySelector('a').href}));
        const open = Object.fromEntries([...document.querySelectorAll('.bt-chr-open a')]
          .map(a => [a.dataset.page, a.href]));
        return {changes, open, valid: document.querySelector('.bt-chr-valid').textContent,
                images: document.querySelectorAll('#bt-chr-answer img').length, pwned: window.beloteRefPwned};""")
    # The registry's words for play.undertrump_over_opponent, required in classic, optional here.
    assert [change["rule"] for change in shown["changes"]] == ["play.undertrump_over_opponent"]
    assert shown["changes"][0]["text"].startswith(
        "Undertrumping an opponent (sous-coupe): Must undertrump → May discard")
    assert "/en/rules/" in shown["changes"][0]["href"]
    # The title is the reader's text, written as text: no element made of it, no script run.
    assert "Our club <img src=x onerror=window.beloteRefPwned=1>" in shown["valid"]
    assert shown["images"] == 0 and shown["pwned"] is None
    link = shown["open"]["may_i_play"]
    assert link.startswith(f"{served}/en/may-i-play/#house=")
    assert house_from_fragment(link.partition("#")[2]) == GOOD_HOUSE_RULE

    # May I play this card? under the house rule: the README's example, where classic makes S undertrump,
    # with the cards put in the trick and the hand by clicking the grid.
    browser.get(link)
    _engine_ready(browser, "bt-mip-submit", "bt-mip-status")
    _wait_until(lambda: browser.js("return document.getElementById('bt-mip-ruleset').value") == "house", 60,
                "the house rule in the address was not taken")
    assert browser.js("return [...document.getElementById('bt-mip-trump').options].filter(o => !o.disabled)"
                      ".map(o => o.value)") == ["H", "S", "D", "C"]  # classic's contracts: no SA, no TA
    browser.js("document.getElementById('bt-mip-trump').value = 'H'")
    browser.click(browser.find("input[name=grid_target][value=trick]"))
    for card in ("AS", "9H"):
        browser.click(browser.find(f"button[data-card=\"{card}\"]"))
    browser.click(browser.find("input[name=grid_target][value=hand]"))
    for card in ("7H", "QH", "KD", "8C"):
        browser.click(browser.find(f"button[data-card=\"{card}\"]"))
    assert browser.js("return [document.getElementById('bt-mip-trick').value,"
                      " document.getElementById('bt-mip-hand').value]") == ["AS 9H", "7H QH KD 8C"]
    browser.click(browser.find("#bt-mip-submit"))
    _wait_for_answer(browser)
    shown = _answer_shown(browser)
    assert shown["legal"] == ["7H", "QH", "KD", "8C"] == answer("house", "H", "AS 9H", "7H QH KD 8C",
                                                                 GOOD_HOUSE_RULE)["legal"]
    assert shown["foreign"] == []
    assert urllib.parse.parse_qs(shown["search"].lstrip("?"))["ruleset"] == ["house"]
    assert house_from_fragment(browser.js("return location.hash")) == GOOD_HOUSE_RULE
