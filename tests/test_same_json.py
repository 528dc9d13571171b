"""Results compare as JSON values (belote_ref.core.jsonlines.same_json), not by Python's ``==``.

Python holds ``1 == 1.0 == True``; the protocol's numbers are integers, and an engine that answers
``81.0`` (it divided) or ``true`` for ``1`` has a bug the suite must report.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from belote_ref.conformance.corpus import compare_results
from belote_ref.core.jsonlines import same_json

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([-1.0, 0.5, 1.0, 2.0]) | st.sampled_from("ab"),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.sampled_from("xyz"), children, max_size=3),
    max_leaves=8,
)


def as_text(value: Any) -> str:
    """The JSON text of ``value``, objects with sorted keys: it tells 1, 1.0 and true apart."""
    return json.dumps(value, sort_keys=True)


@given(JSON_VALUES, JSON_VALUES)
def test_same_json_is_equality_of_the_json_texts(a: Any, b: Any) -> None:
    assert same_json(a, b) == (as_text(a) == as_text(b))


@given(JSON_VALUES)
def test_a_value_is_the_same_as_itself_and_as_its_decoded_text(value: Any) -> None:
    assert same_json(value, value)
    assert same_json(value, json.loads(json.dumps(value)))


@pytest.mark.parametrize(("a", "b"), [
    (1, 1.0), (1, True), (0, False), (0.0, False), ({"NS": 81}, {"NS": 81.0}), ([1, 2], [1, 2.0]),
    (None, False), ([], {}), ("1", 1),
])
def test_values_python_calls_equal_or_alike_differ(a: Any, b: Any) -> None:
    assert not same_json(a, b) and not same_json(b, a)


def test_the_judge_reports_a_fraction_and_a_boolean_for_an_integer() -> None:
    expected = {"winner": "N", "points": 20, "count": 1}
    assert compare_results("trick_winner", expected, dict(expected)) == []
    assert compare_results("trick_winner", expected, {**expected, "points": 20.0, "count": True}) == [
        "count: expected 1, got true", "points: expected 20, got 20.0"]


def test_the_judge_names_cards_and_anything_else_an_engine_sent() -> None:
    # Before, a legal list with a non-card token raised TypeError (joining it as words).
    assert compare_results("legal_plays", {"legal": ["AS", "KS"]}, {"legal": ["AS", 7, None]}) == [
        "legal: missing KS; extra 7 null"]
