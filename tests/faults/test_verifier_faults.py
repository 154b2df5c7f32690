"""Verifier faults: a worker killed mid-batch and a verifier that hangs. The batch still
completes, the faulty item is reported as ``error`` / ``timeout`` (never a silent 0 that
looks like a wrong answer), the fault is counted, and the pool keeps working."""

from __future__ import annotations

import time

from fault_verifiers import crash_on_marker, hang_on_marker

from rlvr.diagnostics.metrics import status_counts
from rlvr.types import Sample
from rlvr.verifiers.pool import VerifierPool


def _samples(n: int) -> list[Sample]:
    return [Sample(id=str(i), prompt="p", answer=str(i)) for i in range(n)]


def test_a_worker_killed_mid_batch_costs_one_item_not_the_batch():
    completions = ["0", "1", "CRASH", "9", "4", "5", "6", "7"]
    with VerifierPool(crash_on_marker, workers=2, timeout_s=20, chunk_size=3, cache_size=0) as pool:
        verdicts = pool.map(completions, _samples(8))
        assert [v.status for v in verdicts] == ["ok", "ok", "error", "wrong", "ok", "ok", "ok", "ok"]
        assert "worker died" in verdicts[2].detail and "-9" in verdicts[2].detail
        stats = pool.stats()
        assert stats["restarts"] == 1 and stats["error"] == 1 and stats["ok"] == 6
        assert status_counts([v.status for v in verdicts])["status/error"] == 1  # what a training step logs
        again = pool.map(["0", "1"], _samples(2))  # the replacement worker serves the next batch
        assert [v.status for v in again] == ["ok", "ok"]


def test_a_hanging_verifier_times_out_and_the_rest_of_the_batch_completes():
    completions = ["0", "HANG", "2", "x", "4", "5"]
    with VerifierPool(hang_on_marker, workers=2, timeout_s=0.5, chunk_size=2, cache_size=0) as pool:
        t0 = time.monotonic()
        verdicts = pool.map(completions, _samples(6))
        elapsed = time.monotonic() - t0
        assert [v.status for v in verdicts] == ["ok", "timeout", "ok", "wrong", "ok", "ok"]
        assert "exceeded 0.5 s" in verdicts[1].detail
        assert elapsed < 10  # one timeout, not a hang
        assert pool.stats()["timeout"] == 1 and pool.stats()["restarts"] == 1
        assert pool.map(["HANG"], _samples(1))[0].status == "timeout"  # timeouts are retried, not cached
