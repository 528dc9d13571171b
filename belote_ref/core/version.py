"""The package's version, in a module of its own so that reading it loads nothing else.

:func:`version_line` also says which build runs: the pure-Python source, or the opt-in build
whose engine modules mypyc compiled to C extensions (``hatch_build.py``, README).
"""

__version__ = "0.1.0"


def compiled_modules() -> list[str]:
    """The modules of the package that run as compiled extensions, dotted, sorted: Python imports
    an extension module before the ``.py`` file beside it, so these are the ones that run."""
    from importlib.machinery import EXTENSION_SUFFIXES
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent
    found: set[str] = set()
    for path in package.rglob("*"):
        suffix = next((suffix for suffix in EXTENSION_SUFFIXES if path.name.endswith(suffix)), None)
        if suffix is not None:
            module = path.relative_to(package.parent).as_posix().removesuffix(suffix).replace("/", ".")
            found.add(module)
    return sorted(found)


def version_line() -> str:
    """``belote-ref 0.1.0 (pure Python)`` or ``belote-ref 0.1.0 (compiled with mypyc: N modules)``."""
    compiled = compiled_modules()
    build = f"compiled with mypyc: {len(compiled)} modules" if compiled else "pure Python"
    return f"belote-ref {__version__} ({build})"
