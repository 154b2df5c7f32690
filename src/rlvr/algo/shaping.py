"""Reward shaping by length: DAPO's soft overlong punishment and overlong filtering.

Soft overlong punishment (DAPO, Yu et al. 2025, sec. 3.4, eq. 13), with L_max the length
limit and L_cache the buffer before it:

    R_length(y) = 0                                  if |y| <= L_max - L_cache
                = ((L_max - L_cache) - |y|) / L_cache if L_max - L_cache < |y| <= L_max
                = -1                                 if L_max < |y|

``overlong_penalty(lengths, max_len, buffer, penalty)`` returns ``penalty`` x R_length: 0
up to max_len - buffer, a linear ramp down to -penalty reached at max_len, -penalty beyond.
The caller adds it to the verifier reward. DAPO uses L_max = 20480 with L_cache = 4096
(generation limit 16384 + a 4096-token cache); ``penalty`` (verl's
``overlong_penalty_factor``) is 1.0 in the paper. A completion that hits the generation
limit has ``length == max_len`` and so gets exactly -penalty.

Overlong filtering (DAPO sec. 3.4, "we mask the loss of truncated samples"):
``drop_truncated(loss_mask, truncated)`` zeroes the loss mask of every completion cut at
the length limit. Not here: deciding which completions were truncated (the rollout's
finish reason says so).
"""

from __future__ import annotations

import torch


def overlong_penalty(lengths: torch.Tensor, max_len: int, buffer: int, penalty: float = 1.0) -> torch.Tensor:
    """Soft overlong penalty (B,) <= 0 for completion lengths (B,) (DAPO eq. 13, scaled by ``penalty``).

    ``buffer`` = 0 switches the shaping off (all zeros).
    """
    if lengths.dim() != 1:
        raise ValueError(f"lengths must be (B,); got {tuple(lengths.shape)}")
    if buffer < 0 or buffer > max_len:
        raise ValueError(f"overlong buffer must be in [0, max_len={max_len}]; got {buffer}")
    lengths = lengths.float()
    if buffer == 0:
        return torch.zeros_like(lengths)
    start = float(max_len - buffer)
    ramp = (start - lengths) / float(buffer)  # (B,), 0 at start, -1 at max_len
    return penalty * ramp.clamp(min=-1.0, max=0.0)


def drop_truncated(loss_mask: torch.Tensor, truncated: torch.Tensor) -> torch.Tensor:
    """loss_mask (B, T) with every row of a truncated completion (``truncated`` (B,) bool) set False."""
    if truncated.dim() != 1 or truncated.shape[0] != loss_mask.shape[0]:
        raise ValueError(f"truncated must be (B,) with B = {loss_mask.shape[0]}; got {tuple(truncated.shape)}")
    return loss_mask.bool() & ~truncated.bool().unsqueeze(-1)
