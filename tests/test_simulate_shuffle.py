"""simulate.shuffle gives the order random.Random.shuffle gives (so seeds keep their deals)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from belote_ref.core.cards import CARDS
from belote_ref.engine.simulate import shuffle


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**64))
def test_shuffle_is_random_shuffle(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    deck, expected = list(CARDS), list(CARDS)
    shuffle(ours, deck)
    theirs.shuffle(expected)
    assert deck == expected
    assert ours.getstate() == theirs.getstate()  # the same draws: what follows is the same too


def test_other_generators_and_lengths_are_shuffled_by_their_own_method() -> None:
    class Counting(random.Random):
        calls = 0

        def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
            Counting.calls += 1
            super().shuffle(x)

    shuffle(Counting(1), list(CARDS))
    assert Counting.calls == 1
    short, expected = list(range(10)), list(range(10))
    shuffle(random.Random(4), short)
    random.Random(4).shuffle(expected)
    assert short == expected
