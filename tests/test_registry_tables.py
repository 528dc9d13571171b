"""Numbers the engine derives from the registry's card tables rather than writing them down."""

from __future__ import annotations

from pathlib import Path

import pytest

from belote_ref.rules.registry import load_registry
from belote_ref.core.resources import data_dir


def test_the_pack_total_is_read_from_the_card_tables() -> None:
    registry = load_registry()
    trump = registry["cards.trump_points"].default
    plain = registry["cards.plain_points"].default
    assert (sum(trump.values()), sum(plain.values())) == (62, 30)  # FFB-B16, PAGAT, seeds 000 and 001
    assert registry.pack_points == 62 + 3 * 30 == 152


def test_a_registry_with_other_card_tables_has_another_pack_total(tmp_path: Path) -> None:
    text = (data_dir("rules") / "registry.yaml").read_text(encoding="utf-8")
    usual = '{J: 20, "9": 14, A: 11, T: 10, K: 4, Q: 3, "8": 0, "7": 0}'
    start = text.index("- id: cards.trump_points")
    end = text.index("- id:", start + 1)
    # The default and the documented value of cards.trump_points, the jack worth 23 instead of 20.
    block = text[start:end].replace(usual, usual.replace("J: 20", "J: 23"))
    assert block != text[start:end]
    changed = tmp_path / "registry.yaml"
    changed.write_text(text[:start] + block + text[end:], encoding="utf-8")
    assert load_registry(changed).pack_points == 155


@pytest.mark.parametrize("ruleset_id", ["classic", "classic-sa-ta"])
def test_the_shipped_tables_total_the_pack(ruleset_id: str) -> None:
    from belote_ref.rules.ruleset import find_ruleset

    rules = find_ruleset(ruleset_id)
    assert sum(rules.points[0]) == load_registry().pack_points
