"""Loss aggregation: how per-token losses (B, T) become one scalar.

Modes (dict ``LOSS_AGGREGATIONS``), each ``sum(numerator) / normalizer``:

- ``seq_mean_token_mean`` (GRPO, DeepSeekMath eq. 3, the 1/|o_i| then 1/G sums): each
  sequence's loss is its mean over its own loss tokens; the batch loss is the sum of those
  divided by the number of sequences. Long sequences weigh less per token.
- ``token_mean`` (DAPO eq. 12, "token-level policy gradient loss"): sum of all token losses
  divided by the total number of loss tokens.
- ``seq_mean_token_sum_norm`` (Dr. GRPO, Liu et al. 2025, sec. 3.1 and their code): sum of
  all token losses divided by (number of sequences x max_len), a constant that does not
  depend on each response's length.

The normaliser is a separate argument so that gradient accumulation and data parallelism
are exact: the caller computes ``loss_normalizer(mask, mode, max_len)`` on every
micro-batch, sums it over the whole minibatch (and all-reduces it across ranks), and passes
that total to every micro-batch call; the micro-batch losses then add up to the loss of the
full minibatch. "Number of sequences" counts sequences with at least one loss token, so a
completion dropped entirely from the loss (e.g. a truncated one under DAPO's overlong
filtering) does not dilute the others (verl does the same). A normaliser below 1 (an empty
batch) is treated as 1, so an all-masked batch gives loss 0, not NaN.

Departure: ``max_len`` defaults to T of the given tensors, which is right only when they
cover the response positions alone; pass ``max_len`` = the generation limit otherwise.
"""

from __future__ import annotations

import torch


def masked_mean(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean of ``x`` over positions where ``mask`` is True; 0 when there are none."""
    total = torch.where(mask, x, torch.zeros_like(x)).sum()
    return total / mask.sum().clamp(min=1)


def _seq_lengths(mask: torch.Tensor) -> torch.Tensor:
    return mask.sum(dim=-1)  # (B,)


def _token_sums(loss_tok: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return torch.where(mask, loss_tok, torch.zeros_like(loss_tok)).sum(dim=-1)  # (B,)


def _num_token_mean(loss_tok, mask):
    return _token_sums(loss_tok, mask).sum()


def _num_seq_mean_token_mean(loss_tok, mask):
    per_seq = _token_sums(loss_tok, mask) / _seq_lengths(mask).clamp(min=1)  # (B,)
    return per_seq.sum()


def _num_seq_mean_token_sum_norm(loss_tok, mask):
    return _token_sums(loss_tok, mask).sum()


# mode -> numerator function; the denominator comes from loss_normalizer (or the caller)
LOSS_AGGREGATIONS = {
    "seq_mean_token_mean": _num_seq_mean_token_mean,
    "token_mean": _num_token_mean,
    "seq_mean_token_sum_norm": _num_seq_mean_token_sum_norm,
}


def _check_mode(mode: str) -> None:
    if mode not in LOSS_AGGREGATIONS:
        raise ValueError(f"unknown loss aggregation {mode!r}; valid: {', '.join(LOSS_AGGREGATIONS)}")


def loss_normalizer(loss_mask: torch.Tensor, loss_agg: str, max_len: int | None = None) -> torch.Tensor:
    """Denominator of ``loss_agg`` for this (micro-)batch, a 0-d float tensor.

    Additive over micro-batches and ranks: sum (all-reduce) it over the global minibatch
    and pass the total as ``normalizer``. token_mean -> loss tokens; seq_mean_token_mean ->
    sequences with >= 1 loss token; seq_mean_token_sum_norm -> that count x max_len
    (``max_len`` must then be the same on every micro-batch: pass it explicitly).
    """
    _check_mode(loss_agg)
    mask = loss_mask.bool()
    if loss_agg == "token_mean":
        return mask.sum().float()
    n_seq = (_seq_lengths(mask) > 0).sum().float()
    if loss_agg == "seq_mean_token_mean":
        return n_seq
    return n_seq * float(max_len if max_len is not None else mask.shape[-1])


def aggregate(
    loss_tok: torch.Tensor,
    loss_mask: torch.Tensor,
    loss_agg: str,
    *,
    normalizer: torch.Tensor | float | None = None,
    max_len: int | None = None,
) -> torch.Tensor:
    """Scalar loss from per-token losses (B, T) and the loss mask (B, T).

    Masked positions contribute exactly nothing (value and gradient), whatever they hold.
    ``normalizer`` None = ``loss_normalizer`` of this batch.
    """
    _check_mode(loss_agg)
    if loss_tok.shape != loss_mask.shape or loss_tok.dim() != 2:
        raise ValueError(f"loss_tok and loss_mask must both be (B, T); got {tuple(loss_tok.shape)}"
                         f" and {tuple(loss_mask.shape)}")
    mask = loss_mask.bool()
    numerator = LOSS_AGGREGATIONS[loss_agg](loss_tok, mask)
    if normalizer is None:
        normalizer = loss_normalizer(mask, loss_agg, max_len)
    denom = torch.as_tensor(normalizer, dtype=numerator.dtype, device=numerator.device).clamp(min=1)
    return numerator / denom
