"""Fixtures of the scale tests (the shared warm-start cache and the Ray session are in tests/conftest.py)."""

from __future__ import annotations

import os

import pytest


@pytest.fixture()
def cli_env(shared_cache):
    env = dict(os.environ)
    env["RLVR_CACHE"] = str(shared_cache)
    env["OMP_NUM_THREADS"] = "1"
    return env
