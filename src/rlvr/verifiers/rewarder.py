"""The run's reward: the accuracy verifier plus the weighted format term, through the pool.

``Rewarder(reward_cfg)`` takes the config's ``reward`` section (``verifier``,
``format_weight``, ``format_gated``, ``workers``, ``timeout_s``) and maps completions to
verdicts in input order. It holds worker processes: ``close()`` it (or use ``with``).
The pool's per-item timeout is ``reward.timeout_s`` or, when longer, the verifier's own
limit (a sandboxed code run's wall time plus start-up), so the pool never cuts short a
verification that would have reported which tests passed.
"""

from __future__ import annotations

from rlvr.types import Completion, Sample, Verdict
from rlvr.verifiers.composite import build_reward_fn
from rlvr.verifiers.pool import VerifierPool, own_time_limit


class Rewarder:
    """Completions -> verdicts with the run's reward function."""

    def __init__(self, reward_cfg):
        r = reward_cfg
        spec = build_reward_fn(r.verifier, r.format_weight, r.format_gated)
        self.timeout_s = max(r.timeout_s, own_time_limit([r.verifier]))
        self.pool = VerifierPool(spec, workers=r.workers, timeout_s=self.timeout_s)

    def __call__(self, completions: list[Completion], samples: list[Sample]) -> list[Verdict]:
        return self.pool.map([c.text for c in completions], samples)

    def close(self) -> None:
        self.pool.close()

    def __enter__(self) -> Rewarder:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
