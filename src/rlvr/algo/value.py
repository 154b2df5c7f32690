"""PPO with a learned critic: token rewards, GAE advantages and the (clipped) value loss.

- ``terminal_token_rewards(rewards, loss_mask)`` puts each sequence's scalar reward on its
  last loss token (outcome reward), giving (B, T) token rewards.
- ``gae_advantages(token_rewards, values, mask, gamma, lam)`` -> (advantages, returns),
  generalized advantage estimation (Schulman et al. 2016, eq. 16):
  delta_t = r_t + gamma V_{t+1} - V_t,  A_t = delta_t + gamma lam A_{t+1},  R_t = A_t + V_t.
  Positions with mask False are skipped, not treated as steps: the recursion carries the
  next value and advantage across them (tool-output tokens in the middle of a completion),
  and their advantage and return are 0. Token rewards on masked positions are ignored.
  The value after the last loss token is 0 (the episode ends).
- ``masked_whiten(x, mask)``: PPO's advantage whitening, with statistics of THIS batch.
- ``value_loss(values, old_values, returns, mask, clip, normalizer)`` -> (loss, stats):
  1/2 (V - R)^2 per token, or with ``clip`` PPO2's pessimistic clipped form
  1/2 max((V - R)^2, (V_old + clip(V - V_old, -clip, clip) - R)^2), token-mean aggregated
  over ``normalizer`` loss tokens (None = this batch's count). The caller multiplies it by
  ``vf_coef``.

Not here: the value head module and its forward pass (the trainer's), whitening statistics
across ranks (whiten with global statistics in the caller when that matters).
"""

from __future__ import annotations

import torch

from rlvr.algo.aggregation import aggregate, masked_mean


def _check_bt(*tensors: torch.Tensor) -> None:
    shape = tensors[0].shape
    if len(shape) != 2 or any(t.shape != shape for t in tensors):
        raise ValueError(f"expected (B, T) tensors of one shape; got {[tuple(t.shape) for t in tensors]}")


def terminal_token_rewards(rewards: torch.Tensor, loss_mask: torch.Tensor) -> torch.Tensor:
    """(B, T) zeros with rewards (B,) placed on each row's last loss token (rows without one stay 0)."""
    mask = loss_mask.bool()
    T = mask.shape[-1]
    last = (T - 1) - torch.flip(mask, dims=[-1]).long().argmax(dim=-1)  # (B,)
    out = torch.zeros(mask.shape, dtype=torch.float32, device=mask.device)
    out.scatter_(1, last.unsqueeze(-1), rewards.detach().float().unsqueeze(-1))
    return torch.where(mask, out, torch.zeros_like(out))


def gae_advantages(
    token_rewards: torch.Tensor, values: torch.Tensor, mask: torch.Tensor, gamma: float, lam: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """(advantages (B, T), returns (B, T)) by GAE over the loss positions; detached."""
    _check_bt(token_rewards, values, mask)
    m = mask.bool()
    r = token_rewards.detach().float()
    v = values.detach().float()
    B, T = v.shape
    adv = torch.zeros(B, T, dtype=torch.float32, device=v.device)
    next_value = v.new_zeros(B)  # V_{t+1}
    next_adv = v.new_zeros(B)  # A_{t+1}
    for t in reversed(range(T)):
        delta = r[:, t] + gamma * next_value - v[:, t]
        a_t = delta + gamma * lam * next_adv
        on = m[:, t]
        adv[:, t] = torch.where(on, a_t, torch.zeros_like(a_t))
        next_adv = torch.where(on, a_t, next_adv)
        next_value = torch.where(on, v[:, t], next_value)
    returns = torch.where(m, adv + v, torch.zeros_like(adv))
    return adv, returns


def masked_whiten(x: torch.Tensor, mask: torch.Tensor, shift_mean: bool = True, eps: float = 1e-8) -> torch.Tensor:
    """(x - mean) / std over mask positions (population std); masked positions become 0."""
    m = mask.bool()
    mean = masked_mean(x, m)
    var = masked_mean((x - mean) ** 2, m)
    out = (x - mean) * torch.rsqrt(var + eps)
    if not shift_mean:
        out = out + mean
    return torch.where(m, out, torch.zeros_like(out))


def value_loss(
    values: torch.Tensor,
    old_values: torch.Tensor,
    returns: torch.Tensor,
    mask: torch.Tensor,
    clip: float | None = None,
    normalizer: torch.Tensor | float | None = None,
) -> tuple[torch.Tensor, dict]:
    """(scalar value loss, stats) with stats vf_loss, vf_clip_frac, value_mean, return_mean (0-d, detached)."""
    _check_bt(values, old_values, returns, mask)
    m = mask.bool()
    zero = torch.zeros((), dtype=torch.float32, device=values.device)
    v = torch.where(m, values.float(), zero)
    old = torch.where(m, old_values.detach().float(), zero)
    ret = torch.where(m, returns.detach().float(), zero)
    err = (v - ret) ** 2  # (B, T)
    clipped_frac = zero
    if clip is not None:
        v_clip = old + (v - old).clamp(-clip, clip)
        err_clip = (v_clip - ret) ** 2
        clipped_frac = masked_mean((err_clip > err).float(), m)
        err = torch.maximum(err, err_clip)
    loss = aggregate(0.5 * err, m, "token_mean", normalizer=normalizer)
    stats = {
        "vf_loss": masked_mean(0.5 * err.detach(), m),
        "vf_clip_frac": clipped_frac,
        "value_mean": masked_mean(v.detach(), m),
        "return_mean": masked_mean(ret, m),
    }
    return loss, stats
