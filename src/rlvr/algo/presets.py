"""Published algorithms as named presets of the independent knobs.

Pure data (no torch): ``rlvr.config`` fills every algorithm knob the user left unset
from ``PRESETS[algo.name]``. docs/algorithms.md traces each value to its paper.
"""

from __future__ import annotations

_COMMON = {
    "std": "population",
    "adv_eps": 1e-6,
    "adv_scope": "group",
    "reinforce_baseline": "none",
    "dual_clip": None,
    "max_len": None,
    "kl_estimator": "k3",
    "kl_placement": "loss",
    "ref_update_every": 0,
    "entropy_coef": 0.0,
    "dynamic_sampling": False,
    "dynamic_sampling_max_rounds": 4,
    "overlong_buffer": 0,
    "overlong_penalty": 1.0,
    "mask_truncated": False,
    "epochs": 1,
    "minibatches": 1,
    "tis_cap": None,
    "vf_coef": 0.5,
    "gae_lambda": 1.0,
    "gamma": 1.0,
    "value_clip": None,
}

PRESETS: dict[str, dict] = {
    "grpo": {**_COMMON, "advantage": "grpo", "objective": "clip", "eps_low": 0.2, "eps_high": 0.2,
             "loss_agg": "seq_mean_token_mean", "kl_coef": 0.04},
    "dr_grpo": {**_COMMON, "advantage": "dr_grpo", "objective": "clip", "eps_low": 0.2, "eps_high": 0.2,
                "loss_agg": "seq_mean_token_sum_norm", "kl_coef": 0.0},
    "dapo": {**_COMMON, "advantage": "grpo", "objective": "clip", "eps_low": 0.2, "eps_high": 0.28,
             "loss_agg": "token_mean", "kl_coef": 0.0, "dynamic_sampling": True, "overlong_buffer": 4,
             "overlong_penalty": 1.0},
    "rloo": {**_COMMON, "advantage": "rloo", "objective": "clip", "eps_low": 0.2, "eps_high": 0.2,
             "loss_agg": "seq_mean_token_mean", "kl_coef": 0.0},
    "reinforce": {**_COMMON, "advantage": "reinforce", "reinforce_baseline": "batch_mean", "objective": "pg",
                  "eps_low": 0.2, "eps_high": 0.2, "loss_agg": "seq_mean_token_mean", "kl_coef": 0.0},
    "ppo": {**_COMMON, "advantage": "gae", "objective": "clip", "eps_low": 0.2, "eps_high": 0.2,
            "loss_agg": "token_mean", "kl_coef": 0.0, "gae_lambda": 0.95, "gamma": 1.0, "vf_coef": 0.5},
}
