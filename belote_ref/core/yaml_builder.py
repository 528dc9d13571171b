"""The YAML event builder behind :func:`~belote_ref.core.yamlsource.read_yaml`.

It turns PyYAML's event stream into plain data with positions, within the bounds that
:mod:`~belote_ref.core.yamlsource` documents. It lives apart so that PyYAML is imported only
when a YAML text is actually parsed (a run served from the cache never parses one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

import yaml

from belote_ref.core.errors import Diagnostic, InternalError
from belote_ref.core.located import KeyPath, Located, format_path
from belote_ref.core.yaml_limits import MAX_DEPTH, MAX_INTEGER_DIGITS, MAX_NODES

__all__ = ["parse_located"]

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_located(file: str, text: str) -> tuple[Located | None, list[Diagnostic]]:
    """Parse ``text`` (read from ``file``) into one document with positions, or its diagnostics."""
    builder = _Builder(file)
    try:
        builder.feed_all(yaml.parse(text, Loader=_Loader))
    except _Stop as stop:
        return None, [stop.diagnostic]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        column = mark.column + 1 if mark else None
        reason = _one_line(exc.problem or exc.context or "syntax error")
        return None, [Diagnostic(file, line, column, "", f"YAML syntax error: {reason}", "yaml")]
    except yaml.reader.ReaderError as exc:
        # Its text spans two lines and names a stream; say where the character is instead.
        line, column = _line_and_column(text, exc.position)
        return None, [Diagnostic(file, line, column, "", f"YAML error: unacceptable character #x{exc.character:04x}: "
                                 f"{exc.reason}", "yaml")]
    except yaml.YAMLError as exc:
        return None, [Diagnostic(file, None, None, "", f"YAML error: {_one_line(str(exc))}", "yaml")]
    except UnicodeError:
        # Only text given by a caller can get here (a lone surrogate): a file is decoded on reading.
        return None, [Diagnostic(file, None, None, "", "the text is not valid Unicode", "yaml")]
    if not builder.finished:
        return None, [Diagnostic(file, 1, 1, "", "the file is empty; expected a mapping", "yaml")]
    return Located(file, builder.root, builder.positions), builder.diagnostics


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _line_and_column(text: str, position: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, position) + 1
    return text.count("\n", 0, position) + 1, position - line_start + 1


# ------------------------------------------------------------------------------------- building

_CORE_TAG_PREFIX = "tag:yaml.org,2002:"
_STR_TAG = _CORE_TAG_PREFIX + "str"
_MAP_TAG = _CORE_TAG_PREFIX + "map"
_SEQ_TAG = _CORE_TAG_PREFIX + "seq"
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_RESOLVER = yaml.resolver.Resolver()

# What each allowed scalar tag builds, and the word for it in a diagnostic.
_SCALAR_BUILDERS: dict[str, tuple[Callable[[yaml.ScalarNode], Any], str]] = {
    _STR_TAG: (_CONSTRUCTOR.construct_yaml_str, "string"),
    _CORE_TAG_PREFIX + "int": (_CONSTRUCTOR.construct_yaml_int, "integer"),
    _CORE_TAG_PREFIX + "float": (_CONSTRUCTOR.construct_yaml_float, "number"),
    _CORE_TAG_PREFIX + "bool": (_CONSTRUCTOR.construct_yaml_bool, "boolean"),
    _CORE_TAG_PREFIX + "null": (_CONSTRUCTOR.construct_yaml_null, "null"),
}
# Implicit YAML 1.1 types that would build something else than plain data; their text is kept.
_KEPT_AS_TEXT = frozenset(_CORE_TAG_PREFIX + name for name in ("timestamp", "merge", "value"))


class _Stop(Exception):
    """Building cannot go on (a limit is reached); carries the one diagnostic to report."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


class _Anchor:
    """An anchored node: where its events start and end in the builder's recording."""

    __slots__ = ("end", "start")

    def __init__(self, start: int) -> None:
        self.start = start
        self.end: int | None = None  # None while the anchored node is still being read


