"""``decode_json_line`` reads a line with a key-counting scanner first and falls back to the exact
``JSONDecoder.decode`` (which refuses a repeated key) for any line that is not one value alone, or
whose objects kept fewer keys than the line has ``:``: both paths must give the same value, or the
same refusal, as ``decode`` itself on every line."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from belote_ref.core import jsonlines
from belote_ref.core.jsonlines import JsonLineError, decode_json_line, same_json

# Keys from a small alphabet, colons and quotes included, so that objects side by side share keys.
KEYS = st.text(alphabet=':"ab', max_size=2)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**40, 10**40) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=4) | st.text(alphabet=':"\\ak', max_size=4),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(KEYS, children, max_size=3),
    max_leaves=10,
)
SPACE = st.sampled_from(["", " ", "\t", "  \r"])
TAIL = st.sampled_from(["", "", "", " x", "]", ",1", "{}"])


def _by_decode(text: str) -> tuple[str, Any]:
    """What ``JSONDecoder.decode`` makes of ``text``, with the module's hooks: ("value", value) or
    ("error", its reason)."""
    try:
        return "value", jsonlines._DECODER.decode(text)
    except json.JSONDecodeError as malformed:
        return "error", f"not JSON: {malformed.msg} (column {malformed.colno})"
    except jsonlines._Refused as refused:
        return "error", f"not accepted: {refused}"


@given(value=VALUES, before=SPACE, after=SPACE, tail=TAIL, duplicate=st.booleans())
def test_the_scanner_path_reads_as_decode_does(value: Any, before: str, after: str, tail: str,
                                               duplicate: bool) -> None:
    body = json.dumps(value)
    if duplicate and body.startswith("{") and body != "{}":
        body = body[:-1] + ', ' + body[1:]  # every key twice
    text = before + body + after + tail
    kind, expected = _by_decode(text)
    try:
        found: tuple[str, Any] = "value", decode_json_line(text.encode("utf-8"))
    except JsonLineError as refused:
        found = "error", str(refused)
    assert found[0] == kind, (text, found, expected)
    if kind == "value":
        assert same_json(found[1], expected)
    else:
        assert found[1] == expected



@pytest.mark.parametrize(("text", "repeated"), [
    # A repeated key inside a nested object, the line's other colons all outside strings.
    ('{"a":{"k":1,"k":2},"b":3}', True),
    ('[{"k":1},{"k":1,"k":1}]', True),
    # A colon inside a string, written as itself or as an escape, beside a repeated key.
    ('{"k":1,"k":2,"s":":"}', True),
    ('{"k":1,"k":2,"s":"\\u003a"}', True),
    ('{"a\\u003a":{"k":1,"k":2}}', True),
    # Colons in strings and no repeated key: the exact decoder reads the line and accepts it.
    ('{"k":1,"s":":"}', False),
    ('{"k:":"\\u003a","k":":"}', False),
])
def test_repeated_keys_beside_colons_in_strings(text: str, repeated: bool) -> None:
    kind, expected = _by_decode(text)
    assert kind == ("error" if repeated else "value")
    try:
        found: tuple[str, Any] = "value", decode_json_line(text.encode("utf-8"))
    except JsonLineError as refused:
        assert refused.code == "duplicate_key"
        found = "error", str(refused)
    assert found[0] == kind
    if repeated:
        assert found[1] == expected
    else:
        assert same_json(found[1], expected)


def _with_a_pair_twice(value: Any, depth: int) -> tuple[str, bool]:
    """``value`` as JSON, the first pair of its first non-empty object found at or below ``depth``
    written twice; and whether one was."""
    if isinstance(value, list):
        items, doubled = [], False
        for item in value:
            text, done = _with_a_pair_twice(item, depth - 1 if not doubled else 10**6)
            items.append(text)
            doubled = doubled or done
        return "[" + ",".join(items) + "]", doubled
    if isinstance(value, dict) and value:
        pairs, doubled = [], False
        for key, item in value.items():
            text, done = _with_a_pair_twice(item, depth - 1 if not doubled else 10**6)
            pairs.append(json.dumps(key) + ":" + text)
            doubled = doubled or done
        if not doubled and depth <= 0:
            return "{" + pairs[0] + "," + ",".join(pairs) + "}", True
        return "{" + ",".join(pairs) + "}", doubled
    return json.dumps(value), False


@given(value=VALUES, depth=st.integers(0, 4))
def test_a_key_written_twice_is_refused_at_any_depth(value: Any, depth: int) -> None:
    doubled, done = _with_a_pair_twice(value, depth)
    if not done:
        return
    kind, expected = _by_decode(doubled)
    assert kind == "error"  # a repeated key, or a number refused before the object ends
    try:
        decode_json_line(doubled.encode("utf-8"))
    except JsonLineError as refused:
        assert str(refused) == expected
    else:
        raise AssertionError(f"accepted with a repeated key: {doubled}")
