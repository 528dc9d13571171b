"""The page of what each kind's answer depends on is read from the corpus, so it cannot drift."""

from __future__ import annotations

import re

from belote_ref.conformance.dependencies import dependencies_of
from belote_ref.site import LANGUAGES, load_site_data
from belote_ref.site.dependencies_page import dependencies_md


def test_each_kind_lists_exactly_the_parameters_its_fixtures_name() -> None:
    data = load_site_data()
    for lang in LANGUAGES:
        page = dependencies_md(data, lang)
        sections = re.split(r"^## ", page, flags=re.M)[1:]
        kinds = {fixture.kind for fixture in data.fixtures}
        assert len(sections) == len(kinds)
        for section in sections:
            kind = section.split("`")[1]
            listed = re.findall(r"\| `([a-z_.0-9]+)` \| (\d+) \|", section)
            named: dict[str, int] = {}
            for fixture in data.fixtures:
                if fixture.kind == kind:
                    for pid in dependencies_of(fixture):
                        if pid in data.registry.parameters:
                            named[pid] = named.get(pid, 0) + 1
            assert {pid: int(count) for pid, count in listed} == named, (lang, kind)
    english = dependencies_md(data, "en")
    score = english.split("## `score`")[1].split("\n## ")[0]
    assert "`scoring.last_trick_bonus`" in score and "`auction.min_bid`" not in english.split("## `trick_winner`")[1]
