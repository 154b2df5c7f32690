"""VerifierPool: timeouts, dead workers, raising verifiers, cache, order, in-process mode."""

from __future__ import annotations

import time

import pytest
from verifier_pool_helpers import echo_len, hang_on_hang, kill_self_on_die, raise_on_boom, returns_junk

from rlvr.types import Sample, Verdict
from rlvr.verifiers.pool import VerifierPool


def _samples(answers):
    return [Sample(id=str(i), prompt="", answer=str(a)) for i, a in enumerate(answers)]


def test_power_tower_times_out_within_the_limit_and_the_pool_goes_on():
    completions = ["$9^{9^{9^{9^{9}}}}$", "\\boxed{4}", "the answer is $\\frac{1}{2}$"]
    samples = _samples(["7", "4", "0.5"])
    with VerifierPool("math", workers=1, timeout_s=1.5) as pool:
        pool.map(["\\boxed{1}"], _samples(["1"]))  # worker warm
        start = time.monotonic()
        verdicts = pool.map(completions, samples)
        elapsed = time.monotonic() - start
        stats = pool.stats()
    assert [v.status for v in verdicts] == ["timeout", "ok", "ok"]
    assert verdicts[0].reward == 0.0 and "1.5 s" in verdicts[0].detail
    assert elapsed < 1.5 + 2.0  # the limit plus a worker restart, never a hang
    assert stats["timeout"] == 1 and stats["restarts"] == 1


def test_long_pathological_completion_returns_within_the_limit():
    completion = "\\boxed{" * 50000  # 350k characters; math-verify's regexes take seconds
    with VerifierPool("math", workers=1, timeout_s=1.0) as pool:
        start = time.monotonic()
        verdict = pool.map([completion], _samples(["5"]))[0]
        assert time.monotonic() - start < 1.0 + 2.0
    assert verdict.status in ("timeout", "no_answer")
    assert verdict.reward == 0.0


def test_worker_killed_mid_batch_gives_error_for_its_item_only():
    completions = ["a", "b", "c", "die", "d", "e", "f", "g"]
    with VerifierPool(kill_self_on_die, workers=2, timeout_s=5.0, chunk_size=2) as pool:
        verdicts = pool.map(completions, _samples([1] * 8))
        stats = pool.stats()
        again = pool.map(["h"], _samples([1]))  # the restarted worker serves the next batch
    assert [v.status for v in verdicts] == ["ok", "ok", "ok", "error", "ok", "ok", "ok", "ok"]
    assert "died" in verdicts[3].detail and "-9" in verdicts[3].detail
    assert stats["error"] == 1 and stats["restarts"] == 1 and stats["ok"] == 7
    assert again[0].status == "ok"


def test_raising_verifier_is_an_error_with_the_message_not_a_wrong():
    with VerifierPool(raise_on_boom, workers=1, timeout_s=5.0) as pool:
        verdicts = pool.map(["fine", "boom", "fine too"], _samples([1, 1, 1]))
        stats = pool.stats()
    assert [v.status for v in verdicts] == ["ok", "error", "ok"]
    assert verdicts[1].reward == 0.0
    assert verdicts[1].detail == "RuntimeError: the verifier exploded on purpose"
    assert stats["error"] == 1 and stats["restarts"] == 0


def test_results_in_order_cache_hits_and_dedupe():
    # sleeps make later items finish first on the other worker
    completions = ["sleep=0.3", "x", "sleep=0.2 ", "yy", "x", "zzz"]
    answers = [9, 1, 10, 2, 1, 0]
    with VerifierPool(echo_len, workers=2, timeout_s=5.0, chunk_size=1) as pool:
        first = pool.map(completions, _samples(answers))
        after_first = pool.stats()
        second = pool.map(completions, _samples(answers))
        after_second = pool.stats()
    assert [v.detail for v in first] == ["len=9", "len=1", "len=10", "len=2", "len=1", "len=3"]
    assert [v.status for v in first] == ["ok", "ok", "ok", "ok", "ok", "wrong"]
    assert first[0].info == {"n": 9.0}
    assert second == first
    assert after_first["computed"] == 5 and after_first["cache_hits"] == 1  # "x" twice
    assert after_second["computed"] == 5 and after_second["cache_hits"] == 7
    assert after_second["calls"] == 12 and after_second["ok"] == 10 and after_second["wrong"] == 2
    with pytest.raises(RuntimeError, match="closed"):
        pool.map(["new"], _samples([3]))


def test_cache_key_includes_the_reference():
    with VerifierPool("exact", workers=0, timeout_s=1.0) as pool:
        verdicts = pool.map(["<answer>3</answer>"] * 2, _samples(["3", "4"]))
        assert pool.stats()["cache_hits"] == 0
    assert [v.status for v in verdicts] == ["ok", "wrong"]


def test_hung_custom_verifier_is_killed_and_the_rest_of_its_chunk_completes():
    completions = ["a", "hang", "b", "c"]
    with VerifierPool(hang_on_hang, workers=1, timeout_s=0.5, chunk_size=4) as pool:
        verdicts = pool.map(completions, _samples([1] * 4))
    assert [v.status for v in verdicts] == ["ok", "timeout", "ok", "ok"]
    assert [v.detail for v in verdicts[2:]] == ["b", "c"]


def test_in_process_mode_counts_errors_and_junk_returns():
    with VerifierPool(returns_junk, workers=0, timeout_s=1.0) as pool:
        verdict = pool.map(["a"], _samples([1]))[0]
    assert verdict == Verdict(0.0, "error", "verifier returned float, not a Verdict")
    with VerifierPool(raise_on_boom, workers=0, timeout_s=1.0) as pool:
        assert pool.map(["boom"], _samples([1]))[0].status == "error"
        assert pool.stats()["error"] == 1


def test_bad_arguments():
    with pytest.raises(ValueError, match="workers"):
        VerifierPool("exact", workers=-1, timeout_s=1.0)
    with pytest.raises(ValueError, match="timeout_s"):
        VerifierPool("exact", workers=0, timeout_s=0)
    with VerifierPool("exact", workers=0, timeout_s=1.0) as pool:
        with pytest.raises(ValueError, match="2 completions but 1 samples"):
            pool.map(["a", "b"], _samples([1]))


def test_spawn_context_works_too():
    with VerifierPool("exact", workers=1, timeout_s=30.0, context="spawn") as pool:
        verdicts = pool.map(["<answer>1</answer>", "<answer>2</answer>"], _samples([1, 1]))
    assert [v.status for v in verdicts] == ["ok", "wrong"]


def test_unpicklable_verifier_fails_at_construction():
    with pytest.raises(Exception, match="pickle|Can't"):
        VerifierPool(lambda completion, sample: Verdict(1.0, "ok"), workers=1, timeout_s=1.0)
