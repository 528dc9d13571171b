"""The interactive pages of the rules site: what they add to the built site, and the time from opening
each page to its first answer in headless chromium, cold and warm.

Run: python benchmarks/browser_pages.py [--site DIR] [--runs N]

Without ``--site`` the site is built first (``belote-ref docs build``, with Pyodide and the wheels from
``bash browser/fetch`` or ``$BELOTE_REF_BROWSER_DIR``). The site is served by ``python -m http.server``
on 127.0.0.1 and read by Debian's chromium through chromedriver (the test suite's WebDriver client,
tests/test_site.py). Each page is opened with a situation in its address, so that it answers as soon
as the engine is loaded:

- cold: a new browser profile (empty cache), the page opened once;
- warm: the same browser opening the page again (Python, the engine and the compiled WebAssembly come
  from the browser's caches; http.server sends no Cache-Control, so the browser may revalidate).

The time is the page's own ``window.beloteRef.firstAnswerMs``: ``performance.now()`` when the first
answer is shown, counted from the start of the navigation. Sizes are the bytes written, and what gzip
(level 6, as a web server would send them) makes of them.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))  # the WebDriver client of the browser test, not a second copy of it

import yaml  # noqa: E402
from test_site import WebDriver, _free_port, _listening, _wait_until  # noqa: E402

from belote_ref.site.check_house_rule import house_fragment  # noqa: E402

#: The interactive pages, as (page folder, what to add to its address so that it answers at once).
HOUSE_RULE = ("id: our-club\nversion: 1\ntitle: Our club's belote\nextends: classic\n"
              "play: {undertrump_over_opponent: optional}\n")
SCORED_DEAL = yaml.safe_load((REPO / "conformance" / "fixtures" / "score" / "chute" /
                              "equal-cards-defenders-belote.yaml").read_text(encoding="utf-8"))["given"]
PAGES = {
    "may-i-play": "?ruleset=classic&trump=H&trick=AS+9H&hand=7H+QH+KD+8C",
    "score-a-deal": "?" + urllib.parse.urlencode({
        "ruleset": "classic", "dealer": SCORED_DEAL["dealer"], "taker": SCORED_DEAL["taker"],
        "trump": SCORED_DEAL["trump"], "mode": "tricks", "belote": SCORED_DEAL["belote"] or "",
        "tricks": "\n".join(" ".join(trick["cards"]) for trick in SCORED_DEAL["tricks"])}),
    "check-house-rule": "#" + house_fragment(HOUSE_RULE),
}
LOAD_SECONDS = 300


def build(out: Path) -> None:
    command = [sys.executable, "-m", "belote_ref.cli", "docs", "build", "--out", str(out),
               "--config", str(REPO / "mkdocs.yml")]
    done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        sys.exit(f"the build failed:\n{done.stderr[-3000:]}")


def sizes(site: Path) -> None:
    engine = sorted(path for path in (site / "engine").rglob("*") if path.is_file())
    if not engine:
        sys.exit(f"{site} has no engine/ folder: run `bash browser/fetch` before building the site")
    pages = sorted(path for name in PAGES for lang in ("en", "fr")
                   for path in [site / lang / name / "index.html"] if path.is_file())
    print("what the interactive pages add to the site (bytes; gzip -6 in brackets):")
    total = packed = 0
    for path in engine + pages:
        data = path.read_bytes()
        zipped = len(gzip.compress(data, 6))
        total, packed = total + len(data), packed + zipped
        print(f"  {path.relative_to(site).as_posix():<40} {len(data):>11,} ({zipped:>10,})")
    print(f"  {'total':<40} {total:>11,} ({packed:>10,})  = {total / 1e6:.1f} MB ({packed / 1e6:.1f} MB gzipped)")
    site_total = sum(path.stat().st_size for path in site.rglob("*") if path.is_file())
    share = 100 * total / site_total
    print(f"  the whole site: {site_total / 1e6:.1f} MB, of which the interactive pages {share:.0f}%")


def first_answer(driver: WebDriver, url: str) -> float:
    # Away first: opening the address the browser is on, fragment and all, would not load the page again.
    driver.get("about:blank")
    driver.get(url)
    state = ("const s = document.querySelector('#bt-mip-status, #bt-sad-status, #bt-chr-status');"
             "if (s && s.dataset.state === 'failed') return 'failed: ' + s.textContent;"
             "return window.beloteRef && window.beloteRef.firstAnswerMs;")
    _wait_until(lambda: driver.js(state) is not None, LOAD_SECONDS, f"{url} gave no answer")
    found: Any = driver.js(state)
    if isinstance(found, str):
        sys.exit(f"{url}: {found}")
    return float(found)


def timings(base: str, runs: int, scratch: Path) -> None:
    print(f"\ntime from opening the page to its first answer, ms (median of {runs}, min-max):")
    for name, situation in PAGES.items():
        for lang in ("en", "fr"):
            url = f"{base}/{lang}/{name}/{situation}"
            cold, warm = [], []
            for run in range(runs):
                profile = scratch / f"profile-{name}-{lang}-{run}"
                driver = WebDriver(_chromedriver(), _chromium(), profile, scratch / f"chromedriver-{run}.log")
                try:
                    cold.append(first_answer(driver, url))
                    warm.append(first_answer(driver, url))
                finally:
                    driver.close()
            print(f"  {lang}/{name + '/':<18} cold {_spread(cold)}   warm {_spread(warm)}")


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):>6.0f} ({min(values):.0f}-{max(values):.0f})"


def _chromium() -> str:
    return _which("chromium", "Debian's chromium (apt-get install chromium chromium-driver)")


def _chromedriver() -> str:
    return _which("chromedriver", "chromedriver (apt-get install chromium-driver)")


def _which(name: str, what: str) -> str:
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = Path(folder) / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    sys.exit(f"{name} not found: the benchmark needs {what}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a site already built (else one is built first)")
    parser.add_argument("--runs", type=int, default=3, help="cold and warm loads of each page (default 3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="belote-ref-bench-") as tmp:
        scratch = Path(tmp)
        site = args.site
        if site is None:
            site = scratch / "site"
            started = time.perf_counter()
            build(site)
            print(f"site built in {time.perf_counter() - started:.0f} s")
        sizes(site)
        port = _free_port()
        server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                                   "--directory", str(site)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_until(lambda: _listening(port), 20, "the local http.server did not start")
            timings(f"http://127.0.0.1:{port}", args.runs, scratch)
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
