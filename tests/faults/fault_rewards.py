"""Reward functions broken on purpose, for the run-doctor tests (module level, so the reward
resolves by ``fault_rewards:<name>``). ``train_only`` ones fail only on training rows (sample
ids ``train-*``) and score the held-out rows 0, so the run reaches its first step."""

from __future__ import annotations

import math

from rlvr.types import Sample


def _train(sample: Sample) -> bool:
    return str(sample.id).startswith("train")


def raises_on_train(completion: str, sample: Sample) -> float:
    if _train(sample):
        raise ValueError(f"cannot parse the answer of {sample.id}")
    return 0.0


def nan_on_train(completion: str, sample: Sample) -> float:
    return math.nan if _train(sample) else 0.0


def wrong_length(completions: list[str], **row) -> list[float]:
    """TRL form: two values for one completion."""
    return [1.0, 0.0]


def coin(completion: str, sample: Sample) -> float:
    """0 or 1 by the parity of the completion's characters: rewards that vary within a group."""
    return float(sum(map(ord, completion)) % 2)
