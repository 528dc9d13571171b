"""The "Check my house rules" page without a browser: the answer the browser computes (the same
module, run here by CPython) for good, bad and hostile house rules, the size cap, and the ``#house=``
link; then the page's text."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest

from belote_ref.core.errors import BeloteRefError
from belote_ref.site import load_site_data
from belote_ref.site.check_house_rule import (
    MAX_HOUSE_RULE_BYTES,
    check_house_rule,
    house_fragment,
    house_from_fragment,
)
from belote_ref.site.check_house_rule_page import check_house_rule_md

DATA = Path(__file__).parent / "data"
INVALID = DATA / "invalid-rulesets"
# The files whose `extends` names a file: refused here before anything is looked for, in other words
# than the command line's (the browser has no file of the reader's).
FILE_PARENTS = {"extends-absolute-outside", "extends-dotdot", "extends-nul", "long-extends-name"}
GOOD = ("id: our-club\nversion: 1\ntitle: Our club's belote\nextends: classic\n"
        "play: {undertrump_over_opponent: optional}\n")
LINE_COL = re.compile(r"^\d+:\d+: ")


def errors_of(text: str) -> list[str]:
    result = check_house_rule(text)
    assert set(result) == {"errors"}, result
    errors: list[str] = result["errors"]
    assert errors and all("\n" not in error and "Traceback" not in error for error in errors), errors
    return errors


@pytest.mark.parametrize("name", sorted(p.stem for p in INVALID.glob("*.yaml")
                                        if p.stem not in FILE_PARENTS | {"not-utf8", "deep-block-nesting"}))
def test_a_hostile_file_gives_the_command_line_s_one_line_error_with_its_line_and_column(name: str) -> None:
    text = (INVALID / f"{name}.yaml").read_text(encoding="utf-8")
    expected = (INVALID / f"{name}.expected").read_text(encoding="utf-8").strip()
    [error] = errors_of(text)
    assert expected in error
    assert LINE_COL.match(error), error


@pytest.mark.parametrize("name", sorted(FILE_PARENTS))
def test_a_parent_named_as_a_file_is_refused_where_extends_is(name: str) -> None:
    [error] = errors_of((INVALID / f"{name}.yaml").read_text(encoding="utf-8"))
    assert error.startswith("4:1: extends: a house rule checked here extends a shipped ruleset (classic, ")


@pytest.mark.parametrize(("text", "expected"), [
    ("id: h\nversion: 1\ntitle: H\nextends: classic\nplay:\n  undertrump_partnr: allowed\n",
     ("6:3: play.undertrump_partnr: unknown parameter 'play.undertrump_partnr'; "
     "did you mean 'play.undertrump_partner'?")),
    ("id: h\nversion: 1\ntitle: H\nextends: clasic\n",
     "4:1: extends: unknown parent ruleset 'clasic'; did you mean 'classic'?"),
    ("id: h\nversion: 1\ntitle: H\n", "1:1: missing required key 'extends': a house rule extends a shipped ruleset"),
    ("id: classic\nversion: 1\ntitle: H\nextends: pagat\n",
     "1:1: id: 'classic' is the id of a shipped ruleset; a house rule needs an id of its own"),
    ("id: h\nversion: 1\ntitle: H\nextends: classic\nplay: {undertrump_over_opponent: sometimes}\n",
     "5:8: play.undertrump_over_opponent: expected one of required, optional; found a string \"sometimes\""),
    ("", "1:1: the file is empty; expected a mapping"),
    ("[" * 100, "nested more than 64 levels deep"),
    ("{a: " * 4000, "nest"),  # libyaml stops at 1,000 levels, the pure-Python parser (the browser's) at 64
    ("id: h\x00\x01\x02\xff\xfe", "1:6: YAML error: unacceptable character #x0000"),
])
def test_a_bad_house_rule_gives_each_error_as_line_col_key_message(text: str, expected: str) -> None:
    errors = errors_of(text)
    assert any(expected in error for error in errors), errors
    assert all(LINE_COL.match(error) for error in errors), errors


def test_html_in_a_value_is_data_returned_as_it_was_typed() -> None:
    # The page writes it with textContent: here it must only come back unchanged, never escaped twice.
    title = "<img src=x onerror=alert(1)><script>alert(2)</script>"
    result = check_house_rule(GOOD.replace("Our club's belote", json.dumps(title)))
    assert result["title"] == {"en": title, "fr": title}


def test_the_size_is_capped_at_16_kib_with_a_clear_error() -> None:
    padding = "# " + "x" * 100 + "\n"
    fits = GOOD + padding * ((MAX_HOUSE_RULE_BYTES - len(GOOD)) // len(padding))
    assert len(fits.encode()) <= MAX_HOUSE_RULE_BYTES and "errors" not in check_house_rule(fits)
    too_large = fits + "#" * (MAX_HOUSE_RULE_BYTES - len(fits.encode()) + 1)
    [error] = errors_of(too_large)
    assert error == (f"the house rule is too large: {MAX_HOUSE_RULE_BYTES + 1} bytes; a house rule checked here "
                     "holds at most 16384 bytes (16 KiB)")
    # Counted in bytes of UTF-8, not in characters: 8,192 'é' are 16,384 bytes.
    assert f"{len(GOOD) + 2 + 16384} bytes" in errors_of(GOOD + "# " + "é" * 8192)[0]


def test_a_good_house_rule_lists_its_changes_in_players_words_in_english_and_french() -> None:
    text = GOOD.replace("optional}", "optional}\nscoring: {capot: {value: 300}}")
    result = check_house_rule(text, {"may_i_play": "../may-i-play/", "score_a_deal": "../score-a-deal/"})
    assert "errors" not in result
    assert (result["id"], result["version"], result["parent"]) == ("our-club", 1, "classic")
    # The registry's words for play.undertrump_over_opponent (rules/registry.yaml): required -> optional.
    [undertrump, capot] = result["changes"]["en"]
    assert undertrump == {"rule": "play.undertrump_over_opponent", "title": "Undertrumping an opponent (sous-coupe)",
                          "parent_value": "Must undertrump", "value": "May discard",
                          "explain": "Unable to overtrump an opponent, a player may throw any card.",
                          "in_play": True}
    [sous_coupe, _] = result["changes"]["fr"]
    assert (sous_coupe["title"], sous_coupe["parent_value"], sous_coupe["value"]) == (
        "Sous-couper un adversaire", "Obligé de sous-couper", "Libre de se défausser")
    # A value set where it changes nothing is listed, marked so, and warned about as `rules validate` does.
    assert capot["rule"] == "scoring.capot.value" and capot["in_play"] is False
    [warning] = result["warnings"]
    assert warning.startswith("6:19: scoring.capot.value: warning: not in play here")
    fragment = house_fragment(text)
    assert result["links"] == {"may_i_play": f"../may-i-play/#{fragment}",
                               "score_a_deal": f"../score-a-deal/#{fragment}"}
    assert result["house"] == fragment.removeprefix("house=")


def test_a_house_rule_that_changes_nothing_has_no_changes() -> None:
    result = check_house_rule(GOOD.replace("optional", "required"))
    assert result["changes"] == {"en": [], "fr": []} and result["warnings"] == []


@pytest.mark.parametrize("text", [GOOD, "title: Été à la belote 🂡\n", "", "a" * 1000 + "\n\x00"])
def test_the_house_link_is_base64url_of_the_utf8_text_without_padding_and_reads_back(text: str) -> None:
    fragment = house_fragment(text)
    name, _, value = fragment.partition("=")
    assert name == "house" and re.fullmatch(r"[A-Za-z0-9_-]*", value)
    assert base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)) == text.encode("utf-8")
    assert house_from_fragment(fragment) == text == house_from_fragment("#" + fragment)


@pytest.mark.parametrize(("fragment", "says"), [
    ("ruleset=classic", "carries no house rule"),
    ("house=a", "not base64url"),
    ("house=<script>", "not base64url"),
    ("house=_-8", "not UTF-8 text"),
    ("house=" + "A" * 30000, "too large"),
])
def test_a_link_that_carries_no_readable_house_rule_is_one_line_of_error(fragment: str, says: str) -> None:
    with pytest.raises(BeloteRefError, match=says):
        house_from_fragment(fragment)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_page_holds_its_words_the_rules_addresses_and_the_pages_it_links_to(lang: str) -> None:
    page = check_house_rule_md(load_site_data(), lang, 14, [f"{lang}/may-i-play.md"])
    config = json.loads(re.search(r'<script type="application/json" id="bt-chr-config">(.*?)</script>',
                                  page).group(1))
    assert config["links"] == {"may_i_play": "../may-i-play/"}
    assert config["rules"]["play.undertrump_over_opponent"]["href"].startswith("../rules/")
    assert config["lang"] == lang and "{megabytes}" in config["words"]["loading"]
    assert 'src="../../engine/check-house-rule.js"' in page
