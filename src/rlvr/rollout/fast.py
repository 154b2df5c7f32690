"""A fast decode loop for Llama/Qwen2-style decoders, with a preallocated KV cache.

Why: Hugging Face ``model(...)`` with a ``DynamicCache`` spends much of a decode step on
fixed Python work (mask building, cache bookkeeping, output dataclasses, module hooks),
and CPU ``scaled_dot_product_attention`` costs ~2 ms per call for one query row against a
short cache, more than the layer's matmuls. Both paths here run the same arithmetic with
the model's own weights (no copy, no conversion) and do little else.

Decoding (``FastDecoder.generate``):
- one K and one V tensor per layer, allocated once per call at their final size
  ``(N, kv_heads, P + max_new, head_dim)``; each step writes one column;
- one additive attention mask ``(N, 1, 1, P + max_new)`` built once (left padding and
  not-yet-written columns at the dtype's most negative value); each step unmasks one
  column, so every step has the same shapes;
- rotary cos/sin computed once for every position the call can reach, by the model's own
  rotary module (so scaled RoPE variants give the model's numbers);
- ``F.rms_norm`` / ``F.linear`` and two batched matmuls for attention, called on the
  weights directly, skipping ``nn.Module.__call__``;
- the prompt batch (one row per group) is prefilled once and its cache rows repeated for
  the group's ``n`` completions;
- the tokens every prompt of the call starts with (the system prompt, the chat template, a
  worked example) are prefilled once for the whole batch (``shared``), the rest of each
  prompt attending to them: an evaluation's 64 distinct prompts cost one shared part and 64
  short tails, not 64 full prompts.

The layer pieces (``FastDecoder._qkv``, ``_finish``, ``_sdpa``) are also what the training
forward ``rlvr.train.forward.shared_prefix_logits`` runs, so both use one implementation.

Precision (``rlvr.models.precision``): with ``bf16=True`` the decoder holds bf16 copies of
the layers' linear weights, made when it is built (once per ``generate`` call, so after every
optimizer step; autocast's own weight cache does not work under ``inference_mode``, where it
re-cast every weight at every decode step: 0.21 s against 0.085 s for a pre-cast copy of the
(64 x 576) x (576 x 49152) product, loaded machine), and the decode loop runs under CPU bf16
autocast, the way the trainer's forward does: the linear maps and attention in bf16, the
residual stream, the norms and the KV cache in float32, and the output head (``logits``) in
float32 on the master weights outside autocast, so the sampler's log-probabilities come from
float32 logits. The masks' large negative value is bf16's most negative finite number in
either precision, so a fully masked row (left padding) stays finite when autocast casts the
mask to bf16.

What it deliberately does not do: sliding-window attention, Q/K norms (Qwen3), adapters
(peft/LoRA layers), models behind module hooks (FSDP, accelerate offload), activation
checkpointing, attention dropout in training, or architectures other than ``llama`` and
``qwen2``. ``supports(model)`` says whether a model qualifies; otherwise the callers use
the model's own forward. ``torch.compile`` is not used: measured on the CPU at these
model sizes it did not pay (docs/performance.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

from rlvr.models.precision import autocast, fp32_region

SUPPORTED_TYPES = ("llama", "qwen2")
_PLAIN = (torch.nn.Linear,)


def mask_min(dtype: torch.dtype) -> float:
    """The additive mask's "minus infinity": finite in ``dtype`` and in bf16 (autocast casts masks to bf16)."""
    return max(torch.finfo(dtype).min, torch.finfo(torch.bfloat16).min)


def base_model(model):
    return model.get_base_model() if hasattr(model, "get_base_model") else model


