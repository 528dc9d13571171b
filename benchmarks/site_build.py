"""Site builds: a full `belote-ref docs build`, a rebuild with nothing changed, and a rebuild after a
one-line change to a house rule, each as CPU and wall seconds and as a ratio to the full build; then the
size of each language's search index.

Run: python benchmarks/site_build.py [--exe PATH] [--docs-page]

The goals (issue "A site that scales"): a full build within 30 s of CPU, publishing a house rule (the
rebuild after its line changed) within 15 s.

Each build is a `belote-ref docs build --out DIR --ruleset our-club.yaml` child process (CPU: its
user and system time) into a temporary folder, with a cache folder of its own (so the first build is
a full one); ``--docs-page`` adds a rebuild after a line added to a copy of docs/house-rules.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from belote_ref.site.search_hook import index_path
from belote_ref.site.wording import LANGUAGES

REPO = Path(__file__).resolve().parents[1]
HOUSE_RULE = ("# our club\nid: our-club\nversion: 1\ntitle: Our club's belote\n"
              "extends: classic\nplay: {{undertrump_over_opponent: {value}}}\n")


def timed_build(exe: str, out: Path, config: Path, house: Path, env: dict[str, str]) -> tuple[float, float]:
    """The CPU and wall seconds of one build."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([exe, "docs", "build", "--out", str(out), "--config", str(config), "--ruleset", str(house)],
                          capture_output=True, text=True, env=env, timeout=1800)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"the build failed:\n{done.stderr[-3000:]}")
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exe", default=str(Path(sys.executable).with_name("belote-ref")))
    parser.add_argument("--docs-page", action="store_true", help="also a rebuild after a docs/ page changed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="belote-ref-bench-") as tmp:
        folder = Path(tmp)
        docs = folder / "docs"
        shutil.copytree(REPO / "docs", docs)
        config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
        config.update(docs_dir=str(docs))
        config["theme"]["custom_dir"] = str(REPO / "belote_ref" / "site" / "theme")
        config["hooks"] = [str(REPO / hook) for hook in config.get("hooks", [])]
        config_path = folder / "mkdocs.yml"
        config_path.write_text(yaml.safe_dump(config), encoding="utf-8")
        house = folder / "our-club.yaml"
        house.write_text(HOUSE_RULE.format(value="optional"), encoding="utf-8")
        env = {**os.environ, "BELOTE_REF_CACHE_DIR": str(folder / "cache")}
        env.pop("BELOTE_REF_CACHE", None)
        out = folder / "site"

        figures: list[tuple[str, float, float]] = []
        figures.append(("full build", *timed_build(args.exe, out, config_path, house, env)))
        figures.append(("rebuild, nothing changed", *timed_build(args.exe, out, config_path, house, env)))
        house.write_text(HOUSE_RULE.format(value="required"), encoding="utf-8")
        figures.append(("rebuild, one house-rule line changed", *timed_build(args.exe, out, config_path, house, env)))
        if args.docs_page:
            page = docs / "house-rules.md"
            page.write_text(page.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
            figures.append(("rebuild, one docs/ page changed", *timed_build(args.exe, out, config_path, house, env)))
        index_sizes = {lang: index_path(out, lang).stat().st_size for lang in LANGUAGES}

    _, full_cpu, full_wall = figures[0]
    print(f"{'build':<40} {'CPU s':>8} {'wall s':>8} {'CPU ratio':>10} {'wall ratio':>10}")
    for name, cpu, wall in figures:
        print(f"{name:<40} {cpu:8.2f} {wall:8.2f} {cpu / full_cpu:10.3f} {wall / full_wall:10.3f}")
    print()
    for lang, size in index_sizes.items():
        print(f"search index, {lang:<26} {size / 1e6:8.2f} MB")


if __name__ == "__main__":
    main()
