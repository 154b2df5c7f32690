"""Verifiers: pure functions ``(completion, sample, **options) -> Verdict`` and the pool
that runs them.

- ``exact``  normalised string match of the final answer (the built-in arithmetic task)
- ``math``   mathematical equivalence through math-verify, with a plain-number fast path
- ``format`` ``<think>…</think><answer>…</answer>`` ending the completion
- ``code`` / ``proof``  sandboxed tests / proof checking (``code.py``, ``proof.py``),
  registered by name and imported only when used
- ``gym``    reasoning-gym's scorers, with a deny-list of unsafe ones (``gym.py``)
- composites (``make_composite``, ``build_reward_fn``) and ``VerifierPool`` (processes,
  timeouts, cache); ``RayVerifierPool`` in ``ray_pool`` for clusters

This package never imports torch (a test checks it): verifiers run in worker processes
that must start fast and stay small. Importing it is cheap; math-verify and sympy load on
the first math verification.
"""

from __future__ import annotations

from rlvr.verifiers.composite import as_verifier, build_reward_fn, make_composite
from rlvr.verifiers.registry import VERIFIERS, UnknownVerifierError, get_verifier

__all__ = [
    "VERIFIERS",
    "UnknownVerifierError",
    "as_verifier",
    "build_reward_fn",
    "get_verifier",
    "make_composite",
    "VerifierPool",
    "RayVerifierPool",
]


def __getattr__(name: str):  # lazy: the pools import multiprocessing / ray
    if name == "VerifierPool":
        from rlvr.verifiers.pool import VerifierPool

        return VerifierPool
    if name == "RayVerifierPool":
        from rlvr.verifiers.ray_pool import RayVerifierPool

        return RayVerifierPool
    raise AttributeError(f"module 'rlvr.verifiers' has no attribute {name!r}")
