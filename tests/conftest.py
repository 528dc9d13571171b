"""Shared test set-up: belote-ref's disk cache lives in a folder of this test session."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def _session_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    # The user's cache is neither read nor written by the tests; subprocesses inherit the folder.
    previous = os.environ.get("BELOTE_REF_CACHE_DIR")
    os.environ["BELOTE_REF_CACHE_DIR"] = str(tmp_path_factory.mktemp("belote-ref-cache"))
    yield
    if previous is None:
        os.environ.pop("BELOTE_REF_CACHE_DIR", None)
    else:
        os.environ["BELOTE_REF_CACHE_DIR"] = previous
