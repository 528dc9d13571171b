"""``belote-ref docs check`` on a small site made here, with one of each problem it must find; the built
site itself is checked in tests/test_site.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from belote_ref.cli import main
from belote_ref.site.check import check_site

PAGE = """<!doctype html><html lang="{lang}"><body><article>{body}</article></body></html>"""


def _page(site: Path, relative: str, body: str, lang: str = "fr") -> None:
    path = site / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(PAGE.format(lang=lang, body=body), encoding="utf-8")


def _clean_site(site: Path) -> None:
    _page(site, "index.html", '<h1>belote-ref</h1><p><a href="fr/">Français</a> <a href="fr/regles/#dix">dix</a></p>',
          lang="en")
    _page(site, "fr/index.html", "<h1>Les règles</h1><h2>La belote</h2><p>Le valet est la plus forte carte "
                                 "à l'atout, puis le neuf.</p>")
    _page(site, "fr/regles/index.html",
          '<h1>Règles</h1><h2 id="dix">Dix de der</h2><p>Le dernier pli vaut dix points de plus.</p>'
          '<blockquote lang="en"><p>The last trick is worth ten more.</p></blockquote>'
          '<p class="bt-quote-label">Ce que dit la source, résumé en anglais par belote-ref.</p>'
          '<div lang="en"><p>The author wrote this in English, and it is marked as such.</p></div>'
          "<p><code>the value of the parameter is in the file</code></p>")
    (site / "search").mkdir()
    (site / "search" / "search_index.json").write_text('{"docs": []}', encoding="utf-8")


def test_a_clean_site_has_nothing_to_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _clean_site(tmp_path)
    result = check_site(tmp_path)
    assert result.ok and result.pages == 3, result
    assert main(["docs", "check", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:5] == ["pages: 3", "broken links: 0", "French pages with English sentences: 0",
                       "quotations without a label: 0", "headings that skip a level: 0"]
    assert out[5].startswith("search index: en 0.0 MB")


def test_each_problem_is_found_and_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _clean_site(tmp_path)
    _page(tmp_path, "fr/exemple/index.html",
          '<h1>Un exemple</h1><h3>Trop bas</h3><p><a href="../regles/#nulle-part">ici</a> <a href="../absente/">là</a></p>'
          "<p>The takers must make more points than the defenders, or they are down.</p>"
          "<blockquote><p>Le preneur doit faire plus de points que la défense.</p></blockquote><p>Fin.</p>")
    result = check_site(tmp_path)
    assert not result.ok
    assert result.broken_links == ["fr/exemple/index.html: ../regles/#nulle-part (no such anchor)",
                                   "fr/exemple/index.html: ../absente/ (no such page)"]
    assert result.english_on_french_pages == [
        "fr/exemple/index.html: 'The takers must make more points than the defenders, or they are down.'"]
    assert result.unlabelled_quotations == ["fr/exemple/index.html: 1 of 1"]
    assert result.skipped_headings == ["fr/exemple/index.html: h1 then h3"]
    assert main(["docs", "check", str(tmp_path)]) == 1
    assert "broken links: 2" in capsys.readouterr().out


def test_a_folder_that_is_not_a_site_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["docs", "check", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "not a built site" in err


def test_quotations_are_counted_on_english_pages_too(tmp_path: Path) -> None:
    # The whole of an English page is "not French prose"; its quotations' labels were never seen.
    _clean_site(tmp_path)
    quote = '<blockquote lang="fr"><p>Chacun doit fournir la couleur demandée.</p></blockquote>'
    _page(tmp_path, "en/labelled/index.html",
          f'<h1>An example</h1>{quote}<p class="bt-quote-label">The source\'s own words, in French.</p>', lang="en")
    _page(tmp_path, "en/bare/index.html", f"<h1>An example</h1>{quote}<p>The end.</p>", lang="en")
    assert check_site(tmp_path).unlabelled_quotations == ["en/bare/index.html: 1 of 1"]
