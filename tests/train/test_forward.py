"""The sliced output head gives the full-logits path's numbers and gradients.

``response_logp_entropy`` scores a batch whose logits would be large in slices of tokens,
from the final hidden states, recomputing each slice's logits in the backward pass. Forced
on a tiny model (``max_logits=0``, slices of 5 tokens), its log-probabilities, entropies and
the gradient of a loss built from both must equal the plain path's, on the shared-prefix
fast path (GRPO groups share a prompt) and on the model's own forward (distinct prompts).
"""

from __future__ import annotations

import pytest
import torch

import rlvr.train.forward as fwd
from rlvr.train.batch import collate
from rlvr.types import Completion


def _c(prompt, resp, mask=None):
    return Completion(prompt_ids=prompt, token_ids=resp, sampler_logp=[0.0] * len(resp),
                      loss_mask=mask or [True] * len(resp), finish_reason="stop", text="")


GROUPED = [_c([5, 6, 7], [8, 9, 10]), _c([5, 6, 7], [11, 12]),
           _c([5, 6, 7], [13, 14, 15, 16], [True, False, True, True])]
DISTINCT = [_c([5, 6, 7], [8, 9, 10]), _c([20, 21], [11, 12]),
            _c([30], [13, 14, 15, 16], [True, False, True, True])]


def _loss_and_grads(model, batch, max_logits, temperature):
    model.zero_grad(set_to_none=True)
    logp, ent = fwd.response_logp_entropy(model, batch, temperature, entropy_grad=True, max_logits=max_logits)
    mask = batch.loss_mask
    loss = ((logp * 0.7 - ent * 0.3) * mask).sum()
    loss.backward()
    grads = {n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}
    return logp * mask, ent * mask, grads


@pytest.mark.parametrize("comps", [GROUPED, DISTINCT], ids=["shared-prefix", "model-forward"])
@pytest.mark.parametrize("temperature", [1.0, 0.7])
def test_sliced_head_matches_full_logits(tiny_model, monkeypatch, comps, temperature):
    monkeypatch.setattr(fwd, "SLICE_TOKENS", 5)  # 8 loss tokens -> two slices
    batch = collate(comps, pad_id=0)
    full_lp, full_ent, full_g = _loss_and_grads(tiny_model, batch, 1 << 40, temperature)
    sl_lp, sl_ent, sl_g = _loss_and_grads(tiny_model, batch, 0, temperature)
    assert torch.allclose(sl_lp, full_lp, atol=1e-5) and torch.allclose(sl_ent, full_ent, atol=1e-5)
    assert full_g.keys() == sl_g.keys() and len(full_g) > 0
    for name in full_g:
        assert torch.allclose(sl_g[name], full_g[name], atol=1e-5), name


def test_sliced_head_leaves_masked_positions_at_zero_and_runs_without_grad(tiny_model):
    batch = collate(DISTINCT, pad_id=0)
    with torch.no_grad():
        logp, ent = fwd.response_logp_entropy(tiny_model, batch, 1.0, max_logits=0)
    assert logp.shape == batch.loss_mask.shape and not logp.requires_grad
    assert (logp[~batch.loss_mask] == 0).all() and (ent[~batch.loss_mask] == 0).all()
    assert (logp[batch.loss_mask] < 0).all() and (ent[batch.loss_mask] > 0).all()
