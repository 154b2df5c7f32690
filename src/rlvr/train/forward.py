"""The policy's training forward: logits and log-probabilities of the response tokens.

Layout (``rlvr.train.batch``): prompts left-padded to width P, responses right-padded to R,
so the logits that score response token j of every row sit in columns ``P-1+j``.

Shared prefixes (``shared_prefix_logits``): a GRPO batch holds each prompt G times; the
prompts are deduplicated and run once, and the response tokens attend to their group's
prompt keys/values (gathered, so the gradient flows back to the one prompt computation).
The logits and the gradient equal those of the plain forward to float rounding; the work on
prompt tokens drops by G. It runs the layers of ``rlvr.rollout.fast.FastDecoder`` (one
implementation for sampling and training) and declines, returning None, whatever that
decoder does not reproduce exactly (other architectures, adapters, activation
checkpointing, attention dropout in training); the callers then take the model's forward.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from rlvr.rollout.fast import FastDecoder, base_model, supports
from rlvr.train.batch import Batch


def response_logits(model, batch: Batch, temperature: float = 1.0) -> torch.Tensor:
    """Logits scoring each response token, temperature-scaled like the sampler. (B, R, V)

    Rows sharing a prompt (a GRPO group) run that prompt once on Llama/Qwen2 models
    (``shared_prefix_logits``: same values and gradient, a fraction of the work when
    prompts are longer than responses); other models take the plain forward."""
    device = next(model.parameters()).device
    P = batch.prompt_width
    ids, attn, pos = batch.input_ids.to(device), batch.attention_mask.to(device), batch.position_ids.to(device)
    logits = shared_prefix_logits(model, ids, attn, pos, P)  # (B, R, V) or None
    if logits is None:
        out = model(input_ids=ids, attention_mask=attn, position_ids=pos, use_cache=False)
        logits = out.logits[:, P - 1:-1, :].float()
    if temperature > 0 and temperature != 1.0:
        logits = logits / temperature
    return logits


def token_logp(logits: torch.Tensor, response_ids: torch.Tensor) -> torch.Tensor:
    """log pi(y_t | ...) for each response token. logits (B, R, V), ids (B, R) -> (B, R)"""
    return torch.log_softmax(logits, dim=-1).gather(-1, response_ids.to(logits.device)[..., None]).squeeze(-1)


def _trainable_ok(model) -> bool:
    base = base_model(model)
    if not supports(model):
        return False
    checkpointing = getattr(base, "is_activation_checkpointing", None)
    if checkpointing is None:
        checkpointing = getattr(base, "is_gradient_checkpointing", False)
    dropout = float(getattr(base.config, "attention_dropout", 0.0) or 0.0)
    return not checkpointing and not (base.training and dropout > 0)


def _first_index(inv: torch.Tensor, groups: int) -> torch.Tensor:
    """For each group id in inv (B,), the first row holding it. -> (U,)"""
    rows = torch.arange(inv.shape[0], device=inv.device)
    return torch.full((groups,), inv.shape[0], device=inv.device, dtype=rows.dtype).scatter_reduce(
        0, inv, rows, reduce="amin")


def shared_prefix_logits(model, input_ids: torch.Tensor, attention_mask: torch.Tensor, position_ids: torch.Tensor,
                         prompt_width: int) -> torch.Tensor | None:
    """Logits scoring each response token, with each distinct prompt run through the model once.

    Rows are ``prompt_width`` left-padded prompt columns followed by R response columns
    (the layout of ``rlvr.train.batch``); a GRPO batch holds each prompt G times. The
    prompts are deduplicated, run once (U rows instead of B), and their keys/values
    gathered back to every row of the group before the response columns attend to them.
    The gradient is the same as running every row in full: the gather's backward sums
    the group's contributions into the one prompt computation. Returns float32 logits
    (B, R, V), or None when the model or the batch does not qualify (no prompt shared,
    a model ``supports`` rejects, activation checkpointing, attention dropout in training).
    """
    B, P = input_ids.shape[0], prompt_width
    R = input_ids.shape[1] - P
    if R < 1 or P < 1 or not _trainable_ok(model):
        return None
    key = torch.cat([input_ids[:, :P], attention_mask[:, :P].to(input_ids.dtype)], dim=1)  # (B, 2P)
    uniq, inv = torch.unique(key, dim=0, return_inverse=True)  # (U, 2P), (B,)
    U = uniq.shape[0]
    if U == B:
        return None
    dec = FastDecoder(model)
    dev, dtype = dec.embed.device, dec.embed.dtype
    first = _first_index(inv, U)  # (U,)
    valid = attention_mask.bool()  # (B, P+R)
    cos_t, sin_t = dec.rope_tables(int(position_ids.max()) + 1, dev, dtype)
    neg = torch.finfo(dtype).min

    # prompts, once each: (U, P)
    pv = valid[first, :P]  # (U, P)
    causal = torch.ones((P, P), dtype=torch.bool, device=dev).tril()
    pmask = torch.zeros((U, 1, P, P), dtype=dtype, device=dev).masked_fill(~(causal & pv[:, None, :])[:, None], neg)
    ppos = position_ids[first, :P]
    cos, sin = cos_t[ppos][:, None], sin_t[ppos][:, None]  # (U, 1, P, D)
    x = dec.embedding(input_ids[first, :P])  # (U, P, hidden)
    prefix_kv = []
    for layer in dec.layers:
        q, k, v = dec._qkv(x, layer, cos, sin)
        x = dec._finish(x, dec._sdpa(q, k, v, pmask), layer)
        prefix_kv.append((k, v))
    last_prompt = x[:, -1]  # (U, hidden): scores response token 0

    # responses, every row, attending to their group's prompt keys. The last response token
    # only ever gets scored, never attended to, so only the first R-1 run: (B, S), S = R-1
    S = R - 1
    h = last_prompt.index_select(0, inv)[:, None]  # (B, 1, hidden)
    if S > 0:
        tri = torch.ones((S, S), dtype=torch.bool, device=dev).tril()
        allowed = torch.cat([valid[:, None, :P].expand(B, S, P), tri[None] & valid[:, None, P:P + S]], dim=2)
        rmask = torch.zeros((B, 1, S, P + S), dtype=dtype, device=dev).masked_fill(~allowed[:, None], neg)
        rpos = position_ids[:, P:P + S]
        cos, sin = cos_t[rpos][:, None], sin_t[rpos][:, None]  # (B, 1, S, D)
        y = dec.embedding(input_ids[:, P:P + S])  # (B, S, hidden)
        for layer, (pk, pvv) in zip(dec.layers, prefix_kv):
            q, k, v = dec._qkv(y, layer, cos, sin)
            k = torch.cat([pk.index_select(0, inv), k], dim=2)  # (B, KV, P+S, D)
            v = torch.cat([pvv.index_select(0, inv), v], dim=2)
            y = dec._finish(y, dec._sdpa(q, k, v, rmask), layer)
        h = torch.cat([h, y], dim=1)  # (B, R, hidden)
    h = F.rms_norm(h, (h.shape[-1],), dec.norm_w, dec.norm_eps)
    return F.linear(h, dec.lm_head.weight, dec.lm_head.bias).float()
