"""Shared fixtures: a tiny random model and tokenizer built on the spot (no hub access)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

# The files that take longest (seconds on 2 cores, from `--durations`), run first so that the
# two pytest-xdist workers of scripts/test.sh, which take whole files in collection order,
# finish together instead of one waiting out a long file at the end. Order only: every other
# file keeps its place, and each file's tests keep theirs.
SLOW_FILES_FIRST = (
    "scale/test_async_ray.py",  # ~135
    "train/test_smollm.py",  # ~87
    "faults/test_training_faults.py",  # ~79
    "models/test_gguf.py",  # ~65
    "scale/test_data_parallel.py",  # ~58
    "faults/test_kill_resume.py",  # ~58
    "train/test_eval_cli.py",  # ~57
    "train/test_smoke_and_resume.py",  # ~57
    "test_docs.py",  # ~34
    "train/test_compare.py",  # ~27
    "tasks/test_chat_arithmetic.py",  # ~26
)


def pytest_collection_modifyitems(config, items):
    rank = {name: k for k, name in enumerate(SLOW_FILES_FIRST)}
    here = Path(__file__).resolve().parent

    def key(item):
        try:
            name = Path(item.path).resolve().relative_to(here).as_posix()
        except ValueError:
            return len(rank)
        return rank.get(name, len(rank))

    items.sort(key=key)  # stable


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


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory):
    """One warm-start cache for the tests of a session that train the smoke preset (its base is built once)."""
    return tmp_path_factory.mktemp("rlvr-cache")


@pytest.fixture(scope="session")
def vllm_model_dir(tmp_path_factory, tiny_tokenizer):
    """A random-init 2-layer Llama with head size 32, the smallest vLLM's CPU attention takes."""
    import torch

    from rlvr.models.tiny import TinyShape, build_tiny_model, save_pretrained

    path = tmp_path_factory.mktemp("vllm-model")
    torch.manual_seed(0)
    model = build_tiny_model(tiny_tokenizer, TinyShape(hidden=64, layers=2, heads=2, intermediate=128))
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
