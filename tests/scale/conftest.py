"""Fixtures of the scale tests: a shared warm-start cache (the Ray session is in tests/conftest.py)."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory):
    """One warm-start cache for every scale test (the smoke base is built once)."""
    return tmp_path_factory.mktemp("rlvr-cache")


@pytest.fixture()
def cli_env(shared_cache):
    env = dict(os.environ)
    env["RLVR_CACHE"] = str(shared_cache)
    env["OMP_NUM_THREADS"] = "1"
    return env
