"""The policy's training forward: logits and log-probabilities of the response tokens.

Layout (``rlvr.train.batch``): prompts left-padded to width P, responses right-padded to R,
so the logits that score response token j of every row sit in columns ``P-1+j``.

Shared prefixes (``shared_prefix_logits``): a GRPO batch holds each prompt G times; the
prompts are deduplicated and run once, and the response tokens attend to their group's
prompt keys/values (gathered, so the gradient flows back to the one prompt computation).
The logits and the gradient equal those of the plain forward to float rounding; the work on
prompt tokens drops by G.

Memory (``response_logp_entropy``): the float32 logits of a batch, (B, R, V), are the largest
tensors of a step on a real vocabulary (64 rows x 64 tokens x 49k entries = 0.8 GB, and the
log-softmax, the entropy and their gradients hold several more). When a batch's logits would
pass ``max_logits`` entries, log-probabilities and entropies are computed from the final
hidden states in slices of tokens, each slice's logits recomputed in the backward pass
(activation checkpointing of the output head), and only for the tokens that count in the
loss: the peak holds one slice's logits. Smaller batches take the plain full-logits path,
and so do FSDP2-sharded models (the slices would read the head's shard; the model's own
forward is what gathers it), which also forgoes the bf16 autocast below.
It runs the layers of ``rlvr.rollout.fast.FastDecoder`` (one implementation for sampling
and training) and declines, returning None, whatever that decoder does not reproduce
exactly (other architectures, adapters, activation checkpointing, attention dropout in
training); the callers then take the model's forward.

Precision (``rlvr.models.precision``): a model set to train in bf16 runs its layers under
CPU bf16 autocast (float32 master weights, each cast once per forward by autocast's cache;
gradients arrive in float32), and its output head, log-softmax, log-probabilities and
entropies in float32 on the sliced path, so no bf16 logits reach a log-softmax.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

from rlvr.algo import token_entropy
from rlvr.models.precision import autocast, fp32_region, precision_of
from rlvr.rollout.fast import FastDecoder, base_model, mask_min, supports
from rlvr.train.batch import Batch

MAX_LOGITS = 1 << 25  # logits entries (B * R * V) above which a batch is scored in slices (128 MB in fp32)
SLICE_TOKENS = 512  # tokens per slice of the output head in the sliced path
_positions_run = [0]  # decoder token positions computed by this process's training-side forwards


def positions_run() -> int:
    """Token positions the decoder has computed in ``response_logits`` / ``response_hidden``
    so far in this process: U * P + B * (R - 1) on the shared-prefix path (each distinct
    prompt once), B * (P + R) on the model's own forward. A difference of two calls is what
    the forwards between them ran (``rlvr.train.update`` logs it as ``train/positions``)."""
    return _positions_run[0]


def response_logp_entropy(model, batch: Batch, temperature: float, entropy_grad: bool = False,
                          max_logits: int = MAX_LOGITS) -> tuple[torch.Tensor, torch.Tensor]:
    """(log pi of each response token (B, R), entropy of each next-token distribution (B, R)).

    The entropy carries a gradient only with ``entropy_grad`` (an entropy bonus). Batches
    whose logits would exceed ``max_logits`` entries go through the sliced path (module
    docstring), which leaves positions outside ``loss_mask`` at 0. Under bf16 training
    (``train_bf16`` below) every batch takes the sliced path: the layers run under autocast,
    the output head and everything after it in float32, slices checkpointed only above
    ``max_logits``."""
    B, R = batch.response_ids.shape
    head = _plain_head(model)
    bf16 = head is not None and train_bf16(model)
    big = head is not None and B * R * head.weight.shape[0] > max_logits
    if not bf16 and not big:
        logits = response_logits(model, batch, temperature)  # (B, R, V)
        return token_logp(logits, batch.response_ids), token_entropy(logits if entropy_grad else logits.detach())
    with autocast(bf16):
        h = response_hidden(model, batch)  # (B, R, hidden)
    h = h.to(head.weight.dtype)  # float32 under autocast: the head runs on the master weights
    mask = batch.loss_mask.to(h.device).reshape(-1)
    rows = mask.nonzero().squeeze(-1)  # the tokens that count
    flat_h, targets = h.reshape(B * R, -1)[rows], batch.response_ids.to(h.device).reshape(-1)[rows]
    logp = torch.zeros(B * R, device=h.device, dtype=torch.float32)
    ent = torch.zeros(B * R, device=h.device, dtype=torch.float32)
    parts = [_scored_slice(flat_h[i:i + SLICE_TOKENS], head, targets[i:i + SLICE_TOKENS], temperature, entropy_grad,
                           recompute=big) for i in range(0, len(rows), SLICE_TOKENS)]
    if parts:
        logp = logp.index_put((rows,), torch.cat([p[0] for p in parts]))
        ent = ent.index_put((rows,), torch.cat([p[1] for p in parts]))
    return logp.view(B, R), ent.view(B, R)


def _plain_head(model):
    """The output projection when logits are exactly ``hidden @ W.T + b`` (no soft-capping or
    logit scale), else None."""
    base = base_model(model)
    head = base.get_output_embeddings() if hasattr(base, "get_output_embeddings") else None
    cfg = getattr(base, "config", None)
    if type(head) is not torch.nn.Linear or not hasattr(base, "get_decoder"):
        return None
    if getattr(cfg, "final_logit_softcapping", None) or getattr(cfg, "logit_scale", None):
        return None
    if hasattr(head.weight, "full_tensor"):
        return None  # FSDP2 gathers the root's weights (embedding, head) only in the model's own forward
    return head


def response_hidden(model, batch: Batch) -> torch.Tensor:
    """Final hidden states (B, R, hidden) at the positions that score each response token."""
    device = next(model.parameters()).device
    P = batch.prompt_width
    ids, attn, pos = batch.input_ids.to(device), batch.attention_mask.to(device), batch.position_ids.to(device)
    h = shared_prefix_hidden(model, ids, attn, pos, P)
    if h is None:
        _positions_run[0] += ids.numel()
        out = base_model(model).get_decoder()(input_ids=ids, attention_mask=attn, position_ids=pos, use_cache=False)
        h = out.last_hidden_state[:, P - 1:-1]
    return h


def train_bf16(model) -> bool:
    """True when the model trains under bf16 autocast (``rlvr.models.precision``) and the fast
    layers reproduce it (a model they decline keeps its loaded precision)."""
    return precision_of(model).train_bf16 and supports(model)


def _slice_logp_entropy(h, weight, bias, targets, temperature: float, entropy_grad: bool):
    with fp32_region():
        return _slice_logp_entropy_fp32(h, weight, bias, targets, temperature, entropy_grad)


def _slice_logp_entropy_fp32(h, weight, bias, targets, temperature: float, entropy_grad: bool):
    logits = F.linear(h, weight, bias).float()  # (n, V)
    if temperature > 0 and temperature != 1.0:
        logits = logits / temperature
    logp = logits.gather(-1, targets[:, None]).squeeze(-1) - torch.logsumexp(logits, dim=-1)
    ent = token_entropy((logits if entropy_grad else logits.detach())[None])[0]
    return logp, ent


def _scored_slice(h, head, targets, temperature: float, entropy_grad: bool, recompute: bool = True):
    """One slice's (logp, entropy); under autograd (and ``recompute``) its logits are recomputed
    in the backward pass rather than kept."""
    if not torch.is_grad_enabled() or not recompute:
        return _slice_logp_entropy(h, head.weight, head.bias, targets, temperature, entropy_grad)
    return checkpoint(_slice_logp_entropy, h, head.weight, head.bias, targets, temperature, entropy_grad,
                      use_reentrant=False)


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
        _positions_run[0] += ids.numel()
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
    """Float32 logits (B, R, V) scoring each response token, each distinct prompt run once
    (``shared_prefix_hidden`` followed by the output head), or None when it declines."""
    h = shared_prefix_hidden(model, input_ids, attention_mask, position_ids, prompt_width)
    if h is None:
        return None
    head = base_model(model).get_output_embeddings()
    return F.linear(h, head.weight, head.bias).float()


def shared_prefix_hidden(model, input_ids: torch.Tensor, attention_mask: torch.Tensor, position_ids: torch.Tensor,
                         prompt_width: int) -> torch.Tensor | None:
    """Final hidden states scoring each response token, with each distinct prompt run once.

    Rows are ``prompt_width`` left-padded prompt columns followed by R response columns
    (the layout of ``rlvr.train.batch``); a GRPO batch holds each prompt G times. The
    prompts are deduplicated, run once (U rows instead of B), and their keys/values
    gathered back to every row of the group before the response columns attend to them.
    The gradient is the same as running every row in full: the gather's backward sums
    the group's contributions into the one prompt computation. Returns the final-norm
    hidden states (B, R, hidden) in the model's dtype, or None when the model or the batch
    does not qualify (no prompt shared, a model ``supports`` rejects, activation
    checkpointing, attention dropout in training).
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
    neg = mask_min(dtype)

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
    _positions_run[0] += U * P + B * S
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
    return F.rms_norm(h, (h.shape[-1],), dec.norm_w, dec.norm_eps)
