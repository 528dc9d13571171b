"""The rules website: the strict build, the generator on odd fixtures, and a real headless browser.

The browser test drives Debian's chromium through chromedriver's W3C WebDriver HTTP interface
(standard library only) against the built site served by ``python -m http.server`` on 127.0.0.1.
It saves four screenshots into ``$BELOTE_REF_ARTIFACTS`` (default ``artifacts/``). Without chromium
and chromedriver it fails when ``CI=true`` and is skipped, with the reason, elsewhere.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from belote_ref.cli import main
from belote_ref.conformance.corpus import Fixture
from belote_ref.rules import find_ruleset, iter_changes, shipped_rulesets
from belote_ref.site import LANGUAGES, generate_pages, load_site_data

REPO = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() in ("true", "1", "yes")


def _missing(message: str) -> None:
    """Fail in CI, skip (with the reason shown by ``-ra``) elsewhere."""
    if IN_CI:
        pytest.fail(message)
    pytest.skip(message)


def _require_mkdocs() -> None:
    try:
        import material  # noqa: F401
        import mkdocs  # noqa: F401
    except ImportError:
        _missing("mkdocs and mkdocs-material are not installed: pip install '.[test]' (or '.[docs]')")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built once by the CLI, strict, into a temporary folder."""
    _require_mkdocs()
    out = tmp_path_factory.mktemp("site")
    started = time.monotonic()
    assert main(["docs", "build", "--out", str(out), "--config", str(REPO / "mkdocs.yml")]) == 0
    assert time.monotonic() - started < 120, "the site build is too slow"
    return out


# ------------------------------------------------------------------------------------ the build


def test_strict_build_has_a_page_per_ruleset_topic_and_hand_fixture_in_both_languages(site: Path) -> None:
    data = load_site_data()
    assert (site / "index.html").is_file()
    assert (site / "house-rules" / "index.html").is_file()
    assert (site / "protocol" / "index.html").is_file()
    for lang in LANGUAGES:
        for page in ("index.html", "compare/index.html", "examples/index.html", "regression/index.html",
                     "sources/index.html", "rulesets/index.html"):
            assert (site / lang / page).is_file(), f"{lang}/{page}"
        for ruleset_id in shipped_rulesets():
            assert (site / lang / "rulesets" / ruleset_id / "index.html").is_file(), f"{lang} ruleset {ruleset_id}"
        for slug, *_ in data.topics:
            assert (site / lang / "rules" / slug / "index.html").is_file(), f"{lang} topic {slug}"
        assert data.hand, "the corpus has hand fixtures"
        for fixture in data.hand:
            assert (site / lang / "fixtures" / fixture.id / "index.html").is_file(), f"{lang} fixture {fixture.id}"
    assert (site / "fr" / "house-rules" / "index.html").is_file()
    landing = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="house-rules/"' in landing and 'href="fr/protocol/"' in landing


def test_every_parameter_has_a_section_whose_anchor_is_its_id(site: Path) -> None:
    data = load_site_data()
    for lang in LANGUAGES:
        for parameter in data.registry.parameters.values():
            page = (site / lang / "rules" / data.topic_of(parameter.id) / "index.html").read_text(encoding="utf-8")
            assert f'id="{parameter.id}"' in page, f"{lang}: no #{parameter.id}"


def test_ruleset_pages_show_the_changes_from_classic_and_the_values(site: Path) -> None:
    classic = find_ruleset("classic")
    for ruleset_id in shipped_rulesets():
        ruleset = find_ruleset(ruleset_id)
        changes = list(iter_changes(ruleset, classic))
        page = (site / "en" / "rulesets" / ruleset_id / "index.html").read_text(encoding="utf-8")
        if ruleset_id != "classic":
            banner = f"classic + {len(changes)} change{'s' if len(changes) != 1 else ''}"
            assert banner in page
            for pid in changes:
                assert f"#{pid}" in page
        french = (site / "fr" / "rulesets" / ruleset_id / "index.html").read_text(encoding="utf-8")
        assert (ruleset.title.get("fr") or ruleset.title["en"]).replace("'", "&#39;") in french or \
            (ruleset.title.get("fr") or ruleset.title["en"]) in french


