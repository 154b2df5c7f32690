"""Off-policy correction when the sampler is not the trainer: truncated importance weights.

Three policies meet when generation runs in another engine (vLLM) or lags behind (async):
mu, the behaviour policy that sampled the tokens (``sampler_logp``); pi_old, the trainer's
policy at the start of the step, the proximal policy of the clip (``old_logp``); pi, the
policy being optimised (``logp``). The decoupled PPO objective (Hilton et al. 2021,
"Batch size-invariance for policy optimization"; used by AReaL, Fu et al. 2025, eq. 5)
clips the ratio pi/pi_old and multiplies each token's loss by the behaviour weight
pi_old/mu. Truncating that weight at a cap C (truncated importance sampling, "TIS": Yao et
al. 2025, "Your Efficient RL Framework Secretly Brings You Off-Policy RL Training", C = 2)
bounds its variance:

    w_t = min(exp(old_logp_t - sampler_logp_t), C)     (detached)
    loss_t = w_t * (policy-gradient loss_t)

Only the policy-gradient term is weighted; the KL and entropy terms are not. The weight is
applied by ``policy_loss`` when ``sampler_logp`` is given and ``tis_cap`` is set.
Not here: sequence-level or geometric-mean weights, masking (rather than truncating)
tokens with extreme weights.
"""

from __future__ import annotations

import torch


def truncated_is_weight(old_logp: torch.Tensor, sampler_logp: torch.Tensor,
                        cap: float) -> tuple[torch.Tensor, torch.Tensor]:
    """(weight (B, T) = min(pi_old/mu, cap), capped (B, T) bool = raw weight > cap); both detached."""
    if old_logp.shape != sampler_logp.shape:
        raise ValueError(f"old_logp and sampler_logp must have the same shape; got {tuple(old_logp.shape)}"
                         f" and {tuple(sampler_logp.shape)}")
    if cap <= 0:
        raise ValueError(f"tis_cap must be > 0 (e.g. 2.0), got {cap}")
    raw = torch.exp(old_logp.detach().float() - sampler_logp.detach().float())  # (B, T)
    return raw.clamp(max=cap), raw > cap
