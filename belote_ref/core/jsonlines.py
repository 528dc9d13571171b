"""Reading untrusted JSON Lines: bounded, streaming, one clear error per bad line.

This module is the one place where belote-ref turns JSON Lines from outside (``belote-ref replay``
record files and standard input, the ``belote-ref serve`` protocol loop) into Python values.
Everything that reads such input goes through :func:`read_lines` and :func:`decode_json_line`, so
the limits below hold everywhere and a bad line never costs more than its own error:

- the input is read in binary, one line at a time, split on ``b"\\n"`` only (never
  ``str.splitlines()``, which also splits inside strings at U+2028, U+0085 ...); the whole input
  is never held in memory;
- a line longer than :data:`MAX_LINE_BYTES` is refused, and the rest of it is drained in
  chunks without being kept;
- a line must be strict UTF-8 and one JSON value, nested at most :data:`MAX_DEPTH` deep, with
  integers of at most :data:`MAX_INT_DIGITS` digits, finite numbers only (no ``NaN``,
  ``Infinity``, nor a float that overflows to infinity) and no duplicate key in an object.

Every refusal is a :class:`JsonLineError` whose message is one line without a location: the
caller knows the file and line number and prefixes them.
"""

from __future__ import annotations

import io
import json
import math
import re
from itertools import accumulate

from belote_ref.core.errors import BeloteRefError
from belote_ref.core.frozen import Frozen

TYPE_CHECKING = False  # typing is not imported at run time: see belote_ref.core.frozen
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import IO, Any

__all__ = [
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "MAX_LINE_BYTES",
    "MAX_MESSAGE_CHARS",
    "JsonLine",
    "JsonLineError",
    "binary_input",
    "decode_json_line",
    "one_line",
    "read_json_lines",
    "read_lines",
    "same_json",
]

#: The longest line accepted, in bytes, its ``\n`` included. A deal record is about 1.5 KB and a
#: protocol message a few KB (a match of many deals stays far below), so 1 MiB leaves a wide
#: margin while bounding what one line can cost.
MAX_LINE_BYTES = 1 << 20
#: The deepest nesting of arrays and objects accepted. Records and messages are at most 5 deep;
#: the JSON decoder recurses in C and raises RecursionError near 1,000.
MAX_DEPTH = 64
#: The most digits an integer may have. Python refuses to convert more than 4,300 (ValueError) and
#: converting is quadratic below that; no count or score in Belote needs more than a few.
MAX_INT_DIGITS = 30
#: The longest message printed or replied for one line: an error quoting a value of the input
#: (``found [...]``) could otherwise be as long as the line.
MAX_MESSAGE_CHARS = 1000

# Draining an over-long line reads it in pieces of this size, so its length costs no memory.
_DRAIN_CHUNK = 1 << 16
# A JSON string, escapes included, or an unterminated one up to the end of the line: used to ignore
# brackets inside strings when measuring depth. Possessive, and it always matches at a quote, so the
# scan is one left-to-right pass: a quote inside a string is never tried as the start of another
# (the old pattern required the closing quote, and an unterminated string of 12,000 escaped quotes
# was rescanned from each of them, seconds for one 24 KB line).
_JSON_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"?', re.DOTALL)
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")
_OPENING = frozenset(b"[{")


class JsonLineError(BeloteRefError):
    """One line of JSON Lines input is refused; the message is one line and names no location."""

    code = "bad_json"

    def __init__(self, message: str, *, code: str = "bad_json") -> None:
        super().__init__(message, code=code)