def test_english_pages_keep_the_french_terms_of_art(site: Path) -> None:
    home = (site / "en" / "index.html").read_text(encoding="utf-8")
    for term in ("belote", "rebelote", "capot", "dedans", "litige", "dix de der"):
        assert term in home
    comparison = (site / "en" / "compare" / "index.html").read_text(encoding="utf-8")
    assert 'class="bt-changed"' in comparison


def test_the_strict_configuration_rejects_a_broken_anchor(tmp_path: Path) -> None:
    _require_mkdocs()
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    docs = tmp_path / "docs"
    shutil.copytree(REPO / "docs", docs)
    (docs / "index.md").write_text("# Home\n\n[a rule](house-rules.md#no.such.parameter)\n", encoding="utf-8")
    config = load_config(config_file=str(REPO / "mkdocs.yml"), docs_dir=str(docs), site_dir=str(tmp_path / "site"),
                         not_in_nav="")
    with pytest.raises(Abort):
        build(config)


def test_the_generator_copes_with_any_valid_fixture() -> None:
    odd = Fixture(Path("odd.yaml"), {
        "id": "odd.shape", "kind": "legal_plays", "title": "A fixture whose given the diagram does not know",
        "rules": ["no.such.parameter", "play.undertrump_partner"],
        "source": {"doc": "rules.md §1 (FFB-B16)", "quote": "a *quote* with [brackets] and <html>"},
        "provenance": "hand", "note": "Two\n\nparagraphs with `ticks` and | pipes.",
        "given": {"something": [1, 2], "hand": "not a list"},
        "expect": [{"when": {"no.such.parameter": {"one_of": ["x", "y"]}}, "result": {"legal": ["AS"]}},
                   {"result": {"rejected": {"code": "illegal_play", "index": 9}}}],
    })
    data = load_site_data([odd])
    pages = generate_pages(data, ["house-rules.md", "protocol.md"]).pages
    for lang in LANGUAGES:
        page = pages[f"{lang}/fixtures/odd.shape.md"]
        assert "#no.such.parameter" not in page
        assert "rules/play.md#play.undertrump_partner" in page
        assert "&lt;html&gt;" in page and "\\*quote\\*" in page
        assert "sources.md#FFB-B16" in page


# ---------------------------------------------------------------------------------- the browser