def supports(model) -> bool:
    """True when ``model`` is a plain Llama/Qwen2 causal LM this decoder reproduces exactly."""
    base = base_model(model)
    cfg = getattr(base, "config", None)
    if cfg is None or getattr(cfg, "model_type", None) not in SUPPORTED_TYPES:
        return False
    if any(t != "full_attention" for t in (getattr(cfg, "layer_types", None) or ["full_attention"])):
        return False
    if getattr(cfg, "use_sliding_window", False) or getattr(cfg, "hidden_act", "silu") != "silu":
        return False
    inner = getattr(base, "model", None)
    if inner is None or not hasattr(inner, "rotary_emb") or not hasattr(inner, "layers"):
        return False
    for layer in inner.layers:
        attn, mlp = layer.self_attn, layer.mlp
        mods = (attn.q_proj, attn.k_proj, attn.v_proj, attn.o_proj, mlp.gate_proj, mlp.up_proj, mlp.down_proj)
        if any(type(m) not in _PLAIN for m in mods) or hasattr(attn, "q_norm"):
            return False
    if any(m._forward_hooks or m._forward_pre_hooks for m in base.modules()):
        return False  # FSDP, accelerate offload, peft and others act through module hooks
    if any(type(p.data) is not torch.Tensor for p in base.parameters()):
        return False  # sharded (DTensor) or otherwise wrapped weights
    return type(base.lm_head) in _PLAIN and type(inner.embed_tokens) is torch.nn.Embedding


@dataclass
class _Layer:
    ln1: torch.Tensor
    eps1: float
    q: torch.nn.Linear
    k: torch.nn.Linear
    v: torch.nn.Linear
    o: torch.nn.Linear
    ln2: torch.Tensor
    eps2: float
    gate: torch.nn.Linear
    up: torch.nn.Linear
    down: torch.nn.Linear


@dataclass
class _Linear:
    """A linear map's weight and bias (a bf16 copy of an ``nn.Linear``'s, or its own tensors)."""

    weight: torch.Tensor
    bias: torch.Tensor | None


def _cast(linear: torch.nn.Linear, dtype: torch.dtype | None):
    if dtype is None:
        return linear
    bias = None if linear.bias is None else linear.bias.detach().to(dtype)
    return _Linear(linear.weight.detach().to(dtype), bias)


def _eps(norm) -> float:
    return float(getattr(norm, "variance_epsilon", getattr(norm, "eps", 1e-6)))


def _rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """RoPE on (N, H, T, D) with cos/sin (N, 1, T, D): x*cos + rotate_half(x)*sin."""
    half = x.shape[-1] // 2
    rot = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + rot * sin


