"""The reference adapter's ``hello``: answered by ``belote-ref serve`` before the engine is loaded.

The runner starts a ``serve`` child and waits for its reply to ``hello`` before it sends any
case: what that reply needs (the registry's parameters, the shipped ruleset ids) is read here
from the cache, without importing the engine modules, which ``serve`` then loads while the
runner prepares its first cases. On a cache miss (a first run) the early reply is skipped and
:mod:`belote_ref.protocol.serve` answers the hello once loaded, with the same function
(:func:`hello_reply`), so the two replies cannot differ.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from belote_ref.core.jsonlines import MAX_LINE_BYTES, JsonLineError, decode_json_line
from belote_ref.core.resources import data_dir
from belote_ref.core.version import __version__
from belote_ref.protocol.kinds import KIND_SINCE, KINDS, PROTOCOL_VERSION, SPOKEN_PROTOCOLS
from belote_ref.rules.registry_data import CLOSED_TYPES, cached_registry_data

TYPE_CHECKING = False  # typing is not imported at run time: see belote_ref.core.frozen
if TYPE_CHECKING:
    from typing import IO, Any

__all__ = ["KINDS", "PROTOCOL_VERSION", "encode_reply", "hello_reply", "negotiated_version", "reply_to_first_hello"]



def negotiated_version(message: Mapping[str, Any] | None) -> int:
    """The version to answer a runner's ``hello`` with: the highest one the engine speaks among
    those the runner offers (``protocols``, or ``protocol`` alone from a version-1 runner). A
    hello that names no version, and one with no version in common, are answered with the
    newest, for the runner to accept or refuse in words."""
    offered: list[Any] = [PROTOCOL_VERSION]
    if message is not None and isinstance(message.get("protocols"), list):
        offered = message["protocols"]
    elif message is not None and "protocol" in message:
        offered = [message["protocol"]]
    common = [v for v in offered if type(v) is int and v in SPOKEN_PROTOCOLS]
    return max(common) if common else PROTOCOL_VERSION


def hello_reply(registry_data: Any, message: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The adapter's answer to the ``hello`` ``message`` (None: a runner of the newest version):
    the negotiated version (:func:`negotiated_version`), and the kinds and the parameters with
    their values of that version, from the registry whose checked data is ``registry_data``.

    Parameters whose values are not a closed list (numbers, card orders, point tables) are
    declared with ``"*"``: any value the registry allows.
    """
    version = negotiated_version(message)
    # Read from the registry's data, as Registry.parameters holds it (tests/test_protocol_start.py).
    parameters = {raw["id"]: [entry["value"] for entry in raw["values"]] if raw["type"] in CLOSED_TYPES else "*"
                  for raw in registry_data["parameters"] if raw.get("since_protocol", 1) <= version}
    kinds = [kind for kind in KINDS if KIND_SINCE.get(kind, 1) <= version]
    return {
        "protocol": version,
        "implementation": {"name": "belote-ref", "version": __version__, "language": "python",
                           "homepage": ""},
        "supports": {"kinds": kinds, "rulesets": _shipped_ruleset_ids(), "parameters": parameters},
    }


def _shipped_ruleset_ids() -> list[str]:
    """The ids of :func:`belote_ref.rules.ruleset.shipped_rulesets`, in its order, without importing the
    ruleset compiler (tests/test_protocol_start.py keeps the two alike)."""

    ids = [path.stem for path in sorted(data_dir("rules").glob("*.yaml")) if path.stem != "registry"]
    return ["classic", *(i for i in ids if i != "classic")] if "classic" in ids else ids


def encode_reply(reply: Mapping[str, Any]) -> bytes:
    """One reply line, always valid UTF-8 (the encoding of :mod:`belote_ref.protocol.serve`'s replies)."""
    try:
        return (json.dumps(reply, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(reply, ensure_ascii=True, separators=(",", ":")) + "\n").encode("ascii")


def reply_to_first_hello(source: IO[bytes]) -> tuple[bytes | None, bytes]:
    """Read the first line of ``source``: (the reply, b"") when it is a well-formed ``hello``,
    else (None, the line as read) for :func:`belote_ref.protocol.serve.serve` to answer; the line
    too when the registry's checked data is not in the cache."""

    line = source.readline(MAX_LINE_BYTES + 1)
    if len(line) > MAX_LINE_BYTES or not line.strip():
        return None, line
    try:
        message = decode_json_line(line)
    except JsonLineError:
        return None, line
    if not isinstance(message, dict) or message.get("cmd") != "hello":
        return None, line
    registry_data = cached_registry_data()
    if registry_data is None:
        return None, line
    return encode_reply(hello_reply(registry_data, message)), b""
