"""The "Score a deal" page in headless chromium: the time from opening the page to its first answer, cold
(a new browser profile: nothing cached) and warm (the same page opened again in the same browser).

Run: python benchmarks/score_page.py [--site DIR] [--runs N]

Without ``--site`` the site is built first (``belote-ref docs build``; it needs ``bash browser/fetch`` or
``$BELOTE_REF_BROWSER_DIR``). The site is served from its folder on 127.0.0.1 by ``python -m
http.server``, and each run starts chromium with an empty profile, opens the page with the deal of
conformance/fixtures/score/chute/equal-cards-defenders-belote.yaml in its address, waits for the score
sheet, then opens it again. Times are the page's own (``performance.now()``, from the start of the
navigation): to the engine ready, and to the first answer shown. Needs Debian's chromium and
chromium-driver.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from test_site import WebDriver, _free_port, _listening, _wait_until  # noqa: E402  (the browser tests' client)

FIXTURE = REPO / "conformance" / "fixtures" / "score" / "chute" / "equal-cards-defenders-belote.yaml"
LOAD_SECONDS = 300


def _address(base: str, lang: str) -> str:
    given = yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))["given"]
    query = urllib.parse.urlencode({
        "ruleset": "classic", "dealer": given["dealer"], "taker": given["taker"], "trump": given["trump"],
        "mode": "tricks", "tricks": "\n".join(" ".join(trick["cards"]) for trick in given["tricks"]),
        "belote": given["belote"] or ""})
    return f"{base}/{lang}/score-a-deal/?{query}"


def _answered(driver: WebDriver) -> dict[str, Any]:
    """The page's times once it has answered (it must answer, not fail)."""
    state = ("const a = document.getElementById('bt-sad-answer'), s = document.getElementById('bt-sad-status');"
             "return s.dataset.state === 'failed' ? 'failed: ' + s.textContent : (a && a.dataset.state) || null;")
    _wait_until(lambda: driver.js(state) is not None, LOAD_SECONDS, "the page gave no answer")
    if driver.js(state) != "answered":
        sys.exit(f"the page did not answer: {driver.js(state)}")
    times: dict[str, Any] = driver.js("const r = window.beloteRef;"
                                      "return {ready: r.openedMs + r.readyMs, answer: r.openedMs + r.firstAnswerMs};")
    return times


def _build(out: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "belote_ref.cli", "docs", "build", "--out", str(out),
                           "--config", str(REPO / "mkdocs.yml")],
                          capture_output=True, text=True, timeout=3600, check=False)
    if done.returncode != 0 or not (out / "en" / "score-a-deal" / "index.html").is_file():
        sys.exit(f"the site was not built with the interactive pages:\n{(done.stdout + done.stderr)[-3000:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a site already built with the interactive pages")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lang", default="en", choices=("en", "fr"))
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if not chromium or not chromedriver:
        sys.exit("chromium and chromedriver are needed (apt-get install -y chromium chromium-driver)")
    with tempfile.TemporaryDirectory(prefix="belote-ref-bench-") as tmp:
        folder = Path(tmp)
        site = args.site
        if site is None:
            site = folder / "site"
            _build(site)
        elif not (site / "en" / "score-a-deal" / "index.html").is_file():
            sys.exit(f"{site} has no score-a-deal page: build it with the interactive pages")
        port = _free_port()
        server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                                   "--directory", str(site)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        rows = []
        try:
            _wait_until(lambda: _listening(port), 20, "the local http.server did not start")
            address = _address(f"http://127.0.0.1:{port}", args.lang)
            for run in range(args.runs):
                driver = WebDriver(chromedriver, chromium, folder / f"profile-{run}", folder / f"driver-{run}.log")
                try:
                    started = time.perf_counter()
                    driver.get(address)
                    cold = _answered(driver)
                    cold_wall = time.perf_counter() - started
                    driver.get(address)
                    warm = _answered(driver)
                finally:
                    driver.close()
                rows.append((cold["ready"], cold["answer"], cold_wall * 1000, warm["ready"], warm["answer"]))
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"score-a-deal/{args.lang}, {args.runs} run(s); ms from the start of the navigation")
    print(f"{'run':>4} {'cold ready':>11} {'cold answer':>12} {'(wall)':>8} {'warm ready':>11} {'warm answer':>12}")
    for run, row in enumerate(rows, 1):
        print(f"{run:>4} {row[0]:11.0f} {row[1]:12.0f} {row[2]:8.0f} {row[3]:11.0f} {row[4]:12.0f}")
    print(f"{'median':>4} " + " ".join(f"{statistics.median(column):{width}.0f}"
                                       for column, width in zip(zip(*rows, strict=True), (11, 12, 8, 11, 12),
                                                                strict=True)))


if __name__ == "__main__":
    main()
