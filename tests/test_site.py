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
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from conftest import InstalledClubSite

from belote_ref import site as site_module
from belote_ref.cli import main
from belote_ref.conformance.corpus import Fixture
from belote_ref.conformance.report import read_report
from belote_ref.conformance.runner import BAD_OUTCOMES, OUTCOMES
from belote_ref.core.errors import BeloteRefError
from belote_ref.rules.ruleset import find_ruleset, iter_changes, shipped_rulesets
from belote_ref.site import LANGUAGES, generate_pages, load_site_data
from belote_ref.site import reports as site_reports

# Slow tier (the whole site built, and read in a browser): left out of the quick default; see README.
pytestmark = pytest.mark.slow

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
def site(default_site_build: tuple[subprocess.CompletedProcess[str], Path]) -> Path:
    """The site built once by the CLI, strict, into a temporary folder (in the background from the start
    of the session: tests/conftest.py)."""
    _require_mkdocs()
    done, out = default_site_build
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "site built in" in done.stdout
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


# ------------------------------------------------------------------------- the implementations page


def _links(page: str) -> list[tuple[str, str]]:
    """(href, text) of every link of a built page, the text stripped of its tags."""
    return [(href, re.sub(r"<[^>]+>", "", text).strip())
            for href, text in re.findall(r'<a [^>]*?href="([^"]*)"[^>]*>(.*?)</a>', page, flags=re.DOTALL)]


def test_the_implementations_page_shows_the_committed_reports_in_both_languages(site: Path) -> None:
    report = REPO / "conformance" / "reports" / "belote-cli-4.9.6.jsonl"
    failing = list(dict.fromkeys(line["id"].split("@")[0] for line in read_report(report)
                                 if line["type"] == "case" and line["outcome"] in BAD_OUTCOMES))
    assert failing, "the belote-cli report has failing cases"
    engine = {f.id for f in load_site_data().engine}
    for lang in LANGUAGES:
        path = site / lang / "implementations" / "index.html"
        assert path.is_file(), f"{lang}: no implementations page"
        page = path.read_text(encoding="utf-8")
        assert "belote-cli 4.9.6" in page and "colver 0.11.1" in page
        links = _links(page)
        for fixture_id in failing:
            target = f"../regression/#{fixture_id}" if fixture_id in engine else f"../fixtures/{fixture_id}/"
            assert (target, fixture_id) in links, f"{lang}: {fixture_id} is not linked to {target}"
            assert (site / lang / target.removeprefix("../").split("#")[0] / "index.html").is_file(), target
        assert re.search(r'<td[^>]*><span class="bt-cell bt-fail">', page), f"{lang}: no highlighted cell"
        assert 'class="bt-cell bt-pass"' in page
        home = (site / lang / "index.html").read_text(encoding="utf-8")
        assert 'href="implementations/"' in home, f"{lang}: the home page does not link the page"
    french = (site / "fr" / "implementations" / "index.html").read_text(encoding="utf-8")
    assert "Cas en échec" in french and "Implémentations" in french
    landing = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="en/implementations/"' in landing and 'href="fr/implementations/"' in landing


def _write_report(folder: Path, name: str, lines: list[Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines),
                    encoding="utf-8")
    return path


def _header(name: str = "toy-engine", version: str = "1.2.3") -> dict[str, Any]:
    return {"type": "header", "runner": {"name": "belote-ref", "version": "0.1.0"}, "suite": "0.1.0", "protocol": 1,
            "adapter": {"name": name, "version": version, "language": "c"}, "command": "belote-ref conformance run"}


def _footer(cases: list[dict[str, Any]]) -> dict[str, Any]:
    counts = {outcome: sum(1 for c in cases if c["outcome"] == outcome) for outcome in OUTCOMES}
    return {"type": "footer", "counts": counts, "ok": not any(c["outcome"] in BAD_OUTCOMES for c in cases)}


