"""Reading YAML with positions: every key and value keeps its line and column.

PyYAML keeps the last of two duplicate keys without a word; here a duplicate key is an error.
Mapping keys are always read as strings, so ``9: 14`` in a point table means the rank ``"9"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from belote_ref.errors import Diagnostic

__all__ = ["Located", "format_path", "read_yaml"]

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

KeyPath = tuple[str | int, ...]


def format_path(path: KeyPath) -> str:
    """Render a key path as ``scoring.capot.mode`` or ``deal.first_packets[1]``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + part
    return text


@dataclass
class Located:
    """A parsed YAML document and the position (1-based line, column) of each key path."""

    file: str
    data: Any
    positions: dict[KeyPath, tuple[int, int]]

    def where(self, path: KeyPath) -> tuple[int | None, int | None]:
        """The position of ``path``, or of its nearest ancestor that has one."""
        while path:
            if path in self.positions:
                return self.positions[path]
            path = path[:-1]
        return self.positions.get((), (None, None))

    def diagnostic(self, path: KeyPath, message: str, code: str = "error") -> Diagnostic:
        """A diagnostic pointing at ``path`` in this file."""
        line, column = self.where(path)
        return Diagnostic(self.file, line, column, format_path(path), message, code)


def read_yaml(path: Path | str, text: str | None = None) -> tuple[Located | None, list[Diagnostic]]:
    """Parse one YAML document, returning it with positions, or the diagnostics that stop it."""
    file = str(path)
    if text is None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None, [Diagnostic(file, None, None, "", "no such file", "io")]
        except (OSError, UnicodeDecodeError) as exc:
            return None, [Diagnostic(file, None, None, "", f"cannot read the file: {exc}", "io")]
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        column = mark.column + 1 if mark else None
        problem = exc.problem or exc.context or "syntax error"
        return None, [Diagnostic(file, line, column, "", f"YAML syntax error: {problem}", "yaml")]
    except yaml.YAMLError as exc:
        return None, [Diagnostic(file, None, None, "", f"YAML error: {exc}", "yaml")]
    if node is None:
        return None, [Diagnostic(file, 1, 1, "", "the file is empty; expected a mapping", "yaml")]
    positions: dict[KeyPath, tuple[int, int]] = {}
    diagnostics: list[Diagnostic] = []
    data = _build(node, (), positions, diagnostics, file)
    return Located(file, data, positions), diagnostics


_CONSTRUCTOR = yaml.constructor.SafeConstructor()


def _scalar(node: yaml.Node) -> Any:
    try:
        return _CONSTRUCTOR.construct_object(node, deep=True)
    finally:
        _CONSTRUCTOR.constructed_objects.clear()


def _build(
    node: yaml.Node,
    path: KeyPath,
    positions: dict[KeyPath, tuple[int, int]],
    diagnostics: list[Diagnostic],
    file: str,
) -> Any:
    positions.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
    if isinstance(node, yaml.MappingNode):
        result: dict[str, Any] = {}
        first_seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                line, column = key_node.start_mark.line + 1, key_node.start_mark.column + 1
                diagnostics.append(
                    Diagnostic(file, line, column, format_path(path), "a key must be a plain scalar", "yaml")
                )
                continue
            key = key_node.value
            line, column = key_node.start_mark.line + 1, key_node.start_mark.column + 1
            if key in first_seen:
                diagnostics.append(
                    Diagnostic(
                        file, line, column, format_path((*path, key)),
                        f"duplicate key {key!r} (first at line {first_seen[key]})", "yaml.duplicate_key",
                    )
                )
                continue
            first_seen[key] = line
            positions[(*path, key)] = (line, column)
            result[key] = _build(value_node, (*path, key), positions, diagnostics, file)
            positions[(*path, key)] = (line, column)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [
            _build(item, (*path, index), positions, diagnostics, file)
            for index, item in enumerate(node.value)
        ]
    return _scalar(node)
