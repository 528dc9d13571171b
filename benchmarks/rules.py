"""Time to load, validate and compile a ruleset (cold, and warm with the parent already parsed).

Run: python benchmarks/rules.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from belote_ref.rules.registry import load_registry
from belote_ref.core.resources import data_dir
from belote_ref.rules.ruleset import _RESOLVE_CACHE, load_ruleset

HOUSE_RULE = "id: club\nversion: 1\ntitle: Club\nextends: classic\nplay: {undertrump_over_opponent: optional}\n"


def median_ms(function: object, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()  # type: ignore[operator]
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    load_registry()
    classic = data_dir("rules") / "classic.yaml"
    online = data_dir("rules") / "online-92.yaml"
    with tempfile.TemporaryDirectory() as folder:
        house = Path(folder) / "club.yaml"
        house.write_text(HOUSE_RULE)

        def cold(path: Path) -> None:
            _RESOLVE_CACHE.clear()
            load_ruleset(path)

        def warm_house() -> None:
            # A new file every call (text given), so only the shipped parent is cached.
            load_ruleset(house, text=HOUSE_RULE)

        figures = {
            "classic.yaml, cold (parse + schema + compile)": median_ms(lambda: cold(classic), 50),
            "online-92.yaml, cold (parses classic too)": median_ms(lambda: cold(online), 50),
            "house rule extending classic, warm parent": median_ms(warm_house, 200),
        }
    print(f"python {sys.version.split()[0]}; medians over repeated runs (target: < 5 ms warm)")
    for label, value in figures.items():
        print(f"  {label:<48} {value:6.2f} ms")


if __name__ == "__main__":
    main()
