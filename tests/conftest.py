"""Shared fixtures: a tiny random model and tokenizer built on the spot (no hub access)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@pytest.fixture(scope="session")
def ray_session():
    """One local Ray cluster for the whole test session (a few seconds to start); tests that
    need it skip when ray is not installed."""
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'rlvr[ray]')")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    if started:
        ray.shutdown()


@pytest.fixture(scope="session")
def tiny_tokenizer():
    from rlvr.models.tiny import build_char_tokenizer

    return build_char_tokenizer()


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory, tiny_tokenizer):
    """A random-init 1-layer Llama with the character tokenizer, saved in HF format."""
    from rlvr.models.tiny import TinyShape, build_tiny_model, save_pretrained

    path = tmp_path_factory.mktemp("tiny-model")
    model = build_tiny_model(tiny_tokenizer, TinyShape(hidden=32, layers=1, heads=2, intermediate=64))
    save_pretrained(model, tiny_tokenizer, path)
    return path


@pytest.fixture()
def tiny_model(tiny_tokenizer):
    from rlvr.models.tiny import TinyShape, build_tiny_model

    return build_tiny_model(tiny_tokenizer, TinyShape(hidden=32, layers=1, heads=2, intermediate=64))


@pytest.fixture()
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("RLVR_CACHE", str(d))
    return d
