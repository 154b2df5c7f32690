"""KL divergence to the reference policy, per token, and its two placements.

Estimators (dict ``KL_ESTIMATORS``) of KL(pi || pi_ref) from tokens sampled from pi, with
d = log pi_ref - log pi (Schulman, "Approximating KL Divergence", 2020):

- ``k1`` = log pi - log pi_ref = -d             (unbiased, high variance, can be negative)
- ``k2`` = 1/2 (log pi - log pi_ref)^2 = d^2/2  (biased, low variance, >= 0)
- ``k3`` = exp(d) - d - 1                        (unbiased, low variance, >= 0; the one
  DeepSeekMath eq. 4 uses in the GRPO loss)

Placement:
- in the loss: ``policy_loss`` adds ``kl_coef * k(logp, ref_logp)`` to every token's loss
  (GRPO), with the gradient flowing through ``logp``;
- in the reward (InstructGPT/PPO-RLHF style): the caller computes
  ``kl_tok = kl_penalty(logp, ref_logp, estimator)`` with the rollout-time log-probs, then
  ``rewards = fold_kl_into_rewards(rewards, kl_tok, loss_mask, kl_coef)``, i.e. subtracts
  kl_coef x the per-sequence sum of the KL over loss tokens from each reward, *before*
  computing advantages. No gradient flows through a reward-side KL.

Departure from verl: the k3 estimator is not clamped (verl clips it to [-10, 10]); a
reference that drifts that far is a bug worth seeing.
"""

from __future__ import annotations

import torch


def _k1(logp: torch.Tensor, ref_logp: torch.Tensor) -> torch.Tensor:
    return logp - ref_logp


def _k2(logp: torch.Tensor, ref_logp: torch.Tensor) -> torch.Tensor:
    return 0.5 * (logp - ref_logp) ** 2


def _k3(logp: torch.Tensor, ref_logp: torch.Tensor) -> torch.Tensor:
    d = ref_logp - logp
    return torch.exp(d) - d - 1.0


KL_ESTIMATORS = {"k1": _k1, "k2": _k2, "k3": _k3}
KL_PLACEMENTS = ("loss", "reward")


def kl_penalty(logp: torch.Tensor, ref_logp: torch.Tensor, estimator: str = "k3") -> torch.Tensor:
    """Per-token KL estimate (B, T) between the policy and the reference (differentiable in logp)."""
    if estimator not in KL_ESTIMATORS:
        raise ValueError(f"unknown KL estimator {estimator!r}; valid: {', '.join(KL_ESTIMATORS)}")
    if logp.shape != ref_logp.shape:
        raise ValueError(f"logp and ref_logp must have the same shape; got {tuple(logp.shape)}"
                         f" and {tuple(ref_logp.shape)}")
    return KL_ESTIMATORS[estimator](logp, ref_logp.detach())


def fold_kl_into_rewards(
    rewards: torch.Tensor, kl_tok: torch.Tensor, loss_mask: torch.Tensor, coef: float
) -> torch.Tensor:
    """rewards (B,) - coef * sum_t kl_tok (B, T) over loss tokens; no gradient (KL in the reward)."""
    if kl_tok.shape != loss_mask.shape or rewards.shape != kl_tok.shape[:1]:
        raise ValueError(f"need rewards (B,), kl_tok (B, T), loss_mask (B, T); got {tuple(rewards.shape)}, "
                         f"{tuple(kl_tok.shape)}, {tuple(loss_mask.shape)}")
    kl = kl_tok.detach()
    per_seq = torch.where(loss_mask.bool(), kl, torch.zeros_like(kl)).sum(dim=-1)  # (B,)
    return rewards - coef * per_seq.to(rewards.dtype)
