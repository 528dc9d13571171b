"""The two builds: the pure-Python default and the opt-in build compiled by mypyc (``hatch_build.py``).

These tests run on either build (``.ci/run`` runs them on both): ``belote-ref --version`` names
the build that runs, and the hook's list of modules names modules of the package.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from belote_ref.core.version import __version__, compiled_modules, version_line

ROOT = Path(__file__).resolve().parent.parent


def _hook_modules() -> tuple[str, ...]:
    """``COMPILED_MODULES`` of hatch_build.py, read without importing it (hatchling is a build
    requirement only)."""
    tree = ast.parse((ROOT / "hatch_build.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "COMPILED_MODULES" for target in node.targets):
            value = ast.literal_eval(node.value)
            assert isinstance(value, tuple)
            return value
    raise AssertionError("hatch_build.py has no COMPILED_MODULES")


def _dotted(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def _runs_compiled(module: str) -> bool:
    file = importlib.import_module(module).__file__
    assert file is not None
    return file.endswith(tuple(EXTENSION_SUFFIXES))


def test_the_hook_names_existing_modules_of_the_package_once_each() -> None:
    modules = _hook_modules()
    assert len(modules) >= 10
    assert len(set(modules)) == len(modules)
    for path in modules:
        assert path.startswith("belote_ref/") and path.endswith(".py"), path
        assert (ROOT / path).is_file(), path
        assert not path.endswith("__init__.py"), path


def test_the_version_line_names_the_build_that_runs() -> None:
    hook = [_dotted(path) for path in _hook_modules()]
    compiled = [module for module in hook if _runs_compiled(module)]
    # Either build as a whole: the hook compiles all of its modules or none is compiled.
    assert compiled in ([], hook)
    assert compiled_modules() == sorted(compiled)
    if compiled:
        assert version_line() == f"belote-ref {__version__} (compiled with mypyc: {len(hook)} modules)"
    else:
        assert version_line() == f"belote-ref {__version__} (pure Python)"


def test_the_command_line_prints_the_version_line(tmp_path: Path) -> None:
    # Run from another folder, so that the package imported is the one this interpreter has
    # installed (the compiled build's), not the checkout's source.
    result = subprocess.run([sys.executable, "-c", "from belote_ref.cli.main import main; main(['--version'])"],
                            check=False, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == version_line() + "\n"