class WebDriver:
    """The few W3C WebDriver commands the test needs, spoken to chromedriver over HTTP."""

    ELEMENT = "element-6066-11e4-a52e-4f735466cecf"

    def __init__(self, chromedriver: str, chromium: str, profile: Path, log: Path) -> None:
        self.port = _free_port()
        self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        self.log = log.open("wb")
        self.process = subprocess.Popen([chromedriver, f"--port={self.port}"], stdout=self.log, stderr=self.log)
        self.session = ""
        _wait_until(lambda: self._ready(), 30, "chromedriver did not start")
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--no-proxy-server", f"--user-data-dir={profile}",
                "--window-size=1280,1000"]
        capabilities = {"browserName": "chrome", "goog:chromeOptions": {"binary": chromium, "args": args}}
        reply = self.call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        self.session = reply["sessionId"]

    def _ready(self) -> bool:
        try:
            return bool(self.call("GET", "/status").get("ready"))
        except (OSError, ValueError):
            return False

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else (b"{}" if method == "POST" else None)
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with self.opener.open(request, timeout=60) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as error:
            with error:
                detail = error.read().decode("utf-8", "replace")
            raise AssertionError(f"WebDriver {method} {path}: {error.code} {detail[:500]}") from None

    def get(self, url: str) -> None:
        self.call("POST", f"/session/{self.session}/url", {"url": url})

    def js(self, script: str, *args: Any) -> Any:
        return self.call("POST", f"/session/{self.session}/execute/sync", {"script": script, "args": list(args)})

    def find(self, css: str) -> str:
        found = self.call("POST", f"/session/{self.session}/element", {"using": "css selector", "value": css})
        return str(found[self.ELEMENT])

    def click(self, element: str) -> None:
        self.call("POST", f"/session/{self.session}/element/{element}/click", {})

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self.call("GET", f"/session/{self.session}/screenshot")))

    def close(self) -> None:
        try:
            if self.session:
                self.call("DELETE", f"/session/{self.session}")
        finally:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
            self.log.close()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_until(condition: Any, seconds: float, message: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(message)


def _listening(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def served(site: Path) -> Iterator[str]:
    """The built site on http://127.0.0.1:PORT, by ``python -m http.server``."""
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", str(site)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_until(lambda: _listening(port), 20, "the local http.server did not start")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(10)


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[WebDriver]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if not chromium or not chromedriver:
        missing = " and ".join(name for name, path in (("chromium", chromium), ("chromedriver", chromedriver))
                               if not path)
        _missing(f"{missing} not found: the browser test needs Debian's chromium and chromium-driver "
                 "(apt-get install -y chromium chromium-driver)")
    assert chromium and chromedriver
    driver = WebDriver(chromedriver, chromium, tmp_path / "profile", tmp_path / "chromedriver.log")
    try:
        yield driver
    finally:
        driver.close()


def _artifacts() -> Path:
    folder = Path(os.environ.get("BELOTE_REF_ARTIFACTS") or REPO / "artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _loaded(driver: WebDriver, url: str) -> None:
    driver.get(url)
    _wait_until(lambda: driver.js("return document.readyState") == "complete", 20, f"{url} did not load")


VISIBLE = """
const el = document.querySelector(arguments[0]);
if (!el) return null;
const box = el.getBoundingClientRect(), style = getComputedStyle(el);
return {top: box.top, left: box.left, width: box.width, height: box.height, display: style.display,
        visibility: style.visibility, opacity: style.opacity, inner: window.innerHeight,
        color: style.color, background: style.backgroundColor};
"""


def _is_visible(box: dict[str, Any] | None) -> bool:
    if not box:
        return False
    return bool(box["width"] > 0 and box["height"] > 0 and box["display"] != "none"
                and box["visibility"] == "visible" and float(box["opacity"]) > 0
                and box["top"] < box["inner"] and box["top"] + box["height"] > 0)


def _rgb(css: str) -> tuple[int, ...]:
    return tuple(int(float(part)) for part in css[css.index("(") + 1:css.index(")")].split(",")[:3])


def test_the_site_in_a_headless_browser(site: Path, served: str, browser: WebDriver) -> None:
    data = load_site_data()
    shots = _artifacts()

    # 1. The home page: both languages offered.
    _loaded(browser, f"{served}/")
    assert "belote-ref" in browser.js("return document.title")
    assert browser.js("return document.querySelectorAll('a[href^=\"en/\"]').length") > 0
    assert browser.js("return document.querySelectorAll('a[href^=\"fr/\"]').length") > 0
    browser.screenshot(shots / "site-1-home.png")

    # 2. A ruleset page: the banner "classic + N changes", then a change's link lands on its rule.
    ruleset = next(r for r in data.rulesets if data.changes(r))
    changes = data.changes(ruleset)
    _loaded(browser, f"{served}/en/rulesets/{ruleset.id}/")
    banner = browser.js("return document.querySelector('.bt-banner .admonition-title').textContent.trim()")
    assert banner == f"classic + {len(changes)} change{'s' if len(changes) != 1 else ''}"
    assert _is_visible(browser.js(VISIBLE, ".bt-banner"))
    browser.screenshot(shots / f"site-2-ruleset-{ruleset.id}.png")
    target = changes[0]
    browser.click(browser.find(f".bt-banner a[href$='#{target}']"))
    _wait_until(lambda: browser.js("return location.hash") == f"#{target}"
                and browser.js("return document.readyState") == "complete", 20, "the rule link did not navigate")
    assert browser.js("return location.pathname").endswith(f"/en/rules/{data.topic_of(target)}/")
    section = browser.js(VISIBLE, f"[id='{target}']")
    assert _is_visible(section), section
    at_bottom = browser.js("return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2")
    assert 0 <= section["top"] <= 250 or at_bottom, f"#{target} is not at the top of the window: {section}"
    assert browser.js("return document.getElementById(arguments[0]).tagName", target) in ("H2", "H3")

    # 3. The comparison table: differences from classic highlighted.
    _loaded(browser, f"{served}/en/compare/")
    changed = browser.js(VISIBLE, "td .bt-changed")
    assert _is_visible(changed)
    cell = browser.js("return getComputedStyle(document.querySelector('td .bt-changed').closest('td')).backgroundColor")
    assert cell not in ("rgba(0, 0, 0, 0)", "transparent"), cell
    assert browser.js("return document.querySelectorAll('td .bt-changed').length") >= sum(
        len(data.changes(r)) for r in data.rulesets)
    browser.screenshot(shots / "site-3-compare.png")

    # 4. A worked example: the card diagram is visible, hearts and diamonds in red, one answer per branch.
    fixture = next((f for f in data.hand if f.id == "play.undertrump.cannot-beat-jack"), None) or next(
        (f for f in data.hand if f.kind == "legal_plays"), data.hand[0])
    _loaded(browser, f"{served}/en/fixtures/{fixture.id}/")
    browser.js("const el = document.querySelector('.bt-example');"
               "window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 110)")
    diagram = browser.js(VISIBLE, ".bt-diagram")
    assert _is_visible(diagram), diagram
    assert diagram["width"] > 150 and diagram["height"] > 150
    cards = browser.js("return Array.from(document.querySelectorAll('.bt-diagram .bt-card:not(.bt-empty)'))"
                       ".filter(c => c.getBoundingClientRect().width > 0).length")
    assert cards >= 1
    red = browser.js(VISIBLE, ".bt-diagram .bt-card.bt-red")
    if red:
        r, g, b = _rgb(red["color"])
        assert r > 150 and g < 100 and b < 100, red["color"]
    assert browser.js("return document.querySelectorAll('.bt-branch').length") == len(fixture.data["expect"])
    browser.screenshot(shots / f"site-4-fixture-{fixture.id}.png")

    for name in ("site-1-home.png", f"site-2-ruleset-{ruleset.id}.png", "site-3-compare.png",
                 f"site-4-fixture-{fixture.id}.png"):
        assert (shots / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_master_is_marked_only_when_every_card_order_agrees() -> None:
    def trick(orders: list[Any]) -> Fixture:
        return Fixture(Path("t.yaml"), {
            "id": "t.orders", "kind": "trick_winner", "title": "The nine against the jack under two orders",
            "rules": ["cards.trump_order"], "source": {"doc": "x", "quote": "y"}, "provenance": "hand",
            "given": {"trump": "H", "trick": {"leader": "N", "cards": ["9H", "JH", "AS", "7S"]}},
            "expect": [{"when": {"cards.trump_order": order}, "result": {"winner": "E"}} for order in orders],
        })

    classic = list(find_ruleset("classic")["cards.trump_order"])
    nine_high = ["9", "J", "A", "T", "K", "Q", "8", "7"]
    agreed = generate_pages(load_site_data([trick([classic])]), []).pages["en/fixtures/t.orders.md"]
    assert agreed.count("bt-master") == 1 and 'title="JH">J<span class="bt-suit">♥</span>' in agreed.split(
        "bt-master")[1][:80]
    split = generate_pages(load_site_data([trick([classic, nine_high])]), []).pages["en/fixtures/t.orders.md"]
    assert "bt-master" not in split