def test_the_implementations_page_without_reports(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    for folder in (tmp_path / "empty", tmp_path / "missing"):
        site = generate_pages(load_site_data(reports_dir=folder), ["house-rules.md", "protocol.md"])
        for lang in LANGUAGES:
            page = site.pages[f"{lang}/implementations.md"]
            assert site_module.t(lang, "impl_none") in page
            assert "bt-matrix" not in page
            assert "implementations.md" in site.pages[f"{lang}/index.md"]
        nav = json.dumps(site.nav)
        assert '"en/implementations.md"' in nav and '"fr/implementations.md"' in nav


def test_failing_cases_link_to_their_fixture_or_regression_anchor(tmp_path: Path) -> None:
    data = load_site_data(reports_dir=tmp_path / "none")
    hand, engine = data.hand[0], data.engine[0]
    cases = [{"type": "case", "id": hand.id, "kind": hand.kind, "ruleset": "classic", "outcome": "fail",
              "rules": list(hand.rules), "provenance": "hand"},
             {"type": "case", "id": engine.id, "kind": engine.kind, "ruleset": "pagat", "outcome": "crash",
              "rules": [], "provenance": "engine"},
             {"type": "case", "id": "gone.from.the.corpus", "kind": "score", "ruleset": "house", "outcome": "timeout",
              "rules": ["scoring.capot.mode"], "provenance": "hand"},
             {"type": "case", "id": hand.id, "kind": hand.kind, "ruleset": "pagat", "outcome": "pass",
              "rules": list(hand.rules), "provenance": "hand"}]
    _write_report(tmp_path / "reports", "toy-engine-1.2.3.jsonl", [_header(), *cases, _footer(cases)])
    pages = generate_pages(load_site_data(reports_dir=tmp_path / "reports"), []).pages
    for lang in LANGUAGES:
        page = pages[f"{lang}/implementations.md"]
        assert "## toy-engine 1.2.3 {#impl-toy-engine-1.2.3}" in page
        assert f"](fixtures/{hand.id}.md)" in page
        assert f"](regression.md#{engine.id})" in page
        assert "`gone.from.the.corpus`" in page and "](fixtures/gone.from.the.corpus.md)" not in page
        assert "rules/score.md#scoring.capot.mode" in page
        assert 'class="bt-cell bt-fail"' in page and "bt-pass" in page
        assert "toy-engine 1.2.3" in pages[f"{lang}/index.md"]


MALFORMED = {
    "not JSON": (lambda h, c, f: [h, c[0], '{"type": "case", "id": ', f], 3, "not JSON"),
    "no header": (lambda h, c, f: [c[0], f], 1, "header"),
    "unknown outcome": (lambda h, c, f: [h, {**c[0], "outcome": "maybe"}, f], 2, "unknown outcome"),
    "no kind": (lambda h, c, f: [h, {k: v for k, v in c[0].items() if k != "kind"}, f], 2, "'kind'"),
    "no adapter name": (lambda h, c, f: [{**h, "adapter": {"version": "1"}}, c[0], f], 1, "adapter has no name"),
    "no footer": (lambda h, c, f: [h, c[0], "", c[1]], 4, "without its footer"),
    "footer counts": (lambda h, c, f: [h, c[0], {**f, "counts": {**f["counts"], "pass": 7}}], 3,
                      "footer counts 7 pass"),
    "after the footer": (lambda h, c, f: [h, c[0], f, c[1]], 4, "after the footer"),
}


@pytest.mark.parametrize("flaw", sorted(MALFORMED))
def test_a_malformed_report_is_refused_with_its_file_and_line(tmp_path: Path, flaw: str) -> None:
    make, line, words = MALFORMED[flaw]
    cases = [{"type": "case", "id": "a.b", "kind": "score", "ruleset": "classic", "outcome": "pass"},
             {"type": "case", "id": "a.c", "kind": "score", "ruleset": "classic", "outcome": "n/a"}]
    _write_report(tmp_path, "good.jsonl", [_header("good"), *cases, _footer(cases)])
    _write_report(tmp_path, "broken.jsonl", make(_header(), cases, _footer(cases[:1])))
    with pytest.raises(BeloteRefError) as raised:
        load_site_data(reports_dir=tmp_path)
    assert f"broken.jsonl:{line}: " in str(raised.value) and words in str(raised.value), str(raised.value)
    assert raised.value.code == "docs"


def test_the_build_stops_on_a_malformed_report_without_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    _require_mkdocs()
    _write_report(tmp_path / "reports", "half.jsonl", [_header(), "not json at all"])
    monkeypatch.setattr(site_reports, "REPORTS_DIR", tmp_path / "reports")
    status = main(["docs", "build", "--out", str(tmp_path / "site"), "--config", str(REPO / "mkdocs.yml")])
    err = capsys.readouterr().err
    assert status != 0
    assert "half.jsonl:2: not JSON" in err and "Traceback" not in err, err
    assert not (tmp_path / "site" / "index.html").exists()


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

    def type(self, element: str, text: str) -> None:
        self.call("POST", f"/session/{self.session}/element/{element}/value", {"text": text})

    def accessible_name(self, element: str) -> str:
        """The name the browser gives a screen reader (WebDriver's Get Computed Label)."""
        return str(self.call("GET", f"/session/{self.session}/element/{element}/computedlabel"))

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

    # 4b. The same worked example on its French page: French theme, French notation.
    _loaded(browser, f"{served}/fr/fixtures/{fixture.id}/")
    assert browser.js("return document.documentElement.lang") == "fr"
    browser.js("const el = document.querySelector('.bt-example');"
               "window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 110)")
    assert _is_visible(browser.js(VISIBLE, ".bt-diagram"))
    browser.screenshot(shots / f"site-6-fixture-fr-{fixture.id}.png")

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
    assert agreed.count("bt-master") == 1 and 'data-card="JH">J<span class="bt-suit">♥</span>' in agreed.split(
        "bt-master")[1][:160]
    split = generate_pages(load_site_data([trick([classic, nine_high])]), []).pages["en/fixtures/t.orders.md"]
    assert "bt-master" not in split



# ------------------------------------------------------------------------------- the French pages

# Words that are English and not French. Code, card diagrams, proper names (class bt-name), quotations
# and passages marked lang="en" are left out of the check; the terms of art are French anyway.
ENGLISH_WORDS = frozenset("""
the and of with when must may trick tricks player players partner card cards play plays played lead leads led
trump trumps hand deal deals dealer dealt team teams takers taker defenders wins win won winner this that these
those which who what where why how not only also from into onto over under after before because while every each
any some none all both either neither than then there their they them his her its our your you we it is are was
were be been being has have had does do did can cannot could would should will shall value values rule rules
example examples worked parameter parameters ruleset rulesets see here below above first last next round rounds
game match no yes true false expected answer answers result results applies apply passed failed failing kind kinds
suits highest lowest higher lower beat beats going go goes
""".split())
# Proper names and identifiers that may appear as words on a French page.
ALLOWED = frozenset({"English"})


class _Words(HTMLParser):
    """The words of a page's article that a French reader reads as prose."""

    SKIP_TAGS = {"code", "pre", "script", "style", "svg", "kbd", "blockquote"}
    SKIP_CLASSES = {"bt-diagram", "bt-name", "bt-card", "bt-cards", "bt-pid", "bt-lang"}
    VOID = {"br", "img", "input", "meta", "link", "hr", "source", "wbr"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.skipping = 0
        self.words: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        attributes = dict(attrs)
        skip = (tag in self.SKIP_TAGS or attributes.get("lang") == "en" or attributes.get("translate") == "no"
                or bool(set((attributes.get("class") or "").split()) & self.SKIP_CLASSES))
        self.stack.append(skip)
        self.skipping += skip

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID and self.stack:
            self.skipping -= self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            # Accented letters belong to the word: "notés" is not the English "not".
            # A word after a dot (rjcv.be) or joined to a capital (CardWeb, GameDuell) is part of a name.
            # The word ends where the letters end: "WebAssembly" is not "We" followed by more.
            self.words += re.findall(r"(?<![\w.])[A-Za-zÀ-ÖØ-öø-ÿŒœ][a-zß-öø-ÿœ']+(?![A-Za-zÀ-ÖØ-öø-ÿŒœ])", data)


def _english_in(page: str) -> list[str]:
    article = page[page.find("<article"):page.rfind("</article>")]
    parser = _Words()
    parser.feed(article)
    return [word for word in parser.words if word.lower() in ENGLISH_WORDS and word not in ALLOWED]


def test_every_french_page_is_in_french(site: Path) -> None:
    pages = sorted((site / "fr").rglob("index.html"))
    assert len(pages) > 250
    problems = []
    for path in pages:
        page = path.read_text(encoding="utf-8")
        if '<html lang="fr"' not in page:
            problems.append(f"{path.relative_to(site)}: not lang=fr")
        if "Made with" in page:
            problems.append(f"{path.relative_to(site)}: the footer is in English")
        english = _english_in(page)
        if english:
            problems.append(f"{path.relative_to(site)}: {sorted(set(english))[:8]}")
    assert not problems, "\n".join(problems[:20])
    play = (site / "fr" / "rules" / "play" / "index.html").read_text(encoding="utf-8")
    assert 'placeholder="Rechercher"' in play, "the theme is not in French on French pages"


def test_french_pages_use_french_notation(site: Path) -> None:
    page = (site / "fr" / "fixtures" / "play.undertrump.cannot-beat-jack" / "index.html").read_text(encoding="utf-8")
    assert 'data-card="JD">V<span class="bt-suit">♦</span>' in page and 'data-card="KS">R<span class="bt-suit">♠</span>' in page
    assert 'aria-label="valet de carreau"' in page or 'aria-label="valet de carreau, ne peut pas être joué"' in page
    assert '<span class="bt-seat-name" title="Ouest">O</span>' in page
    assert "Le récit" in page and "remporte le pli" not in page or "est maître" in page
    english = (site / "en" / "fixtures" / "play.undertrump.cannot-beat-jack" / "index.html").read_text(encoding="utf-8")
    assert 'data-card="JD">J<span class="bt-suit">♦</span>' in english and '<html lang="en"' in english


def test_a_scored_example_tells_its_score_sheet_with_the_rule_of_each_line(site: Path) -> None:
    data = load_site_data()
    fixture = next(f for f in data.hand if f.kind == "score" and data.branches[f.id].get("classic") is not None
                   and "deal_score" in (f.data["expect"][data.branches[f.id]["classic"]].get("result") or {}))
    for lang, words in (("fr", ("Le récit", "Pli 1", "La feuille de marque")), ("en", ("The story", "Trick 1", "score sheet"))):
        page = (site / lang / "fixtures" / fixture.id / "index.html").read_text(encoding="utf-8")
        for word in words:
            assert word in page, (lang, word)
        assert re.search(r'<td><a href="\.\./\.\./rules/score/#scoring\.[a-z_.]+"', page), lang


def test_no_page_sends_the_reader_outside_the_repository(site: Path) -> None:
    for path in site.rglob("*"):
        if path.suffix in (".html", ".json", ".txt", ".xml"):
            text = path.read_text(encoding="utf-8", errors="replace")
            assert not re.search(r"(?<![\w-])rules\.md", text), path  # the research notes, not a transcription's file
            assert not re.search(r"\b00[0-9]_[0-9a-f]{16}\b", text), path


def test_the_classic_page_lists_where_it_departs_from_ffb_b16(site: Path) -> None:
    for lang, heading in (("en", "Where classic departs from FFB-B16"), ("fr", "Là où classic s&rsquo;écarte de FFB-B16")):
        page = (site / lang / "rulesets" / "classic" / "index.html").read_text(encoding="utf-8")
        assert heading.replace("&rsquo;", "'") in page or heading in page, lang
        assert "#bidding.round2_allow_turnup_suit" in page and "#scoring.rounding.mode" in page


def test_each_value_lists_its_sources_with_title_and_link(site: Path) -> None:
    page = (site / "en" / "rules" / "play" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a href="\.\./\.\./sources/#FFB-B16" title="FFB, R[^"]+">FFB-B16</a>', page)
    assert 'href="https://www.ffbelote.org/' in page
    sources = (site / "fr" / "sources" / "index.html").read_text(encoding="utf-8")
    assert "Page de départ 000" in sources and ".txt" not in sources


def test_search_ranks_rule_pages_above_worked_examples(site: Path) -> None:
    from belote_ref.site.search_hook import index_path

    for lang in LANGUAGES:
        index = json.loads(index_path(site, lang).read_text(encoding="utf-8"))
        assert index["config"]["lang"] == [lang]
        boost: dict[str, float] = {}
        for doc in index["docs"]:
            page = doc["location"].split("#")[0]
            boost.setdefault(page, float(doc.get("boost", 1.0)))
        prefix = "en/" if lang == "en" else ""
        rules = [b for page, b in boost.items() if page.startswith(f"{prefix}rules/")]
        examples = [b for page, b in boost.items() if page.startswith(f"{prefix}fixtures/")]
        assert rules and examples and min(rules) > 2.5 * max(examples), lang
        assert not any(page.startswith(("fr/", "en/")) for page in boost) if lang == "fr" else \
            not any(page.startswith("fr/") for page in boost)
        # The diagrams, answers, stories and raw data of an example are not indexed: the index stays small.
        assert index_path(site, lang).stat().st_size < 4_000_000, lang


def test_the_downloads_are_published_and_listed(site: Path) -> None:
    corpus = (site / "downloads" / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(corpus) == len(load_site_data().fixtures) and json.loads(corpus[0])["id"]
    for name in ("ruleset.schema.json", "fixture.schema.json", "registry.schema.json", "report.schema.json"):
        assert json.loads((site / "downloads" / "schema" / name).read_text(encoding="utf-8"))
    assert (site / "downloads" / "reports" / "colver-0.11.1.jsonl").is_file()
    for lang in LANGUAGES:
        page = (site / lang / "downloads" / "index.html").read_text(encoding="utf-8")
        assert 'href="../../downloads/corpus.jsonl"' in page and "schema/ruleset.schema.json" in page


def test_the_implementations_page_gives_engine_by_ruleset_not_sent_reasons_and_departures(site: Path) -> None:
    page = (site / "fr" / "implementations" / "index.html").read_text(encoding="utf-8")
    assert "Moteur × variante" in page and "Non envoyés (n/a), par raison" in page
    assert '<span lang="en">kind announcements not supported</span>' in page
    assert "Écarts par rapport aux variantes livrées" in page and "#play.undertrump_over_opponent" in page


HOUSE_RULE = "id: our-club\nversion: 1\ntitle: Our club's belote\nextends: classic\nplay: {undertrump_over_opponent: optional}\n"


@pytest.fixture(scope="module")
def club_site(installed_club_site: InstalledClubSite) -> Path:
    """The site with the five-line house rule of docs/house-rules.md published beside the shipped rulesets:
    the one an installed wheel builds (tests/conftest.py), shared with tests/test_site_club.py."""
    _require_mkdocs()
    assert installed_club_site.house_rule == HOUSE_RULE
    return installed_club_site.site


def test_a_club_rule_and_its_printed_sheet_in_a_browser(club_site: Path, browser: WebDriver) -> None:
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", str(club_site)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_until(lambda: _listening(port), 20, "the local http.server did not start")
        served = f"http://127.0.0.1:{port}"
        _loaded(browser, f"{served}/fr/rulesets/our-club/")
        assert browser.js("return document.documentElement.lang") == "fr"
        assert "Our club's belote" in browser.js("return document.body.innerText")
        browser.screenshot(_artifacts() / "site-7-club-ruleset-fr.png")
        _loaded(browser, f"{served}/fr/sheets/our-club/")
        # The sheet as printed: the print style sheet applies, the site's chrome is gone.
        browser.call("POST", f"/session/{browser.session}/goog/cdp/execute",
                     {"cmd": "Emulation.setEmulatedMedia", "params": {"media": "print"}})
        header = browser.js(VISIBLE, ".md-header")
        assert header is None or header["display"] == "none" or header["height"] == 0, header
        # Paper has no links: the full rules are printed with their address.
        printed = browser.js("const a = document.querySelector('a.bt-address');"
                             "return getComputedStyle(a, '::after').content")
        assert printed == f'" : {served}/fr/rulesets/our-club/"', printed
        browser.screenshot(_artifacts() / "site-8-club-sheet-print-fr.png")
        pdf = base64.b64decode(browser.call("POST", f"/session/{browser.session}/print", {}))
        assert pdf[:4] == b"%PDF"
        (_artifacts() / "club-sheet-fr.pdf").write_bytes(pdf)
    finally:
        server.terminate()
        server.wait(10)


def test_the_comparison_reads_on_a_390_px_phone(site: Path, served: str, browser: WebDriver) -> None:
    browser.call("POST", f"/session/{browser.session}/window/rect", {"width": 390, "height": 844})
    _loaded(browser, f"{served}/fr/compare/")
    assert browser.js("return document.documentElement.lang") == "fr"
    browser.js("const t = document.querySelector('.bt-compare table'); t.scrollIntoView();"
               "(t.closest('.md-typeset__scrollwrap') || t.parentElement).scrollLeft = 200;")
    box = browser.js("const t = document.querySelector('.bt-compare table');"
                     "const w = t.closest('.md-typeset__scrollwrap') || t.parentElement;"
                     "const c = t.querySelector('tbody td'); const r = c.getBoundingClientRect();"
                     "return {left: r.left, width: r.width, scrolled: w.scrollLeft, page: document.documentElement.scrollWidth}")
    assert box["scrolled"] > 0, "the table does not scroll sideways on a phone"
    assert -1 <= box["left"] <= 20 and box["width"] > 60, f"the parameter column does not stay in view: {box}"
    assert box["page"] <= 400, f"the page itself is wider than the phone: {box}"
    browser.screenshot(_artifacts() / "site-5-compare-390-fr.png")


SEARCH_RESULTS = "return [...document.querySelectorAll('.md-search-result__item a')].map(a => a.href)"


def _search(browser: WebDriver, served: str, page: str, query: str) -> tuple[list[str], float]:
    """The result links a reader of ``page`` gets for ``query``, and the seconds from opening the page to
    the first result (the page loads, its index arrives and is built, the query runs)."""
    started = time.monotonic()
    _loaded(browser, f"{served}/{page}")
    field = browser.find("input.md-search__input")
    browser.click(field)
    browser.type(field, query)
    _wait_until(lambda: browser.js(SEARCH_RESULTS), 120, f"no result for {query!r} on {page}")
    return list(browser.js(SEARCH_RESULTS)), time.monotonic() - started


def test_a_french_search_finds_the_french_rule_first(site: Path, served: str, browser: WebDriver) -> None:
    results, seconds = _search(browser, served, "fr/", "dix de der")
    # The first result is the topic page, its first section the rule (Material nests a page's sections).
    assert results[0].endswith("/fr/rules/score/"), results[:3]
    assert results[1].endswith("/fr/rules/score/#scoring.last_trick_bonus"), results[:3]
    for query in ("belote", "capot", "pisser"):
        results, _ = _search(browser, served, "fr/", query)
        assert "/fr/rules/" in results[0], (query, results[:3])
        assert all("/fr/" in link for link in results), (query, [r for r in results if "/fr/" not in r][:3])
    results, _ = _search(browser, served, "en/", "dix de der")
    assert results[1].endswith("/en/rules/score/#scoring.last_trick_bonus"), results[:3]
    assert not any("/fr/" in link for link in results)
    print(f"French search ready with its first result {seconds:.1f} s after the page was opened")


def test_a_french_example_explains_in_french_and_names_its_cards_in_french(site: Path, served: str,
                                                                         browser: WebDriver) -> None:
    fixture = next(f for f in load_site_data().fixtures if f.data.get("note_fr") and f.kind == "score")
    _loaded(browser, f"{served}/fr/fixtures/{fixture.id}/")
    note = browser.js("const h = [...document.querySelectorAll('h2')].find(h => h.id === 'la-note-de-lauteur');"
                      "if (!h) return null; const p = h.nextElementSibling;"
                      "return {text: p.innerText, lang: p.closest('[lang]').getAttribute('lang')};")
    assert note, "the French page has no note of its own"
    assert note["lang"] == "fr" and note["text"].split()[:2] == str(fixture.data["note_fr"]).split()[:2], note
    assert not browser.js("return document.querySelectorAll('details [lang=\"en\"]').length")
    card = browser.find(".bt-example [data-card]")
    name = browser.accessible_name(card)
    rank, _, suit = name.partition(" de ")
    assert rank in {"sept", "huit", "neuf", "dix", "valet", "dame", "roi", "as"}, name
    assert suit.split(",")[0] in {"pique", "cœur", "carreau", "trèfle"}, name


def test_a_rule_is_cited_by_its_article_number_on_its_page_and_on_the_sheet(site: Path) -> None:
    for lang in LANGUAGES:
        page = (site / lang / "rules" / "score" / "index.html").read_text(encoding="utf-8")
        assert '<a id="article-6.1"></a>' in page
        assert re.search(r'<h3 id="scoring\.last_trick_bonus"><span class="bt-article">§\xa06\.1</span> Dix de der', page)
        sheet = (site / lang / "sheets" / "classic" / "index.html").read_text(encoding="utf-8")
        assert '<dt><span class="bt-article">§\xa06.1</span> Dix de der</dt>' in sheet


def test_a_ruleset_page_sets_apart_the_rules_not_in_play(site: Path) -> None:
    # Classic belote has no auction of bids: its page lists those rules apart, under the condition
    # that brings them in, and not among its rules; the coinche page does the reverse for the litige.
    page = (site / "fr" / "rulesets" / "classic" / "index.html").read_text(encoding="utf-8")
    rules, idle = page.split('id="les-regles-qui-ne-sappliquent-pas-ici"')
    idle = idle.split("<h2")[0]  # the section only, not the examples after it
    assert "L&rsquo;annonce la plus basse" in idle or "L'annonce la plus basse" in idle
    assert "Annonces chiffrées (contrée, coinche)" in idle and "Quand on joue le sans-atout" in idle
    assert "auction.min_bid" not in rules and "Le litige" not in idle
    coinche = (site / "en" / "rulesets" / "ffb-coinche-2015" / "index.html").read_text(encoding="utf-8")
    rules, idle = coinche.split('id="rules-not-in-play-here"')
    idle = idle.split("<h2")[0]
    assert "Who receives the litige" in idle and "scoring.litige.pot_to" in idle
    assert "scoring.bid.formula" in rules and "scoring.litige.pot_to" not in rules


def test_a_printed_rule_sheet_holds_only_the_rules_in_play(site: Path) -> None:
    classic = (site / "fr" / "sheets" / "classic" / "index.html").read_text(encoding="utf-8")
    coinche = (site / "fr" / "sheets" / "ffb-coinche-2015" / "index.html").read_text(encoding="utf-8")
    for text in ("annonce la plus basse", "Le multiplicateur de la surcoinche"):
        assert text not in classic and text in coinche, text
    assert "Qui reçoit le litige" in classic and "Qui reçoit le litige" not in coinche


def test_french_pages_give_the_sources_french_titles(site: Path) -> None:
    page = (site / "fr" / "sources" / "index.html").read_text(encoding="utf-8")
    assert "Page de départ 001 : une page de règles générale" in page
    assert "Seed page 001" not in page
    english = (site / "en" / "sources" / "index.html").read_text(encoding="utf-8")
    assert "Seed page 001: generic rules page" in english


def as_html(markdown_text: str) -> str:
    """A page rendered with the Markdown extensions mkdocs.yml names (without their options)."""
    import markdown
    import yaml

    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    extensions = [e if isinstance(e, str) else next(iter(e)) for e in config["markdown_extensions"]]
    return markdown.markdown(markdown_text, extensions=extensions)


def test_every_bold_run_of_the_rule_pages_renders() -> None:
    """A bold run that ends in a space (``**In play only: **``) is left as literal asterisks."""
    pages = generate_pages(load_site_data(), []).pages
    rule_pages = {path: text for path, text in pages.items() if "/rules/" in path}
    assert len(rule_pages) >= 2 * 8
    conditional = 0
    for path, text in rule_pages.items():
        html_text = as_html(text)
        assert "**" not in html_text, path
        conditional += sum(html_text.count(f"<strong>{label}</strong>") for label in ("In play only", "En jeu seulement"))
    assert conditional >= 2 * 60, conditional


def test_each_page_links_its_translation_by_hreflang(site: Path) -> None:
    """Both languages of a page name each other (``<link rel="alternate" hreflang>``), and each link
    resolves to the other page of the built site."""
    pairs = [("en/rules/play", "fr/rules/play"), ("en/rulesets/classic", "fr/rulesets/classic"),
             ("house-rules", "fr/house-rules"), ("en", "fr")]
    for english, french in pairs:
        for own, other, other_lang in ((english, french, "fr"), (french, english, "en")):
            page = (site / own / "index.html").read_text(encoding="utf-8")
            found = re.search(rf'<link rel="alternate" hreflang="{other_lang}" href="([^"]+)">', page)
            assert found, own
            target = (site / own / found.group(1) / "index.html").resolve()
            assert target == (site / other / "index.html").resolve(), (own, found.group(1))
    assert 'hreflang' not in (site / "index.html").read_text(encoding="utf-8")  # the bilingual root


def test_the_bilingual_root_page_marks_every_french_paragraph() -> None:
    page = generate_pages(load_site_data([]), ["house-rules.md", "protocol.md"]).pages["index.md"]
    html_text = as_html(page)
    for french in ("Les règles de la belote", "Les variantes", "points de règle", "Pour un club", "Pour un développeur"):
        at = html_text.index(french)
        opened = max(html_text.rfind("<p", 0, at), html_text.rfind("<span", 0, at))
        assert html_text.startswith(('<p lang="fr">', '<span lang="fr">'), opened), french
    assert html_text.count('lang="fr"') >= 7


def test_no_generated_page_skips_a_heading_level() -> None:
    """A screen reader's outline: h1, then h2, never h1 straight to h3 (checked on every generated page)."""
    pages = generate_pages(load_site_data(), ["house-rules.md", "protocol.md"]).pages
    skipped = {}
    for path, text in pages.items():
        if not path.endswith(".md") or not any(part in path for part in ("/fixtures/", "/rules/", "/sheets/")):
            continue
        levels = [int(level) for level in re.findall(r"<h([1-6])", as_html(text))]
        for before, after in zip(levels, levels[1:], strict=False):
            if after > before + 1:
                skipped[path] = levels
                break
    assert not skipped, dict(list(skipped.items())[:3])


def test_a_card_is_named_in_the_page_language_and_a_forbidden_card_says_so() -> None:
    from belote_ref.site.cardhtml import card_html

    assert 'aria-label="roi de carreau"' in card_html("KD", lang="fr")
    assert 'aria-label="dix de carreau, ne peut pas être joué"' in card_html("TD", "bt-illegal", lang="fr")
    assert 'aria-label="king of diamonds"' in card_html("KD", lang="en")
    assert 'aria-label="queen of hearts, cannot be played"' in card_html("QH", "bt-illegal", lang="en")
    for lang in LANGUAGES:
        assert 'role="img"' in card_html("7C", lang=lang) and 'title="KD"' not in card_html("KD", lang=lang)


def test_an_example_a_note_names_is_a_link_to_its_page_not_words() -> None:
    from belote_ref.site.fixture_pages import fixture_md

    data = load_site_data()
    fixture = next(f for f in data.hand if f.id == "play-deal.tout-atout.capot-with-four-belotes")
    for lang in LANGUAGES:
        page = fixture_md(data, lang, fixture)
        assert "[`score.tout-atout.capot-with-four-belotes`](score.tout-atout.capot-with-four-belotes.md)" in page, lang
