"""Published algorithms as named presets of the independent knobs.

Pure data (no torch): ``rlvr.config`` fills every algorithm knob the user left unset
from ``PRESETS[algo.name]``, and ``rlvr.algo.policy_loss(algorithm=...)`` uses the same
values as its defaults. docs/algorithms.md traces each value to its paper and says where
a value departs from it (the demo's 32-token completions and 128-completion batches).
"""

from __future__ import annotations

_COMMON = {
    "std": "population",  # divide the variance by G; "unbiased" = G - 1 (TRL/verl's torch.std)
    "adv_eps": 1e-6,  # (r - mean) / (std + eps)
    "adv_scope": "group",
    "reinforce_baseline": "none",
    "dual_clip": None,  # Ye et al. 2020; off in every preset
    "max_len": None,  # None = rollout.max_new_tokens (resolved by the caller)
    "kl_estimator": "k3",  # Schulman's estimator, DeepSeekMath eq. 4
    "kl_placement": "loss",
    "ref_update_every": 0,  # fixed reference
    "entropy_coef": 0.0,  # entropy logged, not trained on
    "dynamic_sampling": False,
    "dynamic_sampling_max_rounds": 4,  # our budget; DAPO does not state one
    "overlong_buffer": 0,
    "overlong_penalty": 1.0,  # DAPO eq. 13: -1 at the limit
    "mask_truncated": False,
    "epochs": 1,  # DeepSeekMath: "a single update following each exploration stage"
    "minibatches": 1,
    "tis_cap": None,  # truncated importance sampling off (sampler == trainer on CPU)
    "vf_coef": 0.5,
    "gae_lambda": 1.0,
    "gamma": 1.0,
    "value_clip": None,
}

PRESETS: dict[str, dict] = {
    # DeepSeekMath (Shao et al. 2024) sec. 4.1: group mean/std advantages, 1/|o_i| token mean,
    # beta 0.04 k3 KL in the loss
    "grpo": {**_COMMON, "advantage": "grpo", "objective": "clip", "eps_low": 0.2, "eps_high": 0.2,
             "loss_agg": "seq_mean_token_mean", "kl_coef": 0.04},
    # Dr. GRPO (Liu et al. 2025): no std, no 1/|o_i| (constant normaliser), no KL
    "dr_grpo": {**_COMMON, "advantage": "dr_grpo", "objective": "clip", "eps_low": 0.2, "eps_high": 0.2,
                "loss_agg": "seq_mean_token_sum_norm", "kl_coef": 0.0},
    # DAPO (Yu et al. 2025): clip-higher 0.2/0.28, token-level loss, dynamic sampling, soft overlong punishment, no KL.
    # overlong_buffer 4 of the demo's 32 new tokens (paper: 4096 of 20480; see docs/algorithms.md)
    "dapo": {**_COMMON, "advantage": "grpo", "objective": "clip", "eps_low": 0.2, "eps_high": 0.28,
             "loss_agg": "token_mean", "kl_coef": 0.0, "dynamic_sampling": True, "overlong_buffer": 4,
             "overlong_penalty": 1.0},
    # RLOO (Ahmadian et al. 2024): leave-one-out baseline; the whole completion is one action (summed token log-probs)
    "rloo": {**_COMMON, "advantage": "rloo", "objective": "clip", "eps_low": 0.2, "eps_high": 0.2,
             "loss_agg": "seq_mean_token_sum_norm", "kl_coef": 0.0},
    # REINFORCE (Williams 1992) with a batch-mean baseline, no ratio; sequence-level like RLOO
    "reinforce": {**_COMMON, "advantage": "reinforce", "reinforce_baseline": "batch_mean", "objective": "pg",
                  "eps_low": 0.2, "eps_high": 0.2, "loss_agg": "seq_mean_token_sum_norm", "kl_coef": 0.0},
    # PPO (Schulman et al. 2017) with a learned value head and GAE (Schulman et al. 2016)
    "ppo": {**_COMMON, "advantage": "gae", "objective": "clip", "eps_low": 0.2, "eps_high": 0.2,
            "loss_agg": "token_mean", "kl_coef": 0.0, "gae_lambda": 1.0, "gamma": 1.0, "vf_coef": 0.5},
}