# The state of an open mapping between a key and its value.
_AWAITING_KEY = object()  # the next node is a key
_KEY_IS_A_COLLECTION = object()  # a (refused) list or mapping is being read as a key
_DROP_VALUE = object()  # the next node is the value of a refused or duplicate key


@dataclass
class _Open:
    """A list or mapping being read."""

    path: KeyPath
    value: dict[str, Any] | list[Any]
    # Part of a refused key or of a duplicate key's value: built (aliases may point into it) but
    # neither kept, positioned nor diagnosed.
    dropped: bool
    anchor: _Anchor | None
    first_seen: dict[str, int] = field(default_factory=dict)
    key: object = _AWAITING_KEY  # a str once a key is read, else one of the states above


# The events that build a node (or close one); the others frame the stream and its document.
_NODE_EVENTS = frozenset({yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent, yaml.MappingEndEvent,
                          yaml.SequenceEndEvent})

# A recorded event, with the anchor an alias event named when it was read.
_Recorded = tuple[yaml.Event, _Anchor | None]


class _Builder:
    """Builds plain data and positions from a stream of parser events, within the limits.

    Building from events rather than from composed nodes sees explicit tags exactly, bounds the
    nesting before anything recurses, and counts an alias's expansion as it happens.
    An alias is expanded by replaying the recorded events of its anchor, so that every copy gets
    its own positions and its own (mutable) lists and mappings, as if written out in full.
    """

    def __init__(self, file: str) -> None:
        self.file = file
        self.positions: dict[KeyPath, tuple[int, int]] = {}
        self.diagnostics: list[Diagnostic] = []
        self.root: Any = None
        self.finished = False
        self._stack: list[_Open] = []
        self._nodes = 0
        self._anchors: dict[str, _Anchor] = {}
        # Events are recorded only while an anchored collection is open (its alias replays them).
        self._recording: list[_Recorded] = []
        self._open_anchors = 0
        # The alias being expanded from the document itself (not from a replay), and its place.
        self._expanding: tuple[KeyPath, _Mark | None] | None = None
        self._expanded_any_alias = False

    def feed_all(self, events: Iterable[yaml.Event]) -> None:
        for event in events:
            kind = type(event)
            if kind is yaml.DocumentStartEvent and self.finished:
                # As yaml.compose words it.
                raise yaml.composer.ComposerError("expected a single document in the stream", None,
                                                  "but found another document",
                                                  event.start_mark)  # type: ignore[arg-type]  # the C parser's Mark
            if kind is yaml.AliasEvent:
                self._feed(event, self._anchors.get(cast(yaml.AliasEvent, event).anchor or ""), replaying=False)
            elif kind in _NODE_EVENTS:
                self._feed(event, None, replaying=False)

    def _feed(self, event: yaml.Event, alias_target: _Anchor | None, replaying: bool) -> None:
        kind = type(event)
        if not replaying and (self._open_anchors or (kind is not yaml.AliasEvent and getattr(event, "anchor", None))):
            self._recording.append((event, alias_target))
        if kind is yaml.ScalarEvent:
            self._scalar(cast(yaml.ScalarEvent, event), replaying)
        elif kind is yaml.AliasEvent:
            self._alias(cast(yaml.AliasEvent, event), alias_target, replaying)
        elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            self._start(cast(yaml.CollectionStartEvent, event), replaying)
        else:
            self._end()

    # ---------------------------------------------------------------------------------- nodes

    def _slot(self) -> tuple[KeyPath, bool]:
        """The key path of the next node, and whether it is dropped."""
        if not self._stack:
            return (), False
        top = self._stack[-1]
        if isinstance(top.value, list):
            return (*top.path, len(top.value)), top.dropped
        if isinstance(top.key, str):
            return (*top.path, top.key), top.dropped
        return top.path, True

    def _count(self, event: yaml.Event, path: KeyPath) -> None:
        self._nodes += 1
        if self._nodes <= MAX_NODES:
            return
        where_path, mark = self._expanding or (path, event.start_mark)
        after = " after alias expansion" if self._expanded_any_alias else ""
        raise _Stop(self._at(mark, where_path, f"too many nodes{after} (more than {MAX_NODES})", "yaml.limit"))

    def _at(self, mark: _Mark | None, path: KeyPath, message: str, code: str = "yaml") -> Diagnostic:
        line, column = _place_of(mark)
        return Diagnostic(self.file, line, column, format_path(path), message, code)

    def _report(self, dropped: bool, mark: _Mark | None, path: KeyPath, message: str, code: str = "yaml") -> None:
        if not dropped:
            self.diagnostics.append(self._at(mark, path, message, code))

    def _mapping_awaits_key(self) -> bool:
        return bool(self._stack) and isinstance(self._stack[-1].value, dict) and self._stack[-1].key is _AWAITING_KEY

    def _scalar(self, event: yaml.ScalarEvent, replaying: bool) -> None:
        path, dropped = self._slot()
        self._count(event, path)
        if not replaying and event.anchor is not None:
            # The event is already recorded (last): the anchor is that one event.
            anchor = self._anchors[event.anchor] = _Anchor(len(self._recording) - 1)
            anchor.end = anchor.start
        if self._mapping_awaits_key():
            self._key(event)
            return
        value = self._scalar_value(event, path, dropped)
        self._place(value, event.start_mark, path, dropped)

    def _key(self, event: yaml.ScalarEvent) -> None:
        top = self._stack[-1]
        line, column = _position(event.start_mark)
        if _explicit_tag(event) and event.tag not in _SCALAR_BUILDERS:
            self._report(top.dropped, event.start_mark, top.path, _tag_not_allowed(event.tag), "yaml.tag")
        key = event.value
        if key in top.first_seen:
            self._report(top.dropped, event.start_mark, (*top.path, key),
                         f"duplicate key {key!r} (first at line {top.first_seen[key]})", "yaml.duplicate_key")
            top.key = _DROP_VALUE
            return
        top.first_seen[key] = line
        if not top.dropped:
            self.positions[(*top.path, key)] = (line, column)
        top.key = key

    def _scalar_value(self, event: yaml.ScalarEvent, path: KeyPath, dropped: bool) -> Any:
        explicit = _explicit_tag(event)
        tag = event.tag if explicit else _RESOLVER.resolve(yaml.ScalarNode, event.value, event.implicit)  # type: ignore[no-untyped-call]
        if tag == _STR_TAG or (not explicit and tag in _KEPT_AS_TEXT):
            return event.value
        if tag not in _SCALAR_BUILDERS:
            self._report(dropped, event.start_mark, path, _tag_not_allowed(tag), "yaml.tag")
            return event.value
        construct, kind = _SCALAR_BUILDERS[tag]
        if kind == "integer" and len(event.value.replace("_", "").lstrip("+-")) > MAX_INTEGER_DIGITS:
            self._report(dropped, event.start_mark, path, f"number too large (more than {MAX_INTEGER_DIGITS} digits)",
                         "yaml.limit")
            return None
        try:
            return construct(yaml.ScalarNode(tag, event.value))
        except (ValueError, KeyError, TypeError, IndexError, ArithmeticError, yaml.YAMLError):
            # An integer like 0b_ matches YAML 1.1's pattern but has no digits; !!bool 5 is no boolean;
            # PyYAML's float constructor indexes into an empty !!float.
            with_tag = f" (tagged {_shown_tag(tag)})" if explicit else ""
            self._report(dropped, event.start_mark, path, f"not a valid {kind}{with_tag}", "yaml.value")
            return event.value

    def _start(self, event: yaml.CollectionStartEvent, replaying: bool) -> None:
        as_key = self._mapping_awaits_key()
        path, dropped = self._slot()
        self._count(event, path)
        if len(self._stack) >= MAX_DEPTH:
            raise _Stop(self._at(event.start_mark, path, f"nested more than {MAX_DEPTH} levels deep", "yaml.limit"))
        is_mapping = isinstance(event, yaml.MappingStartEvent)
        if _explicit_tag(event) and event.tag != (_MAP_TAG if is_mapping else _SEQ_TAG):
            self._report(dropped, event.start_mark, path, _tag_not_allowed(event.tag), "yaml.tag")
        if as_key:
            parent = self._stack[-1]
            self._report(parent.dropped, event.start_mark, parent.path, "a key must be a plain scalar")
            parent.key = _KEY_IS_A_COLLECTION
            dropped = True
        elif not dropped:
            self.positions.setdefault(path, _position(event.start_mark))
        anchor = None
        if not replaying and event.anchor is not None:
            # The start event is already recorded (last); the anchor covers it and what follows.
            anchor = _Anchor(len(self._recording) - 1)
            self._anchors[event.anchor] = anchor
            self._open_anchors += 1
        value: dict[str, Any] | list[Any] = {} if is_mapping else []
        self._stack.append(_Open(path, value, dropped, anchor))

    def _end(self) -> None:
        closed = self._stack.pop()
        if closed.anchor is not None:
            closed.anchor.end = len(self._recording) - 1
            self._open_anchors -= 1
        if self._stack and self._stack[-1].key is _KEY_IS_A_COLLECTION:
            self._stack[-1].key = _DROP_VALUE
            return
        self._place_built(closed.value)

    def _place(self, value: Any, mark: _Mark | None, path: KeyPath, dropped: bool) -> None:
        if not dropped and self._stack and isinstance(self._stack[-1].value, list):
            self.positions.setdefault(path, _position(mark))
        elif not self._stack:
            self.positions.setdefault((), _position(mark))
        self._place_built(value)

    def _place_built(self, value: Any) -> None:
        if not self._stack:
            self.root = value
            self.finished = True
            return
        top = self._stack[-1]
        if isinstance(top.value, list):
            top.value.append(value)
            return
        if isinstance(top.key, str):
            top.value[top.key] = value
        top.key = _AWAITING_KEY

    def _alias(self, event: yaml.AliasEvent, target: _Anchor | None, replaying: bool) -> None:
        path, dropped = self._slot()
        if target is None:
            self._report(dropped, event.start_mark, path, f"undefined alias *{event.anchor}")
            if self._mapping_awaits_key():
                self._stack[-1].key = _DROP_VALUE
            else:
                self._place(None, event.start_mark, path, dropped)
            return
        if target.end is None:
            message = f"recursive alias *{event.anchor}: the anchor contains itself"
            raise _Stop(self._at(event.start_mark, path, message))
        self._expanded_any_alias = True
        outermost = self._expanding is None
        if outermost:
            self._expanding = (path, event.start_mark)
        for index in range(target.start, target.end + 1):
            recorded_event, recorded_target = self._recording[index]
            self._feed(recorded_event, recorded_target, replaying=True)
        if outermost:
            self._expanding = None


