"""The package's layers: import-linter's contracts hold, a breach is caught, and no module circle.

The contracts are in ``pyproject.toml`` (``[tool.importlinter]``); ``.ci/run`` runs
``lint-imports`` too. Imports inside functions and under ``TYPE_CHECKING`` count: grimp, which
import-linter is built on, reads every import statement of a module.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "belote_ref"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint_imports(project: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(project))
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", str(project / "pyproject.toml")], cwd=project, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_layer_contracts_hold() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 kept, 0 broken" in result.stdout


def test_an_import_from_the_engine_into_the_command_line_breaks_the_contracts(tmp_path: Path) -> None:
    shutil.copytree(PACKAGE, tmp_path / "belote_ref", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    play = tmp_path / "belote_ref" / "engine" / "play.py"
    play.write_text(play.read_text(encoding="utf-8") + "\nfrom belote_ref.cli.options import EXIT_OK  # noqa\n",
                    encoding="utf-8")
    result = _lint_imports(tmp_path)
    assert result.returncode != 0
    assert "0 kept, 2 broken" in result.stdout, result.stdout
    assert "belote_ref.engine.play -> belote_ref.cli.options" in result.stdout


def _circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_two_modules_import_each_other_even_through_others() -> None:
    graph = grimp.build_graph("belote_ref", cache_dir=None)
    assert len(graph.modules) > 80
    assert _circles(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = grimp.ImportGraph()
    for module in ("a", "a.b", "a.c", "a.d"):
        graph.add_module(module)
    graph.add_import(importer="a.b", imported="a.c")
    graph.add_import(importer="a.c", imported="a.d")
    graph.add_import(importer="a.d", imported="a.b")
    assert _circles(graph) == [["a.b", "a.c", "a.d"]]


# The one import of the package's own code made inside a function: the serve verb loads the
# engine once it has answered hello (the other lazy places go through import_module by a table).
LAZY_IMPORTS = {
    ("belote_ref/cli/serve_verb.py", "belote_ref.protocol.serve"),
    # PyYAML only when a YAML text is parsed: a run served from the cache never parses one.
    ("belote_ref/core/yamlsource.py", "belote_ref.core.yaml_builder"),
    # Material's search plugin only when MkDocs runs the hook: `docs check` reads the hook's index_path
    # without building a site.
    ("belote_ref/site/search_hook.py", "belote_ref.site.search_parser"),
}


def test_the_package_imports_its_own_modules_at_the_top_but_in_the_named_places() -> None:
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.ImportFrom) and (inner.module or "").startswith("belote_ref"):
                        found.add((path.relative_to(ROOT).as_posix(), inner.module))
    assert found == LAZY_IMPORTS