class _Refused(ValueError):
    """Raised from inside the JSON decoder's hooks; turned into a :class:`JsonLineError`."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def read_lines(stream: IO[bytes], max_bytes: int = MAX_LINE_BYTES) -> Iterator[tuple[int, bytes | JsonLineError]]:
    """Yield ``(line number, line)`` for each line of ``stream`` (1-based, ``\\n`` kept if present).

    A line longer than ``max_bytes`` is yielded as a :class:`JsonLineError` instead, after the
    rest of it has been read and dropped piece by piece, so the next line is read normally.
    Reads lazily: a line is read only when the previous one has been consumed.
    """
    drain_chunk = min(_DRAIN_CHUNK, max_bytes + 1)
    number = 0
    while True:
        line = stream.readline(max_bytes + 1)
        if not line:
            return
        number += 1
        if len(line) > max_bytes:
            # Drop the rest of the line without keeping it: only the end of the line matters.
            while not line.endswith(b"\n"):
                line = stream.readline(drain_chunk)
                if not line:
                    break
            yield number, JsonLineError(f"line longer than {max_bytes} bytes; skipped", code="line_too_long")
            continue
        yield number, line


def _nesting_depth(raw: bytes) -> int:
    """The deepest nesting of arrays and objects in ``raw``, brackets inside strings ignored."""
    brackets = _JSON_STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    return max(accumulate(1 if byte in _OPENING else -1 for byte in brackets), default=0)


def _bounded_int(text: str) -> int:
    if len(text) - text.startswith("-") > MAX_INT_DIGITS:
        raise _Refused(f"an integer with more than {MAX_INT_DIGITS} digits", "number_too_long")
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"a number out of range ({text[:20]}{'...' if len(text) > 20 else ''})", "number_too_long")
    return value


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number", "bad_json")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    mapping = dict(pairs)
    if len(mapping) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused(f"duplicate key {one_line(repr(key), 100)} in an object", "duplicate_key")
            seen.add(key)
    return mapping


# The exact decoders: every object goes through _unique_keys, which refuses a duplicate key.
_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_int=_bounded_int, parse_float=_finite_float,
                            parse_constant=_no_constant)
# The same without the integer hook, for a line with no run of more than MAX_INT_DIGITS digits, where
# no integer can be too long: a call into Python per integer was half the decoding of a protocol
# message (its ruleset holds some 70 numbers).
_SHORT_INT_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_float=_finite_float,
                                      parse_constant=_no_constant)


def _scanner_of(decoder: json.JSONDecoder) -> Callable[[str, int], tuple[Any, int]]:
    """The scanner ``decoder.decode`` calls (``scan_once``, which typeshed leaves out)."""
    scanner: Callable[[str, int], tuple[Any, int]] = getattr(decoder, "scan_once")  # noqa: B009
    return scanner


class _KeyCountingScanners:
    """The decoders' scanners with a cheaper object hook, for the good path of :func:`decode_json_line`.

    Handing each object's pairs to ``_unique_keys`` was a third of the scanner's time on a record: the
    scanner builds a list of tuples, then the hook a dict. Here the scanner builds the dict and the
    hook only adds up the keys kept. A line holds at least as many ``:`` as its objects have pairs
    (each pair has one, and a string may hold more), and an object with a repeated key keeps fewer
    keys than it has pairs. So when the keys kept equal the ``:`` of the line, no key is repeated;
    otherwise the exact decoder reads the line again and decides. One instance serves one decoding
    at a time (see ``_IDLE_SCANNERS``): the count is its own.
    """

    def __init__(self) -> None:
        self.keys = 0
        short_ints = json.JSONDecoder(object_hook=self._count_keys, parse_float=_finite_float,
                                      parse_constant=_no_constant)
        long_ints = json.JSONDecoder(object_hook=self._count_keys, parse_int=_bounded_int,
                                     parse_float=_finite_float, parse_constant=_no_constant)
        self.short_ints = _scanner_of(short_ints)
        self.long_ints = _scanner_of(long_ints)

    def _count_keys(self, mapping: dict[str, Any]) -> dict[str, Any]:
        self.keys += len(mapping)
        return mapping


# Scanners not in use: a decoding takes one (list.pop and append are atomic), so that threads
# decoding at the same time (the harness reads each engine's replies in a thread) never share a count.
_IDLE_SCANNERS: list[_KeyCountingScanners] = []
# The bytes the checks before decoding count: brackets that open, and colons. Counting them in the
# few bytes that translate() keeps is cheaper than counting each in the whole line.
_NOT_OPENING_OR_COLON = bytes(byte for byte in range(256) if byte not in b"[{:")
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_TOO_MANY_DIGITS = b"0" * (MAX_INT_DIGITS + 1)


def decode_json_line(raw: bytes, max_bytes: int = MAX_LINE_BYTES) -> Any:
    """The JSON value of one line (bytes, surrounding whitespace allowed), within the limits.

    Raises :class:`JsonLineError` with a one-line reason: not UTF-8, not JSON, nested deeper than
    :data:`MAX_DEPTH`, an integer longer than :data:`MAX_INT_DIGITS` digits, NaN or Infinity, a
    duplicate key, or longer than ``max_bytes``.
    """
    # Without its line break, so that a position is a column of the one line.
    raw = raw.removesuffix(b"\n")
    if len(raw) > max_bytes:
        raise JsonLineError(f"line longer than {max_bytes} bytes", code="line_too_long")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as undecodable:
        raise JsonLineError(f"not UTF-8: {undecodable.reason} (byte {undecodable.start + 1})",
                            code="not_utf8") from None
    opening_and_colons = raw.translate(None, _NOT_OPENING_OR_COLON)
    colons = opening_and_colons.count(b":")
    # Counting brackets is cheap; measuring the depth only when there are many keeps records fast.
    if len(opening_and_colons) - colons > MAX_DEPTH and _nesting_depth(raw) > MAX_DEPTH:
        raise JsonLineError(f"nested more than {MAX_DEPTH} levels deep", code="too_deep")
    long_ints = _TOO_MANY_DIGITS in raw.translate(_DIGITS_AS_ZERO)
    # The good path: a line that is one value alone, read by a counting scanner as
    # JSONDecoder.decode calls its own, with no key repeated. Any other line, refused or not, is
    # read again by the exact decoder, which says what is wrong.
    scanners = _IDLE_SCANNERS.pop() if _IDLE_SCANNERS else _KeyCountingScanners()
    try:
        scanners.keys = 0
        value, end = (scanners.long_ints if long_ints else scanners.short_ints)(text, 0)
        if end == len(text) and scanners.keys == colons:
            return value
    except (StopIteration, ValueError):  # no value at the start, malformed, or refused by a hook
        pass
    finally:
        _IDLE_SCANNERS.append(scanners)
    try:
        return (_DECODER if long_ints else _SHORT_INT_DECODER).decode(text)
    except json.JSONDecodeError as malformed:
        raise JsonLineError(f"not JSON: {malformed.msg} (column {malformed.colno})") from None
    except _Refused as refused:
        raise JsonLineError(f"not accepted: {refused}", code=refused.code) from None
    except RecursionError:  # cannot happen after the depth check; kept so that it can never escape
        raise JsonLineError(f"nested more than {MAX_DEPTH} levels deep", code="too_deep") from None


class JsonLine(Frozen):
    """One non-blank line of JSON Lines input: its value, or why it was refused. Read-only."""

    __slots__ = ("number", "value", "error")  # noqa: RUF023 (constructor order)
    number: int
    value: Any
    error: JsonLineError | None

    def __init__(self, number: int, value: Any = None, error: JsonLineError | None = None) -> None:
        self._set("number", number)
        self._set("value", value)
        self._set("error", error)


def read_json_lines(stream: IO[bytes]) -> Iterator[JsonLine]:
    """Each non-blank line of ``stream`` decoded, lazily; a bad line is yielded with its error."""
    for number, line in read_lines(stream):
        if isinstance(line, JsonLineError):
            yield JsonLine(number, error=line)
            continue
        if not line.strip():
            continue
        try:
            yield JsonLine(number, decode_json_line(line))
        except JsonLineError as error:
            yield JsonLine(number, error=error)


class _TextAsBytes(io.RawIOBase):
    """A text stream read as UTF-8 bytes, a line at a time (for callers that pass ``io.StringIO``)."""

    def __init__(self, text: IO[str]) -> None:
        self._text = text
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> bytes:
        if not self._pending:
            # A lone surrogate cannot come from bytes; keep it so that decoding refuses the line.
            self._pending = self._text.readline().encode("utf-8", "surrogatepass")
        limit = len(self._pending) if size is None or size < 0 else size
        line, self._pending = self._pending[:limit], self._pending[limit:]
        return line


def binary_input(stream: IO[Any]) -> IO[bytes]:
    """``stream`` as bytes: its ``buffer`` for a text file such as ``sys.stdin``, a wrapper for
    a text stream without one, ``stream`` itself when it is already binary."""
    if not isinstance(stream, io.TextIOBase):
        return stream
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        return buffer
    return _TextAsBytes(stream)


def same_json(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b``, values as JSON decodes them, are the same JSON value.

    As ``==``, except that the JSON types must agree: an integer is never equal to a number with a
    fraction part nor to a boolean (``1``, ``1.0`` and ``true`` are three values, where Python holds
    ``1 == 1.0 == True``). Arrays are lists, compared in order; objects are dicts.
    """
    return bool(a == b) and _types_agree(a, b)


