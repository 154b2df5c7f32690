"""The off-policy correction, by hand: truncated behaviour weights and the decoupled objective.

Three policies: mu (the sampler, ``sampler_logp``), pi_old (the proximal policy the trainer
recomputes, ``old_logp``), pi (being optimised, ``logp``). Per token:
    r = pi / pi_old,  w = min(pi_old / mu, C),  loss_t = w * -min(r A, clip(r, 1-eps, 1+eps) A)
Every expected number below is worked out in the comments.
"""

from __future__ import annotations

import math

import pytest
import torch

from rlvr.algo import policy_loss, truncated_is_weight

L = math.log


def test_truncated_weight_table():
    old = torch.tensor([[L(0.5), L(0.2), L(0.3)]])
    mu = torch.tensor([[L(0.25), L(0.4), L(0.3)]])
    w, capped = truncated_is_weight(old, mu, cap=1.5)
    # raw pi_old/mu = 0.5/0.25 = 2.0 -> capped at 1.5;  0.2/0.4 = 0.5;  0.3/0.3 = 1.0
    assert w[0].tolist() == pytest.approx([1.5, 0.5, 1.0], abs=1e-6)
    assert capped.tolist() == [[True, False, False]]


def _loss(adv: float, cap):
    old = torch.tensor([[L(0.4), L(0.5)]])
    logp = torch.tensor([[L(0.6), L(0.45)]], requires_grad=True)  # r = 0.6/0.4 = 1.5, 0.45/0.5 = 0.9
    mu = torch.tensor([[L(0.2), L(0.5)]])  # pi_old/mu = 2.0, 1.0
    mask = torch.ones((1, 2), dtype=torch.bool)
    loss, stats = policy_loss(logp, old, torch.tensor([adv]), mask, algorithm="grpo", kl_coef=0.0,
                              loss_agg="token_mean", eps_low=0.2, eps_high=0.2, sampler_logp=mu, tis_cap=cap)
    loss.backward()
    return loss.detach(), logp.grad, stats


def test_decoupled_objective_positive_advantage():
    loss, grad, stats = _loss(1.0, cap=1.5)
    # surrogates: -min(1.5, 1.2) = -1.2 (clipped) and -min(0.9, 0.9) = -0.9
    # weights min(2.0, 1.5) = 1.5 and 1.0 -> tokens -1.8, -0.9 -> token mean -1.35
    assert loss.item() == pytest.approx(-1.35, abs=1e-6)
    # token 1 is clipped: no gradient; token 2: d/dlogp of -(1.0 * r * 1)/2 = -r/2 = -0.45
    assert grad[0].tolist() == pytest.approx([0.0, -0.45], abs=1e-6)
    assert float(stats["tis_frac_capped"]) == pytest.approx(0.5)
    assert float(stats["clip_frac_high"]) == pytest.approx(0.5)


def test_decoupled_objective_negative_advantage():
    loss, grad, stats = _loss(-1.0, cap=1.5)
    # r A = -1.5, -0.9; clip(r) A = -1.2, -0.9; min = -1.5, -0.9 -> per-token loss 1.5, 0.9
    # weighted: 1.5 * 1.5 = 2.25 and 0.9 -> mean 1.575
    assert loss.item() == pytest.approx(1.575, abs=1e-6)
    # unclipped for A < 0 and r > 1: d/dlogp (w r)/2 = 1.5 * 1.5 / 2 = 1.125, and 1.0 * 0.9 / 2 = 0.45
    assert grad[0].tolist() == pytest.approx([1.125, 0.45], abs=1e-6)


def test_without_a_cap_the_behaviour_weight_is_ignored():
    loss, grad, _ = _loss(1.0, cap=None)
    assert loss.item() == pytest.approx((-1.2 - 0.9) / 2, abs=1e-6)
    assert grad[0].tolist() == pytest.approx([0.0, -0.9 / 2], abs=1e-6)


def test_a_large_cap_is_plain_importance_sampling():
    loss, grad, stats = _loss(1.0, cap=100.0)
    # weights 2.0 and 1.0 untruncated: -(2.0 * 1.2 + 1.0 * 0.9) / 2 = -1.65
    assert loss.item() == pytest.approx(-1.65, abs=1e-6)
    assert float(stats["tis_frac_capped"]) == 0.0


# ---------------------------------------------------------------- the trainer recomputes pi_old
class RecordingOptimizer:
    """Stands in for AdamW: records the gradient update_policy hands it, changes nothing."""

    def __init__(self, params):
        self.params = list(params)
        self.grads = []

    def step(self):
        self.grads.append(torch.cat([p.grad.reshape(-1).clone() for p in self.params]))

    def zero_grad(self, set_to_none=True):
        for p in self.params:
            p.grad = None


def _step_data(model, tokenizer, shift: float):
    """Two groups of two fixed completions whose sampler log-probs are the model's plus ``shift``."""
    from rlvr.train.batch import collate
    from rlvr.train.forward import response_logits, token_logp
    from rlvr.train.rollouts import StepData
    from rlvr.types import Completion, Sample, Verdict

    prompt = tokenizer("1+2=?", add_special_tokens=False)["input_ids"]
    bodies = ["<answer>3</answer>", "<answer>4</answer>", "<answer>3</answer>", "9"]
    comps = []
    for text in bodies:
        ids = tokenizer(text, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
        comps.append(Completion(prompt, ids, [0.0] * len(ids), [True] * len(ids), "stop", text))
    batch = collate(comps, tokenizer.pad_token_id)
    with torch.no_grad():
        lp = token_logp(response_logits(model, batch), batch.response_ids)  # (B, R)
    for i, c in enumerate(comps):
        c.sampler_logp = [float(x) + shift for x in lp[i, :len(c.token_ids)]]
    rewards = torch.tensor([1.0, 0.0, 1.0, 0.0])
    verdicts = [Verdict(float(r), "ok" if r else "wrong") for r in rewards]
    return StepData([Sample("s", "1+2=?", "3")] * 4, comps, verdicts, rewards, torch.tensor([0, 0, 1, 1]), rewards)


@pytest.mark.parametrize("shift, frac_capped, total_weight", [(-math.log(3.0), 1.0, 2.0), (math.log(2.0), 0.0, 0.5)])
def test_update_weights_by_recomputed_pi_old(tiny_model, tiny_tokenizer, shift, frac_capped, total_weight):
    """mu = pi_old * exp(shift): with shift -log 3 every weight is 3, capped at 2; with +log 2 every
    weight is 0.5. At ratio 1 the weighted gradient is the plain one times that constant."""
    from rlvr.config import load_config
    from rlvr.train.update import Learner, update_policy

    grads, stats = {}, {}
    for cap in (None, 2.0):
        cfg = load_config(preset="smoke", overrides=["algo.kl_coef=0", f"algo.tis_cap={cap if cap else 'null'}",
                                                     "train.grad_clip=0"])
        opt = RecordingOptimizer(tiny_model.parameters())
        stats[cap] = update_policy(Learner(tiny_model, opt, pad_id=tiny_tokenizer.pad_token_id),
                                   _step_data(tiny_model, tiny_tokenizer, shift), cfg, torch.Generator().manual_seed(0))
        grads[cap] = opt.grads[0]
    assert stats[2.0]["tis_frac_capped"] == pytest.approx(frac_capped)
    assert stats[2.0]["logp_mismatch"] == pytest.approx(abs(shift), abs=1e-5)
    assert torch.allclose(grads[2.0], total_weight * grads[None], atol=1e-7, rtol=1e-5)
    assert grads[None].abs().sum() > 0