class FastDecoder:
    """Prefill + decode with the model's weights and a static per-call KV cache."""

    def __init__(self, model, bf16: bool = False):
        base = base_model(model)
        self.bf16 = bf16
        self.model = base
        inner = base.model
        attn0 = inner.layers[0].self_attn
        cfg = base.config
        self.heads = cfg.num_attention_heads
        self.kv_heads = getattr(cfg, "num_key_value_heads", None) or self.heads
        self.head_dim = attn0.head_dim
        self.scale = float(attn0.scaling)
        low = torch.bfloat16 if bf16 else None  # bf16 copies for sampling; the training forward keeps the modules
        self.layers = [
            _Layer(layer.input_layernorm.weight, _eps(layer.input_layernorm), _cast(layer.self_attn.q_proj, low),
                   _cast(layer.self_attn.k_proj, low), _cast(layer.self_attn.v_proj, low),
                   _cast(layer.self_attn.o_proj, low), layer.post_attention_layernorm.weight,
                   _eps(layer.post_attention_layernorm), _cast(layer.mlp.gate_proj, low), _cast(layer.mlp.up_proj, low),
                   _cast(layer.mlp.down_proj, low))
            for layer in inner.layers
        ]
        self.embed = inner.embed_tokens.weight
        self.padding_idx = inner.embed_tokens.padding_idx  # its row gets no gradient, as in nn.Embedding
        self.norm_w, self.norm_eps = inner.norm.weight, _eps(inner.norm)
        self.lm_head = base.lm_head
        self.rotary = inner.rotary_emb

    # ------------------------------------------------------------------ pieces
    def rope_tables(self, length: int, device, dtype) -> tuple[torch.Tensor, torch.Tensor]:
        """cos, sin for positions 0..length-1, each (length, head_dim), from the model's rotary module."""
        pos = torch.arange(length, device=device)[None, :]
        probe = torch.empty((1, length, self.head_dim), device=device, dtype=dtype)
        cos, sin = self.rotary(probe, pos)
        return cos[0], sin[0]

    def embedding(self, ids: torch.Tensor) -> torch.Tensor:
        return F.embedding(ids, self.embed, self.padding_idx)

    def _qkv(self, x, layer: _Layer, cos, sin):
        """Pre-norm, projections and RoPE. x (N, T, hidden) -> q (N, H, T, D), k, v (N, KV, T, D)."""
        N, T, _ = x.shape
        h = F.rms_norm(x, (x.shape[-1],), layer.ln1, layer.eps1)
        q = F.linear(h, layer.q.weight, layer.q.bias).view(N, T, self.heads, self.head_dim).transpose(1, 2)
        k = F.linear(h, layer.k.weight, layer.k.bias).view(N, T, self.kv_heads, self.head_dim).transpose(1, 2)
        v = F.linear(h, layer.v.weight, layer.v.bias).view(N, T, self.kv_heads, self.head_dim).transpose(1, 2)
        return _rotate(q, cos, sin), _rotate(k, cos, sin), v

    def _finish(self, x, a, layer: _Layer):
        """Output projection, residual, MLP, residual. x (N, T, hidden), a (N, H, T, D)."""
        N, T, _ = x.shape
        a = a.transpose(1, 2).reshape(N, T, self.heads * self.head_dim)
        x = x + F.linear(a, layer.o.weight, layer.o.bias)
        h = F.rms_norm(x, (x.shape[-1],), layer.ln2, layer.eps2)
        g = F.linear(h, layer.gate.weight, layer.gate.bias)
        u = F.linear(h, layer.up.weight, layer.up.bias)
        return x + F.linear(F.silu(g) * u, layer.down.weight, layer.down.bias)

    def _sdpa(self, q, k, v, mask):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=self.scale,
                                              enable_gqa=self.kv_heads != self.heads)  # (N, H, T, D)

    def _block(self, x, layer: _Layer, cos, sin, mask, kcache, vcache, col: slice | None):
        """One decoder layer on x (N, T, hidden); writes its K/V into the caches at ``col``.

        ``col`` None: attend over exactly the new keys (prefill into a separate cache)."""
        q, k, v = self._qkv(x, layer, cos, sin)
        if col is None:  # prefill: one call per layer, sdpa's fused kernel
            return self._finish(x, self._sdpa(q, k, v, mask), layer), k, v
        kcache[:, :, col] = k
        vcache[:, :, col] = v
        return self._finish(x, self._attend_one(q, kcache, vcache, mask), layer), kcache, vcache

    def _attend_one(self, q, k, v, mask):
        """Attention of one new query per row: q (N, H, 1, D), k/v (N, KV, S, D), mask (N, 1, 1, S).

        Two batched matmuls and a softmax. CPU sdpa's fused kernel costs ~2 ms per call at
        this shape (N=64, S~70), more than the layer's matmuls; this costs ~0.1 ms. Grouped
        heads (GQA) are handled by viewing the query heads as (KV, H/KV) without copying K/V."""
        N, H, _, D = q.shape
        rep = H // self.kv_heads
        qg = q.reshape(N, self.kv_heads, rep, D)  # (N, KV, rep, D)
        scores = torch.matmul(qg, k.transpose(-1, -2)).mul_(self.scale).add_(mask)  # (N, KV, rep, S)
        out = torch.matmul(torch.softmax(scores, dim=-1), v)  # (N, KV, rep, D)
        return out.reshape(N, H, 1, D)

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        """Final norm + LM head on (N, hidden) -> float32 (N, V), outside autocast (the head's own dtype)."""
        with fp32_region():
            h = F.rms_norm(x.to(self.norm_w.dtype), (x.shape[-1],), self.norm_w, self.norm_eps)
            return F.linear(h, self.lm_head.weight, self.lm_head.bias).float()

    def _prefill(self, ids, valid, pos, n: int, kc, vc, rope) -> torch.Tensor:
        """Prefill one row per prompt, then copy each prompt's K/V into its n rows; the
        prompts' last hidden states (B, hidden)."""
        (B, P), dev = ids.shape, ids.device
        cos_t, sin_t = rope
        causal = torch.ones((P, P), dtype=torch.bool, device=dev).tril()
        pre_mask = torch.zeros((B, 1, P, P), dtype=self.embed.dtype, device=dev)
        pre_mask.masked_fill_(~(causal[None, None] & valid[:, None, None, :]), mask_min(self.embed.dtype))
        x = self.embedding(ids)  # (B, P, hidden)
        cos, sin = cos_t[pos][:, None], sin_t[pos][:, None]  # (B, 1, P, D)
        for i, layer in enumerate(self.layers):
            x, k, v = self._block(x, layer, cos, sin, pre_mask, None, None, None)
            kc[i][:, :, :P] = k.repeat_interleave(n, dim=0)
            vc[i][:, :, :P] = v.repeat_interleave(n, dim=0)
        return x[:, -1]

    def _prefill_shared(self, ids, valid, pos, shared: int, n: int, kc, vc, rope) -> torch.Tensor:
        """Prefill prompts whose first ``shared`` columns are one token sequence: those columns
        run once (one row), the rest of each prompt (B rows) attends to their keys and to its
        own. Writes every row's K/V (the shared columns broadcast to all N rows) and returns
        the prompts' last hidden states (B, hidden). The same arithmetic as a full prefill;
        the common part of B prompts costs one prompt's."""
        (B, P), C = ids.shape, shared
        S, dev = P - C, ids.device
        cos_t, sin_t = rope
        neg = mask_min(self.embed.dtype)
        causal = torch.ones((C, C), dtype=torch.bool, device=dev).tril()
        cmask = torch.zeros((1, 1, C, C), dtype=self.embed.dtype, device=dev).masked_fill(~causal, neg)
        x = self.embedding(ids[:1, :C])  # (1, C, hidden)
        cos, sin = cos_t[:C][None, None], sin_t[:C][None, None]  # (1, 1, C, D)
        tri = torch.ones((S, S), dtype=torch.bool, device=dev).tril()
        everyone = torch.ones((B, S, C), dtype=torch.bool, device=dev)  # the shared columns: seen by all
        allowed = torch.cat([everyone, tri[None] & valid[:, None, C:]], dim=2)
        smask = torch.zeros((B, 1, S, P), dtype=self.embed.dtype, device=dev).masked_fill(~allowed[:, None], neg)
        y = self.embedding(ids[:, C:])  # (B, S, hidden)
        scos, ssin = cos_t[pos[:, C:]][:, None], sin_t[pos[:, C:]][:, None]  # (B, 1, S, D)
        for i, layer in enumerate(self.layers):
            x, pk, pv = self._block(x, layer, cos, sin, cmask, None, None, None)  # (1, KV, C, D)
            q, k, v = self._qkv(y, layer, scos, ssin)  # k, v (B, KV, S, D)
            kc[i][:, :, :C], vc[i][:, :, :C] = pk, pv  # broadcast to the N rows
            kc[i][:, :, C:P] = k.repeat_interleave(n, dim=0)
            vc[i][:, :, C:P] = v.repeat_interleave(n, dim=0)
            keys = torch.cat([pk.expand(B, -1, -1, -1), k], dim=2)  # (B, KV, P, D)
            values = torch.cat([pv.expand(B, -1, -1, -1), v], dim=2)
            y = self._finish(y, self._sdpa(q, keys, values, smask), layer)
        return y[:, -1]

    # ------------------------------------------------------------------ the loop
    def generate(self, ids: torch.Tensor, mask: torch.Tensor, n: int, max_new: int, pick, stop_ids: torch.Tensor,
                 pad_id: int, drop_finished: bool = False, shared: int = 0) -> tuple[torch.Tensor, torch.Tensor, int]:
        """``_generate`` under bf16 autocast when the decoder was built with ``bf16=True``."""
        with autocast(self.bf16):
            return self._generate(ids, mask, n, max_new, pick, stop_ids, pad_id, drop_finished, shared)

    @torch.inference_mode()
    def _generate(self, ids: torch.Tensor, mask: torch.Tensor, n: int, max_new: int, pick, stop_ids: torch.Tensor,
                 pad_id: int, drop_finished: bool = False, shared: int = 0) -> tuple[torch.Tensor, torch.Tensor, int]:
        """Sample up to ``max_new`` tokens for each of ``n`` copies of each left-padded prompt.

        ids, mask (B, P); ``pick(logits (n_active, V)) -> (tokens, logp)``.
        Returns tokens (N, steps), logp (N, steps) and steps; rows that stopped hold
        ``pad_id`` / 0.0 after their stop token. ``drop_finished``: once a quarter of the rows
        still decoding have stopped, the stopped ones leave the batch (their caches too), so
        the remaining steps cost what the remaining rows need; ``pick`` then sees fewer rows,
        so the random stream, and the samples, differ from ``drop_finished=False``. ``shared``:
        the first ``shared`` columns hold the same tokens in every row (the layout of
        ``shared_layout``); they are prefilled once instead of once per prompt."""
        B, P = ids.shape
        N, T = B * n, P + max_new
        dev, dtype = self.embed.device, self.embed.dtype
        cos_t, sin_t = self.rope_tables(T, dev, dtype)  # (T, D)
        neg = mask_min(dtype)
        pos = (mask.cumsum(-1) - 1).clamp(min=0)  # (B, P)
        valid = mask.bool()
        if shared and not (bool(valid[:, :shared].all()) and bool((ids[:, :shared] == ids[:1, :shared]).all())):
            raise ValueError(f"shared={shared}: the first {shared} columns must hold the same tokens in every row")
        dec_mask = torch.full((N, 1, 1, T), neg, dtype=dtype, device=dev)
        dec_mask[:, 0, 0, :P] = torch.where(valid, 0.0, neg).to(dtype).repeat_interleave(n, dim=0)
        kc = [torch.zeros((N, self.kv_heads, T, self.head_dim), dtype=dtype, device=dev) for _ in self.layers]
        vc = [torch.zeros_like(k) for k in kc]

        if shared:  # the prompts' common first columns once, then each prompt's own columns
            last = self._prefill_shared(ids, valid, pos, shared, n, kc, vc, (cos_t, sin_t))
        else:
            last = self._prefill(ids, valid, pos, n, kc, vc, (cos_t, sin_t))
        logits = self.logits(last).repeat_interleave(n, dim=0)  # (N, V)
        next_pos = pos[:, -1].repeat_interleave(n, dim=0) + 1  # (N,)

        tokens = torch.full((N, max_new), pad_id, dtype=torch.long, device=dev)
        logps = torch.zeros((N, max_new), dtype=torch.float32, device=dev)
        finished = torch.zeros(N, dtype=torch.bool, device=dev)  # over the rows still in the batch
        rows = torch.arange(N, device=dev)  # the batch's rows, as indices of the N outputs
        steps = 0
        for t in range(max_new):
            tok, lp = pick(logits)
            tok = tok.masked_fill(finished, pad_id)
            tokens[rows, t] = tok
            logps[rows, t] = lp.masked_fill(finished, 0.0)
            finished |= torch.isin(tok, stop_ids)
            steps = t + 1
            if t == max_new - 1 or bool(finished.all()):
                break
            if drop_finished and 4 * int(finished.sum()) >= len(rows):
                keep = ~finished
                rows, tok, next_pos, finished = rows[keep], tok[keep], next_pos[keep], finished[keep]
                dec_mask = dec_mask[keep]
                kc, vc = [k[keep] for k in kc], [v[keep] for v in vc]
            dec_mask[:, :, :, P + t] = 0.0
            x = self.embedding(tok[:, None])  # (N, 1, hidden)
            cos, sin = cos_t[next_pos][:, None, None], sin_t[next_pos][:, None, None]  # (N, 1, 1, D)
            col = slice(P + t, P + t + 1)
            for i, layer in enumerate(self.layers):
                x, _, _ = self._block(x, layer, cos, sin, dec_mask, kc[i], vc[i], col)
            logits = self.logits(x[:, -1])
            next_pos = next_pos + 1
        return tokens[:, :steps], logps[:, :steps], steps
