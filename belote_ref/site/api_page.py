"""The API reference page: the public names of :mod:`belote_ref`, their signatures and docstrings.

Made with :mod:`inspect` from the package itself, module by module in the order of
``belote_ref.__all__``; the docstrings' reStructuredText roles and literals become Markdown code,
their examples and tables code blocks. No MkDocs plugin: mkdocstrings would be a new dependency.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import belote_ref
from belote_ref.site.markup import md
from belote_ref.site.wording import t

_ROLE = re.compile(r":(?:py:)?[a-z]+:`(~?)([^`<]*?)(?:\s*<([^>]+)>)?`")
_LITERAL = re.compile(r"``([^`]+)``")
_FENCE = "```"


def _role(match: re.Match[str]) -> str:
    tilde, text, target = match.group(1), match.group(2).strip(), match.group(3)
    if target:
        return f"{text} (`{target.lstrip('~')}`)"
    return f"`{text.rsplit('.', 1)[-1] if tilde else text}`"


def _inline(line: str) -> str:
    line = _ROLE.sub(_role, line)
    return _LITERAL.sub(lambda m: f"`{m.group(1)}`", line)


def docstring_md(doc: str | None) -> str:
    """A docstring as Markdown: prose with inline code, examples (``>>>``), literal blocks
    (``::``) and tables (rows of ``=``) as code blocks."""
    lines = inspect.cleandoc(doc or "").splitlines()
    out: list[str] = []
    prose: list[str] = []  # prose lines not yet converted: a literal may span two of them
    block: str | None = None  # the kind of code block open: "example", "literal" or "table"

    def flush() -> None:
        if prose:
            out.extend(_inline("\n".join(prose)).split("\n"))
            prose.clear()

    for index, line in enumerate(lines):
        stripped = line.strip()
        ends_example = block == "example" and not stripped
        if ends_example or (block == "literal" and stripped and not line.startswith(" ")):
            out.append(_FENCE)
            block = None
        elif block == "table" and re.fullmatch(r"[= ]+", stripped or "x") and _table_ends(lines, index):
            out.extend([line, _FENCE])
            block = None
            continue
        if block is None:
            if stripped.startswith(">>>"):
                flush()
                out.append(_FENCE + "pycon")
                block = "example"
            elif re.fullmatch(r"=+( +=+)+", stripped):
                flush()
                out.append(_FENCE + "text")
                block = "table"
            elif stripped.startswith(".. "):
                prose.append(f"> {stripped[3:].partition('::')[2].strip()}")
                continue
        if block is None:
            if line.rstrip().endswith("::"):
                prose.extend([line.rstrip()[:-1], ""])
                flush()
                out.append(_FENCE + "text")
                block = "literal"
                continue
            prose.append(line)
        else:
            out.append(line)
    flush()
    if block is not None:
        out.append(_FENCE)
    return "\n".join(out).strip()


def _table_ends(lines: list[str], index: int) -> bool:
    """Whether the ``=`` row at ``index`` closes its table: the third such row of the table."""
    rows = 0
    for line in reversed(lines[: index + 1]):
        if re.fullmatch(r"=+( +=+)+", line.strip()):
            rows += 1
        elif not line.strip():
            break
    return rows >= 3


def _signature(name: str, obj: Any) -> str:
    try:
        return f"{name}{inspect.signature(obj)}"
    except (TypeError, ValueError):  # a builtin without a signature, or an enum
        return name


def _members(cls: type) -> list[tuple[str, Any]]:
    """The public methods and properties a class defines itself, in source order."""
    found = []
    for name, value in vars(cls).items():
        if name.startswith("_") and name != "__init__":
            continue
        function = value.__func__ if isinstance(value, classmethod | staticmethod) else value
        if inspect.isfunction(function) or isinstance(value, property):
            found.append((name, value))
    return found


def _entry(name: str, obj: Any) -> list[str]:
    if inspect.isclass(obj):
        out = [f"### `{name}`", "", f"{_FENCE}python\nclass {_signature(name, obj)}\n{_FENCE}", "",
               docstring_md(obj.__doc__), ""]
        for member, value in _members(obj):
            if isinstance(value, property):
                out += [f"#### `{name}.{member}`", "", docstring_md(value.__doc__), ""]
                continue
            function = value.__func__ if isinstance(value, classmethod | staticmethod) else value
            if function.__doc__ is None:
                continue
            out += [f"#### `{name}.{member}`", "", f"{_FENCE}python\n{_signature(member, function)}\n{_FENCE}", "",
                    docstring_md(function.__doc__), ""]
        return out
    if callable(obj):
        return [f"### `{name}`", "", f"{_FENCE}python\n{_signature(name, obj)}\n{_FENCE}", "",
                docstring_md(obj.__doc__), ""]
    shown = repr(obj) if len(repr(obj)) < 80 else f"<{type(obj).__name__}>"
    return [f"### `{name}`", "", f"{_FENCE}python\n{name} = {shown}\n{_FENCE}", ""]


def api_page(lang: str = "en") -> str:
    """The page ``en/api.md``: every name of ``belote_ref.__all__``, grouped by the module that defines it."""
    by_module: dict[str, list[str]] = {}
    for name in belote_ref.__all__:
        obj = getattr(belote_ref, name)
        module = getattr(obj, "__module__", None) if inspect.isclass(obj) or callable(obj) else None
        by_module.setdefault(module or "belote_ref", []).append(name)
    out = [f"# {md(t(lang, 'api'))}", "", t(lang, "api_intro"), ""]
    for module_name in sorted(by_module):
        module = __import__(module_name, fromlist=["_"])
        out += [f"## `{module_name}`", "", docstring_md(module.__doc__), ""]
        for name in by_module[module_name]:
            out += _entry(name, getattr(belote_ref, name))
    return "\n".join(out).rstrip() + "\n"
