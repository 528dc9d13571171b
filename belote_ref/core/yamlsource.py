"""Reading YAML with positions: every key and value keeps its line and column.

PyYAML keeps the last of two duplicate keys without a word; here a duplicate key is an error.
Mapping keys are always read as strings, so ``9: 14`` in a point table means the rank ``"9"``.

The files read here may come from anyone, so reading is bounded and builds plain data only:

- a file holds at most :data:`MAX_FILE_BYTES`; a document at most :data:`MAX_NODES` values
  once aliases are expanded (an alias bomb stops there), nested at most :data:`MAX_DEPTH` deep;
  an alias inside its own anchor is an error;
- only strings, integers, floats, booleans, null, lists and mappings are built. An explicit tag
  other than ``!!str``, ``!!int``, ``!!float``, ``!!bool``, ``!!null``, ``!!seq`` and ``!!map``
  is an error. A plain scalar that YAML 1.1 would read as a date or time (``2001-12-14``), or as
  the special ``<<`` and ``=``, stays a string;
- an integer has at most :data:`MAX_INTEGER_DIGITS` digits.

Every problem is one :class:`~belote_ref.core.errors.Diagnostic`; none quotes a scalar's value.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from belote_ref.core.errors import Diagnostic, InternalError
from belote_ref.core.located import KeyPath, Located, format_path
from belote_ref.core.yaml_limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_INTEGER_DIGITS, MAX_NODES

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_INTEGER_DIGITS",
    "MAX_NODES",
    "KeyPath",
    "Located",
    "format_path",
    "read_yaml",
]

def read_yaml(path: Path | str, text: str | None = None) -> tuple[Located | None, list[Diagnostic]]:
    """Parse one YAML document, returning it with positions, or the diagnostics that stop it.

    Raises nothing on bad input (every problem is a diagnostic);
    :class:`~belote_ref.core.errors.InternalError` only on a broken invariant (a bug).
    """
    file = str(path)
    if text is None:
        text, problem = _read_bounded(Path(path))
        if text is None:
            if problem is None:
                raise InternalError("broken invariant: problem is not None")
            return None, [problem]
    elif len(text) > MAX_FILE_BYTES:
        return None, [_too_large(file)]
    # PyYAML is imported only here: the cached rulesets and registry never need it.
    from belote_ref.core.yaml_builder import parse_located

    return parse_located(file, text)


def _read_bounded(path: Path) -> tuple[str | None, Diagnostic | None]:
    """The file's text, or the diagnostic that says why it cannot be read or is too large."""
    file = str(path)
    try:
        with path.open(encoding="utf-8") as stream:
            status = os.fstat(stream.fileno())
            if stat.S_ISREG(status.st_mode) and status.st_size > MAX_FILE_BYTES:
                return None, _too_large(file)
            # A device or a pipe has no size: read one character past the limit to notice it.
            text = stream.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return None, Diagnostic(file, None, None, "", "no such file", "io")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        reason = " ".join(str(exc).split())
        return None, Diagnostic(file, None, None, "", f"cannot read the file: {reason}", "io")
    if len(text) > MAX_FILE_BYTES:
        return None, _too_large(file)
    return text, None


def _too_large(file: str) -> Diagnostic:
    return Diagnostic(file, None, None, "", f"the file is too large (more than {MAX_FILE_BYTES // (1024 * 1024)} MiB)",
                      "io")
