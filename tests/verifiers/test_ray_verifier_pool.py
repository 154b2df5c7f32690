"""RayVerifierPool: same contract as VerifierPool (skipped when ray is not installed)."""

from __future__ import annotations

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'rlvr[ray]')")

import verifier_pool_helpers  # noqa: E402
from verifier_pool_helpers import hang_on_hang, kill_self_on_die, raise_on_boom  # noqa: E402

from rlvr.types import Sample  # noqa: E402
from rlvr.verifiers.ray_pool import RayVerifierPool  # noqa: E402


@pytest.fixture(scope="module")
def ray_session():
    ray.cloudpickle.register_pickle_by_value(verifier_pool_helpers)  # tests/ is not on the workers' path
    started = not ray.is_initialized()  # another module's session may already hold a local cluster
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    if started:
        ray.shutdown()


def _samples(n, answer="1"):
    return [Sample(id=str(i), prompt="", answer=answer) for i in range(n)]


@pytest.mark.slow
def test_ray_pool_contract(ray_session):
    with RayVerifierPool("exact", workers=2, timeout_s=5.0) as pool:
        completions = ["<answer>1</answer>", "<answer>2</answer>", "<answer>1</answer>", "x"]
        verdicts = pool.map(completions, _samples(4))
        assert [v.status for v in verdicts] == ["ok", "wrong", "ok", "no_answer"]
        assert pool.stats()["cache_hits"] == 1 and pool.stats()["computed"] == 3

    with RayVerifierPool(hang_on_hang, workers=1, timeout_s=1.0) as pool:
        verdicts = pool.map(["a", "hang", "b"], _samples(3))
        assert [v.status for v in verdicts] == ["ok", "timeout", "ok"]
        assert pool.stats()["restarts"] == 1

    with RayVerifierPool(kill_self_on_die, workers=2, timeout_s=10.0) as pool:
        verdicts = pool.map(["a", "die", "b", "c"], _samples(4))
        assert [v.status for v in verdicts] == ["ok", "error", "ok", "ok"]
        assert "died" in verdicts[1].detail

    with RayVerifierPool(raise_on_boom, workers=1, timeout_s=5.0) as pool:
        verdicts = pool.map(["boom", "fine"], _samples(2))
        assert verdicts[0].detail == "RuntimeError: the verifier exploded on purpose"
        assert [v.status for v in verdicts] == ["error", "ok"]


def test_ray_pool_needs_a_worker():
    with pytest.raises(ValueError, match="workers >= 1"):
        RayVerifierPool("exact", workers=0, timeout_s=1.0)
