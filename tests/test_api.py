"""The public API: every exported name exists, and the examples in the docstrings run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import belote_ref

MODULES = sorted(
    name for _, name, _ in pkgutil.walk_packages(belote_ref.__path__, prefix="belote_ref.")
    if name != "belote_ref.site"  # needs the docs extra; its own tests cover it
)


def test_every_exported_name_exists() -> None:
    for name in belote_ref.__all__:
        assert hasattr(belote_ref, name), name
    assert len(set(belote_ref.__all__)) == len(belote_ref.__all__)


@pytest.mark.parametrize("module_name", ["belote_ref", *MODULES])
def test_docstring_examples(module_name: str) -> None:
    module = importlib.import_module(module_name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


def test_package_is_typed() -> None:
    from importlib.resources import files

    assert files("belote_ref").joinpath("py.typed").is_file()