def _types_agree(a: Any, b: Any) -> bool:
    """For ``a == b``: whether each value has the same type in both. Equal strings and nulls
    always do; only numbers and booleans can be equal under another type. (Loops rather than
    ``all()`` over a generator: this runs on every replayed record's result.)"""
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict:
        # Typed locals: the compiled build reads a dict as a dict, not as any object.
        mapping: dict[Any, Any] = a
        other_mapping: dict[Any, Any] = b
        for key, value in mapping.items():
            leaf = type(value)
            if leaf is str or value is None:
                continue
            if leaf is int:
                if type(other_mapping[key]) is not int:
                    return False
            elif not _types_agree(value, other_mapping[key]):
                return False
    elif kind is list:
        items: list[Any] = a
        other_items: list[Any] = b
        # By index rather than zip(): the faster in both builds (a == b: the lengths are equal).
        for index in range(len(items)):
            value = items[index]
            leaf = type(value)
            if leaf is str or value is None:
                continue
            if leaf is int:
                if type(other_items[index]) is not int:
                    return False
            elif not _types_agree(value, other_items[index]):
                return False
    return True


def one_line(message: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``message`` safe to print or send as one line: cut to ``limit`` characters, and line
    breaks, other control characters and lone surrogates written as escapes (``\\n``, ``\\ud800``)."""
    cut = len(message) > limit
    text = message[:limit]
    if not text.isprintable():
        text = "".join(char if char.isprintable() else ascii(char)[1:-1] for char in text)
    return text + "..." if cut else text
