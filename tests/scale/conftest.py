"""Fixtures of the scale tests: one Ray session for the whole run, a shared warm-start cache.

Ray starts once per test session (``ray.init(num_cpus=2, include_dashboard=False)``, a few
seconds); tests that need it skip when ray is not installed.
"""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def ray_session():
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'rlvr[ray]')")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    if started:
        ray.shutdown()


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
