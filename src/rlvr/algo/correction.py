"""The sampler-trainer mismatch: measured, and corrected by truncation or sequence masking.

The sampler's log-probability of each sampled token (mu, ``sampler_logp``) and the trainer's
(pi, ``trainer_logp``: the policy at the start of the step, as the trainer computes it) differ
when the two run other kernels or precisions (bf16 autocast, vLLM) or other weights (async
staleness). With d_t = log pi_t - log mu_t and the per-token ratio rho_t = exp(d_t):

Measured (``mismatch_stats``; over loss tokens, ``cap`` = C):
    abs_mean   mean |d_t|          abs_max   max |d_t|
    kl_k3      mean (rho_t - 1 - d_t): Schulman's k3 estimator of KL(mu || pi) from tokens
               sampled by mu (verl's ``rollout_corr/k3_kl``)
    frac_out   share of tokens with rho_t outside [1/C, C]
    seq_out    share of sequences whose geometric-mean ratio exp(mean_t d_t) is outside [1/C, C]

Corrected (``correction_weight``; the weight multiplies each token's policy-gradient loss and
is detached; the KL and entropy terms are not weighted):
    off        w_t = 1
    token      w_t = min(rho_t, C): truncated importance sampling (Yao et al. 2025, "Your
               Efficient RL Framework Secretly Brings You Off-Policy RL Training"). The same as
               TRL's ``vllm_importance_sampling_mode="token_truncate"`` with
               ``vllm_importance_sampling_clip_max=C`` and no lower clip, verl's
               ``rollout_is="token"`` with ``rollout_is_threshold=C``, and slime's TIS with
               ``tis_clip=C``, ``tis_clip_low=0``.
    sequence   w_t = 1 if 1/C <= exp(mean_t d_t) <= C, else 0 for every token of the sequence:
               sequence-level rejection by the geometric-mean ratio (verl's
               ``rollout_rs="seq_mean_k1"`` with threshold C, whose lower bound defaults to
               1/C; slime's ``rs_level="geometric"`` masking). A dropped sequence still counts
               in the loss normaliser (as TRL's ``sequence_mask`` multiplies the per-token loss
               by 0): the kept sequences' gradient is not rescaled. TRL's ``sequence_mask``
               thresholds the product of the ratios instead (exp(sum_t d_t)), which leaves the
               band for long sequences at a per-token mismatch the geometric mean tolerates,
               and keeps that product as the weight; here a kept sequence has weight 1.

Log-ratios are clamped to +-20 before exponentiating (verl's and slime's ``SAFETY_BOUND``).
Pure tensor math: (B, T) tensors in, (B, T) or 0-d tensors out; no ``.item()``.
"""

from __future__ import annotations

import math

import torch

MODES = ("off", "token", "sequence")
SAFETY_BOUND = 20.0


def _check(trainer_logp: torch.Tensor, sampler_logp: torch.Tensor, mask: torch.Tensor, cap: float) -> None:
    if trainer_logp.shape != sampler_logp.shape or trainer_logp.shape != mask.shape:
        raise ValueError(f"trainer_logp, sampler_logp and mask must have one (B, T) shape; got "
                         f"{tuple(trainer_logp.shape)}, {tuple(sampler_logp.shape)}, {tuple(mask.shape)}")
    if not cap > 1:
        raise ValueError(f"the mismatch cap C must be > 1 (the band is [1/C, C]), got {cap}")


def log_ratio(trainer_logp: torch.Tensor, sampler_logp: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """d = log pi - log mu at loss tokens, 0 elsewhere, detached float32, clamped to +-SAFETY_BOUND. (B, T)"""
    d = (trainer_logp.detach().float() - sampler_logp.detach().float()).clamp(-SAFETY_BOUND, SAFETY_BOUND)
    return torch.where(mask.bool(), d, torch.zeros_like(d))


def sequence_log_ratio(d: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """mean_t d_t over each sequence's loss tokens (the log of the geometric-mean ratio); 0 for
    a sequence without loss tokens. (B,)"""
    m = mask.float()
    return d.sum(-1) / m.sum(-1).clamp(min=1.0)


def mismatch_stats(trainer_logp: torch.Tensor, sampler_logp: torch.Tensor, mask: torch.Tensor,
                   cap: float) -> dict[str, torch.Tensor]:
    """abs_mean, abs_max, kl_k3, frac_out, seq_out (module docstring) as 0-d tensors, plus
    ``tokens`` and ``seqs`` (how many loss tokens and sequences with one, for weighting)."""
    _check(trainer_logp, sampler_logp, mask, cap)
    m = mask.bool()
    d = log_ratio(trainer_logp, sampler_logp, m)
    n = m.sum().float()
    denom = n.clamp(min=1.0)
    band = math.log(cap)
    has = m.any(-1)
    seq_d = sequence_log_ratio(d, m)
    return {
        "abs_mean": d.abs().sum() / denom,
        "abs_max": d.abs().amax() if d.numel() else d.new_zeros(()),
        "kl_k3": torch.where(m, torch.expm1(d) - d, torch.zeros_like(d)).sum() / denom,
        "frac_out": ((d.abs() > band) & m).float().sum() / denom,
        "seq_out": ((seq_d.abs() > band) & has).float().sum() / has.sum().float().clamp(min=1.0),
        "tokens": n,
        "seqs": has.sum().float(),
    }


def correction_weight(trainer_logp: torch.Tensor, sampler_logp: torch.Tensor, mask: torch.Tensor, mode: str,
                      cap: float) -> tuple[torch.Tensor, torch.Tensor]:
    """(weight (B, T) >= 0, detached; changed (B, T) bool: the loss tokens whose weight the
    correction changed: capped in ``token`` mode, dropped in ``sequence`` mode)."""
    if mode not in MODES:
        raise ValueError(f"unknown mismatch correction {mode!r}; valid: {', '.join(MODES)}")
    _check(trainer_logp, sampler_logp, mask, cap)
    m = mask.bool()
    d = log_ratio(trainer_logp, sampler_logp, m)
    if mode == "off":
        return torch.ones_like(d), torch.zeros_like(m)
    if mode == "token":
        rho = torch.exp(d)
        return rho.clamp(max=cap), (rho > cap) & m
    keep = sequence_log_ratio(d, m).abs() <= math.log(cap)  # (B,)
    weight = keep[:, None].expand_as(d).float()
    return weight, ~keep[:, None] & m
