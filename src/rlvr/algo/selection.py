"""Token selection for entropy control: which loss tokens a method treats differently.

All three are computed per call (per micro-batch), from detached values, and return a
(B, T) bool mask that is False at every masked position:

- ``top_entropy_mask(entropy, mask, frac)``: "Beyond the 80/20 Rule" (Wang et al. 2025):
  the tokens whose entropy is at or above the (1 - frac) quantile of this call's loss-token
  entropies (linear interpolation, as ``torch.quantile``; TRL's ``get_high_entropy_mask``).
  Only they keep the policy gradient; the paper's frac is 0.2.
- ``clip_cov_mask(cov, mask, excluded, frac, lb, ub, generator)``: Clip-Cov (Cui et al. 2025,
  "The Entropy Mechanism of Reinforcement Learning for Reasoning Language Models"): among
  the tokens with lb < cov < ub not already clipped by the objective, max(floor(frac x loss
  tokens), 1) chosen uniformly at random (all of them when fewer); their policy-gradient
  loss is then detached (multiplied by 0). verl / SkyRL ``compute_policy_loss_clip_cov``.
- ``kl_cov_mask(cov, mask, frac)``: KL-Cov (same paper): the max(floor(frac x loss tokens), 1)
  tokens of largest covariance; they get a penalty coef x |logp - old_logp|. verl / SkyRL
  ``compute_policy_loss_kl_cov``.

``token_covariance(logp, adv, mask)`` = (A_t - mean A) (logp_t - mean logp), the means over
this call's loss tokens: each token's term of the covariance between log-probability and
advantage, whose sign and size Cui et al. tie to the change of entropy.

No ``.item()`` and no host synchronisation: counts stay tensors, ranks come from sorting.
"""

from __future__ import annotations

import torch


def _masked_mean(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return torch.where(mask, x, torch.zeros_like(x)).sum() / mask.sum().clamp(min=1)


def token_covariance(logp: torch.Tensor, adv: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """(B, T) centred products of advantage and log-prob over the loss tokens; 0 elsewhere (detached)."""
    lp, a = logp.detach().float(), adv.detach().float()
    cov = (a - _masked_mean(a, mask)) * (lp - _masked_mean(lp, mask))
    return torch.where(mask, cov, torch.zeros_like(cov))


def _ranks(keys: torch.Tensor, descending: bool) -> torch.Tensor:
    """Rank (0 = first) of every element of ``keys`` in the flattened order; ties by position."""
    flat = keys.flatten()
    order = torch.argsort(flat, descending=descending, stable=True)
    ranks = torch.empty_like(order)
    ranks[order] = torch.arange(flat.numel(), device=flat.device)
    return ranks.view(keys.shape)


def _count(mask: torch.Tensor, frac: float) -> torch.Tensor:
    """max(floor(frac x loss tokens), 1), a 0-d tensor (verl: ``max(int(ratio * n), 1)``)."""
    return torch.floor(mask.sum().float() * frac).clamp(min=1)


def top_entropy_mask(entropy: torch.Tensor, mask: torch.Tensor, frac: float) -> torch.Tensor:
    """Loss tokens with entropy >= the (1 - frac) quantile of this call's loss-token entropies."""
    if not 0 < frac <= 1:
        raise ValueError(f"top_entropy_frac must be in (0, 1], got {frac}")
    ent = entropy.detach().float()
    xs = torch.where(mask, ent, torch.full_like(ent, float("inf"))).flatten().sort().values  # valid first
    n = mask.sum()
    pos = (n - 1).clamp(min=0).float() * (1.0 - frac)
    lo, hi = pos.floor().long(), pos.ceil().long()
    a, b = xs[lo], xs[hi]
    threshold = torch.where(hi > lo, a + (b - a) * (pos - lo.float()), a)
    return mask & (ent >= threshold)


def clip_cov_mask(cov: torch.Tensor, mask: torch.Tensor, excluded: torch.Tensor, frac: float, lb: float, ub: float,
                  generator: torch.Generator | None = None) -> torch.Tensor:
    """Clip-Cov: up to max(floor(frac n), 1) random tokens with lb < cov < ub, not ``excluded``."""
    candidates = mask & ~excluded & (cov > lb) & (cov < ub)
    gen_device = generator.device if generator is not None else torch.device("cpu")
    u = torch.rand(cov.shape, generator=generator, device=gen_device).to(cov.device)
    keys = torch.where(candidates, u, torch.full_like(u, 2.0))  # candidates sort first, in random order
    return candidates & (_ranks(keys, descending=False) < _count(mask, frac))


def kl_cov_mask(cov: torch.Tensor, mask: torch.Tensor, frac: float) -> torch.Tensor:
    """KL-Cov: the max(floor(frac n), 1) loss tokens of largest covariance."""
    keys = torch.where(mask, cov, torch.full_like(cov, float("-inf")))
    return mask & (_ranks(keys, descending=True) < _count(mask, frac))