def _explicit_tag(event: yaml.NodeEvent) -> bool:
    # ``!`` is YAML's "non-specific" tag: the node is read as if untagged.
    tag = getattr(event, "tag", None)
    return tag is not None and tag != "!"


def _shown_tag(tag: str) -> str:
    shown = "!!" + tag[len(_CORE_TAG_PREFIX):] if tag.startswith(_CORE_TAG_PREFIX) else tag
    if not shown.startswith("!"):
        shown = f"!<{shown}>"
    shown = shown if shown.isprintable() else repr(shown)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _tag_not_allowed(tag: str | None) -> str:
    return (f"YAML tag {_shown_tag(tag or '')} is not allowed; only plain strings, numbers, booleans, null, lists and "
            "mappings are read")


class _Mark(Protocol):
    """Where PyYAML found an event (``yaml.Mark``, or the C parser's own mark): 0-based."""

    line: int
    column: int


def _position(mark: _Mark | None) -> tuple[int, int]:
    """The 1-based (line, column) of ``mark``; PyYAML gives every parsed event one."""
    if mark is None:
        raise InternalError("broken invariant: a parsed YAML event has no mark")
    return mark.line + 1, mark.column + 1


def _place_of(mark: _Mark | None) -> tuple[int | None, int | None]:
    """The 1-based (line, column) of ``mark``, or (None, None) without one."""
    return _position(mark) if mark is not None else (None, None)
