"""Published algorithms as named presets of the independent knobs (grpo, dr_grpo, dapo, rloo,
reinforce, gspo, cispo, reinforce_pp, ppo).

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
    "entropy_target": None,  # None = a fixed entropy_coef; a value = adaptive (Skywork-OR1), TRL's defaults below
    "entropy_coef_delta": 0.005,
    "entropy_coef_min": 0.0,
    "entropy_coef_max": 1.0,
    "top_entropy_frac": None,  # None = every token carries the gradient; Wang et al. 2025 use 0.2
    "cov_mode": "none",  # Clip-Cov / KL-Cov (Cui et al. 2025) off; verl's defaults below
    "cov_frac": 2e-4,
    "clip_cov_lb": 1.0,
    "clip_cov_ub": 5.0,
    "kl_cov_coef": 0.1,
    "dynamic_sampling": False,
    "dynamic_sampling_max_rounds": 4,  # our budget; DAPO does not state one
    "overlong_buffer": 0,
    "overlong_penalty": 1.0,  # DAPO eq. 13: -1 at the limit
    "mask_truncated": False,
    "epochs": 1,  # DeepSeekMath: "a single update following each exploration stage"
    "minibatches": 1,
    "tis_cap": None,  # truncated importance sampling off (sampler == trainer on CPU)
    "mismatch_correction": "off",  # algo.correction: measured every step, corrected only when asked
    "mismatch_cap": 2.0,  # verl's rollout_is_threshold default; TRL's vllm_importance_sampling_clip_max is 3.0
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
    # GSPO (Zheng et al. 2025) sec. 5.1: clip range 3e-4 / 4e-4, each batch of rollouts split into four minibatches,
    # group-normalised advantages, the (1/G) sum_i sequence loss, no KL
    "gspo": {**_COMMON, "advantage": "grpo", "objective": "gspo", "eps_low": 3e-4, "eps_high": 4e-4,
             "loss_agg": "seq_mean_token_mean", "kl_coef": 0.0, "minibatches": 4},
    # CISPO (MiniMax-M1, MiniMax 2025) sec. 3.1: no lower bound on the IS weight (eps_low large: 1 = weight >= 0),
    # only eps_high tuned (the paper gives no value: 4, an upper weight of 5, is ScaleRL's, as TRL and SkyRL), the
    # token-level 1 / sum_i |o_i| normaliser, group-relative advantages, no KL
    "cispo": {**_COMMON, "advantage": "grpo", "objective": "cispo", "eps_low": 1.0, "eps_high": 4.0,
              "loss_agg": "token_mean", "kl_coef": 0.0},
    # REINFORCE++-baseline (Hu et al. 2025): group mean subtracted, then normalised over the whole batch; PPO's
    # clipped surrogate and a token-level loss (OpenRLHF's defaults); no KL (rule-based verifier, as dapo)
    "reinforce_pp": {**_COMMON, "advantage": "reinforce_pp", "objective": "clip", "eps_low": 0.2, "eps_high": 0.2,
                     "loss_agg": "token_mean", "kl_coef": 0.0},
    # PPO (Schulman et al. 2017) with a learned value head and GAE (Schulman et al. 2016)
    "ppo": {**_COMMON, "advantage": "gae", "objective": "clip", "eps_low": 0.2, "eps_high": 0.2,
            "loss_agg": "token_mean", "kl_coef": 0.0, "gae_lambda": 1.0, "gamma": 1.0, "vf_coef": 0.5},
}
