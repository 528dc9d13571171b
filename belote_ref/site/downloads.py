"""The downloads: the conformance corpus as JSON Lines (one fixture a line), the JSON Schemas, and the
committed conformance reports, published as files of the site with a page listing them."""

from __future__ import annotations

import json

from belote_ref.core.resources import data_dir
from belote_ref.site.data import SiteData
from belote_ref.site.markup import _lang_switch, code, md, rel
from belote_ref.site.wording import t

__all__ = ["download_files", "downloads_page"]

FOLDER = "downloads"


def download_files(data: SiteData) -> dict[str, bytes]:
    """The downloadable files (path in the site -> content)."""
    corpus = "".join(json.dumps(fixture.data, ensure_ascii=False, sort_keys=False, default=str) + "\n"
                     for fixture in data.fixtures)
    files = {f"{FOLDER}/corpus.jsonl": corpus.encode("utf-8")}
    for schema in sorted(data_dir("schema").glob("*.json")):
        files[f"{FOLDER}/schema/{schema.name}"] = schema.read_bytes()
    for report in data.reports:
        files[f"{FOLDER}/reports/{report.path.name}"] = report.path.read_bytes()
    return files


def downloads_page(data: SiteData, lang: str, files: dict[str, bytes]) -> str:
    path = f"{lang}/downloads.md"
    out = [f"# {t(lang, 'downloads')}", "", _lang_switch(path, lang), t(lang, "downloads_intro"), "",
           f"| {t(lang, 'file')} | {t(lang, 'downloads_what')} | {t(lang, 'downloads_size')} |", "|---|---|--:|"]
    for name, content in files.items():
        what = ("downloads_corpus" if name.endswith("corpus.jsonl") else
                "downloads_schema" if "/schema/" in name else "downloads_report")
        size = f"{max(1, round(len(content) / 1024))} KiB"
        out.append(f"| [{code(name.removeprefix(FOLDER + '/'))}]({rel(path, name)}) | "
                   f"{md(t(lang, what, n=len(data.fixtures)))} | {size} |")
    return "\n".join(out) + "\n"
