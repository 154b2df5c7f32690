"""Per-token entropy of the policy's next-token distribution, from logits.

H(z) = logsumexp(z) - sum_v softmax(z)_v z_v, computed in float32 from the logits shifted by
their maximum (stable for any logit scale; no log of a probability that underflowed; logits
of -inf, e.g. from a vocabulary mask, contribute exactly 0). ``chunk_size`` processes the
sequence axis in slices so that the float32 copy of the (B, T, V) logits never exists at
once (vocabularies of 150k make that copy the largest tensor of a step); the result is
differentiable, so an entropy bonus (``entropy_coef`` in ``policy_loss``) trains through it.

Adaptive entropy bonus (Skywork-OR1, He et al. 2025; TRL ``use_adaptive_entropy``):
``entropy_bonus_coef(coef, last_entropy, target)`` is the coefficient a step applies (coef
while the previous step's entropy is at or below the target, else 0), and
``next_entropy_coef(coef, entropy, target, delta, lo, hi)`` moves the coefficient by delta
towards more bonus when the entropy is at or below the target and less otherwise, within
[lo, hi]. The caller keeps the state (the coefficient and the last entropy) across steps.

Not here: which positions count (the caller masks with ``loss_mask``), and logits
temperature scaling (the caller divides the logits by the sampling temperature first when
it wants the entropy of the sampling distribution).
"""

from __future__ import annotations

import torch


def _entropy_block(logits: torch.Tensor) -> torch.Tensor:
    z = logits.float()
    z = z - z.amax(dim=-1, keepdim=True).detach()  # shift: exact cancellation for huge logits
    p = torch.softmax(z, dim=-1)  # (B, t, V)
    z_finite = torch.where(torch.isneginf(z), torch.zeros_like(z), z)  # p = 0 there; avoids 0 * -inf
    return torch.logsumexp(z, dim=-1) - (p * z_finite).sum(dim=-1)  # (B, t)


def token_entropy(logits: torch.Tensor, chunk_size: int | None = None) -> torch.Tensor:
    """Entropy (B, T) in nats of logits (B, T, V); ``chunk_size`` slices T to bound memory."""
    if logits.dim() != 3:
        raise ValueError(f"logits must be (B, T, V); got {tuple(logits.shape)}")
    if chunk_size is None or chunk_size >= logits.shape[1]:
        return _entropy_block(logits)
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be >= 1, got {chunk_size}")
    parts = [_entropy_block(logits[:, s : s + chunk_size]) for s in range(0, logits.shape[1], chunk_size)]
    return torch.cat(parts, dim=1)


def entropy_bonus_coef(coef, last_entropy, target):
    """The entropy coefficient this step applies: ``coef`` if last_entropy <= target, else 0."""
    return coef if last_entropy <= target else 0.0


def next_entropy_coef(coef, entropy, target, delta, lo, hi):
    """coef + delta (at most hi) when entropy <= target, else coef - delta (at least lo)."""
    if not lo <= hi:
        raise ValueError(f"entropy_coef_min must be <= entropy_coef_max; got {lo} and {hi}")
    return min(coef + delta, hi) if entropy <= target else max(coef - delta, lo)
