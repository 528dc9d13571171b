"""The opt-in compiled build: the engine's hot modules compiled to C extensions by mypyc.

The pure-Python install stays the default. This hook runs only when asked for, as the README says::

    python3 -m venv .venv-compiled && HATCH_BUILD_HOOK_ENABLE_CUSTOM=true .venv-compiled/bin/pip install '.[test]'

(``enable-by-default = false`` in ``pyproject.toml``; its build requirements, mypy and setuptools,
are installed only then). The modules below are compiled from the same source as the pure build;
the wheel keeps every ``.py`` file, and Python imports an extension before the source beside it.
``belote-ref --version`` says which build runs.

The modules were chosen by profile (random deals, validated replays, the main job). A class that
must stay a plain Python class says so with ``@mypyc_attr(native_class=False)``; its methods are
compiled all the same. In ``core/cards.py`` the enums and the card (an ``int`` subclass) are such
classes, and the card set a native one, a ``collections.abc.Set`` by registration rather than by
inheritance: a native class that inherits from a Python class cannot refuse assignment
(``__setattr__``). The deal (``engine/deal.py``, ``engine/bids/deal.py``) is native too: its
``copy`` names what it copies. Compiled code checks the type of every argument and of every item
it reads from a typed list or tuple, so the parsers of cards and seats take any object and refuse it
with their own error. Two things are written for the compiled build without slowing the pure one:
the hot dataclasses write out their ``__init__`` (dataclasses generates an interpreted one, which
mypyc keeps; tests/test_build.py holds each to its fields), and ``cardset_of_mask`` makes a
compiled card set by its constructor (``_COMPILED`` in ``core/cards.py``). Left out:

- ``rules/ruleset.py``: a frozen dataclass with a ``cached_property``, which a compiled class cannot
  hold (the import fails); the engine reads its parameters through the areas of its typed view,
  plain attributes (``rules.play``, ``rules.scoring``), with no Python call;
- ``protocol/serve.py``: compiled with the engine modules it crashes mypyc itself (mypy 2.4.1);
- ``engine/match.py`` and ``engine/faults.py``: off the hot path.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The modules compiled, as paths from the repository root (tests/test_build.py checks each exists).
COMPILED_MODULES = (
    "belote_ref/core/cards.py",
    "belote_ref/rules/playtables.py",
    "belote_ref/engine/play.py",
    "belote_ref/engine/announcements.py",
    "belote_ref/engine/dealing.py",
    "belote_ref/engine/deal.py",
    "belote_ref/engine/score_sheet.py",
    "belote_ref/engine/scoring.py",
    "belote_ref/engine/simulate.py",
    "belote_ref/engine/bids/auction.py",
    "belote_ref/engine/bids/deal.py",
    "belote_ref/engine/bids/scoring.py",
    "belote_ref/records/record.py",
    "belote_ref/core/jsonlines.py",
    "belote_ref/core/located.py",
)


class MypycBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles :data:`COMPILED_MODULES` and puts the extensions in the wheel, tagged for this
    interpreter and platform."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        if version == "editable":
            # An editable install runs the source tree itself: there is nothing to put beside it.
            self.app.display_warning("the compiled build is for a regular install; an editable one stays pure Python")
            return
        work = Path(tempfile.mkdtemp(prefix="belote-ref-mypyc-"))
        try:
            built = self._compile(work)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
        self._work = work
        for extension in built:
            build_data["force_include"][str(extension)] = extension.relative_to(work / "lib").as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)

    def _compile(self, work: Path) -> list[Path]:
        """Generate the C of the modules with mypyc (type-checked with the project's mypy
        settings) and compile it; return the built extension files, under ``work / "lib"``."""
        import setuptools  # noqa: F401  (setuptools first: it provides distutils to mypyc)
        from mypyc.build import mypycify
        from setuptools import Distribution

        self.app.display_info(f"compiling {len(COMPILED_MODULES)} modules with mypyc")
        here = os.getcwd()
        os.chdir(self.root)  # mypy reads its settings from pyproject.toml and names modules from here
        try:
            extensions = mypycify(list(COMPILED_MODULES), opt_level="3", target_dir=str(work / "c"))
            distribution = Distribution({"name": "belote-ref", "ext_modules": extensions})
            command = distribution.get_command_obj("build_ext")
            command.build_lib = str(work / "lib")  # type: ignore[attr-defined]
            command.build_temp = str(work / "temp")  # type: ignore[attr-defined]
            command.parallel = os.cpu_count() or 1  # type: ignore[attr-defined]
            command.ensure_finalized()
            command.run()
        finally:
            os.chdir(here)
        return sorted(path for path in (work / "lib").rglob("*") if path.name.endswith(tuple(EXTENSION_SUFFIXES)))
