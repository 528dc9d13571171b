"""``decode_json_line`` reads a line with the decoder's scanner first and falls back to
``JSONDecoder.decode`` for any line that is not one value alone: both paths must give the same
value, or the same refusal, as ``decode`` itself on every line."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from belote_ref.core import jsonlines
from belote_ref.core.jsonlines import JsonLineError, decode_json_line, same_json

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**40, 10**40) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=4),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=2), children, max_size=3),
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
