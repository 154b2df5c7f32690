"""rlvr.algo: the pure math of RL from verifiable rewards, on tensors.

An algorithm is a choice on independent axes, each a plain dict of name -> function:
advantage estimator (``advantages.ADVANTAGE_ESTIMATORS``) x policy objective
(``objectives.OBJECTIVES``) x loss aggregation (``aggregation.LOSS_AGGREGATIONS``) x KL
estimator (``kl.KL_ESTIMATORS``) and placement x sample filter (``sampling``) x reward
shaping (``shaping``) x entropy control (``entropy``: fixed or adaptive bonus; ``selection``:
Clip-Cov, KL-Cov, top-entropy tokens). GRPO, Dr. GRPO, DAPO, RLOO, REINFORCE, GSPO, CISPO,
REINFORCE++-baseline and PPO are named presets of those axes (``presets.PRESETS``);
``compat.check_knobs`` refuses the combinations the math does not define;
docs/algorithms.md traces every value to its paper.

The public functional API::

    group_advantages(rewards, group_ids, estimator="grpo", *, std=..., eps=..., scope=..., baseline=...)
    policy_loss(logp, old_logp, advantages, loss_mask, *, algorithm="grpo", ref_logp=None,
                entropy=None, sampler_logp=None, normalizer=None, **knobs) -> (loss, stats)
    loss_normalizer(loss_mask, loss_agg, max_len=None)   # the caller sums it over micro-batches/ranks
    kl_penalty, fold_kl_into_rewards, token_entropy, overlong_penalty, drop_truncated,
    mixed_groups, DynamicSampler, gae_advantages, value_loss, truncated_is_weight

What this package deliberately does not do: no torch.distributed, no config objects, no
logging, no ``.item()``. Every normaliser that depends on world size, micro-batching or a
global token count is computed by the caller and passed in.

Names are imported lazily (PEP 562) so that ``import rlvr.algo.presets`` (pure data, read by
``rlvr.config``) does not import torch.
"""

from __future__ import annotations

import importlib

# public name -> submodule that defines it
_EXPORTS = {
    "group_advantages": "advantages",
    "ADVANTAGE_ESTIMATORS": "advantages",
    "policy_loss": "objectives",
    "resolve_knobs": "objectives",
    "clip_objective": "objectives",
    "pg_objective": "objectives",
    "OBJECTIVES": "objectives",
    "aggregate": "aggregation",
    "loss_normalizer": "aggregation",
    "masked_mean": "aggregation",
    "LOSS_AGGREGATIONS": "aggregation",
    "kl_penalty": "kl",
    "fold_kl_into_rewards": "kl",
    "KL_ESTIMATORS": "kl",
    "token_entropy": "entropy",
    "entropy_bonus_coef": "entropy",
    "next_entropy_coef": "entropy",
    "top_entropy_mask": "selection",
    "clip_cov_mask": "selection",
    "kl_cov_mask": "selection",
    "token_covariance": "selection",
    "check_knobs": "compat",
    "overlong_penalty": "shaping",
    "drop_truncated": "shaping",
    "mixed_groups": "sampling",
    "mixed_sample_mask": "sampling",
    "DynamicSampler": "sampling",
    "SamplingReport": "sampling",
    "gae_advantages": "value",
    "value_loss": "value",
    "terminal_token_rewards": "value",
    "masked_whiten": "value",
    "truncated_is_weight": "offpolicy",
    "PRESETS": "presets",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module_name}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
